// SPDX-License-Identifier: MIT
// The world's mirror: every body the soak added, with its shape data as it was handed to tread and its transform
// read back from the world after every change (the world integrates kinematic bodies; where a body is, is the
// world's to say). Distances to the character are computed here, in double, feature by feature.
#include "soak.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double max2(double a, double b) { return a > b ? a : b; }
static double min2(double a, double b) { return a < b ? a : b; }

static void bounds_add(soak_v3 *lo, soak_v3 *hi, soak_v3 p) {
    *lo = soak_v3_make(min2(lo->x, p.x), min2(lo->y, p.y), min2(lo->z, p.z));
    *hi = soak_v3_make(max2(hi->x, p.x), max2(hi->y, p.y), max2(hi->z, p.z));
}

// Bounding box of the local box [lo, hi] carried by frame f.
static void frame_bounds(const soak_frame *f, soak_v3 lo, soak_v3 hi, soak_v3 *out_lo, soak_v3 *out_hi) {
    *out_lo = soak_v3_make(INFINITY, INFINITY, INFINITY);
    *out_hi = soak_v3_make(-INFINITY, -INFINITY, -INFINITY);
    for (int i = 0; i < 8; ++i)
        bounds_add(out_lo, out_hi, soak_frame_point(f, soak_v3_make(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z)));
}

// The body's own bounds in its local frame.
static void local_bounds(const soak_body *b, soak_v3 *lo, soak_v3 *hi) {
    const tread_shape_def *s = &b->def.shape;
    *lo = *hi = soak_v3_make(0.0, 0.0, 0.0);
    switch (b->kind) {
    case SOAK_BODY_BOX:
        *hi = soak_v3_of(s->half_extents);
        *lo = soak_scale(*hi, -1.0);
        return;
    case SOAK_BODY_SPHERE:
        *hi = soak_v3_make(s->radius, s->radius, s->radius);
        *lo = soak_scale(*hi, -1.0);
        return;
    case SOAK_BODY_CAPSULE:
        *hi = soak_v3_make(s->radius, (double)s->half_height + s->radius, s->radius);
        *lo = soak_scale(*hi, -1.0);
        return;
    case SOAK_BODY_MESH:
        *lo = soak_v3_make(INFINITY, INFINITY, INFINITY);
        *hi = soak_v3_make(-INFINITY, -INFINITY, -INFINITY);
        for (int i = 0; i < s->mesh.vertex_count; ++i) bounds_add(lo, hi, soak_v3_of(s->mesh.vertices[i]));
        return;
    case SOAK_BODY_HEIGHTFIELD: {
        const tread_heightfield_def *h = &s->heightfield;
        double ymin = INFINITY, ymax = -INFINITY;
        for (int i = 0; i < h->count_x * h->count_z; ++i) ymin = min2(ymin, h->heights[i]), ymax = max2(ymax, h->heights[i]);
        *lo = soak_v3_make(0.0, ymin, 0.0);
        *hi = soak_v3_make((double)(h->count_x - 1) * h->spacing_x, ymax, (double)(h->count_z - 1) * h->spacing_z);
        return;
    }
    case SOAK_BODY_VOXELS: {
        const tread_voxels_def *v = &s->voxels;
        *lo = soak_v3_make(0.0, 0.0, 0.0);
        *hi = soak_v3_make(v->count_x * (double)v->cell_size, v->count_y * (double)v->cell_size, v->count_z * (double)v->cell_size);
        return;
    }
    }
}

void soak_world_refresh(soak_world *w, int index) {
    soak_body *b = &w->bodies[index];
    tread_transform t;
    if (tread_body_get_transform(w->world, b->id, &t) != TREAD_OK) return; // live bodies always answer
    b->frame = soak_frame_of(t);
    soak_v3 lo, hi;
    local_bounds(b, &lo, &hi);
    frame_bounds(&b->frame, lo, hi, &b->lo, &b->hi);
}

bool soak_world_add(soak_world *w, soak_body *body, char *message, size_t size) {
    if (w->count == w->capacity) {
        int capacity = w->capacity ? 2 * w->capacity : 64;
        soak_body *grown = (soak_body *)realloc(w->bodies, sizeof(soak_body) * (size_t)capacity);
        if (!grown) {
            snprintf(message, size, "out of memory for %d bodies", capacity);
            return false;
        }
        w->bodies = grown;
        w->capacity = capacity;
    }
    if (tread_world_add_body(w->world, &body->def, &body->id) != TREAD_OK) {
        snprintf(message, size, "adding a body of kind %d: %s", (int)body->kind, tread_error_message());
        return false;
    }
    body->live = true;
    w->bodies[w->count] = *body;
    soak_world_refresh(w, w->count);
    w->bodies[w->count].previous = w->bodies[w->count].frame;
    ++w->count;
    return true;
}

