// SPDX-License-Identifier: MIT
// Heightfield shape: validation, the copy, and cell-by-cell queries (2D DDA for rays, the swept footprint for
// capsules). Triangles are made on the fly from four samples; edge activity from the neighbouring samples.
#include "heightfield.h"

#include <limits.h>
#include <string.h>

#include "../geometry/ray_box.h"

// Cell (i, j) has samples s00 = (i, j), s10 = (i + 1, j), s01 = (i, j + 1), s11 = (i + 1, j + 1), split along
// s00-s11. Both triangles wind so their normal points up (+Y):
//   triangle 2 * cell     = (s00, s11, s10): edge 0 the diagonal, edge 1 the x = i + 1 border, edge 2 the z = j border
//   triangle 2 * cell + 1 = (s00, s01, s11): edge 0 the x = i border, edge 1 the z = j + 1 border, edge 2 the diagonal

// ---- validation ------------------------------------------------------------------------------------

tread_result tr_heightfield_validate(const tread_heightfield_def *def) {
    if (!def) return tr_error(TREAD_ERR_NULL_ARGUMENT, "heightfield definition is NULL");
    if (def->count_x < 2) return tr_error(TREAD_ERR_INVALID_MESH, "heightfield.count_x = %d must be >= 2", def->count_x);
    if (def->count_z < 2) return tr_error(TREAD_ERR_INVALID_MESH, "heightfield.count_z = %d must be >= 2", def->count_z);
    // Triangle ids (2 per cell) must fit an int.
    if ((int64_t)def->count_x * (int64_t)def->count_z > INT_MAX / 2)
        return tr_error(TREAD_ERR_INVALID_MESH, "heightfield.count_x * count_z = %d * %d is too large", def->count_x,
                        def->count_z);
    if (!isfinite(def->spacing_x))
        return tr_error(TREAD_ERR_NOT_FINITE, "heightfield.spacing_x = %g is not finite", (double)def->spacing_x);
    if (!isfinite(def->spacing_z))
        return tr_error(TREAD_ERR_NOT_FINITE, "heightfield.spacing_z = %g is not finite", (double)def->spacing_z);
    if (!(def->spacing_x > 0.0f))
        return tr_error(TREAD_ERR_INVALID_SHAPE, "heightfield.spacing_x = %g must be > 0", (double)def->spacing_x);
    if (!(def->spacing_z > 0.0f))
        return tr_error(TREAD_ERR_INVALID_SHAPE, "heightfield.spacing_z = %g must be > 0", (double)def->spacing_z);
    if ((float)(def->count_x - 1) * def->spacing_x > TR_MAX_COORDINATE ||
        (float)(def->count_z - 1) * def->spacing_z > TR_MAX_COORDINATE)
        return tr_error(TREAD_ERR_INVALID_SHAPE, "heightfield extent (%g x %g m) exceeds %g m",
                        (double)((float)(def->count_x - 1) * def->spacing_x),
                        (double)((float)(def->count_z - 1) * def->spacing_z), (double)TR_MAX_COORDINATE);
    if (!def->heights) return tr_error(TREAD_ERR_NULL_ARGUMENT, "heightfield.heights is NULL");
    int n = def->count_x * def->count_z;
    for (int i = 0; i < n; i++) {
        float h = def->heights[i];
        if (!isfinite(h)) return tr_error(TREAD_ERR_NOT_FINITE, "heightfield.heights[%d] = %g is not finite", i, (double)h);
        if (fabsf(h) > TR_MAX_COORDINATE)
            return tr_error(TREAD_ERR_INVALID_MESH, "heightfield.heights[%d] = %g exceeds %g m", i, (double)h,
                            (double)TR_MAX_COORDINATE);
    }
    return TREAD_OK;
}

