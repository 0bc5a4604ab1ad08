// Ground: probe a little below the shape and classify what holds the character. Support comes from the
// supporting face's normal (a downward probe that meets an edge reports the face it stands on), so standing
// on a ledge's edge is grounded while that face is walkable; a crevasse of two steep faces whose combined
// normal is walkable also holds (seed 004).
#include "character_internal.h"


bool tr_is_walkable(const tread_character *ch, tread_vec3 normal) {
    return tread_v3_dot(normal, ch->settings.up) >= ch->max_slope_cos;
}

bool tr_is_walkable_on(const tread_world *w, const tread_character *ch, tread_body_id body, tread_vec3 normal) {
    uint32_t layer = 0;
    float limit = tread_body_get_layer(w, body, &layer) == TREAD_OK ? ch->layer_slope_cos[layer] : ch->max_slope_cos;
    return tread_v3_dot(normal, ch->settings.up) >= limit;
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

int tr_probe_down(const tread_world *w, const tread_character *ch, tread_vec3 feet, float distance, tread_shape_hit *hits, int capacity) {
    const tread_character_settings *s = &ch->settings;
    tread_query_shape shape = tr_character_query_shape(ch, s->skin);
    tread_query_filter filter = tread_query_filter_default();
    filter.layer_mask = s->ground_mask;
    int count = 0;
    bool overflow = false;
    tread_world_cast_shape_all(w, &shape, tr_character_center(ch, feet), tread_v3_scale(s->up, -distance), &filter, hits, capacity, &count,
                               &overflow);
    return count;
}

int tr_pick_support(const tread_world *w, const tread_character *ch, const tread_shape_hit *hits, int count, float distance) {
    // Candidates are below the shape (contact normal pointing up) on a walkable face. Hits come sorted by
    // fraction; among those about as near as the nearest hit, the most level face wins, so at an edge shared
    // by two faces (a mesh's riser and tread) the face that can hold the character is the one reported.
    const tread_vec3 up = ch->settings.up;
    if (count == 0) return -1;
    float nearest = hits[0].fraction * distance;
    int best = -1;
    float best_up = -2.0f;
    for (int i = 0; i < count; ++i) {
        if (hits[i].fraction * distance > nearest + TR_GROUND_TIE) break;
        if (tread_v3_dot(hits[i].normal, up) <= 0.0f || !tr_is_walkable_on(w, ch, hits[i].body, hits[i].surface_normal)) continue;
        float up_dot = tread_v3_dot(hits[i].surface_normal, up);
        if (up_dot > best_up) {
            best = i;
            best_up = up_dot;
        }
    }
    return best;
}

void tr_classify_ground(const tread_world *w, const tread_character *ch, tread_vec3 feet, tread_ground *g) {
    const tread_character_settings *s = &ch->settings;
    g->state = TREAD_GROUND_IN_AIR;
    g->normal = s->up;
    g->point = feet;
    g->distance = 0.0f;
    g->velocity = tread_v3_zero();
    g->body = tread_body_id_null();

    tread_shape_hit hits[TR_GROUND_HITS];
    float probe = s->ground_probe_distance;
    int count = tr_probe_down(w, ch, feet, probe, hits, TR_GROUND_HITS);
    if (count == 0) return;
    int best = tr_pick_support(w, ch, hits, count, probe);
    if (best >= 0) {
        set_support(w, g, TREAD_GROUND_ON_GROUND, hits[best].surface_normal, &hits[best], probe);
        return;
    }
    // Crevasse: steep faces touched together, whose combined push is walkable, hold the character.
    float nearest = hits[0].fraction * probe;
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
