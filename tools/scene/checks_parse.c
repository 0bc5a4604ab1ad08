// SPDX-License-Identifier: MIT
// Expectations of a scene file (what makes a scene a test) and its plot options. Calls json_read.c.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene_internal.h"

// ---- expectations --------------------------------------------------------------------------------------

static bool parse_axis(loader *L, const scene_json *obj, const char *jp, const char *key, bool need, int *out) {
    return js_field_enum(L, obj, jp, key, need, js_axis_names, out);
}

// {"min": a, "max": b}: fields of `obj` itself (need_one: at least one of them).
static bool parse_min_max(loader *L, const scene_json *obj, const char *jp, bool need_one, scene_range *r) {
    r->has_min = js_member(obj, "min") != NULL;
    r->has_max = js_member(obj, "max") != NULL;
    if (!js_field_float(L, obj, jp, "min", false, &r->min, -INFINITY, INFINITY, 0) || !js_field_float(L, obj, jp, "max", false, &r->max, -INFINITY, INFINITY, 0))
        return false;
    if (need_one && !r->has_min && !r->has_max) return js_fail(L, jp, "needs \"min\", \"max\" or both");
    if (r->has_min && r->has_max && r->min > r->max) return js_fail(L, jp, "min %g is above max %g", (double)r->min, (double)r->max);
    return true;
}

static bool parse_range_object(loader *L, const scene_json *j, const char *jp, scene_range *r) {
    static const char *const fields[] = {"min", "max", NULL};
    return js_expect_object(L, j, jp) && js_check_fields(L, j, jp, fields) && parse_min_max(L, j, jp, true, r);
}

// {"time": t} | {"axis": "x", "above": v} | {"axis": "y", "below": v}
static bool parse_condition(loader *L, const scene_json *j, const char *jp, scene_condition *c) {
    static const char *const fields[] = {"time", "axis", "above", "below", NULL};
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields)) return false;
    const scene_json *time = js_member(j, "time"), *above = js_member(j, "above"), *below = js_member(j, "below");
    if (time) {
        if (js_member(j, "axis") || above || below) return js_fail(L, jp, "give either \"time\" or \"axis\" with \"above\"/\"below\", not both");
        c->kind = SCENE_COND_TIME;
        return js_field_float(L, j, jp, "time", true, &c->value, 0.0, INFINITY, 0);
    }
    if (!above && !below) return js_fail(L, jp, "needs \"time\", or \"axis\" with \"above\" or \"below\"");
    if (above && below) return js_fail(L, jp, "give \"above\" or \"below\", not both");
    c->kind = above ? SCENE_COND_ABOVE : SCENE_COND_BELOW;
    return parse_axis(L, j, jp, "axis", true, &c->axis) && js_field_float(L, j, jp, above ? "above" : "below", true, &c->value, -INFINITY, INFINITY, 0);
}