tread_result tr_heightfield_create(tr_heightfield *hf, const tread_heightfield_def *def) {
    memset(hf, 0, sizeof *hf);
    int n = def->count_x * def->count_z, cells = (def->count_x - 1) * (def->count_z - 1);
    hf->heights = (float *)tr_alloc((size_t)n * sizeof(float));
    if (def->holes) hf->holes = (uint8_t *)tr_alloc((size_t)cells);
    if (!hf->heights || (def->holes && !hf->holes)) {
        tr_heightfield_destroy(hf);
        return tr_error(TREAD_ERR_OUT_OF_MEMORY, "heightfield: out of memory for %d x %d samples", def->count_x,
                        def->count_z);
    }
    memcpy(hf->heights, def->heights, (size_t)n * sizeof(float));
    if (def->holes)
        for (int c = 0; c < cells; c++) hf->holes[c] = def->holes[c] ? 1u : 0u;
    hf->count_x = def->count_x;
    hf->count_z = def->count_z;
    hf->spacing_x = def->spacing_x;
    hf->spacing_z = def->spacing_z;
    hf->min_height = hf->max_height = hf->heights[0];
    for (int i = 1; i < n; i++) {
        hf->min_height = tr_minf(hf->min_height, hf->heights[i]);
        hf->max_height = tr_maxf(hf->max_height, hf->heights[i]);
    }
    hf->bounds.min = tread_v3(0.0f, hf->min_height, 0.0f);
    hf->bounds.max = tread_v3((float)(hf->count_x - 1) * hf->spacing_x, hf->max_height,
                              (float)(hf->count_z - 1) * hf->spacing_z);
    return TREAD_OK;
}

void tr_heightfield_destroy(tr_heightfield *hf) {
    tr_free(hf->heights);
    tr_free(hf->holes);
    memset(hf, 0, sizeof *hf);
}

// ---- cells and triangles ---------------------------------------------------------------------------

static tread_vec3 sample(const tr_heightfield *hf, int i, int j) {
    return tread_v3((float)i * hf->spacing_x, hf->heights[j * hf->count_x + i], (float)j * hf->spacing_z);
}

// A cell with triangles: inside the grid and not a hole.
static bool cell_solid(const tr_heightfield *hf, int i, int j) {
    if (i < 0 || j < 0 || i >= hf->count_x - 1 || j >= hf->count_z - 1) return false;
    return !hf->holes || !hf->holes[j * (hf->count_x - 1) + i];
}

static void cell_heights(const tr_heightfield *hf, int i, int j, float *lo, float *hi) {
    const float *row0 = hf->heights + j * hf->count_x + i, *row1 = row0 + hf->count_x;
    *lo = tr_minf(tr_minf(row0[0], row0[1]), tr_minf(row1[0], row1[1]));
    *hi = tr_maxf(tr_maxf(row0[0], row0[1]), tr_maxf(row1[0], row1[1]));
}

static void cell_triangle(const tr_heightfield *hf, int i, int j, int k, tread_vec3 v[3]) {
    v[0] = sample(hf, i, j);
    if (k == 0) {
        v[1] = sample(hf, i + 1, j + 1);
        v[2] = sample(hf, i + 1, j);
    } else {
        v[1] = sample(hf, i, j + 1);
        v[2] = sample(hf, i + 1, j + 1);
    }
}

// Edge between triangle v (normal n) and a neighbour: inactive only when the two are flat within
// TR_INACTIVE_EDGE_COS, the same rule as meshes (triangles are two-sided: a valley seen from below is a ridge).
static bool seam_active(tread_vec3 n, const tread_vec3 nb[3]) {
    return tread_v3_dot(n, tr_triangle_normal(nb[0], nb[1], nb[2])) < TR_INACTIVE_EDGE_COS;
}

