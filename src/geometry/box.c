// SPDX-License-Identifier: MIT
// The box query shape's primitives (box.h): separating-axis sweeps and closest distance for an oriented box
// against boxes, triangles, spheres and capsules.
#include "box.h"

#include <float.h>
#include <string.h>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define BOX_SSE 1
#else
#define BOX_SSE 0
#endif

// Rounding allowance (relative to the coordinates' scale) within which a centred pair of closest points
// replaces the enumerated one.
#define TR_BOX_POINT_SLACK 1.0e-6f
// Closer than this (metres) the closest points do not define a direction: the separating axis does.
#define TR_BOX_TOUCH_DISTANCE 1.0e-6f
// Separating axes whose overlap is within this share of the shallowest one's count as tied with it (dimensionless).
#define TR_BOX_AXIS_TIE 0.05f
// Closest points nearer than this many ulps of the coordinates have no trustworthy direction between them.
#define TR_BOX_NORMAL_ULPS 64.0f
// A box axis this close to perpendicular to a direction (|cosine|) spans a feature flat against it: the
// support point takes the feature's centre along that axis.
#define TR_BOX_FLAT_COS 1.0e-4f
// |up . Z| at or above this builds the upright basis from X instead of Z (Z would be nearly parallel).
#define TR_UPRIGHT_Z_LIMIT 0.9f
// A push-out direction this close to a box axis (cosine) is that face's normal.
#define TR_BOX_FACE_AXIS_COS 0.9999f
// A box edge's lower bound of its distance must exceed a distance already found by this much (metres) plus
// TR_BOX_SKIP_SLACK_REL of the coordinates' scale before the closest features skip the edge: far above the rounding
// of either (tens of ulps).
#define TR_BOX_SKIP_SLACK_ABS 1.0e-4f
// The share of the coordinates' scale in that slack (dimensionless).
#define TR_BOX_SKIP_SLACK_REL 3.0e-6f

void tr_upright_axes(tread_vec3 up, tread_vec3 axes[3]) {
    // up x Z is exactly +X for up = +Y; near +-Z fall back to up x X.
    tread_vec3 ref = fabsf(up.z) < TR_UPRIGHT_Z_LIMIT ? tread_v3(0.0f, 0.0f, 1.0f) : tread_v3(1.0f, 0.0f, 0.0f);
    tread_vec3 x = tread_v3_normalize(tread_v3_cross(up, ref));
    axes[0] = x;
    axes[1] = up;
    axes[2] = tread_v3_cross(x, up);
}

tread_vec3 tr_obb_extent(const tr_obb *b) {
    tread_vec3 e = tread_v3_scale(tread_v3_abs(b->axis[0]), b->half.x);
    e = tread_v3_mad(e, b->half.y, tread_v3_abs(b->axis[1]));
    return tread_v3_mad(e, b->half.z, tread_v3_abs(b->axis[2]));
}

// ---- the static convex: a box at the origin or a triangle ------------------------------------------------

typedef struct convex {
    bool is_box;
    tread_vec3 half; // box
    tread_vec3 v[3]; // triangle
} convex;

static void convex_interval(const convex *s, tread_vec3 n, float *lo, float *hi) {
    if (s->is_box) {
        float r = s->half.x * fabsf(n.x) + s->half.y * fabsf(n.y) + s->half.z * fabsf(n.z);
        *lo = -r;
        *hi = r;
        return;
    }
    float a = tread_v3_dot(s->v[0], n), b = tread_v3_dot(s->v[1], n), c = tread_v3_dot(s->v[2], n);
    *lo = tr_minf(a, tr_minf(b, c));
    *hi = tr_maxf(a, tr_maxf(b, c));
}

// Candidate separating axes (box.h's tr_box_axes): the static shape's face normals, the box's axes, the edge crosses.
typedef tr_box_axes axis_set;

static tread_vec3 axis_at(const axis_set *s, int i) { return tread_v3(s->x[i], s->y[i], s->z[i]); }

static void push_axis(axis_set *s, tread_vec3 n) {
    s->x[s->count] = n.x;
    s->y[s->count] = n.y;
    s->z[s->count] = n.z;
    s->count++;
}

static void add_axis(axis_set *s, tread_vec3 v) {
    float l2 = tread_v3_length_sq(v);
    if (!(l2 >= TR_BOX_CROSS_EPS)) return;
    push_axis(s, tread_v3_scale(v, 1.0f / sqrtf(l2)));
}

#if BOX_SSE
// build_axes for a triangle with its three edges as SSE lanes: the same operations on the same values in the same
// order (an edge's length, 1 / it, the crosses with the box's axes, their squared lengths, 1 / sqrt of those; SQRTPS
// and DIVPS round as sqrtf and / do), so the same axes, bit for bit, in the same order.
// `face`: the unit face normal as build_axes computes it, of a triangle it does not find degenerate.
static void triangle_axes_sse(const tr_obb *a, const convex *s, tread_vec3 face, axis_set *out) {
    memset(out, 0, sizeof *out); // lanes past the axes are zero: measure_lanes reads every lane
    tread_vec3 e0 = tread_v3_sub(s->v[1], s->v[0]), e1 = tread_v3_sub(s->v[2], s->v[1]), e2 = tread_v3_sub(s->v[0], s->v[2]);
    push_axis(out, face);
    for (int i = 0; i < 3; i++) push_axis(out, a->axis[i]);
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    __m128 ex = _mm_setr_ps(e0.x, e1.x, e2.x, 0.0f), ey = _mm_setr_ps(e0.y, e1.y, e2.y, 0.0f), ez = _mm_setr_ps(e0.z, e1.z, e2.z, 0.0f);
    // tread_v3_normalize: a zero edge (the fourth lane) stays zero.
    __m128 len = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(ex, ex), _mm_mul_ps(ey, ey)), _mm_mul_ps(ez, ez)));
    __m128 inv = _mm_div_ps(one, len), pos = _mm_cmpgt_ps(len, zero);
    ex = _mm_and_ps(_mm_mul_ps(ex, inv), pos);
    ey = _mm_and_ps(_mm_mul_ps(ey, inv), pos);
    ez = _mm_and_ps(_mm_mul_ps(ez, inv), pos);
    float cx[3][4], cy[3][4], cz[3][4], l2[3][4];
    for (int j = 0; j < 3; j++) {
        __m128 ax = _mm_set1_ps(a->axis[j].x), ay = _mm_set1_ps(a->axis[j].y), az = _mm_set1_ps(a->axis[j].z);
        __m128 x = _mm_sub_ps(_mm_mul_ps(ey, az), _mm_mul_ps(ez, ay));
        __m128 y = _mm_sub_ps(_mm_mul_ps(ez, ax), _mm_mul_ps(ex, az));
        __m128 z = _mm_sub_ps(_mm_mul_ps(ex, ay), _mm_mul_ps(ey, ax));
        __m128 q = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
        __m128 k = _mm_div_ps(one, _mm_sqrt_ps(q));
        _mm_storeu_ps(cx[j], _mm_mul_ps(x, k));
        _mm_storeu_ps(cy[j], _mm_mul_ps(y, k));
        _mm_storeu_ps(cz[j], _mm_mul_ps(z, k));
        _mm_storeu_ps(l2[j], q);
    }
    // add_axis's order: edge i, then box axis j. Each is written at the next place and kept by counting it; the one
    // place past the axes a skipped one may have written is cleared after.
    int count = out->count;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            out->x[count] = cx[j][i];
            out->y[count] = cy[j][i];
            out->z[count] = cz[j][i];
            count += l2[j][i] >= TR_BOX_CROSS_EPS;
        }
    out->x[count] = out->y[count] = out->z[count] = 0.0f;
    out->count = count;
}

