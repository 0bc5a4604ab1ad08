// SPDX-License-Identifier: MIT
// The world's queries without argument checks, for callers that validated once up front (the controller's
// per-move query layer). Arguments are asserted, not checked: a NULL filter is not allowed here.
#ifndef TREAD_WORLD_QUERY_H
#define TREAD_WORLD_QUERY_H

#include "../core.h"
#include "tread/tread.h" // (the world implements its public functions)
#include "../validate.h"

// The public constructors' values, inline for the controller, which builds a filter and a shape for every query
// (tread_query_filter_default, tread_query_capsule; with the body's centre and filters inline too, 260 instructions a
// move on P1).
static inline tread_query_filter tr_query_filter_default(void) {
    tread_query_filter f;
    f.layer_mask = 0xFFFFFFFFu;
    f.ignore_body = tread_body_id_null();
    f.callback = NULL;
    f.context = NULL;
    f.include_sensors = false;
    f.internal_cookie = TR_COOKIE;
    return f;
}
static inline tread_query_shape tr_query_shape_default(void) {
    tread_query_shape s;
    s.type = TREAD_QUERY_CAPSULE;
    s.radius = 0.3f;
    s.half_height = 0.6f;
    s.up = tread_v3(0.0f, 1.0f, 0.0f);
    s.half_extents = tread_v3(0.3f, 0.9f, 0.3f);
    s.skin = 0.0f;
    s.internal_cookie = TR_COOKIE;
    return s;
}
static inline tread_query_shape tr_query_capsule(float half_height, float radius, tread_vec3 up) {
    tread_query_shape s = tr_query_shape_default();
    s.half_height = half_height;
    s.radius = radius;
    s.up = tread_v3_zero(); // (kept zero when `up` is zero or not finite: the query that takes it refuses it)
    tr_v3_direction(up, &s.up);
    return s;
}

// The bodies a query may look at: a move's candidates (tr_world_gather), or NULL for the whole world (its tree).
// `bounds` holds their boxes as six rows of `stride` floats (min x, y, z, max x, y, z), so that four candidates
// are tested at once; rows are padded to a multiple of four by repeating the last box.
typedef struct tr_scope {
    const int32_t *slots;
    const float *bounds;
    int stride;
    int count;
} tr_scope;

// One walk of the broad phase: the slots of every body whose bounds meet `box` (sensors too), into `slots`, and
// their boxes into `bounds` (six rows of `capacity` floats, as tr_scope's; capacity a multiple of 4). False when
// more than `capacity` do (the queries then walk the tree themselves).
bool tr_world_gather(const tread_world *w, tread_aabb box, int32_t *slots, float *bounds, int capacity, int *out_count);
// tr_world_gather over `box` among the `count` slots an earlier gather of a box holding it left (`from`, in its order),
// the world unchanged since (the same revision): the same slots in the same order, as the tree walk keeps its order
// whatever box prunes it (count <= capacity). False when a slot names no live body (not what a gather of this world
// left).
bool tr_world_gather_among(const tread_world *w, tread_aabb box, const int32_t *from, int count, int32_t *slots, float *bounds, int capacity,
                           int *out_count);

// Which of the four candidates first .. first + 3 of a scope the segment o + t d, t in [0, t_max], meets with their
// boxes grown by `inflate` (bit k: candidate first + k; lanes past the count are not masked here). The same
// arithmetic, lane by lane, as the one-body slab test (tr_ray_aabb_entry); `simd` picks the SSE lanes where the
// build has them (tests compare the two bit for bit).
unsigned tr_scope_reach4(const tr_scope *scope, int first, tread_vec3 o, tread_vec3 inv_d, tread_vec3 inflate, float t_max, bool simd);

void tr_world_cast_shape(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                         tread_vec3 translation, const tread_query_filter *filter, tread_shape_hit *out_hit);
void tr_world_cast_shape_all(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                             tread_vec3 translation, const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count,
                             bool *out_overflow);
// tr_world_cast_shape_all keeping only the hits within `window` (a fraction of the translation) of the nearest, and
// looking no farther once it has them (window < 0: every hit). The hits kept are exactly the first ones of the full
// list.
void tr_world_cast_shape_near(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                              tread_vec3 translation, const tread_query_filter *filter, float window, tread_shape_hit *hits, int capacity,
                              int *out_count, bool *out_overflow);
// How many of `count` sorted hits lie within `window` of the first one.
int tr_hits_within_window(const tread_shape_hit *hits, int count, float window);
void tr_world_cast_ray(const tread_world *w, const tr_scope *scope, tread_vec3 origin, tread_vec3 translation,
                       const tread_query_filter *filter, tread_ray_hit *out_hit);
