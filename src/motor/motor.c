// SPDX-License-Identifier: MIT
// The movement model: wish in, velocity out (Unity DOTS's controller keeps input apart from movement). Ground and air
// acceleration, exponential friction, max speed and terminal fall speed (Godot's); jumps with the aligned-speed
// rule, jump phases, air and wall jumps with an upward bias (Catlike Coding); Unity DOTS's jump strength with drag,
// restated per second; coyote time, jump buffering and a jump cut on early release.
//
// Frame-rate independence: every per-step law here (constant acceleration toward a target, e^(-k t) friction,
// constant gravity up to a terminal speed, linear drag) is integrated exactly over the step. The state keeps the
// exact end-of-step velocity; the controller is handed the step's mean velocity (displacement / dt), so positions
// at frame ends lie on the same continuous trajectory for any dt.
#include "motor_internal.h"
#include "../validate.h"
#include "../character/character_internal.h" // tr_clip_steep: the controller's rule for steep faces

#include <string.h>

tread_motor_settings tread_motor_settings_default(void) {
    tread_motor_settings s;
    memset(&s, 0, sizeof s);
    s.max_speed = 6.0f;
    s.ground_acceleration = 60.0f;
    s.air_acceleration = 15.0f;
    s.friction = 10.0f;
    s.gravity = 9.81f;
    s.terminal_speed = 50.0f;
    s.jump_mode = TREAD_JUMP_HEIGHT;
    s.jump_height = 1.2f;
    s.jump_strength = 9.0f;
    s.jump_drag = 12.0f;
    s.jump_cut = 0.5f;
    s.coyote_time = 0.1f;
    s.jump_buffer_time = 0.1f;
    s.max_air_jumps = 0;
    s.wall_jump = true;
    s.jump_up_bias = 1.0f;
    s.jump_snap_suppress_time = 0.1f;
    s.crouch_height = 1.0f;
    s.crouch_speed_scale = 0.5f;
    s.leave_ground = TREAD_LEAVE_ADD_VELOCITY;
    s.internal_cookie = TR_COOKIE;
    return s;
}

tread_motor_input tread_motor_input_default(void) {
    tread_motor_input in;
    memset(&in, 0, sizeof in);
    in.direction = tread_v3_zero();
    in.speed = -1.0f;
    in.magnitude = 1.0f;
    in.internal_cookie = TR_COOKIE;
    return in;
}

tread_motor_state tread_motor_state_default(void) {
    tread_motor_state st;
    memset(&st, 0, sizeof st);
    st.velocity = tread_v3_zero();
    st.jump_velocity = tread_v3_zero();
    st.move_velocity = tread_v3_zero();
    st.time_since_grounded = TR_MOTOR_LONG_AGO; // not on ground until the controller says so: no coyote jump
    st.last_jump = TREAD_JUMP_NONE;
    st.internal_cookie = TR_COOKIE;
    return st;
}

// ---- validation ------------------------------------------------------------------------------------------------

