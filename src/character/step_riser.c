// SPDX-License-Identifier: MIT
// The riser (Staxel's, for voxel worlds): a slimmer volume below and ahead of the main one. While there is walkable
// ground within riser.depth below the body the riser is in the ground and holds it (gravity off: the caller owns
// gravity, so the move reports held_by_riser and the update cancels downward velocity). Where something stops the
// body, the riser finds how much of it is left to climb by a binary search — halving, at most 6 probes, stopping
// below a trivial length — and the body rises by at most Staxel's budget per frame, proportional to how far it
// wanted to move: it climbs anything lower than max step, smoothly, and forgives rough voxel geometry. Staxel's
// riser hovers up to riser.depth above the ground (it rises while its bottom is still in the ground); tread's
// climbs only what stops the body and otherwise settles onto the ground it holds, so the feet rest where the
// other strategies' do. What the riser cannot clear by max step is a wall, not a step, and what it lands on must
// be walkable ground the body fits on, so it never ratchets up walls or steep faces.
#include "character_internal.h"

#define TR_RISER_ITERATIONS 6       // Staxel's max_riser_iterations
#define TR_RISER_TRIVIAL 1.0e-4f    // metres: Staxel's trivial_length
// A lift ends this far above the height that clears the tread (metres): surfaces nearer than the touch tolerance
// count as touching, and the slide that follows would catch the nose it just cleared.
#define TR_RISER_CLEARANCE (2.0f * TR_TOUCH_TOLERANCE)

// Walkable ground within riser.depth below the body: the riser is in the ground and holds the body. *out_hit is
// the support and *out_gap the distance down to the nearest surface (0 when resting on it).
static tread_result ground_below(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, bool *out_holds,
                                 tread_shape_hit *out_hit, float *out_gap) {
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = 0, support = -1;
    float depth = ch->settings.riser.depth;
    *out_holds = false;
    tread_result r = tr_probe_down(q, ch, feet, depth, hits, TR_GROUND_HITS, &count);
    if (r == TREAD_OK && count > 0) r = tr_pick_support(q, ch, feet, hits, count, depth, &support);
    // The riser is in the ground wherever the body's bottom meets a walkable face, a nose it rolls over included
    // (Staxel's riser is a flat-bottomed volume under the body: a round bottom's walkable cap does not limit it).
    if (r == TREAD_OK && count > 0 && support < 0) r = tr_pick_perch(q, ch, feet, hits, count, depth, &support);
    if (r != TREAD_OK || support < 0) return r;
    *out_holds = true;
    *out_hit = hits[support];
    *out_gap = hits[0].fraction * depth;
    return TREAD_OK;
}

tread_result tr_riser_holds(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, bool *out_holds) {
    tread_shape_hit hit;
    float gap = 0.0f;
    return ground_below(q, ch, feet, out_holds, &hit, &gap);
}

// How far the riser may lift this frame: Staxel's distance — horizontal motion, plus a share of downward motion
// (so a falling body is caught), times the speed multiplier — capped at max step so fast motion cannot launch it.
static float rise_budget(const tread_character *ch, tread_vec3 motion) {
    const tread_character_settings *s = &ch->settings;
    float down = tr_minf(0.0f, tread_v3_dot(motion, s->up));
    float across = tread_v3_length(tread_v3_reject(motion, s->up));
    float distance = sqrtf(down * down * s->riser.fall_scale + across * across) * s->riser.speed_scale;
    return tr_minf(distance, tr_maxf(0.0f, s->max_step_height - TR_RISER_CLEARANCE));
}

// The part of the riser that finds what is left to climb: an upright box of the riser's width standing on `feet`, up
// to the main volume's lower sphere centre. Flat-bottomed (Staxel's volumes are boxes): a round bottom would clear a
// step's edge long before the feet reach its tread.
static tread_query_shape riser_box(const tread_character *ch, tread_vec3 feet, tread_vec3 *center) {
    const tread_character_settings *s = &ch->settings;
    // Its bottom sits the skin below the feet, as the slide's shape does: clear of a tread means clear for the slide.
    float below = s->skin;
    float half_width = s->radius * s->riser.radius_scale, height = below + s->radius + half_width;
    *center = tread_v3_mad(feet, 0.5f * height - below, s->up);
    return tread_query_box(tread_v3(half_width, 0.5f * height, half_width), s->up);
}

