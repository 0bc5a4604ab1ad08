// SPDX-License-Identifier: MIT
// Closest-point references for the exactness tests (test_geometry.c, test_box_shape.c), in double, by algorithms
// the library does not use, so a shared mistake cannot pass unseen:
// - cref_hull_distance: the distance between two convex polytopes given by their corners is the length of the
//   shortest vector of the hull of their corners' differences (their Minkowski difference). Found by Wolfe's
//   minimum-norm-point algorithm, and bracketed with a certificate: every point of the hull is at least as long as
//   the distance (an upper bound), and the hull's least extent along any unit direction is at most the distance (a
//   lower bound). The library enumerates feature pairs instead (box.c closest_features, closest.c's clamp cascade
//   after Ericson 5.1.9).
// - cref_point_triangle: the least of the places where a convex quadratic over a triangle can be least: the foot on
//   the plane when it falls inside, else the nearest point of an edge. The library's is the region test (Ericson
//   5.1.5); it is cheap enough for the sweep references' inner loops, and agrees with cref_hull_distance and an
//   exhaustive search (test_geometry.c, test_closest_references_agree_with_exhaustive_search).
#ifndef TREAD_TESTS_CLOSEST_REFERENCE_H
#define TREAD_TESTS_CLOSEST_REFERENCE_H

#include <math.h>
#include <stdbool.h>

typedef struct cref_v3 {
    double x, y, z;
} cref_v3;

