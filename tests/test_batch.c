// SPDX-License-Identifier: MIT
// The batch update: characters as obstacles to each other, moved together one frame (tread_batch_move).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"

// Largest overlap between any two characters (their shapes, capsules here), metres.
static float worst_overlap(const tread_character *c, int n) {
    float worst = 0.0f;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_id *ids = (tread_body_id *)malloc(sizeof *ids * (size_t)n);
    assert_non_null(ids);
    for (int i = 0; i < n; ++i) {
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_capsule(0.5f * c[i].settings.height - c[i].settings.radius, c[i].settings.radius);
        def.transform.p = tread_character_center(&c[i]);
        assert_int_equal(tread_world_add_body(w, &def, &ids[i]), TREAD_OK);
    }
    for (int i = 0; i < n; ++i) {
        tread_query_shape shape = tread_character_shape(&c[i]);
        tread_query_filter f = tread_query_filter_default();
        f.ignore_body = ids[i];
        tread_distance_result d;
        assert_int_equal(tread_world_closest(w, &shape, tread_character_center(&c[i]), 0.0f, &f, &d), TREAD_OK);
        if (d.found && -d.distance > worst) worst = -d.distance;
    }
    free(ids);
    tread_world_destroy(w);
    return worst;
}

static tread_world *room(float half) {
    tread_world *w = course_world();
    course_box(w, tread_v3(-half - 1, 0, -half - 1), tread_v3(-half, 3, half + 1));
    course_box(w, tread_v3(half, 0, -half - 1), tread_v3(half + 1, 3, half + 1));
    course_box(w, tread_v3(-half, 0, -half - 1), tread_v3(half, 3, -half));
    course_box(w, tread_v3(-half, 0, half), tread_v3(half, 3, half + 1));
    return w;
}

static tread_character_settings crowd_settings(void) {
    tread_character_settings s = tread_character_settings_default();
    s.collide_mask = 0xFFFFFFFFu; // the batch's character layer (31) included: they block each other
    return s;
}

// Two characters walking head-on into each other in a 1 m corridor: they stop nose to nose, never more than 1 cm
// into each other, and once met they do not jitter: the heavier (140 kg against 70) pushes the lighter back, at a
// steady third of its speed (no frame's step differs from the last by more than 1 mm).
static void test_two_walk_into_each_other(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(-10, 0, -1.5f), tread_v3(10, 3, -0.5f));
    course_box(w, tread_v3(-10, 0, 0.5f), tread_v3(10, 3, 1.5f));
    tread_batch *b = NULL;
    tread_batch_def bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
    tread_character c[2];
    tread_character_settings s = crowd_settings();
    assert_int_equal(tread_character_init(&c[0], &s, tread_v3(-3, 0.002f, 0)), TREAD_OK);
    s.mass = 140.0f; // the heavier one
    assert_int_equal(tread_character_init(&c[1], &s, tread_v3(3, 0.002f, 0)), TREAD_OK);
    tread_vec3 v[2] = {tread_v3(2, -1, 0), tread_v3(-2, -1, 0)};
    tread_move_result res[2];
    float worst = 0.0f, jitter = 0.0f, last_step = 0.0f;
    tread_vec3 met = tread_v3_zero();
    for (int f = 0; f < 240; ++f) {
        tread_vec3 before = c[0].position;
        assert_int_equal(tread_batch_move(b, w, c, v, 2, COURSE_DT, res), TREAD_OK);
        worst = fmaxf(worst, worst_overlap(c, 2));
        float step = c[0].position.x - before.x;
        if (f == 120) met = c[0].position;
        if (f > 120) jitter = fmaxf(jitter, fabsf(step - last_step));
        last_step = step;
    }
    float speed = (c[0].position.x - met.x) / (119.0f * COURSE_DT);
    print_message("head-on: worst overlap %.4f m, step changes by %.5f m, the light one goes %.3f m/s, gap %.4f m\n", (double)worst,
                  (double)jitter, (double)speed, (double)(c[1].position.x - c[0].position.x - 0.6f));
    assert_true(worst <= 0.01f);
    assert_true(jitter <= 1e-3f);
    // Pushed back at the pair's common speed, momentum kept: 2 m/s x (140 - 70) / 210 = 2/3 m/s (measured to 2e-6 m/s).
    // To float rounding: 119 steps of the feet near 2 m, half an ulp (1.2e-7 m) each, over 1.98 s is 7e-6 m/s.
    assert_float_equal(speed, -2.0f / 3.0f, 1e-5f);
    assert_true(c[1].position.x - c[0].position.x >= 0.59f);
    tread_batch_destroy(b);
    tread_world_destroy(w);
}

