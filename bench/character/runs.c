// SPDX-License-Identifier: MIT
// The character runs (docs/COURSE.md "Benchmarks", docs/PERFORMANCE.md): P1, P2 and P3 as the course defines
// them, and the scaling runs built from them. Each run's input follows the course's frame loop: the walking
// velocity, and vertically 0 on ground or the last velocity plus gravity for one frame in the air.
#include "runs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench_util.h"
#include "course.h"

static float course_vertical(const tread_character *ch) {
    return ch->ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : ch->velocity.y + COURSE_G * COURSE_DT;
}

// ---- steering ------------------------------------------------------------------------------------------------

// P1 and the fields: each character keeps walking its own way.
static void steer_walk(crowd *c, int frame) {
    (void)frame;
    for (int i = 0; i < c->count; ++i) c->velocity[i] = tread_v3(c->walk[i].x, course_vertical(&c->ch[i]), c->walk[i].z);
}

// P2: 4 m/s along +x up S1's stairs, back at the start every 180 frames (the reset is input, not timed).
static void steer_p2(crowd *c, int frame) {
    if (frame % 180 == 0) {
        tread_character_settings s = c->ch[0].settings;
        tread_character_init(&c->ch[0], &s, tread_v3(0, 0, 0));
    }
    c->velocity[0] = tread_v3(4.0f, course_vertical(&c->ch[0]), 0);
}

// P3: every 2 s character k draws h = splitmix64(floor(t / 2) * 100 + k) (splitmix64 seeded with that value, its
// first output, as tests/course.h computes it) and walks horizontally toward cell (4a - 20, 4b - 20) at 5 + 0.5 s
// m/s. t is the time at the frame's start, frame / 60 s, so floor(t / 2) is frame / 120 in integers (no float
// rounding at the boundaries).
static void steer_p3(crowd *c, int frame) {
    uint64_t period = (uint64_t)(frame / 120);
    for (int k = 0; k < c->count; ++k) {
        uint64_t state = period * 100u + (uint64_t)k;
        uint64_t h = course_splitmix64(&state);
        float a = (float)(h % 10u), b = (float)((h / 10u) % 10u), s = (float)((h / 100u) % 10u);
        tread_vec3 to = tread_v3_sub(tread_v3(4.0f * a - 20.0f, 0, 4.0f * b - 20.0f), c->ch[k].position);
        to.y = 0.0f;
        float distance = tread_v3_length(to), speed = 5.0f + 0.5f * s;
        tread_vec3 walk = distance > 1e-6f ? tread_v3_scale(to, speed / distance) : tread_v3(0, 0, 0);
        c->velocity[k] = tread_v3(walk.x, course_vertical(&c->ch[k]), walk.z);
    }
}

// ---- crowds ----------------------------------------------------------------------------------------------------

static bool fail(const char *what, const run_def *r) {
    fprintf(stderr, "tread_bench_character: %s: %s (%s)\n", r->name, what, tread_error_message());
    return false;
}

int bench_batch_threads = 0;

// The arrays for n characters, and the batch when the run has character-vs-character. The world must be set.
static bool crowd_alloc(crowd *c, const run_def *r, int n, bool walk) {
    c->count = n;
    c->ch = malloc(sizeof *c->ch * (size_t)n);
    c->velocity = malloc(sizeof *c->velocity * (size_t)n);
    c->walk = walk ? malloc(sizeof *c->walk * (size_t)n) : NULL;
    c->results = r->batch ? malloc(sizeof *c->results * (size_t)n) : NULL;
    c->caches = r->cached ? malloc(sizeof *c->caches * (size_t)n) : NULL;
    if (!c->ch || !c->velocity || (walk && !c->walk) || (r->batch && !c->results) || (r->cached && !c->caches)) return fail("out of memory", r);
    for (int i = 0; r->cached && i < n; ++i) c->caches[i] = tread_move_cache_default();
    if (r->batch) {
        c->bytes_before_batch = bench_live_bytes();
        tread_batch_def def = tread_batch_def_default();
        def.capacity = n;
        def.threads = bench_batch_threads;
        if (tread_batch_create(&def, &c->batch) != TREAD_OK) return fail("tread_batch_create", r);
    }
    return true;
}

