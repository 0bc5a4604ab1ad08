// SPDX-License-Identifier: MIT
// Capsule sweeps: the exact first time of contact of a capsule (core p0-p1, radius r) translated by t*d against
// a sphere, capsule, box or triangle. No iteration.
//
// The capsule touches primitive P at time t when the point t*d comes within r of the Minkowski set
// M = P (+) (-S), S the core segment. M's rounded boundary is made of pieces, each a ray cast in world terms:
//   endpoint pieces  each core endpoint p_i, as a sphere of radius r, against P (faces, edges, corners of P);
//   belt pieces      a primitive edge E against the core segment S: the offset faces of the parallelogram
//                    E (+) (-S), where the capsule's side meets the edge;
//   vertex pieces    a primitive corner v against the capsule's side: v moving by -d into the cylinder around S.
// Every piece lies inside M rounded by r, so no piece hits before the true contact, and the contact lies on one
// of them: the minimum over pieces is exact. Degenerate pieces (S parallel to an edge, a zero-length core) are
// skipped because the remaining pieces cover them. Pieces are pruned by the best time found so far.
//
// Fast paths decide most casts before the full set of pieces, each with a proof that it is exact:
//   - bounding tests (the path against the grown bounds; for the box, the slabs of M's faces grown by r): a miss
//     there misses everything;
//   - a face entry: entering the grown face slabs at a point within r of M is the first contact (box), and a
//     capsule end landing on a triangle's face with the other end no nearer the plane is too;
//   - certificates (box edges and corners): the core-to-box distance is convex in t, so a tangent at one time
//     bounds it everywhere -- a candidate contact where the distance is r and falling is the first one, and a
//     tangent above r over the reachable span proves a miss.
#include "closest_box.h"

#include <string.h>

// Belt faces of an edge and a core segment whose sine of angle is below this are skipped as parallel (their
// parallelogram is thinner than |S| * 1e-6, inside the endpoint and vertex pieces' coverage to that width).
#define PARALLEL_SINE 1.0e-6f

// A piece that finds its start up to this far past touching (metres) reports contact at t = 0: the closest-point
// start test judged the capsule separated, so the overlap is rounding of a touching start, not a real one.
#define START_SLACK 1.0e-5f
// A contact point this far outside the box (a fraction of the coordinates' magnitude: a few float roundings)
// still proves a face contact; beyond it the exact pieces decide.
#define FACE_SLACK 2.5e-7f

typedef struct sweep_best {
    float t;           // best time so far; starts at t_max
    bool found;
    tread_vec3 point;  // contact on the primitive's core surface
    tread_vec3 normal; // from the primitive toward the capsule
} sweep_best;

