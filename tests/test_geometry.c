// SPDX-License-Identifier: MIT
// Exactness tests for the geometric primitives: rays, capsule sweeps and closest points against a slow,
// obviously-correct reference in double on thousands of deterministic random cases, plus feature tests.
//
// The reference: the distance from the moving core segment to the primitive's core (a point, a segment, the
// solid box, the triangle) is convex in the segment parameter and in time, so golden-section search finds its
// minimum over the segment, golden-section over time finds the closest approach, and bisection on the
// decreasing part finds the first time it reaches the summed radii. The point-triangle distance under it and the
// closest-point references are closest_reference.h's, algorithms the library does not use; the closest points are
// checked against a certified bracket of the true minimum, from above and from below.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "closest_reference.h"
#include "geometry/box.h"
#include "geometry/geometry.h"

// Random cases per pair (the whole program: about 6 s at -O2, 11 s under address/undefined sanitizers).
#ifndef CASES
#define CASES 10000
#endif

// ---- accuracy requirements (metres unless stated) ------------------------------------------------------
#define TOI_TOLERANCE 1.0e-4         // |t - t_ref| * |d| for casts up to LONG_CAST
#define TOI_RELATIVE_TOLERANCE 1.0e-5 // |t - t_ref| for casts longer than that (fraction of the cast)
#define LONG_CAST 10.0
#define GRAZING_BAND 1.0e-5          // a reference minimum this close to the radius is a true tie
#define SURFACE_TOLERANCE 1.0e-4     // contact point to the primitive's surface and to the capsule
#define NORMAL_COS 0.999             // cosine between the returned normal and the geometric one
#define DISTANCE_TOLERANCE 2.0e-5    // closest-point distances
#define BELOW_MINIMUM_TOLERANCE 1.0e-6 // a closest distance below the true minimum: float rounding of coordinates within 8 m (ulp 9.5e-7)
#define DEPTH_TOLERANCE 1.0e-4       // penetration depth vs the brute-force minimum (plus DEPTH_RELATIVE)
#define DEPTH_RELATIVE 1.0e-3
#define REF_SLOP 1.0e-9              // contact threshold slack, so a ray grazing a flat triangle still registers

// ---- deterministic random numbers ------------------------------------------------------------------
static uint64_t rng_state;
static uint64_t splitmix64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)(splitmix64() >> 11) * (1.0 / 9007199254740992.0); }
static int pick(int n) { return (int)(splitmix64() % (uint64_t)n); }
static float uf(double lo, double hi) { return (float)uniform(lo, hi); }
static tread_vec3 random_in_box(float ext) { return tread_v3(uf(-ext, ext), uf(-ext, ext), uf(-ext, ext)); }
static tread_vec3 random_dir(void) {
    for (;;) {
        tread_vec3 v = random_in_box(1.0f);
        float l = tread_v3_length(v);
        if (l > 0.1f && l <= 1.0f) return tread_v3_scale(v, 1.0f / l);
    }
}

