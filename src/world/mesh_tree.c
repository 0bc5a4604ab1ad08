// SPDX-License-Identifier: MIT
// Triangle mesh shape: the query tree and the compact storage a mesh is built into (mesh.h describes the layout).
// The builder's binary binned-SAH tree is cut into full 4-wide nodes with leaves of up to MESH_LEAF_TRIANGLES
// triangles, the nodes are laid out breadth first, and the vertices are placed in strips for the nodes' windows.
#include "mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Leaves of the builder's binary tree: small, so that the cut below can make leaves of many sizes from them.
#define MESH_BUILD_LEAF 4
// A leaf's triangles at most. Bigger leaves mean fewer nodes (the nodes are most of the bytes left beside the
// triangles and vertices) and more triangles tested a visited leaf: with their bounds tested first (mesh.c), 24
// costs P3 no more instructions than the 4-triangle leaves before (docs/PERFORMANCE.md).
#define MESH_LEAF_TRIANGLES 24
// The surface-area costs of testing a node's four boxes and a leaf's triangle (its bounds test, mesh.c), in about
// the instructions they take over 40.
#define MESH_SAH_NODE 1.0
#define MESH_SAH_TRIANGLE 0.5
// What a node's 64 bytes are worth against its surface-area gain, in a planar mesh's average triangle's area: a cut
// pays for a node that saves more tests than that (a level's big or scattered triangles), not for one that makes a
// grid's leaves a little finer (P3: 600 gives 13.8 bytes a triangle and 1.4 % fewer instructions an update; 300:
// 14.5 bytes; 1000: a level's update 4 % dearer than with the 4-triangle leaves, 1.4 % with 600).
#define MESH_NODE_PRICE 600.0
// A leaf's distinct vertices at most: a node's four leaves then fit one vertex window of 256 (any 21 triangles do).
#define MESH_LEAF_VERTICES 64
// How wide a strip of the vertex placement is, as the fraction of a window (256 vertices) that a strip's nodes side
// by side add: narrower strips copy more vertices at their borders, wider ones overflow the window inside the strip
// (0.4 placed the fewest on the course's sine meshes, 0.2 to 1.0 tried).
#define MESH_STRIP_FILL 0.4f

// How the 4-wide layout cuts the binary tree. Each 4-wide node adopts a frontier of up to four descendants of its
// binary node; a descendant of at most MESH_LEAF_TRIANGLES triangles over at most MESH_LEAF_VERTICES vertices may
// be a leaf (its triangles are contiguous in the builder's items: size[n] of them from start[n]), a bigger one
// becomes a 4-wide node in turn. The frontiers are chosen bottom-up for the least cost: the surface-area cost of the
// queries' tests plus MESH_NODE_PRICE a node (the nodes are most of the mesh's bytes beside its triangles and
// vertices; the greedy collapse before left them a quarter empty).
typedef struct cut {
    int32_t nodes;      // 4-wide nodes in the subtree, for this way of cutting it
    double cost;        // its surface-area cost (MESH_SAH_NODE a node, MESH_SAH_TRIANGLE a leaf's triangle, each
                        // weighted by its box's half area: how likely a query reaches it) and its nodes' price
    int8_t left, right; // pieces from the left and right child; 0, 0: the subtree is one piece
} cut;

typedef struct binary_view {
    const tr_bvh *bvh;
    const tr_mesh_source *src;
    const int32_t *same;        // the vertices' canonical indices (same_vertices)
    int32_t *size, *start;      // per binary node
    bool *fits;                 // per binary node: may be a leaf
    cut (*best)[TR_MESH_WIDTH]; // per binary node: best[n][j - 1], the best cut into at most j pieces
    cut *inner;                 // per binary node: the best cut of its children into a 4-wide node's children
    double node_price;          // MESH_NODE_PRICE in surface-area cost: that many times the root's half area a triangle
} binary_view;

static bool view_leaf(const binary_view *view, int32_t n) { return view->fits[n]; }

