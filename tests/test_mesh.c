// SPDX-License-Identifier: MIT
// Triangle mesh shape: validation errors, active edges, BVH queries against brute force, degenerate
// triangles, and no ghost normals on a flat floor.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tread/tread.h"
#include "world/mesh.h"

#include "shape_test_support.h"

static tread_vec3 rng_vec(float lo, float hi) { return tread_v3(rng_float(lo, hi), rng_float(lo, hi), rng_float(lo, hi)); }

// Active-edge bits of the caller's triangle t.
static unsigned edges_of(const tr_mesh *mesh, uint32_t t) {
    for (int s = 0; s < mesh->triangle_count; s++) {
        tread_vec3 v[3];
        uint8_t flags;
        if (tr_mesh_slot(mesh, s, v, &flags) == t) return flags & 7u;
    }
    fail_msg("triangle %u is in no slot", t);
    return 0;
}

static closest brute_cast(const tr_mesh *mesh, const tr_cast *c) {
    closest best = {false, {0}};
    for (int s = 0; s < mesh->triangle_count; s++) {
        tr_feature_hit hit;
        tread_vec3 v[3];
        uint8_t flags;
        uint32_t t = tr_mesh_slot(mesh, s, v, &flags);
        tread_vec3 twice = tread_v3_cross(tread_v3_sub(v[1], v[0]), tread_v3_sub(v[2], v[0]));
        if (!(tread_v3_length(twice) >= TR_DEGENERATE_AREA)) continue;
        if (!tr_cast_triangle(c, v[0], v[1], v[2], (uint8_t)(flags & 7u), 1.0f, &hit)) continue;
        hit.feature = t;
        // The nearest; at equal fractions the lowest triangle index, as the query breaks ties.
        if (!best.hit || hit.t < best.best.t || (hit.t == best.best.t && t < best.best.feature)) best.best = hit, best.hit = true;
    }
    return best;
}

// A flat grid of cells x cells squares of size `size` at height y, two triangles per square.
static void make_grid(int cells, float size, float y, tread_vec3 **vertices, uint32_t **indices, tread_mesh_def *def) {
    int n = cells + 1;
    *vertices = malloc((size_t)(n * n) * sizeof(tread_vec3));
    *indices = malloc((size_t)(cells * cells * 6) * sizeof(uint32_t));
    assert_non_null(*vertices);
    assert_non_null(*indices);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) (*vertices)[j * n + i] = tread_v3((float)i * size, y, (float)j * size);
    uint32_t *idx = *indices;
    for (int j = 0; j < cells; j++) {
        for (int i = 0; i < cells; i++) {
            uint32_t a = (uint32_t)(j * n + i), b = a + 1, c = a + (uint32_t)n, d = c + 1;
            *idx++ = a, *idx++ = d, *idx++ = b;
            *idx++ = a, *idx++ = c, *idx++ = d;
        }
    }
    def->vertices = *vertices;
    def->vertex_count = n * n;
    def->indices = *indices;
    def->triangle_count = cells * cells * 2;
    def->one_sided = NULL;
}

// ---- validation --------------------------------------------------------------------------------------------

