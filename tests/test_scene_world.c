// SPDX-License-Identifier: MIT
// Bodies that react in scene files (docs/SCENES.md "One-way platforms and sensors", "Dynamic bodies"): their fields
// and errors, the sensor events the runner's contact listener records (the same moved together or one by one), the
// runner's integrator for dynamic bodies (impulses, friction, gravity), and that each shipped scene of scenes/world
// fails when the feature it shows is taken away.
#include "scene_test_support.h"

#include <math.h>

#include "tread/tread.h"

static void load_text(const char *json, scene *s) {
    scene_error err;
    if (!scene_load_buffer("world.json", json, strlen(json), s, &err)) fail_msg("%s", err.message);
}

static void load_file(const char *relative, scene *s) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", TREAD_SCENES, relative);
    scene_error err;
    if (!scene_load(path, s, &err)) fail_msg("%s", err.message);
}

static void run_with(const scene *s, int collide, run_trace *t) {
    run_options o = {0};
    o.characters_collide = collide;
    char message[512] = "";
    if (!run_scene(s, &o, t, message, sizeof message)) fail_msg("%s", message);
}

// How many of the run's results failed; every one of them when `all_pass` is asked.
static int failures(const scene *s, const run_trace *t, bool all_pass) {
    check_result r[SCENE_MAX_RESULTS];
    int n = run_checks(s, t, r, SCENE_MAX_RESULTS), failed = 0;
    for (int i = 0; i < n; ++i) {
        failed += !r[i].passed;
        if (all_pass && !r[i].passed) fail_msg("%s: %s: %s", s->name, r[i].name, r[i].detail);
    }
    return failed;
}

static int body_named(const scene *s, const char *name) {
    for (int i = 0; i < s->body_count; ++i)
        if (strcmp(s->bodies[i].name, name) == 0) return i;
    fail_msg("no body named %s", name);
    return 0;
}

#define BOX(extra) "{\"type\": \"box\", \"name\": \"b\", \"center\": [0, 0.5, 0], \"half_extents\": [0.5, 0.5, 0.5]" extra "}"
#define CRATE_CHECK(check)                                                                                                             \
    "{\"duration\": 2, \"bodies\": [" FLOOR ", " BOX(", \"dynamic\": {\"mass\": 10}") ", " BOX(", \"sensor\": true") "], \"characters\": [" CHARACTER \
    "], \"expectations\": [" check "]}"

static void test_flag_and_dynamic_errors_name_their_json_path(void **state) {
    (void)state;
    expect_error(SCENE_WITH(BOX(", \"one_way\": true, \"sensor\": true"), CHARACTER), "bodies[0]: give \"one_way\" or \"sensor\", not both");
    expect_error(SCENE_WITH(BOX(", \"sensor\": 1"), CHARACTER), "bodies[0].sensor: expected true or false, got a number");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {\"mass\": 1}, \"kinematic\": {}"), CHARACTER), "bodies[0]: give \"kinematic\" or \"dynamic\", not both");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {}"), CHARACTER), "bodies[0].dynamic: missing required field \"mass\"");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {\"mass\": 0}"), CHARACTER), "bodies[0].dynamic.mass: 0 is out of range");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {\"mass\": 1, \"friction\": -1}"), CHARACTER), "bodies[0].dynamic.friction: -1 is out of range");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {\"mass\": 1, \"spin\": true}"), CHARACTER), "bodies[0].dynamic: unknown field \"spin\"");
    expect_error(SCENE_WITH(BOX(", \"rotation\": {\"axis\": [0, 1, 0], \"degrees\": 30}, \"dynamic\": {\"mass\": 1}"), CHARACTER),
                 "bodies[0].dynamic: the runner moves dynamic boxes and capsules unrotated");
    expect_error(SCENE_WITH("{\"type\": \"heightfield\", \"origin\": [0, 0, 0], \"spacing\": [1, 1], \"heights\": [[0, 0], [0, 0]], \"dynamic\": {\"mass\": 1}}",
                            CHARACTER),
                 "bodies[0].dynamic: the runner moves boxes, spheres and capsules");
    // The checks of sensors and dynamic bodies name bodies of that kind.
    expect_error(CRATE_CHECK("{\"type\": \"sensor_entered\", \"body\": 0, \"count\": 1}"), "expectations[0].body: bodies[0] is not a sensor");
    expect_error(CRATE_CHECK("{\"type\": \"body_moved\", \"body\": 2, \"axis\": \"x\", \"min\": 1}"), "expectations[0].body: bodies[2] is not dynamic");
    expect_error(CRATE_CHECK("{\"type\": \"rides\", \"body\": 1}"), "expectations[0].body: bodies[1] is dynamic and has no surface velocity");
    expect_error(CRATE_CHECK("{\"type\": \"sensor_entered\", \"body\": 2, \"count\": 1, \"min\": 1}"), "expectations[0]: give \"count\" or \"min\"/\"max\", not both");
    expect_error(CRATE_CHECK("{\"type\": \"sensor_entered\", \"body\": 2}"), "expectations[0]: needs \"min\", \"max\" or both");
    expect_error(CRATE_CHECK("{\"type\": \"sensor_sequence\", \"body\": 2, \"events\": [\"entered\", \"left\"]}"),
                 "expectations[0].events[1]: unknown value \"left\": expected one of \"entered\", \"exited\"");
    expect_error(CRATE_CHECK("{\"type\": \"body_ahead\", \"body\": 1, \"min\": 1}"), "expectations[0]: missing required field \"axis\"");
}

