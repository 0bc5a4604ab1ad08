// SPDX-License-Identifier: MIT
// Heightfield shape: validation errors, the documented triangle layout, queries against the same surface as an
// explicit triangle list, holes, and no ghost normals on a flat or tilted floor.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "world/heightfield.h"
#include "world/mesh.h"

#include "shape_test_support.h"

// ---- validation --------------------------------------------------------------------------------------------

static void test_heightfield_validate_reports_specific_errors(void **state) {
    (void)state;
    float h[6] = {0, 0, 0, 0, 0, 0};
    tread_heightfield_def def = {3, 2, 1.0f, 1.0f, h, NULL};
    assert_int_equal(tr_heightfield_validate(&def), TREAD_OK);
    assert_int_equal(tr_heightfield_validate(NULL), TREAD_ERR_NULL_ARGUMENT);
    tread_heightfield_def d = def;
    d.count_x = 1;
    assert_int_equal(tr_heightfield_validate(&d), TREAD_ERR_INVALID_MESH);
    assert_non_null(strstr(tread_error_message(), "heightfield.count_x = 1"));
    d = def, d.count_z = 0;
    assert_int_equal(tr_heightfield_validate(&d), TREAD_ERR_INVALID_MESH);
    d = def, d.spacing_x = 0.0f;
    assert_int_equal(tr_heightfield_validate(&d), TREAD_ERR_INVALID_SHAPE);
    d = def, d.spacing_z = -1.0f;
    assert_int_equal(tr_heightfield_validate(&d), TREAD_ERR_INVALID_SHAPE);
    d = def, d.spacing_z = NAN;
    assert_int_equal(tr_heightfield_validate(&d), TREAD_ERR_NOT_FINITE);
    d = def, d.heights = NULL;
    assert_int_equal(tr_heightfield_validate(&d), TREAD_ERR_NULL_ARGUMENT);
    float bad[6] = {0, 0, 0, 0, INFINITY, 0};
    d = def, d.heights = bad;
    assert_int_equal(tr_heightfield_validate(&d), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "heightfield.heights[4]"));
    float far[6] = {0, 0, 3.0e6f, 0, 0, 0};
    d = def, d.heights = far;
    assert_int_equal(tr_heightfield_validate(&d), TREAD_ERR_INVALID_MESH);
}

// ---- the reference: the same surface as an explicit triangle list ---------------------------------------------

typedef struct tri_list {
    int count;
    tread_vec3 (*corners)[3];
    uint32_t *ids;
    uint8_t *edges; // active edges as the mesh module finds them for the same triangles
} tri_list;

// Written from the header's description, independently of heightfield.c: cell (i, j) split along
// (i, j)-(i+1, j+1), two triangles with ids 2 * cell and 2 * cell + 1, holes skipped. Edge activity (which decides
// start-in-contact cases) comes from building the same triangles as a tr_mesh.
static tri_list explicit_triangles(const tread_heightfield_def *def) {
    int cx = def->count_x - 1, cz = def->count_z - 1, nx = def->count_x;
    tri_list l = {0, malloc((size_t)(2 * cx * cz) * sizeof *l.corners), malloc((size_t)(2 * cx * cz) * sizeof(uint32_t)),
                  malloc((size_t)(2 * cx * cz))};
    tread_vec3 *vertices = malloc((size_t)(nx * def->count_z) * sizeof(tread_vec3));
    uint32_t *indices = malloc((size_t)(6 * cx * cz) * sizeof(uint32_t));
    assert_true(l.corners && l.ids && l.edges && vertices && indices);
    for (int j = 0; j < def->count_z; j++)
        for (int i = 0; i < nx; i++)
            vertices[j * nx + i] = tread_v3((float)i * def->spacing_x, def->heights[j * nx + i], (float)j * def->spacing_z);
    for (int j = 0; j < cz; j++) {
        for (int i = 0; i < cx; i++) {
            int cell = j * cx + i;
            if (def->holes && def->holes[cell]) continue;
            uint32_t s00 = (uint32_t)(j * nx + i), s10 = s00 + 1, s01 = s00 + (uint32_t)nx, s11 = s01 + 1;
            uint32_t t[2][3] = {{s00, s11, s10}, {s00, s01, s11}};
            for (int k = 0; k < 2; k++) {
                for (int m = 0; m < 3; m++) {
                    l.corners[l.count][m] = vertices[t[k][m]];
                    indices[3 * l.count + m] = t[k][m];
                }
                l.ids[l.count++] = (uint32_t)(2 * cell + k);
            }
        }
    }
    tread_mesh_def mdef = {vertices, nx * def->count_z, indices, l.count, NULL};
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &mdef), TREAD_OK);
    for (int s = 0; s < mesh.triangle_count; s++) {
        tread_vec3 corners[3];
        uint8_t flags;
        uint32_t t = tr_mesh_slot(&mesh, s, corners, &flags);
        l.edges[t] = (uint8_t)(flags & 7u);
    }
    tr_mesh_destroy(&mesh);
    free(vertices);
    free(indices);
    return l;
}

static void free_list(tri_list *l) {
    free(l->corners);
    free(l->ids);
    free(l->edges);
}

