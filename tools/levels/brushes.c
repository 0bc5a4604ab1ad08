// SPDX-License-Identifier: MIT
// The world's solid brushes as the game collides with them: a brush is the intersection of its sides' half
// spaces; each side's face is the polygon of its plane inside all the other planes. Built in double precision
// from a huge square on the plane clipped by every other plane of the brush. A face is dropped only when it lies
// wholly inside another solid brush (the player can never touch it); everything else is kept as the level made it,
// T-junctions, slivers and partly hidden faces included, since that is what a game gives a character controller.
// Bevel sides (the axial planes q3map adds for box traces) only touch their brush along an edge or at a corner:
// their polygons have no area and are dropped.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_internal.h"

#define WINDING_MAX 256
// Half size of the first square on a plane: past any map's extent (q3map's limit is 65536 units).
#define BASE_EXTENT 262144.0
// A point this close to a plane (Quake units) is on it while clipping.
#define CLIP_EPSILON 0.01
// A face is hidden when every vertex is inside or within this of every plane of another solid brush.
#define HIDDEN_EPSILON 0.01
// Faces with less area than this (square units) are bevels or clipping dust.
#define MIN_AREA 1e-4
// Cells of the brush lookup for the hidden-face test, Quake units.
#define BRUSH_CELL 256.0

typedef struct winding {
    int n;
    double p[WINDING_MAX][3];
} winding;

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void cross3(const double a[3], const double b[3], double out[3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

// The polygon's normal times twice its area (Newell's sum of the fan's crosses).
static void area_normal(const winding *w, double out[3]) {
    out[0] = out[1] = out[2] = 0.0;
    for (int i = 1; i + 1 < w->n; ++i) {
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; ++k) a[k] = w->p[i][k] - w->p[0][k], b[k] = w->p[i + 1][k] - w->p[0][k];
        cross3(a, b, c);
        for (int k = 0; k < 3; ++k) out[k] += c[k];
    }
}

// A square of BASE_EXTENT on the plane, wound counter-clockwise seen from the plane's front.
static void base_winding(const bsp_plane *pl, winding *w) {
    const double *n = pl->normal;
    double up[3] = {0.0, 0.0, 1.0};
    if (fabs(n[2]) > fabs(n[0]) && fabs(n[2]) > fabs(n[1])) up[0] = 1.0, up[2] = 0.0;
    double d = dot3(up, n), len = 0.0;
    for (int k = 0; k < 3; ++k) up[k] -= d * n[k], len += up[k] * up[k];
    len = sqrt(len);
    for (int k = 0; k < 3; ++k) up[k] /= len;
    double right[3];
    cross3(up, n, right);
    static const double corner[4][2] = {{-1.0, 1.0}, {1.0, 1.0}, {1.0, -1.0}, {-1.0, -1.0}};
    w->n = 4;
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 3; ++k) w->p[i][k] = n[k] * pl->dist + (corner[i][0] * right[k] + corner[i][1] * up[k]) * BASE_EXTENT;
    double an[3];
    area_normal(w, an);
    if (dot3(an, n) < 0.0) // make it counter-clockwise from the front: its triangles then face out of the brush
        for (int i = 0; i < 2; ++i)
            for (int k = 0; k < 3; ++k) {
                double t = w->p[i][k];
                w->p[i][k] = w->p[3 - i][k];
                w->p[3 - i][k] = t;
            }
}

