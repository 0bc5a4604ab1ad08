// SPDX-License-Identifier: MIT
// Triangle mesh shape: validation, active-edge flags, creation, and the BVH-driven queries (the tree and the compact
// storage they read are built in mesh_tree.c).
#include "mesh.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define MESH_SSE 1
#else
#define MESH_SSE 0
#endif

// Flags bit 7: the triangle is degenerate (twice-area below TR_DEGENERATE_AREA) and never hit.
// Bits 0-2 keep the documented meaning; queries pass only those to the per-triangle functions.
#define MESH_DEGENERATE 0x80u
#define MESH_EDGE_BITS 0x07u
// Flags bit 6: the triangle is one-sided (tread_mesh_def::one_sided): a query whose core lies behind its plane
// does not see it.
#define MESH_ONE_SIDED 0x40u

// ---- validation ------------------------------------------------------------------------------------

tread_result tr_mesh_validate(const tread_mesh_def *def) {
    if (!def) return tr_error(TREAD_ERR_NULL_ARGUMENT, "mesh definition is NULL");
    if (def->vertex_count <= 0)
        return tr_error(TREAD_ERR_INVALID_MESH, "mesh.vertex_count = %d must be > 0", def->vertex_count);
    if (def->triangle_count <= 0)
        return tr_error(TREAD_ERR_INVALID_MESH, "mesh.triangle_count = %d must be > 0", def->triangle_count);
    if (def->triangle_count > TR_MESH_MAX_TRIANGLES)
        return tr_error(TREAD_ERR_INVALID_MESH, "mesh.triangle_count = %d is too large (at most %d)", def->triangle_count,
                        TR_MESH_MAX_TRIANGLES);
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

static tread_vec3 mesh_corner(const tr_mesh_source *mesh, int32_t tri, int corner) {
    return mesh->vertices[mesh->indices[3 * tri + corner]];
}

// Classify a manifold edge shared by exactly two triangles: inactive only when the two faces are flat
// (within TR_INACTIVE_EDGE_COS), active otherwise. Triangles are two-sided, so an edge that is concave seen
// from one side is convex seen from the other (a riser wound to face into its step still has a stair nose):
// convexity cannot be judged from a winding, and only a flat seam is never a real edge.
static bool shared_edge_active(const tr_mesh_source *mesh, const int32_t *canon, int32_t code1, int32_t code2) {
    int32_t t1 = code1 / 3, t2 = code2 / 3;
    int e1 = code1 % 3, e2 = code2 % 3;
    tread_vec3 n1 = tr_triangle_normal(mesh_corner(mesh, t1, 0), mesh_corner(mesh, t1, 1), mesh_corner(mesh, t1, 2));
    tread_vec3 n2 = tr_triangle_normal(mesh_corner(mesh, t2, 0), mesh_corner(mesh, t2, 1), mesh_corner(mesh, t2, 2));
    // Consistent winding runs the shared edge in opposite directions; otherwise compare against t2's back.
    int32_t start1 = canon[mesh->indices[3 * t1 + e1]], start2 = canon[mesh->indices[3 * t2 + e2]];
    if (start1 == start2) n2 = tread_v3_neg(n2);
    return tread_v3_dot(n1, n2) < TR_INACTIVE_EDGE_COS;
}

// Sets mesh->flags' edge bits (all bits for boundary and non-manifold edges). False when out of memory.
static bool compute_active_edges(tr_mesh_source *mesh) {
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
            if (mesh->flags[t] & MESH_DEGENERATE) continue;
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
                if (active) mesh->flags[code / 3] = (uint8_t)(mesh->flags[code / 3] | (1u << (code % 3)));
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
    tr_mesh_source src = {def->vertices, def->indices, (uint8_t *)tr_alloc((size_t)tcount), vcount, tcount};
    tread_aabb *boxes = (tread_aabb *)tr_alloc((size_t)tcount * sizeof(tread_aabb));
    if (!src.flags || !boxes) goto out_of_memory;
    mesh->triangle_count = tcount;

    for (int t = 0; t < tcount; t++) {
        tread_vec3 a = mesh_corner(&src, t, 0), b = mesh_corner(&src, t, 1), c = mesh_corner(&src, t, 2);
        boxes[t] = tread_aabb_union(tread_aabb_make(a, b), tread_aabb_make(c, c));
        tread_vec3 twice_area = tread_v3_cross(tread_v3_sub(b, a), tread_v3_sub(c, a));
        bool degenerate = !(tread_v3_length(twice_area) >= TR_DEGENERATE_AREA);
        src.flags[t] = (uint8_t)((degenerate ? MESH_DEGENERATE : 0u) | (def->one_sided && def->one_sided[t] ? MESH_ONE_SIDED : 0u));
        mesh->bounds = t == 0 ? boxes[0] : tread_aabb_union(mesh->bounds, boxes[t]);
    }
    tread_vec3 far = tread_v3_max(tread_v3_abs(mesh->bounds.min), tread_v3_abs(mesh->bounds.max));
    mesh->far = tr_maxf(far.x, tr_maxf(far.y, far.z));
    if (!compute_active_edges(&src)) goto out_of_memory;
    if (!tr_mesh_build_tree(mesh, &src, boxes)) goto out_of_memory;
    tr_free(boxes);
    tr_free(src.flags);
    return TREAD_OK;

out_of_memory:
    tr_free(boxes);
    tr_free(src.flags);
    tr_mesh_destroy(mesh);
    return tr_error(TREAD_ERR_OUT_OF_MEMORY, "mesh: out of memory for %d vertices and %d triangles", vcount, tcount);
}

void tr_mesh_destroy(tr_mesh *mesh) {
    tr_free(mesh->node_memory);
    tr_free(mesh->id_base);
    tr_free(mesh->vertices);
    tr_free(mesh->corners);
    tr_free(mesh->id_low);
    tr_free(mesh->wide_ids);
    memset(mesh, 0, sizeof *mesh);
}

// ---- queries ---------------------------------------------------------------------------------------

// Stack depth of a 4-wide traversal: each step pops one node and pushes at most four, over at most
// TR_BVH_STACK_SIZE / 2 levels (the binary builder caps depth at 48; each 4-wide level spans at least one).
#define MESH_STACK_SIZE (4 * TR_BVH_STACK_SIZE)

// The caller's index of the triangle in slot s, one of node n's.
static uint32_t caller_index(const tr_mesh *mesh, int32_t n, int32_t s) {
    uint32_t base = mesh->id_base[n];
    if (base & TR_MESH_WIDE_IDS) return mesh->wide_ids[(base & ~TR_MESH_WIDE_IDS) + (uint32_t)s - mesh->nodes[n].first];
    return base + mesh->id_low[s];
}

// Slot s over vertex window v: its corners and its active-edge bits; false for a degenerate triangle (never hit)
// and for a one-sided triangle whose plane has the query's core (`from`, the middle of its segment at the start)
// behind it. A closed mesh's faces are then met from outside only: a brush's bottom face is no floor to a
// character standing beside the brush, on its edge.
static inline bool leaf_triangle(const tr_mesh *mesh, const tread_vec3 *v, int32_t s, tread_vec3 from, tread_vec3 t[3],
                                 uint8_t *edges) {
    const tr_mesh_corners *tc = &mesh->corners[s];
    if (tc->flags & MESH_DEGENERATE) return false;
    for (int k = 0; k < 3; k++) t[k] = v[tc->corner[k]];
    if ((tc->flags & MESH_ONE_SIDED) &&
        tread_v3_dot(tread_v3_cross(tread_v3_sub(t[1], t[0]), tread_v3_sub(t[2], t[0])), tread_v3_sub(from, t[0])) < 0.0f)
        return false;
    *edges = (uint8_t)(tc->flags & MESH_EDGE_BITS);
    return true;
}

uint32_t tr_mesh_slot(const tr_mesh *mesh, int slot, tread_vec3 corners[3], uint8_t *flags) {
    TR_ASSERT(slot >= 0 && slot < mesh->triangle_count);
    int lo = 0, hi = mesh->node_count - 1; // the last node whose first slot is <= slot: the one holding it
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if ((int)mesh->nodes[mid].first <= slot) lo = mid;
        else hi = mid - 1;
    }
    const tr_mesh_corners *tc = &mesh->corners[slot];
    for (int k = 0; k < 3; k++) corners[k] = mesh->vertices[mesh->nodes[lo].vertex_base + tc->corner[k]];
    *flags = tc->flags;
    return caller_index(mesh, lo, slot);
}

