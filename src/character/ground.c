// SPDX-License-Identifier: MIT
// Ground: probe a little below the shape and classify what holds the character. Support comes from the
// supporting face's normal (a downward probe that meets an edge reports the face it stands on), so standing
// on a ledge's edge is grounded while that face is walkable; a crevasse of two steep faces whose combined
// normal is walkable also holds (as Catlike Coding's steep-contact counting does).
#include "character_internal.h"

#include <math.h>
#include <string.h>

// How deep the skin is sunk into the ground along its normal: the deepest of the surfaces touched at the start
// (the support is only one of them: a flat box bottom rests on several triangles, and rounding in its ride can
// leave it deeper in one than in the one reported). Each overlap is along its contact normal; only its part
// along the ground's normal is sunk into the ground.
static float sunk_depth(const tread_shape_hit *hits, int count, tread_vec3 normal) {
    float deepest = 0.0f;
    for (int i = 0; i < count && hits[i].fraction == 0.0f; ++i)
        if (hits[i].started_in_contact) deepest = tr_maxf(deepest, hits[i].penetration * tread_v3_dot(hits[i].normal, normal));
    return deepest;
}

// *out_gap (when not NULL): the support's own gap along `normal` (negative: sunk into it).
static tread_result set_support(const tr_move_query *q, tread_ground *g, tread_ground_state state, tread_vec3 normal,
                                const tread_shape_hit *hits, int count, int index, float probe, float *out_gap) {
    const tread_shape_hit *hit = &hits[index];
    g->state = state;
    // Negative when the skin overlaps the ground (a body placed exactly on it): the update lifts it out.
    // (Whichever hit supports: the most level face can be a little farther than a sunk corner's triangle.)
    float sunk = sunk_depth(hits, count, normal);
    g->distance = sunk > 0.0f ? -sunk : hit->fraction * probe;
    if (out_gap)
        *out_gap = hit->started_in_contact ? -hit->penetration * tr_maxf(0.0f, tread_v3_dot(hit->normal, normal)) : hit->fraction * probe;
    g->normal = normal;
    g->point = hit->point;
    g->body = hit->body;
    g->character = hit->character;
    return tr_query_point_velocity(q, TR_WHO(*hit), hit->point, &g->velocity);
}

// The direction a contact without walkable support pushes the body, if it can hold it in a crevasse. A round
// bottom is pushed from the contact toward its centre, by contacts on its lower half only (its side or top hold
// no one up, whatever the face's normal at an edge it touches). A flat bottom is pushed by contacts at its sole:
// a walkable face's edge along the contact normal, a steep face on its interior along its normal (a steep face's
// rim is not a floor). Another character is not terrain: it moves on, and the batch parts the two; it holds no one
// in a crevasse.
static bool pushes(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *hit, tread_vec3 *out,
                   tread_result *r) {
    const tread_character_settings *s = &ch->settings;
    *r = TREAD_OK;
    if (hit->character >= 0) return false;
    if (s->shape != TREAD_QUERY_BOX) {
        tread_vec3 from_centre = tread_v3_sub(hit->point, tread_v3_mad(feet, s->radius, s->up));
        if (tread_v3_dot(from_centre, s->up) >= 0.0f) return false;
        *out = tread_v3_normalize(tread_v3_neg(from_centre));
        return true;
    }
    if (tread_v3_dot(tread_v3_sub(hit->point, feet), s->up) > s->skin + TR_GROUND_TIE) return false;
    bool walkable_face = false;
    *r = tr_is_walkable_on(q, ch, TR_WHO(*hit), hit->surface_normal, &walkable_face);
    if (*r != TREAD_OK || (!walkable_face && tread_v3_dot(hit->normal, hit->surface_normal) < TR_SAME_PLANE_COS)) return false;
    *out = hit->normal;
    return true;
}