// The sensor scene's events, moved together (one batch keeps the memories) and one by one (a memory per character):
// the same events in the same frames.
static void test_sensor_events_are_the_same_moved_together_or_alone(void **state) {
    (void)state;
    scene s;
    load_file("world/sensors-water-and-pickup.json", &s);
    run_trace together, alone;
    run_with(&s, 0, &together);
    run_with(&s, -1, &alone);
    assert_true(together.batched);
    failures(&s, &together, true);
    failures(&s, &alone, true);
    assert_int_equal(together.events_dropped, 0);
    assert_int_equal(together.event_count, alone.event_count);
    // Events come by frame; within a frame the batch and the single moves may order two characters differently.
    int entered = 0, exited = 0;
    for (int i = 0; i < together.event_count; ++i) {
        const run_event *e = &together.events[i];
        bool found = false;
        for (int j = 0; j < alone.event_count && !found; ++j)
            found = memcmp(e, &alone.events[j], sizeof *e) == 0;
        if (!found) fail_msg("event %d (frame %d, character %d, body %d, kind %d) not seen one by one", i, e->frame, e->character, e->body, (int)e->kind);
        entered += e->kind == SCENE_EVENT_ENTERED;
        exited += e->kind == SCENE_EVENT_EXITED;
    }
    assert_int_equal(entered, 3); // the water twice, the pickup once
    assert_int_equal(exited, 3);
    run_trace_free(&together);
    run_trace_free(&alone);
    scene_free(&s);
}

// Every scene of scenes/world about bodies passes, and fails once the body's flag or type is taken away: a solid
// platform, a solid sensor, a crate nobody moves.
static void test_world_scenes_fail_without_their_feature(void **state) {
    (void)state;
    static const struct {
        const char *file;
        const char *bodies[2];
    } scenes[] = {
        {"world/one-way-platforms.json", {"platform", "ledge"}},
        {"world/one-way-lifts.json", {"rising lift", "sliding lift"}},
        {"world/sensors-water-and-pickup.json", {"water", "pickup"}},
        {"world/crate-push.json", {"crate", NULL}},
    };
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; ++k) {
        scene s;
        load_file(scenes[k].file, &s);
        run_trace t;
        run_with(&s, 0, &t);
        failures(&s, &t, true);
        run_trace_free(&t);
        for (int b = 0; b < 2 && scenes[k].bodies[b]; ++b) {
            tread_body_def *def = &s.bodies[body_named(&s, scenes[k].bodies[b])].def;
            def->flags = 0u;
            if (def->type == TREAD_BODY_DYNAMIC) def->type = TREAD_BODY_STATIC;
        }
        run_with(&s, 0, &t);
        int failed = failures(&s, &t, false);
        print_message("%s without its feature: %d results fail\n", s.name, failed);
        assert_true(failed >= 2);
        run_trace_free(&t);
        scene_free(&s);
    }
}

#define PUSH_SCENE(crate, pusher_input) \
    "{\"duration\": 5, \"bodies\": [{\"type\": \"box\", \"min\": [-3, -1, -3], \"max\": [30, 0, 3]}, " crate "], \"characters\": [" \
    "{\"name\": \"pusher\", \"start\": [0, 0, 0], \"input\": " pusher_input "}]}"
