// SPDX-License-Identifier: MIT
// The capsule-vs-triangle shortcuts give the answers of the long way, bit for bit (src/geometry/sweep.c,
// src/geometry/closest.c, the triangle functions of src/world/shape.c): a sweep told that its start is apart answers
// as the sweep that tests the start itself; the cheap distance bound that lets a cast or contact skip the closest
// points is a lower bound of their distance, and where it shows a swept core farther than its radius the sweep misses;
// so does a cast whose distance's tangent at the start stays above the radius. Deterministic random capsules placed near triangles (touching, a little
// apart, overlapping), moving every way and along their own core (the probes down), where the shortcuts decide.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "geometry/geometry.h"
#include "tread/tread.h"
#include "course.h"

#define CASES 40000

static uint64_t rng_state;
static float uniform(float lo, float hi) { return course_uniform(&rng_state, lo, hi); }
static tread_vec3 random_vec(float lo, float hi) { return tread_v3(uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)); }

typedef struct capsule_case {
    tread_vec3 a, b, c;   // the triangle
    tread_vec3 p0, p1, d; // the capsule's core and motion
    float r, t_max;
} capsule_case;

// A capsule near the triangle: random, then moved along its closest-point normal to a random surface gap from -2 cm
// to 5 cm (a third of the cases within 0.1 mm: touching); upright or turned; some far from the origin; moving any
// way, along the triangle, into it, or along its own core.
static capsule_case random_case(int i) {
    capsule_case k;
    float scale = i % 5 == 0 ? 200.0f : 3.0f;
    k.a = random_vec(-scale, scale);
    k.b = tread_v3_add(k.a, random_vec(-3, 3));
    k.c = tread_v3_add(k.a, random_vec(-3, 3));
    k.r = uniform(0.05f, 0.8f);
    tread_vec3 mid = tread_v3_scale(tread_v3_add(k.a, tread_v3_add(k.b, k.c)), 1.0f / 3.0f);
    tread_vec3 base = tread_v3_add(mid, random_vec(-1.5f, 1.5f));
    tread_vec3 core = i % 3 == 0 ? tread_v3(0, uniform(0.0f, 1.5f), 0) : random_vec(-1, 1);
    if (i % 11 == 0) core = tread_v3_zero(); // a sphere
    k.p0 = base;
    k.p1 = tread_v3_add(base, core);
    tr_closest cl;
    if (tr_closest_segment_triangle(k.p0, k.p1, k.a, k.b, k.c, &cl)) {
        float gap = i % 3 == 1 ? uniform(-1.0e-4f, 1.0e-4f) : uniform(-0.02f, 0.05f);
        tread_vec3 move = tread_v3_scale(cl.normal, gap - (cl.distance - k.r));
        k.p0 = tread_v3_add(k.p0, move);
        k.p1 = tread_v3_add(k.p1, move);
    }
    switch (i % 4) {
    case 0: k.d = random_vec(-2, 2); break;
    case 1: k.d = tread_v3_scale(tread_v3_sub(mid, k.p0), uniform(0.0f, 2.0f)); break; // toward the triangle
    case 2: k.d = tread_v3_scale(tread_v3_sub(k.p0, k.p1), uniform(0.0f, 3.0f)); break; // along the core
    default: k.d = tread_v3_scale(tread_v3_sub(k.b, k.a), uniform(-1.0f, 1.0f)); break; // along an edge
    }
    k.t_max = i % 2 ? 1.0f : uniform(0.0f, 1.0f);
    return k;
}

static bool same_hit(bool hit_a, const tr_hit *a, bool hit_b, const tr_hit *b) {
    return hit_a == hit_b && (!hit_a || memcmp(a, b, sizeof *a) == 0);
}

// Started apart (the closest points farther than r), the sweep told so answers as the one that tests the start.
static void test_sweep_told_apart_answers_as_the_sweep(void **state) {
    (void)state;
    rng_state = 29;
    int apart = 0, hits = 0;
    for (int i = 0; i < CASES; i++) {
        capsule_case k = random_case(i);
        tr_closest cl;
        if (!tr_closest_segment_triangle(k.p0, k.p1, k.a, k.b, k.c, &cl) || !(cl.distance > k.r)) continue;
        apart++;
        tr_hit h, g;
        memset(&h, 0, sizeof h);
        memset(&g, 0, sizeof g);
        bool hit = tr_sweep_capsule_triangle(k.p0, k.p1, k.r, k.d, k.a, k.b, k.c, k.t_max, &h);
        bool told = tr_sweep_capsule_triangle_apart(k.p0, k.p1, k.r, k.d, k.a, k.b, k.c, k.t_max, &g);
        assert_true(same_hit(hit, &h, told, &g));
        hits += hit;
    }
    assert_true(apart > CASES / 3 && hits > apart / 10);
}

