// SPDX-License-Identifier: MIT
// Stick to floor (Godot's snap, Catlike Coding's ground snapping): after a move that lost the ground, cast down
// and settle on walkable ground within reach. The conditions (was grounded, not moving away from the ground,
// below the max snap speed, not suppressed) are checked by the phase in character.c.
#include "character_internal.h"

tread_result tr_snap_down(const tr_move_query *q, const tread_character *ch, tread_vec3 *feet, float distance, tread_vec3 stood_on,
                          float *out_lowered) {
    const tread_vec3 up = ch->settings.up;
    *out_lowered = 0.0f;
    if (distance <= 0.0f) return TREAD_OK;
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = 0, support = -1;
    // The probe reaches as far as the drop rule below accepts: ground exactly step_down_distance below would
    // otherwise be found or missed by rounding.
    float reach = distance + TR_STEP_HEIGHT_SLACK;
    tread_result r = tr_probe_down(q, ch, *feet, reach, hits, TR_GROUND_HITS, &count);
    if (r == TREAD_OK) r = tr_pick_support(q, ch, hits, count, reach, &support);
    if (r != TREAD_OK || support < 0) return r;
    // The drop is measured from the surface stood on, not from the feet: a capsule rolling over a ledge's edge
    // has its feet below the ledge already, and would otherwise snap down a drop deeper than the reach.
    if (tread_v3_dot(tread_v3_sub(stood_on, hits[support].point), up) > reach) return TREAD_OK;
    // Settle where the nearest surface stops the shape; the support is about as near.
    *out_lowered = hits[0].fraction * reach;
    *feet = tread_v3_mad(*feet, -*out_lowered, up);
    return TREAD_OK;
}
