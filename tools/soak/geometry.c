// SPDX-License-Identifier: MIT
// Double-precision distances and penetration depths between the character's volume and world pieces, written
// from the textbook (Ericson, Real-Time Collision Detection, ch. 5) and nothing of tread's: the checks must not
// share a bug with what they check.
//
// Apart, the distance between two convex pieces is the smallest distance between a feature of one and a feature
// of the other: vertices against the other piece, edges against edges. Overlapping, the depth is the shortest
// translation that separates them, which for polytopes (a segment, a triangle and a box are all polytopes) lies
// along one of the separating-axis candidates: face normals and crosses of edge directions; a capsule or sphere
// adds its radius to its core's.
#include "soak.h"

#include <math.h>
#include <string.h>

// Crosses of nearly parallel directions carry no axis of their own (their face-normal neighbours cover them).
#define SOAK_PARALLEL_EPS 1e-12

double soak_length(soak_v3 a) { return sqrt(soak_dot(a, a)); }

soak_v3 soak_normalize(soak_v3 a) {
    double l = soak_length(a);
    return l > 0.0 ? soak_scale(a, 1.0 / l) : a;
}

soak_frame soak_frame_of(tread_transform t) {
    // The world renormalizes rotations; do the same in double so that the axes are orthonormal here too.
    double x = t.q.x, y = t.q.y, z = t.q.z, w = t.q.w;
    double n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    soak_frame f;
    f.axis[0] = soak_v3_make(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y));
    f.axis[1] = soak_v3_make(2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x));
    f.axis[2] = soak_v3_make(2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y));
    f.p = soak_v3_of(t.p);
    return f;
}

soak_v3 soak_frame_point(const soak_frame *f, soak_v3 l) {
    return soak_add(f->p, soak_add(soak_scale(f->axis[0], l.x), soak_add(soak_scale(f->axis[1], l.y), soak_scale(f->axis[2], l.z))));
}

soak_v3 soak_frame_inv_point(const soak_frame *f, soak_v3 w) {
    soak_v3 d = soak_sub(w, f->p);
    return soak_v3_make(soak_dot(d, f->axis[0]), soak_dot(d, f->axis[1]), soak_dot(d, f->axis[2]));
}

static double clamp01(double t) { return t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t); }
static double min2(double a, double b) { return a < b ? a : b; }
static double max2(double a, double b) { return a > b ? a : b; }

soak_shape soak_shape_moved(const soak_shape *s, soak_v3 d) {
    soak_shape m = *s;
    m.round.a = soak_add(m.round.a, d);
    m.round.b = soak_add(m.round.b, d);
    m.box.c = soak_add(m.box.c, d);
    m.lo = soak_add(m.lo, d);
    m.hi = soak_add(m.hi, d);
    return m;
}

soak_shape soak_shape_at(const tread_character_settings *s, soak_v3 feet) {
    soak_shape out;
    memset(&out, 0, sizeof out);
    soak_v3 up = soak_normalize(soak_v3_of(s->up));
    double r = s->radius;
    double half = s->shape == TREAD_QUERY_SPHERE ? r : 0.5 * (double)s->height;
    soak_v3 c = soak_mad(feet, half, up);
    if (s->shape == TREAD_QUERY_BOX) {
        // types.h: an upright box's horizontal axes are world X and Z when up is +Y exactly; the soak and the level
        // walker only make box characters with that up (the basis for other ups is not part of the API).
        out.is_box = true;
        out.box.c = c;
        out.box.axis[0] = soak_v3_make(1.0, 0.0, 0.0);
        out.box.axis[1] = up;
        out.box.axis[2] = soak_v3_make(0.0, 0.0, 1.0);
        out.box.half[0] = r, out.box.half[1] = half, out.box.half[2] = r;
        soak_v3 ext = soak_v3_make(r, half, r);
        out.lo = soak_sub(c, ext);
        out.hi = soak_add(c, ext);
    } else {
        double core = half - r;
        out.round.a = soak_mad(c, -core, up);
        out.round.b = soak_mad(c, core, up);
        out.round.radius = r;
        soak_v3 ext = soak_v3_make(r, r, r);
        out.lo = soak_sub(soak_v3_make(min2(out.round.a.x, out.round.b.x), min2(out.round.a.y, out.round.b.y), min2(out.round.a.z, out.round.b.z)), ext);
        out.hi = soak_add(soak_v3_make(max2(out.round.a.x, out.round.b.x), max2(out.round.a.y, out.round.b.y), max2(out.round.a.z, out.round.b.z)), ext);
    }
    return out;
}