// Active-edge bits of triangle k of cell (i, j), corners v. Grid boundaries and holes make real edges.
static uint8_t triangle_edges(const tr_heightfield *hf, int i, int j, int k, const tread_vec3 v[3]) {
    tread_vec3 n = tr_triangle_normal(v[0], v[1], v[2]);
    tread_vec3 nb[3];
    uint8_t bits = 0;
    if (k == 0) {
        // edge 0: diagonal, neighbour triangle 1 of this cell, apex s01
        cell_triangle(hf, i, j, 1, nb);
        if (seam_active(n, nb)) bits |= 1u;
        // edge 1: x = i + 1 border, neighbour triangle 1 of cell (i + 1, j), apex sample (i + 2, j + 1)
        if (!cell_solid(hf, i + 1, j)) {
            bits |= 2u;
        } else {
            cell_triangle(hf, i + 1, j, 1, nb);
            if (seam_active(n, nb)) bits |= 2u;
        }
        // edge 2: z = j border, neighbour triangle 1 of cell (i, j - 1), apex sample (i, j - 1)
        if (!cell_solid(hf, i, j - 1)) {
            bits |= 4u;
        } else {
            cell_triangle(hf, i, j - 1, 1, nb);
            if (seam_active(n, nb)) bits |= 4u;
        }
    } else {
        // edge 0: x = i border, neighbour triangle 0 of cell (i - 1, j), apex sample (i - 1, j)
        if (!cell_solid(hf, i - 1, j)) {
            bits |= 1u;
        } else {
            cell_triangle(hf, i - 1, j, 0, nb);
            if (seam_active(n, nb)) bits |= 1u;
        }
        // edge 1: z = j + 1 border, neighbour triangle 0 of cell (i, j + 1), apex sample (i + 1, j + 2)
        if (!cell_solid(hf, i, j + 1)) {
            bits |= 2u;
        } else {
            cell_triangle(hf, i, j + 1, 0, nb);
            if (seam_active(n, nb)) bits |= 2u;
        }
        // edge 2: diagonal, neighbour triangle 0 of this cell, apex s10
        cell_triangle(hf, i, j, 0, nb);
        if (seam_active(n, nb)) bits |= 4u;
    }
    return bits;
}

static uint32_t triangle_id(const tr_heightfield *hf, int i, int j, int k) {
    return (uint32_t)(2 * (j * (hf->count_x - 1) + i) + k);
}

// Casts against both triangles of a solid cell; returns the updated t_max. A capsule or sphere comes with its part of
// tr_cast_triangle's work done once (cap, kept for t_max), and a triangle's active edges are found only past the
// early-outs on its bounds (they are only used after them). A box comes with its part done once too (boxed).
static float cast_cell(const tr_heightfield *hf, int i, int j, const tr_cast *c, tr_capsule_cast *cap, tr_box_cast *boxed, float t_max,
                       tr_hit_fn *fn, void *ctx) {
    for (int k = 0; k < 2; k++) {
        tread_vec3 v[3];
        cell_triangle(hf, i, j, k, v);
        tr_feature_hit hit;
        if (cap) {
            float slack;
            unsigned early;
            if (!tr_cast_triangle_bounds(cap, v[0], v[1], v[2], &slack, &early) ||
                !tr_cast_triangle_near(cap, v[0], v[1], v[2], triangle_edges(hf, i, j, k, v), slack, early, &hit))
                continue;
        } else if (boxed) {
            if (!tr_cast_triangle_box(boxed, v[0], v[1], v[2], triangle_edges(hf, i, j, k, v), &hit)) continue;
        } else {
            uint8_t edges = c->is_ray ? 0u : triangle_edges(hf, i, j, k, v); // rays report face normals anyway
            if (!tr_cast_triangle(c, v[0], v[1], v[2], edges, t_max, &hit)) continue;
        }
        // Ground is solid below its surface: met from above, a face's outside is its upper side. The triangle alone
        // is two-sided and took the side the query's core lies on, and at a crest the core can lie behind the far
        // face's plane: a capsule stepping up a curb came down on its top edge, where a 45-degree slope falls away,
        // and saw that slope's underside, no face to roll onto (it stood before the curb for good).
        if (hit.normal.y > 0.0f && hit.surface_normal.y < 0.0f) hit.surface_normal = tread_v3_neg(hit.surface_normal);
        hit.feature = triangle_id(hf, i, j, k);
        t_max = fn(ctx, &hit);
        if (cap && t_max != cap->t_max) tr_capsule_cast_sweep(cap, t_max);
        if (boxed && t_max != boxed->t_max) tr_box_cast_sweep(boxed, t_max);
    }
    return t_max;
}