// Parted on a slope, each stays on it: two capsules overlapping 10 cm side by side across a 20 degree ramp are
// parted along the ramp, one down it and one up, and each ends resting on the ramp (its bottom ball the radius and
// the skin from the ramp's plane), on ground. Parted blind, the one pushed down the ramp hovered above it with
// the ground it had before: its ball 8.8 mm off the ramp (crowds on Quake III levels, 6 mm).
static void test_parted_on_a_slope_stays_on_it(void **state) {
    (void)state;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    const float degrees = 20.0f, t = degrees * COURSE_PI / 180.0f;
    course_rotated_box(w, tread_v3(0, 0, 0), tread_v3(10, 1, 10), tread_v3(0, 0, 1), degrees);
    tread_vec3 n = tread_v3(-sinf(t), cosf(t), 0); // the ramp's top: n . p = 1
    tread_batch *b = NULL;
    tread_batch_def bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
    tread_character_settings s = crowd_settings();
    tread_character c[2];
    for (int i = 0; i < 2; ++i) {
        float x = i == 0 ? -(s.radius - 0.05f) : s.radius - 0.05f;
        // The bottom ball's centre the radius and the skin from the plane, straight above x.
        float centre_y = (1.0f + (s.radius + s.skin) + x * sinf(t)) / cosf(t);
        assert_int_equal(tread_character_init(&c[i], &s, tread_v3(x, centre_y - s.radius, 0)), TREAD_OK);
    }
    tread_vec3 v[2] = {tread_v3(0, -0.1f, 0), tread_v3(0, -0.1f, 0)};
    tread_move_result res[2];
    // One frame: each moves (and stays on the ramp), then the batch parts them.
    assert_int_equal(tread_batch_move(b, w, c, v, 2, COURSE_DT, res), TREAD_OK);
    assert_true(c[1].position.x - c[0].position.x >= 2.0f * s.radius - 0.01f);
    for (int i = 0; i < 2; ++i) {
        float gap = tread_v3_dot(n, tread_v3_mad(c[i].position, s.radius, tread_v3(0, 1, 0))) - 1.0f - s.radius;
        print_message("character %d: x %.4f, the ball %.4f m off the ramp, ground %d\n", i, (double)c[i].position.x, (double)gap,
                      (int)c[i].ground.state);
        assert_int_equal(c[i].ground.state, TREAD_GROUND_ON_GROUND);
        assert_int_equal(res[i].ground.state, TREAD_GROUND_ON_GROUND);
        assert_float_equal(gap, s.skin, 1e-3f);
    }
    tread_batch_destroy(b);
    tread_world_destroy(w);
}

// The same crowd in any order gives the same result, bit for bit: every character meets the others as they were
// when the frame began, ranked by position.
static void test_result_does_not_depend_on_order(void **state) {
    (void)state;
    tread_world *w = room(5);
    enum { N = 40 };
    tread_character a[N], z[N];
    tread_vec3 va[N], vz[N];
    tread_move_result ra[N], rz[N];
    tread_character_settings s = crowd_settings();
    for (int i = 0; i < N; ++i) {
        float x = -4.0f + 0.5f * (float)(i % 16), zz = -4.0f + 2.0f * (float)(i / 16);
        assert_int_equal(tread_character_init(&a[i], &s, tread_v3(x, 0.002f, zz)), TREAD_OK);
        va[i] = tread_v3(i % 2 ? 2.0f : -2.0f, -1, i % 3 ? 1.0f : -1.0f);
        z[N - 1 - i] = a[i];
        vz[N - 1 - i] = va[i];
    }
    tread_batch *ba = NULL, *bz = NULL;
    tread_batch_def bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &ba), TREAD_OK);
    assert_int_equal(tread_batch_create(&bd, &bz), TREAD_OK);
    for (int f = 0; f < 120; ++f) {
        assert_int_equal(tread_batch_move(ba, w, a, va, N, COURSE_DT, ra), TREAD_OK);
        assert_int_equal(tread_batch_move(bz, w, z, vz, N, COURSE_DT, rz), TREAD_OK);
    }
    for (int i = 0; i < N; ++i) assert_memory_equal(&a[i].position, &z[N - 1 - i].position, sizeof(tread_vec3));
    tread_batch_destroy(ba);
    tread_batch_destroy(bz);
    tread_world_destroy(w);
}