// Crevasse (Catlike Coding's steep contacts): two contacts touched together that face each other across the body,
// whose pushes combine to a walkable direction, hold the character; the most level such pair is reported, at its
// more level contact. Otherwise the nearest steep face below, or whatever was touched.
static tread_result classify_unsupported(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *hits,
                                         int count, float probe, tread_ground *g, float *out_gap) {
    const tread_vec3 up = ch->settings.up;
    float nearest = hits[0].fraction * probe;
    tread_vec3 push[TR_GROUND_HITS];
    bool touching[TR_GROUND_HITS];
    int steep = -1, held = -1;
    tread_vec3 held_normal = up;
    float held_up = -2.0f;
    for (int i = 0; i < count; ++i) {
        if (tread_v3_dot(hits[i].normal, up) <= 0.0f) {
            touching[i] = false;
            continue;
        }
        if (steep < 0) steep = i;
        tread_result r = TREAD_OK;
        touching[i] = hits[i].fraction * probe <= nearest + TR_GROUND_TIE && pushes(q, ch, feet, &hits[i], &push[i], &r);
        if (r != TREAD_OK) return r;
        for (int j = 0; touching[i] && j < i; ++j) {
            if (!touching[j]) continue;
            tread_vec3 across = tread_v3_sub(hits[j].point, hits[i].point);
            if (tread_v3_dot(push[i], across) < TR_CREVASSE_SPAN || -tread_v3_dot(push[j], across) < TR_CREVASSE_SPAN) continue;
            tread_vec3 combined = tread_v3_normalize(tread_v3_add(push[i], push[j]));
            float level = tread_v3_dot(combined, up);
            if (level <= held_up || !tr_is_walkable(ch, combined)) continue;
            held_up = level;
            held_normal = combined;
            held = tread_v3_dot(push[i], up) > tread_v3_dot(push[j], up) ? i : j;
        }
    }
    if (held >= 0) return set_support(q, g, TREAD_GROUND_ON_GROUND, held_normal, hits, count, held, probe, out_gap);
    if (steep < 0) return set_support(q, g, TREAD_GROUND_NOT_SUPPORTED, up, hits, count, 0, probe, out_gap);
    // A steep face slides the body down its own slope. A round bottom on an edge (perched on a walkable face's nose
    // beyond its walkable cap, or on a steep ridge or rim) rolls off it along the contact normal, the way it leans
    // (with a face's normal it could roll over a ridge's top the wrong way and balance there). A box's sole meets an
    // edge along its own face, which says nothing of the way off: of the faces touched there it slides down the one
    // leaning toward its centre.
    if (ch->settings.shape == TREAD_QUERY_BOX) {
        float nearest_steep = hits[steep].fraction * probe, best = -INFINITY;
        for (int i = steep; i < count && hits[i].fraction * probe <= nearest_steep + TR_GROUND_TIE; ++i) {
            float lean = tread_v3_dot(hits[i].surface_normal, tread_v3_sub(feet, hits[i].point));
            if (tread_v3_dot(hits[i].normal, up) > 0.0f && lean > best) best = lean, steep = i;
        }
    }
    bool walkable_face = false;
    tread_result r = tr_is_walkable_on(q, ch, TR_WHO(hits[steep]), hits[steep].surface_normal, &walkable_face);
    if (r != TREAD_OK) return r;
    bool rolls = walkable_face || ch->settings.shape != TREAD_QUERY_BOX;
    tread_vec3 normal = rolls ? hits[steep].normal : hits[steep].surface_normal;
    return set_support(q, g, TREAD_GROUND_ON_STEEP, normal, hits, count, steep, probe, out_gap);
}

tread_ground tr_ground_in_air(const tread_character *ch, tread_vec3 feet) {
    tread_ground g;
    memset(&g, 0, sizeof g);
    g.state = TREAD_GROUND_IN_AIR;
    g.normal = ch->settings.up;
    g.point = feet;
    g.body = tread_body_id_null();
    g.character = -1;
    return g;
}

tread_result tr_classify_ground_gap(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_ground *g, float *out_gap) {
    const tread_character_settings *s = &ch->settings;
    tread_ground found = tr_ground_in_air(ch, feet);
    if (out_gap) *out_gap = 0.0f;

    tread_shape_hit hits[TR_GROUND_HITS];
    float probe = s->ground_probe_distance;
    int count = 0, best = -1;
    // Standing on walkable ground needs only the hits about as near as the nearest (the support, and the surfaces
    // touched at the start for the sunk depth); only without support does the classification look at every hit
    // (the nearest steep face below, at any depth), so only then is the whole probe listed.
    tread_result r = tr_probe_down(q, ch, feet, probe, hits, TR_GROUND_HITS, &count);
    if (r == TREAD_OK && count > 0) r = tr_pick_support(q, ch, feet, hits, count, probe, &best);
    if (r == TREAD_OK && count > 0 && best < 0) r = tr_probe_down_all(q, ch, feet, probe, hits, TR_GROUND_HITS, &count);
    if (r == TREAD_OK && count > 0)
        r = best >= 0 ? set_support(q, &found, TREAD_GROUND_ON_GROUND, hits[best].surface_normal, hits, count, best, probe, out_gap)
                      : classify_unsupported(q, ch, feet, hits, count, probe, &found, out_gap);
    if (r != TREAD_OK) return r;
    *g = found;
    tr_draw_ground(q, g, feet);
    return TREAD_OK;
}

tread_result tr_classify_ground(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_ground *g) {
    return tr_classify_ground_gap(q, ch, feet, g, NULL);
}