static int clamp_index(float v, int last) {
    if (!(v >= 0.0f)) return 0;
    if (v >= (float)last) return last;
    return (int)v;
}

// ---- rays: a 2D DDA over the cells the path crosses, and the cells it passes within a pad of -----------------

// A ray crosses a triangle where tr_ray_triangle's watertight test says, and that test decides on the corners as
// rounded relative to the ray's origin: a ray through a grid point or along a cell border can be taken by the
// triangle across the border, a rounding of the coordinates from the path as computed here. So besides the cells
// the path crosses, the walk tests the neighbours it passes within a pad of: the mesh's pad for node boxes
// (tr_cast_pad, 1e-4 m plus 1e-6 of the coordinates, some 17 times the rounding seen) plus 1e-6 of a cell's size
// (a far corner's rounding), at most 0.45 of a cell (so only next neighbours can be that close). A cell is tested
// once (a neighbour may come round again as the path turns a corner: the cells tested during the last few steps are
// kept), and skipped when the ray's height while near it stays clear of the cell's heights by the pad. (The plain
// DDA over the crossed cells missed 42 in 14,400 random rays through shared edges of random heightfields.)

// A cell is met only from the cells of the path's staircase around it (its 3 x 3 block, which a monotonic path
// crosses in at most 5 consecutive steps): after a neighbour is tested, the next WALK_STEPS steps look for repeats
// among the last WALK_RECENT cells tested (at most 9 a step: a cell and its 8 neighbours).
#define WALK_STEPS 4
#define WALK_RECENT 64

typedef struct ray_walk {
    const tr_heightfield *hf;
    const tr_cast *c;
    tr_hit_fn *fn;
    void *ctx;
    float t_max, pad;
    int tested; // cells tested so far (recent holds the last WALK_RECENT)
    int recent[WALK_RECENT][2];
} ray_walk;

// Does the ray's height over the fractions [ta, tb] come within the pad of cell (i, j)'s heights?
static inline bool walk_reaches(const ray_walk *w, int i, int j, float ta, float tb) {
    float y0 = w->c->p0.y + ta * w->c->d.y, y1 = w->c->p0.y + tb * w->c->d.y;
    float lo, hi;
    cell_heights(w->hf, i, j, &lo, &hi);
    return tr_minf(y0, y1) <= hi + w->pad && tr_maxf(y0, y1) >= lo - w->pad;
}

// Casts against cell (i, j) unless `repeat` is possible and it was tested already; true when it was cast against.
static bool walk_test(ray_walk *w, int i, int j, bool repeat) {
    if (repeat) {
        int kept = w->tested < WALK_RECENT ? w->tested : WALK_RECENT;
        for (int k = 0; k < kept; k++)
            if (w->recent[k][0] == i && w->recent[k][1] == j) return false;
    }
    w->recent[w->tested % WALK_RECENT][0] = i;
    w->recent[w->tested % WALK_RECENT][1] = j;
    w->tested++;
    w->t_max = cast_cell(w->hf, i, j, w->c, NULL, NULL, w->t_max, w->fn, w->ctx);
    return true;
}

// The neighbours of cell (i, j) on the sides flagged in `near` (bit 0: -x, 1: +x, 2: -z, 3: +z), the corners
// between two flagged sides included, seen over the fractions [ta, tb]. True when one was cast against.
static bool walk_neighbours(ray_walk *w, int i, int j, unsigned near, float ta, float tb) {
    bool any = false;
    for (int dj = -1; dj <= 1; dj++) {
        if ((dj < 0 && !(near & 4u)) || (dj > 0 && !(near & 8u))) continue;
        for (int di = -1; di <= 1; di++) {
            if ((di < 0 && !(near & 1u)) || (di > 0 && !(near & 2u)) || (di == 0 && dj == 0)) continue;
            if (!cell_solid(w->hf, i + di, j + dj) || !walk_reaches(w, i + di, j + dj, ta, tb)) continue;
            any |= walk_test(w, i + di, j + dj, true);
        }
    }
    return any;
}

