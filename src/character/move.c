// SPDX-License-Identifier: MIT
// The move: the public phases (update, walk_stairs, stick_to_floor) and tread_character_move, the reference
// combination of them that most callers use. Each public phase validates its arguments and begins its own per-move
// query context; tread_character_move validates once and runs the phases in one context.
#include "character_internal.h"
#include "contacts.h"
#include "../validate.h"

#include <stddef.h>
#include <string.h>

// The motion a step onto the nose a ride ended against is given (metres): just past TR_MIN_MOVE, the step's roll
// onto the nose does the rest.
#define TR_NOSE_NUDGE (2.0f * TR_MIN_MOVE)

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

// The state zeroed but for its two lists (1.2 kB of the 1.5): every reader of a list stops at its count
// (contacts_kept, impulses_kept), so the reference move, whose state is its own, does not clear them (190
// instructions a move). A state handed to the caller (tread_character_update) is cleared whole first: update_on.
_Static_assert(offsetof(tread_move_state, contacts) > offsetof(tread_move_state, result) &&
                   offsetof(tread_move_state, impulses) > offsetof(tread_move_state, contacts_kept) &&
                   offsetof(tread_move_state, impulses_kept) > offsetof(tread_move_state, impulses),
               "begin_result clears what lies around the two lists: the result first, the lists, then the rest");
