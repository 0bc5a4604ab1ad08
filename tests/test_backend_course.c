// SPDX-License-Identifier: MIT
// The course (S1-S10, ../shared/course/SPEC.md) run through a backend written over tread's public queries
// (backend_public.h, "another engine"): every frame's feet bit-identical to the native run on tread's world, and every
// scene's pass criteria met on the backend.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backend_public.h"
#include "course.h"

// ---- the scenes -----------------------------------------------------------------------------------------------------

typedef struct scene_def {
    const char *name;
    int id;              // 1..10
    tread_vec3 start;    // feet
    tread_vec3 walk;     // horizontal velocity, m/s
    float idle;          // seconds standing before walking
    float seconds;       // the whole run
} scene_def;

static const scene_def scenes[] = {
    {"S1 stairs-up", 1, {0, 0, 0}, {4, 0, 0}, 0, 3},
    {"S2 step-too-high", 2, {0, 0, 0}, {4, 0, 0}, 0, 2},
    {"S3 stairs-down", 3, {6, 2, 0}, {-4, 0, 0}, 0, 3},
    {"S4 slope-30", 4, {0, 0, 0}, {4, 0, 0}, 0, 3},
    {"S5 slope-60", 5, {0, 0, 0}, {4, 0, 0}, 0, 3},
    {"S6 slope-idle", 6, {3.598f, 1.5464f, 0}, {0, 0, 0}, 0, 5},
    {"S7 ramp-crest", 7, {0, 0, 0}, {6, 0, 0}, 0, 3},
    {"S8 wall-slide", 8, {0, 0, 0}, {2.8284271f, 0, 2.8284271f}, 0, 2},
    {"S9 crevasse", 9, {0, 2.5f, 0}, {4, 0, 0}, 2, 4},
    {"S10 low-ceiling-step", 10, {0, 0, 0}, {4, 0, 0}, 0, 2},
};
enum { SCENES = sizeof scenes / sizeof scenes[0] };

// The scene's world (the shared floor and its bodies); *out_crest is a ramp's crest x.
static tread_world *scene_world(int id, float *out_crest) {
    tread_world *w = course_world();
    *out_crest = 0.0f;
    switch (id) {
    case 1: case 3: course_stairs(w); break;
    case 2: course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.5f, 1)); break;
    case 4: case 6: *out_crest = course_ramp(w, 30.0f, 3.0f, 4.0f, 20.0f); break;
    case 5: *out_crest = course_ramp(w, 60.0f, 3.0f, 4.0f, 20.0f); break;
    case 7: *out_crest = course_ramp(w, 20.0f, 2.0f, 4.0f, 30.0f); break;
    case 8: course_box(w, tread_v3(-50, 0, 1), tread_v3(50, 3, 2)); break;
    case 9:
        course_rotated_box(w, tread_v3(0, 1.283494f, -1.029701f), tread_v3(20, 0.5f, 1.693376f), tread_v3(1, 0, 0), 60.0f);
        course_rotated_box(w, tread_v3(0, 1.283494f, 1.029701f), tread_v3(20, 0.5f, 1.693376f), tread_v3(1, 0, 0), -60.0f);
        break;
    case 10:
        course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.3f, 1));
        course_box(w, tread_v3(0.5f, 1.95f, -1), tread_v3(8, 2.5f, 1));
        break;
    }
    return w;
}

typedef struct frame {
    tread_vec3 feet;
    tread_ground_state ground;
    float penetration;
} frame;

// Run a scene on the world (backend NULL) or on `backend`, one record a frame; the frame count.
static int run(const scene_def *sc, tread_world *w, const tread_backend *backend, frame *out) {
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, sc->start), TREAD_OK);
    int frames = (int)(sc->seconds / COURSE_DT + 0.5f), idle = (int)(sc->idle / COURSE_DT + 0.5f);
    for (int f = 0; f < frames; ++f) {
        tread_vec3 h = f < idle ? tread_v3(0, 0, 0) : sc->walk;
        float vy = ch.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : ch.velocity.y + COURSE_G * COURSE_DT;
        tread_vec3 v = tread_v3(h.x, vy, h.z);
        tread_move_result res;
        assert_int_equal(backend ? tread_character_move_on(backend, &ch, v, COURSE_DT, &res) : tread_character_move(w, &ch, v, COURSE_DT, &res),
                         TREAD_OK);
        assert_true(tread_v3_is_finite(ch.position) && tread_v3_is_finite(ch.velocity));
        out[f].feet = ch.position;
        out[f].ground = ch.ground.state;
        out[f].penetration = course_depth(w, &ch);
    }
    return frames;
}

// ---- the pass criteria (SPEC.md "Pass thresholds for tread") ---------------------------------------------------------

