// SPDX-License-Identifier: MIT
// Voxel grid shape: validation errors, DDA rays and capsule casts against every solid cell as a box, seam
// normals (only exposed faces), and no ghost normals on a flat voxel floor.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "world/voxels.h"

#include "shape_test_support.h"

// ---- validation --------------------------------------------------------------------------------------------

static void test_voxels_validate_reports_specific_errors(void **state) {
    (void)state;
    uint8_t solid[8] = {1, 0, 1, 0, 1, 0, 1, 0};
    tread_voxels_def def = {2, 2, 2, 0.5f, solid};
    assert_int_equal(tr_voxels_validate(&def), TREAD_OK);
    assert_int_equal(tr_voxels_validate(NULL), TREAD_ERR_NULL_ARGUMENT);
    tread_voxels_def d = def;
    d.count_y = 0;
    assert_int_equal(tr_voxels_validate(&d), TREAD_ERR_INVALID_MESH);
    assert_non_null(strstr(tread_error_message(), "voxels.count_y = 0"));
    d = def, d.count_x = 100000, d.count_y = 100000;
    assert_int_equal(tr_voxels_validate(&d), TREAD_ERR_INVALID_MESH);
    d = def, d.cell_size = 0.0f;
    assert_int_equal(tr_voxels_validate(&d), TREAD_ERR_INVALID_SHAPE);
    d = def, d.cell_size = NAN;
    assert_int_equal(tr_voxels_validate(&d), TREAD_ERR_NOT_FINITE);
    d = def, d.solid = NULL;
    assert_int_equal(tr_voxels_validate(&d), TREAD_ERR_NULL_ARGUMENT);
}

// ---- brute force: every solid cell as a box in its centre frame ------------------------------------------------

// The contract for rays along cell borders: a ray whose whole length stays within the feature tolerance of a
// cell face's plane runs on it (else rounding in the centre frame puts it just outside the cells on both sides).
static void on_faces(tr_cast *local, float half) {
    float *o[3] = {&local->p0.x, &local->p0.y, &local->p0.z}, *d[3] = {&local->d.x, &local->d.y, &local->d.z};
    for (int a = 0; a < 3; a++)
        for (int side = -1; side <= 1; side += 2) {
            float plane = (float)side * half;
            if (fabsf(*o[a] - plane) <= TR_FEATURE_TOLERANCE && fabsf(*o[a] + *d[a] - plane) <= TR_FEATURE_TOLERANCE) *o[a] = plane, *d[a] = 0.0f;
        }
    local->p1 = local->p0;
}

static closest brute_cast(const tr_voxels *vox, const tr_cast *c) {
    closest best = {false, {0}};
    float s = vox->cell_size, half = 0.5f * s;
    for (int k = 0; k < vox->count_z; k++) {
        for (int j = 0; j < vox->count_y; j++) {
            for (int i = 0; i < vox->count_x; i++) {
                int index = (k * vox->count_y + j) * vox->count_x + i;
                if (!vox->solid[index]) continue;
                tread_vec3 centre = tread_v3(((float)i + 0.5f) * s, ((float)j + 0.5f) * s, ((float)k + 0.5f) * s);
                tr_cast local = *c;
                local.p0 = tread_v3_sub(c->p0, centre);
                local.p1 = tread_v3_sub(c->p1, centre);
                if (c->is_ray) on_faces(&local, half);
                tr_feature_hit hit;
                if (!tr_cast_box(&local, tread_v3(half, half, half), 1.0f, &hit)) continue;
                hit.feature = (uint32_t)index;
                if (!best.hit || hit.t < best.best.t) best.best = hit, best.hit = true;
            }
        }
    }
    return best;
}

// True when the cast starts overlapping or touching a solid cell. Casts from inside the solid are compared only
// for not missing the start: buried faces (a cell face against a solid neighbour) are not reported by design, while
// the brute force over independent boxes does report them.
static bool starts_in_solid(const tr_voxels *vox, const tr_cast *c) {
    float s = vox->cell_size, half = 0.5f * s;
    for (int k = 0; k < vox->count_z; k++)
        for (int j = 0; j < vox->count_y; j++)
            for (int i = 0; i < vox->count_x; i++) {
                if (!vox->solid[(k * vox->count_y + j) * vox->count_x + i]) continue;
                tread_vec3 centre = tread_v3(((float)i + 0.5f) * s, ((float)j + 0.5f) * s, ((float)k + 0.5f) * s);
                tr_feature_contact contact;
                if (tr_contact_box(tread_v3_sub(c->p0, centre), tread_v3_sub(c->p1, centre), c->r, tread_v3(half, half, half),
                                   TR_TOUCH_TOLERANCE, &contact))
                    return true;
            }
    return false;
}