static void begin_result(const tread_character *ch, float dt, tread_move_state *st) {
    memset(&st->result, 0, sizeof st->result);
    st->contacts_kept = 0;
    char *rest = (char *)&st->impulses_kept;
    memset(rest, 0, sizeof *st - (size_t)(rest - (char *)st));
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

static ground_carry carry_of(const tr_source *src, const tr_crowd *crowd, const tread_character *ch, float dt) {
    ground_carry c = {ch->position, tread_quat_identity(), false, tr_pushers_reach(src)};
    // Still ground (every static body that was not moved, no conveyor): nothing to carry, and nothing computed.
    if (ch->ground.state != TREAD_GROUND_ON_GROUND || tr_ground_still(src, crowd, TR_WHO(ch->ground))) return c;
    // The body's own motion over the advance, then its surface's over this update (a conveyor).
    tread_vec3 moved;
    tread_quat turned, surface_turn;
    tr_ground_motion(src, crowd, TR_WHO(ch->ground), ch->position, &moved, &turned);
    tr_surface_motion(src, crowd, TR_WHO(ch->ground), moved, dt, &c.to, &surface_turn);
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
    tr_who ground = TR_WHO(ch->ground);
    tr_who_set only_ground;
    tread_query_filter filter = tr_filter_one(ch, &ground, true, &only_ground);
    // Inside its ground (recovery was still pushing it out of a platform), it does not stand on it: carried along,
    // it would stay inside as the platform moves on (a box shooting up at 17 m/s took a character 9 cm inside it
    // along). The carried pose is the one it had on the body before the body moved.
    tread_query_shape bare = tr_body_shape(ch, 0.0f);
    tread_distance_result inside;
    tread_result r = tr_query_closest(q, &bare, tr_center(ch, carry->to), 0.0f, &filter, &inside);
    if (r != TREAD_OK || (inside.found && inside.distance < -TR_CARRY_INSIDE)) return r;
    // Slid along everything, its ground too: slid along another body past the ground's edge, with the ground left
    // out, a sphere riding a platform at 9 m/s was pushed down 2.6 cm into it. (The carried pose is clear of the
    // ground, and the casts leave what they start touching, so the ground does not hold back its own motion.)
    filter = tr_collide_filter(ch);
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
    tr_ground_motion(&q->src, &q->crowd, ground, st->previous_ground.point, &st->previous_ground.point, &unused);
    tr_surface_motion(&q->src, &q->crowd, ground, st->previous_ground.point, st->dt, &st->previous_ground.point, &unused);
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
    float left = 0.0f;
    r = tr_recover(q, ch, ch->position, dt, &crush, &push, &unburied, &left);
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
    st->lifted_out = left > TR_PENETRATION_SLOP && tread_v3_dot(push, s->up) > 0.0f;
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
    // Nor does it settle down while recovery is still lifting it out of something (as the floor phase does not snap
    // it back: st->lifted_out): the ground probe looks past what it starts inside of, and a box in a heightfield
    // edited onto it was lifted 5 cm a frame and settled back onto the floor under the heightfield, for seconds.
    if (!lifted && !st->lifted_out) settle_on_ground(ch, &st->result.position, &st->result.ground);
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
    // Where the riser holds the body it owns its height (it lifts or settles it); where it lets go, stick-to-floor
    // runs as for the other strategies (held_by_riser: only the riser holds).
    if (st->result.held_by_riser) return TREAD_OK;
    // Lost the ground, or still over it but hovering (e.g. after riding over an edge): settle down.
    bool settled = st->result.ground.state == TREAD_GROUND_ON_GROUND && st->result.ground.distance <= TR_MIN_MOVE;
    if (st->previous_ground.state != TREAD_GROUND_ON_GROUND || settled || st->snap_suppressed) return TREAD_OK;
    // While recovery lifts it out of what it is still inside of, a snap down would go back in against the push: its cast
    // looks past what it starts inside of, so it went through a heightfield to the floor below and undid the lift
    // every frame (the soak's 1281599460:459: a capsule held 0.21 m deep for a second at 13 m/s of recovery).
    if (st->lifted_out) return TREAD_OK;
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
    memset(st, 0, sizeof *st); // (the caller's: its lists zeroed past their counts too, as always)
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

// (Where 64-bit integers align to 4 bytes, as on 32-bit x86, it is a few bytes smaller.)
_Static_assert(sizeof(tread_move_cache) <= 608, "tread_move_cache is at most 608 bytes, as types.h says");

tread_move_cache tread_move_cache_default(void) {
    tread_move_cache c;
    memset(&c, 0, sizeof c);
    c.internal_cookie = TR_COOKIE;
    return c;
}

// (What a cache holds only saves work: a move checks that it names the world as it is now before it takes anything.
// Only what could make it read out of bounds is checked here.)
static tread_result check_cache(const tread_move_cache *c) {
    tread_result r = tr_check_cookie(c->internal_cookie, "options.cache", "tread_move_cache", "tread_move_cache_default()");
    if (r != TREAD_OK) return r;
    int count = c->internal_bodies.internal_count;
    if (count < -1 || count > TREAD_MOVE_CACHE_BODIES)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT,
                        "options.cache->internal_bodies.internal_count is %d; expected -1 .. %d (start from tread_move_cache_default())", count,
                        TREAD_MOVE_CACHE_BODIES);
    return TREAD_OK;
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
    return o->cache ? check_cache(o->cache) : TREAD_OK;
}

// ---- a move that changed nothing, again ---------------------------------------------------------------------------
// A single move is a function of the character's bytes, its velocity, dt, the move's filter and the world. One that
// left the character exactly as it found it (standing still; pressed against a wall it cannot climb, trying the
// same step every frame) is kept in the caller's cache with what it reported; the same move again, in the world at
// the same revision, is that report, without running (P1's blocked characters: 13 queries a move). Only a move with
// nothing else to give (no buffer, listener, debug drawing or filter callback: each would see the move run) and on
// tread's own world.

static bool may_repeat(const tr_source *src, const tread_move_options *o) {
    return o && o->cache && src->world && !o->listener && !o->contacts && !o->impulses && !o->debug_draw && !o->filter.callback;
}

static bool repeats(const tread_move_cache *c, uint64_t serial, uint64_t revision, const tread_character *ch, tread_vec3 velocity, float dt,
                    const tread_query_filter *filter) {
    return c->internal_still_world == serial && c->internal_still_revision == revision && c->internal_still_dt == dt &&
           c->internal_still_mask == filter->layer_mask && tread_body_id_equal(c->internal_still_ignore, filter->ignore_body) &&
           memcmp(&c->internal_still_velocity, &velocity, sizeof velocity) == 0 && memcmp(&c->internal_still, ch, sizeof *ch) == 0;
}

// What a move can change of its character (the rest, its settings, only tread_character_set_settings changes).
typedef struct move_state_of {
    tread_vec3 position, velocity;
    tread_ground ground;
    float snap_suppress_time;
} move_state_of;

static move_state_of state_of(const tread_character *ch) { return (move_state_of){ch->position, ch->velocity, ch->ground, ch->snap_suppress_time}; }

static bool unchanged(const move_state_of *before, const tread_character *after) {
    return memcmp(&before->position, &after->position, sizeof after->position) == 0 && // (most often differs: first)
           memcmp(&before->velocity, &after->velocity, sizeof after->velocity) == 0 &&
           memcmp(&before->ground, &after->ground, sizeof after->ground) == 0 &&
           memcmp(&before->snap_suppress_time, &after->snap_suppress_time, sizeof after->snap_suppress_time) == 0;
}

static void keep_if_still(tread_move_cache *c, uint64_t serial, uint64_t revision, const move_state_of *before, const tread_character *after,
                          tread_vec3 velocity, float dt, const tread_query_filter *filter, const tread_move_result *res) {
    if (!unchanged(before, after)) return; // (a move that changed its character is not met again)
    c->internal_still_world = serial;
    c->internal_still_revision = revision;
    c->internal_still = *after;
    c->internal_still_velocity = velocity;
    c->internal_still_dt = dt;
    c->internal_still_mask = filter->layer_mask;
    c->internal_still_ignore = filter->ignore_body;
    c->internal_still_result = *res;
}

// The move through the cache's kept move (may_repeat held; `place`: a single move's).
static tread_result move_kept(const tr_source *src, const tr_batch_place *place, tread_character *ch, tread_vec3 velocity, float dt,
                              const tread_move_options *options, tread_move_result *res) {
    uint64_t serial, revision;
    tr_world_revision(src->world, &serial, &revision);
    if (repeats(options->cache, serial, revision, ch, velocity, dt, &options->filter)) {
        *res = options->cache->internal_still_result;
        return TREAD_OK;
    }
    move_state_of before = state_of(ch);
    tread_move_state st;
    tread_result r = tr_character_move_among(src, place, ch, velocity, dt, options, options->memory, NULL, &st);
    if (r != TREAD_OK) return r;
    *res = st.result;
    keep_if_still(options->cache, serial, revision, &before, ch, velocity, dt, &options->filter, res);
    return TREAD_OK;
}

static tread_result move_with_on(const tr_source *src, tread_character *ch, tread_vec3 velocity, float dt, const tread_move_options *options,
                                 tread_move_result *res) {
    tread_result r = tr_check_move_args(src, ch, velocity, dt, res, "result");
    if (r != TREAD_OK || (r = tr_check_move_options(options)) != TREAD_OK) return r;
    tr_batch_place none = {{NULL, NULL, NULL, NULL, 0, {0u, 0u}}, 0, options && options->cache ? &options->cache->internal_bodies : NULL};
    if (may_repeat(src, options)) return move_kept(src, &none, ch, velocity, dt, options, res);
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
    // (Only a watched move needs the later phases' reach: release builds skip the lengths.)
    tr_reach_inputs later = {0};
    if (watch) later = later_inputs(st);
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

// A move filter that lets every body through (the default's: every layer, none ignored, no callback; its
// include_sensors is the queries' own to decide) is left out, not wrapped around every query of the move: the same
// answers, without a callback per body met (345 instructions a move on P1's field, every batch move included).
static bool lets_all_through(const tread_query_filter *f) {
    return f->layer_mask == 0xFFFFFFFFu && tread_body_id_equal(f->ignore_body, tread_body_id_null()) && !f->callback;
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
    ground_carry carry = carry_of(src, &place->crowd, ch, dt);
    tr_reach_inputs in = reach_inputs(ch, carry.to, carry.pushers, velocity, dt);
    tr_move_query q;
    tr_move_reach reach;
    tr_move_reaches(ch, &in, tr_strategy_of(ch->settings.step_strategy)->hold && ch->settings.max_step_height > 0.0f, &reach);
    tread_result r = tr_move_query_begin_on(&q, src, ch, tr_center(ch, ch->position), reach.move);
    if (r != TREAD_OK) return r;
    tr_verdicts verdicts;
    verdicts.count = 0;
    if (options) {
        q.filter = lets_all_through(&options->filter) ? NULL : &options->filter;
        q.listener = options->listener;
        q.verdicts = options->listener && options->listener->validate ? &verdicts : NULL;
        q.contacts = options->contacts;
        q.contact_capacity = options->contact_capacity;
        q.draw = options->debug_draw;
    }
    // The candidates: what the update's usual queries reach (the slide, the probes), and what a step or a snap
    // reaches besides when the move makes one; not the unbury search's far reach (it walks the tree when it runs).
    tr_later_candidates later;
    tr_move_query_gather(&q, tr_center(ch, ch->position), reach.usual, place->bodies, reach.later, &later);
    tr_move_query_set_crowd(&q, &place->crowd);
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
    if (among) tr_move_query_set_crowd(&q, &among->crowd);
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
