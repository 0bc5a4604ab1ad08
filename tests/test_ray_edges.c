// SPDX-License-Identifier: MIT
// Watertight rays: a ray through an edge or a vertex that two or more triangles share hits one of them, wherever it
// starts. Rays straight down through every grid point, every cell diagonal and every cell border of a sine surface
// (as a heightfield and as meshes of both diagonal splits) from 0.1 m to 1 km above it; random rays through random
// points of the shared edges of random meshes (jittered grids, turned every way, random windings and order), in the
// world and triangle by triangle, and of random heightfields (odd spacings, turned, rays along the grid lines too);
// the benchmark's two misses (P3's heightfield at (-4, -20) from y = 50, mesh-1k's diagonal at (16, -16)); voxel
// columns down every corner and edge, the grid's outer faces included. Each must hit, at the fraction a
// double-precision brute force over the triangles finds (within 1e-5 of it, relative). Small spheres and capsules
// swept the same way must not miss either.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "geometry/geometry.h"
#include "tread/tread.h"

#define FRACTION_TOLERANCE 1.0e-5 // relative

static const float ABOVE[] = {0.1f, 1.0f, 10.0f, 50.0f, 1000.0f};
#define ABOVE_COUNT ((int)(sizeof ABOVE / sizeof ABOVE[0]))

// ---- a deterministic random source ------------------------------------------------------------------------

static uint64_t rng = 0x9E3779B97F4A7C15u;
static double uniform(double lo, double hi) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}
static int pick(int n) { return (int)uniform(0.0, (double)n) % n; }

// ---- the reference: the nearest crossing in double precision, inclusive edges ---------------------------------

typedef struct soup {
    int count;
    tread_vec3 (*tri)[3]; // local space
} soup;

