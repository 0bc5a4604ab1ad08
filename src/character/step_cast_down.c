// SPDX-License-Identifier: MIT
// Stepping by casting down (Unity DOTS's character controller): cast the shape from the move's target raised by
// max step straight down to the target; free space above the obstacle means a step, so lift the target by what
// the cast left over; otherwise keep the slide (which already followed the surface). tread adds what the
// original leaves out and the shared code knows: the landing must be walkable ground (the max-step rule at the
// tread is the shared one), at least min_step_depth deep, and the lifted path must be free (no stepping through a
// thin wall above the step).
#include "character_internal.h"

// The cast starts this far above max step (metres, past the skin): the shape, grown by the skin, raised exactly to a
// tread at max step starts touching it, a hit at fraction 0 (stairs-straight-boxes-up-r0.40-t0.12-box-30hz never left
// the floor); casts meet surfaces nearer than the touch tolerance.
#define TR_CAST_CLEARANCE (2.0f * TR_TOUCH_TOLERANCE)

// The original teleports; tread checks the lifted path, with the bare shape (ending in touch with the tread is the
// landing, not an obstacle): straight up by the `rise` at the start, then across to the target `start` at that
// height; or, where something overhangs the body, up by the cast's `reach` sliding back from under it (straight up,
// a sphere under a stair's 2 cm nosing rose into its corner and never stepped: every nosed flight with risers near
// max step), then straight across to where the cast began (`raised`: the cast down from there is the rest of the way).
static tread_result lifted_path_free(const tr_move_query *q, const tread_character *ch, tread_vec3 base, float rise, tread_vec3 start,
                                     float reach, tread_vec3 raised, bool *out_free) {
    const tread_vec3 up = ch->settings.up;
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tread_query_filter filter = tr_collide_filter(ch);
    tread_shape_hit blocked;
    *out_free = false;
    tread_result r = tr_query_cast(q, &shape, tr_center(ch, base), tread_v3_scale(up, rise), &filter, &blocked);
    if (r != TREAD_OK) return r;
    if (!blocked.hit) {
        if ((r = tr_query_cast(q, &shape, tr_center(ch, tread_v3_mad(base, rise, up)), tread_v3_sub(start, base), &filter, &blocked)) != TREAD_OK)
            return r;
        if (!blocked.hit) {
            *out_free = true;
            return TREAD_OK;
        }
    }
    tr_slide_result lift;
    if ((r = tr_slide(q, ch, base, tread_v3_scale(up, reach), TR_SLIDE_AIR, NULL, &lift)) != TREAD_OK) return r;
    if ((r = tr_query_cast(q, &shape, tr_center(ch, lift.feet), tread_v3_sub(raised, lift.feet), &filter, &blocked)) != TREAD_OK) return r;
    *out_free = !blocked.hit;
    return TREAD_OK;
}

tread_result tr_step_cast_down(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out,
                               bool *out_found) {
    const tread_character_settings *s = &ch->settings;
    const tread_vec3 up = s->up, base = st->blocked_position, motion = st->blocked_motion;
    *out_found = false;
    if (s->max_step_height <= 0.0f || tread_v3_length(motion) <= TR_MIN_MOVE) return TREAD_OK;
    tread_vec3 start = tread_v3_add(base, motion);
    // Max step above the surface stood on (the feet may be perched below it).
    float reach = s->max_step_height + tr_perch_depth(ch, st, base) + s->skin + TR_CAST_CLEARANCE;
    tread_vec3 raised = tread_v3_mad(start, reach, up);
    // The original cast starts at the raised target and reports fraction 0 when that start is inside something
    // (a ceiling, a wall): no free space, no step. tread's casts skip what they start inside of and leave, so
    // ask directly.
    bool ok = false;
    tread_result r = tr_fits(q, ch, raised, s->skin, &ok);
    if (r != TREAD_OK) return r;
    if (!ok) {
        // Something is in the way up there: the target is where the raised body gets to along the motion. A whole
        // frame's motion ran a box into the next riser of a flight whose treads are shorter than a frame's walk, so it
        // never stepped again (stairs-straight-boxes-up-r0.40-t0.12-box-30hz: stopped 3 of 10 steps short). With no
        // free space above the body itself there is nothing to step into: S10's ceiling.
        tread_vec3 lifted = tread_v3_mad(base, reach, up);
        if ((r = tr_fits(q, ch, lifted, s->skin, &ok)) != TREAD_OK || !ok) return r;
        tread_query_shape grown = tr_body_shape(ch, s->skin);
        tread_query_filter walls = tr_collide_filter(ch);
        tread_vec3 ahead = tread_v3_sub(raised, lifted);
        tread_shape_hit stop;
        if ((r = tr_query_cast(q, &grown, tr_center(ch, lifted), ahead, &walls, &stop)) != TREAD_OK) return r;
        if (stop.hit) raised = tread_v3_mad(lifted, stop.fraction, ahead);
        if (tread_v3_length(tread_v3_sub(raised, lifted)) <= TR_MIN_MOVE) return TREAD_OK;
    }
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = 0, support = -1;
    // (A round bottom coming down on the nose rolls onto the tread first: the target moves on with it.)
    if ((r = tr_probe_landing(q, ch, raised, reach, motion, hits, TR_GROUND_HITS, &count, &support, &raised)) != TREAD_OK) return r;
    // No hit: nothing to step onto. A hit at 0: no free space above the obstacle (a wall, a ceiling), unless it is a
    // tread rising ahead that the landing can come down on farther back.
    if (count == 0) return TREAD_OK;
    // Down on a riser that slopes (a heightfield's one-cell riser), a frame's walk short of its top: past it onto the
    // tread, as the sweep's landing goes (the box stood for good before 0.1-0.35 m heightfield curbs).
    if (support < 0 && (r = tr_land_past_sloped_riser(q, ch, raised, reach, motion, hits, &count, &support, &raised)) != TREAD_OK) return r;
    if (support < 0) return TREAD_OK;
    if ((r = tr_land_within_max_step(q, ch, st, base, raised, reach, motion, hits, &count, &support, &raised)) != TREAD_OK) return r;
    if (hits[0].fraction == 0.0f) return TREAD_OK;
    start = tread_v3_mad(raised, -reach, up);
    float rise = reach * (1.0f - hits[0].fraction);
    if (rise <= TR_MIN_STEP_RISE) return TREAD_OK;
    // The tread runs on at least min_step_depth past where the body lands on it (the shared tread rule).
    if ((r = tr_tread_is_deep_enough(q, ch, hits[support].point, tread_v3_normalize(motion), &ok)) != TREAD_OK || !ok) return r;
    // The original teleports; tread checks the lifted path (lifted_path_free).
    if ((r = lifted_path_free(q, ch, base, rise, start, reach, raised, &ok)) != TREAD_OK || !ok) return r;
    out->base = base;
    out->feet = tread_v3_mad(start, rise, up);
    out->support = hits[support].point;
    out->has_landing = false;
    out->holds = false;
    *out_found = true;
    return TREAD_OK;
}
