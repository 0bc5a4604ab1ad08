// SPDX-License-Identifier: MIT
// The box query's shortcuts give the answers of the long way, bit for bit (src/geometry/box.c, the box branches of
// src/world/shape.c): the closest features skip box edges bounded farther than a distance found, yet the distance is
// still the least of every pair's, and a pair found within a distance shows it is within it; the measure that stops
// at an axis setting the shapes apart by more than a limit bounds their distance from below; apart along it by more
// than the cast travels, the sweep misses; the contact query's early-outs answer as the exact closest points would.
// Deterministic random boxes placed near triangles (touching, a little apart, overlapping), where the shortcuts decide.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "geometry/box.h"
#include "tread/tread.h"
#include "world/shape.h"
#include "course.h"

#define CASES 20000

static uint64_t rng_state;
static float uniform(float lo, float hi) { return course_uniform(&rng_state, lo, hi); }
static tread_vec3 random_vec(float lo, float hi) { return tread_v3(uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)); }

// A box near the triangle pqr: random, then moved along its separating axis to a random gap from -2 cm to 5 cm
// (a third of the cases within 0.1 mm: touching), upright or turned, some far from the origin.
static tr_obb box_near(tread_vec3 p, tread_vec3 q, tread_vec3 r, int i) {
    tr_obb a;
    a.center = tread_v3_scale(tread_v3_add(p, tread_v3_add(q, r)), 1.0f / 3.0f);
    a.center = tread_v3_add(a.center, random_vec(-1.5f, 1.5f));
    a.half = random_vec(0.1f, 1.2f);
    if (i % 2) {
        tread_quat o = tread_quat_normalize((tread_quat){uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
        a.axis[0] = tread_quat_rotate(o, tread_v3(1, 0, 0));
        a.axis[1] = tread_quat_rotate(o, tread_v3(0, 1, 0));
        a.axis[2] = tread_quat_rotate(o, tread_v3(0, 0, 1));
    } else {
        tr_upright_axes(tread_v3(0, 1, 0), a.axis);
    }
    tr_box_axes axes;
    tr_box_sat sat;
    if (!tr_box_triangle_axes(&a, p, q, r, &axes)) return a;
    tr_box_triangle_sat(&a, p, q, r, &axes, INFINITY, &sat);
    float gap = i % 3 == 0 ? uniform(-1.0e-4f, 1.0e-4f) : uniform(-0.02f, 0.05f);
    a.center = tread_v3_mad(a.center, gap - sat.gap, sat.dir);
    return a;
}

static tread_vec3 random_corner(float scale) { return random_vec(-scale, scale); }

// The box's corner i (bit 0: +axis 0, bit 1: +axis 1, bit 2: +axis 2), as the library builds them.
static tread_vec3 corner(const tr_obb *a, int i) {
    tread_vec3 c = a->center;
    c = tread_v3_mad(c, (i & 1) ? a->half.x : -a->half.x, a->axis[0]);
    c = tread_v3_mad(c, (i & 2) ? a->half.y : -a->half.y, a->axis[1]);
    return tread_v3_mad(c, (i & 4) ? a->half.z : -a->half.z, a->axis[2]);
}

// Separated (the measure's gap > 0), the distance is the least of every box edge's against the triangle, bit for bit:
// no edge the bounds skipped was nearer.
static void test_separated_distance_is_every_edges_least(void **state) {
    (void)state;
    rng_state = 41;
    int separated = 0, from_an_edge = 0, shown = 0;
    for (int i = 0; i < CASES; i++) {
        float scale = i % 5 == 0 ? 200.0f : 3.0f;
        tread_vec3 p = random_corner(scale), q = tread_v3_add(p, random_vec(-3, 3)), r = tread_v3_add(p, random_vec(-3, 3));
        tr_obb a = box_near(p, q, r, i);
        tr_box_axes axes;
        tr_box_sat sat;
        if (!tr_box_triangle_axes(&a, p, q, r, &axes)) continue;
        tr_box_triangle_sat(&a, p, q, r, &axes, INFINITY, &sat);
        if (!(sat.gap > 0.0f)) continue;
        separated++;
        tr_closest cl;
        assert_true(tr_closest_box_triangle(&a, p, q, r, &cl));
        float least = INFINITY;
        for (int e = 0; e < 8; e++)
            for (int k = 0; k < 3; k++) {
                if (e & (1 << k)) continue;
                tr_closest ecl;
                if (!tr_closest_segment_triangle(corner(&a, e), corner(&a, e | (1 << k)), p, q, r, &ecl)) continue;
                assert_true(cl.distance <= ecl.distance);
                least = fminf(least, ecl.distance);
            }
        // The triangle's corners against the box can only be nearer still.
        assert_true(cl.distance <= least);
        if (cl.distance == least) from_an_edge++;
        // A pair within a distance shows the closest one is.
        float within = uniform(0.0f, 2.0e-4f);
        if (tr_box_triangle_within(&a, p, q, r, &sat, within)) {
            assert_true(cl.distance <= within);
            shown++;
        }
    }
    assert_true(separated > CASES / 4 && from_an_edge > separated / 4 && shown > separated / 20);
}

// A measure stopped at an axis setting the box apart by more than its limit bounds the distance from below; the
// sweep misses where that axis keeps them apart over the whole motion.
static void test_stopped_measure_bounds_distance_and_sweep(void **state) {
    (void)state;
    rng_state = 42;
    int stopped = 0, missed = 0;
    for (int i = 0; i < CASES; i++) {
        tread_vec3 p = random_corner(3.0f), q = tread_v3_add(p, random_vec(-3, 3)), r = tread_v3_add(p, random_vec(-3, 3));
        tr_obb a = box_near(p, q, r, i);
        tr_box_axes axes;
        tr_box_sat sat;
        if (!tr_box_triangle_axes(&a, p, q, r, &axes)) continue;
        float limit = uniform(1.0e-3f, 0.01f);
        if (tr_box_triangle_sat(&a, p, q, r, &axes, limit, &sat)) continue;
        stopped++;
        assert_true(sat.gap > limit);
        tr_closest cl;
        assert_true(tr_closest_box_triangle(&a, p, q, r, &cl));
        assert_true(cl.distance > limit - 1.0e-5f); // (rounding)
        tread_vec3 d = tread_v3_scale(tread_v3_normalize(random_vec(-1, 1)), uniform(0.0f, 0.9f) * (sat.gap - limit));
        tr_hit h;
        assert_false(tr_sweep_box_triangle(&a, d, p, q, r, 1.0f, &h));
        missed++;
    }
    assert_true(stopped > CASES / 4 && missed == stopped);
}

static tr_cast cast_of(const tr_obb *a) {
    tr_cast c;
    memset(&c, 0, sizeof c);
    c.p0 = c.p1 = a->center;
    c.is_box = true;
    c.box_half = a->half;
    for (int i = 0; i < 3; i++) c.box_axes[i] = a->axis[i];
    return c;
}

// The box's contact with a triangle: its plane and separating-axis early-outs answer as the exact closest points
// do (in range of the margin, and with the same point and distance).
static void test_contact_early_outs_agree_with_the_closest_points(void **state) {
    (void)state;
    rng_state = 43;
    int in_range = 0, out_of_range = 0;
    for (int i = 0; i < CASES; i++) {
        float scale = i % 5 == 0 ? 200.0f : 3.0f;
        tread_vec3 p = random_corner(scale), q = tread_v3_add(p, random_vec(-3, 3)), r = tread_v3_add(p, random_vec(-3, 3));
        tr_obb a = box_near(p, q, r, i);
        tr_cast c = cast_of(&a);
        float margin = uniform(0.0f, 0.03f);
        tr_closest cl;
        bool exact = tr_closest_box_triangle(&a, p, q, r, &cl) && !(cl.distance > margin);
        tr_feature_contact contact;
        bool got = tr_query_contact_triangle(&c, p, q, r, 7u, margin, &contact);
        assert_true(got == exact);
        if (!got) {
            out_of_range++;
            continue;
        }
        in_range++;
        assert_true(contact.separation == cl.distance);
        assert_true(contact.point.x == cl.on_shape.x && contact.point.y == cl.on_shape.y && contact.point.z == cl.on_shape.z);
    }
    assert_true(in_range > CASES / 10 && out_of_range > CASES / 10);
}

// The axes one by one as box.h defines them (the face normal, the box's axes, the normalised crosses of the unit edges
// with the box's axes that are not nearly zero, zero past them): tr_box_triangle_axes gives them bit for bit, in order,
// however it builds them (the edges as SSE lanes). Axis-aligned triangles and upright boxes give exact zeros and
// parallel pairs.
static void test_triangle_axes_are_the_scalar_ones(void **state) {
    (void)state;
    rng_state = 29;
    int skipped = 0;
    for (int i = 0; i < CASES; i++) {
        tread_vec3 p = random_corner(3.0f), q = random_corner(3.0f), r = random_corner(3.0f);
        if (i % 4 == 0) p.y = q.y = r.y = uniform(-1, 1); // flat: edges perpendicular to an upright box's axis
        if (i % 4 == 2) q = tread_v3(p.x + uniform(0.1f, 2.0f), p.y, p.z); // an edge along an upright box's axis
        tr_obb a = box_near(p, q, r, i);
        tr_box_axes got;
        bool ok = tr_box_triangle_axes(&a, p, q, r, &got);
        tread_vec3 e[3] = {tread_v3_sub(q, p), tread_v3_sub(r, q), tread_v3_sub(p, r)};
        tread_vec3 n = tread_v3_cross(e[0], tread_v3_sub(r, p));
        float twice_area = tread_v3_length(n);
        assert_true(ok == (twice_area >= TR_DEGENERATE_AREA));
        if (!ok) continue;
        float x[TR_BOX_AXES] = {0}, y[TR_BOX_AXES] = {0}, z[TR_BOX_AXES] = {0};
        int count = 0;
        tread_vec3 face = tread_v3_scale(n, 1.0f / twice_area);
        x[count] = face.x, y[count] = face.y, z[count++] = face.z;
        for (int j = 0; j < 3; j++) x[count] = a.axis[j].x, y[count] = a.axis[j].y, z[count++] = a.axis[j].z;
        for (int k = 0; k < 3; k++) {
            tread_vec3 u = tread_v3_normalize(e[k]);
            for (int j = 0; j < 3; j++) {
                tread_vec3 c = tread_v3_cross(u, a.axis[j]);
                float l2 = tread_v3_length_sq(c);
                if (!(l2 >= TR_BOX_CROSS_EPS)) {
                    skipped++;
                    continue;
                }
                c = tread_v3_scale(c, 1.0f / sqrtf(l2));
                x[count] = c.x, y[count] = c.y, z[count++] = c.z;
            }
        }
        assert_int_equal(got.count, count);
        assert_memory_equal(got.x, x, sizeof x);
        assert_memory_equal(got.y, y, sizeof y);
        assert_memory_equal(got.z, z, sizeof z);
    }
    assert_true(skipped > CASES / 20); // parallel pairs were met
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_separated_distance_is_every_edges_least),
        cmocka_unit_test(test_stopped_measure_bounds_distance_and_sweep),
        cmocka_unit_test(test_contact_early_outs_agree_with_the_closest_points),
        cmocka_unit_test(test_triangle_axes_are_the_scalar_ones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
