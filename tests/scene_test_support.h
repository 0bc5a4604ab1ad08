// SPDX-License-Identifier: MIT
// Shared by the scene loader tests (test_scene_load.c, test_scene_limits.c): loading a text that must fail, with a
// message naming the file and the JSON path, and a small valid scene to break one piece at a time. Header-only:
// each test program includes it once.
#ifndef TREAD_SCENE_TEST_SUPPORT_H
#define TREAD_SCENE_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tread_scene.h"

static bool is_zero(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; ++i)
        if (b[i]) return false;
    return true;
}

// Loading `length` bytes of `json` (named `name`) fails, leaves the scene empty, and the message contains every
// substring given (NULL-terminated).
static void expect_error_n(const char *name, const char *json, size_t length, ...) {
    scene s;
    scene_error err;
    memset(&s, 0xAB, sizeof s);
    bool ok = scene_load_buffer(name, json, length, &s, &err);
    if (ok) {
        scene_free(&s);
        fail_msg("loaded, expected an error for:\n%.2000s", json);
    }
    assert_true(is_zero(&s, sizeof s));
    va_list ap;
    va_start(ap, length);
    for (const char *want = va_arg(ap, const char *); want; want = va_arg(ap, const char *))
        if (!strstr(err.message, want)) {
            va_end(ap);
            fail_msg("message \"%s\" lacks \"%s\"", err.message, want);
        }
    va_end(ap);
}
#define expect_error_at(name, json, ...) expect_error_n(name, json, strlen(json), __VA_ARGS__)
#define expect_error(json, ...) \
    expect_error_n("tests/data/bad.json", json, strlen(json), "tests/data/bad.json", __VA_ARGS__, (const char *)NULL)

// A valid scene to break one piece at a time.
#define CHARACTER "{\"start\": [0, 0, 0], \"input\": [{\"t\": 0, \"direction\": [1, 0, 0], \"speed\": 2}]}"
#define SCENE_WITH(bodies, characters) "{\"duration\": 2, \"bodies\": [" bodies "], \"characters\": [" characters "]}"
#define FLOOR "{\"type\": \"box\", \"min\": [-5, -1, -5], \"max\": [5, 0, 5]}"

#endif