static closest brute_cast(const tri_list *l, const tr_cast *c) {
    closest best = {false, {0}};
    for (int t = 0; t < l->count; t++) {
        tr_feature_hit hit;
        if (!tr_cast_triangle(c, l->corners[t][0], l->corners[t][1], l->corners[t][2], l->edges[t], 1.0f, &hit)) continue;
        hit.feature = l->ids[t];
        if (!best.hit || hit.t < best.best.t) best.best = hit, best.hit = true;
    }
    return best;
}

static void random_terrain(int nx, int nz, float **heights, uint8_t **holes, tread_heightfield_def *def) {
    *heights = malloc((size_t)(nx * nz) * sizeof(float));
    *holes = malloc((size_t)((nx - 1) * (nz - 1)));
    assert_non_null(*heights);
    assert_non_null(*holes);
    for (int i = 0; i < nx * nz; i++) (*heights)[i] = rng_float(-1.0f, 1.5f);
    for (int i = 0; i < (nx - 1) * (nz - 1); i++) (*holes)[i] = rng_float(0.0f, 1.0f) < 0.1f;
    def->count_x = nx;
    def->count_z = nz;
    def->spacing_x = 0.7f;
    def->spacing_z = 1.3f;
    def->heights = *heights;
    def->holes = *holes;
}

static void compare_with_brute_force(bool rays) {
    float *heights;
    uint8_t *holes;
    tread_heightfield_def def;
    random_terrain(24, 17, &heights, &holes, &def);
    assert_int_equal(tr_heightfield_validate(&def), TREAD_OK);
    tr_heightfield hf;
    assert_int_equal(tr_heightfield_create(&hf, &def), TREAD_OK);
    tri_list list = explicit_triangles(&def);
    int hits = 0;
    for (int q = 0; q < 4000; q++) {
        tread_vec3 o = tread_v3(rng_float(-2.0f, 18.0f), rng_float(-2.0f, 3.0f), rng_float(-2.0f, 23.0f));
        tread_vec3 d = tread_v3_scale(tread_v3(rng_float(-1, 1), rng_float(-1, 1), rng_float(-1, 1)), rng_float(0.2f, 15.0f));
        if (q % 7 == 0) d.x = d.z = 0.0f;  // vertical
        if (q % 11 == 0) d.y = 0.0f;       // horizontal
        if (q % 13 == 0) d.z = 0.0f;       // in an XY plane
        tr_cast c = rays ? ray_cast(o, d) : capsule_cast(o, rng_float(0.0f, 0.8f), rng_float(0.05f, 0.5f), d);
        closest fast = {false, {0}};
        tr_heightfield_cast(&hf, &c, 1.0f, keep_closest, &fast);
        closest slow = brute_cast(&list, &c);
        if (fast.hit != slow.hit || (slow.hit && fabsf(fast.best.t - slow.best.t) > T_TOLERANCE)) {
            print_error("query %d: fast %d t=%.9g, slow %d t=%.9g\n", q, fast.hit, (double)fast.best.t, slow.hit,
                        (double)slow.best.t);
            fail();
        }
        if (slow.hit) {
            hits++;
            if (fast.best.t < slow.best.t - 1e-7f || fast.best.t > slow.best.t + 1e-7f) continue; // a tie elsewhere
            assert_true(fast.best.feature < (uint32_t)(2 * 23 * 16));
            assert_true(holes[fast.best.feature / 2] == 0);
        }
    }
    assert_true(hits > 1000);
    free_list(&list);
    tr_heightfield_destroy(&hf);
    free(heights);
    free(holes);
}

static void test_heightfield_rays_match_triangle_list(void **state) {
    (void)state;
    compare_with_brute_force(true);
}

static void test_heightfield_capsules_match_triangle_list(void **state) {
    (void)state;
    compare_with_brute_force(false);
}

static void test_heightfield_contacts_match_triangle_list(void **state) {
    (void)state;
    float *heights;
    uint8_t *holes;
    tread_heightfield_def def;
    random_terrain(15, 12, &heights, &holes, &def);
    tr_heightfield hf;
    assert_int_equal(tr_heightfield_create(&hf, &def), TREAD_OK);
    tri_list list = explicit_triangles(&def);
    int total = 0;
    for (int q = 0; q < 2000; q++) {
        tread_vec3 centre = tread_v3(rng_float(-1.0f, 11.0f), rng_float(-1.5f, 2.5f), rng_float(-1.0f, 16.0f));
        float h = rng_float(0.0f, 0.8f), r = rng_float(0.1f, 0.6f), margin = rng_float(0.0f, 0.1f);
        tread_vec3 p0 = tread_v3(centre.x, centre.y - h, centre.z), p1 = tread_v3(centre.x, centre.y + h, centre.z);
        count_contacts = 0;
        tr_heightfield_query_contacts(&hf, (tr_cast[]){contact_query(p0, p1, r)}, margin, count_contact, NULL);
        int slow = 0;
        for (int t = 0; t < list.count; t++) {
            tr_feature_contact contact;
            slow += tr_contact_triangle(p0, p1, r, list.corners[t][0], list.corners[t][1], list.corners[t][2], list.edges[t], margin,
                                        &contact);
        }
        assert_int_equal(count_contacts, slow);
        total += slow;
    }
    assert_true(total > 200);
    free_list(&list);
    tr_heightfield_destroy(&hf);
    free(heights);
    free(holes);
}

