// SPDX-License-Identifier: MIT
// A heightfield's seams on the Bullet adapter, query by query against tread's own world: the same field (a flat half,
// where every cell's diagonal and shared border is a flat seam, and a rolling half, where they are real edges) built
// into both, and each backend's answers compared.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tread/backend.h"
#include "tread/tread.h"
#include "tread_bullet.h"

#define HF_COUNT 16       // samples along X and Z
#define HF_SPACING 0.5f   // metres between samples
#define HF_FLAT_COLUMNS 7 // samples i < this are at height 0 (the flat half); the rest roll
#define CAPSULE_RADIUS 0.3f
#define CAPSULE_HALF_HEIGHT 0.5f
// How far the capsule's bottom sinks below the ground for the sideways casts, metres: ten times the contract's touch
// tolerance, so that both engines see the start overlapping.
#define SINK 1.0e-3f
// Two hits agree in where they stop when the surfaces' gap there differs by at most this, metres: the contract's
// touch tolerance. Measured along the normal (the fractions' difference times the translation's part into the
// surface): a cast grazing a slope reaches it slowly, and 1e-5 m of gap there is a millimetre along the cast.
#define AGREE_DISTANCE 1.0e-4f
// Normals agree when their cosine is at least this (about 0.8 degrees): both engines' normals on a face are the face's;
// on a real edge both come from the closest points, GJK's to about 1e-4.
#define AGREE_COS 0.9999f

typedef struct pair {
    tread_world *tread;
    tread_bullet_world *bullet;
    tread_backend a, b; // tread's world, the adapter
    float heights[HF_COUNT * HF_COUNT];
} pair;

static float hf_height(int i, int j) {
    if (i < HF_FLAT_COLUMNS) return 0.0f;
    float x = (float)(i - HF_FLAT_COLUMNS) * HF_SPACING, z = (float)j * HF_SPACING;
    return 0.25f * (1.0f - cosf(1.3f * x)) + 0.1f * sinf(0.9f * z + 0.4f * x);
}

static void build(pair *p) {
    memset(p, 0, sizeof *p);
    for (int j = 0; j < HF_COUNT; ++j)
        for (int i = 0; i < HF_COUNT; ++i) p->heights[j * HF_COUNT + i] = hf_height(i, j);
    tread_body_def def = tread_body_def_default();
    def.shape.type = TREAD_SHAPE_HEIGHTFIELD;
    def.shape.heightfield.count_x = def.shape.heightfield.count_z = HF_COUNT;
    def.shape.heightfield.spacing_x = def.shape.heightfield.spacing_z = HF_SPACING;
    def.shape.heightfield.heights = p->heights;
    tread_world_def wd = tread_world_def_default();
    tread_body_id id;
    assert_int_equal(tread_world_create(&wd, &p->tread), TREAD_OK);
    assert_int_equal(tread_world_add_body(p->tread, &def, &id), TREAD_OK);
    assert_int_equal(tread_bullet_world_create(&p->bullet), TREAD_OK);
    assert_int_equal(tread_bullet_add_body(p->bullet, &def, &id), TREAD_OK);
    p->a = tread_world_backend(p->tread);
    p->b = tread_bullet_backend(p->bullet);
}

static void destroy(pair *p) {
    tread_world_destroy(p->tread);
    tread_bullet_world_destroy(p->bullet);
}

static tread_query_shape capsule(void) { return tread_query_capsule(CAPSULE_HALF_HEIGHT, CAPSULE_RADIUS, tread_v3(0, 1, 0)); }

static tread_shape_hit cast(const tread_backend *e, tread_vec3 from, tread_vec3 translation) {
    tread_query_shape s = capsule();
    tread_query_filter f = tread_query_filter_default();
    tread_shape_hit h;
    e->cast_shape(e->context, NULL, &s, from, translation, &f, &h);
    return h;
}

