// Scene files (docs/SCENES.md): JSON parsed by cJSON, mesh files read by assimp. Every value is checked where
// it is read, and every message names the file and the JSON path of the value, so a scene author can go
// straight to the mistake. Structure first (types, ranges, shapes that cannot exist); what only the library can
// judge (a body's full validity) is left to tread_world_add_body when the tool builds the world.
#define _POSIX_C_SOURCE 200809L // stat

#include "scene.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define JP 192                     // longest JSON path kept in a message
#define SCENE_PI 3.14159265358979323846
#define MAX_GRID_CELLS (1 << 24)   // heightfield samples or voxel cells in one body
#define MAX_MESH_TRIANGLES (1 << 24)
#define MAX_LAYERS 32
#define MAX_FRAMES 10000000        // duration / dt: keeps a run's frame count (an int) and its trace in memory

// ---- errors and JSON paths -----------------------------------------------------------------------------

typedef struct loader {
    const char *file;  // the scene's path, as given, for messages
    char dir[512];     // its directory with a trailing '/', or "" (mesh files are relative to it)
    scene_error *err;
    bool failed;
    scene *s;
} loader;

// Printable copy of untrusted text for a message: at most 40 characters, control bytes as '?'.
static const char *quote(char *out, size_t size, const char *text) {
    size_t n = 0;
    for (const char *c = text; *c && n + 4 < size && n < 40; ++c) out[n++] = (*c >= 0x20 && *c < 0x7f) ? *c : '?';
    if (text[n] != '\0' && n + 4 < size) out[n++] = '.', out[n++] = '.', out[n++] = '.';
    out[n] = '\0';
    return out;
}

// Append text to a NUL-terminated buffer of `size` bytes, truncating (paths and messages are bounded).
static void append(char *out, size_t size, const char *text) {
    size_t used = strlen(out), n = strlen(text);
    if (used + 1 >= size) return;
    if (n > size - used - 1) n = size - used - 1;
    memcpy(out + used, text, n);
    out[used + n] = '\0';
}

// Record the first error as "<file>: <json path>: <what>" ("<file>: <what>" at the top level). Returns false.
static bool fail(loader *L, const char *jp, const char *fmt, ...) {
    if (L->failed) return false;
    L->failed = true;
    char what[SCENE_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char *m = L->err->message;
    m[0] = '\0';
    append(m, SCENE_ERROR_MAX, L->file);
    append(m, SCENE_ERROR_MAX, ": ");
    if (jp && jp[0]) {
        append(m, SCENE_ERROR_MAX, jp);
        append(m, SCENE_ERROR_MAX, ": ");
    }
    append(m, SCENE_ERROR_MAX, what);
    return false;
}

static const char *jp_key(char *out, const char *parent, const char *key) {
    char copy[JP];
    memcpy(copy, parent, strnlen(parent, JP - 1));
    copy[strnlen(parent, JP - 1)] = '\0';
    out[0] = '\0';
    append(out, JP, copy);
    if (copy[0]) append(out, JP, ".");
    append(out, JP, key);
    return out;
}

static const char *jp_index(char *out, const char *parent, int index) {
    char copy[JP], number[16];
    memcpy(copy, parent, strnlen(parent, JP - 1));
    copy[strnlen(parent, JP - 1)] = '\0';
    snprintf(number, sizeof number, "[%d]", index);
    out[0] = '\0';
    append(out, JP, copy);
    append(out, JP, number);
    return out;
}

static const char *type_name(const cJSON *j) {
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNull(j)) return "null";
    if (cJSON_IsArray(j)) return "an array";
    if (cJSON_IsObject(j)) return "an object";
    return "an invalid value";
}

static const cJSON *member(const cJSON *obj, const char *key) { return cJSON_GetObjectItemCaseSensitive(obj, key); }

static bool expect_object(loader *L, const cJSON *j, const char *jp) {
    return cJSON_IsObject(j) || fail(L, jp, "expected an object, got %s", type_name(j));
}

static bool expect_array(loader *L, const cJSON *j, const char *jp) {
    return cJSON_IsArray(j) || fail(L, jp, "expected an array, got %s", type_name(j));
}

// Every member of obj must be one of `allowed` (NULL-terminated), each at most once.
static bool check_fields(loader *L, const cJSON *obj, const char *jp, const char *const *allowed) {
    const cJSON *c;
    cJSON_ArrayForEach(c, obj) {
        bool known = false;
        for (int i = 0; allowed[i] && !known; ++i) known = c->string && strcmp(c->string, allowed[i]) == 0;
        if (!known) {
            char q[64], list[256] = "";
            for (int i = 0; allowed[i]; ++i) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", allowed[i]);
            }
            return fail(L, jp, "unknown field \"%s\" (expected one of: %s)", quote(q, sizeof q, c->string ? c->string : ""), list);
        }
    }
    // Only known names remain, so counting each known name finds duplicates in O(fields * allowed).
    for (int i = 0; allowed[i]; ++i) {
        int n = 0;
        cJSON_ArrayForEach(c, obj) n += strcmp(c->string, allowed[i]) == 0;
        if (n > 1) return fail(L, jp, "duplicate field \"%s\"", allowed[i]);
    }
    return true;
}

static bool need_field(loader *L, const cJSON *obj, const char *jp, const char *key, const cJSON **out) {
    *out = member(obj, key);
    return *out != NULL || fail(L, jp, "missing required field \"%s\"", key);
}

// ---- values --------------------------------------------------------------------------------------------

enum { OPEN_LO = 1, OPEN_HI = 2 }; // range bounds that are excluded

static bool read_double(loader *L, const cJSON *j, const char *jp, double *out) {
    if (!cJSON_IsNumber(j)) return fail(L, jp, "expected a number, got %s", type_name(j));
    double v = j->valuedouble;
    if (!isfinite(v)) return fail(L, jp, "expected a finite number, got %s", isnan(v) ? "NaN" : (v > 0.0 ? "inf" : "-inf"));
    *out = v;
    return true;
}

static bool read_float(loader *L, const cJSON *j, const char *jp, float *out) {
    double v = 0.0;
    if (!read_double(L, j, jp, &v)) return false;
    if (fabs(v) > (double)FLT_MAX) return fail(L, jp, "%g is out of range for a 32-bit float", v);
    *out = (float)v;
    return true;
}

static bool in_range(double v, double lo, double hi, int open) {
    bool lo_ok = (open & OPEN_LO) ? v > lo : v >= lo;
    bool hi_ok = (open & OPEN_HI) ? v < hi : v <= hi;
    return lo_ok && hi_ok;
}

static bool range_fail(loader *L, const char *jp, double v, double lo, double hi, int open) {
    char want[96] = "";
    if (isfinite(lo)) snprintf(want, sizeof want, "%s %g", (open & OPEN_LO) ? ">" : ">=", lo);
    if (isfinite(hi)) {
        size_t used = strlen(want);
        snprintf(want + used, sizeof want - used, "%s%s %g", used ? " and " : "", (open & OPEN_HI) ? "<" : "<=", hi);
    }
    return fail(L, jp, "%g is out of range: expected %s", v, want);
}

static bool read_float_in(loader *L, const cJSON *j, const char *jp, float *out, double lo, double hi, int open) {
    float v = 0.0f;
    if (!read_float(L, j, jp, &v)) return false;
    if (!in_range((double)v, lo, hi, open)) return range_fail(L, jp, (double)v, lo, hi, open);
    *out = v;
    return true;
}

// An integral number in [lo, hi].
static bool read_integer(loader *L, const cJSON *j, const char *jp, double lo, double hi, int64_t *out) {
    double v = 0.0;
    if (!read_double(L, j, jp, &v)) return false;
    if (v != floor(v)) return fail(L, jp, "expected an integer, got %g", v);
    if (v < lo || v > hi) return range_fail(L, jp, v, lo, hi, 0);
    *out = (int64_t)v;
    return true;
}

static bool read_vec3(loader *L, const cJSON *j, const char *jp, tread_vec3 *out) {
    if (!cJSON_IsArray(j)) return fail(L, jp, "expected an array of 3 numbers, got %s", type_name(j));
    int n = cJSON_GetArraySize(j);
    if (n != 3) return fail(L, jp, "expected an array of 3 numbers, got %d element%s", n, n == 1 ? "" : "s");
    float v[3];
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, j) {
        char p[JP];
        if (!read_float(L, e, jp_index(p, jp, i), &v[i])) return false;
        ++i;
    }
    *out = tread_v3(v[0], v[1], v[2]);
    return true;
}

static bool read_bool(loader *L, const cJSON *j, const char *jp, bool *out) {
    if (!cJSON_IsBool(j)) return fail(L, jp, "expected true or false, got %s", type_name(j));
    *out = cJSON_IsTrue(j);
    return true;
}

static bool read_string(loader *L, const cJSON *j, const char *jp, char *out, size_t size) {
    if (!cJSON_IsString(j)) return fail(L, jp, "expected a string, got %s", type_name(j));
    size_t n = strlen(j->valuestring);
    if (n >= size) return fail(L, jp, "is %zu characters long; at most %zu allowed", n, size - 1);
    memcpy(out, j->valuestring, n + 1);
    return true;
}

// One of `names` (NULL-terminated); *out is its index.
static bool read_enum(loader *L, const cJSON *j, const char *jp, const char *const *names, int *out) {
    if (!cJSON_IsString(j)) return fail(L, jp, "expected a string, got %s", type_name(j));
    char list[160] = "";
    for (int i = 0; names[i]; ++i) {
        if (strcmp(j->valuestring, names[i]) == 0) {
            *out = i;
            return true;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "", names[i]);
    }
    char q[64];
    return fail(L, jp, "unknown value \"%s\": expected one of %s", quote(q, sizeof q, j->valuestring), list);
}

// Field versions: an absent optional field leaves *out as it is (the caller set the default); an absent
// required one is an error naming the object.
static bool field_float(loader *L, const cJSON *obj, const char *jp, const char *key, bool need, float *out, double lo, double hi,
                        int open) {
    const cJSON *j = member(obj, key);
    char p[JP];
    if (!j) return !need || fail(L, jp, "missing required field \"%s\"", key);
    return read_float_in(L, j, jp_key(p, jp, key), out, lo, hi, open);
}

static bool field_vec3(loader *L, const cJSON *obj, const char *jp, const char *key, bool need, tread_vec3 *out) {
    const cJSON *j = member(obj, key);
    char p[JP];
    if (!j) return !need || fail(L, jp, "missing required field \"%s\"", key);
    return read_vec3(L, j, jp_key(p, jp, key), out);
}

static bool field_bool(loader *L, const cJSON *obj, const char *jp, const char *key, bool *out) {
    const cJSON *j = member(obj, key);
    char p[JP];
    return !j || read_bool(L, j, jp_key(p, jp, key), out);
}

