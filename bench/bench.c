// SPDX-License-Identifier: MIT
// tread_bench: a table of named scenarios, each printing CSV lines `scenario,metric,value,unit` with the median
// of several repetitions (CLOCK_MONOTONIC, bench/common). Usage: tread_bench [name-substring ...]. Never fails a
// build: the exit status is 0 unless a scenario could not set up its data.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bench_util.h"
#include "tread/tread.h"
#include "world/bvh.h"
#include "world/mesh.h"

#define REPETITIONS 5

// Deterministic generator (xorshift32) so every run measures the same queries.
static uint32_t rng_state = 0x9E3779B9u;
static float rng_float(float lo, float hi) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return lo + (hi - lo) * (float)(rng_state >> 8) * (1.0f / 16777216.0f);
}

// ---- the 1M-triangle terrain --------------------------------------------------------------------------------

// 708 x 708 cells of 1 m, two triangles each: 1,002,528 triangles of gently rolling ground.
#define TERRAIN_CELLS 708

// Triangle wave with period `period` and amplitude 1: smooth enough hills without libm.
static float tri_wave(float x, float period) {
    float u = x / period;
    u -= (float)(long)u;
    if (u < 0.0f) u += 1.0f;
    return u < 0.5f ? 4.0f * u - 1.0f : 3.0f - 4.0f * u;
}

static float terrain_height(float x, float z) {
    return 1.5f * tri_wave(x, 37.0f) + 1.0f * tri_wave(z, 23.0f) + 0.25f * tri_wave(x + z, 5.3f);
}

typedef struct terrain {
    tread_vec3 *vertices;
    uint32_t *indices;
    int vertex_count, triangle_count;
    tr_mesh mesh;
    bool mesh_built;
} terrain;

static terrain g_terrain;

static bool terrain_data(void) {
    terrain *t = &g_terrain;
    if (t->vertices) return true;
    int n = TERRAIN_CELLS + 1;
    t->vertex_count = n * n;
    t->triangle_count = 2 * TERRAIN_CELLS * TERRAIN_CELLS;
    t->vertices = malloc((size_t)t->vertex_count * sizeof(tread_vec3));
    t->indices = malloc((size_t)t->triangle_count * 3 * sizeof(uint32_t));
    if (!t->vertices || !t->indices) return false;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) t->vertices[j * n + i] = tread_v3((float)i, terrain_height((float)i, (float)j), (float)j);
    uint32_t *idx = t->indices;
    for (int j = 0; j < TERRAIN_CELLS; j++) {
        for (int i = 0; i < TERRAIN_CELLS; i++) {
            uint32_t a = (uint32_t)(j * n + i), b = a + 1, c = a + (uint32_t)n, d = c + 1;
            *idx++ = a, *idx++ = d, *idx++ = b;
            *idx++ = a, *idx++ = c, *idx++ = d;
        }
    }
    return true;
}

static bool terrain_mesh(void) {
    terrain *t = &g_terrain;
    if (t->mesh_built) return true;
    if (!terrain_data()) return false;
    tread_mesh_def def = {t->vertices, t->vertex_count, t->indices, t->triangle_count, NULL};
    if (tr_mesh_validate(&def) != TREAD_OK || tr_mesh_create(&t->mesh, &def) != TREAD_OK) return false;
    t->mesh_built = true;
    return true;
}

// ---- scenarios ----------------------------------------------------------------------------------------------

static int bench_bvh_build(const char *name) {
    if (!terrain_data()) return 1;
    terrain *t = &g_terrain;
    tread_aabb *boxes = malloc((size_t)t->triangle_count * sizeof(tread_aabb));
    if (!boxes) return 1;
    for (int i = 0; i < t->triangle_count; i++) {
        tread_vec3 a = t->vertices[t->indices[3 * i]], b = t->vertices[t->indices[3 * i + 1]],
                   c = t->vertices[t->indices[3 * i + 2]];
        boxes[i] = tread_aabb_union(tread_aabb_make(a, b), tread_aabb_make(c, c));
    }
    double times[REPETITIONS];
    float cost = 0.0f;
    int nodes = 0;
    for (int r = 0; r < REPETITIONS; r++) {
        tr_bvh bvh;
        double t0 = bench_now();
        bool ok = tr_bvh_build(&bvh, boxes, t->triangle_count, 4);
        times[r] = bench_now() - t0;
        if (!ok) {
            free(boxes);
            return 1;
        }
        cost = tr_bvh_cost(&bvh);
        nodes = bvh.node_count;
        tr_bvh_destroy(&bvh);
    }
    free(boxes);
    bench_csv(name, "triangles", (double)t->triangle_count, "count");
    bench_csv(name, "build_time", bench_median(times, REPETITIONS), "s");
    bench_csv(name, "nodes", (double)nodes, "count");
    bench_csv(name, "sah_cost", (double)cost, "ratio");
    return 0;
}

