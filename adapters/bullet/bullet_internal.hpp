// SPDX-License-Identifier: MIT
// Private to adapters/bullet/: the adapter's bodies and moves, shared by world.cpp (bodies, motion, ids) and
// queries.cpp (the backend's queries).
#ifndef TREAD_BULLET_INTERNAL_HPP
#define TREAD_BULLET_INTERNAL_HPP

#include <btBulletCollisionCommon.h>

#include <memory>
#include <mutex>
#include <vector>

#include "tread_bullet.hpp"

// A triangle whose edge vectors' cross product is shorter than this is degenerate (never hit, nobody's neighbour):
// tread's TR_DEGENERATE_AREA, m^2.
#define TB_DEGENERATE_AREA 1.0e-12f

// A body the adapter made: the Bullet object and shape, the data they point into, and what tread asks about it.
struct tb_body {
    std::unique_ptr<btCollisionObject> object;
    std::unique_ptr<btCollisionShape> shape;
    std::unique_ptr<btTriangleIndexVertexArray> mesh_arrays; // mesh: what the btBvhTriangleMeshShape reads
    std::vector<float> vertices;                             // mesh: x, y, z per vertex (Bullet reads them in place)
    std::vector<int> indices;                                // mesh: 3 per triangle
    std::vector<uint8_t> active_edges;                       // mesh: per triangle, bit i = edge i (corner i to i + 1)
                                                             // is a real edge (tread's rule: tb_mesh_active_edges);
                                                             // heightfield: per tread triangle 2 cell + k, in tread's
                                                             // corner order (tb_heightfield_active_edges)
    std::vector<float> heights;                              // heightfield: the samples (Bullet reads them in place)
    std::vector<uint8_t> holes;                              // heightfield: per cell, nonzero = no triangles
    int count_x = 0, count_z = 0;                            // heightfield samples
    float spacing_x = 1.0f, spacing_z = 1.0f;                // heightfield, metres
    btVector3 shape_offset{0, 0, 0}; // the Bullet shape's origin in the body's frame (a heightfield's is its centre)
    tread_shape_type shape_type = TREAD_SHAPE_BOX;
    tread_vec3 half_extents{0, 0, 0}; // box
    tread_backend_body facts{};
    tread_backend_motion motion{};
    tread_transform pending{};       // dynamic: where tread_bullet_body_move_to puts it at the next advance
    bool has_pending = false;
    void *user_data = nullptr;
};

// One move's state: the candidates its bounds hold, and scratch for the results it sorts. Kept in a pool and reused,
// so that a move allocates nothing once the pool's vectors have grown.
struct tb_move {
    std::vector<int> candidates; // body indices, ascending
    std::vector<tread_shape_hit> hits;
    std::vector<tread_contact> contacts;
};

struct tread_bullet_world {
    btCollisionWorld *world = nullptr;
    // Owned only by tread_bullet_world_create (a wrapped world is the caller's).
    std::unique_ptr<btDefaultCollisionConfiguration> configuration;
    std::unique_ptr<btCollisionDispatcher> dispatcher;
    std::unique_ptr<btBroadphaseInterface> broadphase;
    std::unique_ptr<btCollisionWorld> owned_world;
    std::vector<std::unique_ptr<tb_body>> bodies; // by id index
    float largest_motion = 0.0f;
    bool has_one_way = false;
    std::mutex pool_lock; // moves of a batch begin and end on several threads
    std::vector<std::unique_ptr<tb_move>> pool;
};

// The id -> body, or NULL for an id no live body has.
tb_body *tb_find(const tread_bullet_world *w, tread_body_id id);
// The body a Bullet object is, by index (the object's userIndex3 holds index + 1): -1 when it is not the adapter's.
int tb_index_of(const tread_bullet_world *w, const btCollisionObject *object);

static inline btVector3 tb_bt(tread_vec3 v) { return btVector3(v.x, v.y, v.z); }
static inline tread_vec3 tb_tr(const btVector3 &v) { return tread_vec3{(float)v.x(), (float)v.y(), (float)v.z()}; }
static inline btQuaternion tb_bt(tread_quat q) { return btQuaternion(q.x, q.y, q.z, q.w); }

// The functions of tread_bullet_backend (queries.cpp).
void tb_fill_backend(tread_bullet_world *w, tread_backend *out);

#endif