// The grid index of coordinate v (in cells), one cell outside the grid at most on either side.
static int walk_index(float v, int last) {
    if (!(v >= 0.0f)) return -1;
    if (v >= (float)(last + 1)) return last + 1;
    return (int)v;
}

// One axis of the walk: the fractions at which the path crosses the current cell's entry and exit lines (from the
// lines' indices, not accumulated; -FLT_MAX and FLT_MAX for an axis the path does not move along), the pad in
// fractions (0 then), and the sides those lines are on (bits of `near`).
typedef struct walk_axis {
    int step, exit;        // -1, 0 or 1; 1 when the exit line of cell k is line k + 1
    float inv, pad_t;      // 1 / d, pad / |d|
    float entry_t, exit_t; // fractions at the current cell's entry and exit lines
    unsigned entry_side, exit_side;
} walk_axis;

// The fraction at which the path (coordinate o + t d along this axis) crosses grid line k (at k s).
static float walk_line_t(const walk_axis *a, int k, float s, float o) { return ((float)k * s - o) * a->inv; }

static walk_axis walk_axis_make(float o, float d, float s, int k, float pad, unsigned low_bit) {
    walk_axis a;
    a.step = d > 0.0f ? 1 : (d < 0.0f ? -1 : 0);
    a.exit = a.step > 0;
    a.inv = a.step ? 1.0f / d : 0.0f;
    a.pad_t = pad * fabsf(a.inv);
    a.entry_t = a.step ? walk_line_t(&a, k + 1 - a.exit, s, o) : -FLT_MAX;
    a.exit_t = a.step ? walk_line_t(&a, k + a.exit, s, o) : FLT_MAX;
    a.entry_side = a.step > 0 ? low_bit : low_bit << 1;
    a.exit_side = a.step > 0 ? low_bit << 1 : low_bit;
    return a;
}

// Moves the axis's index *k on to the next cell, at the fraction *t_cell it crosses into it; false when that runs
// more than one cell outside the grid (last: the last cell's index).
static bool walk_step(walk_axis *a, int *k, int last, float s, float o, float *t_cell) {
    *k += a->step;
    if (*k < -1 || *k > last + 1) return false;
    *t_cell = a->entry_t = a->exit_t;
    a->exit_t = walk_line_t(a, *k + a->exit, s, o);
    return true;
}

// For an axis the path does not move along: the sides of cell k its coordinate o lies within the pad of, for good.
static unsigned walk_still(float o, float d, float s, int k, float pad, unsigned low_bit) {
    if (d != 0.0f) return 0u;
    return (o - (float)k * s < pad ? low_bit : 0u) | ((float)(k + 1) * s - o < pad ? low_bit << 1 : 0u);
}