static int bench_mesh_create(const char *name) {
    if (!terrain_data()) return 1;
    terrain *t = &g_terrain;
    tread_mesh_def def = {t->vertices, t->vertex_count, t->indices, t->triangle_count, NULL};
    double times[REPETITIONS];
    for (int r = 0; r < REPETITIONS; r++) {
        tr_mesh mesh;
        double t0 = bench_now();
        if (tr_mesh_create(&mesh, &def) != TREAD_OK) return 1;
        times[r] = bench_now() - t0;
        tr_mesh_destroy(&mesh);
    }
    bench_csv(name, "create_time", bench_median(times, REPETITIONS), "s");
    return 0;
}

// Closest-hit callback: keep the nearest, prune with it.
typedef struct closest {
    bool hit;
    tr_feature_hit best;
} closest;

static float keep_closest(void *ctx, const tr_feature_hit *hit) {
    closest *c = (closest *)ctx;
    if (!c->hit || hit->t < c->best.t) c->best = *hit, c->hit = true;
    return c->best.t;
}

// Random short casts (0.1-1 m) near the terrain surface: rays from 0-0.5 m above it, capsules with their
// bottom 0-0.3 m above it. Pointing anywhere, biased downward.
enum { QUERY_COUNT = 200000 };

static void make_cast(tr_cast *c, bool ray) {
    float x = rng_float(2.0f, (float)TERRAIN_CELLS - 2.0f), z = rng_float(2.0f, (float)TERRAIN_CELLS - 2.0f);
    tread_vec3 dir = tread_v3(rng_float(-1.0f, 1.0f), rng_float(-1.0f, 0.5f), rng_float(-1.0f, 1.0f));
    dir = tread_v3_normalize(dir);
    float length = rng_float(0.1f, 1.0f);
    c->d = tread_v3_scale(dir, length);
    c->is_box = false;
    float ground = terrain_height(x, z);
    if (ray) {
        c->p0 = c->p1 = tread_v3(x, ground + rng_float(0.0f, 0.5f), z);
        c->r = 0.0f;
        c->is_ray = true;
    } else {
        float centre = ground + 0.9f + rng_float(0.05f, 0.3f); // radius 0.3 + half height 0.6
        c->p0 = tread_v3(x, centre - 0.6f, z);
        c->p1 = tread_v3(x, centre + 0.6f, z);
        c->r = 0.3f;
        c->is_ray = false;
    }
}

static int bench_mesh_casts(const char *name, bool ray) {
    if (!terrain_mesh()) return 1;
    tr_cast *casts = malloc(QUERY_COUNT * sizeof(tr_cast));
    if (!casts) return 1;
    for (int i = 0; i < QUERY_COUNT; i++) make_cast(&casts[i], ray);
    double rates[REPETITIONS];
    int hits = 0;
    for (int r = 0; r < REPETITIONS; r++) {
        hits = 0;
        double t0 = bench_now();
        for (int i = 0; i < QUERY_COUNT; i++) {
            closest result = {false, {0}};
            tr_mesh_cast(&g_terrain.mesh, &casts[i], 1.0f, keep_closest, &result);
            hits += result.hit;
        }
        rates[r] = (double)QUERY_COUNT / (bench_now() - t0);
    }
    free(casts);
    bench_csv(name, "queries_per_second", bench_median(rates, REPETITIONS), "1/s");
    bench_csv(name, "hit_ratio", (double)hits / QUERY_COUNT, "ratio");
    return 0;
}

static int bench_mesh_rays(const char *name) { return bench_mesh_casts(name, true); }
static int bench_mesh_capsules(const char *name) { return bench_mesh_casts(name, false); }

// ---- the course's P1 box field through the public world API -------------------------------------------------

// splitmix64, exactly as the course (docs/COURSE.md) draws it; uniform = lo + (hi - lo) * (x >> 11) / 2^53.
static uint64_t p1_state;
static uint64_t splitmix64(void) {
    p1_state += 0x9E3779B97F4A7C15ull;
    uint64_t z = p1_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double p1_uniform(double lo, double hi) {
    return lo + (hi - lo) * (double)(splitmix64() >> 11) / 9007199254740992.0;
}

static bool p1_add_box(tread_world *w, tread_vec3 min, tread_vec3 max) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3_scale(tread_v3_sub(max, min), 0.5f));
    def.transform.p = tread_v3_scale(tread_v3_add(min, max), 0.5f);
    tread_body_id id;
    return tread_world_add_body(w, &def, &id) == TREAD_OK;
}

