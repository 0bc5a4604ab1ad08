// SPDX-License-Identifier: MIT
// The box query shape's primitives: an oriented box (the character's upright box, in some shape's local
// frame) moving against a static box, triangle, sphere or capsule; and its closest distance / penetration.
// Separate from geometry.h so the capsule primitives stay as they are. Exact: the sweeps use the method of
// separating axes for moving objects (entry/exit fractions per candidate axis), no iteration.
#ifndef TREAD_GEOMETRY_BOX_H
#define TREAD_GEOMETRY_BOX_H

#include "geometry.h"

// An oriented box: centre, three unit orthogonal axes, half extents along them (metres).
typedef struct tr_obb {
    tread_vec3 center;
    tread_vec3 axis[3];
    tread_vec3 half;
} tr_obb;

// A box's candidate separating axes against a static triangle (or box), unit: the static shape's face normal(s),
// the box's three axes, the crosses of their edges that are not (nearly) parallel. They depend on the box's
// orientation and the static shape only, so one set serves the box at any centre and size (a moved box, a box
// within a skin) against the same triangle.
#define TR_BOX_AXES 16 // room for the most axes (15), rounded up for measuring several at a time
typedef struct tr_box_axes {
    float x[TR_BOX_AXES], y[TR_BOX_AXES], z[TR_BOX_AXES]; // the axes' components; zero past count
    int count;
} tr_box_axes;

// Cross-product axes of (nearly) parallel edges are skipped below this squared length (unit inputs): the face
// axes separate such pairs, and a normalised near-zero cross would be noise.
#define TR_BOX_CROSS_EPS 1.0e-10f

// The upright basis of a unit `up`: axes[1] = up; axes[0] = normalize(up x Z) (or up x X when up is near
// +-Z), axes[2] = axes[0] x up. For up = +Y exactly: world X, Y, Z.
void tr_upright_axes(tread_vec3 up, tread_vec3 axes[3]);
// Half extents of the box's axis-aligned bounds.
tread_vec3 tr_obb_extent(const tr_obb *b);

// ---- sweeps: box a translated by d over t in [0, t_max]; precondition: it starts separated ------------
// hit->point lies on the static primitive's surface at time t; hit->normal points from it toward the box.
bool tr_sweep_box_box(const tr_obb *a, tread_vec3 d, tread_vec3 half, float t_max, tr_hit *hit);
// Degenerate triangles (twice the area below TR_DEGENERATE_AREA) are never hit.
bool tr_sweep_box_triangle(const tr_obb *a, tread_vec3 d, tread_vec3 p, tread_vec3 q, tread_vec3 r, float t_max,
                           tr_hit *hit);
// Static capsule with core ca-cb (a sphere: ca == cb) and radius: tr_sweep_capsule_box in the box's frame
// with the motion reversed.
bool tr_sweep_box_capsule(const tr_obb *a, tread_vec3 d, tread_vec3 ca, tread_vec3 cb, float radius, float t_max,
                          tr_hit *hit);

// ---- closest distance / penetration -----------------------------------------------------------------------
// tr_closest fields for a box query: distance is the signed surface distance (radius included for capsules);
// on_shape is on the static primitive's surface, on_segment on the box; normal from the primitive toward the
// box. Separated: exact closest points (every box edge against the primitive, every primitive vertex against
// the box). Overlapping: the minimum-overlap separating axis gives depth and push-out normal.
void tr_closest_box_box(const tr_obb *a, tread_vec3 half, tr_closest *out);
// A box touching a static box / triangle moves along it by d without pressing in: some separating (or merely
// touching) axis is one d does not approach along.
bool tr_box_box_grazes(const tr_obb *a, tread_vec3 d, tread_vec3 half);
// Overlapping a box at the start: does `d` press into a separating axis that nearly ties with the shallowest overlap
// (within 5 % of it)? *out_normal is the shallowest such axis, from the static box toward the moving one. (Not for
// triangles: a thin triangle's axes tie often, and a box sliding down a steep heightfield stopped on them.)
bool tr_box_box_presses_near_tie(const tr_obb *a, tread_vec3 d, tread_vec3 half, tread_vec3 *out_normal);
// Returns false for a degenerate triangle.
bool tr_closest_box_triangle(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, tr_closest *out);

// ---- one triangle's axes built once for several questions (the box query's cast and contact) ---------------
// The same answers as the functions above, bit for bit, for a box with `a`'s orientation. false: degenerate.
bool tr_box_triangle_axes(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, tr_box_axes *out);
// The same for a caller that has the face normal as that function computes it (normalize(cross(q - p, r - p)), the
// cross's length divided into it) and found the triangle not degenerate.
void tr_box_triangle_axes_face(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, tread_vec3 face, tr_box_axes *out);
// The box measured on every axis: what tr_closest_box_triangle and a graze (tr_box_triangle_grazes_on) decide
// from, taken once for both (the exact closest points are the costly part, and a box grazing a triangle it touches
// needs none).
typedef struct tr_box_sat {
    // (set for the axes only: lanes past them hold no measure)
    float above[TR_BOX_AXES], below[TR_BOX_AXES]; // the box's gap above / below the triangle on each axis (> 0: apart), metres
    float gap;                  // the largest of them: > 0, a lower bound of the distance; <= 0, minus the depth
    tread_vec3 dir;             // its axis, from the triangle toward the box
} tr_box_sat;
// false where an axis sets them farther apart than `limit` (metres): out->gap is then that axis's gap only (a lower
// bound of the distance: projections onto a unit axis are no farther apart than the shapes) and the rest unset.
bool tr_box_triangle_sat(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, const tr_box_axes *axes, float limit,
                         tr_box_sat *out);
// tr_closest_box_triangle's answer from a complete measure.
void tr_closest_box_triangle_sat(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, const tr_box_sat *sat,
                                 tr_closest *out);
// Separated (a complete measure's gap > 0): is tr_closest_box_triangle's distance within `distance` (metres), bit for
// bit? true only where some pair of features is (the triangle's corners and the box edge nearest along the measure's
// axis, measured as the closest points measure them); false: it may be either. Cheaper than the closest points.
bool tr_box_triangle_within(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, const tr_box_sat *sat, float distance);
// Does the moving box graze the triangle (as tr_box_box_grazes for a box)? From a complete measure, or from the axes.
bool tr_box_sat_grazes(const tr_box_sat *sat, const tr_box_axes *axes, tread_vec3 d);
bool tr_box_triangle_grazes_on(const tr_obb *a, tread_vec3 d, tread_vec3 p, tread_vec3 q, tread_vec3 r,
                               const tr_box_axes *axes);
bool tr_sweep_box_triangle_on(const tr_obb *a, tread_vec3 d, tread_vec3 p, tread_vec3 q, tread_vec3 r, float t_max,
                              const tr_box_axes *axes, tr_hit *hit);
void tr_closest_box_capsule(const tr_obb *a, tread_vec3 ca, tread_vec3 cb, float radius, tr_closest *out);

#endif
