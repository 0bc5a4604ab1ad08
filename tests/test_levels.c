// SPDX-License-Identifier: MIT
// The level importer (tools/levels/) on small IBSP files built here byte by byte (no game data): brush faces with
// outward windings, faces hidden inside another solid brush dropped and partly hidden ones kept, patch
// tessellation to 16 units of flatness, spawns, hazards and skipped entities, every kind of corrupt file refused
// with a message naming what was wrong (and random corruption never crashing), and the walker's depth measure.
// The IBSP writer is level_builder.c; the movers' tests are test_levels_movers.c.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"
#include "walk.h"

#include "level_builder.h"

// ---- brushes --------------------------------------------------------------------------------------------------------

static void normal_of(const level *lv, int t, double n[3], double c[3]) {
    double p[3][3];
    for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 3; ++j) p[k][j] = lv->vertices[3 * lv->indices[3 * t + k] + (uint32_t)j];
    double e[3], f[3];
    for (int j = 0; j < 3; ++j) e[j] = p[1][j] - p[0][j], f[j] = p[2][j] - p[0][j], c[j] = (p[0][j] + p[1][j] + p[2][j]) / 3.0;
    n[0] = e[1] * f[2] - e[2] * f[1], n[1] = e[2] * f[0] - e[0] * f[2], n[2] = e[0] * f[1] - e[1] * f[0];
}

static void test_cube_faces_outward(void **state) {
    (void)state;
    box_brush cube = {{0, 0, 0}, {64, 64, 64}, SH_SOLID};
    size_t size;
    uint8_t *data = build_boxes(&cube, 1, &size);
    level lv;
    char err[256];
    assert_true(level_load_bsp_memory(data, size, "cube.bsp", &lv, err, sizeof err));
    assert_string_equal(lv.name, "cube");
    assert_int_equal(lv.triangle_count, 12);
    assert_int_equal(lv.faces_kept, 6);
    // Quake (32, 32, 32) is tread (1, 1, -1) metres: every face's normal points away from it.
    for (int t = 0; t < 12; ++t) {
        double n[3], c[3];
        normal_of(&lv, t, n, c);
        assert_true(n[0] * (c[0] - 1.0) + n[1] * (c[1] - 1.0) + n[2] * (c[2] + 1.0) > 0.0);
    }
    for (int v = 0; v < lv.vertex_count; ++v) {
        assert_true(lv.vertices[3 * v] >= 0.0f && lv.vertices[3 * v] <= 2.0f);
        assert_true(lv.vertices[3 * v + 1] >= 0.0f && lv.vertices[3 * v + 1] <= 2.0f);
        assert_true(lv.vertices[3 * v + 2] >= -2.0f && lv.vertices[3 * v + 2] <= 0.0f); // Quake y becomes tread -z
    }
    level_free(&lv);
    free(data);
}

static void test_hidden_faces(void **state) {
    (void)state;
    // A floor, a block standing on it (its bottom face lies wholly on the floor's top: hidden; the floor's top is only
    // partly under the block: kept), a block wholly inside the floor (all six faces hidden), a lava pool and a clip brush.
    box_brush boxes[5] = {{{0, 0, 0}, {256, 256, 16}, SH_SOLID},
                          {{32, 32, 16}, {64, 64, 48}, SH_SOLID},
                          {{100, 100, 2}, {120, 120, 10}, SH_SOLID},
                          {{300, 0, 0}, {400, 100, 8}, SH_LAVA},
                          {{-64, 0, 0}, {-32, 32, 32}, SH_CLIP}};
    size_t size;
    uint8_t *data = build_boxes(boxes, 5, &size);
    level lv;
    char err[256];
    assert_true(level_load_bsp_memory(data, size, "floor.bsp", &lv, err, sizeof err));
    assert_int_equal(lv.solid_brushes, 4); // lava is not solid
    assert_int_equal(lv.faces_hidden, 1 + 6);
    assert_int_equal(lv.faces_kept, 6 + 5 + 6);
    assert_int_equal(lv.hazard_count, 1);
    assert_int_equal(lv.hazards[0].kind, LEVEL_HAZARD_LAVA);
    assert_true(fabs(lv.hazards[0].lo[0] - 300.0 / 32.0) < 1e-9 && fabs(lv.hazards[0].hi[1] - 8.0 / 32.0) < 1e-9);
    int clip = 0;
    for (int t = 0; t < lv.triangle_count; ++t) clip += (lv.triangle_flags[t] & (LEVEL_TRI_PLAYERCLIP | LEVEL_TRI_NODRAW)) == (LEVEL_TRI_PLAYERCLIP | LEVEL_TRI_NODRAW);
    assert_int_equal(clip, 12);
    level_free(&lv);
    free(data);
}

