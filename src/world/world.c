// SPDX-License-Identifier: MIT
// The collision world: bodies behind generation-checked ids, their shapes, and the broadphase upkeep
// (refit on move, rebuild when degraded or when enough bodies were added or removed). What a body's id reads is
// body_access.c's; the setters that change how a body moves stay here, beside the advance: a new transform refits its
// leaf, a new velocity may rebase its exact rotation.
#include "world_internal.h"
#include "world_query.h"
#include "../validate.h"

#include <float.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

// Rebuild the broadphase when the refit tree costs this many times its freshly built cost.
#define TR_TREE_DEGRADE_RATIO 2.0f
// Room the tree keeps for bodies added after a rebuild (besides half as many again as it holds), and how many
// removed bodies (plus half the tree) it carries before it is rebuilt.
#define TR_PENDING_BASE 16
// Worlds of at most this many bodies have no tree: their queries scan them all.
#define TR_SMALL_WORLD 16
#define TR_BODY_LEAF_ITEMS 2

// ---- exact kinematic rotation ----------------------------------------------------------------------------

// Largest angle accumulated about one axis before the base is moved up to the rotation reached (radians): keeps
// tr_sincos in range with a wide margin (2^20 rad is 12 days at 1 rad/s).
#define TR_SPIN_REBASE_ANGLE 1048576.0

// The unit direction of an angular velocity, in double; false (and *axis untouched) for zero.
static bool spin_axis_of(tread_vec3 w, double axis[3]) {
    double x = w.x, y = w.y, z = w.z, len = sqrt(x * x + y * y + z * z);
    if (!(len > 0.0)) return false;
    axis[0] = x / len, axis[1] = y / len, axis[2] = z / len;
    return true;
}

// Start turning afresh from the rotation the body has now, about its angular velocity's axis.
static void spin_rebase(tr_body *b) {
    b->spin_base = b->transform.q;
    b->spin_angle = 0.0;
    b->spin_error = 0.0;
    if (!spin_axis_of(b->angular_velocity, b->spin_axis)) b->spin_axis[0] = b->spin_axis[1] = b->spin_axis[2] = 0.0;
}

// The rotation spin_angle about spin_axis applied after spin_base: (axis sin(a/2), cos(a/2)) * base in double,
// normalised, rounded once to float. Rounding never accumulates from frame to frame.
static tread_quat spin_rotation(const tr_body *b) {
    double s, c;
    tr_sincos(0.5 * b->spin_angle, &s, &c);
    double ax = b->spin_axis[0] * s, ay = b->spin_axis[1] * s, az = b->spin_axis[2] * s, aw = c;
    double bx = b->spin_base.x, by = b->spin_base.y, bz = b->spin_base.z, bw = b->spin_base.w;
    double x = aw * bx + ax * bw + ay * bz - az * by;
    double y = aw * by - ax * bz + ay * bw + az * bx;
    double z = aw * bz + ax * by - ay * bx + az * bw;
    double w = aw * bw - ax * bx - ay * by - az * bz;
    double inv = 1.0 / sqrt(x * x + y * y + z * z + w * w);
    tread_quat q = {(float)(x * inv), (float)(y * inv), (float)(z * inv), (float)(w * inv)};
    return q;
}

// ---- validation -------------------------------------------------------------------------------------

static bool in_range(float v) { return isfinite(v) && fabsf(v) <= TR_MAX_COORDINATE; }

static tread_result validate_extent(const char *name, float v, bool allow_zero) {
    if (!isfinite(v)) return tr_error(TREAD_ERR_NOT_FINITE, "%s is %g; expected a finite number", name, (double)v);
    if (v < 0.0f || (!allow_zero && v == 0.0f) || v > TR_MAX_COORDINATE)
        return tr_error(TREAD_ERR_INVALID_SHAPE, "%s is %g; expected %s and at most %g m", name, (double)v,
                        allow_zero ? ">= 0" : "> 0", (double)TR_MAX_COORDINATE);
    return TREAD_OK;
}

static tread_result validate_shape(const tread_shape_def *s) {
    tread_result r = TREAD_OK;
    switch (s->type) {
    case TREAD_SHAPE_SPHERE:
        return validate_extent("shape.radius", s->radius, false);
    case TREAD_SHAPE_CAPSULE:
        r = validate_extent("shape.radius", s->radius, false);
        return r != TREAD_OK ? r : validate_extent("shape.half_height", s->half_height, true);
    case TREAD_SHAPE_BOX:
        if ((r = validate_extent("shape.half_extents.x", s->half_extents.x, false)) != TREAD_OK) return r;
        if ((r = validate_extent("shape.half_extents.y", s->half_extents.y, false)) != TREAD_OK) return r;
        return validate_extent("shape.half_extents.z", s->half_extents.z, false);
    case TREAD_SHAPE_MESH:
        return tr_mesh_validate(&s->mesh);
    case TREAD_SHAPE_HEIGHTFIELD:
        return tr_heightfield_validate(&s->heightfield);
    case TREAD_SHAPE_VOXELS:
        return tr_voxels_validate(&s->voxels);
    default:
        return tr_error(TREAD_ERR_INVALID_SHAPE, "shape.type is %d; expected a tread_shape_type", (int)s->type);
    }
}

