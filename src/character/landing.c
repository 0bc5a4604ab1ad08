// SPDX-License-Identifier: MIT
// Where a step lands, shared by the strategies that lift the body and bring it down onto a tread (the sweep's
// forward sweep, cast_down's cast): how steeply a landing face rises along the motion, and a landing above max step
// moved back down the face it came down on.
#include "character_internal.h"

#include <string.h>

// A landing moved back down its face lands this far below max step (metres): casts meet surfaces nearer than the
// touch tolerance.
#define TR_LANDING_CLEARANCE (2.0f * TR_TOUCH_TOLERANCE)

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
    tread_shape_hit near_hits[TR_GROUND_HITS];
    int count = 0, support = -1;
    tread_vec3 above;
    tread_result r = tr_probe_landing(q, ch, tread_v3_mad(ahead, -back, along), down, motion, near_hits, TR_GROUND_HITS, &count,
                                      &support, &above);
    if (r != TREAD_OK || support < 0) return r;
    memcpy(hits, near_hits, (size_t)count * sizeof near_hits[0]);
    *io_count = count;
    *io_support = support;
    *io_above = above;
    return TREAD_OK;
}
