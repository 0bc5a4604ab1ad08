// Triangle mesh shape: a copy of the caller's vertices and indices, a binned-SAH BVH over the triangles,
// and per-edge activity flags (boundary or convex edges are active; flat and concave shared edges are not).
#ifndef TREAD_MESH_H
#define TREAD_MESH_H

#include "bvh.h"
#include "shape.h"

typedef struct tr_mesh {
    tread_vec3 *vertices;  // vertex_count positions, local space
    uint32_t *indices;     // 3 * triangle_count, in the caller's triangle order
    uint8_t *active_edges; // per triangle: bit i = edge i is active
    tr_bvh bvh;            // items are triangle indices
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
// Every triangle within margin of the capsule p0-p1, r.
void tr_mesh_contacts(const tr_mesh *mesh, tread_vec3 p0, tread_vec3 p1, float r, float margin, tr_contact_fn *fn,
                      void *ctx);

#endif