static tread_result validate_transform(const char *name, tread_transform t) {
    if (!tread_v3_is_finite(t.p) || !tread_quat_is_finite(t.q))
        return tr_error(TREAD_ERR_NOT_FINITE, "%s has a NaN or infinite component", name);
    if (!in_range(t.p.x) || !in_range(t.p.y) || !in_range(t.p.z))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s.p = (%g, %g, %g) lies beyond %g m", name, (double)t.p.x,
                        (double)t.p.y, (double)t.p.z, (double)TR_MAX_COORDINATE);
    float len_sq = tread_quat_length_sq(t.q);
    if (len_sq < 0.5f || len_sq > 2.0f)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s.q has length^2 %g; expected a unit quaternion", name, (double)len_sq);
    return TREAD_OK;
}

static tread_result validate_velocity(const char *name, tread_vec3 v) {
    if (!tread_v3_is_finite(v)) return tr_error(TREAD_ERR_NOT_FINITE, "%s has a NaN or infinite component", name);
    if (!in_range(v.x) || !in_range(v.y) || !in_range(v.z))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s = (%g, %g, %g) exceeds %g per second", name, (double)v.x,
                        (double)v.y, (double)v.z, (double)TR_MAX_COORDINATE);
    return TREAD_OK;
}

// ---- bounds -----------------------------------------------------------------------------------------

tread_aabb tr_transform_bounds(tread_transform t, tread_aabb local) {
    tread_vec3 c = tread_transform_point(t, tread_aabb_center(local));
    tread_vec3 e = tread_aabb_extents(local);
    // |R| e: the world half extents of a rotated box.
    tread_vec3 ax = tread_v3_abs(tread_quat_rotate(t.q, tread_v3(e.x, 0.0f, 0.0f)));
    tread_vec3 ay = tread_v3_abs(tread_quat_rotate(t.q, tread_v3(0.0f, e.y, 0.0f)));
    tread_vec3 az = tread_v3_abs(tread_quat_rotate(t.q, tread_v3(0.0f, 0.0f, e.z)));
    tread_vec3 h = tread_v3_add(tread_v3_add(ax, ay), az);
    tread_aabb box;
    box.min = tread_v3_sub(c, h);
    box.max = tread_v3_add(c, h);
    return box;
}

static tread_aabb local_bounds(const tr_body *b) {
    switch (b->shape_type) {
    case TREAD_SHAPE_SPHERE:
        return tread_aabb_make(tread_v3(-b->radius, -b->radius, -b->radius), tread_v3(b->radius, b->radius, b->radius));
    case TREAD_SHAPE_CAPSULE: {
        float h = b->half_height + b->radius;
        return tread_aabb_make(tread_v3(-b->radius, -h, -b->radius), tread_v3(b->radius, h, b->radius));
    }
    case TREAD_SHAPE_BOX:
        return tread_aabb_make(tread_v3_neg(b->half_extents), b->half_extents);
    case TREAD_SHAPE_MESH:
        return b->mesh->bounds;
    case TREAD_SHAPE_HEIGHTFIELD:
        return b->heightfield->bounds;
    case TREAD_SHAPE_VOXELS:
        return b->voxels->bounds;
    default:
        TR_ASSERT(false);
        return tread_aabb_make(tread_v3_zero(), tread_v3_zero());
    }
}

// ---- broadphase upkeep ---------------------------------------------------------------------------------

