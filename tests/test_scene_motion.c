// SPDX-License-Identifier: MIT
// Body motion in scene files (docs/SCENES.md "Body motion"): keyframed paths (validated with their JSON
// paths, evaluated once / looping / ping-pong, whole turns kept), the runner advancing the world before the
// characters with path bodies landing on their path, the rider checks (rides, max_sink), "pending" marks, traces and
// --up. The rider checks are judged on hand-made traces here, so these tests do not depend on the controller.
#define _POSIX_C_SOURCE 200809L // mkstemp
#include "scene_test_support.h"

#include <math.h>
#include <unistd.h>

#include "tread/tread.h"

static void load_text(const char *json, scene *s) {
    scene_error err;
    if (!scene_load_buffer("motion.json", json, strlen(json), s, &err)) fail_msg("%s", err.message);
}

#define LIFT(kinematic) "{\"type\": \"box\", \"name\": \"lift\", \"center\": [0, 0.25, 0], \"half_extents\": [1, 0.25, 1], \"kinematic\": " kinematic "}"
#define RIDER "{\"name\": \"rider\", \"start\": [0, 0.5, 0], \"input\": [{\"t\": 0, \"idle\": true}]}"

static void test_path_errors_name_their_json_path(void **state) {
    (void)state;
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 2}, {\"time\": 1.5}]}"), RIDER),
                 "bodies[0].kinematic.path[2].time: 1.5 s is not after the previous key's 2 s (keys must be in increasing time)");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 0}]}"), RIDER), "bodies[0].kinematic.path[1].time: 0 s is not after");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}]}"), RIDER), "bodies[0].kinematic.path: has 1 key; a path needs at least 2");
    expect_error(SCENE_WITH(LIFT("{\"path\": {}}"), RIDER), "bodies[0].kinematic.path: expected an array, got an object");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": -1}, {\"time\": 1}]}"), RIDER), "bodies[0].kinematic.path[0].time: -1 is out of range");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1, \"ofset\": [0, 1, 0]}]}"), RIDER),
                 "bodies[0].kinematic.path[1]: unknown field \"ofset\"");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1, \"offset\": [0, 1]}]}"), RIDER),
                 "bodies[0].kinematic.path[1].offset: expected an array of 3 numbers");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1, \"rotation\": {\"axis\": [0, 0, 0], \"degrees\": 90}}]}"), RIDER),
                 "bodies[0].kinematic.path[1].rotation.axis: is the zero vector");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1, \"offset\": [0, 1, 0]}], \"loop\": \"loop\"}"), RIDER),
                 "bodies[0].kinematic.path[1]: a looping path must end where it starts");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1, \"rotation\": {\"axis\": [0, 1, 0], \"degrees\": 90}}], \"loop\": \"loop\"}"),
                            RIDER),
                 "bodies[0].kinematic.path[1]: a looping path must end where it starts");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1}], \"loop\": \"bounce\"}"), RIDER),
                 "bodies[0].kinematic.loop: unknown value \"bounce\"");
    expect_error(SCENE_WITH(LIFT("{\"loop\": \"loop\"}"), RIDER), "bodies[0].kinematic.loop: needs a \"path\"");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1}], \"linear_velocity\": [0, 1, 0]}"), RIDER),
                 "bodies[0].kinematic: give either \"path\" or \"linear_velocity\"/\"angular_velocity\", not both");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1e-6, \"offset\": [0, 1, 0]}]}"), RIDER),
                 "bodies[0].kinematic.path[1]: moves 1e+06 m/s along an axis from the previous key; at most 65536");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1e-6, \"rotation\": {\"axis\": [0, 1, 0], \"degrees\": 90}}]}"), RIDER),
                 "bodies[0].kinematic.path[1]: turns 1.5708e+06 rad/s from the previous key");
    expect_error(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1, \"offset\": [70000, 0, 0]}]}"), RIDER),
                 "bodies[0].kinematic.path[1].offset: puts the body at [70000, 0.25, 0], beyond the 65536 m coordinate limit");
    // A looping path that closes (whole turns are one rotation) loads.
    scene s;
    load_text(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1, \"offset\": [0, 1, 0]}, {\"time\": 2, \"rotation\": {\"axis\": [0, 1, 0], "
                              "\"degrees\": 720}}], \"loop\": \"loop\"}"),
                         RIDER),
              &s);
    scene_free(&s);
}

