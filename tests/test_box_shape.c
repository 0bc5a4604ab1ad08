// SPDX-License-Identifier: MIT
// The box query shape: exactness of its primitives (src/geometry/box.c) against a slow, obviously-correct
// reference in double on thousands of deterministic random cases, the start-in-contact rule, world queries
// through the public API against every world shape, and the box character on the course's stairs.
//
// The references. Two convex polytopes overlap iff no candidate axis (face normals, edge crosses) separates
// them; the largest gap over those axes, evaluated in double, is a convex piecewise-linear function of time,
// so golden-section search finds its minimum and bisection the first time it reaches zero: the time of impact.
// Separated distances: the certified bracket of the true minimum (closest_reference.h: the shortest vector of the
// hull of the corners' differences), not the library's own enumeration of feature pairs retyped in double. Sweeps
// against spheres and capsules: the distance from the core segment to the solid box is convex in the segment
// parameter and in time (golden-section search), as test_geometry.c does.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "closest_reference.h"
#include "course.h"
#include "geometry/box.h"
#include "tread/tread.h"
#include "world/shape.h"

// Random cases per pair.
#ifndef CASES
#define CASES 10000
#endif

// ---- accuracy requirements (metres unless stated) ------------------------------------------------------
#define TOI_TOLERANCE 1.0e-4      // |t - t_ref| * |d| for casts up to 10 m
#define LONG_TOI_TOLERANCE 1.0e-3 // the same for 1 km casts (float spacing at 1000 m is 6e-5)
#define GRAZING_BAND 1.0e-4       // a reference gap this small at the decision is a tie either way
#define SURFACE_TOLERANCE 1.0e-3  // contact point to both surfaces at the time of impact
#define DISTANCE_TOLERANCE 2.0e-5 // separated distances
// A distance below the true minimum, from float rounding alone: the library moves a query into the box's frame
// (a difference and three dot products, about 4 roundings of half an ulp at 8 m, 2.4e-7 each, per coordinate) and
// the box's corners out of it: 4 roundings on each of 3 coordinates, 1.7e-6 m, and the distance's own float
// arithmetic at a few metres adds some ulps (4.8e-7 m each). Measured 2.2e-6 m (box-capsule), 4.4e-7 m (box-box).
#define BELOW_MINIMUM_TOLERANCE 4.0e-6
#define DEPTH_TOLERANCE 1.0e-4    // penetration depth
#define CONTACT_REGION_TOLERANCE 2.0e-4 // an overlap's contact point off the shape or outside the box (the touch tolerance and rounding)

// ---- deterministic random numbers ------------------------------------------------------------------
static uint64_t rng_state;
static uint64_t splitmix64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)((double)(splitmix64() >> 11) / 9007199254740992.0); }
static tread_vec3 random_vec(float lo, float hi) { return tread_v3(uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)); }