static void rebuild_tree(tread_world *w) {
    tr_bvh_destroy(&w->tree);
    tr_free(w->tree_boxes);
    tr_free(w->tree_body);
    w->tree_boxes = NULL;
    w->tree_body = NULL;
    w->tree_items = 0;
    w->tree_capacity = 0;
    w->tree_dead = 0;
    w->pending_count = 0;
    w->refits_since_check = 0;
    w->tree_built_cost = 0.0f;
    int n = w->live_count;
    // Room for bodies added later to go straight into the tree (see insert_proxy).
    int capacity = n + n / 2 + TR_PENDING_BASE;
    if (n > 0) {
        w->tree_boxes = (tread_aabb *)tr_alloc(sizeof(tread_aabb) * (size_t)capacity);
        w->tree_body = (int32_t *)tr_alloc(sizeof(int32_t) * (size_t)capacity);
    }
    bool ok = n == 0 || (w->tree_boxes && w->tree_body);
    int k = 0;
    for (int i = 0; ok && i < w->slot_count; ++i) {
        if (!w->bodies[i].alive) continue;
        w->tree_boxes[k] = w->bodies[i].aabb;
        w->tree_body[k] = i;
        w->bodies[i].proxy = k;
        ++k;
    }
    if (ok && n > 0) ok = tr_bvh_build(&w->tree, w->tree_boxes, n, TR_BODY_LEAF_ITEMS);
    if (ok) {
        w->tree_items = n;
        // Without the reserve the tree still works; new bodies then wait in `pending` until the next rebuild.
        if (n > 0 && tr_bvh_reserve(&w->tree, capacity)) w->tree_capacity = capacity;
        w->tree_built_cost = tr_bvh_cost(&w->tree);
        return;
    }
    // Out of memory: fall back to scanning every body linearly (correct, just slower).
    tr_bvh_destroy(&w->tree);
    tr_free(w->tree_boxes);
    tr_free(w->tree_body);
    w->tree_boxes = NULL;
    w->tree_body = NULL;
    for (int i = 0; i < w->slot_count; ++i) {
        if (!w->bodies[i].alive) continue;
        w->bodies[i].proxy = -1;
        if (w->pending_count < w->pending_capacity) w->pending[w->pending_count++] = i;
    }
}

static bool tree_needs_rebuild(const tread_world *w) {
    return w->pending_count > TR_PENDING_BASE + w->tree_items / 4 || w->tree_dead > TR_PENDING_BASE + w->tree_items / 2;
}

static void maybe_rebuild(tread_world *w) {
    if (tree_needs_rebuild(w)) rebuild_tree(w);
}

// Put a new body straight into the tree when it has room (a greedy insertion, O(depth)), so queries do not
// scan it linearly; checks the tree's quality as refits do. False: the body must wait in `pending`.
static bool insert_proxy(tread_world *w, int32_t slot) {
    if (w->tree.node_count == 0 || w->pending_count > 0 || w->tree_items >= w->tree_capacity) return false;
    int k = w->tree_items;
    w->tree_boxes[k] = w->bodies[slot].aabb;
    w->tree_body[k] = slot;
    if (!tr_bvh_insert(&w->tree, k, w->tree_boxes)) return false;
    w->bodies[slot].proxy = k;
    ++w->tree_items;
    if (++w->refits_since_check >= w->tree_items) {
        w->refits_since_check = 0;
        if (tr_bvh_cost(&w->tree) > TR_TREE_DEGRADE_RATIO * w->tree_built_cost) rebuild_tree(w);
    }
    return true;
}

// A body's bounds changed: refit its leaf; check the tree's quality once per tree-size worth of refits.
static void update_proxy(tread_world *w, tr_body *b) {
    if (b->proxy < 0) return;
    w->tree_boxes[b->proxy] = b->aabb;
    tr_bvh_refit_item(&w->tree, b->proxy, w->tree_boxes);
    if (++w->refits_since_check >= w->tree_items) {
        w->refits_since_check = 0;
        if (tr_bvh_cost(&w->tree) > TR_TREE_DEGRADE_RATIO * w->tree_built_cost) rebuild_tree(w);
    }
}

// ---- world ------------------------------------------------------------------------------------------

tread_result tread_world_create(const tread_world_def *def, tread_world **out_world) {
    if (!out_world) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_world is NULL");
    *out_world = NULL;
    tread_result r = def ? tr_check_cookie(def->internal_cookie, "def", "tread_world_def", "tread_world_def_default()") : TREAD_OK;
    if (r != TREAD_OK) return r;
    tread_world_def d = def ? *def : tread_world_def_default();
    if (d.body_capacity < 0 || d.body_capacity > (1 << 28))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "def.body_capacity is %d; expected 0 .. 2^28", d.body_capacity);
    tread_world *w = (tread_world *)tr_alloc(sizeof *w);
    if (!w) return tr_error(TREAD_ERR_OUT_OF_MEMORY, "allocating the world failed");
    memset(w, 0, sizeof *w);
    w->free_list = -1;
    int cap = d.body_capacity > 0 ? d.body_capacity : 1;
    w->bodies = (tr_body *)tr_alloc(sizeof(tr_body) * (size_t)cap);
    w->pending = (int32_t *)tr_alloc(sizeof(int32_t) * (size_t)cap);
    if (!w->bodies || !w->pending) {
        tr_free(w->bodies);
        tr_free(w->pending);
        tr_free(w);
        return tr_error(TREAD_ERR_OUT_OF_MEMORY, "allocating %d bodies failed", cap);
    }
    w->body_capacity = cap;
    w->pending_capacity = cap;
    // (Process-wide, so that no two worlds ever share a serial: a move's cache names the world by it.)
    static atomic_uint_least64_t worlds_created;
    w->serial = (uint64_t)atomic_fetch_add(&worlds_created, 1u) + 1u;
    *out_world = w;
    return TREAD_OK;
}