// Whether two hits agree: both missed, or both hit with the same gap left (AGREE_DISTANCE) and the same normal. Prints the first few that do not.
static bool agree(const char *what, tread_vec3 from, tread_vec3 translation, tread_shape_hit a, tread_shape_hit b, int *shown) {
    bool same = a.hit == b.hit;
    if (same && a.hit)
        same = fabsf((a.fraction - b.fraction) * tread_v3_dot(translation, a.normal)) <= AGREE_DISTANCE &&
               tread_v3_dot(a.normal, b.normal) >= AGREE_COS;
    if (!same && (*shown)++ < 8)
        print_message("%s from (%.3f %.3f %.3f) by (%.2f %.2f %.2f): tread %d %.5f (%.4f %.4f %.4f), Bullet %d %.5f (%.4f %.4f %.4f)\n", what,
                      (double)from.x, (double)from.y, (double)from.z, (double)translation.x, (double)translation.y, (double)translation.z,
                      a.hit, (double)a.fraction, (double)a.normal.x, (double)a.normal.y, (double)a.normal.z, b.hit, (double)b.fraction,
                      (double)b.normal.x, (double)b.normal.y, (double)b.normal.z);
    return same;
}

// A capsule sunk SINK into the flat half, its centre 2 cm along X from a cell's diagonal, cast across it: on tread's
// world the diagonal is a flat seam, so the start's contact has the face's normal, which a sideways cast does not press
// into: no hit. With every heightfield edge real the adapter met the diagonal as an edge, its normal tilted toward the
// capsule, and reported a hit at 0 that stopped the character on flat ground.
static void test_flat_diagonal_is_a_seam(void **state) {
    (void)state;
    pair p;
    build(&p);
    tread_vec3 from = tread_v3(2.0f * HF_SPACING + 0.27f, CAPSULE_HALF_HEIGHT + CAPSULE_RADIUS - SINK, 2.0f * HF_SPACING + 0.25f);
    tread_vec3 translation = tread_v3(-0.4f, 0.0f, 0.0f);
    tread_shape_hit a = cast(&p.a, from, translation), b = cast(&p.b, from, translation);
    assert_false(a.hit);
    assert_false(b.hit);
    // Its contacts there: the face's normal, up, on both triangles of the cell.
    tread_query_shape s = capsule();
    tread_query_filter f = tread_query_filter_default();
    tread_contact contacts[8];
    int count = 0;
    bool overflow = false;
    p.b.collect_contacts(p.b.context, NULL, &s, from, 0.0f, &f, contacts, 8, &count, &overflow);
    assert_true(count >= 2);
    for (int k = 0; k < count; ++k) assert_true(contacts[k].normal.y >= AGREE_COS);
    destroy(&p);
}

// Every backend answer over the field, tread's world and the adapter: capsules dropped onto a grid of points, then from
// where each lands, sunk SINK, cast sideways in eight directions.
static void test_queries_agree_with_tread(void **state) {
    (void)state;
    pair p;
    build(&p);
    int checks = 0, failures = 0, shown = 0;
    const float extent = (float)(HF_COUNT - 1) * HF_SPACING;
    for (float z = 0.6f; z < extent - 0.6f; z += 0.37f) {
        for (float x = 0.6f; x < extent - 0.6f; x += 0.37f) {
            tread_vec3 top = tread_v3(x, 3.0f, z), down = tread_v3(0.0f, -4.0f, 0.0f);
            tread_shape_hit a = cast(&p.a, top, down), b = cast(&p.b, top, down);
            ++checks;
            if (!agree("drop", top, down, a, b, &shown)) ++failures;
            if (!a.hit) continue;
            tread_vec3 rest = tread_v3_mad(top, a.fraction, down);
            rest.y -= SINK;
            for (int d = 0; d < 8; ++d) {
                float angle = 0.7853982f * (float)d;
                tread_vec3 side = tread_v3(0.4f * cosf(angle), 0.0f, 0.4f * sinf(angle));
                ++checks;
                if (!agree("slide", rest, side, cast(&p.a, rest, side), cast(&p.b, rest, side), &shown)) ++failures;
            }
        }
    }
    print_message("heightfield: %d queries, %d disagree\n", checks, failures);
    assert_true(checks > 500);
    assert_int_equal(failures, 0);
    destroy(&p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flat_diagonal_is_a_seam),
        cmocka_unit_test(test_queries_agree_with_tread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
