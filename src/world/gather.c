// SPDX-License-Identifier: MIT
// A move's candidates: the bodies whose boxes meet the move's box, in one plain box-overlap walk of the broad phase
// (cheaper than the cast walk's slab tests), kept as rows of bounds that a move's queries test four at a time
// (query.c, tr_scope_reach4); and the same from a list of bodies gathered before (the move cache).
#include "world_internal.h"
#include "world_query.h"

#if defined(__SSE2__) || defined(_M_X64)
#define GATHER_SSE 1
#else
#define GATHER_SSE 0
#endif

// One gathered body: its slot, and its box in the rows.
static bool gather_one(const tread_world *w, int32_t slot, int32_t *slots, float *bounds, int capacity, int *count) {
    if (*count == capacity) return false;
    const tread_aabb *b = &w->bodies[slot].aabb;
    const float row[6] = {b->min.x, b->min.y, b->min.z, b->max.x, b->max.y, b->max.z};
    for (int a = 0; a < 6; ++a) bounds[a * capacity + *count] = row[a];
    slots[(*count)++] = slot;
    return true;
}

// Pad the rows to a multiple of four with the last box (never visited: the visit stops at the count).
static void pad_rows(float *bounds, int capacity, int count) {
    for (int k = count; count > 0 && k % 4 != 0; ++k)
        for (int a = 0; a < 6; ++a) bounds[a * capacity + k] = bounds[a * capacity + count - 1];
}

// A gather's box, ready to be tested against others: tread_aabb_overlaps in two comparisons of four lanes where the
// build has SSE (each box's six floats loaded as its first four and its last four; the lanes past the three axes
// compare against infinities, true for any box), the same answer as the scalar test.
typedef struct gather_box {
    tread_aabb box;
#if GATHER_SSE
    __m128 max_of_box; // (max x, max y, max z, +inf): a box's (min x, min y, min z, max x) is at most it
    __m128 min_of_box; // (-inf, min x, min y, min z): a box's (min z, max x, max y, max z) is at least it
#endif
} gather_box;

static gather_box gather_box_of(tread_aabb box) {
    gather_box g;
    g.box = box;
#if GATHER_SSE
    g.max_of_box = _mm_setr_ps(box.max.x, box.max.y, box.max.z, INFINITY);
    g.min_of_box = _mm_setr_ps(-INFINITY, box.min.x, box.min.y, box.min.z);
#endif
    return g;
}

static inline bool meets(const tread_aabb *a, const gather_box *g) {
#if GATHER_SSE
    const float *f = &a->min.x;
    __m128 low = _mm_cmple_ps(_mm_loadu_ps(f), g->max_of_box), high = _mm_cmple_ps(g->min_of_box, _mm_loadu_ps(f + 2));
    return _mm_movemask_ps(_mm_and_ps(low, high)) == 0xF;
#else
    return tread_aabb_overlaps(*a, g->box);
#endif
}

bool tr_world_gather(const tread_world *w, tread_aabb box_, int32_t *slots, float *bounds, int capacity, int *out_count) {
    TR_ASSERT(w && slots && bounds && out_count && capacity >= 0 && capacity % 4 == 0);
    // A plain box-overlap walk (cheaper than the cast walk's slab tests): every body, sensors too.
    int count = 0;
    const gather_box g = gather_box_of(box_);
    const gather_box *box = &g;
    if (w->tree.node_count > 0 && meets(&w->tree.nodes[0].box, box)) {
        int32_t stack[TR_BVH_STACK_SIZE];
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            const tr_bvh_node *node = &w->tree.nodes[stack[--top]];
            if (node->count > 0) {
                for (int i = 0; i < node->count; ++i) {
                    int32_t slot = w->tree_body[w->tree.items[node->first + i]];
                    if (slot < 0 || (node->count > 1 && !meets(&w->bodies[slot].aabb, box))) continue;
                    if (!gather_one(w, slot, slots, bounds, capacity, &count)) return false;
                }
                continue;
            }
            for (int32_t c = node->first; c <= node->first + 1; ++c) {
                if (!meets(&w->tree.nodes[c].box, box)) continue;
                TR_ASSERT(top < TR_BVH_STACK_SIZE);
                stack[top++] = c;
            }
        }
    }
    for (int i = 0; i < w->pending_count; ++i) {
        int32_t slot = w->pending[i];
        if (meets(&w->bodies[slot].aabb, box) && !gather_one(w, slot, slots, bounds, capacity, &count)) return false;
    }
    pad_rows(bounds, capacity, count);
    *out_count = count;
    return true;
}

bool tr_world_gather_among(const tread_world *w, tread_aabb box, const int32_t *from, int count, int32_t *slots, float *bounds, int capacity,
                           int *out_count) {
    TR_ASSERT(w && from && slots && bounds && out_count && count >= 0 && count <= capacity && capacity % 4 == 0);
    int n = 0;
    for (int i = 0; i < count; ++i) {
        if (from[i] < 0 || from[i] >= w->slot_count || !w->bodies[from[i]].alive) return false;
        if (tread_aabb_overlaps(w->bodies[from[i]].aabb, box)) gather_one(w, from[i], slots, bounds, capacity, &n);
    }
    pad_rows(bounds, capacity, n);
    *out_count = n;
    return true;
}