static float axis_of(tread_vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
static tread_vec3 unit_axis(int i, float sign) {
    return tread_v3(i == 0 ? sign : 0.0f, i == 1 ? sign : 0.0f, i == 2 ? sign : 0.0f);
}

// Cross product with the six products formed in double, where a product of two floats is exact: nearly parallel
// edges keep a normal accurate to float rounding of the result instead of to |a||b| * 2^-24.
static tread_vec3 cross_exact(tread_vec3 a, tread_vec3 b) {
    return tread_v3((float)((double)a.y * b.z - (double)a.z * b.y), (float)((double)a.z * b.x - (double)a.x * b.z),
                    (float)((double)a.x * b.y - (double)a.y * b.x));
}

// Unit direction from b toward a, or -d/|d| (then up) when they coincide (a zero-radius contact).
static tread_vec3 direction_or(tread_vec3 a, tread_vec3 b, tread_vec3 d) {
    tread_vec3 n = tread_v3_normalize(tread_v3_sub(a, b));
    if (tread_v3_length_sq(n) > 0.0f) return n;
    n = tread_v3_normalize(tread_v3_neg(d));
    return tread_v3_length_sq(n) > 0.0f ? n : tread_v3(0.0f, 1.0f, 0.0f);
}

static void record(sweep_best *best, float t, tread_vec3 point, tread_vec3 normal) {
    best->t = t;
    best->found = true;
    best->point = point;
    best->normal = normal;
}

// The motion with its componentwise reciprocal, shared by every slab test of one sweep.
typedef struct motion {
    tread_vec3 d;
    float inv[3]; // 1 / d_i, or 0 where d_i is 0
} motion;

static motion make_motion(tread_vec3 d) {
    motion m;
    m.d = d;
    m.inv[0] = d.x != 0.0f ? 1.0f / d.x : 0.0f;
    m.inv[1] = d.y != 0.0f ? 1.0f / d.y : 0.0f;
    m.inv[2] = d.z != 0.0f ? 1.0f / d.z : 0.0f;
    return m;
}

// One slab of the slab test: narrows [*lo, *hi] to the times o + t*d is within [-h, h]; false when it never is.
static bool slab(float o, float d, float inv, float h, float *lo, float *hi) {
    if (d == 0.0f) return o >= -h && o <= h;
    float t0 = (-h - o) * inv, t1 = (h - o) * inv;
    *lo = tr_maxf(*lo, tr_minf(t0, t1));
    *hi = tr_minf(*hi, tr_maxf(t0, t1));
    return true;
}

// Slab interval [*t_enter, *t_exit] of the ray o + t*d in the box |x_i| <= ext_i; false when it misses for all t.
static bool slab_interval(tread_vec3 o, const motion *m, tread_vec3 ext, float *t_enter, float *t_exit) {
    float lo = -FLT_MAX, hi = FLT_MAX;
    if (!slab(o.x, m->d.x, m->inv[0], ext.x, &lo, &hi) || !slab(o.y, m->d.y, m->inv[1], ext.y, &lo, &hi) ||
        !slab(o.z, m->d.z, m->inv[2], ext.z, &lo, &hi))
        return false;
    *t_enter = lo;
    *t_exit = hi;
    return lo <= hi;
}

// Entry time of o + t*d into the ball of radius r around c, for an origin outside; an origin already inside
// (only possible by rounding, since starts are separated) enters at 0.
static bool ball_entry(tread_vec3 o, tread_vec3 d, tread_vec3 c, float r, float *t) {
    tread_vec3 m = tread_v3_sub(o, c);
    float cq = tread_v3_dot(m, m) - r * r;
    if (cq <= 0.0f) {
        *t = 0.0f;
        return true;
    }
    float b = tread_v3_dot(m, d);
    if (!(b < 0.0f)) return false;
    tread_vec3 x = tread_v3_cross(m, d);
    float disc = tread_v3_dot(d, d) * r * r - tread_v3_dot(x, x);
    if (disc < 0.0f) return false;
    *t = cq / (-b + sqrtf(disc));
    return true;
}

// First t in [0, *t_best] at which o + t*d comes within r of the segment a + s*e, s in [0, 1] (origin outside).
// With caps false only contacts whose closest segment point is interior count: the ends belong to other pieces.
// On a hit lowers *t_best and returns the segment parameter in *s_out.
static bool rounded_segment(tread_vec3 o, tread_vec3 d, tread_vec3 a, tread_vec3 e, float r, bool caps, float *t_best,
                            float *s_out) {
    tread_vec3 m = tread_v3_sub(o, a);
    float ee = tread_v3_dot(e, e);
    float s_cap = 0.0f;
    if (ee > 0.0f) {
        // Side: the infinite cylinder, in components perpendicular to the axis.
        float inv = 1.0f / ee;
        float md = tread_v3_dot(m, e), de = tread_v3_dot(d, e);
        tread_vec3 mp = tread_v3_mad(m, -md * inv, e), dp = tread_v3_mad(d, -de * inv, e);
        float c = tread_v3_dot(mp, mp) - r * r;
        if (c > 0.0f) {
            float b = tread_v3_dot(mp, dp);
            if (!(b < 0.0f)) return false; // outside the cylinder and not closing in: the caps are inside it
            tread_vec3 x = tread_v3_cross(mp, dp);
            float disc = tread_v3_dot(dp, dp) * r * r - tread_v3_dot(x, x);
            if (disc < 0.0f) return false;
            float t = c / (-b + sqrtf(disc));
            if (t > *t_best) return false;
            float s = (md + t * de) * inv;
            if (s >= 0.0f && s <= 1.0f) {
                *t_best = t;
                *s_out = s;
                return true;
            }
            if (!caps) return false;
            s_cap = s < 0.0f ? 0.0f : 1.0f; // entered the cylinder beyond an end: only that cap can be next
        } else {
            if (md >= 0.0f && md <= ee) { // within r of the segment already (rounding of a touching start)
                *t_best = 0.0f;
                *s_out = md * inv;
                return true;
            }
            if (!caps) return false;
            s_cap = md < 0.0f ? 0.0f : 1.0f;
        }
    } else if (!caps) {
        return false;
    }
    float t;
    if (!ball_entry(o, d, tread_v3_mad(a, s_cap, e), r, &t) || t > *t_best) return false;
    *t_best = t;
    *s_out = s_cap;
    return true;
}

// Endpoint piece against a primitive segment (edge or capsule core) a + s*e of radius r_shape: the moving sphere
// o (radius r) reaching it.
static void endpoint_vs_segment(tread_vec3 o, tread_vec3 d, tread_vec3 a, tread_vec3 e, float r, float r_shape,
                                sweep_best *best) {
    float t = best->t, s;
    if (!rounded_segment(o, d, a, e, r + r_shape, true, &t, &s)) return;
    tread_vec3 q = tread_v3_mad(a, s, e);
    tread_vec3 n = direction_or(tread_v3_mad(o, t, d), q, d);
    record(best, t, tread_v3_mad(q, r_shape, n), n);
}

// Vertex piece: the primitive point v (rounded by r_shape) against the capsule's side, p0 + s*S.
static void vertex_vs_side(tread_vec3 v, tread_vec3 d, tread_vec3 p0, tread_vec3 S, float r, float r_shape,
                           sweep_best *best) {
    float t = best->t, s;
    if (!rounded_segment(v, tread_v3_neg(d), p0, S, r + r_shape, false, &t, &s)) return;
    // Relative to the capsule, v moved by -t*d; the normal points from v toward the core.
    tread_vec3 core = tread_v3_mad(tread_v3_mad(p0, s, S), t, d);
    tread_vec3 n = direction_or(core, v, tread_v3_neg(d));
    record(best, t, tread_v3_mad(v, r_shape, n), n);
}

// Belt piece: the core p0 + v*S moving by t*d meets the primitive edge A + u*E (u, v in [0, 1]) at distance
// r_total along their common normal. c = E x S; n is c's unit direction facing against d (n.d < 0).
static void belt_face(tread_vec3 p0, tread_vec3 S, tread_vec3 d, tread_vec3 A, tread_vec3 E, tread_vec3 c, tread_vec3 n,
                      float r_total, float r_shape, sweep_best *best) {
    tread_vec3 pa = tread_v3_sub(p0, A);
    float gap = tread_v3_dot(n, pa) - r_total; // how far the core line is beyond the offset face
    if (gap < -START_SLACK) return;            // behind it: not an entry through this face
    float t = tr_maxf(gap, 0.0f) / -tread_v3_dot(n, d);
    if (t > best->t) return;
    // Foot of the core line on the parallelogram plane, w = u*E - v*S, solved with c: (w x S).c = u |c|^2.
    tread_vec3 w = tread_v3_mad(tread_v3_mad(pa, t, d), -r_total, n);
    float len_sq = tread_v3_dot(c, c);
    if (!(len_sq > 0.0f)) return; // a zero-length edge (flat box)
    float u = tread_v3_dot(tread_v3_cross(w, S), c), v = tread_v3_dot(tread_v3_cross(w, E), c);
    if (u < 0.0f || u > len_sq || v < 0.0f || v > len_sq) return;
    record(best, t, tread_v3_mad(tread_v3_mad(A, u / len_sq, E), r_shape, n), n);
}

// Belt piece for a general edge: the face of the parallelogram E (+) (-S) that faces against d.
static void edge_vs_side(tread_vec3 p0, tread_vec3 S, tread_vec3 d, tread_vec3 A, tread_vec3 E, float r_total,
                         float r_shape, sweep_best *best) {
    tread_vec3 c = cross_exact(E, S);
    float len_sq = tread_v3_dot(c, c);
    float scale = PARALLEL_SINE * PARALLEL_SINE * tread_v3_dot(E, E) * tread_v3_dot(S, S);
    if (!(len_sq > scale) || !(len_sq > 0.0f)) return;
    tread_vec3 n = tread_v3_scale(c, 1.0f / sqrtf(len_sq));
    float nd = tread_v3_dot(n, d);
    if (nd > 0.0f) n = tread_v3_neg(n);
    if (nd == 0.0f) return;
    belt_face(p0, S, d, A, E, c, n, r_total, r_shape, best);
}

// A start that is already touching or overlapping: report t = 0 with the closest-point normal.
static bool start_hit(const tr_closest *cl, float r_shape, tr_hit *hit) {
    hit->t = 0.0f;
    hit->normal = cl->normal;
    hit->point = tread_v3_mad(cl->on_shape, r_shape, cl->normal);
    return true;
}

static bool finish(const sweep_best *best, tr_hit *hit) {
    if (!best->found) return false;
    hit->t = best->t;
    hit->point = best->point;
    hit->normal = best->normal;
    return true;
}

static bool is_point(tread_vec3 S) { return !(tread_v3_length_sq(S) > 0.0f); }

// ---- sphere and capsule --------------------------------------------------------------------------------

// Relative slack of the early-out's cross-axis tests, far above their rounding: they may only ever keep a case.
#define EARLY_OUT_SLACK 1.0e-5f

// Early out shared by the sweeps: does the path of the core's midpoint over [0, t_max] meet the box centred at
// `centre` with half extents `ext` grown by r and by the core's half extent? Segment-box separating axes (the box
// axes and their cross products with the path; Ericson 5.3.3), no division. *near_start: the capsule's bounds
// already overlap the grown box at t = 0, so it may be touching.
static bool reachable(tread_vec3 p0, tread_vec3 S, float r, tread_vec3 d, tread_vec3 centre, tread_vec3 ext, float t_max,
                      bool *near_start) {
    tread_vec3 aS = tread_v3_abs(S);
    tread_vec3 e = tread_v3(ext.x + r + 0.5f * aS.x, ext.y + r + 0.5f * aS.y, ext.z + r + 0.5f * aS.z);
    tread_vec3 half_path = tread_v3_scale(d, 0.5f * t_max);
    tread_vec3 c = tread_v3_add(tread_v3_sub(tread_v3_mad(p0, 0.5f, S), centre), half_path); // path midpoint
    tread_vec3 ah = tread_v3_abs(half_path);
    if (fabsf(c.x) > e.x + ah.x || fabsf(c.y) > e.y + ah.y || fabsf(c.z) > e.z + ah.z) return false;
    float x = fabsf(c.y * half_path.z - c.z * half_path.y), rx = e.y * ah.z + e.z * ah.y;
    float y = fabsf(c.z * half_path.x - c.x * half_path.z), ry = e.x * ah.z + e.z * ah.x;
    float z = fabsf(c.x * half_path.y - c.y * half_path.x), rz = e.x * ah.y + e.y * ah.x;
    if (x > rx + EARLY_OUT_SLACK * (x + rx) || y > ry + EARLY_OUT_SLACK * (y + ry) || z > rz + EARLY_OUT_SLACK * (z + rz))
        return false;
    tread_vec3 start = tread_v3_sub(c, half_path);
    *near_start = fabsf(start.x) <= e.x && fabsf(start.y) <= e.y && fabsf(start.z) <= e.z;
    return true;
}

static bool sweep_capsule_sphere_bounded(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 center, float radius,
                             float t_max, tr_hit *hit) {
    tread_vec3 S = tread_v3_sub(p1, p0);
    bool near_start;
    if (!reachable(p0, S, r, d, center, tread_v3(radius, radius, radius), t_max, &near_start)) return false;
    if (near_start) {
        tr_closest cl;
        tr_closest_segment_point(p0, p1, center, &cl);
        if (cl.distance <= r + radius) return start_hit(&cl, radius, hit);
    }
    // The centre moving by -d against the capsule of radius r + radius (endpoint caps included).
    sweep_best best = {t_max, false, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    float t = t_max, s;
    if (!rounded_segment(center, tread_v3_neg(d), p0, S, r + radius, true, &t, &s)) return false;
    tread_vec3 core = tread_v3_mad(tread_v3_mad(p0, s, S), t, d);
    tread_vec3 n = direction_or(core, center, tread_v3_neg(d));
    record(&best, t, tread_v3_mad(center, radius, n), n);
    return finish(&best, hit);
}

static bool sweep_capsule_capsule_bounded(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b,
                              float radius, float t_max, tr_hit *hit) {
    tread_vec3 S = tread_v3_sub(p1, p0), W = tread_v3_sub(b, a);
    bool near_start;
    tread_vec3 centre = tread_v3_mad(a, 0.5f, W), aW = tread_v3_abs(W);
    tread_vec3 ext = tread_v3(0.5f * aW.x + radius, 0.5f * aW.y + radius, 0.5f * aW.z + radius);
    if (!reachable(p0, S, r, d, centre, ext, t_max, &near_start)) return false;
    if (near_start) {
        tr_closest cl;
        tr_closest_segment_segment(p0, p1, a, b, &cl);
        if (cl.distance <= r + radius) return start_hit(&cl, radius, hit);
    }
    sweep_best best = {t_max, false, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    float r_total = r + radius;
    // Side against side first: the most common contact, and a good bound for the rest.
    edge_vs_side(p0, S, d, a, W, r_total, radius, &best);
    endpoint_vs_segment(p0, d, a, W, r, radius, &best);
    if (!is_point(S)) {
        endpoint_vs_segment(p1, d, a, W, r, radius, &best);
        vertex_vs_side(a, d, p0, S, r, radius, &best);
        if (!is_point(W)) vertex_vs_side(b, d, p0, S, r, radius, &best);
    }
    return finish(&best, hit);
}

// ---- box -----------------------------------------------------------------------------------------------

// Endpoint piece for a box: the sphere o (radius r) against the box rounded by r. Slab entry into the box grown
// by r; in a face region that is the contact, in an edge or corner region the contact is on the edge's capsule
// (or one of the three at the corner) -- Ericson 5.5.7.
static void endpoint_vs_box(tread_vec3 o, const motion *m, tread_vec3 h, float r, sweep_best *best) {
    float t_enter, t_exit;
    tread_vec3 d = m->d;
    tread_vec3 grown = tread_v3(h.x + r, h.y + r, h.z + r);
    if (!slab_interval(o, m, grown, &t_enter, &t_exit)) return;
    if (t_exit < 0.0f || t_enter > best->t) return;
    float t = tr_maxf(t_enter, 0.0f);
    tread_vec3 p = tread_v3_mad(o, t, d);
    float corner[3];
    int outside = 0, inside_axis = 0, face_axis = 0;
    float deepest = -FLT_MAX;
    for (int i = 0; i < 3; ++i) {
        float pi = axis_of(p, i), hi = axis_of(h, i);
        corner[i] = pi < 0.0f ? -hi : hi;
        float gap = fabsf(pi) - hi;
        if (gap > 0.0f)
            ++outside;
        else
            inside_axis = i;
        if (gap > deepest) { // the entry face is the one coordinate outside (or, inside, the nearest face)
            deepest = gap;
            face_axis = i;
        }
    }
    if (outside <= 1) {
        // Face region: on the entry face of the grown box, which lies on the rounded box.
        tread_vec3 n = unit_axis(face_axis, axis_of(p, face_axis) < 0.0f ? -1.0f : 1.0f);
        tread_vec3 q = tread_v3_mad(p, -r, n);
        q = tread_v3(tr_clampf(q.x, -h.x, h.x), tr_clampf(q.y, -h.y, h.y), tr_clampf(q.z, -h.z, h.z));
        record(best, t, q, n);
        return;
    }
    tread_vec3 c = tread_v3(corner[0], corner[1], corner[2]);
    if (outside == 2) {
        // Edge region: the edge along the one axis the point is within.
        int k = inside_axis;
        float ck[3] = {corner[0], corner[1], corner[2]};
        ck[k] = -axis_of(h, k);
        endpoint_vs_segment(o, d, tread_v3(ck[0], ck[1], ck[2]), unit_axis(k, 2.0f * axis_of(h, k)), r, 0.0f, best);
        return;
    }
    // Corner region: the three edges that meet at the corner.
    for (int k = 0; k < 3; ++k)
        endpoint_vs_segment(o, d, c, unit_axis(k, -2.0f * corner[k]), r, 0.0f, best);
}

// Cheap proof that the capsule starts separated from the box: a separating axis among the faces of box (+) (-S)
// (the box axes and axis x S) with a gap above r. The gap along a face normal is the true distance whenever the
// closest points lie on that face, which covers the common start (resting r + skin above a face).
static bool box_start_separated(tread_vec3 p0, tread_vec3 S, tread_vec3 h, float r) {
    tread_vec3 c = tread_v3_mad(p0, 0.5f, S), aS = tread_v3_abs(S);
    if (fabsf(c.x) - h.x - 0.5f * aS.x > r || fabsf(c.y) - h.y - 0.5f * aS.y > r || fabsf(c.z) - h.z - 0.5f * aS.z > r)
        return true;
    // Axis e_i x S, unnormalised: the segment projects to one value; compare gap^2 with r^2 |axis|^2.
    const tread_vec3 axes[3] = {tread_v3(0.0f, -S.z, S.y), tread_v3(S.z, 0.0f, -S.x), tread_v3(-S.y, S.x, 0.0f)};
    for (int i = 0; i < 3; ++i) {
        tread_vec3 n = axes[i];
        float gap = fabsf(tread_v3_dot(n, c)) - (fabsf(n.x) * h.x + fabsf(n.y) * h.y + fabsf(n.z) * h.z);
        if (gap > 0.0f && gap * gap > r * r * tread_v3_dot(n, n)) return true;
    }
    return false;
}

// Is x within `slack` of K = box (+) {mu*S : |mu| <= 1/2}? It is when the line x - mu*S crosses the box for some
// |mu| <= 1/2: a slab test in mu. On success *mu is the middle of the crossing.
static bool in_box_sum(tread_vec3 x, tread_vec3 S, tread_vec3 h, float slack, float *mu) {
    const float xs[3] = {x.x, x.y, x.z}, ss[3] = {S.x, S.y, S.z}, hs[3] = {h.x + slack, h.y + slack, h.z + slack};
    float lo = -0.5f, hi = 0.5f;
    for (int k = 0; k < 3; ++k) {
        if (ss[k] == 0.0f) {
            if (fabsf(xs[k]) > hs[k]) return false;
            continue;
        }
        float inv = 1.0f / ss[k];
        float a = (xs[k] - hs[k]) * inv, b = (xs[k] + hs[k]) * inv;
        lo = tr_maxf(lo, tr_minf(a, b));
        hi = tr_minf(hi, tr_maxf(a, b));
    }
    if (lo > hi) return false;
    *mu = 0.5f * (lo + hi);
    return true;
}

// One slab of the grown zonotope: narrows [*lo, *hi] to the times x0 + t*xd is within [-ext, ext] and, when it
// raises *lo, records the entry face's normal (n or -n, against the motion). False when never inside.
static bool zonotope_slab(float x0, float xd, float inv, float ext, tread_vec3 n, float *lo, float *hi,
                          tread_vec3 *enter_n) {
    if (xd == 0.0f) return x0 >= -ext && x0 <= ext;
    float t0 = (-ext - x0) * inv, t1 = (ext - x0) * inv;
    float t_in = tr_minf(t0, t1), t_out = tr_maxf(t0, t1);
    if (t_in > *lo) {
        *lo = t_in;
        *enter_n = xd > 0.0f ? tread_v3_neg(n) : n;
    }
    *hi = tr_minf(*hi, t_out);
    return true;
}

// Certificates. The distance D(t) from the core to the box is convex in t, so it lies above its tangent at any
// t_c: D(t) >= D(t_c) + D'(t_c) (t - t_c), with D'(t_c) = n.d for the closest-point normal n.
//  - a contact candidate at t_c with D(t_c) = r (within CERTIFY_TOLERANCE metres) and D falling there (slope below
//    -CERTIFY_SLOPE |d|) is the first contact, to within CERTIFY_TOLERANCE / CERTIFY_SLOPE of distance along d;
//  - a tangent staying above r + CERTIFY_TOLERANCE over the span [t_a, t_b] where contact is possible proves a miss.
#define CERTIFY_TOLERANCE 2.0e-6f
#define CERTIFY_SLOPE 0.1f

typedef enum { CANDIDATE_UNKNOWN, CANDIDATE_HIT, CANDIDATE_MISS } candidate_result;

// The caller's closest points of the core p0-p1 (as it gave them) and the box at t = 0, when it has them.
typedef struct box_start {
    tread_vec3 p0, p1;
    const tr_closest *closest; // NULL: none
} box_start;

// The closest points of the core at time t and the box; the caller's at t = 0 when the core at t is its core bit
// for bit (p0 + 0 d can differ from p0 in a zero's sign, and p0 + S from p1 by rounding).
static void box_distance_at(tread_vec3 p0, tread_vec3 S, tread_vec3 d, tread_vec3 half, float t, const box_start *start,
                            tr_closest *cl) {
    tread_vec3 a = tread_v3_mad(p0, t, d), b = tread_v3_add(a, S);
    if (start->closest && memcmp(&a, &start->p0, sizeof a) == 0 && memcmp(&b, &start->p1, sizeof b) == 0) {
        *cl = *start->closest;
        return;
    }
    tread_vec3 e = tread_v3_sub(b, a);
    if (!tr_closest_segment_box_end(a, e, half, cl)) tr_closest_segment_box_general(a, b, e, half, cl);
}

// The pieces of the box feature nearest the capsule at time t_a (an edge or a corner, met by an end or by the
// side), tried as the first contact over [t_a, t_b]; certified hit, certified miss, or unknown.
static candidate_result nearest_feature_contact(tread_vec3 p0, tread_vec3 S, float r, tread_vec3 d, tread_vec3 h,
                                                float t_a, float t_b, const box_start *start, sweep_best *best) {
    tr_closest cl;
    box_distance_at(p0, S, d, h, t_a, start, &cl);
    if (!(cl.distance > r)) return CANDIDATE_UNKNOWN;
    // Which box feature (coordinates clamped onto a face plane) and which part of the core (an end or the side).
    const float q[3] = {cl.on_shape.x, cl.on_shape.y, cl.on_shape.z}, hv[3] = {h.x, h.y, h.z};
    int clamped = 0, free_axis = 0;
    for (int k = 0; k < 3; ++k) {
        if (fabsf(q[k]) == hv[k])
            ++clamped;
        else
            free_axis = k;
    }
    tread_vec3 a = tread_v3_mad(p0, t_a, d);
    float s_len_sq = tread_v3_length_sq(S);
    float nu = s_len_sq > 0.0f ? tr_clampf(tread_v3_dot(tread_v3_sub(cl.on_segment, a), S) / s_len_sq, 0.0f, 1.0f) : 0.0f;
    bool at_end = nu <= 0.0f || nu >= 1.0f;
    tread_vec3 end = nu >= 1.0f ? tread_v3_add(p0, S) : p0;
    tread_vec3 A = cl.on_shape, E = tread_v3_zero(); // the feature: a corner, or an edge A + u*E
    if (clamped == 3) {
        if (at_end)
            for (int k = 0; k < 3; ++k) endpoint_vs_segment(end, d, A, unit_axis(k, -2.0f * q[k]), r, 0.0f, best);
        if (s_len_sq > 0.0f) vertex_vs_side(A, d, p0, S, r, 0.0f, best);
    } else if (clamped == 2) {
        float c[3] = {q[0], q[1], q[2]};
        c[free_axis] = -hv[free_axis];
        A = tread_v3(c[0], c[1], c[2]);
        E = unit_axis(free_axis, 2.0f * hv[free_axis]);
        if (at_end)
            endpoint_vs_segment(end, d, A, E, r, 0.0f, best);
        else
            edge_vs_side(p0, S, d, A, E, r, 0.0f, best);
    } else {
        return CANDIDATE_UNKNOWN;
    }
    if (best->found) {
        box_distance_at(p0, S, d, h, best->t, start, &cl);
        bool first = fabsf(cl.distance - r) <= CERTIFY_TOLERANCE &&
                     tread_v3_dot(cl.normal, d) < -CERTIFY_SLOPE * tread_v3_length(d);
        return first ? CANDIDATE_HIT : CANDIDATE_UNKNOWN;
    }
    // No contact with the candidate: take the tangent where the core point nearest the feature passes closest to
    // it (the feature's line, or its corner), which is near D's minimum when the candidate was the right feature.
    tread_vec3 m = tread_v3_sub(tread_v3_mad(p0, nu, S), A), dp = d;
    float ee = tread_v3_length_sq(E);
    if (ee > 0.0f) {
        m = tread_v3_mad(m, -tread_v3_dot(m, E) / ee, E);
        dp = tread_v3_mad(d, -tread_v3_dot(d, E) / ee, E);
    }
    float dd = tread_v3_length_sq(dp);
    float t_c = dd > 0.0f ? tr_clampf(-tread_v3_dot(m, dp) / dd, t_a, t_b) : t_a;
    box_distance_at(p0, S, d, h, t_c, start, &cl);
    float slope = tread_v3_dot(cl.normal, d);
    float lowest = cl.distance + tr_minf(slope * (t_a - t_c), slope * (t_b - t_c));
    return lowest > r + CERTIFY_TOLERANCE ? CANDIDATE_MISS : CANDIDATE_UNKNOWN;
}

static bool sweep_capsule_box_bounded(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 half, float t_max,
                                      const tr_closest *start_closest, tr_hit *hit) {
    const box_start start = {p0, p1, start_closest};
    tread_vec3 S = tread_v3_sub(p1, p0);
    bool near_start;
    if (!reachable(p0, S, r, d, tread_v3_zero(), half, t_max, &near_start)) return false; // cheap, no division
    tread_vec3 mid = tread_v3_mad(p0, 0.5f, S), aS = tread_v3_abs(S);
    motion m = make_motion(d);

    // 1. The capsule's midpoint against K = box (+) [-S/2, S/2] rounded by r, through the polytope G of K's face
    //    slabs grown by r (G contains the rounded K): the box axes (K's bounds) and e_i x S (K's belt faces).
    //    Missing G misses everything.
    float lo = -FLT_MAX, hi = FLT_MAX;
    tread_vec3 enter_n = tread_v3(0.0f, 1.0f, 0.0f);
    if (!zonotope_slab(mid.x, d.x, m.inv[0], half.x + 0.5f * aS.x + r, tread_v3(1, 0, 0), &lo, &hi, &enter_n) ||
        !zonotope_slab(mid.y, d.y, m.inv[1], half.y + 0.5f * aS.y + r, tread_v3(0, 1, 0), &lo, &hi, &enter_n) ||
        !zonotope_slab(mid.z, d.z, m.inv[2], half.z + 0.5f * aS.z + r, tread_v3(0, 0, 1), &lo, &hi, &enter_n))
        return false;
    if (lo > hi || hi < 0.0f || lo > t_max) return false;
    tread_vec3 normals[3], crosses[3];
    bool valid[3];
    float belt_lo = -FLT_MAX, belt_hi = FLT_MAX;
    tread_vec3 belt_n = enter_n;
    float s_len = tread_v3_length(S);
    for (int i = 0; i < 3; ++i) {
        tread_vec3 c = tread_v3_cross(unit_axis(i, 1.0f), S); // exact: components of S
        float len = tread_v3_length(c);
        valid[i] = len > PARALLEL_SINE * s_len;
        if (!valid[i]) continue;
        tread_vec3 n = tread_v3_scale(c, 1.0f / len);
        normals[i] = n;
        crosses[i] = c;
        float ext = fabsf(n.x) * half.x + fabsf(n.y) * half.y + fabsf(n.z) * half.z + r;
        float xd = tread_v3_dot(n, d);
        if (!zonotope_slab(tread_v3_dot(n, mid), xd, xd != 0.0f ? 1.0f / xd : 0.0f, ext, n, &belt_lo, &belt_hi, &belt_n))
            return false;
    }
    if (belt_lo > lo) {
        lo = belt_lo;
        enter_n = belt_n;
    }
    hi = tr_minf(hi, belt_hi);
    if (lo > hi || hi < 0.0f || lo > t_max) return false;

    // 2. Entering G through a face at a point within r of K: that is the first contact.
    if (lo >= 0.0f) {
        tread_vec3 x = tread_v3_mad(tread_v3_mad(mid, lo, d), -r, enter_n);
        tread_vec3 ax = tread_v3_abs(x);
        float slack = FACE_SLACK * (tr_maxf(ax.x, tr_maxf(ax.y, ax.z)) + tread_v3_length(d) * lo);
        float mu;
        if (in_box_sum(x, S, half, slack, &mu)) {
            tread_vec3 q = tread_v3_mad(x, -mu, S);
            hit->t = lo;
            hit->normal = enter_n;
            hit->point = tread_v3(tr_clampf(q.x, -half.x, half.x), tr_clampf(q.y, -half.y, half.y), tr_clampf(q.z, -half.z, half.z));
            return true;
        }
    }
    if (lo < 0.0f && !start_closest && !box_start_separated(p0, S, half, r)) {
        // Starts inside G and maybe touching (a precondition breach; report t = 0). (A caller's closest points
        // showed it apart: this test, the same one, would find it so.)
        tr_closest cl;
        tr_closest_segment_box(p0, p1, half, &cl);
        if (cl.distance <= r) return start_hit(&cl, 0.0f, hit);
    }

    // 3. Otherwise the contact is at an edge or corner of K. Try the pieces of the box feature nearest the capsule
    //    where it enters G, and keep their contact if it is certified first; else all the pieces.
    sweep_best best = {t_max, false, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    candidate_result candidate = nearest_feature_contact(p0, S, r, d, half, tr_maxf(lo, 0.0f), tr_minf(hi, t_max), &start, &best);
    if (candidate == CANDIDATE_HIT) return finish(&best, hit);
    if (candidate == CANDIDATE_MISS) return false;
    best.found = false;
    best.t = t_max;
    endpoint_vs_box(p0, &m, half, r, &best);
    if (is_point(S)) return finish(&best, hit);
    endpoint_vs_box(p1, &m, half, r, &best);
    if (belt_lo > best.t) return finish(&best, hit);

    // Belt faces: per axis, the box edge extreme along the face normal that faces against d. A normal component
    // of exactly zero (S parallel to a face) ties two edges; the one leading along -S keeps the cover complete.
    const float hv[3] = {half.x, half.y, half.z};
    const float sv[3] = {S.x, S.y, S.z};
    for (int i = 0; i < 3; ++i) {
        if (!valid[i]) continue;
        tread_vec3 n = normals[i];
        float nd = tread_v3_dot(n, d);
        if (nd == 0.0f) continue; // moving along the face: it cannot be entered
        if (nd > 0.0f) n = tread_v3_neg(n);
        float a[3];
        for (int j = 0; j < 3; ++j) {
            float nj = axis_of(n, j);
            a[j] = nj > 0.0f ? hv[j] : (nj < 0.0f ? -hv[j] : (sv[j] > 0.0f ? -hv[j] : hv[j]));
        }
        a[i] = -hv[i];
        // E = 2h e_i, so E x S = 2h (e_i x S).
        belt_face(p0, S, d, tread_v3(a[0], a[1], a[2]), unit_axis(i, 2.0f * hv[i]), tread_v3_scale(crosses[i], 2.0f * hv[i]), n,
                  r, 0.0f, &best);
    }

    // Vertex piece: only the silhouette corner nearest the core line where it enters the belt's grown hexagon (the
    // box seen along S) can be first: inside a corner's wedge the nearest polygon point is that corner. Nearest in
    // projection along S: minimise |(v - q)_perp|^2 = |h|^2 - (v.s)^2 - 2 v.q_perp + const over v's sign patterns.
    tread_vec3 q = tread_v3_mad(p0, tr_maxf(belt_lo, 0.0f), d);
    tread_vec3 s_unit = tread_v3_scale(S, 1.0f / s_len);
    tread_vec3 q_perp = tread_v3_reject(q, s_unit);
    tread_vec3 as = tread_v3_mul(half, s_unit), bq = tread_v3_mul(half, q_perp);
    float best_score = FLT_MAX;
    tread_vec3 best_corner = half;
    for (int pattern = 0; pattern < 4; ++pattern) {
        float sy = (pattern & 1) ? -1.0f : 1.0f, sz = (pattern & 2) ? -1.0f : 1.0f;
        float alpha = as.x + sy * as.y + sz * as.z;
        float beta = bq.x + sy * bq.y + sz * bq.z;
        float flip = beta < 0.0f ? -1.0f : 1.0f; // of v and -v, the one on q's side
        float score = -alpha * alpha - 2.0f * fabsf(beta);
        if (score < best_score) {
            best_score = score;
            best_corner = tread_v3(flip * half.x, flip * sy * half.y, flip * sz * half.z);
        }
    }
    vertex_vs_side(best_corner, d, p0, S, r, 0.0f, &best);
    return finish(&best, hit);
}

// ---- triangle ------------------------------------------------------------------------------------------

// Endpoint piece for a triangle, face part: the sphere o (radius r) against the offset face on o's side, contact
// interior to the triangle. True when o enters the rounded triangle through its face (whether or not that beats
// the best so far): then that is o's first contact with it and its edge capsules need no test.
static bool endpoint_vs_face(tread_vec3 o, tread_vec3 d, const tread_vec3 v[3], const tread_vec3 e[3], tread_vec3 n,
                             float r, sweep_best *best) {
    float height = tread_v3_dot(n, tread_v3_sub(o, v[0]));
    float nd = tread_v3_dot(n, d);
    tread_vec3 side = height >= 0.0f ? n : tread_v3_neg(n);
    float above = fabsf(height) - r, closing = height >= 0.0f ? -nd : nd;
    if (!(above >= -START_SLACK && closing > 0.0f)) return false;
    float t = tr_maxf(above, 0.0f) / closing;
    tread_vec3 q = tread_v3_mad(tread_v3_mad(o, t, d), -r, side);
    // Inside the triangle: on the inner side of each edge.
    for (int i = 0; i < 3; ++i)
        if (tread_v3_dot(tread_v3_cross(e[i], tread_v3_sub(q, v[i])), n) < 0.0f) return false;
    if (t <= best->t) record(best, t, q, side);
    return true;
}

// Cheap proof that the capsule starts separated from the triangle: a separating axis among the in-plane edge
// normals and edge x S (with the plane normal tested by the caller) with a gap above r. Unnormalised axes:
// compare gap^2 with r^2 |axis|^2.
static bool triangle_start_separated(tread_vec3 p0, tread_vec3 S, const tread_vec3 v[3], const tread_vec3 e[3],
                                     tread_vec3 n, float r) {
    tread_vec3 p1 = tread_v3_add(p0, S);
    for (int k = 0; k < 6; ++k) {
        tread_vec3 u = k < 3 ? tread_v3_cross(n, e[k]) : tread_v3_cross(e[k - 3], S);
        float t0 = tread_v3_dot(u, v[0]), t1 = tread_v3_dot(u, v[1]), t2 = tread_v3_dot(u, v[2]);
        float s0 = tread_v3_dot(u, p0), s1 = tread_v3_dot(u, p1);
        float gap = tr_maxf(tr_minf(s0, s1) - tr_maxf(t0, tr_maxf(t1, t2)), tr_minf(t0, tr_minf(t1, t2)) - tr_maxf(s0, s1));
        if (gap > 0.0f && gap * gap > r * r * tread_v3_dot(u, u)) return true;
    }
    return false;
}

// Does the segment x0-x1 meet the triangle (unit normal n, edges e) within `slack`? Crossing the plane: the
// crossing point against the three edge lines; lying in the plane (within slack): the segment clipped by them.
// On success *nu is a segment parameter where it does.
static bool segment_meets_triangle(tread_vec3 x0, tread_vec3 x1, const tread_vec3 v[3], const tread_vec3 e[3],
                                   tread_vec3 n, float slack, float *nu) {
    float h0 = tread_v3_dot(n, tread_v3_sub(x0, v[0])), h1 = tread_v3_dot(n, tread_v3_sub(x1, v[0]));
    if ((h0 > slack && h1 > slack) || (h0 < -slack && h1 < -slack)) return false;
    float lo = 0.0f, hi = 1.0f;
    if (fabsf(h0) > slack || fabsf(h1) > slack) lo = hi = tr_clampf(h0 / (h0 - h1), 0.0f, 1.0f); // crossing point
    tread_vec3 s = tread_v3_sub(x1, x0);
    for (int i = 0; i < 3; ++i) {
        // Inner side of edge i: f(nu) = (e_i x (x(nu) - v_i)).n >= -slack |e_i|, linear in nu.
        tread_vec3 m = tread_v3_cross(n, e[i]); // inward, in the plane
        float f0 = tread_v3_dot(m, tread_v3_sub(x0, v[i])) + slack * tread_v3_length(e[i]);
        float fs = tread_v3_dot(m, s);
        if (fs == 0.0f) {
            if (f0 < 0.0f) return false;
        } else if (fs > 0.0f) {
            lo = tr_maxf(lo, -f0 / fs);
        } else {
            hi = tr_minf(hi, -f0 / fs);
        }
        if (lo > hi) return false;
    }
    *nu = 0.5f * (lo + hi);
    return true;
}

// One moving separating axis u (unit): the capsule's projection moves by t*(u.d); contact needs it to overlap the
// triangle's grown by r. Narrows [*lo, *hi] and records the entry normal (toward the capsule) when it raises *lo.
static bool moving_axis(tread_vec3 u, tread_vec3 p0, tread_vec3 p1, const tread_vec3 v[3], tread_vec3 d, float r,
                        float *lo, float *hi, tread_vec3 *enter_n) {
    float t0 = tread_v3_dot(u, v[0]), t1 = tread_v3_dot(u, v[1]), t2 = tread_v3_dot(u, v[2]);
    float a0 = tread_v3_dot(u, p0), a1 = tread_v3_dot(u, p1);
    float tri_lo = tr_minf(t0, tr_minf(t1, t2)) - r, tri_hi = tr_maxf(t0, tr_maxf(t1, t2)) + r;
    float seg_lo = tr_minf(a0, a1), seg_hi = tr_maxf(a0, a1);
    float ud = tread_v3_dot(u, d);
    // Overlap at time t: seg_lo + t ud <= tri_hi and seg_hi + t ud >= tri_lo.
    if (ud == 0.0f) return seg_lo <= tri_hi && seg_hi >= tri_lo;
    float inv = 1.0f / ud;
    float ta = (tri_hi - seg_lo) * inv, tb = (tri_lo - seg_hi) * inv;
    float t_in = tr_minf(ta, tb), t_out = tr_maxf(ta, tb);
    if (t_in > *lo) {
        *lo = t_in;
        *enter_n = ud > 0.0f ? tread_v3_neg(u) : u; // moving up along u: entering from below
    }
    *hi = tr_minf(*hi, t_out);
    return true;
}

// Is d exactly parallel to the core S (either way, or either zero)? Float products are exact in double.
static bool along_core(tread_vec3 S, tread_vec3 d) {
    return (double)S.y * d.z == (double)S.z * d.y && (double)S.z * d.x == (double)S.x * d.z && (double)S.x * d.y == (double)S.y * d.x;
}

// The ball o (radius r) moving by t d against the triangle: its face, else its three edges (rounded, with their
// ends). Started apart.
static bool ball_vs_triangle(tread_vec3 o, tread_vec3 d, const tread_vec3 v[3], const tread_vec3 e[3], tread_vec3 n, float r, float t_max,
                             tr_hit *hit) {
    sweep_best best = {t_max, false, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    if (!endpoint_vs_face(o, d, v, e, n, r, &best))
        for (int i = 0; i < 3; ++i) endpoint_vs_segment(o, d, v[i], e[i], r, 0.0f, &best);
    return finish(&best, hit);
}

// start_apart: the caller has shown the start separated (tr_cast_triangle's closest test or its early-outs, which
// prove that test's answer), so the start test below, kept for callers that have not, would find nothing.
static bool sweep_capsule_triangle_bounded(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b,
                               tread_vec3 c, float t_max, bool start_apart, tr_hit *hit) {
    const tread_vec3 v[3] = {a, b, c};
    const tread_vec3 e[3] = {tread_v3_sub(b, a), tread_v3_sub(c, b), tread_v3_sub(a, c)};
    tread_vec3 n = cross_exact(e[0], tread_v3_neg(e[2]));
    float twice_area = tread_v3_length(n);
    if (!(twice_area >= TR_DEGENERATE_AREA)) return false;
    n = tread_v3_scale(n, 1.0f / twice_area);

    tread_vec3 S = tread_v3_sub(p1, p0);
    // Early outs: the core stays more than r from the plane over the whole cast, or misses the bounding box.
    float h0 = tread_v3_dot(n, tread_v3_sub(p0, a)), h1 = tread_v3_dot(n, tread_v3_sub(p1, a));
    float travel = t_max * tread_v3_dot(n, d);
    float lowest = tr_minf(h0, h1) + tr_minf(travel, 0.0f), highest = tr_maxf(h0, h1) + tr_maxf(travel, 0.0f);
    if (lowest > r || highest < -r) return false;
    tread_vec3 lo = tread_v3_min(a, tread_v3_min(b, c)), hi = tread_v3_max(a, tread_v3_max(b, c));
    bool near_start;
    if (!reachable(p0, S, r, d, tread_v3_scale(tread_v3_add(lo, hi), 0.5f), tread_v3_scale(tread_v3_sub(hi, lo), 0.5f),
                   t_max, &near_start))
        return false;
    // Moving along its own core (a probe straight down under an upright capsule), the capsule sweeps only what its
    // leading ball sweeps: every other point of it moves through space the capsule held at the start, where (the
    // core farther than r from the plane) nothing of the triangle is.
    if (((h0 > r && h1 > r) || (h0 < -r && h1 < -r)) && along_core(S, d))
        return ball_vs_triangle(tread_v3_dot(S, d) > 0.0f ? p1 : p0, d, v, e, n, r, t_max, hit);
    // Moving separating axes: the faces of M = T (+) (-S) (the normal, edge x S) and the in-plane edge normals.
    // Missing any misses everything; entering their intersection G (which contains M rounded by r) at a point
    // within r of M is the first contact.
    float lo_t = -FLT_MAX, hi_t = FLT_MAX;
    tread_vec3 enter_n = n;
    float s_len_sq = tread_v3_length_sq(S);
    for (int k = 0; k < 7; ++k) {
        tread_vec3 u = n;
        if (k > 0) {
            tread_vec3 axis = k < 4 ? cross_exact(e[k - 1], S) : tread_v3_cross(n, e[k - 4]);
            float len_sq = tread_v3_length_sq(axis);
            float scale = k < 4 ? s_len_sq : 1.0f;
            if (!(len_sq > PARALLEL_SINE * PARALLEL_SINE * tread_v3_length_sq(e[(k - 1) % 3]) * scale)) continue;
            u = tread_v3_scale(axis, 1.0f / sqrtf(len_sq));
        }
        if (!moving_axis(u, p0, p1, v, d, r, &lo_t, &hi_t, &enter_n)) return false;
    }
    if (lo_t > hi_t || hi_t < 0.0f || lo_t > t_max) return false;
    if (!start_apart && lo_t < 0.0f && near_start && !(h0 > r && h1 > r) && !(h0 < -r && h1 < -r) &&
        !triangle_start_separated(p0, S, v, e, n, r)) {
        // Inside G at the start and within reach of the plane: it may already touch (a precondition breach;
        // report t = 0).
        tr_closest cl;
        if (tr_closest_segment_triangle(p0, p1, a, b, c, &cl) && cl.distance <= r) return start_hit(&cl, 0.0f, hit);
    }
    if (lo_t >= 0.0f) {
        tread_vec3 x0 = tread_v3_mad(tread_v3_mad(p0, lo_t, d), -r, enter_n);
        tread_vec3 ax = tread_v3_abs(x0);
        float slack = FACE_SLACK * (tr_maxf(ax.x, tr_maxf(ax.y, ax.z)) + tread_v3_length(S) + tread_v3_length(d) * lo_t);
        float nu;
        if (segment_meets_triangle(x0, tread_v3_add(x0, S), v, e, n, slack, &nu)) {
            hit->t = lo_t;
            hit->normal = enter_n;
            hit->point = tread_v3_mad(x0, nu, S); // on the triangle (within the slack), r from the core along n
            return true;
        }
    }

    if (is_point(S)) return ball_vs_triangle(p0, d, v, e, n, r, t_max, hit);
    sweep_best best = {t_max, false, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    bool face0 = endpoint_vs_face(p0, d, v, e, n, r, &best);
    bool face1 = endpoint_vs_face(p1, d, v, e, n, r, &best);
    if (best.found) {
        // Landing flat on the face: when the other end is no nearer the plane at that moment, the core's distance
        // to the triangle is its plane distance, r, and falling -- the first contact (it is convex in t).
        float end0 = tread_v3_dot(best.normal, tread_v3_sub(tread_v3_mad(p0, best.t, d), a));
        float end1 = tread_v3_dot(best.normal, tread_v3_sub(tread_v3_mad(p1, best.t, d), a));
        if (tr_minf(end0, end1) >= r - CERTIFY_TOLERANCE) return finish(&best, hit);
    }
    if (!face0)
        for (int i = 0; i < 3; ++i) endpoint_vs_segment(p0, d, v[i], e[i], r, 0.0f, &best);
    if (!face1)
        for (int i = 0; i < 3; ++i) endpoint_vs_segment(p1, d, v[i], e[i], r, 0.0f, &best);
    for (int i = 0; i < 3; ++i) edge_vs_side(p0, S, d, v[i], e[i], r, 0.0f, &best);
    for (int i = 0; i < 3; ++i) vertex_vs_side(v[i], d, p0, S, r, 0.0f, &best);
    return finish(&best, hit);
}

// ---- public entry points ---------------------------------------------------------------------------------------
// The candidate searches above compare their roots with the current bound on paths whose rounding differs, so a
// hit a few ulps below t_max could be missed when t_max sits just above it (found with t_max = 1). Search with a
// bound BOUND_SLACK higher and drop what lands past t_max: the answer then never depends on where the bound falls,
// which is what closest-hit queries rely on (they shrink t_max as they go).
#define BOUND_SLACK 4.0e-6f // in units of t: about 60 ulps at t = 1

#define SWEEP_ENTRY(name, bounded, params, args)                                                                  \
    bool name params {                                                                                             \
        tr_hit h;                                                                                                  \
        if (!bounded args || h.t > t_max) return false;                                                            \
        *hit = h;                                                                                                  \
        return true;                                                                                               \
    }

SWEEP_ENTRY(tr_sweep_capsule_sphere, sweep_capsule_sphere_bounded,
            (tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 center, float radius, float t_max, tr_hit *hit),
            (p0, p1, r, d, center, radius, t_max + BOUND_SLACK, &h))
SWEEP_ENTRY(tr_sweep_capsule_capsule, sweep_capsule_capsule_bounded,
            (tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b, float radius, float t_max, tr_hit *hit),
            (p0, p1, r, d, a, b, radius, t_max + BOUND_SLACK, &h))
SWEEP_ENTRY(tr_sweep_capsule_box, sweep_capsule_box_bounded,
            (tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 half, float t_max, tr_hit *hit),
            (p0, p1, r, d, half, t_max + BOUND_SLACK, NULL, &h))
SWEEP_ENTRY(tr_sweep_capsule_box_apart, sweep_capsule_box_bounded,
            (tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 half, float t_max, const tr_closest *start, tr_hit *hit),
            (p0, p1, r, d, half, t_max + BOUND_SLACK, start, &h))
SWEEP_ENTRY(tr_sweep_capsule_triangle, sweep_capsule_triangle_bounded,
            (tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b, tread_vec3 c, float t_max, tr_hit *hit),
            (p0, p1, r, d, a, b, c, t_max + BOUND_SLACK, false, &h))
SWEEP_ENTRY(tr_sweep_capsule_triangle_apart, sweep_capsule_triangle_bounded,
            (tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b, tread_vec3 c, float t_max, tr_hit *hit),
            (p0, p1, r, d, a, b, c, t_max + BOUND_SLACK, true, &h))