static void free_shape(tr_body *b) {
    if (b->mesh) tr_mesh_destroy(b->mesh);
    if (b->heightfield) tr_heightfield_destroy(b->heightfield);
    if (b->voxels) tr_voxels_destroy(b->voxels);
    tr_free(b->mesh);
    tr_free(b->heightfield);
    tr_free(b->voxels);
    b->mesh = NULL;
    b->heightfield = NULL;
    b->voxels = NULL;
}

void tread_world_destroy(tread_world *w) {
    if (!w) return;
    for (int i = 0; i < w->slot_count; ++i)
        if (w->bodies[i].alive) free_shape(&w->bodies[i]);
    tr_bvh_destroy(&w->tree);
    tr_free(w->tree_boxes);
    tr_free(w->tree_body);
    tr_free(w->pending);
    tr_free(w->bodies);
    tr_free(w);
}

static bool grow_bodies(tread_world *w) {
    int cap = w->body_capacity * 2;
    tr_body *bodies = (tr_body *)tr_alloc(sizeof(tr_body) * (size_t)cap);
    int32_t *pending = (int32_t *)tr_alloc(sizeof(int32_t) * (size_t)cap);
    if (!bodies || !pending) {
        tr_free(bodies);
        tr_free(pending);
        return false;
    }
    memcpy(bodies, w->bodies, sizeof(tr_body) * (size_t)w->slot_count);
    memcpy(pending, w->pending, sizeof(int32_t) * (size_t)w->pending_count);
    tr_free(w->bodies);
    tr_free(w->pending);
    w->bodies = bodies;
    w->pending = pending;
    w->body_capacity = cap;
    w->pending_capacity = cap;
    return true;
}

// Build the body's owned shape data (mesh BVH, heightfield, voxels) from a validated definition.
static tread_result create_shape(tr_body *b, const tread_shape_def *s) {
    b->shape_type = s->type;
    b->radius = s->radius;
    b->half_height = s->half_height;
    b->half_extents = s->half_extents;
    tread_result r = TREAD_OK;
    switch (s->type) {
    case TREAD_SHAPE_MESH:
        b->mesh = (tr_mesh *)tr_alloc(sizeof(tr_mesh));
        if (!b->mesh) return tr_error(TREAD_ERR_OUT_OF_MEMORY, "allocating a mesh failed");
        r = tr_mesh_create(b->mesh, &s->mesh);
        break;
    case TREAD_SHAPE_HEIGHTFIELD:
        b->heightfield = (tr_heightfield *)tr_alloc(sizeof(tr_heightfield));
        if (!b->heightfield) return tr_error(TREAD_ERR_OUT_OF_MEMORY, "allocating a heightfield failed");
        r = tr_heightfield_create(b->heightfield, &s->heightfield);
        break;
    case TREAD_SHAPE_VOXELS:
        b->voxels = (tr_voxels *)tr_alloc(sizeof(tr_voxels));
        if (!b->voxels) return tr_error(TREAD_ERR_OUT_OF_MEMORY, "allocating a voxel grid failed");
        r = tr_voxels_create(b->voxels, &s->voxels);
        break;
    default:
        break;
    }
    if (r != TREAD_OK) {
        // The module's create failed part way: free only the outer allocation, its own cleanup ran.
        tr_free(b->mesh);
        tr_free(b->heightfield);
        tr_free(b->voxels);
        b->mesh = NULL;
        b->heightfield = NULL;
        b->voxels = NULL;
    }
    return r;
}

