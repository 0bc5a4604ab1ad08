// SPDX-License-Identifier: MIT
#include "worlds.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench_util.h"
#include "course.h"

// ---- the P1 field, at P1's density for any crowd -----------------------------------------------------------

// Lengths grow with the square root of the crowd, so area (and the boxes and characters on it) grow with it.
static double field_scale(int characters) { return sqrt((double)characters / 1000.0); }

int world_field_columns(int characters) { return (int)lround(40.0 * field_scale(characters)); }

tread_world *world_field(int characters) {
    float floor_half = (float)(50.0 * field_scale(characters)), half = (float)(40.0 * field_scale(characters));
    int boxes = (int)((long)characters * 400 / 1000);
    tread_world *w = NULL;
    if (tread_world_create(NULL, &w) != TREAD_OK) return NULL;
    course_box(w, tread_v3(-floor_half, -1, -floor_half), tread_v3(floor_half, 0, floor_half));
    // The course's draws, in its order: centre x, centre z, full size x, full size z, height (tests/course.h's
    // course_p1_field is this with 1000 characters; the centres' range is what grows).
    const float lo[5] = {-half, -half, 0.3f, 0.3f, 0.1f}, hi[5] = {half, half, 2.0f, 2.0f, 0.6f};
    uint64_t state = 12345;
    for (int i = 0; i < boxes; ++i) {
        float d[5];
        for (int k = 0; k < 5; ++k) d[k] = course_uniform(&state, lo[k], hi[k]);
        course_box(w, tread_v3(d[0] - 0.5f * d[2], 0, d[1] - 0.5f * d[3]), tread_v3(d[0] + 0.5f * d[2], d[4], d[1] + 0.5f * d[3]));
    }
    // course_box does not report failures: count what arrived.
    if (tread_world_body_count(w) != 1 + boxes) {
        tread_world_destroy(w);
        return NULL;
    }
    return w;
}

// ---- the sine ground -----------------------------------------------------------------------------------------

// The project's own sine and cosine: the same surface, bit for bit, on every platform and libm.
static float sine_height(const sine_ground *g, float u, float w) {
    return 2.0f * tread_sin(u * 20.0f / g->period) * tread_cos(w * 20.0f / g->period);
}

static bool add_static(tread_world *w, tread_shape_def shape, tread_vec3 position) {
    tread_body_def def = tread_body_def_default();
    def.shape = shape;
    def.transform.p = position;
    tread_body_id id;
    return tread_world_add_body(w, &def, &id) == TREAD_OK;
}

// Where grid coordinate 0 lies: P3's vertex (0, 0) at (-25, 0, -25) whatever the grid's extent.
static float ground_origin(const sine_ground *g) { return -25.0f + g->cell * (float)g->first; }

// The triangulation of the well-known engine's scene (diagonal from vertex (i + 1, j) to (i, j + 1)); the spec
// leaves it open. Triangles are two-sided, so the winding does not matter.
static bool add_mesh(tread_world *w, const sine_ground *g, ground_stats *st) {
    int n = g->cells, row = n + 1;
    tread_vec3 *vertices = malloc(sizeof *vertices * (size_t)row * (size_t)row);
    uint32_t *indices = malloc(sizeof *indices * 6u * (size_t)n * (size_t)n);
    bool ok = vertices && indices;
    for (int j = 0; ok && j <= n; ++j)
        for (int i = 0; i <= n; ++i)
            vertices[j * row + i] = tread_v3(g->cell * (float)i, sine_height(g, (float)(g->first + i), (float)(g->first + j)), g->cell * (float)j);
    uint32_t *next = indices;
    for (int j = 0; ok && j < n; ++j)
        for (int i = 0; i < n; ++i) {
            uint32_t start = (uint32_t)(j * row + i);
            *next++ = start, *next++ = start + (uint32_t)row, *next++ = start + 1;
            *next++ = start + 1, *next++ = start + (uint32_t)row, *next++ = start + (uint32_t)row + 1;
        }
    float o = ground_origin(g);
    ok = ok && add_static(w, tread_shape_mesh(vertices, row * row, indices, 2 * n * n), tread_v3(o, 0, o));
    st->features = 2L * n * n;
    st->feature = "triangles";
    free(vertices);
    free(indices);
    return ok;
}

static bool add_heightfield(tread_world *w, const sine_ground *g, ground_stats *st) {
    int n = g->cells, row = n + 1;
    float *heights = malloc(sizeof *heights * (size_t)row * (size_t)row);
    if (!heights) return false;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) heights[j * row + i] = sine_height(g, (float)(g->first + i), (float)(g->first + j));
    tread_shape_def shape = tread_shape_def_default();
    shape.type = TREAD_SHAPE_HEIGHTFIELD;
    shape.heightfield.count_x = shape.heightfield.count_z = row;
    shape.heightfield.spacing_x = shape.heightfield.spacing_z = g->cell;
    shape.heightfield.heights = heights;
    float o = ground_origin(g);
    bool ok = add_static(w, shape, tread_v3(o, 0, o));
    st->features = 2L * n * n;
    st->feature = "triangles";
    free(heights);
    return ok;
}