// Two coincident brushes (a solid column and a player-clip copy of it, as oa_rpg3dm2 has): each lies wholly inside the
// other, and hiding every face inside another brush left no face of either (characters walked into the column).
// The first brush in the file keeps the shared faces; the copy's are hidden.
static void test_coincident_brushes_keep_one_copy(void **state) {
    (void)state;
    box_brush boxes[3] = {{{0, 0, 0}, {256, 256, 16}, SH_SOLID}, {{64, 64, 16}, {128, 128, 160}, SH_SOLID}, {{64, 64, 16}, {128, 128, 160}, SH_CLIP}};
    size_t size;
    uint8_t *data = build_boxes(boxes, 3, &size);
    level lv;
    char err[256];
    assert_true(level_load_bsp_memory(data, size, "column.bsp", &lv, err, sizeof err));
    assert_int_equal(lv.faces_kept, 6 + 5);     // the floor, the column but its bottom (on the floor)
    assert_int_equal(lv.faces_hidden, 1 + 6);   // the column's bottom, every face of the copy
    int clip = 0;
    for (int t = 0; t < lv.triangle_count; ++t) clip += (lv.triangle_flags[t] & LEVEL_TRI_PLAYERCLIP) != 0;
    assert_int_equal(clip, 0);
    level_free(&lv);
    free(data);
}

// ---- patches --------------------------------------------------------------------------------------------------------

static patch_def flat_patch(double bulge) {
    patch_def p = {3, 3, SH_PATCH, {{0}}};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            p.pts[r * 3 + c][0] = 64.0 * c;
            p.pts[r * 3 + c][1] = 64.0 * r;
            p.pts[r * 3 + c][2] = (c == 1 ? bulge : 0.0);
        }
    return p;
}

static int patch_triangles(const patch_def *p) {
    size_t size;
    uint8_t *data = build(NULL, 0, p, "", NULL, &size);
    level lv;
    char err[256];
    bool ok = level_load_bsp_memory(data, size, "patch.bsp", &lv, err, sizeof err);
    int n = ok ? lv.patch_triangles : -1;
    if (ok) {
        for (int t = 0; t < lv.triangle_count; ++t) assert_true(lv.triangle_flags[t] & LEVEL_TRI_PATCH);
        level_free(&lv);
    } else {
        assert_non_null(strstr(err, "no solid brush or patch"));
        n = 0;
    }
    free(data);
    return n;
}

static void test_patch_flatness(void **state) {
    (void)state;
    patch_def flat = flat_patch(0.0);
    assert_int_equal(patch_triangles(&flat), 2);
    // a - 2b + c = 2 * 128 = 256 units along z: n = ceil(sqrt(256 / 64)) = 2 steps across, 1 along: 4 triangles.
    patch_def arch = flat_patch(128.0);
    assert_int_equal(patch_triangles(&arch), 4);
    // 1024: n = 4, within 16 units: 1024 / (4 * 16) = 16 <= 16.
    patch_def tall = flat_patch(512.0);
    assert_int_equal(patch_triangles(&tall), 8);
    patch_def ghost = flat_patch(128.0);
    ghost.shader = SH_PATCH_NONSOLID; // SURF_NONSOLID: not collision
    assert_int_equal(patch_triangles(&ghost), 0);
}

// ---- entities -------------------------------------------------------------------------------------------------------