typedef struct dv {
    double x, y, z;
} dv;
static dv dvec(tread_vec3 v) { return (dv){v.x, v.y, v.z}; }
static dv dsub(dv a, dv b) { return (dv){a.x - b.x, a.y - b.y, a.z - b.z}; }
static dv dmad(dv a, double s, dv b) { return (dv){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z}; }
static double ddot(dv a, dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dv dcross(dv a, dv b) { return (dv){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
static double dlen(dv a) { return sqrt(ddot(a, a)); }

// The nearest t in [0, 1] at which o + t d crosses a triangle, a crossing within 1e-9 of its size outside an edge
// included (so a ray through a shared edge finds both triangles, whatever double rounding does).
static bool reference_cast(const soup *s, dv o, dv d, double *out_t) {
    bool found = false;
    for (int k = 0; k < s->count; k++) {
        dv a = dvec(s->tri[k][0]), b = dvec(s->tri[k][1]), c = dvec(s->tri[k][2]);
        dv n = dcross(dsub(b, a), dsub(c, a));
        double nd = ddot(n, d);
        if (nd == 0.0) continue;
        double t = -ddot(n, dsub(o, a)) / nd;
        if (t < 0.0 || t > 1.0) continue;
        dv x = dmad(o, t, d), v[3] = {a, b, c};
        bool inside = true;
        for (int i = 0; i < 3 && inside; i++) {
            dv e = dsub(v[(i + 1) % 3], v[i]);
            inside = ddot(dcross(e, dsub(x, v[i])), n) >= -1.0e-9 * dlen(e) * dlen(n) * (1.0 + dlen(e));
        }
        if (inside && (!found || t < *out_t)) *out_t = t, found = true;
    }
    return found;
}

// ---- worlds ----------------------------------------------------------------------------------------------

// A world of one static body of `shape` at `*at`; *at becomes the transform the world keeps (the rotation
// renormalised): the frame its queries reach the shape in.
static tread_world *world_of(tread_shape_def shape, tread_transform *at) {
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_def def = tread_body_def_default();
    def.shape = shape;
    def.transform = *at;
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    assert_int_equal(tread_body_get_transform(w, id, at), TREAD_OK);
    return w;
}

static tread_transform placed(tread_vec3 p) {
    tread_transform t = tread_transform_identity();
    t.p = p;
    return t;
}

// Counts of one family of rays; failures print the first few.
typedef struct tally {
    const char *what;
    int rays, misses, wrong;
    double worst; // relative fraction error
} tally;

// Casts origin + f * translation in the world; checks it against the reference in the body's frame.
static void check_ray(tally *tl, const tread_world *w, const soup *s, tread_transform body, tread_vec3 origin,
                      tread_vec3 translation) {
    dv lo = dvec(tread_transform_inv_point(body, origin)), ld = dvec(tread_transform_inv_vector(body, translation));
    double expect = 0.0;
    bool should = reference_cast(s, lo, ld, &expect);
    assert_true(should); // every ray here is aimed through the surface
    tread_ray_hit hit;
    assert_int_equal(tread_world_cast_ray(w, origin, translation, NULL, &hit), TREAD_OK);
    tl->rays++;
    double err = hit.hit ? fabs((double)hit.fraction - expect) / expect : INFINITY;
    if (hit.hit) tl->worst = fmax(tl->worst, err);
    if (!hit.hit || err > FRACTION_TOLERANCE) {
        if (hit.hit) tl->wrong++;
        else tl->misses++;
        if (tl->misses + tl->wrong > 5) return;
        fprintf(stderr, "%s: ray (%.9g, %.9g, %.9g) + f (%.9g, %.9g, %.9g): %s (expected f %.9g, got %.9g)\n", tl->what,
                (double)origin.x, (double)origin.y, (double)origin.z, (double)translation.x, (double)translation.y,
                (double)translation.z, hit.hit ? "wrong fraction" : "MISSED", expect, (double)hit.fraction);
        // The triangles the reference or the triangle test alone take the ray with, in the body's frame.
        tread_vec3 flo = tread_transform_inv_point(body, origin), fld = tread_transform_inv_vector(body, translation);
        for (int k = 0; k < s->count; k++) {
            double tk = -1.0;
            soup one = {1, &s->tri[k]};
            bool ref = reference_cast(&one, lo, ld, &tk);
            tr_hit h;
            bool lib = tr_ray_triangle(flo, fld, s->tri[k][0], s->tri[k][1], s->tri[k][2], 1.0f, &h);
            if (ref || lib) fprintf(stderr, "  triangle %d: reference %s (f %.9g), tr_ray_triangle %s\n", k, ref ? "hit" : "miss", tk, lib ? "hit" : "miss");
        }
    }
}

// Prints the family's counts; true when every ray hit at the right fraction.
static bool report(const tally *tl) {
    printf("%-44s %6d rays, %d missed, %d at a wrong fraction, worst relative error %.2e\n", tl->what, tl->rays,
           tl->misses, tl->wrong, tl->worst);
    return tl->misses == 0 && tl->wrong == 0;
}

// Straight down through (x, z) of the world from `above` m over the surface height y there.
static void check_down(tally *tl, const tread_world *w, const soup *s, tread_transform body, float x, float y, float z) {
    for (int h = 0; h < ABOVE_COUNT; h++) {
        float start = y + ABOVE[h];
        check_ray(tl, w, s, body, tread_v3(x, start, z), tread_v3(0.0f, -(2.0f * ABOVE[h] + 5.0f), 0.0f));
    }
}

// ---- the sine surface --------------------------------------------------------------------------------------

// P3's surface: 2 sin(20 u / period) cos(20 w / period) at grid coordinates (u, w), as the benchmark computes it
// (P3's period is 100; its resamplings over the same 50 m use the number of cells).
static float sine_over(int u, int w, float period) {
    return 2.0f * tread_sin((float)u * 20.0f / period) * tread_cos((float)w * 20.0f / period);
}

typedef struct grid {
    int n;          // cells along x and z
    int first_u;    // grid coordinate of sample 0
    float spacing;  // metres
    tread_vec3 at;  // body position
    float *heights; // (n + 1)^2, row-major in x
} grid;

static grid make_grid_over(int n, int first_u, float spacing, tread_vec3 at, float period) {
    grid g = {n, first_u, spacing, at, malloc(sizeof(float) * (size_t)((n + 1) * (n + 1)))};
    assert_non_null(g.heights);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) g.heights[j * (n + 1) + i] = sine_over(first_u + i, first_u + j, period);
    return g;
}
static grid make_grid(int n, int first_u, float spacing, tread_vec3 at) { return make_grid_over(n, first_u, spacing, at, 100.0f); }

static tread_vec3 grid_vertex(const grid *g, int i, int j) {
    return tread_v3((float)i * g->spacing, g->heights[j * (g->n + 1) + i], (float)j * g->spacing);
}

// The grid's triangles: cell (i, j) split along (i, j)-(i+1, j+1) ("main", the heightfield's split) or along
// (i+1, j)-(i, j+1) (P3's mesh), as a soup and as mesh indices.
static soup grid_soup(const grid *g, bool main_diagonal, uint32_t *indices) {
    soup s = {2 * g->n * g->n, malloc(sizeof(tread_vec3[3]) * (size_t)(2 * g->n * g->n))};
    assert_non_null(s.tri);
    int row = g->n + 1, k = 0;
    for (int j = 0; j < g->n; j++)
        for (int i = 0; i < g->n; i++) {
            uint32_t q[4] = {(uint32_t)(j * row + i), (uint32_t)(j * row + i + 1), (uint32_t)((j + 1) * row + i),
                             (uint32_t)((j + 1) * row + i + 1)}; // s00, s10, s01, s11
            uint32_t t[6] = {q[0], q[3], q[1], q[0], q[2], q[3]};
            if (!main_diagonal) {
                uint32_t u[6] = {q[0], q[2], q[1], q[1], q[2], q[3]};
                memcpy(t, u, sizeof t);
            }
            for (int m = 0; m < 6; m++) {
                if (indices) indices[6 * (j * g->n + i) + m] = t[m];
                s.tri[k + m / 3][m % 3] = grid_vertex(g, (int)(t[m] % (uint32_t)row), (int)(t[m] / (uint32_t)row));
            }
            k += 2;
        }
    return s;
}

typedef enum { AS_HEIGHTFIELD, AS_MESH_MAIN, AS_MESH_OTHER } surface_kind;

// A world holding the grid as a heightfield or a mesh; *s gets its triangles.
static tread_world *grid_world(const grid *g, surface_kind kind, soup *s) {
    tread_world *w = NULL;
    tread_transform at = placed(g->at);
    int row = g->n + 1;
    if (kind == AS_HEIGHTFIELD) {
        *s = grid_soup(g, true, NULL);
        tread_shape_def shape = tread_shape_def_default();
        shape.type = TREAD_SHAPE_HEIGHTFIELD;
        shape.heightfield.count_x = shape.heightfield.count_z = row;
        shape.heightfield.spacing_x = shape.heightfield.spacing_z = g->spacing;
        shape.heightfield.heights = g->heights;
        w = world_of(shape, &at);
    } else {
        uint32_t *indices = malloc(sizeof(uint32_t) * 6u * (size_t)(g->n * g->n));
        tread_vec3 *vertices = malloc(sizeof(tread_vec3) * (size_t)(row * row));
        assert_non_null(indices);
        assert_non_null(vertices);
        *s = grid_soup(g, kind == AS_MESH_MAIN, indices);
        for (int j = 0; j < row; j++)
            for (int i = 0; i < row; i++) vertices[j * row + i] = grid_vertex(g, i, j);
        w = world_of(tread_shape_mesh(vertices, row * row, indices, 2 * g->n * g->n), &at);
        free(indices);
        free(vertices);
    }
    return w;
}

// World point at fraction (fx, fz) of cell (i, j) and the surface height there when that point lies on the segment
// between local vertices p and q (at fraction f of the way), the height interpolated in double.
static void down_through(tally *tl, const tread_world *w, const soup *s, const grid *g, tread_vec3 p, tread_vec3 q, float f) {
    float x = p.x + f * (q.x - p.x), z = p.z + f * (q.z - p.z);
    double y = (double)p.y + (double)f * ((double)q.y - (double)p.y);
    check_down(tl, w, s, placed(g->at), g->at.x + x, g->at.y + (float)y, g->at.z + z);
}

// Every grid point, every cell diagonal (of the surface's split) and every cell border at quarter points.
static bool check_grid(const grid *g, surface_kind kind, const char *what) {
    soup s;
    tread_world *w = grid_world(g, kind, &s);
    tally tl = {what, 0, 0, 0, 0.0};
    for (int j = 0; j <= g->n; j++)
        for (int i = 0; i <= g->n; i++) down_through(&tl, w, &s, g, grid_vertex(g, i, j), grid_vertex(g, i, j), 0.0f);
    for (int j = 0; j < g->n; j++)
        for (int i = 0; i < g->n; i++)
            for (int q = 1; q <= 3; q++) {
                float f = 0.25f * (float)q;
                if (kind == AS_MESH_OTHER)
                    down_through(&tl, w, &s, g, grid_vertex(g, i + 1, j), grid_vertex(g, i, j + 1), f);
                else
                    down_through(&tl, w, &s, g, grid_vertex(g, i, j), grid_vertex(g, i + 1, j + 1), f);
                if (i > 0) down_through(&tl, w, &s, g, grid_vertex(g, i, j), grid_vertex(g, i, j + 1), f);
                if (j > 0) down_through(&tl, w, &s, g, grid_vertex(g, i, j), grid_vertex(g, i + 1, j), f);
            }
    tread_world_destroy(w);
    free(s.tri);
    return report(&tl);
}

static void test_p3_heightfield_ray_through_a_grid_point(void **state) {
    (void)state;
    // P3's ground: 101 x 101 samples 0.5 m apart, sample (0, 0) at (-25, 0, -25). (-4, -20) is sample (42, 10).
    grid g = make_grid(100, 0, 0.5f, tread_v3(-25.0f, 0.0f, -25.0f));
    soup s;
    tread_world *w = grid_world(&g, AS_HEIGHTFIELD, &s);
    float y = g.heights[10 * 101 + 42];
    const float starts[] = {50.0f, 10.0f, 3.0f, 0.0f};
    for (int k = 0; k < 4; k++) {
        tread_ray_hit hit;
        assert_int_equal(tread_world_cast_ray(w, tread_v3(-4.0f, starts[k], -20.0f), tread_v3(0, -100.0f, 0), NULL, &hit),
                         TREAD_OK);
        if (!hit.hit) fprintf(stderr, "P3: the ray down at (-4, -20) from y = %g missed\n", (double)starts[k]);
        assert_true(hit.hit);
        double expect = ((double)starts[k] - (double)y) / 100.0;
        assert_true(fabs((double)hit.fraction - expect) <= FRACTION_TOLERANCE * expect);
        assert_true(fabs((double)hit.point.y - (double)y) <= 1.0e-4);
    }
    tread_world_destroy(w);
    free(s.tri);
    free(g.heights);
}

static void test_mesh_1k_ray_through_a_diagonal(void **state) {
    (void)state;
    // The benchmark's mesh-1k: P3's surface over 22 x 22 cells of 50/22 m, split along (i + 1, j)-(i, j + 1), vertex
    // (0, 0) at (-25, 0, -25). (16, -16) is local (41, 9): on the diagonal x + z = 50 of cell (18, 3), 1.10 m high
    // (the benchmark's ray from y = 0 starts under it and rightly misses).
    grid g = make_grid_over(22, 0, 50.0f / 22.0f, tread_v3(-25.0f, 0.0f, -25.0f), 22.0f);
    soup s;
    tread_world *w = grid_world(&g, AS_MESH_OTHER, &s);
    tally tl = {"mesh-1k, straight down at (16, -16)", 0, 0, 0, 0.0};
    const float starts[] = {1000.0f, 50.0f, 10.0f, 3.0f};
    for (int k = 0; k < 4; k++)
        check_ray(&tl, w, &s, placed(g.at), tread_v3(16.0f, starts[k], -16.0f), tread_v3(0, -2.0f * starts[k], 0));
    tread_world_destroy(w);
    free(s.tri);
    free(g.heights);
    assert_true(report(&tl));
}

static void test_sine_patch_heightfield(void **state) {
    (void)state;
    // A 20 x 20 patch of P3's surface, placed as P3 places it, and the same patch 0.3 m apart at an odd offset
    // (local coordinates then round on the way from the world).
    grid g = make_grid(20, 30, 0.5f, tread_v3(-10.0f, 0.0f, -15.0f));
    bool ok = check_grid(&g, AS_HEIGHTFIELD, "heightfield 0.5 m, straight down");
    free(g.heights);
    g = make_grid(20, 7, 0.3f, tread_v3(-7.25f, 0.375f, 12.75f));
    ok &= check_grid(&g, AS_HEIGHTFIELD, "heightfield 0.3 m, straight down");
    free(g.heights);
    assert_true(ok);
}

static void test_sine_patch_meshes(void **state) {
    (void)state;
    grid g = make_grid(20, 30, 0.5f, tread_v3(-10.0f, 0.0f, -15.0f));
    bool ok = check_grid(&g, AS_MESH_MAIN, "mesh (heightfield's split), straight down");
    ok &= check_grid(&g, AS_MESH_OTHER, "mesh (P3's split), straight down");
    free(g.heights);
    g = make_grid(20, 7, 0.3f, tread_v3(-7.25f, 0.375f, 12.75f));
    ok &= check_grid(&g, AS_MESH_OTHER, "mesh 0.3 m (P3's split), straight down");
    free(g.heights);
    assert_true(ok);
}

// ---- random meshes ---------------------------------------------------------------------------------------------

// A jittered n x n grid with random heights and a random diagonal per cell, turned by a random rotation and
// moved; each triangle's corners in a random order, the triangles shuffled. edges[] gets the interior edges (pairs
// of vertex indices shared by two triangles).
typedef struct random_mesh {
    int vertex_count, triangle_count, edge_count;
    tread_vec3 *vertices;
    uint32_t *indices;
    uint32_t (*edges)[2];
    tread_vec3 up; // the grid's up direction after the turn
} random_mesh;

static tread_quat random_rotation(void) {
    double x, y, z, w, l;
    do {
        x = uniform(-1, 1), y = uniform(-1, 1), z = uniform(-1, 1), w = uniform(-1, 1);
        l = x * x + y * y + z * z + w * w;
    } while (l > 1.0 || l < 0.01);
    l = sqrt(l);
    tread_quat q = {(float)(x / l), (float)(y / l), (float)(z / l), (float)(w / l)};
    return q;
}

static random_mesh make_random_mesh(int n, float cell, float relief) {
    random_mesh m;
    int row = n + 1;
    m.vertex_count = row * row;
    m.triangle_count = 2 * n * n;
    m.vertices = malloc(sizeof(tread_vec3) * (size_t)m.vertex_count);
    m.indices = malloc(sizeof(uint32_t) * 3u * (size_t)m.triangle_count);
    m.edges = malloc(sizeof(uint32_t[2]) * (size_t)(3 * n * n));
    assert_non_null(m.vertices);
    assert_non_null(m.indices);
    assert_non_null(m.edges);
    tread_quat q = random_rotation();
    tread_vec3 shift = tread_v3((float)uniform(-50, 50), (float)uniform(-50, 50), (float)uniform(-50, 50));
    m.up = tread_quat_rotate(q, tread_v3(0, 1, 0));
    for (int j = 0; j < row; j++)
        for (int i = 0; i < row; i++) {
            // Up to 0.15 of a cell aside: no triangle turns over.
            float jx = (i > 0 && i < n) ? (float)uniform(-0.15, 0.15) : 0.0f, jz = (j > 0 && j < n) ? (float)uniform(-0.15, 0.15) : 0.0f;
            tread_vec3 p = tread_v3(cell * ((float)i + jx), (float)uniform(-relief, relief), cell * ((float)j + jz));
            m.vertices[j * row + i] = tread_v3_add(tread_quat_rotate(q, p), shift);
        }
    m.edge_count = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            uint32_t s00 = (uint32_t)(j * row + i), s10 = s00 + 1, s01 = s00 + (uint32_t)row, s11 = s01 + 1;
            bool main = uniform(0, 1) < 0.5;
            uint32_t t[6] = {s00, s11, s10, s00, s01, s11};
            if (!main) {
                uint32_t u[6] = {s00, s01, s10, s10, s01, s11};
                memcpy(t, u, sizeof t);
            }
            for (int k = 0; k < 2; k++) {
                int rot = pick(3);
                bool flip = uniform(0, 1) < 0.5;
                int c = 2 * (j * n + i) + k;
                for (int v = 0; v < 3; v++) m.indices[3 * c + v] = t[3 * k + (flip ? (rot + 3 - v) % 3 : (rot + v) % 3)];
            }
            // Edges away from the mesh's border (a ray through a border vertex may rightly miss): the diagonal, the
            // cell's x = i border and its z = j border, when both ends are interior vertices.
            bool in00 = i > 0 && j > 0, in10 = i + 1 < n && j > 0, in01 = i > 0 && j + 1 < n, in11 = i + 1 < n && j + 1 < n;
            if (main ? in00 && in11 : in10 && in01)
                m.edges[m.edge_count][0] = main ? s00 : s10, m.edges[m.edge_count][1] = main ? s11 : s01, m.edge_count++;
            if (in00 && in01) m.edges[m.edge_count][0] = s00, m.edges[m.edge_count][1] = s01, m.edge_count++;
            if (in00 && in10) m.edges[m.edge_count][0] = s00, m.edges[m.edge_count][1] = s10, m.edge_count++;
        }
    for (int c = m.triangle_count - 1; c > 0; c--) { // shuffle the triangles
        int o = pick(c + 1);
        for (int v = 0; v < 3; v++) {
            uint32_t tmp = m.indices[3 * c + v];
            m.indices[3 * c + v] = m.indices[3 * o + v];
            m.indices[3 * o + v] = tmp;
        }
    }
    return m;
}

static soup mesh_soup(const random_mesh *m) {
    soup s = {m->triangle_count, malloc(sizeof(tread_vec3[3]) * (size_t)m->triangle_count)};
    assert_non_null(s.tri);
    for (int t = 0; t < m->triangle_count; t++)
        for (int v = 0; v < 3; v++) s.tri[t][v] = m->vertices[m->indices[3 * t + v]];
    return s;
}

// A random direction within 35 degrees of +-up: steeper than any face of a random mesh (relief up to 0.4 of a cell,
// corners moved up to 0.15 of a cell: faces tilt at most 49 degrees), so the ray's line crosses the surface once.
static tread_vec3 random_steep_direction(tread_vec3 up) {
    for (;;) {
        tread_vec3 v = tread_v3((float)uniform(-1, 1), (float)uniform(-1, 1), (float)uniform(-1, 1));
        float l = tread_v3_length(v);
        if (l > 1.0f || l < 0.1f) continue;
        v = tread_v3_scale(v, 1.0f / l);
        float c = tread_v3_dot(v, up);
        if (fabsf(c) >= 0.82f) return v;
    }
}

// A point of edge (a, b): a vertex now and then, else a random point between them (rounded to float).
static tread_vec3 point_on_edge(tread_vec3 a, tread_vec3 b) {
    double u = uniform(0, 1);
    if (u < 0.1) return a;
    float f = (float)uniform(0, 1);
    if (u < 0.2) f = 0.5f;
    return tread_v3_add(a, tread_v3_scale(tread_v3_sub(b, a), f));
}

static void test_random_meshes_rays_through_shared_edges(void **state) {
    (void)state;
    rng = 0x5EED0001u;
    tally world_tally = {"random meshes, rays through shared edges", 0, 0, 0, 0.0};
    tally tri_tally = {"the same rays, triangle by triangle", 0, 0, 0, 0.0};
    for (int mi = 0; mi < 24; mi++) {
        float cell = (float)uniform(0.05, 3.0);
        random_mesh m = make_random_mesh(6 + pick(10), cell, cell * (float)uniform(0.0, 0.4));
        soup s = mesh_soup(&m);
        tread_transform body = tread_transform_identity();
        if (mi % 2) body.q = random_rotation(), body.p = tread_v3((float)uniform(-100, 100), 3.0f, (float)uniform(-100, 100));
        tread_world *w = world_of(tread_shape_mesh(m.vertices, m.vertex_count, m.indices, m.triangle_count), &body);
        for (int r = 0; r < 600; r++) {
            const uint32_t *e = m.edges[pick(m.edge_count)];
            tread_vec3 local = point_on_edge(m.vertices[e[0]], m.vertices[e[1]]);
            tread_vec3 p = tread_transform_point(body, local);
            tread_vec3 dir = random_steep_direction(tread_transform_vector(body, m.up));
            float reach = ABOVE[pick(ABOVE_COUNT)];
            tread_vec3 origin = tread_v3_sub(p, tread_v3_scale(dir, reach));
            tread_vec3 translation = tread_v3_scale(dir, 2.0f * reach + 1.0f);
            check_ray(&world_tally, w, &s, body, origin, translation);
            // In the mesh's frame, the triangles alone: one of them must take the ray.
            tread_vec3 lo = tread_transform_inv_point(body, origin), ld = tread_transform_inv_vector(body, translation);
            bool any = false;
            for (int t = 0; t < s.count && !any; t++) {
                tr_hit h;
                any = tr_ray_triangle(lo, ld, s.tri[t][0], s.tri[t][1], s.tri[t][2], 1.0f, &h);
            }
            tri_tally.rays++;
            if (!any) {
                tri_tally.misses++;
                if (tri_tally.misses <= 5)
                    fprintf(stderr, "triangles: local ray (%.9g, %.9g, %.9g) + f (%.9g, %.9g, %.9g) hits none\n", (double)lo.x,
                            (double)lo.y, (double)lo.z, (double)ld.x, (double)ld.y, (double)ld.z);
            }
        }
        tread_world_destroy(w);
        free(s.tri);
        free(m.vertices);
        free(m.indices);
        free(m.edges);
    }
    bool ok = report(&world_tally);
    ok &= report(&tri_tally);
    assert_true(ok);
}

// Random heightfields: odd spacings (x and z apart), heights up to 0.4 of a cell, turned every way; random steep
// rays through random points of interior edges (diagonals and cell borders) and vertices. The walk over the cells
// must reach the cell whose triangle takes the ray, whatever rounding does to the ray's crossings of the borders.
static void test_random_heightfields_rays_through_shared_edges(void **state) {
    (void)state;
    rng = 0x5EED0002u;
    tally tl = {"random heightfields, rays through shared edges", 0, 0, 0, 0.0};
    for (int fi = 0; fi < 24; fi++) {
        int nx = 6 + pick(10), nz = 6 + pick(10);
        float sx = (float)uniform(0.05, 3.0), sz = fi % 3 ? (float)uniform(0.05, 3.0) : sx;
        float relief = 0.4f * tr_minf(sx, sz) * (float)uniform(0.0, 1.0);
        float *heights = malloc(sizeof(float) * (size_t)((nx + 1) * (nz + 1)));
        assert_non_null(heights);
        for (int k = 0; k < (nx + 1) * (nz + 1); k++) heights[k] = (float)uniform(-relief, relief);
        tread_shape_def shape = tread_shape_def_default();
        shape.type = TREAD_SHAPE_HEIGHTFIELD;
        shape.heightfield.count_x = nx + 1, shape.heightfield.count_z = nz + 1;
        shape.heightfield.spacing_x = sx, shape.heightfield.spacing_z = sz;
        shape.heightfield.heights = heights;
        tread_transform body = placed(tread_v3((float)uniform(-100, 100), (float)uniform(-10, 10), (float)uniform(-100, 100)));
        if (fi % 2) body.q = random_rotation();
        tread_world *w = world_of(shape, &body);
        soup s = {2 * nx * nz, malloc(sizeof(tread_vec3[3]) * (size_t)(2 * nx * nz))};
        assert_non_null(s.tri);
#define HF_VERTEX(i, j) tread_v3((float)(i) * sx, heights[(j) * (nx + 1) + (i)], (float)(j) * sz)
        for (int j = 0, k = 0; j < nz; j++)
            for (int i = 0; i < nx; i++, k += 2) {
                tread_vec3 t[6] = {HF_VERTEX(i, j), HF_VERTEX(i + 1, j + 1), HF_VERTEX(i + 1, j),
                                   HF_VERTEX(i, j), HF_VERTEX(i, j + 1), HF_VERTEX(i + 1, j + 1)};
                memcpy(s.tri[k], t, sizeof t);
            }
        tread_vec3 up = tread_transform_vector(body, tread_v3(0, 1, 0));
        for (int r = 0; r < 600; r++) {
            // An interior vertex (i, j) and one of its edges: +x border, +z border or the diagonal.
            int i = 1 + pick(nx - 2), j = 1 + pick(nz - 2), kind = pick(3);
            tread_vec3 a = HF_VERTEX(i, j), b = kind == 0 ? HF_VERTEX(i + 1, j) : kind == 1 ? HF_VERTEX(i, j + 1) : HF_VERTEX(i + 1, j + 1);
            tread_vec3 p = tread_transform_point(body, point_on_edge(a, b));
            tread_vec3 dir = random_steep_direction(up);
            if (r % 4 == 0) dir = tread_v3_neg(up); // straight down the heightfield's own axis
            if (r % 4 == 1 && kind < 2) {
                // Down the slope of a plane through the border itself: in the heightfield's frame the path stays on the
                // grid line (x or z fixed), steeper than any face.
                float along = uniform(0, 1) < 0.5 ? -1.0f : 1.0f, drop = -(float)uniform(2.0, 4.0);
                dir = tread_transform_vector(body, tread_v3_normalize(kind == 0 ? tread_v3(along, drop, 0) : tread_v3(0, drop, along)));
            }
            float reach = ABOVE[pick(ABOVE_COUNT)];
            check_ray(&tl, w, &s, body, tread_v3_sub(p, tread_v3_scale(dir, reach)), tread_v3_scale(dir, 2.0f * reach + 1.0f));
        }
#undef HF_VERTEX
        tread_world_destroy(w);
        free(s.tri);
        free(heights);
    }
    assert_true(report(&tl));
}

// ---- voxels ------------------------------------------------------------------------------------------------

// A voxel ground of columns (heights from P3's surface, in cells): rays straight down through every corner and
// every edge of the columns' tops, the grid's outer border included, hit the highest column touching the ray's line
// (the boxes are closed: a ray down a column's side touches the top's edge), from every start height.
static bool check_voxel_columns(float cell, tread_vec3 at, const char *what) {
    enum { N = 12, LEVELS = 8 };
    uint8_t solid[N * LEVELS * N];
    int top[N][N]; // solid levels of column (i, k)
    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++) {
            top[k][i] = 1 + (int)((sine_over(3 * i, 3 * k, 100.0f) + 2.0f) * 1.7f); // 1..7
            for (int j = 0; j < LEVELS; j++) solid[(k * LEVELS + j) * N + i] = (uint8_t)(j < top[k][i]);
        }
    tread_shape_def shape = tread_shape_def_default();
    shape.type = TREAD_SHAPE_VOXELS;
    shape.voxels.count_x = N, shape.voxels.count_y = LEVELS, shape.voxels.count_z = N;
    shape.voxels.cell_size = cell;
    shape.voxels.solid = solid;
    tread_transform body = placed(at);
    tread_world *w = world_of(shape, &body);
    tally tl = {what, 0, 0, 0, 0.0};
    // Points at half-cell steps: corners (even, even), edge midpoints (one odd), top centres (both odd).
    for (int hz = 0; hz <= 2 * N; hz++)
        for (int hx = 0; hx <= 2 * N; hx++) {
            int highest = 0;
            for (int k = (hz - 1) / 2; k <= hz / 2; k++)
                for (int i = (hx - 1) / 2; i <= hx / 2; i++)
                    if (i >= 0 && k >= 0 && i < N && k < N && top[k][i] > highest) highest = top[k][i];
            float x = at.x + 0.5f * cell * (float)hx, z = at.z + 0.5f * cell * (float)hz, y = at.y + cell * (float)highest;
            for (int h = 0; h < ABOVE_COUNT; h++) {
                float start = y + ABOVE[h], length = 2.0f * ABOVE[h] + 5.0f;
                tread_ray_hit hit;
                assert_int_equal(tread_world_cast_ray(w, tread_v3(x, start, z), tread_v3(0, -length, 0), NULL, &hit), TREAD_OK);
                double expect = ((double)start - (double)y) / (double)length;
                double err = hit.hit ? fabs((double)hit.fraction - expect) / expect : INFINITY;
                tl.rays++;
                if (hit.hit) tl.worst = fmax(tl.worst, err);
                if (hit.hit && err <= FRACTION_TOLERANCE) continue;
                if (hit.hit) tl.wrong++;
                else tl.misses++;
                if (tl.misses + tl.wrong <= 5)
                    fprintf(stderr, "%s: down from (%.9g, %.9g, %.9g) by %g: %s (expected f %.9g, got %.9g)\n", what, (double)x,
                            (double)start, (double)z, (double)length, hit.hit ? "wrong fraction" : "MISSED", expect,
                            (double)hit.fraction);
            }
        }
    tread_world_destroy(w);
    return report(&tl);
}

