// SPDX-License-Identifier: MIT
// Conveyors in scene files (docs/SCENES.md "Conveyors"): a body's "surface" (linear and angular velocity about a
// centre, in the body's frame) loads into tread_body_def.surface, bad values are named by their JSON path, and the
// rider checks (rides, max_sink) follow a conveyor's surface: judged on hand-made traces, so they do not depend on
// the controller, and once through the runner, which hands the surface to the library.
#include "scene_test_support.h"

#include <math.h>

#include "tread/tread.h"

static void load_text(const char *json, scene *s) {
    scene_error err;
    if (!scene_load_buffer("conveyor.json", json, strlen(json), s, &err)) fail_msg("%s", err.message);
}

#define BELT(surface) "{\"type\": \"box\", \"name\": \"belt\", \"center\": [0, 0.1, 0], \"half_extents\": [6, 0.1, 2], \"surface\": " surface "}"
#define RIDER "{\"name\": \"rider\", \"start\": [-4, 0.2, 0], \"input\": [{\"t\": 0, \"idle\": true}]}"

#define assert_near(a, b, tolerance) \
    do { \
        double a_ = (a), b_ = (b); \
        if (!(fabs(a_ - b_) <= (tolerance))) fail_msg("%s = %.9g, expected %.9g", #a, a_, b_); \
    } while (0)

static void expect_v3(tread_vec3 v, float x, float y, float z) {
    if (v.x != x || v.y != y || v.z != z) fail_msg("(%g, %g, %g), expected (%g, %g, %g)", (double)v.x, (double)v.y, (double)v.z, (double)x, (double)y, (double)z);
}

static void test_surface_loads_into_the_body_def(void **state) {
    (void)state;
    scene s;
    load_text(SCENE_WITH(FLOOR ", " BELT("{\"linear\": [2, 0, -0.5], \"angular\": [0, 0.25, 0], \"center\": [1, 0, -1]}") ", "
                         BELT("{\"angular\": [0, -1, 0]}") ", " BELT("{}") ", "
                         "{\"type\": \"box\", \"center\": [0, 3, 0], \"half_extents\": [1, 0.1, 1], \"kinematic\": {\"linear_velocity\": [0, 1, 0]}, "
                         "\"surface\": {\"linear\": [0, 0, 3]}}",
                         RIDER),
              &s);
    const tread_surface_velocity *v = &s.bodies[1].def.surface;
    expect_v3(v->linear, 2.0f, 0.0f, -0.5f);
    expect_v3(v->angular, 0.0f, 0.25f, 0.0f);
    expect_v3(v->center, 1.0f, 0.0f, -1.0f);
    assert_int_equal(s.bodies[1].def.type, TREAD_BODY_STATIC);
    assert_true(scene_body_has_surface(&s.bodies[1]));
    // Every part is optional, zero by default.
    expect_v3(s.bodies[2].def.surface.linear, 0.0f, 0.0f, 0.0f);
    expect_v3(s.bodies[2].def.surface.angular, 0.0f, -1.0f, 0.0f);
    expect_v3(s.bodies[2].def.surface.center, 0.0f, 0.0f, 0.0f);
    assert_false(scene_body_has_surface(&s.bodies[3]));
    assert_false(scene_body_has_surface(&s.bodies[0]));
    // A kinematic body may carry a surface too (a belt on a moving platform).
    assert_int_equal(s.bodies[4].def.type, TREAD_BODY_KINEMATIC);
    expect_v3(s.bodies[4].def.surface.linear, 0.0f, 0.0f, 3.0f);
    scene_free(&s);
}

static void test_bad_surfaces_name_their_json_path(void **state) {
    (void)state;
    expect_error(SCENE_WITH(FLOOR ", " BELT("3"), RIDER), "bodies[1].surface: expected an object, got a number");
    expect_error(SCENE_WITH(FLOOR ", " BELT("{\"speed\": [1, 0, 0]}"), RIDER),
                 "bodies[1].surface: unknown field \"speed\" (expected one of: linear, angular, center)");
    expect_error(SCENE_WITH(FLOOR ", " BELT("{\"linear\": [1, 0]}"), RIDER), "bodies[1].surface.linear: expected an array of 3 numbers, got 2 elements");
    expect_error(SCENE_WITH(FLOOR ", " BELT("{\"linear\": \"fast\"}"), RIDER), "bodies[1].surface.linear: expected an array of 3 numbers, got a string");
    expect_error(SCENE_WITH(FLOOR ", " BELT("{\"angular\": [0, true, 0]}"), RIDER), "bodies[1].surface.angular[1]: expected a number, got a boolean");
    expect_error(SCENE_WITH(FLOOR ", " BELT("{\"center\": [0, 0, 1e999]}"), RIDER), "bodies[1].surface.center[2]: expected a finite number, got inf");
    // The library's limits (65536 m/s, rad/s and m), named by the component.
    expect_error(SCENE_WITH(FLOOR ", " BELT("{\"linear\": [70000, 0, 0]}"), RIDER),
                 "bodies[1].surface.linear[0]: 70000 is out of range: expected >= -65536 and <= 65536");
    expect_error(SCENE_WITH(FLOOR ", " BELT("{\"angular\": [0, -1e5, 0]}"), RIDER), "bodies[1].surface.angular[1]: -100000 is out of range");
    expect_error(SCENE_WITH(FLOOR ", " BELT("{\"center\": [0, 0, 66000]}"), RIDER), "bodies[1].surface.center[2]: 66000 is out of range");
    expect_error(SCENE_WITH(FLOOR ", " BELT("{\"linear\": [1, 0, 0], \"linear\": [2, 0, 0]}"), RIDER), "bodies[1].surface");
    // The limits themselves load; the library then holds a surface to the speed limit over the body (issue 27),
    // naming the field, and takes one within it about a centre at the coordinate limit.
    scene s;
    load_text(SCENE_WITH(FLOOR ", " BELT("{\"linear\": [65536, 0, -65536], \"center\": [0, 65536, 0]}"), RIDER), &s);
    tread_world *w = NULL;
    tread_body_id id;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    assert_int_equal(tread_world_add_body(w, &s.bodies[1].def, &id), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "def.surface.linear"));
    scene_free(&s);
    load_text(SCENE_WITH(FLOOR ", " BELT("{\"linear\": [700, 0, -700], \"center\": [0, 65536, 0]}"), RIDER), &s);
    assert_int_equal(tread_world_add_body(w, &s.bodies[1].def, &id), TREAD_OK);
    tread_world_destroy(w);
    scene_free(&s);
}

