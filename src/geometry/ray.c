// SPDX-License-Identifier: MIT
// Rays against spheres, capsules, boxes and triangles: the first hit with t in [0, t_max].
// Quadratics are solved in the cancellation-free forms: the discriminant as (|d|^2 r^2 - |m x d|^2) and the
// near root as c / (-b + sqrt(disc)), so far-away origins and long rays keep float precision.
#include "geometry.h"

static tread_vec3 up_axis(void) { return tread_v3(0.0f, 1.0f, 0.0f); }

// A ray that starts inside a solid hits at once, facing back along its motion.
static bool hit_inside(tread_vec3 o, tread_vec3 d, tr_hit *hit) {
    float len = tread_v3_length(d);
    hit->t = 0.0f;
    hit->point = o;
    hit->normal = len > 0.0f ? tread_v3_scale(d, -1.0f / len) : up_axis();
    return true;
}

// Entry time of o + t*d into the sphere (center at o - m, radius r) for an origin outside it; false on a miss.
static bool sphere_entry(tread_vec3 m, tread_vec3 d, float r, float *t) {
    float b = tread_v3_dot(m, d);
    if (!(b < 0.0f)) return false; // moving away (or not moving)
    float c = tread_v3_dot(m, m) - r * r;
    tread_vec3 mxd = tread_v3_cross(m, d);
    float disc = tread_v3_dot(d, d) * r * r - tread_v3_dot(mxd, mxd);
    if (disc < 0.0f) return false;
    *t = tr_maxf(c, 0.0f) / (-b + sqrtf(disc));
    return true;
}

bool tr_ray_sphere(tread_vec3 o, tread_vec3 d, tread_vec3 center, float radius, float t_max, tr_hit *hit) {
    tread_vec3 m = tread_v3_sub(o, center);
    if (tread_v3_length_sq(m) < radius * radius) return hit_inside(o, d, hit);
    float t;
    if (!sphere_entry(m, d, radius, &t) || t > t_max) return false;
    tread_vec3 p = tread_v3_mad(o, t, d);
    tread_vec3 n = tread_v3_normalize(tread_v3_sub(p, center));
    if (!(tread_v3_length_sq(n) > 0.0f)) n = tread_v3_neg(tread_v3_normalize(d)); // zero radius
    hit->t = t;
    hit->normal = n;
    hit->point = tread_v3_mad(center, radius, n);
    return true;
}

bool tr_ray_capsule(tread_vec3 o, tread_vec3 d, tread_vec3 a, tread_vec3 b, float radius, float t_max, tr_hit *hit) {
    tread_vec3 e = tread_v3_sub(b, a), m = tread_v3_sub(o, a);
    float ee = tread_v3_dot(e, e);
    float s0 = ee > 0.0f ? tr_clampf(tread_v3_dot(m, e) / ee, 0.0f, 1.0f) : 0.0f;
    if (tread_v3_length_sq(tread_v3_sub(m, tread_v3_scale(e, s0))) < radius * radius) return hit_inside(o, d, hit);

    float t = -1.0f;
    float s = 0.0f; // axis parameter of the hit
    bool cap = true;
    if (ee > 0.0f) {
        // Side: the infinite cylinder, in components perpendicular to the axis.
        float inv = 1.0f / ee;
        float md = tread_v3_dot(m, e), de = tread_v3_dot(d, e);
        tread_vec3 mp = tread_v3_mad(m, -md * inv, e), dp = tread_v3_mad(d, -de * inv, e);
        float c = tread_v3_dot(mp, mp) - radius * radius;
        if (c > 0.0f) {
            float bq = tread_v3_dot(mp, dp);
            if (!(bq < 0.0f)) return false; // outside the cylinder, moving away from it: misses the caps too
            tread_vec3 x = tread_v3_cross(mp, dp);
            float disc = tread_v3_dot(dp, dp) * radius * radius - tread_v3_dot(x, x);
            if (disc < 0.0f) return false;
            float tc = c / (-bq + sqrtf(disc));
            float sc = (md + tc * de) * inv;
            if (sc >= 0.0f && sc <= 1.0f) {
                t = tc;
                s = sc;
                cap = false;
            } else {
                s = sc < 0.0f ? 0.0f : 1.0f; // entered the cylinder beyond an end: only that cap can be hit
            }
        } else {
            s = md < 0.0f ? 0.0f : 1.0f; // inside the infinite cylinder, beyond an end: that end's cap
        }
    }
    if (cap) {
        tread_vec3 center = tread_v3_mad(a, s, e);
        if (!sphere_entry(tread_v3_sub(o, center), d, radius, &t)) return false;
    }
    if (t > t_max) return false;
    tread_vec3 p = tread_v3_mad(o, t, d);
    tread_vec3 axis_point = tread_v3_mad(a, s, e);
    tread_vec3 n = tread_v3_normalize(tread_v3_sub(p, axis_point));
    if (!(tread_v3_length_sq(n) > 0.0f)) n = tread_v3_neg(tread_v3_normalize(d));
    hit->t = t;
    hit->normal = n;
    hit->point = tread_v3_mad(axis_point, radius, n);
    return true;
}

