// SPDX-License-Identifier: MIT
// The world's private layout, shared by world.c (bodies, broadphase upkeep), body_access.c (a body's accessors) and
// query.c (queries).
#ifndef TREAD_WORLD_INTERNAL_H
#define TREAD_WORLD_INTERNAL_H

#include "tread/tread.h" // (the world implements its public functions)
#include "bvh.h"
#include "heightfield.h"
#include "mesh.h"
#include "motion.h"
#include "voxels.h"

typedef struct tr_body {
    tread_shape_type shape_type;
    tread_body_type body_type;
    float radius;            // sphere, capsule
    float half_height;       // capsule
    tread_vec3 half_extents; // box
    tr_mesh *mesh;           // owned, mesh bodies only
    tr_heightfield *heightfield;
    tr_voxels *voxels;
    tread_aabb local_bounds; // bounds in the body's frame
    tread_transform transform;
    tread_transform previous; // transform at the start of the last tread_world_advance (equal to `transform` for
                              // static bodies, after a teleport, and for a body that did not move in that advance)
    tread_vec3 linear_velocity;
    tread_vec3 angular_velocity;
    tread_surface_velocity surface; // a conveyor's surface velocity, body frame
    // Exact rotation (world.c, spin_*): a kinematic body's rotation is spin_angle radians about spin_axis after
    // spin_base, evaluated in double each advance, so a constant angular velocity turns it by exactly |w| t with no
    // drift. Rebased (spin_base = the rotation now, spin_angle = 0) when the axis changes or the body is teleported.
    tread_quat spin_base;
    double spin_axis[3]; // unit direction of the angular velocity, or zero when it never had one
    double spin_angle;   // radians turned about spin_axis since spin_base
    double spin_error;   // what the sum spin_angle lost to rounding, radians (compensated summation)
    tread_aabb aabb; // world bounds
    void *user_data;
    uint32_t layer;
    uint32_t flags;      // tread_body_flags
    bool moved;          // dynamic: moved by tread_body_move_to since the last tread_world_advance
    uint32_t generation; // bumped on removal; odd/even is not used, 0 = never used
    bool alive;
    int32_t proxy;     // item index in the broadphase tree, or -1 when pending (the tree could not be built)
    int32_t next_free; // free-list link while dead
} tr_body;

// A sphere, capsule or box: one convex solid (a mesh, heightfield or voxel grid is a surface of many features).
static inline bool tr_body_is_convex(const tr_body *b) {
    return b->shape_type == TREAD_SHAPE_SPHERE || b->shape_type == TREAD_SHAPE_CAPSULE || b->shape_type == TREAD_SHAPE_BOX;
}

struct tread_world {
    tr_body *bodies;
    int body_capacity;
    int slot_count; // slots ever used (live or dead)
    int live_count;
    int32_t free_list;

    // Broadphase: a BVH over the bodies present at the last rebuild, refit as they move; bodies added since
    // go into it at once (it is rebuilt with room to spare when full); only when the allocator fails to build it do
    // bodies sit in `pending`, scanned linearly. Removed bodies leave a -1 in tree_body.
    tr_bvh tree;
    tread_aabb *tree_boxes; // per tree item
    int32_t *tree_body;     // per tree item: body slot or -1
    int tree_items;
    int tree_capacity;      // items tree_boxes, tree_body and the tree have room for (bodies are inserted
                            // into the tree directly while there is room, else the tree is rebuilt)
    int tree_dead;
    float tree_built_cost;
    int refits_since_check;
    int32_t *pending;
    int pending_count;
    int pending_capacity;

    int one_way_count;    // live one-way bodies (moves test them only when there are some)
    float largest_motion; // farthest any point of any body moved in the last tread_world_advance, metres (a bound)
    // What a move's cache (tread_move_cache) is keyed by: `serial` names this world among every world the process
    // created (a world made where a destroyed one was is another), and `revision` counts its changes: every call that
    // changes a body, adds or removes one, moves or loads them bumps it (tr_world_changed).
    uint64_t serial;
    uint64_t revision;
};

// Something in the world changed: what a move cached of it is stale.
static inline void tr_world_changed(tread_world *w) { ++w->revision; }

// ---- surface.c: a body's surface velocity (conveyors) ----------------------------------------------------------
// Check a surface velocity on a body of `local` bounds: finite, within the coordinate limit, and no faster than
// TR_MAX_SPEED anywhere on the body (|linear| + |angular| x the farthest point of the bounds from its centre). `def`
// names its fields as tread_body_def's (def.surface.linear), else as the setter's.
tread_result tr_validate_surface(bool def, const tread_surface_velocity *surface, const tread_aabb *local);
// (The velocity it adds and the carry over dt: motion.h.)

// ---- a body by its id, for every file of the world -------------------------------------------------------------
// Here, not in world.c, so that world.c (bodies' lifetime and motion) and body_access.c (what a body's id reads and
// sets) both look bodies up without calling each other.
// The live body an id names, or NULL (a NULL world, a stale or unknown id).
static inline tr_body *tr_world_live_body(const tread_world *w, tread_body_id id) {
    if (!w || id.generation == 0u || id.index >= (uint32_t)w->slot_count) return NULL;
    tr_body *b = &w->bodies[id.index];
    return b->alive && b->generation == id.generation ? b : NULL;
}
// The same for the public calls: an error for a NULL world or an id that names no live body.
static inline tread_result tr_world_body_checked(const tread_world *w, tread_body_id id, tr_body **out) {
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    *out = tr_world_live_body(w, id);
    if (!*out)
        return tr_error(TREAD_ERR_INVALID_ID, "body id {index %u, generation %u} does not name a live body", id.index,
                        id.generation);
    return TREAD_OK;
}

// ---- world.c, for the world's other files ---------------------------------------------------------------------
// World bounds of local bounds under a transform.
tread_aabb tr_transform_bounds(tread_transform t, tread_aabb local);
// ---- world.c, for state.c -----------------------------------------------------------------------------------
// A saved body's motion state (`b`: the live body in `slot` with the saved fields read over it), every field checked
// as the setters check it (their code); rotations must be unit to within TR_UNIT_TOLERANCE (a load keeps them).
tread_result tr_world_check_saved_body(const tr_body *b, uint32_t slot);
// The farthest a body in this state can have moved in one tread_world_advance (metres, a bound): what a saved
// world's motion bound is checked against.
float tr_world_motion_cap(const tr_body *b);
// Put a saved body's motion state back into its slot (the same live body), its bounds and tree leaf refitted.
void tr_world_restore_body(tread_world *w, uint32_t slot, const tr_body *saved);
// True when the body passes the query filter.
static inline bool tr_filter_accepts(const tread_query_filter *f, const tr_body *body, uint32_t slot) {
    if (((f->layer_mask >> body->layer) & 1u) == 0u) return false;
    if ((body->flags & TREAD_BODY_SENSOR) && !f->include_sensors) return false;
    if (f->ignore_body.generation == body->generation && f->ignore_body.index == slot) return false;
    if (f->callback) {
        tread_body_id id = {slot, body->generation};
        return f->callback(id, body->layer, body->user_data, f->context);
    }
    return true;
}

#endif