static void test_rider_check_errors(void **state) {
    (void)state;
#define WITH_CHECK(check) "{\"duration\": 1, \"bodies\": [" FLOOR ", " LIFT("{\"linear_velocity\": [0, 1, 0]}") ", " LIFT("{}") "], \"characters\": [" RIDER "], \"expectations\": [" check "]}"
    expect_error(WITH_CHECK("{\"type\": \"rides\"}"), "expectations[0]: missing required field \"body\"");
    expect_error(WITH_CHECK("{\"type\": \"rides\", \"body\": \"lift\"}"), "expectations[0].body: bodies[1] and bodies[2] are both named \"lift\"; give the index");
    expect_error(WITH_CHECK("{\"type\": \"rides\", \"body\": \"crane\"}"), "expectations[0].body: no body is named \"crane\"");
    expect_error(WITH_CHECK("{\"type\": \"max_sink\", \"body\": 0}"), "expectations[0].body: bodies[0] is static and has no surface velocity; a rider is checked against a kinematic body or a conveyor");
    expect_error(WITH_CHECK("{\"type\": \"max_sink\", \"body\": 3}"), "expectations[0].body: 3 is out of range");
    expect_error(WITH_CHECK("{\"type\": \"rides\", \"body\": 1, \"max\": -1}"), "expectations[0].max: -1 is out of range");
    expect_error(WITH_CHECK("{\"type\": \"rides\", \"body\": 1, \"pending\": \"\"}"), "expectations[0].pending: is empty");
    expect_error(WITH_CHECK("{\"type\": \"rides\", \"body\": 1, \"pending\": 3}"), "expectations[0].pending: expected a string");
    expect_error("{\"duration\": 1, \"pending_penetration\": \"\", \"bodies\": [], \"characters\": [" RIDER "]}", "pending_penetration: is empty");
#undef WITH_CHECK
    // Every kinematic body's every frame is recorded: the loader refuses what the trace could not hold.
    expect_error("{\"duration\": 600, \"dt\": 0.0001, \"bodies\": [" LIFT("{\"linear_velocity\": [0, 0, 0]}") ", " LIFT("{}") "], \"characters\": [" RIDER "]}",
                 "bodies: 2 moving bodies x 6000000 frames = 12000000 body frames to record; at most 10000000");
}

// Angle of the rotation from b to a, radians (from the relative quaternion's parts: exact near zero, unlike acos).
static double quat_angle(tread_quat a, tread_quat b) {
    double ax = a.x, ay = a.y, az = a.z, aw = a.w, bx = -(double)b.x, by = -(double)b.y, bz = -(double)b.z, bw = b.w;
    double x = aw * bx + ax * bw + ay * bz - az * by, y = aw * by - ax * bz + ay * bw + az * bx;
    double z = aw * bz + ax * by - ay * bx + az * bw, w = aw * bw - ax * bx - ay * by - az * bz;
    return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}

static void expect_at(const scene_path *p, double t, tread_vec3 at, const double axis[3], double angle) {
    tread_transform x = scene_path_transform(p, t);
    if (fabsf(x.p.x - at.x) > 1e-5f || fabsf(x.p.y - at.y) > 1e-5f || fabsf(x.p.z - at.z) > 1e-5f)
        fail_msg("at t = %g: (%g, %g, %g), expected (%g, %g, %g)", t, (double)x.p.x, (double)x.p.y, (double)x.p.z, (double)at.x, (double)at.y,
                 (double)at.z);
    tread_quat want = {(float)(axis[0] * sin(0.5 * angle)), (float)(axis[1] * sin(0.5 * angle)), (float)(axis[2] * sin(0.5 * angle)),
                       (float)cos(0.5 * angle)};
    if (quat_angle(x.q, want) > 2e-6) fail_msg("at t = %g: rotation %g rad off %g rad about the axis", t, quat_angle(x.q, want), angle);
}

