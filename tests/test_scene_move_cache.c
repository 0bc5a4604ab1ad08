// SPDX-License-Identifier: MIT
// The move cache (tread_move_cache, tread_batch_def::move_cache): a move gives the same result, bit for bit, with a
// cache or without one, over the shipped scenes and generated cases, single moves and batches; every change to the
// world bumps its revision (a change that forgot to would leave a move taking stale bodies); a cache filled before a
// change that puts a body where a move goes is not taken after it; the API refuses what it must.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "tread_scene.h"
#include "world/world_query.h"

// Frames of each scene and case compared (the first ones: the checks are the suite's, this is only identity).
#define FRAMES 240
// Tiny static bodies far below every scene, so that its world has a tree (a world of a few bodies keeps them in a
// list, which moves scan without a cache): the cache is then what the moves use.
#define FILLERS 24

static void add_fillers(tread_world *w) {
    for (int i = 0; i < FILLERS; ++i) {
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_box(tread_v3(0.1f, 0.1f, 0.1f));
        def.transform.p = tread_v3(3.0f * (float)i, -900.0f, 0.0f);
        tread_body_id id;
        assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    }
}

static void expect_same(const char *what, int frame, int c, const tread_character *a, const tread_character *b, const tread_move_result *ra,
                        const tread_move_result *rb) {
    if (memcmp(a, b, sizeof *a) != 0 || memcmp(ra, rb, sizeof *ra) != 0)
        fail_msg("%s: frame %d, character %d: with the cache at (%.9g, %.9g, %.9g), without at (%.9g, %.9g, %.9g)", what, frame, c,
                 (double)b->position.x, (double)b->position.y, (double)b->position.z, (double)a->position.x, (double)a->position.y,
                 (double)a->position.z);
}