static void free_arrays(soak_body *b) {
    free(b->vertices);
    free(b->indices);
    free(b->heights);
    free(b->holes);
    free(b->solid);
    b->vertices = NULL, b->indices = NULL, b->heights = NULL, b->holes = NULL, b->solid = NULL;
}

bool soak_world_remove(soak_world *w, int index, char *message, size_t size) {
    soak_body *b = &w->bodies[index];
    if (tread_world_remove_body(w->world, b->id) != TREAD_OK) {
        snprintf(message, size, "removing body %d: %s", index, tread_error_message());
        return false;
    }
    b->live = false;
    free_arrays(b);
    return true;
}

bool soak_world_set_transform(soak_world *w, int index, tread_transform t, char *message, size_t size) {
    if (tread_body_set_transform(w->world, w->bodies[index].id, t) != TREAD_OK) {
        snprintf(message, size, "moving body %d: %s", index, tread_error_message());
        return false;
    }
    soak_world_refresh(w, index);
    return true;
}

void soak_world_free(soak_world *w) {
    for (int i = 0; i < w->count; ++i) free_arrays(&w->bodies[i]);
    free(w->bodies);
    tread_world_destroy(w->world);
    memset(w, 0, sizeof *w);
}

int soak_world_find(const soak_world *w, tread_body_id id) {
    for (int i = 0; i < w->count; ++i)
        if (w->bodies[i].live && tread_body_id_equal(w->bodies[i].id, id)) return i;
    return -1;
}

soak_v3 soak_body_point_motion(const soak_body *b, soak_v3 point) {
    return soak_sub(soak_frame_point(&b->frame, soak_frame_inv_point(&b->previous, point)), point);
}

double soak_pusher_motion(const soak_world *w, const soak_shape *shape, uint32_t collide_mask, double skin, double margin) {
    soak_v3 lo = shape->lo, hi = shape->hi;
    double worst = 0.0;
    for (int i = 0; i < w->count; ++i) {
        const soak_body *b = &w->bodies[i];
        if (!b->live || !(collide_mask & (1u << b->def.layer))) continue;
        // A rigid motion moves a point by an affine function of it, whose length is convex: over the character's
        // bounding box it is largest at a corner.
        double m = 0.0;
        for (int k = 0; k < 8; ++k)
            m = max2(m, soak_length(soak_body_point_motion(b, soak_v3_make(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z))));
        if (m == 0.0) continue;
        // Only a body whose motion can have reached the character: its bounds now, grown by how far it moved there.
        double g = m + margin;
        if (b->lo.x - g > hi.x || lo.x > b->hi.x + g || b->lo.y - g > hi.y || lo.y > b->hi.y + g || b->lo.z - g > hi.z || lo.z > b->hi.z + g)
            continue;
        worst += m + skin; // each pushes in turn, ahead by its motion and the skin
    }
    return worst;
}

// ---- the character's volume ------------------------------------------------------------------------------------

soak_shape soak_shape_of(const tread_character *ch, tread_vec3 feet) { return soak_shape_at(&ch->settings, soak_v3_of(feet)); }

// ---- signed distances, piece by piece --------------------------------------------------------------------------


static double shape_vs_box(const soak_shape *s, const soak_box *b) {
    return s->is_box ? soak_box_vs_box(&s->box, b) : soak_round_vs_box(&s->round, b);
}

static double shape_vs_triangle(const soak_shape *s, soak_v3 a, soak_v3 b, soak_v3 c) {
    return s->is_box ? soak_box_vs_triangle(&s->box, a, b, c) : soak_round_vs_triangle(&s->round, a, b, c);
}

static double shape_vs_round(const soak_shape *s, const soak_round *r) {
    if (!s->is_box) return soak_round_vs_round(&s->round, r);
    return soak_round_vs_box(r, &s->box);
}

static soak_box body_box(const soak_frame *f, soak_v3 local_centre, const double half[3]) {
    soak_box b;
    b.c = soak_frame_point(f, local_centre);
    for (int i = 0; i < 3; ++i) b.axis[i] = f->axis[i], b.half[i] = half[i];
    return b;
}