static bool field_string(loader *L, const cJSON *obj, const char *jp, const char *key, bool need, char *out, size_t size) {
    const cJSON *j = member(obj, key);
    char p[JP];
    if (!j) return !need || fail(L, jp, "missing required field \"%s\"", key);
    return read_string(L, j, jp_key(p, jp, key), out, size);
}

static bool field_enum(loader *L, const cJSON *obj, const char *jp, const char *key, bool need, const char *const *names, int *out) {
    const cJSON *j = member(obj, key);
    char p[JP];
    if (!j) return !need || fail(L, jp, "missing required field \"%s\"", key);
    return read_enum(L, j, jp_key(p, jp, key), names, out);
}

static const char *const axis_names[] = {"x", "y", "z", NULL};

static void *alloc_array(loader *L, const char *jp, size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size);
    if (!p) fail(L, jp, "out of memory for %zu elements", count);
    return p;
}

// ---- character settings --------------------------------------------------------------------------------

typedef enum setting_type { SET_FLOAT, SET_VEC3, SET_BOOL, SET_INT, SET_MASK, SET_SHAPE, SET_STRATEGY } setting_type;

typedef struct setting_field {
    const char *name;
    setting_type type;
    size_t offset;
} setting_field;

#define SETTING(field, type) {#field, type, offsetof(tread_character_settings, field)}
// Every field of tread_character_settings (a new field needs a row here and a name below).
static const setting_field setting_fields[] = {
    SETTING(shape, SET_SHAPE),
    SETTING(radius, SET_FLOAT),
    SETTING(height, SET_FLOAT),
    SETTING(up, SET_VEC3),
    SETTING(max_slope_degrees, SET_FLOAT),
    SETTING(max_step_height, SET_FLOAT),
    SETTING(min_step_depth, SET_FLOAT),
    SETTING(step_down_distance, SET_FLOAT),
    SETTING(max_snap_speed, SET_FLOAT),
    SETTING(ground_probe_distance, SET_FLOAT),
    SETTING(skin, SET_FLOAT),
    SETTING(max_slide_iterations, SET_INT),
    SETTING(collide_mask, SET_MASK),
    SETTING(ground_mask, SET_MASK),
    SETTING(recovery_speed, SET_FLOAT),
    SETTING(keep_horizontal_speed, SET_BOOL),
    SETTING(step_strategy, SET_STRATEGY),
};
#define SETTING_COUNT ((int)(sizeof setting_fields / sizeof setting_fields[0]))

static const char *const setting_names[] = {
    "shape", "radius", "height", "up", "max_slope_degrees", "max_step_height", "min_step_depth", "step_down_distance",
    "max_snap_speed", "ground_probe_distance", "skin", "max_slide_iterations", "collide_mask", "ground_mask",
    "recovery_speed", "keep_horizontal_speed", "step_strategy", NULL,
};
_Static_assert(sizeof setting_names / sizeof setting_names[0] == sizeof setting_fields / sizeof setting_fields[0] + 1,
               "setting_names must list every setting_fields row");

static const char *const shape_names[] = {"capsule", "sphere", "box", NULL};
static const tread_query_shape_type shape_values[] = {TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE, TREAD_QUERY_BOX};
static const char *const strategy_names[] = {"sweep", "contact", "cast_down", "riser", NULL};
static const tread_step_strategy strategy_values[] = {TREAD_STEP_SWEEP, TREAD_STEP_CONTACT, TREAD_STEP_CAST_DOWN, TREAD_STEP_RISER};

const char *const *scene_setting_names(void) { return setting_names; }

static const setting_field *find_setting(const char *name) {
    for (int i = 0; i < SETTING_COUNT; ++i)
        if (strcmp(setting_fields[i].name, name) == 0) return &setting_fields[i];
    return NULL;
}

static void *setting_ptr(tread_character_settings *s, const setting_field *f) { return (char *)s + f->offset; }

static void names_list(char *out, size_t size, const char *const *names) {
    out[0] = '\0';
    for (int i = 0; names[i]; ++i) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", i ? ", " : "", names[i]);
    }
}

static void set_message(char *message, size_t size, const char *fmt, ...) {
    if (!message || size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, size, fmt, ap);
    va_end(ap);
}

static bool parse_float_text(const char *text, float *out) {
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || fabs(v) > (double)FLT_MAX) return false;
    *out = (float)v;
    return true;
}

bool scene_set_setting(tread_character_settings *settings, const char *name, const char *value, char *message, size_t size) {
    if (!settings || !name || !value) {
        set_message(message, size, "scene_set_setting: NULL argument");
        return false;
    }
    const setting_field *f = find_setting(name);
    char q[64], list[512];
    if (!f) {
        names_list(list, sizeof list, setting_names);
        set_message(message, size, "unknown setting \"%s\" (settings are: %s)", quote(q, sizeof q, name), list);
        return false;
    }
    void *p = setting_ptr(settings, f);
    quote(q, sizeof q, value);
    switch (f->type) {
    case SET_FLOAT: {
        float v;
        if (!parse_float_text(value, &v)) break;
        *(float *)p = v;
        return true;
    }
    case SET_VEC3: {
        // "x,y,z": exactly three numbers separated by commas.
        char buf[128];
        float v[3];
        size_t len = strlen(value);
        int commas = 0;
        for (const char *c = value; *c; ++c) commas += *c == ',';
        bool ok = len < sizeof buf && commas == 2;
        if (ok) {
            memcpy(buf, value, len + 1);
            char *part = buf;
            for (int n = 0; n < 3 && ok; ++n) {
                char *comma = strchr(part, ',');
                if (comma) *comma = '\0';
                ok = parse_float_text(part, &v[n]);
                part = comma ? comma + 1 : part;
            }
        }
        if (!ok) {
            set_message(message, size, "%s: expected three comma-separated numbers like \"0,1,0\", got \"%s\"", name, q);
            return false;
        }
        *(tread_vec3 *)p = tread_v3(v[0], v[1], v[2]);
        return true;
    }
    case SET_BOOL:
        if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0) {
            *(bool *)p = value[0] == 't';
            return true;
        }
        set_message(message, size, "%s: expected true or false, got \"%s\"", name, q);
        return false;
    case SET_INT: {
        char *end = NULL;
        errno = 0;
        long v = strtol(value, &end, 10);
        if (end == value || *end != '\0' || errno == ERANGE || v < -2147483647L || v > 2147483647L) {
            set_message(message, size, "%s: expected an integer, got \"%s\"", name, q);
            return false;
        }
        *(int *)p = (int)v;
        return true;
    }
    case SET_MASK: {
        char *end = NULL;
        errno = 0;
        const char *digits = value;
        while (*digits == ' ') ++digits;
        unsigned long long v = strtoull(digits, &end, 0);
        if (*digits == '-' || *digits == '+' || end == digits || *end != '\0' || errno == ERANGE || v > 0xFFFFFFFFull) {
            set_message(message, size, "%s: expected a layer mask (an integer 0 .. 4294967295, or 0x hex), got \"%s\"", name, q);
            return false;
        }
        *(uint32_t *)p = (uint32_t)v;
        return true;
    }
    case SET_SHAPE:
    case SET_STRATEGY: {
        const char *const *names = f->type == SET_SHAPE ? shape_names : strategy_names;
        for (int i = 0; names[i]; ++i) {
            if (strcmp(value, names[i]) != 0) continue;
            if (f->type == SET_SHAPE) *(tread_query_shape_type *)p = shape_values[i];
            else *(tread_step_strategy *)p = strategy_values[i];
            return true;
        }
        names_list(list, sizeof list, names);
        set_message(message, size, "%s: expected one of %s, got \"%s\"", name, list, q);
        return false;
    }
    }
    set_message(message, size, "%s: expected a number, got \"%s\"", name, q);
    return false;
}

// ---- layers --------------------------------------------------------------------------------------------

static int find_layer(const scene *s, const char *name) {
    for (int i = 0; i < s->layer_count; ++i)
        if (strcmp(s->layers[i].name, name) == 0) return i;
    return -1;
}

static bool read_layer_ref(loader *L, const cJSON *j, const char *jp, int *out) {
    if (!cJSON_IsString(j)) return fail(L, jp, "expected a layer name (a string), got %s", type_name(j));
    *out = find_layer(L->s, j->valuestring);
    char q[64];
    return *out >= 0 || fail(L, jp, "unknown layer \"%s\"", quote(q, sizeof q, j->valuestring));
}

static bool parse_layers(loader *L, const cJSON *root) {
    scene *s = L->s;
    const cJSON *j = member(root, "layers");
    if (!j) {
        s->layers = (scene_layer *)alloc_array(L, "layers", 1, sizeof(scene_layer));
        if (!s->layers) return false;
        snprintf(s->layers[0].name, sizeof s->layers[0].name, "default");
        s->layers[0].walkable_degrees = -1.0f;
        s->layer_count = 1;
        return true;
    }
    if (!expect_array(L, j, "layers")) return false;
    int n = cJSON_GetArraySize(j);
    if (n < 1) return fail(L, "layers", "needs at least one layer (leave the field out for a single \"default\" layer)");
    if (n > MAX_LAYERS) return fail(L, "layers", "has %d layers; at most %d", n, MAX_LAYERS);
    s->layers = (scene_layer *)alloc_array(L, "layers", (size_t)n, sizeof(scene_layer));
    if (!s->layers) return false;
    static const char *const fields[] = {"name", "walkable_degrees", NULL};
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, j) {
        char p[JP], q[64];
        jp_index(p, "layers", i);
        scene_layer *l = &s->layers[i];
        l->walkable_degrees = -1.0f;
        if (!expect_object(L, e, p) || !check_fields(L, e, p, fields) || !field_string(L, e, p, "name", true, l->name, sizeof l->name) ||
            !field_float(L, e, p, "walkable_degrees", false, &l->walkable_degrees, 0.0, 90.0, OPEN_HI))
            return false;
        if (l->name[0] == '\0') return fail(L, p, "layer name is empty");
        if (find_layer(s, l->name) >= 0) return fail(L, p, "layer \"%s\" is named twice", quote(q, sizeof q, l->name));
        // A character has one stairs angle for all its stairs layers (tread_character_settings.stairs_max_slope_degrees).
        for (int k = 0; k < i; ++k)
            if (l->walkable_degrees >= 0.0f && s->layers[k].walkable_degrees >= 0.0f && s->layers[k].walkable_degrees != l->walkable_degrees)
                return fail(L, p, "walkable_degrees is %g but layer \"%s\" has %g; all layers with their own walkable angle share one",
                            (double)l->walkable_degrees, quote(q, sizeof q, s->layers[k].name), (double)s->layers[k].walkable_degrees);
        s->layer_count = ++i;
    }
    return true;
}

// ---- bodies --------------------------------------------------------------------------------------------