void tr_world_collect_contacts(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                               float margin, const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count,
                               bool *out_overflow);
void tr_world_closest(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                      float max_distance, const tread_query_filter *filter, tread_distance_result *out_result);

// A live body's layer and the velocity of its material at a world point. False for a stale id.
bool tr_world_body_layer(const tread_world *w, tread_body_id body, uint32_t *out_layer);
// Whether the body is one convex solid (sphere, capsule, box), not a surface of many pieces; false if stale.
bool tr_world_body_is_convex(const tread_world *w, tread_body_id body, bool *out_convex);
bool tr_world_point_velocity(const tread_world *w, tread_body_id body, tread_vec3 point, tread_vec3 *out_velocity);

// The body's transform at the start of the last tread_world_advance and now (equal for static bodies, after a
// teleport, and when it did not move). False for a stale id.
bool tr_world_body_motion(const tread_world *w, tread_body_id body, tread_transform *out_previous, tread_transform *out_current);
// True when the body is live, did not move over the last advance and has no surface velocity: it carries nothing.
bool tr_world_body_still(const tread_world *w, tread_body_id body);
// Where the body's last frame of motion took the world point `point`: current * inverse(previous) * point (what
// carries a rider exactly, translation and rotation about any axis). Exactly `point` when the body did not move.
// False for a stale id.
bool tr_world_body_carry_point(const tread_world *w, tread_body_id body, tread_vec3 point, tread_vec3 *out_point);

// Where the body's surface velocity (a conveyor) takes a point on it over dt seconds, and the rotation it turns
// by; the point itself and no turn when it has none. False for a stale id.
bool tr_world_surface_carry(const tread_world *w, tread_body_id body, tread_vec3 point, float dt, tread_vec3 *out_point, tread_quat *out_turn);
// How far any point of any body moved in the last tread_world_advance, metres: an upper bound (0: nothing moved).
float tr_world_largest_motion(const tread_world *w);
// What a move's cache is keyed by: the world's serial (unique among every world the process created) and its revision
// (bumped by every change to it). False for a world without a tree (a few bodies in a list): a gather scans them, as
// cheap as taking them from a cache.
bool tr_world_revision(const tread_world *w, uint64_t *out_serial, uint64_t *out_revision);
// Put a body where it is now and say where it was when the frame began (the batch update's character bodies: a
// character standing on another is carried by it). Unit rotations, positions within the limit (asserted by the
// caller). False for a stale id.
bool tr_world_place_body(tread_world *w, tread_body_id body, tread_transform previous, tread_transform current);
// What the last query on this thread walked: tree nodes visited, and bodies scanned one by one outside the tree
// (only after the allocator failed to grow the tree: a world whose tree cannot be built scans every body).
typedef struct tr_walk_stats {
    int nodes;
    int scanned;
} tr_walk_stats;
tr_walk_stats tr_world_last_walk(void);
// A live body's type and flags; false for a stale id.
bool tr_world_body_kind(const tread_world *w, tread_body_id body, tread_body_type *out_type, uint32_t *out_flags);
// Live one-way bodies in the world.
int tr_world_one_way_count(const tread_world *w);
// A one-way body's top along unit `up` (metres): the lower of its bounds' highest points at its previous and current
// transforms (it blocks a character whose feet are at or above it). False for a stale id.
bool tr_world_body_top(const tread_world *w, tread_body_id body, tread_vec3 up, float *out_top);
// The backend is tread's own world's (tread_world_backend's functions, unchanged; its context is the world): moves on
// it call the world directly.
bool tr_backend_is_world(const tread_backend *backend);
// The rotation taking body-local X, Y, Z to the upright axes about unit `up` (X, up, Z: the upright box query's, a
// capsule's axis along Y): the batch's character bodies and tread_query_shape_rotation.
tread_quat tr_upright_rotation(tread_vec3 up);
// Build the broadphase tree anew over every body: after moving most bodies far (refitting would leave a tree of
// huge boxes) or adding many (none left waiting outside the tree to be scanned one by one).
void tr_world_rebuild_tree(tread_world *w);

// The origin moved to `offset` (tread_world_shift_origin, src/character/origin.c): whether every body stays within
// the coordinate limit (an error naming the first that would not), and the bodies moved, the tree rebuilt.
tread_result tr_world_check_shift(const tread_world *w, tread_vec3 offset);
void tr_world_shift(tread_world *w, tread_vec3 offset);

#endif