// The character's bounds in the body's local frame (for picking the triangles and cells it may touch): the
// world bounds carried by the inverse frame (rotation R^T, translation -R^T p).
static void shape_local_bounds(const soak_shape *s, const soak_frame *f, soak_v3 *lo, soak_v3 *hi) {
    soak_frame inv;
    for (int i = 0; i < 3; ++i) inv.axis[i] = soak_v3_make(soak_component(f->axis[0], i), soak_component(f->axis[1], i), soak_component(f->axis[2], i));
    inv.p = soak_v3_make(-soak_dot(f->p, f->axis[0]), -soak_dot(f->p, f->axis[1]), -soak_dot(f->p, f->axis[2]));
    frame_bounds(&inv, s->lo, s->hi, lo, hi);
}

// ---- a body as convex pieces -------------------------------------------------------------------------------------

double soak_piece_distance(const soak_shape *s, const soak_piece *p) {
    switch (p->kind) {
    case SOAK_PIECE_TRIANGLE: return shape_vs_triangle(s, p->v[0], p->v[1], p->v[2]);
    case SOAK_PIECE_BOX: return shape_vs_box(s, &p->box);
    case SOAK_PIECE_ROUND: return shape_vs_round(s, &p->round);
    }
    return INFINITY;
}

static soak_piece triangle_piece(soak_v3 a, soak_v3 b, soak_v3 c) {
    soak_piece p = {.kind = SOAK_PIECE_TRIANGLE};
    p.v[0] = a, p.v[1] = b, p.v[2] = c;
    return p;
}

static bool mesh_pieces(const soak_body *b, soak_v3 lo, soak_v3 hi, soak_piece_visit visit, void *ctx) {
    const tread_mesh_def *m = &b->def.shape.mesh;
    for (int t = 0; t < m->triangle_count; ++t) {
        soak_v3 p[3], tlo = soak_v3_make(INFINITY, INFINITY, INFINITY), thi = soak_v3_make(-INFINITY, -INFINITY, -INFINITY);
        for (int k = 0; k < 3; ++k) bounds_add(&tlo, &thi, p[k] = soak_v3_of(m->vertices[m->indices[3 * t + k]]));
        if (!soak_bounds_overlap(tlo, thi, lo, hi)) continue;
        for (int k = 0; k < 3; ++k) p[k] = soak_frame_point(&b->frame, p[k]);
        soak_piece piece = triangle_piece(p[0], p[1], p[2]);
        if (!visit(ctx, &piece)) return false;
    }
    return true;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static bool heightfield_pieces(const soak_body *b, soak_v3 lo, soak_v3 hi, soak_piece_visit visit, void *ctx) {
    const tread_heightfield_def *h = &b->def.shape.heightfield;
    int i0 = clampi((int)floor(lo.x / h->spacing_x) - 1, 0, h->count_x - 2), i1 = clampi((int)floor(hi.x / h->spacing_x) + 1, 0, h->count_x - 2);
    int j0 = clampi((int)floor(lo.z / h->spacing_z) - 1, 0, h->count_z - 2), j1 = clampi((int)floor(hi.z / h->spacing_z) + 1, 0, h->count_z - 2);
    for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) {
            if (h->holes && h->holes[j * (h->count_x - 1) + i]) continue;
            // The cell's split is not in the API's documentation; src/world/heightfield.c splits cell (i, j) along
            // s00-s11 into (s00, s11, s10) and (s00, s01, s11), and a surface is what it is: the checks use it.
            soak_v3 c[4];
            for (int k = 0; k < 4; ++k) {
                int ii = i + (k & 1), jj = j + (k >> 1);
                c[k] = soak_frame_point(&b->frame, soak_v3_make(ii * (double)h->spacing_x, h->heights[jj * h->count_x + ii], jj * (double)h->spacing_z));
            }
            soak_piece first = triangle_piece(c[0], c[3], c[1]), second = triangle_piece(c[0], c[2], c[3]);
            if (!visit(ctx, &first) || !visit(ctx, &second)) return false;
        }
    return true;
}

