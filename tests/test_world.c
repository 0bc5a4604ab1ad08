// SPDX-License-Identifier: MIT
// World-level tests: bodies and ids, validation of every public entry point, filters, result ordering,
// and the broadphase against a linear scan over all bodies while bodies are added, moved and removed.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "tread/tread.h"
#include "world/shape.h"

static uint64_t rng_state;
static uint64_t splitmix64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)(splitmix64() >> 40) / (float)(1ull << 24); }
static tread_vec3 random_vec(float lo, float hi) { return tread_v3(uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)); }
static tread_quat random_quat(void) {
    tread_quat q = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
    return tread_quat_normalize(q);
}

static tread_world *make_world(void) {
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    return w;
}

static tread_body_id add_box(tread_world *w, tread_vec3 center, tread_vec3 half) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(half);
    def.transform.p = center;
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return id;
}

// The world still answers correctly after a refused call.
static void assert_world_usable(tread_world *w, int bodies) {
    assert_int_equal(tread_world_body_count(w), bodies);
    tread_ray_hit hit;
    assert_int_equal(tread_world_cast_ray(w, tread_v3(0, 10, 0), tread_v3(0, -20, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit);
    assert_float_equal(hit.point.y, 0.0f, 1e-5f);
}

static void expect_add_error(tread_world *w, const tread_body_def *def, tread_result expected, const char *needle) {
    tread_body_id id = {7u, 7u};
    tread_result r = tread_world_add_body(w, def, &id);
    assert_int_equal(r, expected);
    assert_int_equal(id.generation, 0u); // out id is nulled on failure
    assert_non_null(strstr(tread_error_message(), tread_result_name(expected)));
    assert_non_null(strstr(tread_error_message(), needle));
}

static void test_add_body_rejects_bad_input(void **state) {
    (void)state;
    tread_world *w = make_world();
    add_box(w, tread_v3(0, -0.5f, 0), tread_v3(10, 0.5f, 10));
    tread_body_def def = tread_body_def_default();
    tread_body_id id;
    assert_int_equal(tread_world_add_body(NULL, &def, &id), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_add_body(w, NULL, &id), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_add_body(w, &def, NULL), TREAD_ERR_NULL_ARGUMENT);

    def = tread_body_def_default();
    def.transform.p.x = NAN;
    expect_add_error(w, &def, TREAD_ERR_NOT_FINITE, "def.transform");
    def = tread_body_def_default();
    def.transform.p.z = INFINITY;
    expect_add_error(w, &def, TREAD_ERR_NOT_FINITE, "def.transform");
    def = tread_body_def_default();
    def.transform.q.w = NAN;
    expect_add_error(w, &def, TREAD_ERR_NOT_FINITE, "def.transform");
    def = tread_body_def_default();
    def.transform.q = (tread_quat){0, 0, 0, 0};
    expect_add_error(w, &def, TREAD_ERR_INVALID_ARGUMENT, "unit quaternion");
    def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(1, 0, 1));
    expect_add_error(w, &def, TREAD_ERR_INVALID_SHAPE, "half_extents.y");
    def.shape = tread_shape_box(tread_v3(-1, 1, 1));
    expect_add_error(w, &def, TREAD_ERR_INVALID_SHAPE, "half_extents.x");
    def.shape = tread_shape_box(tread_v3(1, 1, NAN));
    expect_add_error(w, &def, TREAD_ERR_NOT_FINITE, "half_extents.z");
    def.shape = tread_shape_sphere(-0.5f);
    expect_add_error(w, &def, TREAD_ERR_INVALID_SHAPE, "radius");
    def.shape = tread_shape_capsule(-1.0f, 0.5f);
    expect_add_error(w, &def, TREAD_ERR_INVALID_SHAPE, "half_height");
    def.shape = tread_shape_capsule(1.0f, INFINITY);
    expect_add_error(w, &def, TREAD_ERR_NOT_FINITE, "radius");
    def.shape = tread_shape_def_default();
    def.shape.type = (tread_shape_type)99;
    expect_add_error(w, &def, TREAD_ERR_INVALID_SHAPE, "shape.type");
    def = tread_body_def_default();
    def.layer = 32;
    expect_add_error(w, &def, TREAD_ERR_INVALID_ARGUMENT, "layer");
    def = tread_body_def_default();
    def.linear_velocity.y = NAN;
    expect_add_error(w, &def, TREAD_ERR_NOT_FINITE, "linear_velocity");

    // Meshes: out-of-range index, NaN vertex, empty, NULL arrays.
    tread_vec3 verts[3] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    uint32_t bad_idx[3] = {0, 1, 3};
    def = tread_body_def_default();
    def.shape = tread_shape_mesh(verts, 3, bad_idx, 1);
    expect_add_error(w, &def, TREAD_ERR_INVALID_MESH, "indices");
    uint32_t idx[3] = {0, 1, 2};
    def.shape = tread_shape_mesh(verts, 3, idx, 0);
    expect_add_error(w, &def, TREAD_ERR_INVALID_MESH, "triangle_count");
    def.shape = tread_shape_mesh(NULL, 3, idx, 1);
    expect_add_error(w, &def, TREAD_ERR_NULL_ARGUMENT, "vertices");
    def.shape = tread_shape_mesh(verts, 3, NULL, 1);
    expect_add_error(w, &def, TREAD_ERR_NULL_ARGUMENT, "indices");
    tread_vec3 nan_verts[3] = {{0, 0, 0}, {1, NAN, 0}, {0, 0, 1}};
    def.shape = tread_shape_mesh(nan_verts, 3, idx, 1);
    expect_add_error(w, &def, TREAD_ERR_NOT_FINITE, "vertices");

    // Heightfields and voxel grids.
    float heights[4] = {0, 0, 0, 0};
    def.shape = tread_shape_def_default();
    def.shape.type = TREAD_SHAPE_HEIGHTFIELD;
    def.shape.heightfield.count_x = 1;
    def.shape.heightfield.count_z = 2;
    def.shape.heightfield.heights = heights;
    expect_add_error(w, &def, TREAD_ERR_INVALID_MESH, "count_x");
    def.shape.heightfield.count_x = 2;
    def.shape.heightfield.heights = NULL;
    expect_add_error(w, &def, TREAD_ERR_NULL_ARGUMENT, "heights");
    float nan_heights[4] = {0, NAN, 0, 0};
    def.shape.heightfield.heights = nan_heights;
    expect_add_error(w, &def, TREAD_ERR_NOT_FINITE, "heights");
    def.shape.heightfield.heights = heights;
    def.shape.heightfield.spacing_x = 0.0f;
    expect_add_error(w, &def, TREAD_ERR_INVALID_SHAPE, "spacing_x");
    uint8_t cells[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    def.shape = tread_shape_def_default();
    def.shape.type = TREAD_SHAPE_VOXELS;
    def.shape.voxels.count_x = 2;
    def.shape.voxels.count_y = 0;
    def.shape.voxels.count_z = 2;
    def.shape.voxels.solid = cells;
    expect_add_error(w, &def, TREAD_ERR_INVALID_MESH, "count_y");
    def.shape.voxels.count_y = 2;
    def.shape.voxels.cell_size = -1.0f;
    expect_add_error(w, &def, TREAD_ERR_INVALID_SHAPE, "cell_size");
    def.shape.voxels.cell_size = 1.0f;
    def.shape.voxels.solid = NULL;
    expect_add_error(w, &def, TREAD_ERR_NULL_ARGUMENT, "solid");

    assert_world_usable(w, 1);
    tread_world_destroy(w);
}

static void test_world_create_and_ids(void **state) {
    (void)state;
    assert_int_equal(tread_world_create(NULL, NULL), TREAD_ERR_NULL_ARGUMENT);
    tread_world_def def = tread_world_def_default();
    def.body_capacity = -3;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(&def, &w), TREAD_ERR_INVALID_ARGUMENT);
    assert_null(w);
    def.body_capacity = 1; // forces growth
    assert_int_equal(tread_world_create(&def, &w), TREAD_OK);
    tread_body_id a = add_box(w, tread_v3(0, -0.5f, 0), tread_v3(10, 0.5f, 10));
    tread_body_id b = add_box(w, tread_v3(5, 5, 5), tread_v3(1, 1, 1));
    assert_true(tread_body_is_valid(w, a));
    assert_true(tread_body_is_valid(w, b));
    assert_int_equal(tread_world_remove_body(w, b), TREAD_OK);
    assert_false(tread_body_is_valid(w, b));
    assert_int_equal(tread_world_remove_body(w, b), TREAD_ERR_INVALID_ID);
    tread_transform t = tread_transform_identity();
    assert_int_equal(tread_body_set_transform(w, b, t), TREAD_ERR_INVALID_ID);
    assert_non_null(strstr(tread_error_message(), "generation"));
    // The slot is reused with a new generation; the old id stays dead.
    tread_body_id c = add_box(w, tread_v3(5, 5, 5), tread_v3(1, 1, 1));
    assert_int_equal(c.index, b.index);
    assert_int_not_equal(c.generation, b.generation);
    assert_false(tread_body_is_valid(w, b));
    assert_true(tread_body_is_valid(w, c));
    assert_false(tread_body_is_valid(w, tread_body_id_null()));
    tread_body_id forged = {999u, 1u};
    assert_false(tread_body_is_valid(w, forged));
    assert_null(tread_body_user_data(w, forged));
    // A removed body is never hit.
    assert_int_equal(tread_world_remove_body(w, c), TREAD_OK);
    tread_ray_hit hit;
    assert_int_equal(tread_world_cast_ray(w, tread_v3(5, 10, 5), tread_v3(0, -20, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit);
    assert_true(tread_body_id_equal(hit.body, a));
    assert_world_usable(w, 1);
    tread_world_destroy(w);
    tread_world_destroy(NULL);
}

static void test_queries_reject_bad_input(void **state) {
    (void)state;
    tread_world *w = make_world();
    add_box(w, tread_v3(0, -0.5f, 0), tread_v3(10, 0.5f, 10));
    tread_ray_hit rh;
    tread_shape_hit sh;
    tread_contact contacts[4];
    tread_distance_result dr;
    int count;
    bool overflow;
    tread_query_shape cap = tread_query_capsule(0.6f, 0.3f, tread_v3(0, 1, 0));
    tread_vec3 nanv = tread_v3(NAN, 0, 0);
    tread_vec3 p = tread_v3(0, 2, 0), d = tread_v3(0, -1, 0);
    assert_int_equal(tread_world_cast_ray(NULL, p, d, NULL, &rh), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_cast_ray(w, p, d, NULL, NULL), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_cast_ray(w, nanv, d, NULL, &rh), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "origin"));
    assert_int_equal(tread_world_cast_ray(w, p, tread_v3(0, INFINITY, 0), NULL, &rh), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "translation"));
    assert_int_equal(tread_world_cast_ray(w, p, tread_v3(0, -1e9f, 0), NULL, &rh), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_world_cast_ray_all(w, p, d, NULL, NULL, 4, &count, &overflow), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_cast_ray_all(w, p, d, NULL, &rh, -1, &count, &overflow), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_world_cast_shape(w, NULL, p, d, NULL, &sh), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_cast_shape(w, &cap, p, nanv, NULL, &sh), TREAD_ERR_NOT_FINITE);
    tread_query_shape bad = cap;
    bad.radius = 0.0f;
    assert_int_equal(tread_world_cast_shape(w, &bad, p, d, NULL, &sh), TREAD_ERR_INVALID_SHAPE);
    assert_non_null(strstr(tread_error_message(), "radius"));
    bad = cap;
    bad.up = tread_v3(0, 0, 0);
    assert_int_equal(tread_world_cast_shape(w, &bad, p, d, NULL, &sh), TREAD_ERR_INVALID_SHAPE);
    assert_non_null(strstr(tread_error_message(), "up"));
    bad = cap;
    bad.half_height = NAN;
    assert_int_equal(tread_world_cast_shape(w, &bad, p, d, NULL, &sh), TREAD_ERR_NOT_FINITE);
    bad = cap;
    bad.half_height = -0.1f;
    assert_int_equal(tread_world_cast_shape(w, &bad, p, d, NULL, &sh), TREAD_ERR_INVALID_SHAPE);
    assert_int_equal(tread_world_collect_contacts(w, &cap, p, NAN, NULL, contacts, 4, &count, &overflow), TREAD_ERR_NOT_FINITE);
    assert_int_equal(tread_world_collect_contacts(w, &cap, p, -1.0f, NULL, contacts, 4, &count, &overflow), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_world_collect_contacts(w, &cap, p, 0.1f, NULL, contacts, 4, NULL, &overflow), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_closest(w, &cap, p, 1.0f, NULL, NULL), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_closest(w, &cap, nanv, 1.0f, NULL, &dr), TREAD_ERR_NOT_FINITE);
    assert_int_equal(tread_world_advance(w, 0.0f), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_world_advance(w, NAN), TREAD_ERR_NOT_FINITE);
    assert_int_equal(tread_world_advance(w, 2.0f), TREAD_ERR_INVALID_ARGUMENT);
    assert_string_equal(tread_result_name(TREAD_ERR_NOT_FINITE), "TREAD_ERR_NOT_FINITE");
    assert_string_equal(tread_result_name((tread_result)1234), "TREAD_ERR_UNKNOWN");
    assert_world_usable(w, 1);
    tread_world_destroy(w);
}

static bool reject_user_data_7(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    (void)body;
    (void)layer;
    ++*(int *)context;
    return user_data != (void *)(uintptr_t)7;
}

static void test_filter_layers_ignore_and_callback(void **state) {
    (void)state;
    tread_world *w = make_world();
    tread_body_def def = tread_body_def_default();
    tread_body_id ids[3];
    for (int i = 0; i < 3; ++i) { // three stacked slabs at y = 0, 1, 2 on layers 0, 3, 5
        def.shape = tread_shape_box(tread_v3(1, 0.1f, 1));
        def.transform.p = tread_v3(0, (float)i, 0);
        def.layer = (uint32_t)(i == 0 ? 0 : (i == 1 ? 3 : 5));
        def.user_data = (void *)(uintptr_t)(i == 2 ? 7 : 1);
        assert_int_equal(tread_world_add_body(w, &def, &ids[i]), TREAD_OK);
    }
    tread_ray_hit hit;
    tread_query_filter f = tread_query_filter_default();
    tread_vec3 o = tread_v3(0, 5, 0), d = tread_v3(0, -10, 0);
    assert_int_equal(tread_world_cast_ray(w, o, d, &f, &hit), TREAD_OK);
    assert_true(tread_body_id_equal(hit.body, ids[2]));
    f.layer_mask = ~(1u << 5);
    assert_int_equal(tread_world_cast_ray(w, o, d, &f, &hit), TREAD_OK);
    assert_true(tread_body_id_equal(hit.body, ids[1]));
    f.ignore_body = ids[1];
    assert_int_equal(tread_world_cast_ray(w, o, d, &f, &hit), TREAD_OK);
    assert_true(tread_body_id_equal(hit.body, ids[0]));
    f = tread_query_filter_default();
    int calls = 0;
    f.callback = reject_user_data_7;
    f.context = &calls;
    assert_int_equal(tread_world_cast_ray(w, o, d, &f, &hit), TREAD_OK);
    assert_true(tread_body_id_equal(hit.body, ids[1]));
    assert_true(calls >= 2);
    f = tread_query_filter_default();
    f.layer_mask = 0;
    assert_int_equal(tread_world_cast_ray(w, o, d, &f, &hit), TREAD_OK);
    assert_false(hit.hit);
    uint32_t layer = 99;
    assert_int_equal(tread_body_get_layer(w, ids[1], &layer), TREAD_OK);
    assert_int_equal(layer, 3u);
    assert_ptr_equal(tread_body_user_data(w, ids[2]), (void *)(uintptr_t)7);
    tread_world_destroy(w);
}

static void test_all_hits_sorted_with_overflow(void **state) {
    (void)state;
    tread_world *w = make_world();
    for (int i = 0; i < 10; ++i) add_box(w, tread_v3(0, (float)(9 - i), 0), tread_v3(1, 0.1f, 1));
    tread_ray_hit hits[16];
    int count = 0;
    bool overflow = true;
    assert_int_equal(tread_world_cast_ray_all(w, tread_v3(0, 20, 0), tread_v3(0, -30, 0), NULL, hits, 16, &count, &overflow), TREAD_OK);
    assert_int_equal(count, 10);
    assert_false(overflow);
    for (int i = 1; i < count; ++i) assert_true(hits[i - 1].fraction <= hits[i].fraction);
    assert_float_equal(hits[0].point.y, 9.1f, 1e-4f);
    // Capacity 3 keeps the 3 closest and says it overflowed.
    assert_int_equal(tread_world_cast_ray_all(w, tread_v3(0, 20, 0), tread_v3(0, -30, 0), NULL, hits, 3, &count, &overflow), TREAD_OK);
    assert_int_equal(count, 3);
    assert_true(overflow);
    assert_float_equal(hits[2].point.y, 7.1f, 1e-4f);
    tread_shape_hit shits[4];
    tread_query_shape sphere = tread_query_sphere(0.25f);
    assert_int_equal(tread_world_cast_shape_all(w, &sphere, tread_v3(0, 20, 0), tread_v3(0, -30, 0), NULL, shits, 4, &count, &overflow), TREAD_OK);
    assert_int_equal(count, 4);
    assert_true(overflow);
    assert_float_equal(shits[0].point.y, 9.1f, 1e-4f);
    assert_float_equal(shits[3].point.y, 6.1f, 1e-4f);
    // Capacity 0 only counts overflow.
    assert_int_equal(tread_world_cast_shape_all(w, &sphere, tread_v3(0, 20, 0), tread_v3(0, -30, 0), NULL, NULL, 0, &count, &overflow), TREAD_OK);
    assert_int_equal(count, 0);
    assert_true(overflow);
    tread_world_destroy(w);
}

static void test_cast_start_in_contact_rule(void **state) {
    (void)state;
    tread_world *w = make_world();
    add_box(w, tread_v3(0, -0.5f, 0), tread_v3(10, 0.5f, 10));
    tread_query_shape cap = tread_query_capsule(0.6f, 0.3f, tread_v3(0, 1, 0));
    tread_shape_hit hit;
    // Overlapping by 5 cm and pressing in: hit at 0, says so, with the depth.
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0, 0.85f, 0), tread_v3(1, -0.1f, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit);
    assert_true(hit.started_in_contact);
    assert_float_equal(hit.fraction, 0.0f, 0.0f);
    assert_float_equal(hit.penetration, 0.05f, 1e-5f);
    assert_float_equal(hit.normal.y, 1.0f, 1e-5f);
    // Overlapping and moving out or along: no hit.
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0, 0.85f, 0), tread_v3(0, 1, 0), NULL, &hit), TREAD_OK);
    assert_false(hit.hit);
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0, 0.85f, 0), tread_v3(1, 0, 0), NULL, &hit), TREAD_OK);
    assert_false(hit.hit);
    // Exactly touching: pressing in hits at 0; moving along or away does not.
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0, 0.9f, 0), tread_v3(0, -1, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit && hit.started_in_contact);
    assert_float_equal(hit.penetration, 0.0f, 1e-6f);
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0, 0.9f, 0), tread_v3(1, 0, 0), NULL, &hit), TREAD_OK);
    assert_false(hit.hit);
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0, 0.9f, 0), tread_v3(0, 1, 0), NULL, &hit), TREAD_OK);
    assert_false(hit.hit);
    // Separated: an ordinary sweep, landing after 1 m of a 2 m fall.
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0, 1.9f, 0), tread_v3(0, -2, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit && !hit.started_in_contact);
    assert_float_equal(hit.fraction, 0.5f, 1e-5f);
    // Zero-length cast from inside: reported at 0.
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0, 0.5f, 0), tread_v3(0, 0, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit && hit.started_in_contact);
    tread_world_destroy(w);
}

