// The character: settings, validation, the public phases, and tread_character_move — the reference
// combination of them that most callers use.
#include "character_internal.h"

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
    s.keep_horizontal_speed = false;
    s.step_strategy = TREAD_STEP_SWEEP;
    s.step_search_overshoot = 0.01f;
    s.riser_depth = 0.25f;
    s.riser_radius_scale = 0.9f;
    s.riser_speed_scale = 1.5f;
    s.riser_fall_scale = 0.25f;
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

float tr_character_center_height(const tread_character_settings *s) {
    return s->shape == TREAD_QUERY_SPHERE ? s->radius : 0.5f * s->height;
}

tread_vec3 tr_character_center(const tread_character *ch, tread_vec3 feet) {
    return tread_v3_mad(feet, tr_character_center_height(&ch->settings), ch->settings.up);
}

tread_query_shape tr_character_query_shape(const tread_character *ch, float extra) {
    const tread_character_settings *s = &ch->settings;
    if (s->shape == TREAD_QUERY_SPHERE) return tread_query_sphere(s->radius + extra);
    // The box grows by the skin on every face, as the capsule does (its bottom sits `extra` below the feet).
    if (s->shape == TREAD_QUERY_BOX)
        return tread_query_box(tread_v3(s->radius + extra, 0.5f * s->height + extra, s->radius + extra), s->up);
    // Grow the radius only: the feet stay where they are, the skin surrounds the whole shape.
    return tread_query_capsule(0.5f * s->height - s->radius, s->radius + extra, s->up);
}

// ---- validation ---------------------------------------------------------------------------------------------

static tread_result check_range(const char *name, float v, float lo, float hi, const char *unit) {
    if (!isfinite(v)) return tr_error(TREAD_ERR_NOT_FINITE, "settings.%s is %g; expected a finite number", name, (double)v);
    if (v < lo || v > hi)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings.%s is %g %s; expected %g .. %g", name, (double)v, unit, (double)lo, (double)hi);
    return TREAD_OK;
}

static tread_result validate_settings(const tread_character_settings *s) {
    tread_result r;
    if (s->shape != TREAD_QUERY_CAPSULE && s->shape != TREAD_QUERY_SPHERE && s->shape != TREAD_QUERY_BOX)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings.shape is %d; expected TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE or TREAD_QUERY_BOX",
                        (int)s->shape);
    if (!isfinite(s->radius)) return tr_error(TREAD_ERR_NOT_FINITE, "settings.radius is %g; expected a finite number", (double)s->radius);
    if (!(s->radius > 0.0f) || s->radius > 100.0f)
        return tr_error(TREAD_ERR_INVALID_SHAPE, "settings.radius is %g m; expected > 0 and at most 100", (double)s->radius);
    if (s->shape == TREAD_QUERY_CAPSULE) {
        if (!isfinite(s->height)) return tr_error(TREAD_ERR_NOT_FINITE, "settings.height is %g; expected a finite number", (double)s->height);
        if (s->height < 2.0f * s->radius || s->height > 1000.0f)
            return tr_error(TREAD_ERR_INVALID_SHAPE, "settings.height is %g m; expected at least 2 * radius (%g) and at most 1000",
                            (double)s->height, (double)(2.0f * s->radius));
    }
    if (s->shape == TREAD_QUERY_BOX) {
        if (!isfinite(s->height)) return tr_error(TREAD_ERR_NOT_FINITE, "settings.height is %g; expected a finite number", (double)s->height);
        if (!(s->height > 0.0f) || s->height > 1000.0f)
            return tr_error(TREAD_ERR_INVALID_SHAPE, "settings.height is %g m; expected > 0 and at most 1000 for a box", (double)s->height);
    }
    if (!tread_v3_is_finite(s->up)) return tr_error(TREAD_ERR_NOT_FINITE, "settings.up has a NaN or infinite component");
    if (tread_v3_length(s->up) < 1.0e-6f) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings.up is the zero vector; expected a direction");
    if ((r = check_range("max_slope_degrees", s->max_slope_degrees, 0.0f, 89.9f, "degrees")) != TREAD_OK) return r;
    if ((r = check_range("max_step_height", s->max_step_height, 0.0f, 100.0f, "m")) != TREAD_OK) return r;
    if ((r = check_range("min_step_depth", s->min_step_depth, 0.0f, 100.0f, "m")) != TREAD_OK) return r;
    if ((r = check_range("step_down_distance", s->step_down_distance, 0.0f, 100.0f, "m")) != TREAD_OK) return r;
    if ((r = check_range("max_snap_speed", s->max_snap_speed, 0.0f, TR_MAX_SPEED, "m/s")) != TREAD_OK) return r;
    if ((r = check_range("ground_probe_distance", s->ground_probe_distance, 1.0e-4f, 10.0f, "m")) != TREAD_OK) return r;
    if ((r = check_range("skin", s->skin, 1.0e-4f, 0.5f, "m")) != TREAD_OK) return r;
    if ((r = check_range("recovery_speed", s->recovery_speed, 1.0e-3f, TR_MAX_SPEED, "m/s")) != TREAD_OK) return r;
    if (s->max_slide_iterations < 1 || s->max_slide_iterations > 16)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings.max_slide_iterations is %d; expected 1 .. 16", s->max_slide_iterations);
    for (int i = 0; i < 32; ++i) {
        char name[48];
        snprintf(name, sizeof name, "layer_max_slope_degrees[%d]", i);
        if ((r = check_range(name, s->layer_max_slope_degrees[i], 0.0f, 89.9f, "degrees")) != TREAD_OK) return r;
    }
    if ((r = check_range("step_search_overshoot", s->step_search_overshoot, 0.0f, 1.0f, "m")) != TREAD_OK) return r;
    if ((r = check_range("riser_depth", s->riser_depth, 0.0f, 10.0f, "m")) != TREAD_OK) return r;
    if ((r = check_range("riser_radius_scale", s->riser_radius_scale, 0.01f, 1.0f, "")) != TREAD_OK) return r;
    if ((r = check_range("riser_speed_scale", s->riser_speed_scale, 0.0f, 100.0f, "")) != TREAD_OK) return r;
    if ((r = check_range("riser_fall_scale", s->riser_fall_scale, 0.0f, 100.0f, "")) != TREAD_OK) return r;
    if ((int)s->step_strategy < 0 || s->step_strategy >= TREAD_STEP_STRATEGY_COUNT)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings.step_strategy is %d; expected a tread_step_strategy", (int)s->step_strategy);
    return TREAD_OK;
}

