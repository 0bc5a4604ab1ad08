// SPDX-License-Identifier: MIT
// The character: settings and their validation, the public phases, and tread_character_move — the reference
// combination of them that most callers use. Each public phase validates its arguments and begins its own
// per-move query context; tread_character_move validates once and runs the phases in one context.
#include "character_internal.h"
#include "contacts.h"
#include "../validate.h"

#include <stdio.h>
#include <string.h>

// The motion a step onto the nose a ride ended against is given (metres): just past TR_MIN_MOVE, the step's roll
// onto the nose does the rest.
#define TR_NOSE_NUDGE (2.0f * TR_MIN_MOVE)

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
           fabsf(ch->ground.distance) <= limit && tread_v3_is_finite(gv) && ch->snap_suppress_time >= 0.0f &&
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

// ---- a move's reach ---------------------------------------------------------------------------------------------

// The character is the caller's plain data: all of it is checked again (its settings' table index, its position...).
static tread_result check_character(const tread_character *ch) { return tr_check_character(ch, "character"); }

tread_result tr_check_move_args(const tr_source *src, const tread_character *ch, tread_vec3 velocity, float dt, const void *out,
                                const char *out_name) {
    tread_result r = tr_source_check(src);
    if (r != TREAD_OK) return r;
    if (!out) return tr_error(TREAD_ERR_NULL_ARGUMENT, "%s is NULL", out_name);
    if ((r = check_character(ch)) != TREAD_OK) return r;
    if (!isfinite(dt)) return tr_error(TREAD_ERR_NOT_FINITE, "dt is %g; expected a finite number", (double)dt);
    if (!(dt > 0.0f) || dt > 1.0f) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "dt is %g s; expected (0, 1]", (double)dt);
    return tr_check_length("velocity", velocity, TR_MAX_SPEED, "m/s");
}

// What a move's reach depends on at its start (reach.c: how far its queries go).
static tr_reach_inputs reach_inputs(const tread_character *ch, tread_vec3 carried_to, float pushers, tread_vec3 velocity, float dt) {
    tr_reach_inputs in = {0};
    in.walk = tread_v3_length(velocity) * dt;
    in.dt = dt;
    in.carried = tread_v3_distance(carried_to, ch->position);
    in.pushers = pushers;
    in.blocked = in.walk; // (a whole move: the blocked motion a step walks again is part of the walk)
    return in;
}

// The inputs of a later phase begun from where the update left `st`.
static tr_reach_inputs later_inputs(const tread_move_state *st) {
    tr_reach_inputs in = {0};
    in.dt = st->dt;
    in.moved = tread_v3_length(tread_v3_sub(st->result.position, st->start_position));
    in.blocked = tread_v3_length(st->blocked_motion);
    return in;
}

// ---- the coordinate limit ---------------------------------------------------------------------------------------
// The feet never leave the coordinate limit, and a move within it always succeeds. The move's queries may look past
// the limit (its bounds need only be finite), so a character near it moves back inward, or along it, as anywhere
// else: a move's reach (probes, recovery, a step's lift) once had to stay within the limit, so about 6 m short of it
// every move failed, walking back included. The part of a move beyond the limit is clamped, not refused: a walk, a
// fall or a push toward it ends at it, as at the world's edge, instead of failing every frame from then on. Nothing
// changes for a move that stays within the limit.

// True when `v` was clamped into [-TR_MAX_COORDINATE, TR_MAX_COORDINATE].
static bool clamp_coordinate(float *v) {
    if (*v > TR_MAX_COORDINATE) *v = TR_MAX_COORDINATE;
    else if (*v < -TR_MAX_COORDINATE) *v = -TR_MAX_COORDINATE;
    else return false;
    return true;
}

// The velocity a walk from `feet` over dt seconds keeps to the limit with: a part that would take the feet past it on
// an axis is shortened to reach it (the limit is a wall there, met head on: the floor runs on to it, and the slide
// does the rest). Unchanged for a walk that stays within it.
static tread_vec3 within_limit(tread_vec3 feet, tread_vec3 velocity, float dt) {
    float *v[3] = {&velocity.x, &velocity.y, &velocity.z};
    const float p[3] = {feet.x, feet.y, feet.z};
    for (int k = 0; k < 3; ++k) {
        float to = p[k] + *v[k] * dt;
        if (to > TR_MAX_COORDINATE) *v[k] = tr_maxf(0.0f, (TR_MAX_COORDINATE - p[k]) / dt);
        else if (to < -TR_MAX_COORDINATE) *v[k] = tr_minf(0.0f, (-TR_MAX_COORDINATE - p[k]) / dt);
    }
    return velocity;
}