static void test_mesh_validate_reports_specific_errors(void **state) {
    (void)state;
    tread_vec3 v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    uint32_t idx[3] = {0, 1, 2};
    tread_mesh_def def = {v, 3, idx, 1, NULL};
    assert_int_equal(tr_mesh_validate(&def), TREAD_OK);
    assert_int_equal(tr_mesh_validate(NULL), TREAD_ERR_NULL_ARGUMENT);

    tread_mesh_def empty = {NULL, 0, NULL, 0, NULL};
    assert_int_equal(tr_mesh_validate(&empty), TREAD_ERR_INVALID_MESH);
    tread_mesh_def no_triangles = {v, 3, idx, 0, NULL};
    assert_int_equal(tr_mesh_validate(&no_triangles), TREAD_ERR_INVALID_MESH);
    // Slots, nodes and caller indices stay below 2^28: more triangles than TR_MESH_MAX_TRIANGLES are refused by count,
    // before the arrays are read.
    tread_mesh_def too_many = {v, 3, idx, TR_MESH_MAX_TRIANGLES + 1, NULL};
    assert_int_equal(tr_mesh_validate(&too_many), TREAD_ERR_INVALID_MESH);
    assert_non_null(strstr(tread_error_message(), "mesh.triangle_count = 268435457 is too large (at most 268435456)"));

    tread_mesh_def null_vertices = {NULL, 3, idx, 1, NULL};
    assert_int_equal(tr_mesh_validate(&null_vertices), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "mesh.vertices"));
    tread_mesh_def null_indices = {v, 3, NULL, 1, NULL};
    assert_int_equal(tr_mesh_validate(&null_indices), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "mesh.indices"));

    uint32_t bad[3] = {0, 7, 2};
    tread_mesh_def out_of_range = {v, 3, bad, 1, NULL};
    assert_int_equal(tr_mesh_validate(&out_of_range), TREAD_ERR_INVALID_MESH);
    assert_non_null(strstr(tread_error_message(), "mesh.indices[1] = 7 is out of range (vertex_count 3)"));

    tread_vec3 nan_v[3] = {{0, 0, 0}, {1, NAN, 0}, {0, 0, 1}};
    tread_mesh_def nan_def = {nan_v, 3, idx, 1, NULL};
    assert_int_equal(tr_mesh_validate(&nan_def), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "mesh.vertices[1]"));

    tread_vec3 inf_v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 0, INFINITY}};
    tread_mesh_def inf_def = {inf_v, 3, idx, 1, NULL};
    assert_int_equal(tr_mesh_validate(&inf_def), TREAD_ERR_NOT_FINITE);

    tread_vec3 far_v[3] = {{0, 0, 0}, {2.0e6f, 0, 0}, {0, 0, 1}};
    tread_mesh_def far_def = {far_v, 3, idx, 1, NULL};
    assert_int_equal(tr_mesh_validate(&far_def), TREAD_ERR_INVALID_MESH);
}

// ---- active edges -----------------------------------------------------------------------------------------

static void test_mesh_flat_grid_interior_edges_inactive(void **state) {
    (void)state;
    tread_vec3 *v;
    uint32_t *idx;
    tread_mesh_def def;
    make_grid(4, 1.0f, 0.0f, &v, &idx, &def);
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    for (int s = 0; s < mesh.triangle_count; s++) {
        tread_vec3 corner[3];
        uint8_t flags;
        tr_mesh_slot(&mesh, s, corner, &flags);
        for (int e = 0; e < 3; e++) {
            tread_vec3 a = corner[e], b = corner[(e + 1) % 3];
            bool boundary = (a.x == 0 && b.x == 0) || (a.x == 4 && b.x == 4) || (a.z == 0 && b.z == 0) || (a.z == 4 && b.z == 4);
            assert_int_equal((flags >> e) & 1, boundary ? 1 : 0);
        }
    }
    tr_mesh_destroy(&mesh);
    free(v);
    free(idx);
}

// Two quads meeting at x = 0: a ridge or a valley (active: two-sided triangles make every fold convex from one
// side, e.g. a stair nose whose riser faces into the step) or flat (inactive); also as a soup of unshared
// vertices (welded by position) and with one triangle wound the other way.
static void check_fold(float rise, bool expect_active, bool soup, bool flip) {
    tread_vec3 v[6] = {{-1, rise, 0}, {0, 0, 0}, {0, 0, 1}, {1, rise, 0}, {0, 0, 0}, {0, 0, 1}};
    uint32_t idx[6] = {0, 2, 1, 1, 2, 3};
    if (!soup) idx[3] = 1, idx[4] = 2;
    else idx[3] = 4, idx[4] = 5;
    if (flip) {
        uint32_t t = idx[4];
        idx[4] = idx[3];
        idx[3] = t;
    }
    tread_mesh_def def = {v, 6, idx, 2, NULL};
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    // Triangle 0 edge 1 (corner 2 -> corner 1) is the shared one.
    assert_int_equal((edges_of(&mesh, 0) >> 1) & 1, expect_active ? 1 : 0);
    tr_mesh_destroy(&mesh);
}