#if MESH_SSE
// Four bytes as four floats (exactly: every byte is a float).
static inline __m128 bytes_to_ps(const uint8_t b[TR_MESH_WIDTH]) {
    int32_t packed;
    memcpy(&packed, b, sizeof packed);
    __m128i x = _mm_cvtsi32_si128(packed);
    x = _mm_unpacklo_epi8(x, _mm_setzero_si128());
    x = _mm_unpacklo_epi16(x, _mm_setzero_si128());
    return _mm_cvtepi32_ps(x);
}
#endif

// The slab test of tr_ray_aabb_entry on the four decoded children (the scalar lanes and the SSE lanes do the same
// operations in the same order: min/max are a < b ? a : b and a > b ? a : b exactly as tr_minf/tr_maxf, and a
// byte converts to its float exactly).
static void node_entry_scalar(const tr_mesh_node *node, const float o[3], const float grow[3], const float inv[3], float t_max,
                              float tmin[TR_MESH_WIDTH], float tmax[TR_MESH_WIDTH]) {
    for (int k = 0; k < TR_MESH_WIDTH; k++) {
        tmin[k] = 0.0f;
        tmax[k] = t_max;
    }
    for (int a = 2; a >= 0; a--) {
        for (int k = 0; k < TR_MESH_WIDTH; k++) {
            float bmin = node->origin[a] + (float)node->qmin[a][k] * node->step[a];
            float bmax = node->origin[a] + (float)node->qmax[a][k] * node->step[a];
            float t0 = (bmin - grow[a] - o[a]) * inv[a], t1 = (bmax + grow[a] - o[a]) * inv[a];
            tmin[k] = tr_maxf(tr_minf(t0, t1), tmin[k]);
            tmax[k] = tr_minf(tr_maxf(t0, t1), tmax[k]);
        }
    }
}

