// SPDX-License-Identifier: MIT
// The soak checker's own measures. Its depth bound (tools/soak/bound.c): at least the deepest piece's depth, exact for
// one convex piece, and the depth in the whole where a box lies across a heightfield cell's diagonal, whose triangles
// it leaves soonest sideways over that diagonal (11:1129: the deepest piece grew while the box rose out, and was
// called deeper). Its crossing check (crossing.c): a wall between a crushed move's start and end is a crossing, the
// corner of a short wall it could have gone round is not, unless the character is too wide to go round it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "soak.h"

static soak_world new_world(void) {
    soak_world w;
    memset(&w, 0, sizeof w);
    assert_int_equal(tread_world_create(NULL, &w.world), TREAD_OK);
    return w;
}

static void add(soak_world *w, soak_body *b) {
    char message[200];
    assert_true(soak_world_add(w, b, message, sizeof message));
}

// A flat heightfield at height 0 over [0, 4] x [0, 4], cells of 1 m.
static void add_flat_heightfield(soak_world *w, double tilt_z) {
    soak_body b;
    memset(&b, 0, sizeof b);
    b.kind = SOAK_BODY_HEIGHTFIELD;
    b.heights = malloc(sizeof(float) * 25);
    for (int j = 0; j < 5; ++j)
        for (int i = 0; i < 5; ++i) b.heights[j * 5 + i] = (float)(tilt_z * fabs(j - 2.0)); // tilt_z > 0: a valley along x
    b.def = tread_body_def_default();
    b.def.shape = tread_shape_heightfield(5, 5, 1.0f, 1.0f, b.heights, NULL);
    add(w, &b);
}

static soak_shape upright_box(soak_v3 centre, double half_x, double half_y, double half_z) {
    soak_shape s;
    memset(&s, 0, sizeof s);
    s.is_box = true;
    s.box.c = centre;
    s.box.axis[0] = soak_v3_make(1, 0, 0), s.box.axis[1] = soak_v3_make(0, 1, 0), s.box.axis[2] = soak_v3_make(0, 0, 1);
    s.box.half[0] = half_x, s.box.half[1] = half_y, s.box.half[2] = half_z;
    s.lo = soak_v3_make(centre.x - half_x, centre.y - half_y, centre.z - half_z);
    s.hi = soak_v3_make(centre.x + half_x, centre.y + half_y, centre.z + half_z);
    return s;
}

static const soak_v3 kUp = {0.0, 1.0, 0.0};

// One box body: the bound is its depth.
static void test_one_convex_piece_is_exact(void **state) {
    (void)state;
    soak_world w = new_world();
    soak_body b;
    memset(&b, 0, sizeof b);
    b.kind = SOAK_BODY_BOX;
    b.def = tread_body_def_default();
    b.def.shape = tread_shape_box(tread_v3(1, 1, 1));
    add(&w, &b);
    soak_shape s = upright_box(soak_v3_make(0, 1.3, 0), 0.25, 0.5, 0.25); // 0.2 m into the top
    double depth = soak_world_penetration(&w, &s, ~0u, 0.0, NULL, NULL);
    assert_true(fabs(depth - 0.2) < 1e-9);
    assert_true(soak_world_depth_bound(&w, &s, kUp, ~0u, NULL, 2.0) == depth);
    soak_world_free(&w);
}

// A narrow box sunk 0.3 m into a flat heightfield across a cell's diagonal: each triangle lets it out sideways over
// the diagonal sooner than 0.3 m, the whole only straight up.
static void test_across_a_diagonal_the_whole_is_deeper(void **state) {
    (void)state;
    soak_world w = new_world();
    add_flat_heightfield(&w, 0.0);
    soak_shape s = upright_box(soak_v3_make(1.5, 0.5 - 0.3, 1.5), 0.1, 0.5, 0.1);
    double deepest_piece = soak_world_penetration(&w, &s, ~0u, 0.0, NULL, NULL);
    double bound = soak_world_depth_bound(&w, &s, kUp, ~0u, NULL, 2.0);
    assert_true(deepest_piece < 0.25);           // the diagonal's way out of one triangle
    assert_true(fabs(bound - 0.3) < 1e-6);       // straight up, the only way out of both
    // Sliding along the diagonal, the deepest piece changes while the depth in the whole does not.
    soak_shape t = upright_box(soak_v3_make(1.45, 0.5 - 0.3, 1.5), 0.1, 0.5, 0.1);
    assert_true(soak_world_penetration(&w, &t, ~0u, 0.0, NULL, NULL) != deepest_piece);
    assert_true(fabs(soak_world_depth_bound(&w, &t, kUp, ~0u, NULL, 2.0) - 0.3) < 1e-6);
    soak_world_free(&w);
}

// In a valley (two slopes meeting below the box), the way out lies between the slopes' normals, straight up here:
// found, and no less than either slope's own depth.
static void test_valley_bound_between_the_slopes(void **state) {
    (void)state;
    soak_world w = new_world();
    add_flat_heightfield(&w, 0.5); // the valley's floor along z = 2, slopes rising 0.5 m a metre either side
    soak_shape s = upright_box(soak_v3_make(1.5, 0.5 + 0.05, 2.0), 0.2, 0.5, 0.2); // corners 0.05 m into the slopes
    double deepest_piece = soak_world_penetration(&w, &s, ~0u, 0.0, NULL, NULL);
    double bound = soak_world_depth_bound(&w, &s, kUp, ~0u, NULL, 2.0);
    assert_true(deepest_piece > 0.0);
    assert_true(bound >= deepest_piece);
    assert_true(fabs(bound - 0.05) < 1e-6); // straight up: 0.05 m lifts its corners clear of both slopes
    soak_world_free(&w);
}

static void add_box(soak_world *w, soak_v3 centre, double hx, double hy, double hz) {
    soak_body b;
    memset(&b, 0, sizeof b);
    b.kind = SOAK_BODY_BOX;
    b.def = tread_body_def_default();
    b.def.shape = tread_shape_box(tread_v3((float)hx, (float)hy, (float)hz));
    b.def.transform.p = tread_v3((float)centre.x, (float)centre.y, (float)centre.z);
    add(w, &b);
}

// A crushed move from x = -1 to x = 1 with a 0.2 m wall across x = 0 (3 m of way allowed for its 2 m).
static double crossing_past_wall(double wall_half_z, double shape_half_z) {
    soak_world w = new_world();
    add_box(&w, soak_v3_make(0, 1.5, 0), 0.1, 1.5, wall_half_z);
    soak_v3 a = soak_v3_make(-1, 1, 0), b = soak_v3_make(1, 1, 0);
    soak_shape before = upright_box(a, 0.2, 0.2, shape_half_z);
    double crossed = soak_world_crossing(&w, &before, a, b, NULL, 0, 3.0, 0.2, ~0u, NULL);
    soak_world_free(&w);
    return crossed;
}

static void test_crossing_a_wall(void **state) {
    (void)state;
    assert_true(crossing_past_wall(5.0, 0.2) > 0.19);  // the wall runs on past any way 3 m long: through it
    assert_true(crossing_past_wall(0.3, 0.2) == 0.0);  // a short wall: round its end, 2.7 m
    assert_true(crossing_past_wall(0.3, 1.2) > 0.19);  // a shape 2.4 m wide cannot go round it within 3 m
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_convex_piece_is_exact),
        cmocka_unit_test(test_across_a_diagonal_the_whole_is_deeper),
        cmocka_unit_test(test_valley_bound_between_the_slopes),
        cmocka_unit_test(test_crossing_a_wall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