static void test_mesh_folded_edges_active_flat_inactive(void **state) {
    (void)state;
    for (int soup = 0; soup < 2; soup++) {
        for (int flip = 0; flip < 2; flip++) {
            check_fold(-0.5f, true, soup, flip);   // ridge: faces fall away from the edge
            check_fold(0.5f, true, soup, flip);    // valley: a ridge seen from below
            check_fold(0.0f, false, soup, flip);   // flat
            check_fold(-1e-5f, false, soup, flip); // flatter than TR_INACTIVE_EDGE_COS
        }
    }
}

// A one-sided triangle (tread_mesh_def::one_sided) is seen only from in front (its counter-clockwise winding's side):
// a ray, a sphere cast and a contact query from below pass it; from above they meet it, as they meet a two-sided
// triangle from either side.
static void test_mesh_one_sided_triangles_are_met_from_in_front_only(void **state) {
    (void)state;
    static const tread_vec3 v[6] = {{-1, 0, -1}, {-1, 0, 1}, {1, 0, 0}, {-1, 0.5f, -1}, {-1, 0.5f, 1}, {1, 0.5f, 0}};
    static const uint32_t idx[6] = {0, 1, 2, 3, 4, 5}; // both wound to face +y
    for (int sided = 0; sided < 2; ++sided) {
        static const uint8_t one[2] = {1, 1};
        tread_world *w = NULL;
        assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_mesh(v, 6, idx, 2);
        def.shape.mesh.one_sided = sided ? one : NULL;
        tread_body_id id;
        assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
        tread_ray_hit ray;
        // From below, up through both: one-sided, neither is there; two-sided, the lower one stops it.
        assert_int_equal(tread_world_cast_ray(w, tread_v3(-0.5f, -1, 0), tread_v3(0, 3, 0), NULL, &ray), TREAD_OK);
        assert_int_equal(ray.hit, !sided);
        // From above, down: the upper one, either way.
        assert_int_equal(tread_world_cast_ray(w, tread_v3(-0.5f, 2, 0), tread_v3(0, -3, 0), NULL, &ray), TREAD_OK);
        assert_true(ray.hit && fabsf(ray.point.y - 0.5f) < 1e-5f);
        // Between them, down: the lower one is in front (faces up); up: the upper one's back, skipped one-sided.
        assert_int_equal(tread_world_cast_ray(w, tread_v3(-0.5f, 0.25f, 0), tread_v3(0, -1, 0), NULL, &ray), TREAD_OK);
        assert_true(ray.hit && fabsf(ray.point.y) < 1e-5f);
        tread_query_shape ball = tread_query_sphere(0.1f);
        tread_shape_hit hit;
        assert_int_equal(tread_world_cast_shape(w, &ball, tread_v3(-0.5f, 0.25f, 0), tread_v3(0, 1, 0), NULL, &hit), TREAD_OK);
        assert_int_equal(hit.hit, !sided);
        tread_contact contacts[4];
        int count = 0;
        bool overflow = false;
        assert_int_equal(tread_world_collect_contacts(w, &ball, tread_v3(-0.5f, 0.45f, 0), 0.01f, NULL, contacts, 4, &count, &overflow), TREAD_OK);
        assert_int_equal(count, sided ? 0 : 1); // 5 cm under the upper triangle: its back
        assert_int_equal(tread_world_collect_contacts(w, &ball, tread_v3(-0.5f, 0.55f, 0), 0.01f, NULL, contacts, 4, &count, &overflow), TREAD_OK);
        assert_int_equal(count, 1); // 5 cm over it: its front
        tread_world_destroy(w);
    }
}

// ---- queries against brute force --------------------------------------------------------------------------