// One scene in its runner's world (bodies on paths, dynamic bodies, advance), its characters moved by the runner one
// by one; beside them, copies of its characters driven by the course's frame loop: single moves without and with a
// cache, two batches without and with caches, and two more whose characters do not meet (their masks leave out the
// batch's layer). Every frame, each pair must hold the same bytes.
static void compare_scene(const scene *s, const run_options *base, const char *what) {
    run_options o = base ? *base : (run_options){0};
    o.characters_collide = -1;
    scene_run *run = NULL;
    run_trace trace;
    char message[512] = "";
    int frames = (int)scene_frame_count(s->duration, s->dt);
    if (frames > FRAMES) frames = FRAMES;
    if (!scene_run_begin(s, &o, frames, &trace, &run, message, sizeof message)) fail_msg("%s: %s", what, message);
    tread_world *w = scene_run_world(run);
    add_fillers(w);
    int n = s->character_count;
    size_t bytes = sizeof(tread_character) * (size_t)n;
    tread_character *plain = malloc(bytes), *cached = malloc(bytes), *batch_plain = malloc(bytes), *batch_cached = malloc(bytes);
    tread_character *apart_plain = malloc(bytes), *apart_cached = malloc(bytes);
    tread_move_result *rp = malloc(sizeof *rp * (size_t)n), *rc = malloc(sizeof *rc * (size_t)n);
    tread_move_result *bp = malloc(sizeof *bp * (size_t)n), *bc = malloc(sizeof *bc * (size_t)n);
    tread_vec3 *v = malloc(sizeof *v * (size_t)n), *vb = malloc(sizeof *vb * (size_t)n);
    tread_move_cache *caches = malloc(sizeof *caches * (size_t)n);
    tread_vec3 *va = malloc(sizeof *va * (size_t)n);
    assert_true(plain && cached && batch_plain && batch_cached && apart_plain && apart_cached && rp && rc && bp && bc && v && vb && va && caches);
    memcpy(plain, trace.final, bytes);
    memcpy(cached, trace.final, bytes);
    memcpy(batch_plain, trace.final, bytes);
    memcpy(batch_cached, trace.final, bytes);
    memcpy(apart_plain, trace.final, bytes);
    uint32_t layer = 1u << tread_batch_def_default().character_layer;
    for (int c = 0; c < n; ++c) {
        tread_character_settings alone = apart_plain[c].settings;
        alone.collide_mask &= ~layer;
        alone.ground_mask &= ~layer;
        assert_int_equal(tread_character_set_settings(NULL, &apart_plain[c], &alone), TREAD_OK);
    }
    memcpy(apart_cached, apart_plain, bytes);
    for (int c = 0; c < n; ++c) caches[c] = tread_move_cache_default();
    tread_batch_def def = tread_batch_def_default();
    def.threads = 1;
    def.move_cache = false;
    tread_batch *without = NULL, *with = NULL, *apart_without = NULL, *apart_with = NULL;
    assert_int_equal(tread_batch_create(&def, &without), TREAD_OK);
    assert_int_equal(tread_batch_create(&def, &apart_without), TREAD_OK);
    def.move_cache = true;
    assert_int_equal(tread_batch_create(&def, &with), TREAD_OK);
    assert_int_equal(tread_batch_create(&def, &apart_with), TREAD_OK);
    for (int f = 0; f < frames; ++f) {
        if (!scene_run_advance(run, message, sizeof message)) fail_msg("%s: %s", what, message);
        scene_run_move(run);
        float t = (float)f * s->dt;
        for (int c = 0; c < n; ++c) {
            const tread_character *p = &plain[c], *q = &batch_plain[c];
            v[c] = scene_course_velocity(s, c, t, s->dt, p->position, p->velocity, p->settings.up, p->ground.state == TREAD_GROUND_ON_GROUND);
            vb[c] = scene_course_velocity(s, c, t, s->dt, q->position, q->velocity, q->settings.up, q->ground.state == TREAD_GROUND_ON_GROUND);
            const tread_character *u = &apart_plain[c];
            va[c] = scene_course_velocity(s, c, t, s->dt, u->position, u->velocity, u->settings.up, u->ground.state == TREAD_GROUND_ON_GROUND);
            tread_move_options none = tread_move_options_default(), mine = tread_move_options_default();
            mine.cache = &caches[c];
            tread_result a = tread_character_move_with(w, &plain[c], v[c], s->dt, &none, &rp[c]);
            tread_result b = tread_character_move_with(w, &cached[c], v[c], s->dt, &mine, &rc[c]);
            assert_int_equal(a, b);
            expect_same(what, f, c, &plain[c], &cached[c], &rp[c], &rc[c]);
        }
        tread_result a = tread_batch_move(without, w, batch_plain, vb, n, s->dt, bp);
        tread_result b = tread_batch_move(with, w, batch_cached, vb, n, s->dt, bc);
        assert_int_equal(a, b);
        for (int c = 0; c < n; ++c) expect_same(what, f, c, &batch_plain[c], &batch_cached[c], &bp[c], &bc[c]);
        a = tread_batch_move(apart_without, w, apart_plain, va, n, s->dt, bp);
        b = tread_batch_move(apart_with, w, apart_cached, va, n, s->dt, bc);
        assert_int_equal(a, b);
        for (int c = 0; c < n; ++c) expect_same(what, f, c, &apart_plain[c], &apart_cached[c], &bp[c], &bc[c]);
    }
    tread_batch_destroy(without);
    tread_batch_destroy(with);
    tread_batch_destroy(apart_without);
    tread_batch_destroy(apart_with);
    scene_run_end(run);
    run_trace_free(&trace);
    free(plain), free(cached), free(batch_plain), free(batch_cached), free(apart_plain), free(apart_cached);
    free(rp), free(rc), free(bp), free(bc), free(v), free(vb), free(va);
    free(caches);
}