// Keep the part of w behind the plane (n.p - dist <= 0, the brush's inside). False when the polygon would
// outgrow WINDING_MAX (a malformed brush).
static bool clip_behind(winding *w, const bsp_plane *pl) {
    double dist[WINDING_MAX + 1];
    int side[WINDING_MAX + 1], front = 0;
    for (int i = 0; i < w->n; ++i) {
        dist[i] = dot3(w->p[i], pl->normal) - pl->dist;
        side[i] = dist[i] > CLIP_EPSILON ? 1 : (dist[i] < -CLIP_EPSILON ? -1 : 0);
        front += side[i] > 0;
    }
    if (front == 0) return true;
    winding out;
    out.n = 0;
    for (int i = 0; i < w->n; ++i) {
        int j = (i + 1) % w->n;
        if (side[i] <= 0) {
            if (out.n >= WINDING_MAX) return false;
            memcpy(out.p[out.n++], w->p[i], sizeof out.p[0]);
        }
        if (side[i] == 0 || side[j] == 0 || side[i] == side[j]) continue;
        if (out.n >= WINDING_MAX) return false;
        double t = dist[i] / (dist[i] - dist[j]);
        for (int k = 0; k < 3; ++k) out.p[out.n][k] = w->p[i][k] + t * (w->p[j][k] - w->p[i][k]);
        // Exactly on the plane along an axial normal (most of them): no rounding drift off the grid.
        for (int k = 0; k < 3; ++k)
            if (pl->normal[k] == 1.0) out.p[out.n][k] = pl->dist;
            else if (pl->normal[k] == -1.0) out.p[out.n][k] = -pl->dist;
        ++out.n;
    }
    *w = out;
    return true;
}

static bool same_plane(const bsp_plane *a, const bsp_plane *b) {
    return fabs(a->dist - b->dist) < 1e-6 && fabs(a->normal[0] - b->normal[0]) < 1e-9 && fabs(a->normal[1] - b->normal[1]) < 1e-9 &&
           fabs(a->normal[2] - b->normal[2]) < 1e-9;
}

// Side `s` of brush `br` as its face polygon.
static bool side_winding(const bsp_file *b, const bsp_brush *br, int s, winding *w) {
    const bsp_plane *pl = &b->planes[b->sides[br->first_side + s].plane];
    base_winding(pl, w);
    for (int t = 0; t < br->side_count && w->n > 0; ++t) {
        if (t == s) continue;
        const bsp_plane *other = &b->planes[b->sides[br->first_side + t].plane];
        if (same_plane(pl, other)) continue;
        if (!clip_behind(w, other)) return false;
    }
    return true;
}

static double winding_area(const winding *w) {
    if (w->n < 3) return 0.0;
    double an[3];
    area_normal(w, an);
    return 0.5 * sqrt(dot3(an, an));
}

// Every vertex of w inside or within HIDDEN_EPSILON of every plane of brush br, w's plane being `plane`. A face on a
// side of br facing the same way (two brushes sharing that side: coincident brushes, as a solid column with a
// player-clip copy of it) is on br's surface, not inside it: each would hide the other and the pair would leave
// no face at all, so only the brush first in the file (`first_wins`) hides the other's.
static bool inside_brush(const bsp_file *b, const bsp_brush *br, const winding *w, const bsp_plane *plane, bool first_wins) {
    for (int t = 0; t < br->side_count; ++t) {
        const bsp_plane *pl = &b->planes[b->sides[br->first_side + t].plane];
        for (int i = 0; i < w->n; ++i)
            if (dot3(w->p[i], pl->normal) - pl->dist > HIDDEN_EPSILON) return false;
        if (!first_wins && dot3(pl->normal, plane->normal) > 1.0 - 1e-6 && fabs(pl->dist - plane->dist) <= HIDDEN_EPSILON) return false;
    }
    return true;
}

// A coarse grid over the solid brushes' bounds (x and y): the cells each brush overlaps, as lists.
typedef struct brush_grid {
    double lo[2];
    int nx, ny;
    int *start;   // nx * ny + 1 offsets into items
    int *items;   // brush indices
} brush_grid;

static int cell_of(const brush_grid *g, double v, int axis) {
    int n = axis == 0 ? g->nx : g->ny;
    int c = (int)floor((v - g->lo[axis]) / BRUSH_CELL);
    return c < 0 ? 0 : (c >= n ? n - 1 : c);
}

