// SPDX-License-Identifier: MIT
// Triangle mesh shape: a copy of the caller's vertices and indices, a binned-SAH BVH over the triangles,
// and per-edge activity flags (boundary or convex edges are active; flat and concave shared edges are not).
#ifndef TREAD_MESH_H
#define TREAD_MESH_H

#include "bvh.h"
#include "shape.h"

// A mesh is stored compactly and exactly (bounds are the only derived floats). Its used vertices are copied once
// (vertices with the same bits are one), in the order the nodes' windows fill. The triangles sit in slots, leaf by
// leaf; the leaves hang directly from their 4-wide node (there are no leaf records): a node's leaf children's
// triangles are consecutive slots from the node's `first`, and name their corners by three byte offsets from the
// node's vertex_base (a vertex a node shares with one placed more than 255 entries back is copied again, so every
// node's corners lie in one window of 256). A triangle's caller index is 16 bits above its node's id_base (nodes
// whose triangles' caller indices span more than 65535 keep them whole in wide_ids).
typedef struct tr_mesh_corners {
    uint8_t corner[3]; // vertices[node.vertex_base + corner[k]]
    uint8_t flags;     // bits 0-2: active edges; bit 6: one-sided; bit 7: degenerate (never hit)
} tr_mesh_corners;

// The triangle BVH in its query layout: the binary binned-SAH tree collapsed to four children a node, one 64-byte
// cache line a node. A node keeps its own box as an origin and a step per axis, and its children's boxes as bytes
// on that grid (origin + q * step), rounded outward: min down and max up, checked against the exact float
// decoding, so a decoded child box always holds the child's true box (queries only prune with them, so results
// do not change; the tree is a quarter of the float boxes' size). A child is an internal node or a leaf of up to
// TR_MESH_MAX_LEAF triangles: its kind is a byte of `kinds`; internal children are consecutive nodes from `child`
// and leaf children consecutive runs of slots from `first`, both in child order (no per-child reference).
#define TR_MESH_WIDTH 4
#define TR_MESH_KIND_BITS 8u
#define TR_MESH_KIND_NONE 0u   // no child k (children are packed: none follow)
#define TR_MESH_KIND_NODE 255u // child k is an internal node; 1 .. TR_MESH_MAX_LEAF: a leaf of that many triangles
#define TR_MESH_MAX_LEAF 254    // what a kind can say (the builder makes smaller leaves: mesh_tree.c)
#define TR_MESH_MAX_TRIANGLES (1 << 28) // slots, nodes and caller indices below 2^28 (id_base keeps a flag above)
#define TR_MESH_WIDE_IDS 0x80000000u    // tr_mesh::id_base[n]: node n's caller indices are in wide_ids
typedef struct tr_mesh_node {
    _Alignas(64) float origin[3]; // the node's box: origin .. origin + 255 step (covers it)
    float step[3];
    uint8_t qmin[3][TR_MESH_WIDTH]; // child k's box: origin[a] + qmin[a][k] * step[a] .. origin[a] + qmax[a][k] * step[a]
    uint8_t qmax[3][TR_MESH_WIDTH];
    uint32_t child;       // the internal children are nodes[child], nodes[child + 1], ... in child order
    uint32_t first;       // the leaf children's triangles are slots first, first + 1, ... in child order
    uint32_t vertex_base; // the leaf triangles' corners are vertices[vertex_base + 0 .. 255]
    uint32_t kinds;       // child k's kind in bits TR_MESH_KIND_BITS * k and up
} tr_mesh_node;

// Child k's kind (TR_MESH_KIND_NONE, TR_MESH_KIND_NODE, or a leaf's triangle count).
static inline uint32_t tr_mesh_kind(const tr_mesh_node *node, int k) {
    return (node->kinds >> (TR_MESH_KIND_BITS * (uint32_t)k)) & ((1u << TR_MESH_KIND_BITS) - 1u);
}

