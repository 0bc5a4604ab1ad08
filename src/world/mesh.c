// Triangle mesh shape: validation, the copy, the triangle BVH, active-edge flags, and BVH-driven queries.
#include "mesh.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MESH_LEAF_TRIANGLES 4 // a leaf's triangles are tested together; 4 balances node visits and tests
// active_edges bit 7: the triangle is degenerate (twice-area below TR_DEGENERATE_AREA) and never hit.
// Bits 0-2 keep the documented meaning; queries pass only those to the per-triangle functions.
#define MESH_DEGENERATE 0x80u
#define MESH_EDGE_BITS 0x07u

// ---- validation ------------------------------------------------------------------------------------

tread_result tr_mesh_validate(const tread_mesh_def *def) {
    if (!def) return tr_error(TREAD_ERR_NULL_ARGUMENT, "mesh definition is NULL");
    if (def->vertex_count <= 0)
        return tr_error(TREAD_ERR_INVALID_MESH, "mesh.vertex_count = %d must be > 0", def->vertex_count);
    if (def->triangle_count <= 0)
        return tr_error(TREAD_ERR_INVALID_MESH, "mesh.triangle_count = %d must be > 0", def->triangle_count);
    if (def->triangle_count > INT_MAX / 3)
        return tr_error(TREAD_ERR_INVALID_MESH, "mesh.triangle_count = %d is too large (at most %d)", def->triangle_count,
                        INT_MAX / 3);
    if (!def->vertices) return tr_error(TREAD_ERR_NULL_ARGUMENT, "mesh.vertices is NULL (vertex_count %d)", def->vertex_count);
    if (!def->indices)
        return tr_error(TREAD_ERR_NULL_ARGUMENT, "mesh.indices is NULL (triangle_count %d)", def->triangle_count);
    for (int i = 0; i < def->vertex_count; i++) {
        tread_vec3 v = def->vertices[i];
        if (!tread_v3_is_finite(v))
            return tr_error(TREAD_ERR_NOT_FINITE, "mesh.vertices[%d] = (%g, %g, %g) is not finite", i, (double)v.x,
                            (double)v.y, (double)v.z);
        if (fabsf(v.x) > TR_MAX_COORDINATE || fabsf(v.y) > TR_MAX_COORDINATE || fabsf(v.z) > TR_MAX_COORDINATE)
            return tr_error(TREAD_ERR_INVALID_MESH, "mesh.vertices[%d] = (%g, %g, %g) exceeds %g m", i, (double)v.x,
                            (double)v.y, (double)v.z, (double)TR_MAX_COORDINATE);
    }
    int index_count = 3 * def->triangle_count;
    for (int i = 0; i < index_count; i++) {
        if (def->indices[i] >= (uint32_t)def->vertex_count)
            return tr_error(TREAD_ERR_INVALID_MESH, "mesh.indices[%d] = %u is out of range (vertex_count %d)", i,
                            def->indices[i], def->vertex_count);
    }
    return TREAD_OK;
}

// ---- active edges ----------------------------------------------------------------------------------

// Vertices at the same position are one vertex for adjacency, so triangle soups get shared edges too.
typedef struct weld_record {
    float x, y, z;
    int32_t index;
} weld_record;

static int compare_positions(const void *pa, const void *pb) {
    const weld_record *u = (const weld_record *)pa, *v = (const weld_record *)pb;
    if (u->x != v->x) return u->x < v->x ? -1 : 1;
    if (u->y != v->y) return u->y < v->y ? -1 : 1;
    if (u->z != v->z) return u->z < v->z ? -1 : 1;
    return (u->index > v->index) - (u->index < v->index);
}

// An edge occurrence: canonical endpoints (lo < hi) and which triangle edge it is (3 * triangle + edge).
typedef struct edge_record {
    int32_t lo, hi, code, pad;
} edge_record;

static int compare_edges(const void *pa, const void *pb) {
    const edge_record *a = (const edge_record *)pa, *b = (const edge_record *)pb;
    if (a->hi != b->hi) return (a->hi > b->hi) - (a->hi < b->hi);
    return (a->code > b->code) - (a->code < b->code);
}