// The cheap lower bound of a segment's distance from a triangle is one: where it shows the segment farther than a
// distance, the closest points are (to the rounding of the coordinates, which its callers' slack covers).
static void test_distance_bound_is_a_lower_bound(void **state) {
    (void)state;
    rng_state = 30;
    int shown = 0, tested = 0;
    for (int i = 0; i < CASES; i++) {
        capsule_case k = random_case(i);
        tr_closest cl;
        tread_vec3 face = tr_triangle_normal(k.a, k.b, k.c);
        if (!tr_closest_segment_triangle(k.p0, k.p1, k.a, k.b, k.c, &cl)) continue;
        tested++;
        // Moved off by up to a metre, some straight away from the plane.
        tread_vec3 off = i % 2 ? random_vec(-1, 1) : tread_v3_scale(face, uniform(-1, 1));
        tread_vec3 p0 = tread_v3_add(k.p0, off), p1 = tread_v3_add(k.p1, off);
        assert_true(tr_closest_segment_triangle(p0, p1, k.a, k.b, k.c, &cl));
        float s0 = tread_v3_dot(face, tread_v3_sub(p0, k.a)), s1 = tread_v3_dot(face, tread_v3_sub(p1, k.a));
        float beyond = uniform(0.0f, 1.0f);
        if (!tr_segment_triangle_beyond(k.a, k.b, k.c, face, s0, s1, beyond, p0, p1)) continue;
        shown++;
        tread_vec3 m = tread_v3_max(tread_v3_max(tread_v3_abs(p0), tread_v3_abs(p1)),
                                    tread_v3_max(tread_v3_abs(k.a), tread_v3_max(tread_v3_abs(k.b), tread_v3_abs(k.c))));
        float scale = fmaxf(fmaxf(m.x, m.y), m.z);
        assert_true(cl.distance > beyond - 1.0e-6f * scale);
    }
    assert_true(shown > tested / 10);
}

// The swept version: where it shows the core, over the whole motion, farther than the radius (and a little more for
// rounding) from the triangle, the sweep misses it.
static void test_swept_bound_shows_a_miss(void **state) {
    (void)state;
    rng_state = 31;
    int shown = 0, tested = 0;
    for (int i = 0; i < CASES; i++) {
        capsule_case k = random_case(i);
        tread_vec3 face = tr_triangle_normal(k.a, k.b, k.c);
        tr_closest cl;
        if (!tr_closest_segment_triangle(k.p0, k.p1, k.a, k.b, k.c, &cl) || !(cl.distance > k.r)) continue;
        tested++;
        tread_vec3 m = tread_v3_scale(k.d, k.t_max);
        float s0 = tread_v3_dot(face, tread_v3_sub(k.p0, k.a)), s1 = tread_v3_dot(face, tread_v3_sub(k.p1, k.a));
        float beyond = k.r + 1.0e-5f;
        if (!tr_swept_segment_triangle_beyond(k.a, k.b, k.c, face, s0, s1, tread_v3_dot(face, m), beyond, k.p0, k.p1, m)) continue;
        shown++;
        tr_hit h;
        assert_false(tr_sweep_capsule_triangle(k.p0, k.p1, k.r, k.d, k.a, k.b, k.c, k.t_max, &h));
    }
    assert_true(shown > tested / 10);
}

// The tangent of the distance at the start bounds it below over the cast (it is convex in t): where the tangent stays
// above the radius (by a little, for rounding) until t_max, the sweep misses.
static void test_distance_tangent_shows_a_miss(void **state) {
    (void)state;
    rng_state = 32;
    int shown = 0, tested = 0;
    for (int i = 0; i < CASES; i++) {
        capsule_case k = random_case(i);
        tr_closest cl;
        if (!tr_closest_segment_triangle(k.p0, k.p1, k.a, k.b, k.c, &cl) || !(cl.distance > k.r)) continue;
        tested++;
        float rate = fminf(tread_v3_dot(cl.normal, k.d), 0.0f) - 1.0e-4f * tread_v3_length(k.d);
        if (!(cl.distance + k.t_max * rate > k.r + 1.0e-5f)) continue;
        shown++;
        tr_hit h;
        assert_false(tr_sweep_capsule_triangle(k.p0, k.p1, k.r, k.d, k.a, k.b, k.c, k.t_max, &h));
    }
    assert_true(shown > tested / 10);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_told_apart_answers_as_the_sweep),
        cmocka_unit_test(test_distance_bound_is_a_lower_bound),
        cmocka_unit_test(test_swept_bound_shows_a_miss),
        cmocka_unit_test(test_distance_tangent_shows_a_miss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