static void random_grid(uint8_t **solid, tread_voxels_def *def) {
    def->count_x = 13, def->count_y = 7, def->count_z = 10;
    def->cell_size = 0.6f;
    int n = def->count_x * def->count_y * def->count_z;
    *solid = malloc((size_t)n);
    assert_non_null(*solid);
    for (int c = 0; c < n; c++) (*solid)[c] = rng_float(0.0f, 1.0f) < 0.25f;
    def->solid = *solid;
}

static void compare_with_brute_force(bool rays) {
    uint8_t *solid;
    tread_voxels_def def;
    random_grid(&solid, &def);
    assert_int_equal(tr_voxels_validate(&def), TREAD_OK);
    tr_voxels vox;
    assert_int_equal(tr_voxels_create(&vox, &def), TREAD_OK);
    int hits = 0, skipped = 0;
    for (int q = 0; q < 4000; q++) {
        tread_vec3 o = tread_v3(rng_float(-1.0f, 8.8f), rng_float(-1.0f, 5.2f), rng_float(-1.0f, 7.0f));
        tread_vec3 d = tread_v3_scale(tread_v3(rng_float(-1, 1), rng_float(-1, 1), rng_float(-1, 1)), rng_float(0.2f, 12.0f));
        if (q % 7 == 0) d.x = d.z = 0.0f;
        if (q % 11 == 0) d.y = 0.0f;
        if (q % 13 == 0) o = tread_v3((float)(int)o.x * 0.6f, o.y, (float)(int)o.z * 0.6f); // on cell borders
        tr_cast c = rays ? ray_cast(o, d) : capsule_cast(o, rng_float(0.0f, 0.8f), rng_float(0.05f, 0.5f), d);
        closest fast = {false, {0}};
        tr_voxels_cast(&vox, &c, 1.0f, keep_closest, &fast);
        closest slow = brute_cast(&vox, &c);
        if (starts_in_solid(&vox, &c)) {
            skipped++;
            continue;
        }
        if (fast.hit != slow.hit || (slow.hit && fabsf(fast.best.t - slow.best.t) > T_TOLERANCE)) {
            print_error("query %d: o (%.9g %.9g %.9g) d (%.9g %.9g %.9g): fast %d t=%.9g, slow %d t=%.9g\n", q,
                        (double)o.x, (double)o.y, (double)o.z, (double)d.x, (double)d.y, (double)d.z, fast.hit,
                        (double)fast.best.t, slow.hit, (double)slow.best.t);
            fail();
        }
        if (slow.hit) {
            hits++;
            assert_true(solid[fast.best.feature]);
            // Reported normals are unit and face the query (seam fixes keep them axis-aligned unit vectors).
            assert_true(fabsf(tread_v3_length(fast.best.normal) - 1.0f) < 1e-4f);
        }
    }
    assert_true(hits > 300 && skipped < 3000);
    tr_voxels_destroy(&vox);
    free(solid);
}

static void test_voxels_rays_match_brute_force(void **state) {
    (void)state;
    compare_with_brute_force(true);
}

static void test_voxels_capsules_match_brute_force(void **state) {
    (void)state;
    compare_with_brute_force(false);
}

static void test_voxels_contacts_match_brute_force(void **state) {
    (void)state;
    uint8_t *solid;
    tread_voxels_def def;
    random_grid(&solid, &def);
    tr_voxels vox;
    assert_int_equal(tr_voxels_create(&vox, &def), TREAD_OK);
    float half = 0.5f * def.cell_size;
    int total = 0;
    for (int q = 0; q < 2000; q++) {
        tread_vec3 centre = tread_v3(rng_float(-0.5f, 8.3f), rng_float(-0.5f, 4.7f), rng_float(-0.5f, 6.5f));
        float h = rng_float(0.0f, 0.8f), r = rng_float(0.1f, 0.6f), margin = rng_float(0.0f, 0.1f);
        tread_vec3 p0 = tread_v3(centre.x, centre.y - h, centre.z), p1 = tread_v3(centre.x, centre.y + h, centre.z);
        count_contacts = 0;
        tr_voxels_query_contacts(&vox, (tr_cast[]){contact_query(p0, p1, r)}, margin, count_contact, NULL);
        int slow = 0;
        for (int k = 0; k < def.count_z; k++)
            for (int j = 0; j < def.count_y; j++)
                for (int i = 0; i < def.count_x; i++) {
                    if (!solid[(k * def.count_y + j) * def.count_x + i]) continue;
                    tread_vec3 c = tread_v3(((float)i + 0.5f) * def.cell_size, ((float)j + 0.5f) * def.cell_size,
                                            ((float)k + 0.5f) * def.cell_size);
                    tr_feature_contact contact;
                    slow += tr_contact_box(tread_v3_sub(p0, c), tread_v3_sub(p1, c), r, tread_v3(half, half, half), margin,
                                           &contact);
                }
        assert_int_equal(count_contacts, slow);
        total += slow;
    }
    assert_true(total > 200);
    tr_voxels_destroy(&vox);
    free(solid);
}