static tread_result validate_settings(const tread_motor_settings *s) {
    tread_result r;
    if ((r = tr_check_range("motor settings.max_speed", s->max_speed, 0.0f, TR_MOTOR_MAX_RATE, "m/s")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.ground_acceleration", s->ground_acceleration, 0.0f, TR_MOTOR_MAX_RATE, "m/s^2")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.air_acceleration", s->air_acceleration, 0.0f, TR_MOTOR_MAX_RATE, "m/s^2")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.friction", s->friction, 0.0f, TR_MOTOR_MAX_RATE, "1/s")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.gravity", s->gravity, 0.0f, TR_MOTOR_MAX_RATE, "m/s^2")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.terminal_speed", s->terminal_speed, 0.0f, TR_MOTOR_MAX_RATE, "m/s")) != TREAD_OK) return r;
    if (!(s->terminal_speed > 0.0f))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "motor settings.terminal_speed is %g m/s; expected > 0", (double)s->terminal_speed);
    if (s->jump_mode != TREAD_JUMP_HEIGHT && s->jump_mode != TREAD_JUMP_STRENGTH_DRAG)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "motor settings.jump_mode is %d; expected TREAD_JUMP_HEIGHT or TREAD_JUMP_STRENGTH_DRAG",
                        (int)s->jump_mode);
    if ((r = tr_check_range("motor settings.jump_height", s->jump_height, 0.0f, 1000.0f, "m")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.jump_strength", s->jump_strength, 0.0f, TR_MOTOR_MAX_RATE, "m/s")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.jump_drag", s->jump_drag, 0.0f, TR_MOTOR_MAX_RATE, "m/s^2")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.jump_cut", s->jump_cut, 0.0f, 1.0f, "")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.coyote_time", s->coyote_time, 0.0f, 3600.0f, "s")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.jump_buffer_time", s->jump_buffer_time, 0.0f, 3600.0f, "s")) != TREAD_OK) return r;
    if (s->max_air_jumps < 0 || s->max_air_jumps > 100)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "motor settings.max_air_jumps is %d; expected 0 .. 100", s->max_air_jumps);
    if ((r = tr_check_range("motor settings.jump_up_bias", s->jump_up_bias, 0.0f, 1000.0f, "")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.jump_snap_suppress_time", s->jump_snap_suppress_time, 0.0f, 3600.0f, "s")) != TREAD_OK) return r;
    if ((r = tr_check_range("motor settings.crouch_height", s->crouch_height, 0.0f, 1000.0f, "m")) != TREAD_OK) return r;
    if (!(s->crouch_height > 0.0f))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "motor settings.crouch_height is %g m; expected > 0", (double)s->crouch_height);
    if ((r = tr_check_range("motor settings.crouch_speed_scale", s->crouch_speed_scale, 0.0f, 1.0f, "")) != TREAD_OK) return r;
    if (s->leave_ground != TREAD_LEAVE_ADD_VELOCITY && s->leave_ground != TREAD_LEAVE_ADD_UPWARD_VELOCITY && s->leave_ground != TREAD_LEAVE_DO_NOTHING)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT,
                        "motor settings.leave_ground is %d; expected TREAD_LEAVE_ADD_VELOCITY, TREAD_LEAVE_ADD_UPWARD_VELOCITY or "
                        "TREAD_LEAVE_DO_NOTHING",
                        (int)s->leave_ground);
    return TREAD_OK;
}

static tread_result validate_input(const tread_motor_input *in) {
    if (!tread_v3_is_finite(in->direction))
        return tr_error(TREAD_ERR_NOT_FINITE, "input.direction is (%g, %g, %g); expected finite numbers", (double)in->direction.x,
                        (double)in->direction.y, (double)in->direction.z);
    if (!isfinite(in->speed)) return tr_error(TREAD_ERR_NOT_FINITE, "input.speed is %g; expected a finite number", (double)in->speed);
    if (!isfinite(in->magnitude))
        return tr_error(TREAD_ERR_NOT_FINITE, "input.magnitude is %g; expected a finite number", (double)in->magnitude);
    if (in->speed < 0.0f && (in->magnitude < 0.0f || in->magnitude > 1.0f))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "input.magnitude is %g; expected 0 .. 1 (input.speed < 0 selects it)",
                        (double)in->magnitude);
    return TREAD_OK;
}

static tread_result validate_state(const tread_motor_state *st) {
    if (!tread_v3_is_finite(st->velocity) || !tread_v3_is_finite(st->jump_velocity) || !tread_v3_is_finite(st->ground_velocity) ||
        !isfinite(st->time_since_grounded) ||
        !isfinite(st->jump_buffer))
        return tr_error(TREAD_ERR_NOT_FINITE, "motor state holds a non-finite velocity or timer; reset it with tread_motor_state_default()");
    return TREAD_OK;
}

// ---- exact step integrals ----------------------------------------------------------------------------------------

// Constant acceleration `a` from v0 toward `target`, holding it once reached: the velocity at dt and the mean
// velocity over the step.
static void approach(tread_vec3 v0, tread_vec3 target, float a, float dt, tread_vec3 *v1, tread_vec3 *mean) {
    tread_vec3 d = tread_v3_sub(target, v0);
    float gap = tread_v3_length(d);
    if (gap == 0.0f || a == 0.0f) {
        *v1 = v0;
        *mean = v0;
        return;
    }
    if (gap <= a * dt) {
        // Reached at tau = gap / a: the ramp's mean for tau, then the target for the rest.
        float tau = gap / a;
        tread_vec3 ramp = tread_v3_scale(tread_v3_add(v0, target), 0.5f * tau);
        *mean = tread_v3_scale(tread_v3_mad(ramp, dt - tau, target), 1.0f / dt);
        *v1 = target;
        return;
    }
    *v1 = tread_v3_mad(v0, a * dt / gap, d);
    *mean = tread_v3_scale(tread_v3_add(v0, *v1), 0.5f);
}

