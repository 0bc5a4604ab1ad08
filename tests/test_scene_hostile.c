// SPDX-License-Identifier: MIT
// Hostile scene files: the scene tool's limits (docs/SCENES.md, "Limits") are exactly where the documentation puts
// them and are checked before the work they guard; strings with a NUL and values the library would refuse are
// rejected. Each failure names the file and the JSON path.
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

// "a\u0000b" would be read as "a": refused wherever the string is, a value or a field name, with its path.
static void test_strings_with_nul_are_rejected(void **state) {
    (void)state;
    expect_error("{\"name\": \"a\\u0000b\", \"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "]}",
                 "bad.json: name: \"a...\" holds a NUL character (\\u0000)");
    expect_error(SCENE_WITH(FLOOR, CHARACTER ", {\"name\": \"b\\u0000\", \"start\": [0, 0, 0], \"input\": []}"),
                 "bad.json: characters[1].name: \"b...\" holds a NUL character");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"input\": [], \"settings\": {\"sha\\u0000pe\": 1}}"),
                 "bad.json: characters[0].settings: field name \"sha...\" holds a NUL character");
    // Escapes that are not NUL, and a backslash before "u0000", are ordinary text.
    const char *json = "{\"name\": \"\\\\u0000 \\\"\\u0041\", \"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "]}";
    scene s;
    scene_error err;
    if (!scene_load_buffer("ok.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    assert_string_equal(s.name, "\\u0000 \"A");
    scene_free(&s);
}