static void test_step_edge_reports_riser_surface_normal(void **state) {
    (void)state;
    tread_world *w = make_world();
    add_box(w, tread_v3(3, 0.1f, 0), tread_v3(2, 0.1f, 1)); // a 0.2 m step from x = 1
    tread_query_shape cap = tread_query_capsule(0.6f, 0.3f, tread_v3(0, 1, 0));
    tread_shape_hit hit;
    // The capsule's round bottom (feet 0.05 above the floor) meets the step's top edge.
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0, 0.95f, 0), tread_v3(2, 0, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit);
    assert_float_equal(hit.point.x, 1.0f, 1e-4f);
    assert_float_equal(hit.point.y, 0.2f, 1e-4f);
    assert_true(hit.normal.y > 0.3f && hit.normal.x < -0.3f); // the edge's normal, tilted
    assert_float_equal(hit.surface_normal.x, -1.0f, 1e-5f);    // the riser's face
    // Landing on the same edge from above reports the tread.
    assert_int_equal(tread_world_cast_shape(w, &cap, tread_v3(0.85f, 1.5f, 0), tread_v3(0, -1, 0), NULL, &hit), TREAD_OK);
    assert_true(hit.hit);
    assert_float_equal(hit.surface_normal.y, 1.0f, 1e-5f);
    tread_world_destroy(w);
}

