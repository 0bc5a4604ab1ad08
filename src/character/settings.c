// SPDX-License-Identifier: MIT
// A character's settings: their defaults and validation (every field in its documented range, named when it is not),
// a character's state checked whole at every public entry, and what changes a character outside a move: init,
// settings and height (a new shape only where it fits), position, snap suppression.
#include "character_internal.h"
#include "../validate.h"

#include <stdio.h>
#include <string.h>

tread_character_settings tread_character_settings_default(void) {
    tread_character_settings s;
    memset(&s, 0, sizeof s);
    s.shape = TREAD_QUERY_CAPSULE;
    s.radius = 0.3f;
    s.height = 1.8f;
    s.up = tread_v3(0.0f, 1.0f, 0.0f);
    s.max_slope_degrees = 45.0f;
    s.max_step_height = 0.4f;
    s.min_step_depth = 0.1f;
    s.step_down_distance = 0.5f;
    s.max_snap_speed = 12.0f;
    s.ground_probe_distance = 0.02f;
    s.skin = 0.002f;
    s.max_slide_iterations = 5;
    s.collide_mask = 0xFFFFFFFFu;
    s.ground_mask = 0xFFFFFFFFu;
    s.recovery_speed = 2.0f;
    s.mass = 70.0f;
    s.max_strength = 100.0f;
    s.keep_horizontal_speed = false;
    s.stairs_layer_mask = 0u;
    s.stairs_max_slope_degrees = 60.0f;
    s.step_strategy = TREAD_STEP_SWEEP;
    s.contact_step.search_overshoot = 0.01f;
    s.riser.depth = 0.25f;
    s.riser.radius_scale = 0.9f;
    s.riser.speed_scale = 1.5f;
    s.riser.fall_scale = 0.25f;
    s.internal_cookie = TR_COOKIE;
    return s;
}

// cos of an angle in degrees, [0, 90], by a Taylor series in float: deterministic everywhere, done once per
// settings change (libm's cosf may differ between platforms in the last bit).
static float cos_degrees(float degrees) {
    float x = degrees * (3.14159265358979f / 180.0f);
    float x2 = x * x, term = 1.0f, sum = 1.0f;
    for (int i = 1; i <= 10; ++i) {
        term = -term * x2 / (float)((2 * i - 1) * (2 * i));
        sum += term;
    }
    return sum;
}

// ---- validation ---------------------------------------------------------------------------------------------

static tread_result validate_shape_settings(const tread_character_settings *s) {
    if (s->shape != TREAD_QUERY_CAPSULE && s->shape != TREAD_QUERY_SPHERE && s->shape != TREAD_QUERY_BOX)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings.shape is %d; expected TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE or TREAD_QUERY_BOX",
                        (int)s->shape);
    if (!isfinite(s->radius)) return tr_error(TREAD_ERR_NOT_FINITE, "settings.radius is %g; expected a finite number", (double)s->radius);
    if (!(s->radius > 0.0f) || s->radius > 100.0f)
        return tr_error(TREAD_ERR_INVALID_SHAPE, "settings.radius is %g m; expected > 0 and at most 100", (double)s->radius);
    if (s->shape != TREAD_QUERY_SPHERE) {
        if (!isfinite(s->height)) return tr_error(TREAD_ERR_NOT_FINITE, "settings.height is %g; expected a finite number", (double)s->height);
        float lowest = s->shape == TREAD_QUERY_CAPSULE ? 2.0f * s->radius : 0.0f;
        bool low = s->shape == TREAD_QUERY_CAPSULE ? s->height < lowest : !(s->height > 0.0f);
        if (low || s->height > 1000.0f)
            return tr_error(TREAD_ERR_INVALID_SHAPE, "settings.height is %g m; expected %s %g and at most 1000 for a %s", (double)s->height,
                            s->shape == TREAD_QUERY_CAPSULE ? "at least 2 * radius =" : ">", (double)lowest,
                            s->shape == TREAD_QUERY_CAPSULE ? "capsule" : "box");
    }
    // Any finite direction, however long or short: normalised without overflow (apply_settings). (0, 1e30, 0) once
    // squared to infinity and was stored as up = (0, 0, 0), with which every later move returned OK.
    tread_vec3 unit;
    if (!tread_v3_is_finite(s->up))
        return tr_error(TREAD_ERR_NOT_FINITE, "settings.up = (%g, %g, %g) has a NaN or infinite component", (double)s->up.x, (double)s->up.y,
                        (double)s->up.z);
    if (!tr_v3_direction(s->up, &unit)) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings.up is the zero vector; expected a direction");
    return TREAD_OK;
}

