// SPDX-License-Identifier: MIT
// What a move asks about the bodies and characters it met (move_bodies.c): their kind, layer and shape class, the
// velocity of their material, and, before a move begins, how its ground and the world's moving bodies moved. Each
// is named as the query answers name it (tr_who: a body of the move's source, or another character of the batch,
// whose body lives in the crowd's world).
#ifndef TREAD_MOVE_BODIES_H
#define TREAD_MOVE_BODIES_H

#include "move_context.h"

// What the move met: its type and flags (a character of the batch: dynamic, no flags).
tread_result tr_query_body_kind(const tr_move_query *q, tr_who who, tread_body_type *out_type, uint32_t *out_flags);
// It is still there (a public phase may run after the caller removed a body the update met).
bool tr_query_body_is_live(const tr_move_query *q, tr_who who);
// Its layer, and the velocity of its material at a point.
tread_result tr_query_body_layer(const tr_move_query *q, tr_who who, uint32_t *out_layer);
// Whether it is one convex solid (sphere, capsule, box, a character) rather than a mesh, heightfield or voxels.
tread_result tr_query_body_is_convex(const tr_move_query *q, tr_who who, bool *out_convex);
tread_result tr_query_point_velocity(const tr_move_query *q, tr_who who, tread_vec3 point, tread_vec3 *out_velocity);

// Where the ground's motion over the last world advance took `point` (exactly: translation and rotation about any
// axis), and the rotation it turned by (current * inverse(previous)); a stale body, or a character not in `crowd`,
// moved nothing. Read before a move begins: the carry widens the move's bounds.
void tr_ground_motion(const tr_source *src, const tr_crowd *crowd, tr_who ground, tread_vec3 point, tread_vec3 *out_point,
                      tread_quat *out_turn);

// The ground neither moved over the last world advance nor has a surface velocity: it carries nothing (false when
// it may, or is a character or stale: then ask tr_ground_motion and tr_surface_motion).
bool tr_ground_still(const tr_source *src, const tr_crowd *crowd, tr_who ground);

// Where the ground's surface velocity (a conveyor) takes `point` over dt seconds, and the rotation it turns by
// (identity, and the point itself, when it has none or is stale). Read before a move begins, as tr_ground_motion.
void tr_surface_motion(const tr_source *src, const tr_crowd *crowd, tr_who ground, tread_vec3 point, float dt, tread_vec3 *out_point,
                       tread_quat *out_turn);

// How far any body's motion in the last world advance can have reached (metres, a bound; 0: nothing moved): the
// margin within which moving bodies may have hit the character. Read before a move begins, as tr_ground_motion.
float tr_pushers_reach(const tr_source *src);

#endif
