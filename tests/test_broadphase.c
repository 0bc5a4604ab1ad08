// SPDX-License-Identifier: MIT
// No cliff in the broad phase: worlds of 1k to 50k bodies built through the public API (added one at a time, some
// removed and added again) never leave a body outside the tree, where every query would scan it one by one. The
// private walk statistics (tr_world_last_walk) show what each query visited.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"
#include "world/world_query.h"

// Most tree nodes a short downward ray or a character-sized cast may visit in these fields: a few root-to-leaf
// paths (a linear scan would be the body count).
#define MAX_NODES 300

// Queries at random spots of the field; none scans a body outside the tree (but in a world of at most 16 bodies,
// which has no tree: scanning them all is cheaper) or visits more than MAX_NODES nodes.
static void check_walks(const tread_world *w, float half, uint64_t *seed) {
    int small = tread_world_body_count(w) <= 16 ? tread_world_body_count(w) : 0;
    tread_query_shape capsule = tread_query_shape_default();
    for (int i = 0; i < 200; ++i) {
        tread_vec3 p = tread_v3(course_uniform(seed, -half, half), 2.0f, course_uniform(seed, -half, half));
        tread_ray_hit hit;
        assert_int_equal(tread_world_cast_ray(w, p, tread_v3(0, -10, 0), NULL, &hit), TREAD_OK);
        tr_walk_stats s = tr_world_last_walk();
        assert_true(s.scanned <= small);
        assert_true(s.nodes <= MAX_NODES);
        tread_shape_hit sh;
        assert_int_equal(tread_world_cast_shape(w, &capsule, p, tread_v3(1, -1, 0), NULL, &sh), TREAD_OK);
        s = tr_world_last_walk();
        assert_true(s.scanned <= small);
        assert_true(s.nodes <= MAX_NODES);
    }
}

static void test_no_body_waits_outside_the_tree(void **state) {
    (void)state;
    const int sizes[] = {1000, 10000, 50000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        int n = sizes[k];
        // The course's P1 density: 400 boxes on 80 x 80 m, 16 m^2 a box.
        float half = 0.5f * sqrtf(16.0f * (float)n);
        tread_world *w = NULL;
        assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
        tread_body_id *ids = (tread_body_id *)malloc(sizeof *ids * (size_t)n);
        assert_non_null(ids);
        uint64_t seed = 12345u + (uint64_t)n;
        for (int i = 0; i < n; ++i) {
            tread_body_def def = tread_body_def_default();
            def.shape = tread_shape_box(tread_v3(course_uniform(&seed, 0.15f, 1.0f), course_uniform(&seed, 0.05f, 0.3f),
                                                 course_uniform(&seed, 0.15f, 1.0f)));
            def.transform.p = tread_v3(course_uniform(&seed, -half, half), 0.1f, course_uniform(&seed, -half, half));
            assert_int_equal(tread_world_add_body(w, &def, &ids[i]), TREAD_OK);
            // Whatever the count the last body lands at (every size on the way), queries walk only the tree.
            if (i % 997 == 0 || i == n - 1) check_walks(w, half, &seed);
        }
        // A third removed and added again elsewhere: still no list.
        for (int i = 0; i < n; i += 3) assert_int_equal(tread_world_remove_body(w, ids[i]), TREAD_OK);
        for (int i = 0; i < n; i += 3) {
            tread_body_def def = tread_body_def_default();
            def.transform.p = tread_v3(course_uniform(&seed, -half, half), 0.1f, course_uniform(&seed, -half, half));
            assert_int_equal(tread_world_add_body(w, &def, &ids[i]), TREAD_OK);
        }
        check_walks(w, half, &seed);
        free(ids);
        tread_world_destroy(w);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_body_waits_outside_the_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
