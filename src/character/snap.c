// Stick to floor / snap (seeds 001 and 004): after a move that lost the ground, cast down and settle on
// walkable ground within reach. The caller's conditions (was grounded, not moving away from the ground,
// below the max snap speed, not suppressed) are checked by the phase in character.c.
#include "character_internal.h"

float tr_snap_down(const tread_world *w, const tread_character *ch, tread_vec3 *feet, float distance) {
    const tread_character_settings *s = &ch->settings;
    if (distance <= 0.0f) return 0.0f;
    tread_query_shape shape = tr_character_query_shape(ch, s->skin);
    tread_query_filter filter = tread_query_filter_default();
    filter.layer_mask = s->ground_mask;
    tread_vec3 down = tread_v3_scale(s->up, -distance);
    tread_shape_hit hit;
    tread_world_cast_shape(w, &shape, tr_character_center(ch, *feet), down, &filter, &hit);
    if (!hit.hit || tread_v3_dot(hit.normal, s->up) <= 0.0f || !tr_is_walkable(ch, hit.surface_normal)) return 0.0f;
    *feet = tread_v3_mad(*feet, hit.fraction, down);
    return hit.fraction * distance;
}