// An input speed is a velocity for tread_character_move: one the library refuses is refused at load, with the
// library's own limit in the message, for "direction" and "toward" alike; the limit itself loads.
static void test_speeds_the_library_refuses_are_rejected(void **state) {
    (void)state;
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"input\": [{\"t\": 0, \"idle\": true}, {\"t\": 1, \"direction\": [1, 0, 0], \"speed\": 2000}]}"),
                 "bad.json: characters[0].input[1].speed: 2000 m/s is refused by tread_character_move: TREAD_ERR_INVALID_ARGUMENT: velocity = (2000, 0, 0) is "
                 "longer than 1000 m/s");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"input\": [{\"t\": 0, \"toward\": [0, 9, 0], \"speed\": 1e4}]}"),
                 "bad.json: characters[0].input[0].speed: 10000 m/s is refused by tread_character_move");
    // A start near the coordinate limit (TREAD_MAX_COORDINATE, 65536 m) does not make a legal speed fail.
    const char *json = SCENE_WITH(FLOOR, "{\"start\": [65526, 0, 0], \"input\": [{\"t\": 0, \"direction\": [0, 0, 1], \"speed\": 1000}]}");
    scene s;
    scene_error err;
    if (!scene_load_buffer("ok.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    assert_true(s.characters[0].inputs[0].speed == 1000.0f);
    scene_free(&s);
}

// `count` copies of `item` joined by commas inside `before` ... `after` (malloc'd).
static char *repeat(const char *before, const char *item, int count, const char *after) {
    size_t n = strlen(before) + (size_t)count * (strlen(item) + 1) + strlen(after) + 1;
    char *text = (char *)malloc(n), *at = text;
    assert_non_null(text);
    at += sprintf(at, "%s", before);
    for (int i = 0; i < count; ++i) at += sprintf(at, "%s%s", i ? "," : "", item);
    sprintf(at, "%s", after);
    return text;
}

// Counts beyond the caps fail before their arrays are allocated or parsed further.
static void test_counts_beyond_the_caps_are_rejected(void **state) {
    (void)state;
    char *json = repeat("{\"duration\": 1, \"bodies\": [", "{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1}", SCENE_MAX_BODIES + 1,
                        "], \"characters\": [" CHARACTER "]}");
    expect_error(json, "bad.json: bodies: has 65537 bodies; at most 65536");
    free(json);
    json = repeat("{\"duration\": 1, \"bodies\": [], \"characters\": [", "{\"start\": [0, 0, 0], \"input\": []}", SCENE_MAX_CHARACTERS + 1, "]}");
    expect_error(json, "bad.json: characters: has 65 characters; at most 64");
    free(json);
    json = repeat("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [", "{\"type\": \"drift\", \"max\": 1}",
                  SCENE_MAX_CHECKS + 1, "]}");
    expect_error(json, "bad.json: expectations: has 257 expectations; at most 256");
    free(json);
    // Every character's every frame is recorded: two characters may run half the frames one may.
    expect_error("{\"duration\": 1000, \"dt\": 0.0001, \"bodies\": [], \"characters\": [" CHARACTER ", {\"name\": \"b\", \"start\": [0, 0, 0], \"input\": []}]}",
                 "bad.json: characters: 2 characters x 10000000 frames = 20000000 frames to record; at most 10000000");
    // A voxel list longer than its grid, refused before its entries are read.
    expect_error(SCENE_WITH("{\"type\": \"voxels\", \"origin\": [0, 0, 0], \"cell_size\": 1, \"size\": [1, 1, 1], \"cells\": [[0, 0, 0], [0, 0, 0]]}", CHARACTER),
                 "bad.json: bodies[0].cells: has 2 entries; the grid has only 1 x 1 x 1 cells");
}

// Bodies x characters x frames above SCENE_MAX_WORK is refused at load with the product and the cap (each count is
// within its own cap); exactly the cap loads. --set dt that takes the product past the cap is refused by the runner.
static void test_work_beyond_the_cap_is_rejected(void **state) {
    (void)state;
    const char *box = "{\"type\": \"box\", \"min\": [0, -1, 0], \"max\": [1, 0, 1]}";
    // 1000 bodies x 1 character x 10^6 frames = 10^9: the cap itself.
    char *json = repeat("{\"duration\": 1000, \"dt\": 0.001, \"bodies\": [", box, 1000, "], \"characters\": [" CHARACTER "]}");
    scene s;
    scene_error err;
    if (!scene_load_buffer("cap.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    assert_true((double)s.body_count * s.character_count * scene_frame_count(s.duration, s.dt) == SCENE_MAX_WORK);
    scene_free(&s);
    free(json);
    // An hour at 60 Hz: 5000 x 1 x 216000.
    json = repeat("{\"duration\": 3600, \"bodies\": [", box, 5000, "], \"characters\": [" CHARACTER "]}");
    expect_error(json, "bad.json: 5000 bodies x 1 characters x 216000 frames = 1.08e+09, over the cap of 1e+09 on bodies x characters x frames");
    free(json);
    // Crowd members count as characters: 200 bodies x 500 x 18000 frames (their trace, 9e6 frames, is within its cap).
    json = repeat("{\"duration\": 300, \"bodies\": [", box, 200,
                  "], \"crowds\": [{\"name\": \"c\", \"count\": 500, \"speed\": 1, \"area\": {\"min\": [0, 0, 0], \"max\": [50, 0, 50]}, \"targets\": {\"min\": [0, 0, 0], "
                  "\"max\": [50, 0, 50]}}]}");
    expect_error(json, "bad.json: 200 bodies x 500 characters x 18000 frames = 1.8e+09, over the cap");
    free(json);
    // Within the cap at the scene's dt (1000 x 1 x 60), over it at --set dt 5e-7 s (2,000,000 frames).
    json = repeat("{\"duration\": 1, \"bodies\": [", box, 1000, "], \"characters\": [" CHARACTER "]}");
    if (!scene_load_buffer("cap.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    run_options o = {0};
    o.dt = 5.0e-7f;
    run_trace t;
    char message[512] = "";
    assert_false(run_scene(&s, &o, &t, message, sizeof message));
    if (!strstr(message, "at dt 5e-07 s: 1000 bodies x 1 characters x 2000000 frames = 2e+09, over the cap of 1e+09")) fail_msg("%s", message);
    scene_free(&s);
    free(json);
}

// A text past SCENE_MAX_FILE_BYTES is refused before cJSON parses it (it would build ~45 bytes per byte of text).
static void test_texts_past_the_size_cap_are_rejected(void **state) {
    (void)state;
    size_t n = (size_t)SCENE_MAX_FILE_BYTES + 1;
    char *text = (char *)malloc(n);
    assert_non_null(text);
    memset(text, ' ', n);
    memcpy(text, "{}", 2);
    expect_error_n("big.json", text, n, "big.json: is 8388609 bytes; at most 8388608", (const char *)NULL);
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_limit_is_inclusive),
        cmocka_unit_test(test_runner_refuses_too_many_frames),
        cmocka_unit_test(test_strings_with_nul_are_rejected),
        cmocka_unit_test(test_speeds_the_library_refuses_are_rejected),
        cmocka_unit_test(test_counts_beyond_the_caps_are_rejected),
        cmocka_unit_test(test_texts_past_the_size_cap_are_rejected),
        cmocka_unit_test(test_work_beyond_the_cap_is_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