// Offsets and turns from the placement, between keys and beyond them, for each loop mode.
static void test_path_evaluation(void **state) {
    (void)state;
    static const double up[3] = {0, 1, 0}, x_axis[3] = {1, 0, 0};
    const double pi = 3.14159265358979323846;
    scene s;
    // Waits 1 s, rises 2 m and turns a full turn and a half about up by t = 3, ping-pong.
    load_text(SCENE_WITH(LIFT("{\"path\": [{\"time\": 1}, {\"time\": 3, \"offset\": [0, 2, 0], \"rotation\": {\"axis\": [0, 1, 0], \"degrees\": 540}}], "
                              "\"loop\": \"ping_pong\"}"),
                         RIDER),
              &s);
    const scene_path *p = &s.bodies[0].path;
    assert_non_null(p->keys);
    assert_int_equal(s.bodies[0].def.type, TREAD_BODY_KINEMATIC);
    expect_at(p, 0.0, tread_v3(0, 0.25f, 0), up, 0.0);
    expect_at(p, 1.0, tread_v3(0, 0.25f, 0), up, 0.0);
    expect_at(p, 1.5, tread_v3(0, 0.75f, 0), up, 0.75 * pi); // a quarter of the way: 135 degrees
    expect_at(p, 2.0, tread_v3(0, 1.25f, 0), up, 1.5 * pi);  // half way: 270 degrees, not the short way back
    expect_at(p, 3.0, tread_v3(0, 2.25f, 0), up, 3.0 * pi);
    expect_at(p, 4.0, tread_v3(0, 1.25f, 0), up, 1.5 * pi); // coming back
    expect_at(p, 5.0, tread_v3(0, 0.25f, 0), up, 0.0);
    expect_at(p, 5.5, tread_v3(0, 0.75f, 0), up, 0.75 * pi); // and up again
    scene_free(&s);
    // Once: holds the last key. A quaternion key next to another rotation turns the short way (spherical).
    load_text(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0, \"offset\": [1, 0, 0]}, {\"time\": 2, \"offset\": [3, 0, 0], "
                              "\"rotation\": {\"quaternion\": [0.7071068, 0, 0, 0.7071068]}}]}"),
                         RIDER),
              &s);
    p = &s.bodies[0].path;
    expect_at(p, 0.0, tread_v3(1, 0.25f, 0), x_axis, 0.0);
    expect_at(p, 1.0, tread_v3(2, 0.25f, 0), x_axis, 0.25 * pi);
    expect_at(p, 2.0, tread_v3(3, 0.25f, 0), x_axis, 0.5 * pi);
    expect_at(p, 60.0, tread_v3(3, 0.25f, 0), x_axis, 0.5 * pi);
    // The body starts where its path starts, not where its fields put it.
    assert_float_equal(s.bodies[0].def.transform.p.x, 1.0f, 1e-6f);
    assert_float_equal(s.bodies[0].silhouette.min.x, 0.0f, 1e-6f);
    scene_free(&s);
    // Loop: starts again from the first key (which the last equals).
    load_text(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1, \"offset\": [0, 0, 4]}, {\"time\": 2}], \"loop\": \"loop\"}"), RIDER), &s);
    p = &s.bodies[0].path;
    expect_at(p, 0.5, tread_v3(0, 0.25f, 2), up, 0.0);
    expect_at(p, 2.5, tread_v3(0, 0.25f, 2), up, 0.0);
    expect_at(p, 3.25, tread_v3(0, 0.25f, 3), up, 0.0);
    expect_at(p, 1001.75, tread_v3(0, 0.25f, 1), up, 0.0);
    scene_free(&s);
}