static void test_voxel_columns(void **state) {
    (void)state;
    bool ok = check_voxel_columns(0.5f, tread_v3(-25.0f, -3.0f, -25.0f), "voxels 0.5 m, straight down");
    ok &= check_voxel_columns(0.25f, tread_v3(3.5f, 0.75f, -1.25f), "voxels 0.25 m, straight down");
    assert_true(ok);
}

// ---- shape casts -------------------------------------------------------------------------------------------

// Spheres and capsules straight down through the same grid points, diagonals and borders. A cast with volume covers a
// shared edge from both sides, so it finds a triangle whatever the rounding once its radius is above the rounding of
// the distances involved: a radius of the touch tolerance (0.1 mm) and the usual 0.3 m never miss, from any height.
// (Spheres of 10 um and less do miss here, as rays did: the sweep's separating-axis culling and its edge capsules
// have no slack for rounding. Not fixed: such shapes are rays for every practical purpose.)
static bool check_casts_down(const grid *g, surface_kind kind, tread_query_shape shape, const char *what) {
    soup s;
    tread_world *w = grid_world(g, kind, &s);
    float below = shape.type == TREAD_QUERY_SPHERE ? shape.radius : shape.half_height + shape.radius;
    int casts = 0, misses = 0, wrong = 0;
    for (int j = 0; j <= g->n; j++)
        for (int i = 0; i <= g->n; i++)
            for (int q = 0; q < 7; q++) {
                // q 0: the grid point; 1-3: the cell's diagonal at quarters; 4-6: its x = i border at quarters.
                if ((q > 0 && (i == g->n || j == g->n)) || (q > 3 && i == 0)) continue;
                tread_vec3 p = grid_vertex(g, i, j), e = p;
                if (q > 0) e = q < 4 ? grid_vertex(g, i + 1, j + 1) : grid_vertex(g, i, j + 1);
                float f = 0.25f * (float)(q < 4 ? q : q - 3);
                float x = p.x + f * (e.x - p.x), z = p.z + f * (e.z - p.z), y = p.y + f * (e.y - p.y);
                for (int h = 0; h < ABOVE_COUNT; h++) {
                    float length = 2.0f * ABOVE[h] + 5.0f;
                    tread_vec3 from = tread_v3(g->at.x + x, g->at.y + y + ABOVE[h] + below, g->at.z + z);
                    tread_shape_hit hit;
                    assert_int_equal(tread_world_cast_shape(w, &shape, from, tread_v3(0, -length, 0), NULL, &hit), TREAD_OK);
                    casts++;
                    // A small shape lands where a ray would, within its radius (the surface under it slopes).
                    bool near = shape.radius > 1.0e-3f ||
                                fabs((double)hit.fraction * length - ABOVE[h]) <= 3.0 * shape.radius + 1.0e-5 * length;
                    if (hit.hit && near) continue;
                    if (hit.hit) wrong++;
                    else misses++;
                    if (misses + wrong <= 3)
                        fprintf(stderr, "%s: down from (%.9g, %.9g, %.9g) by %g: %s (fraction %.9g)\n", what, (double)from.x,
                                (double)from.y, (double)from.z, (double)length, hit.hit ? "lands off" : "MISSED", (double)hit.fraction);
                }
            }
    tread_world_destroy(w);
    free(s.tri);
    printf("%-44s %6d casts, %d missed, %d landed off\n", what, casts, misses, wrong);
    return misses == 0 && wrong == 0;
}

