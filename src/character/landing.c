// SPDX-License-Identifier: MIT
// Where a step lands, shared by the strategies that lift the body and bring it down onto a tread (the sweep's
// forward sweep, cast_down's cast): how steeply a landing face rises along the motion, a landing above max step
// moved back down the face it came down on, and a landing on a sloped riser's face moved past it onto the tread.
#include "character_internal.h"

#include <string.h>

// A landing moved back down its face lands this far below max step (metres): casts meet surfaces nearer than the
// touch tolerance.
#define TR_LANDING_CLEARANCE (2.0f * TR_TOUCH_TOLERANCE)
// A sloped riser is looked past at most this many faces (one per triangle of a heightfield's riser cell beside the
// body, and one more).
#define TR_RISER_LOOKS 3
// tr_step_look_ahead's sine of max slope is at least this (dimensionless): a max slope of 0 looks a radius ahead, not
// divides by zero.
#define TR_LOOK_AHEAD_SIN_MIN 1.0e-3f

float tr_step_look_ahead(const tread_character *ch) {
    const tread_character_settings *s = &ch->settings;
    float sin_slope = sqrtf(tr_maxf(0.0f, 1.0f - ch->max_slope_cos * ch->max_slope_cos));
    float run = s->max_step_height * ch->max_slope_cos / tr_maxf(sin_slope, TR_LOOK_AHEAD_SIN_MIN);
    return tr_minf(run, s->radius);
}

float tr_rise_along(const tread_shape_hit *hit, tread_vec3 up, tread_vec3 along) {
    float upward = tread_v3_dot(hit->surface_normal, up);
    if (!(upward > 0.0f)) return 0.0f;
    return tr_maxf(0.0f, -tread_v3_dot(hit->surface_normal, along) / upward);
}

tread_result tr_land_within_max_step(const tr_move_query *q, const tread_character *ch, const tread_move_state *st, tread_vec3 feet,
                                     tread_vec3 ahead, float down, tread_vec3 motion, tread_shape_hit *hits, int *io_count,
                                     int *io_support, tread_vec3 *io_above) {
    TR_ASSERT(*io_support >= 0 && *io_support < *io_count);
    const tread_vec3 up = ch->settings.up;
    float over = tread_v3_dot(tread_v3_sub(hits[*io_support].point, feet), up) - tr_perch_depth(ch, st, feet) - ch->settings.max_step_height;
    if (!(over > 0.0f)) return TREAD_OK;
    tread_vec3 along = tread_v3_normalize(tread_v3_reject(motion, up));
    float rate = tr_rise_along(&hits[*io_support], up, along);
    float gone = tread_v3_dot(tread_v3_sub(ahead, feet), along);
    if (!(rate > 0.0f) || !(tread_v3_length(along) > 0.0f)) return TREAD_OK;
    float back = (over + TR_LANDING_CLEARANCE) / rate;
    if (!(back < gone)) return TREAD_OK;
    // Back the straight way, as far as it is free: the way the body came may have turned along a wall, and a point
    // back along the motion lay 2 cm inside a box (the soak's 66:98: the probe down from there ignored the box).
    tread_query_shape shape = tr_body_shape(ch, ch->settings.skin);
    tread_query_filter filter = tr_collide_filter(ch);
    tread_shape_hit stop;
    tread_vec3 way = tread_v3_scale(along, -back);
    tread_result r = tr_query_cast(q, &shape, tr_center(ch, ahead), way, &filter, &stop);
    if (r != TREAD_OK || stop.hit) return r;
    tread_shape_hit near_hits[TR_GROUND_HITS];
    int count = 0, support = -1;
    tread_vec3 above;
    r = tr_probe_landing(q, ch, tread_v3_add(ahead, way), down, motion, near_hits, TR_GROUND_HITS, &count, &support, &above);
    if (r != TREAD_OK || support < 0) return r;
    memcpy(hits, near_hits, (size_t)count * sizeof near_hits[0]);
    *io_count = count;
    *io_support = support;
    *io_above = above;
    return TREAD_OK;
}

tread_result tr_land_past_sloped_riser(const tr_move_query *q, const tread_character *ch, tread_vec3 ahead, float down, tread_vec3 motion,
                                       tread_shape_hit *hits, int *out_count, int *out_support, tread_vec3 *out_above) {
    const tread_vec3 up = ch->settings.up;
    tread_vec3 along = tread_v3_normalize(tread_v3_reject(motion, up));
    float rate = tr_rise_along(&hits[0], up, along), rise = hits[0].fraction * down;
    if (!(rate > 0.0f) || !(tread_v3_length(along) > 0.0f)) return TREAD_OK;
    tread_query_shape shape = tr_body_shape(ch, ch->settings.skin);
    tread_query_filter filter = tr_collide_filter(ch);
    tread_shape_hit far_hits[TR_GROUND_HITS];
    int far_count = 0, far_support = -1;
    tread_vec3 far = ahead, far_above;
    float reached = 0.0f, face_rate = rate, face_rise = rise;
    tread_result r = TREAD_OK;
    for (int look = 0; look < TR_RISER_LOOKS && far_support < 0; ++look) {
        float over = face_rise / face_rate + TR_LANDING_CLEARANCE;
        if (reached + over > tr_step_look_ahead(ch)) return TREAD_OK;
        // Straight on, or not at all: a landing beside the riser, or back along a path a wall turned, is not this
        // step's (a sphere put back on the straight line after the slide had turned along a wall ended 0.17 m inside
        // it). As far as the body goes straight, if that is past the face.
        tread_shape_hit stop;
        r = tr_query_cast(q, &shape, tr_center(ch, far), tread_v3_scale(along, over), &filter, &stop);
        if (r != TREAD_OK) return r;
        float went = stop.hit ? stop.fraction * over : over;
        if (!(went >= face_rise / face_rate)) return TREAD_OK;
        far = tread_v3_mad(far, went, along);
        reached += went;
        if ((r = tr_probe_landing(q, ch, far, down, motion, far_hits, TR_GROUND_HITS, &far_count, &far_support, &far_above)) != TREAD_OK ||
            far_count == 0)
            return r;
        face_rate = tr_rise_along(&far_hits[0], up, along);
        face_rise = far_hits[0].fraction * down;
        if (far_support < 0 && !(face_rate > 0.0f)) return TREAD_OK;
    }
    if (far_support < 0) return TREAD_OK;
    // Back to the riser's top edge: where the face reaches the tread's height, on the way the forward slide went. A
    // tread no higher than where the body met the face is none of its (a box met a bump's face and, looking past it,
    // lower ground: "back to the edge" put it 0.69 m behind where it stood).
    float above_face = rise - far_hits[0].fraction * down;
    if (!(above_face > 0.0f)) return TREAD_OK;
    float edge = above_face / rate + TR_LANDING_CLEARANCE;
    if (edge < reached) {
        tread_vec3 near = tread_v3_mad(ahead, edge, along);
        int count = 0, support = -1;
        tread_vec3 above;
        if ((r = tr_probe_landing(q, ch, near, down, motion, hits, TR_GROUND_HITS, &count, &support, &above)) != TREAD_OK) return r;
        if (support >= 0) {
            *out_count = count;
            *out_support = support;
            *out_above = above;
            return TREAD_OK;
        }
    }
    memcpy(hits, far_hits, sizeof far_hits);
    *out_count = far_count;
    *out_support = far_support;
    *out_above = far_above;
    return TREAD_OK;
}
