// SPDX-License-Identifier: MIT
// JSON reading helpers for the scene loader. Every value is checked where it is read, and every message names
// the file and the JSON path of the value ("<file>: <json path>: <what>"), so a scene author can go straight to
// the mistake. Leaf of tools/scene/: calls nothing else in the folder.
#define _POSIX_C_SOURCE 200809L // strnlen

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_internal.h"

// ---- errors and JSON paths -----------------------------------------------------------------------------

// Printable copy of untrusted text for a message: at most 40 characters, control bytes as '?'.
const char *js_quote(char *out, size_t size, const char *text) {
    size_t n = 0;
    for (const char *c = text; *c && n + 4 < size && n < 40; ++c) out[n++] = (*c >= 0x20 && *c < 0x7f) ? *c : '?';
    if (text[n] != '\0' && n + 4 < size) out[n++] = '.', out[n++] = '.', out[n++] = '.';
    out[n] = '\0';
    return out;
}

// Append text to a NUL-terminated buffer of `size` bytes, truncating (paths and messages are bounded).
void js_append(char *out, size_t size, const char *text) {
    size_t used = strlen(out), n = strlen(text);
    if (used + 1 >= size) return;
    if (n > size - used - 1) n = size - used - 1;
    memcpy(out + used, text, n);
    out[used + n] = '\0';
}

// Record the first error as "<file>: <json path>: <what>" ("<file>: <what>" at the top level). Returns false.
bool js_fail(loader *L, const char *jp, const char *fmt, ...) {
    if (L->failed) return false;
    L->failed = true;
    char what[SCENE_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char *m = L->err->message;
    m[0] = '\0';
    js_append(m, SCENE_ERROR_MAX, L->file);
    js_append(m, SCENE_ERROR_MAX, ": ");
    if (jp && jp[0]) {
        js_append(m, SCENE_ERROR_MAX, jp);
        js_append(m, SCENE_ERROR_MAX, ": ");
    }
    js_append(m, SCENE_ERROR_MAX, what);
    return false;
}

const char *js_jp_key(char *out, const char *parent, const char *key) {
    char copy[JP];
    memcpy(copy, parent, strnlen(parent, JP - 1));
    copy[strnlen(parent, JP - 1)] = '\0';
    out[0] = '\0';
    js_append(out, JP, copy);
    if (copy[0]) js_append(out, JP, ".");
    js_append(out, JP, key);
    return out;
}

const char *js_jp_index(char *out, const char *parent, int index) {
    char copy[JP], number[16];
    memcpy(copy, parent, strnlen(parent, JP - 1));
    copy[strnlen(parent, JP - 1)] = '\0';
    snprintf(number, sizeof number, "[%d]", index);
    out[0] = '\0';
    js_append(out, JP, copy);
    js_append(out, JP, number);
    return out;
}

const char *js_type_name(const scene_json *j) {
    switch (scene_json_type_of(j)) {
    case SCENE_JSON_NUMBER: return "a number";
    case SCENE_JSON_STRING: return "a string";
    case SCENE_JSON_BOOL: return "a boolean";
    case SCENE_JSON_NULL: return "null";
    case SCENE_JSON_ARRAY: return "an array";
    case SCENE_JSON_OBJECT: return "an object";
    default: return "an invalid value";
    }
}

const scene_json *js_member(const scene_json *obj, const char *key) { return scene_json_member(obj, key); }

bool js_expect_object(loader *L, const scene_json *j, const char *jp) {
    return scene_json_is_object(j) || js_fail(L, jp, "expected an object, got %s", js_type_name(j));
}

bool js_expect_array(loader *L, const scene_json *j, const char *jp) {
    return scene_json_is_array(j) || js_fail(L, jp, "expected an array, got %s", js_type_name(j));
}

// Every member of obj must be one of `allowed` (NULL-terminated), each at most once.
bool js_check_fields(loader *L, const scene_json *obj, const char *jp, const char *const *allowed) {
    const scene_json *c;
    scene_json_each(c, obj) {
        bool known = false;
        for (int i = 0; allowed[i] && !known; ++i) known = scene_json_key(c) && strcmp(scene_json_key(c), allowed[i]) == 0;
        if (!known) {
            char q[64], list[256] = "";
            for (int i = 0; allowed[i]; ++i) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", allowed[i]);
            }
            const char *key = scene_json_key(c) ? scene_json_key(c) : "", *meant = scene_nearest_name(key, allowed);
            char hint[96] = "";
            if (meant) snprintf(hint, sizeof hint, "did you mean \"%s\"? ", meant);
            return js_fail(L, jp, "unknown field \"%s\" (%sexpected one of: %s)", js_quote(q, sizeof q, key), hint, list);
        }
    }
    // Only known names remain, so counting each known name finds duplicates in O(fields * allowed).
    for (int i = 0; allowed[i]; ++i) {
        int n = 0;
        scene_json_each(c, obj) n += strcmp(scene_json_key(c), allowed[i]) == 0;
        if (n > 1) return js_fail(L, jp, "duplicate field \"%s\"", allowed[i]);
    }
    return true;
}