static bool parse_window(loader *L, const scene_json *j, const char *jp, scene_window *w) {
    static const char *const fields[] = {"start", "end", "where", NULL};
    static const char *const where_fields[] = {"axis", "min", "max", NULL};
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields)) return false;
    const scene_json *start = js_member(j, "start"), *end = js_member(j, "end"), *where = js_member(j, "where");
    char p[JP];
    if (start && !parse_condition(L, start, js_jp_key(p, jp, "start"), &w->start)) return false;
    if (end && !parse_condition(L, end, js_jp_key(p, jp, "end"), &w->end)) return false;
    if (where) {
        scene_range r = {0};
        js_jp_key(p, jp, "where");
        if (!js_expect_object(L, where, p) || !js_check_fields(L, where, p, where_fields) || !parse_axis(L, where, p, "axis", true, &w->where_axis) ||
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
                                          "no_penetration", "airborne_frames", "rides", "max_sink", "crushed_frames", "max_overlap",
                                          "max_wall_penetration", "all_finite", "reached_fraction", "max_frame_motion", "stays_in", "crushed_fraction", "sensor_entered", "sensor_exited",
                                          "sensor_sequence", "sensor_frames", "body_moved", "body_ahead", NULL};
static const scene_check_kind check_kinds[] = {
    SCENE_CHECK_FINAL,      SCENE_CHECK_AT_TIME,    SCENE_CHECK_REACHES,      SCENE_CHECK_MAX_RISE,     SCENE_CHECK_MAX_DROP,
    SCENE_CHECK_HEIGHT_RANGE, SCENE_CHECK_GROUNDED_FRACTION, SCENE_CHECK_SPEED_RANGE, SCENE_CHECK_MEAN_SPEED, SCENE_CHECK_DRIFT,
    SCENE_CHECK_COMES_TO_REST, SCENE_CHECK_GROUND_STATE, SCENE_CHECK_ADVANCE,     SCENE_CHECK_NO_PENETRATION,
    SCENE_CHECK_AIRBORNE_FRAMES, SCENE_CHECK_RIDES, SCENE_CHECK_MAX_SINK, SCENE_CHECK_CRUSHED_FRAMES, SCENE_CHECK_MAX_OVERLAP,
    SCENE_CHECK_MAX_WALL_PENETRATION, SCENE_CHECK_ALL_FINITE, SCENE_CHECK_REACHED_FRACTION, SCENE_CHECK_MAX_FRAME_MOTION, SCENE_CHECK_STAYS_IN, SCENE_CHECK_CRUSHED_FRACTION, SCENE_CHECK_SENSOR_ENTERED,
    SCENE_CHECK_SENSOR_EXITED, SCENE_CHECK_SENSOR_SEQUENCE, SCENE_CHECK_SENSOR_FRAMES, SCENE_CHECK_BODY_MOVED, SCENE_CHECK_BODY_AHEAD,
};

static const char *const *check_fields_of(scene_check_kind kind) {
#define COMMON "name", "type", "character", "window", "key", "pending"
    static const char *const axes[] = {COMMON, "x", "y", "z", NULL};
    static const char *const at_time[] = {COMMON, "time", "x", "y", "z", NULL};
    static const char *const reaches[] = {COMMON, "condition", "by", NULL};
    static const char *const rise[] = {COMMON, "max", "grounded_only", NULL};
    static const char *const height[] = {COMMON, "min", "max", "axis", NULL};
    static const char *const fraction[] = {COMMON, "min", NULL};
    static const char *const speed[] = {COMMON, "measure", "min", "max", NULL};
    static const char *const count[] = {COMMON, "min", "max", NULL};
    static const char *const max_only[] = {COMMON, "max", NULL};
    static const char *const ground[] = {COMMON, "state", "time", NULL};
    static const char *const penetration[] = {COMMON, "max", "within", NULL};
    static const char *const on_body[] = {COMMON, "body", "max", NULL};
    static const char *const sensor[] = {COMMON, "body", "count", "min", "max", NULL};
    static const char *const sequence[] = {COMMON, "body", "events", NULL};
    static const char *const body_axis[] = {COMMON, "body", "axis", "min", "max", NULL};
#undef COMMON
    // A group's checks name a crowd (or none: every character), not a character.
#define GROUP "name", "type", "crowd", "window", "key", "pending"
    static const char *const group_max[] = {GROUP, "max", NULL};
    static const char *const group_finite[] = {GROUP, NULL};
    static const char *const group_reached[] = {GROUP, "condition", "by", "min", "max", NULL};
    static const char *const group_box[] = {GROUP, "min", "max", NULL};
    static const char *const group_fraction[] = {GROUP, "min", "max", NULL};
#undef GROUP
    switch (kind) {
    case SCENE_CHECK_FINAL: return axes;
    case SCENE_CHECK_AT_TIME: return at_time;
    case SCENE_CHECK_REACHES: return reaches;
    case SCENE_CHECK_MAX_RISE:
    case SCENE_CHECK_MAX_DROP: return rise;
    case SCENE_CHECK_HEIGHT_RANGE:
    case SCENE_CHECK_ADVANCE: return height;
    case SCENE_CHECK_GROUNDED_FRACTION: return fraction;
    case SCENE_CHECK_AIRBORNE_FRAMES:
    case SCENE_CHECK_CRUSHED_FRAMES: return count;
    case SCENE_CHECK_SPEED_RANGE:
    case SCENE_CHECK_MEAN_SPEED: return speed;
    case SCENE_CHECK_DRIFT:
    case SCENE_CHECK_COMES_TO_REST: return max_only;
    case SCENE_CHECK_GROUND_STATE: return ground;
    case SCENE_CHECK_NO_PENETRATION: return penetration;
    case SCENE_CHECK_RIDES:
    case SCENE_CHECK_MAX_SINK: return on_body;
    case SCENE_CHECK_MAX_OVERLAP:
    case SCENE_CHECK_MAX_WALL_PENETRATION:
    case SCENE_CHECK_MAX_FRAME_MOTION: return group_max;
    case SCENE_CHECK_ALL_FINITE: return group_finite;
    case SCENE_CHECK_REACHED_FRACTION: return group_reached;
    case SCENE_CHECK_STAYS_IN: return group_box;
    case SCENE_CHECK_CRUSHED_FRACTION: return group_fraction;
    case SCENE_CHECK_SENSOR_ENTERED:
    case SCENE_CHECK_SENSOR_EXITED:
    case SCENE_CHECK_SENSOR_FRAMES: return sensor;
    case SCENE_CHECK_SENSOR_SEQUENCE: return sequence;
    case SCENE_CHECK_BODY_MOVED:
    case SCENE_CHECK_BODY_AHEAD: return body_axis;
    }
    return axes;
}

// x / y / z ranges of FINAL and AT_TIME; at least one.
static bool parse_axes(loader *L, const scene_json *j, const char *jp, scene_check *k) {
    bool any = false;
    for (int a = 0; a < 3; ++a) {
        const scene_json *r = js_member(j, js_axis_names[a]);
        char p[JP];
        if (!r) continue;
        any = true;
        if (!parse_range_object(L, r, js_jp_key(p, jp, js_axis_names[a]), &k->axes[a])) return false;
    }
    return any || js_fail(L, jp, "needs at least one of \"x\", \"y\", \"z\"");
}

// What a check's "body" must be.
typedef enum body_need {
    NEED_CARRIER, // a rider's: kinematic, or with a surface velocity (a conveyor)
    NEED_SENSOR,  // a sensor's events
    NEED_DYNAMIC, // a dynamic body's motion
} body_need;

// "body": a body's name (exactly one body has it) or its index, of the kind `need` says.
static bool parse_body_ref(loader *L, const scene_json *j, const char *jp, body_need need, scene_check *k) {
    const scene_json *b;
    char p[JP], q[64];
    const scene *s = L->s;
    if (!js_need_field(L, j, jp, "body", &b)) return false;
    js_jp_key(p, jp, "body");
    if (scene_json_is_string(b)) {
        k->body = -1;
        for (int i = 0; i < s->body_count; ++i) {
            if (strcmp(s->bodies[i].name, scene_json_string(b)) != 0) continue;
            if (k->body >= 0) return js_fail(L, p, "bodies[%d] and bodies[%d] are both named \"%s\"; give the index", k->body, i, js_quote(q, sizeof q, scene_json_string(b)));
            k->body = i;
        }
        if (k->body < 0) return js_fail(L, p, "no body is named \"%s\"", js_quote(q, sizeof q, scene_json_string(b)));
    } else {
        int64_t v;
        if (!scene_json_is_number(b)) return js_fail(L, p, "expected a body name or index, got %s", js_type_name(b));
        if (s->body_count == 0) return js_fail(L, p, "the scene has no bodies");
        if (!js_read_integer(L, b, p, 0.0, (double)(s->body_count - 1), &v)) return false;
        k->body = (int)v;
    }
    const scene_body *body = &s->bodies[k->body];
    if (need == NEED_CARRIER && body->def.type != TREAD_BODY_KINEMATIC && !scene_body_has_surface(body))
        return js_fail(L, p, "bodies[%d] is %s and has no surface velocity; a rider is checked against a kinematic body or a conveyor", k->body,
                       body->def.type == TREAD_BODY_DYNAMIC ? "dynamic" : "static");
    if (need == NEED_SENSOR && !(body->def.flags & TREAD_BODY_SENSOR))
        return js_fail(L, p, "bodies[%d] is not a sensor (\"sensor\": true); only sensors report entering and leaving", k->body);
    if (need == NEED_DYNAMIC && body->def.type != TREAD_BODY_DYNAMIC)
        return js_fail(L, p, "bodies[%d] is not dynamic (\"dynamic\": {...}); the runner moves only those by the characters' pushes", k->body);
    return true;
}

// "count": n (exactly n), or "min" / "max" (at least one): how many events or frames.
static bool parse_count(loader *L, const scene_json *j, const char *jp, scene_range *r) {
    const scene_json *count = js_member(j, "count");
    char p[JP];
    if (!count) return parse_min_max(L, j, jp, true, r);
    int64_t n = 0;
    if (js_member(j, "min") || js_member(j, "max")) return js_fail(L, jp, "give \"count\" or \"min\"/\"max\", not both");
    if (!js_read_integer(L, count, js_jp_key(p, jp, "count"), 0.0, 1e9, &n)) return false;
    r->has_min = r->has_max = true;
    r->min = r->max = (float)n;
    return true;
}

// "min" / "max" (at least one), fractions in [0, 1].
static bool parse_fraction_range(loader *L, const scene_json *j, const char *jp, scene_range *r) {
    if (!parse_min_max(L, j, jp, true, r)) return false;
    char p[JP];
    if (r->has_min && !js_in_range(r->min, 0.0, 1.0, 0)) return js_range_fail(L, js_jp_key(p, jp, "min"), r->min, 0.0, 1.0, 0);
    if (r->has_max && !js_in_range(r->max, 0.0, 1.0, 0)) return js_range_fail(L, js_jp_key(p, jp, "max"), r->max, 0.0, 1.0, 0);
    return true;
}

// "events": ["entered", "exited", ...], at most SCENE_MAX_SEQUENCE.
static bool parse_sequence(loader *L, const scene_json *j, const char *jp, scene_check *k) {
    static const char *const names[] = {"entered", "exited", NULL};
    const scene_json *list, *e;
    char p[JP];
    if (!js_need_field(L, j, jp, "events", &list) || !js_expect_array(L, list, js_jp_key(p, jp, "events"))) return false;
    if (scene_json_count(list) > SCENE_MAX_SEQUENCE) return js_fail(L, p, "has %d events; at most %d", scene_json_count(list), SCENE_MAX_SEQUENCE);
    scene_json_each(e, list) {
        char pe[JP];
        int v = 0;
        if (!js_read_enum(L, e, js_jp_index(pe, p, k->sequence_length), names, &v)) return false;
        k->sequence[k->sequence_length++] = v == 0 ? SCENE_EVENT_ENTERED : SCENE_EVENT_EXITED;
    }
    return true;
}

// A group check's "crowd" (a crowd's name; absent: every character), and its window: times only, since its
// characters' feet are many.
static bool parse_group(loader *L, const scene_json *j, const char *jp, scene_check *k) {
    const scene_json *crowd = js_member(j, "crowd");
    char p[JP], q[64];
    k->crowd = -1;
    if (crowd) {
        js_jp_key(p, jp, "crowd");
        if (!scene_json_is_string(crowd)) return js_fail(L, p, "expected a crowd's name, got %s", js_type_name(crowd));
        for (int i = 0; i < L->s->crowd_count; ++i)
            if (strcmp(L->s->crowds[i].name, scene_json_string(crowd)) == 0) k->crowd = i;
        if (k->crowd < 0) return js_fail(L, p, "no crowd is named \"%s\"", js_quote(q, sizeof q, scene_json_string(crowd)));
    }
    const scene_window *w = &k->window;
    js_jp_key(p, jp, "window");
    if (w->has_where) return js_fail(L, p, "a group's window takes no \"where\" (its characters are in many places)");
    if ((w->start.kind != SCENE_COND_NONE && w->start.kind != SCENE_COND_TIME) || (w->end.kind != SCENE_COND_NONE && w->end.kind != SCENE_COND_TIME))
        return js_fail(L, p, "a group's window starts and ends at times (\"time\"), not at a character's feet");
    return true;
}

static bool parse_check(loader *L, const scene_json *j, const char *jp, scene_check *k) {
    int kind = 0;
    if (!js_expect_object(L, j, jp) || !js_field_enum(L, j, jp, "type", true, check_names, &kind)) return false;
    k->kind = check_kinds[kind];
    if (!js_check_fields(L, j, jp, check_fields_of(k->kind))) return false;
    snprintf(k->name, sizeof k->name, "%s", check_names[kind]);
    k->time = -1.0f;
    k->axis = 1;
    if (!js_field_string(L, j, jp, "name", false, k->name, sizeof k->name) || !js_field_bool(L, j, jp, "key", &k->key) ||
        !js_field_string(L, j, jp, "pending", false, k->pending, sizeof k->pending))
        return false;
    char p[JP], q[64];
    if (js_member(j, "pending") && k->pending[0] == '\0')
        return js_fail(L, js_jp_key(p, jp, "pending"), "is empty; say what the check waits for (or leave the field out)");
    const scene_json *ch = js_member(j, "character"), *window = js_member(j, "window");
    if (ch) {
        js_jp_key(p, jp, "character");
        if (scene_json_is_string(ch)) {
            k->character = -1;
            for (int i = 0; i < L->s->character_count; ++i)
                if (strcmp(L->s->characters[i].name, scene_json_string(ch)) == 0) k->character = i;
            if (k->character < 0) return js_fail(L, p, "no character is named \"%s\"", js_quote(q, sizeof q, scene_json_string(ch)));
        } else {
            int64_t v;
            if (!scene_json_is_number(ch)) return js_fail(L, p, "expected a character name or index, got %s", js_type_name(ch));
            if (!js_read_integer(L, ch, p, 0.0, (double)(L->s->character_count - 1), &v)) return false;
            k->character = (int)v;
        }
    }
    if (window && !parse_window(L, window, js_jp_key(p, jp, "window"), &k->window)) return false;
    k->crowd = -1;
    if (scene_check_is_group(k->kind) && !parse_group(L, j, jp, k)) return false;
    int v = 0;
    switch (k->kind) {
    case SCENE_CHECK_FINAL: return parse_axes(L, j, jp, k);
    case SCENE_CHECK_AT_TIME:
        return js_field_float(L, j, jp, "time", true, &k->time, 0.0, INFINITY, 0) && parse_axes(L, j, jp, k);
    case SCENE_CHECK_REACHES: {
        const scene_json *c;
        k->by = L->s->duration;
        return js_need_field(L, j, jp, "condition", &c) && parse_condition(L, c, js_jp_key(p, jp, "condition"), &k->condition) &&
               js_field_float(L, j, jp, "by", false, &k->by, 0.0, INFINITY, 0);
    }
    case SCENE_CHECK_MAX_RISE:
    case SCENE_CHECK_MAX_DROP:
        k->range.has_max = true;
        return js_field_float(L, j, jp, "max", true, &k->range.max, 0.0, INFINITY, 0) && js_field_bool(L, j, jp, "grounded_only", &k->grounded_only);
    case SCENE_CHECK_HEIGHT_RANGE: return parse_axis(L, j, jp, "axis", false, &k->axis) && parse_min_max(L, j, jp, true, &k->range);
    case SCENE_CHECK_ADVANCE: return parse_axis(L, j, jp, "axis", true, &k->axis) && parse_min_max(L, j, jp, true, &k->range);
    case SCENE_CHECK_AIRBORNE_FRAMES:
    case SCENE_CHECK_CRUSHED_FRAMES:
        return parse_min_max(L, j, jp, true, &k->range);
    case SCENE_CHECK_GROUNDED_FRACTION:
        k->range.has_min = true;
        return js_field_float(L, j, jp, "min", true, &k->range.min, 0.0, 1.0, 0);
    case SCENE_CHECK_SPEED_RANGE:
    case SCENE_CHECK_MEAN_SPEED: {
        static const char *const measures[] = {"surface", "horizontal", "x", "y", "z", NULL};
        if (!js_field_enum(L, j, jp, "measure", true, measures, &v)) return false;
        k->measure = v == 0 ? SCENE_SPEED_SURFACE : (v == 1 ? SCENE_SPEED_HORIZONTAL : SCENE_SPEED_AXIS);
        if (v >= 2) k->axis = v - 2;
        return parse_min_max(L, j, jp, true, &k->range);
    }
    case SCENE_CHECK_DRIFT:
    case SCENE_CHECK_COMES_TO_REST:
        k->range.has_max = true;
        return js_field_float(L, j, jp, "max", true, &k->range.max, 0.0, INFINITY, 0);
    case SCENE_CHECK_GROUND_STATE: {
        if (!js_field_enum(L, j, jp, "state", true, scene_ground_state_names(), &v)) return false;
        k->state = (tread_ground_state)v;
        return js_field_float(L, j, jp, "time", false, &k->time, 0.0, INFINITY, 0);
    }
    case SCENE_CHECK_RIDES:
    case SCENE_CHECK_MAX_SINK:
        k->range.has_max = true;
        k->range.max = 0.001f;
        return parse_body_ref(L, j, jp, NEED_CARRIER, k) && js_field_float(L, j, jp, "max", false, &k->range.max, 0.0, INFINITY, 0);
    case SCENE_CHECK_NO_PENETRATION:
        k->range.has_max = true;
        k->range.max = 0.001f;
        k->within = 1.0f;
        return js_field_float(L, j, jp, "max", false, &k->range.max, 0.0, INFINITY, 0) &&
               js_field_float(L, j, jp, "within", false, &k->within, 0.0, INFINITY, 0);
    case SCENE_CHECK_MAX_OVERLAP:
    case SCENE_CHECK_MAX_WALL_PENETRATION:
    case SCENE_CHECK_MAX_FRAME_MOTION:
        k->range.has_max = true;
        return js_field_float(L, j, jp, "max", true, &k->range.max, 0.0, INFINITY, 0);
    case SCENE_CHECK_ALL_FINITE: return true;
    case SCENE_CHECK_STAYS_IN:
        if (!js_field_vec3(L, j, jp, "min", true, &k->box_min) || !js_field_vec3(L, j, jp, "max", true, &k->box_max)) return false;
        if (!(k->box_min.x <= k->box_max.x && k->box_min.y <= k->box_max.y && k->box_min.z <= k->box_max.z))
            return js_fail(L, jp, "min [%g, %g, %g] is above max [%g, %g, %g] on some axis", (double)k->box_min.x, (double)k->box_min.y,
                           (double)k->box_min.z, (double)k->box_max.x, (double)k->box_max.y, (double)k->box_max.z);
        return true;
    case SCENE_CHECK_CRUSHED_FRACTION: return parse_fraction_range(L, j, jp, &k->range);
    case SCENE_CHECK_REACHED_FRACTION: {
        const scene_json *c;
        k->by = L->s->duration;
        return js_need_field(L, j, jp, "condition", &c) && parse_condition(L, c, js_jp_key(p, jp, "condition"), &k->condition) &&
               js_field_float(L, j, jp, "by", false, &k->by, 0.0, INFINITY, 0) && parse_fraction_range(L, j, jp, &k->range);
    }
    case SCENE_CHECK_SENSOR_ENTERED:
    case SCENE_CHECK_SENSOR_EXITED:
    case SCENE_CHECK_SENSOR_FRAMES: return parse_body_ref(L, j, jp, NEED_SENSOR, k) && parse_count(L, j, jp, &k->range);
    case SCENE_CHECK_SENSOR_SEQUENCE: return parse_body_ref(L, j, jp, NEED_SENSOR, k) && parse_sequence(L, j, jp, k);
    case SCENE_CHECK_BODY_MOVED:
    case SCENE_CHECK_BODY_AHEAD:
        return parse_body_ref(L, j, jp, NEED_DYNAMIC, k) && parse_axis(L, j, jp, "axis", true, &k->axis) && parse_min_max(L, j, jp, true, &k->range);
    }
    return true;
}

bool scene_parse_checks(loader *L, const scene_json *root) {
    const scene_json *j = js_member(root, "expectations");
    if (!j) return true;
    if (!js_expect_array(L, j, "expectations")) return false;
    int n = scene_json_count(j);
    if (n > SCENE_MAX_CHECKS) return js_fail(L, "expectations", "has %d expectations; at most %d", n, SCENE_MAX_CHECKS);
    L->s->checks = (scene_check *)js_alloc_array(L, "expectations", (size_t)n, sizeof(scene_check));
    if (!L->s->checks) return false;
    const scene_json *e;
    int i = 0;
    scene_json_each(e, j) {
        char p[JP];
        if (!parse_check(L, e, js_jp_index(p, "expectations", i), &L->s->checks[i])) return false;
        L->s->check_count = ++i;
    }
    return true;
}

// "plot": {"view": "side" | "top" | "front" | "both"} or an array of view names, e.g. ["front", "top"].
bool scene_parse_plot(loader *L, const scene_json *root) {
    static const char *const fields[] = {"view", NULL};
    static const char *const views[] = {"both", "side", "top", "front", NULL};
    static const int values[] = {SCENE_PLOT_BOTH, SCENE_PLOT_SIDE, SCENE_PLOT_TOP, SCENE_PLOT_FRONT};
    const scene_json *j = js_member(root, "plot");
    L->s->plot_view = SCENE_PLOT_BOTH;
    if (!j) return true;
    if (!js_expect_object(L, j, "plot") || !js_check_fields(L, j, "plot", fields)) return false;
    const scene_json *list = js_member(j, "view");
    if (!scene_json_is_array(list)) {
        int v = 0;
        if (!js_field_enum(L, j, "plot", "view", false, views, &v)) return false;
        L->s->plot_view = values[v];
        return true;
    }
    int bits = 0, i = 0;
    const scene_json *e;
    scene_json_each(e, list) {
        char p[JP];
        int v = 0;
        if (!js_read_enum(L, e, js_jp_index(p, "plot.view", i++), views, &v)) return false;
        bits |= values[v];
    }
    if (bits == 0) return js_fail(L, "plot.view", "is an empty list; expected at least one of side, top, front");
    L->s->plot_view = bits;
    return true;
}