static float axis_of(tread_vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }

bool tr_ray_box(tread_vec3 o, tread_vec3 d, tread_vec3 half, float t_max, tr_hit *hit) {
    if (fabsf(o.x) < half.x && fabsf(o.y) < half.y && fabsf(o.z) < half.z) return hit_inside(o, d, hit);
    float t_enter = -FLT_MAX, t_exit = FLT_MAX;
    int enter_axis = 0;
    float enter_sign = 1.0f;
    for (int i = 0; i < 3; ++i) {
        float oi = axis_of(o, i), di = axis_of(d, i), h = axis_of(half, i);
        if (di == 0.0f) {
            if (oi < -h || oi > h) return false; // parallel to this slab and outside it
            continue;
        }
        float inv = 1.0f / di;
        float t0 = (-h - oi) * inv, t1 = (h - oi) * inv;
        float sign = -1.0f; // entering through the -h face when moving up
        if (t0 > t1) {
            float tmp = t0;
            t0 = t1;
            t1 = tmp;
            sign = 1.0f;
        }
        if (t0 > t_enter) {
            t_enter = t0;
            enter_axis = i;
            enter_sign = sign;
        }
        t_exit = tr_minf(t_exit, t1);
    }
    if (t_enter > t_exit || t_exit < 0.0f || t_enter > t_max) return false;
    if (t_enter < 0.0f) {
        // Starts on the surface: the face it lies on.
        float best_gap = -FLT_MAX;
        for (int i = 0; i < 3; ++i) {
            float gap = fabsf(axis_of(o, i)) - axis_of(half, i);
            if (gap > best_gap) {
                best_gap = gap;
                enter_axis = i;
                enter_sign = axis_of(o, i) < 0.0f ? -1.0f : 1.0f;
            }
        }
    }
    float t = tr_maxf(t_enter, 0.0f);
    tread_vec3 n = tread_v3(enter_axis == 0 ? enter_sign : 0.0f, enter_axis == 1 ? enter_sign : 0.0f,
                            enter_axis == 2 ? enter_sign : 0.0f);
    tread_vec3 p = tread_v3_mad(o, t, d);
    // Snap onto the face: the slab arithmetic leaves the other coordinates within rounding of the box.
    p = tread_v3(tr_clampf(p.x, -half.x, half.x), tr_clampf(p.y, -half.y, half.y), tr_clampf(p.z, -half.z, half.z));
    if (enter_axis == 0) p.x = enter_sign * half.x;
    if (enter_axis == 1) p.y = enter_sign * half.y;
    if (enter_axis == 2) p.z = enter_sign * half.z;
    hit->t = t;
    hit->normal = n;
    hit->point = p;
    return true;
}

// ---- triangles: the watertight crossing test ------------------------------------------------------------
// Whether the ray's line crosses a triangle is decided as in Woop, Benthin and Wald, "Watertight Ray/Triangle
// Intersection" (JCGT 2013): the corners, taken relative to the origin, are projected along d onto a plane
// (2D coordinates: the two components of (v - o) x d that involve d's largest component, no division), and the
// origin, now at (0, 0), must lie on the same side of the three projected edges (an edge through it counts for
// both sides). Each edge function X_p Y_q - Y_p X_q of the projected corners p, q has the right sign or is zero in
// float (the rounding of its two products is monotonic), and a zero is decided again in double, where the products
// are exact; a corner projects to the same point whichever triangle holds it, and an edge shared by two triangles
// gives them opposite values. So the projected triangles tile the plane around the ray without a gap: a ray through
// a shared edge or vertex crosses at least one of the triangles holding it, whatever its length or start.

// Projected coordinates (x, y) of corner r (relative to the origin): the components of r x d other than component
// kz, kz being d's largest (the first of equals); each is a difference of two products involving d[kz].
static void project(tread_vec3 r, tread_vec3 d, int kz, float *x, float *y) {
    if (kz == 2) {
        *x = r.x * d.z - d.x * r.z;
        *y = r.y * d.z - d.y * r.z;
    } else if (kz == 0) {
        *x = r.y * d.x - d.y * r.x;
        *y = r.z * d.x - d.z * r.x;
    } else {
        *x = r.z * d.y - d.z * r.y;
        *y = r.x * d.y - d.x * r.y;
    }
}