bool js_need_field(loader *L, const scene_json *obj, const char *jp, const char *key, const scene_json **out) {
    *out = js_member(obj, key);
    return *out != NULL || js_fail(L, jp, "missing required field \"%s\"", key);
}

// ---- values --------------------------------------------------------------------------------------------

bool js_read_double(loader *L, const scene_json *j, const char *jp, double *out) {
    if (!scene_json_is_number(j)) return js_fail(L, jp, "expected a number, got %s", js_type_name(j));
    double v = scene_json_number(j);
    if (!isfinite(v)) return js_fail(L, jp, "expected a finite number, got %s", isnan(v) ? "NaN" : (v > 0.0 ? "inf" : "-inf"));
    *out = v;
    return true;
}

bool js_read_float(loader *L, const scene_json *j, const char *jp, float *out) {
    double v = 0.0;
    if (!js_read_double(L, j, jp, &v)) return false;
    if (fabs(v) > (double)FLT_MAX) return js_fail(L, jp, "%g is out of range for a 32-bit float", v);
    *out = (float)v;
    return true;
}

bool js_in_range(double v, double lo, double hi, int open) {
    bool lo_ok = (open & OPEN_LO) ? v > lo : v >= lo;
    bool hi_ok = (open & OPEN_HI) ? v < hi : v <= hi;
    return lo_ok && hi_ok;
}

bool js_range_fail(loader *L, const char *jp, double v, double lo, double hi, int open) {
    char want[96] = "";
    if (isfinite(lo)) snprintf(want, sizeof want, "%s %g", (open & OPEN_LO) ? ">" : ">=", lo);
    if (isfinite(hi)) {
        size_t used = strlen(want);
        snprintf(want + used, sizeof want - used, "%s%s %g", used ? " and " : "", (open & OPEN_HI) ? "<" : "<=", hi);
    }
    return js_fail(L, jp, "%g is out of range: expected %s", v, want);
}

bool js_read_float_in(loader *L, const scene_json *j, const char *jp, float *out, double lo, double hi, int open) {
    float v = 0.0f;
    if (!js_read_float(L, j, jp, &v)) return false;
    if (!js_in_range((double)v, lo, hi, open)) return js_range_fail(L, jp, (double)v, lo, hi, open);
    *out = v;
    return true;
}

// An integral number in [lo, hi].
bool js_read_integer(loader *L, const scene_json *j, const char *jp, double lo, double hi, int64_t *out) {
    double v = 0.0;
    if (!js_read_double(L, j, jp, &v)) return false;
    if (v != floor(v)) return js_fail(L, jp, "expected an integer, got %g", v);
    if (v < lo || v > hi) return js_range_fail(L, jp, v, lo, hi, 0);
    *out = (int64_t)v;
    return true;
}

bool js_read_vec3(loader *L, const scene_json *j, const char *jp, tread_vec3 *out) {
    if (!scene_json_is_array(j)) return js_fail(L, jp, "expected an array of 3 numbers, got %s", js_type_name(j));
    int n = scene_json_count(j);
    if (n != 3) return js_fail(L, jp, "expected an array of 3 numbers, got %d element%s", n, n == 1 ? "" : "s");
    float v[3];
    int i = 0;
    const scene_json *e;
    scene_json_each(e, j) {
        char p[JP];
        if (!js_read_float(L, e, js_jp_index(p, jp, i), &v[i])) return false;
        ++i;
    }
    *out = tread_v3(v[0], v[1], v[2]);
    return true;
}