static tread_vec3 mesh_corner(const tr_mesh *mesh, int32_t tri, int corner) {
    return mesh->vertices[mesh->indices[3 * tri + corner]];
}

// Classify a manifold edge shared by exactly two triangles: inactive when flat (within TR_INACTIVE_EDGE_COS) or
// concave seen from the first triangle's front, active when convex. A concave seam is never the first thing a
// shape touches from the front (a face beside it is always as close), so its edge normal would only be a ghost.
static bool shared_edge_active(const tr_mesh *mesh, const int32_t *canon, int32_t code1, int32_t code2) {
    int32_t t1 = code1 / 3, t2 = code2 / 3;
    int e1 = code1 % 3, e2 = code2 % 3;
    tread_vec3 n1 = tr_triangle_normal(mesh_corner(mesh, t1, 0), mesh_corner(mesh, t1, 1), mesh_corner(mesh, t1, 2));
    tread_vec3 n2 = tr_triangle_normal(mesh_corner(mesh, t2, 0), mesh_corner(mesh, t2, 1), mesh_corner(mesh, t2, 2));
    // Consistent winding runs the shared edge in opposite directions; otherwise compare against t2's back.
    int32_t start1 = canon[mesh->indices[3 * t1 + e1]], start2 = canon[mesh->indices[3 * t2 + e2]];
    if (start1 == start2) n2 = tread_v3_neg(n2);
    if (tread_v3_dot(n1, n2) >= TR_INACTIVE_EDGE_COS) return false;
    tread_vec3 edge_point = mesh_corner(mesh, t1, e1);
    tread_vec3 apex2 = mesh_corner(mesh, t2, (e2 + 2) % 3);
    return tread_v3_dot(n1, tread_v3_sub(apex2, edge_point)) < 0.0f;
}

// Fills mesh->active_edges (all bits for boundary and non-manifold edges). False when out of memory.
static bool compute_active_edges(tr_mesh *mesh) {
    int vcount = mesh->vertex_count, tcount = mesh->triangle_count;
    weld_record *order = (weld_record *)tr_alloc((size_t)vcount * sizeof(weld_record));
    int32_t *canon = (int32_t *)tr_alloc((size_t)vcount * sizeof(int32_t));
    int32_t *bucket = (int32_t *)tr_alloc(((size_t)vcount + 1) * sizeof(int32_t));
    edge_record *edges = (edge_record *)tr_alloc((size_t)tcount * 3 * sizeof(edge_record));
    edge_record *sorted = (edge_record *)tr_alloc((size_t)tcount * 3 * sizeof(edge_record));
    bool ok = order && canon && bucket && edges && sorted;
    if (ok) {
        // 1. Weld: canonical vertex = the lowest index at the same position.
        for (int i = 0; i < vcount; i++) {
            weld_record w = {mesh->vertices[i].x, mesh->vertices[i].y, mesh->vertices[i].z, i};
            order[i] = w;
        }
        qsort(order, (size_t)vcount, sizeof(weld_record), compare_positions);
        for (int i = 0; i < vcount; i++) {
            bool same = i > 0 && order[i].x == order[i - 1].x && order[i].y == order[i - 1].y && order[i].z == order[i - 1].z;
            canon[order[i].index] = same ? canon[order[i - 1].index] : order[i].index;
        }
        // 2. Edge occurrences of non-degenerate triangles (degenerate ones are nobody's neighbour).
        int edge_count = 0;
        for (int t = 0; t < tcount; t++) {
            if (mesh->active_edges[t] & MESH_DEGENERATE) continue;
            for (int e = 0; e < 3; e++) {
                int32_t a = canon[mesh->indices[3 * t + e]], b = canon[mesh->indices[3 * t + (e + 1) % 3]];
                edge_record r = {a < b ? a : b, a < b ? b : a, 3 * t + e, 0};
                edges[edge_count++] = r;
            }
        }
        // 3. Deterministic grouping: counting sort by lo, then sort each bucket by (hi, code).
        memset(bucket, 0, ((size_t)vcount + 1) * sizeof(int32_t));
        for (int i = 0; i < edge_count; i++) bucket[edges[i].lo + 1]++;
        for (int v = 0; v < vcount; v++) bucket[v + 1] += bucket[v];
        for (int i = 0; i < edge_count; i++) sorted[bucket[edges[i].lo]++] = edges[i];
        // bucket[v] is now the end of v's run (= the start of v + 1's).
        for (int v = 0, start = 0; v < vcount; v++) {
            int end = bucket[v];
            if (end - start > 1) qsort(sorted + start, (size_t)(end - start), sizeof(edge_record), compare_edges);
            start = end;
        }
        // 4. Classify each group of equal edges.
        for (int i = 0; i < edge_count;) {
            int j = i + 1;
            while (j < edge_count && sorted[j].lo == sorted[i].lo && sorted[j].hi == sorted[i].hi) j++;
            bool active = true; // boundary (one triangle) or non-manifold (more than two)
            if (j - i == 2 && sorted[i].code / 3 != sorted[i + 1].code / 3)
                active = shared_edge_active(mesh, canon, sorted[i].code, sorted[i + 1].code);
            for (int k = i; k < j; k++) {
                int32_t code = sorted[k].code;
                if (active) mesh->active_edges[code / 3] = (uint8_t)(mesh->active_edges[code / 3] | (1u << (code % 3)));
            }
            i = j;
        }
    }
    tr_free(order);
    tr_free(canon);
    tr_free(bucket);
    tr_free(edges);
    tr_free(sorted);
    return ok;
}