// 200 characters in a walled 20 x 20 m room, each walking to random targets for 20 s: no two overlap by more than
// 1 cm, none is more than 1 mm inside a wall, nothing is NaN.
static void test_crowd_in_a_room(void **state) {
    (void)state;
    enum { N = 200 };
    tread_world *w = room(10);
    tread_character *c = (tread_character *)malloc(sizeof *c * N);
    tread_vec3 *v = (tread_vec3 *)malloc(sizeof *v * N), *target = (tread_vec3 *)malloc(sizeof *target * N);
    tread_move_result *res = (tread_move_result *)malloc(sizeof *res * N);
    assert_true(c && v && target && res);
    uint32_t seed = 7;
    for (int i = 0; i < N; ++i) {
        tread_character_settings s = crowd_settings();
        s.mass = 50.0f + (float)(i % 5) * 20.0f;
        assert_int_equal(tread_character_init(&c[i], &s, tread_v3(-9.0f + 0.9f * (float)(i % 20), 0.002f, -9.0f + 1.8f * (float)(i / 20))), TREAD_OK);
        target[i] = c[i].position;
    }
    tread_batch *b = NULL;
    tread_batch_def bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
    float worst = 0.0f, deepest_wall = 0.0f, walked = 0.0f;
    for (int f = 0; f < 20 * 60; ++f) {
        for (int i = 0; i < N; ++i) {
            tread_vec3 to = tread_v3_sub(target[i], c[i].position);
            to.y = 0.0f;
            if (tread_v3_length(to) < 0.3f || f % 300 == 0) {
                seed = seed * 1664525u + 1013904223u;
                float x = -9.0f + 18.0f * (float)(seed >> 8) / 16777216.0f;
                seed = seed * 1664525u + 1013904223u;
                target[i] = tread_v3(x, 0, -9.0f + 18.0f * (float)(seed >> 8) / 16777216.0f);
            }
            v[i] = tread_v3_add(tread_v3_scale(tread_v3_normalize(to), 2.0f), tread_v3(0, -1, 0));
        }
        tread_vec3 first = c[0].position;
        assert_int_equal(tread_batch_move(b, w, c, v, N, COURSE_DT, res), TREAD_OK);
        walked += tread_v3_distance(first, c[0].position);
        if (f % 30 == 29) {
            worst = fmaxf(worst, worst_overlap(c, N));
            for (int i = 0; i < N; ++i) {
                assert_true(tread_v3_is_finite(c[i].position));
                tread_query_shape shape = tread_character_shape(&c[i]);
                tread_distance_result d;
                assert_int_equal(tread_world_closest(w, &shape, tread_character_center(&c[i]), 0.0f, NULL, &d), TREAD_OK);
                if (d.found && -d.distance > deepest_wall) deepest_wall = -d.distance;
            }
        }
    }
    print_message("crowd of %d for 20 s: worst overlap %.4f m, deepest in a wall %.5f m, the first walked %.1f m\n", N, (double)worst,
                  (double)deepest_wall, (double)walked);
    assert_true(walked > 10.0f); // they do walk
    assert_true(worst <= 0.01f);
    assert_true(deepest_wall <= 1e-3f);
    tread_batch_destroy(b);
    free(c), free(v), free(target), free(res);
    tread_world_destroy(w);
}

