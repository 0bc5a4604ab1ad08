// SPDX-License-Identifier: MIT
// An upper bound on how deep the character is in a body made of many convex pieces (a mesh's or heightfield's
// triangles, voxel cells). The soak's depth is the deepest single piece's (world.c), which is at most the depth in the
// body's solid: leaving the whole means leaving each piece. It can grow while the true depth shrinks: a box across a
// heightfield cell's diagonal leaves either triangle soonest sideways over that diagonal, into the other one, and
// walking along the slope while recovery lifts it out moves that way out a little farther each frame (11:1129). So
// "never deeper than the world put it" is judged as something proven: the depth after the move (a lower bound) above
// this bound on the depth before it.
#include "soak.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Pieces one body may bring within the reach (a heightfield's triangles, voxel cells); past it, no bound.
#define SOAK_BOUND_PIECES 8192
// Directions tried: the update's search directions, each overlapped piece's way out and those of pairs of pieces.
#define SOAK_BOUND_DIRECTIONS 128
// An exit is found by halving to this, metres.
#define SOAK_BOUND_RESOLUTION 1e-7
// Two ways out this close (cosine) are one direction.
#define SOAK_BOUND_SAME_COS 0.9999

typedef struct piece_list {
    soak_piece *pieces;
    int count;
    bool full;
} piece_list;

static bool collect(void *ctx, const soak_piece *p) {
    piece_list *l = ctx;
    if (l->count == SOAK_BOUND_PIECES) {
        l->full = true;
        return false;
    }
    l->pieces[l->count++] = *p;
    return true;
}