tread_result tread_world_add_body(tread_world *w, const tread_body_def *def, tread_body_id *out_body) {
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    if (!def) return tr_error(TREAD_ERR_NULL_ARGUMENT, "def is NULL");
    if (!out_body) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_body is NULL");
    *out_body = tread_body_id_null();
    tread_result r;
    if ((r = tr_check_cookie(def->internal_cookie, "def", "tread_body_def", "tread_body_def_default()")) != TREAD_OK) return r;
    if ((r = tr_check_cookie(def->shape.internal_cookie, "def.shape", "tread_shape_def",
                             "tread_shape_def_default() or tread_shape_sphere() / capsule() / box() / mesh()")) != TREAD_OK)
        return r;
    if (def->type != TREAD_BODY_STATIC && def->type != TREAD_BODY_KINEMATIC && def->type != TREAD_BODY_DYNAMIC)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "def.type is %d; expected TREAD_BODY_STATIC, TREAD_BODY_KINEMATIC or TREAD_BODY_DYNAMIC",
                        (int)def->type);
    if ((def->flags & ~(uint32_t)(TREAD_BODY_ONE_WAY | TREAD_BODY_SENSOR)) != 0u ||
        (def->flags & (uint32_t)(TREAD_BODY_ONE_WAY | TREAD_BODY_SENSOR)) == (uint32_t)(TREAD_BODY_ONE_WAY | TREAD_BODY_SENSOR))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "def.flags is 0x%x; expected 0, TREAD_BODY_ONE_WAY or TREAD_BODY_SENSOR", def->flags);
    if (def->layer >= TREAD_MAX_LAYERS)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "def.layer is %u; expected 0 .. %d", def->layer, TREAD_MAX_LAYERS - 1);
    if ((r = validate_transform("def.transform", def->transform)) != TREAD_OK) return r;
    if ((r = validate_velocity("def.linear_velocity", def->linear_velocity)) != TREAD_OK) return r;
    if ((r = validate_velocity("def.angular_velocity", def->angular_velocity)) != TREAD_OK) return r;
    if ((r = validate_shape(&def->shape)) != TREAD_OK) return r;
    if (w->free_list < 0 && w->slot_count == w->body_capacity && !grow_bodies(w))
        return tr_error(TREAD_ERR_OUT_OF_MEMORY, "growing the body array past %d failed", w->body_capacity);

    tr_body body;
    memset(&body, 0, sizeof body);
    if ((r = create_shape(&body, &def->shape)) != TREAD_OK) return r;
    // (The surface's speed is judged over the shape's bounds.)
    body.local_bounds = local_bounds(&body);
    if ((r = tr_validate_surface(true, &def->surface, &body.local_bounds)) != TREAD_OK) {
        free_shape(&body);
        return r;
    }
    int32_t slot = w->free_list >= 0 ? w->free_list : w->slot_count;
    uint32_t generation = slot < w->slot_count ? w->bodies[slot].generation + 1u : 1u;
    if (generation == 0u) generation = 1u; // wrapped: 0 is reserved for the null id
    if (w->free_list >= 0) w->free_list = w->bodies[slot].next_free;
    else ++w->slot_count;
    body.body_type = def->type;
    body.transform = def->transform;
    body.transform.q = tread_quat_normalize(def->transform.q);
    body.previous = body.transform;
    body.linear_velocity = def->linear_velocity;
    body.angular_velocity = def->angular_velocity;
    body.surface = def->surface;
    spin_rebase(&body);
    body.layer = def->layer;
    body.flags = def->flags;
    body.user_data = def->user_data;
    body.generation = generation;
    body.alive = true;
    body.next_free = -1;
    body.local_bounds = local_bounds(&body);
    body.aabb = tr_transform_bounds(body.transform, body.local_bounds);
    body.proxy = -1;
    w->bodies[slot] = body;
    ++w->live_count;
    if (def->flags & TREAD_BODY_ONE_WAY) ++w->one_way_count;
    // Into the tree at once: when it is full (or not built yet), the tree is built anew with room for half as many
    // again (amortised O(log n) per body). Bodies used to wait in a list every query scanned until it reached a
    // quarter of the tree: a world whose last bodies landed there kept them scanned for good (6k-20k characters on
    // a scaled P1 field cost 6.8-23 us per update instead of 1.2-1.8). Only a world of at most TR_SMALL_WORLD bodies
    // keeps them in the list, and has no tree: scanning a handful costs less than walking a tree over them (S1's 11
    // bodies: 1,700 instructions a move more through a tree).
    if (insert_proxy(w, slot)) {
    } else if (w->tree.node_count == 0 && w->pending_count < TR_SMALL_WORLD && w->pending_count < w->pending_capacity) {
        w->pending[w->pending_count++] = slot;
    } else {
        rebuild_tree(w);
    }
    tr_world_changed(w);
    out_body->index = (uint32_t)slot;
    out_body->generation = generation;
    return TREAD_OK;
}

int tread_world_body_count(const tread_world *w) { return w ? w->live_count : 0; }

tread_result tread_world_remove_body(tread_world *w, tread_body_id id) {
    tr_body *b;
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    free_shape(b);
    int32_t slot = (int32_t)id.index;
    if (b->proxy >= 0) {
        w->tree_body[b->proxy] = -1;
        ++w->tree_dead;
    } else {
        for (int i = 0; i < w->pending_count; ++i) {
            if (w->pending[i] != slot) continue;
            // Keep pending in insertion order so query results do not depend on removal history.
            memmove(&w->pending[i], &w->pending[i + 1], sizeof(int32_t) * (size_t)(w->pending_count - i - 1));
            --w->pending_count;
            break;
        }
    }
    if (b->flags & TREAD_BODY_ONE_WAY) --w->one_way_count;
    b->alive = false;
    b->proxy = -1;
    b->next_free = w->free_list;
    w->free_list = slot;
    --w->live_count;
    maybe_rebuild(w);
    tr_world_changed(w);
    return TREAD_OK;
}