static tread_result check_vec(const char *name, tread_vec3 v, float limit) {
    if (!tread_v3_is_finite(v)) return tr_error(TREAD_ERR_NOT_FINITE, "%s = (%g, %g, %g) has a NaN or infinite component", name,
                                                (double)v.x, (double)v.y, (double)v.z);
    if (tread_v3_length(v) > limit)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s = (%g, %g, %g) is longer than %g", name, (double)v.x, (double)v.y, (double)v.z, (double)limit);
    return TREAD_OK;
}

tread_result tread_character_init(tread_character *ch, const tread_character_settings *settings, tread_vec3 feet) {
    if (!ch) return tr_error(TREAD_ERR_NULL_ARGUMENT, "character is NULL");
    if (!settings) return tr_error(TREAD_ERR_NULL_ARGUMENT, "settings is NULL");
    tread_result r = validate_settings(settings);
    if (r != TREAD_OK) return r;
    if ((r = check_vec("position", feet, TR_MAX_COORDINATE)) != TREAD_OK) return r;
    memset(ch, 0, sizeof *ch);
    ch->settings = *settings;
    ch->settings.up = tread_v3_normalize(settings->up);
    ch->max_slope_cos = cos_degrees(settings->max_slope_degrees);
    for (int i = 0; i < 32; ++i)
        ch->layer_slope_cos[i] = settings->layer_max_slope_degrees[i] > 0.0f ? cos_degrees(settings->layer_max_slope_degrees[i]) : ch->max_slope_cos;
    ch->position = feet;
    ch->ground.state = TREAD_GROUND_IN_AIR;
    ch->ground.normal = ch->settings.up;
    ch->ground.point = feet;
    ch->ground.body = tread_body_id_null();
    return TREAD_OK;
}

tread_query_shape tread_character_shape(const tread_character *ch) { return tr_character_query_shape(ch, 0.0f); }

tread_vec3 tread_character_center(const tread_character *ch) { return tr_character_center(ch, ch->position); }

tread_result tread_character_set_position(tread_character *ch, tread_vec3 feet) {
    if (!ch) return tr_error(TREAD_ERR_NULL_ARGUMENT, "character is NULL");
    tread_result r = check_vec("position", feet, TR_MAX_COORDINATE);
    if (r == TREAD_OK) ch->position = feet;
    return r;
}

