// SPDX-License-Identifier: MIT
// A body's accessors: what its id reads (type, transform, motion, velocities, bounds, layer, user data) and the surface
// velocity it sets, checked for the public API and unchecked for the move's query layer (world_query.h). The world's
// own work (bodies added and removed, moved and advanced, the broadphase kept up) is world.c's; these only look a body
// up (world_internal.h) and read or write its fields.
#include "world_internal.h"
#include "world_query.h"
#include "../validate.h"

// ---- public accessors ---------------------------------------------------------------------------------------

bool tread_body_is_valid(const tread_world *w, tread_body_id id) { return tr_world_live_body(w, id) != NULL; }

tread_result tread_body_get_type(const tread_world *w, tread_body_id id, tread_body_type *out_type, uint32_t *out_flags) {
    tr_body *b;
    if (!out_type || !out_flags) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_type or out_flags is NULL");
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    *out_type = b->body_type;
    *out_flags = b->flags;
    return TREAD_OK;
}

tread_result tread_body_get_transform(const tread_world *w, tread_body_id id, tread_transform *out) {
    tr_body *b;
    if (!out) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_transform is NULL");
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r == TREAD_OK) *out = b->transform;
    return r;
}

tread_result tread_body_get_motion(const tread_world *w, tread_body_id id, tread_transform *out_previous, tread_transform *out_current) {
    tr_body *b;
    if (!out_previous || !out_current) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_previous or out_current is NULL");
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    *out_previous = b->previous;
    *out_current = b->transform;
    return TREAD_OK;
}

tread_result tread_body_get_velocity(const tread_world *w, tread_body_id id, tread_vec3 *out_linear, tread_vec3 *out_angular) {
    tr_body *b;
    if (!out_linear || !out_angular) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_linear or out_angular is NULL");
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    *out_linear = b->linear_velocity;
    *out_angular = b->angular_velocity;
    return TREAD_OK;
}

// The velocity of the body's material at a world point: its own motion and its surface's (motion.c).
static tread_vec3 point_velocity(const tr_body *b, tread_vec3 point) {
    return tr_material_velocity(b->linear_velocity, b->angular_velocity, &b->transform, &b->surface, point);
}

tread_result tread_body_get_point_velocity(const tread_world *w, tread_body_id id, tread_vec3 point, tread_vec3 *out) {
    tr_body *b;
    if (!out) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_velocity is NULL");
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    if ((r = tr_check_point("point", point)) != TREAD_OK) return r;
    *out = point_velocity(b, point);
    return TREAD_OK;
}

tread_result tread_body_set_surface_velocity(tread_world *w, tread_body_id id, const tread_surface_velocity *surface) {
    tr_body *b;
    if (!surface) return tr_error(TREAD_ERR_NULL_ARGUMENT, "surface is NULL");
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    if ((r = tr_validate_surface(false, surface, &b->local_bounds)) != TREAD_OK) return r;
    b->surface = *surface;
    tr_world_changed(w);
    return TREAD_OK;
}

tread_result tread_body_get_surface_velocity(const tread_world *w, tread_body_id id, tread_surface_velocity *out_surface) {
    tr_body *b;
    if (!out_surface) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_surface is NULL");
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    *out_surface = b->surface;
    return TREAD_OK;
}

tread_result tread_body_get_aabb(const tread_world *w, tread_body_id id, tread_aabb *out) {
    tr_body *b;
    if (!out) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_aabb is NULL");
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r == TREAD_OK) *out = b->aabb;
    return r;
}

tread_result tread_body_get_layer(const tread_world *w, tread_body_id id, uint32_t *out) {
    tr_body *b;
    if (!out) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_layer is NULL");
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r == TREAD_OK) *out = b->layer;
    return r;
}

void *tread_body_user_data(const tread_world *w, tread_body_id id) {
    tr_body *b = tr_world_live_body(w, id);
    return b ? b->user_data : NULL;
}

// ---- for the query layer: no argument checks, false for a stale id ------------------------------------------

bool tr_world_body_kind(const tread_world *w, tread_body_id id, tread_body_type *out_type, uint32_t *out_flags) {
    const tr_body *b = tr_world_live_body(w, id);
    if (!b) return false;
    *out_type = b->body_type;
    *out_flags = b->flags;
    return true;
}

bool tr_world_body_layer(const tread_world *w, tread_body_id id, uint32_t *out) {
    const tr_body *b = tr_world_live_body(w, id);
    if (b) *out = b->layer;
    return b != NULL;
}

bool tr_world_body_is_convex(const tread_world *w, tread_body_id id, bool *out) {
    const tr_body *b = tr_world_live_body(w, id);
    if (b) *out = tr_body_is_convex(b);
    return b != NULL;
}

bool tr_world_body_motion(const tread_world *w, tread_body_id id, tread_transform *out_previous, tread_transform *out_current) {
    TR_ASSERT(out_previous && out_current);
    const tr_body *b = tr_world_live_body(w, id);
    if (!b) return false;
    *out_previous = b->previous;
    *out_current = b->transform;
    return true;
}

bool tr_world_body_still(const tread_world *w, tread_body_id id) {
    const tr_body *b = tr_world_live_body(w, id);
    if (!b) return false;
    const tread_transform *p = &b->previous, *t = &b->transform;
    const tread_surface_velocity *s = &b->surface;
    // (Compared as tr_motion_carry_point and tr_surface_carry decide "no motion": the same bits either way.)
    return p->p.x == t->p.x && p->p.y == t->p.y && p->p.z == t->p.z && p->q.x == t->q.x && p->q.y == t->q.y && p->q.z == t->q.z &&
           p->q.w == t->q.w && tread_v3_length_sq(s->linear) == 0.0f && tread_v3_length_sq(s->angular) == 0.0f;
}

bool tr_world_body_carry_point(const tread_world *w, tread_body_id id, tread_vec3 point, tread_vec3 *out_point) {
    TR_ASSERT(out_point);
    const tr_body *b = tr_world_live_body(w, id);
    if (b) *out_point = tr_motion_carry_point(&b->previous, &b->transform, point);
    return b != NULL;
}

bool tr_world_point_velocity(const tread_world *w, tread_body_id id, tread_vec3 point, tread_vec3 *out) {
    const tr_body *b = tr_world_live_body(w, id);
    if (b) *out = point_velocity(b, point);
    return b != NULL;
}

bool tr_world_surface_carry(const tread_world *w, tread_body_id id, tread_vec3 point, float dt, tread_vec3 *out_point, tread_quat *out_turn) {
    const tr_body *b = tr_world_live_body(w, id);
    *out_point = point;
    *out_turn = tread_quat_identity();
    if (b) tr_surface_carry(&b->surface, &b->transform, point, dt, out_point, out_turn);
    return b != NULL;
}

bool tr_world_body_top(const tread_world *w, tread_body_id id, tread_vec3 up, float *out_top) {
    const tr_body *b = tr_world_live_body(w, id);
    if (b) *out_top = tr_bounds_top(&b->local_bounds, &b->previous, &b->transform, up);
    return b != NULL;
}
