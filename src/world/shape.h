// SPDX-License-Identifier: MIT
// Queries against one body's shape, in that shape's local frame. The world transforms the query into the
// body's frame, calls these, and transforms results back. Triangle and box helpers here are shared by the
// mesh, heightfield and voxel modules.
#ifndef TREAD_SHAPE_H
#define TREAD_SHAPE_H

#include "../geometry/box.h"

// A moving capsule in a shape's local frame (a ray: p0 == p1 and r == 0), or a moving box. Resting queries
// (contacts) use the same description with d = 0.
typedef struct tr_cast {
    tread_vec3 p0, p1;      // core segment at t = 0 (a box: p0 == p1 == its centre)
    float r;                // radius, metres (0 for rays and boxes)
    tread_vec3 d;           // translation over t in [0, 1]
    bool is_ray;            // p0 == p1 and r == 0: use the ray primitives
    bool is_box;            // the box query: centre p0, axes box_axes, half extents box_half
    tread_vec3 box_half;    // metres, along box_axes
    float box_skin;         // metres: how much of box_half is skin (tread_query_shape::skin), < every half extent
    tread_vec3 box_axes[3]; // unit, orthogonal, in this frame
} tr_cast;

// One feature's hit in local space.
typedef struct tr_feature_hit {
    float t;                   // fraction of d
    float penetration;         // depth at the start when started_in_contact, metres
    bool started_in_contact;   // touching-and-approaching or overlapping at t = 0
    tread_vec3 point;          // on the world surface
    tread_vec3 normal;         // from the surface toward the query
    tread_vec3 surface_normal; // of the face hit
    uint32_t feature;          // triangle / cell index
} tr_feature_hit;

// Called for each feature hit; returns the new t_max (closest-hit queries return hit->t to prune;
// all-hits queries return the old t_max).
typedef float tr_hit_fn(void *ctx, const tr_feature_hit *hit);

// One feature within the margin of a query capsule, local space.
typedef struct tr_feature_contact {
    float separation;          // signed surface distance, metres (< 0: penetration depth)
    tread_vec3 point;          // on the world surface
    tread_vec3 normal;         // from the surface toward the query (push-out direction)
    tread_vec3 surface_normal; // of the face
    uint32_t feature;
} tr_feature_contact;

typedef void tr_contact_fn(void *ctx, const tr_feature_contact *contact);

// A distance lower bound must exceed the touch tolerance by this much before a query skips the exact
// closest-point test or the sweep: far above the rounding of either (tens of ulps of the coordinates).
#define TR_SKIP_SLACK_ABS 1.0e-4f
#define TR_SKIP_SLACK_REL 3.0e-6f

// The start-in-contact rule, shared by every primitive: a cast that starts overlapping or within
// TR_TOUCH_TOLERANCE of a surface hits it at t = 0 (started_in_contact) when it presses into it; moving
// away or along, that primitive is not hit (a convex primitive cannot be hit later). A zero-length cast
// reports the primitives it overlaps. Otherwise the analytic sweep decides.
// active_edges (triangles): bit i set = edge i (corner i to corner (i+1)%3) is a real edge (boundary or
// convex); contacts on inactive edges/vertices take the face normal (no ghost collisions on flat meshes).
// Does the cast press into a surface with this normal (faster than TR_APPROACH_TOLERANCE of its length)?
// Modules that adjust a hit's normal after the fact (voxel seams) re-apply the rule with the new normal.
bool tr_presses_into(const tr_cast *c, tread_vec3 normal);
bool tr_cast_triangle(const tr_cast *c, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges, float t_max,
                      tr_feature_hit *out);
// A capsule or sphere cast's own part of tr_cast_triangle's work (its bounds, the scale of its coordinates, its
// length), computed once for the many triangles a mesh's leaves give it and again when t_max changes: the same values
// that function computes per triangle, so casting with it gives the same answers.
typedef struct tr_capsule_cast {
    const tr_cast *c;    // a capsule or sphere (not a ray or box)
    float t_max;         // the swept bounds are for this t_max
    float scale;         // the largest |coordinate| of p0, p1 and d, and r
    float d_len;         // |d|
    tread_vec3 lo, hi;   // the core's bounds at the start
    tread_vec3 slo, shi; // the core's bounds swept over [0, t_max]
} tr_capsule_cast;
void tr_capsule_cast_init(tr_capsule_cast *k, const tr_cast *c, float t_max);
void tr_capsule_cast_sweep(tr_capsule_cast *k, float t_max);
// tr_cast_triangle for such a cast, up to k->t_max.
bool tr_cast_triangle_capsule(const tr_capsule_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges,
                              tr_feature_hit *out);