// The end of a public phase: what else moved the feet past the limit (a carry, a push, a step, a slide turned along a
// face) is clamped there on each axis, and the velocity's part outward across it dropped. The ground found where
// the move ended stays.
static void keep_within_limit(tread_character *ch, tread_move_state *st) {
    float *feet[3] = {&st->result.position.x, &st->result.position.y, &st->result.position.z};
    float *velocity[3] = {&st->result.velocity.x, &st->result.velocity.y, &st->result.velocity.z};
    bool clamped = false;
    for (int k = 0; k < 3; ++k) {
        if (!clamp_coordinate(feet[k])) continue;
        clamped = true;
        if (*feet[k] * *velocity[k] > 0.0f) *velocity[k] = 0.0f; // (moving outward)
    }
    if (!clamped) return;
    ch->position = st->result.position;
    ch->velocity = st->result.velocity;
}

// A game keeps one report per character: it stays small (issue: the report once carried the phases' own state, 1,380
// bytes).
_Static_assert(sizeof(tread_move_result) <= 256, "tread_move_result holds what a game reads, within 256 bytes");

// ---- phases --------------------------------------------------------------------------------------------------

static void begin_result(const tread_character *ch, float dt, tread_move_state *st) {
    memset(st, 0, sizeof *st);
    st->result.crushed_character = -1;
    st->result.started_on_ground = ch->ground.state == TREAD_GROUND_ON_GROUND;
    st->result.position = ch->position;
    st->result.velocity = ch->velocity;
    st->result.ground = ch->ground;
    st->previous_ground = ch->ground;
    st->start_position = ch->position;
    st->dt = dt;
}

static void finish(tread_character *ch, const tread_move_state *st) {
    ch->position = st->result.position;
    ch->velocity = st->result.velocity;
    ch->ground = st->result.ground;
}

// The caller moves away from its ground (a jump): its velocity, relative to the ground, points up. (The ground's
// own motion is carried apart, before the walk.)
static bool moving_away(tread_vec3 velocity, tread_vec3 up) { return tread_v3_dot(velocity, up) > TR_SEPARATING_SPEED; }

// The velocity the slide should follow: on walkable ground, unless the caller moves away from it (a jump),
// the horizontal input runs along the ground and the part pressing into it is dropped (so gravity applied
// every frame does not slide an idle character down a walkable slope).
static tread_vec3 along_ground(const tread_character *ch, tread_vec3 velocity) {
    const tread_character_settings *s = &ch->settings;
    // On ground too steep to stand on, pushing into it gains no height: the slide only takes it down.
    if (ch->ground.state == TREAD_GROUND_ON_STEEP) return tr_clip_steep(velocity, ch->ground.normal, s->up);
    if (ch->ground.state != TREAD_GROUND_ON_GROUND) return velocity;
    if (moving_away(velocity, s->up)) return velocity;
    // The horizontal input sets the speed; a part pressing into the ground is dropped, not turned into speed.
    tread_vec3 horizontal = tread_v3_reject(velocity, s->up);
    return tr_align_to_ground(horizontal, s->up, ch->ground.normal, s->keep_horizontal_speed);
}

static tread_vec3 without_downward(tread_vec3 v, tread_vec3 up) { return tread_v3_mad(v, -tr_minf(0.0f, tread_v3_dot(v, up)), up); }

// What the ground did to the character over the last world advance: where its motion takes the feet and how it
// turned (read before the move begins: the carry widens its bounds).
typedef struct ground_carry {
    tread_vec3 to;   // the feet carried by the ground's rigid motion
    tread_quat turn; // the rotation it turned by
    bool moved;      // the ground moved or turned
    float pushers;   // how far moving bodies can have reached (metres): tr_pushers_reach
} ground_carry;

static ground_carry carry_of(const tr_source *src, const tread_world *others, const tread_character *ch, float dt) {
    ground_carry c = {ch->position, tread_quat_identity(), false, tr_pushers_reach(src)};
    if (ch->ground.state != TREAD_GROUND_ON_GROUND) return c;
    // The body's own motion over the advance, then its surface's over this update (a conveyor).
    tread_vec3 moved;
    tread_quat turned, surface_turn;
    tr_ground_motion(src, others, ch->ground.body, ch->position, &moved, &turned);
    tr_surface_motion(src, others, ch->ground.body, moved, dt, &c.to, &surface_turn);
    c.turn = tread_quat_normalize(tread_quat_mul(surface_turn, turned));
    c.moved = c.to.x != ch->position.x || c.to.y != ch->position.y || c.to.z != ch->position.z || c.turn.w != 1.0f;
    return c;
}