static void test_contacts_and_closest(void **state) {
    (void)state;
    tread_world *w = make_world();
    tread_body_id floor = add_box(w, tread_v3(0, -0.5f, 0), tread_v3(10, 0.5f, 10));
    tread_body_id wall = add_box(w, tread_v3(1.5f, 1, 0), tread_v3(0.5f, 1, 10));
    tread_query_shape cap = tread_query_capsule(0.6f, 0.3f, tread_v3(0, 1, 0));
    tread_contact c[4];
    int count;
    bool overflow;
    // Resting 1 cm above the floor, 2 cm into the wall.
    assert_int_equal(tread_world_collect_contacts(w, &cap, tread_v3(0.72f, 0.91f, 0), 0.05f, NULL, c, 4, &count, &overflow), TREAD_OK);
    assert_int_equal(count, 2);
    assert_false(overflow);
    assert_true(tread_body_id_equal(c[0].body, wall)); // sorted by separation: the penetration first
    assert_float_equal(c[0].separation, -0.02f, 1e-5f);
    assert_float_equal(c[0].normal.x, -1.0f, 1e-5f);
    assert_true(tread_body_id_equal(c[1].body, floor));
    assert_float_equal(c[1].separation, 0.01f, 1e-5f);
    assert_float_equal(c[1].normal.y, 1.0f, 1e-5f);
    assert_int_equal(tread_world_collect_contacts(w, &cap, tread_v3(0.72f, 0.91f, 0), 0.005f, NULL, c, 4, &count, &overflow), TREAD_OK);
    assert_int_equal(count, 1);
    tread_distance_result d;
    assert_int_equal(tread_world_closest(w, &cap, tread_v3(0, 2.0f, 0), 5.0f, NULL, &d), TREAD_OK);
    assert_true(d.found);
    assert_float_equal(d.distance, 0.7f, 1e-5f); // to the wall at x = 1
    assert_true(tread_body_id_equal(d.body, wall));
    assert_float_equal(d.point_on_world.x, 1.0f, 1e-5f);
    assert_float_equal(d.point_on_shape.x, 0.3f, 1e-5f);
    assert_int_equal(tread_world_closest(w, &cap, tread_v3(0, 2.0f, 0), 0.5f, NULL, &d), TREAD_OK);
    assert_false(d.found);
    tread_world_destroy(w);
}