static void check_scene(const scene_def *sc, const frame *f, int n, float crest) {
    const char *name = sc->name;
    tread_vec3 last = f[n - 1].feet;
    for (int i = 0; i < n; ++i)
        if (f[i].penetration > 0.001f) fail_msg("%s: frame %d penetrates %g m", name, i, (double)f[i].penetration);
    switch (sc->id) {
    case 1: {
        int top = -1, contact = -1;
        for (int i = 0; i < n && top < 0; ++i) {
            if (contact < 0 && f[i].feet.x >= 0.7f - 0.01f) contact = i;
            if (f[i].feet.y >= 1.95f) top = i;
            if (i > 0 && f[i].feet.y - f[i - 1].feet.y > 0.40f) fail_msg("%s: rose %g m in frame %d", name, (double)(f[i].feet.y - f[i - 1].feet.y), i);
        }
        if (!(fabsf(last.y - 2.0f) <= 0.02f && last.x > 4.0f)) fail_msg("%s: ended at (%g, %g)", name, (double)last.x, (double)last.y);
        if (top < 0 || (float)(top + 1) * COURSE_DT > 1.0f) fail_msg("%s: reached 1.95 m at frame %d", name, top);
        float speed = (f[top].feet.x - f[contact].feet.x) / ((float)(top - contact) * COURSE_DT);
        if (speed < 3.6f) fail_msg("%s: %g m/s while climbing", name, (double)speed);
        break;
    }
    case 2: if (!(last.y < 0.05f && last.x < 1.0f)) fail_msg("%s: ended at (%g, %g)", name, (double)last.x, (double)last.y); break;
    case 3: {
        int grounded = 0, counted = 0;
        for (int i = 6; i < n && f[i - 1].feet.y >= 0.01f; ++i, ++counted) {
            grounded += f[i].ground == TREAD_GROUND_ON_GROUND;
            if (f[i].ground == TREAD_GROUND_ON_GROUND && f[i - 1].feet.y - f[i].feet.y > 0.40f) fail_msg("%s: dropped in frame %d", name, i);
        }
        if ((float)grounded < 0.95f * (float)counted || fabsf(last.y) > 0.02f)
            fail_msg("%s: grounded %d of %d frames, final y %g", name, grounded, counted, (double)last.y);
        break;
    }
    case 4:
        for (int i = 1; i < n; ++i) {
            if (f[i - 1].feet.x < 1.5f || f[i].feet.x > crest - 0.5f) continue;
            float speed = tread_v3_distance(f[i].feet, f[i - 1].feet) / COURSE_DT;
            if (fabsf(speed - 4.0f) > 0.08f) fail_msg("%s: %g m/s along the ramp in frame %d", name, (double)speed, i);
        }
        if (fabsf(last.y - 3.0f) > 0.02f) fail_msg("%s: final y %g, not on the plateau", name, (double)last.y);
        break;
    case 5:
        for (int i = 0; i < n; ++i)
            if (f[i].feet.y > 0.01f) fail_msg("%s: climbed to %g m in frame %d", name, (double)f[i].feet.y, i);
        break;
    case 6: if (tread_v3_distance(last, f[0].feet) >= 0.001f) fail_msg("%s: drifted %g m", name, (double)tread_v3_distance(last, f[0].feet)); break;
    case 7: {
        int on = 0, counted = 0;
        for (int i = 0; i < n; ++i) {
            if (f[i].feet.x <= crest + 0.3f) continue;
            ++counted;
            on += f[i].ground == TREAD_GROUND_ON_GROUND;
            if (f[i].feet.y - 2.0f >= 0.02f) fail_msg("%s: %g m above the plateau in frame %d", name, (double)(f[i].feet.y - 2.0f), i);
        }
        if (counted == 0 || (float)on < 0.95f * (float)counted) fail_msg("%s: grounded %d of %d frames", name, on, counted);
        break;
    }
    case 8: {
        int contact = 0;
        while (contact < n && f[contact].feet.z < 0.69f) ++contact;
        float speed = contact < n - 1 ? (last.x - f[contact].feet.x) / ((float)(n - 1 - contact) * COURSE_DT) : 0.0f;
        if (speed < 2.75f) fail_msg("%s: %g m/s along the wall", name, (double)speed);
        break;
    }
    case 9: {
        const frame *rest = &f[119];
        if (fabsf(rest->feet.y - 0.80f) > 0.01f || rest->ground != TREAD_GROUND_ON_GROUND)
            fail_msg("%s: rests at y %g, ground %d", name, (double)rest->feet.y, (int)rest->ground);
        for (int i = 90; i < 120; ++i)
            if (tread_v3_distance(f[i].feet, f[i - 1].feet) > 0.001f) fail_msg("%s: moved at rest in frame %d", name, i);
        if (last.x - rest->feet.x < 6.0f) fail_msg("%s: advanced %g m", name, (double)(last.x - rest->feet.x));
        break;
    }
    case 10: if (!(last.y < 0.05f)) fail_msg("%s: final y %g", name, (double)last.y); break;
    }
}

static void test_course_on_a_public_api_backend_is_bit_identical_and_passes(void **state) {
    (void)state;
    enum { MAX = 400 };
    static frame native[MAX], other[MAX];
    for (int k = 0; k < SCENES; ++k) {
        float crest;
        tread_world *w = scene_world(scenes[k].id, &crest);
        public_engine engine;
        tread_backend backend = public_backend(&engine, w);
        int n = run(&scenes[k], w, NULL, native), m = run(&scenes[k], w, &backend, other);
        assert_int_equal(n, m);
        for (int i = 0; i < n; ++i)
            if (memcmp(&native[i].feet, &other[i].feet, sizeof native[i].feet) != 0 || native[i].ground != other[i].ground)
                fail_msg("%s frame %d: native (%.9g, %.9g, %.9g) vs backend (%.9g, %.9g, %.9g)", scenes[k].name, i, (double)native[i].feet.x,
                         (double)native[i].feet.y, (double)native[i].feet.z, (double)other[i].feet.x, (double)other[i].feet.y, (double)other[i].feet.z);
        check_scene(&scenes[k], other, m, crest);
        assert_int_equal(atomic_load(&engine.begun), n);
        assert_int_equal(atomic_load(&engine.ended), n);
        assert_int_equal(atomic_load(&engine.outside), 0);
        print_message("%-22s %3d frames bit-identical, passes; %5.1f backend queries a move, final (%.4f, %.4f, %.4f)\n", scenes[k].name, n,
                      (double)atomic_load(&engine.queries) / n, (double)other[n - 1].feet.x, (double)other[n - 1].feet.y, (double)other[n - 1].feet.z);
        tread_world_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_course_on_a_public_api_backend_is_bit_identical_and_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