// Carry the character by its ground's motion over the last world advance (Godot's and Jolt's moving platforms, but
// by the body's change of transform rather than its velocity at one point in a straight line: a rider of a turning
// disc stays on its spot). The carry slides along anything it meets.
static tread_result carry_phase(const tr_move_query *q, tread_character *ch, const ground_carry *carry, tread_move_state *st) {
    if (!carry->moved) return TREAD_OK;
    const tread_vec3 up = ch->settings.up;
    tread_body_id ground = ch->ground.body;
    tread_query_filter filter = tr_collide_filter(ch);
    // Inside its ground (recovery was still pushing it out of a platform), it does not stand on it: carried along,
    // it would stay inside as the platform moves on (a box shooting up at 17 m/s took a character 9 cm inside it
    // along). The carried pose is the one it had on the body before the body moved.
    filter.callback = tr_only_body;
    filter.context = &ground;
    tread_query_shape bare = tr_body_shape(ch, 0.0f);
    tread_distance_result inside;
    tread_result r = tr_query_closest(q, &bare, tr_center(ch, carry->to), 0.0f, &filter, &inside);
    if (r != TREAD_OK || (inside.found && inside.distance < -TR_CARRY_INSIDE)) return r;
    // Slid along everything, its ground too: slid along another body past the ground's edge, with the ground left
    // out, a sphere riding a platform at 9 m/s was pushed down 2.6 cm into it. (The carried pose is clear of the
    // ground, and the casts leave what they start touching, so the ground does not hold back its own motion.)
    filter.callback = NULL;
    filter.context = NULL;
    tr_slide_result slid;
    r = tr_slide_filtered(q, ch, ch->position, tread_v3_sub(carry->to, ch->position), TR_SLIDE_AIR, &filter, NULL, &slid);
    if (r != TREAD_OK) return r;
    st->result.carried = tread_v3_sub(slid.feet, ch->position);
    st->result.ground_turn = carry->turn;
    // The turn's twist about up (the part a heading follows): 2 atan2(axis . up sin(a/2), cos(a/2)), in (-pi, pi].
    double yaw = 2.0 * tr_atan2((double)tread_v3_dot(tread_v3(carry->turn.x, carry->turn.y, carry->turn.z), up), (double)carry->turn.w);
    if (yaw > TR_PI_D) yaw -= 2.0 * TR_PI_D;
    if (yaw <= -TR_PI_D) yaw += 2.0 * TR_PI_D;
    st->result.ground_yaw = (float)yaw;
    // The point it stood on went along: the stairs and floor phases measure from it.
    tread_quat unused;
    tr_ground_motion(&q->src, q->others, ground, st->previous_ground.point, &st->previous_ground.point, &unused);
    tr_surface_motion(&q->src, q->others, ground, st->previous_ground.point, st->dt, &st->previous_ground.point, &unused);
    ch->position = slid.feet;
    st->result.position = slid.feet;
    return TREAD_OK;
}

// Ground found more than TR_HOVER_GAP below the skin within the probe is where the character stands from now on: it
// settles onto it (the probe met nothing nearer, but for the support's tie), so a character reported on ground
// touches it. It hovered up to the probe's length over the floor on the frame it landed (Quake III levels: the
// ground point 1 cm below the body on every landing). Closer gaps are the slide's own rounding along a slope: left
// alone, they keep a walk's speed even.
static void settle_on_ground(const tread_character *ch, tread_vec3 *feet, tread_ground *ground) {
    if (ground->state != TREAD_GROUND_ON_GROUND || !(ground->distance > TR_HOVER_GAP)) return;
    *feet = tread_v3_mad(*feet, -ground->distance, ch->settings.up);
    ground->distance = 0.0f;
}