// The sign of x0 y1 - y0 x1 when float gave it as zero: in double, where the products are exact (48 bits) and the
// difference keeps their order. Returned as -1, 0 or 1 (a tiny double could round to a float zero).
static float exact_sign(float x0, float y0, float x1, float y1) {
    double e = (double)x0 * (double)y1 - (double)y0 * (double)x1;
    return e > 0.0 ? 1.0f : (e < 0.0 ? -1.0f : 0.0f);
}

// 1: the line o + s d crosses triangle abc (corners relative to o: ra, rb, rc); 0: it passes outside; -1: the
// triangle projects to a segment or a point along d (d parallel to its plane, or d zero): undecided here.
static int line_crosses(tread_vec3 ra, tread_vec3 rb, tread_vec3 rc, tread_vec3 d) {
    float ax = fabsf(d.x), ay = fabsf(d.y), az = fabsf(d.z);
    int kz = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
    float xa, ya, xb, yb, xc, yc;
    project(ra, d, kz, &xa, &ya);
    project(rb, d, kz, &xb, &yb);
    project(rc, d, kz, &xc, &yc);
    // Edge functions: twice the signed areas of (origin, b, c), (origin, c, a), (origin, a, b).
    float u = xb * yc - yb * xc, v = xc * ya - yc * xa, w = xa * yb - ya * xb;
    if (u == 0.0f || v == 0.0f || w == 0.0f) {
        if (u == 0.0f) u = exact_sign(xb, yb, xc, yc);
        if (v == 0.0f) v = exact_sign(xc, yc, xa, ya);
        if (w == 0.0f) w = exact_sign(xa, ya, xb, yb);
    }
    float lo = tr_minf(u, tr_minf(v, w)), hi = tr_maxf(u, tr_maxf(v, w));
    if (lo < 0.0f && hi > 0.0f) return 0;
    return lo == 0.0f && hi == 0.0f ? -1 : 1;
}

bool tr_ray_triangle(tread_vec3 o, tread_vec3 d, tread_vec3 a, tread_vec3 b, tread_vec3 c, float t_max, tr_hit *hit) {
    tread_vec3 ab = tread_v3_sub(b, a), ac = tread_v3_sub(c, a);
    tread_vec3 n = tread_v3_cross(ab, ac);
    float n_len_sq = tread_v3_dot(n, n);
    if (!(n_len_sq >= TR_DEGENERATE_AREA * TR_DEGENERATE_AREA)) return false;
    tread_vec3 ra = tread_v3_sub(a, o);
    tread_vec3 ao = tread_v3_neg(ra); // o - a, exactly
    float dist = tread_v3_dot(n, ao); // origin's height above the plane, times |n|
    float nd = tread_v3_dot(n, d);
    // Moving toward the plane and reaching it within t_max (a ray in the plane never hits the two-sided face).
    if (dist > 0.0f ? !(nd < 0.0f) : (dist < 0.0f ? !(nd > 0.0f) : false)) return false;
    float t = 0.0f;
    if (dist != 0.0f) {
        t = -dist / nd;
        if (t > t_max) return false;
    }
    int crosses = line_crosses(ra, tread_v3_sub(b, o), tread_v3_sub(c, o), d);
    if (crosses == 0) return false;
    tread_vec3 p = tread_v3_mad(ao, t, d); // relative to a
    // Barycentric coordinates via the sub-triangle areas along n: they place the hit point. Where the crossing test
    // decided, a crossing at an edge may put them a rounding outside the triangle: back onto it.
    float v = tread_v3_dot(n, tread_v3_cross(p, ac));
    float w = tread_v3_dot(n, tread_v3_cross(ab, p));
    if (crosses < 0) {
        if (v < 0.0f || w < 0.0f || v + w > n_len_sq) return false; // decided by them alone
    } else if (v < 0.0f || w < 0.0f || v + w > n_len_sq) {
        v = tr_clampf(v, 0.0f, n_len_sq);
        w = tr_clampf(w, 0.0f, n_len_sq - v);
    }
    float inv_len = 1.0f / sqrtf(n_len_sq);
    tread_vec3 unit = tread_v3_scale(n, inv_len);
    bool front = dist > 0.0f || (dist == 0.0f && nd < 0.0f);
    hit->t = t;
    hit->normal = front ? unit : tread_v3_neg(unit);
    hit->point = tread_v3_add(a, tread_v3_add(tread_v3_scale(ab, v / n_len_sq), tread_v3_scale(ac, w / n_len_sq)));
    return true;
}
