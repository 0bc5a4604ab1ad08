// Stick to floor / snap (seeds 001 and 004): after a move that lost the ground, cast down and settle on
// walkable ground within reach. The caller's conditions (was grounded, not moving away from the ground,
// below the max snap speed, not suppressed) are checked by the phase in character.c.
#include "character_internal.h"

float tr_snap_down(const tread_world *w, const tread_character *ch, tread_vec3 *feet, float distance) {
    if (distance <= 0.0f) return 0.0f;
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = tr_probe_down(w, ch, *feet, distance, hits, TR_GROUND_HITS);
    if (tr_pick_support(w, ch, hits, count, distance) < 0) return 0.0f;
    // Settle where the nearest surface stops the shape; the support is about as near.
    float lowered = hits[0].fraction * distance;
    *feet = tread_v3_mad(*feet, -lowered, ch->settings.up);
    return lowered;
}
