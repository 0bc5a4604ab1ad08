// SPDX-License-Identifier: MIT
// The level's triangles in double (from the very floats tread was given) and a uniform grid over them: the checks
// ask for the triangles near the character every frame, and a level has tens of thousands.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk.h"

// Cell edge, metres: about a character's size, so a query touches a handful of cells.
#define GRID_CELL 2.0
// Most cells along an axis (larger levels get larger cells).
#define GRID_MAX_CELLS 512

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static void cell_range(const walk_grid *g, soak_v3 lo, soak_v3 hi, int c0[3], int c1[3]) {
    double l[3] = {lo.x - g->lo.x, lo.y - g->lo.y, lo.z - g->lo.z}, h[3] = {hi.x - g->lo.x, hi.y - g->lo.y, hi.z - g->lo.z};
    int n[3] = {g->nx, g->ny, g->nz};
    for (int k = 0; k < 3; ++k) {
        c0[k] = clampi((int)floor(l[k] / g->cell), 0, n[k] - 1);
        c1[k] = clampi((int)floor(h[k] / g->cell), 0, n[k] - 1);
    }
}

bool walk_grid_build(walk_grid *g, const level *lv, char *err, size_t errsize) {
    memset(g, 0, sizeof *g);
    g->tris = calloc((size_t)lv->triangle_count + 1, sizeof *g->tris);
    if (!g->tris) goto oom;
    g->count = lv->triangle_count;
    soak_v3 lo = soak_v3_make(INFINITY, INFINITY, INFINITY), hi = soak_v3_make(-INFINITY, -INFINITY, -INFINITY);
    for (int i = 0; i < g->count; ++i) {
        walk_tri *t = &g->tris[i];
        for (int k = 0; k < 3; ++k) {
            const float *v = lv->vertices + 3 * (size_t)lv->indices[3 * (size_t)i + (size_t)k];
            t->p[k] = soak_v3_make(v[0], v[1], v[2]);
        }
        t->two_sided = (lv->triangle_flags[i] & LEVEL_TRI_PATCH) != 0;
        t->n = soak_normalize(soak_cross(soak_sub(t->p[1], t->p[0]), soak_sub(t->p[2], t->p[0])));
        if (t->two_sided && t->n.y < 0.0) t->n = soak_scale(t->n, -1.0);
        t->lo = t->hi = t->p[0];
        for (int k = 1; k < 3; ++k) {
            t->lo = soak_v3_make(fmin(t->lo.x, t->p[k].x), fmin(t->lo.y, t->p[k].y), fmin(t->lo.z, t->p[k].z));
            t->hi = soak_v3_make(fmax(t->hi.x, t->p[k].x), fmax(t->hi.y, t->p[k].y), fmax(t->hi.z, t->p[k].z));
        }
        lo = soak_v3_make(fmin(lo.x, t->lo.x), fmin(lo.y, t->lo.y), fmin(lo.z, t->lo.z));
        hi = soak_v3_make(fmax(hi.x, t->hi.x), fmax(hi.y, t->hi.y), fmax(hi.z, t->hi.z));
    }
    if (g->count == 0) lo = hi = soak_v3_make(0.0, 0.0, 0.0);
    g->lo = lo;
    double ext = fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));
    g->cell = fmax(GRID_CELL, ext / (GRID_MAX_CELLS - 1));
    g->nx = (int)((hi.x - lo.x) / g->cell) + 1;
    g->ny = (int)((hi.y - lo.y) / g->cell) + 1;
    g->nz = (int)((hi.z - lo.z) / g->cell) + 1;
    size_t cells = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
    g->start = calloc(cells + 1, sizeof *g->start);
    if (!g->start) goto oom;
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < g->count; ++i) {
            int c0[3], c1[3];
            cell_range(g, g->tris[i].lo, g->tris[i].hi, c0, c1);
            for (int z = c0[2]; z <= c1[2]; ++z)
                for (int y = c0[1]; y <= c1[1]; ++y)
                    for (int x = c0[0]; x <= c1[0]; ++x) {
                        size_t c = ((size_t)z * (size_t)g->ny + (size_t)y) * (size_t)g->nx + (size_t)x;
                        if (pass == 0) g->start[c + 1]++;
                        else g->items[g->start[c]++] = i;
                    }
        }
        if (pass == 0) {
            for (size_t c = 0; c < cells; ++c) {
                if (g->start[c + 1] > 0x7fffffff - g->start[c]) {
                    snprintf(err, errsize, "%s: the check grid holds more than 2^31 entries", lv->name);
                    walk_grid_free(g);
                    return false;
                }
                g->start[c + 1] += g->start[c];
            }
            g->items = malloc(((size_t)g->start[cells] + 1) * sizeof *g->items);
            if (!g->items) goto oom;
        }
    }
    for (size_t c = cells; c > 0; --c) g->start[c] = g->start[c - 1]; // the fill moved every start one cell on
    g->start[0] = 0;
    return true;
oom:
    snprintf(err, errsize, "%s: out of memory building the check grid", lv->name);
    walk_grid_free(g);
    return false;
}

void walk_grid_free(walk_grid *g) {
    free(g->tris);
    free(g->start);
    free(g->items);
    memset(g, 0, sizeof *g);
}

bool walk_query_init(walk_query *q, const walk_grid *g) {
    memset(q, 0, sizeof *q);
    q->marks = calloc((size_t)g->count + 1, sizeof *q->marks);
    q->found_capacity = 256;
    q->found = malloc((size_t)q->found_capacity * sizeof *q->found);
    return q->marks && q->found;
}

void walk_query_free(walk_query *q) {
    free(q->marks);
    free(q->found);
    memset(q, 0, sizeof *q);
}

void walk_grid_near(const walk_grid *g, walk_query *q, soak_v3 lo, soak_v3 hi) {
    q->found_count = 0;
    if (++q->stamp == 0) { // wrapped: old marks could read as this query's
        memset(q->marks, 0, ((size_t)g->count + 1) * sizeof *q->marks);
        q->stamp = 1;
    }
    int c0[3], c1[3];
    cell_range(g, lo, hi, c0, c1);
    for (int z = c0[2]; z <= c1[2]; ++z)
        for (int y = c0[1]; y <= c1[1]; ++y)
            for (int x = c0[0]; x <= c1[0]; ++x) {
                size_t c = ((size_t)z * (size_t)g->ny + (size_t)y) * (size_t)g->nx + (size_t)x;
                for (int it = g->start[c]; it < g->start[c + 1]; ++it) {
                    int i = g->items[it];
                    if (q->marks[i] == q->stamp) continue;
                    q->marks[i] = q->stamp;
                    const walk_tri *t = &g->tris[i];
                    if (t->lo.x > hi.x || t->hi.x < lo.x || t->lo.y > hi.y || t->hi.y < lo.y || t->lo.z > hi.z || t->hi.z < lo.z) continue;
                    if (q->found_count == q->found_capacity) {
                        int cap = 2 * q->found_capacity;
                        int *grown = realloc(q->found, (size_t)cap * sizeof *grown);
                        if (!grown) return; // the checks then see fewer triangles; never happens at these sizes
                        q->found = grown, q->found_capacity = cap;
                    }
                    q->found[q->found_count++] = i;
                }
            }
}