static void test_kinematic_bodies_advance(void **state) {
    (void)state;
    tread_world *w = make_world();
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_KINEMATIC;
    def.shape = tread_shape_box(tread_v3(1, 0.1f, 1));
    def.linear_velocity = tread_v3(1, 0, 0);
    def.angular_velocity = tread_v3(0, 1, 0);
    tread_body_id platform;
    assert_int_equal(tread_world_add_body(w, &def, &platform), TREAD_OK);
    tread_body_id ground = add_box(w, tread_v3(0, -5, 0), tread_v3(1, 1, 1));
    assert_int_equal(tread_body_set_velocity(w, ground, tread_v3(1, 0, 0), tread_v3(0, 0, 0)), TREAD_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < 60; ++i) assert_int_equal(tread_world_advance(w, 1.0f / 60.0f), TREAD_OK);
    tread_transform t;
    assert_int_equal(tread_body_get_transform(w, platform, &t), TREAD_OK);
    assert_float_equal(t.p.x, 1.0f, 1e-4f);
    // One radian about +Y after 1 s: the local +X axis points along (cos 1, 0, -sin 1).
    tread_vec3 ax = tread_quat_rotate(t.q, tread_v3(1, 0, 0));
    assert_float_equal(ax.x, 0.5403f, 2e-3f);
    assert_float_equal(ax.z, -0.8415f, 2e-3f);
    tread_vec3 v;
    assert_int_equal(tread_body_get_point_velocity(w, platform, tread_v3(t.p.x + 1, 0, t.p.z), &v), TREAD_OK);
    assert_float_equal(v.x, 1.0f, 1e-5f);
    assert_float_equal(v.z, -1.0f, 1e-5f);
    tread_ray_hit hit; // the platform is found where it moved to
    assert_int_equal(tread_world_cast_ray(w, tread_v3(1.5f, 5, 0), tread_v3(0, -10, 0), NULL, &hit), TREAD_OK);
    assert_true(tread_body_id_equal(hit.body, platform));
    tread_world_destroy(w);
}

