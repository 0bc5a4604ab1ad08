// SPDX-License-Identifier: MIT
// Bezier patches (surface type 2) that players collide with: a grid of control points, odd by odd, made of 3x3
// biquadratic sub-patches. The game collides with a tessellation of them (cm_patch.c subdivides until the curve
// is within SUBDIVIDE_DISTANCE, 16 units, of its chords); this is our own tessellation to the same level:
//
//   A quadratic Bezier a, b, c has the constant second derivative 2 (a - 2b + c); cut into n equal parameter
//   steps, each chord is within |a - 2b + c| / (4 n^2) of its arc. So n = ceil(sqrt(|a - 2b + c| / (4 * 16))).
//   Along u, every curve of the surface is a Bernstein blend of the control rows, so the largest second
//   difference over the rows bounds them all; the same along v with the columns.
//
// The steps are chosen per column strip and per row strip of the whole patch, so neighbouring sub-patches cut
// their shared edge alike (no cracks). Patches have no inside: their triangles are flagged LEVEL_TRI_PATCH.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_internal.h"

// The game's collision flatness (cm_patch.c's SUBDIVIDE_DISTANCE), Quake units.
#define PATCH_FLATNESS 16.0
// Most steps a sub-patch is cut into along one direction.
#define PATCH_MAX_STEPS 64

static const double *control(const bsp_file *b, const bsp_surface *s, int col, int row) {
    return b->verts + 3 * (size_t)(s->first_vert + row * s->patch_width + col);
}

static int steps_for(const double *a, const double *m, const double *c) {
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) {
        double v = a[k] - 2.0 * m[k] + c[k];
        d2 += v * v;
    }
    int n = (int)ceil(sqrt(sqrt(d2) / (4.0 * PATCH_FLATNESS)));
    return n < 1 ? 1 : (n > PATCH_MAX_STEPS ? PATCH_MAX_STEPS : n);
}

static void bezier(const double *a, const double *m, const double *c, double t, double out[3]) {
    double u = 1.0 - t;
    for (int k = 0; k < 3; ++k) out[k] = u * u * a[k] + 2.0 * u * t * m[k] + t * t * c[k];
}

static bool degenerate(const double *a, const double *b, const double *c) {
    double e[3], f[3];
    for (int k = 0; k < 3; ++k) e[k] = b[k] - a[k], f[k] = c[k] - a[k];
    double x = e[1] * f[2] - e[2] * f[1], y = e[2] * f[0] - e[0] * f[2], z = e[0] * f[1] - e[1] * f[0];
    return x * x + y * y + z * z < 1e-8; // twice the area under 1e-4 square units
}

static bool tessellate(const bsp_file *b, const bsp_surface *s, level_soup *soup, level *lv) {
    int cols = (s->patch_width - 1) / 2, rows = (s->patch_height - 1) / 2;
    int *nu = calloc((size_t)cols, sizeof *nu), *nv = calloc((size_t)rows, sizeof *nv);
    if (!nu || !nv) {
        free(nu);
        free(nv);
        return false;
    }
    int gw = 1, gh = 1;
    for (int i = 0; i < cols; ++i) {
        for (int r = 0; r < s->patch_height; ++r) {
            int n = steps_for(control(b, s, 2 * i, r), control(b, s, 2 * i + 1, r), control(b, s, 2 * i + 2, r));
            if (n > nu[i]) nu[i] = n;
        }
        gw += nu[i];
    }
    for (int j = 0; j < rows; ++j) {
        for (int c = 0; c < s->patch_width; ++c) {
            int n = steps_for(control(b, s, c, 2 * j), control(b, s, c, 2 * j + 1), control(b, s, c, 2 * j + 2));
            if (n > nv[j]) nv[j] = n;
        }
        gh += nv[j];
    }
    uint32_t *grid = malloc((size_t)gw * (size_t)gh * sizeof *grid);
    double (*pts)[3] = malloc((size_t)gw * (size_t)gh * sizeof *pts);
    bool ok = grid && pts;
    // Grid point (x, y): the sub-patch it falls in and its parameters there (the last point of a strip is the
    // next strip's first, evaluated once).
    for (int y = 0, j = 0, sy = 0; ok && y < gh; ++y) {
        if (j < rows - 1 && sy == nv[j]) ++j, sy = 0;
        double t = (double)sy / nv[j];
        for (int x = 0, i = 0, sx = 0; x < gw; ++x) {
            if (i < cols - 1 && sx == nu[i]) ++i, sx = 0;
            double u = (double)sx / nu[i], row[3][3];
            for (int r = 0; r < 3; ++r)
                bezier(control(b, s, 2 * i, 2 * j + r), control(b, s, 2 * i + 1, 2 * j + r), control(b, s, 2 * i + 2, 2 * j + r), u, row[r]);
            double *p = pts[(size_t)y * (size_t)gw + (size_t)x];
            bezier(row[0], row[1], row[2], t, p);
            ok = ok && soup_vertex(soup, p, &grid[(size_t)y * (size_t)gw + (size_t)x]);
            ++sx;
        }
        ++sy;
    }
    for (int y = 0; ok && y + 1 < gh; ++y)
        for (int x = 0; ok && x + 1 < gw; ++x) {
            size_t i00 = (size_t)y * (size_t)gw + (size_t)x, i10 = i00 + 1, i01 = i00 + (size_t)gw, i11 = i01 + 1;
            if (!degenerate(pts[i00], pts[i10], pts[i11])) {
                ok = soup_triangle(soup, grid[i00], grid[i10], grid[i11], LEVEL_TRI_PATCH);
                lv->patch_triangles += ok;
            }
            if (ok && !degenerate(pts[i00], pts[i11], pts[i01])) {
                ok = soup_triangle(soup, grid[i00], grid[i11], grid[i01], LEVEL_TRI_PATCH);
                lv->patch_triangles += ok;
            }
        }
    free(grid);
    free(pts);
    free(nu);
    free(nv);
    return ok;
}

bool patches_build(const bsp_file *b, level_soup *soup, level *lv, char *err, size_t errsize) {
    const bsp_model *world = &b->models[0];
    for (int i = world->first_surface; i < world->first_surface + world->surface_count; ++i) {
        const bsp_surface *s = &b->surfaces[i];
        if (s->type != Q3_SURFACE_PATCH) continue;
        const bsp_shader *sh = &b->shaders[s->shader];
        if (!(sh->content_flags & Q3_PLAYER_MASK) || (sh->surface_flags & Q3_SURF_NONSOLID)) continue;
        ++lv->patches;
        if (!tessellate(b, s, soup, lv)) {
            snprintf(err, errsize, "%s: out of memory tessellating surface %d", lv->name, i);
            return false;
        }
    }
    return true;
}
