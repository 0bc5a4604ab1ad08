// SPDX-License-Identifier: MIT
// Closest points and penetration depth between a segment and a point, segment, box or triangle.
// Separated pairs use the closed forms (Ericson, Real-Time Collision Detection, 5.1); a segment that passes
// inside a box or through a triangle gets the smallest separating translation by the separating-axis test
// over the face normals of the Minkowski difference.
#include "closest_box.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define CLOSEST_SSE 1
#else
#define CLOSEST_SSE 0
#endif

// Axis candidates cross(segment, edge) shorter than this fraction of |segment||edge| (the sine of the angle
// between them) are skipped: the segment is parallel to the edge and the face axes already cover it.
#define PARALLEL_SINE 1.0e-6f
// A segment crossing a triangle by at most this many float epsilons of the coordinates' size only touches it.
#define CROSSING_TOUCH_ULPS 8.0f
// A lower bound of a closest-point candidate's distance must exceed the best so far by twice this many float
// epsilons of the coordinates' size before the candidate is skipped: far above the rounding of either (a few).
#define SKIP_ROUNDING_ULPS 64.0f

static tread_vec3 up_axis(void) { return tread_v3(0.0f, 1.0f, 0.0f); }

// A unit vector perpendicular to v (any, but deterministic); up for a zero v.
static tread_vec3 any_perpendicular(tread_vec3 v) {
    tread_vec3 a = tread_v3_abs(v);
    tread_vec3 other = a.x <= a.y && a.x <= a.z ? tread_v3(1.0f, 0.0f, 0.0f)
                       : a.y <= a.z             ? tread_v3(0.0f, 1.0f, 0.0f)
                                                : tread_v3(0.0f, 0.0f, 1.0f);
    tread_vec3 n = tread_v3_normalize(tread_v3_cross(v, other));
    return tread_v3_length_sq(n) > 0.0f ? n : up_axis();
}

// Parameter in [0, 1] of the point of segment p0 + s*e closest to q.
static float segment_param(tread_vec3 p0, tread_vec3 e, tread_vec3 q) {
    float len_sq = tread_v3_length_sq(e);
    if (!(len_sq > 0.0f)) return 0.0f;
    return tr_clampf(tread_v3_dot(tread_v3_sub(q, p0), e) / len_sq, 0.0f, 1.0f);
}

// Closest points of segments p0-p1 and a-b (Ericson 5.1.9); returns the squared distance.
static float segment_segment(tread_vec3 p0, tread_vec3 p1, tread_vec3 a, tread_vec3 b, tread_vec3 *on_p, tread_vec3 *on_a) {
    tread_vec3 d1 = tread_v3_sub(p1, p0), d2 = tread_v3_sub(b, a), r = tread_v3_sub(p0, a);
    float aa = tread_v3_dot(d1, d1), ee = tread_v3_dot(d2, d2), f = tread_v3_dot(d2, r);
    float s, t;
    if (!(aa > 0.0f) && !(ee > 0.0f)) {
        s = t = 0.0f;
    } else if (!(aa > 0.0f)) {
        s = 0.0f;
        t = tr_clampf(f / ee, 0.0f, 1.0f);
    } else {
        float c = tread_v3_dot(d1, r);
        if (!(ee > 0.0f)) {
            t = 0.0f;
            s = tr_clampf(-c / aa, 0.0f, 1.0f);
        } else {
            float b_ = tread_v3_dot(d1, d2);
            // |d1 x d2|^2 instead of aa*ee - b*b: no cancellation for nearly parallel segments.
            float denom = tread_v3_length_sq(tread_v3_cross(d1, d2));
            s = denom > 0.0f ? tr_clampf((b_ * f - c * ee) / denom, 0.0f, 1.0f) : 0.0f;
            t = (b_ * s + f) / ee;
            if (t < 0.0f) {
                t = 0.0f;
                s = tr_clampf(-c / aa, 0.0f, 1.0f);
            } else if (t > 1.0f) {
                t = 1.0f;
                s = tr_clampf((b_ - c) / aa, 0.0f, 1.0f);
            }
        }
    }
    *on_p = tread_v3_mad(p0, s, d1);
    *on_a = tread_v3_mad(a, t, d2);
    return tread_v3_length_sq(tread_v3_sub(*on_p, *on_a));
}

