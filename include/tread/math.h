// SPDX-License-Identifier: MIT
/// tread math: 3D vectors, quaternions, rigid transforms and boxes. Small, inline, float, by value.
/// Only +, -, *, / and sqrtf are used here, so results are bit-identical wherever IEEE-754 float holds
/// (build with -ffp-contract=off; never with fast-math).
#ifndef TREAD_MATH_H
#define TREAD_MATH_H

#include <math.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A 3D vector or point, metres unless stated.
typedef struct tread_vec3 {
    float x, y, z;
} tread_vec3;
/// @var tread_vec3::x
/// X component (metres for points and offsets).

/// @var tread_vec3::y
/// Y component (metres for points and offsets); +Y is the default up.

/// @var tread_vec3::z
/// Z component (metres for points and offsets).

/// A unit quaternion (x, y, z vector part, w scalar part) describing a rotation. The rotation by angle a
/// (radians) about the unit axis n is (n * sin(a/2), cos(a/2)); tread_quat_identity() is (0, 0, 0, 1).
typedef struct tread_quat {
    float x, y, z, w;
} tread_quat;
/// @var tread_quat::x
/// X of the vector part: axis.x * sin(angle / 2).

/// @var tread_quat::y
/// Y of the vector part: axis.y * sin(angle / 2).

/// @var tread_quat::z
/// Z of the vector part: axis.z * sin(angle / 2).

/// @var tread_quat::w
/// Scalar part: cos(angle / 2); 1 for the identity.

/// A rigid transform: rotate by q, then translate by p.
typedef struct tread_transform {
    tread_vec3 p; ///< translation, metres
    tread_quat q; ///< rotation, unit quaternion
} tread_transform;

/// An axis-aligned bounding box, from its lower corner to its upper corner (min <= max on every axis).
typedef struct tread_aabb {
    tread_vec3 min; ///< lower corner, metres
    tread_vec3 max; ///< upper corner, metres
} tread_aabb;

/// @name Vector construction and arithmetic
/// Component-wise, by value; no function here allocates or fails.
///@{

