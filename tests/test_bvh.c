// SPDX-License-Identifier: MIT
// BVH build and refit: structural invariants on random, clustered and degenerate inputs.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "world/bvh.h"

// Deterministic generator (xorshift32): the same boxes on every machine.
static uint32_t rng_state = 0x12345678u;
static float rng_float(float lo, float hi) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return lo + (hi - lo) * (float)(rng_state >> 8) * (1.0f / 16777216.0f);
}

static tread_aabb random_box(float world, float size) {
    tread_vec3 c = tread_v3(rng_float(-world, world), rng_float(-world, world), rng_float(-world, world));
    tread_vec3 h = tread_v3(rng_float(0.0f, size), rng_float(0.0f, size), rng_float(0.0f, size));
    return tread_aabb_make(tread_v3_sub(c, h), tread_v3_add(c, h));
}

static int node_depth(const tr_bvh *bvh, int node) {
    int depth = 0;
    while (bvh->nodes[node].parent >= 0) node = bvh->nodes[node].parent, depth++;
    return depth;
}

// Every invariant the traversals and refit rely on.
static void check_invariants(const tr_bvh *bvh, const tread_aabb *boxes, int count, int max_leaf) {
    assert_int_equal(bvh->item_count, count);
    if (count == 0) {
        assert_int_equal(bvh->node_count, 0);
        return;
    }
    assert_true(bvh->node_count >= 1 && bvh->node_count <= 2 * count - 1);
    assert_int_equal(bvh->nodes[0].parent, -1);
    int *seen = calloc((size_t)count, sizeof(int));
    assert_non_null(seen);
    int leaves = 0;
    for (int n = 0; n < bvh->node_count; n++) {
        const tr_bvh_node *node = &bvh->nodes[n];
        if (node->count > 0) {
            leaves++;
            assert_true(node->count <= max_leaf);
            assert_true(node->first >= 0 && node->first + node->count <= count);
            for (int s = node->first; s < node->first + node->count; s++) {
                int item = bvh->items[s];
                assert_true(item >= 0 && item < count);
                seen[item]++;
                assert_int_equal(bvh->item_leaf[item], n);
                assert_true(tread_aabb_contains(node->box, boxes[item]));
            }
        } else {
            assert_int_equal(node->count, 0);
            int l = node->first;
            assert_true(l > n && l + 1 < bvh->node_count);
            assert_int_equal(bvh->nodes[l].parent, n);
            assert_int_equal(bvh->nodes[l + 1].parent, n);
            assert_true(tread_aabb_contains(node->box, bvh->nodes[l].box));
            assert_true(tread_aabb_contains(node->box, bvh->nodes[l + 1].box));
        }
        assert_true(node_depth(bvh, n) <= 48);
    }
    // Exactly one leaf per item; a full binary tree has leaves = internal + 1.
    for (int i = 0; i < count; i++) assert_int_equal(seen[i], 1);
    assert_int_equal(bvh->node_count, 2 * leaves - 1);
    free(seen);
}

static void build_and_check(tread_aabb *boxes, int count, int max_leaf) {
    tr_bvh bvh;
    assert_true(tr_bvh_build(&bvh, boxes, count, max_leaf));
    check_invariants(&bvh, boxes, count, max_leaf);
    tr_bvh_destroy(&bvh);
}

static void test_bvh_empty_and_single(void **state) {
    (void)state;
    tr_bvh bvh;
    assert_true(tr_bvh_build(&bvh, NULL, 0, 4));
    assert_int_equal(bvh.node_count, 0);
    assert_true(tr_bvh_cost(&bvh) == 0.0f);
    tr_bvh_destroy(&bvh);
    tread_aabb one = random_box(10.0f, 1.0f);
    build_and_check(&one, 1, 4);
}

static void test_bvh_random_boxes_invariants(void **state) {
    (void)state;
    int sizes[] = {2, 3, 7, 64, 1000, 20000};
    int leaves[] = {1, 2, 4, 8};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t l = 0; l < sizeof leaves / sizeof leaves[0]; l++) {
            tread_aabb *boxes = malloc((size_t)sizes[s] * sizeof(tread_aabb));
            assert_non_null(boxes);
            for (int i = 0; i < sizes[s]; i++) boxes[i] = random_box(100.0f, 2.0f);
            build_and_check(boxes, sizes[s], leaves[l]);
            free(boxes);
        }
    }
}

static void test_bvh_identical_boxes_respect_leaf_size(void **state) {
    (void)state;
    // All centroids equal: binning cannot split, the object median must.
    enum { N = 5000 };
    tread_aabb *boxes = malloc(N * sizeof(tread_aabb));
    assert_non_null(boxes);
    for (int i = 0; i < N; i++) boxes[i] = tread_aabb_make(tread_v3(-1, -1, -1), tread_v3(1, 1, 1));
    build_and_check(boxes, N, 4);
    free(boxes);
}