// ---- broadphase vs a linear scan ----------------------------------------------------------------------

typedef struct ref_body {
    bool alive;
    tread_body_id id;
    tread_shape_def shape;
    tread_transform transform;
} ref_body;

// Closest hit over every live body, computed per body in its local frame without the broadphase.
static bool reference_cast(const ref_body *bodies, int n, tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 d, float *t_out, int *body_out) {
    bool found = false;
    for (int i = 0; i < n; ++i) {
        if (!bodies[i].alive) continue;
        tread_transform t = bodies[i].transform;
        tr_cast c = {0};
        c.p0 = tread_transform_inv_point(t, p0);
        c.p1 = tread_transform_inv_point(t, p1);
        c.d = tread_transform_inv_vector(t, d);
        c.r = r;
        c.is_ray = false;
        tr_feature_hit h;
        bool hit = false;
        const tread_shape_def *s = &bodies[i].shape;
        if (s->type == TREAD_SHAPE_BOX) hit = tr_cast_box(&c, s->half_extents, 1.0f, &h);
        else if (s->type == TREAD_SHAPE_SPHERE) hit = tr_cast_sphere(&c, s->radius, 1.0f, &h);
        else hit = tr_cast_capsule(&c, s->half_height, s->radius, 1.0f, &h);
        if (hit && (!found || h.t < *t_out)) {
            found = true;
            *t_out = h.t;
            *body_out = i;
        }
    }
    return found;
}