// Two crowds of 50 crossing in a 4 m corridor, walking at 1.5 m/s toward the other end: they get past each other
// (at least 45 of each crowd beyond the far crowd's start line within 40 s), never more than 1 cm into each other
// and never inside the walls.
static void test_two_crowds_cross_in_a_corridor(void **state) {
    (void)state;
    enum { HALF = 50, N = 2 * HALF };
    tread_world *w = course_world();
    course_box(w, tread_v3(-20, 0, -3), tread_v3(20, 3, -2));
    course_box(w, tread_v3(-20, 0, 2), tread_v3(20, 3, 3));
    tread_character c[N];
    tread_vec3 v[N];
    tread_move_result res[N];
    tread_character_settings s = crowd_settings();
    for (int i = 0; i < N; ++i) {
        int k = i % HALF, side = i < HALF ? -1 : 1;
        tread_vec3 p = tread_v3((float)side * (8.0f + 0.8f * (float)(k / 5)), 0.002f, -1.6f + 0.8f * (float)(k % 5));
        assert_int_equal(tread_character_init(&c[i], &s, p), TREAD_OK);
    }
    tread_batch *b = NULL;
    tread_batch_def bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
    float worst = 0.0f, deepest_wall = 0.0f;
    for (int f = 0; f < 40 * 60; ++f) {
        for (int i = 0; i < N; ++i) {
            // Toward the far end, keeping right (the steering a game gives its crowds: each crowd takes its lane; head
            // on, the controller only stops them, it does not steer them past each other).
            float dir = i < HALF ? 1.0f : -1.0f, lane = dir * 1.0f; // facing +x, right is +z
            float lateral = fmaxf(-0.8f, fminf(0.8f, lane - c[i].position.z));
            v[i] = tread_v3(1.5f * dir, -1, lateral);
        }
        assert_int_equal(tread_batch_move(b, w, c, v, N, COURSE_DT, res), TREAD_OK);
        if (f % 20 == 0) {
            worst = fmaxf(worst, worst_overlap(c, N));
            for (int i = 0; i < N; ++i) {
                tread_query_shape shape = tread_character_shape(&c[i]);
                tread_distance_result d;
                assert_int_equal(tread_world_closest(w, &shape, tread_character_center(&c[i]), 0.0f, NULL, &d), TREAD_OK);
                if (d.found && -d.distance > deepest_wall) deepest_wall = -d.distance;
            }
        }
    }
    int crossed[2] = {0, 0};
    for (int i = 0; i < N; ++i) crossed[i < HALF ? 0 : 1] += i < HALF ? c[i].position.x > 8.0f : c[i].position.x < -8.0f;
    print_message("corridor: %d and %d of %d crossed, worst overlap %.4f m, deepest in a wall %.5f m\n", crossed[0], crossed[1], HALF,
                  (double)worst, (double)deepest_wall);
    assert_true(crossed[0] >= 45 && crossed[1] >= 45);
    assert_true(worst <= 0.01f);
    assert_true(deepest_wall <= 1e-3f);
    tread_batch_destroy(b);
    tread_world_destroy(w);
}

static void test_bad_batch_input(void **state) {
    (void)state;
    tread_batch *b = NULL;
    tread_batch_def bd = tread_batch_def_default();
    bd.separation_passes = 0;
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "separation_passes"));
    bd = tread_batch_def_default();
    bd.character_layer = 32;
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "character_layer"));
    bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
    tread_world *w = course_world();
    tread_character c[2];
    tread_character_settings s = crowd_settings();
    assert_int_equal(tread_character_init(&c[0], &s, tread_v3(0, 0.002f, 0)), TREAD_OK);
    assert_int_equal(tread_character_init(&c[1], &s, tread_v3(2, 0.002f, 0)), TREAD_OK);
    tread_character before[2] = {c[0], c[1]};
    tread_vec3 v[2] = {tread_v3(1, 0, 0), tread_v3(NAN, 0, 0)};
    tread_move_result res[2];
    assert_int_equal(tread_batch_move(b, w, c, v, 2, COURSE_DT, res), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "characters[1]"));
    assert_memory_equal(c, before, sizeof c); // nothing moved
    assert_int_equal(tread_batch_move(b, w, c, v, -1, COURSE_DT, res), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_batch_move(b, w, NULL, v, 2, COURSE_DT, res), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_batch_move(b, w, c, v, 0, COURSE_DT, res), TREAD_OK);
    tread_batch_destroy(b);
    tread_world_destroy(w);
}

// A game's job system that runs the ranges backwards, in uneven pieces (the results must not care).
static void reversed_jobs(tread_task_fn *task, void *task_context, int count, void *context) {
    (void)context;
    for (int end = count; end > 0;) {
        int begin = end - 1 - (end % 7);
        if (begin < 0) begin = 0;
        task(task_context, begin, end);
        end = begin;
    }
}

// A job system that forgets the last item: the batch says so instead of reading a move that never ran.
static void forgetful_jobs(tread_task_fn *task, void *task_context, int count, void *context) {
    (void)context;
    if (count > 1) task(task_context, 0, count - 1);
}

