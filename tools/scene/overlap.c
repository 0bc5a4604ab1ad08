// SPDX-License-Identifier: MIT
// How deep characters overlap each other, the measure of the crowd checks (max_overlap), computed here and not by
// the library under test. Every character shape is a rounded box in the upright basis of its up (the basis the
// library's box characters use: docs of tread_query_shape): a capsule is a segment along up (a box of no width)
// with its radius, a sphere a point with its radius, a box a box with radius 0. Two such shapes sharing one up
// overlap exactly as deep as the origin lies inside their Minkowski difference, itself a rounded box: half extents
// and radii add. So the depth is (r_a + r_b) minus the signed distance from the centres' offset to the box of
// summed half extents, in double precision. Pairs are found in a hashed grid of cells as wide as the largest
// shape, so a frame of n characters costs O(n log n), not O(n^2). Characters whose up differs from the other's are
// not measured against each other (a scene turned by --up turns every character alike).
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run_internal.h"

typedef struct shape_box {
    double center[3]; // world, metres
    double axis[3][3]; // the upright basis of its up: axis[1] = up
    double half[3];   // along the basis
    double radius;
    tread_vec3 up;    // as the settings give it (pairs compare it bit for bit)
} shape_box;

typedef struct cell_entry {
    uint64_t key;
    int index;
} cell_entry;

struct run_overlap {
    int capacity;
    shape_box *shapes;
    cell_entry *cells;
};

run_overlap *run_overlap_create(int count) {
    run_overlap *o = (run_overlap *)calloc(1, sizeof *o);
    if (!o) return NULL;
    o->capacity = count;
    o->shapes = (shape_box *)calloc((size_t)count + 1, sizeof(shape_box));
    o->cells = (cell_entry *)calloc((size_t)count + 1, sizeof(cell_entry));
    if (!o->shapes || !o->cells) {
        run_overlap_destroy(o);
        return NULL;
    }
    return o;
}

void run_overlap_destroy(run_overlap *o) {
    if (!o) return;
    free(o->shapes);
    free(o->cells);
    free(o);
}

// The library's upright basis (src/geometry/box.c, tr_upright_axes): x = normalize(up x Z), or up x X when up is
// near +-Z; z = x x up. For up = +Y: world X, Y, Z.
static void upright_basis(tread_vec3 up, double axis[3][3]) {
    double u[3] = {up.x, up.y, up.z}, ref[3] = {0.0, 0.0, 1.0};
    if (!(fabsf(up.z) < 0.9f)) ref[0] = 1.0, ref[2] = 0.0;
    double x[3] = {u[1] * ref[2] - u[2] * ref[1], u[2] * ref[0] - u[0] * ref[2], u[0] * ref[1] - u[1] * ref[0]};
    double n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (int k = 0; k < 3; ++k) x[k] /= n;
    double z[3] = {x[1] * u[2] - x[2] * u[1], x[2] * u[0] - x[0] * u[2], x[0] * u[1] - x[1] * u[0]};
    memcpy(axis[0], x, sizeof x);
    memcpy(axis[1], u, sizeof u);
    memcpy(axis[2], z, sizeof z);
}

static shape_box shape_of(const tread_character *c) {
    shape_box b;
    memset(&b, 0, sizeof b);
    const tread_character_settings *s = &c->settings;
    tread_vec3 center = tread_character_center(c);
    b.center[0] = center.x, b.center[1] = center.y, b.center[2] = center.z;
    b.up = s->up;
    upright_basis(s->up, b.axis);
    double r = s->radius, half_height = 0.5 * (double)s->height;
    if (s->shape == TREAD_QUERY_BOX) {
        b.half[0] = b.half[2] = r;
        b.half[1] = half_height;
    } else {
        b.radius = r;
        if (s->shape == TREAD_QUERY_CAPSULE) b.half[1] = half_height - r;
    }
    return b;
}

static double reach_of(const shape_box *b) { return sqrt(b->half[0] * b->half[0] + b->half[1] * b->half[1] + b->half[2] * b->half[2]) + b->radius; }

// How deep a and b overlap (> 0), or how far apart they are (<= 0), for shapes sharing one up.
static double depth(const shape_box *a, const shape_box *b) {
    double d[3] = {b->center[0] - a->center[0], b->center[1] - a->center[1], b->center[2] - a->center[2]};
    double q[3], outside = 0.0, inside = -INFINITY;
    for (int k = 0; k < 3; ++k) {
        double along = d[0] * a->axis[k][0] + d[1] * a->axis[k][1] + d[2] * a->axis[k][2];
        q[k] = fabs(along) - (a->half[k] + b->half[k]);
        if (q[k] > 0.0) outside += q[k] * q[k];
        if (q[k] > inside) inside = q[k];
    }
    double distance = sqrt(outside) + (inside < 0.0 ? inside : 0.0); // signed distance to the box of summed halves
    return a->radius + b->radius - distance;
}

// A cell's key: three 21-bit coordinates (cells of >= 0.01 m over +-65,536 m fit).
static uint64_t cell_key(int64_t x, int64_t y, int64_t z) {
    const int64_t bias = 1 << 20, mask = (1 << 21) - 1;
    return ((uint64_t)((x + bias) & mask) << 42) | ((uint64_t)((y + bias) & mask) << 21) | (uint64_t)((z + bias) & mask);
}

static int compare_cells(const void *a, const void *b) {
    const cell_entry *x = (const cell_entry *)a, *y = (const cell_entry *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index - y->index;
}

// The first entry of `cells` (sorted) with this key, or n.
static int first_with(const cell_entry *cells, int n, uint64_t key) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (cells[mid].key < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void run_overlap_measure(run_overlap *o, const tread_character *characters, int count, float *out) {
    double cell = 0.01;
    for (int i = 0; i < count && i < o->capacity; ++i) {
        o->shapes[i] = shape_of(&characters[i]);
        cell = fmax(cell, 2.0 * reach_of(&o->shapes[i]));
        out[i] = 0.0f;
    }
    // A pair that overlaps has centres closer than the sum of their reaches, <= one cell: neighbouring cells.
    for (int i = 0; i < count && i < o->capacity; ++i) {
        const double *c = o->shapes[i].center;
        o->cells[i].key = cell_key((int64_t)floor(c[0] / cell), (int64_t)floor(c[1] / cell), (int64_t)floor(c[2] / cell));
        o->cells[i].index = i;
    }
    int n = count < o->capacity ? count : o->capacity;
    qsort(o->cells, (size_t)n, sizeof *o->cells, compare_cells);
    for (int i = 0; i < n; ++i) {
        const shape_box *a = &o->shapes[i];
        int64_t x = (int64_t)floor(a->center[0] / cell), y = (int64_t)floor(a->center[1] / cell), z = (int64_t)floor(a->center[2] / cell);
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    uint64_t key = cell_key(x + dx, y + dy, z + dz);
                    for (int e = first_with(o->cells, n, key); e < n && o->cells[e].key == key; ++e) {
                        int j = o->cells[e].index;
                        const shape_box *b = &o->shapes[j];
                        if (j <= i || memcmp(&a->up, &b->up, sizeof a->up) != 0) continue; // each pair once
                        double d = depth(a, b);
                        if (d > (double)out[i]) out[i] = (float)d;
                        if (d > (double)out[j]) out[j] = (float)d;
                    }
                }
    }
}