#if MESH_SSE
static void node_entry_sse(const tr_mesh_node *node, const float o[3], const float grow[3], const float inv[3], float t_max,
                           float tmin[TR_MESH_WIDTH], float tmax[TR_MESH_WIDTH]) {
    __m128 lo = _mm_setzero_ps(), hi = _mm_set1_ps(t_max);
    for (int a = 2; a >= 0; a--) {
        __m128 g = _mm_set1_ps(grow[a]), oa = _mm_set1_ps(o[a]), ia = _mm_set1_ps(inv[a]);
        __m128 origin = _mm_set1_ps(node->origin[a]), step = _mm_set1_ps(node->step[a]);
        __m128 bmin = _mm_add_ps(origin, _mm_mul_ps(bytes_to_ps(node->qmin[a]), step));
        __m128 bmax = _mm_add_ps(origin, _mm_mul_ps(bytes_to_ps(node->qmax[a]), step));
        __m128 t0 = _mm_mul_ps(_mm_sub_ps(_mm_sub_ps(bmin, g), oa), ia);
        __m128 t1 = _mm_mul_ps(_mm_sub_ps(_mm_add_ps(bmax, g), oa), ia);
        lo = _mm_max_ps(_mm_min_ps(t0, t1), lo);
        hi = _mm_min_ps(_mm_max_ps(t0, t1), hi);
    }
    _mm_storeu_ps(tmin, lo);
    _mm_storeu_ps(tmax, hi);
}
#endif

void tr_mesh_node_entry(const tr_mesh_node *node, const float o[3], const float grow[3], const float inv[3], float t_max, bool simd,
                        float tmin[TR_MESH_WIDTH], float tmax[TR_MESH_WIDTH]) {
#if MESH_SSE
    if (simd) {
        node_entry_sse(node, o, grow, inv, t_max, tmin, tmax);
        return;
    }
#endif
    (void)simd;
    node_entry_scalar(node, o, grow, inv, t_max, tmin, tmax);
}

// ---- a triangle's bounds early-outs as SSE lanes (issue 29, item 1) -------------------------------------------
// Before a leaf's triangle goes to the exact tests, its corner box is compared with the query's with the three axes
// as SSE lanes. A triangle is only skipped where the one-by-one path would skip it too, by the same float operations
// on the same values (MINPS/MAXPS pick exactly as tread_v3_min/max: a < b ? a : b; the fourth lane is not looked
// at), so results are the same bits with or without SSE (without it, every triangle takes the exact path).

// The query side of tr_cast_triangle's bounds early-out for a capsule cast (shape.c): the swept core's bounds for
// the current t_max, and a reach at least that test's for every triangle of the mesh (its slack grows with the
// largest coordinate, here bounded by the mesh's bounds instead of the triangle's corners). The cast's own part of
// that function's work comes along, computed once (k).
typedef struct cast_bounds {
    float slo[4], shi[4]; // x, y, z (and an unused lane)
    float lo[4], hi[4];   // the core's bounds at the start, the same way
    float hull[3][4];     // the swept core's hull: x, y, z of p0, p1, p0 + t_max d, p1 + t_max d as lanes
    float reach;
    tr_capsule_cast k; // k.t_max: the slo, shi and hull are for it
} cast_bounds;

static void lanes(float out[4], tread_vec3 v) { out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = 0.0f; }

// The swept core's bounds for t_max (tr_cast_triangle's expressions).
static void cast_bounds_sweep(cast_bounds *b, float t_max) {
    tr_capsule_cast_sweep(&b->k, t_max);
    lanes(b->slo, b->k.slo);
    lanes(b->shi, b->k.shi);
    const tr_cast *c = b->k.c;
    tread_vec3 m = tread_v3_scale(c->d, t_max);
    const tread_vec3 hull[4] = {c->p0, c->p1, tread_v3_add(c->p0, m), tread_v3_add(c->p1, m)};
    for (int i = 0; i < 4; i++) b->hull[0][i] = hull[i].x, b->hull[1][i] = hull[i].y, b->hull[2][i] = hull[i].z;
}

static void cast_bounds_set(cast_bounds *b, const tr_mesh *mesh, const tr_cast *c, float t_max) {
    tr_capsule_cast_init(&b->k, c, t_max);
    cast_bounds_sweep(b, t_max);
    lanes(b->lo, b->k.lo);
    lanes(b->hi, b->k.hi);
    float slack = TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * tr_maxf(b->k.scale, mesh->far);
    b->reach = c->r + TR_TOUCH_TOLERANCE + slack;
}

// The same for a box cast (tr_cast_triangle_box's bounds early-out): its swept bounds for the current t_max, and a
// reach at least that test's for every triangle of the mesh.
typedef struct box_cast_bounds {
    float slo[4], shi[4];
    float lo[4], hi[4]; // the box's bounds at the start, the same way
    float reach;
    tr_box_cast k; // k.t_max: slo and shi are for it
} box_cast_bounds;