static tread_result update_phase(const tr_move_query *q, tread_character *ch, const ground_carry *carry, tread_vec3 velocity, float dt,
                                 tread_move_state *st) {
    const tread_character_settings *s = &ch->settings;
    const tr_strategy *strategy = tr_strategy_of(s->step_strategy);
    begin_result(ch, dt, st);
    st->snap_suppressed = ch->snap_suppress_time > 0.0f;
    tread_result r = carry_phase(q, ch, carry, st);
    if (r != TREAD_OK) return r;
    tr_crush crush;
    if ((r = tr_push_by_bodies(q, ch, ch->position, carry->pushers, &st->result.pushed, &crush)) != TREAD_OK) return r;
    ch->position = tread_v3_add(ch->position, st->result.pushed);
    st->result.position = ch->position;
    tread_vec3 push;
    bool unburied = false;
    r = tr_recover(q, ch, ch->position, dt, &crush, &push, &unburied);
    if (r != TREAD_OK) return r;
    if (unburied) st->result.unburied = tread_v3_length(push);
    st->result.crushed = crush.count > 0;
    if (st->result.crushed) {
        st->result.crushed_by = crush.bodies[0];
        st->result.crushed_aside = crush.aside;
        st->result.crushed_character = tr_pressed_against_character(q, ch, tread_v3_add(ch->position, push));
    }
    // A strategy that holds the body up (the riser in the ground) turns gravity off: downward input is dropped.
    bool held = false;
    if (strategy->hold && s->max_step_height > 0.0f && (r = strategy->hold(q, ch, ch->position, &held)) != TREAD_OK) return r;
    if (held) velocity = without_downward(velocity, s->up);
    st->leaving_ground = moving_away(velocity, s->up);
    bool grounded = ch->ground.state == TREAD_GROUND_ON_GROUND;
    tread_vec3 v = along_ground(ch, velocity);
    // While recovery pushes it out, the move does not go back in against the push: gravity pulled a box 4 mm a frame
    // down into a heightfield while recovery lifted it 2 mm (casts look past what they start inside of).
    if (!unburied && tread_v3_length_sq(push) > 0.0f) {
        tread_vec3 out = tread_v3_normalize(push);
        v = tread_v3_mad(v, -tr_minf(0.0f, tread_v3_dot(v, out)), out);
    }
    v = within_limit(tread_v3_add(ch->position, push), v, dt);
    tr_slide_result slide;
    r = tr_slide(q, ch, tread_v3_add(ch->position, push), tread_v3_scale(v, dt), grounded ? TR_SLIDE_GROUNDED : TR_SLIDE_AIR, st, &slide);
    if (r != TREAD_OK) return r;
    st->result.position = slide.feet;
    st->result.velocity = tr_slide_velocity(&slide, v, s->up);
    st->blocked = grounded && slide.blocked;
    st->blocked_position = slide.blocked_feet;
    st->blocked_motion = slide.blocked_motion;
    float support_gap = 0.0f;
    if ((r = tr_classify_ground_gap(q, ch, st->result.position, &st->result.ground, &support_gap)) != TREAD_OK) return r;
    // Resting with the skin inside the ground (placed exactly on it, as a flat box bottom is): rise to the skin, so
    // every shape keeps the same gap and a flat bottom does not catch the nose of a tread at its own height.
    bool lifted = false;
    if (st->result.ground.state == TREAD_GROUND_ON_GROUND && st->result.ground.distance < 0.0f) {
        // The overlap is along the ground's normal; straight up it takes 1 / (n . up) as much (at most twice).
        float lift = tr_minf(-st->result.ground.distance, s->skin) / tr_maxf(tread_v3_dot(st->result.ground.normal, s->up), 0.5f);
        // Never into something above: the bare shape rises only as far as it is free (a box teleported under a
        // heightfield's overhang rose 5 cm a frame into it).
        tread_query_shape bare = tr_body_shape(ch, 0.0f);
        tread_query_filter filter = tr_collide_filter(ch);
        tread_shape_hit hit;
        if ((r = tr_query_cast(q, &bare, tr_center(ch, st->result.position), tread_v3_scale(s->up, lift), &filter, &hit)) != TREAD_OK) return r;
        if (hit.hit) lift *= hit.fraction;
        st->result.position = tread_v3_mad(st->result.position, lift, s->up);
        // Out of the deepest surface touched; the support (the most level face near it) may lie up to the ground
        // tie farther, and the report says so. The body rests on the deeper one: it does not settle onto it.
        st->result.ground.distance = tr_maxf(0.0f, support_gap + lift * tread_v3_dot(st->result.ground.normal, s->up));
        lifted = true;
    }
    // Moving away from the ground faster than it moves (a jump) is leaving it, even while it is still within the
    // probe's reach: the frame a jump starts is not on ground.
    if (st->result.ground.state == TREAD_GROUND_ON_GROUND && moving_away(velocity, s->up))
        st->result.ground = tr_ground_in_air(ch, st->result.position);
    if (!lifted) settle_on_ground(ch, &st->result.position, &st->result.ground);
    finish(ch, st);
    ch->snap_suppress_time = tr_maxf(0.0f, ch->snap_suppress_time - dt);
    return TREAD_OK;
}

static tread_result stairs_phase(const tr_move_query *q, tread_character *ch, tread_move_state *st) {
    const tread_vec3 up = ch->settings.up;
    // Crushed, the world moved it this frame: no step on top of its way out (a crushed sphere went aside, then stepped
    // 1.18 m up through the bodies around it: the soak's 4:2874).
    if (st->result.crushed) return TREAD_OK;
    tr_step step;
    memset(&step, 0, sizeof step);
    bool found = false;
    tread_result r = tr_strategy_of(ch->settings.step_strategy)->step(q, ch, st, &step, &found);
    if (r != TREAD_OK || !found) return r;
    bool allowed = tr_step_within_limit(ch, st, &step);
    tr_draw_step(q, step.base, step.feet, allowed);
    if (!allowed) return TREAD_OK; // higher than max step: keep the update's result
    // (Written in place: on an error the callers drop both the result and the character copy they passed.)
    st->result.position = step.feet;
    st->result.step_up += tr_maxf(0.0f, tread_v3_dot(tread_v3_sub(step.feet, step.base), up));
    if (step.has_landing) tr_record_contact(q, st, &step.landing);
    if (step.holds) {
        st->result.ground = step.ground;
        st->result.held_by_riser = true;
        st->result.velocity = without_downward(st->result.velocity, up);
    } else {
        // The step replaces the slide from the point where the riser stopped it.
        st->blocked = false;
        st->result.velocity = tread_v3_reject(st->result.velocity, up); // relative to the ground it steps onto
        if ((r = tr_classify_ground(q, ch, st->result.position, &st->result.ground)) != TREAD_OK) return r;
    }
    finish(ch, st);
    return TREAD_OK;
}