// Squared distance between segments p1-q1 and p2-q2 (Ericson 5.1.9, with its degenerate cases).
static double segment_segment_sq(soak_v3 p1, soak_v3 q1, soak_v3 p2, soak_v3 q2) {
    soak_v3 d1 = soak_sub(q1, p1), d2 = soak_sub(q2, p2), r = soak_sub(p1, p2);
    double a = soak_dot(d1, d1), e = soak_dot(d2, d2), f = soak_dot(d2, r);
    double s, t;
    if (a <= 1e-300 && e <= 1e-300) {
        s = t = 0.0;
    } else if (a <= 1e-300) {
        s = 0.0;
        t = clamp01(f / e);
    } else {
        double c = soak_dot(d1, r);
        if (e <= 1e-300) {
            t = 0.0;
            s = clamp01(-c / a);
        } else {
            double b = soak_dot(d1, d2), denom = a * e - b * b;
            s = denom > 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = clamp01(-c / a);
            } else if (t > 1.0) {
                t = 1.0;
                s = clamp01((b - c) / a);
            }
        }
    }
    soak_v3 c1 = soak_mad(p1, s, d1), c2 = soak_mad(p2, t, d2);
    soak_v3 d = soak_sub(c1, c2);
    return soak_dot(d, d);
}

// Closest point of triangle abc to p (Ericson 5.1.5: Voronoi regions of the vertices, edges and face).
soak_v3 soak_closest_on_triangle(soak_v3 p, soak_v3 a, soak_v3 b, soak_v3 c) {
    soak_v3 ab = soak_sub(b, a), ac = soak_sub(c, a), ap = soak_sub(p, a);
    double d1 = soak_dot(ab, ap), d2 = soak_dot(ac, ap);
    if (d1 <= 0.0 && d2 <= 0.0) return a;
    soak_v3 bp = soak_sub(p, b);
    double d3 = soak_dot(ab, bp), d4 = soak_dot(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) return b;
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return soak_mad(a, d1 / (d1 - d3), ab);
    soak_v3 cp = soak_sub(p, c);
    double d5 = soak_dot(ab, cp), d6 = soak_dot(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) return c;
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return soak_mad(a, d2 / (d2 - d6), ac);
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
        return soak_mad(b, (d4 - d3) / ((d4 - d3) + (d5 - d6)), soak_sub(c, b));
    double denom = 1.0 / (va + vb + vc);
    return soak_add(a, soak_add(soak_scale(ab, vb * denom), soak_scale(ac, vc * denom)));
}

static double point_triangle_sq(soak_v3 p, soak_v3 a, soak_v3 b, soak_v3 c) {
    soak_v3 d = soak_sub(p, soak_closest_on_triangle(p, a, b, c));
    return soak_dot(d, d);
}

// Squared distance from a point given in the box's frame to the box (0 inside).
static double point_box_local_sq(soak_v3 l, const double half[3]) {
    double v[3] = {l.x, l.y, l.z}, sum = 0.0;
    for (int i = 0; i < 3; ++i) {
        double excess = fabs(v[i]) - half[i];
        if (excess > 0.0) sum += excess * excess;
    }
    return sum;
}

static soak_v3 box_local(const soak_box *b, soak_v3 w) {
    soak_v3 d = soak_sub(w, b->c);
    return soak_v3_make(soak_dot(d, b->axis[0]), soak_dot(d, b->axis[1]), soak_dot(d, b->axis[2]));
}

static double point_box_sq(soak_v3 p, const soak_box *b) { return point_box_local_sq(box_local(b, p), b->half); }

static void box_corners(const soak_box *b, soak_v3 out[8]) {
    for (int i = 0; i < 8; ++i) {
        soak_v3 p = b->c;
        for (int k = 0; k < 3; ++k) p = soak_mad(p, (i >> k & 1) ? b->half[k] : -b->half[k], b->axis[k]);
        out[i] = p;
    }
}

// The 12 edges of a box as corner index pairs (corners numbered by the bits of box_corners).
static const int box_edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

// Projection interval of point sets on an axis, and the overlap of two intervals (<= 0: the axis separates).
static void project(const soak_v3 *pts, int n, soak_v3 axis, double *lo, double *hi) {
    *lo = *hi = soak_dot(pts[0], axis);
    for (int i = 1; i < n; ++i) {
        double d = soak_dot(pts[i], axis);
        if (d < *lo) *lo = d;
        if (d > *hi) *hi = d;
    }
}

// Smallest overlap over the candidate axes of two point sets' hulls; <= 0 when one of them separates.
static double min_overlap(const soak_v3 *a, int na, const soak_v3 *b, int nb, const soak_v3 *axes, int axis_count) {
    double best = INFINITY;
    for (int i = 0; i < axis_count; ++i) {
        soak_v3 n = axes[i];
        double len = soak_length(n);
        if (len < SOAK_PARALLEL_EPS) continue;
        n = soak_scale(n, 1.0 / len);
        double alo, ahi, blo, bhi;
        project(a, na, n, &alo, &ahi);
        project(b, nb, n, &blo, &bhi);
        double overlap = min2(ahi - blo, bhi - alo);
        if (overlap < best) best = overlap;
        if (best <= 0.0) return best;
    }
    return best;
}

double soak_round_vs_round(const soak_round *s, const soak_round *t) {
    return sqrt(segment_segment_sq(s->a, s->b, t->a, t->b)) - s->radius - t->radius;
}