// Exponential friction v(t) = v0 e^(-k t), on the deterministic tread_exp.
static void decay(tread_vec3 v0, float k, float dt, tread_vec3 *v1, tread_vec3 *mean) {
    float kdt = k * dt;
    float f = tread_exp(-kdt);
    float m = kdt < TR_MOTOR_SMALL_DECAY ? 1.0f - 0.5f * kdt : (1.0f - f) / kdt;
    *v1 = tread_v3_scale(v0, f);
    *mean = tread_v3_scale(v0, m);
}

// Speed along up under gravity g, never falling faster than `terminal`: end speed and mean speed over dt.
static void fall(float u0, float g, float terminal, float dt, float *u1, float *mean) {
    if (u0 <= -terminal) {
        *u1 = -terminal;
        *mean = -terminal;
        return;
    }
    float reach = g > 0.0f ? (u0 + terminal) / g : dt; // time until the terminal speed
    if (reach >= dt) {
        *u1 = u0 - g * dt;
        *mean = u0 - 0.5f * g * dt;
        return;
    }
    *u1 = -terminal;
    *mean = ((u0 - 0.5f * g * reach) * reach - terminal * (dt - reach)) / dt;
}

// Unity DOTS's jump velocity worn down by `drag` (m/s^2) in length, never reversing.
static void drag_jump(tread_vec3 j0, float drag, float dt, tread_vec3 *j1, tread_vec3 *mean) {
    float speed = tread_v3_length(j0);
    if (speed == 0.0f) {
        *j1 = j0;
        *mean = j0;
        return;
    }
    tread_vec3 dir = tread_v3_scale(j0, 1.0f / speed);
    if (speed > drag * dt) {
        *j1 = tread_v3_scale(dir, speed - drag * dt);
        *mean = tread_v3_scale(dir, speed - 0.5f * drag * dt);
        return;
    }
    float tau = speed / drag; // worn out inside this step
    *j1 = tread_v3_zero();
    *mean = tread_v3_scale(dir, 0.5f * speed * tau / dt);
}

// ---- the update ----------------------------------------------------------------------------------------------------

// Remove the part of v that runs into n.
static tread_vec3 clip(tread_vec3 v, tread_vec3 n) {
    float into = tread_v3_dot(v, n);
    return into < 0.0f ? tread_v3_mad(v, -into, n) : v;
}

// What the motor reads of the last move: its result (NULL: none, or forgotten after a teleport) and the contacts it
// met while moving (at most TREAD_MAX_MOVE_CONTACTS of them: the motor's cost per update stays bounded).
typedef struct last_move {
    const tread_move_result *result;
    const tread_contact *contacts;
    int count;
} last_move;

// The contacts the motor reads of the last move's buffer (`capacity` entries): those it met while moving, which come
// first, at most TREAD_MAX_MOVE_CONTACTS.
static tread_result check_last_move(const tread_move_result *result, const tread_contact *contacts, int capacity, int *out_count) {
    *out_count = 0;
    if (capacity < 0) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "last_contact_capacity is %d; expected >= 0", capacity);
    if (capacity > 0 && !contacts) return tr_error(TREAD_ERR_NULL_ARGUMENT, "last_contacts is NULL with last_contact_capacity %d", capacity);
    if (!result || !contacts) return TREAD_OK;
    if (result->moving_contact_count < 0)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "last_move->moving_contact_count is %d; expected >= 0", result->moving_contact_count);
    int count = result->moving_contact_count < capacity ? result->moving_contact_count : capacity;
    if (count > TREAD_MAX_MOVE_CONTACTS) count = TREAD_MAX_MOVE_CONTACTS;
    for (int i = 0; i < count; ++i)
        if (!tread_v3_is_finite(contacts[i].normal)) return tr_error(TREAD_ERR_NOT_FINITE, "last_contacts[%d].normal is not finite", i);
    *out_count = count;
    return TREAD_OK;
}

