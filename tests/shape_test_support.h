// SPDX-License-Identifier: MIT
// Shared by the shape tests (mesh, heightfield, voxels): a deterministic random source, closest-hit and
// floor-normal collectors, cast builders, and the internal-edge check on a flat 100 x 100 floor (no contact normal
// more than 1 degree off the floor's). Header-only: each test program includes it once.
#ifndef TREAD_SHAPE_TEST_SUPPORT_H
#define TREAD_SHAPE_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "world/shape.h"

// cos(1 degree): no floor contact may tilt more than this.
#define COS_ONE_DEGREE 0.9998477f
#define T_TOLERANCE 1.0e-5f

static uint32_t rng_state = 0x2468ACE1u;
static float rng_float(float lo, float hi) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return lo + (hi - lo) * (float)(rng_state >> 8) * (1.0f / 16777216.0f);
}

// ---- helpers ---------------------------------------------------------------------------------------------

typedef struct closest {
    bool hit;
    tr_feature_hit best;
} closest;

static float keep_closest(void *ctx, const tr_feature_hit *hit) {
    closest *c = (closest *)ctx;
    if (!c->hit || hit->t < c->best.t) c->best = *hit, c->hit = true;
    return c->best.t;
}

// Every hit's normal must stay within one degree of +Y; returns the old t_max (all hits).
typedef struct floor_check {
    int hits;
    float t_max;
    float worst_cos;
} floor_check;

static float check_floor_hit(void *ctx, const tr_feature_hit *hit) {
    floor_check *f = (floor_check *)ctx;
    f->hits++;
    f->worst_cos = tr_minf(f->worst_cos, hit->normal.y);
    f->worst_cos = tr_minf(f->worst_cos, hit->surface_normal.y);
    return f->t_max;
}

static void check_floor_contact(void *ctx, const tr_feature_contact *contact) {
    floor_check *f = (floor_check *)ctx;
    f->hits++;
    f->worst_cos = tr_minf(f->worst_cos, contact->normal.y);
    f->worst_cos = tr_minf(f->worst_cos, contact->surface_normal.y);
}

static tr_cast capsule_cast(tread_vec3 centre, float half_height, float r, tread_vec3 d) {
    tr_cast c = {0}; // every field, including the box query's
    c.p0 = tread_v3(centre.x, centre.y - half_height, centre.z);
    c.p1 = tread_v3(centre.x, centre.y + half_height, centre.z);
    c.r = r;
    c.d = d;
    c.is_ray = false;
    return c;
}

// Counts every contact reported (reset count_contacts before a query).
static int count_contacts;
static inline void count_contact(void *ctx, const tr_feature_contact *contact) {
    (void)ctx;
    (void)contact;
    count_contacts++;
}

// A resting capsule (core p0-p1, radius r) as a contact query.
static inline tr_cast contact_query(tread_vec3 p0, tread_vec3 p1, float r) {
    tr_cast q;
    memset(&q, 0, sizeof q);
    q.p0 = p0;
    q.p1 = p1;
    q.r = r;
    return q;
}

static tr_cast ray_cast(tread_vec3 o, tread_vec3 d) {
    tr_cast c = {0}; // every field, including the box query's
    c.p0 = c.p1 = o;
    c.r = 0.0f;
    c.d = d;
    c.is_ray = true;
    return c;
}

// ---- flat floor: no ghost normals -----------------------------------------------------------------------------

#define FLOOR_CELLS 100
#define CAPSULE_RADIUS 0.3f
#define CAPSULE_HALF 0.6f

// Positions on the floor: random, exactly on grid lines, exactly on vertices, near them.
static void floor_position(int q, float *x, float *z) {
    *x = rng_float(5.0f, 95.0f);
    *z = rng_float(5.0f, 95.0f);
    if (q % 4 == 1) *x = (float)(int)*x;                       // on an edge along z
    if (q % 4 == 2) *x = (float)(int)*x, *z = (float)(int)*z; // on a vertex
    if (q % 4 == 3) *z = *x - (float)(int)*x + (float)(int)*z; // on a diagonal
    if (q % 8 == 5) *x += 1.0e-5f;                             // just beside a line
}