static void random_mesh(int triangles, tread_vec3 **vertices, uint32_t **indices, tread_mesh_def *def) {
    // Triangles in clusters so the BVH has structure; some share vertices with the previous triangle.
    int vcount = triangles * 3;
    *vertices = malloc((size_t)vcount * sizeof(tread_vec3));
    *indices = malloc((size_t)vcount * sizeof(uint32_t));
    assert_non_null(*vertices);
    assert_non_null(*indices);
    for (int t = 0; t < triangles; t++) {
        tread_vec3 centre = rng_vec(-10.0f, 10.0f);
        for (int k = 0; k < 3; k++) (*vertices)[3 * t + k] = tread_v3_add(centre, rng_vec(-1.5f, 1.5f));
        for (int k = 0; k < 3; k++) (*indices)[3 * t + k] = (uint32_t)(3 * t + k);
        if (t > 0 && t % 3 == 0) (*indices)[3 * t] = (uint32_t)(3 * t - 1);
    }
    def->vertices = *vertices;
    def->vertex_count = vcount;
    def->indices = *indices;
    def->triangle_count = triangles;
    def->one_sided = NULL;
}

static void compare_with_brute_force(bool rays) {
    tread_vec3 *v;
    uint32_t *idx;
    tread_mesh_def def;
    random_mesh(600, &v, &idx, &def);
    tr_mesh mesh;
    assert_int_equal(tr_mesh_validate(&def), TREAD_OK);
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    int hits = 0;
    for (int q = 0; q < 4000; q++) {
        tread_vec3 o = rng_vec(-12.0f, 12.0f), d = tread_v3_scale(rng_vec(-1.0f, 1.0f), rng_float(0.5f, 20.0f));
        if (q % 7 == 0) d.x = d.z = 0.0f; // axis-aligned casts exercise the huge-inverse slabs
        tr_cast c = rays ? ray_cast(o, d) : capsule_cast(o, rng_float(0.0f, 0.8f), rng_float(0.05f, 0.5f), d);
        closest fast = {false, {0}};
        tr_mesh_cast(&mesh, &c, 1.0f, keep_closest, &fast);
        closest slow = brute_cast(&mesh, &c);
        assert_int_equal(fast.hit, slow.hit);
        if (slow.hit) {
            hits++;
            assert_true(fabsf(fast.best.t - slow.best.t) <= T_TOLERANCE);
            assert_true(fast.best.feature < (uint32_t)mesh.triangle_count);
        }
    }
    assert_true(hits > 400); // the comparison means something
    tr_mesh_destroy(&mesh);
    free(v);
    free(idx);
}

static void test_mesh_rays_match_brute_force(void **state) {
    (void)state;
    compare_with_brute_force(true);
}

static void test_mesh_capsules_match_brute_force(void **state) {
    (void)state;
    compare_with_brute_force(false);
}

typedef struct contact_list {
    int count;
    uint32_t features[64];
} contact_list;

static void collect_contact(void *ctx, const tr_feature_contact *contact) {
    contact_list *l = (contact_list *)ctx;
    if (l->count < 64) l->features[l->count] = contact->feature;
    l->count++;
}

static void test_mesh_contacts_match_brute_force(void **state) {
    (void)state;
    tread_vec3 *v;
    uint32_t *idx;
    tread_mesh_def def;
    random_mesh(400, &v, &idx, &def);
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    int total = 0;
    for (int q = 0; q < 2000; q++) {
        tread_vec3 centre = rng_vec(-11.0f, 11.0f);
        float h = rng_float(0.0f, 0.8f), r = rng_float(0.1f, 0.6f), margin = rng_float(0.0f, 0.1f);
        tread_vec3 p0 = tread_v3(centre.x, centre.y - h, centre.z), p1 = tread_v3(centre.x, centre.y + h, centre.z);
        contact_list fast = {0, {0}};
        tr_mesh_query_contacts(&mesh, (tr_cast[]){contact_query(p0, p1, r)}, margin, collect_contact, &fast);
        int slow = 0;
        for (int s = 0; s < mesh.triangle_count; s++) {
            tr_feature_contact contact;
            tread_vec3 corner[3];
            uint8_t flags;
            tr_mesh_slot(&mesh, s, corner, &flags);
            if (tr_contact_triangle(p0, p1, r, corner[0], corner[1], corner[2], (uint8_t)(flags & 7u), margin, &contact)) slow++;
        }
        assert_int_equal(fast.count, slow);
        total += slow;
    }
    assert_true(total > 100);
    tr_mesh_destroy(&mesh);
    free(v);
    free(idx);
}