static tread_result validate_settings(const tread_character_settings *s) {
    tread_result r = tr_check_cookie(s->internal_cookie, "settings", "tread_character_settings", "tread_character_settings_default()");
    if (r != TREAD_OK || (r = validate_shape_settings(s)) != TREAD_OK) return r;
    static const struct {
        const char *name;
        size_t offset;
        float lo, hi;
        const char *unit;
    } ranges[] = {
        {"settings.max_slope_degrees", offsetof(tread_character_settings, max_slope_degrees), 0.0f, 89.9f, "degrees"},
        {"settings.max_step_height", offsetof(tread_character_settings, max_step_height), 0.0f, 100.0f, "m"},
        {"settings.min_step_depth", offsetof(tread_character_settings, min_step_depth), 0.0f, 100.0f, "m"},
        {"settings.step_down_distance", offsetof(tread_character_settings, step_down_distance), 0.0f, 100.0f, "m"},
        {"settings.max_snap_speed", offsetof(tread_character_settings, max_snap_speed), 0.0f, TR_MAX_SPEED, "m/s"},
        {"settings.ground_probe_distance", offsetof(tread_character_settings, ground_probe_distance), 1.0e-4f, 10.0f, "m"},
        {"settings.skin", offsetof(tread_character_settings, skin), 1.0e-4f, TR_MAX_SKIN, "m"},
        {"settings.recovery_speed", offsetof(tread_character_settings, recovery_speed), 1.0e-3f, TR_MAX_SPEED, "m/s"},
        {"settings.mass", offsetof(tread_character_settings, mass), 1.0e-3f, 1.0e6f, "kg"},
        {"settings.max_strength", offsetof(tread_character_settings, max_strength), 0.0f, 1.0e7f, "N"},
        {"settings.stairs_max_slope_degrees", offsetof(tread_character_settings, stairs_max_slope_degrees), 0.0f, 89.9f, "degrees"},
        {"settings.contact_step.search_overshoot", offsetof(tread_character_settings, contact_step.search_overshoot), 0.0f, 1.0f, "m"},
        {"settings.riser.depth", offsetof(tread_character_settings, riser.depth), 0.0f, 10.0f, "m"},
        {"settings.riser.radius_scale", offsetof(tread_character_settings, riser.radius_scale), 0.01f, 1.0f, ""},
        {"settings.riser.speed_scale", offsetof(tread_character_settings, riser.speed_scale), 0.0f, 100.0f, ""},
        {"settings.riser.fall_scale", offsetof(tread_character_settings, riser.fall_scale), 0.0f, 100.0f, ""},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; ++i) {
        float v;
        memcpy(&v, (const char *)s + ranges[i].offset, sizeof v);
        // (Compared here, the message made only for a value out of range: this runs on every move.)
        if (!(v >= ranges[i].lo && v <= ranges[i].hi)) return tr_check_range(ranges[i].name, v, ranges[i].lo, ranges[i].hi, ranges[i].unit);
    }
    if (s->max_slide_iterations < 1 || s->max_slide_iterations > 16)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings.max_slide_iterations is %d; expected 1 .. 16", s->max_slide_iterations);
    if ((int)s->step_strategy < 0 || s->step_strategy >= TREAD_STEP_STRATEGY_COUNT)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings.step_strategy is %d; expected a tread_step_strategy", (int)s->step_strategy);
    return TREAD_OK;
}

// The validated settings and what is derived from them.
static void apply_settings(tread_character *ch, const tread_character_settings *settings) {
    ch->settings = *settings;
    bool direction = tr_v3_direction(settings->up, &ch->settings.up);
    TR_ASSERT(direction); // (validated)
    (void)direction;
    // (Inclusive: a slope built at exactly the max slope is walkable whatever the rounding of its normal.)
    ch->max_slope_cos = cos_degrees(settings->max_slope_degrees + TREAD_SLOPE_TOLERANCE_DEGREES);
    ch->stairs_slope_cos = cos_degrees(settings->stairs_max_slope_degrees + TREAD_SLOPE_TOLERANCE_DEGREES);
}