static void test_small_shapes_down_through_shared_edges(void **state) {
    (void)state;
    grid g = make_grid(20, 30, 0.5f, tread_v3(-10.0f, 0.0f, -15.0f));
    tread_vec3 up = tread_v3(0, 1, 0);
    bool ok = check_casts_down(&g, AS_HEIGHTFIELD, tread_query_sphere(1.0e-4f), "heightfield, sphere r 0.1 mm");
    ok &= check_casts_down(&g, AS_MESH_MAIN, tread_query_sphere(1.0e-4f), "mesh, sphere r 0.1 mm");
    ok &= check_casts_down(&g, AS_HEIGHTFIELD, tread_query_capsule(0.6f, 1.0e-4f, up), "heightfield, capsule r 0.1 mm");
    ok &= check_casts_down(&g, AS_MESH_MAIN, tread_query_capsule(0.6f, 0.3f, up), "mesh, capsule r 0.3 m");
    free(g.heights);
    assert_true(ok);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p3_heightfield_ray_through_a_grid_point),
        cmocka_unit_test(test_mesh_1k_ray_through_a_diagonal),
        cmocka_unit_test(test_sine_patch_heightfield),
        cmocka_unit_test(test_sine_patch_meshes),
        cmocka_unit_test(test_random_meshes_rays_through_shared_edges),
        cmocka_unit_test(test_random_heightfields_rays_through_shared_edges),
        cmocka_unit_test(test_voxel_columns),
        cmocka_unit_test(test_small_shapes_down_through_shared_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
