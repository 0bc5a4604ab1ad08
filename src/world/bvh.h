// SPDX-License-Identifier: MIT
// Bounding volume hierarchy over boxes: binned-SAH build, refit, and the node layout traversals read.
// Used for mesh triangles (built once) and for the world's bodies (refit on move, rebuilt when degraded).
// Traversals live with their users and use an explicit stack of TR_BVH_STACK_SIZE node indices.
#ifndef TREAD_BVH_H
#define TREAD_BVH_H

#include "../core.h"
#include "../geometry/ray_box.h"

#define TR_BVH_STACK_SIZE 64 // deeper than any tree the builder makes (it caps depth at 48)

typedef struct tr_bvh_node {
    tread_aabb box;
    int32_t first; // leaf: first slot in items[]; internal: index of the left child (right child = first + 1)
    int32_t count; // leaf: number of items (> 0); internal: 0
    int32_t parent; // -1 at the root
    int32_t pad;
} tr_bvh_node;

typedef struct tr_bvh {
    tr_bvh_node *nodes; // nodes[0] is the root (when node_count > 0)
    int node_count;
    int32_t *items;     // leaf slots -> the caller's item indices (a permutation of 0..item_count-1)
    int32_t *item_leaf; // item index -> leaf node holding it
    int item_count;
    int item_capacity;  // items the arrays hold (>= item_count); tr_bvh_reserve grows it for tr_bvh_insert
} tr_bvh;

// Build over `count` boxes (count >= 0) with leaves of at most max_leaf_items. False when out of memory.
bool tr_bvh_build(tr_bvh *bvh, const tread_aabb *boxes, int count, int max_leaf_items);
void tr_bvh_destroy(tr_bvh *bvh);
// Make room for `items` items in total (nodes for 2 * items - 1), keeping the tree. False when out of memory
// (the tree is unchanged).
bool tr_bvh_reserve(tr_bvh *bvh, int items);
// Add item `item` == bvh->item_count with box boxes[item] to a non-empty tree: it becomes a one-item leaf
// beside the leaf whose box grows least (greedy descent), and the ancestors are refit. False (tree unchanged)
// when there is no reserved room or the new leaf would be deeper than the builder's depth cap.
bool tr_bvh_insert(tr_bvh *bvh, int item, const tread_aabb *boxes);
// Item `item` now has box boxes[item]: refit its leaf and the leaf's ancestors.
void tr_bvh_refit_item(tr_bvh *bvh, int item, const tread_aabb *boxes);
// Surface-area cost of the tree (sum of internal-node half areas over the root's): grows as refits degrade it.
float tr_bvh_cost(const tr_bvh *bvh);

#endif