// Fill a separated (or touching) result from its two closest points; `fallback` is the normal when they coincide.
static void set_separated(tr_closest *out, tread_vec3 on_segment, tread_vec3 on_shape, tread_vec3 fallback) {
    tread_vec3 delta = tread_v3_sub(on_segment, on_shape);
    float dist = tread_v3_length(delta);
    out->distance = dist;
    out->on_segment = on_segment;
    out->on_shape = on_shape;
    out->normal = dist > 0.0f ? tread_v3_scale(delta, 1.0f / dist) : fallback;
}

void tr_closest_segment_point(tread_vec3 p0, tread_vec3 p1, tread_vec3 q, tr_closest *out) {
    tread_vec3 e = tread_v3_sub(p1, p0);
    tread_vec3 on_segment = tread_v3_mad(p0, segment_param(p0, e, q), e);
    set_separated(out, on_segment, q, any_perpendicular(e));
}

void tr_closest_segment_segment(tread_vec3 p0, tread_vec3 p1, tread_vec3 a, tread_vec3 b, tr_closest *out) {
    tread_vec3 on_p, on_a;
    segment_segment(p0, p1, a, b, &on_p, &on_a);
    // Crossing segments: the common perpendicular; parallel ones: any perpendicular to them.
    tread_vec3 e = tread_v3_sub(p1, p0), w = tread_v3_sub(b, a);
    tread_vec3 n = tread_v3_normalize(tread_v3_cross(e, w));
    if (!(tread_v3_length_sq(n) > 0.0f)) n = any_perpendicular(tread_v3_length_sq(e) > 0.0f ? e : w);
    set_separated(out, on_p, on_a, n);
}

// ---- box -----------------------------------------------------------------------------------------