static tread_aabb aabb_of_box(tread_transform t, tread_vec3 he) {
    tread_vec3 ax = tread_v3_abs(tread_quat_rotate(t.q, tread_v3(he.x, 0.0f, 0.0f)));
    tread_vec3 ay = tread_v3_abs(tread_quat_rotate(t.q, tread_v3(0.0f, he.y, 0.0f)));
    tread_vec3 az = tread_v3_abs(tread_quat_rotate(t.q, tread_v3(0.0f, 0.0f, he.z)));
    tread_vec3 e = tread_v3_add(tread_v3_add(ax, ay), az);
    tread_aabb a = {tread_v3_sub(t.p, e), tread_v3_add(t.p, e)};
    return a;
}

// Rotation matrix with columns x, y, z (orthonormal, right-handed) as a quaternion.
static tread_quat quat_from_basis(tread_vec3 x, tread_vec3 y, tread_vec3 z) {
    double m00 = x.x, m10 = x.y, m20 = x.z, m01 = y.x, m11 = y.y, m21 = y.z, m02 = z.x, m12 = z.y, m22 = z.z;
    double trace = m00 + m11 + m22, qx, qy, qz, qw;
    if (trace > 0.0) {
        double r = sqrt(trace + 1.0) * 2.0;
        qw = 0.25 * r, qx = (m21 - m12) / r, qy = (m02 - m20) / r, qz = (m10 - m01) / r;
    } else if (m00 > m11 && m00 > m22) {
        double r = sqrt(1.0 + m00 - m11 - m22) * 2.0;
        qw = (m21 - m12) / r, qx = 0.25 * r, qy = (m01 + m10) / r, qz = (m02 + m20) / r;
    } else if (m11 > m22) {
        double r = sqrt(1.0 + m11 - m00 - m22) * 2.0;
        qw = (m02 - m20) / r, qx = (m01 + m10) / r, qy = 0.25 * r, qz = (m12 + m21) / r;
    } else {
        double r = sqrt(1.0 + m22 - m00 - m11) * 2.0;
        qw = (m10 - m01) / r, qx = (m02 + m20) / r, qy = (m12 + m21) / r, qz = 0.25 * r;
    }
    tread_quat q = {(float)qx, (float)qy, (float)qz, (float)qw};
    return tread_quat_normalize(q);
}

// {"axis": [..], "degrees": a} or {"quaternion": [x, y, z, w]}.
static bool parse_rotation(loader *L, const cJSON *j, const char *jp, tread_quat *out) {
    static const char *const fields[] = {"axis", "degrees", "quaternion", NULL};
    if (!expect_object(L, j, jp) || !check_fields(L, j, jp, fields)) return false;
    const cJSON *quat = member(j, "quaternion");
    char p[JP];
    if (quat) {
        if (member(j, "axis") || member(j, "degrees")) return fail(L, jp, "give either \"quaternion\" or \"axis\" and \"degrees\", not both");
        jp_key(p, jp, "quaternion");
        if (!cJSON_IsArray(quat) || cJSON_GetArraySize(quat) != 4)
            return fail(L, p, "expected an array of 4 numbers [x, y, z, w], got %s", cJSON_IsArray(quat) ? "another length" : type_name(quat));
        float v[4];
        int i = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, quat) {
            char pi[JP];
            if (!read_float_in(L, e, jp_index(pi, p, i), &v[i], -1.0e6, 1.0e6, 0)) return false;
            ++i;
        }
        tread_quat q = {v[0], v[1], v[2], v[3]};
        if (!(tread_quat_length_sq(q) > 1.0e-12f)) return fail(L, p, "is the zero quaternion");
        *out = tread_quat_normalize(q);
        return true;
    }
    tread_vec3 axis;
    float degrees;
    if (!field_vec3(L, j, jp, "axis", true, &axis) || !field_float(L, j, jp, "degrees", true, &degrees, -1.0e6, 1.0e6, 0)) return false;
    if (!(tread_v3_length(axis) > 1.0e-6f)) return fail(L, jp_key(p, jp, "axis"), "is the zero vector");
    *out = tread_quat_from_axis_angle(tread_v3_normalize(axis), (float)((double)degrees * SCENE_PI / 180.0));
    return true;
}

static bool field_rotation(loader *L, const cJSON *obj, const char *jp, tread_quat *out) {
    const cJSON *j = member(obj, "rotation");
    char p[JP];
    *out = tread_quat_identity();
    return !j || parse_rotation(L, j, jp_key(p, jp, "rotation"), out);
}

static bool positive_vec3(loader *L, const char *jp, const char *key, tread_vec3 v) {
    char p[JP];
    if (v.x > 0.0f && v.y > 0.0f && v.z > 0.0f) return true;
    return fail(L, jp_key(p, jp, key), "every component must be > 0, got [%g, %g, %g]", (double)v.x, (double)v.y, (double)v.z);
}

static bool parse_box(loader *L, const cJSON *j, const char *jp, scene_body *b) {
    tread_shape_def *sh = &b->def.shape;
    bool corners = member(j, "min") || member(j, "max");
    bool centred = member(j, "center") || member(j, "half_extents");
    if (corners && centred) return fail(L, jp, "give either \"min\" and \"max\" or \"center\" and \"half_extents\", not both");
    if (!corners && !centred) return fail(L, jp, "missing required fields: \"min\" and \"max\", or \"center\" and \"half_extents\"");
    if (corners) {
        tread_vec3 lo, hi;
        if (member(j, "rotation")) return fail(L, jp, "\"rotation\" needs the \"center\" and \"half_extents\" form");
        if (!field_vec3(L, j, jp, "min", true, &lo) || !field_vec3(L, j, jp, "max", true, &hi)) return false;
        if (!(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z))
            return fail(L, jp, "min [%g, %g, %g] must be below max [%g, %g, %g] on every axis", (double)lo.x, (double)lo.y, (double)lo.z,
                        (double)hi.x, (double)hi.y, (double)hi.z);
        *sh = tread_shape_box(tread_v3_scale(tread_v3_sub(hi, lo), 0.5f));
        b->def.transform.p = tread_v3_scale(tread_v3_add(lo, hi), 0.5f);
    } else {
        tread_vec3 he;
        if (!field_vec3(L, j, jp, "center", true, &b->def.transform.p) || !field_vec3(L, j, jp, "half_extents", true, &he) ||
            !positive_vec3(L, jp, "half_extents", he) || !field_rotation(L, j, jp, &b->def.transform.q))
            return false;
        *sh = tread_shape_box(he);
    }
    b->silhouette = aabb_of_box(b->def.transform, sh->half_extents);
    return true;
}

static bool parse_round(loader *L, const cJSON *j, const char *jp, scene_body *b, bool capsule) {
    float radius = 0.0f, half_height = 0.0f;
    tread_transform *t = &b->def.transform;
    if (!field_vec3(L, j, jp, "center", true, &t->p) || !field_float(L, j, jp, "radius", true, &radius, 0.0, INFINITY, OPEN_LO))
        return false;
    if (!capsule) {
        b->def.shape = tread_shape_sphere(radius);
        b->silhouette = tread_aabb_make(tread_v3_sub(t->p, tread_v3(radius, radius, radius)), tread_v3_add(t->p, tread_v3(radius, radius, radius)));
        return true;
    }
    if (!field_float(L, j, jp, "half_height", true, &half_height, 0.0, INFINITY, 0) || !field_rotation(L, j, jp, &t->q)) return false;
    b->def.shape = tread_shape_capsule(half_height, radius);
    tread_vec3 axis = tread_v3_abs(tread_quat_rotate(t->q, tread_v3(0.0f, half_height, 0.0f)));
    tread_vec3 e = tread_v3_add(axis, tread_v3(radius, radius, radius));
    b->silhouette = tread_aabb_make(tread_v3_sub(t->p, e), tread_v3_add(t->p, e));
    return true;
}

// A box whose top face starts at `foot` and rises along the horizontal `direction` at `degrees` until it is
// `rise` above the foot.
static bool parse_ramp(loader *L, const cJSON *j, const char *jp, scene_body *b) {
    tread_vec3 foot, direction;
    float degrees = 0.0f, rise = 0.0f, width = 0.0f, thickness = 0.0f;
    if (!field_vec3(L, j, jp, "foot", true, &foot) || !field_vec3(L, j, jp, "direction", true, &direction) ||
        !field_float(L, j, jp, "degrees", true, &degrees, 0.0, 90.0, OPEN_LO | OPEN_HI) ||
        !field_float(L, j, jp, "rise", true, &rise, 0.0, INFINITY, OPEN_LO) ||
        !field_float(L, j, jp, "width", true, &width, 0.0, INFINITY, OPEN_LO) ||
        !field_float(L, j, jp, "thickness", true, &thickness, 0.0, INFINITY, OPEN_LO))
        return false;
    tread_vec3 up = L->s->up;
    tread_vec3 d = tread_v3_reject(direction, up);
    char p[JP];
    if (!(tread_v3_length(d) > 1.0e-6f)) return fail(L, jp_key(p, jp, "direction"), "has no horizontal part (it is parallel to up)");
    d = tread_v3_normalize(d);
    double a = (double)degrees * SCENE_PI / 180.0;
    float c = (float)cos(a), sn = (float)sin(a);
    float length = (float)((double)rise / sin(a));
    tread_vec3 along = tread_v3_add(tread_v3_scale(d, c), tread_v3_scale(up, sn));       // up the slope
    tread_vec3 normal = tread_v3_sub(tread_v3_scale(up, c), tread_v3_scale(d, sn));      // top face normal
    tread_vec3 across = tread_v3_cross(along, normal);
    tread_vec3 he = tread_v3(0.5f * length, 0.5f * thickness, 0.5f * width);
    b->def.shape = tread_shape_box(he);
    b->def.transform.q = quat_from_basis(along, normal, across);
    b->def.transform.p = tread_v3_sub(tread_v3_add(foot, tread_v3_scale(along, he.x)), tread_v3_scale(normal, he.y));
    b->silhouette = aabb_of_box(b->def.transform, he);
    return true;
}

// ---- meshes --------------------------------------------------------------------------------------------

typedef struct mesh_build {
    tread_vec3 *vertices;
    uint32_t *indices;
    size_t vertex_count, triangle_count;
} mesh_build;

_Static_assert(sizeof(struct aiMatrix4x4) == 16 * sizeof(ai_real), "aiMatrix4x4 is 16 reals, row-major");

static void mat4_mul(struct aiMatrix4x4 *out, const struct aiMatrix4x4 *a, const struct aiMatrix4x4 *b) {
    ai_real x[16], y[16], r[16]; // row-major: a1 a2 a3 a4 b1 ...
    memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k) r[4 * i + k] = x[4 * i] * y[k] + x[4 * i + 1] * y[4 + k] + x[4 * i + 2] * y[8 + k] + x[4 * i + 3] * y[12 + k];
    memcpy(out, r, sizeof r);
}