// Each frame, a path body's velocities take it onto its path: its transform after tread_world_advance is the path's
// at the frame's end, and its motion over the frame (tread_body_get_motion) is its velocity times dt.
static void test_path_velocity_lands_on_the_path(void **state) {
    (void)state;
    scene s;
    load_text(SCENE_WITH(LIFT("{\"path\": [{\"time\": 0.2}, {\"time\": 1.3, \"offset\": [1, 3, -2], \"rotation\": {\"axis\": [1, 1, 0], \"degrees\": 200}}, "
                              "{\"time\": 2, \"offset\": [0, 1, 0], \"rotation\": {\"quaternion\": [0, 0, 0.6, 0.8]}}], \"loop\": \"ping_pong\"}"),
                         RIDER),
              &s);
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &s.bodies[0].def, &id), TREAD_OK);
    const float dt = 1.0f / 60.0f;
    double worst_p = 0.0, worst_q = 0.0, worst_v = 0.0;
    for (int i = 0; i < 600; ++i) {
        tread_transform now, previous, current;
        tread_vec3 linear, angular;
        assert_int_equal(tread_body_get_transform(w, id, &now), TREAD_OK);
        scene_path_velocity(&s.bodies[0].path, now, (double)(i + 1) * dt, dt, &linear, &angular);
        assert_int_equal(tread_body_set_velocity(w, id, linear, angular), TREAD_OK);
        assert_int_equal(tread_world_advance(w, dt), TREAD_OK);
        assert_int_equal(tread_body_get_motion(w, id, &previous, &current), TREAD_OK);
        tread_transform want = scene_path_transform(&s.bodies[0].path, (double)(i + 1) * dt);
        worst_p = fmax(worst_p, tread_v3_distance(current.p, want.p));
        worst_q = fmax(worst_q, quat_angle(current.q, want.q));
        tread_vec3 moved = tread_v3_sub(current.p, previous.p);
        worst_v = fmax(worst_v, tread_v3_distance(tread_v3_scale(moved, 1.0f / dt), linear));
    }
    printf("  600 frames: at most %.3g m and %.3g rad off the path; velocity within %.3g m/s of the frame's motion\n", worst_p, worst_q, worst_v);
    assert_true(worst_p < 2e-6 && worst_q < 1e-6 && worst_v < 1e-3);
    tread_world_destroy(w);
    scene_free(&s);
}

// `tread run` advances the world every frame, before the characters: kinematic bodies move (they never did), with
// constant velocities or along their paths, and the trace records where.
static void test_runner_moves_bodies(void **state) {
    (void)state;
    scene s;
    load_text("{\"duration\": 2, \"bodies\": [" FLOOR ", " LIFT("{\"linear_velocity\": [0, 0.5, 0]}") ", "
              "{\"type\": \"box\", \"center\": [5, 1, 0], \"half_extents\": [1, 0.1, 1], \"kinematic\": {\"path\": [{\"time\": 0}, {\"time\": 1, \"offset\": [0, 0, 2]}], \"loop\": \"ping_pong\"}}], "
              "\"characters\": [" RIDER "]}",
              &s);
    run_trace t;
    char message[512] = "";
    assert_true(run_scene(&s, NULL, &t, message, sizeof message));
    assert_int_equal(t.body_count, 2);
    assert_int_equal(t.body_index[0], 1);
    assert_int_equal(t.body_index[1], 2);
    assert_int_equal(t.body_slot[0], -1);
    assert_int_equal(t.body_slot[2], 1);
    for (int i = 0; i < t.frame_count; ++i) {
        float time = (float)(i + 1) * t.dt;
        assert_float_equal(run_body_at(&t, 0, i).p.y, 0.25f + 0.5f * time, 2e-5f);
        tread_transform want = scene_path_transform(&s.bodies[2].path, (double)(i + 1) * t.dt);
        assert_true(tread_v3_distance(run_body_at(&t, 1, i).p, want.p) < 2e-6f);
    }
    assert_float_equal(run_body_at(&t, 0, -1).p.y, 0.25f, 1e-7f);
    assert_float_equal(run_body_at(&t, 1, t.frame_count - 1).p.z, 0.0f, 1e-5f); // there and back
    // The rider went up with the lift it stands on (the world moved first; the course loop takes the ground's
    // vertical velocity): 1 m in 2 s.
    assert_float_equal(t.final[0].position.y, 1.5f, 0.01f);
    run_trace_free(&t);
    scene_free(&s);
}

// A run turned to another up vector (--up) turns paths too, and reads back the same motion.
static void test_rotated_run_turns_paths(void **state) {
    (void)state;
    scene s;
    load_text(SCENE_WITH(FLOOR ", " LIFT("{\"path\": [{\"time\": 0}, {\"time\": 1, \"offset\": [1, 2, 0], \"rotation\": {\"axis\": [0, 1, 0], \"degrees\": 90}}], \"loop\": \"ping_pong\"}"),
                         RIDER),
              &s);
    run_trace plain, turned;
    run_options o = {0};
    o.rotate_up = true;
    o.up = tread_v3_normalize(tread_v3(1, 1, 0.5f));
    char message[512] = "";
    assert_true(run_scene(&s, NULL, &plain, message, sizeof message));
    assert_true(run_scene(&s, &o, &turned, message, sizeof message));
    double worst = 0.0;
    for (int i = -1; i < plain.frame_count; ++i) {
        tread_transform a = run_body_at(&plain, 0, i), b = run_body_at(&turned, 0, i);
        worst = fmax(worst, fmax(tread_v3_distance(a.p, b.p), quat_angle(a.q, b.q)));
    }
    assert_true(worst < 1e-5);
    // The scene's own keys were not turned by the rotated run.
    assert_float_equal(s.bodies[1].path.keys[1].offset.x, 1.0f, 0.0f);
    run_trace_free(&plain);
    run_trace_free(&turned);
    scene_free(&s);
}