// P1's crowd on world w, grown to n characters at P1's spacing: a grid 2 m apart, feet at y = 0.7, character k
// walking at 4 m/s at angle k * 0.618 * 2 pi (reduced to one turn in double precision first, so that the 50,000th
// character's direction is as exact as the first's; the project's own cosine and sine).
static bool field_crowd(const run_def *r, crowd *c, tread_world *w, int n) {
    if (!(c->world = w)) return fail("could not build the field", r);
    if (!crowd_alloc(c, r, n, true)) return false;
    int columns = world_field_columns(n), rows = (n + columns - 1) / columns;
    tread_character_settings s = tread_character_settings_default();
    if (r->apart) {
        uint32_t others = 1u << tread_batch_def_default().character_layer;
        s.collide_mask &= ~others;
        s.ground_mask &= ~others;
    }
    for (int k = 0; k < n; ++k) {
        float x = (float)(2 * (k % columns) - (columns - 1)), z = (float)(2 * (k / columns) - (rows - 1));
        if (tread_character_init(&c->ch[k], &s, tread_v3(x, 0.7f, z)) != TREAD_OK) return fail("tread_character_init", r);
        float angle = (float)(fmod((double)k * 0.618, 1.0) * 2.0 * 3.14159265358979323846);
        c->walk[k] = tread_v3(4.0f * tread_cos(angle), 0, 4.0f * tread_sin(angle));
    }
    c->steer = steer_walk;
    return true;
}

// P1 itself: the course's own field (tests/course.h), as the behaviour tests build it.
static bool setup_p1(const run_def *r, crowd *c) {
    tread_world *w = course_world();
    if (w) course_p1_field(w);
    if (w && tread_world_body_count(w) != 401) tread_world_destroy(w), w = NULL;
    return field_crowd(r, c, w, r->characters);
}

static bool setup_field(const run_def *r, crowd *c) { return field_crowd(r, c, world_field(r->characters), r->characters); }

static bool setup_p2(const run_def *r, crowd *c) {
    c->world = course_world();
    if (!c->world) return fail("could not build S1", r);
    course_stairs(c->world);
    if (!crowd_alloc(c, r, 1, false)) return false;
    tread_character_settings s = tread_character_settings_default();
    if (tread_character_init(&c->ch[0], &s, tread_v3(0, 0, 0)) != TREAD_OK) return fail("tread_character_init", r);
    c->steer = steer_p2;
    return true;
}

// P3's crowd: capsules of radius 0.3 and 1.95 m in all (a 1.35 m cylinder) on a 10 x 10 grid 4 m apart, character
// y * 10 + x at (4x - 20, 4y - 20), feet 0.1 m above where the capsule rests on whatever is highest under it.
static bool setup_p3(const run_def *r, crowd *c) {
    if (!(c->world = world_p3(&r->ground, &c->ground))) return fail("could not build the P3 scene", r);
    if (!crowd_alloc(c, r, 100, false)) return false;
    tread_character_settings s = tread_character_settings_default();
    s.radius = 0.3f;
    s.height = 1.95f;
    tread_character probe;
    if (tread_character_init(&probe, &s, tread_v3(0, 0, 0)) != TREAD_OK) return fail("tread_character_init", r);
    tread_query_shape shape = tread_character_shape(&probe);
    for (int k = 0; k < 100; ++k) {
        float x = 4.0f * (float)(k % 10) - 20.0f, z = 4.0f * (float)(k / 10) - 20.0f;
        float feet = world_rest_height(c->world, &shape, 0.5f * s.height, x, z);
        if (isnan(feet)) return fail("nothing under a character's start", r);
        if (tread_character_init(&c->ch[k], &s, tread_v3(x, feet + 0.1f, z)) != TREAD_OK) return fail("tread_character_init", r);
    }
    c->steer = steer_p3;
    return true;
}

bool crowd_setup(const run_def *r, crowd *c) {
    *c = (crowd){0};
    if (r->setup(r, c)) return true;
    crowd_free(c);
    return false;
}

void crowd_free(crowd *c) {
    tread_batch_destroy(c->batch);
    tread_world_destroy(c->world);
    free(c->ch), free(c->velocity), free(c->walk), free(c->results), free(c->caches);
    *c = (crowd){0};
}

const char *run_update_function(const run_def *r) {
    return r->batch ? "tread_batch_move" : (r->cached ? "tread_character_move_with" : "tread_character_move");
}

// ---- the table -------------------------------------------------------------------------------------------------