// The triangle's face normal as build_axes computes it; false for a degenerate triangle.
static bool triangle_face(const convex *s, tread_vec3 *face) {
    tread_vec3 n = tread_v3_cross(tread_v3_sub(s->v[1], s->v[0]), tread_v3_sub(s->v[2], s->v[0]));
    float twice_area = tread_v3_length(n);
    if (!(twice_area >= TR_DEGENERATE_AREA)) return false;
    *face = tread_v3_scale(n, 1.0f / twice_area);
    return true;
}
#endif

// Triangle edges or box axes of the static shape; returns false for a degenerate triangle.
static bool build_axes(const tr_obb *a, const convex *s, axis_set *out) {
#if BOX_SSE
    tread_vec3 face;
    if (!s->is_box) {
        if (!triangle_face(s, &face)) return false;
        triangle_axes_sse(a, s, face, out);
        return true;
    }
#endif
    // Lanes past the axes are zero: measure_lanes reads every lane.
    for (int i = 0; i < TR_BOX_AXES; i++) out->x[i] = out->y[i] = out->z[i] = 0.0f;
    out->count = 0;
    tread_vec3 edges[3];
    if (s->is_box) {
        edges[0] = tread_v3(1.0f, 0.0f, 0.0f);
        edges[1] = tread_v3(0.0f, 1.0f, 0.0f);
        edges[2] = tread_v3(0.0f, 0.0f, 1.0f);
        for (int i = 0; i < 3; i++) push_axis(out, edges[i]);
    } else {
        edges[0] = tread_v3_sub(s->v[1], s->v[0]);
        edges[1] = tread_v3_sub(s->v[2], s->v[1]);
        edges[2] = tread_v3_sub(s->v[0], s->v[2]);
        tread_vec3 n = tread_v3_cross(edges[0], tread_v3_sub(s->v[2], s->v[0]));
        float twice_area = tread_v3_length(n);
        if (!(twice_area >= TR_DEGENERATE_AREA)) return false;
        push_axis(out, tread_v3_scale(n, 1.0f / twice_area));
        for (int i = 0; i < 3; i++) edges[i] = tread_v3_normalize(edges[i]);
    }
    for (int i = 0; i < 3; i++) push_axis(out, a->axis[i]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) add_axis(out, tread_v3_cross(edges[i], a->axis[j]));
    return true;
}

// The box's gaps above and below the shape (> 0: the box is above / below it) on every axis at once: per axis the
// sums convex_interval, obb_radius and a dot product with the centre make, in their order (so the same values), in
// loops over the lanes the compiler runs several at a time. Lanes past the axes in the last group of four measure
// zero axes; those past that group are left unset.
static void measure_lanes(const tr_obb *a, const convex *s, const axis_set *axes, float *restrict above,
                          float *restrict below) {
    float lo[TR_BOX_AXES], hi[TR_BOX_AXES];
    int lanes = (axes->count + 3) & ~3; // whole groups of four: the lanes past them are not read
    const float *nx = axes->x, *ny = axes->y, *nz = axes->z;
    if (s->is_box) {
        tread_vec3 h = s->half;
        for (int i = 0; i < lanes; i++) {
            float r = h.x * fabsf(nx[i]) + h.y * fabsf(ny[i]) + h.z * fabsf(nz[i]);
            lo[i] = -r;
            hi[i] = r;
        }
    } else {
        tread_vec3 p = s->v[0], q = s->v[1], w = s->v[2];
        for (int i = 0; i < lanes; i++) {
            float pa = p.x * nx[i] + p.y * ny[i] + p.z * nz[i];
            float pb = q.x * nx[i] + q.y * ny[i] + q.z * nz[i];
            float pc = w.x * nx[i] + w.y * ny[i] + w.z * nz[i];
            lo[i] = tr_minf(pa, tr_minf(pb, pc));
            hi[i] = tr_maxf(pa, tr_maxf(pb, pc));
        }
    }
    tread_vec3 c = a->center, a0 = a->axis[0], a1 = a->axis[1], a2 = a->axis[2], h = a->half;
    for (int i = 0; i < lanes; i++) {
        float cn = c.x * nx[i] + c.y * ny[i] + c.z * nz[i];
        float r = h.x * fabsf(a0.x * nx[i] + a0.y * ny[i] + a0.z * nz[i]) + h.y * fabsf(a1.x * nx[i] + a1.y * ny[i] + a1.z * nz[i]) +
                  h.z * fabsf(a2.x * nx[i] + a2.y * ny[i] + a2.z * nz[i]);
        above[i] = (cn - r) - hi[i];
        below[i] = lo[i] - (cn + r);
    }
}