static void box_cast_bounds_sweep(box_cast_bounds *b, float t_max) {
    tr_box_cast_sweep(&b->k, t_max);
    lanes(b->slo, b->k.slo);
    lanes(b->shi, b->k.shi);
}

static void box_cast_bounds_set(box_cast_bounds *b, const tr_mesh *mesh, const tr_cast *c, float t_max) {
    tr_box_cast_init(&b->k, c, t_max);
    box_cast_bounds_sweep(b, t_max);
    lanes(b->lo, b->k.lo);
    lanes(b->hi, b->k.hi);
    b->reach = TR_TOUCH_TOLERANCE + TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * tr_maxf(b->k.scale, mesh->far);
}

#if MESH_SSE
// Slot s's corner box over vertex window v, as min(a, min(b, c)) and max(a, max(b, c)) per axis. Each corner is read
// as four floats (the vertex array ends with a spare vertex for the last one's fourth).
static inline void corner_box(const tr_mesh *mesh, const tread_vec3 *v, int32_t s, __m128 *lo, __m128 *hi) {
    const tr_mesh_corners *tc = &mesh->corners[s];
    __m128 a = _mm_loadu_ps(&v[tc->corner[0]].x), b = _mm_loadu_ps(&v[tc->corner[1]].x), c = _mm_loadu_ps(&v[tc->corner[2]].x);
    *lo = _mm_min_ps(a, _mm_min_ps(b, c));
    *hi = _mm_max_ps(a, _mm_max_ps(b, c));
}

// tr_cast_triangle's bounds early-out for the corner box lo-hi: farther than `reach` from the swept core's bounds on
// some axis (the same gaps); with the start's bounds, *apart: farther than that from them.
static inline bool box_apart(__m128 lo, __m128 hi, const float clo[4], const float chi[4], float reach) {
    __m128 r = _mm_set1_ps(reach);
    __m128 far = _mm_or_ps(_mm_cmpgt_ps(_mm_sub_ps(lo, _mm_loadu_ps(chi)), r), _mm_cmpgt_ps(_mm_sub_ps(_mm_loadu_ps(clo), hi), r));
    return (_mm_movemask_ps(far) & 7) != 0;
}

// tr_cast_triangle_box's bounds early-out on the corner box lo-hi, with the triangle's exact reach (its slack from
// the largest magnitude among the cast's coordinates and extent, and the corners'): false where it would skip the
// triangle; else its reach and whether the start is apart.
static inline bool box_near(__m128 lo, __m128 hi, const box_cast_bounds *b, float *reach, bool *apart) {
    const __m128 sign = _mm_set1_ps(-0.0f);
    float c[4];
    _mm_storeu_ps(c, _mm_max_ps(_mm_andnot_ps(sign, lo), _mm_andnot_ps(sign, hi)));
    *reach = TR_TOUCH_TOLERANCE + TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * tr_maxf(b->k.scale, tr_maxf(tr_maxf(c[0], c[1]), c[2]));
    if (box_apart(lo, hi, b->slo, b->shi, *reach)) return false;
    *apart = box_apart(lo, hi, b->lo, b->hi, *reach);
    return true;
}

// Slot s's corner box, and whether the triangle's box lies farther than a reach at least tr_cast_triangle's from the
// swept core's (it would skip it).
static inline bool cast_skips(const tr_mesh *mesh, const tread_vec3 *v, int32_t s, const cast_bounds *b, __m128 *lo, __m128 *hi) {
    corner_box(mesh, v, s, lo, hi);
    return box_apart(*lo, *hi, b->slo, b->shi, b->reach);
}

// tr_cast_triangle_capsule's own bounds early-outs on the corner box lo-hi (the triangle's exact reach: its slack
// from the largest magnitude among the cast's coordinates and the corners', the largest of max(|lo|, |hi|)): false
// where it would skip the triangle; else its slack and whether the start is apart.
static inline bool cast_near(__m128 lo, __m128 hi, const cast_bounds *b, float *slack, float *reach, bool *apart) {
    const __m128 sign = _mm_set1_ps(-0.0f);
    __m128 m = _mm_max_ps(_mm_andnot_ps(sign, lo), _mm_andnot_ps(sign, hi));
    float c[4];
    _mm_storeu_ps(c, m);
    *slack = TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * tr_maxf(b->k.scale, tr_maxf(tr_maxf(c[0], c[1]), c[2]));
    *reach = b->k.c->r + TR_TOUCH_TOLERANCE + *slack;
    if (box_apart(lo, hi, b->slo, b->shi, *reach)) return false;
    *apart = box_apart(lo, hi, b->lo, b->hi, *reach);
    return true;
}