// rides and max_sink take a conveyor (a body with a surface velocity, static or not), and still refuse a body that
// neither moves nor carries.
static void test_rider_checks_take_conveyors(void **state) {
    (void)state;
    scene s;
    load_text("{\"duration\": 1, \"bodies\": [" FLOOR ", " BELT("{\"linear\": [1, 0, 0]}") "], \"characters\": [" RIDER "], \"expectations\": ["
              "{\"type\": \"rides\", \"body\": \"belt\"}, {\"type\": \"max_sink\", \"body\": 1}]}",
              &s);
    assert_int_equal(s.checks[0].body, 1);
    assert_int_equal(s.checks[1].kind, SCENE_CHECK_MAX_SINK);
    scene_free(&s);
    expect_error("{\"duration\": 1, \"bodies\": [" FLOOR ", " BELT("{}") "], \"characters\": [" RIDER "], \"expectations\": [{\"type\": \"rides\", \"body\": 1}]}",
                 "expectations[0].body: bodies[1] is static and has no surface velocity; a rider is checked against a kinematic body or a conveyor");
}

// A one-character trace made by hand: feet[i] after frame i, no kinematic body.
static void make_trace(const scene *s, run_trace *t, int frames, float dt) {
    memset(t, 0, sizeof *t);
    t->frame_count = frames;
    t->character_count = 1;
    t->dt = dt;
    t->frames = (run_frame *)calloc((size_t)frames, sizeof(run_frame));
    t->initial_penetration = (float *)calloc(1, sizeof(float));
    t->final = (tread_character *)calloc(1, sizeof(tread_character));
    t->final[0].settings = s->characters[0].settings;
    t->body_index = (int *)calloc(1, sizeof(int));
    t->body_slot = (int *)calloc((size_t)s->body_count, sizeof(int));
    t->body_start = (tread_transform *)calloc(1, sizeof(tread_transform));
    t->body_frames = (tread_transform *)calloc(1, sizeof(tread_transform));
    for (int i = 0; i < s->body_count; ++i) t->body_slot[i] = -1;
    for (int i = 0; i < frames; ++i) t->frames[i].finite = true, t->frames[i].ground = TREAD_GROUND_ON_GROUND;
}

static const check_result *result_named(const check_result *r, int n, const char *name) {
    for (int i = 0; i < n; ++i)
        if (strcmp(r[i].name, name) == 0) return &r[i];
    fail_msg("no result named %s", name);
    return NULL;
}