static inline cref_v3 cref_sub(cref_v3 a, cref_v3 b) { return (cref_v3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline cref_v3 cref_mad(cref_v3 a, double s, cref_v3 b) { return (cref_v3){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z}; }
static inline double cref_dot(cref_v3 a, cref_v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline cref_v3 cref_cross(cref_v3 a, cref_v3 b) {
    return (cref_v3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// The point of segment ab nearest p: the foot of the perpendicular, clamped to the ends (the distance is a convex
// quadratic in the segment's parameter).
static inline cref_v3 cref_point_segment(cref_v3 p, cref_v3 a, cref_v3 b) {
    cref_v3 ab = cref_sub(b, a);
    double l = cref_dot(ab, ab);
    double s = l > 0.0 ? cref_dot(cref_sub(p, a), ab) / l : 0.0;
    return cref_mad(a, s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s), ab);
}

// The point of triangle abc nearest p (a triangle of zero area is its edges).
static inline cref_v3 cref_point_triangle(cref_v3 p, cref_v3 a, cref_v3 b, cref_v3 c) {
    cref_v3 v[3] = {a, b, c};
    cref_v3 n = cref_cross(cref_sub(b, a), cref_sub(c, a));
    double nn = cref_dot(n, n);
    if (nn > 0.0) {
        bool inside = true; // the foot is on the inner side of every edge
        for (int i = 0; i < 3; ++i) inside = inside && cref_dot(cref_cross(cref_sub(v[(i + 1) % 3], v[i]), cref_sub(p, v[i])), n) >= 0.0;
        if (inside) return cref_mad(p, -cref_dot(cref_sub(p, a), n) / nn, n);
    }
    cref_v3 best = a;
    double best_sq = INFINITY;
    for (int i = 0; i < 3; ++i) {
        cref_v3 q = cref_point_segment(p, v[i], v[(i + 1) % 3]);
        cref_v3 pq = cref_sub(q, p);
        if (cref_dot(pq, pq) < best_sq) best_sq = cref_dot(pq, pq), best = q;
    }
    return best;
}

// Corners of the Minkowski difference the bracket takes: a box's 8 against a box's 8.
#define CREF_MAX_POINTS 64
// The bracket is closed when its bounds are this close (metres): a tenth of the tightest tolerance the tests hold
// the library to (1e-6 m). Not closer, as a hull passing d from the origin gives its direction to about 1e-16 m / d:
// the lower bound's rounding is 1e-16 m^2 / d, and the width at most sqrt(1e-16 m^2) = 1e-8 m at any d.
#define CREF_BRACKET_WIDTH 1.0e-7
// Major steps at most (each adds a corner; a polytope of 64 corners needs a few dozen). A bracket still open after
// them, or after a singular step, stays open, and the caller's width check fails.
#define CREF_MAX_STEPS 1000

typedef struct cref_bracket {
    double lower, upper; // lower <= the distance <= upper = |nearest|; both 0 (to the width) when the hulls meet
    cref_v3 nearest;     // the hull's shortest vector found: a point of one shape minus a point of the other
} cref_bracket;

// The weights alpha (summing to 1) of the point of the affine hull of s[0..k-1] nearest the origin: the normal
// equations in the edges e_i = s_i - s_0, solved by elimination with partial pivoting. False when the corners are
// affinely dependent (a pivot vanishes against the edges' scale).
static inline bool cref_affine_nearest(const cref_v3 *s, int k, double alpha[4]) {
    double m[3][4] = {{0}};
    int n = k - 1;
    cref_v3 e[3];
    double scale = 0.0;
    for (int i = 0; i < n; ++i) e[i] = cref_sub(s[i + 1], s[0]), scale = fmax(scale, cref_dot(e[i], e[i]));
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) m[i][j] = cref_dot(e[i], e[j]);
        m[i][n] = -cref_dot(e[i], s[0]);
    }
    for (int c = 0; c < n; ++c) {
        int pivot = c;
        for (int i = c + 1; i < n; ++i)
            if (fabs(m[i][c]) > fabs(m[pivot][c])) pivot = i;
        if (!(fabs(m[pivot][c]) > 1e-24 * scale)) return false;
        for (int j = 0; j <= n; ++j) {
            double t = m[c][j];
            m[c][j] = m[pivot][j], m[pivot][j] = t;
        }
        for (int i = 0; i < n; ++i) {
            if (i == c) continue;
            double f = m[i][c] / m[c][c];
            for (int j = c; j <= n; ++j) m[i][j] -= f * m[c][j];
        }
    }
    alpha[0] = 1.0;
    for (int i = 0; i < n; ++i) alpha[i + 1] = m[i][n] / m[i][i], alpha[0] -= alpha[i + 1];
    return true;
}

// The shortest vector of the hull of w[0..n-1] (n <= CREF_MAX_POINTS), with its certified bracket, by Wolfe's
// minimum-norm-point algorithm (1976): keep a simplex of corners and convex weights; add the corner least along the
// current point, move to the nearest point of the new simplex's affine hull, and while that leaves the simplex, stop
// at its boundary and drop the corner whose weight reached 0.
static inline cref_bracket cref_hull_distance(const cref_v3 *w, int n) {
    int start = 0;
    for (int i = 1; i < n; ++i)
        if (cref_dot(w[i], w[i]) < cref_dot(w[start], w[start])) start = i;
    cref_v3 s[4] = {w[start]}, x = w[start];
    double weight[4] = {1.0};
    int k = 1;
    cref_bracket r = {0.0, sqrt(cref_dot(x, x)), x}; // a distance is never negative
    for (int step = 0; step < CREF_MAX_STEPS && r.upper - r.lower > CREF_BRACKET_WIDTH; ++step) {
        double xx = cref_dot(x, x);
        int toward = 0;
        for (int i = 1; i < n; ++i)
            if (cref_dot(x, w[i]) < cref_dot(x, w[toward])) toward = i;
        double least = cref_dot(x, w[toward]);
        r.lower = fmax(r.lower, least / sqrt(xx)); // the whole hull lies beyond this along x / |x|
        if (r.upper - r.lower <= CREF_BRACKET_WIDTH || least >= xx || k == 4) break;
        s[k] = w[toward], weight[k++] = 0.0;
        for (;;) {
            double alpha[4];
            if (!cref_affine_nearest(s, k, alpha)) return r;
            bool inside = true;
            for (int i = 0; i < k; ++i) inside = inside && alpha[i] > 0.0;
            if (inside) {
                for (int i = 0; i < k; ++i) weight[i] = alpha[i];
                break;
            }
            // Toward alpha as far as the simplex allows; the corner that stops it leaves.
            double theta = 1.0;
            int leaving = -1;
            for (int i = 0; i < k; ++i) {
                double reach = weight[i] > 0.0 ? weight[i] / (weight[i] - alpha[i]) : 0.0; // alpha[i] <= 0 < weight[i]
                if (alpha[i] <= 0.0 && (leaving < 0 || reach < theta)) theta = reach, leaving = i;
            }
            int kept = 0;
            for (int i = 0; i < k; ++i) {
                double v = (1.0 - theta) * weight[i] + theta * alpha[i];
                if (i != leaving && v > 0.0) s[kept] = s[i], weight[kept++] = v;
            }
            k = kept;
        }
        x = (cref_v3){0.0, 0.0, 0.0};
        for (int i = 0; i < k; ++i) x = cref_mad(x, weight[i], s[i]);
        if (sqrt(cref_dot(x, x)) < r.upper) r.upper = sqrt(cref_dot(x, x)), r.nearest = x;
    }
    return r;
}

// The bracket of the distance between two corner sets (a - b for every pair).
static inline cref_bracket cref_corner_sets_distance(const cref_v3 *a, int na, const cref_v3 *b, int nb) {
    cref_v3 w[CREF_MAX_POINTS];
    int n = 0;
    for (int i = 0; i < na; ++i)
        for (int j = 0; j < nb; ++j) w[n++] = cref_sub(a[i], b[j]);
    return cref_hull_distance(w, n);
}

#endif
