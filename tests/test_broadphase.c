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
#include "world/world_internal.h"
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

// A move's candidates: one walk gathers exactly the bodies whose boxes meet the move's box, with those boxes in the
// rows; the four-at-a-time test gives, bit for bit, the one-body slab test's answer on each of them, in its SSE
// lanes and its scalar ones (the WebAssembly build's), for casts, axis-parallel ones and contact queries.
#define CANDIDATES 64
static void test_candidates_tested_four_at_a_time_as_one_by_one(void **state) {
    (void)state;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    uint64_t seed = 777u;
    for (int i = 0; i < 400; ++i) {
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_box(tread_v3(course_uniform(&seed, 0.1f, 1.0f), course_uniform(&seed, 0.05f, 0.5f),
                                             course_uniform(&seed, 0.1f, 1.0f)));
        def.transform.p = tread_v3(course_uniform(&seed, -20.0f, 20.0f), course_uniform(&seed, -1.0f, 1.0f), course_uniform(&seed, -20.0f, 20.0f));
        tread_body_id id;
        assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    }
    int32_t slots[CANDIDATES];
    float bounds[6 * CANDIDATES];
    int tested = 0, reached = 0;
    for (int q = 0; q < 300; ++q) {
        tread_vec3 c = tread_v3(course_uniform(&seed, -20.0f, 20.0f), 0.0f, course_uniform(&seed, -20.0f, 20.0f));
        float r = course_uniform(&seed, 0.5f, 3.0f);
        tread_aabb box = {tread_v3_sub(c, tread_v3(r, r, r)), tread_v3_add(c, tread_v3(r, r, r))};
        int count = -1;
        assert_true(tr_world_gather(w, box, slots, bounds, CANDIDATES, &count));
        // Exactly the bodies meeting the box, each once, its box in the rows.
        int meeting = 0;
        for (int32_t slot = 0; slot < w->slot_count; ++slot)
            if (w->bodies[slot].alive && tread_aabb_overlaps(w->bodies[slot].aabb, box)) ++meeting;
        assert_int_equal(count, meeting);
        for (int k = 0; k < count; ++k) {
            const tread_aabb *b = &w->bodies[slots[k]].aabb;
            assert_true(tread_aabb_overlaps(*b, box));
            const float row[6] = {b->min.x, b->min.y, b->min.z, b->max.x, b->max.y, b->max.z};
            for (int a = 0; a < 6; ++a) assert_true(bounds[a * CANDIDATES + k] == row[a]);
            for (int j = 0; j < k; ++j) assert_int_not_equal(slots[j], slots[k]);
        }
        if (count == 0) continue;
        tr_scope scope = {slots, bounds, CANDIDATES, count};
        tread_vec3 o = tread_v3_add(c, tread_v3(course_uniform(&seed, -1, 1), course_uniform(&seed, -1, 1), course_uniform(&seed, -1, 1)));
        tread_vec3 d = tread_v3(course_uniform(&seed, -2, 2), course_uniform(&seed, -2, 2), course_uniform(&seed, -2, 2));
        if (q % 3 == 1) d.x = d.z = 0.0f; // straight down or up: huge inverse components
        if (q % 3 == 2) d = tread_v3_zero(); // a contact query
        float t_max = q % 3 == 2 ? 0.0f : course_uniform(&seed, 0.0f, 1.0f);
        tread_vec3 inflate = tread_v3(course_uniform(&seed, 0, 0.6f), course_uniform(&seed, 0, 1.2f), course_uniform(&seed, 0, 0.6f));
        tread_vec3 inv_d = tr_inverse_direction(d);
        for (int first = 0; first < count; first += 4) {
            unsigned simd = tr_scope_reach4(&scope, first, o, inv_d, inflate, t_max, true);
            unsigned scalar = tr_scope_reach4(&scope, first, o, inv_d, inflate, t_max, false);
            assert_int_equal(simd, scalar);
            for (int k = 0; k < 4 && first + k < count; ++k) {
                bool one = tr_ray_aabb_entry(o, inv_d, w->bodies[slots[first + k]].aabb, inflate, t_max) <= t_max;
                assert_int_equal(one, (simd >> k) & 1u);
                ++tested;
                reached += one;
            }
        }
    }
    // Both answers met often.
    assert_true(tested > 1000);
    assert_true(reached > tested / 10 && reached < tested - tested / 10);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_body_waits_outside_the_tree),
        cmocka_unit_test(test_candidates_tested_four_at_a_time_as_one_by_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