static float axis_of(tread_vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
static tread_vec3 unit_axis(int i, float sign) {
    return tread_v3(i == 0 ? sign : 0.0f, i == 1 ? sign : 0.0f, i == 2 ? sign : 0.0f);
}
static tread_vec3 clamp_to_box(tread_vec3 p, tread_vec3 h) {
    return tread_v3(tr_clampf(p.x, -h.x, h.x), tr_clampf(p.y, -h.y, h.y), tr_clampf(p.z, -h.z, h.z));
}

// Does segment p0 + s*e, s in [0, 1], meet the closed box? (slab test)
static bool segment_meets_box(tread_vec3 p0, tread_vec3 e, tread_vec3 h) {
    float lo = 0.0f, hi = 1.0f;
    for (int i = 0; i < 3; ++i) {
        float o = axis_of(p0, i), dir = axis_of(e, i), ext = axis_of(h, i);
        if (dir == 0.0f) {
            if (o < -ext || o > ext) return false;
            continue;
        }
        float t0 = (-ext - o) / dir, t1 = (ext - o) / dir;
        if (t0 > t1) {
            float tmp = t0;
            t0 = t1;
            t1 = tmp;
        }
        lo = tr_maxf(lo, t0);
        hi = tr_minf(hi, t1);
        if (lo > hi) return false;
    }
    return true;
}

// Outward normal of the box face nearest to a surface point (fallback normal for touching contacts).
static tread_vec3 box_face_normal(tread_vec3 h, tread_vec3 p) {
    int best = 0;
    float best_gap = -FLT_MAX;
    for (int i = 0; i < 3; ++i) {
        float gap = fabsf(axis_of(p, i)) - axis_of(h, i);
        if (gap > best_gap) {
            best_gap = gap;
            best = i;
        }
    }
    return unit_axis(best, axis_of(p, best) < 0.0f ? -1.0f : 1.0f);
}

// Half the derivative of F(mu) = sum_k dist(c_k + mu S_k, [-h_k, h_k])^2: sum_k S_k * (x_k - clamp(x_k)).
static float box_gradient(const float c[3], const float S[3], const float h[3], float mu) {
    float g = 0.0f;
    for (int k = 0; k < 3; ++k) {
        float x = c[k] + mu * S[k];
        g += S[k] * (x - tr_clampf(x, -h[k], h[k]));
    }
    return g;
}

// Parameter mu in [-1/2, 1/2] of the point of segment c + mu*S closest to the box. F(mu) above is convex and
// piecewise quadratic, so F' is nondecreasing and linear between the breakpoints where a coordinate crosses a
// face plane: the minimum is at an end or at F' = 0, interpolated between the two breakpoints around it.
static float segment_box_param(tread_vec3 center, tread_vec3 S, tread_vec3 half) {
    const float c[3] = {center.x, center.y, center.z}, s[3] = {S.x, S.y, S.z}, h[3] = {half.x, half.y, half.z};
    // The ends first (they are the first and last breakpoints): most segments are nearest at one of them (a capsule
    // standing above a box), and then no breakpoint needs computing.
    float g_lo = box_gradient(c, s, h, -0.5f);
    if (g_lo >= 0.0f) return -0.5f;
    float g_hi = box_gradient(c, s, h, 0.5f);
    if (g_hi <= 0.0f) return 0.5f;
    float mu[8];
    int n = 0;
    mu[n++] = -0.5f;
    for (int k = 0; k < 3; ++k) {
        if (s[k] == 0.0f) continue;
        for (int side = 0; side < 2; ++side) {
            float m = ((side ? h[k] : -h[k]) - c[k]) / s[k];
            if (m > -0.5f && m < 0.5f) mu[n++] = m;
        }
    }
    mu[n++] = 0.5f;
    for (int i = 1; i < n; ++i) // insertion sort of at most 8
        for (int j = i; j > 0 && mu[j - 1] > mu[j]; --j) {
            float tmp = mu[j];
            mu[j] = mu[j - 1];
            mu[j - 1] = tmp;
        }
    // Bisect over the sorted breakpoints for the last one with F' < 0 (F' is nondecreasing).
    int lo = 0, hi = n - 1; // invariant: F'(mu[lo]) < 0 < F'(mu[hi])
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        float g = box_gradient(c, s, h, mu[mid]);
        if (g < 0.0f) {
            lo = mid;
            g_lo = g;
        } else if (g > 0.0f) {
            hi = mid;
            g_hi = g;
        } else {
            return mu[mid];
        }
    }
    return mu[lo] + (mu[hi] - mu[lo]) * (-g_lo / (g_hi - g_lo));
}