static void count_node(const struct aiScene *sc, const struct aiNode *node, size_t *vertices, size_t *triangles, int depth) {
    if (!node || depth > 64) return;
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        if (node->mMeshes[i] >= sc->mNumMeshes) continue;
        const struct aiMesh *m = sc->mMeshes[node->mMeshes[i]];
        *vertices += m->mNumVertices;
        for (unsigned f = 0; f < m->mNumFaces; ++f) *triangles += m->mFaces[f].mNumIndices == 3;
    }
    for (unsigned i = 0; i < node->mNumChildren; ++i) count_node(sc, node->mChildren[i], vertices, triangles, depth + 1);
}

// Append every triangle of the node's meshes, in world (file) space, then the children's.
static void gather_node(const struct aiScene *sc, const struct aiNode *node, struct aiMatrix4x4 parent, mesh_build *mb, int depth) {
    if (!node || depth > 64) return;
    struct aiMatrix4x4 world;
    mat4_mul(&world, &parent, &node->mTransformation);
    ai_real w[16];
    memcpy(w, &world, sizeof w);
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        if (node->mMeshes[i] >= sc->mNumMeshes) continue;
        const struct aiMesh *m = sc->mMeshes[node->mMeshes[i]];
        size_t base = mb->vertex_count;
        for (unsigned v = 0; v < m->mNumVertices; ++v) {
            struct aiVector3D p = m->mVertices[v];
            mb->vertices[mb->vertex_count++] = tread_v3((float)(w[0] * p.x + w[1] * p.y + w[2] * p.z + w[3]),
                                                        (float)(w[4] * p.x + w[5] * p.y + w[6] * p.z + w[7]),
                                                        (float)(w[8] * p.x + w[9] * p.y + w[10] * p.z + w[11]));
        }
        for (unsigned f = 0; f < m->mNumFaces; ++f) {
            const struct aiFace *face = &m->mFaces[f];
            if (face->mNumIndices != 3) continue; // points and lines
            bool ok = face->mIndices[0] < m->mNumVertices && face->mIndices[1] < m->mNumVertices && face->mIndices[2] < m->mNumVertices;
            if (!ok) continue;
            for (int k = 0; k < 3; ++k) mb->indices[3 * mb->triangle_count + (size_t)k] = (uint32_t)(base + face->mIndices[k]);
            ++mb->triangle_count;
        }
    }
    for (unsigned i = 0; i < node->mNumChildren; ++i) gather_node(sc, node->mChildren[i], world, mb, depth + 1);
}

static bool load_mesh_file(loader *L, const char *file, const char *jp, mesh_build *mb) {
    char full[1024], q[64];
    quote(q, sizeof q, file);
    if (file[0] == '\0') return fail(L, jp, "is empty");
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    // The fuzzer must not wander the file system: only plain names next to the scene.
    if (file[0] == '/' || strstr(file, "..")) return fail(L, jp, "cannot read \"%s\": outside the scene's directory (fuzz build)", q);
#endif
    if (file[0] == '/') snprintf(full, sizeof full, "%s", file);
    else snprintf(full, sizeof full, "%s%s", L->dir, file);
    struct stat st;
    if (stat(full, &st) == 0 && !S_ISREG(st.st_mode)) return fail(L, jp, "cannot read \"%s\": not a regular file", q);
    const struct aiScene *sc = aiImportFile(full, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
    if (!sc) return fail(L, jp, "cannot read \"%s\": %s", q, aiGetErrorString());
    size_t vertices = 0, triangles = 0;
    struct aiMatrix4x4 identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    if (sc->mRootNode) count_node(sc, sc->mRootNode, &vertices, &triangles, 0);
    bool ok = true;
    if (triangles == 0) ok = fail(L, jp, "\"%s\" has no triangles", q);
    else if (triangles > MAX_MESH_TRIANGLES || vertices > UINT32_MAX / 2)
        ok = fail(L, jp, "\"%s\" has %zu triangles; at most %d", q, triangles, MAX_MESH_TRIANGLES);
    if (ok) {
        mb->vertices = (tread_vec3 *)alloc_array(L, jp, vertices, sizeof(tread_vec3));
        mb->indices = (uint32_t *)alloc_array(L, jp, triangles * 3, sizeof(uint32_t));
        ok = mb->vertices && mb->indices;
    }
    if (ok) gather_node(sc, sc->mRootNode, identity, mb, 0);
    aiReleaseImport(sc);
    if (ok && mb->triangle_count == 0) ok = fail(L, jp, "\"%s\" has no valid triangles", q);
    return ok;
}

static bool parse_inline_mesh(loader *L, const cJSON *j, const char *jp, mesh_build *mb) {
    const cJSON *verts, *tris;
    char pv[JP], pt[JP];
    if (!need_field(L, j, jp, "vertices", &verts) || !need_field(L, j, jp, "triangles", &tris)) return false;
    jp_key(pv, jp, "vertices");
    jp_key(pt, jp, "triangles");
    if (!expect_array(L, verts, pv) || !expect_array(L, tris, pt)) return false;
    int nv = cJSON_GetArraySize(verts), nt = cJSON_GetArraySize(tris);
    if (nv < 3) return fail(L, pv, "has %d vertices; a mesh needs at least 3", nv);
    if (nt < 1) return fail(L, pt, "is empty; a mesh needs at least one triangle");
    if (nt > MAX_MESH_TRIANGLES) return fail(L, pt, "has %d triangles; at most %d", nt, MAX_MESH_TRIANGLES);
    mb->vertices = (tread_vec3 *)alloc_array(L, pv, (size_t)nv, sizeof(tread_vec3));
    mb->indices = (uint32_t *)alloc_array(L, pt, (size_t)nt * 3, sizeof(uint32_t));
    if (!mb->vertices || !mb->indices) return false;
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, verts) {
        char p[JP];
        if (!read_vec3(L, e, jp_index(p, pv, i), &mb->vertices[i])) return false;
        ++i;
    }
    mb->vertex_count = (size_t)nv;
    i = 0;
    cJSON_ArrayForEach(e, tris) {
        char p[JP];
        jp_index(p, pt, i);
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 3)
            return fail(L, p, "expected an array of 3 vertex indices, got %s", cJSON_IsArray(e) ? "another length" : type_name(e));
        const cJSON *x;
        int k = 0;
        cJSON_ArrayForEach(x, e) {
            char pk[JP];
            int64_t index;
            jp_index(pk, p, k);
            if (!read_integer(L, x, pk, 0.0, 4294967295.0, &index)) return false;
            if (index >= nv) return fail(L, pk, "vertex index %lld is out of range (the mesh has %d vertices)", (long long)index, nv);
            mb->indices[3 * i + k] = (uint32_t)index;
            ++k;
        }
        ++i;
    }
    mb->triangle_count = (size_t)nt;
    return true;
}

static bool parse_mesh(loader *L, const cJSON *j, const char *jp, scene_body *b) {
    mesh_build mb = {0};
    const cJSON *file = member(j, "file");
    bool ok;
    if (file) {
        char p[JP];
        jp_key(p, jp, "file");
        if (member(j, "vertices") || member(j, "triangles")) return fail(L, jp, "give either \"file\" or \"vertices\" and \"triangles\", not both");
        if (!cJSON_IsString(file)) return fail(L, p, "expected a string, got %s", type_name(file));
        ok = load_mesh_file(L, file->valuestring, p, &mb);
    } else {
        ok = parse_inline_mesh(L, j, jp, &mb);
    }
    // The arrays belong to the body from here on, so scene_free releases them on any later error.
    b->vertices = mb.vertices;
    b->indices = mb.indices;
    if (!ok) return false;
    float scale = 1.0f;
    if (!field_vec3(L, j, jp, "position", false, &b->def.transform.p) || !field_rotation(L, j, jp, &b->def.transform.q) ||
        !field_float(L, j, jp, "scale", false, &scale, 0.0, INFINITY, OPEN_LO))
        return false;
    for (size_t i = 0; i < mb.vertex_count; ++i) mb.vertices[i] = tread_v3_scale(mb.vertices[i], scale);
    b->def.shape = tread_shape_mesh(mb.vertices, (int)mb.vertex_count, mb.indices, (int)mb.triangle_count);
    // Bounds of the referenced vertices only (a file may carry unused ones).
    tread_aabb a = {tread_v3(FLT_MAX, FLT_MAX, FLT_MAX), tread_v3(-FLT_MAX, -FLT_MAX, -FLT_MAX)};
    for (size_t i = 0; i < mb.triangle_count * 3; ++i) {
        tread_vec3 w = tread_transform_point(b->def.transform, mb.vertices[mb.indices[i]]);
        a.min = tread_v3_min(a.min, w);
        a.max = tread_v3_max(a.max, w);
    }
    b->silhouette = a;
    return true;
}

// ---- heightfields and voxels ----------------------------------------------------------------------------