static void cast_ray(const tr_heightfield *hf, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    tread_vec3 o = c->p0, d = c->d;
    float sx = hf->spacing_x, sz = hf->spacing_z;
    float pad = tr_minf(tr_cast_pad(o, d) + 1.0e-6f * (sx + sz), 0.45f * tr_minf(sx, sz));
    // [t_in, t_out]: within the bounds grown by the pad. The walk may run a cell outside the grid (along its edge,
    // within the pad): those cells are not tested, their neighbours inside are.
    float t_in, t_out;
    if (!tr_ray_aabb_clip(o, d, tread_aabb_expand(hf->bounds, pad), t_max, &t_in, &t_out)) return;
    int last_i = hf->count_x - 2, last_j = hf->count_z - 2;
    tread_vec3 start = tread_v3_mad(o, t_in, d);
    int i = walk_index(start.x / sx, last_i), j = walk_index(start.z / sz, last_j);
    walk_axis ax = walk_axis_make(o.x, d.x, sx, i, pad, 1u), az = walk_axis_make(o.z, d.z, sz, j, pad, 4u);
    unsigned still = walk_still(o.x, d.x, sx, i, pad, 1u) | walk_still(o.z, d.z, sz, j, pad, 4u);
    ray_walk w;
    w.hf = hf, w.c = c, w.fn = fn, w.ctx = ctx, w.t_max = t_max, w.pad = pad, w.tested = 0;
    int watch_steps = 0; // steps during which a cell may come round again (a neighbour was cast against)
    float t_cell = t_in;
    int came = 0; // the axis the path came into this cell across: 1 x, 2 z, 0 none (the first cell)
    for (;;) {
        float t_exit = tr_minf(tr_minf(ax.exit_t, az.exit_t), t_out);
        float tb = tr_minf(t_exit, w.t_max);
        if ((unsigned)i <= (unsigned)last_i && (unsigned)j <= (unsigned)last_j) {
            // Skip the cell when the ray's height while in it stays clear of the cell's heights.
            float y0 = o.y + t_cell * d.y, y1 = o.y + tb * d.y;
            float lo, hi;
            cell_heights(hf, i, j, &lo, &hi);
            if (tr_minf(y0, y1) <= hi + pad && tr_maxf(y0, y1) >= lo - pad && cell_solid(hf, i, j))
                walk_test(&w, i, j, watch_steps > 0);
        }
        // Where the path leaves this cell: 1 across x, 2 across z, 0 it ends here (or past a hit found).
        float t_stop = tr_minf(t_out, w.t_max);
        int leaves = t_exit >= t_stop ? 0 : (ax.exit_t <= az.exit_t ? 1 : 2);
        tb = tr_minf(tb, t_stop);
        // The lines of this cell the path passes within the pad of without crossing them here (those it crosses lead
        // to the cells before and after, which see their own neighbours): their neighbours are tested too.
        unsigned near = still;
        if (came != 1 && t_cell - ax.entry_t < ax.pad_t) near |= ax.entry_side;
        if (leaves != 1 && ax.exit_t - tb < ax.pad_t) near |= ax.exit_side;
        if (came != 2 && t_cell - az.entry_t < az.pad_t) near |= az.entry_side;
        if (leaves != 2 && az.exit_t - tb < az.pad_t) near |= az.exit_side;
        if (near && walk_neighbours(&w, i, j, near, t_cell, tb)) watch_steps = WALK_STEPS + 1;
        if (!leaves) break;
        if (watch_steps > 0) watch_steps--;
        came = leaves;
        bool inside = leaves == 1 ? walk_step(&ax, &i, last_i, sx, o.x, &t_cell) : walk_step(&az, &j, last_j, sz, o.z, &t_cell);
        if (!inside) break;
    }
}

// ---- capsules: the cells under the swept footprint ------------------------------------------------------