// Whether binary node n may be a leaf: few enough triangles, and vertices (any MESH_LEAF_VERTICES / 3 triangles
// have few enough; counted for bigger ones).
static bool leaf_fits(const binary_view *view, int32_t n) {
    int32_t size = view->size[n];
    if (size <= MESH_LEAF_VERTICES / 3) return true;
    if (size > MESH_LEAF_TRIANGLES) return false;
    int32_t seen[MESH_LEAF_VERTICES];
    int unique = 0;
    for (int32_t i = view->start[n]; i < view->start[n] + size; i++)
        for (int k = 0; k < 3; k++) {
            int32_t v = view->same[view->src->indices[3 * view->bvh->items[i] + k]];
            int j = 0;
            while (j < unique && seen[j] != v) j++;
            if (j < unique) continue;
            if (unique == MESH_LEAF_VERTICES) return false;
            seen[unique++] = v;
        }
    return true;
}

static bool cut_better(cut a, cut b) { return a.cost != b.cost ? a.cost < b.cost : a.nodes < b.nodes; }

// The best cut of internal node n's two children into `pieces` pieces or fewer, each child giving at least one.
static cut split_cut(const binary_view *view, int32_t n, int pieces) {
    int32_t l = view->bvh->nodes[n].first, r = l + 1;
    cut best = {INT32_MAX, HUGE_VAL, 0, 0};
    for (int jl = 1; jl < pieces; jl++) {
        cut a = view->best[l][jl - 1], b = view->best[r][pieces - jl - 1];
        cut c = {a.nodes + b.nodes, a.cost + b.cost, (int8_t)jl, (int8_t)(pieces - jl)};
        if (cut_better(c, best)) best = c;
    }
    return best;
}

// Subtree sizes and starts and the best cuts, children before parents (the builder numbers a node's children
// after it).
static void view_plan(binary_view *view) {
    const tr_bvh *bvh = view->bvh;
    for (int32_t n = bvh->node_count - 1; n >= 0; n--) {
        const tr_bvh_node *node = &bvh->nodes[n];
        bool internal = node->count == 0;
        view->size[n] = internal ? view->size[node->first] + view->size[node->first + 1] : node->count;
        view->start[n] = internal ? view->start[node->first] : node->first;
        view->fits[n] = leaf_fits(view, n);
        double area = (double)tread_aabb_half_area(node->box);
        cut one = {0, area * MESH_SAH_TRIANGLE * view->size[n], 0, 0}; // a leaf
        if (internal) view->inner[n] = split_cut(view, n, TR_MESH_WIDTH);
        if (!view_leaf(view, n)) one = (cut){1 + view->inner[n].nodes, area * MESH_SAH_NODE + view->node_price + view->inner[n].cost, 0, 0};
        view->best[n][0] = one;
        for (int j = 2; j <= TR_MESH_WIDTH; j++) {
            cut c = view->best[n][j - 2];
            if (internal) {
                cut split = split_cut(view, n, j);
                if (cut_better(split, c)) c = split;
            }
            view->best[n][j - 1] = c;
        }
    }
}

// The pieces of binary node n cut as best[n][pieces - 1], appended to out[*k].
static void view_pieces(const binary_view *view, int32_t n, int pieces, int32_t *out, int *k) {
    cut c = view->best[n][pieces - 1];
    if (c.left == 0) {
        out[(*k)++] = n;
        return;
    }
    view_pieces(view, view->bvh->nodes[n].first, c.left, out, k);
    view_pieces(view, view->bvh->nodes[n].first + 1, c.right, out, k);
}

// The children of the 4-wide node made from binary node n (n itself when it is a leaf). Returns how many.
static int gather_children(const binary_view *view, int32_t n, int32_t *out) {
    int k = 0;
    if (view_leaf(view, n)) {
        out[k++] = n;
        return k;
    }
    cut c = view->inner[n];
    view_pieces(view, view->bvh->nodes[n].first, c.left, out, &k);
    view_pieces(view, view->bvh->nodes[n].first + 1, c.right, out, &k);
    TR_ASSERT(k >= 2 && k <= TR_MESH_WIDTH);
    return k;
}

// Triangles in node n's leaves (slots first .. first + this - 1).
static int leaf_slots(const tr_mesh_node *node) {
    int count = 0;
    for (int k = 0; k < TR_MESH_WIDTH; k++) {
        uint32_t kind = tr_mesh_kind(node, k);
        if (kind != TR_MESH_KIND_NODE) count += (int)kind;
    }
    return count;
}