double soak_round_vs_box(const soak_round *s, const soak_box *b) {
    soak_v3 seg[2] = {s->a, s->b}, corners[8];
    box_corners(b, corners);
    soak_v3 d = soak_sub(s->b, s->a);
    soak_v3 axes[6] = {b->axis[0], b->axis[1], b->axis[2], soak_cross(d, b->axis[0]), soak_cross(d, b->axis[1]), soak_cross(d, b->axis[2])};
    double overlap = min_overlap(seg, 2, corners, 8, axes, 6);
    if (overlap > 0.0) return -(s->radius + overlap); // the core itself is inside the box
    double best = min2(point_box_sq(s->a, b), point_box_sq(s->b, b));
    for (int e = 0; e < 12; ++e) best = min2(best, segment_segment_sq(s->a, s->b, corners[box_edges[e][0]], corners[box_edges[e][1]]));
    return sqrt(best) - s->radius;
}

static bool degenerate_triangle(soak_v3 t0, soak_v3 t1, soak_v3 t2) {
    soak_v3 n = soak_cross(soak_sub(t1, t0), soak_sub(t2, t0));
    return soak_dot(n, n) < 1e-24; // tread keeps zero-area triangles in the count but never hits them
}

double soak_round_vs_triangle(const soak_round *s, soak_v3 t0, soak_v3 t1, soak_v3 t2) {
    if (degenerate_triangle(t0, t1, t2)) return INFINITY;
    soak_v3 seg[2] = {s->a, s->b}, tri[3] = {t0, t1, t2};
    soak_v3 d = soak_sub(s->b, s->a), e0 = soak_sub(t1, t0), e1 = soak_sub(t2, t1), e2 = soak_sub(t0, t2);
    soak_v3 normal = soak_cross(e0, soak_sub(t2, t0));
    // The prism of the core swept against the triangle has the normal and the crosses of d with the edges as
    // faces; a core in the triangle's plane (or a sphere's point core) needs the in-plane edge normals too, or a
    // rounding-level overlap along the normal would read as crossing. Extra axes never lower the depth found:
    // separating along any axis takes at least the shortest translation.
    soak_v3 axes[7] = {normal, soak_cross(d, e0), soak_cross(d, e1), soak_cross(d, e2),
                       soak_cross(normal, e0), soak_cross(normal, e1), soak_cross(normal, e2)};
    double overlap = min_overlap(seg, 2, tri, 3, axes, 7);
    if (overlap > 0.0) return -(s->radius + overlap);
    double best = min2(point_triangle_sq(s->a, t0, t1, t2), point_triangle_sq(s->b, t0, t1, t2));
    best = min2(best, segment_segment_sq(s->a, s->b, t0, t1));
    best = min2(best, segment_segment_sq(s->a, s->b, t1, t2));
    best = min2(best, segment_segment_sq(s->a, s->b, t2, t0));
    return sqrt(best) - s->radius;
}

double soak_box_vs_box(const soak_box *a, const soak_box *b) {
    soak_v3 ca[8], cb[8], axes[15];
    box_corners(a, ca);
    box_corners(b, cb);
    int n = 0;
    for (int i = 0; i < 3; ++i) axes[n++] = a->axis[i];
    for (int i = 0; i < 3; ++i) axes[n++] = b->axis[i];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) axes[n++] = soak_cross(a->axis[i], b->axis[j]);
    double overlap = min_overlap(ca, 8, cb, 8, axes, n);
    if (overlap > 0.0) return -overlap;
    double best = INFINITY;
    for (int i = 0; i < 8; ++i) best = min2(best, min2(point_box_sq(ca[i], b), point_box_sq(cb[i], a)));
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j)
            best = min2(best, segment_segment_sq(ca[box_edges[i][0]], ca[box_edges[i][1]], cb[box_edges[j][0]], cb[box_edges[j][1]]));
    return sqrt(best);
}

double soak_box_vs_triangle(const soak_box *a, soak_v3 t0, soak_v3 t1, soak_v3 t2) {
    if (degenerate_triangle(t0, t1, t2)) return INFINITY;
    soak_v3 ca[8], tri[3] = {t0, t1, t2}, axes[13];
    box_corners(a, ca);
    soak_v3 e[3] = {soak_sub(t1, t0), soak_sub(t2, t1), soak_sub(t0, t2)};
    int n = 0;
    for (int i = 0; i < 3; ++i) axes[n++] = a->axis[i];
    axes[n++] = soak_cross(e[0], soak_sub(t2, t0));
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) axes[n++] = soak_cross(a->axis[i], e[j]);
    double overlap = min_overlap(ca, 8, tri, 3, axes, n);
    if (overlap > 0.0) return -overlap;
    double best = INFINITY;
    for (int i = 0; i < 8; ++i) best = min2(best, point_triangle_sq(ca[i], t0, t1, t2));
    for (int i = 0; i < 3; ++i) best = min2(best, point_box_sq(tri[i], a));
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 3; ++j) best = min2(best, segment_segment_sq(ca[box_edges[i][0]], ca[box_edges[i][1]], tri[j], tri[(j + 1) % 3]));
    return sqrt(best);
}
