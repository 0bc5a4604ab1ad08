// SPDX-License-Identifier: MIT
// A move's queries on another engine's backend (source.h): the backend's answers checked against the contract's ids
// and counts, and a body's carry, turn, top and point velocity derived from its facts by the functions tread's world
// uses for its own bodies (src/world/motion.h), so the same state gives the same bits.
#include "source.h"


#include <string.h>

tread_result tr_source_of(const tread_backend *b, tr_source *out) {
    if (!b) return tr_error(TREAD_ERR_NULL_ARGUMENT, "backend is NULL");
    if (tr_backend_is_world(b)) {
        if (!b->context) return tr_error(TREAD_ERR_NULL_ARGUMENT, "backend->context is NULL; tread_world_backend needs the world");
        *out = tr_source_world((const tread_world *)b->context);
        return TREAD_OK;
    }
    static const struct {
        const char *name;
        size_t offset;
    } required[] = {
        {"cast_shape", offsetof(tread_backend, cast_shape)},
        {"cast_shape_all", offsetof(tread_backend, cast_shape_all)},
        {"cast_ray", offsetof(tread_backend, cast_ray)},
        {"collect_contacts", offsetof(tread_backend, collect_contacts)},
        {"closest", offsetof(tread_backend, closest)},
        {"body", offsetof(tread_backend, body)},
        {"motion", offsetof(tread_backend, motion)},
        {"largest_motion", offsetof(tread_backend, largest_motion)},
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; ++i) {
        void (*fn)(void);
        memcpy(&fn, (const char *)b + required[i].offset, sizeof fn);
        if (!fn) return tr_error(TREAD_ERR_NULL_ARGUMENT, "backend->%s is NULL; a backend needs it", required[i].name);
    }
    out->world = NULL;
    out->backend = b;
    out->move = NULL;
    return TREAD_OK;
}

tread_result tr_source_check(const tr_source *s) {
    if (!s->world && !s->backend) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    return TREAD_OK;
}

tread_result tr_backend_begin(tr_source *s, const tread_aabb *bounds) {
    if (!s->backend->begin_move) return TREAD_OK;
    tread_result r = s->backend->begin_move(s->backend->context, bounds, &s->move);
    if (r == TREAD_OK) return TREAD_OK;
    if ((int)r < 0 || r >= TREAD_RESULT_COUNT) r = TREAD_ERR_INVALID_ARGUMENT;
    return tr_error(r, "backend->begin_move failed (%s) for the move within (%g, %g, %g) .. (%g, %g, %g)", tread_result_name(r),
                    (double)bounds->min.x, (double)bounds->min.y, (double)bounds->min.z, (double)bounds->max.x, (double)bounds->max.y,
                    (double)bounds->max.z);
}

// ---- the backend's answers, checked ------------------------------------------------------------------------------

// A body id a backend named: generation 0 is the null id. (A backend names bodies only: tread sets the answers'
// `character` to -1, the batch's other characters being a query source of their own, move_query.c.)
static tread_result check_id(const char *function, tread_body_id id) {
    if (id.generation != 0u) return TREAD_OK;
    return tr_error(TREAD_ERR_INVALID_ARGUMENT, "backend->%s named body {index %u, generation 0}; a backend's ids have generation >= 1",
                    function, id.index);
}

// A list a backend returned: at most `capacity` results of `size` bytes, each naming a body (at `offset`) by a valid id.
static tread_result check_list(const char *function, const void *items, size_t size, size_t offset, int count, int capacity) {
    if (count < 0 || count > capacity)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "backend->%s returned %d results for a capacity of %d", function, count, capacity);
    for (int i = 0; i < count; ++i) {
        tread_body_id id;
        memcpy(&id, (const char *)items + (size_t)i * size + offset, sizeof id);
        tread_result r = check_id(function, id);
        if (r != TREAD_OK) return r;
    }
    return TREAD_OK;
}

tread_result tr_backend_cast(const tr_source *s, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                             const tread_query_filter *filter, tread_shape_hit *out_hit) {
    s->backend->cast_shape(s->backend->context, s->move, shape, position, translation, filter, out_hit);
    out_hit->character = -1;
    return out_hit->hit ? check_id("cast_shape", out_hit->body) : TREAD_OK;
}