static inline __m128 hmin(__m128 x) {
    x = _mm_min_ps(x, _mm_shuffle_ps(x, x, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_min_ps(x, _mm_shuffle_ps(x, x, _MM_SHUFFLE(1, 0, 3, 2)));
}

// tr_swept_segment_triangle_beyond's bound (closest.c) for slot s, with the swept core's hull as lanes (a resting
// core's: its ends twice): the face normal unnormalised (n, every length scaled by |n|), the heights of the hull's
// four points as lanes, then the edges as lanes. True where it shows the hull farther than reach from the triangle
// (tr_cast_triangle_near skips the start test and the sweep there; tr_contact_triangle would find no contact).
static inline bool swept_apart(const tr_mesh *mesh, const tread_vec3 *v, int32_t s, float hull[3][4], float reach) {
    const tr_mesh_corners *tc = &mesh->corners[s];
    __m128 ra = _mm_loadu_ps(&v[tc->corner[0]].x), rb = _mm_loadu_ps(&v[tc->corner[1]].x), rc = _mm_loadu_ps(&v[tc->corner[2]].x);
    __m128 ab = _mm_sub_ps(rb, ra), ac = _mm_sub_ps(rc, ra);
    __m128 n = _mm_sub_ps(_mm_mul_ps(_mm_shuffle_ps(ab, ab, _MM_SHUFFLE(3, 0, 2, 1)), _mm_shuffle_ps(ac, ac, _MM_SHUFFLE(3, 1, 0, 2))),
                          _mm_mul_ps(_mm_shuffle_ps(ab, ab, _MM_SHUFFLE(3, 1, 0, 2)), _mm_shuffle_ps(ac, ac, _MM_SHUFFLE(3, 0, 2, 1))));
    __m128 nx = _mm_shuffle_ps(n, n, 0x00), ny = _mm_shuffle_ps(n, n, 0x55), nz = _mm_shuffle_ps(n, n, 0xAA);
    __m128 hx = _mm_loadu_ps(hull[0]), hy = _mm_loadu_ps(hull[1]), hz = _mm_loadu_ps(hull[2]);
    // Heights of the hull's points over the plane (times |n|).
    __m128 h = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_sub_ps(hx, _mm_shuffle_ps(ra, ra, 0x00)), nx),
                                     _mm_mul_ps(_mm_sub_ps(hy, _mm_shuffle_ps(ra, ra, 0x55)), ny)),
                          _mm_mul_ps(_mm_sub_ps(hz, _mm_shuffle_ps(ra, ra, 0xAA)), nz));
    float low = _mm_cvtss_f32(hmin(h)), high = -_mm_cvtss_f32(hmin(_mm_sub_ps(_mm_setzero_ps(), h)));
    float height = low > 0.0f ? low : high < 0.0f ? -high : 0.0f;
    float nn = _mm_cvtss_f32(_mm_add_ss(_mm_add_ss(_mm_mul_ss(nx, nx), _mm_mul_ss(ny, ny)), _mm_mul_ss(nz, nz)));
    float lateral_sq = reach * reach * nn - height * height; // (times |n|^2)
    if (lateral_sq < 0.0f) return true;                      // the plane alone shows it
    // The edges as lanes: corner i to corner i + 1, and their outward normals cross(e, n) (length |e| |n|).
    __m128 t0 = ra, t1 = rb, t2 = rc, t3 = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(t0, t1, t2, t3); // t0: the corners' x, t1: y, t2: z
    __m128 ex = _mm_sub_ps(_mm_shuffle_ps(t0, t0, _MM_SHUFFLE(3, 0, 2, 1)), t0);
    __m128 ey = _mm_sub_ps(_mm_shuffle_ps(t1, t1, _MM_SHUFFLE(3, 0, 2, 1)), t1);
    __m128 ez = _mm_sub_ps(_mm_shuffle_ps(t2, t2, _MM_SHUFFLE(3, 0, 2, 1)), t2);
    __m128 ox = _mm_sub_ps(_mm_mul_ps(ey, nz), _mm_mul_ps(ez, ny));
    __m128 oy = _mm_sub_ps(_mm_mul_ps(ez, nx), _mm_mul_ps(ex, nz));
    __m128 oz = _mm_sub_ps(_mm_mul_ps(ex, ny), _mm_mul_ps(ey, nx));
    __m128 least = _mm_setzero_ps();
    for (int i = 0; i < 4; i++) {
        __m128 d = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_sub_ps(_mm_set1_ps(hull[0][i]), t0), ox),
                                         _mm_mul_ps(_mm_sub_ps(_mm_set1_ps(hull[1][i]), t1), oy)),
                              _mm_mul_ps(_mm_sub_ps(_mm_set1_ps(hull[2][i]), t2), oz));
        least = i == 0 ? d : _mm_min_ps(least, d);
    }
    __m128 ee = _mm_add_ps(_mm_add_ps(_mm_mul_ps(ex, ex), _mm_mul_ps(ey, ey)), _mm_mul_ps(ez, ez));
    __m128 proves = _mm_and_ps(_mm_cmpgt_ps(least, _mm_setzero_ps()),
                               _mm_cmpgt_ps(_mm_mul_ps(least, least), _mm_mul_ps(_mm_set1_ps(lateral_sq), ee)));
    return (_mm_movemask_ps(proves) & 7) != 0;
}