static bool grid_build(brush_grid *g, const brush_bounds *bb, const bool *solid, int first, int count) {
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int i = 0; i < count; ++i) {
        if (!solid[i] || !bb[first + i].valid) continue;
        for (int k = 0; k < 2; ++k) lo[k] = fmin(lo[k], bb[first + i].lo[k]), hi[k] = fmax(hi[k], bb[first + i].hi[k]);
    }
    if (!(lo[0] <= hi[0])) lo[0] = lo[1] = hi[0] = hi[1] = 0.0;
    g->lo[0] = lo[0], g->lo[1] = lo[1];
    g->nx = (int)((hi[0] - lo[0]) / BRUSH_CELL) + 1;
    g->ny = (int)((hi[1] - lo[1]) / BRUSH_CELL) + 1;
    if (g->nx > 4096) g->nx = 4096;
    if (g->ny > 4096) g->ny = 4096;
    g->start = calloc((size_t)g->nx * (size_t)g->ny + 1, sizeof *g->start);
    if (!g->start) return false;
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < count; ++i) {
            const brush_bounds *r = &bb[first + i];
            if (!solid[i] || !r->valid) continue;
            for (int y = cell_of(g, r->lo[1], 1); y <= cell_of(g, r->hi[1], 1); ++y)
                for (int x = cell_of(g, r->lo[0], 0); x <= cell_of(g, r->hi[0], 0); ++x) {
                    int c = y * g->nx + x;
                    if (pass == 0) g->start[c + 1]++;
                    else g->items[g->start[c]++] = i;
                }
        }
        if (pass == 0) {
            for (int c = 0; c < g->nx * g->ny; ++c) g->start[c + 1] += g->start[c];
            g->items = malloc(((size_t)g->start[g->nx * g->ny] + 1) * sizeof *g->items);
            if (!g->items) return false;
        }
    }
    for (int c = g->nx * g->ny; c > 0; --c) g->start[c] = g->start[c - 1]; // the fill moved every start one cell on
    g->start[0] = 0;
    return true;
}

static bool hidden(const bsp_file *b, const brush_grid *g, const brush_bounds *bb, int first, int self, const winding *w, const bsp_plane *plane) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < w->n; ++i)
        for (int k = 0; k < 3; ++k) lo[k] = fmin(lo[k], w->p[i][k]), hi[k] = fmax(hi[k], w->p[i][k]);
    int c = cell_of(g, lo[1], 1) * g->nx + cell_of(g, lo[0], 0);
    for (int it = g->start[c]; it < g->start[c + 1]; ++it) {
        int j = g->items[it];
        if (j == self) continue;
        const brush_bounds *r = &bb[first + j];
        bool contains = true;
        for (int k = 0; k < 3; ++k) contains = contains && r->lo[k] - HIDDEN_EPSILON <= lo[k] && hi[k] <= r->hi[k] + HIDDEN_EPSILON;
        if (contains && inside_brush(b, &b->brushes[first + j], w, plane, j < self)) return true;
    }
    return false;
}

static bool emit(level_soup *soup, const winding *w, uint8_t flags) {
    uint32_t first, prev, cur;
    if (!soup_vertex(soup, w->p[0], &first) || !soup_vertex(soup, w->p[1], &prev)) return false;
    for (int i = 2; i < w->n; ++i) {
        if (!soup_vertex(soup, w->p[i], &cur) || !soup_triangle(soup, first, prev, cur, flags)) return false;
        prev = cur;
    }
    return true;
}