bool js_read_bool(loader *L, const scene_json *j, const char *jp, bool *out) {
    if (!scene_json_is_bool(j)) return js_fail(L, jp, "expected true or false, got %s", js_type_name(j));
    *out = scene_json_is_true(j);
    return true;
}

bool js_read_string(loader *L, const scene_json *j, const char *jp, char *out, size_t size) {
    if (!scene_json_is_string(j)) return js_fail(L, jp, "expected a string, got %s", js_type_name(j));
    size_t n = strlen(scene_json_string(j));
    if (n >= size) return js_fail(L, jp, "is %zu characters long; at most %zu allowed", n, size - 1);
    memcpy(out, scene_json_string(j), n + 1);
    return true;
}

// One of `names` (NULL-terminated); *out is its index.
bool js_read_enum(loader *L, const scene_json *j, const char *jp, const char *const *names, int *out) {
    if (!scene_json_is_string(j)) return js_fail(L, jp, "expected a string, got %s", js_type_name(j));
    char list[160] = "";
    for (int i = 0; names[i]; ++i) {
        if (strcmp(scene_json_string(j), names[i]) == 0) {
            *out = i;
            return true;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "", names[i]);
    }
    char q[64], hint[96] = "";
    const char *meant = scene_nearest_name(scene_json_string(j), names);
    if (meant) snprintf(hint, sizeof hint, "did you mean \"%s\"? ", meant);
    return js_fail(L, jp, "unknown value \"%s\": %sexpected one of %s", js_quote(q, sizeof q, scene_json_string(j)), hint, list);
}

// Field versions: an absent optional field leaves *out as it is (the caller set the default); an absent
// required one is an error naming the object.
bool js_field_float(loader *L, const scene_json *obj, const char *jp, const char *key, bool need, float *out, double lo, double hi,
                        int open) {
    const scene_json *j = js_member(obj, key);
    char p[JP];
    if (!j) return !need || js_fail(L, jp, "missing required field \"%s\"", key);
    return js_read_float_in(L, j, js_jp_key(p, jp, key), out, lo, hi, open);
}

bool js_field_vec3(loader *L, const scene_json *obj, const char *jp, const char *key, bool need, tread_vec3 *out) {
    const scene_json *j = js_member(obj, key);
    char p[JP];
    if (!j) return !need || js_fail(L, jp, "missing required field \"%s\"", key);
    return js_read_vec3(L, j, js_jp_key(p, jp, key), out);
}

bool js_field_bool(loader *L, const scene_json *obj, const char *jp, const char *key, bool *out) {
    const scene_json *j = js_member(obj, key);
    char p[JP];
    return !j || js_read_bool(L, j, js_jp_key(p, jp, key), out);
}

bool js_field_string(loader *L, const scene_json *obj, const char *jp, const char *key, bool need, char *out, size_t size) {
    const scene_json *j = js_member(obj, key);
    char p[JP];
    if (!j) return !need || js_fail(L, jp, "missing required field \"%s\"", key);
    return js_read_string(L, j, js_jp_key(p, jp, key), out, size);
}

bool js_field_enum(loader *L, const scene_json *obj, const char *jp, const char *key, bool need, const char *const *names, int *out) {
    const scene_json *j = js_member(obj, key);
    char p[JP];
    if (!j) return !need || js_fail(L, jp, "missing required field \"%s\"", key);
    return js_read_enum(L, j, js_jp_key(p, jp, key), names, out);
}

const char *const js_axis_names[] = {"x", "y", "z", NULL};

