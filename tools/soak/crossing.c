// SPDX-License-Identifier: MIT
// Crushed, a character is never moved through a body (types.h, crushed): does the centre's way from where the move
// began to where it ended run through one? The way is not recorded. The checker tries the ways the move documents
// (the straight line; along a crusher's push, aside, and on along it) and, where each of them runs into something,
// looks for any way around no longer than the move's parts add up to: a wall between start and end blocks every
// way, the corner of a box the push slid along before the crush (58:1111: 2.7 cm under the bent path) does not.
#include "soak.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// The path's radius (half a centimetre): the measure finds the bodies the segment comes that near, and reports how
// far the segment itself went in (a way out keeps the shape free, its centre a radius from every surface).
#define SOAK_PATH_RADIUS 0.005
// Where along a crushed push the checker tries the turn aside: after every quarter of it.
#define SOAK_CRUSH_BENDS 4
// The way-around search's grid: this many cells along the longest side of the region a way that long can reach.
#define SOAK_WAY_CELLS 12

// A round shape of `radius` along the segment a-b, with its bounds.
static soak_shape thin_segment(soak_v3 a, soak_v3 b, double radius) {
    soak_shape s;
    memset(&s, 0, sizeof s);
    s.round.a = a;
    s.round.b = b;
    s.round.radius = radius;
    soak_v3 ext = soak_v3_make(radius, radius, radius);
    s.lo = soak_sub(soak_v3_make(fmin(a.x, b.x), fmin(a.y, b.y), fmin(a.z, b.z)), ext);
    s.hi = soak_add(soak_v3_make(fmax(a.x, b.x), fmax(a.y, b.y), fmax(a.z, b.z)), ext);
    return s;
}

enum { BODY_UNKNOWN, BODY_COUNTS, BODY_LEFT_OUT };

typedef struct crossing {
    const soak_world *w;
    const soak_shape *before;
    soak_shape from, to;     // the way's ends, as thin points
    uint32_t collide_mask;
    const soak_except *except;
    unsigned char *state;    // per body: whether a way may run into it, decided when one first does
} crossing;

// Bodies the character was inside of before the move (leaving them is the way out) or is inside of at either end do
// not count.
static bool counts(crossing *c, int i) {
    const soak_body *body = &c->w->bodies[i];
    if (c->state[i] == BODY_UNKNOWN) {
        bool left_out = soak_body_distance(body, &c->from) < 0.0 || soak_body_distance(body, &c->to) < 0.0 ||
                        (soak_bounds_overlap(body->lo, body->hi, c->before->lo, c->before->hi) &&
                         soak_body_distance(body, c->before) < -SOAK_TOLERANCE);
        c->state[i] = left_out ? BODY_LEFT_OUT : BODY_COUNTS;
    }
    return c->state[i] == BODY_COUNTS;
}

// How deep the segment p-q, grown by `radius`, runs into a body that counts.
static double leg_depth(crossing *c, soak_v3 p, soak_v3 q, double radius) {
    soak_shape leg = thin_segment(p, q, radius);
    double deepest = 0.0;
    for (int i = 0; i < c->w->count; ++i) {
        const soak_body *body = &c->w->bodies[i];
        if (!soak_body_counts(c->w, i, c->collide_mask, c->except) ||
            !soak_bounds_overlap(body->lo, body->hi, leg.lo, leg.hi))
            continue;
        double d = soak_body_distance(body, &leg);
        if (!(d < 0.0) || !counts(c, i)) continue;
        deepest = fmax(deepest, -d);
    }
    return deepest;
}

// How deep the segment p-q itself runs into a body that counts (measured with the thin shape around it: a path
// that grazes a surface is no crossing).
static double leg_crossing(crossing *c, soak_v3 p, soak_v3 q) { return fmax(0.0, leg_depth(c, p, q, SOAK_PATH_RADIUS) - SOAK_PATH_RADIUS); }

static double polyline_crossing(crossing *c, const soak_v3 *points, int count) {
    double deepest = 0.0;
    for (int k = 0; k + 1 < count; ++k) deepest = fmax(deepest, leg_crossing(c, points[k], points[k + 1]));
    return deepest;
}

// Is the whole shape, moved by d from where it began, clear of the bodies that count (to the tolerance)?
static bool shape_clear(crossing *c, soak_v3 d) {
    soak_shape at = soak_shape_moved(c->before, d);
    for (int i = 0; i < c->w->count; ++i) {
        const soak_body *body = &c->w->bodies[i];
        if (!soak_body_counts(c->w, i, c->collide_mask, c->except) ||
            !soak_bounds_overlap(body->lo, body->hi, at.lo, at.hi))
            continue;
        if (soak_body_distance(body, &at) < -SOAK_TOLERANCE && counts(c, i)) return false;
    }
    return true;
}