// The node test for rays (which have no bounds early-out of their own), on slot s's exact corner box: the
// slab test of node_entry_scalar, the box grown as the nodes' are. A hit at t <= t_max lies in the triangle's box, so
// the grown box is entered by then (the argument that lets the nodes prune): a skipped triangle has no such hit.
static inline bool slab_skips(const tr_mesh *mesh, const tread_vec3 *v, int32_t s, const float o[3], const float grow[3],
                              const float inv[3], float t_max) {
    __m128 lo, hi;
    corner_box(mesh, v, s, &lo, &hi);
    float l[4], h[4];
    _mm_storeu_ps(l, lo);
    _mm_storeu_ps(h, hi);
    float tmin = 0.0f, tmax = t_max;
    for (int a = 2; a >= 0; a--) {
        float t0 = (l[a] - grow[a] - o[a]) * inv[a], t1 = (h[a] + grow[a] - o[a]) * inv[a];
        tmin = tr_maxf(tr_minf(t0, t1), tmin);
        tmax = tr_minf(tr_maxf(t0, t1), tmax);
    }
    return !(tmin <= tmax);
}

// The contact query's early-out for slot s: its corner box does not overlap `reach` (tread_aabb_overlaps).
static inline bool contact_skips(const tr_mesh *mesh, const tread_vec3 *v, int32_t s, __m128 reach_lo, __m128 reach_hi, __m128 *lo,
                                 __m128 *hi) {
    corner_box(mesh, v, s, lo, hi);
    __m128 apart = _mm_or_ps(_mm_cmpnle_ps(*lo, reach_hi), _mm_cmpnle_ps(reach_lo, *hi));
    return (_mm_movemask_ps(apart) & 7) != 0;
}

// tr_contact_triangle's reach for a capsule query (its plane test's, from the largest magnitude among the query's
// coordinates and r, `scale`, and the corners', the largest of max(|lo|, |hi|)).
static inline float contact_reach(__m128 lo, __m128 hi, const tr_cast *q, float scale, float margin) {
    const __m128 sign = _mm_set1_ps(-0.0f);
    float c[4];
    _mm_storeu_ps(c, _mm_max_ps(_mm_andnot_ps(sign, lo), _mm_andnot_ps(sign, hi)));
    return q->r + tr_maxf(margin, 0.0f) + TR_TOUCH_TOLERANCE + TR_SKIP_SLACK_ABS +
           TR_SKIP_SLACK_REL * tr_maxf(scale, tr_maxf(tr_maxf(c[0], c[1]), c[2]));
}
#endif

// The children (bits) whose decoded boxes overlap [qmin, qmax]. The SSE lanes decode and compare as the scalar loop
// does (a multiply, then an add; the same comparisons).
static inline int node_overlaps(const tr_mesh_node *node, const float qmin[3], const float qmax[3]) {
#if MESH_SSE
    __m128 apart = _mm_setzero_ps();
    for (int a = 0; a < 3; a++) {
        __m128 origin = _mm_set1_ps(node->origin[a]), step = _mm_set1_ps(node->step[a]);
        __m128 bmin = _mm_add_ps(origin, _mm_mul_ps(bytes_to_ps(node->qmin[a]), step));
        __m128 bmax = _mm_add_ps(origin, _mm_mul_ps(bytes_to_ps(node->qmax[a]), step));
        apart = _mm_or_ps(apart, _mm_or_ps(_mm_cmpnle_ps(bmin, _mm_set1_ps(qmax[a])), _mm_cmpnle_ps(_mm_set1_ps(qmin[a]), bmax)));
    }
    return ~_mm_movemask_ps(apart) & 15;
#else
    int reached = 0;
    for (int k = 0; k < TR_MESH_WIDTH; k++) {
        bool overlap = true;
        for (int a = 0; a < 3; a++)
            overlap = overlap && node->origin[a] + (float)node->qmin[a][k] * node->step[a] <= qmax[a] &&
                      node->origin[a] + (float)node->qmax[a][k] * node->step[a] >= qmin[a];
        reached |= overlap << k;
    }
    return reached;
#endif
}

typedef struct stack_entry {
    int32_t index; // a node's index, or a leaf's first slot
    int32_t count; // a leaf's triangles; 0 for a node
    int32_t node;  // a leaf's node (its vertex window and caller indices)
    float t;       // entry fraction of the (inflated) box
} stack_entry;

// Node n's children as stack entries, in child order (internal children from `child`, leaves' slots from `first`);
// returns how many.
static inline int node_children(const tr_mesh_node *node, int32_t n, stack_entry out[TR_MESH_WIDTH]) {
    int32_t child = (int32_t)node->child, slot = (int32_t)node->first;
    int k = 0;
    for (; k < TR_MESH_WIDTH; k++) {
        uint32_t kind = tr_mesh_kind(node, k);
        if (kind == TR_MESH_KIND_NONE) break;
        if (kind == TR_MESH_KIND_NODE) {
            out[k] = (stack_entry){child++, 0, n, 0.0f};
        } else {
            out[k] = (stack_entry){slot, (int32_t)kind, n, 0.0f};
            slot += (int32_t)kind;
        }
    }
    return k;
}