// A lone cell's top edge is a real convex edge: its rounded normal stands.
static void test_voxels_real_edges_keep_rounded_normals(void **state) {
    (void)state;
    uint8_t solid[1] = {1};
    tread_voxels_def def = {1, 1, 1, 1.0f, solid};
    tr_voxels vox;
    assert_int_equal(tr_voxels_create(&vox, &def), TREAD_OK);
    // Centre beyond the +x face, falling onto the top edge.
    tr_cast c = capsule_cast(tread_v3(1.2f, 2.5f, 0.5f), 0.6f, 0.3f, tread_v3(0, -2.0f, 0));
    closest fast = {false, {0}};
    tr_voxels_cast(&vox, &c, 1.0f, keep_closest, &fast);
    assert_true(fast.hit);
    assert_true(fast.best.normal.x > 0.5f && fast.best.normal.y > 0.5f);
    tr_voxels_destroy(&vox);
}

// A step: the wall's face beside a floor seam stays the wall's; the floor beside it stays up.
static void test_voxels_floor_seam_beside_wall(void **state) {
    (void)state;
    // 3 x 2 x 1: floor row y = 0 solid, wall cell (2, 1) solid.
    uint8_t solid[6] = {1, 1, 1, 0, 0, 1};
    tread_voxels_def def = {3, 2, 1, 1.0f, solid};
    tr_voxels vox;
    assert_int_equal(tr_voxels_create(&vox, &def), TREAD_OK);
    // Sliding along the floor into the wall: hits the wall's -x face.
    tr_cast slide = capsule_cast(tread_v3(0.6f, 1.9f + 1e-3f, 0.5f), 0.6f, 0.3f, tread_v3(2.0f, 0, 0));
    closest fast = {false, {0}};
    tr_voxels_cast(&vox, &slide, 1.0f, keep_closest, &fast);
    assert_true(fast.hit);
    assert_true(fast.best.normal.x < -0.999f);
    // Landing on the floor right at the seam between cells 0 and 1.
    tr_cast land = capsule_cast(tread_v3(1.0f, 2.5f, 0.5f), 0.6f, 0.3f, tread_v3(0, -1.0f, 0));
    closest down = {false, {0}};
    tr_voxels_cast(&vox, &land, 1.0f, keep_closest, &down);
    assert_true(down.hit);
    assert_true(down.best.normal.y > 0.9999f && down.best.surface_normal.y > 0.9999f);
    tr_voxels_destroy(&vox);
}

static void vox_cast_adapter(const void *shape, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    tr_voxels_cast((const tr_voxels *)shape, c, t_max, fn, ctx);
}
static void vox_contacts_adapter(const void *shape, tread_vec3 p0, tread_vec3 p1, float r, float margin, tr_contact_fn *fn,
                                 void *ctx) {
    tr_voxels_query_contacts((const tr_voxels *)shape, (tr_cast[]){contact_query(p0, p1, r)}, margin, fn, ctx);
}

static void test_voxels_flat_floor_has_no_ghost_normals(void **state) {
    (void)state;
    // 100 x 3 x 100 cells of 1 m: the bottom two layers solid, so the floor top is at y = 2.
    enum { N = FLOOR_CELLS, H = 3 };
    uint8_t *solid = calloc(N * H * N, 1);
    assert_non_null(solid);
    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++) solid[(k * H + 0) * N + i] = solid[(k * H + 1) * N + i] = 1;
    tread_voxels_def def = {N, H, N, 1.0f, solid};
    tr_voxels vox;
    assert_int_equal(tr_voxels_create(&vox, &def), TREAD_OK);
    check_flat_floor(&vox, 2.0f, vox_cast_adapter, vox_contacts_adapter);
    tr_voxels_destroy(&vox);
    free(solid);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_voxels_validate_reports_specific_errors),
        cmocka_unit_test(test_voxels_rays_match_brute_force),
        cmocka_unit_test(test_voxels_capsules_match_brute_force),
        cmocka_unit_test(test_voxels_contacts_match_brute_force),
        cmocka_unit_test(test_voxels_real_edges_keep_rounded_normals),
        cmocka_unit_test(test_voxels_floor_seam_beside_wall),
        cmocka_unit_test(test_voxels_flat_floor_has_no_ghost_normals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