// ---- degenerate triangles ----------------------------------------------------------------------------------

static void test_mesh_degenerate_triangles_never_hit(void **state) {
    (void)state;
    // A unit quad (two triangles) plus a zero-area sliver along its diagonal and a collapsed triangle.
    tread_vec3 v[5] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}, {0.5f, 0, 0.5f}};
    uint32_t idx[12] = {0, 2, 1, 0, 3, 2, 0, 4, 2, 1, 1, 3};
    tread_mesh_def def = {v, 5, idx, 4, NULL};
    assert_int_equal(tr_mesh_validate(&def), TREAD_OK);
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    // The sliver is nobody's neighbour: the diagonal stays a flat, inactive edge between the two real triangles.
    assert_int_equal(edges_of(&mesh, 0) & 1, 0);
    assert_int_equal((edges_of(&mesh, 1) >> 2) & 1, 0);
    for (int q = 0; q < 500; q++) {
        float x = rng_float(-0.2f, 1.2f), z = rng_float(-0.2f, 1.2f);
        if (q % 5 == 0) z = x; // right on the sliver
        tr_cast c = ray_cast(tread_v3(x, 1.0f, z), tread_v3(0, -2.0f, 0));
        closest fast = {false, {0}};
        tr_mesh_cast(&mesh, &c, 1.0f, keep_closest, &fast);
        if (fast.hit) assert_true(fast.best.feature < 2u);
        tr_cast cap = capsule_cast(tread_v3(x, 1.5f, z), 0.2f, 0.25f, tread_v3(0, -2.0f, 0));
        closest fc = {false, {0}};
        tr_mesh_cast(&mesh, &cap, 1.0f, keep_closest, &fc);
        if (fc.hit) assert_true(fc.best.feature < 2u);
    }
    tr_mesh_destroy(&mesh);
}

// ---- flat floor: no ghost normals (check_flat_floor in shape_test_support.h) ---------------------------

static void mesh_cast_adapter(const void *shape, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    tr_mesh_cast((const tr_mesh *)shape, c, t_max, fn, ctx);
}
static void mesh_contacts_adapter(const void *shape, tread_vec3 p0, tread_vec3 p1, float r, float margin, tr_contact_fn *fn,
                                  void *ctx) {
    tr_mesh_query_contacts((const tr_mesh *)shape, (tr_cast[]){contact_query(p0, p1, r)}, margin, fn, ctx);
}

static void test_mesh_flat_floor_has_no_ghost_normals(void **state) {
    (void)state;
    tread_vec3 *v;
    uint32_t *idx;
    tread_mesh_def def;
    make_grid(FLOOR_CELLS, 1.0f, 0.0f, &v, &idx, &def);
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    check_flat_floor(&mesh, 0.0f, mesh_cast_adapter, mesh_contacts_adapter);
    tr_mesh_destroy(&mesh);
    free(v);
    free(idx);
}

// ---- the quantised tree ------------------------------------------------------------------------------------

// A bumpy grid: make_grid's, heights random in [0, 2) m (every node has extent on every axis).
static void make_bumpy(int cells, tread_vec3 **v, uint32_t **idx, tread_mesh_def *def) {
    make_grid(cells, 0.37f, 0.0f, v, idx, def);
    for (int i = 0; i < def->vertex_count; i++) (*v)[i].y = rng_float(0.0f, 2.0f);
}