static void test_bvh_exponential_spacing_stays_shallow(void **state) {
    (void)state;
    // Geometric spacing makes SAH peel one item per level; the depth cap must still hold.
    enum { N = 3000 };
    tread_aabb *boxes = malloc(N * sizeof(tread_aabb));
    assert_non_null(boxes);
    float x = 1.0e-3f;
    for (int i = 0; i < N; i++) {
        boxes[i] = tread_aabb_make(tread_v3(x, 0, 0), tread_v3(x * 1.001f, 1e-3f, 1e-3f));
        x *= 1.02f;
        if (x > 1.0e5f) x = 1.0e-3f + (float)i * 1e-6f;
    }
    build_and_check(boxes, N, 2);
    free(boxes);
}

static void test_bvh_refit_moves_items(void **state) {
    (void)state;
    enum { N = 2000 };
    tread_aabb *boxes = malloc(N * sizeof(tread_aabb));
    assert_non_null(boxes);
    for (int i = 0; i < N; i++) boxes[i] = random_box(50.0f, 1.0f);
    tr_bvh bvh;
    assert_true(tr_bvh_build(&bvh, boxes, N, 4));
    float cost0 = tr_bvh_cost(&bvh);
    assert_true(cost0 > 0.0f);
    for (int round = 0; round < 3000; round++) {
        int item = (int)rng_float(0.0f, (float)N) % N;
        boxes[item] = random_box(60.0f, 1.5f);
        tr_bvh_refit_item(&bvh, item, boxes);
    }
    check_invariants(&bvh, boxes, N, 4);
    // Every box is tight again after refit: a node's box equals the union of its children (or items).
    for (int n = bvh.node_count - 1; n >= 0; n--) {
        const tr_bvh_node *node = &bvh.nodes[n];
        tread_aabb u;
        if (node->count > 0) {
            u = boxes[bvh.items[node->first]];
            for (int s = 1; s < node->count; s++) u = tread_aabb_union(u, boxes[bvh.items[node->first + s]]);
        } else {
            u = tread_aabb_union(bvh.nodes[node->first].box, bvh.nodes[node->first + 1].box);
        }
        assert_true(tread_aabb_contains(u, node->box) && tread_aabb_contains(node->box, u));
    }
    // Random moves scatter items across the tree, so the SAH cost degrades.
    assert_true(tr_bvh_cost(&bvh) > cost0);
    tr_bvh_destroy(&bvh);
    free(boxes);
}

// Insertion (the world's path for bodies added after a rebuild): reserved room, greedy placement, refit
// ancestors. The tree keeps every invariant; a huge box (a floor) does not swallow every later item.
static void test_bvh_insert_keeps_invariants(void **state) {
    (void)state;
    enum { BUILT = 40, TOTAL = 400 };
    tread_aabb *boxes = malloc(TOTAL * sizeof(tread_aabb));
    assert_non_null(boxes);
    boxes[0] = tread_aabb_make(tread_v3(-100.0f, -1.0f, -100.0f), tread_v3(100.0f, 0.0f, 100.0f));
    for (int i = 1; i < TOTAL; i++) boxes[i] = random_box(80.0f, 2.0f);
    tr_bvh bvh;
    assert_true(tr_bvh_build(&bvh, boxes, BUILT, 2));
    assert_false(tr_bvh_insert(&bvh, BUILT, boxes)); // no reserved room yet
    check_invariants(&bvh, boxes, BUILT, 2);
    assert_true(tr_bvh_reserve(&bvh, TOTAL));
    check_invariants(&bvh, boxes, BUILT, 2);
    int count = BUILT;
    while (count < TOTAL && tr_bvh_insert(&bvh, count, boxes)) count++;
    assert_int_equal(count, TOTAL);
    check_invariants(&bvh, boxes, TOTAL, 2);
    int deepest = 0;
    for (int n = 0; n < bvh.node_count; n++) deepest = node_depth(&bvh, n) > deepest ? node_depth(&bvh, n) : deepest;
    assert_true(deepest <= 30);
    assert_false(tr_bvh_insert(&bvh, TOTAL, boxes)); // full
    // Refit still works on inserted items.
    boxes[TOTAL - 1] = random_box(80.0f, 2.0f);
    tr_bvh_refit_item(&bvh, TOTAL - 1, boxes);
    check_invariants(&bvh, boxes, TOTAL, 2);
    tr_bvh_destroy(&bvh);
    free(boxes);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bvh_empty_and_single),
        cmocka_unit_test(test_bvh_random_boxes_invariants),
        cmocka_unit_test(test_bvh_identical_boxes_respect_leaf_size),
        cmocka_unit_test(test_bvh_exponential_spacing_stays_shallow),
        cmocka_unit_test(test_bvh_refit_moves_items),
        cmocka_unit_test(test_bvh_insert_keeps_invariants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
