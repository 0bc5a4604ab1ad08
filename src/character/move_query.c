// SPDX-License-Identifier: MIT
// The controller's per-move query layer over the world's unchecked queries (see move_query.h).
#include "move_query.h"

#include "../world/world_query.h"

// This thread's debug drawing (tread_set_debug_draw): a copy, so the caller's struct may go away.
static _Thread_local tread_debug_draw draw;
static _Thread_local bool drawing;

void tread_set_debug_draw(const tread_debug_draw *d) {
    drawing = d != NULL;
    if (d) draw = *d;
}

void tr_draw_ground(const tread_ground *ground, tread_vec3 feet) {
    if (drawing && draw.ground) draw.ground(ground, feet, draw.context);
}

void tr_draw_step(tread_vec3 from, tread_vec3 to, bool accepted) {
    if (drawing && draw.step) draw.step(from, to, accepted, draw.context);
}

static void draw_contacts(const tread_contact *contacts, int count) {
    if (!drawing || !draw.contact) return;
    for (int i = 0; i < count; ++i) draw.contact(&contacts[i], draw.context);
}

tread_result tr_move_query_begin(tr_move_query *q, const tread_world *w, tread_vec3 center, float reach) {
    TR_ASSERT(q && w && isfinite(reach) && reach >= 0.0f);
    tread_vec3 r = tread_v3(reach, reach, reach);
    tread_aabb b = {tread_v3_sub(center, r), tread_v3_add(center, r)};
    if (!tread_v3_is_finite(center) || fabsf(center.x) + reach > TR_MAX_COORDINATE || fabsf(center.y) + reach > TR_MAX_COORDINATE ||
        fabsf(center.z) + reach > TR_MAX_COORDINATE)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT,
                        "the move around (%g, %g, %g) reaches %g m, past the %g m coordinate limit", (double)center.x,
                        (double)center.y, (double)center.z, (double)reach, (double)TR_MAX_COORDINATE);
    q->world = w;
    q->bounds = b;
    q->filter = NULL;
    return TREAD_OK;
}

// Radius of a sphere around the shape's centre that holds the shape.
static float shape_reach(const tread_query_shape *s) {
    if (s->type == TREAD_QUERY_BOX) return tread_v3_length(s->half_extents);
    return s->radius + (s->type == TREAD_QUERY_CAPSULE ? s->half_height : 0.0f);
}

static bool inside(const tread_aabb *b, tread_vec3 p, float r) {
    return p.x - r >= b->min.x && p.y - r >= b->min.y && p.z - r >= b->min.z && p.x + r <= b->max.x && p.y + r <= b->max.y &&
           p.z + r <= b->max.z;
}

// The query (from `position` to `position + translation`, grown by `r`) stays inside the move's bounds.
static tread_result check_reach(const tr_move_query *q, tread_vec3 position, tread_vec3 translation, float r) {
    tread_vec3 end = tread_v3_add(position, translation);
    if (inside(&q->bounds, position, r) && inside(&q->bounds, end, r)) return TREAD_OK;
    return tr_error(TREAD_ERR_INVALID_ARGUMENT,
                    "a query of this move from (%g, %g, %g) to (%g, %g, %g) leaves the bounds validated when the move began",
                    (double)position.x, (double)position.y, (double)position.z, (double)end.x, (double)end.y, (double)end.z);
}

// A query's filter and the move's, both applied: the masks intersected, the first's ignored body and callback kept,
// the move's checked by a callback that wraps them.
typedef struct both_filters {
    const tread_query_filter *query, *move;
} both_filters;

static bool both_accept(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    const both_filters *f = (const both_filters *)context;
    if (tread_body_id_equal(body, f->move->ignore_body)) return false;
    if (f->move->callback && !f->move->callback(body, layer, user_data, f->move->context)) return false;
    return !f->query->callback || f->query->callback(body, layer, user_data, f->query->context);
}

static const tread_query_filter *combine(const tr_move_query *q, const tread_query_filter *filter, both_filters *both,
                                         tread_query_filter *out) {
    if (!q->filter) return filter;
    TR_ASSERT(filter); // the phases always pass the character's masks
    both->query = filter;
    both->move = q->filter;
    *out = *filter;
    out->layer_mask &= q->filter->layer_mask;
    out->callback = both_accept;
    out->context = both;
    return out;
}

#define COMBINED(q, filter) \
    both_filters both_; \
    tread_query_filter combined_; \
    filter = combine(q, filter, &both_, &combined_)