// What the controller did to last step's velocity: walls and ceilings it met take the motion into them away
// (the controller's own post-move velocity is for the mean velocity it was handed, not the motor's exact one).
// Walkable contacts are the ground's business. A step up met its riser and climbed it: nothing to take away.
static void apply_contacts(tread_motor_state *st, const tread_character *ch, const last_move *last) {
    if (!last->result || last->result->step_up > 0.0f) return;
    tread_vec3 up = ch->settings.up;
    bool was_grounded = last->result->started_on_ground;
    for (int i = 0; i < last->count; ++i) {
        tread_vec3 n = last->contacts[i].normal;
        float n_up = tread_v3_dot(n, up);
        if (n_up >= ch->max_slope_cos) continue;
        // On ground the controller treats steep faces as vertical walls (no height from sliding up them); in the
        // air it slides down them but never climbs them by pushing in (tr_clip_steep), and so does the motor.
        if (was_grounded && n_up > 0.0f) n = tread_v3_normalize(tread_v3_reject(n, up));
        if (tread_v3_length_sq(n) == 0.0f) continue;
        if (!was_grounded && n_up > 0.0f) {
            st->velocity = tr_clip_steep(st->velocity, n, up);
            st->jump_velocity = tr_clip_steep(st->jump_velocity, n, up);
            continue;
        }
        st->velocity = clip(st->velocity, n);
        st->jump_velocity = clip(st->jump_velocity, n);
    }
}

// Sum of the steep (not walkable, not ceiling) contact normals of the last move, normalized; zero if none.
static tread_vec3 steep_normal(const tread_character *ch, const last_move *last) {
    tread_vec3 sum = tread_v3_zero();
    if (!last->result) return sum;
    tread_vec3 up = ch->settings.up;
    for (int i = 0; i < last->count; ++i) {
        float n_up = tread_v3_dot(last->contacts[i].normal, up);
        if (n_up < ch->max_slope_cos && n_up > TR_MOTOR_STEEP_MIN_UP) sum = tread_v3_add(sum, last->contacts[i].normal);
    }
    return tread_v3_normalize(sum);
}

// The jump, if one is possible now (Catlike Coding's order: ground, then steep contact, then air jump).
static tread_jump_kind try_jump(tread_motor_state *st, const tread_motor_settings *s, const tread_character *ch,
                                const last_move *last, bool on_ground) {
    tread_vec3 up = ch->settings.up;
    tread_vec3 dir;
    tread_jump_kind kind;
    tread_vec3 wall = tread_v3_zero();
    if (!on_ground && s->wall_jump) wall = steep_normal(ch, last);
    if (on_ground || (st->jump_phase == 0 && st->time_since_grounded <= s->coyote_time)) {
        // Coyote time jumps straight up: the ground that was left no longer says anything.
        dir = on_ground ? tread_v3_normalize(tread_v3_mad(ch->ground.normal, s->jump_up_bias, up)) : up;
        kind = TREAD_JUMP_GROUND;
    } else if (tread_v3_length_sq(wall) > 0.0f) {
        dir = tread_v3_normalize(tread_v3_mad(wall, s->jump_up_bias, up));
        st->jump_phase = 0; // a wall jump starts a new sequence of air jumps (Catlike Coding)
        kind = TREAD_JUMP_WALL;
    } else if (s->max_air_jumps > 0 && st->jump_phase <= s->max_air_jumps) {
        // Falling off a ledge skips the ground jump's phase, so it grants no extra air jump (Catlike Coding).
        if (st->jump_phase == 0) st->jump_phase = 1;
        dir = up;
        kind = TREAD_JUMP_AIR;
    } else {
        return TREAD_JUMP_NONE;
    }
    if (tread_v3_length_sq(dir) == 0.0f) dir = up;
    st->jump_phase += 1;
    // Off the ground (coyote, air and wall jumps) a jump first cancels any fall, so it always lifts (Catlike Coding adds the speed to a fall, which makes a late air jump a mere slowdown).
    if (!on_ground) {
        float fall_speed = tread_v3_dot(st->velocity, up);
        if (fall_speed < 0.0f) st->velocity = tread_v3_mad(st->velocity, -fall_speed, up);
    }
    if (s->jump_mode == TREAD_JUMP_HEIGHT) {
        // Catlike Coding: take-off speed sqrt(2 g h); speed already along the jump counts toward it.
        float speed = sqrtf(2.0f * s->gravity * s->jump_height);
        float aligned = tread_v3_dot(st->velocity, dir);
        if (aligned > 0.0f) speed = tr_maxf(speed - aligned, 0.0f);
        st->velocity = tread_v3_mad(st->velocity, speed, dir);
    } else {
        // Unity DOTS: a separate burst that drag wears down.
        st->jump_velocity = tread_v3_scale(dir, s->jump_strength);
    }
    return kind;
}