// ---- creation --------------------------------------------------------------------------------------

tread_result tr_mesh_create(tr_mesh *mesh, const tread_mesh_def *def) {
    memset(mesh, 0, sizeof *mesh);
    int vcount = def->vertex_count, tcount = def->triangle_count;
    mesh->vertices = (tread_vec3 *)tr_alloc((size_t)vcount * sizeof(tread_vec3));
    mesh->indices = (uint32_t *)tr_alloc((size_t)tcount * 3 * sizeof(uint32_t));
    mesh->active_edges = (uint8_t *)tr_alloc((size_t)tcount);
    tread_aabb *boxes = (tread_aabb *)tr_alloc((size_t)tcount * sizeof(tread_aabb));
    if (!mesh->vertices || !mesh->indices || !mesh->active_edges || !boxes) goto out_of_memory;
    memcpy(mesh->vertices, def->vertices, (size_t)vcount * sizeof(tread_vec3));
    memcpy(mesh->indices, def->indices, (size_t)tcount * 3 * sizeof(uint32_t));
    mesh->vertex_count = vcount;
    mesh->triangle_count = tcount;

    for (int t = 0; t < tcount; t++) {
        tread_vec3 a = mesh_corner(mesh, t, 0), b = mesh_corner(mesh, t, 1), c = mesh_corner(mesh, t, 2);
        boxes[t] = tread_aabb_union(tread_aabb_make(a, b), tread_aabb_make(c, c));
        tread_vec3 twice_area = tread_v3_cross(tread_v3_sub(b, a), tread_v3_sub(c, a));
        bool degenerate = !(tread_v3_length(twice_area) >= TR_DEGENERATE_AREA);
        mesh->active_edges[t] = degenerate ? (uint8_t)MESH_DEGENERATE : 0u;
        mesh->bounds = t == 0 ? boxes[0] : tread_aabb_union(mesh->bounds, boxes[t]);
    }
    if (!tr_bvh_build(&mesh->bvh, boxes, tcount, MESH_LEAF_TRIANGLES)) goto out_of_memory;
    if (!compute_active_edges(mesh)) goto out_of_memory;
    tr_free(boxes);
    return TREAD_OK;

out_of_memory:
    tr_free(boxes);
    tr_mesh_destroy(mesh);
    return tr_error(TREAD_ERR_OUT_OF_MEMORY, "mesh: out of memory for %d vertices and %d triangles", vcount, tcount);
}

void tr_mesh_destroy(tr_mesh *mesh) {
    tr_free(mesh->vertices);
    tr_free(mesh->indices);
    tr_free(mesh->active_edges);
    tr_bvh_destroy(&mesh->bvh);
    memset(mesh, 0, sizeof *mesh);
}

// ---- queries ---------------------------------------------------------------------------------------

typedef struct stack_entry {
    int32_t node;
    float t; // entry fraction of the node's (inflated) box
} stack_entry;