// The fastest velocity a move leaves in a character (m/s): its input's limit, or, with keep_horizontal_speed, that
// limit lifted onto the steepest walkable slope (the same horizontal part is longer along the slope).
static float stored_speed_limit(const tread_character *ch) {
    float limit = ch->settings.keep_horizontal_speed ? TR_MAX_SPEED / ch->max_slope_cos : TR_MAX_SPEED;
    return limit * (1.0f + TR_UNIT_TOLERANCE); // (the slide's rounding)
}

// Unit to within half TR_UNIT_TOLERANCE, by its squared length (no square root).
static bool near_unit(tread_vec3 n) {
    const float lo = (1.0f - 0.5f * TR_UNIT_TOLERANCE) * (1.0f - 0.5f * TR_UNIT_TOLERANCE);
    const float hi = (1.0f + 0.5f * TR_UNIT_TOLERANCE) * (1.0f + 0.5f * TR_UNIT_TOLERANCE);
    float len_sq = tread_v3_length_sq(n);
    return len_sq >= lo && len_sq <= hi;
}

// The ground names a body or a character of a batch (-1: none), not both.
static bool ground_names_one(const tread_ground *g) {
    return g->character == -1 || (g->character >= 0 && tread_body_id_equal(g->body, tread_body_id_null()));
}

// The state's checks below as plain comparisons (NaN fails every one), each a little stricter than the named check
// it stands for: true means every one of them passes. It runs on every move; the named checks only when it is false,
// to find the field and word the message (or to accept a value in the slack between the two).
static bool state_plainly_valid(const tread_character *ch) {
    const float limit = TR_MAX_COORDINATE, speed = TR_MAX_SPEED;
    const tread_vec3 p = ch->position, g = ch->ground.point, gv = ch->ground.velocity;
    return near_unit(ch->settings.up) && ch->max_slope_cos > 0.0f && ch->max_slope_cos <= 1.0f && ch->stairs_slope_cos > 0.0f &&
           ch->stairs_slope_cos <= 1.0f && fabsf(p.x) <= limit && fabsf(p.y) <= limit && fabsf(p.z) <= limit &&
           tread_v3_length_sq(ch->velocity) <= speed * speed && (unsigned)ch->ground.state <= (unsigned)TREAD_GROUND_IN_AIR &&
           near_unit(ch->ground.normal) && fabsf(g.x) <= limit && fabsf(g.y) <= limit && fabsf(g.z) <= limit &&
           fabsf(ch->ground.distance) <= limit && tread_v3_is_finite(gv) && ground_names_one(&ch->ground) && ch->snap_suppress_time >= 0.0f &&
           ch->snap_suppress_time <= TR_MAX_SNAP_SUPPRESS;
}

// A character's state, every field: settings as tread_character_init validates them (and what it derives from them),
// feet, velocity, ground and snap timer as a move leaves them. The character is the caller's plain data, so this runs
// on every public entry that reads one, and on every load.
static tread_result check_state(const tread_character *ch) {
    tread_result r = validate_settings(&ch->settings);
    if (r != TREAD_OK || state_plainly_valid(ch)) return r;
    const tread_character_settings *s = &ch->settings;
    if ((r = tr_check_unit("settings.up", s->up)) != TREAD_OK) return r;
    // (Derived by apply_settings: cosines of at most 89.91 degrees.)
    if (!(ch->max_slope_cos > 0.0f && ch->max_slope_cos <= 1.0f))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "max_slope_cos is %g; expected (0, 1] (change settings with tread_character_set_settings)",
                        (double)ch->max_slope_cos);
    if (!(ch->stairs_slope_cos > 0.0f && ch->stairs_slope_cos <= 1.0f))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "stairs_slope_cos is %g; expected (0, 1] (change settings with tread_character_set_settings)",
                        (double)ch->stairs_slope_cos);
    if ((r = tr_check_point("position", ch->position)) != TREAD_OK) return r;
    if ((r = tr_check_length("velocity", ch->velocity, stored_speed_limit(ch), "m/s")) != TREAD_OK) return r;
    if ((unsigned)ch->ground.state > (unsigned)TREAD_GROUND_IN_AIR)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "ground.state is %d; expected a tread_ground_state", (int)ch->ground.state);
    if ((r = tr_check_unit("ground.normal", ch->ground.normal)) != TREAD_OK) return r;
    // (A ground point lies on what the body touches: it may reach past the coordinate limit the feet keep to, by the
    // body's size; twice the limit is beyond any of that.)
    if ((r = tr_check_length("ground.point", ch->ground.point, 2.0f * TR_MAX_COORDINATE, "m")) != TREAD_OK) return r;
    if ((r = tr_check_range("ground.distance", ch->ground.distance, -TR_MAX_COORDINATE, TR_MAX_COORDINATE, "m")) != TREAD_OK) return r;
    if (!tread_v3_is_finite(ch->ground.velocity)) return tr_error(TREAD_ERR_NOT_FINITE, "ground.velocity has a NaN or infinite component");
    if (!ground_names_one(&ch->ground))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "ground.character is %d with ground.body {index %u, generation %u}; expected -1, or an index >= 0 with a null body",
                        (int)ch->ground.character, ch->ground.body.index, ch->ground.body.generation);
    return tr_check_range("snap_suppress_time", ch->snap_suppress_time, 0.0f, TR_MAX_SNAP_SUPPRESS, "s");
}