static bool voxels_pieces(const soak_body *b, soak_v3 lo, soak_v3 hi, soak_piece_visit visit, void *ctx) {
    const tread_voxels_def *v = &b->def.shape.voxels;
    double cell = v->cell_size, half[3] = {0.5 * cell, 0.5 * cell, 0.5 * cell};
    int i0 = clampi((int)floor(lo.x / cell), 0, v->count_x - 1), i1 = clampi((int)floor(hi.x / cell), 0, v->count_x - 1);
    int j0 = clampi((int)floor(lo.y / cell), 0, v->count_y - 1), j1 = clampi((int)floor(hi.y / cell), 0, v->count_y - 1);
    int k0 = clampi((int)floor(lo.z / cell), 0, v->count_z - 1), k1 = clampi((int)floor(hi.z / cell), 0, v->count_z - 1);
    // Each solid cell is a box; the deepest overlap with one cell is what a depth reports (a character pressed into
    // a concave corner of cells is deeper into their union than into either cell: docs/RELIABILITY.md, limits).
    for (int k = k0; k <= k1; ++k)
        for (int j = j0; j <= j1; ++j)
            for (int i = i0; i <= i1; ++i) {
                if (!v->solid[(k * v->count_y + j) * v->count_x + i]) continue;
                soak_piece piece = {.kind = SOAK_PIECE_BOX};
                piece.box = body_box(&b->frame, soak_v3_make((i + 0.5) * cell, (j + 0.5) * cell, (k + 0.5) * cell), half);
                if (!visit(ctx, &piece)) return false;
            }
    return true;
}

bool soak_body_pieces(const soak_body *b, soak_v3 lo, soak_v3 hi, soak_piece_visit visit, void *ctx) {
    const tread_shape_def *d = &b->def.shape;
    soak_piece piece;
    memset(&piece, 0, sizeof piece);
    switch (b->kind) {
    case SOAK_BODY_BOX: {
        double half[3] = {d->half_extents.x, d->half_extents.y, d->half_extents.z};
        piece.kind = SOAK_PIECE_BOX;
        piece.box = body_box(&b->frame, soak_v3_make(0.0, 0.0, 0.0), half);
        return visit(ctx, &piece);
    }
    case SOAK_BODY_SPHERE:
        piece.kind = SOAK_PIECE_ROUND;
        piece.round = (soak_round){b->frame.p, b->frame.p, d->radius};
        return visit(ctx, &piece);
    case SOAK_BODY_CAPSULE:
        piece.kind = SOAK_PIECE_ROUND;
        piece.round = (soak_round){soak_mad(b->frame.p, -d->half_height, b->frame.axis[1]), soak_mad(b->frame.p, d->half_height, b->frame.axis[1]), d->radius};
        return visit(ctx, &piece);
    default: break;
    }
    // The bounds in the body's local frame pick the triangles and cells.
    soak_v3 llo, lhi;
    soak_shape bounds = {.lo = lo, .hi = hi};
    shape_local_bounds(&bounds, &b->frame, &llo, &lhi);
    switch (b->kind) {
    case SOAK_BODY_MESH: return mesh_pieces(b, llo, lhi, visit, ctx);
    case SOAK_BODY_HEIGHTFIELD: return heightfield_pieces(b, llo, lhi, visit, ctx);
    case SOAK_BODY_VOXELS: return voxels_pieces(b, llo, lhi, visit, ctx);
    default: return true;
    }
}

typedef struct nearest_piece {
    const soak_shape *shape;
    double best;
} nearest_piece;

static bool take_nearest(void *ctx, const soak_piece *p) {
    nearest_piece *n = ctx;
    n->best = min2(n->best, soak_piece_distance(n->shape, p));
    return true;
}

// The body's signed distance from the shape: the least over its pieces (the deepest overlap with one piece).
double soak_body_distance(const soak_body *b, const soak_shape *s) {
    nearest_piece n = {s, INFINITY};
    soak_body_pieces(b, s->lo, s->hi, take_nearest, &n);
    return n.best;
}

double soak_body_depth(const soak_body *b, const soak_shape *s) {
    return soak_bounds_overlap(b->lo, b->hi, s->lo, s->hi) ? fmax(0.0, -soak_body_distance(b, s)) : 0.0;
}

double soak_world_penetration(const soak_world *w, const soak_shape *shape, uint32_t collide_mask, double margin, int *out_body,
                              int *out_touching) {
    return soak_world_penetration_except(w, shape, collide_mask, margin, NULL, out_body, out_touching);
}

bool soak_except_has(const soak_except *except, int body) {
    for (int i = 0; except && i < except->count; ++i)
        if (except->bodies[i] == body) return true;
    return false;
}

