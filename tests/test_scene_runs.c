// SPDX-License-Identifier: MIT
// The shipped course run through the tool's loader and runner, the way `tread run` does: S1 at several
// update rates, every course scene mirrored to up = +Z (an axis swap: identical bits, frame by frame), and
// every course scene under tilted up vectors (every check passes, final positions within 1e-4 m: 5.5e-5 measured;
// README's course results quote it), and every course scene stepped live frame by frame as run_scene runs it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tread_scene.h"

static const char *const course[] = {
    "S01-stairs-up", "S02-step-too-high", "S03-stairs-down", "S04-slope-30", "S05-slope-60",
    "S06-slope-idle", "S07-ramp-crest", "S08-wall-slide", "S09-crevasse", "S10-low-ceiling-step",
};
enum { COURSE_SCENES = sizeof course / sizeof course[0] };

static void load(const char *name, scene *s) {
    char path[512];
    snprintf(path, sizeof path, "%s/course/%s.json", TREAD_SCENES, name);
    scene_error err;
    if (!scene_load(path, s, &err)) fail_msg("%s", err.message);
}

// Run and require every check (and invariant) to pass.
static void run_passing(const scene *s, const run_options *o, run_trace *t) {
    char message[512] = "";
    assert_true(run_scene(s, o, t, message, sizeof message));
    check_result results[64];
    int n = run_checks(s, t, results, 64);
    for (int i = 0; i < n; ++i)
        if (!results[i].passed) fail_msg("%s: %s: %s", s->name, results[i].name, results[i].detail);
}

static void test_s1_at_30_60_120_240_hz(void **state) {
    (void)state;
    scene s;
    load("S01-stairs-up", &s);
    const float rates[] = {30.0f, 60.0f, 120.0f, 240.0f};
    for (int k = 0; k < 4; ++k) {
        run_options o = {0};
        o.dt = 1.0f / rates[k];
        run_trace t;
        run_passing(&s, &o, &t);
        print_message("S1 at %.0f Hz: final (%.4f, %.4f)\n", (double)rates[k], (double)t.final[0].position.x, (double)t.final[0].position.y);
        run_trace_free(&t);
    }
    scene_free(&s);
}

// (x, y, z) -> (x, z, y): swapping two axes mirrors the world. A box's orientation R becomes P R P, whose
// quaternion is (-x, -z, -y, w) — exact component moves, so the mirrored world holds the same bits.
static tread_vec3 swap_yz(tread_vec3 v) { return tread_v3(v.x, v.z, v.y); }

static void mirror_scene(scene *s) {
    for (int i = 0; i < s->body_count; ++i) {
        tread_body_def *d = &s->bodies[i].def;
        assert_true(d->shape.type == TREAD_SHAPE_BOX || d->shape.type == TREAD_SHAPE_SPHERE); // the course is boxes
        d->transform.p = swap_yz(d->transform.p);
        tread_quat q = d->transform.q;
        d->transform.q = (tread_quat){-q.x, -q.z, -q.y, q.w};
        d->shape.half_extents = swap_yz(d->shape.half_extents);
    }
    for (int c = 0; c < s->character_count; ++c) {
        scene_character *ch = &s->characters[c];
        ch->start = swap_yz(ch->start);
        ch->settings.up = swap_yz(ch->settings.up);
        for (int i = 0; i < ch->input_count; ++i) {
            ch->inputs[i].direction = swap_yz(ch->inputs[i].direction);
            ch->inputs[i].target = swap_yz(ch->inputs[i].target);
        }
    }
    s->gravity = swap_yz(s->gravity);
    s->up = swap_yz(s->up);
}

