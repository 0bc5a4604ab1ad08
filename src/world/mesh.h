// SPDX-License-Identifier: MIT
// Triangle mesh shape: a copy of the caller's vertices and indices, a binned-SAH BVH over the triangles,
// and per-edge activity flags (boundary or convex edges are active; flat and concave shared edges are not).
#ifndef TREAD_MESH_H
#define TREAD_MESH_H

#include "bvh.h"
#include "shape.h"

// A triangle's corners and flags, stored in BVH leaf order so a leaf's triangles are read contiguously.
typedef struct tr_mesh_triangle {
    tread_vec3 v[3];
    uint32_t flags; // active_edges[] of the triangle (bits 0-2 active edges, bit 7 degenerate)
} tr_mesh_triangle;

// The triangle BVH in its query layout: the binary binned-SAH tree collapsed to four children a node, the
// children's boxes stored axis by axis (one traversal step tests four boxes from two adjacent cache lines,
// and the tree has half the levels a query must fetch one after the other).
#define TR_MESH_WIDTH 4
typedef struct tr_mesh_node {
    _Alignas(16) float min[3][TR_MESH_WIDTH]; // child k's box: min[axis][k] .. max[axis][k]
    float max[3][TR_MESH_WIDTH];
    int32_t first[TR_MESH_WIDTH]; // leaf child: first slot in leaf_triangles[]; internal child: its node index
    int32_t count[TR_MESH_WIDTH]; // leaf child: triangles (> 0); internal child: 0; no child: -1
} tr_mesh_node;

typedef struct tr_mesh {
    tread_vec3 *vertices;  // vertex_count positions, local space
    uint32_t *indices;     // 3 * triangle_count, in the caller's triangle order
    uint8_t *active_edges; // per triangle: bit i = edge i is active
    tr_mesh_node *nodes;   // the binned-SAH triangle BVH (built with tr_bvh_build), relaid for queries;
    int node_count;        // nodes[0] is the root when node_count > 0
    void *node_memory;     // allocation holding nodes (aligned to 64 bytes inside it)
    tr_mesh_triangle *leaf_triangles; // per leaf slot: corners and flags, in leaf order
    uint32_t *leaf_ids;    // per leaf slot: the caller's triangle index
    tread_aabb bounds;     // local bounds of all vertices used by triangles
    int vertex_count;
    int triangle_count;
} tr_mesh;

// Validate a definition: non-NULL arrays, counts > 0, indices in range, finite coordinates within
// TR_MAX_COORDINATE. Returns TREAD_OK or an error recorded with tr_error naming the field and the value.
tread_result tr_mesh_validate(const tread_mesh_def *def);
// Build from a validated definition. TREAD_ERR_OUT_OF_MEMORY on allocation failure (mesh left empty).
tread_result tr_mesh_create(tr_mesh *mesh, const tread_mesh_def *def);
void tr_mesh_destroy(tr_mesh *mesh);

// Every triangle hit by the cast with t <= the current t_max (which the callback updates). feature = the
// caller's triangle index. Front-to-back BVH order for rays, so closest-hit queries prune early.
void tr_mesh_cast(const tr_mesh *mesh, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx);
// Every triangle within margin of the query (capsule or box; d unused).
void tr_mesh_query_contacts(const tr_mesh *mesh, const tr_cast *q, float margin, tr_contact_fn *fn, void *ctx);

#endif