void tr_mesh_cast(const tr_mesh *mesh, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    const tr_mesh_node *nodes = mesh->nodes;
    if (mesh->node_count == 0) return;
    // Nodes are tested with the path of one point: the segment's mid-point, the box grown by the capsule's
    // own half extents (zero for a ray). That bounds the swept capsule conservatively.
    tread_vec3 o = c->p0, inflate = tread_v3_zero();
    if (!c->is_ray) {
        o = tread_v3_scale(tread_v3_add(c->p0, c->p1), 0.5f);
        tread_vec3 half = tread_v3_scale(tread_v3_abs(tread_v3_sub(c->p1, c->p0)), 0.5f);
        inflate = tread_v3_add(half, tread_v3(c->r, c->r, c->r));
        if (c->is_box) {
            tr_obb box = tr_cast_obb(c);
            inflate = tr_obb_extent(&box);
        }
    }
    // Touching counts as a hit, and a box's entry t and a triangle's hit t round differently: grow the boxes by
    // the touch tolerance (plus the rounding of the coordinates) so that pruning by t_max never drops a leaf
    // holding a hit at or within rounding of t_max (ties there are broken by feature, whatever the order).
    float pad = tr_cast_pad(o, c->d);
    inflate = tread_v3_add(inflate, tread_v3(pad, pad, pad));
    tread_vec3 inv_d = tr_inverse_direction(c->d), from = c->is_ray ? c->p0 : tread_v3_scale(tread_v3_add(c->p0, c->p1), 0.5f);
    const float oo[3] = {o.x, o.y, o.z}, grow[3] = {inflate.x, inflate.y, inflate.z}, inv[3] = {inv_d.x, inv_d.y, inv_d.z};
    // A leaf's triangles are tested on their bounds first: capsule and box casts as tr_cast_triangle would, rays as the
    // nodes are.
    bool capsule = !c->is_ray && !c->is_box;
    cast_bounds sweep; // set when the first leaf is reached (many casts reach none)
    box_cast_bounds boxed; // the same for a box
    bool swept = false;
    stack_entry stack[MESH_STACK_SIZE];
    int top = 0;
    stack[top++] = (stack_entry){0, 0, 0, 0.0f};
    while (top > 0) {
        stack_entry entry = stack[--top];
        if (entry.t > t_max) continue; // a closer hit since it was pushed
        if (entry.count > 0) {
            const tread_vec3 *v = mesh->vertices + nodes[entry.node].vertex_base;
            if (!swept) {
                if (capsule) cast_bounds_set(&sweep, mesh, c, t_max);
                else if (c->is_box) box_cast_bounds_set(&boxed, mesh, c, t_max);
                swept = true;
            }
            for (int32_t s = entry.index; s < entry.index + entry.count; s++) {
                tread_vec3 t[3];
                uint8_t edges;
                tr_feature_hit hit;
                bool hits;
#if MESH_SSE
                if (capsule) {
                    // The bounds early-outs of tr_cast_triangle_capsule here, on the corner box as SSE lanes.
                    __m128 lo, hi;
                    float slack, reach;
                    bool apart;
                    if (cast_skips(mesh, v, s, &sweep, &lo, &hi) || !leaf_triangle(mesh, v, s, from, t, &edges) ||
                        !cast_near(lo, hi, &sweep, &slack, &reach, &apart) || swept_apart(mesh, v, s, sweep.hull, reach))
                        continue;
                    unsigned early = TR_EARLY_SWEPT_TESTED | (apart ? TR_EARLY_APART_AT_START : 0u);
                    hits = tr_cast_triangle_near(&sweep.k, t[0], t[1], t[2], edges, slack, early, &hit);
                } else if (c->is_box) {
                    // tr_cast_triangle_box's bounds early-out here, on the corner box as SSE lanes (the nodes' slab test
                    // after it skipped too few triangles to pay for itself).
                    __m128 lo, hi;
                    float reach;
                    bool apart;
                    corner_box(mesh, v, s, &lo, &hi);
                    if (box_apart(lo, hi, boxed.slo, boxed.shi, boxed.reach) || !box_near(lo, hi, &boxed, &reach, &apart) ||
                        !leaf_triangle(mesh, v, s, from, t, &edges))
                        continue;
                    hits = tr_cast_triangle_box_near(&boxed.k, t[0], t[1], t[2], edges, apart, reach, &hit);
                } else {
                    if (slab_skips(mesh, v, s, oo, grow, inv, t_max) || !leaf_triangle(mesh, v, s, from, t, &edges)) continue;
                    hits = tr_cast_triangle(c, t[0], t[1], t[2], edges, t_max, &hit);
                }
#else
                if (!leaf_triangle(mesh, v, s, from, t, &edges)) continue;
                hits = capsule    ? tr_cast_triangle_capsule(&sweep.k, t[0], t[1], t[2], edges, &hit)
                       : c->is_box ? tr_cast_triangle_box(&boxed.k, t[0], t[1], t[2], edges, &hit)
                                   : tr_cast_triangle(c, t[0], t[1], t[2], edges, t_max, &hit);
#endif
                if (!hits) continue;
                hit.feature = caller_index(mesh, entry.node, s);
                t_max = fn(ctx, &hit);
                if (capsule && t_max != sweep.k.t_max) cast_bounds_sweep(&sweep, t_max);
                if (c->is_box && t_max != boxed.k.t_max) box_cast_bounds_sweep(&boxed, t_max);
            }
            continue;
        }
        const tr_mesh_node *node = &nodes[entry.index];
        float tmin[TR_MESH_WIDTH], tmax[TR_MESH_WIDTH];
#if MESH_SSE
        node_entry_sse(node, oo, grow, inv, t_max, tmin, tmax);
#else
        node_entry_scalar(node, oo, grow, inv, t_max, tmin, tmax);
#endif
        stack_entry kids[TR_MESH_WIDTH];
        int count = node_children(node, entry.index, kids);
        // Push the children that are reached, farthest first, so the nearest is popped next.
        stack_entry hits[TR_MESH_WIDTH];
        int n = 0;
        for (int k = 0; k < count; k++) {
            if (!(tmin[k] <= tmax[k])) continue;
            stack_entry e = kids[k];
            e.t = tmin[k];
            int j = n++;
            while (j > 0 && hits[j - 1].t < e.t) {
                hits[j] = hits[j - 1];
                j--;
            }
            hits[j] = e;
        }
        TR_ASSERT(top + n <= MESH_STACK_SIZE);
        for (int j = 0; j < n; j++) stack[top++] = hits[j];
    }
}