// The corners' bounds of the triangles under child k of node n, after asserting that child's decoded box (its
// parent's origin + q * step) holds them; recursing through internal children. Counts the leaves and their slots.
static tread_aabb check_child(const tr_mesh *mesh, int n, int k, int *leaves, int *slots) {
    const tr_mesh_node *node = &mesh->nodes[n];
    // Internal children are consecutive nodes from `child`, leaves consecutive slots from `first`, in child order.
    uint32_t index = node->child, slot = node->first;
    for (int i = 0; i < k; i++) {
        uint32_t kind = tr_mesh_kind(node, i);
        assert_int_not_equal(kind, TR_MESH_KIND_NONE);
        if (kind == TR_MESH_KIND_NODE) index++;
        else slot += kind;
    }
    uint32_t kind = tr_mesh_kind(node, k);
    tread_aabb box = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    if (kind == TR_MESH_KIND_NODE) {
        assert_true(index > (uint32_t)n && index < (uint32_t)mesh->node_count);
        for (int c = 0; c < TR_MESH_WIDTH; c++)
            if (tr_mesh_kind(&mesh->nodes[index], c) != TR_MESH_KIND_NONE)
                box = tread_aabb_union(box, check_child(mesh, (int)index, c, leaves, slots));
    } else {
        assert_true(kind >= 1 && kind <= TR_MESH_MAX_LEAF);
        ++*leaves;
        *slots += (int)kind;
        for (uint32_t s = slot; s < slot + kind; s++) {
            tread_vec3 corner[3];
            uint8_t flags;
            tr_mesh_slot(mesh, (int)s, corner, &flags);
            for (int c = 0; c < 3; c++) box = tread_aabb_union(box, tread_aabb_make(corner[c], corner[c]));
        }
    }
    const float lo[3] = {box.min.x, box.min.y, box.min.z}, hi[3] = {box.max.x, box.max.y, box.max.z};
    for (int a = 0; a < 3; a++) {
        assert_true(node->origin[a] + (float)node->qmin[a][k] * node->step[a] <= lo[a]);
        assert_true(node->origin[a] + (float)node->qmax[a][k] * node->step[a] >= hi[a]);
    }
    return box;
}

// Every child's decoded box holds every corner of every triangle under it (the bytes round outward), and every
// leaf and every slot is reached.
static void test_mesh_quantised_boxes_hold_their_contents(void **state) {
    (void)state;
    tread_vec3 *v;
    uint32_t *idx;
    tread_mesh_def def;
    make_bumpy(40, &v, &idx, &def);
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    int leaves = 0, slots = 0;
    for (int k = 0; k < TR_MESH_WIDTH; k++)
        if (tr_mesh_kind(&mesh.nodes[0], k) != TR_MESH_KIND_NONE) check_child(&mesh, 0, k, &leaves, &slots);
    assert_int_equal(leaves, mesh.leaf_count);
    assert_int_equal(slots, mesh.triangle_count);
    tr_mesh_destroy(&mesh);
    free(v);
    free(idx);
}

// Caller indices far apart within one node are kept whole (wide_ids): a grid whose triangles the caller listed in
// a shuffled order. Every slot still names its caller triangle (the corners match, each index once), and rays down
// onto the grid report the triangle under them.
static void test_mesh_far_apart_caller_indices_are_kept_whole(void **state) {
    (void)state;
    tread_vec3 *v;
    uint32_t *idx;
    tread_mesh_def def;
    make_grid(200, 0.25f, 0.0f, &v, &idx, &def); // 80,000 triangles: a node's may be far apart in a shuffled list
    int count = def.triangle_count;
    for (int t = count - 1; t > 0; t--) { // Fisher-Yates over whole triangles
        int u = (int)rng_float(0.0f, (float)t + 0.999f);
        for (int k = 0; k < 3; k++) {
            uint32_t tmp = idx[3 * t + k];
            idx[3 * t + k] = idx[3 * u + k];
            idx[3 * u + k] = tmp;
        }
    }
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    assert_true(mesh.wide_id_count > 0);
    char *seen = calloc((size_t)count, 1);
    assert_non_null(seen);
    for (int s = 0; s < count; s++) {
        tread_vec3 corner[3];
        uint8_t flags;
        uint32_t t = tr_mesh_slot(&mesh, s, corner, &flags);
        assert_true(t < (uint32_t)count && !seen[t]);
        seen[t] = 1;
        for (uint32_t k = 0; k < 3; k++) assert_memory_equal(&corner[k], &v[idx[3 * t + k]], sizeof corner[k]);
    }
    for (int q = 0; q < 200; q++) {
        float x = rng_float(0.1f, 49.9f), z = rng_float(0.1f, 49.9f);
        closest hit = {false, {0}};
        tr_cast c = ray_cast(tread_v3(x, 1.0f, z), tread_v3(0.0f, -2.0f, 0.0f));
        tr_mesh_cast(&mesh, &c, 1.0f, keep_closest, &hit);
        assert_true(hit.hit);
        // The triangle reported holds (x, z) in its corners' bounds.
        const uint32_t *tri = &idx[3 * hit.best.feature];
        const tread_vec3 *a = &v[tri[0]], *b = &v[tri[1]], *d = &v[tri[2]];
        assert_true(x >= fminf(a->x, fminf(b->x, d->x)) && x <= fmaxf(a->x, fmaxf(b->x, d->x)));
        assert_true(z >= fminf(a->z, fminf(b->z, d->z)) && z <= fmaxf(a->z, fmaxf(b->z, d->z)));
    }
    free(seen);
    tr_mesh_destroy(&mesh);
    free(v);
    free(idx);
}

