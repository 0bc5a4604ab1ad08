// SPDX-License-Identifier: MIT
// Bounding volume hierarchy: binned-SAH build (leaf when at most max_leaf_items remain) (iterative, depth-capped), leaf-to-root refit, SAH cost.
#include "bvh.h"

#include <string.h>

// ---- build parameters ------------------------------------------------------------------------------
#define BVH_BINS 16           // SAH bins along the longest centroid axis
#define BVH_MAX_DEPTH 48      // no leaf deeper than this (root = depth 0); traversal stacks rely on it
// Centroid extents below this (metres) cannot be binned reliably: split by the object median instead.
#define BVH_MIN_CENTROID_EXTENT 1.0e-30f

// One item while building: its box and its index, packed so partitioning streams through memory
// instead of gathering boxes[items[i]] at random.
typedef struct build_item {
    float min[3], max[3];
    int32_t index;
    int32_t pad;
} build_item;

typedef struct build_task {
    int32_t node, start, count, depth;
} build_task;

typedef struct bin {
    float min[3], max[3];
    int32_t count;
} bin;

static void bin_reset(bin *b) {
    for (int a = 0; a < 3; a++) {
        b->min[a] = FLT_MAX;
        b->max[a] = -FLT_MAX;
    }
    b->count = 0;
}

static void bin_grow(bin *b, const float *mn, const float *mx) {
    for (int a = 0; a < 3; a++) {
        b->min[a] = mn[a] < b->min[a] ? mn[a] : b->min[a];
        b->max[a] = mx[a] > b->max[a] ? mx[a] : b->max[a];
    }
}

static float bin_half_area(const bin *b) {
    float dx = b->max[0] - b->min[0], dy = b->max[1] - b->min[1], dz = b->max[2] - b->min[2];
    return dx * dy + dy * dz + dz * dx;
}

static tread_aabb bin_box(const bin *b) {
    tread_aabb box;
    box.min = tread_v3(b->min[0], b->min[1], b->min[2]);
    box.max = tread_v3(b->max[0], b->max[1], b->max[2]);
    return box;
}

// Levels a tree over `count` items needs with leaves of at most `max_leaf`: ceil(log2(ceil(count / max_leaf))).
static int levels_needed(int32_t count, int max_leaf) {
    int64_t leaves = ((int64_t)count + max_leaf - 1) / max_leaf;
    int levels = 0;
    while (((int64_t)1 << levels) < leaves) levels++;
    return levels;
}

// Bin index of a doubled centroid c2 (min + max) along the split axis; identical in binning and partition.
static inline int bin_of(float c2, float lo, float scale) {
    int k = (int)((c2 - lo) * scale);
    return k < 0 ? 0 : (k >= BVH_BINS ? BVH_BINS - 1 : k);
}

static bool bvh_alloc(tr_bvh *bvh, int count) {
    size_t max_nodes = (size_t)(2 * count - 1);
    bvh->nodes = (tr_bvh_node *)tr_alloc(max_nodes * sizeof(tr_bvh_node));
    bvh->items = (int32_t *)tr_alloc((size_t)count * sizeof(int32_t));
    bvh->item_leaf = (int32_t *)tr_alloc((size_t)count * sizeof(int32_t));
    bvh->item_capacity = count;
    return bvh->nodes && bvh->items && bvh->item_leaf;
}

// Box of build items [start, start + count).
static tread_aabb items_box(const build_item *it, int32_t start, int32_t count) {
    bin b;
    bin_reset(&b);
    for (int32_t i = start; i < start + count; i++) bin_grow(&b, it[i].min, it[i].max);
    return bin_box(&b);
}