static int compare_folder(const char *folder) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TREAD_SCENES, folder);
    DIR *d = opendir(path);
    assert_non_null(d);
    int compared = 0;
    for (struct dirent *e = readdir(d); e; e = readdir(d)) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0) continue;
        snprintf(path, sizeof path, "%s/%s/%s", TREAD_SCENES, folder, e->d_name);
        if (!scene_file_is_scene(path)) continue;
        scene s;
        scene_error err;
        if (!scene_load(path, &s, &err)) fail_msg("%s", err.message);
        compare_scene(&s, NULL, path);
        scene_free(&s);
        ++compared;
    }
    closedir(d);
    return compared;
}

static void test_shipped_scenes_are_the_same_with_and_without(void **state) {
    (void)state;
    const char *folders[] = {"course", "regressions", "world", "moving", "more"};
    int total = 0;
    for (size_t k = 0; k < sizeof folders / sizeof folders[0]; ++k) total += compare_folder(folders[k]);
    print_message("%d shipped scenes compared over their first %d frames\n", total, FRAMES);
    assert_true(total > 50);
}

// Every family's first and middle case, each shape, at 60 Hz; the odd ones also under the matrix's tilted up.
static void test_generated_cases_are_the_same_with_and_without(void **state) {
    (void)state;
    int compared = 0;
    for (int family = 0; gen_family_names[family]; ++family) {
        int size = gen_family_size(family);
        const int picks[2] = {0, size / 2};
        for (int p = 0; p < 2; ++p) {
            for (int shape = 0; gen_shape_names[shape]; ++shape) {
                char name[256];
                char *json = NULL;
                if (!gen_case_text(family, picks[p], shape, 60, name, sizeof name, &json)) continue;
                scene s;
                scene_error err;
                bool loaded = scene_load_buffer(name, json, strlen(json), &s, &err);
                free(json);
                if (!loaded) fail_msg("%s", err.message);
                run_options o = {0};
                if ((compared & 1) != 0) {
                    o.rotate_up = true;
                    o.up = tread_v3_normalize(tread_v3(0.25f, 1.0f, -0.15f));
                }
                compare_scene(&s, &o, name);
                scene_free(&s);
                ++compared;
            }
        }
    }
    print_message("%d generated cases compared\n", compared);
    assert_true(compared > 20);
}

// ---- the revision --------------------------------------------------------------------------------------------

static uint64_t revision_of(const tread_world *w) {
    uint64_t serial, revision;
    tr_world_revision(w, &serial, &revision);
    return revision;
}

static tread_body_id add_box(tread_world *w, tread_body_type type, tread_vec3 center, tread_vec3 half) {
    tread_body_def def = tread_body_def_default();
    def.type = type;
    def.shape = tread_shape_box(half);
    def.transform.p = center;
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return id;
}