// A round bottom that rode over one nose and came to hover against the next, where it cannot rest: a step onto that
// nose, as if the motion had been blocked there (the step rolls onto it: roll.c). *out_stepped only when the tread it
// lands on is within max step of the surface the move began on: after the stairs phase's own step a second one could
// climb twice the max step (two steps of 1.9 m put the soak's capsule 2.2 m up in one move); on short treads the
// contact strategy's step ends against the next nose, and that next step is within it. The caller undoes the rest.
static tread_result step_onto_nose_ahead(const tr_move_query *q, tread_character *ch, tread_vec3 heading, tread_move_state *st,
                                         bool *out_stepped) {
    const tread_character_settings *s = &ch->settings;
    float stepped_before = st->result.step_up;
    *out_stepped = false;
    if (!(s->max_step_height > 0.0f)) return TREAD_OK;
    st->blocked = true;
    st->blocked_position = st->result.position;
    st->blocked_motion = tread_v3_scale(tread_v3_normalize(heading), TR_NOSE_NUDGE);
    tread_result r = stairs_phase(q, ch, st);
    st->blocked = false;
    float top = tread_v3_dot(tread_v3_sub(st->result.ground.point, st->previous_ground.point), s->up);
    *out_stepped = r == TREAD_OK && st->result.step_up > stepped_before &&
                   (stepped_before <= 0.0f || top <= s->max_step_height + TR_STEP_HEIGHT_SLACK);
    return r;
}

static tread_result floor_phase(const tr_move_query *q, tread_character *ch, tread_vec3 velocity, tread_move_state *st) {
    const tread_character_settings *s = &ch->settings;
    if (!tr_strategy_of(s->step_strategy)->snaps) return TREAD_OK;
    // Lost the ground, or still over it but hovering (e.g. after riding over an edge): settle down.
    bool settled = st->result.ground.state == TREAD_GROUND_ON_GROUND && st->result.ground.distance <= TR_MIN_MOVE;
    if (st->previous_ground.state != TREAD_GROUND_ON_GROUND || settled || st->snap_suppressed) return TREAD_OK;
    // Never while the caller moves away from the ground faster than the ground does (a jump), nor too fast.
    if (moving_away(velocity, s->up) || tread_v3_length(velocity) > s->max_snap_speed) return TREAD_OK;
    tread_vec3 feet = st->result.position;
    float lowered = 0.0f;
    bool perched_ahead = false;
    tread_vec3 heading = tread_v3_reject(velocity, s->up);
    tread_result r = tr_snap_down(q, ch, &feet, s->step_down_distance, st->previous_ground.point, heading, &lowered, &perched_ahead);
    if (r == TREAD_OK && perched_ahead) {
        // Down on the nose, a step onto it; no step there: back off it (from where the move left the body).
        tread_move_state before = *st;
        bool stepped = false;
        st->result.position = feet;
        st->result.snap_down += lowered;
        if ((r = step_onto_nose_ahead(q, ch, heading, st, &stepped)) != TREAD_OK || stepped) return r;
        *st = before;
        finish(ch, st);
        feet = before.result.position;
        r = tr_snap_down(q, ch, &feet, s->step_down_distance, st->previous_ground.point, tread_v3_zero(), &lowered, &perched_ahead);
    }
    if (r != TREAD_OK || tread_v3_distance(feet, st->result.position) <= 0.0f) return r;
    tread_ground ground;
    if ((r = tr_classify_ground(q, ch, feet, &ground)) != TREAD_OK) return r;
    st->result.position = feet;
    st->result.snap_down += lowered;
    st->result.ground = ground;
    finish(ch, st);
    return TREAD_OK;
}

// ---- the public phases and the reference move --------------------------------------------------------------------
// Each runs on a source: tread's own world (the world-taking functions) or a backend (the _on functions).

static tread_result update_on(const tr_source *src, tread_character *ch, tread_vec3 velocity, float dt, tread_move_state *st) {
    tread_result r = tr_check_move_args(src, ch, velocity, dt, st, "state");
    if (r != TREAD_OK) return r;
    ground_carry carry = carry_of(src, NULL, ch, dt);
    tr_move_query q;
    tr_reach_inputs in = reach_inputs(ch, carry.to, carry.pushers, velocity, dt);
    if ((r = tr_move_query_begin_on(&q, src, ch, tr_center(ch, ch->position), tr_reach(ch, TR_REACH_UPDATE, &in))) != TREAD_OK) return r;
    tread_character work = *ch;
    r = update_phase(&q, &work, &carry, velocity, dt, st);
    tr_move_query_end(&q);
    if (r != TREAD_OK) return r;
    keep_within_limit(&work, st);
    st->result.moving_contact_count = st->result.contact_count; // (the phases alone list no end-of-move contacts)
    *ch = work;
    return TREAD_OK;
}

// tread_character_can_walk_stairs for a character already checked.
static bool can_walk_stairs(const tread_character *ch, const tread_move_state *st) {
    if (!(ch->settings.max_step_height > 0.0f)) return false;
    if (tr_strategy_of(ch->settings.step_strategy)->every_move) return true;
    return st->blocked && tread_v3_length(st->blocked_motion) > TR_MIN_MOVE;
}

bool tread_character_can_walk_stairs(const tread_character *ch, const tread_move_state *st) {
    return ch && st && check_character(ch) == TREAD_OK && can_walk_stairs(ch, st);
}