// The same crowd moved for 2 s on 1, 2 and 8 threads of the built-in pool and through a game's job system that
// runs the ranges backwards: every character and every result bit-identical.
static void test_results_do_not_depend_on_threads(void **state) {
    (void)state;
    enum { N = 150, RUNS = 4 };
    tread_world *w = room(8);
    static tread_character c[RUNS][N];
    static tread_move_result res[RUNS][N];
    tread_vec3 v[N];
    tread_character_settings s = crowd_settings();
    for (int i = 0; i < N; ++i) {
        assert_int_equal(tread_character_init(&c[0][i], &s, tread_v3(-7.0f + 1.0f * (float)(i % 15), 0.002f, -7.0f + 1.4f * (float)(i / 15))),
                         TREAD_OK);
        for (int k = 1; k < RUNS; ++k) c[k][i] = c[0][i];
        v[i] = tread_v3(i % 2 ? 2.0f : -2.0f, -1, i % 3 ? 1.5f : -1.5f);
    }
    tread_batch *b[RUNS];
    const int threads[RUNS] = {1, 2, 8, 0};
    for (int k = 0; k < RUNS; ++k) {
        tread_batch_def bd = tread_batch_def_default();
        bd.threads = threads[k];
        if (k == 3) bd.parallel_for = reversed_jobs;
        assert_int_equal(tread_batch_create(&bd, &b[k]), TREAD_OK);
    }
    for (int f = 0; f < 120; ++f)
        for (int k = 0; k < RUNS; ++k) assert_int_equal(tread_batch_move(b[k], w, c[k], v, N, COURSE_DT, res[k]), TREAD_OK);
    for (int k = 1; k < RUNS; ++k) {
        assert_memory_equal(c[k], c[0], sizeof c[0]);
        for (int i = 0; i < N; ++i) {
            assert_memory_equal(&res[k][i].position, &res[0][i].position, sizeof(tread_vec3));
            assert_int_equal(res[k][i].contact_count, res[0][i].contact_count);
        }
    }
    for (int k = 0; k < RUNS; ++k) tread_batch_destroy(b[k]);
    // A job system that skips an item is caught.
    tread_batch_def bd = tread_batch_def_default();
    bd.parallel_for = forgetful_jobs;
    tread_batch *bad = NULL;
    assert_int_equal(tread_batch_create(&bd, &bad), TREAD_OK);
    assert_int_equal(tread_batch_move(bad, w, c[0], v, N, COURSE_DT, res[0]), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "parallel_for"));
    tread_batch_destroy(bad);
    bd = tread_batch_def_default();
    bd.threads = 65;
    assert_int_equal(tread_batch_create(&bd, &bad), TREAD_ERR_INVALID_ARGUMENT);
    tread_world_destroy(w);
}

// The characters' checks run on the batch's threads: with several bad characters the first by index is the one named,
// in the words one pass over them would use, whatever the threads or the job system's order.
static void test_first_bad_character_is_named(void **state) {
    (void)state;
    enum { N = 1500 }; // (a batch this big checks its characters on its threads)
    tread_world *w = room(6);
    static tread_character c[N], before[N];
    static tread_move_result res[N];
    tread_vec3 v[N];
    tread_character_settings s = crowd_settings();
    for (int i = 0; i < N; ++i) {
        assert_int_equal(tread_character_init(&c[i], &s, tread_v3(-4.0f + 0.2f * (float)(i % 40), 0.002f, -4.0f + 0.2f * (float)(i / 40))), TREAD_OK);
        v[i] = tread_v3_zero();
    }
    c[1337].position.x = NAN;   // a bad state, last
    v[733] = tread_v3(0, NAN, 0); // a bad argument
    c[521].position.y = NAN;    // a bad state, first
    memcpy(before, c, sizeof c);
    for (int k = 0; k < 3; ++k) {
        tread_batch_def bd = tread_batch_def_default();
        bd.threads = k == 0 ? 1 : 2;
        if (k == 2) bd.parallel_for = reversed_jobs;
        tread_batch *b = NULL;
        assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
        assert_int_equal(tread_batch_move(b, w, c, v, N, COURSE_DT, res), TREAD_ERR_NOT_FINITE);
        assert_non_null(strstr(tread_error_message(), "characters[521]->position"));
        tread_batch_report report = {TREAD_OK, -2};
        assert_int_equal(tread_batch_get_report(b, &report), TREAD_OK);
        assert_int_equal(report.failed_character, 521);
        assert_memory_equal(c, before, sizeof c);
        // Mended, the bad argument is next: named with its index before the argument's own words.
        c[521].position.y = 0.002f;
        assert_int_equal(tread_batch_move(b, w, c, v, N, COURSE_DT, res), TREAD_ERR_NOT_FINITE);
        assert_non_null(strstr(tread_error_message(), "characters[733]: velocity"));
        assert_int_equal(tread_batch_get_report(b, &report), TREAD_OK);
        assert_int_equal(report.failed_character, 733);
        c[521].position.y = NAN;
        tread_batch_destroy(b);
    }
    tread_world_destroy(w);
}