static void test_broadphase_matches_linear_scan(void **state) {
    (void)state;
    rng_state = 12345;
    enum { N = 300 };
    ref_body bodies[N];
    memset(bodies, 0, sizeof bodies);
    tread_world *w = make_world();
    int n = 0;
    tread_query_shape cap = tread_query_capsule(0.6f, 0.3f, tread_v3(0, 1, 0));
    int checked = 0, hits = 0;
    for (int round = 0; round < 40; ++round) {
        // Add some bodies, move some, remove some: exercises pending lists, refits and rebuilds.
        for (int k = 0; k < 8 && n < N; ++k, ++n) {
            tread_body_def def = tread_body_def_default();
            uint64_t kind = splitmix64() % 3;
            def.shape = kind == 0 ? tread_shape_box(random_vec(0.1f, 1.5f))
                        : kind == 1 ? tread_shape_sphere(uniform(0.1f, 1.0f))
                                    : tread_shape_capsule(uniform(0.0f, 1.0f), uniform(0.1f, 0.8f));
            def.transform.p = random_vec(-12, 12);
            def.transform.q = random_quat();
            assert_int_equal(tread_world_add_body(w, &def, &bodies[n].id), TREAD_OK);
            bodies[n].alive = true;
            bodies[n].shape = def.shape;
            tread_body_get_transform(w, bodies[n].id, &bodies[n].transform);
        }
        for (int k = 0; k < 6; ++k) {
            int i = (int)(splitmix64() % (uint64_t)n);
            if (!bodies[i].alive) continue;
            if (splitmix64() % 4 == 0) {
                assert_int_equal(tread_world_remove_body(w, bodies[i].id), TREAD_OK);
                bodies[i].alive = false;
            } else {
                tread_transform t = {tread_v3_add(bodies[i].transform.p, random_vec(-3, 3)), random_quat()};
                assert_int_equal(tread_body_set_transform(w, bodies[i].id, t), TREAD_OK);
                tread_body_get_transform(w, bodies[i].id, &bodies[i].transform);
            }
        }
        for (int q = 0; q < 50; ++q) {
            tread_vec3 pos = random_vec(-15, 15), d = random_vec(-15, 15);
            tread_shape_hit hit;
            assert_int_equal(tread_world_cast_shape(w, &cap, pos, d, NULL, &hit), TREAD_OK);
            float t_ref = 0;
            int ref_i = -1;
            tread_vec3 up = tread_v3(0, 1, 0);
            bool ref = reference_cast(bodies, n, tread_v3_mad(pos, -0.6f, up), tread_v3_mad(pos, 0.6f, up), 0.3f, d, &t_ref, &ref_i);
            assert_int_equal(hit.hit, ref);
            if (ref) {
                assert_float_equal(hit.fraction, t_ref, 1e-6f);
                ++hits;
            }
            ++checked;
        }
    }
    assert_int_equal(checked, 2000);
    print_message("broadphase: %d of %d casts hit\n", hits, checked);
    assert_true(hits > 400); // the random world is dense enough to test hits, not just misses
    tread_world_destroy(w);
}