tread_result tr_check_character(const tread_character *ch, const char *name) {
    tread_result r = tr_check_initialised(ch, name);
    if (r != TREAD_OK || (r = check_state(ch)) == TREAD_OK) return r;
    char detail[TR_MESSAGE_SIZE]; // (a copy: tr_error rewrites the buffer the detail points into)
    snprintf(detail, sizeof detail, "%s", tr_error_detail());
    return tr_error(r, "%s->%s", name, detail);
}

tread_result tread_character_init(tread_character *ch, const tread_character_settings *settings, tread_vec3 feet) {
    if (!ch) return tr_error(TREAD_ERR_NULL_ARGUMENT, "character is NULL");
    if (!settings) return tr_error(TREAD_ERR_NULL_ARGUMENT, "settings is NULL");
    tread_result r = validate_settings(settings);
    if (r != TREAD_OK) return r;
    if ((r = tr_check_point("position", feet)) != TREAD_OK) return r;
    memset(ch, 0, sizeof *ch);
    apply_settings(ch, settings);
    ch->position = feet;
    ch->ground.state = TREAD_GROUND_IN_AIR;
    ch->ground.normal = ch->settings.up;
    ch->ground.point = feet;
    ch->ground.body = tread_body_id_null();
    ch->ground.character = -1;
    return TREAD_OK;
}

static bool same_shape(const tread_character_settings *a, const tread_character_settings *b) {
    return a->shape == b->shape && a->radius == b->radius && (a->shape == TREAD_QUERY_SPHERE || a->height == b->height) &&
           a->up.x == b->up.x && a->up.y == b->up.y && a->up.z == b->up.z;
}

// Slack on "the new shape comes no nearer than the current one" for float rounding (metres).
#define TR_FIT_SLACK 1.0e-4f

// The new shape fits where the character stands: nothing comes nearer to it than to the current shape (or than
// the skin the controller keeps), so a character under a low ceiling stays crouched while one resting on its
// floor (at the skin) may stand up, and one already pressed into something is not made worse.
static tread_result new_shape_fits(const tr_source *src, const tread_character *now, const tread_character *next, bool *out_fits) {
    tr_reach_inputs none = {0};
    float reach = tr_maxf(tr_reach(now, TR_REACH_BODY, &none), tr_reach(next, TR_REACH_BODY, &none));
    tr_move_query q;
    tread_result r = tr_move_query_begin_on(&q, src, now, now->position, reach + tr_maxf(now->settings.height, next->settings.height));
    if (r != TREAD_OK) return r;
    tread_query_shape shape = tr_body_shape(now, 0.0f);
    tread_query_filter filter = tr_collide_filter(now);
    tread_distance_result d;
    if ((r = tr_query_closest(&q, &shape, tr_center(now, now->position), now->settings.skin, &filter, &d)) == TREAD_OK) {
        float kept = tr_minf(d.found ? d.distance : now->settings.skin, now->settings.skin) - TR_FIT_SLACK;
        r = tr_fits(&q, next, now->position, -kept, out_fits);
    }
    tr_move_query_end(&q);
    return r;
}

// tread_character_set_settings on `src` (none: world and backend NULL), which the caller names `name`.
static tread_result set_settings(const tr_source *src, const char *name, tread_character *ch, const tread_character_settings *settings) {
    tread_result r = tr_check_character(ch, "character");
    if (r != TREAD_OK) return r;
    if (!settings) return tr_error(TREAD_ERR_NULL_ARGUMENT, "settings is NULL");
    if ((r = validate_settings(settings)) != TREAD_OK) return r;
    tread_character next = *ch;
    apply_settings(&next, settings);
    if (!same_shape(&ch->settings, &next.settings)) {
        if (!src->world && !src->backend)
            return tr_error(TREAD_ERR_NULL_ARGUMENT, "%s is NULL; a new shape needs the world to check that it fits", name);
        bool fits = false;
        if ((r = new_shape_fits(src, ch, &next, &fits)) != TREAD_OK) return r;
        if (!fits)
            return tr_error(TREAD_ERR_BLOCKED, "the new shape (radius %g m, height %g m) does not fit at the feet (%g, %g, %g)",
                            (double)settings->radius, (double)settings->height, (double)ch->position.x, (double)ch->position.y,
                            (double)ch->position.z);
    }
    *ch = next;
    return TREAD_OK;
}