static void test_heightfield_faces_up_and_holes_are_open(void **state) {
    (void)state;
    float h[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    uint8_t holes[4] = {0, 0, 0, 1}; // cell (1, 1) is a hole
    tread_heightfield_def def = {3, 3, 1.0f, 1.0f, h, holes};
    tr_heightfield hf;
    assert_int_equal(tr_heightfield_create(&hf, &def), TREAD_OK);
    for (int q = 0; q < 200; q++) {
        float x = rng_float(0.01f, 1.99f), z = rng_float(0.01f, 1.99f);
        // From below too: triangles are two-sided, the normal faces the ray's origin; surface normals face up.
        for (int side = 0; side < 2; side++) {
            tr_cast c = ray_cast(tread_v3(x, side ? -1.0f : 1.0f, z), tread_v3(0, side ? 2.0f : -2.0f, 0));
            closest fast = {false, {0}};
            tr_heightfield_cast(&hf, &c, 1.0f, keep_closest, &fast);
            bool in_hole = x > 1.0f && z > 1.0f;
            assert_int_equal(fast.hit, !in_hole);
            if (!fast.hit) continue;
            assert_true(fabsf(fast.best.t - 0.5f) < 1e-6f);
            assert_true(fast.best.normal.y == (side ? -1.0f : 1.0f));
            int cell = (int)z * 2 + (int)x;
            assert_int_equal(fast.best.feature / 2, (uint32_t)cell);
            // Triangle 2 * cell lies on the z < x side of the diagonal.
            float u = x - (float)(int)x, w = z - (float)(int)z;
            if (fabsf(u - w) > 1e-3f) assert_int_equal(fast.best.feature % 2, u > w ? 0u : 1u);
        }
    }
    tr_heightfield_destroy(&hf);
}

static void hf_cast_adapter(const void *shape, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    tr_heightfield_cast((const tr_heightfield *)shape, c, t_max, fn, ctx);
}
static void hf_contacts_adapter(const void *shape, tread_vec3 p0, tread_vec3 p1, float r, float margin, tr_contact_fn *fn,
                                void *ctx) {
    tr_heightfield_query_contacts((const tr_heightfield *)shape, (tr_cast[]){contact_query(p0, p1, r)}, margin, fn, ctx);
}

static void test_heightfield_flat_floor_has_no_ghost_normals(void **state) {
    (void)state;
    enum { N = FLOOR_CELLS + 1 };
    float *h = malloc(N * N * sizeof(float));
    assert_non_null(h);
    for (int i = 0; i < N * N; i++) h[i] = 2.0f;
    tread_heightfield_def def = {N, N, 1.0f, 1.0f, h, NULL};
    tr_heightfield hf;
    assert_int_equal(tr_heightfield_create(&hf, &def), TREAD_OK);
    check_flat_floor(&hf, 2.0f, hf_cast_adapter, hf_contacts_adapter);
    tr_heightfield_destroy(&hf);
    free(h);
}

// A sloped plane: all seams are flat, so even a tilted floor reports only its face normal.
static void test_heightfield_tilted_plane_seams_inactive(void **state) {
    (void)state;
    enum { N = 12 };
    float h[N * N];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) h[j * N + i] = 0.3f * (float)i + 0.1f * (float)j;
    tread_heightfield_def def = {N, N, 1.0f, 1.0f, h, NULL};
    tr_heightfield hf;
    assert_int_equal(tr_heightfield_create(&hf, &def), TREAD_OK);
    tread_vec3 face = tread_v3_normalize(tread_v3(-0.3f, 1.0f, -0.1f));
    for (int q = 0; q < 500; q++) {
        float x = (float)(int)rng_float(2.0f, 9.0f), z = rng_float(2.0f, 9.0f); // on x grid lines
        float ground = 0.3f * x + 0.1f * z;
        tr_cast c = capsule_cast(tread_v3(x, ground + 1.5f, z), 0.6f, 0.3f, tread_v3(0, -1.0f, 0));
        closest fast = {false, {0}};
        tr_heightfield_cast(&hf, &c, 1.0f, keep_closest, &fast);
        assert_true(fast.hit);
        assert_true(tread_v3_dot(fast.best.normal, face) >= COS_ONE_DEGREE);
    }
    tr_heightfield_destroy(&hf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heightfield_validate_reports_specific_errors),
        cmocka_unit_test(test_heightfield_faces_up_and_holes_are_open),
        cmocka_unit_test(test_heightfield_rays_match_triangle_list),
        cmocka_unit_test(test_heightfield_capsules_match_triangle_list),
        cmocka_unit_test(test_heightfield_contacts_match_triangle_list),
        cmocka_unit_test(test_heightfield_flat_floor_has_no_ghost_normals),
        cmocka_unit_test(test_heightfield_tilted_plane_seams_inactive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
