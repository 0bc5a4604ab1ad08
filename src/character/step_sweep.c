// SPDX-License-Identifier: MIT
// Step up by sweeps (Godot's stair stepping in its final form, as Jolt's WalkStairs): sweep up by the max step
// (sliding under sloped ceilings), forward by the blocked motion (sliding along walls, never climbing), then down
// onto the tread. Rejected when nothing was gained, when the landing is too steep or too shallow, or when the body
// does not fit (the up or forward sweep is stopped). The max-step rule is the shared one (strategies.c).
#include "character_internal.h"

#include <float.h>
#include <string.h>

// The up sweep goes this much past max step (metres): surfaces nearer than the touch tolerance count as touching.
#define TR_STEP_CLEARANCE (2.0f * TR_TOUCH_TOLERANCE)
// Ulps of the feet's largest coordinate that the step's sideways reach may exceed its motion by (rounding).
#define TR_POSITION_ULPS 4.0f

tread_result tr_step_sweep(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out, bool *out_found) {
    const tread_character_settings *s = &ch->settings;
    const tread_vec3 up = s->up, feet = st->blocked_position, motion = st->blocked_motion;
    *out_found = false;
    if (s->max_step_height <= 0.0f || tread_v3_length(motion) <= TR_MIN_MOVE) return TREAD_OK;

    // Up by max step from the surface stood on (the feet may be perched below it), sliding under sloped ceilings.
    tr_slide_result raised;
    // (And past the skin and the touch tolerance: a flat bottom, grown by the skin, raised exactly to a tread's
    // height would graze its nose.)
    float reach = s->max_step_height + tr_perch_depth(ch, st, feet) + s->skin + TR_STEP_CLEARANCE;
    tread_result r = tr_slide(q, ch, feet, tread_v3_scale(up, reach), TR_SLIDE_AIR, NULL, &raised);
    if (r != TREAD_OK) return r;
    float lift = tread_v3_dot(tread_v3_sub(raised.feet, feet), up);
    if (lift <= TR_MIN_STEP_RISE) return TREAD_OK; // a ceiling right above: the body does not fit

    // Forward, sliding along walls but never up anything. What the up sweep slid back (under a nosing, along a
    // sloped ceiling) is made up first, so the step still lands where the motion leads.
    tr_slide_result ahead;
    tread_vec3 forward = tread_v3_add(motion, tread_v3_reject(tread_v3_sub(feet, raised.feet), up));
    if ((r = tr_slide(q, ch, raised.feet, forward, TR_SLIDE_STEP_FORWARD, NULL, &ahead)) != TREAD_OK) return r;
    tread_vec3 moved = tread_v3_reject(tread_v3_sub(ahead.feet, raised.feet), up);
    if (tread_v3_length(moved) <= TR_MIN_MOVE) return TREAD_OK;

    // Down onto the tread, as far as we went up (and the clearance: a nose the body touched where it began, ahead of
    // it, is met at the end).
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = 0, support = -1;
    tread_vec3 above;
    float down = lift + TR_STEP_CLEARANCE;
    if ((r = tr_probe_landing(q, ch, ahead.feet, down, motion, hits, TR_GROUND_HITS, &count, &support, &above)) != TREAD_OK) return r;
    if (count == 0) return TREAD_OK; // lower ground ahead: stepping down is stick-to-floor's job
    if (support < 0 && (r = tr_land_past_sloped_riser(q, ch, ahead.feet, down, motion, hits, &count, &support, &above)) != TREAD_OK) return r;
    if (support < 0) return TREAD_OK; // the landing is too steep
    if ((r = tr_land_within_max_step(q, ch, st, feet, ahead.feet, down, motion, hits, &count, &support, &above)) != TREAD_OK) return r;
    const tread_shape_hit landing = hits[support];
    tread_vec3 landed = tread_v3_mad(above, -hits[0].fraction * down, up);
    if (tread_v3_dot(tread_v3_sub(landed, feet), up) <= TR_MIN_STEP_RISE) return TREAD_OK;
    // A step goes no farther sideways than the motion it replaces, and what the landing added (a roll onto the nose:
    // across it at most tr_roll_reach, or the walker's way as far as the roll took it; the way past a sloped riser):
    // the up sweep slid along a sloped ceiling and the forward sweep, stopped by a wall, could not make it up (the
    // soak's sphere stepped 0.25 m for 8 mm of input). (Give or take the rounding of the positions: 8 mm per ulp at
    // the coordinate limit.)
    tread_vec3 far = tread_v3_abs(feet);
    float rounding = TR_POSITION_ULPS * FLT_EPSILON * tr_maxf(far.x, tr_maxf(far.y, far.z));
    float sideways = tread_v3_length(tread_v3_reject(tread_v3_sub(landed, feet), up));
    float rolled = tread_v3_length(tread_v3_reject(tread_v3_sub(above, ahead.feet), up));
    if (sideways > tread_v3_length(motion) + tr_maxf(tr_roll_reach(ch), rolled) + TR_STEP_HEIGHT_SLACK + rounding) return TREAD_OK;
    bool ok = false;
    // Along the motion the character wants, not the sweep's (deflected along the risers, it could run along a tread).
    if ((r = tr_tread_is_deep_enough(q, ch, landing.point, tread_v3_normalize(motion), &ok)) != TREAD_OK || !ok) return r;

    out->base = feet;
    out->feet = landed;
    out->support = landing.point;
    out->has_landing = true;
    out->landing = landing;
    *out_found = true;
    return TREAD_OK;
}