// The solid brushes of brush model `model` into soup; the world's (model 0) lava and slime go to the hazards, and
// its counts to the level (a mover's brushes are counted apart: `counted` false).
static bool build_model(const bsp_file *b, int model, level_soup *soup, level *lv, bool counted, char *err, size_t errsize) {
    const bsp_model *world = &b->models[model];
    int first = world->first_brush, count = world->brush_count;
    level tally; // where a mover's counts go (only the name is read)
    if (!counted) {
        memset(&tally, 0, sizeof tally);
        memcpy(tally.name, lv->name, sizeof tally.name);
    }
    level *counts = counted ? lv : &tally;
    brush_bounds *bb = calloc((size_t)b->brush_count + 1, sizeof *bb);
    bool *solid = calloc((size_t)count + 1, sizeof *solid);
    winding *w = malloc(sizeof *w);
    brush_grid g;
    memset(&g, 0, sizeof g);
    bool ok = bb && solid && w;
    // Pass 1: every brush's bounds from its faces (the hidden test and the hazards need them).
    for (int i = 0; ok && i < count; ++i) {
        const bsp_brush *br = &b->brushes[first + i];
        int contents = b->shaders[br->shader].content_flags;
        solid[i] = (contents & Q3_PLAYER_MASK) != 0;
        brush_bounds *r = &bb[first + i];
        for (int k = 0; k < 3; ++k) r->lo[k] = INFINITY, r->hi[k] = -INFINITY;
        for (int s = 0; s < br->side_count; ++s) {
            if (!side_winding(b, br, s, w)) {
                snprintf(err, errsize, "%s: brush %d side %d: its face has more than %d corners (a malformed brush)", lv->name, first + i, s,
                         WINDING_MAX);
                ok = false;
                break;
            }
            if (winding_area(w) < MIN_AREA) continue;
            r->valid = true;
            for (int p = 0; p < w->n; ++p)
                for (int k = 0; k < 3; ++k) r->lo[k] = fmin(r->lo[k], w->p[p][k]), r->hi[k] = fmax(r->hi[k], w->p[p][k]);
        }
        if (ok && counted && r->valid && !solid[i] && (contents & (Q3_CONTENTS_LAVA | Q3_CONTENTS_SLIME))) {
            double lo[3], hi[3];
            level_bounds_to_tread(r->lo, r->hi, lo, hi);
            ok = level_add_hazard(lv, (contents & Q3_CONTENTS_LAVA) ? LEVEL_HAZARD_LAVA : LEVEL_HAZARD_SLIME, lo, hi);
            if (!ok) snprintf(err, errsize, "%s: out of memory", lv->name);
        }
    }
    if (ok && !grid_build(&g, bb, solid, first, count)) {
        snprintf(err, errsize, "%s: out of memory", lv->name);
        ok = false;
    }
    // Pass 2: the faces, hidden ones dropped.
    for (int i = 0; ok && i < count; ++i) {
        if (!solid[i] || !bb[first + i].valid) continue;
        const bsp_brush *br = &b->brushes[first + i];
        ++counts->solid_brushes;
        uint8_t base = (b->shaders[br->shader].content_flags & Q3_CONTENTS_SOLID) ? 0 : LEVEL_TRI_PLAYERCLIP;
        for (int s = 0; ok && s < br->side_count; ++s) {
            side_winding(b, br, s, w); // succeeded in pass 1
            if (winding_area(w) < MIN_AREA) {
                ++counts->faces_degenerate;
                continue;
            }
            if (hidden(b, &g, bb, first, i, w, &b->planes[b->sides[br->first_side + s].plane])) {
                ++counts->faces_hidden;
                continue;
            }
            ++counts->faces_kept;
            uint8_t flags = base | ((b->shaders[b->sides[br->first_side + s].shader].surface_flags & Q3_SURF_NODRAW) ? LEVEL_TRI_NODRAW : 0);
            int before = soup->tri_count;
            ok = emit(soup, w, flags);
            if (!ok) snprintf(err, errsize, "%s: out of memory", lv->name);
            counts->brush_triangles += soup->tri_count - before;
        }
    }
    free(g.start);
    free(g.items);
    free(bb);
    free(solid);
    free(w);
    return ok;
}

bool brushes_build(const bsp_file *b, level_soup *soup, level *lv, char *err, size_t errsize) {
    return build_model(b, 0, soup, lv, true, err, errsize);
}

bool brushes_build_model(const bsp_file *b, int model, level_soup *soup, level *lv, char *err, size_t errsize) {
    return build_model(b, model, soup, lv, false, err, errsize);
}
