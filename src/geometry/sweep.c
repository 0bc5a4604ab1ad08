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
#include "geometry.h"

// Belt faces of an edge and a core segment whose sine of angle is below this are skipped as parallel (their
// parallelogram is thinner than |S| * 1e-6, inside the endpoint and vertex pieces' coverage to that width).
#define PARALLEL_SINE 1.0e-6f

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

// Slab interval of the ray o + t*d in the box |x_i| <= ext_i. False when it misses the box for every t.
static bool slab_interval(tread_vec3 o, tread_vec3 d, tread_vec3 ext, float *t_enter, float *t_exit, int *enter_axis) {
    float lo = -FLT_MAX, hi = FLT_MAX;
    int axis = -1;
    for (int i = 0; i < 3; ++i) {
        float oi = axis_of(o, i), di = axis_of(d, i), h = axis_of(ext, i);
        if (di == 0.0f) {
            if (oi < -h || oi > h) return false;
            continue;
        }
        float inv = 1.0f / di;
        float t0 = (-h - oi) * inv, t1 = (h - oi) * inv;
        if (t0 > t1) {
            float tmp = t0;
            t0 = t1;
            t1 = tmp;
        }
        if (t0 > lo) {
            lo = t0;
            axis = i;
        }
        hi = tr_minf(hi, t1);
    }
    *t_enter = lo;
    *t_exit = hi;
    *enter_axis = axis;
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
            if (!caps) return false;
            if (md >= 0.0f && md <= ee) { // within r of the segment already (rounding of a touching start)
                *t_best = 0.0f;
                *s_out = md * inv;
                return true;
            }
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
// r_total along their common normal, facing against d.
static void edge_vs_side(tread_vec3 p0, tread_vec3 S, tread_vec3 d, tread_vec3 A, tread_vec3 E, float r_total,
                         float r_shape, sweep_best *best) {
    tread_vec3 c = cross_exact(E, S);
    float len_sq = tread_v3_dot(c, c);
    float scale = PARALLEL_SINE * PARALLEL_SINE * tread_v3_dot(E, E) * tread_v3_dot(S, S);
    if (!(len_sq > scale) || !(len_sq > 0.0f)) return;
    float inv_len = 1.0f / sqrtf(len_sq);
    tread_vec3 n = tread_v3_scale(c, inv_len);
    float nd = tread_v3_dot(n, d);
    if (nd > 0.0f) {
        n = tread_v3_neg(n);
        nd = -nd;
    }
    if (!(nd < 0.0f)) return;
    tread_vec3 pa = tread_v3_sub(p0, A);
    float gap = tread_v3_dot(n, pa) - r_total; // how far the core line is beyond the offset face
    if (gap < 0.0f) return;                    // behind it: not an entry through this face
    float t = gap / -nd;
    if (t > best->t) return;
    // Foot of the core line on the parallelogram plane, w = u*E - v*S.
    tread_vec3 w = tread_v3_mad(tread_v3_mad(pa, t, d), -r_total, n);
    float inv_sq = 1.0f / len_sq;
    float u = tread_v3_dot(tread_v3_cross(w, S), c) * inv_sq;
    float v = tread_v3_dot(tread_v3_cross(w, E), c) * inv_sq;
    if (u < 0.0f || u > 1.0f || v < 0.0f || v > 1.0f) return;
    record(best, t, tread_v3_mad(tread_v3_mad(A, u, E), r_shape, n), n);
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

bool tr_sweep_capsule_sphere(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 center, float radius,
                             float t_max, tr_hit *hit) {
    tr_closest cl;
    tr_closest_segment_point(p0, p1, center, &cl);
    if (cl.distance <= r + radius) return start_hit(&cl, radius, hit);
    // The centre moving by -d against the capsule of radius r + radius (endpoint caps included).
    sweep_best best = {t_max, false, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    tread_vec3 S = tread_v3_sub(p1, p0);
    float t = t_max, s;
    if (!rounded_segment(center, tread_v3_neg(d), p0, S, r + radius, true, &t, &s)) return false;
    tread_vec3 core = tread_v3_mad(tread_v3_mad(p0, s, S), t, d);
    tread_vec3 n = direction_or(core, center, tread_v3_neg(d));
    record(&best, t, tread_v3_mad(center, radius, n), n);
    return finish(&best, hit);
}

bool tr_sweep_capsule_capsule(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b,
                              float radius, float t_max, tr_hit *hit) {
    tr_closest cl;
    tr_closest_segment_segment(p0, p1, a, b, &cl);
    if (cl.distance <= r + radius) return start_hit(&cl, radius, hit);
    sweep_best best = {t_max, false, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    tread_vec3 S = tread_v3_sub(p1, p0), W = tread_v3_sub(b, a);
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
static void endpoint_vs_box(tread_vec3 o, tread_vec3 d, tread_vec3 h, float r, sweep_best *best) {
    float t_enter, t_exit;
    int axis;
    tread_vec3 grown = tread_v3(h.x + r, h.y + r, h.z + r);
    if (!slab_interval(o, d, grown, &t_enter, &t_exit, &axis)) return;
    if (t_exit < 0.0f || t_enter > best->t) return;
    float t = tr_maxf(t_enter, 0.0f);
    tread_vec3 p = tread_v3_mad(o, t, d);
    float corner[3];
    int outside = 0, inside_axis = 0;
    for (int i = 0; i < 3; ++i) {
        float pi = axis_of(p, i), hi = axis_of(h, i);
        corner[i] = pi < 0.0f ? -hi : hi;
        if (pi > hi || pi < -hi)
            ++outside;
        else
            inside_axis = i;
    }
    if (outside <= 1) {
        // Face region. An origin already inside (rounding of a touching start) takes its deepest face.
        if (t_enter < 0.0f || axis < 0) {
            float best_gap = -FLT_MAX;
            for (int i = 0; i < 3; ++i) {
                float gap = fabsf(axis_of(o, i)) - axis_of(h, i);
                if (gap > best_gap) {
                    best_gap = gap;
                    axis = i;
                }
            }
        }
        tread_vec3 n = unit_axis(axis, axis_of(p, axis) < 0.0f ? -1.0f : 1.0f);
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

bool tr_sweep_capsule_box(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 half, float t_max,
                          tr_hit *hit) {
    tread_vec3 S = tread_v3_sub(p1, p0);
    tread_vec3 mid = tread_v3_mad(p0, 0.5f, S);
    tread_vec3 aS = tread_v3_abs(S);

    // Early out: the core's midpoint against the box grown by r and by the core's half extent.
    tread_vec3 reach = tread_v3(half.x + r + 0.5f * aS.x, half.y + r + 0.5f * aS.y, half.z + r + 0.5f * aS.z);
    float t_enter, t_exit;
    int axis;
    if (!slab_interval(mid, d, reach, &t_enter, &t_exit, &axis)) return false;
    if (t_exit < 0.0f || t_enter > t_max) return false;
    if (t_enter <= 0.0f) {
        // Within reach at the start: the capsule may already touch (a precondition breach; report t = 0).
        tr_closest cl;
        tr_closest_segment_box(p0, p1, half, &cl);
        if (cl.distance <= r) return start_hit(&cl, 0.0f, hit);
    }

    sweep_best best = {t_max, false, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    endpoint_vs_box(p0, d, half, r, &best);
    if (is_point(S)) return finish(&best, hit);
    endpoint_vs_box(p1, d, half, r, &best);

    // Belt: the box's silhouette seen along S (a hexagon: three slabs with normals axis x S) grown by r. Its slab
    // entry bounds every belt piece; a miss or a late entry skips them all.
    tread_vec3 normals[3];
    bool valid[3];
    float belt_enter = -FLT_MAX, belt_exit = FLT_MAX;
    float s_len = tread_v3_length(S);
    for (int i = 0; i < 3; ++i) {
        tread_vec3 c = tread_v3_cross(unit_axis(i, 1.0f), S); // exact: components of S
        float len = tread_v3_length(c);
        valid[i] = len > PARALLEL_SINE * s_len;
        if (!valid[i]) continue;
        tread_vec3 n = tread_v3_scale(c, 1.0f / len);
        normals[i] = n;
        float ext = fabsf(n.x) * half.x + fabsf(n.y) * half.y + fabsf(n.z) * half.z + r;
        float x0 = tread_v3_dot(n, p0), xd = tread_v3_dot(n, d);
        if (xd == 0.0f) {
            if (x0 < -ext || x0 > ext) return finish(&best, hit);
            continue;
        }
        float t0 = (-ext - x0) / xd, t1 = (ext - x0) / xd;
        if (t0 > t1) {
            float tmp = t0;
            t0 = t1;
            t1 = tmp;
        }
        belt_enter = tr_maxf(belt_enter, t0);
        belt_exit = tr_minf(belt_exit, t1);
    }
    if (belt_enter > belt_exit || belt_exit < 0.0f || belt_enter > best.t) return finish(&best, hit);

    // Belt faces: per axis, the box edge extreme along the face normal that faces against d. A normal component
    // of exactly zero (S parallel to a face) ties two edges; the one leading along -S keeps the cover complete.
    const float hv[3] = {half.x, half.y, half.z};
    const float sv[3] = {S.x, S.y, S.z};
    for (int i = 0; i < 3; ++i) {
        if (!valid[i]) continue;
        tread_vec3 n = normals[i];
        if (tread_v3_dot(n, d) > 0.0f) n = tread_v3_neg(n);
        float a[3];
        for (int j = 0; j < 3; ++j) {
            float nj = axis_of(n, j);
            a[j] = nj > 0.0f ? hv[j] : (nj < 0.0f ? -hv[j] : (sv[j] > 0.0f ? -hv[j] : hv[j]));
        }
        a[i] = -hv[i];
        edge_vs_side(p0, S, d, tread_v3(a[0], a[1], a[2]), unit_axis(i, 2.0f * hv[i]), r, 0.0f, &best);
    }

    // Vertex piece: only the silhouette corner nearest the core line where it enters the grown hexagon can be
    // first (inside a corner's wedge the nearest polygon point is that corner). Nearest in projection along S:
    // minimise |(v - q)_perp|^2 = |h|^2 - (v.s)^2 - 2 v.q_perp + const over the sign patterns of v.
    tread_vec3 q = tread_v3_mad(p0, tr_maxf(belt_enter, 0.0f), d);
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

// Endpoint piece for a triangle: the sphere o (radius r) against the triangle rounded by r: the offset face on
// o's side (contact interior to the triangle), else the three edge capsules.
static void endpoint_vs_triangle(tread_vec3 o, tread_vec3 d, const tread_vec3 v[3], const tread_vec3 e[3],
                                 tread_vec3 n, float r, sweep_best *best) {
    float height = tread_v3_dot(n, tread_v3_sub(o, v[0]));
    float nd = tread_v3_dot(n, d);
    tread_vec3 side = height >= 0.0f ? n : tread_v3_neg(n);
    float above = fabsf(height) - r, closing = height >= 0.0f ? -nd : nd;
    if (above >= 0.0f && closing > 0.0f) {
        float t = above / closing;
        if (t > best->t) return; // the face is the first contact with the rounded triangle's slab
        tread_vec3 q = tread_v3_mad(tread_v3_mad(o, t, d), -r, side);
        // Inside the triangle: each edge's inward side (same-side test against n).
        bool inside = true;
        for (int i = 0; i < 3; ++i)
            if (tread_v3_dot(tread_v3_cross(e[i], tread_v3_sub(q, v[i])), n) < 0.0f) inside = false;
        if (inside) {
            record(best, t, q, side);
            return; // entering through the face is the first contact of this rounded triangle
        }
    }
    for (int i = 0; i < 3; ++i) endpoint_vs_segment(o, d, v[i], e[i], r, 0.0f, best);
}

bool tr_sweep_capsule_triangle(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, tread_vec3 a, tread_vec3 b,
                               tread_vec3 c, float t_max, tr_hit *hit) {
    const tread_vec3 v[3] = {a, b, c};
    const tread_vec3 e[3] = {tread_v3_sub(b, a), tread_v3_sub(c, b), tread_v3_sub(a, c)};
    tread_vec3 n = cross_exact(e[0], tread_v3_neg(e[2]));
    float twice_area = tread_v3_length(n);
    if (!(twice_area >= TR_DEGENERATE_AREA)) return false;
    n = tread_v3_scale(n, 1.0f / twice_area);

    tread_vec3 S = tread_v3_sub(p1, p0);
    tread_vec3 mid = tread_v3_mad(p0, 0.5f, S);
    tread_vec3 aS = tread_v3_abs(S);

    // Early out: the core's midpoint against the triangle's bounding box grown by r and the core's half extent.
    tread_vec3 lo = tread_v3_min(a, tread_v3_min(b, c)), hi = tread_v3_max(a, tread_v3_max(b, c));
    tread_vec3 centre = tread_v3_scale(tread_v3_add(lo, hi), 0.5f);
    tread_vec3 reach = tread_v3_add(tread_v3_scale(tread_v3_sub(hi, lo), 0.5f),
                                    tread_v3(r + 0.5f * aS.x, r + 0.5f * aS.y, r + 0.5f * aS.z));
    float t_enter, t_exit;
    int axis;
    if (!slab_interval(tread_v3_sub(mid, centre), d, reach, &t_enter, &t_exit, &axis)) return false;
    if (t_exit < 0.0f || t_enter > t_max) return false;
    float h0 = tread_v3_dot(n, tread_v3_sub(p0, a)), h1 = tread_v3_dot(n, tread_v3_sub(p1, a));
    if (t_enter <= 0.0f && !(h0 > r && h1 > r) && !(h0 < -r && h1 < -r)) {
        // Within reach of the plane at the start: it may already touch (a precondition breach; report t = 0).
        tr_closest cl;
        if (tr_closest_segment_triangle(p0, p1, a, b, c, &cl) && cl.distance <= r) return start_hit(&cl, 0.0f, hit);
    }

    sweep_best best = {t_max, false, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    endpoint_vs_triangle(p0, d, v, e, n, r, &best);
    if (is_point(S)) return finish(&best, hit);
    endpoint_vs_triangle(p1, d, v, e, n, r, &best);
    for (int i = 0; i < 3; ++i) edge_vs_side(p0, S, d, v[i], e[i], r, 0.0f, &best);
    for (int i = 0; i < 3; ++i) vertex_vs_side(v[i], d, p0, S, r, 0.0f, &best);
    return finish(&best, hit);
}