tread_result tread_character_suppress_snap(tread_character *ch, float seconds) {
    if (!ch) return tr_error(TREAD_ERR_NULL_ARGUMENT, "character is NULL");
    if (!isfinite(seconds) || seconds < 0.0f)
        return tr_error(isfinite(seconds) ? TREAD_ERR_INVALID_ARGUMENT : TREAD_ERR_NOT_FINITE, "seconds is %g; expected >= 0", (double)seconds);
    ch->snap_suppress_time = seconds;
    return TREAD_OK;
}

static tread_result check_move_args(const tread_world *w, const tread_character *ch, tread_vec3 velocity, float dt,
                                    const tread_move_result *res) {
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    if (!ch) return tr_error(TREAD_ERR_NULL_ARGUMENT, "character is NULL");
    if (!res) return tr_error(TREAD_ERR_NULL_ARGUMENT, "result is NULL");
    if (!isfinite(dt)) return tr_error(TREAD_ERR_NOT_FINITE, "dt is %g; expected a finite number", (double)dt);
    if (!(dt > 0.0f) || dt > 1.0f) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "dt is %g s; expected (0, 1]", (double)dt);
    return check_vec("velocity", velocity, TR_MAX_SPEED);
}

static void begin_result(const tread_character *ch, tread_move_result *res) {
    memset(res, 0, sizeof *res);
    res->position = ch->position;
    res->velocity = ch->velocity;
    res->ground = ch->ground;
    res->previous_ground = ch->ground;
}

static void finish(tread_character *ch, tread_move_result *res) {
    ch->position = res->position;
    ch->velocity = res->velocity;
    ch->ground = res->ground;
}

// ---- phases --------------------------------------------------------------------------------------------------

// The velocity the slide should follow: on walkable ground, unless the caller moves away from it (a jump),
// the horizontal input runs along the ground and the part pressing into it is dropped (so gravity applied
// every frame does not slide an idle character down a walkable slope).
static tread_vec3 ground_velocity(const tread_character *ch, tread_vec3 velocity) {
    const tread_character_settings *s = &ch->settings;
    if (ch->ground.state != TREAD_GROUND_ON_GROUND) return velocity;
    tread_vec3 relative = tread_v3_sub(velocity, ch->ground.velocity);
    if (tread_v3_dot(relative, s->up) > TR_SEPARATING_SPEED) return velocity;
    // The horizontal input sets the speed; a part pressing into the ground is dropped, not turned into speed.
    tread_vec3 horizontal = tread_v3_reject(relative, s->up);
    return tread_v3_add(tr_align_to_ground(horizontal, s->up, ch->ground.normal, s->keep_horizontal_speed), ch->ground.velocity);
}

tread_result tread_character_update(const tread_world *w, tread_character *ch, tread_vec3 velocity, float dt, tread_move_result *res) {
    tread_result r = check_move_args(w, ch, velocity, dt, res);
    if (r != TREAD_OK) return r;
    begin_result(ch, res);
    tread_vec3 feet = tread_v3_add(ch->position, tr_recover(w, ch, ch->position, dt));
    bool grounded = ch->ground.state == TREAD_GROUND_ON_GROUND;
    tread_vec3 v = ground_velocity(ch, velocity);
    tr_slide_result slide;
    tr_slide(w, ch, feet, tread_v3_scale(v, dt), grounded ? TR_SLIDE_GROUNDED : TR_SLIDE_AIR, res, &slide);
    res->position = slide.feet;
    res->velocity = tr_solve_planes(v, slide.planes, slide.plane_count);
    res->blocked = grounded && slide.blocked;
    res->blocked_position = slide.blocked_feet;
    res->blocked_motion = slide.blocked_motion;
    tr_classify_ground(w, ch, res->position, &res->ground);
    finish(ch, res);
    return TREAD_OK;
}

bool tread_character_can_walk_stairs(const tread_character *ch, const tread_move_result *res) {
    return ch && res && res->blocked && ch->settings.max_step_height > 0.0f && tread_v3_length(res->blocked_motion) > TR_MIN_MOVE;
}