#define NO_GROUND {GROUND_MESH, 0, 0.0f, 0.0f, 0}
#define P3_MESH {GROUND_MESH, 100, 0.5f, 100.0f, 0}
// P3's 50 x 50 m sine surface resampled with n x n cells (2 n^2 triangles): the spec's formula with n for 100.
#define FINE_MESH(n) {GROUND_MESH, n, 50.0f / (float)(n), (float)(n), 0}
// The field runs time 60 frames after 30 untimed ones, in which the crowd has dropped onto the field and walks:
// a 50,000-character round stays under a minute even where the broadphase is slow.
#define FIELD(name, n, cvc, what) {name, "scaling", what, setup_field, n, NO_GROUND, cvc, 30, 60, false, false}

const run_def bench_runs[] = {
    {"P1", "course", "1000 characters walking over the 400-box field, 300 frames, one tread_character_move each", setup_p1, 1000,
     NO_GROUND, false, 0, 300, false, false},
    {"P2", "course", "one character walking up S1's stairs at 4 m/s, reset every 180 frames, 1000 frames", setup_p2, 1, NO_GROUND,
     false, 0, 1000, false, false},
    {"P3", "course", "100 capsules to random targets on the sine mesh, 600 frames, one tread_character_move each", setup_p3, 100,
     P3_MESH, false, 0, 600, false, false},
    {"P3-cvc", "course", "P3 with character-vs-character: one tread_batch_move of all 100 a frame", setup_p3, 100, P3_MESH, true, 0,
     600, false, false},
    {"P1-cache", "course", "P1 through tread_character_move_with, each character with its tread_move_cache", setup_p1, 1000,
     NO_GROUND, false, 0, 300, false, true},
    {"P3-cache", "course", "P3 through tread_character_move_with, each character with its tread_move_cache", setup_p3, 100, P3_MESH,
     false, 0, 600, false, true},
    FIELD("field-1k", 1000, false, "P1's field and crowd, 1,000 characters (30 frames, then 60 timed)"),
    FIELD("field-10k", 10000, false, "P1's density grown to 10,000 characters (316 x 316 m field, 4,000 boxes)"),
    FIELD("field-50k", 50000, false, "P1's density grown to 50,000 characters (707 x 707 m field, 20,000 boxes)"),
    FIELD("field-1k-cvc", 1000, true, "field-1k with character-vs-character: one tread_batch_move a frame"),
    FIELD("field-10k-cvc", 10000, true, "field-10k with character-vs-character"),
    FIELD("field-50k-cvc", 50000, true, "field-50k with character-vs-character"),
    {"field-50k-threads", "scaling",
     "field-50k in one tread_batch_move a frame on the batch's threads, character-vs-character off (the characters' masks "
     "leave out the batch's layer)", setup_field, 50000, NO_GROUND, true, 30, 60, true, false},
    {"mesh-1k", "scaling", "P3 (no character-vs-character) on its surface as 22 x 22 cells of 2.27 m: 968 triangles", setup_p3, 100,
     FINE_MESH(22), false, 0, 600, false, false},
    {"mesh-100k", "scaling", "P3 on its surface as 224 x 224 cells of 0.22 m: 100,352 triangles", setup_p3, 100, FINE_MESH(224),
     false, 0, 600, false, false},
    {"mesh-1m", "scaling", "P3 on its surface as 707 x 707 cells of 7 cm: 999,698 triangles", setup_p3, 100, FINE_MESH(707), false, 0,
     600, false, false},
    {"mesh-1m-wide", "scaling", "P3 on a 353 m sine mesh of P3's own 0.5 m cells (999,698 triangles), the crowd in its middle",
     setup_p3, 100, {GROUND_MESH, 707, 0.5f, 100.0f, -303}, false, 0, 600, false, false},
    {"heightfield", "scaling", "P3 with its mesh as a 101 x 101-sample heightfield of the same heights", setup_p3, 100,
     {GROUND_HEIGHTFIELD, 100, 0.5f, 100.0f, 0}, false, 0, 600, false, false},
    {"voxels", "scaling", "P3 with its surface as 0.25 m voxel columns (200 x 21 x 200 cells)", setup_p3, 100,
     {GROUND_VOXELS, 200, 0.25f, 200.0f, 0}, false, 0, 600, false, false},
};

const int bench_run_count = (int)(sizeof bench_runs / sizeof bench_runs[0]);