static void test_entities(void **state) {
    (void)state;
    box_brush floor = {{-512, -512, -16}, {512, 512, 0}, SH_SOLID};
    const char *entities = "{\n\"classname\" \"worldspawn\"\n}\n"
                           "{ \"classname\" \"info_player_deathmatch\" \"origin\" \"64 -32 24\" \"angle\" \"90\" }\n"
                           "// a comment\n{ \"classname\" \"info_player_start\" \"origin\" \"0 0 24\" }\n"
                           "{ \"classname\" \"trigger_hurt\" \"model\" \"*1\" \"dmg\" \"1000\" }\n"
                           "{ \"classname\" \"func_door\" \"model\" \"*1\" \"angle\" \"-1\" }\n"
                           "{ \"classname\" \"trigger_push\" \"target\" \"t1\" }\n{ \"classname\" \"func_door\" }\n";
    double model1[6] = {0, 0, -64, 32, 64, -32};
    size_t size;
    uint8_t *data = build(&floor, 1, NULL, entities, model1, &size);
    level lv;
    char err[256];
    assert_true(level_load_bsp_memory(data, size, "ents.bsp", &lv, err, sizeof err));
    assert_int_equal(lv.spawn_count, 2);
    assert_true(lv.spawns[0].deathmatch && !lv.spawns[1].deathmatch);
    assert_true(fabs(lv.spawns[0].origin[0] - 2.0) < 1e-12 && fabs(lv.spawns[0].origin[2] - 1.0) < 1e-12);
    assert_true(fabs(lv.spawns[0].feet[1] - 9.0 / 32.0) < 1e-12); // 24 + 9 - 24 units above the floor's top
    assert_true(fabs(lv.spawns[0].angle_degrees - 90.0) < 1e-12);
    assert_int_equal(lv.hazard_count, 1);
    assert_int_equal(lv.hazards[0].kind, LEVEL_HAZARD_TRIGGER_HURT);
    assert_true(fabs(lv.hazards[0].lo[1] + 2.0) < 1e-12 && fabs(lv.hazards[0].hi[2] - 0.0) < 1e-12 && fabs(lv.hazards[0].lo[2] + 2.0) < 1e-12);
    assert_int_equal(lv.skipped_count, 3);
    // The door with a brush model is a mover (run, not skipped); the one without and the pad with no model stay skipped.
    assert_int_equal(lv.mover_count, 1);
    assert_int_equal(lv.skip_class_count, 2);
    assert_string_equal(lv.skip_counts[0].classname, "trigger_push");
    assert_string_equal(lv.skip_counts[1].classname, "func_door");
    assert_int_equal(lv.skip_counts[1].count, 1);
    assert_int_equal(lv.skipped[0].model, 1);
    assert_int_equal(lv.skipped[0].pair_count, 3);
    level_free(&lv);
    free(data);
}

// ---- jump pads and teleporters ---------------------------------------------------------------------------------------