// ---- double vectors for the reference ---------------------------------------------------------------------
typedef cref_v3 dv;
static dv dvec(tread_vec3 v) { dv r = {v.x, v.y, v.z}; return r; }
static dv dmake(double x, double y, double z) { dv r = {x, y, z}; return r; }
static dv dadd(dv a, dv b) { return dmake(a.x + b.x, a.y + b.y, a.z + b.z); }
static dv dsub(dv a, dv b) { return dmake(a.x - b.x, a.y - b.y, a.z - b.z); }
static dv dscale(dv a, double s) { return dmake(a.x * s, a.y * s, a.z * s); }
static dv dmad(dv a, double s, dv b) { return dmake(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static double ddot(dv a, dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dv dcross(dv a, dv b) { return dmake(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static double dlen(dv a) { return sqrt(ddot(a, a)); }
static double dclamp(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }

// ---- primitives and the reference distance --------------------------------------------------------------
enum { PRIM_SPHERE, PRIM_CAPSULE, PRIM_BOX, PRIM_TRIANGLE, PRIM_COUNT };
static const char *const prim_names[PRIM_COUNT] = {"sphere", "capsule", "box", "triangle"};
typedef struct prim {
    int kind;
    tread_vec3 a, b, c; // sphere centre a; capsule core a-b; triangle abc
    tread_vec3 half;    // box
    float radius;       // sphere and capsule
} prim;

// Closest point of the primitive's core (point, segment, solid box, triangle) to p.
static dv core_closest(const prim *P, dv p) {
    switch (P->kind) {
    case PRIM_SPHERE: return dvec(P->a);
    case PRIM_CAPSULE: return cref_point_segment(p, dvec(P->a), dvec(P->b));
    case PRIM_BOX:
        return dmake(dclamp(p.x, -P->half.x, P->half.x), dclamp(p.y, -P->half.y, P->half.y), dclamp(p.z, -P->half.z, P->half.z));
    default: return cref_point_triangle(p, dvec(P->a), dvec(P->b), dvec(P->c));
    }
}
static double core_dist(const prim *P, dv p) { return dlen(dsub(p, core_closest(P, p))); }
// Signed for the solid box (minus the depth inside), so a ray through the box is not mistaken for a graze.
static double core_signed_dist(const prim *P, dv p) {
    if (P->kind == PRIM_BOX) {
        double inside = fmin(fmin(P->half.x - fabs(p.x), P->half.y - fabs(p.y)), P->half.z - fabs(p.z));
        if (inside > 0.0) return -inside;
    }
    return core_dist(P, p);
}
static double prim_radius(const prim *P) { return P->kind == PRIM_SPHERE || P->kind == PRIM_CAPSULE ? P->radius : 0.0; }

// Golden-section minimum of a convex function on [lo, hi] (ends included).
typedef double (*scalar_fn)(const void *ctx, double x);
static double golden_min(scalar_fn f, const void *ctx, double lo, double hi, int iterations, double *arg) {
    const double g = 0.6180339887498949;
    double a = lo, b = hi;
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    double f1 = f(ctx, x1), f2 = f(ctx, x2);
    for (int i = 0; i < iterations; ++i) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = f(ctx, x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = f(ctx, x2);
        }
    }
    double best = f1, best_x = x1;
    if (f2 < best) best = f2, best_x = x2;
    double flo = f(ctx, lo), fhi = f(ctx, hi);
    if (flo <= best) best = flo, best_x = lo;
    if (fhi < best) best = fhi, best_x = hi;
    *arg = best_x;
    return best;
}

// The moving core segment p0 + s*S + t*d against the primitive.
typedef struct motion {
    const prim *P;
    dv p0, S, d;
    double t; // time, for the inner search over s
} motion;

static double dist_at_s(const void *ctx, double s) {
    const motion *m = ctx;
    return core_signed_dist(m->P, dmad(dmad(m->p0, s, m->S), m->t, m->d));
}
// Distance from the core segment at time t to the primitive core, and the segment parameter of the minimum.
static double segment_dist(const motion *m, double t, double *s_arg) {
    motion at = *m;
    at.t = t;
    if (ddot(m->S, m->S) == 0.0) {
        *s_arg = 0.0;
        return dist_at_s(&at, 0.0);
    }
    return golden_min(dist_at_s, &at, 0.0, 1.0, 40, s_arg);
}
static double dist_at_t(const void *ctx, double t) {
    double s;
    return segment_dist(ctx, t, &s);
}

typedef struct ref_toi {
    bool hit;
    double t;     // first contact
    double f0;    // distance at t = 0
    double f_min; // closest approach over [0, t_max]
    double t_min;
} ref_toi;

static void reference_min(const motion *m, double t_max, ref_toi *out) {
    double s;
    out->f0 = segment_dist(m, 0.0, &s);
    out->f_min = out->f0;
    out->t_min = 0.0;
    if (ddot(m->d, m->d) > 0.0 && t_max > 0.0) out->f_min = golden_min(dist_at_t, m, 0.0, t_max, 60, &out->t_min);
}

static ref_toi reference_toi(const motion *m, double radius_sum, double t_max) {
    ref_toi ref;
    reference_min(m, t_max, &ref);
    double contact = radius_sum + REF_SLOP;
    ref.hit = false;
    ref.t = 0.0;
    if (ref.f0 <= contact) {
        ref.hit = true;
        return ref;
    }
    if (ref.f_min > contact) return ref;
    double lo = 0.0, hi = ref.t_min;
    for (int i = 0; i < 64; ++i) {
        double mid = 0.5 * (lo + hi);
        if (dist_at_t(m, mid) <= contact)
            hi = mid;
        else
            lo = mid;
    }
    ref.hit = true;
    ref.t = hi;
    return ref;
}

// ---- random scenes --------------------------------------------------------------------------------------
static prim random_prim(int kind) {
    prim P = {kind, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 0.0f};
    switch (kind) {
    case PRIM_SPHERE:
        P.a = random_in_box(1.0f);
        P.radius = uf(0.05, 2.0);
        break;
    case PRIM_CAPSULE:
        P.a = random_in_box(2.0f);
        P.b = pick(10) == 0 ? P.a : tread_v3_mad(P.a, uf(0.0, 3.0), pick(4) == 0 ? tread_v3(0, 1, 0) : random_dir());
        P.radius = uf(0.05, 1.5);
        break;
    case PRIM_BOX:
        P.half = tread_v3(uf(0.05, 3.0), uf(0.05, 3.0), uf(0.05, 3.0));
        if (pick(10) == 0) P.half.y = 0.002f;
        break;
    default:
        P.a = random_in_box(3.0f);
        P.b = random_in_box(3.0f);
        P.c = random_in_box(3.0f);
        break;
    }
    return P;
}

// A random point in or near the primitive.
static tread_vec3 near_point(const prim *P, float margin) {
    switch (P->kind) {
    case PRIM_SPHERE: return tread_v3_add(P->a, random_in_box(P->radius + margin));
    case PRIM_CAPSULE:
        return tread_v3_add(tread_v3_lerp(P->a, P->b, uf(0.0, 1.0)), random_in_box(P->radius + margin));
    case PRIM_BOX:
        return tread_v3(uf(-P->half.x - margin, P->half.x + margin), uf(-P->half.y - margin, P->half.y + margin),
                        uf(-P->half.z - margin, P->half.z + margin));
    default: {
        float u = uf(0.0, 1.0), v = uf(0.0, 1.0);
        if (u + v > 1.0f) u = 1.0f - u, v = 1.0f - v;
        tread_vec3 x = tread_v3_add(P->a, tread_v3_add(tread_v3_scale(tread_v3_sub(P->b, P->a), u), tread_v3_scale(tread_v3_sub(P->c, P->a), v)));
        return tread_v3_add(x, random_in_box(margin));
    }
    }
}

// A point inside the solid primitive (sphere, capsule, box).
static tread_vec3 inside_point(const prim *P) {
    switch (P->kind) {
    case PRIM_SPHERE: return tread_v3_mad(P->a, P->radius * uf(0.0, 0.9), random_dir());
    case PRIM_CAPSULE: return tread_v3_mad(tread_v3_lerp(P->a, P->b, uf(0.0, 1.0)), P->radius * uf(0.0, 0.9), random_dir());
    default: return tread_v3(uf(-0.9, 0.9) * P->half.x, uf(-0.9, 0.9) * P->half.y, uf(-0.9, 0.9) * P->half.z);
    }
}

enum { Q_RAY, Q_SPHERE, Q_CAPSULE, Q_COUNT };
static const char *const query_names[Q_COUNT] = {"ray", "sphere", "capsule"};

enum {
    CAT_GENERAL,
    CAT_GRAZING,
    CAT_TOUCHING,
    CAT_INSIDE,
    CAT_ZERO_MOTION,
    CAT_LONG,
    CAT_PARALLEL,
    CAT_DEGENERATE,
    CAT_CHARACTER,
    CAT_COUNT
};

typedef struct cast_case {
    prim P;
    tread_vec3 p0, p1, d;
    float r, t_max;
    int category;
} cast_case;

static tread_vec3 triangle_edge(const prim *P, int i) {
    tread_vec3 v[3] = {P->a, P->b, P->c};
    return tread_v3_sub(v[(i + 1) % 3], v[i]);
}

// A triangle of exactly zero area: a repeated corner, or three corners on one axis-aligned line (so the float
// cross product is exactly zero, not rounding noise).
static prim degenerate_triangle(void) {
    prim P = random_prim(PRIM_TRIANGLE);
    if (pick(3) == 0) {
        P.c = pick(2) ? P.a : P.b;
        return P;
    }
    int axis = pick(3);
    tread_vec3 base = random_in_box(3.0f);
    tread_vec3 corners[3];
    for (int i = 0; i < 3; ++i) {
        float x = uf(-3.0, 3.0);
        corners[i] = tread_v3(axis == 0 ? x : base.x, axis == 1 ? x : base.y, axis == 2 ? x : base.z);
    }
    P.a = corners[0];
    P.b = corners[1];
    P.c = corners[2];
    return P;
}

static cast_case random_cast(int q, int kind, int index) {
    cast_case k;
    static const int mix[16] = {CAT_GENERAL, CAT_GENERAL,  CAT_GENERAL,  CAT_GENERAL,   CAT_GENERAL, CAT_GRAZING,
                                CAT_GRAZING, CAT_TOUCHING, CAT_INSIDE,   CAT_ZERO_MOTION, CAT_LONG,  CAT_PARALLEL,
                                CAT_PARALLEL, CAT_CHARACTER, CAT_DEGENERATE, CAT_GRAZING};
    k.category = mix[index % 16];
    k.P = random_prim(kind);
    if (k.category == CAT_DEGENERATE) {
        if (kind == PRIM_TRIANGLE) {
            k.P = degenerate_triangle();
        } else {
            k.category = CAT_GENERAL;
        }
    }
    k.r = q == Q_RAY ? 0.0f : uf(0.05, 1.0);
    tread_vec3 S = tread_v3_zero();
    if (q == Q_CAPSULE) {
        int shape = pick(10);
        S = shape < 3 ? tread_v3(0.0f, uf(0.2, 2.0), 0.0f) : (shape == 3 ? tread_v3_zero() : tread_v3_scale(random_dir(), uf(0.0, 2.5)));
    }
    tread_vec3 target = near_point(&k.P, 1.0f);
    k.p0 = tread_v3_sub(tread_v3_mad(target, uf(k.r + 0.3, 6.0), random_dir()), tread_v3_scale(S, 0.5f));
    tread_vec3 aim = near_point(&k.P, 0.5f);
    k.d = tread_v3_add(tread_v3_scale(tread_v3_sub(aim, tread_v3_mad(k.p0, 0.5f, S)), uf(0.6, 2.0)), random_in_box(0.3f));
    k.t_max = pick(4) == 0 ? uf(0.2, 1.0) : 1.0f;

    if (k.category == CAT_PARALLEL) {
        // Core or motion parallel to primitive features.
        int which = pick(3);
        if (kind == PRIM_BOX) {
            tread_vec3 ax = pick(3) == 0 ? tread_v3(1, 0, 0) : (pick(2) ? tread_v3(0, 1, 0) : tread_v3(0, 0, 1));
            if (which != 1 && q == Q_CAPSULE) S = tread_v3_scale(ax, uf(0.2, 3.0));
            if (which != 0) k.d = tread_v3_reject(k.d, ax); // motion parallel to the faces normal to ax
        } else if (kind == PRIM_TRIANGLE) {
            tread_vec3 edge = triangle_edge(&k.P, pick(3));
            tread_vec3 n = tr_triangle_normal(k.P.a, k.P.b, k.P.c);
            if (q == Q_CAPSULE) S = which == 2 ? tread_v3_scale(tread_v3_reject(random_dir(), n), uf(0.2, 2.0)) : tread_v3_scale(edge, uf(-1.0, 1.0));
            if (which != 0) k.d = tread_v3_reject(k.d, n);
        } else if (kind == PRIM_CAPSULE) {
            tread_vec3 w = tread_v3_sub(k.P.b, k.P.a);
            if (q == Q_CAPSULE) S = tread_v3_scale(w, uf(-1.0, 1.0));
            if (which != 0 && tread_v3_length_sq(w) > 0.0f) k.d = tread_v3_reject(k.d, tread_v3_normalize(w));
        } else if (q == Q_CAPSULE) {
            S = tread_v3_scale(tread_v3_normalize(k.d), uf(0.2, 2.0)); // core along the motion
        }
        k.p0 = tread_v3_sub(tread_v3_mad(target, uf(k.r + 0.3, 4.0), random_dir()), tread_v3_scale(S, 0.5f));
    }
    if (k.category == CAT_CHARACTER) {
        // A character-like move: an upright core 0.2-1.2 m long within a metre of the primitive, a step of up to 1 m.
        if (q == Q_CAPSULE) S = tread_v3(0.0f, uf(0.2, 1.2), 0.0f);
        k.r = q == Q_RAY ? 0.0f : uf(0.2, 0.5);
        tread_vec3 spot = near_point(&k.P, k.r + 1.0f);
        k.p0 = tread_v3_sub(spot, tread_v3_scale(S, uf(0.0, 1.0)));
        k.d = tread_v3_scale(random_dir(), uf(0.05, 1.0));
        // A ground probe: straight down (or up) along the core, the sweep's leading-ball case.
        if (pick(3) == 0) k.d = tread_v3(0.0f, pick(4) == 0 ? uf(0.05, 1.0) : -uf(0.05, 1.0), 0.0f);
    }
    if (k.category == CAT_ZERO_MOTION) k.d = tread_v3_zero();
    if (k.category == CAT_LONG) {
        tread_vec3 dir = random_dir();
        k.d = tread_v3_scale(dir, 1000.0f);
        k.p0 = tread_v3_sub(tread_v3_mad(aim, -uf(300.0, 700.0), dir), tread_v3_scale(S, 0.5f));
    }
    k.p1 = tread_v3_add(k.p0, S);

    motion m = {&k.P, dvec(k.p0), dvec(tread_v3_sub(k.p1, k.p0)), dvec(k.d), 0.0};
    double R = prim_radius(&k.P);
    if (q != Q_RAY && (k.category == CAT_GRAZING || k.category == CAT_TOUCHING || k.category == CAT_INSIDE)) {
        // Set the capsule radius from the reference distances: a closest approach within +-2 um of touching,
        // an exact touching start, or a start overlapping by 1-30 cm.
        ref_toi ref;
        reference_min(&m, k.t_max, &ref);
        double r = k.category == CAT_GRAZING ? ref.f_min - R + uniform(-2.0e-6, 2.0e-6)
                   : k.category == CAT_TOUCHING ? ref.f0 - R
                                                : ref.f0 - R + uniform(0.01, 0.3);
        if (r > 0.01 && r < 3.0)
            k.r = (float)r;
        else
            k.category = CAT_GENERAL;
    } else if (q == Q_RAY && k.category == CAT_INSIDE && kind != PRIM_TRIANGLE) {
        k.p0 = k.p1 = inside_point(&k.P);
    } else if (k.category == CAT_GRAZING || k.category == CAT_TOUCHING || k.category == CAT_INSIDE) {
        k.category = CAT_GENERAL;
    }
    return k;
}

static bool cast(int q, const cast_case *k, tr_hit *hit) {
    const prim *P = &k->P;
    if (q == Q_RAY) {
        switch (P->kind) {
        case PRIM_SPHERE: return tr_ray_sphere(k->p0, k->d, P->a, P->radius, k->t_max, hit);
        case PRIM_CAPSULE: return tr_ray_capsule(k->p0, k->d, P->a, P->b, P->radius, k->t_max, hit);
        case PRIM_BOX: return tr_ray_box(k->p0, k->d, P->half, k->t_max, hit);
        default: return tr_ray_triangle(k->p0, k->d, P->a, P->b, P->c, k->t_max, hit);
        }
    }
    switch (P->kind) {
    case PRIM_SPHERE: return tr_sweep_capsule_sphere(k->p0, k->p1, k->r, k->d, P->a, P->radius, k->t_max, hit);
    case PRIM_CAPSULE: return tr_sweep_capsule_capsule(k->p0, k->p1, k->r, k->d, P->a, P->b, P->radius, k->t_max, hit);
    case PRIM_BOX: return tr_sweep_capsule_box(k->p0, k->p1, k->r, k->d, P->half, k->t_max, hit);
    default: return tr_sweep_capsule_triangle(k->p0, k->p1, k->r, k->d, P->a, P->b, P->c, k->t_max, hit);
    }
}

static void print_case(const char *what, int q, const cast_case *k, bool hit, const tr_hit *h, const ref_toi *ref) {
    const prim *P = &k->P;
    fprintf(stderr,
            "FAIL %s: %s vs %s cat %d\n  p0 (%.9g %.9g %.9g) p1 (%.9g %.9g %.9g) r %.9g d (%.9g %.9g %.9g) t_max %.9g\n"
            "  prim a (%.9g %.9g %.9g) b (%.9g %.9g %.9g) c (%.9g %.9g %.9g) half (%.9g %.9g %.9g) radius %.9g\n"
            "  lib hit %d t %.9g point (%.6g %.6g %.6g) normal (%.6g %.6g %.6g)\n  ref hit %d t %.9g f0 %.9g f_min %.9g\n",
            what, query_names[q], prim_names[P->kind], k->category, k->p0.x, k->p0.y, k->p0.z, k->p1.x, k->p1.y, k->p1.z,
            k->r, k->d.x, k->d.y, k->d.z, k->t_max, P->a.x, P->a.y, P->a.z, P->b.x, P->b.y, P->b.z, P->c.x, P->c.y,
            P->c.z, P->half.x, P->half.y, P->half.z, P->radius, hit, h->t, h->point.x, h->point.y, h->point.z,
            h->normal.x, h->normal.y, h->normal.z, ref->hit, ref->t, ref->f0, ref->f_min);
}

typedef struct cast_stats {
    int cases, hits, misses, ties, start_hits, degenerate, long_casts, failures;
    double max_error;      // |t - t_ref| * |d|, casts up to LONG_CAST
    double max_tie_error;  // the same for grazing ties (ill-conditioned t)
    double max_rel_error;  // |t - t_ref|, longer casts
    double max_surface;    // contact point off the surfaces
    double min_normal_cos; // returned normal vs the geometric one
} cast_stats;

// The contact's geometry at the returned time: unit normal from primitive to capsule, point on the primitive's
// surface and at distance r from the core.
static double check_contact(int q, const cast_case *k, const tr_hit *h, cast_stats *st) {
    const prim *P = &k->P;
    dv point = dvec(h->point), n = dvec(h->normal);
    double worst = fabs(dlen(n) - 1.0);
    // On the primitive's surface.
    double R = prim_radius(P);
    dv core = core_closest(P, point);
    double off = fabs(dlen(dsub(point, core)) - R);
    if (P->kind == PRIM_BOX) {
        double inside_gap = fmin(fmin(P->half.x - fabs(point.x), P->half.y - fabs(point.y)), P->half.z - fabs(point.z));
        off = fmax(off, fabs(inside_gap) * (inside_gap > 0.0 ? 1.0 : 0.0));
    }
    worst = fmax(worst, off);
    // At distance r from the core at time t.
    dv p0 = dmad(dvec(k->p0), h->t, dvec(k->d)), p1 = dmad(dvec(k->p1), h->t, dvec(k->d));
    dv on_core = cref_point_segment(point, p0, p1);
    worst = fmax(worst, fabs(dlen(dsub(on_core, point)) - k->r));
    st->max_surface = fmax(st->max_surface, worst);
    // Normal direction: along the capsule's radius when it has one, else the primitive's outward normal.
    double cosine = 1.0;
    if (k->r > 0.0f) {
        dv v = dsub(on_core, point);
        if (dlen(v) > 0.0) cosine = ddot(n, v) / dlen(v);
    } else if (R > 0.0) {
        dv v = dsub(point, core);
        if (dlen(v) > 0.0) cosine = ddot(n, v) / dlen(v);
    } else if (P->kind == PRIM_TRIANGLE) {
        dv tn = dcross(dsub(dvec(P->b), dvec(P->a)), dsub(dvec(P->c), dvec(P->a)));
        cosine = fabs(ddot(n, tn)) / dlen(tn);
        if (ddot(n, dvec(k->d)) > 1e-6 * dlen(dvec(k->d))) cosine = -1.0; // must face the ray's origin side
    } else {
        cosine = fmax(fmax(fabs(n.x), fabs(n.y)), fabs(n.z)); // a face normal
        if (ddot(n, dvec(k->d)) > 1e-6 * dlen(dvec(k->d))) cosine = -1.0;
    }
    (void)q;
    st->min_normal_cos = fmin(st->min_normal_cos, cosine);
    return cosine < NORMAL_COS ? 1.0 : worst;
}

// How far inside the triangle's edges (in its plane) a ray crosses the plane within [0, t_max]; negative outside,
// large when it does not reach the plane.
static double ray_triangle_margin(const cast_case *k) {
    dv a = dvec(k->P.a), b = dvec(k->P.b), c = dvec(k->P.c), o = dvec(k->p0), d = dvec(k->d);
    dv n = dcross(dsub(b, a), dsub(c, a));
    double nd = ddot(n, d);
    if (nd == 0.0) return 1.0;
    double t = -ddot(n, dsub(o, a)) / nd;
    if (t < 0.0 || t > k->t_max) return fmin(fabs(t) , fabs(t - k->t_max)) * dlen(d);
    dv x = dmad(o, t, d), v[3] = {a, b, c};
    double margin = 1e30;
    for (int i = 0; i < 3; ++i) {
        dv e = dsub(v[(i + 1) % 3], v[i]);
        margin = fmin(margin, ddot(dcross(e, dsub(x, v[i])), n) / (dlen(e) * dlen(n)));
    }
    return fabs(margin);
}

static void run_casts(int q, int kind, uint64_t seed) {
    rng_state = seed;
    cast_stats st = {0, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 1.0};
    for (int i = 0; i < CASES; ++i) {
        cast_case k = random_cast(q, kind, i);
        tr_hit h = {-1.0f, {0, 0, 0}, {0, 0, 0}};
        bool hit = cast(q, &k, &h);
        ++st.cases;
        if (k.category == CAT_DEGENERATE) {
            ++st.degenerate;
            if (hit) {
                ref_toi none = {0};
                print_case("degenerate triangle hit", q, &k, hit, &h, &none);
                ++st.failures;
            }
            continue;
        }
        motion m = {&k.P, dvec(k.p0), dvec(tread_v3_sub(k.p1, k.p0)), dvec(k.d), 0.0};
        double radius_sum = k.r + prim_radius(&k.P);
        ref_toi ref = reference_toi(&m, radius_sum, k.t_max);
        double d_len = dlen(dvec(k.d));
        bool tie = fabs(ref.f_min - radius_sum) <= GRAZING_BAND || fabs(ref.f0 - radius_sum) <= GRAZING_BAND;
        // Contact right at the end of the cast, or a ray crossing a triangle's plane at its boundary.
        tie |= ref.hit && fabs(ref.t - k.t_max) * d_len <= GRAZING_BAND;
        tie |= hit && fabs(h.t - k.t_max) * d_len <= GRAZING_BAND;
        if (q == Q_RAY && kind == PRIM_TRIANGLE) tie = ray_triangle_margin(&k) <= GRAZING_BAND;
        if (hit != ref.hit) {
            if (tie) {
                ++st.ties;
                continue;
            }
            print_case("hit/miss", q, &k, hit, &h, &ref);
            ++st.failures;
            continue;
        }
        if (!hit) {
            ++st.misses;
            continue;
        }
        ++st.hits;
        if (!(h.t >= 0.0f && h.t <= k.t_max)) {
            print_case("t out of range", q, &k, hit, &h, &ref);
            ++st.failures;
            continue;
        }
        double err = fabs(h.t - ref.t);
        bool long_cast = d_len > LONG_CAST;
        if (long_cast) ++st.long_casts;
        if (!tie && long_cast) st.max_rel_error = fmax(st.max_rel_error, err);
        if (!tie && !long_cast) st.max_error = fmax(st.max_error, err * d_len);
        if (tie) st.max_tie_error = fmax(st.max_tie_error, long_cast ? err * LONG_CAST : err * d_len);
        bool accurate = long_cast ? err <= TOI_RELATIVE_TOLERANCE : err * d_len <= TOI_TOLERANCE;
        if (!accurate && tie) {
            // A tangent approach makes t ill-conditioned; the configuration at the returned t must still touch.
            double f = dist_at_t(&m, h.t);
            accurate = fabs(f - radius_sum) <= SURFACE_TOLERANCE && h.t <= ref.t_min + 1e-6;
            if (accurate) ++st.ties;
        }
        if (!accurate) {
            print_case("time of impact", q, &k, hit, &h, &ref);
            ++st.failures;
            continue;
        }
        if (ref.t == 0.0) {
            ++st.start_hits;
            if (fabs(tread_v3_length(h.normal) - 1.0f) > 1e-5f) {
                print_case("start normal", q, &k, hit, &h, &ref);
                ++st.failures;
            }
            if (q == Q_RAY) {
                // Inside a solid: t = 0, the origin, and -d/|d| (or up).
                tread_vec3 expect = d_len > 0.0 ? tread_v3_normalize(tread_v3_neg(k.d)) : tread_v3(0, 1, 0);
                bool inside = core_dist(&k.P, dvec(k.p0)) < prim_radius(&k.P) - 1e-5 ||
                              (k.P.kind == PRIM_BOX && fabs(k.p0.x) < k.P.half.x - 1e-5f && fabs(k.p0.y) < k.P.half.y - 1e-5f &&
                               fabs(k.p0.z) < k.P.half.z - 1e-5f);
                if (inside && (h.t != 0.0f || tread_v3_distance(h.point, k.p0) > 0.0f || tread_v3_distance(h.normal, expect) > 1e-6f)) {
                    print_case("ray start inside", q, &k, hit, &h, &ref);
                    ++st.failures;
                }
            }
            continue;
        }
        if (check_contact(q, &k, &h, &st) > SURFACE_TOLERANCE * (long_cast ? 100.0 : 1.0)) {
            print_case("contact geometry", q, &k, hit, &h, &ref);
            ++st.failures;
        }
    }
    printf("%-7s vs %-8s: %d cases (%d hits, %d misses, %d start hits, %d grazing ties, %d long, %d degenerate); "
           "max |dt|*|d| %.2e m (grazing %.2e), long max |dt| %.2e, surface %.2e m, min normal cos %.6f\n",
           query_names[q], prim_names[kind], st.cases, st.hits, st.misses, st.start_hits, st.ties, st.long_casts,
           st.degenerate, st.max_error, st.max_tie_error, st.max_rel_error, st.max_surface, st.min_normal_cos);
    assert_int_equal(st.failures, 0);
    assert_true(st.hits > CASES / 5 && st.misses > CASES / 20); // the mix exercises both outcomes
}

static void test_ray_sphere_matches_reference(void **state) { (void)state; run_casts(Q_RAY, PRIM_SPHERE, 101); }
static void test_ray_capsule_matches_reference(void **state) { (void)state; run_casts(Q_RAY, PRIM_CAPSULE, 102); }
static void test_ray_box_matches_reference(void **state) { (void)state; run_casts(Q_RAY, PRIM_BOX, 103); }
static void test_ray_triangle_matches_reference(void **state) { (void)state; run_casts(Q_RAY, PRIM_TRIANGLE, 104); }
static void test_sweep_sphere_sphere_matches_reference(void **state) { (void)state; run_casts(Q_SPHERE, PRIM_SPHERE, 201); }
static void test_sweep_sphere_capsule_matches_reference(void **state) { (void)state; run_casts(Q_SPHERE, PRIM_CAPSULE, 202); }
static void test_sweep_sphere_box_matches_reference(void **state) { (void)state; run_casts(Q_SPHERE, PRIM_BOX, 203); }
static void test_sweep_sphere_triangle_matches_reference(void **state) { (void)state; run_casts(Q_SPHERE, PRIM_TRIANGLE, 204); }
static void test_sweep_capsule_sphere_matches_reference(void **state) { (void)state; run_casts(Q_CAPSULE, PRIM_SPHERE, 301); }
static void test_sweep_capsule_capsule_matches_reference(void **state) { (void)state; run_casts(Q_CAPSULE, PRIM_CAPSULE, 302); }
static void test_sweep_capsule_box_matches_reference(void **state) { (void)state; run_casts(Q_CAPSULE, PRIM_BOX, 303); }
static void test_sweep_capsule_triangle_matches_reference(void **state) { (void)state; run_casts(Q_CAPSULE, PRIM_TRIANGLE, 304); }

// ---- closest points ----------------------------------------------------------------------------------------

// Does the segment (double) meet the closed box / the triangle? Exact enough for the brute-force depth search.
static bool segment_meets_box(dv p0, dv p1, tread_vec3 half) {
    double lo = 0.0, hi = 1.0;
    double o[3] = {p0.x, p0.y, p0.z}, e[3] = {p1.x - p0.x, p1.y - p0.y, p1.z - p0.z}, h[3] = {half.x, half.y, half.z};
    for (int i = 0; i < 3; ++i) {
        if (e[i] == 0.0) {
            if (fabs(o[i]) > h[i]) return false;
            continue;
        }
        double t0 = (-h[i] - o[i]) / e[i], t1 = (h[i] - o[i]) / e[i];
        if (t0 > t1) {
            double tmp = t0;
            t0 = t1;
            t1 = tmp;
        }
        lo = fmax(lo, t0);
        hi = fmin(hi, t1);
        if (lo > hi) return false;
    }
    return true;
}
static bool segment_meets_triangle(dv p0, dv p1, const prim *P) {
    dv a = dvec(P->a), b = dvec(P->b), c = dvec(P->c);
    dv n = dcross(dsub(b, a), dsub(c, a));
    double s0 = ddot(n, dsub(p0, a)), s1 = ddot(n, dsub(p1, a));
    if ((s0 > 0.0 && s1 > 0.0) || (s0 < 0.0 && s1 < 0.0)) return false;
    if (s0 == s1) return core_dist(P, p0) == 0.0; // in the plane: measure zero, only an endpoint on it counts
    dv x = dmad(p0, s0 / (s0 - s1), dsub(p1, p0));
    dv v[3] = {a, b, c};
    for (int i = 0; i < 3; ++i) // inside the closed triangle: on the inner side of every edge
        if (ddot(dcross(dsub(v[(i + 1) % 3], v[i]), dsub(x, v[i])), n) < 0.0) return false;
    return true;
}
static bool segment_meets(const prim *P, dv p0, dv p1) {
    return P->kind == PRIM_BOX ? segment_meets_box(p0, p1, P->half) : segment_meets_triangle(p0, p1, P);
}

// Smallest translation along unit u that separates the segment from the primitive (bisection).
static double separation_along(const prim *P, dv p0, dv p1, dv u) {
    double lo = 0.0, hi = 30.0;
    for (int i = 0; i < 38; ++i) {
        double mid = 0.5 * (lo + hi);
        if (segment_meets(P, dmad(p0, mid, u), dmad(p1, mid, u)))
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}
static dv sphere_dir(double theta, double phi) { return dmake(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi)); }

// Brute-force minimum translation depth: a Fibonacci sphere of directions, then a pattern search around each of
// the best few (the depth along u has a local minimum per face of the Minkowski difference).
#define DEPTH_SAMPLES 120
#define DEPTH_STARTS 3
static double brute_depth(const prim *P, dv p0, dv p1) {
    double start_depth[DEPTH_STARTS], start_theta[DEPTH_STARTS], start_phi[DEPTH_STARTS];
    for (int k = 0; k < DEPTH_STARTS; ++k) start_depth[k] = 1e30, start_theta[k] = start_phi[k] = 0.0;
    for (int i = 0; i < DEPTH_SAMPLES; ++i) {
        double y = 1.0 - 2.0 * (i + 0.5) / DEPTH_SAMPLES;
        double theta = acos(y), phi = 2.39996322972865332 * i;
        double depth = separation_along(P, p0, p1, sphere_dir(theta, phi));
        int worst = 0; // keep the DEPTH_STARTS smallest
        for (int k = 1; k < DEPTH_STARTS; ++k)
            if (start_depth[k] > start_depth[worst]) worst = k;
        if (depth < start_depth[worst]) start_depth[worst] = depth, start_theta[worst] = theta, start_phi[worst] = phi;
    }
    double overall = 1e30;
    for (int k = 0; k < DEPTH_STARTS; ++k) {
        double best = start_depth[k], best_theta = start_theta[k], best_phi = start_phi[k];
        for (double step = 0.15; step > 1e-4; step *= 0.5) {
            bool improved = true;
            while (improved) {
                improved = false;
                for (int j = 0; j < 4; ++j) {
                    double th = best_theta + (j == 0 ? step : j == 1 ? -step : 0.0);
                    double ph = best_phi + (j == 2 ? step : j == 3 ? -step : 0.0) / fmax(sin(best_theta), 0.05);
                    double depth = separation_along(P, p0, p1, sphere_dir(th, ph));
                    if (depth < best - 1e-12) best = depth, best_theta = th, best_phi = ph, improved = true;
                }
            }
        }
        overall = fmin(overall, best);
    }
    return overall;
}

typedef struct closest_stats {
    int cases, separated, penetrating, failures;
    double max_dist_error, max_depth_excess;
    double max_below; // how far a separated distance fell below the true minimum's lower bound
} closest_stats;

// The corners whose hull is the primitive's core (the sphere's centre, the capsule's segment, the box, the triangle).
static int prim_corners(const prim *P, dv out[8]) {
    switch (P->kind) {
    case PRIM_SPHERE: out[0] = dvec(P->a); return 1;
    case PRIM_CAPSULE: out[0] = dvec(P->a), out[1] = dvec(P->b); return 2;
    case PRIM_BOX:
        for (int i = 0; i < 8; ++i) out[i] = dmake(i & 1 ? P->half.x : -P->half.x, i & 2 ? P->half.y : -P->half.y, i & 4 ? P->half.z : -P->half.z);
        return 8;
    default: out[0] = dvec(P->a), out[1] = dvec(P->b), out[2] = dvec(P->c); return 3;
    }
}

static void print_closest(const char *what, const prim *P, tread_vec3 p0, tread_vec3 p1, const tr_closest *c, double ref) {
    fprintf(stderr,
            "FAIL %s vs %s: p0 (%.9g %.9g %.9g) p1 (%.9g %.9g %.9g) prim a (%.9g %.9g %.9g) b (%.9g %.9g %.9g) "
            "c (%.9g %.9g %.9g) half (%.9g %.9g %.9g)\n  lib distance %.9g normal (%.6g %.6g %.6g) on_shape "
            "(%.6g %.6g %.6g) on_segment (%.6g %.6g %.6g); reference %.9g\n",
            what, prim_names[P->kind], p0.x, p0.y, p0.z, p1.x, p1.y, p1.z, P->a.x, P->a.y, P->a.z, P->b.x, P->b.y,
            P->b.z, P->c.x, P->c.y, P->c.z, P->half.x, P->half.y, P->half.z, c->distance, c->normal.x, c->normal.y,
            c->normal.z, c->on_shape.x, c->on_shape.y, c->on_shape.z, c->on_segment.x, c->on_segment.y, c->on_segment.z, ref);
}

// kind: PRIM_SPHERE means the point query (radius 0), PRIM_CAPSULE the segment query.
static void run_closest(int kind, uint64_t seed) {
    rng_state = seed;
    closest_stats st = {0, 0, 0, 0, 0.0, 0.0, 0.0};
    int degenerate_seen = 0;
    for (int i = 0; i < CASES; ++i) {
        prim P = random_prim(kind);
        P.radius = 0.0f;
        bool degenerate = kind == PRIM_TRIANGLE && i % 25 == 0;
        if (degenerate) P = degenerate_triangle();
        tread_vec3 p0, p1;
        int mode = i % 4;
        if (mode == 0) {
            // Through the primitive: a segment across a point of it.
            tread_vec3 x = near_point(&P, 0.0f);
            tread_vec3 dir = random_dir();
            p0 = tread_v3_mad(x, -uf(0.0, 2.0), dir);
            p1 = tread_v3_mad(x, uf(0.0, 2.0), dir);
        } else if (mode == 1 && kind == PRIM_BOX) {
            // Parallel to a box axis, touching or crossing a face.
            p0 = near_point(&P, 0.3f);
            p1 = tread_v3_add(p0, tread_v3(uf(-2.0, 2.0), 0.0f, 0.0f));
            if (pick(2)) p0.y = p1.y = P.half.y; // exactly on the top face plane
        } else {
            p0 = near_point(&P, 2.0f);
            p1 = pick(8) == 0 ? p0 : tread_v3_add(p0, tread_v3_scale(random_dir(), uf(0.0, 3.0)));
        }
        tr_closest c;
        bool ok = true;
        switch (kind) {
        case PRIM_SPHERE: tr_closest_segment_point(p0, p1, P.a, &c); break;
        case PRIM_CAPSULE: tr_closest_segment_segment(p0, p1, P.a, P.b, &c); break;
        case PRIM_BOX: tr_closest_segment_box(p0, p1, P.half, &c); break;
        default: ok = tr_closest_segment_triangle(p0, p1, P.a, P.b, P.c, &c); break;
        }
        ++st.cases;
        if (degenerate) {
            ++degenerate_seen;
            if (ok) {
                print_closest("degenerate triangle accepted", &P, p0, p1, &c, 0.0);
                ++st.failures;
            }
            continue;
        }
        // The reference: the true minimum's certified bracket (closest_reference.h), closed to CREF_BRACKET_WIDTH.
        dv segment[2] = {dvec(p0), dvec(p1)}, corners[8];
        cref_bracket bracket = cref_corner_sets_distance(segment, 2, corners, prim_corners(&P, corners));
        double ref = bracket.upper;
        bool failed = fabs(tread_v3_length(c.normal) - 1.0f) > 1e-5f;
        failed |= bracket.upper - bracket.lower > CREF_BRACKET_WIDTH;
        bool solid = kind == PRIM_BOX || kind == PRIM_TRIANGLE;
        if (ref > DISTANCE_TOLERANCE || !solid) {
            // Separated (or a point/segment target): the exact distance and consistent closest points.
            ++st.separated;
            double err = fabs(c.distance - ref);
            st.max_dist_error = fmax(st.max_dist_error, err);
            failed |= err > DISTANCE_TOLERANCE;
            // No closest-point routine can beat the true minimum: below it by more than rounding is a wrong answer.
            st.max_below = fmax(st.max_below, bracket.lower - c.distance);
            failed |= c.distance < bracket.lower - BELOW_MINIMUM_TOLERANCE;
            failed |= core_dist(&P, dvec(c.on_shape)) > DISTANCE_TOLERANCE;
            failed |= dlen(dsub(dvec(c.on_segment), cref_point_segment(dvec(c.on_segment), dvec(p0), dvec(p1)))) > DISTANCE_TOLERANCE;
            dv delta = dsub(dvec(c.on_segment), dvec(c.on_shape));
            failed |= fabs(dlen(delta) - c.distance) > DISTANCE_TOLERANCE;
            if (c.distance > 1e-3f) failed |= ddot(delta, dvec(c.normal)) < NORMAL_COS * dlen(delta);
        } else if (segment_meets(&P, dvec(p0), dvec(p1))) {
            // Penetrating: pushing by the depth along the normal separates, and no direction needs less.
            ++st.penetrating;
            double depth = -c.distance;
            failed |= depth < -DISTANCE_TOLERANCE;
            dv shift = dscale(dvec(c.normal), depth + DEPTH_TOLERANCE);
            failed |= segment_meets(&P, dadd(dvec(p0), shift), dadd(dvec(p1), shift));
            double brute = brute_depth(&P, dvec(p0), dvec(p1));
            double excess = depth - brute;
            st.max_depth_excess = fmax(st.max_depth_excess, excess);
            if (excess > fmax(DEPTH_TOLERANCE, DEPTH_RELATIVE * brute)) {
                fprintf(stderr, "depth %.9g brute %.9g\n", depth, brute);
                failed = true;
            }
        } else {
            // Touching within the tolerance.
            failed |= fabs(c.distance) > DISTANCE_TOLERANCE;
        }
        if (failed) {
            print_closest("closest", &P, p0, p1, &c, ref);
            ++st.failures;
        }
    }
    printf("closest segment vs %-8s: %d cases (%d separated, %d penetrating, %d degenerate); max distance error "
           "%.2e m (at most %.2e m below the minimum), max depth above brute force %.2e m\n",
           kind == PRIM_SPHERE ? "point" : (kind == PRIM_CAPSULE ? "segment" : prim_names[kind]), st.cases,
           st.separated, st.penetrating, degenerate_seen, st.max_dist_error, st.max_below, st.max_depth_excess);
    assert_int_equal(st.failures, 0);
}

static void test_closest_segment_point_matches_reference(void **state) { (void)state; run_closest(PRIM_SPHERE, 401); }
static void test_closest_segment_segment_matches_reference(void **state) { (void)state; run_closest(PRIM_CAPSULE, 402); }
static void test_closest_segment_box_matches_reference(void **state) { (void)state; run_closest(PRIM_BOX, 403); }
static void test_closest_segment_triangle_matches_reference(void **state) { (void)state; run_closest(PRIM_TRIANGLE, 404); }

// The references themselves, against an exhaustive search: a segment and a triangle sampled on grids (the segment
// at 101 points, the triangle at the 5,151 nodes of its 100-fold subdivision). The least sampled distance is a
// distance between points of the shapes, so no reference may exceed it; and every point of the shapes is within
// |segment| / 200 + longest edge / 100 of a sample, so none may fall below it by more than that.
#define EXHAUSTIVE_CASES 200
#define EXHAUSTIVE_STEPS 100
#define EXHAUSTIVE_ROUNDING 1.0e-12 // metres: double rounding of distances of a few metres (1e-15 m), with room
static void test_closest_references_agree_with_exhaustive_search(void **state) {
    (void)state;
    rng_state = 405;
    double worst_above = 0.0, worst_below = 0.0;
    for (int i = 0; i < EXHAUSTIVE_CASES; ++i) {
        prim P = random_prim(PRIM_TRIANGLE);
        tread_vec3 p0 = near_point(&P, 1.0f), p1 = tread_v3_add(p0, tread_v3_scale(random_dir(), uf(0.0, 2.0)));
        dv a = dvec(P.a), b = dvec(P.b), c = dvec(P.c), s0 = dvec(p0), s1 = dvec(p1);
        double sampled = INFINITY, sampled_point = INFINITY; // from the whole segment, and from p0 alone
        for (int u = 0; u <= EXHAUSTIVE_STEPS; ++u)
            for (int v = 0; u + v <= EXHAUSTIVE_STEPS; ++v) {
                dv x = dmad(dmad(a, (double)u / EXHAUSTIVE_STEPS, dsub(b, a)), (double)v / EXHAUSTIVE_STEPS, dsub(c, a));
                sampled_point = fmin(sampled_point, dlen(dsub(x, s0)));
                for (int k = 0; k <= EXHAUSTIVE_STEPS; ++k) sampled = fmin(sampled, dlen(dsub(x, dmad(s0, (double)k / EXHAUSTIVE_STEPS, dsub(s1, s0)))));
            }
        double edge = fmax(fmax(dlen(dsub(b, a)), dlen(dsub(c, b))), dlen(dsub(a, c)));
        double grid = dlen(dsub(s1, s0)) / (2.0 * EXHAUSTIVE_STEPS) + edge / EXHAUSTIVE_STEPS;
        dv segment[2] = {s0, s1}, point[1] = {s0}, triangle[3] = {a, b, c};
        cref_bracket whole = cref_corner_sets_distance(segment, 2, triangle, 3);
        cref_bracket alone = cref_corner_sets_distance(point, 1, triangle, 3);
        double foot = dlen(dsub(s0, cref_point_triangle(s0, a, b, c)));
        assert_true(whole.upper - whole.lower <= CREF_BRACKET_WIDTH && alone.upper - alone.lower <= CREF_BRACKET_WIDTH);
        assert_true(fabs(foot - alone.upper) <= CREF_BRACKET_WIDTH); // the two references agree
        worst_above = fmax(worst_above, fmax(whole.lower - sampled, fmax(alone.lower, foot) - sampled_point));
        worst_below = fmax(worst_below, fmax(sampled - whole.upper, sampled_point - fmin(alone.upper, foot)) / grid);
        double at_most = sampled + EXHAUSTIVE_ROUNDING, at_most_point = sampled_point + EXHAUSTIVE_ROUNDING;
        assert_true(whole.lower <= at_most && alone.lower <= at_most_point && foot <= at_most_point);
        assert_true(whole.upper >= sampled - grid && alone.upper >= sampled_point - grid && foot >= sampled_point - grid);
    }
    printf("references vs exhaustive search: %d cases; at most %.2e m above the least sample, at most %.2f of the grid's "
           "reach below it\n", EXHAUSTIVE_CASES, worst_above, worst_below);
}

// ---- hand-made cases ---------------------------------------------------------------------------------------

static void assert_vec_near(tread_vec3 a, tread_vec3 b, float tol) {
    assert_true(fabsf(a.x - b.x) <= tol && fabsf(a.y - b.y) <= tol && fabsf(a.z - b.z) <= tol);
}

static void test_box_surface_normal_riser_vs_tread(void **state) {
    (void)state;
    tread_vec3 half = tread_v3(1.0f, 0.5f, 1.0f);
    tread_vec3 edge = tread_v3(-1.0f, 0.5f, 0.0f); // the riser's top edge, facing -x
    tread_vec3 diag = tread_v3_normalize(tread_v3(-1.0f, 1.0f, 0.0f));
    // Walking into the riser horizontally: the vertical face.
    assert_vec_near(tr_box_surface_normal(half, edge, diag, tread_v3(1.0f, 0.0f, 0.0f)), tread_v3(-1, 0, 0), 0.0f);
    // Landing on it from above: the tread.
    assert_vec_near(tr_box_surface_normal(half, edge, diag, tread_v3(0.0f, -1.0f, 0.0f)), tread_v3(0, 1, 0), 0.0f);
    // No motion: the face most aligned with the contact normal.
    assert_vec_near(tr_box_surface_normal(half, edge, tread_v3(-0.2f, 0.98f, 0.0f), tread_v3_zero()), tread_v3(0, 1, 0), 0.0f);
    assert_vec_near(tr_box_surface_normal(half, edge, tread_v3(-0.98f, 0.2f, 0.0f), tread_v3_zero()), tread_v3(-1, 0, 0), 0.0f);
    // Diagonal motion ties: the contact normal decides.
    assert_vec_near(tr_box_surface_normal(half, edge, tread_v3(-0.98f, 0.2f, 0.0f), tread_v3(1.0f, -1.0f, 0.0f)), tread_v3(-1, 0, 0), 0.0f);
    // A face interior point within the tolerance.
    assert_vec_near(tr_box_surface_normal(half, tread_v3(0.2f, 0.5f + 0.5f * TR_FEATURE_TOLERANCE, 0.3f), tread_v3(0, 1, 0),
                                          tread_v3(1.0f, 0.0f, 0.0f)),
                    tread_v3(0, 1, 0), 0.0f);
}

static void test_triangle_feature_classifies_points(void **state) {
    (void)state;
    tread_vec3 a = tread_v3(0, 0, 0), b = tread_v3(2, 0, 0), c = tread_v3(0, 0, 2);
    assert_int_equal(tr_triangle_feature(a, b, c, tread_v3(0.5f, 0.0f, 0.5f)), TR_TRI_FACE);
    assert_int_equal(tr_triangle_feature(a, b, c, tread_v3(1.0f, 0.0f, 0.5f * TR_FEATURE_TOLERANCE)), TR_TRI_EDGE0);
    assert_int_equal(tr_triangle_feature(a, b, c, tread_v3(1.0f, 0.0f, 1.0f)), TR_TRI_EDGE0 + 1);
    assert_int_equal(tr_triangle_feature(a, b, c, tread_v3(0.0f, 0.0f, 1.0f)), TR_TRI_EDGE0 + 2);
    assert_int_equal(tr_triangle_feature(a, b, c, tread_v3(2.0f, 0.0f, 0.0f)), TR_TRI_VERTEX0 + 1);
    assert_int_equal(tr_triangle_feature(a, b, c, tread_v3(0.0f, 0.5f * TR_FEATURE_TOLERANCE, 2.0f)), TR_TRI_VERTEX0 + 2);
    assert_int_equal(tr_triangle_feature(a, b, c, a), TR_TRI_VERTEX0);
}

static void test_triangle_normal_winding_and_degenerate(void **state) {
    (void)state;
    tread_vec3 a = tread_v3(0, 0, 0), b = tread_v3(0, 0, 1), c = tread_v3(1, 0, 0);
    assert_vec_near(tr_triangle_normal(a, b, c), tread_v3(0, 1, 0), 1e-7f);
    assert_vec_near(tr_triangle_normal(a, c, b), tread_v3(0, -1, 0), 1e-7f);
    assert_vec_near(tr_triangle_normal(a, b, tread_v3(0, 0, 3)), tread_v3_zero(), 0.0f);
    assert_vec_near(tr_triangle_normal(a, a, c), tread_v3_zero(), 0.0f);
}

static void test_ray_starting_inside_hits_at_zero(void **state) {
    (void)state;
    tr_hit h;
    assert_true(tr_ray_box(tread_v3(0.1f, 0.2f, 0.0f), tread_v3(0.0f, 0.0f, 2.0f), tread_v3(1, 1, 1), 1.0f, &h));
    assert_true(h.t == 0.0f);
    assert_vec_near(h.normal, tread_v3(0, 0, -1), 0.0f);
    assert_vec_near(h.point, tread_v3(0.1f, 0.2f, 0.0f), 0.0f);
    assert_true(tr_ray_sphere(tread_v3(0.1f, 0.0f, 0.0f), tread_v3_zero(), tread_v3_zero(), 1.0f, 1.0f, &h));
    assert_vec_near(h.normal, tread_v3(0, 1, 0), 0.0f);
    assert_true(tr_ray_capsule(tread_v3(0.0f, 0.9f, 0.0f), tread_v3_zero(), tread_v3(0, -1, 0), tread_v3(0, 1, 0), 0.5f, 1.0f, &h));
    assert_true(h.t == 0.0f);
    // Zero motion from outside never hits.
    assert_false(tr_ray_box(tread_v3(3.0f, 0.0f, 0.0f), tread_v3_zero(), tread_v3(1, 1, 1), 1.0f, &h));
    assert_false(tr_ray_triangle(tread_v3(0.2f, 1.0f, 0.2f), tread_v3_zero(), tread_v3(0, 0, 0), tread_v3(0, 0, 1), tread_v3(1, 0, 0), 1.0f, &h));
}

static void test_ray_triangle_two_sided_normal_faces_origin(void **state) {
    (void)state;
    tread_vec3 a = tread_v3(0, 0, 0), b = tread_v3(0, 0, 1), c = tread_v3(1, 0, 0); // normal +y
    tr_hit h;
    assert_true(tr_ray_triangle(tread_v3(0.2f, 1.0f, 0.2f), tread_v3(0, -2, 0), a, b, c, 1.0f, &h));
    assert_float_equal(h.t, 0.5f, 1e-7f);
    assert_vec_near(h.normal, tread_v3(0, 1, 0), 0.0f);
    assert_true(tr_ray_triangle(tread_v3(0.2f, -1.0f, 0.2f), tread_v3(0, 2, 0), a, b, c, 1.0f, &h));
    assert_vec_near(h.normal, tread_v3(0, -1, 0), 0.0f);
    assert_false(tr_ray_triangle(tread_v3(0.2f, 1.0f, 0.2f), tread_v3(0, -2, 0), a, b, tread_v3(0, 0, 2), 1.0f, &h));
}

static void test_sweep_capsule_lands_on_box_top(void **state) {
    (void)state;
    // An upright capsule dropping onto a box: touches the top face at t where its bottom is r above it.
    tr_hit h;
    tread_vec3 p0 = tread_v3(0.3f, 2.0f, 0.1f), p1 = tread_v3(0.3f, 3.0f, 0.1f);
    assert_true(tr_sweep_capsule_box(p0, p1, 0.5f, tread_v3(0, -2, 0), tread_v3(1, 1, 1), 1.0f, &h));
    assert_float_equal(h.t, 0.25f, 1e-6f);
    assert_vec_near(h.normal, tread_v3(0, 1, 0), 1e-6f);
    assert_vec_near(h.point, tread_v3(0.3f, 1.0f, 0.1f), 1e-6f);
    // Sliding into the box's vertical edge sideways: the capsule's side meets the edge.
    assert_true(tr_sweep_capsule_box(tread_v3(-3.0f, -0.5f, -3.0f), tread_v3(-3.0f, 0.5f, -3.0f), 0.5f, tread_v3(4, 0, 4), tread_v3(1, 1, 1), 1.0f, &h));
    float expect = (2.0f - 0.5f / sqrtf(2.0f)) / 4.0f;
    assert_float_equal(h.t, expect, 1e-6f);
    assert_vec_near(h.point, tread_v3(-1.0f, h.point.y, -1.0f), 1e-6f);
}

static void test_sweep_starting_in_contact_reports_zero(void **state) {
    (void)state;
    tr_hit h;
    tread_vec3 a = tread_v3(-5, 0, -5), b = tread_v3(0, 0, 5), c = tread_v3(5, 0, -5);
    assert_true(tr_sweep_capsule_triangle(tread_v3(0, 0.3f, 0), tread_v3(0, 1.3f, 0), 0.5f, tread_v3(1, 0, 0), a, b, c, 1.0f, &h));
    assert_true(h.t == 0.0f);
    assert_vec_near(h.normal, tread_v3(0, 1, 0), 1e-6f);
    assert_true(tr_sweep_capsule_box(tread_v3(0, 0, 0), tread_v3(0, 1, 0), 0.5f, tread_v3(1, 0, 0), tread_v3(1, 1, 1), 1.0f, &h));
    assert_true(h.t == 0.0f);
    assert_float_equal(tread_v3_length(h.normal), 1.0f, 1e-6f);
    assert_true(tr_sweep_capsule_capsule(tread_v3(0, 0, 0), tread_v3(0, 1, 0), 0.5f, tread_v3(1, 0, 0), tread_v3(0.5f, 0, 0),
                                         tread_v3(0.5f, 1, 0), 0.5f, 1.0f, &h));
    assert_true(h.t == 0.0f);
    assert_true(tr_sweep_capsule_sphere(tread_v3(0, 0, 0), tread_v3(0, 1, 0), 0.5f, tread_v3(1, 0, 0), tread_v3(0, 0.5f, 0.9f), 0.5f, 1.0f, &h));
    assert_true(h.t == 0.0f);
}

static void test_closest_touching_box_face_has_face_normal(void **state) {
    (void)state;
    tr_closest c;
    tr_closest_segment_box(tread_v3(-0.5f, 1.0f, 0.0f), tread_v3(0.5f, 1.0f, 0.0f), tread_v3(1, 1, 1), &c);
    assert_float_equal(c.distance, 0.0f, 0.0f);
    assert_vec_near(c.normal, tread_v3(0, 1, 0), 0.0f);
    tr_closest_segment_box(tread_v3(0.0f, 1.0f, 0.0f), tread_v3(0.0f, 2.0f, 0.0f), tread_v3(1, 1, 1), &c);
    assert_float_equal(c.distance, 0.0f, 0.0f);
    assert_vec_near(c.normal, tread_v3(0, 1, 0), 0.0f);
    // Through a triangle: pushed out along the face normal toward the shorter side.
    tread_vec3 a = tread_v3(-5, 0, -5), b = tread_v3(0, 0, 5), t = tread_v3(5, 0, -5);
    assert_true(tr_closest_segment_triangle(tread_v3(0, -0.2f, 0), tread_v3(0, 1.0f, 0), a, b, t, &c));
    assert_float_equal(c.distance, -0.2f, 1e-6f);
    assert_vec_near(c.normal, tread_v3(0, 1, 0), 0.0f);
    // Resting on it: distance 0 and the face normal toward the segment.
    assert_true(tr_closest_segment_triangle(tread_v3(0, -1.0f, 0), tread_v3(0, 0.0f, 0), a, b, t, &c));
    assert_float_equal(c.distance, 0.0f, 0.0f);
    assert_vec_near(c.normal, tread_v3(0, -1, 0), 0.0f);
    assert_false(tr_closest_segment_triangle(tread_v3(0, -1.0f, 0), tread_v3(0, 0.0f, 0), a, b, tread_v3(-2.5f, 0.0f, 0.0f), &c)); // on the line ab
}

// A segment laid over a triangle's vertex, crossing its plane exactly there (a box's bottom edge come down on the
// top vertex of a sloped terrain triangle, islanddm): it only touches, and the closest points are the vertex and the
// segment's point on it. The crossing test took the cross axis of the segment and another edge, whose closest
// points lay 1.7 m apart, and a box stood on ground reported 1.7 m beyond its side.
static void test_segment_over_a_vertex_touches_at_it(void **state) {
    (void)state;
    const tread_vec3 p = tread_v3(16.0f, 7.0f, -34.65625f), q = tread_v3(13.34375f, 6.4375f, -37.34375f), r = tread_v3(13.34375f, 7.09375f, -34.65625f);
    tr_closest c;
    assert_true(tr_closest_segment_triangle(tread_v3(12.6832504f, 7.09375f, -34.65625f), tread_v3(13.6247501f, 7.09375f, -34.65625f), p, q, r, &c));
    assert_true(fabsf(c.distance) < 1e-5f);
    assert_true(tread_v3_distance(c.on_shape, c.on_segment) < 1e-4f);
    assert_true(tread_v3_distance(c.on_shape, r) < 1e-4f);
    // The box's sweep onto it reports the vertex, on the box's sole.
    tr_obb box = {tread_v3(13.1540f, 7.1007f + 0.875f, -35.1270f), {tread_v3(1, 0, 0), tread_v3(0, 1, 0), tread_v3(0, 0, 1)}, tread_v3(0.47075f, 0.877f, 0.47075f)};
    tr_hit h;
    assert_true(tr_sweep_box_triangle(&box, tread_v3(0, -0.03f, 0), p, q, r, 1.0f, &h));
    assert_true(tread_v3_distance(h.point, r) < 1e-3f);
}

// A sweep's answer must not depend on its bound: closest-hit queries shrink t_max as they find hits, so a hit a
// few ulps below the bound has to be found exactly as with t_max = 1. (A capsule-vs-triangle case once missed.)
static bool sweep_any(int kind, tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, const tread_vec3 *v, float t_max, tr_hit *h) {
    switch (kind) {
    case 0: return tr_sweep_capsule_sphere(p0, p1, r, d, v[0], 0.4f, t_max, h);
    case 1: return tr_sweep_capsule_capsule(p0, p1, r, d, v[0], v[1], 0.3f, t_max, h);
    case 2: return tr_sweep_capsule_box(p0, p1, r, d, tread_v3(0.8f, 0.5f, 1.1f), t_max, h);
    default: return tr_sweep_capsule_triangle(p0, p1, r, d, v[0], v[1], v[2], t_max, h);
    }
}

static void test_sweeps_do_not_depend_on_their_bound(void **state) {
    (void)state;
    // The case found by comparing world queries against a reference without early-outs.
    tread_vec3 p0 = {0x1.dc8476p+4f, 0x1.b3d1e6p+0f, 0x1.18867p+4f}, p1 = {0x1.dd66fep+4f, 0x1.dbda92p+0f, 0x1.18867p+4f};
    tread_vec3 d = {-0x1.bfa9b2p-2f, -0x1.3dcc86p+0f, 0x1.08a282p-2f};
    tread_vec3 tri[3] = {{0x1.dp+4f, 0x1.5a04cp-2f, 0x1.18p+4f}, {0x1.d8p+4f, 0x1.31cbp-1f, 0x1.2p+4f}, {0x1.d8p+4f, 0x1.610e4p-1f, 0x1.18p+4f}};
    tr_hit full, bounded;
    assert_true(tr_sweep_capsule_triangle(p0, p1, 0x1.a8bfa4p-4f, d, tri[0], tri[1], tri[2], 1.0f, &full));
    assert_true(tr_sweep_capsule_triangle(p0, p1, 0x1.a8bfa4p-4f, d, tri[0], tri[1], tri[2], 0x1.8fde1p-1f, &bounded));
    assert_true(full.t == bounded.t);
    // Random hits, re-swept with bounds just above, at and (must miss) just below their time.
    rng_state = 4242;
    int checked = 0;
    for (int i = 0; i < 20000; ++i) {
        int kind = i % 4;
        tread_vec3 v[3] = {random_in_box(1.0f), random_in_box(1.0f), random_in_box(1.0f)};
        tread_vec3 c0 = random_in_box(3.0f), axis = random_dir();
        tread_vec3 q0 = tread_v3_mad(c0, -0.3f, axis), q1 = tread_v3_mad(c0, 0.3f, axis);
        tread_vec3 dd = tread_v3_scale(tread_v3_sub(random_in_box(0.5f), c0), uf(1.0, 3.0));
        tr_hit h;
        if (!sweep_any(kind, q0, q1, 0.25f, dd, v, 1.0f, &h) || h.t <= 0.0f) continue;
        for (int ulps = 0; ulps <= 64; ulps += 4) {
            float bound = h.t;
            for (int k = 0; k < ulps; ++k) bound = nextafterf(bound, 2.0f);
            tr_hit again;
            assert_true(sweep_any(kind, q0, q1, 0.25f, dd, v, bound, &again));
            assert_true(again.t == h.t);
        }
        tr_hit below;
        assert_false(sweep_any(kind, q0, q1, 0.25f, dd, v, nextafterf(h.t, 0.0f), &below) && below.t > 0.0f && below.t != h.t);
        ++checked;
    }
    print_message("bound independence: %d hits re-swept\n", checked);
    assert_true(checked > 2000);
}

// A segment pushed out across a box edge: the closest points lie on that edge (the box's support edge along the
// push-out normal), not on the edge diagonally opposite.
static void test_penetrating_segment_box_points_on_the_crossed_edge(void **state) {
    (void)state;
    tread_vec3 half = tread_v3(0.798f, 1.387f, 1.991f);
    tr_closest cl;
    tr_closest_segment_box(tread_v3(0.2461f, 1.4767f, 0.1899f), tread_v3(2.7081f, 1.0758f, 0.2642f), half, &cl);
    assert_true(cl.distance <= 0.0f);
    // On the box surface, on the side the normal faces, and where the segment is.
    assert_true(tread_v3_dot(cl.on_shape, cl.normal) > 0.0f);
    assert_float_equal(cl.on_shape.x, 0.798f, 1e-4f);
    assert_float_equal(cl.on_shape.y, 1.387f, 1e-4f);
    // Random penetrating segments across edges: the shape point is the box's extreme along the normal.
    rng_state = 777;
    for (int i = 0; i < 5000; ++i) {
        tread_vec3 h = tread_v3(uf(0.2, 2.0), uf(0.2, 2.0), uf(0.2, 2.0));
        tread_vec3 a = random_in_box(2.5f), b = random_in_box(2.5f);
        tr_closest c;
        tr_closest_segment_box(a, b, h, &c);
        if (c.distance >= 0.0f) continue;
        float support = fabsf(c.normal.x) * h.x + fabsf(c.normal.y) * h.y + fabsf(c.normal.z) * h.z;
        assert_float_equal(tread_v3_dot(c.on_shape, c.normal), support, 1e-3f);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweeps_do_not_depend_on_their_bound),
        cmocka_unit_test(test_penetrating_segment_box_points_on_the_crossed_edge),
        cmocka_unit_test(test_box_surface_normal_riser_vs_tread),
        cmocka_unit_test(test_triangle_feature_classifies_points),
        cmocka_unit_test(test_triangle_normal_winding_and_degenerate),
        cmocka_unit_test(test_ray_starting_inside_hits_at_zero),
        cmocka_unit_test(test_ray_triangle_two_sided_normal_faces_origin),
        cmocka_unit_test(test_sweep_capsule_lands_on_box_top),
        cmocka_unit_test(test_sweep_starting_in_contact_reports_zero),
        cmocka_unit_test(test_closest_touching_box_face_has_face_normal), cmocka_unit_test(test_segment_over_a_vertex_touches_at_it),
        cmocka_unit_test(test_ray_sphere_matches_reference),
        cmocka_unit_test(test_ray_capsule_matches_reference),
        cmocka_unit_test(test_ray_box_matches_reference),
        cmocka_unit_test(test_ray_triangle_matches_reference),
        cmocka_unit_test(test_sweep_sphere_sphere_matches_reference),
        cmocka_unit_test(test_sweep_sphere_capsule_matches_reference),
        cmocka_unit_test(test_sweep_sphere_box_matches_reference),
        cmocka_unit_test(test_sweep_sphere_triangle_matches_reference),
        cmocka_unit_test(test_sweep_capsule_sphere_matches_reference),
        cmocka_unit_test(test_sweep_capsule_capsule_matches_reference),
        cmocka_unit_test(test_sweep_capsule_box_matches_reference),
        cmocka_unit_test(test_sweep_capsule_triangle_matches_reference),
        cmocka_unit_test(test_closest_segment_point_matches_reference),
        cmocka_unit_test(test_closest_segment_segment_matches_reference),
        cmocka_unit_test(test_closest_segment_box_matches_reference),
        cmocka_unit_test(test_closest_segment_triangle_matches_reference),
        cmocka_unit_test(test_closest_references_agree_with_exhaustive_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