// Characters that neither collide with nor stand on the batch's layer never meet: the batch moves each exactly as a
// move alone would (bit for bit, on one thread or two), and they walk through each other.
static void test_characters_apart_move_as_alone(void **state) {
    (void)state;
    enum { N = 60 };
    tread_world *w = room(6);
    static tread_character alone[N], together[2][N];
    static tread_move_result res[N], batch_res[N];
    tread_vec3 v[N];
    tread_character_settings s = tread_character_settings_default();
    uint32_t layer = 1u << tread_batch_def_default().character_layer;
    s.collide_mask &= ~layer;
    s.ground_mask &= ~layer;
    for (int i = 0; i < N; ++i) {
        assert_int_equal(tread_character_init(&alone[i], &s, tread_v3(-5.0f + 1.0f * (float)(i % 10), 0.002f, -5.0f + 1.6f * (float)(i / 10))),
                         TREAD_OK);
        together[0][i] = together[1][i] = alone[i];
        v[i] = tread_v3(i % 2 ? 2.0f : -2.0f, -1, i % 3 ? 1.0f : -1.0f);
    }
    tread_batch *b[2];
    for (int k = 0; k < 2; ++k) {
        tread_batch_def bd = tread_batch_def_default();
        bd.threads = k + 1;
        assert_int_equal(tread_batch_create(&bd, &b[k]), TREAD_OK);
    }
    // Each character's contacts go to its own slice of the batch's buffer, as its single move's go to its buffer.
    enum { CAP = 8 };
    static tread_contact single[CAP], sliced[N * CAP];
    tread_move_options one = tread_move_options_default(), all = tread_move_options_default();
    one.contacts = single, one.contact_capacity = CAP;
    all.contacts = sliced, all.contact_capacity = CAP;
    float overlapped = 0.0f;
    int touching = 0;
    for (int f = 0; f < 90; ++f) {
        for (int k = 0; k < 2; ++k) assert_int_equal(tread_batch_move_with(b[k], w, together[k], v, N, COURSE_DT, &all, batch_res), TREAD_OK);
        for (int i = 0; i < N; ++i) {
            assert_int_equal(tread_character_move_with(w, &alone[i], v[i], COURSE_DT, &one, &res[i]), TREAD_OK);
            assert_int_equal(batch_res[i].contact_count, res[i].contact_count);
            int n = res[i].contact_count < CAP ? res[i].contact_count : CAP;
            assert_memory_equal(sliced + i * CAP, single, sizeof single[0] * (size_t)n);
            touching += n > 0;
        }
        for (int k = 0; k < 2; ++k) {
            assert_memory_equal(together[k], alone, sizeof alone);
            for (int i = 0; i < N; ++i) assert_memory_equal(&batch_res[i].position, &res[i].position, sizeof(tread_vec3));
        }
        float worst = worst_overlap(alone, N);
        if (worst > overlapped) overlapped = worst;
    }
    assert_true(overlapped > 0.1f); // they passed through each other
    assert_true(touching > N * 90 / 2); // (the floor at least: the slices were filled)
    for (int k = 0; k < 2; ++k) tread_batch_destroy(b[k]);
    tread_world_destroy(w);
}

// ---- atomic batches ------------------------------------------------------------------------------------------

typedef struct event_count {
    int added, persisted, removed;
} event_count;

static void count_added(const tread_character *c, int index, const tread_contact_event *e, void *context) {
    (void)c, (void)index, (void)e;
    ++((event_count *)context)->added;
}
static void count_persisted(const tread_character *c, int index, const tread_contact_event *e, void *context) {
    (void)c, (void)index, (void)e;
    ++((event_count *)context)->persisted;
}
static void count_removed(const tread_character *c, int index, const tread_contact_event *e, void *context) {
    (void)c, (void)index, (void)e;
    ++((event_count *)context)->removed;
}

// A parallel-for that runs the items one at a time, last first: the first failure by index is the one reported,
// whatever order the moves ran in.
static void backwards(tread_task_fn *task, void *task_context, int count, void *context) {
    (void)context;
    for (int i = count - 1; i >= 0; --i) task(task_context, i, i + 1);
}