tread_result tread_body_set_transform(tread_world *w, tread_body_id id, tread_transform transform) {
    tr_body *b;
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    if ((r = validate_transform("transform", transform)) != TREAD_OK) return r;
    b->transform = transform;
    b->transform.q = tread_quat_normalize(transform.q);
    b->previous = b->transform; // a teleport: no motion over the frame, nothing is carried across it
    b->moved = false;
    spin_rebase(b);
    b->aabb = tr_transform_bounds(b->transform, b->local_bounds);
    update_proxy(w, b);
    tr_world_changed(w);
    return TREAD_OK;
}

// How far any point of a body can have gone from its previous transform to its current one (metres, a bound): the
// translation plus the turn at its farthest point. A turn by angle a moves a point at distance r by 2 r sin(a/2), and
// sin(a/2) <= |q1 - q2| for the two unit quaternions on the same side (no trigonometry needed for the bound).
static float motion_bound(const tr_body *b) {
    tread_quat p = b->previous.q, q = b->transform.q;
    float sign = p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w < 0.0f ? -1.0f : 1.0f;
    float dx = q.x - sign * p.x, dy = q.y - sign * p.y, dz = q.z - sign * p.z, dw = q.w - sign * p.w;
    float chord = sqrtf(dx * dx + dy * dy + dz * dz + dw * dw);
    tread_vec3 far = tread_v3_max(tread_v3_abs(b->local_bounds.min), tread_v3_abs(b->local_bounds.max));
    return tread_v3_distance(b->previous.p, b->transform.p) + 2.0f * chord * tread_v3_length(far);
}

// How far the farthest point of a body went from its previous transform to its current one (metres, to float
// rounding): the translation plus the turn's chord there, 2 r sin(a/2), where sin(a/2) is the length of the vector
// part of the relative rotation.
static float farthest_motion(const tr_body *b) {
    tread_quat turn = tr_motion_turn(&b->previous, &b->transform);
    tread_vec3 far = tread_v3_max(tread_v3_abs(b->local_bounds.min), tread_v3_abs(b->local_bounds.max));
    float half_sine = tread_v3_length(tread_v3(turn.x, turn.y, turn.z));
    return tread_v3_distance(b->previous.p, b->transform.p) + 2.0f * half_sine * tread_v3_length(far);
}

// A dynamic body that went farther than TR_MAX_SPEED allows over `dt` seconds did not move there: it was put there (a
// respawn, a reset). Like tread_body_set_transform, it is at its new place with no motion over the frame, so it pushes
// and carries no one: moved 100 m in one frame, a body once pushed a bystander 50.8 m in that frame.
static bool teleported(tr_body *b, float dt) {
    if (!(farthest_motion(b) > TR_MAX_SPEED * dt)) return false;
    b->previous = b->transform;
    return true;
}

tread_result tread_body_move_to(tread_world *w, tread_body_id id, tread_transform transform, tread_vec3 linear, tread_vec3 angular) {
    tr_body *b;
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    if (b->body_type != TREAD_BODY_DYNAMIC)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "body {index %u} is not dynamic; tread_body_move_to moves dynamic bodies", id.index);
    if ((r = validate_transform("transform", transform)) != TREAD_OK) return r;
    if ((r = validate_velocity("linear", linear)) != TREAD_OK) return r;
    if ((r = validate_velocity("angular", angular)) != TREAD_OK) return r;
    // The first move since the last advance starts the frame's motion; later ones extend it.
    if (!b->moved) b->previous = b->transform;
    b->moved = true;
    b->transform = transform;
    b->transform.q = tread_quat_normalize(transform.q);
    b->linear_velocity = linear;
    b->angular_velocity = angular;
    b->aabb = tr_transform_bounds(b->transform, b->local_bounds);
    update_proxy(w, b);
    // Characters updated before the next advance see this motion too, unless no advance (at most 1 s) could hold it:
    // then it is a teleport already (the advance judges it again by its own dt).
    if (!teleported(b, 1.0f)) w->largest_motion = tr_maxf(w->largest_motion, motion_bound(b));
    tr_world_changed(w);
    return TREAD_OK;
}

tread_result tread_body_set_velocity(tread_world *w, tread_body_id id, tread_vec3 linear, tread_vec3 angular) {
    tr_body *b;
    tread_result r = tr_world_body_checked(w, id, &b);
    if (r != TREAD_OK) return r;
    if (b->body_type == TREAD_BODY_STATIC)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "body {index %u} is static; only kinematic and dynamic bodies have a velocity", id.index);
    if ((r = validate_velocity("linear", linear)) != TREAD_OK) return r;
    if ((r = validate_velocity("angular", angular)) != TREAD_OK) return r;
    b->linear_velocity = linear;
    b->angular_velocity = angular;
    // The same axis (at any rate, or a pause) keeps turning from the same base; another axis starts from here.
    double axis[3];
    if (spin_axis_of(angular, axis) && (axis[0] != b->spin_axis[0] || axis[1] != b->spin_axis[1] || axis[2] != b->spin_axis[2]))
        spin_rebase(b);
    tr_world_changed(w);
    return TREAD_OK;
}