// Floor box x,z in [-50, 50], y in [-1, 0], then 400 boxes seeded 12345: centre x, centre z, size x, size z,
// height (centres in [-40, 40], sizes 0.3-2.0, heights 0.1-0.6), each standing on the floor.
#define P1_BOXES 400
static tread_world *p1_world(void) {
    tread_world *w = NULL;
    if (tread_world_create(NULL, &w) != TREAD_OK) return NULL;
    bool ok = p1_add_box(w, tread_v3(-50.0f, -1.0f, -50.0f), tread_v3(50.0f, 0.0f, 50.0f));
    p1_state = 12345u;
    for (int i = 0; ok && i < P1_BOXES; i++) {
        double cx = p1_uniform(-40.0, 40.0), cz = p1_uniform(-40.0, 40.0);
        double sx = p1_uniform(0.3, 2.0), sz = p1_uniform(0.3, 2.0), h = p1_uniform(0.1, 0.6);
        ok = p1_add_box(w, tread_v3((float)(cx - 0.5 * sx), 0.0f, (float)(cz - 0.5 * sz)),
                        tread_v3((float)(cx + 0.5 * sx), (float)h, (float)(cz + 0.5 * sz)));
    }
    if (!ok) {
        tread_world_destroy(w);
        return NULL;
    }
    return w;
}

typedef struct p1_query {
    tread_vec3 position, translation;
} p1_query;

// Character-like casts: capsule centre 0.9 + 0.05-0.3 m above the floor at random x, z in [-40, 40]
// (rays start 0-0.5 m above it), moving horizontally and down by 0.1-1 m.
static void p1_make_query(p1_query *q, bool ray) {
    float x = rng_float(-40.0f, 40.0f), z = rng_float(-40.0f, 40.0f);
    float y = ray ? rng_float(0.0f, 0.5f) : 0.9f + rng_float(0.05f, 0.3f);
    tread_vec3 dir = tread_v3_normalize(tread_v3(rng_float(-1.0f, 1.0f), rng_float(-1.0f, 0.0f), rng_float(-1.0f, 1.0f)));
    q->position = tread_v3(x, y, z);
    q->translation = tread_v3_scale(dir, rng_float(0.1f, 1.0f));
}

static int bench_p1_casts(const char *name, bool ray) {
    tread_world *w = p1_world();
    p1_query *queries = malloc(QUERY_COUNT * sizeof(p1_query));
    if (!w || !queries) {
        free(queries);
        if (w) tread_world_destroy(w);
        return 1;
    }
    for (int i = 0; i < QUERY_COUNT; i++) p1_make_query(&queries[i], ray);
    tread_query_shape shape = tread_query_capsule(0.6f, 0.3f, tread_v3(0.0f, 1.0f, 0.0f));
    double rates[REPETITIONS];
    int hits = 0;
    for (int r = 0; r < REPETITIONS; r++) {
        hits = 0;
        double t0 = bench_now();
        for (int i = 0; i < QUERY_COUNT; i++) {
            if (ray) {
                tread_ray_hit hit;
                tread_world_cast_ray(w, queries[i].position, queries[i].translation, NULL, &hit);
                hits += hit.hit;
            } else {
                tread_shape_hit hit;
                tread_world_cast_shape(w, &shape, queries[i].position, queries[i].translation, NULL, &hit);
                hits += hit.hit;
            }
        }
        rates[r] = (double)QUERY_COUNT / (bench_now() - t0);
    }
    free(queries);
    tread_world_destroy(w);
    bench_csv(name, "queries_per_second", bench_median(rates, REPETITIONS), "1/s");
    bench_csv(name, "hit_ratio", (double)hits / QUERY_COUNT, "ratio");
    return 0;
}

static int bench_p1_rays(const char *name) { return bench_p1_casts(name, true); }
static int bench_p1_capsules(const char *name) { return bench_p1_casts(name, false); }

// ---- the table: add new scenarios here -----------------------------------------------------------------------

typedef struct scenario {
    const char *name;
    int (*run)(const char *name);
    const char *what;
} scenario;

static const scenario scenarios[] = {
    {"bvh_build_1m", bench_bvh_build, "binned-SAH build over 1,002,528 terrain triangle boxes"},
    {"mesh_create_1m", bench_mesh_create, "tr_mesh_create on the same terrain (copy, BVH, active edges)"},
    {"mesh_ray_short", bench_mesh_rays, "0.1-1 m rays near the 1M-triangle terrain, closest hit"},
    {"mesh_capsule_short", bench_mesh_capsules, "0.1-1 m capsule casts (r 0.3, half height 0.6), closest hit"},
    {"p1_ray_short", bench_p1_rays, "0.1-1 m world rays over the P1 box field (floor + 400 boxes), closest hit"},
    {"p1_capsule_short", bench_p1_capsules, "0.1-1 m tread_world_cast_shape capsule casts over the P1 box field"},
};

int main(int argc, char **argv) {
    int failures = 0;
    bench_csv_begin(NULL);
    for (size_t s = 0; s < sizeof scenarios / sizeof scenarios[0]; s++) {
        bool selected = argc < 2;
        for (int a = 1; a < argc; a++)
            if (strstr(scenarios[s].name, argv[a])) selected = true;
        if (!selected) continue;
        if (scenarios[s].run(scenarios[s].name) != 0) {
            fprintf(stderr, "tread_bench: scenario %s could not run\n", scenarios[s].name);
            failures++;
        }
    }
    if (g_terrain.mesh_built) tr_mesh_destroy(&g_terrain.mesh);
    free(g_terrain.vertices);
    free(g_terrain.indices);
    return failures ? 1 : 0;
}