// The general path. (Not inlined into tr_closest_segment_box: its registers would cost the common case a
// prologue of spills longer than that case's own work.)
#if defined(__GNUC__)
__attribute__((noinline))
#endif
void tr_closest_segment_box_general(tread_vec3 p0, tread_vec3 p1, tread_vec3 e, tread_vec3 half, tr_closest *out) {
    if (!segment_meets_box(p0, e, half)) {
        // Separated: the exact minimiser along the segment, and its clamp onto the box.
        tread_vec3 center = tread_v3_mad(p0, 0.5f, e);
        tread_vec3 on_seg = tread_v3_mad(center, segment_box_param(center, e, half), e);
        tread_vec3 on_box = clamp_to_box(on_seg, half);
        set_separated(out, on_seg, on_box, box_face_normal(half, on_box));
        return;
    }

    // Penetrating or touching: smallest push over the Minkowski-difference face normals, the box axes and
    // cross(segment, box axis).
    float e_len = tread_v3_length(e);
    float best_depth = FLT_MAX;
    tread_vec3 best_n = up_axis();
    int best_axis = 0; // 0..2 box face, 3..5 cross axis
    for (int k = 0; k < 6; ++k) {
        tread_vec3 n;
        if (k < 3) {
            n = unit_axis(k, 1.0f);
        } else {
            n = tread_v3_cross(e, unit_axis(k - 3, 1.0f));
            float len = tread_v3_length(n);
            if (!(len > PARALLEL_SINE * e_len)) continue;
            n = tread_v3_scale(n, 1.0f / len);
        }
        float box_ext = fabsf(n.x) * half.x + fabsf(n.y) * half.y + fabsf(n.z) * half.z;
        float a0 = tread_v3_dot(n, p0), a1 = tread_v3_dot(n, p1);
        float seg_min = tr_minf(a0, a1), seg_max = tr_maxf(a0, a1);
        float push_pos = box_ext - seg_min; // move along +n until the segment's low end clears the box
        float push_neg = seg_max + box_ext; // move along -n
        float depth = push_pos <= push_neg ? push_pos : push_neg;
        if (depth < best_depth) {
            best_depth = depth;
            best_n = push_pos <= push_neg ? n : tread_v3_neg(n);
            best_axis = k;
        }
    }
    best_depth = tr_maxf(best_depth, 0.0f);
    tread_vec3 n = best_n;
    out->distance = -best_depth;
    out->normal = n;
    if (best_axis >= 3) {
        // Edge axis: n pushes the segment out of the box, so the segment lies across the box edge extreme along
        // +n (the box's support edge toward the segment); the closest points of the two.
        int axis = best_axis - 3;
        float c[3];
        for (int i = 0; i < 3; ++i) {
            float ni = axis_of(n, i);
            c[i] = (ni > 0.0f ? 1.0f : -1.0f) * axis_of(half, i); // extreme along +n
        }
        c[axis] = -axis_of(half, axis);
        tread_vec3 a = tread_v3(c[0], c[1], c[2]);
        c[axis] = axis_of(half, axis);
        tread_vec3 b = tread_v3(c[0], c[1], c[2]);
        segment_segment(p0, p1, a, b, &out->on_segment, &out->on_shape);
        return;
    }
    // Face axis: the deepest segment point (lowest along n); when the segment lies flat, the point nearest the centre.
    float a0 = tread_v3_dot(n, p0), a1 = tread_v3_dot(n, p1);
    tread_vec3 deepest;
    if (fabsf(a0 - a1) <= PARALLEL_SINE * e_len)
        deepest = tread_v3_mad(p0, segment_param(p0, e, tread_v3_zero()), e);
    else
        deepest = a0 < a1 ? p0 : p1;
    out->on_segment = deepest;
    out->on_shape = clamp_to_box(tread_v3_mad(deepest, best_depth, n), half);
}

void tr_closest_segment_box(tread_vec3 p0, tread_vec3 p1, tread_vec3 half, tr_closest *out) {
    tread_vec3 e = tread_v3_sub(p1, p0);
    if (!tr_closest_segment_box_end(p0, e, half, out)) tr_closest_segment_box_general(p0, p1, e, half, out);
}

// ---- triangle ------------------------------------------------------------------------------------

// Closest point on triangle abc to p (Ericson 5.1.5).
static tread_vec3 closest_on_triangle(tread_vec3 p, tread_vec3 a, tread_vec3 b, tread_vec3 c) {
    tread_vec3 ab = tread_v3_sub(b, a), ac = tread_v3_sub(c, a), ap = tread_v3_sub(p, a);
    float d1 = tread_v3_dot(ab, ap), d2 = tread_v3_dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) return a;
    tread_vec3 bp = tread_v3_sub(p, b);
    float d3 = tread_v3_dot(ab, bp), d4 = tread_v3_dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) return b;
    float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return tread_v3_mad(a, d1 / (d1 - d3), ab);
    tread_vec3 cp = tread_v3_sub(p, c);
    float d5 = tread_v3_dot(ab, cp), d6 = tread_v3_dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) return c;
    float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return tread_v3_mad(a, d2 / (d2 - d6), ac);
    float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f)
        return tread_v3_mad(b, (d4 - d3) / ((d4 - d3) + (d5 - d6)), tread_v3_sub(c, b));
    float denom = 1.0f / (va + vb + vc);
    return tread_v3_add(a, tread_v3_add(tread_v3_scale(ab, vb * denom), tread_v3_scale(ac, vc * denom)));
}