// An engine whose world has a region it cannot answer about (past x = 500: its begin_move fails there), through
// tread's own world. (A move within tread's own limits no longer fails: a run past the coordinate limit stops at it.)
static tread_result refuse_far(void *context, const tread_aabb *bounds, void **out_move) {
    (void)context;
    *out_move = NULL;
    return bounds->max.x > 500.0f ? TREAD_ERR_INVALID_ARGUMENT : TREAD_OK;
}

// A batch whose one move fails (a character far out running at 900 m/s into the region the engine cannot answer
// about, while the others stand on the floor at the origin) is all or nothing: the error names that
// character in the message and in the batch's report, no character changes, the listener hears nothing (the others'
// floor contacts were reported `added` before, for a frame that never happened) and no contact memory changes (the
// next good frame reports them added, not persisted). With two failing, the first by index is reported, whatever
// order the moves ran in.
static void test_a_failed_move_fails_the_batch_silently(void **state) {
    (void)state;
    const float edge = 500.0f;
    tread_world *w = course_world();
    course_box(w, tread_v3(edge - 20.0f, -1, -5), tread_v3(edge, 0, 5));
    tread_backend engine = tread_world_backend(w);
    engine.begin_move = refuse_far;
    enum { N = 5 };
    tread_character c[N];
    tread_vec3 v[N];
    tread_move_result res[N];
    tread_character_settings s = crowd_settings();
    for (int i = 0; i < N; ++i) {
        assert_int_equal(tread_character_init(&c[i], &s, tread_v3(-6.0f + 3.0f * (float)i, 0, 0)), TREAD_OK);
        v[i] = tread_v3_zero();
    }
    assert_int_equal(tread_character_set_position(&c[2], tread_v3(edge - 10.0f, 0, 0)), TREAD_OK);
    event_count events = {0, 0, 0};
    tread_contact_listener listener;
    memset(&listener, 0, sizeof listener);
    listener.added = count_added, listener.persisted = count_persisted, listener.removed = count_removed;
    listener.context = &events;
    tread_move_options options = tread_move_options_default();
    options.listener = &listener;
    for (int threads = 0; threads < 2; ++threads) {
        tread_batch_def bd = tread_batch_def_default();
        if (threads) bd.parallel_for = backwards;
        else bd.threads = 1;
        tread_batch *b = NULL;
        assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
        v[2] = tread_v3(900, 0, 0); // (15 m in a frame: into the far region)
        if (threads) { // a second runaway, run before the first
            assert_int_equal(tread_character_set_position(&c[4], tread_v3(edge - 10.0f, 0, 3)), TREAD_OK);
            v[4] = v[2];
        }
        tread_character start[N];
        memcpy(start, c, sizeof start);
        assert_int_equal(tread_batch_move_with_on(b, &engine, c, v, N, COURSE_DT, &options, res), TREAD_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(tread_error_message(), "characters[2]: "));
        assert_non_null(strstr(tread_error_message(), "backend->begin_move failed"));
        tread_batch_report report = {TREAD_OK, -2};
        assert_int_equal(tread_batch_get_report(b, &report), TREAD_OK);
        assert_int_equal(report.result, TREAD_ERR_INVALID_ARGUMENT);
        assert_int_equal(report.failed_character, 2);
        assert_memory_equal(start, c, sizeof start);
        assert_int_equal(events.added + events.persisted + events.removed, 0);
        // The frame again without the runaways: each character's floor is news (added), the memories untouched.
        v[2] = v[4] = tread_v3_zero();
        assert_int_equal(tread_batch_move_with_on(b, &engine, c, v, N, COURSE_DT, &options, res), TREAD_OK);
        assert_int_equal(tread_batch_get_report(b, &report), TREAD_OK);
        assert_int_equal(report.result, TREAD_OK);
        assert_int_equal(report.failed_character, -1);
        assert_int_equal(events.added, N);
        assert_int_equal(events.persisted, 0);
        assert_int_equal(tread_batch_move_with(b, w, c, v, N, COURSE_DT, &options, res), TREAD_OK);
        assert_int_equal(events.added, N);
        assert_int_equal(events.persisted, N);
        assert_int_equal(events.removed, 0);
        events = (event_count){0, 0, 0};
        tread_batch_destroy(b);
    }
    tread_world_destroy(w);
}