// A direction's dot product with every axis (lanes as measure_lanes').
static void along_lanes(tread_vec3 d, const axis_set *axes, float *restrict v) {
    for (int i = 0; i < TR_BOX_AXES; i++) v[i] = d.x * axes->x[i] + d.y * axes->y[i] + d.z * axes->z[i];
}

// The box's gaps above and below the shape on each axis, in out (box.h's tr_box_sat): the largest gap between the
// projections (> 0: separated by at least that; <= 0: minus the smallest overlap) and the direction that pushes the
// box out along it (from the static shape toward the box). Stops with false at an axis that separates them by more
// than `limit` (its gap in out->gap).
// The axis's direction from the static shape toward the box: n where the box is above, else -n.
static tread_vec3 gap_dir(const axis_set *axes, const tr_box_sat *sat, int i) {
    tread_vec3 n = axis_at(axes, i);
    return sat->above[i] >= sat->below[i] ? n : tread_v3_neg(n);
}

static bool sat_measure(const tr_obb *a, const convex *s, const axis_set *axes, float limit, tr_box_sat *out) {
    measure_lanes(a, s, axes, out->above, out->below);
    // Every lane's gap at once (the compiler runs them several at a time), then the axes in order.
    float gaps[TR_BOX_AXES];
    for (int i = 0; i < axes->count; i++) gaps[i] = tr_maxf(out->above[i], out->below[i]);
    float best = -INFINITY;
    int best_i = -1;
    for (int i = 0; i < axes->count; i++) {
        float gap = gaps[i];
        if (gap > limit) {
            out->gap = gap;
            out->dir = gap_dir(axes, out, i);
            return false;
        }
        if (gap > best + (i > 0 ? TR_TOUCH_TOLERANCE * 0.1f : 0.0f)) { // near-ties: the earlier axis (the world's face)
            best = gap;
            best_i = i;
        }
    }
    out->dir = best_i >= 0 ? gap_dir(axes, out, best_i) : axis_at(axes, 0);
    out->gap = best;
    return true;
}

// The moving-SAT sweep: each axis gives the fractions [enter, exit] during which the projections overlap; the
// shapes touch at the latest entry if it comes before the earliest exit.
static bool sat_sweep(const tr_obb *a, tread_vec3 d, const convex *s, const axis_set *axes, float t_max, float *t_out,
                      tread_vec3 *normal) {
    float enter = -INFINITY, exit = t_max;
    tread_vec3 n_enter = axis_at(axes, 0);
    float speed = tread_v3_length(d), inv_speed = speed > 0.0f ? 1.0f / speed : 0.0f;
    float aboves[TR_BOX_AXES], belows[TR_BOX_AXES], vs[TR_BOX_AXES];
    measure_lanes(a, s, axes, aboves, belows);
    along_lanes(d, axes, vs);
    for (int i = 0; i < axes->count; i++) {
        tread_vec3 n = axis_at(axes, i);
        float above = aboves[i], below = belows[i], v = vs[i]; // > 0: the box is above / below the shape on n
        float t0, t1;
        tread_vec3 side;
        if (v == 0.0f) {
            if (above > 0.0f || below > 0.0f) return false;
            continue;
        }
        if (v > 0.0f) { // moving up n: enters from below, leaves above
            t0 = below / v;
            t1 = -above / v;
            side = tread_v3_neg(n);
        } else {
            t0 = above / -v;
            t1 = -below / -v;
            side = n;
        }
        // Near-ties go to the earlier axis: the static shape's faces come first, so a corner meeting a face edge
        // on (a flat bottom at a ramp's foot) reports the world's face, not the moving box's own.
        if (t0 > enter + TR_TOUCH_TOLERANCE * inv_speed) {
            enter = t0;
            n_enter = side;
        }
        exit = tr_minf(exit, t1);
        if (enter > exit || enter > t_max || exit < 0.0f) return false;
    }
    *t_out = tr_maxf(enter, 0.0f);
    *normal = n_enter;
    return true;
}

static tr_obb moved(const tr_obb *a, tread_vec3 d, float t) {
    tr_obb m = *a;
    m.center = tread_v3_mad(a->center, t, d);
    return m;
}

// Closest point of the box to p (p inside: p itself).
static tread_vec3 obb_clamp(const tr_obb *a, tread_vec3 p) {
    tread_vec3 rel = tread_v3_sub(p, a->center), out = a->center;
    const float h[3] = {a->half.x, a->half.y, a->half.z};
    for (int i = 0; i < 3; i++) {
        float x = tread_v3_dot(rel, a->axis[i]);
        x = tr_maxf(-h[i], tr_minf(h[i], x));
        out = tread_v3_mad(out, x, a->axis[i]);
    }
    return out;
}

// The centre of the box's feature farthest along dir (a face's, an edge's or a corner).
static tread_vec3 obb_support(const tr_obb *a, tread_vec3 dir) {
    tread_vec3 p = a->center;
    const float h[3] = {a->half.x, a->half.y, a->half.z};
    for (int i = 0; i < 3; i++) {
        float k = tread_v3_dot(a->axis[i], dir);
        if (k > TR_BOX_FLAT_COS) p = tread_v3_mad(p, h[i], a->axis[i]);
        else if (k < -TR_BOX_FLAT_COS) p = tread_v3_mad(p, -h[i], a->axis[i]);
    }
    return p;
}

static void obb_corners(const tr_obb *a, tread_vec3 v[8]) {
    for (int i = 0; i < 8; i++) {
        tread_vec3 p = a->center;
        p = tread_v3_mad(p, (i & 1) ? a->half.x : -a->half.x, a->axis[0]);
        p = tread_v3_mad(p, (i & 2) ? a->half.y : -a->half.y, a->axis[1]);
        p = tread_v3_mad(p, (i & 4) ? a->half.z : -a->half.z, a->axis[2]);
        v[i] = p;
    }
}

// The 12 edges as corner index pairs (corners differ in one bit).
static const int k_edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

// Closest point of the static shape to p (inside a box: p itself).
static tread_vec3 convex_closest(const struct convex *s, tread_vec3 p) {
    if (s->is_box) return tread_v3_max(tread_v3_neg(s->half), tread_v3_min(s->half, p));
    tr_closest cl;
    if (!tr_closest_segment_triangle(p, p, s->v[0], s->v[1], s->v[2], &cl)) return p;
    return cl.on_shape;
}