#define EXPECT_BUMP(w, call)                                                                                             \
    do {                                                                                                                 \
        uint64_t before_ = revision_of(w);                                                                               \
        assert_int_equal((call), TREAD_OK);                                                                              \
        if (revision_of(w) == before_) fail_msg("%s left the world's revision at %llu", #call, (unsigned long long)before_); \
    } while (0)

static void test_every_change_bumps_the_revision(void **state) {
    (void)state;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    uint64_t serial_a, serial_b, revision;
    tread_world *other = NULL;
    assert_int_equal(tread_world_create(NULL, &other), TREAD_OK);
    tr_world_revision(w, &serial_a, &revision);
    tr_world_revision(other, &serial_b, &revision);
    assert_true(serial_a != serial_b && serial_a != 0u && serial_b != 0u);
    tread_world_destroy(other);

    uint64_t before = revision_of(w);
    tread_body_id kinematic = add_box(w, TREAD_BODY_KINEMATIC, tread_v3(0, 1, 0), tread_v3(1, 0.1f, 1));
    assert_true(revision_of(w) != before);
    tread_body_id dynamic = add_box(w, TREAD_BODY_DYNAMIC, tread_v3(5, 1, 0), tread_v3(0.5f, 0.5f, 0.5f));
    tread_body_id still = add_box(w, TREAD_BODY_STATIC, tread_v3(-5, 1, 0), tread_v3(0.5f, 0.5f, 0.5f));
    tread_transform t = {tread_v3(-5, 2, 0), tread_quat_identity()};
    EXPECT_BUMP(w, tread_body_set_transform(w, still, t));
    EXPECT_BUMP(w, tread_body_set_velocity(w, kinematic, tread_v3(1, 0, 0), tread_v3(0, 0, 0)));
    tread_surface_velocity surface = {tread_v3(0.5f, 0, 0), tread_v3(0, 0, 0), tread_v3(0, 0, 0)};
    EXPECT_BUMP(w, tread_body_set_surface_velocity(w, still, &surface));
    tread_transform moved = {tread_v3(5.1f, 1, 0), tread_quat_identity()};
    EXPECT_BUMP(w, tread_body_move_to(w, dynamic, moved, tread_v3(6, 0, 0), tread_v3(0, 0, 0)));
    EXPECT_BUMP(w, tread_world_advance(w, 1.0f / 60.0f)); // (the kinematic body moves)
    size_t size = 0;
    assert_int_equal(tread_world_save_bodies(w, NULL, 0, &size), TREAD_OK);
    void *bytes = malloc(size);
    assert_non_null(bytes);
    assert_int_equal(tread_world_save_bodies(w, bytes, size, &size), TREAD_OK);
    EXPECT_BUMP(w, tread_world_advance(w, 1.0f / 60.0f));
    EXPECT_BUMP(w, tread_world_load_bodies(w, bytes, size));
    free(bytes);
    EXPECT_BUMP(w, tread_world_shift_origin(w, tread_v3(1, 0, 0), NULL, 0));
    EXPECT_BUMP(w, tread_world_remove_body(w, dynamic));
    // The kinematic body stopped: one advance settles its motion (its previous transform catches up), then a world in
    // which nothing moves keeps its revision, advanced or not.
    EXPECT_BUMP(w, tread_body_set_velocity(w, kinematic, tread_v3(0, 0, 0), tread_v3(0, 0, 0)));
    EXPECT_BUMP(w, tread_world_advance(w, 1.0f / 60.0f));
    before = revision_of(w);
    assert_int_equal(tread_world_advance(w, 1.0f / 60.0f), TREAD_OK);
    assert_int_equal(tread_world_advance(w, 1.0f / 60.0f), TREAD_OK);
    assert_true(revision_of(w) == before);
    tread_world_destroy(w);
}

// ---- a change where the next move goes -----------------------------------------------------------------------
// A character stands on a floor in a world with a tree; a few moves fill its cache; then a change puts a body into it
// (or takes one away, or moves one, ...). The next move with the stale cache must give what a move without a cache
// gives, and that must differ from what the move would have given without the change (so the change matters: a
// forgotten revision bump would show).

typedef struct bench_world {
    tread_world *w;
    tread_body_id floor, wall, far, lift, crate;
} bench_world;

static void build(bench_world *b) {
    assert_int_equal(tread_world_create(NULL, &b->w), TREAD_OK);
    b->floor = add_box(b->w, TREAD_BODY_STATIC, tread_v3(0, -0.5f, 0), tread_v3(20, 0.5f, 20));
    for (int i = 0; i < FILLERS; ++i) add_box(b->w, TREAD_BODY_STATIC, tread_v3(3.0f * (float)i - 36.0f, -50.0f, 15.0f), tread_v3(0.2f, 0.2f, 0.2f));
    b->wall = add_box(b->w, TREAD_BODY_STATIC, tread_v3(0.5f, 1, 0), tread_v3(0.1f, 1, 1)); // beside it
    b->far = add_box(b->w, TREAD_BODY_STATIC, tread_v3(10, 1, 0), tread_v3(0.2f, 0.2f, 0.2f));
    b->lift = add_box(b->w, TREAD_BODY_KINEMATIC, tread_v3(-6, 0.1f, 0), tread_v3(0.5f, 0.1f, 0.5f));
    b->crate = add_box(b->w, TREAD_BODY_DYNAMIC, tread_v3(6, 0.5f, 0), tread_v3(0.5f, 0.5f, 0.5f));
}

typedef void change_fn(bench_world *b);

// (Bodies come from outside what the cache holds: one it holds is read where it is now, moved or not.)
static void bring_a_far_box_onto_it(bench_world *b) {
    tread_transform t = {tread_v3(0.2f, 0.9f, 0), tread_quat_identity()};
    assert_int_equal(tread_body_set_transform(b->w, b->far, t), TREAD_OK);
}
static void remove_the_floor(bench_world *b) { assert_int_equal(tread_world_remove_body(b->w, b->floor), TREAD_OK); }
static void add_a_box_on_the_character(bench_world *b) { add_box(b->w, TREAD_BODY_STATIC, tread_v3(0.2f, 0.9f, 0), tread_v3(0.2f, 0.2f, 0.2f)); }
static void drive_the_lift_under_it(bench_world *b) {
    // A fast lift slid under the character over one advance.
    assert_int_equal(tread_body_set_velocity(b->w, b->lift, tread_v3(360, 0, 0), tread_v3(0, 0, 0)), TREAD_OK);
    assert_int_equal(tread_world_advance(b->w, 1.0f / 60.0f), TREAD_OK);
}
static void push_the_crate_onto_it(bench_world *b) {
    tread_transform t = {tread_v3(0.3f, 0.9f, 0), tread_quat_identity()};
    assert_int_equal(tread_body_move_to(b->w, b->crate, t, tread_v3(0, 0, 0), tread_v3(0, 0, 0)), TREAD_OK);
}
// The crate saved where it stands on the character, then put back where it was (before the moves fill the cache);
// the change loads the save.
static unsigned char saved[4096];
static size_t saved_size;
static void save_the_crate_on_it(bench_world *b) {
    tread_transform on = {tread_v3(0.3f, 0.9f, 0), tread_quat_identity()}, away = {tread_v3(6, 0.5f, 0), tread_quat_identity()};
    assert_int_equal(tread_body_set_transform(b->w, b->crate, on), TREAD_OK);
    assert_int_equal(tread_world_save_bodies(b->w, saved, sizeof saved, &saved_size), TREAD_OK);
    assert_int_equal(tread_body_set_transform(b->w, b->crate, away), TREAD_OK);
}
static void load_the_crate_onto_it(bench_world *b) { assert_int_equal(tread_world_load_bodies(b->w, saved, saved_size), TREAD_OK); }
static void shift_the_origin(bench_world *b) { assert_int_equal(tread_world_shift_origin(b->w, tread_v3(0.5f, 0, 0), NULL, 0), TREAD_OK); }

static void move_pair(tread_world *w, tread_character *plain, tread_character *cached, tread_move_cache *cache, tread_vec3 v) {
    tread_move_options none = tread_move_options_default(), mine = tread_move_options_default();
    mine.cache = cache;
    tread_move_result ra, rb;
    assert_int_equal(tread_character_move_with(w, plain, v, 1.0f / 60.0f, &none, &ra), TREAD_OK);
    assert_int_equal(tread_character_move_with(w, cached, v, 1.0f / 60.0f, &mine, &rb), TREAD_OK);
    expect_same("change", 0, 0, plain, cached, &ra, &rb);
}

static void check_change_at(const char *what, change_fn *prepare, change_fn *change, tread_vec3 v) {
    bench_world b, unchanged;
    build(&b);
    build(&unchanged);
    if (prepare) prepare(&b), prepare(&unchanged);
    tread_character_settings s = tread_character_settings_default();
    tread_character plain, cached, reference;
    assert_int_equal(tread_character_init(&plain, &s, tread_v3(0, 0, 0)), TREAD_OK);
    cached = plain;
    reference = plain;
    tread_move_cache cache = tread_move_cache_default();
    for (int i = 0; i < 5; ++i) {
        move_pair(b.w, &plain, &cached, &cache, v);
        tread_move_result r;
        assert_int_equal(tread_character_move(unchanged.w, &reference, v, 1.0f / 60.0f, &r), TREAD_OK);
    }
    change(&b);
    move_pair(b.w, &plain, &cached, &cache, v);
    tread_move_result r;
    assert_int_equal(tread_character_move(unchanged.w, &reference, v, 1.0f / 60.0f, &r), TREAD_OK);
    // (After a shift the coordinates differ anyway; otherwise the change must have changed the move.)
    if (change != shift_the_origin && memcmp(&plain, &reference, sizeof plain) == 0) fail_msg("%s: the change did not change the move", what);
    // And the moves after it, with the cache refilled.
    for (int i = 0; i < 3; ++i) move_pair(b.w, &plain, &cached, &cache, v);
    tread_world_destroy(b.w);
    tread_world_destroy(unchanged.w);
}

// Walking slowly away from the wall (the candidates keep hitting), and standing still (after the first moves each
// move leaves the character as it found it: the next is the kept one, until the world changes).
static void check_change(const char *what, change_fn *prepare, change_fn *change) {
    check_change_at(what, prepare, change, tread_v3(-0.5f, 0, 0));
    check_change_at(what, prepare, change, tread_v3(0, 0, 0));
}

static void test_a_change_where_the_move_goes_is_seen(void **state) {
    (void)state;
    check_change("set_transform", NULL, bring_a_far_box_onto_it);
    check_change("remove_body", NULL, remove_the_floor);
    check_change("add_body", NULL, add_a_box_on_the_character);
    check_change("advance", NULL, drive_the_lift_under_it);
    check_change("move_to", NULL, push_the_crate_onto_it);
    check_change("load_bodies", save_the_crate_on_it, load_the_crate_onto_it);
    check_change("shift_origin", NULL, shift_the_origin);
}

// A cache is only ever a saving: another character's, another world's, one shared by many, the same result.
static void test_any_cache_gives_the_same_result(void **state) {
    (void)state;
    bench_world a, b;
    build(&a);
    build(&b);
    tread_character_settings s = tread_character_settings_default();
    tread_character plain[4], cached[4];
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(tread_character_init(&plain[i], &s, tread_v3(-2.0f + 1.2f * (float)i, 0, 2.0f)), TREAD_OK);
        cached[i] = plain[i];
    }
    tread_move_cache shared = tread_move_cache_default();
    for (int f = 0; f < 60; ++f)
        for (int i = 0; i < 4; ++i) move_pair((f & 1) ? a.w : b.w, &plain[i], &cached[i], &shared, tread_v3(0.3f * (float)(i - 1), 0, -1));
    // Standing still, its cache kept a move; then the same character at another dt, another velocity, another filter:
    // none of them is that move.
    tread_character still;
    assert_int_equal(tread_character_init(&still, &s, tread_v3(-3, 0, -3)), TREAD_OK);
    tread_move_cache own = tread_move_cache_default();
    tread_move_options none = tread_move_options_default(), mine = tread_move_options_default();
    mine.cache = &own;
    tread_move_result ra, rb;
    for (int i = 0; i < 10; ++i) assert_int_equal(tread_character_move_with(a.w, &still, tread_v3(0, 0, 0), 1.0f / 60.0f, &mine, &rb), TREAD_OK);
    const float dts[3] = {1.0f / 60.0f, 1.0f / 30.0f, 1.0f / 60.0f};
    const tread_vec3 vs[3] = {tread_v3(0, 0, 0), tread_v3(0, 0, 0), tread_v3(0, -0.0f, 0)};
    for (int k = 0; k < 4; ++k) {
        tread_character x = still, y = still;
        none.filter.layer_mask = mine.filter.layer_mask = k == 3 ? 1u : 0xFFFFFFFFu; // (layer 0 only: the floor)
        int j = k < 3 ? k : 0;
        assert_int_equal(tread_character_move_with(a.w, &x, vs[j], dts[j], &none, &ra), TREAD_OK);
        assert_int_equal(tread_character_move_with(a.w, &y, vs[j], dts[j], &mine, &rb), TREAD_OK);
        expect_same("still", k, 0, &x, &y, &ra, &rb);
    }
    tread_world_destroy(a.w);
    tread_world_destroy(b.w);
}