tread_result tr_backend_cast_all(const tr_source *s, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                 const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count, bool *out_overflow) {
    *out_count = 0;
    *out_overflow = false;
    s->backend->cast_shape_all(s->backend->context, s->move, shape, position, translation, filter, hits, capacity, out_count, out_overflow);
    for (int i = 0; i < *out_count && i < capacity; ++i) hits[i].character = -1;
    return check_list("cast_shape_all", hits, sizeof *hits, offsetof(tread_shape_hit, body), *out_count, capacity);
}

tread_result tr_backend_ray(const tr_source *s, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                            tread_ray_hit *out_hit) {
    s->backend->cast_ray(s->backend->context, s->move, origin, translation, filter, out_hit);
    out_hit->character = -1;
    return out_hit->hit ? check_id("cast_ray", out_hit->body) : TREAD_OK;
}

tread_result tr_backend_contacts(const tr_source *s, const tread_query_shape *shape, tread_vec3 position, float margin,
                                 const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count, bool *out_overflow) {
    *out_count = 0;
    *out_overflow = false;
    s->backend->collect_contacts(s->backend->context, s->move, shape, position, margin, filter, contacts, capacity, out_count, out_overflow);
    for (int i = 0; i < *out_count && i < capacity; ++i) contacts[i].character = -1;
    return check_list("collect_contacts", contacts, sizeof *contacts, offsetof(tread_contact, body), *out_count, capacity);
}

tread_result tr_backend_closest(const tr_source *s, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                                const tread_query_filter *filter, tread_distance_result *out_result) {
    s->backend->closest(s->backend->context, s->move, shape, position, max_distance, filter, out_result);
    out_result->character = -1;
    return out_result->found ? check_id("closest", out_result->body) : TREAD_OK;
}

// ---- a body's facts and what tread derives from them -----------------------------------------------------------

static bool facts(const tr_source *s, tread_body_id body, tread_backend_body *out) { return s->backend->body(s->backend->context, body, out); }

static bool motion(const tr_source *s, tread_body_id body, tread_backend_motion *out) {
    return s->backend->motion(s->backend->context, body, out);
}

bool tr_backend_body_kind(const tr_source *s, tread_body_id body, tread_body_type *out_type, uint32_t *out_flags) {
    tread_backend_body b;
    if (!facts(s, body, &b)) return false;
    *out_type = b.type;
    *out_flags = b.flags;
    return true;
}

bool tr_backend_body_layer(const tr_source *s, tread_body_id body, uint32_t *out_layer) {
    tread_backend_body b;
    if (!facts(s, body, &b)) return false;
    *out_layer = b.layer;
    return true;
}

bool tr_backend_body_is_convex(const tr_source *s, tread_body_id body, bool *out_convex) {
    tread_backend_body b;
    if (!facts(s, body, &b)) return false;
    *out_convex = b.convex;
    return true;
}

bool tr_backend_body_top(const tr_source *s, tread_body_id body, tread_vec3 up, float *out_top) {
    tread_backend_body b;
    tread_backend_motion m;
    if (!facts(s, body, &b) || !motion(s, body, &m)) return false;
    *out_top = tr_bounds_top(&b.local_bounds, &m.previous, &m.current, up);
    return true;
}

bool tr_backend_point_velocity(const tr_source *s, tread_body_id body, tread_vec3 point, tread_vec3 *out_velocity) {
    tread_backend_motion m;
    if (!motion(s, body, &m)) return false;
    *out_velocity = tr_material_velocity(m.linear_velocity, m.angular_velocity, &m.current, &m.surface, point);
    return true;
}

bool tr_backend_ground_motion(const tr_source *s, tread_body_id body, tread_vec3 point, tread_vec3 *out_point, tread_quat *out_turn) {
    tread_backend_motion m;
    if (!motion(s, body, &m)) return false;
    *out_point = tr_motion_carry_point(&m.previous, &m.current, point);
    *out_turn = tr_motion_turn(&m.previous, &m.current);
    return true;
}


bool tr_backend_surface_carry(const tr_source *s, tread_body_id body, tread_vec3 point, float dt, tread_vec3 *out_point, tread_quat *out_turn) {
    tread_backend_motion m;
    *out_point = point;
    *out_turn = tread_quat_identity();
    if (!motion(s, body, &m)) return false;
    tr_surface_carry(&m.surface, &m.current, point, dt, out_point, out_turn);
    return true;
}

float tr_backend_largest_motion(const tr_source *s) {
    float reach = s->backend->largest_motion(s->backend->context);
    return reach > 0.0f ? reach : 0.0f; // (NaN too: nothing moved)
}

bool tr_backend_has_one_way(const tr_source *s) { return !s->backend->has_one_way || s->backend->has_one_way(s->backend->context); }