// Most vertices of a triangle or a box face clipped by a box's six planes (each plane adds at most one).
#define TR_BOX_CLIP_VERTICES 10

// The part of the convex polygon `poly` (n vertices, room for TR_BOX_CLIP_VERTICES) inside the box grown by
// TR_TOUCH_TOLERANCE on every face, in place; returns its vertex count (0 when rounding leaves nothing of a
// polygon that only touches the box). Where a box overlaps a face, the contact region. Clipped by each of the
// box's planes in turn (Sutherland-Hodgman).
static int clip_to_box(const tr_obb *a, tread_vec3 poly[TR_BOX_CLIP_VERTICES], int n) {
    tread_vec3 buf[TR_BOX_CLIP_VERTICES];
    const float h[3] = {a->half.x, a->half.y, a->half.z};
    for (int plane = 0; plane < 6 && n > 0; plane++) {
        tread_vec3 normal = plane & 1 ? tread_v3_neg(a->axis[plane >> 1]) : a->axis[plane >> 1];
        float limit = tread_v3_dot(a->center, normal) + h[plane >> 1] + TR_TOUCH_TOLERANCE;
        int m = 0;
        for (int i = 0; i < n; i++) {
            tread_vec3 p = poly[i], q = poly[(i + 1) % n];
            float dp = tread_v3_dot(p, normal) - limit, dq = tread_v3_dot(q, normal) - limit;
            if (dp <= 0.0f) buf[m++] = p;
            if ((dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f)) buf[m++] = tread_v3_lerp(p, q, dp / (dp - dq));
        }
        for (int i = 0; i < m; i++) poly[i] = buf[i];
        n = m;
    }
    return n;
}

// The point of the convex polygon nearest `target`: on a triangle of its fan, or on one of its edges (covering
// slivers the triangle test declines as degenerate).
static tread_vec3 polygon_nearest(const tread_vec3 *poly, int n, tread_vec3 target) {
    tread_vec3 best = poly[0];
    float best_d = tread_v3_distance(poly[0], target);
    for (int i = 0; i < n; i++) {
        tr_closest cl;
        tr_closest_segment_point(poly[i], poly[(i + 1) % n], target, &cl);
        if (cl.distance < best_d) best_d = cl.distance, best = cl.on_segment;
        if (i < 1 || i + 1 >= n || !tr_closest_segment_triangle(target, target, poly[0], poly[i], poly[i + 1], &cl)) continue;
        float d = tread_v3_distance(cl.on_shape, target);
        if (d < best_d) best_d = d, best = cl.on_shape;
    }
    return best;
}

// The point of the face `poly` (n vertices, room for TR_BOX_CLIP_VERTICES; clipped in place) nearest `target`
// that lies in the box (within TR_TOUCH_TOLERANCE): `nearest`, the face's nearest point, when it is in the box,
// else the contact region's nearest (a flat bottom over a triangle reaching under one corner: the triangle's point
// nearest the bottom's centre lay 7.6 cm outside the box, and the character's ground seemed to be beside it).
// `nearest` too when nothing of the face is left inside (rounding).
static tread_vec3 face_point_in_box(const tr_obb *a, tread_vec3 *poly, int n, tread_vec3 target, tread_vec3 nearest) {
    if (tread_v3_distance(obb_clamp(a, nearest), nearest) <= TR_TOUCH_TOLERANCE) return nearest;
    n = clip_to_box(a, poly, n);
    return n > 0 ? polygon_nearest(poly, n, target) : nearest;
}

static tread_vec3 triangle_point_in_box(const tr_obb *a, const convex *s, tread_vec3 target) {
    tread_vec3 poly[TR_BOX_CLIP_VERTICES] = {s->v[0], s->v[1], s->v[2]};
    return face_point_in_box(a, poly, 3, target, convex_closest(s, target));
}

// Nearest `target`, the part of the static box's face (axis k, side: +1 or -1) that lies in the moving box: the
// distance to it (INFINITY when none does), the point in *at.
static float box_face_nearest(const tr_obb *a, const convex *s, int k, float side, tread_vec3 target, tread_vec3 *at) {
    static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    const float h[3] = {s->half.x, s->half.y, s->half.z};
    int u = (k + 1) % 3, v = (k + 2) % 3;
    tread_vec3 poly[TR_BOX_CLIP_VERTICES];
    for (int c = 0; c < 4; c++) {
        float p[3];
        p[k] = side * h[k];
        p[u] = corner[c][0] * h[u];
        p[v] = corner[c][1] * h[v];
        poly[c] = tread_v3(p[0], p[1], p[2]);
    }
    int n = clip_to_box(a, poly, 4);
    if (n == 0) return INFINITY;
    *at = polygon_nearest(poly, n, target);
    return tread_v3_distance(*at, target);
}

// The static box's surface point nearest `target` that lies in the moving box (within TR_TOUCH_TOLERANCE), on
// the face the push out (`dir`) leaves by: `nearest` when that is in the box already. A box standing over a
// step's edge, yawed against the step, reported the top face's point nearest its sole's centre 1 mm outside
// itself; the riser's nearest point in it would be below the edge, and the ground would look like a wall. Deep
// in, the box can overlap the static one only through other faces: the nearest of those; `nearest` when nothing
// of the surface is in the box (rounding; or a box wholly inside the other).
static tread_vec3 box_point_in_box(const tr_obb *a, const convex *s, tread_vec3 dir, tread_vec3 target, tread_vec3 nearest) {
    if (tread_v3_distance(obb_clamp(a, nearest), nearest) <= TR_TOUCH_TOLERANCE) return nearest;
    const float d[3] = {dir.x, dir.y, dir.z};
    int k = 0;
    for (int i = 1; i < 3; i++)
        if (fabsf(d[i]) > fabsf(d[k])) k = i;
    tread_vec3 best = nearest;
    if (box_face_nearest(a, s, k, d[k] < 0.0f ? -1.0f : 1.0f, target, &best) < INFINITY) return best;
    float best_d = INFINITY;
    for (int face = 0; face < 6; face++) {
        tread_vec3 at;
        float dist = box_face_nearest(a, s, face >> 1, face & 1 ? -1.0f : 1.0f, target, &at);
        if (dist < best_d) best_d = dist, best = at;
    }
    return best;
}

