// SPDX-License-Identifier: MIT
// tread's own world as a query backend (tread_world_backend): its unchecked queries and its bodies' facts behind the
// function pointers of tread_backend, the body accessors a backend built over the public API needs (shape type, own
// bounds, the last advance's largest motion), and how a query shape stands (tread_query_shape_rotation). Moves given
// this backend never call through it: the move query recognises it (tr_backend_is_world) and calls the world directly.
#include "world_internal.h"
#include "world_query.h"
#include "../geometry/box.h"
#include "../validate.h"

// ---- the queries: the whole world's (a move's candidates are the move query's own business) ----------------------

static void own_cast(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                     const tread_query_filter *filter, tread_shape_hit *out_hit) {
    (void)move;
    tr_world_cast_shape((const tread_world *)context, NULL, shape, position, translation, filter, out_hit);
}

static void own_cast_all(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                         const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count, bool *out_overflow) {
    (void)move;
    tr_world_cast_shape_all((const tread_world *)context, NULL, shape, position, translation, filter, hits, capacity, out_count, out_overflow);
}

static void own_ray(void *context, void *move, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                    tread_ray_hit *out_hit) {
    (void)move;
    tr_world_cast_ray((const tread_world *)context, NULL, origin, translation, filter, out_hit);
}

static void own_contacts(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, float margin,
                         const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count, bool *out_overflow) {
    (void)move;
    tr_world_collect_contacts((const tread_world *)context, NULL, shape, position, margin, filter, contacts, capacity, out_count, out_overflow);
}

static void own_closest(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                        const tread_query_filter *filter, tread_distance_result *out_result) {
    (void)move;
    tr_world_closest((const tread_world *)context, NULL, shape, position, max_distance, filter, out_result);
}

// ---- the bodies ------------------------------------------------------------------------------------------------

static bool own_body(void *context, tread_body_id id, tread_backend_body *out) {
    const tr_body *b = tr_world_live_body((const tread_world *)context, id);
    if (!b) return false;
    out->type = b->body_type;
    out->flags = b->flags;
    out->layer = b->layer;
    out->convex = tr_body_is_convex(b);
    out->local_bounds = b->local_bounds;
    return true;
}

static bool own_motion(void *context, tread_body_id id, tread_backend_motion *out) {
    const tr_body *b = tr_world_live_body((const tread_world *)context, id);
    if (!b) return false;
    out->previous = b->previous;
    out->current = b->transform;
    out->linear_velocity = b->linear_velocity;
    out->angular_velocity = b->angular_velocity;
    out->surface = b->surface;
    return true;
}

static float own_largest_motion(void *context) { return tr_world_largest_motion((const tread_world *)context); }

static bool own_has_one_way(void *context) { return tr_world_one_way_count((const tread_world *)context) > 0; }

tread_backend tread_world_backend(const tread_world *world) {
    tread_backend b = {.context = (void *)(uintptr_t)world, // read only: every function takes it back as const
                       .cast_shape = own_cast,
                       .cast_shape_all = own_cast_all,
                       .cast_ray = own_ray,
                       .collect_contacts = own_contacts,
                       .closest = own_closest,
                       .body = own_body,
                       .motion = own_motion,
                       .largest_motion = own_largest_motion,
                       .has_one_way = own_has_one_way};
    return b;
}

bool tr_backend_is_world(const tread_backend *b) {
    return !b->begin_move && !b->end_move && b->cast_shape == own_cast && b->cast_shape_all == own_cast_all && b->cast_ray == own_ray &&
           b->collect_contacts == own_contacts && b->closest == own_closest && b->body == own_body && b->motion == own_motion &&
           b->largest_motion == own_largest_motion && b->has_one_way == own_has_one_way;
}

// ---- what a backend over the public API needs besides the queries ----------------------------------------------

static tread_result live(const tread_world *w, tread_body_id id, const void *out, const char *out_name, const tr_body **body) {
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    if (!out) return tr_error(TREAD_ERR_NULL_ARGUMENT, "%s is NULL", out_name);
    if (!(*body = tr_world_live_body(w, id)))
        return tr_error(TREAD_ERR_INVALID_ID, "body id {index %u, generation %u} does not name a live body", id.index, id.generation);
    return TREAD_OK;
}

tread_result tread_body_get_shape_type(const tread_world *w, tread_body_id id, tread_shape_type *out_type) {
    const tr_body *b;
    tread_result r = live(w, id, out_type, "out_type", &b);
    if (r == TREAD_OK) *out_type = b->shape_type;
    return r;
}

tread_result tread_body_get_local_aabb(const tread_world *w, tread_body_id id, tread_aabb *out_aabb) {
    const tr_body *b;
    tread_result r = live(w, id, out_aabb, "out_aabb", &b);
    if (r == TREAD_OK) *out_aabb = b->local_bounds;
    return r;
}

float tread_world_largest_motion(const tread_world *w) { return w ? tr_world_largest_motion(w) : 0.0f; }

// ---- how a query shape stands: what an engine needs to build its own copy of one --------------------------------

// From the upright basis's matrix (Shepperd's method: the largest of the four candidates, so no division by a small
// number).
tread_quat tr_upright_rotation(tread_vec3 up) {
    tread_vec3 a[3];
    tr_upright_axes(up, a);
    float m00 = a[0].x, m11 = a[1].y, m22 = a[2].z; // columns are the axes
    float t = m00 + m11 + m22;
    tread_quat q;
    if (t > 0.0f) {
        float s = 0.5f / sqrtf(t + 1.0f);
        q = (tread_quat){(a[1].z - a[2].y) * s, (a[2].x - a[0].z) * s, (a[0].y - a[1].x) * s, 0.25f / s};
    } else if (m00 > m11 && m00 > m22) {
        float s = 2.0f * sqrtf(1.0f + m00 - m11 - m22);
        q = (tread_quat){0.25f * s, (a[1].x + a[0].y) / s, (a[2].x + a[0].z) / s, (a[1].z - a[2].y) / s};
    } else if (m11 > m22) {
        float s = 2.0f * sqrtf(1.0f + m11 - m00 - m22);
        q = (tread_quat){(a[1].x + a[0].y) / s, 0.25f * s, (a[2].y + a[1].z) / s, (a[2].x - a[0].z) / s};
    } else {
        float s = 2.0f * sqrtf(1.0f + m22 - m00 - m11);
        q = (tread_quat){(a[2].x + a[0].z) / s, (a[2].y + a[1].z) / s, 0.25f * s, (a[0].y - a[1].x) / s};
    }
    return tread_quat_normalize(q);
}

tread_quat tread_query_shape_rotation(const tread_query_shape *shape) {
    tread_vec3 up;
    if (!shape || !tr_v3_direction(shape->up, &up)) return tread_quat_identity();
    return tr_upright_rotation(up); // as the queries take it
}