// A trace by hand: the scene's rider at `feet[i]` and its one kinematic body at `bodies[i]` after frame i.
static void make_trace(const scene *s, run_trace *t, int frames, float dt) {
    memset(t, 0, sizeof *t);
    t->frame_count = frames;
    t->character_count = 1;
    t->dt = dt;
    t->frames = (run_frame *)calloc((size_t)frames, sizeof(run_frame));
    t->initial_penetration = (float *)calloc(1, sizeof(float));
    t->final = (tread_character *)calloc(1, sizeof(tread_character));
    t->final[0].settings = s->characters[0].settings;
    t->body_count = 1;
    t->body_index = (int *)calloc(1, sizeof(int));
    t->body_slot = (int *)calloc((size_t)s->body_count, sizeof(int));
    t->body_start = (tread_transform *)calloc(1, sizeof(tread_transform));
    t->body_frames = (tread_transform *)calloc((size_t)frames, sizeof(tread_transform));
    for (int i = 0; i < s->body_count; ++i) t->body_slot[i] = s->bodies[i].def.type == TREAD_BODY_KINEMATIC ? 0 : -1;
    for (int i = 0; i < s->body_count; ++i)
        if (t->body_slot[i] == 0) t->body_index[0] = i;
    for (int i = 0; i < frames; ++i) t->frames[i].finite = true, t->frames[i].ground = TREAD_GROUND_ON_GROUND;
}

static const check_result *result_named(const check_result *r, int n, const char *name) {
    for (int i = 0; i < n; ++i)
        if (strcmp(r[i].name, name) == 0) return &r[i];
    fail_msg("no result named %s", name);
    return NULL;
}

// rides and max_sink on traces made by hand: a disc turning at 1 rad/s, a rider that turns with it (until 1.5 s)
// and then stays behind, sinking 4 mm for one frame at 1 s.
static void test_rider_checks_measure(void **state) {
    (void)state;
    scene s;
    load_text("{\"duration\": 2, \"bodies\": [" FLOOR ", {\"type\": \"box\", \"name\": \"disc\", \"center\": [0, 0.25, 0], \"half_extents\": [6, 0.25, 6], "
              "\"kinematic\": {\"angular_velocity\": [0, 1, 0]}}], \"characters\": [" RIDER "], \"expectations\": ["
              "{\"name\": \"rides until 1.5 s\", \"type\": \"rides\", \"body\": \"disc\", \"window\": {\"end\": {\"time\": 1.5}}},"
              "{\"name\": \"rides to the end\", \"type\": \"rides\", \"body\": \"disc\", \"max\": 0.01},"
              "{\"name\": \"sinks\", \"type\": \"max_sink\", \"body\": 1, \"max\": 0.005},"
              "{\"name\": \"sinks 1 mm\", \"type\": \"max_sink\", \"body\": 1},"
              "{\"name\": \"pending and failing\", \"type\": \"rides\", \"body\": 1, \"pending\": \"carrying\"}"
              "], \"pending_penetration\": \"pushing\"}",
              &s);
    const int frames = 120;
    const float dt = 1.0f / 60.0f;
    run_trace t;
    make_trace(&s, &t, frames, dt);
    t.body_start[0] = s.bodies[1].def.transform;
    tread_vec3 feet = tread_v3(4, 0.5f, 0);
    for (int i = 0; i < frames; ++i) {
        double a = (double)(i + 1) * dt;
        tread_transform b = s.bodies[1].def.transform;
        b.q = tread_quat_from_axis_angle(tread_v3(0, 1, 0), (float)a);
        t.body_frames[i] = b;
        if (i < 89) feet = tread_v3((float)(4.0 * cos(a)), 0.5f, (float)(-4.0 * sin(a))); // on its spot until frame 90 (t = 1.5 s)
        t.frames[i].feet = feet;
        if (i == 59) t.frames[i].feet.y -= 0.004f; // sunk 4 mm at t = 1 s
    }
    check_result r[16];
    int n = run_checks(&s, &t, r, 16);
    const check_result *until = result_named(r, n, "rides until 1.5 s"), *all = result_named(r, n, "rides to the end");
    assert_true(until->value < 0.0045 && until->value > 0.0035); // the sinking frame: 4 mm off its spot
    assert_false(until->passed);
    // From frame 90 the rider stays where it is while the disc turns on, 31 frames (31/60 rad) by the end: the chord
    // 2 * 4 * sin(31/120).
    assert_true(fabs(all->value - 8.0 * sin(0.5 * 31.0 / 60.0)) < 2e-3);
    assert_false(all->passed);
    assert_float_equal(result_named(r, n, "sinks")->value, 0.004, 1e-5);
    assert_true(result_named(r, n, "sinks")->passed);
    assert_false(result_named(r, n, "sinks 1 mm")->passed);
    // Pending: a failure is expected (counts as passed, marked); a pass is not (fails, asks for the mark to go).
    const check_result *pf = result_named(r, n, "pending and failing");
    assert_true(pf->passed && pf->pending);
    assert_non_null(strstr(pf->detail, "expected to fail (pending: carrying)"));
    // The penetration invariant passes (no penetration), so its pending mark makes it fail.
    const check_result *pen = result_named(r, n, "rider: penetration");
    assert_false(pen->passed);
    assert_non_null(strstr(pen->detail, "passes, but is marked pending (pushing): remove the mark"));
    assert_true(result_named(r, n, "rider: finite state")->passed);
    t.frames[3].penetration = 0.01f;
    n = run_checks(&s, &t, r, 16);
    pen = result_named(r, n, "rider: penetration");
    assert_true(pen->passed && pen->pending);
    run_trace_free(&t);
    scene_free(&s);
}

