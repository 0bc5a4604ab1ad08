// SPDX-License-Identifier: MIT
// "Another engine" for the backend tests: a query backend written only over tread's PUBLIC functions
// (tread_world_cast_shape, tread_world_collect_contacts, ..., tread_body_get_*), as a game writes one over Jolt or its
// own BVH. It is not tread_world_backend (its functions are not tread's own), so a move given it goes through the
// function pointers: it proves the interface carries everything a move needs. It also checks tread's side of the
// contract: every move begun is ended, and every query stays inside the bounds its move began with.
#ifndef TREAD_TEST_BACKEND_PUBLIC_H
#define TREAD_TEST_BACKEND_PUBLIC_H

#include <stdatomic.h>
#include <stdlib.h>

#include "tread/tread.h"

typedef struct public_engine {
    const tread_world *world;
    atomic_int begun, ended;    // moves begun and ended
    atomic_int outside;         // queries that left their move's bounds
    atomic_int queries;         // queries answered
} public_engine;

// One move's state: the bounds it began with.
typedef struct public_move {
    tread_aabb bounds;
} public_move;

// Radius of a sphere around the query position that holds the shape.
static inline float public_reach(const tread_query_shape *s) {
    if (s->type == TREAD_QUERY_BOX) return tread_v3_length(s->half_extents);
    return s->radius + (s->type == TREAD_QUERY_CAPSULE ? s->half_height : 0.0f);
}

static inline bool public_inside(const tread_aabb *b, tread_vec3 p, float r) {
    return p.x - r >= b->min.x && p.y - r >= b->min.y && p.z - r >= b->min.z && p.x + r <= b->max.x && p.y + r <= b->max.y &&
           p.z + r <= b->max.z;
}

// Count a query from `position` along `translation`, grown by `r`; note it when it leaves the move's bounds.
static inline const tread_world *public_query(void *context, void *move, tread_vec3 position, tread_vec3 translation, float r) {
    public_engine *e = (public_engine *)context;
    const public_move *m = (const public_move *)move;
    atomic_fetch_add(&e->queries, 1);
    if (!m || !public_inside(&m->bounds, position, r) || !public_inside(&m->bounds, tread_v3_add(position, translation), r))
        atomic_fetch_add(&e->outside, 1);
    return e->world;
}

static inline tread_result public_begin(void *context, const tread_aabb *bounds, void **out_move) {
    public_move *m = (public_move *)malloc(sizeof *m);
    if (!m) return TREAD_ERR_OUT_OF_MEMORY;
    m->bounds = *bounds;
    *out_move = m;
    atomic_fetch_add(&((public_engine *)context)->begun, 1);
    return TREAD_OK;
}

static inline void public_end(void *context, void *move) {
    free(move);
    atomic_fetch_add(&((public_engine *)context)->ended, 1);
}

static inline void public_cast(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                               const tread_query_filter *filter, tread_shape_hit *out_hit) {
    const tread_world *w = public_query(context, move, position, translation, public_reach(shape));
    if (tread_world_cast_shape(w, shape, position, translation, filter, out_hit) != TREAD_OK) out_hit->hit = false;
}

static inline void public_cast_all(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                   const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count, bool *out_overflow) {
    const tread_world *w = public_query(context, move, position, translation, public_reach(shape));
    if (tread_world_cast_shape_all(w, shape, position, translation, filter, hits, capacity, out_count, out_overflow) != TREAD_OK) *out_count = 0;
}

static inline void public_ray(void *context, void *move, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                              tread_ray_hit *out_hit) {
    const tread_world *w = public_query(context, move, origin, translation, 0.0f);
    if (tread_world_cast_ray(w, origin, translation, filter, out_hit) != TREAD_OK) out_hit->hit = false;
}

static inline void public_contacts(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, float margin,
                                   const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count, bool *out_overflow) {
    const tread_world *w = public_query(context, move, position, tread_v3(0, 0, 0), public_reach(shape) + margin);
    if (tread_world_collect_contacts(w, shape, position, margin, filter, contacts, capacity, out_count, out_overflow) != TREAD_OK) *out_count = 0;
}

static inline void public_closest(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                                  const tread_query_filter *filter, tread_distance_result *out_result) {
    const tread_world *w = public_query(context, move, position, tread_v3(0, 0, 0), public_reach(shape) + max_distance);
    if (tread_world_closest(w, shape, position, max_distance, filter, out_result) != TREAD_OK) out_result->found = false;
}

static inline bool public_body(void *context, tread_body_id id, tread_backend_body *out) {
    const tread_world *w = ((public_engine *)context)->world;
    tread_shape_type shape;
    if (tread_body_get_type(w, id, &out->type, &out->flags) != TREAD_OK || tread_body_get_layer(w, id, &out->layer) != TREAD_OK ||
        tread_body_get_shape_type(w, id, &shape) != TREAD_OK || tread_body_get_local_aabb(w, id, &out->local_bounds) != TREAD_OK)
        return false;
    out->convex = shape == TREAD_SHAPE_SPHERE || shape == TREAD_SHAPE_CAPSULE || shape == TREAD_SHAPE_BOX;
    return true;
}

static inline bool public_motion(void *context, tread_body_id id, tread_backend_motion *out) {
    const tread_world *w = ((public_engine *)context)->world;
    return tread_body_get_motion(w, id, &out->previous, &out->current) == TREAD_OK &&
           tread_body_get_velocity(w, id, &out->linear_velocity, &out->angular_velocity) == TREAD_OK &&
           tread_body_get_surface_velocity(w, id, &out->surface) == TREAD_OK;
}

static inline float public_largest_motion(void *context) { return tread_world_largest_motion(((public_engine *)context)->world); }

// The backend over `w`; `engine` (zeroed here) is its context and keeps the counts. has_one_way is left NULL: moves
// on it test one-way bodies always (their answers must not change).
static inline tread_backend public_backend(public_engine *engine, const tread_world *w) {
    engine->world = w;
    atomic_init(&engine->begun, 0);
    atomic_init(&engine->ended, 0);
    atomic_init(&engine->outside, 0);
    atomic_init(&engine->queries, 0);
    tread_backend b = {.context = engine, .begin_move = public_begin, .end_move = public_end, .cast_shape = public_cast,
                       .cast_shape_all = public_cast_all, .cast_ray = public_ray, .collect_contacts = public_contacts,
                       .closest = public_closest, .body = public_body, .motion = public_motion, .largest_motion = public_largest_motion};
    return b;
}

#endif