// Pushed out along an axis other than the triangle's face normal (a box face, an edge pair), the triangle enters
// the box with its deepest corners along that axis: the contact is there, not at the triangle's point nearest
// the box's face centre (for a heightfield cell just entering a box's front face a rounding below its sole, that
// point lay 7 cm up the slope and the contact looked like a wall). The deepest corners' mean, brought into the
// box and back onto the triangle, inside the box. Along the face normal: the triangle's point nearest `deepest`
// (the centre of the box's deepest feature) inside the box.
static tread_vec3 triangle_contact_point(const tr_obb *a, const convex *s, tread_vec3 dir, tread_vec3 deepest_feature) {
    tread_vec3 face = tread_v3_normalize(tread_v3_cross(tread_v3_sub(s->v[1], s->v[0]), tread_v3_sub(s->v[2], s->v[0])));
    if (fabsf(tread_v3_dot(face, dir)) >= TR_BOX_FACE_AXIS_COS) return triangle_point_in_box(a, s, deepest_feature);
    float deepest = -INFINITY;
    for (int i = 0; i < 3; i++) deepest = tr_maxf(deepest, tread_v3_dot(s->v[i], dir));
    tread_vec3 sum = tread_v3_zero();
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (tread_v3_dot(s->v[i], dir) >= deepest - TR_TOUCH_TOLERANCE) sum = tread_v3_add(sum, s->v[i]), n++;
    return triangle_point_in_box(a, s, obb_clamp(a, tread_v3_scale(sum, 1.0f / (float)n)));
}

// Overlapping (gap <= 0): depth and normal from the axis. Points: the centre of the box's deepest feature
// (a face's centre when a face lies flat on the shape) and the shape's surface point nearest to it, so a box
// standing across a step's edge reports a point on the step, inside the contact region.
static void fill_penetration(const tr_obb *a, const struct convex *s, float gap, tread_vec3 dir, tr_closest *out) {
    out->distance = gap;
    out->normal = dir;
    out->on_segment = obb_support(a, tread_v3_neg(dir));
    tread_vec3 p = out->on_segment;
    if (!s->is_box) {
        out->on_shape = triangle_contact_point(a, s, dir, p);
        return;
    }
    tread_vec3 q = convex_closest(s, p);
    bool inside = q.x == p.x && q.y == p.y && q.z == p.z;
    bool face_axis = fabsf(dir.x) >= TR_BOX_FACE_AXIS_COS || fabsf(dir.y) >= TR_BOX_FACE_AXIS_COS || fabsf(dir.z) >= TR_BOX_FACE_AXIS_COS;
    if (inside || face_axis) {
        // Onto the box's face along the normal: where the deepest point leaves the box, or (outside, clamped
        // onto a side face) onto the face the normal belongs to.
        float lo, hi;
        convex_interval(s, dir, &lo, &hi);
        q = tread_v3_mad(q, hi - tread_v3_dot(q, dir), dir);
        q = tread_v3_max(tread_v3_neg(s->half), tread_v3_min(s->half, q));
    }
    // Within the moving box too: on a face it presses, in the region the two overlap.
    out->on_shape = box_point_in_box(a, s, dir, p, q);
}

static void consider(tr_closest *best, float dist, tread_vec3 on_shape, tread_vec3 on_box, tread_vec3 normal) {
    if (dist < best->distance) {
        best->distance = dist;
        best->on_shape = on_shape;
        best->on_segment = on_box;
        best->normal = normal;
    }
}

// Closest points of a segment and an axis-aligned box at the origin, measured outside the box (0 when they
// meet). The squared distance is a convex piecewise quadratic in the segment parameter, smooth between the
// parameters where a coordinate crosses a slab plane: minimise each piece exactly. (tr_closest_segment_box
// answers overlaps with a push-out instead; here touching segments need their touching point.)
static void segment_box_outside(tread_vec3 p0, tread_vec3 p1, tread_vec3 half, tr_closest *out) {
    tread_vec3 e = tread_v3_sub(p1, p0);
    const float o[3] = {p0.x, p0.y, p0.z}, d[3] = {e.x, e.y, e.z}, h[3] = {half.x, half.y, half.z};
    float cuts[8];
    int n = 0;
    cuts[n++] = 0.0f;
    cuts[n++] = 1.0f;
    for (int i = 0; i < 3; i++) {
        if (d[i] == 0.0f) continue;
        float a = (-h[i] - o[i]) / d[i], b = (h[i] - o[i]) / d[i];
        if (a > 0.0f && a < 1.0f) cuts[n++] = a;
        if (b > 0.0f && b < 1.0f) cuts[n++] = b;
    }
    for (int i = 1; i < n; i++) // sort the breakpoints
        for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
            float t = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = t;
        }
    float best_d2 = INFINITY, best_s = 0.0f;
    for (int k = 0; k + 1 < n; k++) {
        float s0 = cuts[k], s1 = cuts[k + 1], mid = 0.5f * (s0 + s1);
        // On this piece each coordinate is below, inside or above its slab: (o + s d - bound)^2 or 0.
        float qa = 0.0f, qb = 0.0f;
        for (int i = 0; i < 3; i++) {
            float x = o[i] + mid * d[i];
            float bound = x > h[i] ? h[i] : (x < -h[i] ? -h[i] : x);
            if (bound == x) continue;
            qa += d[i] * d[i];
            qb += d[i] * (o[i] - bound);
        }
        float s_star = qa > 0.0f ? tr_maxf(s0, tr_minf(s1, -qb / qa)) : s0;
        const float candidates[3] = {s0, s1, s_star};
        for (int c = 0; c < 3; c++) {
            tread_vec3 p = tread_v3_mad(p0, candidates[c], e);
            tread_vec3 q = tread_v3_max(tread_v3_neg(half), tread_v3_min(half, p));
            float d2 = tread_v3_length_sq(tread_v3_sub(p, q));
            if (d2 < best_d2) best_d2 = d2, best_s = candidates[c];
        }
    }
    tread_vec3 p = tread_v3_mad(p0, best_s, e);
    tread_vec3 q = tread_v3_max(tread_v3_neg(half), tread_v3_min(half, p));
    tread_vec3 diff = tread_v3_sub(p, q);
    out->distance = tread_v3_length(diff);
    out->on_segment = p;
    out->on_shape = q;
    out->normal = out->distance > 0.0f ? tread_v3_scale(diff, 1.0f / out->distance) : tread_v3_zero();
}