// A pending check that passes fails; one whose window holds the rider exactly passes when not pending.
static void test_pending_check_that_passes_fails(void **state) {
    (void)state;
    scene s;
    load_text("{\"duration\": 1, \"bodies\": [" FLOOR ", " LIFT("{\"linear_velocity\": [0, 1, 0]}") "], \"characters\": [" RIDER "], \"expectations\": ["
              "{\"name\": \"exact\", \"type\": \"rides\", \"body\": \"lift\"},"
              "{\"name\": \"exact but pending\", \"type\": \"max_sink\", \"body\": \"lift\", \"pending\": \"nothing\"}]}",
              &s);
    run_trace t;
    make_trace(&s, &t, 60, 1.0f / 60.0f);
    t.body_start[0] = s.bodies[1].def.transform;
    for (int i = 0; i < 60; ++i) {
        t.body_frames[i] = s.bodies[1].def.transform;
        t.body_frames[i].p.y += (float)(i + 1) / 60.0f;
        t.frames[i].feet = tread_v3(0.25f, 0.502f + (float)(i + 1) / 60.0f, -0.5f);
    }
    check_result r[8];
    int n = run_checks(&s, &t, r, 8);
    assert_true(result_named(r, n, "exact")->passed);
    assert_true(result_named(r, n, "exact")->value < 1e-6);
    const check_result *pp = result_named(r, n, "exact but pending");
    assert_false(pp->passed);
    assert_false(pp->pending);
    assert_non_null(strstr(pp->detail, "passes, but is marked pending (nothing): remove the mark"));
    run_trace_free(&t);
    scene_free(&s);
}