static bool parse_heightfield(loader *L, const cJSON *j, const char *jp, scene_body *b) {
    const cJSON *heights, *spacing_j;
    char ph[JP], ps[JP];
    tread_heightfield_def *hf = &b->def.shape.heightfield;
    b->def.shape.type = TREAD_SHAPE_HEIGHTFIELD;
    if (!field_vec3(L, j, jp, "origin", true, &b->def.transform.p) || !need_field(L, j, jp, "spacing", &spacing_j) ||
        !need_field(L, j, jp, "heights", &heights))
        return false;
    jp_key(ps, jp, "spacing");
    if (!cJSON_IsArray(spacing_j) || cJSON_GetArraySize(spacing_j) != 2)
        return fail(L, ps, "expected an array of 2 numbers [x, z], got %s", cJSON_IsArray(spacing_j) ? "another length" : type_name(spacing_j));
    float spacing[2];
    for (int i = 0; i < 2; ++i) {
        char p[JP];
        if (!read_float_in(L, cJSON_GetArrayItem(spacing_j, i), jp_index(p, ps, i), &spacing[i], 0.0, INFINITY, OPEN_LO)) return false;
    }
    hf->spacing_x = spacing[0];
    hf->spacing_z = spacing[1];
    jp_key(ph, jp, "heights");
    if (!expect_array(L, heights, ph)) return false;
    int nz = cJSON_GetArraySize(heights), nx = 0;
    if (nz < 2) return fail(L, ph, "has %d rows; a heightfield needs at least 2", nz);
    const cJSON *row = heights->child;
    char p0[JP];
    if (!expect_array(L, row, jp_index(p0, ph, 0))) return false;
    nx = cJSON_GetArraySize(row);
    if (nx < 2) return fail(L, p0, "has %d heights; a row needs at least 2", nx);
    if ((int64_t)nx * nz > MAX_GRID_CELLS) return fail(L, ph, "has %d x %d samples; at most %d", nx, nz, MAX_GRID_CELLS);
    b->heights = (float *)alloc_array(L, ph, (size_t)nx * (size_t)nz, sizeof(float));
    if (!b->heights) return false;
    float lo = FLT_MAX, hi = -FLT_MAX;
    int r = 0;
    cJSON_ArrayForEach(row, heights) {
        char pr[JP];
        jp_index(pr, ph, r);
        if (!expect_array(L, row, pr)) return false;
        int n = cJSON_GetArraySize(row);
        if (n != nx) return fail(L, pr, "has %d heights; row 0 has %d (rows must be the same length)", n, nx);
        const cJSON *h;
        int i = 0;
        cJSON_ArrayForEach(h, row) {
            char pi[JP];
            float v;
            if (!read_float(L, h, jp_index(pi, pr, i), &v)) return false;
            b->heights[(size_t)r * (size_t)nx + (size_t)i] = v;
            lo = fminf(lo, v);
            hi = fmaxf(hi, v);
            ++i;
        }
        ++r;
    }
    hf->count_x = nx;
    hf->count_z = nz;
    hf->heights = b->heights;
    const cJSON *holes = member(j, "holes");
    if (holes) {
        char pho[JP];
        jp_key(pho, jp, "holes");
        if (!expect_array(L, holes, pho)) return false;
        if (cJSON_GetArraySize(holes) != nz - 1) return fail(L, pho, "has %d rows; expected %d (one per row of cells)", cJSON_GetArraySize(holes), nz - 1);
        b->holes = (uint8_t *)alloc_array(L, pho, (size_t)(nx - 1) * (size_t)(nz - 1), 1);
        if (!b->holes) return false;
        r = 0;
        cJSON_ArrayForEach(row, holes) {
            char pr[JP];
            jp_index(pr, pho, r);
            if (!expect_array(L, row, pr)) return false;
            if (cJSON_GetArraySize(row) != nx - 1) return fail(L, pr, "has %d flags; expected %d (one per cell)", cJSON_GetArraySize(row), nx - 1);
            const cJSON *h;
            int i = 0;
            cJSON_ArrayForEach(h, row) {
                char pi[JP];
                int64_t v;
                if (!read_integer(L, h, jp_index(pi, pr, i), 0.0, 1.0, &v)) return false;
                b->holes[(size_t)r * (size_t)(nx - 1) + (size_t)i] = (uint8_t)v;
                ++i;
            }
            ++r;
        }
        hf->holes = b->holes;
    }
    tread_vec3 o = b->def.transform.p;
    b->silhouette = tread_aabb_make(tread_v3(o.x, o.y + lo, o.z),
                                    tread_v3(o.x + (float)(nx - 1) * spacing[0], o.y + hi, o.z + (float)(nz - 1) * spacing[1]));
    return true;
}

static bool parse_voxels(loader *L, const cJSON *j, const char *jp, scene_body *b) {
    tread_voxels_def *vx = &b->def.shape.voxels;
    b->def.shape.type = TREAD_SHAPE_VOXELS;
    float cell = 0.0f;
    if (!field_vec3(L, j, jp, "origin", true, &b->def.transform.p) || !field_float(L, j, jp, "cell_size", true, &cell, 0.0, INFINITY, OPEN_LO))
        return false;
    const cJSON *rows = member(j, "rows"), *cells = member(j, "cells"), *size = member(j, "size");
    if (rows && (cells || size)) return fail(L, jp, "give either \"rows\" or \"cells\" and \"size\", not both");
    if (!rows && !cells && !size) return fail(L, jp, "missing required fields: \"rows\", or \"cells\" and \"size\"");
    int n[3] = {0, 0, 0};
    if (rows) {
        // rows[j][k][i] is cell (i, j, k): one array per layer (y = j, bottom up), one string per z row.
        char pr[JP];
        jp_key(pr, jp, "rows");
        if (!expect_array(L, rows, pr)) return false;
        n[1] = cJSON_GetArraySize(rows);
        if (n[1] < 1) return fail(L, pr, "is empty; a voxel grid needs at least one layer");
        const cJSON *layer = rows->child, *line;
        char pl[JP];
        if (!expect_array(L, layer, jp_index(pl, pr, 0))) return false;
        n[2] = cJSON_GetArraySize(layer);
        if (n[2] < 1) return fail(L, pl, "is empty; a layer needs at least one row");
        if (!cJSON_IsString(layer->child)) return fail(L, jp_index(pl, pl, 0), "expected a string of '#' and '.', got %s", type_name(layer->child));
        size_t len = strlen(layer->child->valuestring);
        if (len < 1) return fail(L, pl, "is an empty string; a row needs at least one cell");
        if ((double)len * n[1] * n[2] > MAX_GRID_CELLS) return fail(L, pr, "has %zu x %d x %d cells; at most %d", len, n[1], n[2], MAX_GRID_CELLS);
        n[0] = (int)len;
        b->cells = (uint8_t *)alloc_array(L, pr, (size_t)n[0] * (size_t)n[1] * (size_t)n[2], 1);
        if (!b->cells) return false;
        int y = 0;
        cJSON_ArrayForEach(layer, rows) {
            jp_index(pl, pr, y);
            if (!expect_array(L, layer, pl)) return false;
            if (cJSON_GetArraySize(layer) != n[2]) return fail(L, pl, "has %d rows; layer 0 has %d (layers must be the same shape)", cJSON_GetArraySize(layer), n[2]);
            int z = 0;
            cJSON_ArrayForEach(line, layer) {
                char pz[JP];
                jp_index(pz, pl, z);
                if (!cJSON_IsString(line)) return fail(L, pz, "expected a string of '#' and '.', got %s", type_name(line));
                const char *text = line->valuestring;
                if (strlen(text) != len) return fail(L, pz, "has %zu cells; rows[0][0] has %zu (rows must be the same length)", strlen(text), len);
                for (int x = 0; x < n[0]; ++x) {
                    if (text[x] != '#' && text[x] != '.')
                        return fail(L, pz, "character %d is '%c'; expected '#' (solid) or '.' (empty)", x, (text[x] >= 0x20 && text[x] < 0x7f) ? text[x] : '?');
                    b->cells[((size_t)z * (size_t)n[1] + (size_t)y) * (size_t)n[0] + (size_t)x] = text[x] == '#';
                }
                ++z;
            }
            ++y;
        }
    } else {
        char ps[JP], pc[JP];
        jp_key(ps, jp, "size");
        jp_key(pc, jp, "cells");
        if (!size) return fail(L, jp, "missing required field \"size\" (\"cells\" needs it)");
        if (!cells) return fail(L, jp, "missing required field \"cells\" (\"size\" needs it)");
        if (!cJSON_IsArray(size) || cJSON_GetArraySize(size) != 3)
            return fail(L, ps, "expected an array of 3 integers [nx, ny, nz], got %s", cJSON_IsArray(size) ? "another length" : type_name(size));
        for (int a = 0; a < 3; ++a) {
            char p[JP];
            int64_t v;
            if (!read_integer(L, cJSON_GetArrayItem(size, a), jp_index(p, ps, a), 1.0, (double)MAX_GRID_CELLS, &v)) return false;
            n[a] = (int)v;
        }
        if ((double)n[0] * n[1] * n[2] > MAX_GRID_CELLS) return fail(L, ps, "has %d x %d x %d cells; at most %d", n[0], n[1], n[2], MAX_GRID_CELLS);
        if (!expect_array(L, cells, pc)) return false;
        b->cells = (uint8_t *)alloc_array(L, pc, (size_t)n[0] * (size_t)n[1] * (size_t)n[2], 1);
        if (!b->cells) return false;
        const cJSON *c;
        int i = 0;
        cJSON_ArrayForEach(c, cells) {
            char p[JP];
            jp_index(p, pc, i);
            if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) != 3)
                return fail(L, p, "expected an array of 3 integers [i, j, k], got %s", cJSON_IsArray(c) ? "another length" : type_name(c));
            int64_t at[3];
            for (int a = 0; a < 3; ++a) {
                char pa[JP];
                if (!read_integer(L, cJSON_GetArrayItem(c, a), jp_index(pa, p, a), 0.0, (double)(n[a] - 1), &at[a])) return false;
            }
            b->cells[((size_t)at[2] * (size_t)n[1] + (size_t)at[1]) * (size_t)n[0] + (size_t)at[0]] = 1;
            ++i;
        }
    }
    vx->count_x = n[0];
    vx->count_y = n[1];
    vx->count_z = n[2];
    vx->cell_size = cell;
    vx->solid = b->cells;
    tread_vec3 o = b->def.transform.p;
    b->silhouette = tread_aabb_make(o, tread_v3_add(o, tread_v3((float)n[0] * cell, (float)n[1] * cell, (float)n[2] * cell)));
    return true;
}

static const char *const body_types[] = {"box", "sphere", "capsule", "ramp", "mesh", "heightfield", "voxels", NULL};
enum { BODY_BOX, BODY_SPHERE, BODY_CAPSULE, BODY_RAMP, BODY_MESH, BODY_HEIGHTFIELD, BODY_VOXELS };

static const char *const *body_fields(int type) {
#define COMMON "type", "name", "layer", "kinematic"
    static const char *const box[] = {COMMON, "min", "max", "center", "half_extents", "rotation", NULL};
    static const char *const sphere[] = {COMMON, "center", "radius", NULL};
    static const char *const capsule[] = {COMMON, "center", "radius", "half_height", "rotation", NULL};
    static const char *const ramp[] = {COMMON, "foot", "direction", "degrees", "rise", "width", "thickness", NULL};
    static const char *const mesh[] = {COMMON, "vertices", "triangles", "file", "position", "rotation", "scale", NULL};
    static const char *const heightfield[] = {COMMON, "origin", "spacing", "heights", "holes", NULL};
    static const char *const voxels[] = {COMMON, "origin", "cell_size", "rows", "cells", "size", NULL};
#undef COMMON
    static const char *const *const all[] = {box, sphere, capsule, ramp, mesh, heightfield, voxels};
    return all[type];
}

static bool parse_body(loader *L, const cJSON *j, const char *jp, scene_body *b) {
    int type = 0;
    b->def = tread_body_def_default();
    b->def.transform = tread_transform_identity();
    if (!expect_object(L, j, jp) || !field_enum(L, j, jp, "type", true, body_types, &type) || !check_fields(L, j, jp, body_fields(type)) ||
        !field_string(L, j, jp, "name", false, b->name, sizeof b->name))
        return false;
    const cJSON *layer = member(j, "layer"), *kin = member(j, "kinematic");
    char p[JP];
    if (layer) {
        int index;
        if (!read_layer_ref(L, layer, jp_key(p, jp, "layer"), &index)) return false;
        b->def.layer = (uint32_t)index;
    }
    if (kin) {
        static const char *const fields[] = {"linear_velocity", "angular_velocity", NULL};
        jp_key(p, jp, "kinematic");
        if (!expect_object(L, kin, p) || !check_fields(L, kin, p, fields) || !field_vec3(L, kin, p, "linear_velocity", false, &b->def.linear_velocity) ||
            !field_vec3(L, kin, p, "angular_velocity", false, &b->def.angular_velocity))
            return false;
        b->def.type = TREAD_BODY_KINEMATIC;
    }
    switch (type) {
    case BODY_BOX: return parse_box(L, j, jp, b);
    case BODY_SPHERE: return parse_round(L, j, jp, b, false);
    case BODY_CAPSULE: return parse_round(L, j, jp, b, true);
    case BODY_RAMP: return parse_ramp(L, j, jp, b);
    case BODY_MESH: return parse_mesh(L, j, jp, b);
    case BODY_HEIGHTFIELD: return parse_heightfield(L, j, jp, b);
    default: return parse_voxels(L, j, jp, b);
    }
}