// Calls visit(cell) for the cells whose box, grown by the cast's half extent, the cast's mid-point path meets
// before t_max, row by row in the direction of motion (so closest-hit queries shrink t_max early).
static void cast_capsule(const tr_heightfield *hf, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    tread_vec3 o = tread_v3_scale(tread_v3_add(c->p0, c->p1), 0.5f);
    // Half extent of the capsule, plus the touch tolerance so casts starting within it see the surface.
    tread_vec3 ext = tread_v3_add(tread_v3_scale(tread_v3_abs(tread_v3_sub(c->p1, c->p0)), 0.5f),
                                  tread_v3(c->r + TR_TOUCH_TOLERANCE, c->r + TR_TOUCH_TOLERANCE, c->r + TR_TOUCH_TOLERANCE));
    if (c->is_box) {
        tr_obb box = tr_cast_obb(c);
        ext = tread_v3_add(tr_obb_extent(&box), tread_v3(TR_TOUCH_TOLERANCE, TR_TOUCH_TOLERANCE, TR_TOUCH_TOLERANCE));
    }
    tread_vec3 inv_d = tr_inverse_direction(c->d);
    if (tr_ray_aabb_entry(o, inv_d, hf->bounds, ext, t_max) > t_max) return;
    tread_aabb sweep = tr_cast_bounds(c, t_max);
    sweep = tread_aabb_expand(sweep, TR_TOUCH_TOLERANCE);
    int last_i = hf->count_x - 2, last_j = hf->count_z - 2;
    int j0 = clamp_index(sweep.min.z / hf->spacing_z, last_j), j1 = clamp_index(sweep.max.z / hf->spacing_z, last_j);
    int i0 = clamp_index(sweep.min.x / hf->spacing_x, last_i), i1 = clamp_index(sweep.max.x / hf->spacing_x, last_i);
    bool j_down = c->d.z < 0.0f, i_down = c->d.x < 0.0f;
    tr_capsule_cast cap;
    tr_box_cast boxed;
    if (c->is_box) tr_box_cast_init(&boxed, c, t_max);
    else tr_capsule_cast_init(&cap, c, t_max);
    for (int jn = 0; jn <= j1 - j0; jn++) {
        int j = j_down ? j1 - jn : j0 + jn;
        // The fractions during which the grown box's z-slab holds this row narrow its x range.
        float z_lo = (float)j * hf->spacing_z - ext.z, z_hi = (float)(j + 1) * hf->spacing_z + ext.z;
        float ta = 0.0f, tb = t_max;
        if (c->d.z != 0.0f) {
            float t0 = (z_lo - o.z) * inv_d.z, t1 = (z_hi - o.z) * inv_d.z;
            ta = tr_maxf(ta, tr_minf(t0, t1));
            tb = tr_minf(tb, tr_maxf(t0, t1));
        } else if (o.z < z_lo || o.z > z_hi) {
            continue;
        }
        if (ta > tb) continue;
        float xa = o.x + ta * c->d.x, xb = o.x + tb * c->d.x;
        int ra = clamp_index((tr_minf(xa, xb) - ext.x - TR_TOUCH_TOLERANCE) / hf->spacing_x, last_i);
        int rb = clamp_index((tr_maxf(xa, xb) + ext.x + TR_TOUCH_TOLERANCE) / hf->spacing_x, last_i);
        ra = ra < i0 ? i0 : ra;
        rb = rb > i1 ? i1 : rb;
        for (int in = 0; in <= rb - ra; in++) {
            int i = i_down ? rb - in : ra + in;
            if (!cell_solid(hf, i, j)) continue;
            tread_aabb cell;
            cell_heights(hf, i, j, &cell.min.y, &cell.max.y);
            cell.min.x = (float)i * hf->spacing_x, cell.max.x = (float)(i + 1) * hf->spacing_x;
            cell.min.z = (float)j * hf->spacing_z, cell.max.z = (float)(j + 1) * hf->spacing_z;
            if (tr_ray_aabb_entry(o, inv_d, cell, ext, t_max) > t_max) continue;
            t_max = cast_cell(hf, i, j, c, c->is_box ? NULL : &cap, c->is_box ? &boxed : NULL, t_max, fn, ctx);
        }
    }
}

void tr_heightfield_cast(const tr_heightfield *hf, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    if (c->is_ray)
        cast_ray(hf, c, t_max, fn, ctx);
    else
        cast_capsule(hf, c, t_max, fn, ctx);
}

// A box axis or capsule core this close to level with a face (cosine with its normal) counts as level.
#define TR_LEVEL_COS 1.0e-5f

// Deepest point of the query shape along -n; where a face or the core lies level with the plane (many points as
// deep), the one nearest `toward` (the triangle's centre), so a flat bottom straddling cells is tested over each.
static tread_vec3 lowest_point(const tr_cast *q, tread_vec3 n, tread_vec3 toward) {
    if (q->is_box) {
        tread_vec3 p = q->p0;
        const float half[3] = {q->box_half.x, q->box_half.y, q->box_half.z};
        for (int a = 0; a < 3; a++) {
            float along = tread_v3_dot(q->box_axes[a], n);
            float at = fabsf(along) > TR_LEVEL_COS ? (along > 0.0f ? -half[a] : half[a])
                                                   : tr_clampf(tread_v3_dot(tread_v3_sub(toward, q->p0), q->box_axes[a]), -half[a], half[a]);
            p = tread_v3_mad(p, at, q->box_axes[a]);
        }
        return p;
    }
    tread_vec3 core = q->p1;
    float d0 = tread_v3_dot(q->p0, n), d1 = tread_v3_dot(q->p1, n);
    if (fabsf(d0 - d1) <= TR_LEVEL_COS * tread_v3_distance(q->p0, q->p1)) {
        tread_vec3 e = tread_v3_sub(q->p1, q->p0);
        float len_sq = tread_v3_length_sq(e);
        float t = len_sq > 0.0f ? tr_clampf(tread_v3_dot(tread_v3_sub(toward, q->p0), e) / len_sq, 0.0f, 1.0f) : 0.0f;
        core = tread_v3_mad(q->p0, t, e);
    } else if (d0 < d1) {
        core = q->p0;
    }
    return tread_v3_mad(core, -q->r, n);
}