// Box edge e (corner index pair k_edges[e]) against the shape; false: a degenerate triangle.
static bool edge_closest(const convex *s, const tread_vec3 corners[8], int e, tr_closest *out) {
    tread_vec3 p0 = corners[k_edges[e][0]], p1 = corners[k_edges[e][1]];
    if (s->is_box) {
        segment_box_outside(p0, p1, s->half, out);
        return true;
    }
    return tr_closest_segment_triangle(p0, p1, s->v[0], s->v[1], s->v[2], out);
}

// Where the closest points are not unique (a face parallel to a face or edge), the pair at the centre of the box's
// nearest feature (the farthest along -normal): the shape's point nearest to it and that point's nearest in the box,
// if they are as close as `distance` (within rounding).
static bool centre_pair(const tr_obb *a, const convex *s, tread_vec3 normal, float distance, tread_vec3 *on_shape,
                        tread_vec3 *on_box) {
    tread_vec3 p = obb_support(a, tread_v3_neg(normal));
    tread_vec3 q = convex_closest(s, p), pa = obb_clamp(a, q);
    float dist = tread_v3_distance(pa, q);
    float scale = 1.0f + tr_maxf(tread_v3_length(q), tr_maxf(a->half.x, tr_maxf(a->half.y, a->half.z)));
    if (!(dist <= tr_maxf(distance, 0.0f) + TR_BOX_POINT_SLACK * scale)) return false;
    *on_shape = q;
    *on_box = pa;
    return true;
}

// The feature pairs of a box and a separated shape as closest_features takes them, up to a first distance found.
typedef struct features {
    tread_vec3 corners[8], sv[8], v_on_box[8]; // the box's corners; the shape's vertices and their nearest in the box
    float v_dist[8], bound[12];                 // the vertices' distances; the edges' lower bounds
    float coords;                               // the coordinates' scale
    int n, first;                               // the shape's vertices; the edge with the lowest bound
    tr_closest first_cl;                        // that edge's closest points (first_ok: measured)
    bool first_ok;
    float found; // the least distance measured so far: the closest pair's is no larger
} features;

static void features_start(const tr_obb *a, const convex *s, tread_vec3 fallback, features *f) {
    obb_corners(a, f->corners);
    f->n = 3;
    if (s->is_box) {
        tr_obb b = {tread_v3_zero(), {tread_v3(1, 0, 0), tread_v3(0, 1, 0), tread_v3(0, 0, 1)}, s->half};
        obb_corners(&b, f->sv);
        f->n = 8;
    } else {
        for (int i = 0; i < 3; i++) f->sv[i] = s->v[i];
    }
    f->coords = tr_maxf(tread_v3_length(a->center), tr_maxf(a->half.x, tr_maxf(a->half.y, a->half.z)));
    for (int i = 0; i < f->n; i++) f->coords = tr_maxf(f->coords, tread_v3_length(f->sv[i]));
    // The shape's vertices against the box: cheap, so measured first (taken after the edges, in their order).
    for (int i = 0; i < f->n; i++) {
        f->v_on_box[i] = obb_clamp(a, f->sv[i]);
        f->v_dist[i] = tread_v3_length(tread_v3_sub(f->v_on_box[i], f->sv[i]));
    }
    // The edges' distances bounded from below along the separating axis (`fallback`, from the shape toward the
    // box): an edge whose bound exceeds a distance already found, beyond rounding, is farther than the closest pair
    // and changes nothing (a box standing on a triangle: its top edges). The vertices and the edge with the lowest
    // bound give that distance; the edges are still taken in their order, so ties go as they always went.
    float lo, hi, along[8];
    convex_interval(s, fallback, &lo, &hi);
    for (int i = 0; i < 8; i++) along[i] = tread_v3_dot(f->corners[i], fallback);
    f->first = 0;
    for (int e = 0; e < 12; e++) {
        f->bound[e] = tr_minf(along[k_edges[e][0]], along[k_edges[e][1]]) - hi;
        if (f->bound[e] < f->bound[f->first]) f->first = e;
    }
    f->first_ok = edge_closest(s, f->corners, f->first, &f->first_cl);
    f->found = f->first_ok ? f->first_cl.distance : INFINITY;
    for (int i = 0; i < f->n; i++) f->found = tr_minf(f->found, f->v_dist[i]);
}