tread_result tread_world_advance(tread_world *w, float dt) {
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    if (!isfinite(dt)) return tr_error(TREAD_ERR_NOT_FINITE, "dt is %g; expected a finite number", (double)dt);
    if (!(dt > 0.0f) || dt > 1.0f) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "dt is %g s; expected (0, 1]", (double)dt);
    // (An advance in which nothing moves and nothing had moved changes nothing: a still world keeps its revision.)
    bool changed = w->largest_motion != 0.0f;
    w->largest_motion = 0.0f;
    float largest = 0.0f;
    for (int i = 0; i < w->slot_count; ++i) {
        tr_body *b = &w->bodies[i];
        if (b->alive && b->body_type != TREAD_BODY_STATIC)
            changed = changed || b->moved || memcmp(&b->previous, &b->transform, sizeof b->transform) != 0;
        if (b->alive && b->body_type == TREAD_BODY_DYNAMIC) {
            // Moved by the game since the last advance: that motion is this frame's. Not moved: it stood still.
            if (b->moved && !teleported(b, dt)) largest = tr_maxf(largest, motion_bound(b));
            else b->previous = b->transform;
            b->moved = false;
        }
        if (!b->alive || b->body_type != TREAD_BODY_KINEMATIC) continue;
        b->previous = b->transform; // static bodies never move here: theirs always equals their transform
        if (tread_v3_length_sq(b->linear_velocity) == 0.0f && tread_v3_length_sq(b->angular_velocity) == 0.0f) continue;
        changed = true;
        tread_vec3 p = tread_v3_mad(b->transform.p, dt, b->linear_velocity);
        if (!in_range(p.x) || !in_range(p.y) || !in_range(p.z)) continue; // parked at the edge of the usable range
        b->transform.p = p;
        double wx = b->angular_velocity.x, wy = b->angular_velocity.y, wz = b->angular_velocity.z;
        double rate = sqrt(wx * wx + wy * wy + wz * wz);
        if (rate > 0.0) {
            // This frame's turn, |w| dt about w / |w|, added to the angle turned about that axis so far.
            if (fabs(b->spin_angle) > TR_SPIN_REBASE_ANGLE) spin_rebase(b);
            // Kahan's compensated sum: the same turn added a million times loses nothing to rounding.
            double step = rate * (double)dt - b->spin_error, sum = b->spin_angle + step;
            b->spin_error = (sum - b->spin_angle) - step;
            b->spin_angle = sum;
            b->transform.q = spin_rotation(b);
        }
        b->aabb = tr_transform_bounds(b->transform, b->local_bounds);
        update_proxy(w, b);
        // How far its farthest point can have gone: the translation, plus the turn (radians) times that point's
        // distance from the body's origin (an arc is no longer than angle x radius).
        tread_vec3 far = tread_v3_max(tread_v3_abs(b->local_bounds.min), tread_v3_abs(b->local_bounds.max));
        float moved = tread_v3_distance(b->previous.p, b->transform.p) + (float)(rate * (double)dt) * tread_v3_length(far);
        if (moved > w->largest_motion) w->largest_motion = moved;
    }
    w->largest_motion = tr_maxf(w->largest_motion, largest);
    if (changed) tr_world_changed(w);
    return TREAD_OK;
}

float tr_world_largest_motion(const tread_world *w) { return w->largest_motion; }

bool tr_world_revision(const tread_world *w, uint64_t *out_serial, uint64_t *out_revision) {
    *out_serial = w->serial;
    *out_revision = w->revision;
    return w->tree.node_count > 0;
}

void tr_world_rebuild_tree(tread_world *w) { rebuild_tree(w); }

int tr_world_one_way_count(const tread_world *w) { return w->one_way_count; }

float tr_world_motion_cap(const tr_body *b) {
    // A kinematic body moves by its velocity for at most 1 s (tread_world_advance's dt); a dynamic one at most
    // TR_MAX_SPEED x 1 s (farther is a teleport); either may since have been given another velocity, so what its
    // transforms say it moved counts too.
    tread_vec3 far = tread_v3_max(tread_v3_abs(b->local_bounds.min), tread_v3_abs(b->local_bounds.max));
    float by_velocity = tread_v3_length(b->linear_velocity) + tread_v3_length(b->angular_velocity) * tread_v3_length(far);
    return tr_maxf(tr_maxf(TR_MAX_SPEED, by_velocity), motion_bound(b));
}