// The order the vertex windows are filled in: each node's new vertices are appended, and a vertex placed more than
// a window back is copied, so a node's neighbours in space should come within a few nodes of it. The nodes are swept
// in strips (a boustrophedon over the mesh's two longest axes), each strip as many nodes across as add
// MESH_STRIP_FILL of a window: the nodes beside one along the sweep come that many nodes later, within its window,
// and mostly the vertices on the strips' borders are copied. (A depth-first order copies those on the borders of
// every window-sized subtree: 10 % of the 1M-triangle sine mesh's vertices, against 4.6 % in strips.)
typedef struct strip_key {
    int32_t strip;
    float along, across;
    int32_t node;
} strip_key;

static int compare_strip_keys(const void *pa, const void *pb) {
    const strip_key *a = (const strip_key *)pa, *b = (const strip_key *)pb;
    if (a->strip != b->strip) return a->strip < b->strip ? -1 : 1;
    float da = a->strip % 2 ? -a->along : a->along, db = b->strip % 2 ? -b->along : b->along;
    if (da != db) return da < db ? -1 : 1;
    if (a->across != b->across) return a->across < b->across ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

// Fills visit[] with the nodes in strip order; `keys` has room for every node; vertex_count: the distinct vertices.
static void strip_order(const tr_mesh_node *nodes, int node_count, tread_aabb bounds, int vertex_count, int32_t *visit,
                        strip_key *keys) {
    const float lo[3] = {bounds.min.x, bounds.min.y, bounds.min.z};
    const float size[3] = {bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y, bounds.max.z - bounds.min.z};
    int across = 0, along = 1; // the longest axis is cut into strips, each swept along the second longest
    for (int a = 1; a < 3; a++)
        if (size[a] > size[across]) across = a;
    along = across == 0 ? 1 : 0;
    for (int a = 0; a < 3; a++)
        if (a != across && size[a] > size[along]) along = a;
    double extent = 0.0; // the mean extent across of the nodes holding leaves
    int holders = 0;
    for (int n = 0; n < node_count; n++)
        if (leaf_slots(&nodes[n]) > 0) extent += 255.0 * (double)nodes[n].step[across], holders++;
    // vertex_count / holders: about the new vertices a node adds.
    float nodes_across = holders > 0 ? MESH_STRIP_FILL * 256.0f * (float)holders / (float)vertex_count : 1.0f;
    float width = holders > 0 ? nodes_across * (float)(extent / holders) : 0.0f;
    for (int n = 0; n < node_count; n++) {
        float c[3];
        for (int a = 0; a < 3; a++) c[a] = nodes[n].origin[a] + 127.5f * nodes[n].step[a] - lo[a];
        float strip = width > 0.0f ? c[across] / width : 0.0f;
        keys[n] = (strip_key){strip < 1.0e6f ? (int32_t)strip : 1000000, c[along], c[3 - across - along], n}; // (no overflow)
    }
    qsort(keys, (size_t)node_count, sizeof *keys, compare_strip_keys);
    for (int n = 0; n < node_count; n++) visit[n] = keys[n].node;
}

// Vertices with the same bits are one vertex in the copy (a level's brush faces each repeat their corners): a
// corner then reads the same floats as the caller gave, so this is exact. same[v] = the lowest index with v's bits.
typedef struct vertex_bits {
    uint32_t bits[3];
    int32_t index;
} vertex_bits;

static int compare_vertex_bits(const void *pa, const void *pb) {
    const vertex_bits *a = (const vertex_bits *)pa, *b = (const vertex_bits *)pb;
    for (int k = 0; k < 3; k++)
        if (a->bits[k] != b->bits[k]) return a->bits[k] < b->bits[k] ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static bool same_vertices(const tr_mesh_source *src, int32_t *same) {
    vertex_bits *order = (vertex_bits *)tr_alloc((size_t)src->vertex_count * sizeof(vertex_bits));
    if (!order) return false;
    for (int v = 0; v < src->vertex_count; v++) {
        memcpy(order[v].bits, &src->vertices[v], sizeof order[v].bits);
        order[v].index = v;
    }
    qsort(order, (size_t)src->vertex_count, sizeof *order, compare_vertex_bits);
    for (int i = 0; i < src->vertex_count; i++)
        same[order[i].index] = i > 0 && memcmp(order[i].bits, order[i - 1].bits, sizeof order[i].bits) == 0
                                   ? same[order[i - 1].index]
                                   : order[i].index;
    tr_free(order);
    return true;
}

// Place the vertices node by node (in `visit` order) so that each node's corners lie in one window of 256: a vertex
// already placed within reach is shared, any other is appended (a copy when it was placed too far back).
// Fills corners[].corner, nodes[].vertex_base, placed_from[] (position -> caller vertex); returns the count.
static int place_vertices(const tr_mesh_source *src, const int32_t *same, const int32_t *order, tr_mesh_node *nodes, int node_count,
                          const int32_t *visit, tr_mesh_corners *corners, int32_t *placed, int32_t *placed_from) {
    for (int v = 0; v < src->vertex_count; v++) placed[v] = -1;
    int end = 0;
    for (int i = 0; i < node_count; i++) {
        int32_t n = visit[i];
        int first = (int)nodes[n].first, last = first + leaf_slots(&nodes[n]);
        uint32_t refs[TR_MESH_WIDTH * MESH_LEAF_VERTICES];
        int unique = 0;
        for (int s = first; s < last; s++)
            for (int k = 0; k < 3; k++) {
                uint32_t v = (uint32_t)same[src->indices[3 * order[s] + k]];
                int j = 0;
                while (j < unique && refs[j] != v) j++;
                if (j == unique) {
                    TR_ASSERT(unique < TR_MESH_WIDTH * MESH_LEAF_VERTICES);
                    refs[unique++] = v;
                }
            }
        // Kept vertices sit at or above `lower` and appended ones below end + unique: a span of at most 255.
        int lower = end + unique - 256, base = end;
        for (int j = 0; j < unique; j++)
            if (placed[refs[j]] >= 0 && placed[refs[j]] >= lower && placed[refs[j]] < base) base = placed[refs[j]];
        for (int j = 0; j < unique; j++)
            if (!(placed[refs[j]] >= 0 && placed[refs[j]] >= lower)) {
                placed[refs[j]] = end;
                placed_from[end++] = (int32_t)refs[j];
            }
        nodes[n].vertex_base = (uint32_t)base;
        for (int s = first; s < last; s++)
            for (int k = 0; k < 3; k++) {
                int offset = placed[same[src->indices[3 * order[s] + k]]] - base;
                TR_ASSERT(offset >= 0 && offset <= 255);
                corners[s].corner[k] = (uint8_t)offset;
            }
    }
    return end;
}

// Each node's caller indices: 16 bits above its leaf triangles' smallest when they span at most 65535 (a node's
// triangles are near each other, and so usually are their indices), else whole in wide_ids. Returns the wide slot
// count, and stores the wide indices when wide_ids is not NULL.
static int place_ids(tr_mesh *mesh, const tr_mesh_node *nodes, const int32_t *order, uint32_t *wide_ids) {
    int wide = 0;
    for (int n = 0; n < mesh->node_count; n++) {
        int first = (int)nodes[n].first;
        int last = n + 1 < mesh->node_count ? (int)nodes[n + 1].first : mesh->triangle_count;
        uint32_t lo = UINT32_MAX, hi = 0;
        for (int s = first; s < last; s++) {
            uint32_t id = (uint32_t)order[s];
            lo = id < lo ? id : lo;
            hi = id > hi ? id : hi;
        }
        if (first == last || hi - lo <= UINT16_MAX) {
            mesh->id_base[n] = first == last ? 0u : lo;
            for (int s = first; s < last; s++) mesh->id_low[s] = (uint16_t)((uint32_t)order[s] - lo);
            continue;
        }
        mesh->id_base[n] = TR_MESH_WIDE_IDS | (uint32_t)wide;
        for (int s = first; s < last; s++, wide++) {
            mesh->id_low[s] = 0;
            if (wide_ids) wide_ids[wide] = (uint32_t)order[s];
        }
    }
    return wide;
}

// A node's grid on one axis: origin = lo and the smallest step with origin + 255 step >= hi as the queries compute
// it (a float multiply, then an add).
static float grid_step(float lo, float hi) {
    float step = (hi - lo) / 255.0f;
    while (lo + 255.0f * step < hi) step = nextafterf(step, INFINITY);
    return step;
}

// The byte grid values of [lo, hi] on the axis (origin, step), rounded outward as the queries decode them.
static void quantize(float origin, float step, float lo, float hi, uint8_t *out_lo, uint8_t *out_hi) {
    int qlo = 0, qhi = 255;
    if (step > 0.0f) {
        qlo = (int)tr_clampf(floorf((lo - origin) / step), 0.0f, 255.0f);
        qhi = (int)tr_clampf(ceilf((hi - origin) / step), 0.0f, 255.0f);
    }
    while (qlo > 0 && origin + (float)qlo * step > lo) qlo--;
    while (qhi < 255 && origin + (float)qhi * step < hi) qhi++;
    TR_ASSERT(origin + (float)qlo * step <= lo && origin + (float)qhi * step >= hi);
    *out_lo = (uint8_t)qlo;
    *out_hi = (uint8_t)qhi;
}

// Lay the binary tree out as 4-wide nodes in breadth-first order: when a node is laid out, its internal children
// take the next node indices and its leaf children's triangles the next slots, so a node's `first` never decreases
// with its index (tr_mesh_slot searches it). `nodes` and `queue` have room for every binary node; order[slot] is
// the caller's triangle. Returns the node count; *leaf_count counts the leaves.
static int lay_out_nodes(const binary_view *view, tr_mesh_node *nodes, int32_t *queue, int32_t *order, int *leaf_count) {
    const tr_bvh *bvh = view->bvh;
    int head = 0, tail = 1, slot = 0, leaves = 0;
    queue[0] = 0;
    while (head < tail) {
        tr_mesh_node *n = &nodes[head];
        int32_t bin = queue[head++];
        memset(n, 0, sizeof *n);
        const tread_aabb box = bvh->nodes[bin].box;
        const float lo[3] = {box.min.x, box.min.y, box.min.z}, hi[3] = {box.max.x, box.max.y, box.max.z};
        for (int a = 0; a < 3; a++) n->origin[a] = lo[a], n->step[a] = grid_step(lo[a], hi[a]);
        n->child = (uint32_t)tail;
        n->first = (uint32_t)slot;
        int32_t kids[TR_MESH_WIDTH];
        int k = gather_children(view, bin, kids);
        for (int i = 0; i < k; i++) {
            const tread_aabb cbox = bvh->nodes[kids[i]].box;
            const float clo[3] = {cbox.min.x, cbox.min.y, cbox.min.z}, chi[3] = {cbox.max.x, cbox.max.y, cbox.max.z};
            for (int a = 0; a < 3; a++) quantize(n->origin[a], n->step[a], clo[a], chi[a], &n->qmin[a][i], &n->qmax[a][i]);
            uint32_t kind = TR_MESH_KIND_NODE;
            if (view_leaf(view, kids[i])) {
                int32_t count = view->size[kids[i]];
                TR_ASSERT(count >= 1 && count <= TR_MESH_MAX_LEAF);
                kind = (uint32_t)count;
                memcpy(order + slot, bvh->items + view->start[kids[i]], (size_t)count * sizeof(int32_t));
                slot += count;
                leaves++;
            } else {
                queue[tail++] = kids[i];
            }
            n->kinds |= kind << (TR_MESH_KIND_BITS * (uint32_t)i);
        }
    }
    TR_ASSERT(tail <= bvh->node_count && slot == bvh->item_count);
    *leaf_count = leaves;
    return tail;
}

// Build the binned-SAH BVH over the triangle boxes, then store the mesh in its query layout: 4-wide nodes
// (64-byte aligned), the triangles in slot order over the compact vertex copy, and the caller indices.
bool tr_mesh_build_tree(tr_mesh *mesh, const tr_mesh_source *src, const tread_aabb *boxes) {
    int tcount = src->triangle_count;
    tr_bvh bvh;
    if (!tr_bvh_build(&bvh, boxes, tcount, MESH_BUILD_LEAF)) return false;
    int32_t *same = (int32_t *)tr_alloc((size_t)src->vertex_count * sizeof(int32_t));
    size_t nodes = (size_t)bvh.node_count;
    binary_view view = {&bvh, src, same, (int32_t *)tr_alloc(nodes * sizeof(int32_t)), (int32_t *)tr_alloc(nodes * sizeof(int32_t)),
                        (bool *)tr_alloc(nodes), tr_alloc(nodes * sizeof(cut[TR_MESH_WIDTH])), (cut *)tr_alloc(nodes * sizeof(cut)), 0.0};
    // queue: the breadth-first layout's; visit: the nodes in the order their vertex windows fill.
    int32_t *queue = (int32_t *)tr_alloc((size_t)bvh.node_count * sizeof(int32_t));
    int32_t *visit = (int32_t *)tr_alloc((size_t)bvh.node_count * sizeof(int32_t));
    strip_key *keys = (strip_key *)tr_alloc((size_t)bvh.node_count * sizeof(strip_key));
    int32_t *order = (int32_t *)tr_alloc((size_t)tcount * sizeof(int32_t));
    int32_t *placed = (int32_t *)tr_alloc((size_t)src->vertex_count * sizeof(int32_t));
    int32_t *placed_from = (int32_t *)tr_alloc((size_t)tcount * 3 * sizeof(int32_t));
    void *wide_memory = tr_alloc((size_t)bvh.node_count * sizeof(tr_mesh_node) + 63);
    tr_mesh_node *wide_nodes = (tr_mesh_node *)(((uintptr_t)wide_memory + 63) & ~(uintptr_t)63);
    mesh->corners = (tr_mesh_corners *)tr_alloc((size_t)tcount * sizeof(tr_mesh_corners));
    mesh->id_low = (uint16_t *)tr_alloc((size_t)tcount * sizeof(uint16_t));
    bool ok = same && view.size && view.start && view.fits && view.best && view.inner && queue && visit && keys && order &&
              placed && placed_from && wide_memory && mesh->corners && mesh->id_low;
    if (ok) ok = same_vertices(src, same);
    if (ok) {
        view.node_price = MESH_NODE_PRICE * (double)tread_aabb_half_area(bvh.nodes[0].box) / tcount;
        view_plan(&view);
        mesh->node_count = lay_out_nodes(&view, wide_nodes, queue, order, &mesh->leaf_count);
        for (int s = 0; s < tcount; s++) mesh->corners[s].flags = src->flags[order[s]];
        int distinct = 0;
        for (int v = 0; v < src->vertex_count; v++) distinct += same[v] == v;
        strip_order(wide_nodes, mesh->node_count, mesh->bounds, distinct, visit, keys);
        mesh->vertex_count = place_vertices(src, same, order, wide_nodes, mesh->node_count, visit, mesh->corners, placed, placed_from);
        // The exact sizes, now that they are known (the working arrays above were sized for the worst case).
        mesh->id_base = (uint32_t *)tr_alloc((size_t)mesh->node_count * sizeof(uint32_t));
        mesh->vertices = (tread_vec3 *)tr_alloc(((size_t)mesh->vertex_count + 1) * sizeof(tread_vec3)); // + the spare
        mesh->node_memory = tr_alloc((size_t)mesh->node_count * sizeof(tr_mesh_node) + 63);
        ok = mesh->id_base && mesh->vertices && mesh->node_memory;
        if (ok) mesh->wide_id_count = place_ids(mesh, wide_nodes, order, NULL);
        if (ok && mesh->wide_id_count > 0) {
            mesh->wide_ids = (uint32_t *)tr_alloc((size_t)mesh->wide_id_count * sizeof(uint32_t));
            ok = mesh->wide_ids != NULL;
        }
        if (ok) {
            for (int i = 0; i < mesh->vertex_count; i++) mesh->vertices[i] = src->vertices[placed_from[i]];
            mesh->vertices[mesh->vertex_count] = tread_v3_zero();
            place_ids(mesh, wide_nodes, order, mesh->wide_ids);
            mesh->nodes = (tr_mesh_node *)(((uintptr_t)mesh->node_memory + 63) & ~(uintptr_t)63);
            memcpy(mesh->nodes, wide_nodes, (size_t)mesh->node_count * sizeof(tr_mesh_node));
        }
    }
    tr_free(view.size);
    tr_free(view.start);
    tr_free(view.fits);
    tr_free(view.best);
    tr_free(view.inner);
    tr_free(queue);
    tr_free(visit);
    tr_free(keys);
    tr_free(order);
    tr_free(placed);
    tr_free(same);
    tr_free(placed_from);
    tr_free(wide_memory);
    tr_bvh_destroy(&bvh);
    return ok;
}