// Columns from 3 m below the lowest point of the surface (-2 m) to the cell boundary nearest the surface.
#define VOXEL_BASE (-3.0f)

static bool add_voxels(tread_world *w, const sine_ground *g, ground_stats *st) {
    int n = g->cells, high = (int)ceilf((2.0f - VOXEL_BASE) / g->cell) + 1;
    uint8_t *solid = calloc((size_t)n * (size_t)high * (size_t)n, 1);
    if (!solid) return false;
    long cells = 0;
    for (int k = 0; k < n; ++k)
        for (int i = 0; i < n; ++i) {
            float h = sine_height(g, (float)(g->first + i) + 0.5f, (float)(g->first + k) + 0.5f);
            int top = (int)floorf((h - VOXEL_BASE) / g->cell + 0.5f);
            for (int j = 0; j < top && j < high; ++j, ++cells) solid[((size_t)k * (size_t)high + (size_t)j) * (size_t)n + (size_t)i] = 1;
        }
    tread_shape_def shape = tread_shape_def_default();
    shape.type = TREAD_SHAPE_VOXELS;
    shape.voxels.count_x = shape.voxels.count_z = n;
    shape.voxels.count_y = high;
    shape.voxels.cell_size = g->cell;
    shape.voxels.solid = solid;
    float o = ground_origin(g);
    bool ok = add_static(w, shape, tread_v3(o, VOXEL_BASE, o));
    st->features = cells;
    st->feature = "cells";
    free(solid);
    return ok;
}

// ---- the P3 scene --------------------------------------------------------------------------------------------

// The ground's height under (x, z): a ray straight down. A vertical ray exactly through an edge that two
// triangles share (a heightfield's grid point, the diagonal of a mesh's cell) can miss both of them, depending on
// where it starts (seen at P3's box (-4, -20) on the heightfield, and on a 22-cell mesh); then it is cast again
// 0.1 mm and 0.2 mm aside (off every grid line and diagonal), which moves the height by less than 0.2 mm here.
static bool surface_height(const tread_world *w, float x, float z, float *out_y) {
    static bool told;
    for (int attempt = 0; attempt < 2; ++attempt) {
        tread_ray_hit hit;
        tread_vec3 from = attempt ? tread_v3(x + 1e-4f, 50.0f, z + 2e-4f) : tread_v3(x, 50.0f, z);
        if (tread_world_cast_ray(w, from, tread_v3(0, -100.0f, 0), NULL, &hit) == TREAD_OK && hit.hit) {
            *out_y = hit.point.y;
            return true;
        }
        if (!told) fprintf(stderr, "note: a ray straight down at (%g, %g) missed the ground; cast again 0.2 mm aside\n", (double)x, (double)z);
        told = true;
    }
    return false;
}

static bool add_box(tread_world *w, tread_vec3 centre, tread_vec3 half) { return add_static(w, tread_shape_box(half), centre); }

tread_world *world_p3(const sine_ground *ground, ground_stats *out_stats) {
    tread_world *w = NULL;
    if (tread_world_create(NULL, &w) != TREAD_OK) return NULL;
    ground_stats st = {0, "", 0};
    size_t before = bench_live_bytes();
    bool ok = ground->kind == GROUND_MESH          ? add_mesh(w, ground, &st)
              : ground->kind == GROUND_HEIGHTFIELD ? add_heightfield(w, ground, &st)
                                                   : add_voxels(w, ground, &st);
    st.bytes = bench_live_bytes() - before;
    // The boxes stand on the sine surface itself ("surface + 0.25"), so their heights are read before anything
    // else is built: straight down onto the ground.
    float surface[100];
    for (int k = 0; ok && k < 100; ++k)
        ok = surface_height(w, 4.0f * (float)(k % 10) - 20.0f, 4.0f * (float)(k / 10) - 20.0f, &surface[k]);
    for (int i = 0; ok && i < 10; ++i) {
        float half = 4.0f - 0.4f * (float)i;
        ok = add_box(w, tread_v3(-4.0f, -1.0f + 0.3f * (float)i, 0), tread_v3(half, 0.15f, half));
    }
    for (int z = 0; ok && z < 10; ++z) ok = add_box(w, tread_v3(2.0f, 1.0f, 2.0f + 0.2f * (float)z), tread_v3(0.1f, 2.5f, 0.1f));
    for (int k = 0; ok && k < 100; ++k)
        ok = add_box(w, tread_v3(4.0f * (float)(k % 10) - 20.0f, surface[k] + 0.25f, 4.0f * (float)(k / 10) - 20.0f), tread_v3(0.25f, 0.25f, 0.25f));
    if (!ok) {
        tread_world_destroy(w);
        return NULL;
    }
    if (out_stats) *out_stats = st;
    return w;
}

float world_rest_height(const tread_world *w, const tread_query_shape *shape, float centre_above_feet, float x, float z) {
    const float top = 50.0f;
    tread_shape_hit hit;
    if (tread_world_cast_shape(w, shape, tread_v3(x, top, z), tread_v3(0, -2.0f * top, 0), NULL, &hit) != TREAD_OK || !hit.hit)
        return NAN;
    return top - 2.0f * top * hit.fraction - centre_above_feet;
}