// Is there a way from a to b no longer than max_length that the character could have gone, the move keeping its
// shape free of all but what it started in: the ball of `radius` around the centre (inside the shape) overlapping no
// body that counts along it, and the whole shape clear at each of its corners? (The centre alone could pass where
// the character cannot: a box 4 m wide would go round a platform's edge.) Searched (A*, nearest first) over a grid
// through a, within the ellipsoid of foci a and b such ways stay in.
static bool way_around(crossing *c, soak_v3 a, soak_v3 b, double max_length, double radius) {
    double chord = soak_length(soak_sub(b, a));
    if (!(max_length > chord)) return false;
    double grow = 0.5 * sqrt(max_length * max_length - chord * chord);
    soak_v3 lo = soak_v3_make(fmin(a.x, b.x) - grow, fmin(a.y, b.y) - grow, fmin(a.z, b.z) - grow);
    soak_v3 hi = soak_v3_make(fmax(a.x, b.x) + grow, fmax(a.y, b.y) + grow, fmax(a.z, b.z) + grow);
    double h = fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z)) / SOAK_WAY_CELLS;
    int n[3], o[3]; // node (i, j, k) lies at a + h (i - o[0], j - o[1], k - o[2])
    for (int axis = 0; axis < 3; ++axis) {
        o[axis] = (int)ceil((soak_component(a, axis) - soak_component(lo, axis)) / h);
        n[axis] = o[axis] + (int)ceil((soak_component(hi, axis) - soak_component(a, axis)) / h) + 1;
    }
    int total = n[0] * n[1] * n[2];
    double *g = malloc(sizeof *g * (size_t)total);
    unsigned char *closed = calloc((size_t)total, 1);
    bool found = false;
    if (!g || !closed) goto done;
    for (int i = 0; i < total; ++i) g[i] = INFINITY;
    g[(o[2] * n[1] + o[1]) * n[0] + o[0]] = 0.0;
    for (;;) {
        int best = -1;
        double best_f = INFINITY;
        soak_v3 p = a;
        for (int i = 0; i < total; ++i) {
            if (closed[i] || g[i] == INFINITY) continue;
            soak_v3 at = soak_v3_make(a.x + h * (i % n[0] - o[0]), a.y + h * ((i / n[0]) % n[1] - o[1]), a.z + h * (i / (n[0] * n[1]) - o[2]));
            double f = g[i] + soak_length(soak_sub(b, at));
            if (f < best_f) best_f = f, best = i, p = at;
        }
        if (best < 0 || best_f > max_length) break;
        closed[best] = 1;
        double to_end = soak_length(soak_sub(b, p));
        if (to_end <= h * 1.7320508075688772 && leg_depth(c, p, b, radius) <= SOAK_TOLERANCE) {
            found = true;
            break;
        }
        int ci = best % n[0], cj = (best / n[0]) % n[1], ck = best / (n[0] * n[1]);
        for (int dk = -1; dk <= 1; ++dk)
            for (int dj = -1; dj <= 1; ++dj)
                for (int di = -1; di <= 1; ++di) {
                    int i = ci + di, j = cj + dj, k = ck + dk;
                    if ((di | dj | dk) == 0 || i < 0 || j < 0 || k < 0 || i >= n[0] || j >= n[1] || k >= n[2]) continue;
                    int id = (k * n[1] + j) * n[0] + i;
                    if (closed[id]) continue;
                    soak_v3 q = soak_v3_make(a.x + h * (i - o[0]), a.y + h * (j - o[1]), a.z + h * (k - o[2]));
                    double ng = g[best] + h * sqrt((double)(di * di + dj * dj + dk * dk));
                    if (!(ng < g[id]) || ng + soak_length(soak_sub(b, q)) > max_length) continue;
                    if (leg_depth(c, p, q, radius) <= SOAK_TOLERANCE && shape_clear(c, soak_sub(q, a))) g[id] = ng;
                }
    }
done:
    free(g);
    free(closed);
    return found;
}

double soak_world_crossing(const soak_world *w, const soak_shape *before, soak_v3 a, soak_v3 b, const soak_v3 *ways, int way_count,
                           double max_length, double radius, uint32_t collide_mask, const soak_except *except) {
    crossing c = {w, before, thin_segment(a, a, SOAK_PATH_RADIUS), thin_segment(b, b, SOAK_PATH_RADIUS), collide_mask, except,
                  calloc((size_t)(w->count > 0 ? w->count : 1), 1)};
    if (!c.state) return INFINITY;
    soak_v3 chord[2] = {a, b};
    double least = polyline_crossing(&c, chord, 2);
    // A crushed move's way is not its chord: along the push until it was stopped, aside across it, and on along it
    // (types.h, crushed). Along each way it may have been pushed, that path with the push stopped after each
    // SOAK_CRUSH_BENDS-th of its length (from aside first to aside last). The path that crosses least is taken for
    // the move's (a wall between start and end crosses every one of them).
    soak_v3 d = soak_sub(b, a);
    for (int i = 0; i < way_count && least > 0.0; ++i) {
        double len = sqrt(soak_dot(ways[i], ways[i]));
        if (!(len > 0.0)) continue;
        soak_v3 n = soak_scale(ways[i], 1.0 / len);
        soak_v3 along = soak_scale(n, soak_dot(d, n)), aside = soak_sub(d, along);
        for (int k = 0; k <= SOAK_CRUSH_BENDS && least > 0.0; ++k) {
            soak_v3 stopped = soak_mad(a, (double)k / SOAK_CRUSH_BENDS, along);
            soak_v3 path[4] = {a, stopped, soak_add(stopped, aside), b};
            least = fmin(least, polyline_crossing(&c, path, 4));
        }
    }
    // Those all run into something: any way around, as long as the move could have gone?
    if (least > SOAK_TOLERANCE && way_around(&c, a, b, max_length, radius)) least = 0.0;
    free(c.state);
    return least;
}