static bool parse_bodies(loader *L, const cJSON *root) {
    const cJSON *j;
    if (!need_field(L, root, "", "bodies", &j) || !expect_array(L, j, "bodies")) return false;
    int n = cJSON_GetArraySize(j);
    L->s->bodies = (scene_body *)alloc_array(L, "bodies", (size_t)n, sizeof(scene_body));
    if (!L->s->bodies) return false;
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, j) {
        char p[JP];
        L->s->body_count = i + 1; // counted before parsing so scene_free sees partial arrays
        if (!parse_body(L, e, jp_index(p, "bodies", i), &L->s->bodies[i])) return false;
        ++i;
    }
    return true;
}

// ---- characters ----------------------------------------------------------------------------------------

static bool read_setting(loader *L, const cJSON *j, const char *jp, const setting_field *f, tread_character_settings *s) {
    void *p = setting_ptr(s, f);
    int index;
    int64_t v;
    switch (f->type) {
    case SET_FLOAT: return read_float(L, j, jp, (float *)p);
    case SET_VEC3: return read_vec3(L, j, jp, (tread_vec3 *)p);
    case SET_BOOL: return read_bool(L, j, jp, (bool *)p);
    case SET_INT:
        if (!read_integer(L, j, jp, -2147483647.0, 2147483647.0, &v)) return false;
        *(int *)p = (int)v;
        return true;
    case SET_MASK:
        // An integer, or the names of the layers it selects.
        if (cJSON_IsArray(j)) {
            uint32_t mask = 0;
            const cJSON *e;
            int i = 0;
            cJSON_ArrayForEach(e, j) {
                char pi[JP];
                if (!read_layer_ref(L, e, jp_index(pi, jp, i), &index)) return false;
                mask |= 1u << index;
                ++i;
            }
            *(uint32_t *)p = mask;
            return true;
        }
        if (!cJSON_IsNumber(j)) return fail(L, jp, "expected a layer mask (an integer or an array of layer names), got %s", type_name(j));
        if (!read_integer(L, j, jp, 0.0, 4294967295.0, &v)) return false;
        *(uint32_t *)p = (uint32_t)v;
        return true;
    case SET_SHAPE:
        if (!read_enum(L, j, jp, shape_names, &index)) return false;
        *(tread_query_shape_type *)p = shape_values[index];
        return true;
    case SET_STRATEGY:
        if (!read_enum(L, j, jp, strategy_names, &index)) return false;
        *(tread_step_strategy *)p = strategy_values[index];
        return true;
    }
    return false;
}

static bool parse_settings(loader *L, const cJSON *j, const char *jp, tread_character_settings *s) {
    if (!expect_object(L, j, jp) || !check_fields(L, j, jp, setting_names)) return false;
    const cJSON *e;
    cJSON_ArrayForEach(e, j) {
        char p[JP];
        if (!read_setting(L, e, jp_key(p, jp, e->string), find_setting(e->string), s)) return false;
    }
    return true;
}

// ---- the movement model ("motor") -----------------------------------------------------------------------------

typedef enum motor_field_type { MOTOR_FLOAT, MOTOR_INT, MOTOR_BOOL, MOTOR_JUMP_MODE } motor_field_type;
typedef struct motor_field {
    const char *name;
    motor_field_type type;
    size_t offset;
} motor_field;
#define MOTOR(field, type) {#field, type, offsetof(tread_motor_settings, field)}
// Every field of tread_motor_settings (a new field needs a row here and a name below).
static const motor_field motor_fields[] = {
    MOTOR(max_speed, MOTOR_FLOAT),         MOTOR(ground_acceleration, MOTOR_FLOAT), MOTOR(air_acceleration, MOTOR_FLOAT),
    MOTOR(friction, MOTOR_FLOAT),          MOTOR(gravity, MOTOR_FLOAT),             MOTOR(terminal_speed, MOTOR_FLOAT),
    MOTOR(jump_mode, MOTOR_JUMP_MODE),     MOTOR(jump_height, MOTOR_FLOAT),         MOTOR(jump_strength, MOTOR_FLOAT),
    MOTOR(jump_drag, MOTOR_FLOAT),         MOTOR(jump_cut, MOTOR_FLOAT),            MOTOR(coyote_time, MOTOR_FLOAT),
    MOTOR(jump_buffer_time, MOTOR_FLOAT),  MOTOR(max_air_jumps, MOTOR_INT),         MOTOR(wall_jump, MOTOR_BOOL),
    MOTOR(jump_up_bias, MOTOR_FLOAT),      MOTOR(jump_snap_suppress_time, MOTOR_FLOAT), MOTOR(crouch_height, MOTOR_FLOAT),
    MOTOR(crouch_speed_scale, MOTOR_FLOAT),
};
static const char *const motor_names[] = {
    "max_speed", "ground_acceleration", "air_acceleration", "friction", "gravity", "terminal_speed", "jump_mode", "jump_height",
    "jump_strength", "jump_drag", "jump_cut", "coyote_time", "jump_buffer_time", "max_air_jumps", "wall_jump", "jump_up_bias",
    "jump_snap_suppress_time", "crouch_height", "crouch_speed_scale", NULL,
};
_Static_assert(sizeof motor_names / sizeof motor_names[0] == sizeof motor_fields / sizeof motor_fields[0] + 1,
               "motor_names must list every motor_fields row");
static const char *const jump_mode_names[] = {"height", "strength_drag", NULL};
static const tread_jump_mode jump_mode_values[] = {TREAD_JUMP_HEIGHT, TREAD_JUMP_STRENGTH_DRAG};

// The "motor" object: tread_motor_settings fields by name, validated by the library (tread_motor_update on a
// probe character reports the field it refuses).
static bool parse_motor(loader *L, const cJSON *j, const char *jp, const tread_character *probe, tread_motor_settings *m) {
    if (!expect_object(L, j, jp) || !check_fields(L, j, jp, motor_names)) return false;
    const cJSON *e;
    cJSON_ArrayForEach(e, j) {
        char p[JP];
        const motor_field *f = NULL;
        for (size_t i = 0; i < sizeof motor_fields / sizeof motor_fields[0]; ++i)
            if (strcmp(motor_fields[i].name, e->string) == 0) f = &motor_fields[i];
        if (!f) return false; // check_fields already refused it
        void *ptr = (char *)m + f->offset;
        jp_key(p, jp, e->string);
        int64_t v;
        int index;
        switch (f->type) {
        case MOTOR_FLOAT:
            if (!read_float(L, e, p, (float *)ptr)) return false;
            break;
        case MOTOR_INT:
            if (!read_integer(L, e, p, -2147483647.0, 2147483647.0, &v)) return false;
            *(int *)ptr = (int)v;
            break;
        case MOTOR_BOOL:
            if (!read_bool(L, e, p, (bool *)ptr)) return false;
            break;
        case MOTOR_JUMP_MODE:
            if (!read_enum(L, e, p, jump_mode_names, &index)) return false;
            *(tread_jump_mode *)ptr = jump_mode_values[index];
            break;
        }
    }
    tread_motor_state st = tread_motor_state_default();
    tread_motor_input in = tread_motor_input_default();
    tread_vec3 velocity;
    if (tread_motor_update(&st, m, &in, probe, NULL, 1.0f / 60.0f, &velocity) != TREAD_OK) return fail(L, jp, "%s", tread_error_message());
    return true;
}

static bool parse_input(loader *L, const cJSON *j, const char *jp, const scene_character *c, int index, scene_input *in) {
    static const char *const fields[] = {"t", "direction", "toward", "speed", "idle", "jump", "crouch", NULL};
    if (!expect_object(L, j, jp) || !check_fields(L, j, jp, fields)) return false;
    memset(in, 0, sizeof *in);
    if (!field_float(L, j, jp, "t", true, &in->t, 0.0, INFINITY, 0)) return false;
    const cJSON *dir = member(j, "direction"), *toward = member(j, "toward"), *idle = member(j, "idle"), *speed = member(j, "speed");
    const cJSON *jump = member(j, "jump"), *crouch = member(j, "crouch");
    char p[JP];
    if ((dir != NULL) + (toward != NULL) + (idle != NULL) > 1) return fail(L, jp, "give at most one of \"direction\", \"toward\" and \"idle\"");
    if (!dir && !toward && !idle && !jump && !crouch) return fail(L, jp, "needs \"direction\", \"toward\", \"idle\", \"jump\" or \"crouch\"");
    in->jump = in->crouch = -1;
    bool b = false;
    if (jump) {
        if (!read_bool(L, jump, jp_key(p, jp, "jump"), &b)) return false;
        in->jump = b;
    }
    if (crouch) {
        if (!read_bool(L, crouch, jp_key(p, jp, "crouch"), &b)) return false;
        in->crouch = b;
    }
    if (speed && !dir && !toward) return fail(L, jp, "\"speed\" needs \"direction\" or \"toward\"");
    if (dir || toward) {
        if (!field_float(L, j, jp, "speed", true, &in->speed, 0.0, INFINITY, 0)) return false;
        if (dir) {
            in->kind = SCENE_INPUT_DIRECTION;
            if (!read_vec3(L, dir, jp_key(p, jp, "direction"), &in->direction)) return false;
            tread_vec3 flat = tread_v3_reject(in->direction, tread_v3_normalize(c->settings.up));
            if (!(tread_v3_length(flat) > 1.0e-6f)) return fail(L, p, "has no horizontal part (it is parallel to the character's up)");
        } else {
            in->kind = SCENE_INPUT_TOWARD;
            if (!read_vec3(L, toward, jp_key(p, jp, "toward"), &in->target)) return false;
        }
    } else if (idle) {
        if (!read_bool(L, idle, jp_key(p, jp, "idle"), &b)) return false;
        if (!b) return fail(L, p, "only true is meaningful (leave the field out instead)");
        in->kind = SCENE_INPUT_IDLE;
    } else if (index > 0) {
        // jump / crouch alone: the movement goes on unchanged.
        const scene_input *prev = &c->inputs[index - 1];
        in->kind = prev->kind;
        in->direction = prev->direction;
        in->target = prev->target;
        in->speed = prev->speed;
    } else {
        in->kind = SCENE_INPUT_IDLE;
    }
    if (index > 0 && in->t < c->inputs[index - 1].t)
        return fail(L, jp_key(p, jp, "t"), "%g s comes before the previous entry's %g s (entries must be sorted by t)", (double)in->t,
                    (double)c->inputs[index - 1].t);
    return true;
}