// The casts' SSE node test and the scalar one (the WebAssembly build's) give the same bits on every node.
static void test_mesh_node_test_simd_matches_scalar(void **state) {
    (void)state;
    tread_vec3 *v;
    uint32_t *idx;
    tread_mesh_def def;
    make_bumpy(64, &v, &idx, &def); // about 160 nodes (leaves of up to 21 triangles, four a node)
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    int reached = 0;
    for (int q = 0; q < 400; q++) {
        tread_vec3 o = rng_vec(-1.0f, 26.0f), d = rng_vec(-3.0f, 3.0f);
        o.y = rng_float(-1.0f, 3.0f); // near the bumps (heights 0 .. 2 m)
        if (q % 4 == 0) d.x = 0.0f; // an axis-parallel direction: infinite inverse components
        tread_vec3 inv_d = tr_inverse_direction(d);
        const float oo[3] = {o.x, o.y, o.z}, inv[3] = {inv_d.x, inv_d.y, inv_d.z};
        const float grow[3] = {rng_float(0.0f, 0.6f), rng_float(0.0f, 1.2f), rng_float(0.0f, 0.6f)};
        float t_max = rng_float(0.1f, 1.0f);
        for (int n = 0; n < mesh.node_count; n++) {
            float smin[TR_MESH_WIDTH], smax[TR_MESH_WIDTH], vmin[TR_MESH_WIDTH], vmax[TR_MESH_WIDTH];
            tr_mesh_node_entry(&mesh.nodes[n], oo, grow, inv, t_max, false, smin, smax);
            tr_mesh_node_entry(&mesh.nodes[n], oo, grow, inv, t_max, true, vmin, vmax);
            assert_memory_equal(smin, vmin, sizeof smin);
            assert_memory_equal(smax, vmax, sizeof smax);
            for (int k = 0; k < TR_MESH_WIDTH; k++)
                reached += tr_mesh_kind(&mesh.nodes[n], k) != TR_MESH_KIND_NONE && smin[k] <= smax[k];
        }
    }
    assert_true(reached > 1000);
    tr_mesh_destroy(&mesh);
    free(v);
    free(idx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mesh_validate_reports_specific_errors),
        cmocka_unit_test(test_mesh_flat_grid_interior_edges_inactive),
        cmocka_unit_test(test_mesh_folded_edges_active_flat_inactive),
        cmocka_unit_test(test_mesh_one_sided_triangles_are_met_from_in_front_only),
        cmocka_unit_test(test_mesh_rays_match_brute_force),
        cmocka_unit_test(test_mesh_capsules_match_brute_force),
        cmocka_unit_test(test_mesh_contacts_match_brute_force),
        cmocka_unit_test(test_mesh_degenerate_triangles_never_hit),
        cmocka_unit_test(test_mesh_flat_floor_has_no_ghost_normals),
        cmocka_unit_test(test_mesh_quantised_boxes_hold_their_contents),
        cmocka_unit_test(test_mesh_far_apart_caller_indices_are_kept_whole),
        cmocka_unit_test(test_mesh_node_test_simd_matches_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
