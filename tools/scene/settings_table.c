// SPDX-License-Identifier: MIT
// The character and motor settings tables: every field of tread_character_settings and tread_motor_settings by
// its name, settable from a scene file ("settings" and "motor" objects) and from "field=value" text (`tread run
// --set`). One row per field; the names lists, the JSON reader and the text parser all come from the rows.
// Calls json_read.c and names.c.
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_internal.h"

typedef enum field_type {
    F_FLOAT,
    F_VEC3,
    F_BOOL,
    F_INT,
    F_MASK,           // uint32_t layer mask: an integer, or (scene files) an array of layer names
    F_SHAPE,          // tread_query_shape_type by name
    F_STRATEGY,       // tread_step_strategy by name
    F_JUMP_MODE,      // tread_jump_mode by name
    F_LEAVE_GROUND,   // tread_leave_ground by name
} field_type;

typedef struct field {
    const char *name;
    field_type type;
    size_t offset;
} field;

#define SETTING(f, type) {#f, type, offsetof(tread_character_settings, f)}
// Every field of tread_character_settings. test_scene_load checks that setting every row changes every byte of
// the struct but padding, so a new field without a row fails the tests.
static const field setting_fields[] = {
    SETTING(shape, F_SHAPE),
    SETTING(radius, F_FLOAT),
    SETTING(height, F_FLOAT),
    SETTING(up, F_VEC3),
    SETTING(max_slope_degrees, F_FLOAT),
    SETTING(max_step_height, F_FLOAT),
    SETTING(min_step_depth, F_FLOAT),
    SETTING(step_down_distance, F_FLOAT),
    SETTING(max_snap_speed, F_FLOAT),
    SETTING(ground_probe_distance, F_FLOAT),
    SETTING(skin, F_FLOAT),
    SETTING(max_slide_iterations, F_INT),
    SETTING(collide_mask, F_MASK),
    SETTING(ground_mask, F_MASK),
    SETTING(recovery_speed, F_FLOAT),
    SETTING(mass, F_FLOAT),
    SETTING(max_strength, F_FLOAT),
    SETTING(keep_horizontal_speed, F_BOOL),
    SETTING(step_strategy, F_STRATEGY),
    SETTING(stairs_layer_mask, F_MASK),
    SETTING(stairs_max_slope_degrees, F_FLOAT),
    SETTING(contact_step.search_overshoot, F_FLOAT),
    SETTING(riser.depth, F_FLOAT),
    SETTING(riser.radius_scale, F_FLOAT),
    SETTING(riser.speed_scale, F_FLOAT),
    SETTING(riser.fall_scale, F_FLOAT),
};
#define SETTING_COUNT (sizeof setting_fields / sizeof setting_fields[0])

#define MOTOR(f, type) {#f, type, offsetof(tread_motor_settings, f)}
// Every field of tread_motor_settings.
static const field motor_fields[] = {
    MOTOR(max_speed, F_FLOAT),         MOTOR(ground_acceleration, F_FLOAT), MOTOR(air_acceleration, F_FLOAT),
    MOTOR(friction, F_FLOAT),          MOTOR(gravity, F_FLOAT),             MOTOR(terminal_speed, F_FLOAT),
    MOTOR(jump_mode, F_JUMP_MODE),     MOTOR(jump_height, F_FLOAT),         MOTOR(jump_strength, F_FLOAT),
    MOTOR(jump_drag, F_FLOAT),         MOTOR(jump_cut, F_FLOAT),            MOTOR(coyote_time, F_FLOAT),
    MOTOR(jump_buffer_time, F_FLOAT),  MOTOR(max_air_jumps, F_INT),         MOTOR(wall_jump, F_BOOL),
    MOTOR(jump_up_bias, F_FLOAT),      MOTOR(jump_snap_suppress_time, F_FLOAT), MOTOR(crouch_height, F_FLOAT),
    MOTOR(crouch_speed_scale, F_FLOAT), MOTOR(leave_ground, F_LEAVE_GROUND),
};
#define MOTOR_COUNT (sizeof motor_fields / sizeof motor_fields[0])


// NULL-terminated name lists, filled from the tables.
static const char *const *names_of(const field *fields, size_t count, const char **out) {
    for (size_t i = 0; i < count; ++i) out[i] = fields[i].name;
    out[count] = NULL;
    return out;
}

