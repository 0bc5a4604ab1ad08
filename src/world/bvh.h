// Bounding volume hierarchy over boxes: binned-SAH build, refit, and the node layout traversals read.
// Used for mesh triangles (built once) and for the world's bodies (refit on move, rebuilt when degraded).
// Traversals live with their users and use an explicit stack of TR_BVH_STACK_SIZE node indices.
#ifndef TREAD_BVH_H
#define TREAD_BVH_H

#include "../core.h"

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

// Branch-free min/max with exactly tr_minf/tr_maxf's results (a < b ? a : b, a > b ? a : b, including
// which operand a tie or NaN returns: MINSS/MAXSS return the second operand then). The compiler otherwise
// tends to emit compare-and-branch, and slab tests mispredict badly.
#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>
static inline float tr_bvh_minf(float a, float b) { return _mm_cvtss_f32(_mm_min_ss(_mm_set_ss(a), _mm_set_ss(b))); }
static inline float tr_bvh_maxf(float a, float b) { return _mm_cvtss_f32(_mm_max_ss(_mm_set_ss(a), _mm_set_ss(b))); }
#else
static inline float tr_bvh_minf(float a, float b) { return tr_minf(a, b); }
static inline float tr_bvh_maxf(float a, float b) { return tr_maxf(a, b); }
#endif

// Slab test of the segment o + t d, t in [0, t_max], against box grown by `inflate` on each axis.
// inv_d from tr_inverse_direction. Returns the entry t, or a value > t_max when missed.
static inline float tr_ray_aabb_entry(tread_vec3 o, tread_vec3 inv_d, tread_aabb box, tread_vec3 inflate, float t_max) {
    float tx0 = (box.min.x - inflate.x - o.x) * inv_d.x, tx1 = (box.max.x + inflate.x - o.x) * inv_d.x;
    float ty0 = (box.min.y - inflate.y - o.y) * inv_d.y, ty1 = (box.max.y + inflate.y - o.y) * inv_d.y;
    float tz0 = (box.min.z - inflate.z - o.z) * inv_d.z, tz1 = (box.max.z + inflate.z - o.z) * inv_d.z;
    float tmin = tr_bvh_maxf(tr_bvh_maxf(tr_bvh_minf(tx0, tx1), tr_bvh_minf(ty0, ty1)), tr_bvh_maxf(tr_bvh_minf(tz0, tz1), 0.0f));
    float tmax = tr_bvh_minf(tr_bvh_minf(tr_bvh_maxf(tx0, tx1), tr_bvh_maxf(ty0, ty1)), tr_bvh_minf(tr_bvh_maxf(tz0, tz1), t_max));
    return tmin <= tmax ? tmin : t_max + 1.0f;
}

// Per-axis 1/d. A zero component maps to a huge finite value (not inf) so that 0 * it stays 0, never NaN:
// a segment lying exactly on a slab plane counts as inside that slab.
#define TR_HUGE_INVERSE 1.0e30f
static inline float tr_inverse_component(float v) { return v != 0.0f ? 1.0f / v : TR_HUGE_INVERSE; }
static inline tread_vec3 tr_inverse_direction(tread_vec3 d) {
    return tread_v3(tr_inverse_component(d.x), tr_inverse_component(d.y), tr_inverse_component(d.z));
}

#endif