// Does the riser box, standing on `feet`, overlap what it stands on (ground_mask), whatever the face?
static tread_result overlaps_above(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, bool *out_overlaps) {
    tread_vec3 center;
    tread_query_shape shape = riser_box(ch, feet, &center);
    tread_query_filter filter = tr_ground_filter(ch);
    tread_contact deepest;
    int count = 0;
    bool overflow = false;
    tread_result r = tr_query_contacts(q, &shape, center, 0.0f, &filter, &deepest, 1, &count, &overflow);
    *out_overlaps = count > 0 && deepest.separation < -TR_PENETRATION_SLOP; // sorted deepest first
    return r;
}

// The lift: ground above the feet inside the riser's footprint where the body is headed (`ahead`: its feet plus
// the motion a riser stopped, at least riser_ahead's reach) is what it still has to climb. What the riser cannot
// clear by max step is a wall, not a step: no lift. Otherwise binary search (halving, at most Staxel's 6 probes)
// for the least lift that clears it; that top must be walkable ground at least min_step_depth deep the body can
// stand on (not a steep face, not under a low ceiling), and the body rises by as much of it as the budget allows
// and it fits (the rest next frame, at Staxel's rate).
static tread_result lift(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 ahead, float budget,
                         float *out, tread_vec3 *out_support) {
    const tread_character_settings *s = &ch->settings;
    const tread_vec3 up = s->up;
    bool blocked = false, ok = false;
    *out = 0.0f;
    tread_result r = overlaps_above(q, ch, ahead, &blocked);
    if (r != TREAD_OK || !blocked || budget < TR_RISER_TRIVIAL) return r;
    if ((r = overlaps_above(q, ch, tread_v3_mad(ahead, s->max_step_height, up), &blocked)) != TREAD_OK || blocked) return r;
    // Search where the answer is: below this frame's budget when the budget clears it (the lift is then exact to a
    // 64th of the budget), else above it (the lift is the budget; the rest next frame).
    if ((r = overlaps_above(q, ch, tread_v3_mad(ahead, budget, up), &blocked)) != TREAD_OK) return r;
    float lo = blocked ? budget : 0.0f, hi = blocked ? s->max_step_height : budget; // lo: still blocked; hi: clear
    for (int i = 0; i < TR_RISER_ITERATIONS && hi - lo > TR_RISER_TRIVIAL; ++i) {
        float mid = 0.5f * (lo + hi);
        if ((r = overlaps_above(q, ch, tread_v3_mad(ahead, mid, up), &blocked)) != TREAD_OK) return r;
        if (blocked) lo = mid; else hi = mid;
    }
    tread_vec3 top = tread_v3_mad(ahead, hi, up);
    // What the riser lands on coming down from there is the tread: it must be walkable (not a steep face), and the
    // body must fit standing on it (not under a low ceiling).
    // (From a little above: at an edge the riser and the tread are met together, and the tread is the one.)
    tread_vec3 center;
    tread_query_shape shape = riser_box(ch, tread_v3_mad(top, hi - lo, up), &center);
    tread_query_filter filter = tr_ground_filter(ch);
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = 0;
    float reach = 2.0f * (hi - lo) + TR_RISER_TRIVIAL;
    r = tr_query_cast_all(q, &shape, center, tread_v3_scale(up, -reach), &filter, hits, TR_GROUND_HITS, &count);
    if (r != TREAD_OK) return r;
    int tread = -1;
    for (int i = 0; i < count && tread < 0 && (hits[i].fraction - hits[0].fraction) * reach <= TR_GROUND_TIE; ++i) {
        if ((r = tr_is_walkable_on(q, ch, TR_WHO(hits[i]), hits[i].surface_normal, &ok)) != TREAD_OK) return r;
        if (ok) tread = i;
    }
    if (tread < 0) return TREAD_OK;
    // At least min_step_depth deep along the way the body is headed (the shared tread rule).
    tread_vec3 heading = tread_v3_normalize(tread_v3_reject(tread_v3_sub(ahead, feet), up));
    if ((r = tr_tread_is_deep_enough(q, ch, hits[tread].point, heading, &ok)) != TREAD_OK || !ok) return r;
    if ((r = tr_fits(q, ch, top, s->skin, &ok)) != TREAD_OK || !ok) return r;
    // Past the touch tolerance too, so the slide that follows does not catch the nose it just cleared.
    float d = tr_minf(hi, budget) + TR_RISER_CLEARANCE;
    if ((r = tr_fits(q, ch, tread_v3_mad(feet, d, up), TR_PENETRATION_SLOP, &ok)) != TREAD_OK || !ok) return r;
    *out_support = hits[tread].point;
    *out = d;
    return TREAD_OK;
}

