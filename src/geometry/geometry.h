// SPDX-License-Identifier: MIT
// Pure geometric primitives: rays, capsule sweeps, closest points and penetration, in one local frame.
// No world access, no allocation. The moving query shape is always a capsule given by its core segment
// p0-p1 and radius r (a sphere has p0 == p1; a ray has p0 == p1 and r == 0), translated by d over t in [0, 1].
// World primitives sit in their own local frame: sphere at the origin, capsule core (0,-h,0)-(0,h,0),
// box centred at the origin with half extents `half`, triangles given by their corners.
#ifndef TREAD_GEOMETRY_H
#define TREAD_GEOMETRY_H

#include "../core.h"

// A hit of a ray or sweep.
typedef struct tr_hit {
    float t;           // fraction of d at first contact, in [0, t_max]
    tread_vec3 point;  // contact point on the world primitive's surface at time t
    tread_vec3 normal; // unit contact normal at time t, from the world primitive toward the moving shape
} tr_hit;

// Closest points between a segment and a primitive (solid for sphere/capsule/box, a surface for triangles).
typedef struct tr_closest {
    float distance;        // > 0 separated, 0 touching, < 0 the segment passes inside: minus the depth of the
                           // smallest translation (along `normal`) that separates them
    tread_vec3 on_shape;   // closest point on the primitive's surface (for distance < 0: the deepest point's
                           // exit point along the separating direction)
    tread_vec3 on_segment; // closest point on the segment (for distance < 0: the deepest point of the segment)
    tread_vec3 normal;     // unit direction from the primitive toward the segment: the push-out direction
} tr_closest;

// ---- rays: origin o, translation d, first hit with t in [0, t_max] -----------------------------------
// Solids (sphere, capsule, box): a ray starting inside hits at t = 0 with normal -d/|d| (or +up when d is 0).
// Triangles are two-sided; the normal faces the ray's origin side; degenerate triangles are never hit.
bool tr_ray_sphere(tread_vec3 o, tread_vec3 d, tread_vec3 center, float radius, float t_max, tr_hit *hit);
bool tr_ray_capsule(tread_vec3 o, tread_vec3 d, tread_vec3 a, tread_vec3 b, float radius, float t_max, tr_hit *hit);
bool tr_ray_box(tread_vec3 o, tread_vec3 d, tread_vec3 half, float t_max, tr_hit *hit);
bool tr_ray_triangle(tread_vec3 o, tread_vec3 d, tread_vec3 a, tread_vec3 b, tread_vec3 c, float t_max, tr_hit *hit);

// ---- capsule sweeps ----------------------------------------------------------------------------------
// Moving capsule (p0-p1, radius r) translated by d. Precondition: it starts separated (surface distance
// > 0); callers test the start with the tr_closest_* functions first. Returns the first t in [0, t_max]
// at which the surfaces touch. Exact (analytic), no iteration.
bool tr_sweep_capsule_sphere(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 center, float radius,
                             float t_max, tr_hit *hit);
bool tr_sweep_capsule_capsule(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b,
                              float radius, float t_max, tr_hit *hit);
bool tr_sweep_capsule_box(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 half, float t_max,
                          tr_hit *hit);
// The same for a capsule its caller found apart: `start` is tr_closest_segment_box(p0, p1, half) with distance
// > r. The sweep's own start test is skipped, and those closest points are reused where it needs them again.
bool tr_sweep_capsule_box_apart(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 half, float t_max,
                                const tr_closest *start, tr_hit *hit);
bool tr_sweep_capsule_triangle(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b,
                               tread_vec3 c, float t_max, tr_hit *hit);
// The same sweep for a caller that has already shown the start separated by more than r (tr_closest_segment_triangle's
// distance, or an early-out proving what it would be): the same answer without the sweep's own start test.
bool tr_sweep_capsule_triangle_apart(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b,
                                     tread_vec3 c, float t_max, tr_hit *hit);

// ---- closest points / penetration between a segment and a primitive ------------------------------------
void tr_closest_segment_point(tread_vec3 p0, tread_vec3 p1, tread_vec3 q, tr_closest *out);
void tr_closest_segment_segment(tread_vec3 p0, tread_vec3 p1, tread_vec3 a, tread_vec3 b, tr_closest *out);
void tr_closest_segment_box(tread_vec3 p0, tread_vec3 p1, tread_vec3 half, tr_closest *out);
// Returns false for a degenerate triangle (out untouched).
bool tr_closest_segment_triangle(tread_vec3 p0, tread_vec3 p1, tread_vec3 a, tread_vec3 b, tread_vec3 c, tr_closest *out);
// Whether segment p0-p1 (heights s0, s1 over the plane of triangle abc, unit normal face) is farther than `beyond`
// from the triangle, by a cheap lower bound of the distance (false: not shown); the swept version, whether all of it
// moved by up to m is (sm: m's height over the plane). Exact up to the rounding of a few float operations on the
// coordinates: callers that skip the closest points or a sweep with it add a slack for that.
bool tr_segment_triangle_beyond(tread_vec3 a, tread_vec3 b, tread_vec3 c, tread_vec3 face, float s0, float s1, float beyond,
                                tread_vec3 p0, tread_vec3 p1);
bool tr_swept_segment_triangle_beyond(tread_vec3 a, tread_vec3 b, tread_vec3 c, tread_vec3 face, float s0, float s1, float sm,
                                      float beyond, tread_vec3 p0, tread_vec3 p1, tread_vec3 m);

// ---- features and surface normals ---------------------------------------------------------------------
// Outward normal of the box face a surface point belongs to. Among the faces the point touches (within
// TR_FEATURE_TOLERANCE) pick the one most opposed to `motion`; when motion is zero or that ties, the one
// most aligned with the contact `normal`. Stairs logic relies on this: a capsule meeting a riser's top edge
// while moving horizontally reports the riser's vertical face; landing on it from above reports the tread.
tread_vec3 tr_box_surface_normal(tread_vec3 half, tread_vec3 point, tread_vec3 normal, tread_vec3 motion);

// Where a point on a triangle lies: TR_TRI_FACE (interior), TR_TRI_EDGE0 + i (edge i runs from corner i to
// corner (i+1)%3), or TR_TRI_VERTEX0 + i (corner i). Tolerance TR_FEATURE_TOLERANCE.
enum { TR_TRI_FACE = 0, TR_TRI_EDGE0 = 1, TR_TRI_VERTEX0 = 4 };
int tr_triangle_feature(tread_vec3 a, tread_vec3 b, tread_vec3 c, tread_vec3 point);

// Unit normal of triangle abc (counter-clockwise winding), zero for a degenerate triangle.
tread_vec3 tr_triangle_normal(tread_vec3 a, tread_vec3 b, tread_vec3 c);

#endif