bool soak_body_counts(const soak_world *w, int i, uint32_t collide_mask, const soak_except *except) {
    const soak_body *b = &w->bodies[i];
    return b->live && (collide_mask & (1u << b->def.layer)) && !soak_except_has(except, i);
}

double soak_world_penetration_except(const soak_world *w, const soak_shape *shape, uint32_t collide_mask, double margin,
                                     const soak_except *except, int *out_body, int *out_touching) {
    double deepest = 0.0;
    int touching = 0;
    if (out_body) *out_body = -1;
    // The bounds only pick what to measure: grown by the margin, so that triangles and cells within it count too.
    soak_shape reach = *shape;
    soak_v3 pad = soak_v3_make(margin, margin, margin);
    reach.lo = soak_sub(shape->lo, pad);
    reach.hi = soak_add(shape->hi, pad);
    for (int i = 0; i < w->count; ++i) {
        const soak_body *b = &w->bodies[i];
        if (!soak_body_counts(w, i, collide_mask, except) || !soak_bounds_overlap(b->lo, b->hi, reach.lo, reach.hi))
            continue;
        double distance = soak_body_distance(b, &reach);
        touching += distance <= margin;
        if (-distance > deepest) {
            deepest = -distance;
            if (out_body) *out_body = i;
        }
    }
    if (out_touching) *out_touching = touching;
    return deepest;
}

void soak_world_kinematic_inside(const soak_world *w, const soak_shape *shape, uint32_t collide_mask, double depth, soak_except *except) {
    for (int i = 0; i < w->count && except->count < SOAK_EXCEPT_MAX; ++i) {
        const soak_body *b = &w->bodies[i];
        if (!soak_body_counts(w, i, collide_mask, except) || b->def.type != TREAD_BODY_KINEMATIC ||
            !soak_bounds_overlap(b->lo, b->hi, shape->lo, shape->hi))
            continue;
        if (-soak_body_distance(b, shape) > depth) except->bodies[except->count++] = i;
    }
}

// The free-spot search looks where the update's does (DESIGN.md, recovery; recover.c, unbury): straight up, the
// eight compass points around up level and rising at 45 degrees, sinking at 45 degrees and straight down, each at
// the bound and its halves down to a 32nd. (Finer than the update's, it would find spots between those rungs that
// the update, by its documented search, does not look at.)
#define SOAK_FREE_RUNGS 6

int soak_search_directions(soak_v3 up, soak_v3 *dirs) {
    soak_v3 ref = fabs(up.y) < 0.9 ? soak_v3_make(0.0, 1.0, 0.0) : soak_v3_make(1.0, 0.0, 0.0);
    soak_v3 x = soak_normalize(soak_sub(ref, soak_scale(up, soak_dot(ref, up)))), z = soak_cross(x, up);
    int n = 0;
    dirs[n++] = up;
    static const double c8[8][2] = {{1, 0}, {0.70710678, 0.70710678}, {0, 1}, {-0.70710678, 0.70710678},
                                    {-1, 0}, {-0.70710678, -0.70710678}, {0, -1}, {0.70710678, -0.70710678}};
    for (int k = 0; k < 8; ++k) {
        soak_v3 h = soak_add(soak_scale(x, c8[k][0]), soak_scale(z, c8[k][1]));
        dirs[n++] = h;
        dirs[n++] = soak_normalize(soak_add(h, up));
        dirs[n++] = soak_normalize(soak_sub(h, up));
    }
    dirs[n++] = soak_scale(up, -1.0);
    return n;
}

bool soak_world_free_within(const soak_world *w, const tread_character *ch, double bound) {
    soak_v3 feet = soak_v3_of(ch->position), up = soak_normalize(soak_v3_of(ch->settings.up));
    soak_v3 dirs[SOAK_SEARCH_DIRECTIONS];
    int n = soak_search_directions(up, dirs);
    for (int k = SOAK_FREE_RUNGS - 1; k >= 0; --k) { // nearest first: most searches end early
        double d = bound / (double)(1 << k);
        for (int i = 0; i < n; ++i) {
            soak_shape shape = soak_shape_at(&ch->settings, soak_mad(feet, d, dirs[i]));
            if (soak_world_penetration(w, &shape, ch->settings.collide_mask, 0.0, NULL, NULL) <= 0.0) return true; // (as the update's: no overlap)
        }
    }
    return false;
}