#define CRATE(y, dynamic) "{\"type\": \"box\", \"name\": \"crate\", \"center\": [2, " y ", 0], \"half_extents\": [0.5, 0.5, 0.5], \"dynamic\": " dynamic "}"

// The crate's x at the end of each frame.
static float crate_x(const run_trace *t, int frame) { return run_body_at(t, 0, frame).p.x; }

// Pushed for 2.5 s, then left: friction (0.3 x 9.81 m/s^2) stops the crate within v^2 / (2 mu g) of where the push
// ended, and it stays there.
static void test_friction_stops_a_pushed_crate(void **state) {
    (void)state;
    scene s;
    load_text(PUSH_SCENE(CRATE("0.5", "{\"mass\": 20, \"friction\": 0.3}"), "[{\"t\": 0, \"direction\": [1, 0, 0], \"speed\": 1.5}, {\"t\": 2.5, \"idle\": true}]"), &s);
    run_trace t;
    run_with(&s, 0, &t);
    failures(&s, &t, true);
    int released = 150; // the last pushing frame
    float speed = (crate_x(&t, released) - crate_x(&t, released - 1)) / t.dt, slid = crate_x(&t, t.frame_count - 1) - crate_x(&t, released);
    float expected = speed * speed / (2.0f * 0.3f * 9.81f);
    print_message("crate: %.3f m/s when let go, slid %.4f m (v^2 / 2 mu g = %.4f m)\n", (double)speed, (double)slid, (double)expected);
    assert_true(speed > 1.0f);
    assert_true(fabsf(slid - expected) < 0.05f);
    assert_true(crate_x(&t, t.frame_count - 1) == crate_x(&t, t.frame_count - 30)); // at rest
    run_trace_free(&t);
    scene_free(&s);
}

// With gravity, a crate let go 1 m up falls and rests on the floor (its skin of 1 mm above it); without, it stays
// where it was put. Neither moves sideways untouched.
static void test_gravity_brings_a_crate_down(void **state) {
    (void)state;
    scene s;
    run_trace t;
    load_text(PUSH_SCENE(CRATE("1.5", "{\"mass\": 20}"), "[]"), &s);
    run_with(&s, 0, &t);
    tread_vec3 end = run_body_at(&t, 0, t.frame_count - 1).p;
    assert_true(fabsf(end.y - 0.501f) < 0.001f);
    assert_true(end.x == 2.0f && end.z == 0.0f);
    run_trace_free(&t);
    scene_free(&s);
    load_text(PUSH_SCENE(CRATE("1.5", "{\"mass\": 20, \"gravity\": false}"), "[]"), &s);
    run_with(&s, 0, &t);
    end = run_body_at(&t, 0, t.frame_count - 1).p;
    assert_true(end.y == 1.5f && end.x == 2.0f);
    run_trace_free(&t);
    scene_free(&s);
}

// A push weaker than static friction does not start the crate: a 1,000 kg crate against the default strength (100 N,
// less than 0.5 x 1,000 kg x 9.81 m/s^2) stays put, and the pusher stays behind it.
static void test_a_heavy_crate_does_not_move(void **state) {
    (void)state;
    scene s;
    load_text(PUSH_SCENE(CRATE("0.5", "{\"mass\": 1000}"), "[{\"t\": 0, \"direction\": [1, 0, 0], \"speed\": 1.5}]"), &s);
    run_trace t;
    run_with(&s, 0, &t);
    failures(&s, &t, true);
    assert_true(crate_x(&t, t.frame_count - 1) == 2.0f);
    assert_true(fabsf(t.final[0].position.x - (2.0f - 0.5f - 0.3f - 0.002f)) < 1e-3f);
    run_trace_free(&t);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flag_and_dynamic_errors_name_their_json_path),
        cmocka_unit_test(test_sensor_events_are_the_same_moved_together_or_alone),
        cmocka_unit_test(test_world_scenes_fail_without_their_feature),
        cmocka_unit_test(test_friction_stops_a_pushed_crate),
        cmocka_unit_test(test_gravity_brings_a_crate_down),
        cmocka_unit_test(test_a_heavy_crate_does_not_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