// The exact closest points of a box and the static shape that do not overlap (or just touch): the closest pair
// is a box edge against the shape or a shape vertex against the box, the first least in the order edges then
// vertices. `fallback` is the normal when they touch. point_only: only out->on_shape is wanted (a sweep's contact
// point).
static void closest_features(const tr_obb *a, const convex *s, tread_vec3 fallback, bool point_only, tr_closest *out) {
    out->distance = INFINITY;
    out->normal = fallback;
    out->on_shape = out->on_segment = a->center;
    features f;
    features_start(a, s, fallback, &f);
    float touch = TR_BOX_TOUCH_DISTANCE + TR_BOX_NORMAL_ULPS * FLT_EPSILON * f.coords;
    // Touching (a pair within the touch distance: so is the closest one), the normal below is `fallback` and the
    // centre pair within the rounding slack alone is the point, whatever the other edges measure.
    if (point_only && !(f.found > touch) && centre_pair(a, s, fallback, 0.0f, &out->on_shape, &out->on_segment)) return;
    float skip_slack = TR_BOX_SKIP_SLACK_ABS + TR_BOX_SKIP_SLACK_REL * f.coords;
    // An edge that bound leaves is bounded again along the box's own axes (a box on a small triangle: the edges
    // beside it), taken once one is needed.
    float box_lo[3], box_hi[3], box_along[3][8];
    bool box_bounds = false;
    for (int e = 0; e < 12; e++) {
        tr_closest cl;
        if (e == f.first) {
            if (!f.first_ok) continue;
            cl = f.first_cl;
        } else {
            if (f.bound[e] > f.found + skip_slack) continue;
            if (!box_bounds) {
                for (int k = 0; k < 3; k++) {
                    convex_interval(s, a->axis[k], &box_lo[k], &box_hi[k]);
                    for (int i = 0; i < 8; i++) box_along[k][i] = tread_v3_dot(f.corners[i], a->axis[k]);
                }
                box_bounds = true;
            }
            float side = -INFINITY;
            for (int k = 0; k < 3; k++) {
                float p0 = box_along[k][k_edges[e][0]], p1 = box_along[k][k_edges[e][1]];
                side = tr_maxf(side, tr_maxf(box_lo[k] - tr_maxf(p0, p1), tr_minf(p0, p1) - box_hi[k]));
            }
            if (side > f.found + skip_slack || !edge_closest(s, f.corners, e, &cl)) continue;
            f.found = tr_minf(f.found, cl.distance);
        }
        consider(out, cl.distance, cl.on_shape, cl.on_segment, cl.normal);
    }
    for (int i = 0; i < f.n; i++) {
        tread_vec3 q = f.v_on_box[i], diff = tread_v3_sub(q, f.sv[i]);
        float dist = f.v_dist[i];
        if (dist < out->distance) consider(out, dist, f.sv[i], q, dist > 0.0f ? tread_v3_scale(diff, 1.0f / dist) : fallback);
    }
    // Touching within rounding: the separating axis is the better-conditioned direction. "Within rounding" grows
    // with the coordinates: 1 um apart at 8 m from the origin, the closest points differ by a few ulps and their
    // direction was noise (a box character took a heightfield's edge for a plane tilted 30 degrees from the true
    // one, slid along it and ended 2.6 cm inside).
    if (!(out->distance > touch)) out->normal = fallback;
    centre_pair(a, s, out->normal, out->distance, &out->on_shape, &out->on_segment);
}

// The closest points from the measured axes: the penetration along the shallowest overlap, or the exact closest
// features of the separated shapes.
static void closest_from_sat(const tr_obb *a, const convex *s, const tr_box_sat *sat, tr_closest *out) {
    if (sat->gap <= 0.0f)
        fill_penetration(a, s, sat->gap, sat->dir, out);
    else
        closest_features(a, s, sat->dir, false, out);
}

static void closest_convex(const tr_obb *a, const convex *s, const axis_set *axes, tr_closest *out) {
    tr_box_sat sat;
    sat_measure(a, s, axes, INFINITY, &sat);
    closest_from_sat(a, s, &sat, out);
}

static convex box_convex(tread_vec3 half) {
    convex s;
    s.is_box = true;
    s.half = half;
    s.v[0] = s.v[1] = s.v[2] = tread_v3_zero();
    return s;
}

static convex triangle_convex(tread_vec3 p, tread_vec3 q, tread_vec3 r) {
    convex s;
    s.is_box = false;
    s.half = tread_v3_zero();
    s.v[0] = p;
    s.v[1] = q;
    s.v[2] = r;
    return s;
}

// A box touching the shape (within TR_TOUCH_TOLERANCE) slides past it when some axis still separates them (or
// they just touch along it) and the motion does not approach along that axis: a flat bottom running over the seam
// between two floor boxes, or along a tread to the next riser's nose at its own height, grazes the corner there.
static bool grazes_measured(const float *above, const float *below, const axis_set *axes, tread_vec3 d) {
    float slack = TR_APPROACH_TOLERANCE * tread_v3_length(d), v[TR_BOX_AXES];
    along_lanes(d, axes, v);
    for (int i = 0; i < axes->count; i++) {
        if (above[i] >= -TR_TOUCH_TOLERANCE && v[i] >= -slack) return true;
        if (below[i] >= -TR_TOUCH_TOLERANCE && v[i] <= slack) return true;
    }
    return false;
}

static bool grazes(const tr_obb *a, tread_vec3 d, const convex *s, const axis_set *axes) {
    float above[TR_BOX_AXES], below[TR_BOX_AXES];
    measure_lanes(a, s, axes, above, below);
    return grazes_measured(above, below, axes, d);
}

// Overlapping at the start, the separating axes that nearly tie with the shallowest (within TR_BOX_AXIS_TIE of its
// depth): if the motion presses into one of them, the shallowest of those is the normal to stop on. A box grown by a
// skin, under a slab's edge and beside it, overlaps its underside 1 mm less than its side: the underside alone said
// the motion along the side pressed into nothing, and the bare box ended 1.2 mm inside.
static bool presses_near_tie(const tr_obb *a, tread_vec3 d, const convex *s, tread_vec3 *out_normal) {
    axis_set axes;
    if (!build_axes(a, s, &axes)) return false;
    float gaps[TR_BOX_AXES], aboves[TR_BOX_AXES], belows[TR_BOX_AXES];
    tread_vec3 dirs[TR_BOX_AXES];
    float best = -INFINITY;
    measure_lanes(a, s, &axes, aboves, belows);
    for (int i = 0; i < axes.count; i++) {
        tread_vec3 n = axis_at(&axes, i);
        float above = aboves[i], below = belows[i];
        gaps[i] = tr_maxf(above, below);
        dirs[i] = above >= below ? n : tread_v3_neg(n);
        best = tr_maxf(best, gaps[i]);
    }
    if (!(best < 0.0f)) return false;
    float floor_gap = best + TR_BOX_AXIS_TIE * best, found = -INFINITY; // best < 0: a little deeper than it
    for (int i = 0; i < axes.count; i++) {
        if (gaps[i] < floor_gap || !(tread_v3_dot(d, dirs[i]) < 0.0f) || gaps[i] <= found) continue;
        found = gaps[i];
        *out_normal = dirs[i];
    }
    return found > -INFINITY;
}

bool tr_box_box_presses_near_tie(const tr_obb *a, tread_vec3 d, tread_vec3 half, tread_vec3 *out_normal) {
    convex s = box_convex(half);
    return presses_near_tie(a, d, &s, out_normal);
}