// crushed_frames counts the window's frames whose move said crushed (run_frame.crushed, from tread_move_result).
static void test_crushed_frames_counts_crushed_moves(void **state) {
    (void)state;
    expect_error("{\"duration\": 1, \"bodies\": [" FLOOR "], \"characters\": [" RIDER "], \"expectations\": [{\"type\": \"crushed_frames\"}]}",
                 "expectations[0]: needs \"min\", \"max\" or both");
    expect_error("{\"duration\": 1, \"bodies\": [" FLOOR "], \"characters\": [" RIDER "], \"expectations\": [{\"type\": \"crushed_frames\", \"body\": 0, \"min\": 1}]}",
                 "expectations[0]: unknown field \"body\"");
    scene s;
    load_text("{\"duration\": 1, \"bodies\": [" FLOOR ", " LIFT("{\"linear_velocity\": [0, -1, 0]}") "], \"characters\": [" RIDER "], \"expectations\": ["
              "{\"name\": \"crushed\", \"type\": \"crushed_frames\", \"min\": 1},"
              "{\"name\": \"never crushed\", \"type\": \"crushed_frames\", \"max\": 0},"
              "{\"name\": \"not before 0.5 s\", \"type\": \"crushed_frames\", \"max\": 0, \"window\": {\"end\": {\"time\": 0.5}}}]}",
              &s);
    assert_int_equal(s.checks[0].kind, SCENE_CHECK_CRUSHED_FRAMES);
    run_trace t;
    make_trace(&s, &t, 60, 1.0f / 60.0f);
    for (int i = 40; i < 43; ++i) t.frames[i].crushed = true;
    check_result r[8];
    int n = run_checks(&s, &t, r, 8);
    assert_true(result_named(r, n, "crushed")->passed);
    assert_float_equal(result_named(r, n, "crushed")->value, 3.0f, 0.0f);
    assert_false(result_named(r, n, "never crushed")->passed);
    assert_non_null(strstr(result_named(r, n, "never crushed")->detail, "reported crushed in 3 of 60 frames, expected <= 0 frames"));
    assert_true(result_named(r, n, "not before 0.5 s")->passed);
    run_trace_free(&t);
    scene_free(&s);
}

// The runner records the move's crushed flag: a slab coming down at 5 m/s onto a capsule on the floor squeezes it.
static void test_runner_records_crushed_moves(void **state) {
    (void)state;
    scene s;
    load_text("{\"duration\": 1, \"bodies\": [" FLOOR ", {\"type\": \"box\", \"center\": [0, 3.5, 0], \"half_extents\": [1, 0.5, 1], "
              "\"kinematic\": {\"path\": [{\"time\": 0}, {\"time\": 0.5, \"offset\": [0, -2.5, 0]}]}}], "
              "\"characters\": [{\"start\": [0.2, 0, 0], \"input\": []}]}",
              &s);
    run_trace t;
    char message[512] = "";
    assert_true(run_scene(&s, NULL, &t, message, sizeof message));
    int crushed = 0;
    for (int i = 0; i < t.frame_count; ++i) crushed += run_frame_at(&t, 0, i)->crushed;
    assert_true(crushed >= 1);
    assert_true(t.final[0].position.x > 1.29f); // out beside the slab
    run_trace_free(&t);
    scene_free(&s);
}

// Traces carry each moving body's transform, in columns named by its index in the file.
static void test_trace_has_body_columns(void **state) {
    (void)state;
    scene s;
    load_text(SCENE_WITH(FLOOR ", " LIFT("{\"linear_velocity\": [0, 1, 0]}"), RIDER), &s);
    run_trace t;
    char message[512] = "", path[] = "/tmp/tread_motion_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_true(run_scene(&s, NULL, &t, message, sizeof message));
    assert_true(write_trace_csv(&s, &t, path, message, sizeof message));
    FILE *f = fopen(path, "r");
    char line[1024];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "penetration,crushed,bodies[1].x,bodies[1].y,bodies[1].z,bodies[1].qx,bodies[1].qy,bodies[1].qz,bodies[1].qw\n"));
    int rows = 0;
    float y = 0.0f;
    while (fgets(line, sizeof line, f)) {
        ++rows;
        int commas = 0;
        const char *last = line;
        for (const char *c = line; *c; ++c)
            if (*c == ',' && ++commas == 15) last = c + 1;
        y = strtof(last, NULL);
    }
    fclose(f);
    remove(path);
    assert_int_equal(rows, t.frame_count);
    assert_float_equal(y, 0.25f + 2.0f, 1e-4f); // the lift's y after 2 s at 1 m/s
    run_trace_free(&t);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path_errors_name_their_json_path),
        cmocka_unit_test(test_rider_check_errors),
        cmocka_unit_test(test_path_evaluation),
        cmocka_unit_test(test_path_velocity_lands_on_the_path),
        cmocka_unit_test(test_runner_moves_bodies),
        cmocka_unit_test(test_rotated_run_turns_paths),
        cmocka_unit_test(test_rider_checks_measure),
        cmocka_unit_test(test_pending_check_that_passes_fails),
        cmocka_unit_test(test_crushed_frames_counts_crushed_moves),
        cmocka_unit_test(test_runner_records_crushed_moves),
        cmocka_unit_test(test_trace_has_body_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