// A pad (model *1: 64 x 64 x 16 units on the floor, centre (0, 0, 8)) aimed 8 m up and 8 m along +x; a teleporter
// on the same volume to a destination facing Quake's +y; one pad aimed below itself and one teleporter naming a
// target_teleporter's spot: those two stay skipped.
static void test_triggers(void **state) {
    (void)state;
    box_brush floor = {{-512, -512, -16}, {512, 512, 0}, SH_SOLID};
    const char *entities = "{ \"classname\" \"worldspawn\" }\n"
                           "{ \"classname\" \"info_player_deathmatch\" \"origin\" \"0 0 24\" }\n"
                           "{ \"classname\" \"trigger_push\" \"model\" \"*1\" \"target\" \"apex\" }\n"
                           "{ \"classname\" \"target_position\" \"targetname\" \"apex\" \"origin\" \"256 0 264\" }\n"
                           "{ \"classname\" \"trigger_teleport\" \"model\" \"*1\" \"target\" \"dest\" }\n"
                           "{ \"classname\" \"misc_teleporter_dest\" \"targetname\" \"dest\" \"origin\" \"128 -64 40\" \"angle\" \"90\" }\n"
                           "{ \"classname\" \"trigger_push\" \"model\" \"*1\" \"target\" \"low\" }\n"
                           "{ \"classname\" \"target_position\" \"targetname\" \"low\" \"origin\" \"0 0 -64\" }\n"
                           "{ \"classname\" \"trigger_teleport\" \"model\" \"*1\" \"target\" \"spot\" }\n"
                           "{ \"classname\" \"target_teleporter\" \"targetname\" \"spot\" \"origin\" \"0 0 64\" }\n";
    double model1[6] = {-32, -32, 0, 32, 32, 16};
    size_t size;
    uint8_t *data = build(&floor, 1, NULL, entities, model1, &size);
    level lv;
    char err[256];
    assert_true(level_load_bsp_memory(data, size, "triggers.bsp", &lv, err, sizeof err));
    assert_int_equal(lv.trigger_count, 2);
    const level_trigger *pad = &lv.triggers[0], *tele = &lv.triggers[1];
    assert_int_equal(pad->kind, LEVEL_TRIGGER_PUSH);
    // 8 m up at 25 m/s^2: 0.8 s to the apex, 20 m/s up, 8 m / 0.8 s = 10 m/s along tread's +x.
    assert_true(fabs(pad->launch[0] - 10.0) < 1e-9 && fabs(pad->launch[1] - 20.0) < 1e-9 && fabs(pad->launch[2]) < 1e-9);
    assert_int_equal(tele->kind, LEVEL_TRIGGER_TELEPORT);
    // Quake (128, -64, 40) lifted 1 unit, feet 24 below: tread (4, 17/32, 2); leaving along Quake's +y (tread's -z) at 400 units/s.
    assert_true(fabs(tele->feet[0] - 4.0) < 1e-12 && fabs(tele->feet[1] - 17.0 / 32.0) < 1e-12 && fabs(tele->feet[2] - 2.0) < 1e-12);
    assert_true(fabs(tele->exit[0]) < 1e-9 && fabs(tele->exit[1]) < 1e-12 && fabs(tele->exit[2] + 12.5) < 1e-9);
    assert_true(fabs(tele->lo[1]) < 1e-12 && fabs(tele->hi[1] - 0.5) < 1e-12);
    // Skipped still: the pad aimed below itself, the teleporter to a target_teleporter (and that entity); the pad and
    // teleporter that run and their targets are counted no more.
    assert_int_equal(lv.skip_class_count, 4);
    int pushes = 0, teleports = 0, positions = 0, others = 0;
    for (int i = 0; i < lv.skip_class_count; ++i) {
        const level_skip_count *c = &lv.skip_counts[i];
        if (!strcmp(c->classname, "trigger_push")) pushes = c->count;
        else if (!strcmp(c->classname, "trigger_teleport")) teleports = c->count;
        else if (!strcmp(c->classname, "target_position")) positions = c->count;
        else others += c->count;
    }
    assert_int_equal(pushes, 1);
    assert_int_equal(teleports, 1);
    assert_int_equal(positions, 1);
    assert_int_equal(others, 1);
    level_free(&lv);
    free(data);
}

// The launch's flight peaks at the target for any pad and target above it: at t = v_up / g, the position is the target.
static void test_jump_pad_apex(void **state) {
    (void)state;
    const double g = 25.0;
    const double cases[][6] = {{0, 0, 0, 0, 8, 0}, {1, 2, 3, -5, 2.5, 7}, {10, -3, 4, 10, -2.9, 4}, {0, 0, 0, 30, 0.2, -40}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const double *c = cases[i], *t = cases[i] + 3;
        double v[3];
        assert_true(level_jump_pad_launch(c, t, g, v));
        double time = v[1] / g;
        double at[3] = {c[0] + v[0] * time, c[1] + v[1] * time - 0.5 * g * time * time, c[2] + v[2] * time};
        for (int k = 0; k < 3; ++k) assert_true(fabs(at[k] - t[k]) < 1e-9);
    }
    double centre[3] = {0, 1, 0}, level_away[3] = {5, 1, 0}, below[3] = {0, 0, 0}, v[3];
    assert_false(level_jump_pad_launch(centre, level_away, g, v));
    assert_false(level_jump_pad_launch(centre, below, g, v));
}

// ---- corrupt files --------------------------------------------------------------------------------------------------

static void expect_error(uint8_t *data, size_t size, const char *words) {
    level lv;
    char err[256] = "";
    assert_false(level_load_bsp_memory(data, size, "bad.bsp", &lv, err, sizeof err));
    if (!strstr(err, words)) fail_msg("expected \"%s\" in: %s", words, err);
    level_free(&lv);
}