// tread_character_set_height on `src`, named `name` as for set_settings.
static tread_result set_height(const tr_source *src, const char *name, tread_character *ch, float height, bool *out_changed) {
    if (out_changed) *out_changed = false;
    tread_result r = tr_check_character(ch, "character");
    if (r != TREAD_OK) return r;
    if (ch->settings.shape == TREAD_QUERY_SPHERE)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "the character is a sphere; its height is its diameter (set its radius instead)");
    if (!isfinite(height)) return tr_error(TREAD_ERR_NOT_FINITE, "height is %g; expected a finite number", (double)height);
    float lowest = ch->settings.shape == TREAD_QUERY_CAPSULE ? 2.0f * ch->settings.radius : 0.0f;
    if (height < lowest || !(height > 0.0f) || height > 1000.0f)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "height is %g m; expected more than %g (%s) and at most 1000", (double)height,
                        (double)lowest, ch->settings.shape == TREAD_QUERY_CAPSULE ? "2 * radius" : "a box's bottom");
    if (height == ch->settings.height) return TREAD_OK;
    tread_character_settings settings = ch->settings;
    settings.height = height;
    r = set_settings(src, name, ch, &settings);
    if (r == TREAD_ERR_BLOCKED) return TREAD_OK; // does not fit: stays as it is
    if (r == TREAD_OK && out_changed) *out_changed = true;
    return r;
}

tread_result tread_character_set_settings(const tread_world *w, tread_character *ch, const tread_character_settings *settings) {
    tr_source src = tr_source_world(w);
    return set_settings(&src, "world", ch, settings);
}

tread_result tread_character_set_height(const tread_world *w, tread_character *ch, float height, bool *out_changed) {
    tr_source src = tr_source_world(w);
    return set_height(&src, "world", ch, height, out_changed);
}

// The source of an _on function whose backend may be NULL (set_settings: only for an unchanged shape).
static tread_result optional_source(const tread_backend *backend, tr_source *out) {
    *out = tr_source_world(NULL);
    return backend ? tr_source_of(backend, out) : TREAD_OK;
}

tread_result tread_character_set_settings_on(const tread_backend *backend, tread_character *ch, const tread_character_settings *settings) {
    tr_source src;
    tread_result r = optional_source(backend, &src);
    return r != TREAD_OK ? r : set_settings(&src, "backend", ch, settings);
}

tread_result tread_character_set_height_on(const tread_backend *backend, tread_character *ch, float height, bool *out_changed) {
    tr_source src;
    tread_result r = optional_source(backend, &src);
    if (r != TREAD_OK && out_changed) *out_changed = false;
    return r != TREAD_OK ? r : set_height(&src, "backend", ch, height, out_changed);
}

tread_query_shape tread_character_shape(const tread_character *ch) { return tr_body_shape(ch, 0.0f); }

tread_vec3 tread_character_center(const tread_character *ch) { return tr_center(ch, ch->position); }

tread_result tread_character_set_position(tread_character *ch, tread_vec3 feet) {
    tread_result r = tr_check_character(ch, "character");
    if (r != TREAD_OK || (r = tr_check_point("position", feet)) != TREAD_OK) return r;
    ch->position = feet;
    // The ground stood on is somewhere else now: stepping or snapping from it measured heights from the old place
    // (the soak saw a 2.3 m snap and a 0.9 m step under a 0.52 m max step). The next move finds the new ground.
    ch->ground = tr_ground_in_air(ch, feet);
    return TREAD_OK;
}

tread_result tread_character_suppress_snap(tread_character *ch, float seconds) {
    tread_result r = tr_check_character(ch, "character");
    if (r != TREAD_OK) return r;
    r = tr_check_range("seconds", seconds, 0.0f, TR_MAX_SNAP_SUPPRESS, "s");
    if (r == TREAD_OK) ch->snap_suppress_time = seconds;
    return r;
}
