// SPDX-License-Identifier: MIT
// tread over Bullet, from C++: the adapter over a btCollisionWorld the game already has (a btDiscreteDynamicsWorld
// too), and the Bullet objects behind the adapter's bodies. See tread_bullet.h.
#ifndef TREAD_BULLET_HPP
#define TREAD_BULLET_HPP

#include "tread_bullet.h"

class btCollisionWorld;
class btCollisionObject;

/// An adapter over `world`, which the caller keeps alive and frees after tread_bullet_world_destroy. Bodies added
/// through the adapter become collision objects of that world; objects the game added itself (a character's own rigid
/// body) are not the adapter's and its queries never meet them.
tread_result tread_bullet_world_wrap(btCollisionWorld *world, tread_bullet_world **out_world);
/// The Bullet world the adapter answers from.
btCollisionWorld *tread_bullet_collision_world(tread_bullet_world *world);
/// The collision object behind a body (NULL: no live body has that id).
btCollisionObject *tread_bullet_object(tread_bullet_world *world, tread_body_id id);

#endif