/// The vector (x, y, z).
static inline tread_vec3 tread_v3(float x, float y, float z) { tread_vec3 v = {x, y, z}; return v; }
/// The zero vector (0, 0, 0).
static inline tread_vec3 tread_v3_zero(void) { return tread_v3(0.0f, 0.0f, 0.0f); }
/// a + b.
static inline tread_vec3 tread_v3_add(tread_vec3 a, tread_vec3 b) { return tread_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
/// a - b.
static inline tread_vec3 tread_v3_sub(tread_vec3 a, tread_vec3 b) { return tread_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
/// -a.
static inline tread_vec3 tread_v3_neg(tread_vec3 a) { return tread_v3(-a.x, -a.y, -a.z); }
/// a scaled by s: (a.x * s, a.y * s, a.z * s).
static inline tread_vec3 tread_v3_scale(tread_vec3 a, float s) { return tread_v3(a.x * s, a.y * s, a.z * s); }
/// Component-wise product (a.x * b.x, a.y * b.y, a.z * b.z).
static inline tread_vec3 tread_v3_mul(tread_vec3 a, tread_vec3 b) { return tread_v3(a.x * b.x, a.y * b.y, a.z * b.z); }
/// a + s * b (multiply-add, rounded as two operations).
static inline tread_vec3 tread_v3_mad(tread_vec3 a, float s, tread_vec3 b) { return tread_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
/// Dot product a . b.
static inline float tread_v3_dot(tread_vec3 a, tread_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
/// Cross product a x b (right-handed).
static inline tread_vec3 tread_v3_cross(tread_vec3 a, tread_vec3 b) {
    return tread_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
///@}

/// @name Vector lengths, bounds and tests
///@{

/// Squared length |a|^2 (no square root).
static inline float tread_v3_length_sq(tread_vec3 a) { return tread_v3_dot(a, a); }
/// Length |a|.
static inline float tread_v3_length(tread_vec3 a) { return sqrtf(tread_v3_dot(a, a)); }
/// Distance |a - b| between two points, metres.
static inline float tread_v3_distance(tread_vec3 a, tread_vec3 b) { return tread_v3_length(tread_v3_sub(a, b)); }
/// Component-wise minimum of a and b.
static inline tread_vec3 tread_v3_min(tread_vec3 a, tread_vec3 b) {
    return tread_v3(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}
/// Component-wise maximum of a and b.
static inline tread_vec3 tread_v3_max(tread_vec3 a, tread_vec3 b) {
    return tread_v3(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}
/// Component-wise absolute value.
static inline tread_vec3 tread_v3_abs(tread_vec3 a) { return tread_v3(fabsf(a.x), fabsf(a.y), fabsf(a.z)); }
/// Linear interpolation a + t * (b - a): a at t = 0, b at t = 1 (t is not clamped).
static inline tread_vec3 tread_v3_lerp(tread_vec3 a, tread_vec3 b, float t) { return tread_v3_mad(a, t, tread_v3_sub(b, a)); }
/// Unit vector along a; the zero vector stays zero.
static inline tread_vec3 tread_v3_normalize(tread_vec3 a) {
    float len = tread_v3_length(a);
    return len > 0.0f ? tread_v3_scale(a, 1.0f / len) : tread_v3_zero();
}
/// Component of a perpendicular to the unit vector n.
static inline tread_vec3 tread_v3_reject(tread_vec3 a, tread_vec3 n) { return tread_v3_mad(a, -tread_v3_dot(a, n), n); }
/// True when every component is finite (not NaN, not infinite).
static inline bool tread_v3_is_finite(tread_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
///@}

/// @name Quaternions
/// Rotations as unit quaternions; build one from an axis and angle with tread_quat_from_axis_angle().
///@{

/// The identity rotation (0, 0, 0, 1).
static inline tread_quat tread_quat_identity(void) { tread_quat q = {0.0f, 0.0f, 0.0f, 1.0f}; return q; }
/// Hamilton product a * b: the rotation b followed by the rotation a.
static inline tread_quat tread_quat_mul(tread_quat a, tread_quat b) {
    tread_quat r;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return r;
}
/// Conjugate (-x, -y, -z, w): the inverse rotation of a unit quaternion.
static inline tread_quat tread_quat_conjugate(tread_quat q) { tread_quat r = {-q.x, -q.y, -q.z, q.w}; return r; }
/// Squared length x^2 + y^2 + z^2 + w^2 (1 for a unit quaternion).
static inline float tread_quat_length_sq(tread_quat q) { return q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w; }
/// q scaled to unit length; a zero or NaN quaternion gives the identity.
static inline tread_quat tread_quat_normalize(tread_quat q) {
    float len = sqrtf(tread_quat_length_sq(q));
    if (!(len > 0.0f)) return tread_quat_identity();
    float s = 1.0f / len;
    tread_quat r = {q.x * s, q.y * s, q.z * s, q.w * s};
    return r;
}
/// True when every component is finite (not NaN, not infinite).
static inline bool tread_quat_is_finite(tread_quat q) { return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w); }
/// Rotate v by the unit quaternion q.
static inline tread_vec3 tread_quat_rotate(tread_quat q, tread_vec3 v) {
    tread_vec3 u = tread_v3(q.x, q.y, q.z);
    tread_vec3 t = tread_v3_scale(tread_v3_cross(u, v), 2.0f);
    return tread_v3_add(tread_v3_mad(v, q.w, t), tread_v3_cross(u, t));
}
/// Rotate v by the inverse of the unit quaternion q.
static inline tread_vec3 tread_quat_inv_rotate(tread_quat q, tread_vec3 v) { return tread_quat_rotate(tread_quat_conjugate(q), v); }
///@}

/// @name Rigid transforms
/// A transform maps local space to world space: world = q * local + p.
///@{

/// The identity transform: no translation, no rotation.
static inline tread_transform tread_transform_identity(void) {
    tread_transform t;
    t.p = tread_v3_zero();
    t.q = tread_quat_identity();
    return t;
}
/// Local point v to world space: rotate by t.q, then translate by t.p.
static inline tread_vec3 tread_transform_point(tread_transform t, tread_vec3 v) { return tread_v3_add(tread_quat_rotate(t.q, v), t.p); }
/// World point v to t's local space (the inverse of tread_transform_point()).
static inline tread_vec3 tread_transform_inv_point(tread_transform t, tread_vec3 v) { return tread_quat_inv_rotate(t.q, tread_v3_sub(v, t.p)); }
/// Local direction v to world space: rotation only, no translation.
static inline tread_vec3 tread_transform_vector(tread_transform t, tread_vec3 v) { return tread_quat_rotate(t.q, v); }
/// World direction v to t's local space: inverse rotation only.
static inline tread_vec3 tread_transform_inv_vector(tread_transform t, tread_vec3 v) { return tread_quat_inv_rotate(t.q, v); }
///@}

/// @name Axis-aligned boxes
///@{

/// The smallest box holding the points a and b (in any order).
static inline tread_aabb tread_aabb_make(tread_vec3 a, tread_vec3 b) {
    tread_aabb box;
    box.min = tread_v3_min(a, b);
    box.max = tread_v3_max(a, b);
    return box;
}
/// The smallest box holding both a and b.
static inline tread_aabb tread_aabb_union(tread_aabb a, tread_aabb b) {
    tread_aabb box;
    box.min = tread_v3_min(a.min, b.min);
    box.max = tread_v3_max(a.max, b.max);
    return box;
}
/// a grown by margin metres on every side (a negative margin shrinks it).
static inline tread_aabb tread_aabb_expand(tread_aabb a, float margin) {
    tread_vec3 m = tread_v3(margin, margin, margin);
    tread_aabb box;
    box.min = tread_v3_sub(a.min, m);
    box.max = tread_v3_add(a.max, m);
    return box;
}
/// True when a and b overlap or touch (closed boxes).
static inline bool tread_aabb_overlaps(tread_aabb a, tread_aabb b) {
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y && a.min.z <= b.max.z &&
           b.min.z <= a.max.z;
}
/// True when inner lies entirely inside outer (touching faces count as inside).
static inline bool tread_aabb_contains(tread_aabb outer, tread_aabb inner) {
    return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z && inner.max.x <= outer.max.x &&
           inner.max.y <= outer.max.y && inner.max.z <= outer.max.z;
}
/// Centre point of the box, metres.
static inline tread_vec3 tread_aabb_center(tread_aabb a) { return tread_v3_scale(tread_v3_add(a.min, a.max), 0.5f); }
/// Half extents (half the size along each axis), metres.
static inline tread_vec3 tread_aabb_extents(tread_aabb a) { return tread_v3_scale(tread_v3_sub(a.max, a.min), 0.5f); }
/// Half the surface area (the SAH cost measure).
static inline float tread_aabb_half_area(tread_aabb a) {
    tread_vec3 d = tread_v3_sub(a.max, a.min);
    return d.x * d.y + d.y * d.z + d.z * d.x;
}
///@}

#ifdef __cplusplus
}
#endif

#endif
