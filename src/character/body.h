// SPDX-License-Identifier: MIT
// The character's body, below every phase: its shape and centre, the filters it queries with, which surfaces it
// can stand on, whether it fits somewhere, the downward ground probe and the pick of the supporting hit. Phases
// call this module; it calls none of them.
#ifndef TREAD_BODY_H
#define TREAD_BODY_H

#include "move_bodies.h"
#include "move_query.h"
#include "../world/world_query.h"

// Hits this close to the nearest one (metres) compete to be the support.
#define TR_GROUND_TIE 1.0e-3f
// Normals that agree to within this cosine (0.8 degrees) belong to one face (a contact normal against a face's own).
#define TR_SAME_PLANE_COS 0.9999f
// Hits kept by a downward probe.
#define TR_GROUND_HITS 8

// Distance from the feet to the shape's centre along up. (Inline, as the filters below: every query of a move asks.)
static inline float tr_center_height(const tread_character_settings *s) { return s->shape == TREAD_QUERY_SPHERE ? s->radius : 0.5f * s->height; }
static inline tread_vec3 tr_center(const tread_character *ch, tread_vec3 feet) {
    return tread_v3_mad(feet, tr_center_height(&ch->settings), ch->settings.up);
}
// The query shape, grown by `extra` metres on every side (the skin).
tread_query_shape tr_body_shape(const tread_character *ch, float extra);
// Radius of a sphere around the centre that holds the shape (metres).
float tr_body_reach(const tread_character_settings *s);

// Filters: what blocks movement (collide_mask), what counts as ground (ground_mask).
static inline tread_query_filter tr_mask_filter(uint32_t mask) {
    tread_query_filter f = tr_query_filter_default();
    f.layer_mask = mask;
    return f;
}
static inline tread_query_filter tr_collide_filter(const tread_character *ch) { return tr_mask_filter(ch->settings.collide_mask); }
static inline tread_query_filter tr_ground_filter(const tread_character *ch) { return tr_mask_filter(ch->settings.ground_mask); }
// The collide filter letting through only `who` (only), or everything but it, with `set` (the filter's context: it
// lives as long as the filter) naming it.
tread_query_filter tr_filter_one(const tread_character *ch, const tr_who *who, bool only, tr_who_set *set);

// A surface with this normal is walkable at the character's max slope / on that body's layer (stairs layers have
// their own angle; a body outside ground_mask is never walkable).
bool tr_is_walkable(const tread_character *ch, tread_vec3 normal);
tread_result tr_is_walkable_on(const tr_move_query *q, const tread_character *ch, tr_who who, tread_vec3 normal, bool *out_walkable);

// The shape at `feet` overlaps nothing deeper than `allowance` metres (a negative allowance asks for that much
// clearance): the body fits there (stepping onto a tread under a ceiling, the Source engine's "player too wide",
// crouching back up, a new shape in set_settings).
tread_result tr_fits(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float allowance, bool *out_fits);

// Every surface a downward cast of the skin-grown shape over `distance` meets, sorted by fraction (at most
// `capacity`, the nearest).
tread_result tr_probe_down_all(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float distance, tread_shape_hit *hits,
                               int capacity, int *out_count);
// The first of those hits: at least every one tr_pick_support can choose (within TR_GROUND_TIE of the nearest), found
// without the cost of the ones beyond (a long probe down a mesh meets many triangles behind the first).
tread_result tr_probe_down(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float distance, tread_shape_hit *hits,
                           int capacity, int *out_count);
// The hit that supports: walkable face, contact below the shape, about as near as the nearest hit, most level,
// and (a round bottom) the contact within max slope of straight down. *out_index is -1 when none.
tread_result tr_pick_support(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *hits, int count,
                             float distance, int *out_index);
// When nothing supports: the nearest hit of a walkable face the round bottom is perched on (its edge, the contact
// beyond max slope from straight down). *out_index is -1 when none (always for a box).
tread_result tr_pick_perch(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *hits, int count,
                           float distance, int *out_index);


// The tread at `landing` (a point on it) is at least min_step_depth deep along `direction` (unit, horizontal),
// ahead of the point and behind it:
// no stepping onto a 1 cm lip in front of a wall. Every stepping strategy asks it.
tread_result tr_tread_is_deep_enough(const tr_move_query *q, const tread_character *ch, tread_vec3 landing, tread_vec3 direction,
                                     bool *out_deep);

// How far `feet` are below the surface the move started on (its ground point), metres: a capsule perched on a
// nose stands up to its radius below the tread that holds it. Steps are measured from that surface, so
// the feet may rise this much more than max step. 0 off the ground or for a body standing flat.
float tr_perch_depth(const tread_character *ch, const tread_move_state *st, tread_vec3 feet);

// Remember a touched surface in the move's result and the caller's buffer of the move, if any (deduplicated by body
// and feature; st may be NULL), counting the total and what did not fit.
void tr_record_contact(const tr_move_query *q, tread_move_state *st, const tread_shape_hit *hit);
// The same for a surface found by contact collection.
void tr_record_touch(const tr_move_query *q, tread_move_state *st, const tread_contact *contact);

#endif