void tr_mesh_query_contacts(const tr_mesh *mesh, const tr_cast *q, float margin, tr_contact_fn *fn, void *ctx) {
    const tr_mesh_node *nodes = mesh->nodes;
    if (mesh->node_count == 0) return;
    tread_aabb query = tr_query_bounds(q, tr_maxf(margin, 0.0f));
    const float qmin[3] = {query.min.x, query.min.y, query.min.z}, qmax[3] = {query.max.x, query.max.y, query.max.z};
    // A triangle whose box lies outside the query's by more than the rounding of the closest-point test is farther
    // than the margin: it is skipped before that test (a leaf's box holds several triangles; most queries reach
    // only some of them).
    tread_vec3 far = tread_v3_max(tread_v3_max(tread_v3_abs(query.min), tread_v3_abs(query.max)),
                                  tread_v3_max(tread_v3_abs(mesh->bounds.min), tread_v3_abs(mesh->bounds.max)));
    float slack = TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * tr_maxf(far.x, tr_maxf(far.y, far.z));
    tread_aabb reach = tread_aabb_expand(query, slack);
#if MESH_SSE
    const __m128 reach_lo = _mm_setr_ps(reach.min.x, reach.min.y, reach.min.z, 0.0f);
    const __m128 reach_hi = _mm_setr_ps(reach.max.x, reach.max.y, reach.max.z, 0.0f);
#endif
    tread_vec3 from = tread_v3_scale(tread_v3_add(q->p0, q->p1), 0.5f);
#if MESH_SSE
    // A capsule's core as a hull of four points (its ends twice) for swept_apart, and its part of the contact's scale.
    float hull[3][4] = {{q->p0.x, q->p1.x, q->p0.x, q->p1.x}, {q->p0.y, q->p1.y, q->p0.y, q->p1.y}, {q->p0.z, q->p1.z, q->p0.z, q->p1.z}};
    tread_vec3 g = tread_v3_max(tread_v3_abs(q->p0), tread_v3_abs(q->p1));
    float scale = tr_maxf(tr_maxf(g.x, g.y), tr_maxf(g.z, q->r));
#endif
    stack_entry stack[MESH_STACK_SIZE];
    int top = 0;
    stack[top++] = (stack_entry){0, 0, 0, 0.0f};
    while (top > 0) {
        stack_entry entry = stack[--top];
        if (entry.count > 0) {
            const tread_vec3 *v = mesh->vertices + nodes[entry.node].vertex_base;
            for (int32_t s = entry.index; s < entry.index + entry.count; s++) {
                tread_vec3 t[3];
                uint8_t edges;
#if MESH_SSE
                __m128 lo, hi;
                if (contact_skips(mesh, v, s, reach_lo, reach_hi, &lo, &hi)) continue;
                if (!leaf_triangle(mesh, v, s, from, t, &edges)) continue;
                // A capsule's core farther than tr_contact_triangle's reach from the triangle: it would find no contact.
                if (!q->is_box && swept_apart(mesh, v, s, hull, contact_reach(lo, hi, q, scale, margin))) continue;
#else
                if (!leaf_triangle(mesh, v, s, from, t, &edges)) continue;
                tread_aabb box = {tread_v3_min(t[0], tread_v3_min(t[1], t[2])), tread_v3_max(t[0], tread_v3_max(t[1], t[2]))};
                if (!tread_aabb_overlaps(box, reach)) continue;
#endif
                tr_feature_contact contact;
                if (!tr_query_contact_triangle(q, t[0], t[1], t[2], edges, margin, &contact)) continue;
                contact.feature = caller_index(mesh, entry.node, s);
                fn(ctx, &contact);
            }
            continue;
        }
        const tr_mesh_node *node = &nodes[entry.index];
        stack_entry kids[TR_MESH_WIDTH];
        int count = node_children(node, entry.index, kids);
        int reached = node_overlaps(node, qmin, qmax);
        for (int k = count - 1; k >= 0; k--) {
            if (!(reached >> k & 1)) continue;
            TR_ASSERT(top < MESH_STACK_SIZE);
            stack[top++] = kids[k];
        }
    }
}