tread_result tr_query_cast(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                           const tread_query_filter *filter, tread_shape_hit *out_hit) {
    tread_result r = check_reach(q, position, translation, shape_reach(shape));
    if (r != TREAD_OK) return r;
    COMBINED(q, filter);
    tr_world_cast_shape(q->world, shape, position, translation, filter, out_hit);
    if (drawing && draw.cast) draw.cast(shape, position, translation, out_hit, draw.context);
    return TREAD_OK;
}

tread_result tr_query_cast_all(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                               const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count) {
    tread_result r = check_reach(q, position, translation, shape_reach(shape));
    if (r != TREAD_OK) return r;
    COMBINED(q, filter);
    bool overflow = false; // the closest `capacity` hits are kept: the nearest surfaces are the ones that matter
    tr_world_cast_shape_all(q->world, shape, position, translation, filter, hits, capacity, out_count, &overflow);
    if (drawing && draw.cast) {
        tread_shape_hit none;
        none.hit = false;
        draw.cast(shape, position, translation, *out_count > 0 ? &hits[0] : &none, draw.context);
    }
    return TREAD_OK;
}

tread_result tr_query_ray(const tr_move_query *q, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                          tread_ray_hit *out_hit) {
    tread_result r = check_reach(q, origin, translation, 0.0f);
    if (r != TREAD_OK) return r;
    COMBINED(q, filter);
    tr_world_cast_ray(q->world, origin, translation, filter, out_hit);
    return TREAD_OK;
}

tread_result tr_query_contacts(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float margin,
                               const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count,
                               bool *out_overflow) {
    tread_result r = check_reach(q, position, tread_v3_zero(), shape_reach(shape) + margin);
    if (r != TREAD_OK) return r;
    COMBINED(q, filter);
    tr_world_collect_contacts(q->world, shape, position, margin, filter, contacts, capacity, out_count, out_overflow);
    draw_contacts(contacts, *out_count);
    return TREAD_OK;
}

tread_result tr_query_closest(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                              const tread_query_filter *filter, tread_distance_result *out_result) {
    tread_result r = check_reach(q, position, tread_v3_zero(), shape_reach(shape) + max_distance);
    if (r != TREAD_OK) return r;
    COMBINED(q, filter);
    tr_world_closest(q->world, shape, position, max_distance, filter, out_result);
    return TREAD_OK;
}

bool tr_query_body_is_live(const tr_move_query *q, tread_body_id body) {
    uint32_t layer;
    return tr_world_body_layer(q->world, body, &layer);
}

tread_result tr_query_body_layer(const tr_move_query *q, tread_body_id body, uint32_t *out_layer) {
    if (tr_world_body_layer(q->world, body, out_layer)) return TREAD_OK;
    return tr_error(TREAD_ERR_INVALID_ID, "body {index %u, generation %u} met during this move is gone", body.index, body.generation);
}

tread_result tr_query_body_is_convex(const tr_move_query *q, tread_body_id body, bool *out_convex) {
    if (tr_world_body_is_convex(q->world, body, out_convex)) return TREAD_OK;
    return tr_error(TREAD_ERR_INVALID_ID, "body {index %u, generation %u} met during this move is gone", body.index, body.generation);
}

tread_result tr_query_point_velocity(const tr_move_query *q, tread_body_id body, tread_vec3 point, tread_vec3 *out_velocity) {
    if (tr_world_point_velocity(q->world, body, point, out_velocity)) return TREAD_OK;
    return tr_error(TREAD_ERR_INVALID_ID, "body {index %u, generation %u} met during this move is gone", body.index, body.generation);
}

void tr_ground_motion(const tread_world *w, tread_body_id body, tread_vec3 point, tread_vec3 *out_point, tread_quat *out_turn) {
    tread_transform previous, current;
    *out_point = point;
    *out_turn = tread_quat_identity();
    if (!tr_world_body_motion(w, body, &previous, &current) || !tr_world_body_carry_point(w, body, point, out_point)) return;
    // current * inverse(previous): unit rotations, so the inverse is the conjugate.
    tread_quat back = {-previous.q.x, -previous.q.y, -previous.q.z, previous.q.w};
    *out_turn = tread_quat_normalize(tread_quat_mul(current.q, back));
}

float tr_pushers_reach(const tread_world *w) { return tr_world_largest_motion(w); }

void tr_surface_motion(const tread_world *w, tread_body_id body, tread_vec3 point, float dt, tread_vec3 *out_point, tread_quat *out_turn) {
    tr_world_surface_carry(w, body, point, dt, out_point, out_turn);
}