static void test_any_up_direction_is_an_axis_swap(void **state) {
    (void)state;
    // The same box world with Y and Z swapped, queried with up = +Y and up = +Z.
    tread_world *wy = make_world(), *wz = make_world();
    rng_state = 99;
    for (int i = 0; i < 50; ++i) {
        tread_vec3 c = random_vec(-10, 10), h = random_vec(0.2f, 2.0f);
        add_box(wy, c, h);
        add_box(wz, tread_v3(c.x, c.z, c.y), tread_v3(h.x, h.z, h.y));
    }
    tread_query_shape cy = tread_query_capsule(0.6f, 0.3f, tread_v3(0, 1, 0));
    tread_query_shape cz = tread_query_capsule(0.6f, 0.3f, tread_v3(0, 0, 1));
    for (int q = 0; q < 500; ++q) {
        tread_vec3 p = random_vec(-12, 12), d = random_vec(-8, 8);
        tread_shape_hit hy, hz;
        assert_int_equal(tread_world_cast_shape(wy, &cy, p, d, NULL, &hy), TREAD_OK);
        assert_int_equal(tread_world_cast_shape(wz, &cz, tread_v3(p.x, p.z, p.y), tread_v3(d.x, d.z, d.y), NULL, &hz), TREAD_OK);
        assert_int_equal(hy.hit, hz.hit);
        if (hy.hit) {
            assert_float_equal(hy.fraction, hz.fraction, 1e-6f);
            assert_float_equal(hy.normal.y, hz.normal.z, 1e-5f);
        }
    }
    tread_world_destroy(wy);
    tread_world_destroy(wz);
}

