// SPDX-License-Identifier: MIT
// The scene tool's limits (docs/SCENES.md, "Limits"): each is exactly where the documentation puts it, is checked
// before the work it guards, and a value beyond it fails with a message naming the file and the JSON path.
#include "scene_test_support.h"

// "duration / dt at most 10^7 frames": exactly 10^7 loads; one frame more does not.
static void test_frame_limit_is_inclusive(void **state) {
    (void)state;
    const char *json = "{\"duration\": 1000, \"dt\": 0.0001, \"bodies\": [], \"characters\": [" CHARACTER "]}";
    scene s;
    scene_error err;
    if (!scene_load_buffer("limit.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    assert_true(scene_frame_count(s.duration, s.dt) == (double)SCENE_MAX_FRAMES);
    scene_free(&s);
    expect_error("{\"duration\": 1000.1, \"dt\": 0.0001, \"bodies\": [], \"characters\": [" CHARACTER "]}",
                 "bad.json: dt: duration / dt = 10001000 frames; at most 10000000");
}

// --set dt asks the runner for more frames than the loader allowed: refused before anything is allocated or run.
static void test_runner_refuses_too_many_frames(void **state) {
    (void)state;
    const char *json = SCENE_WITH(FLOOR, CHARACTER);
    scene s;
    scene_error err;
    if (!scene_load_buffer("limit.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    run_options o = {0};
    o.dt = 1.0e-7f;
    run_trace t;
    char message[512] = "";
    assert_false(run_scene(&s, &o, &t, message, sizeof message));
    if (!strstr(message, "frames at dt 1e-07 s; at most 10000000")) fail_msg("%s", message);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_limit_is_inclusive),
        cmocka_unit_test(test_runner_refuses_too_many_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