static bool parse_character(loader *L, const cJSON *j, const char *jp, int index, scene_character *c) {
    static const char *const fields[] = {"name", "start", "settings", "motor", "input", NULL};
    if (!expect_object(L, j, jp) || !check_fields(L, j, jp, fields)) return false;
    snprintf(c->name, sizeof c->name, "character%d", index);
    if (!field_string(L, j, jp, "name", false, c->name, sizeof c->name) || !field_vec3(L, j, jp, "start", true, &c->start)) return false;
    char p[JP], q[64];
    if (c->name[0] == '\0') return fail(L, jp_key(p, jp, "name"), "is empty");
    for (int i = 0; i < index; ++i)
        if (strcmp(L->s->characters[i].name, c->name) == 0) return fail(L, jp_key(p, jp, "name"), "\"%s\" is already characters[%d]'s name", quote(q, sizeof q, c->name), i);
    c->settings = tread_character_settings_default();
    c->settings.up = L->s->up;
    const cJSON *settings = member(j, "settings");
    const char *settings_path = jp;
    if (settings) {
        settings_path = jp_key(p, jp, "settings");
        if (!parse_settings(L, settings, p, &c->settings)) return false;
    }
    tread_character probe;
    if (tread_character_init(&probe, &c->settings, c->start) != TREAD_OK) {
        // The library names the argument: its "position" is our "start".
        const char *message = tread_error_message();
        char ps[JP];
        return fail(L, strstr(message, " position = ") ? jp_key(ps, jp, "start") : settings_path, "%s", message);
    }
    const cJSON *motor = member(j, "motor");
    if (motor) {
        c->has_motor = true;
        c->motor = tread_motor_settings_default();
        // Gravity defaults to the scene's, along the character's -up.
        float g = -tread_v3_dot(L->s->gravity, tread_v3_normalize(c->settings.up));
        c->motor.gravity = g > 0.0f ? g : 0.0f;
        char pm[JP];
        if (!parse_motor(L, motor, jp_key(pm, jp, "motor"), &probe, &c->motor)) return false;
    }

    const cJSON *input;
    char pi[JP];
    if (!need_field(L, j, jp, "input", &input) || !expect_array(L, input, jp_key(pi, jp, "input"))) return false;
    int n = cJSON_GetArraySize(input);
    c->inputs = (scene_input *)alloc_array(L, pi, (size_t)n, sizeof(scene_input));
    if (!c->inputs) return false;
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, input) {
        char pe[JP];
        if (!parse_input(L, e, jp_index(pe, pi, i), c, i, &c->inputs[i])) return false;
        c->input_count = ++i;
    }
    return true;
}

static bool parse_characters(loader *L, const cJSON *root) {
    const cJSON *j;
    if (!need_field(L, root, "", "characters", &j) || !expect_array(L, j, "characters")) return false;
    int n = cJSON_GetArraySize(j);
    if (n < 1) return fail(L, "characters", "is empty; a scene needs at least one character");
    L->s->characters = (scene_character *)alloc_array(L, "characters", (size_t)n, sizeof(scene_character));
    if (!L->s->characters) return false;
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, j) {
        char p[JP];
        L->s->character_count = i + 1;
        if (!parse_character(L, e, jp_index(p, "characters", i), i, &L->s->characters[i])) return false;
        ++i;
    }
    return true;
}

// ---- expectations --------------------------------------------------------------------------------------

static bool parse_axis(loader *L, const cJSON *obj, const char *jp, const char *key, bool need, int *out) {
    return field_enum(L, obj, jp, key, need, axis_names, out);
}

// {"min": a, "max": b}: fields of `obj` itself (need_one: at least one of them).
static bool parse_min_max(loader *L, const cJSON *obj, const char *jp, bool need_one, scene_range *r) {
    r->has_min = member(obj, "min") != NULL;
    r->has_max = member(obj, "max") != NULL;
    if (!field_float(L, obj, jp, "min", false, &r->min, -INFINITY, INFINITY, 0) || !field_float(L, obj, jp, "max", false, &r->max, -INFINITY, INFINITY, 0))
        return false;
    if (need_one && !r->has_min && !r->has_max) return fail(L, jp, "needs \"min\", \"max\" or both");
    if (r->has_min && r->has_max && r->min > r->max) return fail(L, jp, "min %g is above max %g", (double)r->min, (double)r->max);
    return true;
}

static bool parse_range_object(loader *L, const cJSON *j, const char *jp, scene_range *r) {
    static const char *const fields[] = {"min", "max", NULL};
    return expect_object(L, j, jp) && check_fields(L, j, jp, fields) && parse_min_max(L, j, jp, true, r);
}

// {"time": t} | {"axis": "x", "above": v} | {"axis": "y", "below": v}
static bool parse_condition(loader *L, const cJSON *j, const char *jp, scene_condition *c) {
    static const char *const fields[] = {"time", "axis", "above", "below", NULL};
    if (!expect_object(L, j, jp) || !check_fields(L, j, jp, fields)) return false;
    const cJSON *time = member(j, "time"), *above = member(j, "above"), *below = member(j, "below");
    if (time) {
        if (member(j, "axis") || above || below) return fail(L, jp, "give either \"time\" or \"axis\" with \"above\"/\"below\", not both");
        c->kind = SCENE_COND_TIME;
        return field_float(L, j, jp, "time", true, &c->value, 0.0, INFINITY, 0);
    }
    if (!above && !below) return fail(L, jp, "needs \"time\", or \"axis\" with \"above\" or \"below\"");
    if (above && below) return fail(L, jp, "give \"above\" or \"below\", not both");
    c->kind = above ? SCENE_COND_ABOVE : SCENE_COND_BELOW;
    return parse_axis(L, j, jp, "axis", true, &c->axis) && field_float(L, j, jp, above ? "above" : "below", true, &c->value, -INFINITY, INFINITY, 0);
}

static bool parse_window(loader *L, const cJSON *j, const char *jp, scene_window *w) {
    static const char *const fields[] = {"start", "end", "where", NULL};
    static const char *const where_fields[] = {"axis", "min", "max", NULL};
    if (!expect_object(L, j, jp) || !check_fields(L, j, jp, fields)) return false;
    const cJSON *start = member(j, "start"), *end = member(j, "end"), *where = member(j, "where");
    char p[JP];
    if (start && !parse_condition(L, start, jp_key(p, jp, "start"), &w->start)) return false;
    if (end && !parse_condition(L, end, jp_key(p, jp, "end"), &w->end)) return false;
    if (where) {
        scene_range r = {0};
        jp_key(p, jp, "where");
        if (!expect_object(L, where, p) || !check_fields(L, where, p, where_fields) || !parse_axis(L, where, p, "axis", true, &w->where_axis) ||
            !parse_min_max(L, where, p, true, &r))
            return false;
        w->has_where = true;
        w->where_min = r.has_min ? r.min : -FLT_MAX;
        w->where_max = r.has_max ? r.max : FLT_MAX;
    }
    return true;
}

static const char *const check_names[] = {"final", "at_time", "reaches", "max_rise", "max_drop", "height_range", "grounded_fraction",
                                          "speed_range", "mean_speed", "drift", "comes_to_rest", "ground_state", "advance",
                                          "no_penetration", NULL};
static const scene_check_kind check_kinds[] = {
    SCENE_CHECK_FINAL,      SCENE_CHECK_AT_TIME,    SCENE_CHECK_REACHES,      SCENE_CHECK_MAX_RISE,     SCENE_CHECK_MAX_DROP,
    SCENE_CHECK_HEIGHT_RANGE, SCENE_CHECK_GROUNDED_FRACTION, SCENE_CHECK_SPEED_RANGE, SCENE_CHECK_MEAN_SPEED, SCENE_CHECK_DRIFT,
    SCENE_CHECK_COMES_TO_REST, SCENE_CHECK_GROUND_STATE, SCENE_CHECK_ADVANCE,     SCENE_CHECK_NO_PENETRATION,
};

static const char *const *check_fields_of(scene_check_kind kind) {
#define COMMON "name", "type", "character", "window", "key"
    static const char *const axes[] = {COMMON, "x", "y", "z", NULL};
    static const char *const at_time[] = {COMMON, "time", "x", "y", "z", NULL};
    static const char *const reaches[] = {COMMON, "condition", "by", NULL};
    static const char *const rise[] = {COMMON, "max", "grounded_only", NULL};
    static const char *const height[] = {COMMON, "min", "max", "axis", NULL};
    static const char *const fraction[] = {COMMON, "min", NULL};
    static const char *const speed[] = {COMMON, "measure", "min", "max", NULL};
    static const char *const max_only[] = {COMMON, "max", NULL};
    static const char *const ground[] = {COMMON, "state", "time", NULL};
    static const char *const penetration[] = {COMMON, "max", "within", NULL};
#undef COMMON
    switch (kind) {
    case SCENE_CHECK_FINAL: return axes;
    case SCENE_CHECK_AT_TIME: return at_time;
    case SCENE_CHECK_REACHES: return reaches;
    case SCENE_CHECK_MAX_RISE:
    case SCENE_CHECK_MAX_DROP: return rise;
    case SCENE_CHECK_HEIGHT_RANGE:
    case SCENE_CHECK_ADVANCE: return height;
    case SCENE_CHECK_GROUNDED_FRACTION: return fraction;
    case SCENE_CHECK_SPEED_RANGE:
    case SCENE_CHECK_MEAN_SPEED: return speed;
    case SCENE_CHECK_DRIFT:
    case SCENE_CHECK_COMES_TO_REST: return max_only;
    case SCENE_CHECK_GROUND_STATE: return ground;
    case SCENE_CHECK_NO_PENETRATION: return penetration;
    }
    return axes;
}

// x / y / z ranges of FINAL and AT_TIME; at least one.
static bool parse_axes(loader *L, const cJSON *j, const char *jp, scene_check *k) {
    bool any = false;
    for (int a = 0; a < 3; ++a) {
        const cJSON *r = member(j, axis_names[a]);
        char p[JP];
        if (!r) continue;
        any = true;
        if (!parse_range_object(L, r, jp_key(p, jp, axis_names[a]), &k->axes[a])) return false;
    }
    return any || fail(L, jp, "needs at least one of \"x\", \"y\", \"z\"");
}

