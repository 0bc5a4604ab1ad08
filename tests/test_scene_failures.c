// SPDX-License-Identifier: MIT
// A library call that fails during a run stops it and fails the scene (docs/SCENES.md, "A failed call stops the
// run"): the failure names the call, the character, the frame and the library's message; the trace keeps the frames
// every character completed; nothing the failed call did not write is read; plots of a stopped run stay finite.
#define _POSIX_C_SOURCE 200809L // mkstemp
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tread_scene.h"

static void load_text(const char *json, scene *s) {
    scene_error err;
    if (!scene_load_buffer("failures.json", json, strlen(json), s, &err)) fail_msg("%s", err.message);
}

static void run(const scene *s, run_trace *t) {
    char message[512] = "";
    if (!run_scene(s, NULL, t, message, sizeof message)) fail_msg("%s", message);
}

// The results of a stopped run: the failure first and failed, then only the invariants (2 per character).
static void expect_failure_result(const scene *s, const run_trace *t, const char *detail) {
    check_result results[16];
    int n = run_checks(s, t, results, 16);
    assert_int_equal(n, 1 + 2 * s->character_count);
    assert_false(results[0].passed);
    if (!strstr(results[0].detail, detail)) fail_msg("detail \"%s\" lacks \"%s\"", results[0].detail, detail);
}

// Gravity of 10^6 m/s^2 asks for 16,667 m/s in the first frame: the move fails, no frame completes, and a plot of
// the run is still finite.
static void test_a_move_failing_in_the_first_frame_stops_the_run(void **state) {
    (void)state;
    scene s;
    load_text("{\"duration\": 1, \"gravity\": [0, -1e6, 0], \"bodies\": [], \"characters\": [{\"name\": \"rock\", \"start\": [0, 5, 0], "
              "\"input\": []}], \"expectations\": [{\"type\": \"final\", \"y\": {\"max\": 10}}]}",
              &s);
    run_trace t;
    run(&s, &t);
    assert_true(t.failure.failed);
    assert_int_equal(t.failure.character, 0);
    assert_int_equal(t.failure.frame, 1);
    assert_int_equal(t.failure.code, TREAD_ERR_INVALID_ARGUMENT);
    assert_string_equal(t.failure.call, "tread_character_move_with");
    assert_int_equal(t.frame_count, 0);
    assert_true(t.final[0].position.y == 5.0f); // a failed move changes nothing
    expect_failure_result(&s, &t, "tread_character_move_with failed in frame 1 (t = 0.000 s): TREAD_ERR_INVALID_ARGUMENT: velocity = (0, -16666.7, 0)");
    char path[] = "/tmp/tread_failure_plot_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char message[256] = "";
    assert_true(plot_svg(&s, &t, path, message, sizeof message));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    while (fgets(line, sizeof line, f))
        if (strstr(line, "nan") || strstr(line, "inf")) fail_msg("plot of a stopped run: %s", line);
    fclose(f);
    remove(path);
    run_trace_free(&t);
    scene_free(&s);
}

// Two characters; the second one's motor jumps at 2000 m/s at t = 0.5 s. The run stops in frame 31 and keeps 30
// frames of each: the walker's are its own (packed to the new stride), at 1 m/s along x. Moved together (the
// default), the batch refuses the frame and names the jumper; moved one by one, its own move fails.
static void second_character_fails(bool collide, const char *call) {
    char json[1024];
    snprintf(json, sizeof json,
             "{\"duration\": 2, \"characters_collide\": %s, \"bodies\": [{\"type\": \"box\", \"min\": [-50, -1, -50], \"max\": [50, 0, 50]}], "
             "\"characters\": [{\"name\": \"walker\", \"start\": [0, 0, 0], \"input\": [{\"t\": 0, \"direction\": [1, 0, 0], \"speed\": 1}]},"
             "{\"name\": \"jumper\", \"start\": [0, 0, 5], \"motor\": {\"jump_mode\": \"strength_drag\", \"jump_strength\": 2000},"
             " \"input\": [{\"t\": 0.5, \"jump\": true}]}]}",
             collide ? "true" : "false");
    scene s;
    load_text(json, &s);
    run_trace t;
    run(&s, &t);
    assert_true(t.failure.failed);
    assert_int_equal(t.failure.character, 1);
    assert_int_equal(t.failure.frame, 31);
    assert_string_equal(t.failure.call, call);
    assert_int_equal(t.frame_count, 30);
    for (int i = 0; i < t.frame_count; ++i) {
        float x = run_frame_at(&t, 0, i)->feet.x, z = run_frame_at(&t, 1, i)->feet.z;
        if (fabsf(x - (float)(i + 1) / 60.0f) > 1e-4f || z != 5.0f) fail_msg("frame %d: walker x %g, jumper z %g", i + 1, (double)x, (double)z);
    }
    char detail[128];
    snprintf(detail, sizeof detail, "%s failed in frame 31 (t = 0.500 s)", call);
    expect_failure_result(&s, &t, detail);
    check_result results[16];
    run_checks(&s, &t, results, 16);
    assert_string_equal(results[0].name, "jumper: library call");
    run_trace_free(&t);
    scene_free(&s);
}

static void test_a_second_character_failing_keeps_the_completed_frames(void **state) {
    (void)state;
    second_character_fails(true, "tread_batch_move_with");
    second_character_fails(false, "tread_character_move_with");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_move_failing_in_the_first_frame_stops_the_run),
        cmocka_unit_test(test_a_second_character_failing_keeps_the_completed_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