// ---- the API -------------------------------------------------------------------------------------------------

static void test_the_cache_is_checked_at_the_door(void **state) {
    (void)state;
    bench_world b;
    build(&b);
    tread_character_settings s = tread_character_settings_default();
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
    tread_move_result r;
    tread_move_options o = tread_move_options_default();
    tread_move_cache zero;
    memset(&zero, 0, sizeof zero);
    o.cache = &zero;
    assert_int_equal(tread_character_move_with(b.w, &ch, tread_v3(1, 0, 0), 1.0f / 60.0f, &o, &r), TREAD_ERR_UNINITIALIZED);
    assert_non_null(strstr(tread_error_message(), "options.cache"));
    tread_move_cache bad = tread_move_cache_default();
    bad.internal_bodies.internal_count = TREAD_MOVE_CACHE_BODIES + 1;
    o.cache = &bad;
    assert_int_equal(tread_character_move_with(b.w, &ch, tread_v3(1, 0, 0), 1.0f / 60.0f, &o, &r), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "options.cache->internal_bodies.internal_count"));
    // Slots a gather of this world never left (scribbled over) are not taken.
    tread_move_cache scribbled = tread_move_cache_default();
    o.cache = &scribbled;
    assert_int_equal(tread_character_move_with(b.w, &ch, tread_v3(1, 0, 0), 1.0f / 60.0f, &o, &r), TREAD_OK);
    for (int i = 0; i < TREAD_MOVE_CACHE_BODIES; ++i) scribbled.internal_bodies.internal_slots[i] = 1 << 30;
    if (scribbled.internal_bodies.internal_count < 1) scribbled.internal_bodies.internal_count = 1;
    tread_character twin = ch;
    tread_move_result rt;
    assert_int_equal(tread_character_move_with(b.w, &ch, tread_v3(1, 0, 0), 1.0f / 60.0f, &o, &r), TREAD_OK);
    assert_int_equal(tread_character_move(b.w, &twin, tread_v3(1, 0, 0), 1.0f / 60.0f, &rt), TREAD_OK);
    assert_memory_equal(&ch, &twin, sizeof ch);
    // A batch keeps its own.
    tread_batch *batch = NULL;
    tread_batch_def def = tread_batch_def_default();
    assert_true(def.move_cache);
    def.threads = 1;
    assert_int_equal(tread_batch_create(&def, &batch), TREAD_OK);
    tread_move_cache mine = tread_move_cache_default();
    o.cache = &mine;
    tread_vec3 v = tread_v3(1, 0, 0);
    assert_int_equal(tread_batch_move_with(batch, b.w, &ch, &v, 1, 1.0f / 60.0f, &o, &r), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "options.cache"));
    tread_batch_destroy(batch);
    tread_world_destroy(b.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_change_bumps_the_revision),
        cmocka_unit_test(test_a_change_where_the_move_goes_is_seen),
        cmocka_unit_test(test_any_cache_gives_the_same_result),
        cmocka_unit_test(test_the_cache_is_checked_at_the_door),
        cmocka_unit_test(test_shipped_scenes_are_the_same_with_and_without),
        cmocka_unit_test(test_generated_cases_are_the_same_with_and_without),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