static void put_le(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

static void test_corrupt_files(void **state) {
    (void)state;
    box_brush boxes[2] = {{{0, 0, 0}, {64, 64, 64}, SH_SOLID}, {{0, 0, 64}, {32, 32, 96}, SH_CLIP}};
    patch_def arch = flat_patch(128.0);
    size_t size;
    uint8_t *good = build(boxes, 2, &arch, "{ \"classname\" \"info_player_start\" \"origin\" \"0 0 24\" }", NULL, &size);
    uint8_t *d = malloc(size);
#define FRESH() memcpy(d, good, size)
    FRESH();
    expect_error(d, 10, "shorter than an IBSP header");
    FRESH(), d[0] = 'X';
    expect_error(d, size, "not an IBSP file");
    FRESH(), d[4] = 47;
    expect_error(d, size, "version 47");
    FRESH(), put_le(d + 8 + 8 * 2 + 4, (uint32_t)size); // planes' length past the end
    expect_error(d, size, "lump 2 (planes)");
    FRESH(), put_le(d + 8 + 8 * 8 + 4, 13); // brushes' length not a whole record
    expect_error(d, size, "whole number of 12-byte records");
    size_t sides = 0;
    for (int i = 0; i < 4; ++i) sides |= (size_t)d[8 + 8 * 9 + i] << (8 * i);
    FRESH(), put_le(d + sides, 999); // side 0's plane
    expect_error(d, size, "brushside 0: planeNum = 999");
    size_t brushes = 0;
    for (int i = 0; i < 4; ++i) brushes |= (size_t)d[8 + 8 * 8 + i] << (8 * i);
    FRESH(), put_le(d + brushes + 4, 100); // brush 0's side count
    expect_error(d, size, "brush 0: sides 0 + 100");
    size_t surfaces = 0;
    for (int i = 0; i < 4; ++i) surfaces |= (size_t)d[8 + 8 * 13 + i] << (8 * i);
    FRESH(), put_le(d + surfaces + 96, 4); // an even patch width
    expect_error(d, size, "surface 0: a patch of 4 x 3");
    size_t models = 0;
    for (int i = 0; i < 4; ++i) models |= (size_t)d[8 + 8 * 7 + i] << (8 * i);
    FRESH(), put_le(d + models + 32, 5); // model 0's first brush
    expect_error(d, size, "model 0: brushes 5 + 2");
    size_t entities = 0;
    for (int i = 0; i < 4; ++i) entities |= (size_t)d[8 + i] << (8 * i);
    FRESH(), d[entities] = 'x';
    expect_error(d, size, "entity lump, line 1: expected '{'");
    // Random corruption: refused or read, never a crash (the sanitizer build watches every access).
    uint64_t seed = 7;
    for (int round = 0; round < 3000; ++round) {
        FRESH();
        for (int k = 0; k < 1 + round % 8; ++k) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            d[(seed >> 33) % size] = (uint8_t)(seed >> 20);
        }
        level lv;
        char err[256];
        if (level_load_bsp_memory(d, size, "fuzz.bsp", &lv, err, sizeof err)) level_free(&lv);
        else assert_true(strlen(err) > 0);
    }
#undef FRESH
    free(d);
    free(good);
}

// ---- the walker's depth ---------------------------------------------------------------------------------------------

