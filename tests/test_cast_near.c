// SPDX-License-Identifier: MIT
// The near cast (tr_world_cast_shape_near): the ground probes that only need the hits about as near as the nearest
// stop looking beyond them. Its list must be exactly the first entries of the full cast-all list, whatever the
// window, shape or bodies (a bumpy mesh, boxes on it, spheres), or the probes' results would change.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"
#include "world/world_query.h"

#define CELLS 24     // the mesh: CELLS x CELLS quads of CELL metres, random heights
#define CELL 0.5f
#define HITS 64

static tread_world *bumpy_world(uint64_t *seed, tread_vec3 *vertices, uint32_t *indices) {
    tread_world *w = NULL;
    tread_world_def def = tread_world_def_default();
    assert_int_equal(tread_world_create(&def, &w), TREAD_OK);
    for (int z = 0; z <= CELLS; ++z)
        for (int x = 0; x <= CELLS; ++x)
            vertices[z * (CELLS + 1) + x] = tread_v3((float)x * CELL - 6.0f, course_uniform(seed, 0.0f, 0.25f), (float)z * CELL - 6.0f);
    int t = 0;
    for (int z = 0; z < CELLS; ++z)
        for (int x = 0; x < CELLS; ++x) {
            uint32_t a = (uint32_t)(z * (CELLS + 1) + x), b = a + 1, c = a + CELLS + 1, d = c + 1;
            uint32_t quad[6] = {a, c, b, b, c, d};
            memcpy(&indices[6 * t++], quad, sizeof quad);
        }
    tread_body_id id;
    tread_body_def body = tread_body_def_default();
    body.shape = tread_shape_mesh(vertices, (CELLS + 1) * (CELLS + 1), indices, 2 * CELLS * CELLS);
    assert_int_equal(tread_world_add_body(w, &body, &id), TREAD_OK);
    for (int i = 0; i < 12; ++i) {
        body = tread_body_def_default();
        body.shape = i % 2 ? tread_shape_sphere(course_uniform(seed, 0.1f, 0.5f))
                           : tread_shape_box(tread_v3(course_uniform(seed, 0.1f, 0.6f), 0.2f, course_uniform(seed, 0.1f, 0.6f)));
        body.transform.p = tread_v3(course_uniform(seed, -5, 5), course_uniform(seed, 0.1f, 0.4f), course_uniform(seed, -5, 5));
        assert_int_equal(tread_world_add_body(w, &body, &id), TREAD_OK);
    }
    return w;
}

static void test_near_cast_is_the_prefix_of_cast_all(void **state) {
    (void)state;
    uint64_t seed = 77;
    static tread_vec3 vertices[(CELLS + 1) * (CELLS + 1)];
    static uint32_t indices[6 * CELLS * CELLS];
    tread_world *w = bumpy_world(&seed, vertices, indices);
    tread_query_filter filter = tread_query_filter_default();
    int compared = 0, trimmed = 0;
    for (int i = 0; i < 3000; ++i) {
        tread_query_shape shape = tread_query_shape_default();
        shape.type = (tread_query_shape_type)(i % 3 == 0 ? TREAD_QUERY_SPHERE : i % 3 == 1 ? TREAD_QUERY_CAPSULE : TREAD_QUERY_BOX);
        shape.radius = course_uniform(&seed, 0.1f, 0.5f);
        shape.half_height = course_uniform(&seed, 0.0f, 0.6f);
        tread_vec3 p = tread_v3(course_uniform(&seed, -5, 5), course_uniform(&seed, 0.5f, 1.6f), course_uniform(&seed, -5, 5));
        // Mostly down (the probes), some slanted; sometimes starting in contact.
        tread_vec3 d = tread_v3(course_uniform(&seed, -0.3f, 0.3f), -course_uniform(&seed, 0.05f, 1.5f), course_uniform(&seed, -0.3f, 0.3f));
        float window = i % 5 == 0 ? 0.0f : course_uniform(&seed, 0.0005f, 0.3f);
        int capacity = i % 7 == 0 ? 2 : HITS;
        tread_shape_hit all[HITS], near[HITS];
        int n_all = 0, n_near = 0;
        bool overflow = false;
        tr_world_cast_shape_all(w, NULL, &shape, p, d, &filter, all, capacity, &n_all, &overflow);
        tr_world_cast_shape_near(w, NULL, &shape, p, d, &filter, window, near, capacity, &n_near, &overflow);
        int expect = tr_hits_within_window(all, n_all, window);
        assert_int_equal(n_near, expect);
        for (int k = 0; k < n_near; ++k) {
            assert_int_equal(near[k].body.index, all[k].body.index);
            assert_int_equal(near[k].feature, all[k].feature);
            assert_memory_equal(&near[k].fraction, &all[k].fraction, sizeof(float));
            assert_memory_equal(&near[k].normal, &all[k].normal, sizeof(tread_vec3));
            assert_memory_equal(&near[k].point, &all[k].point, sizeof(tread_vec3));
        }
        compared += n_near;
        trimmed += n_all - n_near;
    }
    // The cases compare real lists, and the window does drop hits beyond it.
    assert_true(compared > 3000);
    assert_true(trimmed > 1000);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_near_cast_is_the_prefix_of_cast_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