// Where the riser looks for what stopped the body: where the body is headed, but at least as far ahead as the body
// reaches beyond the riser box (riser.radius_scale makes it the narrower; the body's skin adds to it), plus the
// clearance so the box is past touching. Looking only as far as the motion, a body stopped at a riser that wanted
// less than that gap (0.032 m for the default capsule) found nothing to climb, and went on finding nothing while it
// wanted that little: a slow walk (0.5 m/s at 60 Hz), and the motor, which takes the velocity into a wall away
// after each move that met one and so starts every frame there from rest (on S1 at 6 m/s, 60 Hz, it stood at the
// foot of the first step for good).
static tread_vec3 riser_ahead(const tread_character *ch, tread_vec3 feet, tread_vec3 motion) {
    const tread_character_settings *s = &ch->settings;
    float length = tread_v3_length(motion);
    float reach = s->radius * (1.0f - s->riser.radius_scale) + s->skin + TR_RISER_CLEARANCE;
    // Far enough already, or no way it is headed to look along.
    if (length >= reach || length <= TR_MIN_MOVE) return tread_v3_add(feet, motion);
    return tread_v3_mad(feet, reach / length, motion);
}

tread_result tr_step_riser(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out, bool *out_found) {
    const tread_vec3 up = ch->settings.up, feet = st->result.position;
    tread_shape_hit below;
    float gap = 0.0f;
    bool held = false;
    *out_found = false;
    // Rising away from the ground (a jump) is not held: the riser would pull the body back down.
    if (st->leaving_ground) return TREAD_OK;
    tread_result r = ground_below(q, ch, feet, &held, &below, &gap);
    if (r != TREAD_OK || !held) return r;
    // The motion the budget scales with is the one the body wanted: what it moved plus what a riser stopped.
    tread_vec3 wanted = tread_v3_sub(st->result.position, st->start_position);
    if (st->blocked) wanted = tread_v3_add(wanted, st->blocked_motion);
    float budget = rise_budget(ch, wanted);
    float rise = 0.0f;
    tread_vec3 support = below.point, landed = feet;
    // Only what stopped the body is climbed: walkable slopes and seams are the slide's to ride.
    if (st->blocked) {
        tread_vec3 ahead = riser_ahead(ch, st->blocked_position, st->blocked_motion);
        if ((r = lift(q, ch, st->blocked_position, ahead, budget, &rise, &support)) != TREAD_OK) return r;
    }
    if (rise > 0.0f) {
        // Lifted clear of what stopped it: the motion the riser took goes on from up there.
        tr_slide_result rest;
        r = tr_slide(q, ch, tread_v3_mad(st->blocked_position, rise, up), st->blocked_motion, TR_SLIDE_GROUNDED, st, &rest);
        if (r != TREAD_OK) return r;
        landed = rest.feet;
    } else {
        // Nothing to climb: settle onto the ground the riser holds, at the riser's rate but at least at the recovery
        // speed (a body standing still still comes down), instead of hovering up to riser.depth above it as Staxel's
        // riser does.
        float settle = tr_minf(gap, tr_maxf(budget, ch->settings.recovery_speed * st->dt));
        landed = tread_v3_mad(feet, -settle, up);
        // Never into what it overlaps: the probe looks past what it starts in, and a box that recovery was pushing
        // up out of a heightfield was settled back onto the floor under it every frame, for good.
        bool fits = true;
        if (settle > 0.0f && (r = tr_fits(q, ch, landed, TR_PENETRATION_SLOP, &fits)) != TREAD_OK) return r;
        if (!fits) landed = feet;
    }
    // The ground is what the riser holds where the body ends (lifted or settled), not where it began: from there the
    // old support lay as far away as the body moved.
    if ((r = ground_below(q, ch, landed, &held, &below, &gap)) != TREAD_OK || !held) return r;
    out->base = rise > 0.0f ? st->blocked_position : feet;
    out->feet = landed;
    out->support = support;
    out->has_landing = false;
    out->holds = true;
    tread_ground *g = &out->ground;
    g->state = TREAD_GROUND_ON_GROUND;
    g->normal = below.surface_normal;
    g->point = below.point;
    g->distance = gap;
    g->body = below.body;
    g->character = below.character;
    if ((r = tr_query_point_velocity(q, TR_WHO(below), below.point, &g->velocity)) != TREAD_OK) return r;
    *out_found = true;
    return TREAD_OK;
}