tread_result tread_character_walk_stairs(const tread_world *w, tread_character *ch, tread_move_result *res) {
    if (!w || !ch || !res) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world, character or result is NULL");
    if (!tread_character_can_walk_stairs(ch, res)) return TREAD_OK;
    tread_vec3 landed;
    float rise = 0.0f;
    bool stepped = false;
    switch (ch->settings.step_strategy) {
    case TREAD_STEP_SWEEP: stepped = tr_step_sweep(w, ch, res->blocked_position, res->blocked_motion, res, &landed, &rise); break;
    case TREAD_STEP_CONTACT: stepped = tr_step_contact(w, ch, res, &landed, &rise); break;
    case TREAD_STEP_CAST_DOWN: stepped = tr_step_cast_down(w, ch, res, &landed, &rise); break;
    default: break; // the riser climbs in tread_character_move's riser phase, not here
    }
    if (!stepped) return TREAD_OK;
    // The step replaces the slide from the point where the riser stopped it.
    res->position = landed;
    res->stepped += rise;
    res->blocked = false;
    tread_vec3 up = ch->settings.up;
    res->velocity = tread_v3_mad(tread_v3_reject(res->velocity, up), tread_v3_dot(res->previous_ground.velocity, up), up);
    tr_classify_ground(w, ch, res->position, &res->ground);
    finish(ch, res);
    return TREAD_OK;
}

tread_result tread_character_stick_to_floor(const tread_world *w, tread_character *ch, tread_vec3 velocity, tread_move_result *res) {
    if (!w || !ch || !res) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world, character or result is NULL");
    tread_result r = check_vec("velocity", velocity, TR_MAX_SPEED);
    if (r != TREAD_OK) return r;
    const tread_character_settings *s = &ch->settings;
    // Lost the ground, or still over it but hovering (e.g. after riding over an edge): settle down.
    bool settled = res->ground.state == TREAD_GROUND_ON_GROUND && res->ground.distance <= TR_MIN_MOVE;
    if (res->previous_ground.state != TREAD_GROUND_ON_GROUND || settled || ch->snap_suppress_time > 0.0f) return TREAD_OK;
    // Never while the caller moves away from the ground faster than the ground does (a jump), nor too fast.
    tread_vec3 relative = tread_v3_sub(velocity, res->previous_ground.velocity);
    if (tread_v3_dot(relative, s->up) > TR_SEPARATING_SPEED || tread_v3_length(velocity) > s->max_snap_speed) return TREAD_OK;
    tread_vec3 feet = res->position;
    float lowered = tr_snap_down(w, ch, &feet, s->step_down_distance);
    if (lowered <= 0.0f) return TREAD_OK;
    res->position = feet;
    res->stepped -= lowered;
    tr_classify_ground(w, ch, res->position, &res->ground);
    finish(ch, res);
    return TREAD_OK;
}

// The riser strategy's move (seed 003): while the riser is in the ground it holds the body — downward velocity
// is cancelled, the slide runs as on ground, and the riser lifts the body over what it walks onto. It replaces
// the stairs and stick-to-floor phases.
static tread_result move_with_riser(const tread_world *w, tread_character *ch, tread_vec3 velocity, float dt, tread_move_result *res) {
    tread_vec3 up = ch->settings.up, before = ch->position;
    bool held = tr_riser_touches(w, ch, ch->position);
    tread_vec3 v = held ? tread_v3_mad(velocity, -tr_minf(0.0f, tread_v3_dot(velocity, up)), up) : velocity;
    tread_result r = tread_character_update(w, ch, v, dt, res);
    if (r != TREAD_OK) return r;
    tread_vec3 feet = res->position;
    float rise = 0.0f;
    tread_ground ground;
    if (tr_riser_hold(w, ch, &feet, tread_v3_sub(res->position, before), dt, &rise, &ground)) {
        res->position = feet;
        res->stepped += rise;
        res->ground = ground;
        res->held_by_riser = true;
        res->velocity = tread_v3_mad(res->velocity, -tr_minf(0.0f, tread_v3_dot(res->velocity, up)), up);
        finish(ch, res);
    }
    return TREAD_OK;
}

tread_result tread_character_move(const tread_world *w, tread_character *ch, tread_vec3 velocity, float dt, tread_move_result *res) {
    tread_result r;
    if (ch && ch->settings.step_strategy == TREAD_STEP_RISER) {
        if ((r = check_move_args(w, ch, velocity, dt, res)) != TREAD_OK) return r;
        r = move_with_riser(w, ch, velocity, dt, res);
    } else {
        if ((r = tread_character_update(w, ch, velocity, dt, res)) != TREAD_OK) return r;
        if (tread_character_can_walk_stairs(ch, res)) tread_character_walk_stairs(w, ch, res);
        tread_character_stick_to_floor(w, ch, velocity, res);
    }
    ch->snap_suppress_time = tr_maxf(0.0f, ch->snap_suppress_time - dt);
    return TREAD_OK;
}