// Is the point x of the triangle's plane inside the closed triangle? (same-side tests against each edge)
static bool inside_triangle(tread_vec3 x, const tread_vec3 v[3], tread_vec3 n) {
    for (int i = 0; i < 3; ++i) {
        tread_vec3 edge = tread_v3_sub(v[(i + 1) % 3], v[i]);
        if (tread_v3_dot(tread_v3_cross(edge, tread_v3_sub(x, v[i])), n) < 0.0f) return false;
    }
    return true;
}

// The closest points of a segment and a triangle that do not cross: an endpoint against the triangle, or the
// segment against an edge. s0, s1: the endpoints' heights over the triangle's plane (normal n).
static void separated_segment_triangle(tread_vec3 p0, tread_vec3 p1, const tread_vec3 v[3], tread_vec3 n, float s0, float s1, tr_closest *out) {
    tread_vec3 best_seg = p0, best_tri = closest_on_triangle(p0, v[0], v[1], v[2]);
    float best_sq = tread_v3_length_sq(tread_v3_sub(best_seg, best_tri));
    // The other end's candidate is not taken (the strict < below) where its height over the plane already exceeds the
    // best so far by more than the rounding of either (an upright capsule's top over its floor): it is not computed.
    tread_vec3 m = tread_v3_max(tread_v3_max(tread_v3_abs(p0), tread_v3_abs(p1)),
                                tread_v3_max(tread_v3_abs(v[0]), tread_v3_max(tread_v3_abs(v[1]), tread_v3_abs(v[2]))));
    float rounding = SKIP_ROUNDING_ULPS * FLT_EPSILON * tr_maxf(tr_maxf(m.x, m.y), m.z);
    if (!(fabsf(s1) - rounding > sqrtf(best_sq) + rounding)) {
        tread_vec3 q1 = closest_on_triangle(p1, v[0], v[1], v[2]);
        float d1 = tread_v3_length_sq(tread_v3_sub(p1, q1));
        if (d1 < best_sq) {
            best_sq = d1;
            best_seg = p1;
            best_tri = q1;
        }
    }
    for (int i = 0; i < 3; ++i) {
        tread_vec3 on_s, on_t;
        float dist_sq = segment_segment(p0, p1, v[i], v[(i + 1) % 3], &on_s, &on_t);
        if (dist_sq < best_sq) {
            best_sq = dist_sq;
            best_seg = on_s;
            best_tri = on_t;
        }
    }
    // Touching in the plane: the face normal toward the segment's side (or +n when it lies in the plane).
    tread_vec3 fallback = (s0 + s1) < 0.0f ? tread_v3_neg(n) : n;
    set_separated(out, best_seg, best_tri, fallback);
}