// True when (x, z) lies in the triangle's footprint seen from above.
static bool above_footprint(const tread_vec3 v[3], float x, float z) {
    float d0 = (v[1].x - v[0].x) * (z - v[0].z) - (v[1].z - v[0].z) * (x - v[0].x);
    float d1 = (v[2].x - v[1].x) * (z - v[1].z) - (v[2].z - v[1].z) * (x - v[1].x);
    float d2 = (v[0].x - v[2].x) * (z - v[2].z) - (v[0].z - v[2].z) * (x - v[2].x);
    return (d0 >= 0.0f && d1 >= 0.0f && d2 >= 0.0f) || (d0 <= 0.0f && d1 <= 0.0f && d2 <= 0.0f);
}

// A heightfield is ground, solid below its surface: a shape whose lowest point is under a triangle, below its
// face, is pushed out up through that face, as deep as the point lies. The triangle alone is thin and two-sided,
// and its separating axis for a box half buried in the terrain pointed sideways (the soak's box teleported 0.27 m
// into a heightfield was pushed along the ground into more of it, and stayed there).
static void solid_below(const tr_cast *q, const tread_vec3 v[3], tr_feature_contact *contact) {
    tread_vec3 n = tread_v3_normalize(tread_v3_cross(tread_v3_sub(v[1], v[0]), tread_v3_sub(v[2], v[0])));
    if (n.y < 0.0f) n = tread_v3_neg(n);
    tread_vec3 centre = tread_v3_scale(tread_v3_add(v[0], tread_v3_add(v[1], v[2])), 1.0f / 3.0f);
    tread_vec3 low = lowest_point(q, n, centre);
    float depth = tread_v3_dot(tread_v3_sub(low, v[0]), n);
    if (!(depth < contact->separation) || !above_footprint(v, low.x, low.z)) return;
    contact->separation = depth;
    contact->normal = n;
    contact->surface_normal = n;
}

void tr_heightfield_query_contacts(const tr_heightfield *hf, const tr_cast *q, float margin, tr_contact_fn *fn, void *ctx) {
    tread_aabb query = tr_query_bounds(q, tr_maxf(margin, 0.0f));
    if (!tread_aabb_overlaps(query, hf->bounds)) return;
    int last_i = hf->count_x - 2, last_j = hf->count_z - 2;
    int i0 = clamp_index(query.min.x / hf->spacing_x, last_i), i1 = clamp_index(query.max.x / hf->spacing_x, last_i);
    int j0 = clamp_index(query.min.z / hf->spacing_z, last_j), j1 = clamp_index(query.max.z / hf->spacing_z, last_j);
    for (int j = j0; j <= j1; j++) {
        for (int i = i0; i <= i1; i++) {
            if (!cell_solid(hf, i, j)) continue;
            float lo, hi;
            cell_heights(hf, i, j, &lo, &hi);
            if (query.min.y > hi || query.max.y < lo) continue;
            for (int k = 0; k < 2; k++) {
                tread_vec3 v[3];
                cell_triangle(hf, i, j, k, v);
                tr_feature_contact contact;
                if (!tr_query_contact_triangle(q, v[0], v[1], v[2], triangle_edges(hf, i, j, k, v), margin, &contact))
                    continue;
                solid_below(q, v, &contact);
                contact.feature = triangle_id(hf, i, j, k);
                fn(ctx, &contact);
            }
        }
    }
}
