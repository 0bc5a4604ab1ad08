// SPDX-License-Identifier: MIT
// The grid shape constructors (tread_shape_heightfield, tread_shape_voxels): they fill the same definition as by
// hand, a body built from them answers queries where the grid says, and tread_world_add_body refuses their bad
// inputs with the specific error.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <tread/tread.h>

static tread_result add(tread_world *world, tread_shape_def shape) {
    tread_body_def def = tread_body_def_default();
    def.shape = shape;
    tread_body_id id;
    return tread_world_add_body(world, &def, &id);
}

static float ray_down_at(const tread_world *world, float x, float z) {
    tread_ray_hit hit;
    assert_int_equal(tread_world_cast_ray(world, tread_v3(x, 10.0f, z), tread_v3(0.0f, -20.0f, 0.0f), NULL, &hit), TREAD_OK);
    return hit.hit ? hit.point.y : -INFINITY;
}

static void test_heightfield_helper_fills_the_definition(void **state) {
    (void)state;
    static const float heights[6] = {0, 0, 0, 1, 1, 1};
    static const uint8_t holes[2] = {0, 1};
    tread_shape_def s = tread_shape_heightfield(3, 2, 0.5f, 2.0f, heights, holes);
    tread_shape_def d = tread_shape_def_default();
    assert_int_equal(s.type, TREAD_SHAPE_HEIGHTFIELD);
    assert_int_equal(s.heightfield.count_x, 3);
    assert_int_equal(s.heightfield.count_z, 2);
    assert_true(s.heightfield.spacing_x == 0.5f && s.heightfield.spacing_z == 2.0f);
    assert_ptr_equal(s.heightfield.heights, heights);
    assert_ptr_equal(s.heightfield.holes, holes);
    assert_int_equal(s.internal_cookie, d.internal_cookie);
    // the other shapes' fields keep their defaults
    assert_true(s.radius == d.radius && s.voxels.cell_size == d.voxels.cell_size);
}

static void test_voxels_helper_fills_the_definition(void **state) {
    (void)state;
    static const uint8_t solid[8] = {1, 0, 0, 0, 0, 0, 0, 1};
    tread_shape_def s = tread_shape_voxels(2, 2, 2, 0.25f, solid);
    assert_int_equal(s.type, TREAD_SHAPE_VOXELS);
    assert_int_equal(s.voxels.count_x, 2);
    assert_int_equal(s.voxels.count_y, 2);
    assert_int_equal(s.voxels.count_z, 2);
    assert_true(s.voxels.cell_size == 0.25f);
    assert_ptr_equal(s.voxels.solid, solid);
    assert_int_equal(s.internal_cookie, tread_shape_def_default().internal_cookie);
}

// A ramp along Z: row j = 0 at height 0, row j = 1 at height 1, 2 m apart; the second cell (x in [0.5, 1]) a hole.
static void test_heightfield_helper_body_answers_where_the_grid_says(void **state) {
    (void)state;
    static const float heights[6] = {0, 0, 0, 1, 1, 1};
    static const uint8_t holes[2] = {0, 1};
    tread_world *world = NULL;
    assert_int_equal(tread_world_create(NULL, &world), TREAD_OK);
    assert_int_equal(add(world, tread_shape_heightfield(3, 2, 0.5f, 2.0f, heights, holes)), TREAD_OK);
    assert_float_equal(ray_down_at(world, 0.25f, 1.0f), 0.5f, 1e-6f); // halfway up the slope
    assert_true(isinf(ray_down_at(world, 0.75f, 1.0f)));                // through the hole
    assert_true(isinf(ray_down_at(world, 1.5f, 1.0f)));                 // beyond the grid
    tread_world_destroy(world);
}

static void test_voxels_helper_body_answers_where_the_grid_says(void **state) {
    (void)state;
    // 2 x 2 x 1 cells of 0.5 m: cell (0, 0, 0) and cell (1, 1, 0) solid, a step up to 1 m at x >= 0.5.
    static const uint8_t solid[4] = {1, 0, 0, 1};
    tread_world *world = NULL;
    assert_int_equal(tread_world_create(NULL, &world), TREAD_OK);
    assert_int_equal(add(world, tread_shape_voxels(2, 2, 1, 0.5f, solid)), TREAD_OK);
    assert_float_equal(ray_down_at(world, 0.25f, 0.25f), 0.5f, 1e-6f);
    assert_float_equal(ray_down_at(world, 0.75f, 0.25f), 1.0f, 1e-6f);
    assert_true(isinf(ray_down_at(world, 0.25f, 0.75f)));
    tread_world_destroy(world);
}

static void test_grid_helpers_bad_input_is_refused_by_name(void **state) {
    (void)state;
    static const float heights[4] = {0, 0, 0, 0};
    static const float bad_heights[4] = {0, NAN, 0, 0};
    static const uint8_t solid[1] = {1};
    tread_world *world = NULL;
    assert_int_equal(tread_world_create(NULL, &world), TREAD_OK);
    assert_int_equal(add(world, tread_shape_heightfield(1, 2, 1.0f, 1.0f, heights, NULL)), TREAD_ERR_INVALID_MESH);
    assert_non_null(strstr(tread_error_message(), "heightfield.count_x = 1"));
    assert_int_equal(add(world, tread_shape_heightfield(2, 2, 0.0f, 1.0f, heights, NULL)), TREAD_ERR_INVALID_SHAPE);
    assert_int_equal(add(world, tread_shape_heightfield(2, 2, 1.0f, 1.0f, bad_heights, NULL)), TREAD_ERR_NOT_FINITE);
    assert_int_equal(add(world, tread_shape_heightfield(2, 2, 1.0f, 1.0f, NULL, NULL)), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(add(world, tread_shape_voxels(1, 0, 1, 1.0f, solid)), TREAD_ERR_INVALID_MESH);
    assert_non_null(strstr(tread_error_message(), "voxels.count_y = 0"));
    assert_int_equal(add(world, tread_shape_voxels(1, 1, 1, -1.0f, solid)), TREAD_ERR_INVALID_SHAPE);
    assert_int_equal(add(world, tread_shape_voxels(1, 1, 1, 1.0f, NULL)), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_body_count(world), 0);
    tread_world_destroy(world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heightfield_helper_fills_the_definition),
        cmocka_unit_test(test_voxels_helper_fills_the_definition),
        cmocka_unit_test(test_heightfield_helper_body_answers_where_the_grid_says),
        cmocka_unit_test(test_voxels_helper_body_answers_where_the_grid_says),
        cmocka_unit_test(test_grid_helpers_bad_input_is_refused_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