static tr_obb random_obb(float center_range, bool rotated) {
    tr_obb a;
    a.center = random_vec(-center_range, center_range);
    a.half = random_vec(0.1f, 1.5f);
    if (rotated) {
        tread_quat q = tread_quat_normalize((tread_quat){uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
        a.axis[0] = tread_quat_rotate(q, tread_v3(1, 0, 0));
        a.axis[1] = tread_quat_rotate(q, tread_v3(0, 1, 0));
        a.axis[2] = tread_quat_rotate(q, tread_v3(0, 0, 1));
    } else {
        tr_upright_axes(tread_v3(0, 1, 0), a.axis);
    }
    return a;
}

// ---- double-precision reference ----------------------------------------------------------------------
typedef cref_v3 v3d;
static v3d D(tread_vec3 v) { return (v3d){v.x, v.y, v.z}; }
static v3d dadd(v3d a, v3d b) { return (v3d){a.x + b.x, a.y + b.y, a.z + b.z}; }
static v3d dsub(v3d a, v3d b) { return (v3d){a.x - b.x, a.y - b.y, a.z - b.z}; }
static v3d dscale(v3d a, double s) { return (v3d){a.x * s, a.y * s, a.z * s}; }
static double ddot(v3d a, v3d b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static v3d dcross(v3d a, v3d b) { return (v3d){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
static double dlen(v3d a) { return sqrt(ddot(a, a)); }
static double dclamp(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }

typedef struct { v3d c, u[3]; double h[3]; } ref_box; // oriented solid box
typedef struct { int n; v3d v[8]; ref_box box; bool is_box; } ref_convex; // static: box or triangle

static ref_box ref_from_obb(const tr_obb *a) {
    ref_box b;
    b.c = D(a->center);
    for (int i = 0; i < 3; i++) b.u[i] = D(a->axis[i]);
    b.h[0] = a->half.x, b.h[1] = a->half.y, b.h[2] = a->half.z;
    return b;
}
static ref_box ref_aabb(tread_vec3 half) {
    tr_obb a = {tread_v3_zero(), {tread_v3(1, 0, 0), tread_v3(0, 1, 0), tread_v3(0, 0, 1)}, half};
    return ref_from_obb(&a);
}
static void ref_corners(const ref_box *b, v3d v[8]) {
    for (int i = 0; i < 8; i++) {
        v3d p = b->c;
        p = dadd(p, dscale(b->u[0], (i & 1) ? b->h[0] : -b->h[0]));
        p = dadd(p, dscale(b->u[1], (i & 2) ? b->h[1] : -b->h[1]));
        p = dadd(p, dscale(b->u[2], (i & 4) ? b->h[2] : -b->h[2]));
        v[i] = p;
    }
}
static ref_convex ref_box_convex(tread_vec3 half) {
    ref_convex s;
    s.is_box = true;
    s.box = ref_aabb(half);
    s.n = 8;
    ref_corners(&s.box, s.v);
    return s;
}
static ref_convex ref_triangle(tread_vec3 a, tread_vec3 b, tread_vec3 c) {
    ref_convex s = {0};
    s.is_box = false;
    s.n = 3;
    s.v[0] = D(a), s.v[1] = D(b), s.v[2] = D(c);
    return s;
}

// The candidate axes (unnormalised) of box a against the static convex.
static int ref_axes(const ref_box *a, const ref_convex *s, v3d axes[16]) {
    int n = 0;
    v3d edges[3];
    if (s->is_box) {
        for (int i = 0; i < 3; i++) axes[n++] = edges[i] = s->box.u[i];
    } else {
        for (int i = 0; i < 3; i++) edges[i] = dsub(s->v[(i + 1) % 3], s->v[i]);
        axes[n++] = dcross(edges[0], dsub(s->v[2], s->v[0]));
    }
    for (int i = 0; i < 3; i++) axes[n++] = a->u[i];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            v3d c = dcross(edges[i], a->u[j]);
            if (ddot(c, c) > 1e-14 * ddot(edges[i], edges[i])) axes[n++] = c;
        }
    return n;
}

// Largest separating gap over the candidate axes (> 0: separated; <= 0: minus the minimum overlap).
static double ref_gap(const ref_box *a, const ref_convex *s, v3d *best_axis) {
    v3d axes[16];
    int n = ref_axes(a, s, axes);
    double best = -INFINITY;
    for (int k = 0; k < n; k++) {
        v3d L = dscale(axes[k], 1.0 / dlen(axes[k]));
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < s->n; i++) {
            double p = ddot(s->v[i], L);
            lo = fmin(lo, p), hi = fmax(hi, p);
        }
        double c = ddot(a->c, L), r = 0;
        for (int i = 0; i < 3; i++) r += a->h[i] * fabs(ddot(a->u[i], L));
        double above = (c - r) - hi, below = lo - (c + r);
        double g = fmax(above, below);
        if (g > best) {
            best = g;
            if (best_axis) *best_axis = above >= below ? L : dscale(L, -1);
        }
    }
    return best;
}

static ref_box ref_moved(const ref_box *a, v3d d, double t) {
    ref_box m = *a;
    m.c = dadd(a->c, dscale(d, t));
    return m;
}

#define GOLDEN 0.6180339887498949

// First t in [0, t_max] where f(t) <= 0 for a convex f with f(0) > 0; -1 if none. Also the minimum of f.
typedef double convex_fn(const void *ctx, double t);
static double first_root(convex_fn *f, const void *ctx, double t_max, double *f_min) {
    double lo = 0, hi = t_max;
    for (int i = 0; i < 70; i++) {
        double m1 = hi - GOLDEN * (hi - lo), m2 = lo + GOLDEN * (hi - lo);
        if (f(ctx, m1) <= f(ctx, m2)) hi = m2;
        else lo = m1;
    }
    double tm = 0.5 * (lo + hi), fm = f(ctx, tm);
    double fe = f(ctx, t_max);
    if (fe < fm) tm = t_max, fm = fe;
    *f_min = fm;
    if (fm > 0) return -1;
    double a = 0, b = tm;
    for (int i = 0; i < 60; i++) {
        double m = 0.5 * (a + b);
        if (f(ctx, m) <= 0) b = m;
        else a = m;
    }
    return b;
}

// The sweep's gap as a function of time: per axis the static interval, the box's radius, its centre's
// projection at t = 0 and its speed along the axis (the axes do not change as the box translates).
typedef struct { int n; double lo[16], hi[16], r[16], c[16], v[16]; } poly_sweep;
static poly_sweep make_poly_sweep(const ref_box *a, v3d d, const ref_convex *s) {
    poly_sweep p;
    v3d axes[16];
    p.n = ref_axes(a, s, axes);
    for (int k = 0; k < p.n; k++) {
        v3d L = dscale(axes[k], 1.0 / dlen(axes[k]));
        p.lo[k] = INFINITY, p.hi[k] = -INFINITY;
        for (int i = 0; i < s->n; i++) {
            double x = ddot(s->v[i], L);
            p.lo[k] = fmin(p.lo[k], x), p.hi[k] = fmax(p.hi[k], x);
        }
        p.r[k] = 0;
        for (int i = 0; i < 3; i++) p.r[k] += a->h[i] * fabs(ddot(a->u[i], L));
        p.c[k] = ddot(a->c, L);
        p.v[k] = ddot(d, L);
    }
    return p;
}
static double poly_gap_at(const void *ctx, double t) {
    const poly_sweep *p = (const poly_sweep *)ctx;
    double best = -INFINITY;
    for (int k = 0; k < p->n; k++) {
        double c = p->c[k] + t * p->v[k];
        best = fmax(best, fmax((c - p->r[k]) - p->hi[k], p->lo[k] - (c + p->r[k])));
    }
    return best;
}

// Distance from a point to the solid box.
static double ref_point_box(const ref_box *b, v3d p, v3d *closest) {
    v3d rel = dsub(p, b->c), q = b->c;
    for (int i = 0; i < 3; i++) q = dadd(q, dscale(b->u[i], dclamp(ddot(rel, b->u[i]), -b->h[i], b->h[i])));
    if (closest) *closest = q;
    return dlen(dsub(p, q));
}

// Point-triangle distance (closest_reference.h).
static double ref_point_triangle(v3d p, const v3d v[3]) { return dlen(dsub(p, cref_point_triangle(p, v[0], v[1], v[2]))); }

// The certified bracket of the separated distance between box a and the static convex.
static cref_bracket ref_distance(const ref_box *a, const ref_convex *s) {
    v3d av[8];
    ref_corners(a, av);
    return cref_corner_sets_distance(av, 8, s->v, s->n);
}

// Segment to solid box distance (convex in the segment parameter: golden-section search).
static double ref_segment_box(const ref_box *b, v3d p0, v3d p1) {
    double lo = 0, hi = 1;
    v3d d = dsub(p1, p0);
    for (int i = 0; i < 48; i++) { // 0.618^48: 1e-10 of the segment
        double m1 = hi - GOLDEN * (hi - lo), m2 = lo + GOLDEN * (hi - lo);
        if (ref_point_box(b, dadd(p0, dscale(d, m1)), NULL) <= ref_point_box(b, dadd(p0, dscale(d, m2)), NULL)) hi = m2;
        else lo = m1;
    }
    double best = ref_point_box(b, dadd(p0, dscale(d, 0.5 * (lo + hi))), NULL);
    best = fmin(best, ref_point_box(b, p0, NULL));
    return fmin(best, ref_point_box(b, p1, NULL));
}

typedef struct { ref_box a; v3d d, c0, c1; double radius; } capsule_sweep;
static double capsule_gap_at(const void *ctx, double t) {
    const capsule_sweep *p = (const capsule_sweep *)ctx;
    ref_box m = ref_moved(&p->a, p->d, t);
    return ref_segment_box(&m, p->c0, p->c1) - p->radius;
}

// ---- checks shared by the sweep tests ----------------------------------------------------------------

typedef struct sweep_stats {
    int hits, misses, ties;
    double max_error;
} sweep_stats;

// Compare a float sweep against the reference TOI; f_at(t) is the reference gap at t.
static void compare_sweep(bool hit, const tr_hit *h, double t_ref, double f_min, double length, double tolerance, convex_fn *f,
                          const void *ctx, sweep_stats *st) {
    bool ref_hit = t_ref >= 0;
    if (hit && ref_hit) {
        double err = fabs((double)h->t - t_ref) * length;
        if (err > st->max_error) st->max_error = err;
        if (err > tolerance) {
            // A tangential entry: the gap stays within the band between the two fractions.
            double lo = fmin(h->t, t_ref), hi = fmax(h->t, t_ref);
            if (f(ctx, 0.5 * (lo + hi)) > GRAZING_BAND || f(ctx, lo) > GRAZING_BAND * 10) {
                print_error("toi error %g m (t %g, ref %g, length %g)\n", err, (double)h->t, t_ref, length);
                fail();
            }
            st->ties++;
        }
        st->hits++;
    } else if (hit != ref_hit) {
        // Only a tie may disagree: the gap at the float hit (or the reference's deepest) within the band.
        double g = hit ? f(ctx, h->t) : -f_min;
        if (g > GRAZING_BAND) {
            print_error("%s: float hit %d at %g, reference %g, gap %g\n", hit ? "false hit" : "missed hit", hit, hit ? (double)h->t : -1.0, t_ref, g);
            fail();
        }
        st->ties++;
    } else {
        st->misses++;
    }
}

// The contact point lies on both surfaces at the time of impact and the normal leaves the static shape.
static void check_contact(const tr_obb *a, tread_vec3 d, const tr_hit *h, double static_distance) {
    tr_obb m = *a;
    m.center = tread_v3_mad(a->center, h->t, d);
    ref_box rb = ref_from_obb(&m);
    double to_box = ref_point_box(&rb, D(h->point), NULL);
    if (to_box > SURFACE_TOLERANCE || static_distance > SURFACE_TOLERANCE) {
        print_error("contact point off the surfaces: %g from the box, %g from the shape\n", to_box, static_distance);
        fail();
    }
    assert_true(fabsf(tread_v3_length(h->normal) - 1.0f) < 1e-4f);
    // The box lies on the normal's side: its centre is not behind the contact plane.
    assert_true(tread_v3_dot(tread_v3_sub(m.center, h->point), h->normal) > -SURFACE_TOLERANCE);
}

static tread_vec3 random_target_motion(const tr_obb *a, float reach) {
    tread_vec3 target = random_vec(-reach, reach);
    return tread_v3_add(tread_v3_sub(target, a->center), random_vec(-0.5f, 0.5f));
}

// ---- sweeps ------------------------------------------------------------------------------------------

static void run_box_box_sweeps(bool rotated, float center_range, float long_scale, double tolerance) {
    sweep_stats st = {0};
    for (int i = 0, done = 0; done < CASES; i++) {
        tread_vec3 half = random_vec(0.1f, 2.0f);
        tr_obb a = random_obb(center_range, rotated);
        if (long_scale > 0) a.center = tread_v3_add(a.center, tread_v3_scale(tread_v3_normalize(random_vec(-1, 1)), long_scale));
        ref_convex s = ref_box_convex(half);
        ref_box ra = ref_from_obb(&a);
        if (ref_gap(&ra, &s, NULL) <= 1.0e-3) continue; // sweeps start separated
        done++;
        tread_vec3 d = random_target_motion(&a, 2.0f);
        float t_max = i % 4 == 0 ? uniform(0.1f, 1.0f) : 1.0f;
        tr_hit h;
        bool hit = tr_sweep_box_box(&a, d, half, t_max, &h);
        poly_sweep ps = make_poly_sweep(&ra, D(d), &s);
        double fmin_;
        double t_ref = first_root(poly_gap_at, &ps, t_max, &fmin_);
        compare_sweep(hit, &h, t_ref, fmin_, tread_v3_length(d), tolerance, poly_gap_at, &ps, &st);
        if (hit) check_contact(&a, d, &h, ref_point_box(&s.box, D(h.point), NULL));
    }
    printf("box-box sweeps (%s%s): %d hits, %d misses, %d ties, max toi error %.3g m\n", rotated ? "rotated" : "upright",
           long_scale > 0 ? ", 1 km" : "", st.hits, st.misses, st.ties, st.max_error);
    assert_true(st.hits > CASES / 10);
}

static void test_sweep_box_box_matches_reference(void **state) {
    (void)state;
    rng_state = 1;
    run_box_box_sweeps(true, 5.0f, 0.0f, TOI_TOLERANCE);
    run_box_box_sweeps(false, 5.0f, 0.0f, TOI_TOLERANCE);
}

static void test_sweep_box_box_long_casts(void **state) {
    (void)state;
    rng_state = 2;
    run_box_box_sweeps(true, 1.0f, 1000.0f, LONG_TOI_TOLERANCE);
}

static void test_sweep_box_triangle_matches_reference(void **state) {
    (void)state;
    rng_state = 3;
    sweep_stats st = {0};
    for (int i = 0, done = 0; done < CASES; i++) {
        tread_vec3 p = random_vec(-2, 2), q = random_vec(-2, 2), r = random_vec(-2, 2);
        tr_obb a = random_obb(5.0f, i % 2 == 0);
        ref_convex s = ref_triangle(p, q, r);
        ref_box ra = ref_from_obb(&a);
        if (ref_gap(&ra, &s, NULL) <= 1.0e-3) continue;
        done++;
        tread_vec3 d = random_target_motion(&a, 2.0f);
        tr_hit h;
        bool hit = tr_sweep_box_triangle(&a, d, p, q, r, 1.0f, &h);
        poly_sweep ps = make_poly_sweep(&ra, D(d), &s);
        double fmin_;
        double t_ref = first_root(poly_gap_at, &ps, 1.0, &fmin_);
        compare_sweep(hit, &h, t_ref, fmin_, tread_v3_length(d), TOI_TOLERANCE, poly_gap_at, &ps, &st);
        if (hit) check_contact(&a, d, &h, ref_point_triangle(D(h.point), s.v));
    }
    printf("box-triangle sweeps: %d hits, %d misses, %d ties, max toi error %.3g m\n", st.hits, st.misses, st.ties, st.max_error);
    assert_true(st.hits > CASES / 10);
}

static void run_capsule_sweeps(bool sphere) {
    sweep_stats st = {0};
    for (int i = 0, done = 0; done < CASES; i++) {
        tread_vec3 c0 = random_vec(-1.5f, 1.5f), c1 = sphere ? c0 : random_vec(-1.5f, 1.5f);
        float radius = uniform(0.05f, 1.0f);
        tr_obb a = random_obb(5.0f, i % 2 == 0);
        ref_box ra = ref_from_obb(&a);
        if (ref_segment_box(&ra, D(c0), D(c1)) - radius <= 1.0e-3) continue;
        done++;
        tread_vec3 d = random_target_motion(&a, 2.0f);
        tr_hit h;
        bool hit = tr_sweep_box_capsule(&a, d, c0, c1, radius, 1.0f, &h);
        capsule_sweep cs = {ra, D(d), D(c0), D(c1), radius};
        double fmin_;
        double t_ref = first_root(capsule_gap_at, &cs, 1.0, &fmin_);
        compare_sweep(hit, &h, t_ref, fmin_, tread_v3_length(d), TOI_TOLERANCE, capsule_gap_at, &cs, &st);
        if (hit) check_contact(&a, d, &h, fabs(dlen(dsub(D(h.point), cref_point_segment(D(h.point), D(c0), D(c1)))) - radius));
    }
    printf("box-%s sweeps: %d hits, %d misses, %d ties, max toi error %.3g m\n", sphere ? "sphere" : "capsule", st.hits, st.misses, st.ties,
           st.max_error);
    assert_true(st.hits > CASES / 10);
}

static void test_sweep_box_sphere_matches_reference(void **state) {
    (void)state;
    rng_state = 4;
    run_capsule_sweeps(true);
}

static void test_sweep_box_capsule_matches_reference(void **state) {
    (void)state;
    rng_state = 5;
    run_capsule_sweeps(false);
}

// ---- closest distance and penetration -------------------------------------------------------------------

typedef struct closest_stats {
    int separated, overlapping;
    double max_distance_error, max_depth_error;
    double max_below; // how far a separated distance fell below the true minimum's lower bound
} closest_stats;

// A separated distance against the bracket [lower, upper] of the true minimum: within DISTANCE_TOLERANCE of it, and
// never below it by more than rounding (no closest-point routine can beat the true minimum). Returns the error.
static double check_distance(double distance, const cref_bracket *ref, double *max_below) {
    assert_true(ref->upper - ref->lower <= CREF_BRACKET_WIDTH); // the reference settled
    *max_below = fmax(*max_below, ref->lower - distance);
    if (distance < ref->lower - BELOW_MINIMUM_TOLERANCE || distance > ref->upper + DISTANCE_TOLERANCE) {
        print_error("distance %.9g, the true minimum in [%.9g, %.9g]\n", distance, ref->lower, ref->upper);
        fail();
    }
    return fabs(distance - ref->upper);
}

static void check_closest(const tr_obb *a, const ref_convex *s, const tr_closest *cl, closest_stats *st) {
    ref_box ra = ref_from_obb(a);
    double gap = ref_gap(&ra, s, NULL);
    if (gap > 0) {
        cref_bracket ref = ref_distance(&ra, s);
        st->max_distance_error = fmax(st->max_distance_error, check_distance(cl->distance, &ref, &st->max_below));
        // The points realise the distance.
        assert_true(fabs(dlen(dsub(D(cl->on_segment), D(cl->on_shape))) - ref.upper) < 1e-4);
        st->separated++;
    } else {
        double err = fabs(cl->distance - gap);
        st->max_depth_error = fmax(st->max_depth_error, err);
        if (err > DEPTH_TOLERANCE) {
            print_error("penetration %g, reference %g\n", (double)cl->distance, gap);
            fail();
        }
        // The shape's point is in the contact region: on the shape and in the box (a box over a triangle that
        // reaches under one corner took the triangle's point nearest its bottom's centre, outside the box).
        double on_shape = s->is_box ? ref_point_box(&s->box, D(cl->on_shape), NULL) : ref_point_triangle(D(cl->on_shape), s->v);
        double in_box = ref_point_box(&ra, D(cl->on_shape), NULL);
        // (A box wholly inside a static box touches none of its surface: no region to be in.)
        v3d corners[8];
        ref_corners(&ra, corners);
        bool engulfed = s->is_box;
        for (int i = 0; i < 8; i++) engulfed = engulfed && ref_point_box(&s->box, corners[i], NULL) == 0.0;
        if (!engulfed && (on_shape > CONTACT_REGION_TOLERANCE || in_box > CONTACT_REGION_TOLERANCE)) {
            print_error("contact point %g m off the shape, %g m outside the box\n", on_shape, in_box);
            fail();
        }
        st->overlapping++;
    }
    // Pushing the box out by the depth plus a hair along the normal separates it (the normal is a push-out).
    if (cl->distance < 0) {
        ref_box out = ref_moved(&ra, D(cl->normal), -cl->distance + 1e-4);
        assert_true(ref_gap(&out, s, NULL) > 0);
    }
}

static void test_closest_box_box_matches_reference(void **state) {
    (void)state;
    rng_state = 6;
    closest_stats st = {0};
    for (int i = 0; i < CASES; i++) {
        tread_vec3 half = random_vec(0.1f, 2.0f);
        tr_obb a = random_obb(3.0f, i % 3 != 0);
        tr_closest cl;
        tr_closest_box_box(&a, half, &cl);
        ref_convex s = ref_box_convex(half);
        check_closest(&a, &s, &cl, &st);
    }
    printf("box-box closest: %d separated (max error %.3g m, at most %.3g m below the minimum), %d overlapping (max depth "
           "error %.3g m)\n", st.separated, st.max_distance_error, st.max_below, st.overlapping, st.max_depth_error);
    assert_true(st.separated > CASES / 10 && st.overlapping > CASES / 10);
}

static void test_closest_box_triangle_matches_reference(void **state) {
    (void)state;
    rng_state = 7;
    closest_stats st = {0};
    for (int i = 0; i < CASES; i++) {
        tread_vec3 p = random_vec(-2, 2), q = random_vec(-2, 2), r = random_vec(-2, 2);
        tr_obb a = random_obb(2.5f, i % 3 != 0);
        tr_closest cl;
        assert_true(tr_closest_box_triangle(&a, p, q, r, &cl));
        ref_convex s = ref_triangle(p, q, r);
        check_closest(&a, &s, &cl, &st);
    }
    printf("box-triangle closest: %d separated (max error %.3g m, at most %.3g m below the minimum), %d overlapping (max depth "
           "error %.3g m)\n", st.separated, st.max_distance_error, st.max_below, st.overlapping, st.max_depth_error);
    assert_true(st.separated > CASES / 10 && st.overlapping > CASES / 20);
}

static void test_closest_box_capsule_matches_reference(void **state) {
    (void)state;
    rng_state = 8;
    int separated = 0;
    double max_error = 0, max_below = 0;
    for (int i = 0; i < CASES; i++) {
        tread_vec3 c0 = random_vec(-1.5f, 1.5f), c1 = i % 4 == 0 ? c0 : random_vec(-1.5f, 1.5f);
        float radius = uniform(0.05f, 1.0f);
        tr_obb a = random_obb(3.0f, i % 2 == 0);
        tr_closest cl;
        tr_closest_box_capsule(&a, c0, c1, radius, &cl);
        ref_box ra = ref_from_obb(&a);
        // The capsule's distance is its core segment's less the radius.
        v3d corners[8], core[2] = {D(c0), D(c1)};
        ref_corners(&ra, corners);
        cref_bracket ref = cref_corner_sets_distance(corners, 8, core, 2);
        ref.lower -= radius, ref.upper -= radius;
        if (ref.upper > 0) {
            max_error = fmax(max_error, check_distance(cl.distance, &ref, &max_below));
            separated++;
        } else {
            // Penetration: pushing the box out along the normal by the depth separates it.
            assert_true(cl.distance <= 1e-5f);
            ref_box out = ref_moved(&ra, D(cl.normal), -cl.distance + 1e-4);
            assert_true(ref_segment_box(&out, D(c0), D(c1)) - radius > 0);
        }
    }
    printf("box-capsule closest: %d separated, max error %.3g m, at most %.3g m below the minimum\n", separated, max_error, max_below);
    assert_true(separated > CASES / 10);
}

// ---- features and the start-in-contact rule ----------------------------------------------------------------

static tr_cast box_cast(tread_vec3 center, tread_vec3 half, tread_vec3 d) {
    tr_cast c = {0};
    c.p0 = c.p1 = center;
    c.d = d;
    c.is_box = true;
    c.box_half = half;
    tr_upright_axes(tread_v3(0, 1, 0), c.box_axes);
    return c;
}

static void test_upright_axes_are_world_axes_for_y_up(void **state) {
    (void)state;
    tread_vec3 ax[3];
    tr_upright_axes(tread_v3(0, 1, 0), ax);
    assert_true(ax[0].x == 1.0f && ax[0].y == 0.0f && ax[0].z == 0.0f);
    assert_true(ax[1].x == 0.0f && ax[1].y == 1.0f && ax[1].z == 0.0f);
    assert_true(ax[2].x == 0.0f && ax[2].y == 0.0f && ax[2].z == 1.0f);
    tr_upright_axes(tread_v3(0, 0, 1), ax); // near +-Z: still orthonormal and right-handed
    tread_vec3 z = tread_v3_cross(ax[0], ax[1]);
    assert_true(fabsf(tread_v3_dot(z, ax[2]) - 1.0f) < 1e-6f);
}

static void test_grazing_box_slides_along_a_face_without_hit(void **state) {
    (void)state;
    tread_vec3 half = tread_v3(0.3f, 0.9f, 0.3f), floor = tread_v3(5, 1, 5);
    tr_feature_hit out;
    // Resting exactly on the floor (touching) and sliding along it.
    tr_cast c = box_cast(tread_v3(0, 1.9f, 0), half, tread_v3(3, 0, 1));
    assert_false(tr_cast_box(&c, floor, 1.0f, &out));
    // A millimetre above, parallel: no hit either.
    c = box_cast(tread_v3(0, 1.901f, 0), half, tread_v3(3, 0, 1));
    assert_false(tr_cast_box(&c, floor, 1.0f, &out));
    // Exactly grazing a wall's plane while passing it: the sweep reports at most a touch at the plane.
    tr_hit h;
    tr_obb a = {tread_v3(-5, 0, 1.3f), {tread_v3(1, 0, 0), tread_v3(0, 1, 0), tread_v3(0, 0, 1)}, tread_v3(0.3f, 0.3f, 0.3f)};
    // (a tie: distance 0 all along), and then on the wall's plane.
    if (tr_sweep_box_box(&a, tread_v3(10, 0, 0), tread_v3(1, 1, 1), 1.0f, &h)) assert_float_equal(h.point.z, 1.0f, 1e-5f);
}

// A box 1 um from a triangle's edge, 9 m from the origin (the soak's box character beside a heightfield): the
// closest points are a few ulps apart, so their direction is noise; the normal is the separating axis, as the
// double-precision reference finds it. (It was (0.44, -0.11, 0.89): the character slid along that plane, 2.6 cm
// into the heightfield.)
static void test_touching_normal_is_the_separating_axis(void **state) {
    (void)state;
    const tread_vec3 v[3] = {{3.9535134f, 0.2205825f, 7.8482065f}, {4.9418917f, 1.9687259f, 8.5022240f}, {4.9418917f, 0.0654401f, 7.8482065f}};
    tr_obb a = {tread_v3(5.4541278f, 0.8987094f, 8.5989761f),
                {tread_v3(-0.5856124f, 0.0f, 0.8105912f), tread_v3(0, 1, 0), tread_v3(-0.8105912f, 0.0f, -0.5856124f)},
                tread_v3(0.5587893f, 0.6380922f, 0.5587893f)};
    ref_convex s = ref_triangle(v[0], v[1], v[2]);
    ref_box ra = ref_from_obb(&a);
    v3d axis = {0, 0, 0};
    double gap = ref_gap(&ra, &s, &axis);
    assert_true(fabs(gap) < 1.0e-5);
    tr_closest cl;
    assert_true(tr_closest_box_triangle(&a, v[0], v[1], v[2], &cl));
    assert_true(cl.distance < 1.0e-5f);
    assert_true(ddot(D(cl.normal), axis) > 0.999); // both from the triangle toward the box
}

// A box character grown by a 4 cm skin, beside a yawed slab and 1.4 mm up into its underside (the soak's world
// 12:3140, in the slab's frame): the grown box overlaps the underside 41 mm and the side 42 mm. Moving into the
// side must stop it at once, though the shallowest overlap (the underside) says the motion presses into nothing:
// it went on and the bare box ended 1.2 mm inside the slab.
static void test_skin_grown_box_stops_at_a_near_tied_side(void **state) {
    (void)state;
    tr_cast c = box_cast(tread_v3(-3.50770f, -0.84993f, 0.96885f), tread_v3(0.55642f, 0.67437f, 0.55642f), tread_v3(0.00117f, 0, 0.02253f));
    c.box_axes[0] = tread_v3(0.06166f, 0, -0.99810f);
    c.box_axes[1] = tread_v3(0, 1, 0);
    c.box_axes[2] = tread_v3(0.99810f, 0, 0.06166f);
    tr_feature_hit out;
    assert_true(tr_cast_box(&c, tread_v3(2.96031f, 0.21682f, 3.08280f), 1.0f, &out));
    assert_true(out.started_in_contact && out.t == 0.0f);
    assert_float_equal(out.normal.x, -1.0f, 1e-5f); // the slab's side, toward the box
    // Moving away from the side (and along the underside) is still free.
    c.d = tread_v3(-0.00117f, 0, 0.02253f);
    assert_false(tr_cast_box(&c, tread_v3(2.96031f, 0.21682f, 3.08280f), 1.0f, &out));
}

static void test_start_touching_hits_only_when_pressing(void **state) {
    (void)state;
    tread_vec3 half = tread_v3(0.3f, 0.9f, 0.3f), floor = tread_v3(5, 1, 5);
    tr_feature_hit out;
    tr_cast c = box_cast(tread_v3(0, 1.9f, 0), half, tread_v3(0, -1, 0));
    assert_true(tr_cast_box(&c, floor, 1.0f, &out));
    assert_true(out.started_in_contact && out.t == 0.0f && out.penetration == 0.0f);
    assert_true(out.normal.y > 0.999f && out.surface_normal.y > 0.999f);
    c.d = tread_v3(0, 1, 0); // moving away
    assert_false(tr_cast_box(&c, floor, 1.0f, &out));
}

static void test_start_inside_reports_depth_and_push_out(void **state) {
    (void)state;
    tread_vec3 half = tread_v3(0.3f, 0.9f, 0.3f), floor = tread_v3(5, 1, 5);
    tr_feature_hit out;
    tr_cast c = box_cast(tread_v3(0, 1.85f, 0), half, tread_v3(0, -1, 0));
    assert_true(tr_cast_box(&c, floor, 1.0f, &out));
    assert_true(out.started_in_contact);
    assert_float_equal(out.penetration, 0.05f, 1e-5f);
    assert_true(out.normal.y > 0.999f);
    // Against a triangle floor and a sphere too.
    assert_true(tr_cast_triangle(&c, tread_v3(-5, 1, -5), tread_v3(0, 1, 5), tread_v3(5, 1, -5), 7, 1.0f, &out));
    assert_float_equal(out.penetration, 0.05f, 1e-5f);
    c = box_cast(tread_v3(0, 0, 0), half, tread_v3(1, 0, 0));
    assert_true(tr_cast_sphere(&c, 0.5f, 1.0f, &out)); // a sphere inside the box
    assert_true(out.started_in_contact && out.penetration > 0.5f);
}

static void test_zero_length_cast_reports_overlaps_only(void **state) {
    (void)state;
    tread_vec3 half = tread_v3(0.3f, 0.9f, 0.3f), floor = tread_v3(5, 1, 5);
    tr_feature_hit out;
    tr_cast c = box_cast(tread_v3(0, 1.85f, 0), half, tread_v3_zero());
    assert_true(tr_cast_box(&c, floor, 1.0f, &out));
    c = box_cast(tread_v3(0, 1.9f, 0), half, tread_v3_zero()); // touching only
    assert_false(tr_cast_box(&c, floor, 1.0f, &out));
}

static void test_degenerate_triangles_are_never_hit(void **state) {
    (void)state;
    rng_state = 9;
    for (int i = 0; i < 1000; i++) {
        // Exactly degenerate: a repeated corner, or collinear corners on a grid of quarters (r = 2q - p exactly).
        tread_vec3 p = tread_v3((float)(int)uniform(-8, 8) * 0.25f, (float)(int)uniform(-8, 8) * 0.25f, (float)(int)uniform(-8, 8) * 0.25f);
        tread_vec3 q = tread_v3((float)(int)uniform(-8, 8) * 0.25f, (float)(int)uniform(-8, 8) * 0.25f, (float)(int)uniform(-8, 8) * 0.25f);
        tread_vec3 r = i % 2 ? p : tread_v3_sub(tread_v3_scale(q, 2.0f), p);
        tr_obb a = random_obb(0.5f, true);
        tr_hit h;
        tr_closest cl;
        assert_false(tr_sweep_box_triangle(&a, random_vec(-3, 3), p, q, r, 1.0f, &h));
        assert_false(tr_closest_box_triangle(&a, p, q, r, &cl));
        tr_cast c = box_cast(a.center, a.half, random_vec(-3, 3));
        tr_feature_hit out;
        assert_false(tr_cast_triangle(&c, p, q, r, 7, 1.0f, &out));
    }
}

static void test_sweep_lands_flat_with_point_on_the_tread(void **state) {
    (void)state;
    // A box standing across a step's edge lands on it: the point lies on the step's top, not in the air.
    tr_obb a = {tread_v3(-0.1f, 2.0f, 0), {tread_v3(1, 0, 0), tread_v3(0, 1, 0), tread_v3(0, 0, 1)}, tread_v3(0.3f, 0.9f, 0.3f)};
    tread_vec3 step = tread_v3(1, 0.5f, 1); // a box centred at the origin: its top at y = 0.5, its left face at x = -1
    a.center.x = -1.1f;                     // the box spans x in [-1.4, -0.8]: over the step's edge
    tr_hit h;
    assert_true(tr_sweep_box_box(&a, tread_v3(0, -3, 0), step, 1.0f, &h));
    assert_float_equal(h.t, (2.0f - 0.9f - 0.5f) / 3.0f, 1e-6f);
    assert_true(h.normal.y > 0.999f);
    assert_float_equal(h.point.y, 0.5f, 1e-5f);
    assert_true(h.point.x >= -1.0f - 1e-5f && h.point.x <= -0.8f + 1e-5f);
}

// ---- world queries through the public API --------------------------------------------------------------------

static tread_body_id add_body(tread_world *w, tread_shape_def shape, tread_vec3 p, tread_quat q) {
    tread_body_def def = tread_body_def_default();
    def.shape = shape;
    def.transform.p = p;
    def.transform.q = q;
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return id;
}

// Cast the character-sized box down onto a body whose top is at y = top below x, z = (0, 0): lands at top.
static void expect_landing(tread_world *w, float top, tread_vec3 xz) {
    tread_query_shape box = tread_query_box(tread_v3(0.3f, 0.9f, 0.3f), tread_v3(0, 1, 0));
    tread_vec3 start = tread_v3(xz.x, top + 5.0f, xz.z);
    tread_shape_hit hit;
    assert_int_equal(tread_world_cast_shape(w, &box, start, tread_v3(0, -10, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit);
    assert_float_equal(hit.fraction, (5.0f - 0.9f) / 10.0f, 2e-5f);
    assert_true(hit.normal.y > 0.99f);
    // Resting 1 mm above it: contacts and closest see it 1 mm away.
    tread_vec3 rest = tread_v3(xz.x, top + 0.901f, xz.z);
    tread_contact contacts[8];
    int count = 0;
    bool overflow = false;
    assert_int_equal(tread_world_collect_contacts(w, &box, rest, 0.01f, NULL, contacts, 8, &count, &overflow), TREAD_OK);
    assert_true(count >= 1);
    assert_float_equal(contacts[0].separation, 0.001f, 2e-5f);
    assert_true(contacts[0].normal.y > 0.99f);
    tread_distance_result d;
    assert_int_equal(tread_world_closest(w, &box, tread_v3(xz.x, top + 0.85f, xz.z), 1.0f, NULL, &d), TREAD_OK);
    assert_true(d.found);
    assert_float_equal(d.distance, -0.05f, 2e-5f);
    assert_true(d.normal.y > 0.99f);
    tread_shape_hit all[8];
    assert_int_equal(tread_world_cast_shape_all(w, &box, start, tread_v3(0, -10, 0), NULL, all, 8, &count, &overflow), TREAD_OK);
    assert_true(count >= 1);
    assert_float_equal(all[0].fraction, hit.fraction, 0.0f);
}

static void test_world_box_query_against_every_shape(void **state) {
    (void)state;
    tread_quat id = tread_quat_identity();
    // One world per shape so each landing is on that shape.
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    add_body(w, tread_shape_box(tread_v3(2, 0.5f, 2)), tread_v3(0, -0.5f, 0), id);
    expect_landing(w, 0.0f, tread_v3(0.3f, 0, -0.2f));
    tread_world_destroy(w);

    tread_world_create(NULL, &w);
    add_body(w, tread_shape_sphere(1.0f), tread_v3(0, -1.0f, 0), id);
    expect_landing(w, 0.0f, tread_v3(0, 0, 0));
    tread_world_destroy(w);

    tread_world_create(NULL, &w);
    add_body(w, tread_shape_capsule(1.0f, 0.5f), tread_v3(0, -0.5f, 0), tread_quat_from_axis_angle(tread_v3(1, 0, 0), 1.5707963f));
    expect_landing(w, 0.0f, tread_v3(0, 0, 0));
    tread_world_destroy(w);

    static const tread_vec3 verts[4] = {{-3, 0, -3}, {3, 0, -3}, {3, 0, 3}, {-3, 0, 3}};
    static const uint32_t idx[6] = {0, 2, 1, 0, 3, 2};
    tread_world_create(NULL, &w);
    add_body(w, tread_shape_mesh(verts, 4, idx, 2), tread_v3_zero(), id);
    expect_landing(w, 0.0f, tread_v3(0.1f, 0, 0.1f)); // across the mesh's internal diagonal
    tread_world_destroy(w);

    static const float heights[16] = {0};
    tread_world_create(NULL, &w);
    tread_shape_def hf = tread_shape_def_default();
    hf.type = TREAD_SHAPE_HEIGHTFIELD;
    hf.heightfield.count_x = 4, hf.heightfield.count_z = 4, hf.heightfield.spacing_x = 1, hf.heightfield.spacing_z = 1;
    hf.heightfield.heights = heights;
    add_body(w, hf, tread_v3(-1.5f, 0, -1.5f), id);
    expect_landing(w, 0.0f, tread_v3(0, 0, 0));
    tread_world_destroy(w);

    static const uint8_t solid[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    tread_world_create(NULL, &w);
    tread_shape_def vx = tread_shape_def_default();
    vx.type = TREAD_SHAPE_VOXELS;
    vx.voxels.count_x = 3, vx.voxels.count_y = 1, vx.voxels.count_z = 3, vx.voxels.cell_size = 1;
    vx.voxels.solid = solid;
    add_body(w, vx, tread_v3(-1.5f, -1, -1.5f), id);
    expect_landing(w, 0.0f, tread_v3(0.2f, 0, 0.1f)); // across voxel seams
    tread_world_destroy(w);
}

static void test_world_box_query_against_rotated_box_wall(void **state) {
    (void)state;
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    // A wall rotated 90 degrees about Y (a no-op for its shape): its face at x = 2.
    add_body(w, tread_shape_box(tread_v3(1, 2, 0.5f)), tread_v3(2.5f, 1, 0), tread_quat_from_axis_angle(tread_v3(0, 1, 0), 1.5707963f));
    tread_query_shape box = tread_query_box(tread_v3(0.3f, 0.9f, 0.3f), tread_v3(0, 1, 0));
    tread_shape_hit hit;
    assert_int_equal(tread_world_cast_shape(w, &box, tread_v3(0, 1, 0), tread_v3(4, 0, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit);
    assert_float_equal(hit.fraction, (2.0f - 0.3f) / 4.0f, 2e-5f);
    assert_true(hit.normal.x < -0.999f && hit.surface_normal.x < -0.999f);
    assert_float_equal(hit.point.x, 2.0f, 1e-4f);
    tread_world_destroy(w);
}

// A box query's skin (tread_query_shape::skin) rounds it where it starts against something: the soak's 1:2788, a box
// character (half 0.3163, skin 4.85 cm) sliding along a yawed block, its bare corner on the block's face. The grown box
// overlaps the block least along its own z axis (6.2 cm, against 6.7 cm along the block's face normal), which the
// motion leaves; moved unhindered, the bare box ends 5.6 mm inside the block. With the skin the cast stops at the start
// along the block's face normal, as the box within the skin touches it.
static void test_skin_rounds_a_box_query_where_it_starts(void **state) {
    (void)state;
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    double yaw = atan2(-0.5653, -0.8249); // the block's local x along (-0.8249, 0, 0.5653)
    tread_body_id block = add_body(w, tread_shape_box(tread_v3(0.5f, 0.8342f, 0.8963f)), tread_v3(-1.774f, 0.834f, -1.339f),
                                   tread_quat_from_axis_angle(tread_v3(0, 1, 0), (float)yaw));
    const float r = 0.3163f, half_h = 0.33265f, skin = 0.04853f;
    tread_vec3 center = tread_v3(-2.2057f, 0.0485f + half_h, -2.6632f), d = tread_v3(0.01017f, 0.0f, -0.00023f);
    tread_query_shape bare = tread_query_box(tread_v3(r, half_h, r), tread_v3(0, 1, 0));
    tread_query_shape grown = tread_query_box(tread_v3(r + skin, half_h + skin, r + skin), tread_v3(0, 1, 0));
    // The geometry's own verdict: the bare box starts (within a tenth of a millimetre) on the block, and moved by d
    // it is inside it.
    tread_distance_result before, after;
    assert_int_equal(tread_world_closest(w, &bare, center, 1.0f, NULL, &before), TREAD_OK);
    // (The soak printed the feet to 0.1 mm: put the bare box exactly on the face, as the slides before had.)
    center = tread_v3_mad(center, -before.distance, before.normal);
    assert_int_equal(tread_world_closest(w, &bare, center, 1.0f, NULL, &before), TREAD_OK);
    assert_int_equal(tread_world_closest(w, &bare, tread_v3_add(center, d), 1.0f, NULL, &after), TREAD_OK);
    print_message("bare box: %.6f m from the block at the start, %.6f m after the motion\n", (double)before.distance, (double)after.distance);
    assert_true(before.found && fabsf(before.distance) < 2e-4f);
    assert_true(after.found && after.distance < -4e-3f);
    tread_vec3 face = before.normal; // from the block toward the box: the block's face normal there
    // So a cast of the grown box with its skin stops at the start, along that face.
    grown.skin = skin;
    tread_shape_hit hit;
    assert_int_equal(tread_world_cast_shape(w, &grown, center, d, NULL, &hit), TREAD_OK);
    assert_true(hit.hit && hit.started_in_contact && hit.fraction == 0.0f);
    assert_true(tread_body_id_equal(hit.body, block));
    assert_true(tread_v3_dot(hit.normal, face) > 0.999f);
    assert_true(hit.penetration > 0.9f * skin && hit.penetration < 1.1f * skin); // the skin's depth, not the corner's
    // Moving away from the face it is let go.
    assert_int_equal(tread_world_cast_shape(w, &grown, center, tread_v3_scale(face, 0.01f), NULL, &hit), TREAD_OK);
    assert_false(hit.hit);
    // A skin is at most the smallest half extent, and finite.
    grown.skin = r + skin;
    assert_int_equal(tread_world_cast_shape(w, &grown, center, d, NULL, &hit), TREAD_ERR_INVALID_SHAPE);
    grown.skin = NAN;
    assert_int_equal(tread_world_cast_shape(w, &grown, center, d, NULL, &hit), TREAD_ERR_NOT_FINITE);
    tread_world_destroy(w);
}

static void test_world_rejects_bad_box_shapes(void **state) {
    (void)state;
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    tread_shape_hit hit;
    tread_query_shape box = tread_query_box(tread_v3(0.3f, 0.0f, 0.3f), tread_v3(0, 1, 0));
    assert_int_equal(tread_world_cast_shape(w, &box, tread_v3_zero(), tread_v3(1, 0, 0), NULL, &hit), TREAD_ERR_INVALID_SHAPE);
    box = tread_query_box(tread_v3(0.3f, NAN, 0.3f), tread_v3(0, 1, 0));
    assert_int_equal(tread_world_cast_shape(w, &box, tread_v3_zero(), tread_v3(1, 0, 0), NULL, &hit), TREAD_ERR_NOT_FINITE);
    box = tread_query_box(tread_v3(0.3f, 0.3f, 0.3f), tread_v3(0, 0, 0));
    box.up = tread_v3_zero();
    assert_int_equal(tread_world_cast_shape(w, &box, tread_v3_zero(), tread_v3(1, 0, 0), NULL, &hit), TREAD_ERR_INVALID_SHAPE);
    tread_character_settings s = tread_character_settings_default();
    s.shape = TREAD_QUERY_BOX;
    s.height = 0.0f;
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3_zero()), TREAD_ERR_INVALID_SHAPE);
    tread_world_destroy(w);
}

// ---- the box character ----------------------------------------------------------------------------------------

static tread_character_settings box_settings(tread_step_strategy strategy) {
    tread_character_settings s = tread_character_settings_default();
    s.shape = TREAD_QUERY_BOX;
    s.step_strategy = strategy;
    return s;
}

static void climb_s1(tread_step_strategy strategy) {
    static course_run run;
    tread_world *w = course_world();
    course_stairs(w);
    tread_character_settings s = box_settings(strategy);
    course_begin(&run, w, tread_v3(0, 0, 0), &s);
    course_walk(&run, tread_v3(4, 0, 0), 3.0f, COURSE_DT);
    tread_vec3 end = run.ch.position;
    int first_top = -1;
    for (int i = 0; i < run.frames && first_top < 0; i++)
        if (run.f[i].feet.y >= 1.95f) first_top = i;
    printf("box S1 (%s): end (%.4f, %.4f), top at t = %.3f s, max penetration %.5f m\n", strategy == TREAD_STEP_CONTACT ? "contact" : "sweep",
           (double)end.x, (double)end.y, (double)((float)(first_top + 1) * COURSE_DT), (double)course_max_penetration(&run));
    assert_true(course_all_finite(&run));
    assert_true(end.x >= 4.0f);
    assert_true(end.y >= 1.98f && end.y <= 2.02f);
    assert_true(first_top >= 0 && (float)(first_top + 1) * COURSE_DT <= 1.0f);
    assert_true(course_max_penetration(&run) <= 0.001f);
    assert_true(run.ch.ground.state == TREAD_GROUND_ON_GROUND);
    tread_world_destroy(w);
}

static void test_box_character_climbs_s1(void **state) {
    (void)state;
    climb_s1(TREAD_STEP_SWEEP);
}

static void test_box_character_climbs_s1_with_contact_strategy(void **state) {
    (void)state;
    climb_s1(TREAD_STEP_CONTACT);
}

static void test_box_character_is_blocked_by_a_half_metre_step(void **state) {
    (void)state;
    for (int k = 0; k < 2; k++) {
        static course_run run;
        tread_world *w = course_world();
        course_box(w, tread_v3(1, 0, -1), tread_v3(20, 0.5f, 1));
        tread_character_settings s = box_settings(k == 0 ? TREAD_STEP_SWEEP : TREAD_STEP_CONTACT);
        course_begin(&run, w, tread_v3(0, 0, 0), &s);
        course_walk(&run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
        float max_y = 0.0f;
        for (int i = 0; i < run.frames; i++) max_y = fmaxf(max_y, run.f[i].feet.y);
        assert_true(max_y <= 0.05f);
        assert_true(run.ch.position.x <= 1.0f - 0.3f + 1e-3f);
        assert_true(course_max_penetration(&run) <= 0.001f);
        tread_world_destroy(w);
    }
}

static void test_box_character_shape_and_centre(void **state) {
    (void)state;
    tread_character_settings s = box_settings(TREAD_STEP_SWEEP);
    s.radius = 0.4f;
    s.height = 1.0f; // a box may be wider than tall
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(1, 2, 3)), TREAD_OK);
    tread_query_shape q = tread_character_shape(&ch);
    assert_int_equal(q.type, TREAD_QUERY_BOX);
    assert_true(q.half_extents.x == 0.4f && q.half_extents.y == 0.5f && q.half_extents.z == 0.4f);
    tread_vec3 c = tread_character_center(&ch);
    assert_true(c.x == 1.0f && c.y == 2.5f && c.z == 3.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_box_box_matches_reference),
        cmocka_unit_test(test_sweep_box_box_long_casts),
        cmocka_unit_test(test_sweep_box_triangle_matches_reference),
        cmocka_unit_test(test_sweep_box_sphere_matches_reference),
        cmocka_unit_test(test_sweep_box_capsule_matches_reference),
        cmocka_unit_test(test_closest_box_box_matches_reference),
        cmocka_unit_test(test_closest_box_triangle_matches_reference),
        cmocka_unit_test(test_closest_box_capsule_matches_reference),
        cmocka_unit_test(test_upright_axes_are_world_axes_for_y_up),
        cmocka_unit_test(test_grazing_box_slides_along_a_face_without_hit),
        cmocka_unit_test(test_touching_normal_is_the_separating_axis),
        cmocka_unit_test(test_skin_grown_box_stops_at_a_near_tied_side),
        cmocka_unit_test(test_start_touching_hits_only_when_pressing),
        cmocka_unit_test(test_start_inside_reports_depth_and_push_out),
        cmocka_unit_test(test_zero_length_cast_reports_overlaps_only),
        cmocka_unit_test(test_degenerate_triangles_are_never_hit),
        cmocka_unit_test(test_sweep_lands_flat_with_point_on_the_tread),
        cmocka_unit_test(test_world_box_query_against_every_shape),
        cmocka_unit_test(test_world_box_query_against_rotated_box_wall),
        cmocka_unit_test(test_skin_rounds_a_box_query_where_it_starts),
        cmocka_unit_test(test_world_rejects_bad_box_shapes),
        cmocka_unit_test(test_box_character_shape_and_centre),
        cmocka_unit_test(test_box_character_climbs_s1),
        cmocka_unit_test(test_box_character_climbs_s1_with_contact_strategy),
        cmocka_unit_test(test_box_character_is_blocked_by_a_half_metre_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
