// SPDX-License-Identifier: MIT
// Stick to floor (Godot's snap, Catlike Coding's ground snapping): after a move that lost the ground, cast down
// and settle on walkable ground within reach. The conditions (was grounded, not moving away from the ground,
// below the max snap speed, not suppressed) are checked by the phase in move.c. A round bottom that comes
// down on a nose's edge, where it cannot rest, rolls off it (roll.c), the way the edge pushes it, and settles again.
#include "character_internal.h"

tread_result tr_snap_down(const tr_move_query *q, const tread_character *ch, tread_vec3 *feet, float distance, tread_vec3 stood_on,
                          tread_vec3 heading, float *out_lowered, bool *out_perched_ahead) {
    const tread_vec3 up = ch->settings.up;
    *out_lowered = 0.0f;
    *out_perched_ahead = false;
    if (distance <= 0.0f) return TREAD_OK;
    // The probe reaches as far as the drop rule below accepts: ground exactly step_down_distance below would
    // otherwise be found or missed by rounding.
    float reach = distance + TR_STEP_HEIGHT_SLACK, lowered = 0.0f;
    tread_vec3 at = *feet;
    for (int rolls = 0;; ++rolls) {
        tread_shape_hit hits[TR_GROUND_HITS];
        int count = 0, support = -1, perch = -1;
        float probe = reach - lowered;
        tread_result r = tr_probe_down(q, ch, at, probe, hits, TR_GROUND_HITS, &count);
        if (r == TREAD_OK) r = tr_pick_support(q, ch, at, hits, count, probe, &support);
        if (r == TREAD_OK && support < 0 && rolls == 0) r = tr_pick_perch(q, ch, at, hits, count, probe, &perch);
        if (r != TREAD_OK || (support < 0 && perch < 0)) return r;
        const tread_shape_hit *met = &hits[support >= 0 ? support : perch];
        // The drop is measured from the surface stood on, not from the feet: a capsule rolling over a ledge's edge
        // has its feet below the ledge already, and would otherwise snap down a drop deeper than the reach.
        if (tread_v3_dot(tread_v3_sub(stood_on, met->point), up) > reach) return TREAD_OK;
        // Down to where the nearest surface stops the shape; the support (or the perch) is about as near.
        float down = hits[0].fraction * probe;
        at = tread_v3_mad(at, -down, up);
        lowered += down;
        if (support >= 0) break;
        // On a nose it cannot rest on: walking on toward it (a ride over one nose that ends against the next), a
        // step's to climb; else (walking down a staircase, past the tread's nose) off it, sideways away from it as
        // the edge pushes a ball, then down again.
        if (tread_v3_dot(met->normal, heading) < 0.0f) { // (the normal points from the nose back to the body)
            *out_perched_ahead = true;
            break; // down on it
        }
        if ((r = tr_roll_off(q, ch, at, met, heading, &at)) != TREAD_OK) return r;
    }
    *feet = at;
    *out_lowered = lowered;
    return TREAD_OK;
}