static void test_course_with_up_z_is_bit_identical(void **state) {
    (void)state;
    for (int k = 0; k < COURSE_SCENES; ++k) {
        scene a, b;
        load(course[k], &a);
        load(course[k], &b);
        mirror_scene(&b);
        run_trace ta, tb;
        char message[512] = "";
        assert_true(run_scene(&a, NULL, &ta, message, sizeof message));
        assert_true(run_scene(&b, NULL, &tb, message, sizeof message));
        assert_int_equal(ta.frame_count, tb.frame_count);
        for (int i = 0; i < ta.frame_count * ta.character_count; ++i) {
            tread_vec3 pa = ta.frames[i].feet, pb = swap_yz(tb.frames[i].feet);
            if (memcmp(&pa, &pb, sizeof pa) != 0)
                fail_msg("%s frame %d: (%.9g, %.9g, %.9g) vs mirrored (%.9g, %.9g, %.9g)", course[k], i, (double)pa.x, (double)pa.y,
                         (double)pa.z, (double)pb.x, (double)pb.y, (double)pb.z);
            assert_int_equal(ta.frames[i].ground, tb.frames[i].ground);
        }
        run_trace_free(&ta);
        run_trace_free(&tb);
        scene_free(&a);
        scene_free(&b);
    }
}

static void test_course_with_tilted_up_passes_and_agrees(void **state) {
    (void)state;
    const tread_vec3 ups[] = {{0.3f, 0.9f, 0.2f}, {-0.5f, 0.5f, 0.7f}, {0.0f, 0.0f, 1.0f}};
    float worst = 0.0f;
    for (int k = 0; k < COURSE_SCENES; ++k) {
        scene s;
        load(course[k], &s);
        run_trace plain;
        run_passing(&s, NULL, &plain);
        for (int u = 0; u < 3; ++u) {
            run_options o = {0};
            o.rotate_up = true;
            o.up = ups[u];
            run_trace t;
            run_passing(&s, &o, &t);
            float d = tread_v3_distance(t.final[0].position, plain.final[0].position);
            if (d > worst) worst = d;
            if (d > 1e-4f) fail_msg("%s with up (%g, %g, %g): final position %.6f m from the upright run", course[k], (double)ups[u].x,
                                    (double)ups[u].y, (double)ups[u].z, (double)d);
            run_trace_free(&t);
        }
        run_trace_free(&plain);
        scene_free(&s);
    }
    print_message("tilted up: final positions agree within %.2e m\n", (double)worst);
}

// A live run (scene_run_*, recording only the last frame, as the WebAssembly viewer steps one) is run_scene's run
// frame by frame: the same final state and last frame, bit for bit, on every course scene. Driving a character
// replaces its input for that one frame.
static void test_live_run_is_run_scene(void **state) {
    (void)state;
    for (int k = 0; k < COURSE_SCENES; ++k) {
        scene s;
        load(course[k], &s);
        run_trace full, live;
        char message[512] = "";
        assert_true(run_scene(&s, NULL, &full, message, sizeof message));
        scene_run *run = NULL;
        assert_true(scene_run_begin(&s, NULL, 1, &live, &run, message, sizeof message));
        for (int i = 0; i < full.frame_count; ++i) {
            assert_true(scene_run_advance(run, message, sizeof message));
            scene_run_move(run);
        }
        assert_int_equal(scene_run_frames_done(run), full.frame_count);
        for (int c = 0; c < s.character_count; ++c) {
            assert_memory_equal(&live.final[c].position, &full.final[c].position, sizeof(tread_vec3));
            assert_memory_equal(&live.final[c].velocity, &full.final[c].velocity, sizeof(tread_vec3));
            assert_memory_equal(run_frame_at(&live, c, 0), run_frame_at(&full, c, full.frame_count - 1), sizeof(run_frame));
        }
        // S1: one more frame with its character driven along -z at 1 m/s, across the open floor.
        if (k == 0) {
            tread_vec3 before = live.final[0].position;
            assert_true(scene_run_advance(run, message, sizeof message));
            scene_run_drive(run, 0, tread_v3(0.0f, 0.0f, -1.0f));
            scene_run_move(run);
            assert_true(live.final[0].position.z < before.z - 0.5f * s.dt);
        }
        scene_run_end(run);
        run_trace_free(&live);
        run_trace_free(&full);
        scene_free(&s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s1_at_30_60_120_240_hz),
        cmocka_unit_test(test_course_with_up_z_is_bit_identical),
        cmocka_unit_test(test_course_with_tilted_up_passes_and_agrees),
        cmocka_unit_test(test_live_run_is_run_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