// A state handed back to a later phase: it came from an update (its dt is one an update accepts).
static tread_result check_phase_args(const tr_source *src, const tread_character *ch, const tread_move_state *st) {
    tread_result r = tr_source_check(src);
    if (r != TREAD_OK) return r;
    if (!st) return tr_error(TREAD_ERR_NULL_ARGUMENT, "state is NULL");
    if ((r = check_character(ch)) != TREAD_OK) return r;
    if (!(st->dt > 0.0f && st->dt <= 1.0f))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "state->dt is %g; expected a state tread_character_update began", (double)st->dt);
    if ((r = tr_check_point("state->result.position", st->result.position)) != TREAD_OK) return r;
    return TREAD_OK;
}

typedef tread_result later_phase_fn(const tr_move_query *q, tread_character *ch, tread_vec3 velocity, tread_move_state *st);

// A later phase run on its own: in a context of `reach` around the result's position, on copies kept only on success.
static tread_result run_later_phase(const tr_source *src, tread_character *ch, tread_vec3 velocity, tread_move_state *st, float reach,
                                    later_phase_fn *phase) {
    tr_move_query q;
    tread_result r = tr_move_query_begin_on(&q, src, ch, tr_center(ch, st->result.position), reach);
    if (r != TREAD_OK) return r;
    tread_character work = *ch;
    tread_move_state next = *st;
    r = phase(&q, &work, velocity, &next);
    tr_move_query_end(&q);
    if (r != TREAD_OK) return r;
    keep_within_limit(&work, &next);
    next.result.moving_contact_count = next.result.contact_count;
    *ch = work;
    *st = next;
    return TREAD_OK;
}

static tread_result stairs_of(const tr_move_query *q, tread_character *ch, tread_vec3 velocity, tread_move_state *st) {
    (void)velocity;
    return stairs_phase(q, ch, st);
}

static tread_result walk_stairs_on(const tr_source *src, tread_character *ch, tread_move_state *st) {
    tread_result r = check_phase_args(src, ch, st);
    if (r != TREAD_OK || !can_walk_stairs(ch, st)) return r;
    tr_reach_inputs in = later_inputs(st);
    return run_later_phase(src, ch, tread_v3_zero(), st, tr_reach(ch, TR_REACH_STAIRS, &in), stairs_of);
}

static tread_result stick_to_floor_on(const tr_source *src, tread_character *ch, tread_vec3 velocity, tread_move_state *st) {
    tread_result r = check_phase_args(src, ch, st);
    if (r != TREAD_OK) return r;
    if ((r = tr_check_length("velocity", velocity, TR_MAX_SPEED, "m/s")) != TREAD_OK) return r;
    tr_reach_inputs in = later_inputs(st);
    return run_later_phase(src, ch, velocity, st, tr_reach(ch, TR_REACH_FLOOR, &in), floor_phase);
}

tread_move_options tread_move_options_default(void) {
    tread_move_options o;
    memset(&o, 0, sizeof o);
    o.filter = tread_query_filter_default();
    o.contacts_where_it_ends = true;
    o.internal_cookie = TR_COOKIE;
    return o;
}

tread_result tr_check_move_options(const tread_move_options *o) {
    if (!o) return TREAD_OK;
    // (A zero-filled options' filter has layer mask 0: the move met nothing and fell through the floor with OK.)
    tread_result r = tr_check_cookie(o->internal_cookie, "options", "tread_move_options", "tread_move_options_default()");
    if (r != TREAD_OK || (r = tr_check_filter(&o->filter, "options.filter")) != TREAD_OK) return r;
    if (o->contact_capacity < 0)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "options.contact_capacity is %d; expected >= 0", o->contact_capacity);
    if (o->contact_capacity > 0 && !o->contacts)
        return tr_error(TREAD_ERR_NULL_ARGUMENT, "options.contacts is NULL with contact_capacity %d", o->contact_capacity);
    if (o->impulse_capacity < 0)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "options.impulse_capacity is %d; expected >= 0", o->impulse_capacity);
    if (o->impulse_capacity > 0 && !o->impulses)
        return tr_error(TREAD_ERR_NULL_ARGUMENT, "options.impulses is NULL with impulse_capacity %d", o->impulse_capacity);
    const tread_contact_listener *l = o->listener;
    if (l && (l->added || l->persisted || l->removed) && !o->memory)
        return tr_error(TREAD_ERR_NULL_ARGUMENT, "options.memory is NULL; the listener's added / persisted / removed need it");
    if (o->memory && (o->memory->count < 0 || o->memory->count > TREAD_MAX_CONTACT_MEMORY))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "options.memory->count is %d; expected 0 .. %d (zero a new memory)", o->memory->count,
                        TREAD_MAX_CONTACT_MEMORY);
    return TREAD_OK;
}

