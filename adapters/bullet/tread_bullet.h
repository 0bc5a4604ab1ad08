// SPDX-License-Identifier: MIT
/// tread over Bullet: a query backend (include/tread/backend.h) over a btCollisionWorld (docs/BACKENDS.md, "Bullet").
///
/// The adapter keeps, beside each Bullet collision object it knows, the facts tread asks about (type, flags, layer,
/// its motion over the last frame), and answers a move's queries with Bullet's own pieces: the world's broadphase
/// (btDbvtBroadphase) gathers a move's candidates once, the shapes (btBoxShape, btSphereShape, btCapsuleShape,
/// btBvhTriangleMeshShape, btHeightfieldTerrainShape) give the geometry and their triangles, and Bullet's GJK with
/// its EPA penetration solver measures every distance. Casts are conservative advancement on those distances, so the
/// contract's start-in-contact rule, one result per body and feature, and the order are the adapter's, exactly.
///
/// Collision margins are 0 wherever Bullet allows (docs/BACKENDS.md lists each): boxes setMargin(0); triangles of
/// meshes and heightfields are measured as btTriangleShape with margin 0; spheres and capsules keep their margin,
/// which Bullet defines as their radius (the shape is its core point or segment grown by it), so their surfaces are
/// exact too.
///
/// From C: create a world (it owns its btCollisionWorld), add bodies from tread_body_defs, move them, and hand
/// tread_bullet_backend() to the _on functions. From C++, tread_bullet.hpp wraps a btCollisionWorld (or a
/// btDiscreteDynamicsWorld) a game already has and gives the Bullet objects behind each body.
///
/// Threads: the backend's queries only read; a batch update may run them concurrently. Adding, moving and advancing
/// bodies must not overlap a move.
#ifndef TREAD_BULLET_H
#define TREAD_BULLET_H

#include "tread/backend.h"
#include "tread/tread.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tread_bullet_world tread_bullet_world;

/// A fresh btCollisionWorld (btDbvtBroadphase, the default collision configuration) that the adapter owns.
tread_result tread_bullet_world_create(tread_bullet_world **out_world);
/// Frees the adapter's bodies (the collision objects and shapes it made, removed from the Bullet world) and, when it
/// made it, the Bullet world. NULL is fine.
void tread_bullet_world_destroy(tread_bullet_world *world);

/// Add a body as tread_world_add_body would: a box, sphere or capsule as that Bullet shape, a mesh as a
/// btBvhTriangleMeshShape, a heightfield as a btHeightfieldTerrainShape (holes kept by the adapter); voxels are not
/// supported (TREAD_ERR_INVALID_SHAPE). The data is copied. Ids are given in order of addition ({0, 1}, {1, 1}, ...),
/// so a scene added in the same order to a fresh tread world and to the adapter has the same ids in both.
tread_result tread_bullet_add_body(tread_bullet_world *world, const tread_body_def *def, tread_body_id *out_id);
/// Where a dynamic body goes at the next tread_bullet_advance, and its velocities (as tread_body_move_to).
tread_result tread_bullet_body_move_to(tread_bullet_world *world, tread_body_id id, tread_transform transform, tread_vec3 linear_velocity,
                                       tread_vec3 angular_velocity);
/// One frame of dt seconds: kinematic bodies move by their velocities, dynamic bodies go where
/// tread_bullet_body_move_to put them; every body's motion (previous -> current) becomes this frame's.
tread_result tread_bullet_advance(tread_bullet_world *world, float dt);
/// Set a body's motion over the last frame outright (previous and current transforms, velocities): for a game whose
/// own step moved it, or a tool mirroring another world. The collision object is placed at `current`.
tread_result tread_bullet_set_motion(tread_bullet_world *world, tread_body_id id, tread_transform previous, tread_transform current,
                                     tread_vec3 linear_velocity, tread_vec3 angular_velocity);

/// The query backend over the world (valid while the world lives).
tread_backend tread_bullet_backend(tread_bullet_world *world);

#ifdef __cplusplus
}
#endif

#endif