// A belt at 2 m/s along x and a turning floor at 0.5 rad/s about a centre off the body's origin (the box is turned
// 90 degrees about up, so its local x is world -z): riders that follow the surface pass, riders that lag fail by
// what they lag.
static void test_rider_checks_follow_the_surface(void **state) {
    (void)state;
    scene s;
    load_text("{\"duration\": 2, \"bodies\": [" FLOOR ", " BELT("{\"linear\": [2, 0, 0]}") ", "
              "{\"type\": \"box\", \"name\": \"disc\", \"center\": [10, 0.1, 0], \"half_extents\": [5, 0.1, 5], \"rotation\": {\"axis\": [0, 1, 0], \"degrees\": 90}, "
              "\"surface\": {\"angular\": [0, 0.5, 0], \"center\": [1, 0.1, 0]}}], "
              "\"characters\": [" RIDER "], \"expectations\": ["
              "{\"name\": \"on the belt\", \"type\": \"rides\", \"body\": \"belt\", \"window\": {\"end\": {\"time\": 1}}},"
              "{\"name\": \"lags the belt\", \"type\": \"rides\", \"body\": \"belt\", \"max\": 0.5, \"window\": {\"start\": {\"time\": 0.5}, \"end\": {\"time\": 1.5}}},"
              "{\"name\": \"on the disc\", \"type\": \"rides\", \"body\": \"disc\", \"window\": {\"start\": {\"time\": 1}}},"
              "{\"name\": \"sinks into the disc\", \"type\": \"max_sink\", \"body\": \"disc\", \"window\": {\"start\": {\"time\": 1}}}]}",
              &s);
    const int frames = 120;
    const float dt = 1.0f / 60.0f;
    run_trace t;
    make_trace(&s, &t, frames, dt);
    // The disc's centre of turning: local (1, 0.1, 0) is world (10, 0.2, -1).
    const double cx = 10.0, cz = -1.0, r = 3.0;
    for (int i = 0; i < frames; ++i) {
        double time = (double)(i + 1) * dt;
        if (i < 60) t.frames[i].feet = tread_v3((float)(-4.0 + 2.0 * time), 0.2f, 0.0f); // rides the belt for 1 s
        else if (i < 89) t.frames[i].feet = t.frames[59].feet;                           // then stands still until 1.5 s
        else {
            double a = 0.5 * (time - 1.5); // and on the disc, turning with it, from 1.5 s: 3 m out from its centre
            t.frames[i].feet = tread_v3((float)(cx + r * cos(a)), 0.2f, (float)(cz - r * sin(a)));
        }
        if (i == 100) t.frames[i].feet.y -= 0.003f; // 3 mm into the disc for one frame
    }
    check_result res[16];
    int n = run_checks(&s, &t, res, 16);
    const check_result *on_belt = result_named(res, n, "on the belt"), *lags = result_named(res, n, "lags the belt");
    assert_true(on_belt->passed);
    assert_true(on_belt->value < 1e-5);
    // From 0.5 s the belt's spot runs on at 2 m/s while the feet stop at 1 s: 2 m/s for the 0.5 s to the window's end.
    assert_false(lags->passed);
    assert_near(lags->value, 2.0 * (1.5 - 1.0 - dt), 1e-4);
    // The disc's window starts at 1 s, when the feet are still on the belt: their spot on the disc then turns about
    // (10, -1) and the feet, jumped onto the disc at 1.5 s, are not there. Judged from 1.5 s they ride it.
    assert_false(result_named(res, n, "on the disc")->passed);
    s.checks[2].window.start.value = 1.5f;
    s.checks[3].window.start.value = 1.5f;
    n = run_checks(&s, &t, res, 16);
    const check_result *disc = result_named(res, n, "on the disc"), *sink = result_named(res, n, "sinks into the disc");
    assert_near(disc->value, 0.003, 1e-5); // the sunk frame; else on the spot to float rounding
    assert_near(sink->value, 0.003, 1e-5);
    assert_false(sink->passed);
    run_trace_free(&t);
    scene_free(&s);
}

// Through the runner: the library carries an idle rider along the belt at its speed, and rides agrees.
static void test_runner_hands_the_surface_to_the_library(void **state) {
    (void)state;
    scene s;
    load_text("{\"duration\": 2, \"bodies\": [" FLOOR ", " BELT("{\"linear\": [1.5, 0, 0]}") "], \"characters\": [" RIDER "], \"expectations\": ["
              "{\"name\": \"rides\", \"type\": \"rides\", \"body\": \"belt\", \"window\": {\"start\": {\"time\": 0.1}}}]}",
              &s);
    run_trace t;
    char message[512] = "";
    assert_true(run_scene(&s, NULL, &t, message, sizeof message));
    // Carried from its second frame on (the first finds the belt): 119 frames at 1.5 m/s.
    assert_near(t.final[0].position.x, -4.0 + 1.5 * 119.0 / 60.0, 1e-4);
    check_result r[4];
    int n = run_checks(&s, &t, r, 4);
    assert_true(result_named(r, n, "rides")->passed);
    run_trace_free(&t);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_surface_loads_into_the_body_def),
        cmocka_unit_test(test_bad_surfaces_name_their_json_path),
        cmocka_unit_test(test_rider_checks_take_conveyors),
        cmocka_unit_test(test_rider_checks_follow_the_surface),
        cmocka_unit_test(test_runner_hands_the_surface_to_the_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