static tread_result move_with_on(const tr_source *src, tread_character *ch, tread_vec3 velocity, float dt, const tread_move_options *options,
                                 tread_move_result *res) {
    tread_result r = tr_check_move_args(src, ch, velocity, dt, res, "result");
    if (r != TREAD_OK || (r = tr_check_move_options(options)) != TREAD_OK) return r;
    tr_batch_place none = {NULL, (tread_body_id){0u, 0u}, NULL, 0};
    tread_move_state st;
    if ((r = tr_character_move_among(src, &none, ch, velocity, dt, options, options ? options->memory : NULL, NULL, &st)) != TREAD_OK) return r;
    *res = st.result;
    return TREAD_OK;
}

// The three phases and the move's reports, in one context.
// Debug builds hold the phase about to run to its own reach from where it begins (`watch`, NULL: not watched; kind
// TR_REACH_COUNT: no phase's, the move's bounds only).
static void watch_phase(tr_reach_watch *watch, const tread_character *ch, tr_reach_kind kind, const tr_reach_inputs *in) {
    if (!watch) return;
    watch->center = tr_center(ch, ch->position);
    watch->reach = kind < TR_REACH_COUNT ? tr_reach(ch, kind, in) : INFINITY;
}

static tread_result move_phases(const tr_move_query *q, tr_reach_watch *watch, const tr_reach_inputs *in, tread_character *work,
                                const ground_carry *carry, tread_vec3 velocity, float dt, bool where_it_ends, tread_contact_memory *touching,
                                tread_move_state *st) {
    tread_result r;
    watch_phase(watch, work, TR_REACH_UPDATE, in);
    if ((r = update_phase(q, work, carry, velocity, dt, st)) != TREAD_OK) return r;
    tr_reach_inputs later = later_inputs(st);
    watch_phase(watch, work, TR_REACH_STAIRS, &later);
    if (can_walk_stairs(work, st) && (r = stairs_phase(q, work, st)) != TREAD_OK) return r;
    watch_phase(watch, work, TR_REACH_FLOOR, &later);
    if ((r = floor_phase(q, work, velocity, st)) != TREAD_OK) return r;
    // (What the move reports after its phases is held to its bounds only.)
    watch_phase(watch, work, TR_REACH_COUNT, NULL);
    // Impulses for what it met while moving; then, into a caller's buffer, what it touches where it ended.
    if ((r = tr_move_impulses(q, work, velocity, dt, st)) != TREAD_OK) return r;
    st->result.moving_contact_count = st->result.contact_count;
    if (q->contacts && where_it_ends && (r = tr_record_touching(q, work, st)) != TREAD_OK) return r;
    return touching ? tr_touching_events(q, work, st, touching) : TREAD_OK;
}

// The impulses into the caller's buffer, and whether each buffer held all it was given.
static void write_buffers(const tread_move_options *o, tread_move_state *st) {
    if (!o) return;
    if (o->contacts) st->result.contacts_overflow = st->result.contact_count > o->contact_capacity;
    if (!o->impulses) return;
    int n = st->impulses_kept < o->impulse_capacity ? st->impulses_kept : o->impulse_capacity;
    if (n > 0) memcpy(o->impulses, st->impulses, sizeof *st->impulses * (size_t)n);
    st->result.impulses_overflow = st->result.impulse_count > n;
}

tread_result tr_character_move_among(const tr_source *src, const tr_batch_place *place, tread_character *ch, tread_vec3 velocity, float dt,
                                     const tread_move_options *options, tread_contact_memory *memory, tread_contact_memory *touching,
                                     tread_move_state *st) {
    // One context for the whole move: everything the three phases can reach, validated once.
    ground_carry carry = carry_of(src, place->others, ch, dt);
    tr_reach_inputs in = reach_inputs(ch, carry.to, carry.pushers, velocity, dt);
    tr_move_query q;
    tread_result r = tr_move_query_begin_on(&q, src, ch, tr_center(ch, ch->position), tr_reach(ch, TR_REACH_MOVE, &in));
    if (r != TREAD_OK) return r;
    tr_verdicts verdicts;
    verdicts.count = 0;
    if (options) {
        q.filter = &options->filter;
        q.listener = options->listener;
        q.verdicts = options->listener && options->listener->validate ? &verdicts : NULL;
        q.contacts = options->contacts;
        q.contact_capacity = options->contact_capacity;
        q.draw = options->debug_draw;
    }
    // The candidates: what the phases' usual queries reach (the update's slide and probes, a step, a snap), not the
    // unbury search's far reach (it walks the tree when it runs).
    tr_move_query_gather(&q, tr_center(ch, ch->position), tr_reach(ch, TR_REACH_CANDIDATES, &in));
    tr_move_query_set_others(&q, place->others, place->self, place->order);
    q.index = place->index;
    // What the listener's events will name: a single move's own (delivered below), or the batch's per character.
    tread_contact_memory single;
    const tread_contact_listener *listener = options ? options->listener : NULL;
    bool events = tr_listener_has_events(listener);
    if (!touching && events) touching = &single;
    tread_character work = *ch;
    bool where_it_ends = options && options->contacts_where_it_ends;
    tr_reach_watch watch, *watching = NULL;
#ifndef NDEBUG
    watching = &watch;
    q.watch = watching;
#else
    (void)watch;
#endif
    r = move_phases(&q, watching, &in, &work, &carry, velocity, dt, where_it_ends, events ? touching : NULL, st);
    tr_move_query_end(&q);
    if (r != TREAD_OK) return r;
    keep_within_limit(&work, st);
    write_buffers(options, st);
    // Events only for a move that happened (the callbacks see the character as it was when the move began, as they
    // always have). A batch's are delivered by the batch once every move of it succeeded (`touching` was its own).
    if (touching == &single) {
        TR_ASSERT(memory);
        tr_deliver_events(listener, ch, place->index, &single, memory);
    }
    *ch = work;
    return TREAD_OK;
}