bool tr_bvh_build(tr_bvh *bvh, const tread_aabb *boxes, int count, int max_leaf_items) {
    memset(bvh, 0, sizeof *bvh);
    if (count <= 0) return true;
    if (max_leaf_items < 1) max_leaf_items = 1;
    build_item *it = (build_item *)tr_alloc((size_t)count * sizeof(build_item));
    if (!it || !bvh_alloc(bvh, count)) {
        tr_free(it);
        tr_bvh_destroy(bvh);
        return false;
    }
    bvh->item_count = count;
    for (int i = 0; i < count; i++) {
        it[i].min[0] = boxes[i].min.x, it[i].min[1] = boxes[i].min.y, it[i].min[2] = boxes[i].min.z;
        it[i].max[0] = boxes[i].max.x, it[i].max[1] = boxes[i].max.y, it[i].max[2] = boxes[i].max.z;
        it[i].index = i;
        it[i].pad = 0;
    }

    tr_bvh_node *nodes = bvh->nodes;
    nodes[0].box = items_box(it, 0, count);
    nodes[0].parent = -1;
    nodes[0].pad = 0;
    int node_count = 1;

    // Depth-first with an explicit stack: each pop pushes at most two tasks, so it holds at most depth + 2.
    build_task stack[BVH_MAX_DEPTH + 4];
    int top = 0;
    stack[top++] = (build_task){0, 0, count, 0};
    while (top > 0) {
        build_task task = stack[--top];
        tr_bvh_node *node = &nodes[task.node];
        build_item *items = it + task.start;
        int32_t n = task.count;
        int need = levels_needed(n, max_leaf_items);
        int32_t split = -1; // items[0, split) go left

        tread_aabb left_box = node->box, right_box = node->box;
        if (n > max_leaf_items) {
            // Centroid bounds (doubled centroids: min + max, no multiply) pick the axis.
            float cmin[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, cmax[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
            for (int32_t i = 0; i < n; i++) {
                for (int a = 0; a < 3; a++) {
                    float c2 = items[i].min[a] + items[i].max[a];
                    cmin[a] = c2 < cmin[a] ? c2 : cmin[a];
                    cmax[a] = c2 > cmax[a] ? c2 : cmax[a];
                }
            }
            int axis = 0;
            for (int a = 1; a < 3; a++)
                if (cmax[a] - cmin[a] > cmax[axis] - cmin[axis]) axis = a;
            float extent = cmax[axis] - cmin[axis];
            // SAH only while the depth budget allows a worst-case (one item peeled) split; otherwise, or when
            // the centroids coincide, the object median keeps the tree within BVH_MAX_DEPTH.
            bool sah = task.depth + need < BVH_MAX_DEPTH && extent > BVH_MIN_CENTROID_EXTENT;
            if (sah) {
                float scale = (float)BVH_BINS * (1.0f - 1.0e-6f) / extent;
                float lo = cmin[axis];
                bin bins[BVH_BINS];
                for (int b = 0; b < BVH_BINS; b++) bin_reset(&bins[b]);
                for (int32_t i = 0; i < n; i++) {
                    bin *b = &bins[bin_of(items[i].min[axis] + items[i].max[axis], lo, scale)];
                    bin_grow(b, items[i].min, items[i].max);
                    b->count++;
                }
                // Sweep: right-side areas and counts, then the left side picks the cheapest plane.
                float right_area[BVH_BINS];
                int32_t right_count[BVH_BINS];
                bin acc;
                bin_reset(&acc);
                for (int b = BVH_BINS - 1; b > 0; b--) {
                    bin_grow(&acc, bins[b].min, bins[b].max);
                    right_area[b] = bin_half_area(&acc);
                    right_count[b] = (acc.count += bins[b].count);
                }
                bin_reset(&acc);
                float best_cost = FLT_MAX;
                int best = -1;
                for (int b = 0; b < BVH_BINS - 1; b++) {
                    bin_grow(&acc, bins[b].min, bins[b].max);
                    acc.count += bins[b].count;
                    if (acc.count == 0 || right_count[b + 1] == 0) continue;
                    float cost = bin_half_area(&acc) * (float)acc.count + right_area[b + 1] * (float)right_count[b + 1];
                    if (cost < best_cost) best_cost = cost, best = b;
                }
                // One item much larger than its siblings (a floor under a field of boxes) makes every node on
                // its path as big as itself, so every query would descend there. Consider peeling it off alone.
                int32_t big = -1;
                float big_area = 0.25f * tread_aabb_half_area(node->box);
                for (int32_t i = 0; i < n; i++) {
                    float dx = items[i].max[0] - items[i].min[0], dy = items[i].max[1] - items[i].min[1],
                          dz = items[i].max[2] - items[i].min[2];
                    float area = dx * dy + dy * dz + dz * dx;
                    if (area > big_area) big_area = area, big = i;
                }
                if (big >= 0) {
                    bin rest;
                    bin_reset(&rest);
                    for (int32_t i = 0; i < n; i++)
                        if (i != big) bin_grow(&rest, items[i].min, items[i].max);
                    float cost = big_area + bin_half_area(&rest) * (float)(n - 1);
                    if (cost < best_cost) {
                        build_item tmp = items[0];
                        items[0] = items[big];
                        items[big] = tmp;
                        split = 1;
                        bin one;
                        bin_reset(&one);
                        bin_grow(&one, items[0].min, items[0].max);
                        left_box = bin_box(&one);
                        right_box = bin_box(&rest);
                        best = -1;
                    }
                }
                if (best >= 0) {
                    // Partition in place: items in bins <= best go left.
                    int32_t i = 0, j = n - 1;
                    while (i <= j) {
                        if (bin_of(items[i].min[axis] + items[i].max[axis], lo, scale) <= best) {
                            i++;
                        } else {
                            build_item tmp = items[i];
                            items[i] = items[j];
                            items[j] = tmp;
                            j--;
                        }
                    }
                    split = i;
                    // Child boxes are exactly the unions of their bins.
                    bin lb, rb;
                    bin_reset(&lb);
                    bin_reset(&rb);
                    for (int b = 0; b < BVH_BINS; b++) bin_grow(b <= best ? &lb : &rb, bins[b].min, bins[b].max);
                    left_box = bin_box(&lb);
                    right_box = bin_box(&rb);
                }
            } else {
                split = n / 2;
                left_box = items_box(items, 0, split);
                right_box = items_box(items, split, n - split);
            }
        }

        if (split <= 0 || split >= n) {
            // Leaf.
            node->first = task.start;
            node->count = n;
            for (int32_t i = 0; i < n; i++) {
                bvh->items[task.start + i] = items[i].index;
                bvh->item_leaf[items[i].index] = task.node;
            }
            continue;
        }
        int32_t left = node_count;
        node_count += 2;
        node->first = left;
        node->count = 0;
        tr_bvh_node *l = &nodes[left], *r = &nodes[left + 1];
        l->box = left_box;
        r->box = right_box;
        l->parent = r->parent = task.node;
        l->pad = r->pad = 0;
        TR_ASSERT(top + 2 <= (int)(sizeof stack / sizeof stack[0]));
        stack[top++] = (build_task){left + 1, task.start + split, n - split, task.depth + 1};
        stack[top++] = (build_task){left, task.start, split, task.depth + 1};
    }
    bvh->node_count = node_count;
    tr_free(it);
    return true;
}

void tr_bvh_destroy(tr_bvh *bvh) {
    tr_free(bvh->nodes);
    tr_free(bvh->items);
    tr_free(bvh->item_leaf);
    memset(bvh, 0, sizeof *bvh);
}

static bool aabb_equal(tread_aabb a, tread_aabb b) {
    return a.min.x == b.min.x && a.min.y == b.min.y && a.min.z == b.min.z && a.max.x == b.max.x &&
           a.max.y == b.max.y && a.max.z == b.max.z;
}

bool tr_bvh_reserve(tr_bvh *bvh, int items) {
    if (items <= bvh->item_capacity) return true;
    tr_bvh_node *nodes = (tr_bvh_node *)tr_alloc((size_t)(2 * items - 1) * sizeof(tr_bvh_node));
    int32_t *slots = (int32_t *)tr_alloc((size_t)items * sizeof(int32_t));
    int32_t *leaf = (int32_t *)tr_alloc((size_t)items * sizeof(int32_t));
    if (!nodes || !slots || !leaf) {
        tr_free(nodes);
        tr_free(slots);
        tr_free(leaf);
        return false;
    }
    if (bvh->node_count > 0) memcpy(nodes, bvh->nodes, (size_t)bvh->node_count * sizeof(tr_bvh_node));
    if (bvh->item_count > 0) {
        memcpy(slots, bvh->items, (size_t)bvh->item_count * sizeof(int32_t));
        memcpy(leaf, bvh->item_leaf, (size_t)bvh->item_count * sizeof(int32_t));
    }
    tr_free(bvh->nodes);
    tr_free(bvh->items);
    tr_free(bvh->item_leaf);
    bvh->nodes = nodes;
    bvh->items = slots;
    bvh->item_leaf = leaf;
    bvh->item_capacity = items;
    return true;
}

bool tr_bvh_insert(tr_bvh *bvh, int item, const tread_aabb *boxes) {
    TR_ASSERT(item == bvh->item_count);
    if (bvh->node_count == 0 || bvh->item_count >= bvh->item_capacity || bvh->node_count + 2 > 2 * bvh->item_capacity - 1)
        return false;
    tread_aabb box = boxes[item];
    // Greedy descent (surface-area costs, the left child on ties): into an internal child the cost is how much
    // its box grows; beside a leaf child it is the area of the new internal node. (Growth alone would file
    // every box under a huge leaf such as a floor, which grows by nothing, one level deeper each time.)
    int32_t node = 0;
    int depth = 0;
    while (bvh->nodes[node].count == 0) {
        int32_t l = bvh->nodes[node].first;
        float cost[2];
        for (int k = 0; k < 2; k++) {
            const tr_bvh_node *child = &bvh->nodes[l + k];
            float area = tread_aabb_half_area(tread_aabb_union(child->box, box));
            cost[k] = child->count > 0 ? area : area - tread_aabb_half_area(child->box);
        }
        node = cost[0] <= cost[1] ? l : l + 1;
        depth++;
    }
    if (depth + 1 > BVH_MAX_DEPTH) return false;
    // The leaf becomes an internal node over (a copy of itself, the new one-item leaf).
    int32_t copy = bvh->node_count, fresh = copy + 1;
    tr_bvh_node *leaf = &bvh->nodes[node];
    bvh->nodes[copy] = *leaf;
    bvh->nodes[copy].parent = node;
    for (int32_t i = 0; i < leaf->count; i++) bvh->item_leaf[bvh->items[leaf->first + i]] = copy;
    bvh->items[bvh->item_count] = item;
    bvh->item_leaf[item] = fresh;
    bvh->nodes[fresh].box = box;
    bvh->nodes[fresh].first = bvh->item_count;
    bvh->nodes[fresh].count = 1;
    bvh->nodes[fresh].parent = node;
    bvh->nodes[fresh].pad = 0;
    leaf->first = copy;
    leaf->count = 0;
    leaf->box = tread_aabb_union(leaf->box, box);
    bvh->node_count += 2;
    bvh->item_count++;
    for (node = leaf->parent; node >= 0; node = bvh->nodes[node].parent) {
        tr_bvh_node *p = &bvh->nodes[node];
        tread_aabb u = tread_aabb_union(bvh->nodes[p->first].box, bvh->nodes[p->first + 1].box);
        if (aabb_equal(u, p->box)) break;
        p->box = u;
    }
    return true;
}

void tr_bvh_refit_item(tr_bvh *bvh, int item, const tread_aabb *boxes) {
    TR_ASSERT(item >= 0 && item < bvh->item_count);
    int32_t node = bvh->item_leaf[item];
    tr_bvh_node *leaf = &bvh->nodes[node];
    tread_aabb box = boxes[bvh->items[leaf->first]];
    for (int32_t i = 1; i < leaf->count; i++) box = tread_aabb_union(box, boxes[bvh->items[leaf->first + i]]);
    if (aabb_equal(box, leaf->box)) return;
    leaf->box = box;
    // Ancestors: exact union of the two children; stop once a box no longer changes.
    for (node = leaf->parent; node >= 0; node = bvh->nodes[node].parent) {
        tr_bvh_node *p = &bvh->nodes[node];
        tread_aabb u = tread_aabb_union(bvh->nodes[p->first].box, bvh->nodes[p->first + 1].box);
        if (aabb_equal(u, p->box)) return;
        p->box = u;
    }
}

float tr_bvh_cost(const tr_bvh *bvh) {
    if (bvh->node_count == 0) return 0.0f;
    double sum = 0.0; // double: a million terms in float would lose the small ones
    for (int i = 0; i < bvh->node_count; i++)
        if (bvh->nodes[i].count == 0) sum += (double)tread_aabb_half_area(bvh->nodes[i].box);
    float root = tread_aabb_half_area(bvh->nodes[0].box);
    return root > 0.0f ? (float)(sum / (double)root) : 0.0f;
}