// Largest angle a kinematic body's exact rotation holds about one axis (radians): rebased past TR_SPIN_REBASE_ANGLE,
// plus one advance's turn (|angular| <= sqrt(3) x 65536 rad/s for at most 1 s), well within tr_sincos's range.
#define TR_SPIN_ANGLE_LIMIT (2.0 * TR_SPIN_REBASE_ANGLE)
// The rounding its compensated sum carries (radians): a few ulps of that angle, 2^-30 with room to spare.
#define TR_SPIN_ERROR_LIMIT 1.0e-3

// A saved rotation is kept bit for bit (a re-run repeats itself): unit to within TR_UNIT_TOLERANCE, not renormalised.
static tread_result validate_saved_transform(const char *name, tread_transform t) {
    tread_result r = validate_transform(name, t);
    if (r != TREAD_OK) return r;
    char q[80];
    snprintf(q, sizeof q, "%s.q", name);
    return tr_check_unit_quat(q, t.q);
}

tread_result tr_world_check_saved_body(const tr_body *b, uint32_t slot) {
    // The same checks as tread_body_set_transform, tread_body_move_to, tread_body_set_velocity and
    // tread_body_set_surface_velocity make, named after the body. A flipped bit gave a rotation component of 4.2e37
    // (the next move asserted) and a platform at x = 1e20 (it vanished).
    char name[64];
    tread_result r;
    snprintf(name, sizeof name, "saved body {index %u}: transform", slot);
    if ((r = validate_saved_transform(name, b->transform)) != TREAD_OK) return r;
    snprintf(name, sizeof name, "saved body {index %u}: previous transform", slot);
    if ((r = validate_saved_transform(name, b->previous)) != TREAD_OK) return r;
    snprintf(name, sizeof name, "saved body {index %u}: linear velocity", slot);
    if ((r = validate_velocity(name, b->linear_velocity)) != TREAD_OK) return r;
    snprintf(name, sizeof name, "saved body {index %u}: angular velocity", slot);
    if ((r = validate_velocity(name, b->angular_velocity)) != TREAD_OK) return r;
    if ((r = tr_validate_surface(false, &b->surface, &b->local_bounds)) != TREAD_OK) {
        char detail[TR_MESSAGE_SIZE];
        snprintf(detail, sizeof detail, "%s", tr_error_detail());
        return tr_error(r, "saved body {index %u}: %s", slot, detail);
    }
    if (b->moved && b->body_type != TREAD_BODY_DYNAMIC)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "saved body {index %u} is not dynamic but was moved by tread_body_move_to", slot);
    // Its exact-rotation state (kinematic bodies' turns): a unit base, a unit axis (or none), a bounded angle.
    snprintf(name, sizeof name, "saved body {index %u}: spin base", slot);
    if ((r = tr_check_unit_quat(name, b->spin_base)) != TREAD_OK) return r;
    const double *a = b->spin_axis;
    if (!isfinite(a[0]) || !isfinite(a[1]) || !isfinite(a[2]) || !isfinite(b->spin_angle) || !isfinite(b->spin_error))
        return tr_error(TREAD_ERR_NOT_FINITE, "saved body {index %u}: its spin axis, angle or error is NaN or infinite", slot);
    double axis_sq = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    if (!(axis_sq == 0.0 || fabs(axis_sq - 1.0) <= 1.0e-9))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "saved body {index %u}: spin axis (%g, %g, %g) is neither unit nor zero", slot, a[0], a[1],
                        a[2]);
    if (!(fabs(b->spin_angle) <= TR_SPIN_ANGLE_LIMIT) || !(fabs(b->spin_error) <= TR_SPIN_ERROR_LIMIT))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "saved body {index %u}: spin angle %g rad (error %g rad) is beyond %g rad", slot,
                        b->spin_angle, b->spin_error, TR_SPIN_ANGLE_LIMIT);
    return TREAD_OK;
}

void tr_world_restore_body(tread_world *w, uint32_t slot, const tr_body *saved) {
    tr_body *b = &w->bodies[slot];
    TR_ASSERT(b->alive && b->generation == saved->generation);
    *b = *saved;
    b->aabb = tr_transform_bounds(b->transform, b->local_bounds);
    update_proxy(w, b);
}

bool tr_world_place_body(tread_world *w, tread_body_id id, tread_transform previous, tread_transform current) {
    tr_body *b = (tr_body *)tr_world_live_body(w, id);
    if (!b) return false;
    b->previous = previous;
    b->transform = current;
    b->aabb = tr_transform_bounds(b->transform, b->local_bounds);
    update_proxy(w, b);
    tr_world_changed(w);
    return true;
}
