// SPDX-License-Identifier: MIT
// A body's frame of motion as pure functions of its state (transforms where it was and where it is, velocities,
// surface velocity, its own bounds): what carries, pushes and holds a character. tread's world answers for its bodies
// with them, and a move over another engine's backend (tread_backend) answers for that engine's bodies with the very
// same functions, so the same state gives the same bits on either.
#ifndef TREAD_WORLD_MOTION_H
#define TREAD_WORLD_MOTION_H

#include "../core.h"

// Where the motion from `previous` to `current` takes the world point `point`: current * inverse(previous) * point
// (exactly `point` when the body did not move; a pure translation when it did not turn; else in double, rounded once).
tread_vec3 tr_motion_carry_point(const tread_transform *previous, const tread_transform *current, tread_vec3 point);
// The rotation that motion turned by: current * inverse(previous), normalized (unit rotations: the inverse is the
// conjugate).
static inline tread_quat tr_motion_turn(const tread_transform *previous, const tread_transform *current) {
    tread_quat back = {-previous->q.x, -previous->q.y, -previous->q.z, previous->q.w};
    return tread_quat_normalize(tread_quat_mul(current->q, back));
}
// The highest corner of `local` bounds along unit `up` where the body was and where it is: the lower of the two (a
// one-way body's top, metres).
float tr_bounds_top(const tread_aabb *local, const tread_transform *previous, const tread_transform *current, tread_vec3 up);

// ---- surface.c: a body's surface velocity (conveyors), in the frame `transform` puts it in ------------------------
// The velocity the surface adds at a world point (zero without one).
tread_vec3 tr_surface_point_velocity(const tread_surface_velocity *surface, const tread_transform *transform, tread_vec3 point);
// Where the surface takes a point on it over dt seconds, and the rotation it turns by (the point and no turn without
// one).
void tr_surface_carry(const tread_surface_velocity *surface, const tread_transform *transform, tread_vec3 point, float dt,
                      tread_vec3 *out_point, tread_quat *out_turn);

// Velocity of a body's material at a world point (m/s): linear + angular x (point - its position), plus its surface's.
// A body at rest without a surface velocity (the static floor of nearly every move) is answered without the two
// rotations: with `linear` exactly +0 every sum below is +0 whatever the sign of the zero terms added to it (rounding
// to nearest, +0 + -0 is +0), so the same bits as the whole computation.
static inline tread_vec3 tr_material_velocity(tread_vec3 linear, tread_vec3 angular, const tread_transform *transform,
                                              const tread_surface_velocity *surface, tread_vec3 point) {
    const tread_vec3 sl = surface->linear, sa = surface->angular;
    if (linear.x == 0.0f && linear.y == 0.0f && linear.z == 0.0f && !signbit(linear.x) && !signbit(linear.y) && !signbit(linear.z) &&
        angular.x == 0.0f && angular.y == 0.0f && angular.z == 0.0f && sl.x == 0.0f && sl.y == 0.0f && sl.z == 0.0f && sa.x == 0.0f &&
        sa.y == 0.0f && sa.z == 0.0f)
        return tread_v3_zero();
    tread_vec3 arm = tread_v3_sub(point, transform->p);
    tread_vec3 v = tread_v3_add(linear, tread_v3_cross(angular, arm));
    return tread_v3_add(v, tr_surface_point_velocity(surface, transform, point));
}

#endif