bool tr_closest_segment_triangle(tread_vec3 p0, tread_vec3 p1, tread_vec3 a, tread_vec3 b, tread_vec3 c, tr_closest *out) {
    tread_vec3 n = tr_triangle_normal(a, b, c);
    if (!(tread_v3_length_sq(n) > 0.0f)) return false;
    const tread_vec3 v[3] = {a, b, c};
    tread_vec3 e = tread_v3_sub(p1, p0);
    float s0 = tread_v3_dot(n, tread_v3_sub(p0, a)), s1 = tread_v3_dot(n, tread_v3_sub(p1, a));

    // Does the segment cross (or touch) the triangle away from its plane? Coplanar segments fall through to
    // the closed form, which gives distance 0 when they overlap.
    bool crosses = false;
    if ((s0 <= 0.0f && s1 >= 0.0f) || (s0 >= 0.0f && s1 <= 0.0f)) {
        if (s0 != s1) {
            tread_vec3 x = tread_v3_mad(p0, s0 / (s0 - s1), e);
            crosses = inside_triangle(x, v, n);
        }
    }
    if (!crosses) {
        separated_segment_triangle(p0, p1, v, n, s0, s1, out);
        return true;
    }

    // Crossing: smallest push over the triangle normal, its in-plane edge normals and cross(segment, edge).
    float e_len = tread_v3_length(e);
    float best_depth = FLT_MAX;
    tread_vec3 best_n = n;
    int best_axis = 0; // 0 face, 1..3 in-plane edge normal, 4..6 cross axis
    for (int k = 0; k < 7; ++k) {
        tread_vec3 axis;
        if (k == 0) {
            axis = n;
        } else {
            int i = (k - 1) % 3;
            tread_vec3 edge = tread_v3_sub(v[(i + 1) % 3], v[i]);
            axis = k < 4 ? tread_v3_cross(n, edge) : tread_v3_cross(e, edge);
            float len = tread_v3_length(axis);
            float scale = k < 4 ? tread_v3_length(edge) : tread_v3_length(edge) * e_len;
            if (!(len > PARALLEL_SINE * scale)) continue;
            axis = tread_v3_scale(axis, 1.0f / len);
        }
        float t0 = tread_v3_dot(axis, a), t1 = tread_v3_dot(axis, b), t2 = tread_v3_dot(axis, c);
        float tri_min = tr_minf(t0, tr_minf(t1, t2)), tri_max = tr_maxf(t0, tr_maxf(t1, t2));
        float a0 = tread_v3_dot(axis, p0), a1 = tread_v3_dot(axis, p1);
        float push_pos = tri_max - tr_minf(a0, a1);
        float push_neg = tr_maxf(a0, a1) - tri_min;
        float depth = push_pos <= push_neg ? push_pos : push_neg;
        if (depth < best_depth) {
            best_depth = depth;
            best_n = push_pos <= push_neg ? axis : tread_v3_neg(axis);
            best_axis = k;
        }
    }
    best_depth = tr_maxf(best_depth, 0.0f);
    // Touching within rounding (the segment meets the triangle on its boundary, as a box's edge laid over a
    // vertex): there is no depth to push along, and the features of the axis found need not be the ones that
    // touch (they were edges 1.7 m apart); the closest points are.
    float scale = tr_maxf(tr_maxf(tread_v3_length(p0), tread_v3_length(p1)),
                          tr_maxf(tread_v3_length(a), tr_maxf(tread_v3_length(b), tread_v3_length(c))));
    if (best_depth <= CROSSING_TOUCH_ULPS * FLT_EPSILON * scale) {
        separated_segment_triangle(p0, p1, v, n, s0, s1, out);
        return true;
    }
    out->distance = -best_depth;
    out->normal = best_n;
    if (best_axis >= 4) {
        // The segment lies across an edge: the closest points of the two.
        int i = best_axis - 4;
        segment_segment(p0, p1, v[i], v[(i + 1) % 3], &out->on_segment, &out->on_shape);
        return true;
    }
    // Face or in-plane axis: the deepest segment point and where it leaves along the push.
    float a0 = tread_v3_dot(best_n, p0), a1 = tread_v3_dot(best_n, p1);
    tread_vec3 deepest;
    if (fabsf(a0 - a1) <= PARALLEL_SINE * e_len)
        deepest = tread_v3_mad(p0, s0 / (s0 - s1), e); // flat along the push: the crossing point
    else
        deepest = a0 < a1 ? p0 : p1;
    out->on_segment = deepest;
    out->on_shape = closest_on_triangle(tread_v3_mad(deepest, best_depth, best_n), a, b, c);
    return true;
}