tread_result tr_character_nudge(const tr_source *src, const tr_batch_place *among, tread_character *ch, tread_vec3 displacement) {
    tr_move_query q;
    tr_reach_inputs in = {0};
    in.nudge = tread_v3_length(displacement);
    tread_result r = tr_move_query_begin_on(&q, src, ch, tr_center(ch, ch->position), tr_reach(ch, TR_REACH_NUDGE, &in));
    if (r != TREAD_OK) return r;
    if (among) tr_move_query_set_others(&q, among->others, among->self, among->order);
    tr_slide_result slid;
    r = tr_slide(&q, ch, ch->position, displacement, TR_SLIDE_AIR, NULL, &slid);
    // A character on ground stays on what is under it where the nudge left it: pushed or parted along a floor that
    // is not flat, it ended hovering with the ground of before (crowds on Quake III levels: 6 mm above it).
    tread_ground ground = ch->ground;
    if (r == TREAD_OK && ch->ground.state == TREAD_GROUND_ON_GROUND && (r = tr_classify_ground(&q, ch, slid.feet, &ground)) == TREAD_OK)
        settle_on_ground(ch, &slid.feet, &ground);
    tr_move_query_end(&q);
    if (r == TREAD_OK) {
        ch->position = slid.feet;
        ch->ground = ground;
        // (Pushed or parted toward the coordinate limit: stopped at it, as a move is.)
        for (int k = 0; k < 3; ++k) clamp_coordinate(k == 0 ? &ch->position.x : k == 1 ? &ch->position.y : &ch->position.z);
    }
    return r;
}

// ---- the public entry points: on tread's own world, and on any backend -------------------------------------------

tread_result tread_character_update(const tread_world *w, tread_character *ch, tread_vec3 velocity, float dt, tread_move_state *st) {
    tr_source src = tr_source_world(w);
    return update_on(&src, ch, velocity, dt, st);
}

tread_result tread_character_walk_stairs(const tread_world *w, tread_character *ch, tread_move_state *st) {
    tr_source src = tr_source_world(w);
    return walk_stairs_on(&src, ch, st);
}

tread_result tread_character_stick_to_floor(const tread_world *w, tread_character *ch, tread_vec3 velocity, tread_move_state *st) {
    tr_source src = tr_source_world(w);
    return stick_to_floor_on(&src, ch, velocity, st);
}

tread_result tread_character_move(const tread_world *w, tread_character *ch, tread_vec3 velocity, float dt, tread_move_result *res) {
    tr_source src = tr_source_world(w);
    return move_with_on(&src, ch, velocity, dt, NULL, res);
}

tread_result tread_character_move_with(const tread_world *w, tread_character *ch, tread_vec3 velocity, float dt,
                                       const tread_move_options *options, tread_move_result *res) {
    tr_source src = tr_source_world(w);
    return move_with_on(&src, ch, velocity, dt, options, res);
}

tread_result tread_character_update_on(const tread_backend *backend, tread_character *ch, tread_vec3 velocity, float dt, tread_move_state *st) {
    tr_source src;
    tread_result r = tr_source_of(backend, &src);
    return r != TREAD_OK ? r : update_on(&src, ch, velocity, dt, st);
}

tread_result tread_character_walk_stairs_on(const tread_backend *backend, tread_character *ch, tread_move_state *st) {
    tr_source src;
    tread_result r = tr_source_of(backend, &src);
    return r != TREAD_OK ? r : walk_stairs_on(&src, ch, st);
}

tread_result tread_character_stick_to_floor_on(const tread_backend *backend, tread_character *ch, tread_vec3 velocity, tread_move_state *st) {
    tr_source src;
    tread_result r = tr_source_of(backend, &src);
    return r != TREAD_OK ? r : stick_to_floor_on(&src, ch, velocity, st);
}

tread_result tread_character_move_on(const tread_backend *backend, tread_character *ch, tread_vec3 velocity, float dt, tread_move_result *res) {
    return tread_character_move_with_on(backend, ch, velocity, dt, NULL, res);
}

tread_result tread_character_move_with_on(const tread_backend *backend, tread_character *ch, tread_vec3 velocity, float dt,
                                          const tread_move_options *options, tread_move_result *res) {
    tr_source src;
    tread_result r = tr_source_of(backend, &src);
    return r != TREAD_OK ? r : move_with_on(&src, ch, velocity, dt, options, res);
}
