// SPDX-License-Identifier: MIT
// Where a move's world queries go: tread's own world, called directly (the inline branches below: one predictable
// test, no call through a pointer), or another engine's query backend (tread_backend, source.c: its answers checked
// against the contract, and what tread's world derives for its bodies derived here from the backend's facts by the
// same functions, src/world/motion.h). The move query (move_query.c) is the only caller of the queries; the body
// questions are also asked before a move begins (its carry and reach).
#ifndef TREAD_SOURCE_H
#define TREAD_SOURCE_H

#include "../core.h"
#include "../world/motion.h"
#include "../world/world_query.h"

typedef struct tr_source {
    const tread_world *world;     // tread's own world; NULL with a backend
    const tread_backend *backend; // another engine's backend; NULL on tread's own world
    void *move;                   // the backend's state for the move under way (its begin_move's), else NULL
} tr_source;

static inline tr_source tr_source_world(const tread_world *w) {
    tr_source s = {w, NULL, NULL};
    return s;
}
// The source a public _on function was given: tread's own world when the backend is tread_world_backend's (its
// functions unchanged), else the backend, checked for NULL required functions (naming them).
tread_result tr_source_of(const tread_backend *backend, tr_source *out);
// TREAD_ERR_NULL_ARGUMENT "world is NULL" for a world-taking function given none.
tread_result tr_source_check(const tr_source *s);
// Begin and end one move on a backend (nothing on tread's own world): begin_move with the move's bounds.
tread_result tr_backend_begin(tr_source *s, const tread_aabb *bounds);
static inline tread_result tr_source_begin(tr_source *s, const tread_aabb *bounds) {
    s->move = NULL;
    return s->backend ? tr_backend_begin(s, bounds) : TREAD_OK;
}
static inline void tr_source_end(tr_source *s) {
    if (s->backend && s->backend->end_move) s->backend->end_move(s->backend->context, s->move);
    s->move = NULL;
}

// ---- a backend's side (source.c); the move query calls the queries on tread's own world itself (with its
// candidates, move_query.c), and the body questions through the inline tr_source_* below -------------------------
tread_result tr_backend_cast(const tr_source *s, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                             const tread_query_filter *filter, tread_shape_hit *out_hit);
tread_result tr_backend_cast_all(const tr_source *s, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                 const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count, bool *out_overflow);
tread_result tr_backend_ray(const tr_source *s, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                            tread_ray_hit *out_hit);
tread_result tr_backend_contacts(const tr_source *s, const tread_query_shape *shape, tread_vec3 position, float margin,
                                 const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count, bool *out_overflow);
tread_result tr_backend_closest(const tr_source *s, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                                const tread_query_filter *filter, tread_distance_result *out_result);
bool tr_backend_body_kind(const tr_source *s, tread_body_id body, tread_body_type *out_type, uint32_t *out_flags);
bool tr_backend_body_layer(const tr_source *s, tread_body_id body, uint32_t *out_layer);
bool tr_backend_body_is_convex(const tr_source *s, tread_body_id body, bool *out_convex);
bool tr_backend_body_top(const tr_source *s, tread_body_id body, tread_vec3 up, float *out_top);
bool tr_backend_point_velocity(const tr_source *s, tread_body_id body, tread_vec3 point, tread_vec3 *out_velocity);
bool tr_backend_ground_motion(const tr_source *s, tread_body_id body, tread_vec3 point, tread_vec3 *out_point, tread_quat *out_turn);
bool tr_backend_surface_carry(const tr_source *s, tread_body_id body, tread_vec3 point, float dt, tread_vec3 *out_point, tread_quat *out_turn);
float tr_backend_largest_motion(const tr_source *s);
bool tr_backend_has_one_way(const tr_source *s);

// ---- a body's facts (false: the id names no live body) -----------------------------------------------------------

static inline bool tr_source_body_kind(const tr_source *s, tread_body_id body, tread_body_type *out_type, uint32_t *out_flags) {
    return s->backend ? tr_backend_body_kind(s, body, out_type, out_flags) : tr_world_body_kind(s->world, body, out_type, out_flags);
}
static inline bool tr_source_body_layer(const tr_source *s, tread_body_id body, uint32_t *out_layer) {
    return s->backend ? tr_backend_body_layer(s, body, out_layer) : tr_world_body_layer(s->world, body, out_layer);
}
static inline bool tr_source_body_is_convex(const tr_source *s, tread_body_id body, bool *out_convex) {
    return s->backend ? tr_backend_body_is_convex(s, body, out_convex) : tr_world_body_is_convex(s->world, body, out_convex);
}
// A one-way body's top along unit `up` (tr_world_body_top).
static inline bool tr_source_body_top(const tr_source *s, tread_body_id body, tread_vec3 up, float *out_top) {
    return s->backend ? tr_backend_body_top(s, body, up, out_top) : tr_world_body_top(s->world, body, up, out_top);
}
static inline bool tr_source_point_velocity(const tr_source *s, tread_body_id body, tread_vec3 point, tread_vec3 *out_velocity) {
    return s->backend ? tr_backend_point_velocity(s, body, point, out_velocity) : tr_world_point_velocity(s->world, body, point, out_velocity);
}
// Where the body's last frame of motion took `point`, and the rotation it turned by (tr_world_body_carry_point).
static inline bool tr_source_ground_motion(const tr_source *s, tread_body_id body, tread_vec3 point, tread_vec3 *out_point, tread_quat *out_turn) {
    if (s->backend) return tr_backend_ground_motion(s, body, point, out_point, out_turn);
    tread_transform previous, current;
    if (!tr_world_body_motion(s->world, body, &previous, &current)) return false;
    *out_point = tr_motion_carry_point(&previous, &current, point);
    *out_turn = tr_motion_turn(&previous, &current);
    return true;
}
// The body neither moved over the last advance nor has a surface velocity (false: it may carry, or is not live;
// an engine behind a backend is always asked).
static inline bool tr_source_body_still(const tr_source *s, tread_body_id body) { return !s->backend && tr_world_body_still(s->world, body); }
// Where its surface velocity takes `point` over dt seconds, and its turn (tr_world_surface_carry).
static inline bool tr_source_surface_carry(const tr_source *s, tread_body_id body, tread_vec3 point, float dt, tread_vec3 *out_point,
                                           tread_quat *out_turn) {
    return s->backend ? tr_backend_surface_carry(s, body, point, dt, out_point, out_turn)
                      : tr_world_surface_carry(s->world, body, point, dt, out_point, out_turn);
}
static inline float tr_source_largest_motion(const tr_source *s) {
    return s->backend ? tr_backend_largest_motion(s) : tr_world_largest_motion(s->world);
}
static inline bool tr_source_has_one_way(const tr_source *s) {
    return s->backend ? tr_backend_has_one_way(s) : tr_world_one_way_count(s->world) > 0;
}

#endif