// Where along u, from t (inside the piece by `depth`), the shape leaves the piece: the signed distance falls no
// faster than the shape moves, so not before `depth`; doubled until out, then halved. INFINITY past the reach.
static double exit_along(const soak_shape *s, const soak_piece *p, soak_v3 u, double t, double depth, double reach) {
    double lo = t, hi = t + fmax(depth, SOAK_BOUND_RESOLUTION);
    for (;;) {
        if (lo >= reach) return INFINITY;
        hi = fmin(hi, reach);
        soak_shape m = soak_shape_moved(s, soak_scale(u, hi));
        if (soak_piece_distance(&m, p) >= 0.0) break;
        lo = hi;
        hi = t + 2.0 * (hi - t);
    }
    while (hi - lo > SOAK_BOUND_RESOLUTION) {
        double mid = 0.5 * (lo + hi);
        soak_shape m = soak_shape_moved(s, soak_scale(u, mid));
        if (soak_piece_distance(&m, p) < 0.0)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

// The least t >= 0 at which the shape moved by t u overlaps none of the pieces. The shape and a piece are convex, so
// the t at which they overlap form one interval: stepping to the farthest exit among those overlapped, until none
// is, passes at least one piece's interval for good each time.
static double free_along(const soak_shape *s, const piece_list *l, soak_v3 u, double reach) {
    double t = 0.0;
    for (int step = 0; step <= l->count; ++step) {
        soak_shape m = soak_shape_moved(s, soak_scale(u, t));
        double next = t;
        bool inside = false;
        for (int i = 0; i < l->count; ++i) {
            double d = soak_piece_distance(&m, &l->pieces[i]);
            if (!(d < 0.0)) continue;
            inside = true;
            next = fmax(next, exit_along(s, &l->pieces[i], u, t, -d, reach));
            if (next == INFINITY) return INFINITY;
        }
        if (!inside) return t;
        t = next;
    }
    return INFINITY;
}

static soak_v3 shape_centre(const soak_shape *s) {
    return s->is_box ? s->box.c : soak_scale(soak_add(s->round.a, s->round.b), 0.5);
}

// The way out of one piece toward the shape's centre's side: a triangle's normal, a box's face the centre is
// farthest out toward (relative to its size), away from a round piece's core.
static soak_v3 way_out(const soak_shape *s, const soak_piece *p) {
    soak_v3 c = shape_centre(s);
    switch (p->kind) {
    case SOAK_PIECE_TRIANGLE: {
        soak_v3 n = soak_normalize(soak_cross(soak_sub(p->v[1], p->v[0]), soak_sub(p->v[2], p->v[0])));
        return soak_dot(soak_sub(c, p->v[0]), n) < 0.0 ? soak_scale(n, -1.0) : n;
    }
    case SOAK_PIECE_BOX: {
        soak_v3 d = soak_sub(c, p->box.c), best = p->box.axis[0];
        double most = -INFINITY;
        for (int k = 0; k < 3; ++k) {
            double along = soak_dot(d, p->box.axis[k]), out = fabs(along) / p->box.half[k];
            if (out > most) most = out, best = along < 0.0 ? soak_scale(p->box.axis[k], -1.0) : p->box.axis[k];
        }
        return best;
    }
    case SOAK_PIECE_ROUND: {
        soak_v3 ab = soak_sub(p->round.b, p->round.a);
        double len2 = soak_dot(ab, ab), t = len2 > 0.0 ? soak_dot(soak_sub(c, p->round.a), ab) / len2 : 0.0;
        t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
        soak_v3 d = soak_sub(c, soak_mad(p->round.a, t, ab));
        return soak_length(d) > 0.0 ? soak_normalize(d) : soak_v3_make(0.0, 0.0, 0.0);
    }
    }
    return soak_v3_make(0.0, 0.0, 0.0);
}

static void add_direction(soak_v3 *dirs, int *count, soak_v3 d) {
    double len = soak_length(d);
    if (!(len > 0.0) || *count == SOAK_BOUND_DIRECTIONS) return;
    d = soak_scale(d, 1.0 / len);
    for (int i = 0; i < *count; ++i)
        if (soak_dot(dirs[i], d) > SOAK_BOUND_SAME_COS) return;
    dirs[(*count)++] = d;
}

// One body's bound, given its depth by the deepest piece (> 0).
static double body_bound(const soak_body *b, const soak_shape *shape, soak_v3 up, double deepest, double reach, soak_piece *storage) {
    soak_v3 pad = soak_v3_make(reach, reach, reach);
    piece_list l = {storage, 0, false};
    soak_body_pieces(b, soak_sub(shape->lo, pad), soak_add(shape->hi, pad), collect, &l);
    if (l.full) return INFINITY;
    soak_v3 dirs[SOAK_BOUND_DIRECTIONS], outs[SOAK_BOUND_DIRECTIONS];
    int n = 0, overlapped = 0, out_count = 0;
    for (int i = 0; i < l.count; ++i) {
        if (!(soak_piece_distance(shape, &l.pieces[i]) < 0.0)) continue;
        ++overlapped;
        add_direction(outs, &out_count, way_out(shape, &l.pieces[i]));
    }
    if (overlapped <= 1) return deepest; // one convex piece: its depth is the shortest way out
    for (int i = 0; i < out_count; ++i) add_direction(dirs, &n, outs[i]);
    for (int i = 0; i < out_count; ++i) // a concave corner's way out lies between its faces'
        for (int j = i + 1; j < out_count; ++j) add_direction(dirs, &n, soak_add(outs[i], outs[j]));
    soak_v3 search[SOAK_SEARCH_DIRECTIONS];
    int m = soak_search_directions(up, search);
    for (int i = 0; i < m; ++i) add_direction(dirs, &n, search[i]);
    double best = INFINITY;
    for (int i = 0; i < n && best > deepest; ++i) best = fmin(best, free_along(shape, &l, dirs[i], fmin(best, reach)));
    return fmax(best, deepest);
}

double soak_world_depth_bound(const soak_world *w, const soak_shape *shape, soak_v3 up, uint32_t collide_mask, const soak_except *except,
                              double reach) {
    soak_piece *storage = malloc(sizeof *storage * SOAK_BOUND_PIECES);
    if (!storage) return INFINITY;
    double worst = 0.0;
    for (int i = 0; i < w->count && worst < INFINITY; ++i) {
        if (!soak_body_counts(w, i, collide_mask, except)) continue;
        double depth = soak_body_depth(&w->bodies[i], shape);
        if (depth > 0.0) worst = fmax(worst, body_bound(&w->bodies[i], shape, up, depth, reach, storage));
    }
    free(storage);
    return worst;
}