static bool parse_check(loader *L, const cJSON *j, const char *jp, scene_check *k) {
    int kind = 0;
    if (!expect_object(L, j, jp) || !field_enum(L, j, jp, "type", true, check_names, &kind)) return false;
    k->kind = check_kinds[kind];
    if (!check_fields(L, j, jp, check_fields_of(k->kind))) return false;
    snprintf(k->name, sizeof k->name, "%s", check_names[kind]);
    k->time = -1.0f;
    k->axis = 1;
    if (!field_string(L, j, jp, "name", false, k->name, sizeof k->name) || !field_bool(L, j, jp, "key", &k->key)) return false;
    char p[JP], q[64];
    const cJSON *ch = member(j, "character"), *window = member(j, "window");
    if (ch) {
        jp_key(p, jp, "character");
        if (cJSON_IsString(ch)) {
            k->character = -1;
            for (int i = 0; i < L->s->character_count; ++i)
                if (strcmp(L->s->characters[i].name, ch->valuestring) == 0) k->character = i;
            if (k->character < 0) return fail(L, p, "no character is named \"%s\"", quote(q, sizeof q, ch->valuestring));
        } else {
            int64_t v;
            if (!cJSON_IsNumber(ch)) return fail(L, p, "expected a character name or index, got %s", type_name(ch));
            if (!read_integer(L, ch, p, 0.0, (double)(L->s->character_count - 1), &v)) return false;
            k->character = (int)v;
        }
    }
    if (window && !parse_window(L, window, jp_key(p, jp, "window"), &k->window)) return false;
    int v = 0;
    switch (k->kind) {
    case SCENE_CHECK_FINAL: return parse_axes(L, j, jp, k);
    case SCENE_CHECK_AT_TIME:
        return field_float(L, j, jp, "time", true, &k->time, 0.0, INFINITY, 0) && parse_axes(L, j, jp, k);
    case SCENE_CHECK_REACHES: {
        const cJSON *c;
        k->by = L->s->duration;
        return need_field(L, j, jp, "condition", &c) && parse_condition(L, c, jp_key(p, jp, "condition"), &k->condition) &&
               field_float(L, j, jp, "by", false, &k->by, 0.0, INFINITY, 0);
    }
    case SCENE_CHECK_MAX_RISE:
    case SCENE_CHECK_MAX_DROP:
        k->range.has_max = true;
        return field_float(L, j, jp, "max", true, &k->range.max, 0.0, INFINITY, 0) && field_bool(L, j, jp, "grounded_only", &k->grounded_only);
    case SCENE_CHECK_HEIGHT_RANGE: return parse_axis(L, j, jp, "axis", false, &k->axis) && parse_min_max(L, j, jp, true, &k->range);
    case SCENE_CHECK_ADVANCE: return parse_axis(L, j, jp, "axis", true, &k->axis) && parse_min_max(L, j, jp, true, &k->range);
    case SCENE_CHECK_GROUNDED_FRACTION:
        k->range.has_min = true;
        return field_float(L, j, jp, "min", true, &k->range.min, 0.0, 1.0, 0);
    case SCENE_CHECK_SPEED_RANGE:
    case SCENE_CHECK_MEAN_SPEED: {
        static const char *const measures[] = {"surface", "horizontal", "x", "y", "z", NULL};
        if (!field_enum(L, j, jp, "measure", true, measures, &v)) return false;
        k->measure = v == 0 ? SCENE_SPEED_SURFACE : (v == 1 ? SCENE_SPEED_HORIZONTAL : SCENE_SPEED_AXIS);
        if (v >= 2) k->axis = v - 2;
        return parse_min_max(L, j, jp, true, &k->range);
    }
    case SCENE_CHECK_DRIFT:
    case SCENE_CHECK_COMES_TO_REST:
        k->range.has_max = true;
        return field_float(L, j, jp, "max", true, &k->range.max, 0.0, INFINITY, 0);
    case SCENE_CHECK_GROUND_STATE: {
        static const char *const states[] = {"on_ground", "on_steep", "not_supported", "in_air", NULL};
        static const tread_ground_state values[] = {TREAD_GROUND_ON_GROUND, TREAD_GROUND_ON_STEEP, TREAD_GROUND_NOT_SUPPORTED, TREAD_GROUND_IN_AIR};
        if (!field_enum(L, j, jp, "state", true, states, &v)) return false;
        k->state = values[v];
        return field_float(L, j, jp, "time", false, &k->time, 0.0, INFINITY, 0);
    }
    case SCENE_CHECK_NO_PENETRATION:
        k->range.has_max = true;
        k->range.max = 0.001f;
        k->within = 1.0f;
        return field_float(L, j, jp, "max", false, &k->range.max, 0.0, INFINITY, 0) &&
               field_float(L, j, jp, "within", false, &k->within, 0.0, INFINITY, 0);
    }
    return true;
}

static bool parse_checks(loader *L, const cJSON *root) {
    const cJSON *j = member(root, "expectations");
    if (!j) return true;
    if (!expect_array(L, j, "expectations")) return false;
    int n = cJSON_GetArraySize(j);
    L->s->checks = (scene_check *)alloc_array(L, "expectations", (size_t)n, sizeof(scene_check));
    if (!L->s->checks) return false;
    const cJSON *e;
    int i = 0;
    cJSON_ArrayForEach(e, j) {
        char p[JP];
        if (!parse_check(L, e, jp_index(p, "expectations", i), &L->s->checks[i])) return false;
        L->s->check_count = ++i;
    }
    return true;
}

// ---- the file ------------------------------------------------------------------------------------------

static bool parse_scene(loader *L, const cJSON *root) {
    static const char *const fields[] = {"name", "description", "dt", "duration", "gravity", "up", "layers", "bodies", "characters", "expectations", NULL};
    scene *s = L->s;
    if (!cJSON_IsObject(root)) return fail(L, "", "the top level must be an object, got %s", type_name(root));
    if (!check_fields(L, root, "", fields)) return false;
    s->dt = 1.0f / 60.0f;
    s->gravity = tread_v3(0.0f, -9.81f, 0.0f);
    s->up = tread_v3(0.0f, 1.0f, 0.0f);
    if (!field_string(L, root, "", "name", false, s->name, sizeof s->name) ||
        !field_string(L, root, "", "description", false, s->description, sizeof s->description) ||
        !field_float(L, root, "", "dt", false, &s->dt, 0.0, 1.0, OPEN_LO) ||
        !field_float(L, root, "", "duration", true, &s->duration, 0.0, 3600.0, OPEN_LO) || !field_vec3(L, root, "", "gravity", false, &s->gravity) ||
        !field_vec3(L, root, "", "up", false, &s->up))
        return false;
    if ((double)s->duration / (double)s->dt > MAX_FRAMES)
        return fail(L, "dt", "duration / dt = %.0f frames; at most %d", (double)s->duration / (double)s->dt, MAX_FRAMES);
    if (!(tread_v3_length(s->up) > 1.0e-6f)) return fail(L, "up", "is the zero vector");
    s->up = tread_v3_normalize(s->up);
    return parse_layers(L, root) && parse_bodies(L, root) && parse_characters(L, root) && parse_checks(L, root);
}

// "<file>:<line>:<column>: JSON syntax error near `...`" for the byte offset where cJSON gave up.
static void syntax_error(loader *L, const char *json, size_t length, size_t offset) {
    int line = 1, column = 1;
    for (size_t i = 0; i < offset && i < length; ++i) {
        if (json[i] == '\n') ++line, column = 1;
        else ++column;
    }
    char near[40];
    size_t n = 0;
    for (size_t i = offset; i < length && n < 24 && json[i] != '\n' && json[i] != '\r'; ++i)
        near[n++] = (json[i] >= 0x20 && json[i] < 0x7f) ? json[i] : '?';
    near[n] = '\0';
    L->failed = true;
    if (n) snprintf(L->err->message, sizeof L->err->message, "%s:%d:%d: JSON syntax error near `%s`", L->file, line, column, near);
    else snprintf(L->err->message, sizeof L->err->message, "%s:%d:%d: JSON syntax error at the end of the line or file", L->file, line, column);
}

void scene_free(scene *s) {
    if (!s) return;
    for (int i = 0; i < s->body_count && s->bodies; ++i) {
        free(s->bodies[i].vertices);
        free(s->bodies[i].indices);
        free(s->bodies[i].heights);
        free(s->bodies[i].holes);
        free(s->bodies[i].cells);
    }
    for (int i = 0; i < s->character_count && s->characters; ++i) free(s->characters[i].inputs);
    free(s->layers);
    free(s->bodies);
    free(s->characters);
    free(s->checks);
    memset(s, 0, sizeof *s);
}

bool scene_load_buffer(const char *path, const char *json, size_t length, scene *out, scene_error *err) {
    scene_error dummy;
    loader L;
    memset(&L, 0, sizeof L);
    L.file = path ? path : "<scene>";
    L.err = err ? err : &dummy;
    L.err->message[0] = '\0';
    if (!out) {
        fail(&L, "", "no scene to load into");
        return false;
    }
    memset(out, 0, sizeof *out);
    L.s = out;
    snprintf(out->path, sizeof out->path, "%s", L.file);
    // The directory mesh files are relative to, and the default name: the base name without ".json".
    const char *slash = strrchr(L.file, '/');
    const char *base = slash ? slash + 1 : L.file;
    if (slash && (size_t)(slash - L.file) + 2 <= sizeof L.dir) memcpy(L.dir, L.file, (size_t)(slash - L.file) + 1);
    size_t base_len = strlen(base);
    if (base_len > 5 && strcmp(base + base_len - 5, ".json") == 0) base_len -= 5;
    if (base_len >= sizeof out->name) base_len = sizeof out->name - 1;
    memcpy(out->name, base, base_len);
    out->name[base_len] = '\0';
    if (!json) {
        fail(&L, "", "no JSON text");
        return false;
    }

    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, length, &end, false);
    if (!root) {
        syntax_error(&L, json, length, end && end >= json ? (size_t)(end - json) : 0);
        scene_free(out);
        return false;
    }
    // Only whitespace may follow the value.
    size_t at = (size_t)(end - json);
    while (at < length && (json[at] == ' ' || json[at] == '\t' || json[at] == '\n' || json[at] == '\r')) ++at;
    if (at < length && json[at] != '\0') {
        syntax_error(&L, json, length, at);
        cJSON_Delete(root);
        scene_free(out);
        return false;
    }
    bool ok = parse_scene(&L, root);
    cJSON_Delete(root);
    if (!ok) scene_free(out);
    return ok;
}

bool scene_load(const char *path, scene *out, scene_error *err) {
    scene_error dummy;
    if (!err) err = &dummy;
    if (out) memset(out, 0, sizeof *out);
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        snprintf(err->message, sizeof err->message, "%s: cannot open: %s", path ? path : "(null)", path ? strerror(errno) : "no path");
        return false;
    }
    size_t size = 0, cap = 1 << 16;
    char *buf = (char *)malloc(cap);
    while (buf) {
        size_t got = fread(buf + size, 1, cap - size - 1, f);
        size += got;
        if (got == 0) break;
        if (size + 1 == cap) {
            char *bigger = (char *)realloc(buf, cap * 2);
            if (!bigger) free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (!buf || read_error) {
        snprintf(err->message, sizeof err->message, "%s: cannot read: %s", path, buf ? "read error" : "out of memory");
        free(buf);
        return false;
    }
    buf[size] = '\0';
    bool ok = scene_load_buffer(path, buf, size, out, err);
    free(buf);
    return ok;
}
