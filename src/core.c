// SPDX-License-Identifier: MIT
// Error ids and messages, the assert hook, and the allocator.
#include "core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const result_names[TREAD_RESULT_COUNT] = {
    "TREAD_OK",
    "TREAD_ERR_NULL_ARGUMENT",
    "TREAD_ERR_NOT_FINITE",
    "TREAD_ERR_INVALID_SHAPE",
    "TREAD_ERR_INVALID_MESH",
    "TREAD_ERR_INVALID_ARGUMENT",
    "TREAD_ERR_INVALID_ID",
    "TREAD_ERR_OUT_OF_MEMORY",
    "TREAD_ERR_BLOCKED",
    "TREAD_ERR_UNINITIALIZED",
};

tread_version_info tread_version(void) {
    tread_version_info v = {TREAD_VERSION_MAJOR, TREAD_VERSION_MINOR, TREAD_VERSION_PATCH};
    return v;
}

const char *tread_result_name(tread_result result) {
    if ((int)result < 0 || result >= TREAD_RESULT_COUNT) return "TREAD_ERR_UNKNOWN";
    return result_names[result];
}

// Per-thread so concurrent queries on different threads do not overwrite each other's message.
static _Thread_local char last_message[TR_MESSAGE_SIZE];
// Where the detail (the part after "TREAD_ERR_...: ") begins in last_message: kept, so a caller that re-raises an
// error under a wider name (the batch naming characters[i]) takes the detail as written, without parsing the text.
static _Thread_local size_t last_detail;

const char *tread_error_message(void) { return last_message; }

const char *tr_error_detail(void) { return last_message + last_detail; }

tread_result tr_error(tread_result code, const char *fmt, ...) {
    int n = snprintf(last_message, sizeof last_message, "%s: ", tread_result_name(code));
    if (n < 0) n = 0;
    last_detail = (size_t)n < sizeof last_message ? (size_t)n : sizeof last_message - 1;
    if ((size_t)n < sizeof last_message) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(last_message + n, sizeof last_message - (size_t)n, fmt, args);
        va_end(args);
    }
    return code;
}

tread_result tr_check_cookie(uint32_t cookie, const char *argument, const char *type, const char *start) {
    if (cookie == TR_COOKIE) return TREAD_OK;
    return tr_error(TREAD_ERR_UNINITIALIZED, "%s is not initialised (a zero-filled or never-defaulted %s): start from %s", argument, type, start);
}

void tr_assert_failed(const char *expr, const char *file, int line) {
    fprintf(stderr, "tread: internal assertion failed: %s (%s:%d)\n", expr, file, line);
    abort();
}

static void *default_alloc(size_t size, void *context) {
    (void)context;
    return malloc(size);
}
static void default_free(void *memory, void *context) {
    (void)context;
    free(memory);
}

static tread_alloc_fn *alloc_hook = default_alloc;
static tread_free_fn *free_hook = default_free;
static void *alloc_context = NULL;

void tread_set_allocator(tread_alloc_fn *alloc, tread_free_fn *free_fn, void *context) {
    alloc_hook = alloc ? alloc : default_alloc;
    free_hook = free_fn ? free_fn : default_free;
    alloc_context = context;
}

void *tr_alloc(size_t size) { return size ? alloc_hook(size, alloc_context) : NULL; }
void tr_free(void *memory) {
    if (memory) free_hook(memory, alloc_context);
}