// A character standing on another is told which (ground.character, its index; the ground's body null) and is carried
// by it; its contacts name the other character by index, never by a body; the ground survives save and restore, and
// the restored character moves on bit for bit as the original. Two box characters: the lower walks, the upper rides.
static void test_a_rider_names_and_follows_the_character_under_it(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_batch *b = NULL;
    tread_batch_def bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
    tread_character_settings s = crowd_settings();
    s.shape = TREAD_QUERY_BOX;
    tread_character c[2];
    assert_int_equal(tread_character_init(&c[0], &s, tread_v3(0, 0.002f, 0)), TREAD_OK);
    assert_int_equal(tread_character_init(&c[1], &s, tread_v3(0, s.height + 0.05f, 0)), TREAD_OK);
    tread_vec3 v[2] = {tread_v3(0, -1, 0), tread_v3(0, -1, 0)};
    tread_move_result res[2];
    tread_contact contacts[2 * 8];
    tread_move_options options = tread_move_options_default();
    options.contacts = contacts;
    options.contact_capacity = 8;
    for (int f = 0; f < 30; ++f) assert_int_equal(tread_batch_move_with(b, w, c, v, 2, COURSE_DT, &options, res), TREAD_OK);
    // Landed on the lower one's top.
    assert_int_equal(c[1].ground.state, TREAD_GROUND_ON_GROUND);
    assert_int_equal(c[1].ground.character, 0);
    assert_true(tread_body_id_equal(c[1].ground.body, tread_body_id_null()));
    assert_int_equal(res[1].ground.character, 0);
    assert_int_equal(c[0].ground.character, -1);
    assert_false(tread_body_id_equal(c[0].ground.body, tread_body_id_null()));
    bool named = false;
    for (int k = 0; k < res[1].contact_count && k < 8; ++k) {
        const tread_contact *t = &contacts[8 + k];
        if (t->character >= 0) {
            assert_int_equal(t->character, 0);
            assert_true(tread_body_id_equal(t->body, tread_body_id_null()));
            named = true;
        } else {
            assert_int_equal(t->character, -1);
            assert_false(tread_body_id_equal(t->body, tread_body_id_null()));
        }
    }
    assert_true(named);
    // Saved and restored, the rider still stands on character 0.
    uint8_t bytes[TREAD_CHARACTER_STATE_SIZE];
    size_t size = 0;
    assert_int_equal(tread_character_save(&c[1], bytes, sizeof bytes, &size), TREAD_OK);
    tread_character copy[2] = {c[0], c[0]};
    assert_int_equal(tread_character_load(&copy[1], bytes, size), TREAD_OK);
    assert_int_equal(copy[1].ground.character, 0);
    assert_true(tread_body_id_equal(copy[1].ground.body, tread_body_id_null()));
    // The lower one walks off along x: the rider goes with it (carried by its body's motion), bit for bit as the
    // restored copy in a batch of its own.
    tread_batch *b2 = NULL;
    assert_int_equal(tread_batch_create(&bd, &b2), TREAD_OK);
    v[0] = tread_v3(1.0f, -1, 0);
    float start = c[1].position.x;
    for (int f = 0; f < 30; ++f) {
        assert_int_equal(tread_batch_move(b, w, c, v, 2, COURSE_DT, res), TREAD_OK);
        assert_int_equal(tread_batch_move(b2, w, copy, v, 2, COURSE_DT, res), TREAD_OK);
        assert_memory_equal(&c[1].position, &copy[1].position, sizeof c[1].position);
    }
    print_message("rider: carried %.3f m while the one under it walked %.3f m\n", (double)(c[1].position.x - start), (double)c[0].position.x);
    assert_int_equal(c[1].ground.character, 0);
    assert_true(c[1].position.x - start > 0.9f * c[0].position.x);
    // A ground naming a character and a body at once is refused, by name.
    tread_character bad = c[1];
    bad.ground.body = c[0].ground.body;
    assert_int_equal(tread_character_save(&bad, bytes, sizeof bytes, &size), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "ground.character"));
    tread_batch_destroy(b2);
    tread_batch_destroy(b);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_walk_into_each_other),
        cmocka_unit_test(test_parted_on_a_slope_stays_on_it),
        cmocka_unit_test(test_result_does_not_depend_on_order),
        cmocka_unit_test(test_crowd_in_a_room),
        cmocka_unit_test(test_two_crowds_cross_in_a_corridor),
        cmocka_unit_test(test_bad_batch_input),
        cmocka_unit_test(test_results_do_not_depend_on_threads),
        cmocka_unit_test(test_first_bad_character_is_named),
        cmocka_unit_test(test_characters_apart_move_as_alone),
        cmocka_unit_test(test_a_failed_move_fails_the_batch_silently),
        cmocka_unit_test(test_a_rider_names_and_follows_the_character_under_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