static void test_walk_depth(void **state) {
    (void)state;
    box_brush cube = {{0, 0, 0}, {64, 64, 64}, SH_SOLID}; // tread: x [0, 2], y [0, 2], z [-2, 0]
    size_t size;
    uint8_t *data = build_boxes(&cube, 1, &size);
    level lv;
    walk_grid g;
    walk_query q;
    char err[256];
    assert_true(level_load_bsp_memory(data, size, "cube.bsp", &lv, err, sizeof err));
    assert_true(walk_grid_build(&g, &lv, err, sizeof err));
    assert_true(walk_query_init(&q, &g));
    tread_character_settings s = tread_character_settings_default();
    s.shape = TREAD_QUERY_BOX, s.radius = 0.5f, s.height = 1.0f;
    soak_shape on_top = soak_shape_at(&s, soak_v3_make(1.0, 1.95, -1.0)); // 5 cm into the top face
    assert_true(fabs(walk_depth(&g, &q, &on_top, NULL) - 0.05) < 1e-9);
    soak_shape above = soak_shape_at(&s, soak_v3_make(1.0, 2.01, -1.0));
    assert_true(walk_depth(&g, &q, &above, NULL) == 0.0);
    s.shape = TREAD_QUERY_CAPSULE, s.height = 1.8f;
    soak_shape side = soak_shape_at(&s, soak_v3_make(2.4, 0.1, -1.0)); // 10 cm into the +x face
    assert_true(fabs(walk_depth(&g, &q, &side, NULL) - 0.1) < 1e-6);
    walk_query_free(&q);
    walk_grid_free(&g);
    level_free(&lv);
    free(data);
}

// The ground check (walk_check.c) accepts a round bottom held in a crevasse only where the level holds it: a capsule
// in a slot 0.75 m wide (narrower than its 0.9375 m), resting on the slot's two rims 53 degrees off straight down,
// is on ground; the same capsule on one rim with nothing across is off its bottom.
static int ground_verdicts(const box_brush *boxes, int count, const tread_character *ch) {
    size_t size;
    uint8_t *data = build_boxes(boxes, count, &size);
    level lv;
    walk_grid g;
    walk_query q;
    char err[256];
    assert_true(level_load_bsp_memory(data, size, "slot.bsp", &lv, err, sizeof err));
    assert_true(walk_grid_build(&g, &lv, err, sizeof err));
    assert_true(walk_query_init(&q, &g));
    tread_move_result res;
    memset(&res, 0, sizeof res);
    res.position = ch->position, res.ground = ch->ground;
    walk_frame_facts f;
    memset(&f, 0, sizeof f);
    f.before = f.after = ch, f.result = &res, f.dt = 1.0 / 60.0, f.fresh = true, f.level_body = ch->ground.body;
    walk_check_state st;
    memset(&st, 0, sizeof st);
    walk_verdict v[WALK_KIND_COUNT];
    int n = walk_check_frame(&g, &q, &f, &st, v), ground = 0;
    for (int i = 0; i < n; ++i) ground += v[i].kind == WALK_GROUND;
    walk_query_free(&q);
    walk_grid_free(&g);
    level_free(&lv);
    free(data);
    return ground;
}

static void test_walk_ground_crevasse(void **state) {
    (void)state;
    // tread x = qx / 32, y = qz / 32: rims at x = 2 and 2.75, y = 1.
    const box_brush slot[2] = {{{0, -64, 0}, {64, 64, 32}, SH_SOLID}, {{88, -64, 0}, {152, 64, 32}, SH_SOLID}};
    tread_character_settings s = tread_character_settings_default();
    s.shape = TREAD_QUERY_CAPSULE, s.radius = 0.46875f, s.height = 1.75f;
    tread_character ch;
    float across = 0.375f, reach = s.radius + 0.5f * s.skin;
    float centre_y = 1.0f + sqrtf(reach * reach - across * across);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(2.375f, centre_y - s.radius, 0)), TREAD_OK);
    ch.ground.state = TREAD_GROUND_ON_GROUND;
    ch.ground.point = tread_v3(2.0f, 1.0f, 0);
    ch.ground.normal = tread_v3(0, 1, 0);
    ch.ground.distance = 0.0f;
    assert_int_equal(ground_verdicts(slot, 2, &ch), 0);
    assert_int_equal(ground_verdicts(slot, 1, &ch), 1); // one rim only: a ridge, not a crevasse
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_faces_outward), cmocka_unit_test(test_hidden_faces), cmocka_unit_test(test_coincident_brushes_keep_one_copy), cmocka_unit_test(test_patch_flatness),
        cmocka_unit_test(test_entities),           cmocka_unit_test(test_corrupt_files), cmocka_unit_test(test_walk_depth), cmocka_unit_test(test_walk_ground_crevasse),
        cmocka_unit_test(test_triggers),           cmocka_unit_test(test_jump_pad_apex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