// What leaving a ground moving at `ground_v` adds to the velocity (tread_leave_ground).
static tread_vec3 kept_on_leave(const tread_motor_settings *s, tread_vec3 ground_v, tread_vec3 up) {
    switch (s->leave_ground) {
    case TREAD_LEAVE_ADD_VELOCITY: return ground_v;
    case TREAD_LEAVE_ADD_UPWARD_VELOCITY: return tread_v3_scale(up, tr_maxf(0.0f, tread_v3_dot(ground_v, up)));
    default: return tread_v3_zero();
    }
}

tread_result tread_motor_update(tread_motor_state *state, const tread_motor_settings *s, const tread_motor_input *in,
                                const tread_character *ch, const tread_move_result *last_result, const tread_contact *last_contacts,
                                int last_contact_capacity, float dt, tread_vec3 *out_velocity) {
    if (!state || !s || !in || !ch || !out_velocity)
        return tr_error(TREAD_ERR_NULL_ARGUMENT, "state, settings, input, character or out_velocity is NULL");
    if (!isfinite(dt)) return tr_error(TREAD_ERR_NOT_FINITE, "dt is %g; expected a finite number", (double)dt);
    if (!(dt > 0.0f) || dt > 1.0f) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "dt is %g s; expected (0, 1]", (double)dt);
    tread_result r;
    if ((r = tr_check_cookie(state->internal_cookie, "state", "tread_motor_state", "tread_motor_state_default()")) != TREAD_OK ||
        (r = tr_check_cookie(s->internal_cookie, "settings", "tread_motor_settings", "tread_motor_settings_default()")) != TREAD_OK ||
        (r = tr_check_cookie(in->internal_cookie, "input", "tread_motor_input", "tread_motor_input_default()")) != TREAD_OK ||
        (r = tr_check_character(ch, "character")) != TREAD_OK)
        return r;
    last_move last = {last_result, last_contacts, 0};
    if ((r = validate_settings(s)) != TREAD_OK || (r = validate_input(in)) != TREAD_OK || (r = validate_state(state)) != TREAD_OK ||
        (r = check_last_move(last_result, last_contacts, last_contact_capacity, &last.count)) != TREAD_OK)
        return r;

    tread_motor_state st = *state; // worked on a copy: the caller's state changes only on success
    tread_vec3 up = ch->settings.up;
    st.jumped = false;
    st.last_jump = TREAD_JUMP_NONE;

    // 0. Teleported since its last move (the caller put it where the move did not leave it): the ground it left says
    // nothing about where it is now. No coyote jump from there, and its velocity is no longer relative to it.
    bool teleported = last.result && (last.result->position.x != ch->position.x || last.result->position.y != ch->position.y ||
                                      last.result->position.z != ch->position.z);
    if (teleported) {
        st.time_since_grounded = TR_MOTOR_LONG_AGO;
        st.grounded = false;
        st.ground_velocity = tread_v3_zero();
        last = (last_move){NULL, NULL, 0}; // its contacts were met elsewhere
    }

    // 1. Take away what walls and ceilings stopped during the last move.
    apply_contacts(&st, ch, &last);

    // 2. Ground. Right after a jump the controller may still report ground below; while the jump still rises
    // away from it, that is not a landing (Catlike Coding's "steps since last jump").
    bool on_ground = ch->ground.state == TREAD_GROUND_ON_GROUND;
    float rise = tread_v3_dot(tread_v3_add(st.velocity, st.jump_velocity), up);
    if (on_ground && st.rising && rise > 0.0f) on_ground = false;
    // The frame the velocity is in: the ground's while on it, the world's in the air. Leaving keeps what
    // leave_ground says of the ground's velocity; landing takes the new ground's away (the world velocity goes on).
    tread_vec3 ground_v = on_ground ? ch->ground.velocity : tread_v3_zero();
    if (!on_ground && st.grounded) st.velocity = tread_v3_add(st.velocity, kept_on_leave(s, st.ground_velocity, up));
    if (on_ground && !st.grounded) st.velocity = tread_v3_sub(st.velocity, ground_v);
    st.ground_velocity = ground_v;
    if (on_ground) {
        st.time_since_grounded = 0.0f;
        st.jump_phase = 0;
        st.rising = false;
        st.jump_velocity = tread_v3_zero();
        st.velocity = tread_v3_reject(st.velocity, up); // held by the ground, which carries it
    } else if (st.rising && rise <= 0.0f) {
        st.rising = false; // the apex: the jump is over
    }

    // 3. Variable jump height: letting go while rising cuts the rise, once per jump.
    if (st.rising && !in->jump && !st.jump_cut_done) {
        float u = tread_v3_dot(st.velocity, up);
        if (u > 0.0f) st.velocity = tread_v3_mad(st.velocity, (s->jump_cut - 1.0f) * u, up);
        st.jump_velocity = tread_v3_scale(st.jump_velocity, s->jump_cut);
        st.jump_cut_done = true;
    }

    // 4. Jumps: a press is buffered for jump_buffer_time, and fires as soon as a jump is possible.
    bool pressed = in->jump && !st.jump_held;
    if (pressed) st.jump_buffer = s->jump_buffer_time;
    bool ground_at_start = on_ground;
    if (pressed || st.jump_buffer > 0.0f) {
        tread_jump_kind kind = try_jump(&st, s, ch, &last, on_ground);
        if (kind != TREAD_JUMP_NONE) {
            st.jumped = true;
            st.last_jump = kind;
            st.rising = true;
            st.jump_cut_done = false;
            st.jump_buffer = 0.0f;
            on_ground = false;
        }
    }

    // 5. Horizontal: toward the wish (relative to the ground under the feet), or friction without one.
    tread_vec3 h0 = tread_v3_reject(st.velocity, up);
    tread_vec3 wish_dir = tread_v3_normalize(tread_v3_reject(in->direction, up));
    float wish_speed = in->speed >= 0.0f ? in->speed : in->magnitude * s->max_speed;
    wish_speed = tr_minf(wish_speed, s->max_speed);
    bool crouched = ch->settings.shape != TREAD_QUERY_SPHERE && ch->settings.height <= s->crouch_height + TR_MOTOR_CROUCH_TOLERANCE;
    if (crouched) wish_speed *= s->crouch_speed_scale;
    tread_vec3 h1, h_mean;
    // A jump leaves the ground at the start of the step, so the whole step is air movement: the same at any dt.
    if (wish_speed > 0.0f && tread_v3_length_sq(wish_dir) > 0.0f) {
        approach(h0, tread_v3_scale(wish_dir, wish_speed), on_ground ? s->ground_acceleration : s->air_acceleration, dt, &h1, &h_mean);
    } else if (on_ground) {
        decay(h0, s->friction, dt, &h1, &h_mean);
        if (tread_v3_length(h1) < TR_MOTOR_REST_SPEED) h1 = tread_v3_zero();
    } else {
        h1 = h0; // no air friction: momentum carries
        h_mean = h0;
    }
    // Max speed clamp (as in Godot's), on the speed relative to the ground.
    float h1_speed = tread_v3_length(h1);
    if (h1_speed > s->max_speed) h1 = tread_v3_scale(h1, s->max_speed / h1_speed);
    float mean_speed = tread_v3_length(h_mean);
    if (mean_speed > s->max_speed) h_mean = tread_v3_scale(h_mean, s->max_speed / mean_speed);

    // 6. Along up: held by the ground, or falling under gravity to the terminal speed; plus the drag jump.
    float u0 = tread_v3_dot(st.velocity, up), u1 = u0, u_mean = u0;
    if (!on_ground) fall(u0, s->gravity, s->terminal_speed, dt, &u1, &u_mean);
    tread_vec3 j1 = st.jump_velocity, j_mean = st.jump_velocity;
    drag_jump(st.jump_velocity, s->jump_drag, dt, &j1, &j_mean);

    tread_vec3 out = tread_v3_add(tread_v3_mad(h_mean, u_mean, up), j_mean);
    st.velocity = tread_v3_mad(h1, u1, up);
    st.jump_velocity = j1;
    st.move_velocity = out;
    st.grounded = ground_at_start;
    st.jump_held = in->jump;
    // Read next update: time since the last update that started on ground (capped: "long ago" stays finite).
    st.time_since_grounded = tr_minf(st.time_since_grounded + dt, TR_MOTOR_LONG_AGO);
    if (st.jump_buffer > 0.0f) st.jump_buffer = tr_maxf(0.0f, st.jump_buffer - dt);
    if (!tread_v3_is_finite(out) || !tread_v3_is_finite(st.velocity))
        return tr_error(TREAD_ERR_NOT_FINITE, "the motor's velocity overflowed (settings too large for dt = %g s)", (double)dt);
    *state = st;
    *out_velocity = out;
    return TREAD_OK;
}