typedef struct tr_mesh {
    tr_mesh_node *nodes;      // node_count nodes; nodes[0] is the root when node_count > 0
    void *node_memory;        // allocation holding nodes (aligned to 64 bytes inside it)
    uint32_t *id_base;        // per node: caller index of slot s = id_base + id_low[s]; with TR_MESH_WIDE_IDS: the
                              // rest of it is where the node's slots start in wide_ids
    tread_vec3 *vertices;     // vertex_count positions, local space, exactly as given (and a spare zero vertex after
                              // them: the queries read a corner as four floats)
    tr_mesh_corners *corners; // per slot (triangles in leaf order)
    uint16_t *id_low;         // per slot: the caller's triangle index above its node's id_base
    uint32_t *wide_ids;       // caller indices of the wide nodes' slots (NULL when there are none)
    tread_aabb bounds;        // local bounds of all vertices used by triangles
    float far;                // the largest coordinate magnitude in bounds
    int node_count;
    int leaf_count;           // leaves (for tests and tools: they have no records)
    int vertex_count;
    int triangle_count;
    int wide_id_count;
} tr_mesh;

// Validate a definition: non-NULL arrays, counts > 0, indices in range, finite coordinates within
// TR_MAX_COORDINATE. Returns TREAD_OK or an error recorded with tr_error naming the field and the value.
tread_result tr_mesh_validate(const tread_mesh_def *def);
// Build from a validated definition. TREAD_ERR_OUT_OF_MEMORY on allocation failure (mesh left empty).
tread_result tr_mesh_create(tr_mesh *mesh, const tread_mesh_def *def);
void tr_mesh_destroy(tr_mesh *mesh);

// The triangle in slot `slot` (0 .. triangle_count - 1, leaf order): its corners (in the caller's corner order)
// and flags (bits 0-2: active edges, bit 6: one-sided, bit 7: degenerate); returns its caller index. For tests and
// tools: a binary search over the nodes' first slots.
uint32_t tr_mesh_slot(const tr_mesh *mesh, int slot, tread_vec3 corners[3], uint8_t *flags);

// The entry fractions [tmin, tmax] of the mid-point path o + t / inv into node's four decoded child boxes grown by
// `grow`, clipped to [0, t_max] (a child is reached when tmin <= tmax). simd: the SSE lanes where the build has SSE2
// (the casts use them), else the scalar loop; both give the same bits (tests/test_mesh.c).
void tr_mesh_node_entry(const tr_mesh_node *node, const float o[3], const float grow[3], const float inv[3], float t_max, bool simd,
                        float tmin[TR_MESH_WIDTH], float tmax[TR_MESH_WIDTH]);

// Every triangle hit by the cast with t <= the current t_max (which the callback updates). feature = the
// caller's triangle index. Front-to-back BVH order, so closest-hit queries prune early.
void tr_mesh_cast(const tr_mesh *mesh, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx);
// Every triangle within margin of the query (capsule or box; d unused).
void tr_mesh_query_contacts(const tr_mesh *mesh, const tr_cast *q, float margin, tr_contact_fn *fn, void *ctx);

// ---- building (mesh.c hands the caller's arrays to mesh_tree.c) ----

// The caller's arrays while a mesh is built (the mesh keeps its own compact copy) and each triangle's flags.
typedef struct tr_mesh_source {
    const tread_vec3 *vertices;
    const uint32_t *indices;
    uint8_t *flags; // per caller triangle: active edges, one-sided, degenerate (tr_mesh_corners::flags)
    int vertex_count;
    int triangle_count;
} tr_mesh_source;

// Build the triangle tree over the triangles' boxes and store the mesh in its query layout: the nodes, the slots'
// corners, flags and caller indices, the vertex copy. False when out of memory (what was allocated stays in `mesh`
// for tr_mesh_destroy).
bool tr_mesh_build_tree(tr_mesh *mesh, const tr_mesh_source *src, const tread_aabb *boxes);

#endif