// All the checks of the internal-edge requirement against a floor whose top is at height `top`; `cast` and
// `contacts` query the shape under test.
typedef void floor_cast_fn(const void *shape, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx);
typedef void floor_contacts_fn(const void *shape, tread_vec3 p0, tread_vec3 p1, float r, float margin, tr_contact_fn *fn,
                               void *ctx);

static void check_flat_floor(const void *shape, float top, floor_cast_fn *cast, floor_contacts_fn *contacts) {
    float rest = top + CAPSULE_RADIUS + CAPSULE_HALF; // centre height when resting on the floor
    int hits = 0, contact_count = 0;
    float worst = 1.0f;
    for (int q = 0; q < 4000; q++) {
        float x, z;
        floor_position(q, &x, &z);
        floor_check f = {0, 1.0f, 1.0f};
        // Down onto the floor.
        tr_cast down = capsule_cast(tread_v3(x, rest + 0.5f, z), CAPSULE_HALF, CAPSULE_RADIUS, tread_v3(0, -1.0f, 0));
        cast(shape, &down, 1.0f, check_floor_hit, &f);
        assert_true(f.hits > 0);
        // Down and forward.
        float ang_x = rng_float(-1.0f, 1.0f), ang_z = rng_float(-1.0f, 1.0f);
        tr_cast diag = capsule_cast(tread_v3(x, rest + 0.3f, z), CAPSULE_HALF, CAPSULE_RADIUS, tread_v3(ang_x, -0.6f, ang_z));
        cast(shape, &diag, 1.0f, check_floor_hit, &f);
        // Sliding: horizontal casts starting touching and slightly penetrating.
        tread_vec3 slide = tread_v3(rng_float(-2.0f, 2.0f), 0.0f, rng_float(-2.0f, 2.0f));
        if (q % 3 == 0) slide = tread_v3(q % 2 ? 1.5f : 0.0f, 0.0f, q % 2 ? 0.0f : -1.5f); // along grid lines
        tr_cast touching = capsule_cast(tread_v3(x, rest, z), CAPSULE_HALF, CAPSULE_RADIUS, slide);
        cast(shape, &touching, 1.0f, check_floor_hit, &f);
        tr_cast sunk = capsule_cast(tread_v3(x, rest - 1.0e-4f, z), CAPSULE_HALF, CAPSULE_RADIUS, slide);
        cast(shape, &sunk, 1.0f, check_floor_hit, &f);
        // Slightly sinking while sliding.
        tr_cast sink = capsule_cast(tread_v3(x, rest + 5.0e-5f, z), CAPSULE_HALF, CAPSULE_RADIUS,
                                    tread_v3(slide.x, -0.01f, slide.z));
        cast(shape, &sink, 1.0f, check_floor_hit, &f);
        hits += f.hits;
        // Contacts where it rests, touches and sinks.
        float heights[3] = {rest, rest - 1.0e-4f, rest - 0.02f};
        for (int h = 0; h < 3; h++) {
            tread_vec3 p0 = tread_v3(x, heights[h] - CAPSULE_HALF, z), p1 = tread_v3(x, heights[h] + CAPSULE_HALF, z);
            contacts(shape, p0, p1, CAPSULE_RADIUS, 0.01f, check_floor_contact, &f);
        }
        contact_count += f.hits;
        worst = tr_minf(worst, f.worst_cos);
        if (f.worst_cos < COS_ONE_DEGREE) {
            print_error("ghost normal at x=%.9g z=%.9g (cos %.9g)\n", (double)x, (double)z, (double)f.worst_cos);
            fail();
        }
    }
    assert_true(hits > 4000 && contact_count > 4000);
    assert_true(worst >= COS_ONE_DEGREE);
}

#endif