// The per-primitive early-outs (slab gaps for boxes, plane distance for triangles) skip the closest-point test
// or the sweep only when their answer is already known. Check against the full path: closest test, the
// start-in-contact rule, then the sweep, on casts that start near, touching or inside the primitive.
static bool full_path_box(const tr_cast *c, tread_vec3 half, float t_max, float *t, bool *start) {
    tr_closest cl;
    tr_closest_segment_box(c->p0, c->p1, half, &cl);
    float sep = cl.distance - c->r;
    if (sep <= TR_TOUCH_TOLERANCE) {
        float len = tread_v3_length(c->d);
        bool in = len == 0.0f ? sep < 0.0f : tread_v3_dot(c->d, cl.normal) < -TR_APPROACH_TOLERANCE * len;
        *t = 0.0f, *start = true;
        return in;
    }
    tr_hit h;
    *start = false;
    if (!tr_sweep_capsule_box(c->p0, c->p1, c->r, c->d, half, t_max, &h)) return false;
    *t = h.t;
    return true;
}

static bool full_path_triangle(const tr_cast *c, tread_vec3 a, tread_vec3 b, tread_vec3 cc, float t_max, float *t, bool *start) {
    tr_closest cl;
    if (!tr_closest_segment_triangle(c->p0, c->p1, a, b, cc, &cl)) return false;
    float sep = cl.distance - c->r;
    *start = false;
    if (sep <= TR_TOUCH_TOLERANCE) {
        *t = 0.0f, *start = true;
        return true; // decided by the start-in-contact rule: compared on `start` only
    }
    tr_hit h;
    if (!tr_sweep_capsule_triangle(c->p0, c->p1, c->r, c->d, a, b, cc, t_max, &h)) return false;
    *t = h.t;
    return true;
}

static void test_cast_early_outs_match_full_path(void **state) {
    (void)state;
    rng_state = 777;
    int hits = 0, starts = 0;
    for (int q = 0; q < 20000; ++q) {
        float scale = q % 4 == 0 ? 500.0f : 1.0f; // far from the origin too: rounding grows with the coordinates
        tread_vec3 offset = random_vec(-scale, scale);
        tread_vec3 half = random_vec(0.05f, 2.0f);
        tread_vec3 centre = tread_v3_add(offset, random_vec(-3.0f, 3.0f));
        tread_vec3 axis = tread_v3_scale(random_vec(-1.0f, 1.0f), uniform(0.0f, 0.8f));
        tr_cast c = {0};
        c.p0 = tread_v3_sub(centre, axis);
        c.p1 = tread_v3_add(centre, axis);
        c.r = uniform(0.05f, 0.6f);
        c.d = tread_v3_scale(random_vec(-1.0f, 1.0f), uniform(0.0f, 4.0f));
        c.is_ray = false;
        // Box in its own frame: shift the cast so it sits near the box.
        tr_cast cb = c;
        cb.p0 = tread_v3_sub(c.p0, offset), cb.p1 = tread_v3_sub(c.p1, offset);
        tr_feature_hit h;
        float t_ref = 0.0f;
        bool start_ref = false;
        bool ref = full_path_box(&cb, half, 1.0f, &t_ref, &start_ref);
        bool got = tr_cast_box(&cb, half, 1.0f, &h);
        assert_int_equal(got, ref);
        if (got) {
            assert_true(h.t == t_ref);
            assert_int_equal(h.started_in_contact, start_ref);
            hits++;
            starts += start_ref;
        }
        // Triangle around the offset.
        tread_vec3 a = tread_v3_add(offset, random_vec(-2.0f, 2.0f)), b = tread_v3_add(offset, random_vec(-2.0f, 2.0f)),
                   cc = tread_v3_add(offset, random_vec(-2.0f, 2.0f));
        bool tri_ref = full_path_triangle(&c, a, b, cc, 1.0f, &t_ref, &start_ref);
        got = tr_cast_triangle(&c, a, b, cc, 7u, 1.0f, &h);
        if (tri_ref && start_ref) {
            if (got) assert_true(h.started_in_contact && h.t == 0.0f);
            continue;
        }
        assert_int_equal(got, tri_ref);
        if (got) {
            assert_true(h.t == t_ref);
            assert_false(h.started_in_contact);
            hits++;
        }
    }
    print_message("early outs: %d hits, %d starting in contact\n", hits, starts);
    assert_true(hits > 2000 && starts > 200);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_body_rejects_bad_input),
        cmocka_unit_test(test_world_create_and_ids),
        cmocka_unit_test(test_queries_reject_bad_input),
        cmocka_unit_test(test_filter_layers_ignore_and_callback),
        cmocka_unit_test(test_all_hits_sorted_with_overflow),
        cmocka_unit_test(test_cast_start_in_contact_rule),
        cmocka_unit_test(test_step_edge_reports_riser_surface_normal),
        cmocka_unit_test(test_contacts_and_closest),
        cmocka_unit_test(test_kinematic_bodies_advance),
        cmocka_unit_test(test_broadphase_matches_linear_scan),
        cmocka_unit_test(test_cast_early_outs_match_full_path),
        cmocka_unit_test(test_any_up_direction_is_an_axis_swap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