void tr_mesh_cast(const tr_mesh *mesh, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    const tr_bvh *bvh = &mesh->bvh;
    if (bvh->node_count == 0) return;
    // Nodes are tested with the path of one point: the segment's mid-point, the box grown by the capsule's
    // own half extents (zero for a ray). That bounds the swept capsule conservatively.
    tread_vec3 o = c->p0, inflate = tread_v3_zero();
    if (!c->is_ray) {
        o = tread_v3_scale(tread_v3_add(c->p0, c->p1), 0.5f);
        tread_vec3 half = tread_v3_scale(tread_v3_abs(tread_v3_sub(c->p1, c->p0)), 0.5f);
        inflate = tread_v3_add(half, tread_v3(c->r, c->r, c->r));
    }
    tread_vec3 inv_d = tr_inverse_direction(c->d);
    stack_entry stack[TR_BVH_STACK_SIZE];
    int top = 0;
    float t_root = tr_ray_aabb_entry(o, inv_d, bvh->nodes[0].box, inflate, t_max);
    if (t_root > t_max) return;
    stack[top++] = (stack_entry){0, t_root};
    while (top > 0) {
        stack_entry entry = stack[--top];
        if (entry.t > t_max) continue; // a closer hit since it was pushed
        const tr_bvh_node *node = &bvh->nodes[entry.node];
        if (node->count > 0) {
            for (int32_t s = node->first; s < node->first + node->count; s++) {
                int32_t tri = bvh->items[s];
                uint8_t flags = mesh->active_edges[tri];
                if (flags & MESH_DEGENERATE) continue;
                tr_feature_hit hit;
                if (!tr_cast_triangle(c, mesh_corner(mesh, tri, 0), mesh_corner(mesh, tri, 1), mesh_corner(mesh, tri, 2),
                                      (uint8_t)(flags & MESH_EDGE_BITS), t_max, &hit))
                    continue;
                hit.feature = (uint32_t)tri;
                t_max = fn(ctx, &hit);
            }
            continue;
        }
        // Front to back: push the farther child first so the nearer one is visited next.
        int32_t l = node->first;
        float tl = tr_ray_aabb_entry(o, inv_d, bvh->nodes[l].box, inflate, t_max);
        float tr = tr_ray_aabb_entry(o, inv_d, bvh->nodes[l + 1].box, inflate, t_max);
        TR_ASSERT(top + 2 <= TR_BVH_STACK_SIZE);
        if (tl <= tr) {
            if (tr <= t_max) stack[top++] = (stack_entry){l + 1, tr};
            if (tl <= t_max) stack[top++] = (stack_entry){l, tl};
        } else {
            if (tl <= t_max) stack[top++] = (stack_entry){l, tl};
            if (tr <= t_max) stack[top++] = (stack_entry){l + 1, tr};
        }
    }
}

void tr_mesh_contacts(const tr_mesh *mesh, tread_vec3 p0, tread_vec3 p1, float r, float margin, tr_contact_fn *fn,
                      void *ctx) {
    const tr_bvh *bvh = &mesh->bvh;
    if (bvh->node_count == 0) return;
    tread_aabb query = tread_aabb_expand(tread_aabb_make(p0, p1), r + tr_maxf(margin, 0.0f));
    int32_t stack[TR_BVH_STACK_SIZE];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const tr_bvh_node *node = &bvh->nodes[stack[--top]];
        if (!tread_aabb_overlaps(node->box, query)) continue;
        if (node->count > 0) {
            for (int32_t s = node->first; s < node->first + node->count; s++) {
                int32_t tri = bvh->items[s];
                uint8_t flags = mesh->active_edges[tri];
                if (flags & MESH_DEGENERATE) continue;
                tr_feature_contact contact;
                if (!tr_contact_triangle(p0, p1, r, mesh_corner(mesh, tri, 0), mesh_corner(mesh, tri, 1),
                                         mesh_corner(mesh, tri, 2), (uint8_t)(flags & MESH_EDGE_BITS), margin, &contact))
                    continue;
                contact.feature = (uint32_t)tri;
                fn(ctx, &contact);
            }
            continue;
        }
        TR_ASSERT(top + 2 <= TR_BVH_STACK_SIZE);
        stack[top++] = node->first + 1;
        stack[top++] = node->first;
    }
}
