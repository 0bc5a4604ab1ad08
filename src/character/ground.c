// Ground: probe a little below the shape and classify what holds the character. Support comes from the
// supporting face's normal (a downward probe that meets an edge reports the face it stands on), so standing
// on a ledge's edge is grounded while that face is walkable; a crevasse of two steep faces whose combined
// normal is walkable also holds (seed 004).
#include "character_internal.h"

#define TR_GROUND_HITS 8
// Hits this close to the nearest one (metres) compete for "the" support.
#define TR_GROUND_TIE 1.0e-3f

bool tr_is_walkable(const tread_character *ch, tread_vec3 normal) {
    return tread_v3_dot(normal, ch->settings.up) >= ch->max_slope_cos;
}

static void set_support(const tread_world *w, tread_ground *g, tread_ground_state state, tread_vec3 normal,
                        const tread_shape_hit *hit, float probe) {
    g->state = state;
    g->distance = hit->fraction * probe;
    g->normal = normal;
    g->point = hit->point;
    g->body = hit->body;
    if (tread_body_get_point_velocity(w, hit->body, hit->point, &g->velocity) != TREAD_OK) g->velocity = tread_v3_zero();
}

void tr_classify_ground(const tread_world *w, const tread_character *ch, tread_vec3 feet, tread_ground *g) {
    const tread_character_settings *s = &ch->settings;
    g->state = TREAD_GROUND_IN_AIR;
    g->normal = s->up;
    g->point = feet;
    g->distance = 0.0f;
    g->velocity = tread_v3_zero();
    g->body = tread_body_id_null();

    tread_query_shape shape = tr_character_query_shape(ch, s->skin);
    tread_query_filter filter = tread_query_filter_default();
    filter.layer_mask = s->ground_mask;
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = 0;
    bool overflow = false;
    float probe = s->ground_probe_distance;
    tread_world_cast_shape_all(w, &shape, tr_character_center(ch, feet), tread_v3_scale(s->up, -probe), &filter, hits,
                               TR_GROUND_HITS, &count, &overflow);
    if (count == 0) return;

    // Support candidates are below the shape (contact normal pointing up) on a walkable face. Hits come
    // sorted by fraction: the first candidate is the nearest; a more level face about as near wins.
    float nearest = hits[0].fraction * probe;
    int best = -1;
    float best_distance = 0.0f, best_up = -2.0f;
    for (int i = 0; i < count; ++i) {
        if (tread_v3_dot(hits[i].normal, s->up) <= 0.0f || !tr_is_walkable(ch, hits[i].surface_normal)) continue;
        float distance = hits[i].fraction * probe, up_dot = tread_v3_dot(hits[i].surface_normal, s->up);
        if (best < 0) {
            best_distance = distance;
        } else if (distance > best_distance + TR_GROUND_TIE || up_dot <= best_up) {
            continue;
        }
        best = i;
        best_up = up_dot;
    }
    if (best >= 0) {
        set_support(w, g, TREAD_GROUND_ON_GROUND, hits[best].surface_normal, &hits[best], probe);
        return;
    }
    // Crevasse: steep faces touched together, whose combined push is walkable, hold the character.
    tread_vec3 sum = tread_v3_zero();
    int touching = 0, steep = -1;
    for (int i = 0; i < count; ++i) {
        if (tread_v3_dot(hits[i].normal, s->up) <= 0.0f) continue;
        if (steep < 0) steep = i;
        if (hits[i].fraction * probe > nearest + TR_GROUND_TIE) continue;
        sum = tread_v3_add(sum, hits[i].normal);
        ++touching;
    }
    tread_vec3 combined = tread_v3_normalize(sum);
    if (touching >= 2 && tr_is_walkable(ch, combined)) {
        set_support(w, g, TREAD_GROUND_ON_GROUND, combined, &hits[steep], probe);
        return;
    }
    if (steep >= 0) {
        set_support(w, g, TREAD_GROUND_ON_STEEP, hits[steep].surface_normal, &hits[steep], probe);
        return;
    }
    set_support(w, g, TREAD_GROUND_NOT_SUPPORTED, s->up, &hits[0], probe);
}