// {"axis": [..], "degrees": a} or {"quaternion": [x, y, z, w]}. With `axis_angle`, an axis-and-degrees rotation is
// also kept as given (unit axis, radians: more than a turn stays more than a turn); a quaternion sets has_axis false.
bool js_read_rotation(loader *L, const scene_json *j, const char *jp, tread_quat *out, js_axis_angle *axis_angle) {
    static const char *const fields[] = {"axis", "degrees", "quaternion", NULL};
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields)) return false;
    const scene_json *quat = js_member(j, "quaternion");
    char p[JP];
    if (axis_angle) axis_angle->has_axis = false;
    if (quat) {
        if (js_member(j, "axis") || js_member(j, "degrees")) return js_fail(L, jp, "give either \"quaternion\" or \"axis\" and \"degrees\", not both");
        js_jp_key(p, jp, "quaternion");
        if (!scene_json_is_array(quat) || scene_json_count(quat) != 4)
            return js_fail(L, p, "expected an array of 4 numbers [x, y, z, w], got %s", scene_json_is_array(quat) ? "another length" : js_type_name(quat));
        float v[4];
        int i = 0;
        const scene_json *e;
        scene_json_each(e, quat) {
            char pi[JP];
            if (!js_read_float_in(L, e, js_jp_index(pi, p, i), &v[i], -1.0e6, 1.0e6, 0)) return false;
            ++i;
        }
        tread_quat q = {v[0], v[1], v[2], v[3]};
        if (!(tread_quat_length_sq(q) > 1.0e-12f)) return js_fail(L, p, "is the zero quaternion");
        *out = tread_quat_normalize(q);
        return true;
    }
    tread_vec3 axis;
    float degrees;
    if (!js_field_vec3(L, j, jp, "axis", true, &axis) || !js_field_float(L, j, jp, "degrees", true, &degrees, -1.0e6, 1.0e6, 0)) return false;
    if (!(tread_v3_length(axis) > 1.0e-6f)) return js_fail(L, js_jp_key(p, jp, "axis"), "is the zero vector");
    *out = tread_quat_from_axis_angle(tread_v3_normalize(axis), (float)((double)degrees * SCENE_PI / 180.0));
    if (axis_angle) {
        axis_angle->has_axis = true;
        axis_angle->axis = tread_v3_normalize(axis);
        axis_angle->radians = (double)degrees * SCENE_PI / 180.0;
    }
    return true;
}

void *js_alloc_array(loader *L, const char *jp, size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size);
    if (!p) js_fail(L, jp, "out of memory for %zu elements", count);
    return p;
}
// ---- escaped NUL in strings ------------------------------------------------------------------------------
// A string holding U+0000 ("a\u0000b") reaches C cut short at the NUL: a name cut short without a word. The document
// says which string holds one (scene_json_nul_string, by its place in document order); the walk below finds its path.

// Walk item (at path jp) in document order, counting strings as first_nul_string does, and report the one
// numbered `target`: a value at its own path, a key at its object's path.
static bool fail_at_string(loader *L, const scene_json *item, const char *jp, long *counter, long target) {
    char q[64];
    if (scene_json_is_string(item) && (*counter)++ == target)
        return js_fail(L, jp, "\"%s...\" holds a NUL character (\\u0000); no string in a scene may", js_quote(q, sizeof q, scene_json_string(item)));
    if (!scene_json_is_array(item) && !scene_json_is_object(item)) return true;
    const scene_json *child;
    int i = 0;
    scene_json_each(child, item) {
        char p[JP];
        const char *key = scene_json_key(child) ? scene_json_key(child) : "";
        if (scene_json_is_object(item) && (*counter)++ == target)
            return js_fail(L, jp, "field name \"%s...\" holds a NUL character (\\u0000); no string in a scene may", js_quote(q, sizeof q, key));
        if (!fail_at_string(L, child, scene_json_is_object(item) ? js_jp_key(p, jp, key) : js_jp_index(p, jp, i), counter, target))
            return false;
        ++i;
    }
    return true;
}

bool js_check_no_nul(loader *L, const scene_json *root, const char *text, size_t length) {
    long target = scene_json_nul_string(root, text, length), counter = 0;
    if (target < 0) return true;
    // The walk counts the strings as the document does, so it reports the string; the message below only stands in
    // should a parser ever count differently.
    return fail_at_string(L, root, "", &counter, target) && js_fail(L, "", "a string holds a NUL character (\\u0000)");
}

// ---- layer references (layers are parsed by geometry.c) --------------------------------------------------------------------------------------------

int js_find_layer(const scene *s, const char *name) {
    for (int i = 0; i < s->layer_count; ++i)
        if (strcmp(s->layers[i].name, name) == 0) return i;
    return -1;
}

bool js_read_layer_ref(loader *L, const scene_json *j, const char *jp, int *out) {
    if (!scene_json_is_string(j)) return js_fail(L, jp, "expected a layer name (a string), got %s", js_type_name(j));
    *out = js_find_layer(L->s, scene_json_string(j));
    char q[64];
    return *out >= 0 || js_fail(L, jp, "unknown layer \"%s\"", js_quote(q, sizeof q, scene_json_string(j)));
}