// Its work after the early-outs on the triangle's bounds, for a caller that did them as it does: slack, the rounding
// slack of the cast and the triangle's coordinates' scale (TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * the largest
// magnitude among them and r); `early`, what the caller found or did (TR_EARLY_*).
enum {
    TR_EARLY_APART_AT_START = 1, // the start's bounds lie farther than reach (c->r + TR_TOUCH_TOLERANCE + slack) from
                                 // the triangle's on some axis (and the swept bounds did not)
    TR_EARLY_SWEPT_TESTED = 2    // tr_swept_segment_triangle_beyond's bound, up to reach, showed nothing
};
// The first step alone (for a caller with more work per triangle, done only past it): false where those early-outs
// skip the triangle; else its slack and `early` for tr_cast_triangle_near.
bool tr_cast_triangle_bounds(const tr_capsule_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, float *slack, unsigned *early);
bool tr_cast_triangle_near(const tr_capsule_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges, float slack,
                           unsigned early, tr_feature_hit *out);
// A box cast's own part of tr_cast_triangle's work (its oriented box, its bounds, the scale of its coordinates, its
// length), as tr_capsule_cast is a capsule's: the same values that function computes per triangle, so the same answers.
typedef struct tr_box_cast {
    const tr_cast *c;    // a box
    float t_max;         // the swept bounds are for this t_max
    tr_obb box;          // tr_cast_obb(c)
    float scale;         // the largest |coordinate| of p0 and d, and of the box's extent (tr_obb_extent)
    float d_len;         // |d|
    tread_vec3 lo, hi;   // the box's bounds at the start (p0 -+ its extent)
    tread_vec3 slo, shi; // those bounds swept over [0, t_max]
} tr_box_cast;
void tr_box_cast_init(tr_box_cast *k, const tr_cast *c, float t_max);
void tr_box_cast_sweep(tr_box_cast *k, float t_max);
// tr_cast_triangle for such a cast, up to k->t_max.
bool tr_cast_triangle_box(const tr_box_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges,
                          tr_feature_hit *out);
// Its work past the early-out on the triangle's bounds, for a caller that did it as it does: `apart`, the start's
// bounds lie farther than reach from the triangle's on some axis (and the swept bounds did not); reach, the touch
// tolerance with the rounding slack (TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * the largest of k->scale and the corners'
// magnitudes).
bool tr_cast_triangle_box_near(const tr_box_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges, bool apart,
                               float reach, tr_feature_hit *out);
bool tr_cast_box(const tr_cast *c, tread_vec3 half, float t_max, tr_feature_hit *out);
bool tr_cast_sphere(const tr_cast *c, float radius, float t_max, tr_feature_hit *out);
bool tr_cast_capsule(const tr_cast *c, float half_height, float radius, float t_max, tr_feature_hit *out);

// Contact of a resting capsule (p0-p1, r) with a primitive when the surfaces are within `margin`.
bool tr_contact_triangle(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 a, tread_vec3 b, tread_vec3 cc,
                         uint8_t active_edges, float margin, tr_feature_contact *out);
bool tr_contact_box(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 half, float margin, tr_feature_contact *out);
bool tr_contact_sphere(tread_vec3 p0, tread_vec3 p1, float r, float radius, float margin, tr_feature_contact *out);
bool tr_contact_capsule(tread_vec3 p0, tread_vec3 p1, float r, float half_height, float radius, float margin,
                        tr_feature_contact *out);

// The same contacts for any query (capsule, sphere or box) given as a tr_cast (d unused).
bool tr_query_contact_triangle(const tr_cast *q, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges,
                               float margin, tr_feature_contact *out);
bool tr_query_contact_box(const tr_cast *q, tread_vec3 half, float margin, tr_feature_contact *out);
bool tr_query_contact_sphere(const tr_cast *q, float radius, float margin, tr_feature_contact *out);
bool tr_query_contact_capsule(const tr_cast *q, float half_height, float radius, float margin, tr_feature_contact *out);

// Bounds of a cast (start and end capsule or box), local space.
tread_aabb tr_cast_bounds(const tr_cast *c, float t_max);
// The box query as an oriented box (c->is_box).
tr_obb tr_cast_obb(const tr_cast *c);
// Bounds of the resting query grown by `grow` (>= 0), local space. Capsules: exactly the segment's bounds
// grown by r + grow.
tread_aabb tr_query_bounds(const tr_cast *q, float grow);

#endif