// A lower bound of the distance from the triangle of the convex hull of points p[0..n-1], cheaper than closest points:
// every point of the hull lies at least its least height over the plane (the points' heights h, all on one side)
// from the triangle, and where the whole hull lies outside an edge's line, at least its least distance outside that
// line from any point of the triangle, in the plane; the distance is at least the root of their squares' sum (both
// are linear, so least at a point p[i]). Compared squared, an edge's line distance unnormalised: the edge's outward
// normal cross(e, face) has length |e|. The rounding is the callers' (their skip slack), so the three edges may go
// as SSE lanes.
static inline __attribute__((always_inline)) bool hull_beyond(tread_vec3 a, tread_vec3 b, tread_vec3 cc, tread_vec3 face,
                                                             const tread_vec3 *p, const float *h, int n, float beyond) {
    float low = h[0], high = h[0];
    for (int i = 1; i < n; i++) low = tr_minf(low, h[i]), high = tr_maxf(high, h[i]);
    float height = low > 0.0f ? low : high < 0.0f ? -high : 0.0f;
    float lateral_sq = beyond * beyond - height * height; // the least squared distance outside an edge that proves it
#if CLOSEST_SSE
    // Lanes: edges 0, 1, 2 (from corner i to corner i + 1) and an unused one.
    __m128 vx = _mm_setr_ps(a.x, b.x, cc.x, 0.0f), vy = _mm_setr_ps(a.y, b.y, cc.y, 0.0f), vz = _mm_setr_ps(a.z, b.z, cc.z, 0.0f);
    __m128 ex = _mm_sub_ps(_mm_shuffle_ps(vx, vx, _MM_SHUFFLE(3, 0, 2, 1)), vx);
    __m128 ey = _mm_sub_ps(_mm_shuffle_ps(vy, vy, _MM_SHUFFLE(3, 0, 2, 1)), vy);
    __m128 ez = _mm_sub_ps(_mm_shuffle_ps(vz, vz, _MM_SHUFFLE(3, 0, 2, 1)), vz);
    __m128 fx = _mm_set1_ps(face.x), fy = _mm_set1_ps(face.y), fz = _mm_set1_ps(face.z);
    __m128 ox = _mm_sub_ps(_mm_mul_ps(ey, fz), _mm_mul_ps(ez, fy));
    __m128 oy = _mm_sub_ps(_mm_mul_ps(ez, fx), _mm_mul_ps(ex, fz));
    __m128 oz = _mm_sub_ps(_mm_mul_ps(ex, fy), _mm_mul_ps(ey, fx));
    __m128 least = _mm_setzero_ps();
    for (int i = 0; i < n; i++) {
        __m128 d = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_sub_ps(_mm_set1_ps(p[i].x), vx), ox), _mm_mul_ps(_mm_sub_ps(_mm_set1_ps(p[i].y), vy), oy)),
                              _mm_mul_ps(_mm_sub_ps(_mm_set1_ps(p[i].z), vz), oz));
        least = i == 0 ? d : _mm_min_ps(least, d);
    }
    __m128 ee = _mm_add_ps(_mm_add_ps(_mm_mul_ps(ex, ex), _mm_mul_ps(ey, ey)), _mm_mul_ps(ez, ez));
    __m128 proves = _mm_and_ps(_mm_cmpgt_ps(least, _mm_setzero_ps()),
                               _mm_cmpgt_ps(_mm_mul_ps(least, least), _mm_mul_ps(_mm_set1_ps(lateral_sq), ee)));
    return (_mm_movemask_ps(proves) & 7) != 0;
#else
    const tread_vec3 v[3] = {a, b, cc};
    for (int k = 0; k < 3; k++) {
        tread_vec3 e = tread_v3_sub(v[(k + 1) % 3], v[k]), out = tread_v3_cross(e, face);
        float least = FLT_MAX;
        for (int i = 0; i < n; i++) least = tr_minf(least, tread_v3_dot(tread_v3_sub(p[i], v[k]), out));
        if (least > 0.0f && least * least > lateral_sq * tread_v3_dot(e, e)) return true;
    }
    return false;
#endif
}

bool tr_segment_triangle_beyond(tread_vec3 a, tread_vec3 b, tread_vec3 c, tread_vec3 face, float s0, float s1, float beyond,
                                tread_vec3 p0, tread_vec3 p1) {
    const tread_vec3 p[2] = {p0, p1};
    const float h[2] = {s0, s1};
    return hull_beyond(a, b, c, face, p, h, 2, beyond);
}

bool tr_swept_segment_triangle_beyond(tread_vec3 a, tread_vec3 b, tread_vec3 c, tread_vec3 face, float s0, float s1, float sm,
                                      float beyond, tread_vec3 p0, tread_vec3 p1, tread_vec3 m) {
    const tread_vec3 p[4] = {p0, p1, tread_v3_add(p0, m), tread_v3_add(p1, m)};
    const float h[4] = {s0, s1, s0 + sm, s1 + sm};
    return hull_beyond(a, b, c, face, p, h, 4, beyond);
}