bool tr_box_box_grazes(const tr_obb *a, tread_vec3 d, tread_vec3 half) {
    convex s = box_convex(half);
    axis_set axes;
    build_axes(a, &s, &axes);
    return grazes(a, d, &s, &axes);
}

bool tr_box_triangle_grazes_on(const tr_obb *a, tread_vec3 d, tread_vec3 p, tread_vec3 q, tread_vec3 r,
                               const tr_box_axes *axes) {
    convex s = triangle_convex(p, q, r);
    return grazes(a, d, &s, axes);
}

static bool sweep_convex(const tr_obb *a, tread_vec3 d, const convex *s, const axis_set *axes, float t_max, tr_hit *hit) {
    float t;
    tread_vec3 n;
    if (!sat_sweep(a, d, s, axes, t_max, &t, &n)) return false;
    // The contact point: the closest points at the time of impact (touching, up to rounding).
    tr_obb at = moved(a, d, t);
    tr_closest cl;
    closest_features(&at, s, n, true, &cl);
    hit->t = t;
    hit->normal = n;
    hit->point = cl.on_shape;
    return true;
}

bool tr_sweep_box_box(const tr_obb *a, tread_vec3 d, tread_vec3 half, float t_max, tr_hit *hit) {
    convex s = box_convex(half);
    axis_set axes;
    build_axes(a, &s, &axes);
    return sweep_convex(a, d, &s, &axes, t_max, hit);
}

bool tr_sweep_box_triangle(const tr_obb *a, tread_vec3 d, tread_vec3 p, tread_vec3 q, tread_vec3 r, float t_max,
                           tr_hit *hit) {
    convex s = triangle_convex(p, q, r);
    axis_set axes;
    if (!build_axes(a, &s, &axes)) return false;
    return sweep_convex(a, d, &s, &axes, t_max, hit);
}

bool tr_sweep_box_triangle_on(const tr_obb *a, tread_vec3 d, tread_vec3 p, tread_vec3 q, tread_vec3 r, float t_max,
                              const tr_box_axes *axes, tr_hit *hit) {
    convex s = triangle_convex(p, q, r);
    return sweep_convex(a, d, &s, axes, t_max, hit);
}

void tr_closest_box_box(const tr_obb *a, tread_vec3 half, tr_closest *out) {
    convex s = box_convex(half);
    axis_set axes;
    build_axes(a, &s, &axes);
    closest_convex(a, &s, &axes, out);
}

bool tr_box_triangle_axes(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, tr_box_axes *out) {
    convex s = triangle_convex(p, q, r);
    return build_axes(a, &s, out);
}

void tr_box_triangle_axes_face(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, tread_vec3 face, tr_box_axes *out) {
    convex s = triangle_convex(p, q, r);
#if BOX_SSE
    triangle_axes_sse(a, &s, face, out);
#else
    (void)face;
    build_axes(a, &s, out);
#endif
}

bool tr_closest_box_triangle(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, tr_closest *out) {
    convex s = triangle_convex(p, q, r);
    axis_set axes;
    if (!build_axes(a, &s, &axes)) return false;
    closest_convex(a, &s, &axes, out);
    return true;
}

bool tr_box_triangle_sat(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, const tr_box_axes *axes, float limit,
                         tr_box_sat *out) {
    convex s = triangle_convex(p, q, r);
    return sat_measure(a, &s, axes, limit, out);
}

void tr_closest_box_triangle_sat(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, const tr_box_sat *sat,
                                 tr_closest *out) {
    convex s = triangle_convex(p, q, r);
    closest_from_sat(a, &s, sat, out);
}

bool tr_box_triangle_within(const tr_obb *a, tread_vec3 p, tread_vec3 q, tread_vec3 r, const tr_box_sat *sat, float distance) {
    convex s = triangle_convex(p, q, r);
    features f;
    features_start(a, &s, sat->dir, &f);
    return !(f.found > distance);
}

bool tr_box_sat_grazes(const tr_box_sat *sat, const tr_box_axes *axes, tread_vec3 d) {
    return grazes_measured(sat->above, sat->below, axes, d);
}

// ---- capsules and spheres: the capsule primitives in the box's frame ---------------------------------------

static tread_vec3 to_box(const tr_obb *a, tread_vec3 v) {
    return tread_v3(tread_v3_dot(v, a->axis[0]), tread_v3_dot(v, a->axis[1]), tread_v3_dot(v, a->axis[2]));
}

static tread_vec3 from_box(const tr_obb *a, tread_vec3 v) {
    return tread_v3_mad(tread_v3_mad(tread_v3_scale(a->axis[0], v.x), v.y, a->axis[1]), v.z, a->axis[2]);
}

void tr_closest_box_capsule(const tr_obb *a, tread_vec3 ca, tread_vec3 cb, float radius, tr_closest *out) {
    tread_vec3 la = to_box(a, tread_v3_sub(ca, a->center)), lb = to_box(a, tread_v3_sub(cb, a->center));
    tr_closest cl;
    tr_closest_segment_box(la, lb, a->half, &cl);
    // cl.normal points from the box toward the core; the capsule's surface lies radius back toward the box.
    out->distance = cl.distance - radius;
    out->normal = tread_v3_neg(from_box(a, cl.normal));
    out->on_segment = tread_v3_add(a->center, from_box(a, cl.on_shape));
    out->on_shape = tread_v3_add(a->center, from_box(a, tread_v3_mad(cl.on_segment, -radius, cl.normal)));
}

bool tr_sweep_box_capsule(const tr_obb *a, tread_vec3 d, tread_vec3 ca, tread_vec3 cb, float radius, float t_max,
                          tr_hit *hit) {
    tread_vec3 la = to_box(a, tread_v3_sub(ca, a->center)), lb = to_box(a, tread_v3_sub(cb, a->center));
    tr_hit h;
    // In the box's frame the capsule moves by -d.
    if (!tr_sweep_capsule_box(la, lb, radius, tread_v3_neg(to_box(a, d)), a->half, t_max, &h)) return false;
    hit->t = h.t;
    hit->normal = tread_v3_neg(from_box(a, h.normal));
    // h.point is on the box's surface at time t, which is where the surfaces touch.
    hit->point = tread_v3_add(tread_v3_mad(a->center, h.t, d), from_box(a, h.point));
    return true;
}