const char *const *scene_setting_names(void) {
    static const char *names[SETTING_COUNT + 1];
    return names_of(setting_fields, SETTING_COUNT, names);
}

const char *const *scene_motor_setting_names(void) {
    static const char *names[MOTOR_COUNT + 1];
    return names_of(motor_fields, MOTOR_COUNT, names);
}

static const field *find_field(const field *fields, size_t count, const char *name) {
    for (size_t i = 0; i < count; ++i)
        if (strcmp(fields[i].name, name) == 0) return &fields[i];
    return NULL;
}

static void names_list(char *out, size_t size, const char *const *names) {
    out[0] = '\0';
    for (int i = 0; names[i]; ++i) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", i ? ", " : "", names[i]);
    }
}

static void set_message(char *message, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
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

// "a,b,c": between min_count and max_count numbers separated by commas. Returns how many, or -1.
static int parse_float_list(const char *value, float *out, int min_count, int max_count) {
    char buf[512];
    size_t len = strlen(value);
    if (len >= sizeof buf) return -1;
    memcpy(buf, value, len + 1);
    int n = 0;
    for (char *part = buf;; ++n) {
        char *comma = strchr(part, ',');
        if (comma) *comma = '\0';
        if (n >= max_count || !parse_float_text(part, &out[n])) return -1;
        if (!comma) break;
        part = comma + 1;
    }
    ++n;
    return n >= min_count ? n : -1;
}

static bool name_value(const char *const *names, const char *value, int *index) {
    for (int i = 0; names[i]; ++i)
        if (strcmp(value, names[i]) == 0) {
            *index = i;
            return true;
        }
    return false;
}

// One field from command-line text.
static bool set_from_text(const field *f, void *base, const char *value, char *message, size_t size) {
    void *p = (char *)base + f->offset;
    const char *name = f->name;
    char q[64], list[512];
    js_quote(q, sizeof q, value);
    switch (f->type) {
    case F_FLOAT: {
        float v;
        if (!parse_float_text(value, &v)) break;
        *(float *)p = v;
        return true;
    }
    case F_VEC3: {
        float v[3];
        if (parse_float_list(value, v, 3, 3) != 3) {
            set_message(message, size, "%s: expected three comma-separated numbers like \"0,1,0\", got \"%s\"", name, q);
            return false;
        }
        *(tread_vec3 *)p = tread_v3(v[0], v[1], v[2]);
        return true;
    }
    case F_BOOL:
        if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0) {
            *(bool *)p = value[0] == 't';
            return true;
        }
        set_message(message, size, "%s: expected true or false, got \"%s\"", name, q);
        return false;
    case F_INT: {
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
    case F_MASK: {
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
    case F_SHAPE:
    case F_STRATEGY:
    case F_JUMP_MODE:
    case F_LEAVE_GROUND: {
        int i = 0;
        if (f->type == F_STRATEGY) {
            if (scene_strategy_from_name(value, (tread_step_strategy *)p)) return true;
            names_list(list, sizeof list, scene_strategy_names());
        } else {
            const char *const *names = f->type == F_SHAPE ? scene_shape_names
                                     : f->type == F_JUMP_MODE ? scene_jump_mode_names
                                                              : scene_leave_ground_names;
            if (name_value(names, value, &i)) {
                if (f->type == F_SHAPE) *(tread_query_shape_type *)p = scene_shape_values[i];
                else if (f->type == F_JUMP_MODE) *(tread_jump_mode *)p = scene_jump_mode_values[i];
                else *(tread_leave_ground *)p = scene_leave_ground_values[i];
                return true;
            }
            names_list(list, sizeof list, names);
        }
        set_message(message, size, "%s: expected one of %s, got \"%s\"", name, list, q);
        return false;
    }
    }
    set_message(message, size, "%s: expected a number, got \"%s\"", name, q);
    return false;
}

static bool set_by_name(const field *fields, size_t count, const char *const *names, const char *what, void *base, const char *name,
                        const char *value, char *message, size_t size) {
    if (!base || !name || !value) {
        set_message(message, size, "scene_set_%s: NULL argument", what);
        return false;
    }
    const field *f = find_field(fields, count, name);
    if (!f) {
        char q[64], list[1024], hint[96] = "";
        names_list(list, sizeof list, names);
        const char *meant = scene_nearest_name(name, names);
        if (meant) snprintf(hint, sizeof hint, "did you mean \"%s\"? ", meant);
        set_message(message, size, "unknown %s \"%s\" (%s%ss are: %s)", what, js_quote(q, sizeof q, name), hint, what, list);
        return false;
    }
    return set_from_text(f, base, value, message, size);
}

bool scene_set_setting(tread_character_settings *settings, const char *name, const char *value, char *message, size_t size) {
    return set_by_name(setting_fields, SETTING_COUNT, scene_setting_names(), "setting", settings, name, value, message, size);
}

bool scene_set_motor_setting(tread_motor_settings *motor, const char *name, const char *value, char *message, size_t size) {
    return set_by_name(motor_fields, MOTOR_COUNT, scene_motor_setting_names(), "motor setting", motor, name, value, message, size);
}

// ---- from JSON --------------------------------------------------------------------------------------------

static bool read_field(loader *L, const scene_json *j, const char *jp, const field *f, void *base) {
    void *p = (char *)base + f->offset;
    int index;
    int64_t v;
    switch (f->type) {
    case F_FLOAT: return js_read_float(L, j, jp, (float *)p);
    case F_VEC3: return js_read_vec3(L, j, jp, (tread_vec3 *)p);
    case F_BOOL: return js_read_bool(L, j, jp, (bool *)p);
    case F_INT:
        if (!js_read_integer(L, j, jp, -2147483647.0, 2147483647.0, &v)) return false;
        *(int *)p = (int)v;
        return true;
    case F_MASK:
        // An integer, or the names of the layers it selects.
        if (scene_json_is_array(j)) {
            uint32_t mask = 0;
            const scene_json *e;
            int i = 0;
            scene_json_each(e, j) {
                char pi[JP];
                if (!js_read_layer_ref(L, e, js_jp_index(pi, jp, i), &index)) return false;
                mask |= 1u << index;
                ++i;
            }
            *(uint32_t *)p = mask;
            return true;
        }
        if (!scene_json_is_number(j)) return js_fail(L, jp, "expected a layer mask (an integer or an array of layer names), got %s", js_type_name(j));
        if (!js_read_integer(L, j, jp, 0.0, 4294967295.0, &v)) return false;
        *(uint32_t *)p = (uint32_t)v;
        return true;
    case F_SHAPE:
        if (!js_read_enum(L, j, jp, scene_shape_names, &index)) return false;
        *(tread_query_shape_type *)p = scene_shape_values[index];
        return true;
    case F_STRATEGY:
        if (!js_read_enum(L, j, jp, scene_strategy_names(), &index)) return false;
        return scene_strategy_from_name(scene_strategy_names()[index], (tread_step_strategy *)p);
    case F_JUMP_MODE:
        if (!js_read_enum(L, j, jp, scene_jump_mode_names, &index)) return false;
        *(tread_jump_mode *)p = scene_jump_mode_values[index];
        return true;
    case F_LEAVE_GROUND:
        if (!js_read_enum(L, j, jp, scene_leave_ground_names, &index)) return false;
        *(tread_leave_ground *)p = scene_leave_ground_values[index];
        return true;
    }
    return false;
}

static bool read_object(loader *L, const scene_json *j, const char *jp, const field *fields, size_t count, const char *const *names, void *base) {
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, names)) return false;
    const scene_json *e;
    scene_json_each(e, j) {
        char p[JP];
        const field *f = find_field(fields, count, scene_json_key(e));
        if (!f || !read_field(L, e, js_jp_key(p, jp, scene_json_key(e)), f, base)) return false;
    }
    return true;
}

bool scene_read_settings(loader *L, const scene_json *j, const char *jp, tread_character_settings *s) {
    return read_object(L, j, jp, setting_fields, SETTING_COUNT, scene_setting_names(), s);
}

bool scene_read_motor(loader *L, const scene_json *j, const char *jp, const tread_character *probe, tread_motor_settings *m) {
    if (!read_object(L, j, jp, motor_fields, MOTOR_COUNT, scene_motor_setting_names(), m)) return false;
    tread_motor_state st = tread_motor_state_default();
    tread_motor_input in = tread_motor_input_default();
    tread_vec3 velocity;
    if (tread_motor_update(&st, m, &in, probe, NULL, NULL, 0, 1.0f / 60.0f, &velocity) != TREAD_OK) return js_fail(L, jp, "%s", tread_error_message());
    return true;
}
