// SPDX-License-Identifier: MIT
// The query backend contract (include/tread/backend.h, docs/BACKENDS.md) as checks any backend can run: a fixed scene
// of bodies, built into the engine under test by its own builder, and checks of every query and body question against
// the scene's geometry (not against tread's answers), each writing what failed into a report. No test framework: a
// test calls bc_run_all (or one bc_check_* at a time) and fails on a non-empty report. tests/test_backend.c runs it on
// tread's own world and on a backend over tread's public API; an adapter for another engine runs it on its own.
//
// An engine's builder gets the scene as tread_body_defs (boxes, a sphere, a capsule, a two-triangle mesh; layers,
// flags, velocities, a surface velocity) at the transforms they had when the frame began, then makes one frame of
// `dt` pass: kinematic bodies move by their velocity, dynamic ones to bc_body::moved_to. The backend it returns must
// answer about that frame.
#ifndef TREAD_TEST_BACKEND_CONFORMANCE_H
#define TREAD_TEST_BACKEND_CONFORMANCE_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tread/tread.h"

// ---- the scene ---------------------------------------------------------------------------------------------------

// The scene's bodies, by index (what ids[] in a fixture is indexed by).
enum {
    BC_FLOOR,    // static box, top face y = 0 over x, z in [-10, 10]
    BC_A,        // static unit box on the floor, x in [2.5, 3.5], z in [-0.5, 0.5], top y = 1
    BC_B,        // the same next to it, x in [3.5, 4.5]: A and B meet along x = 3.5
    BC_MESH,     // two triangles, a flat quad at y = 0.25 over x in [-4, -2], z in [-1, 1], its diagonal z = x + 3
    BC_LAYER3,   // static unit box on layer 3 at (-3, 0.5, 4)
    BC_SENSOR,   // a sensor unit box at (3, 0.5, 4)
    BC_ONE_WAY,  // a one-way platform, top y = 1.1, over x, z in [-1, 1] around z = -4
    BC_MOVER,    // kinematic unit box at (-3, 0.5, -4), moving at (1, 0, 0) m/s
    BC_SPINNER,  // kinematic box, half (1, 0.25, 0.25), at (6, 0.5, -4), turning at 2 rad/s about +y
    BC_DYNAMIC,  // dynamic unit box at (6, 0.5, 4), moved by the game's physics to (6.2, 0.5, 4) at (2, 0, 0) m/s
    BC_CONVEYOR, // static box, half (1, 0.5, 1), at (-6, 0.5, 0), its surface running at (0, 0, 1.5) m/s
    BC_SPHERE,   // static sphere, radius 0.5, at (-6, 0.5, 4)
    BC_CAPSULE,  // static capsule, half height 0.5, radius 0.3, along y at (-6, 1, -4)
    BC_BODIES
};

#define BC_DT 0.1f

typedef struct bc_body {
    tread_body_def def;         // at the transform it had when the frame began
    tread_transform moved_to;   // dynamic bodies: where the game's physics put it over the frame
} bc_body;

static const tread_vec3 bc_quad[4] = {{-4, 0.25f, -1}, {-2, 0.25f, -1}, {-2, 0.25f, 1}, {-4, 0.25f, 1}};
static const uint32_t bc_quad_indices[6] = {0, 1, 2, 0, 2, 3};

static inline bc_body bc_box(tread_vec3 center, tread_vec3 half) {
    bc_body b;
    memset(&b, 0, sizeof b);
    b.def = tread_body_def_default();
    b.def.shape = tread_shape_box(half);
    b.def.transform.p = center;
    b.moved_to = b.def.transform;
    return b;
}

// The scene, into bodies[BC_BODIES].
static inline void bc_scene(bc_body *bodies) {
    tread_vec3 unit = tread_v3(0.5f, 0.5f, 0.5f);
    bodies[BC_FLOOR] = bc_box(tread_v3(0, -0.5f, 0), tread_v3(10, 0.5f, 10));
    bodies[BC_A] = bc_box(tread_v3(3, 0.5f, 0), unit);
    bodies[BC_B] = bc_box(tread_v3(4, 0.5f, 0), unit);
    bodies[BC_MESH] = bc_box(tread_v3(0, 0, 0), unit);
    bodies[BC_MESH].def.shape = tread_shape_mesh(bc_quad, 4, bc_quad_indices, 2);
    bodies[BC_LAYER3] = bc_box(tread_v3(-3, 0.5f, 4), unit);
    bodies[BC_LAYER3].def.layer = 3;
    bodies[BC_SENSOR] = bc_box(tread_v3(3, 0.5f, 4), unit);
    bodies[BC_SENSOR].def.flags = TREAD_BODY_SENSOR;
    bodies[BC_ONE_WAY] = bc_box(tread_v3(0, 1, -4), tread_v3(1, 0.1f, 1));
    bodies[BC_ONE_WAY].def.flags = TREAD_BODY_ONE_WAY;
    bodies[BC_MOVER] = bc_box(tread_v3(-3, 0.5f, -4), unit);
    bodies[BC_MOVER].def.type = TREAD_BODY_KINEMATIC;
    bodies[BC_MOVER].def.linear_velocity = tread_v3(1, 0, 0);
    bodies[BC_SPINNER] = bc_box(tread_v3(6, 0.5f, -4), tread_v3(1, 0.25f, 0.25f));
    bodies[BC_SPINNER].def.type = TREAD_BODY_KINEMATIC;
    bodies[BC_SPINNER].def.angular_velocity = tread_v3(0, 2, 0);
    bodies[BC_DYNAMIC] = bc_box(tread_v3(6, 0.5f, 4), unit);
    bodies[BC_DYNAMIC].def.type = TREAD_BODY_DYNAMIC;
    bodies[BC_DYNAMIC].def.linear_velocity = tread_v3(2, 0, 0);
    bodies[BC_DYNAMIC].moved_to.p = tread_v3(6.2f, 0.5f, 4);
    bodies[BC_CONVEYOR] = bc_box(tread_v3(-6, 0.5f, 0), tread_v3(1, 0.5f, 1));
    bodies[BC_CONVEYOR].def.surface.linear = tread_v3(0, 0, 1.5f);
    bodies[BC_SPHERE] = bc_box(tread_v3(-6, 0.5f, 4), unit);
    bodies[BC_SPHERE].def.shape = tread_shape_sphere(0.5f);
    bodies[BC_CAPSULE] = bc_box(tread_v3(-6, 1, -4), unit);
    bodies[BC_CAPSULE].def.shape = tread_shape_capsule(0.5f, 0.3f);
}

// ---- the engine under test and the report --------------------------------------------------------------------------

// Build the scene's `count` bodies into a fresh engine, let one frame of `dt` seconds pass, and fill *out with the
// backend over it and ids[i] with the id its queries name body i by. False: could not (the report says so).
typedef bool bc_build_fn(void *self, const bc_body *bodies, int count, float dt, tread_backend *out, tread_body_id *ids);

typedef struct bc_engine {
    const char *name;
    bc_build_fn *build;
    void (*destroy)(void *self); // frees what build made (NULL: nothing)
    void *self;
    float tolerance; // metres (and unit-vector components) within which its answers may differ from the geometry's;
                     // tread's exact queries: 1e-5. Ties in the ordering rule must then be exact only when 0 < tolerance <= 1e-5
} bc_engine;

typedef struct bc_fixture {
    tread_backend backend;
    tread_body_id ids[BC_BODIES];
    float tol;
} bc_fixture;

typedef struct bc_report {
    char text[8192];
    int failures;
    int checks;
} bc_report;

static inline void bc_fail(bc_report *r, const char *check, const char *fmt, ...) {
    size_t used = strlen(r->text);
    if (used + 2 >= sizeof r->text) return;
    snprintf(r->text + used, sizeof r->text - used, "%s: ", check);
    used = strlen(r->text);
    va_list args;
    va_start(args, fmt);
    vsnprintf(r->text + used, sizeof r->text - used, fmt, args);
    va_end(args);
    used = strlen(r->text);
    if (used + 1 < sizeof r->text) strcat(r->text, "\n");
    ++r->failures;
}

#define BC_EXPECT(r, cond, ...) (++(r)->checks, (cond) ? (void)0 : bc_fail((r), __func__, __VA_ARGS__))

static inline bool bc_near(float a, float b, float tol) { return fabsf(a - b) <= tol; }
static inline bool bc_near3(tread_vec3 a, tread_vec3 b, float tol) { return bc_near(a.x, b.x, tol) && bc_near(a.y, b.y, tol) && bc_near(a.z, b.z, tol); }
static inline bool bc_is(tread_body_id a, tread_body_id b) { return tread_body_id_equal(a, b); }

// (x, y, z) for messages.
#define BC_V(v) (double)(v).x, (double)(v).y, (double)(v).z

// ---- calling the backend ---------------------------------------------------------------------------------------------

// A query's filter that considers only `body` (and, for tests of ordering, the bodies a mask names).
static inline bool bc_only_cb(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    (void)layer, (void)user_data;
    return tread_body_id_equal(body, *(const tread_body_id *)context);
}

static inline tread_query_filter bc_only(const tread_body_id *body) {
    tread_query_filter f = tread_query_filter_default();
    f.callback = bc_only_cb;
    f.context = (void *)(uintptr_t)body;
    return f;
}

// One move's worth of backend state around the scene (what a move would begin with): the whole scene's box.
static inline void *bc_begin(const bc_fixture *f) {
    void *move = NULL;
    tread_aabb all = {tread_v3(-20, -20, -20), tread_v3(20, 20, 20)};
    if (f->backend.begin_move && f->backend.begin_move(f->backend.context, &all, &move) != TREAD_OK) return NULL;
    return move;
}

static inline void bc_end(const bc_fixture *f, void *move) {
    if (f->backend.end_move) f->backend.end_move(f->backend.context, move);
}

// One query's sphere, its filter (the given one, or every body), the move it runs in, and for a list its count (-1
// until the backend says) and overflow (true until the backend says: false when all fit).
typedef struct bc_call {
    tread_query_shape shape;
    tread_query_filter filter;
    void *move;
    int count;
} bc_call;

static inline bc_call bc_open(const bc_fixture *f, float radius, const tread_query_filter *filter, bool *out_overflow) {
    bc_call c = {tread_query_sphere(radius), filter ? *filter : tread_query_filter_default(), bc_begin(f), -1};
    if (out_overflow) *out_overflow = true;
    return c;
}

// End a list query's move; its count.
static inline int bc_close(const bc_fixture *f, const bc_call *c) {
    bc_end(f, c->move);
    return c->count;
}

static inline tread_shape_hit bc_cast(const bc_fixture *f, float radius, tread_vec3 from, tread_vec3 by, const tread_query_filter *filter) {
    bc_call c = bc_open(f, radius, filter, NULL);
    tread_shape_hit h = {false};
    f->backend.cast_shape(f->backend.context, c.move, &c.shape, from, by, &c.filter, &h);
    bc_end(f, c.move);
    return h;
}

static inline int bc_cast_all(const bc_fixture *f, float radius, tread_vec3 from, tread_vec3 by, const tread_query_filter *filter,
                              tread_shape_hit *hits, int capacity, bool *out_overflow) {
    bc_call c = bc_open(f, radius, filter, out_overflow);
    f->backend.cast_shape_all(f->backend.context, c.move, &c.shape, from, by, &c.filter, hits, capacity, &c.count, out_overflow);
    return bc_close(f, &c);
}

static inline int bc_contacts(const bc_fixture *f, float radius, tread_vec3 at, float margin, const tread_query_filter *filter,
                              tread_contact *contacts, int capacity, bool *out_overflow) {
    bc_call c = bc_open(f, radius, filter, out_overflow);
    f->backend.collect_contacts(f->backend.context, c.move, &c.shape, at, margin, &c.filter, contacts, capacity, &c.count, out_overflow);
    return bc_close(f, &c);
}

static inline tread_distance_result bc_closest(const bc_fixture *f, float radius, tread_vec3 at, float max_distance,
                                               const tread_query_filter *filter) {
    bc_call c = bc_open(f, radius, filter, NULL);
    tread_distance_result d = {false};
    f->backend.closest(f->backend.context, c.move, &c.shape, at, max_distance, &c.filter, &d);
    bc_end(f, c.move);
    return d;
}

static inline tread_ray_hit bc_ray(const bc_fixture *f, tread_vec3 from, tread_vec3 by, const tread_query_filter *filter) {
    bc_call c = bc_open(f, 1.0f, filter, NULL);
    tread_ray_hit h = {false};
    f->backend.cast_ray(f->backend.context, c.move, from, by, &c.filter, &h);
    bc_end(f, c.move);
    return h;
}

// ---- the checks ------------------------------------------------------------------------------------------------------

// Start in contact: touching (within 0.1 mm) or overlapping and pressing in hits at fraction 0; moving away or along
// does not hit that body; a gap of 1 mm is an ordinary hit; a zero translation reports what the shape overlaps.
static inline void bc_check_start_in_contact(const bc_fixture *f, bc_report *r) {
    tread_query_filter floor = bc_only(&f->ids[BC_FLOOR]);
    const tread_vec3 down = tread_v3(0, -1, 0), up = tread_v3(0, 1, 0), along = tread_v3(1, 0, 0);
    const float heights[2] = {0.50005f, 0.49f}; // touching (0.05 mm above), overlapping 1 cm
    for (int k = 0; k < 2; ++k) {
        tread_vec3 at = tread_v3(0, heights[k], 0);
        float depth = k ? 0.01f : 0.0f;
        tread_shape_hit h = bc_cast(f, 0.5f, at, down, &floor);
        BC_EXPECT(r, h.hit && h.started_in_contact && h.fraction == 0.0f, "%s, pressing in: hit %d started_in_contact %d fraction %g (expected 1 1 0)",
                  k ? "overlapping" : "touching", h.hit, h.started_in_contact, (double)h.fraction);
        BC_EXPECT(r, !h.hit || bc_near(h.penetration, depth, f->tol), "penetration %g, expected %g", (double)h.penetration, (double)depth);
        BC_EXPECT(r, !h.hit || bc_near3(h.normal, up, f->tol), "normal (%g, %g, %g), expected up", BC_V(h.normal));
        BC_EXPECT(r, !h.hit || bc_is(h.body, f->ids[BC_FLOOR]), "hit body %u, expected the floor", h.body.index);
        h = bc_cast(f, 0.5f, at, up, &floor);
        BC_EXPECT(r, !h.hit, "%s, moving away: hit %d at fraction %g (expected no hit)", k ? "overlapping" : "touching", h.hit, (double)h.fraction);
        h = bc_cast(f, 0.5f, at, along, &floor);
        BC_EXPECT(r, !h.hit, "%s, moving along: hit %d at fraction %g (expected no hit)", k ? "overlapping" : "touching", h.hit, (double)h.fraction);
    }
    tread_shape_hit h = bc_cast(f, 0.5f, tread_v3(0, 0.501f, 0), down, &floor);
    BC_EXPECT(r, h.hit && !h.started_in_contact && bc_near(h.fraction, 0.001f, f->tol), "1 mm gap: hit %d started_in_contact %d fraction %g (expected 1 0 0.001)",
              h.hit, h.started_in_contact, (double)h.fraction);
    tread_shape_hit hits[4];
    bool overflow;
    int n = bc_cast_all(f, 0.5f, tread_v3(0, 0.49f, 0), tread_v3(0, 0, 0), &floor, hits, 4, &overflow);
    BC_EXPECT(r, n == 1 && hits[0].started_in_contact && hits[0].fraction == 0.0f && bc_near(hits[0].penetration, 0.01f, f->tol),
              "zero translation, overlapping 1 cm: %d hits (expected 1 at fraction 0, started in contact, 1 cm deep)", n);
}

// Normals point from the surface toward the shape (a ray's toward its origin), for every query; points lie on the surface.
static inline void bc_check_normals(const bc_fixture *f, bc_report *r) {
    tread_query_filter a = bc_only(&f->ids[BC_A]), mesh = bc_only(&f->ids[BC_MESH]);
    const tread_vec3 west = tread_v3(-1, 0, 0);
    tread_shape_hit h = bc_cast(f, 0.25f, tread_v3(1.5f, 0.5f, 0), tread_v3(2, 0, 0), &a);
    BC_EXPECT(r, h.hit && bc_near(h.fraction, 0.375f, f->tol) && bc_near3(h.normal, west, f->tol) && bc_near3(h.surface_normal, west, f->tol) &&
                     bc_near3(h.point, tread_v3(2.5f, 0.5f, 0), f->tol),
              "cast into A's face: hit %d fraction %g normal (%g, %g, %g) point (%g, %g, %g) (expected 0.375, (-1, 0, 0), (2.5, 0.5, 0))", h.hit,
              (double)h.fraction, BC_V(h.normal), BC_V(h.point));
    tread_contact c[4];
    bool overflow;
    const float centres[2] = {2.2f, 2.3f}, separations[2] = {0.05f, -0.05f};
    for (int k = 0; k < 2; ++k) {
        int n = bc_contacts(f, 0.25f, tread_v3(centres[k], 0.5f, 0), 0.1f, &a, c, 4, &overflow);
        BC_EXPECT(r, n == 1 && bc_near(c[0].separation, separations[k], f->tol) && bc_near3(c[0].normal, west, f->tol) &&
                         bc_near3(c[0].surface_normal, west, f->tol) && bc_near3(c[0].point, tread_v3(2.5f, 0.5f, 0), f->tol),
                  "contact at separation %g: %d contacts, separation %g normal (%g, %g, %g) point (%g, %g, %g)", (double)separations[k], n,
                  (double)(n > 0 ? c[0].separation : 0.0f), BC_V(c[0].normal), BC_V(c[0].point));
    }
    tread_distance_result d = bc_closest(f, 0.25f, tread_v3(2.0f, 0.5f, 0), 1.0f, &a);
    BC_EXPECT(r, d.found && bc_near(d.distance, 0.25f, f->tol) && bc_near3(d.normal, west, f->tol) &&
                     bc_near3(d.point_on_world, tread_v3(2.5f, 0.5f, 0), f->tol) && bc_near3(d.point_on_shape, tread_v3(2.25f, 0.5f, 0), f->tol),
              "closest to A: found %d distance %g normal (%g, %g, %g) on world (%g, %g, %g) on shape (%g, %g, %g)", d.found, (double)d.distance,
              BC_V(d.normal), BC_V(d.point_on_world), BC_V(d.point_on_shape));
    tread_ray_hit ray = bc_ray(f, tread_v3(3, 3, 0), tread_v3(0, -4, 0), NULL);
    BC_EXPECT(r, ray.hit && bc_is(ray.body, f->ids[BC_A]) && bc_near(ray.fraction, 0.5f, f->tol) && bc_near3(ray.normal, tread_v3(0, 1, 0), f->tol) &&
                     bc_near3(ray.point, tread_v3(3, 1, 0), f->tol),
              "ray down onto A: hit %d fraction %g normal (%g, %g, %g)", ray.hit, (double)ray.fraction, BC_V(ray.normal));
    ray = bc_ray(f, tread_v3(1, 0.5f, 0), tread_v3(4, 0, 0), NULL);
    BC_EXPECT(r, ray.hit && bc_is(ray.body, f->ids[BC_A]) && bc_near(ray.fraction, 0.375f, f->tol) && bc_near3(ray.normal, west, f->tol),
              "ray into A's face: hit %d fraction %g normal (%g, %g, %g)", ray.hit, (double)ray.fraction, BC_V(ray.normal));
    // A two-sided triangle hit from below: the normal faces the shape, down.
    h = bc_cast(f, 0.1f, tread_v3(-3, 0.12f, 0.5f), tread_v3(0, 0.1f, 0), &mesh);
    BC_EXPECT(r, h.hit && bc_near(h.fraction, 0.3f, f->tol) && bc_near3(h.normal, tread_v3(0, -1, 0), f->tol) && h.feature == 1u,
              "mesh from below: hit %d fraction %g normal (%g, %g, %g) feature %u (expected 0.3, down, triangle 1)", h.hit, (double)h.fraction,
              BC_V(h.normal), h.feature);
}

// At an edge the normal runs between the closest points, the surface normal is a face's: the face the translation
// runs into most (with no translation, the one nearest the normal).
static inline void bc_check_edges(const bc_fixture *f, bc_report *r) {
    tread_query_filter a = bc_only(&f->ids[BC_A]);
    const tread_vec3 edge_normal = tread_v3(-0.6f, 0.8f, 0), top = tread_v3(0, 1, 0), side = tread_v3(-1, 0, 0), edge = tread_v3(2.5f, 1, 0);
    tread_shape_hit h = bc_cast(f, 0.25f, tread_v3(2.35f, 2, 0), tread_v3(0, -2, 0), &a);
    BC_EXPECT(r, h.hit && bc_near(h.fraction, 0.4f, f->tol) && bc_near3(h.normal, edge_normal, f->tol) && bc_near3(h.surface_normal, top, f->tol) &&
                     bc_near3(h.point, edge, f->tol),
              "down onto A's edge: fraction %g normal (%g, %g, %g) surface normal (%g, %g, %g) (expected 0.4, (-0.6, 0.8, 0), the top)",
              (double)h.fraction, BC_V(h.normal), BC_V(h.surface_normal));
    h = bc_cast(f, 0.25f, tread_v3(1.5f, 1.2f, 0), tread_v3(2, 0, 0), &a);
    BC_EXPECT(r, h.hit && bc_near(h.fraction, 0.425f, f->tol) && bc_near3(h.normal, edge_normal, f->tol) && bc_near3(h.surface_normal, side, f->tol),
              "sideways into A's edge: fraction %g normal (%g, %g, %g) surface normal (%g, %g, %g) (expected 0.425, (-0.6, 0.8, 0), the side)",
              (double)h.fraction, BC_V(h.normal), BC_V(h.surface_normal));
    tread_contact c[4];
    bool overflow;
    int n = bc_contacts(f, 0.25f, tread_v3(2.35f, 1.2f, 0), 0.01f, &a, c, 4, &overflow);
    BC_EXPECT(r, n == 1 && bc_near(c[0].separation, 0.0f, f->tol) && bc_near3(c[0].normal, edge_normal, f->tol) && bc_near3(c[0].surface_normal, top, f->tol),
              "contact at A's edge: %d contacts, normal (%g, %g, %g) surface normal (%g, %g, %g) (expected (-0.6, 0.8, 0), the top)", n,
              BC_V(c[0].normal), BC_V(c[0].surface_normal));
}

// (fraction or separation, body index, feature) never decreases along a list.
static inline bool bc_sorted(const float *keys, const tread_body_id *bodies, const uint32_t *features, int n) {
    for (int i = 1; i < n; ++i) {
        if (keys[i] != keys[i - 1]) {
            if (keys[i] < keys[i - 1]) return false;
        } else if (bodies[i].index != bodies[i - 1].index) {
            if (bodies[i].index < bodies[i - 1].index) return false;
        } else if (features[i] < features[i - 1]) {
            return false;
        }
    }
    return true;
}

static inline bool bc_hits_sorted(const tread_shape_hit *h, int n) {
    float k[16];
    tread_body_id b[16];
    uint32_t feature[16];
    for (int i = 0; i < n && i < 16; ++i) k[i] = h[i].fraction, b[i] = h[i].body, feature[i] = h[i].feature;
    return bc_sorted(k, b, feature, n < 16 ? n : 16);
}

// Casts by fraction, contacts and the closest by separation; ties by body index, then feature; capacity keeps the first.
static inline void bc_check_ordering(const bc_fixture *f, bc_report *r) {
    tread_body_id first = f->ids[BC_A].index < f->ids[BC_B].index ? f->ids[BC_A] : f->ids[BC_B];
    bool exact = f->tol <= 1.0e-5f, overflow = false;
    tread_shape_hit h[8];
    // Straight down onto the line where A and B meet: both at 0.375, then the floor at 0.875.
    int n = bc_cast_all(f, 0.25f, tread_v3(3.5f, 2, 0), tread_v3(0, -2, 0), NULL, h, 8, &overflow);
    BC_EXPECT(r, n == 3 && !overflow && bc_hits_sorted(h, n), "down onto A|B: %d hits, overflow %d, sorted %d (expected 3, 0, 1)", n, overflow,
              bc_hits_sorted(h, n));
    if (n == 3) {
        BC_EXPECT(r, bc_near(h[0].fraction, 0.375f, f->tol) && bc_near(h[1].fraction, 0.375f, f->tol) && bc_is(h[2].body, f->ids[BC_FLOOR]) &&
                         bc_near(h[2].fraction, 0.875f, f->tol),
                  "down onto A|B: fractions %g %g %g (expected 0.375 0.375 0.875, the floor last)", (double)h[0].fraction, (double)h[1].fraction,
                  (double)h[2].fraction);
        BC_EXPECT(r, !exact || (h[0].fraction == h[1].fraction && bc_is(h[0].body, first)),
                  "the tie at A|B: fractions %.9g %.9g, first body %u (expected equal, the lower index %u first)", (double)h[0].fraction,
                  (double)h[1].fraction, h[0].body.index, first.index);
    }
    n = bc_cast_all(f, 0.25f, tread_v3(3.5f, 2, 0), tread_v3(0, -2, 0), NULL, h, 1, &overflow);
    BC_EXPECT(r, n == 1 && overflow && bc_near(h[0].fraction, 0.375f, f->tol) && (!exact || bc_is(h[0].body, first)),
              "capacity 1: %d hits, overflow %d, first body %u (expected 1, 1, the lower of A and B)", n, overflow, h[0].body.index);
    n = bc_cast_all(f, 0.25f, tread_v3(3.5f, 2, 0), tread_v3(0, -2, 0), NULL, h, 3, &overflow);
    BC_EXPECT(r, n == 3 && !overflow, "capacity 3 for 3 hits: %d hits, overflow %d (expected 3, 0)", n, overflow);
    // Down onto the mesh's diagonal: both triangles of one body at 0.75, by feature.
    n = bc_cast_all(f, 0.25f, tread_v3(-3, 2, 0), tread_v3(0, -2, 0), NULL, h, 8, &overflow);
    BC_EXPECT(r, n == 3 && bc_hits_sorted(h, n) && bc_is(h[0].body, f->ids[BC_MESH]) && bc_is(h[1].body, f->ids[BC_MESH]) && h[0].feature == 0u &&
                     h[1].feature == 1u && bc_near(h[0].fraction, 0.75f, f->tol),
              "down onto the mesh's diagonal: %d hits, features %u %u (expected 3: triangles 0 and 1 at 0.75, then the floor)", n, h[0].feature,
              h[1].feature);
    // Contacts: A and B 5 cm deep, the floor 0.95 m away.
    tread_contact c[8];
    n = bc_contacts(f, 0.3f, tread_v3(3.5f, 1.25f, 0), 1.0f, NULL, c, 8, &overflow);
    float keys[8];
    tread_body_id bodies[8];
    uint32_t features[8];
    for (int i = 0; i < n && i < 8; ++i) keys[i] = c[i].separation, bodies[i] = c[i].body, features[i] = c[i].feature;
    BC_EXPECT(r, n == 3 && bc_sorted(keys, bodies, features, n) && bc_near(c[0].separation, -0.05f, f->tol) && bc_is(c[2].body, f->ids[BC_FLOOR]) &&
                     (!exact || bc_is(c[0].body, first)),
              "contacts over A|B: %d, sorted %d (expected 3: A and B 5 cm deep by index, then the floor)", n, n > 0 && bc_sorted(keys, bodies, features, n));
    n = bc_contacts(f, 0.3f, tread_v3(3.5f, 1.25f, 0), 1.0f, NULL, c, 2, &overflow);
    BC_EXPECT(r, n == 2 && overflow, "contacts, capacity 2 of 3: %d, overflow %d (expected 2, 1)", n, overflow);
    n = bc_contacts(f, 0.3f, tread_v3(0, 5, 0), 0.1f, NULL, c, 8, &overflow);
    BC_EXPECT(r, n == 0 && !overflow, "contacts in the open: %d, overflow %d (expected 0, 0)", n, overflow);
    tread_distance_result d = bc_closest(f, 0.3f, tread_v3(3.5f, 1.25f, 0), 1.0f, NULL);
    BC_EXPECT(r, d.found && bc_near(d.distance, -0.05f, f->tol) && (!exact || bc_is(d.body, first)),
              "closest over A|B: found %d distance %g body %u (expected -0.05 on the lower of A and B)", d.found, (double)d.distance, d.body.index);
}

// What a filter callback saw: every call's layer is the body's, and the backend answers about the body from inside it.
typedef struct bc_seen {
    const bc_fixture *f;
    tread_body_id reject;
    int calls, wrong_layer, unanswered;
} bc_seen;

static inline bool bc_seen_cb(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    (void)user_data;
    bc_seen *s = (bc_seen *)context;
    tread_backend_body info;
    tread_backend_motion motion;
    ++s->calls;
    bool known = s->f->backend.body(s->f->backend.context, body, &info) && s->f->backend.motion(s->f->backend.context, body, &motion);
    if (!known) ++s->unanswered;
    else if (info.layer != layer) ++s->wrong_layer;
    return !tread_body_id_equal(body, s->reject);
}

// Layer mask, ignore_body, callback (called with the body's layer; the backend answers from inside it), sensors.
static inline void bc_check_filters(const bc_fixture *f, bc_report *r) {
    tread_query_filter q = tread_query_filter_default();
    tread_vec3 from = tread_v3(-5, 0.5f, 4), by = tread_v3(4, 0, 0);
    tread_shape_hit h = bc_cast(f, 0.25f, from, by, &q);
    BC_EXPECT(r, h.hit && bc_is(h.body, f->ids[BC_LAYER3]) && bc_near(h.fraction, 0.3125f, f->tol), "layer 3 box, every layer: hit %d body %u fraction %g",
              h.hit, h.body.index, (double)h.fraction);
    q.layer_mask = ~(1u << 3);
    h = bc_cast(f, 0.25f, from, by, &q);
    BC_EXPECT(r, !h.hit, "layer 3 box, mask without layer 3: hit %d body %u (expected no hit)", h.hit, h.body.index);
    q.layer_mask = 1u << 3;
    h = bc_cast(f, 0.25f, tread_v3(-3, 2, 4), tread_v3(0, -2, 0), &q);
    BC_EXPECT(r, h.hit && bc_is(h.body, f->ids[BC_LAYER3]) && bc_near(h.fraction, 0.375f, f->tol),
              "down onto the layer 3 box, only layer 3: hit %d body %u fraction %g (expected it at 0.375, not the floor)", h.hit, h.body.index,
              (double)h.fraction);
    q = tread_query_filter_default();
    from = tread_v3(1.5f, 0.5f, 0), by = tread_v3(4, 0, 0);
    h = bc_cast(f, 0.25f, from, by, &q);
    BC_EXPECT(r, h.hit && bc_is(h.body, f->ids[BC_A]) && bc_near(h.fraction, 0.1875f, f->tol), "toward A: body %u fraction %g", h.body.index, (double)h.fraction);
    q.ignore_body = f->ids[BC_A];
    h = bc_cast(f, 0.25f, from, by, &q);
    BC_EXPECT(r, h.hit && bc_is(h.body, f->ids[BC_B]) && bc_near(h.fraction, 0.4375f, f->tol), "A ignored: body %u fraction %g (expected B at 0.4375)",
              h.body.index, (double)h.fraction);
    bc_seen seen = {f, f->ids[BC_A], 0, 0, 0};
    q = tread_query_filter_default();
    q.callback = bc_seen_cb;
    q.context = &seen;
    h = bc_cast(f, 0.25f, from, by, &q);
    BC_EXPECT(r, h.hit && bc_is(h.body, f->ids[BC_B]), "A refused by the callback: body %u (expected B)", h.body.index);
    tread_contact c[8];
    bool overflow;
    bc_contacts(f, 0.3f, tread_v3(3.5f, 1.25f, 0), 1.0f, &q, c, 8, &overflow);
    BC_EXPECT(r, seen.calls > 0 && seen.wrong_layer == 0 && seen.unanswered == 0,
              "callback: %d calls, %d with a layer not the body's, %d bodies body()/motion() did not answer from inside the query", seen.calls,
              seen.wrong_layer, seen.unanswered);
    // The sensor: skipped unless include_sensors, by every query.
    q = tread_query_filter_default();
    from = tread_v3(3, 0.5f, 2.5f), by = tread_v3(0, 0, 2);
    for (int k = 0; k < 2; ++k) {
        q.include_sensors = k == 1;
        h = bc_cast(f, 0.25f, from, by, &q);
        bool hit = h.hit && bc_is(h.body, f->ids[BC_SENSOR]) && bc_near(h.fraction, 0.375f, f->tol);
        BC_EXPECT(r, k ? hit : !h.hit, "cast toward the sensor, include_sensors %d: hit %d body %u", k, h.hit, h.body.index);
        tread_ray_hit ray = bc_ray(f, from, by, &q);
        BC_EXPECT(r, k ? ray.hit && bc_is(ray.body, f->ids[BC_SENSOR]) : !ray.hit, "ray toward the sensor, include_sensors %d: hit %d", k, ray.hit);
        int n = bc_contacts(f, 0.25f, tread_v3(3, 0.5f, 3.3f), 0.1f, &q, c, 8, &overflow);
        BC_EXPECT(r, k ? n == 1 && bc_is(c[0].body, f->ids[BC_SENSOR]) : n == 0, "contacts by the sensor, include_sensors %d: %d", k, n);
        tread_distance_result d = bc_closest(f, 0.25f, tread_v3(3, 0.5f, 3.3f), 0.1f, &q);
        BC_EXPECT(r, k ? d.found && bc_is(d.body, f->ids[BC_SENSOR]) : !d.found, "closest by the sensor, include_sensors %d: found %d", k, d.found);
    }
}

static inline bool bc_same_transform(tread_transform a, tread_transform b, float tol) {
    float sign = a.q.x * b.q.x + a.q.y * b.q.y + a.q.z * b.q.z + a.q.w * b.q.w < 0.0f ? -1.0f : 1.0f; // q and -q: one rotation
    return bc_near3(a.p, b.p, tol) && bc_near(a.q.x, sign * b.q.x, tol) && bc_near(a.q.y, sign * b.q.y, tol) && bc_near(a.q.z, sign * b.q.z, tol) &&
           bc_near(a.q.w, sign * b.q.w, tol);
}

// A body's facts and motion, as the scene defines them; a stale id is no body; largest motion bounds every motion.
static inline void bc_check_bodies(const bc_fixture *f, const bc_body *scene, bc_report *r) {
    void *context = f->backend.context;
    for (int i = 0; i < BC_BODIES; ++i) {
        const tread_body_def *d = &scene[i].def;
        tread_backend_body b;
        memset(&b, 0, sizeof b);
        bool live = f->backend.body(context, f->ids[i], &b);
        BC_EXPECT(r, live, "body %d: body() says it is not live", i);
        if (!live) continue;
        bool convex = d->shape.type == TREAD_SHAPE_BOX || d->shape.type == TREAD_SHAPE_SPHERE || d->shape.type == TREAD_SHAPE_CAPSULE;
        BC_EXPECT(r, b.type == d->type && b.flags == d->flags && b.layer == d->layer && b.convex == convex,
                  "body %d: type %d flags %u layer %u convex %d (expected %d %u %u %d)", i, (int)b.type, b.flags, b.layer, b.convex, (int)d->type,
                  d->flags, d->layer, convex);
        tread_vec3 half = d->shape.half_extents, lo, hi;
        if (d->shape.type == TREAD_SHAPE_SPHERE) half = tread_v3(d->shape.radius, d->shape.radius, d->shape.radius);
        if (d->shape.type == TREAD_SHAPE_CAPSULE) half = tread_v3(d->shape.radius, d->shape.half_height + d->shape.radius, d->shape.radius);
        lo = tread_v3_neg(half), hi = half;
        if (d->shape.type == TREAD_SHAPE_MESH) lo = tread_v3(-4, 0.25f, -1), hi = tread_v3(-2, 0.25f, 1);
        BC_EXPECT(r, bc_near3(b.local_bounds.min, lo, f->tol) && bc_near3(b.local_bounds.max, hi, f->tol),
                  "body %d: local bounds (%g, %g, %g) .. (%g, %g, %g), expected (%g, %g, %g) .. (%g, %g, %g)", i, BC_V(b.local_bounds.min),
                  BC_V(b.local_bounds.max), BC_V(lo), BC_V(hi));
        tread_backend_motion m;
        memset(&m, 0, sizeof m);
        BC_EXPECT(r, f->backend.motion(context, f->ids[i], &m), "body %d: motion() says it is not live", i);
        tread_transform to = d->transform;
        if (d->type == TREAD_BODY_KINEMATIC) {
            to.p = tread_v3_mad(to.p, BC_DT, d->linear_velocity);
            float rate = tread_v3_length(d->angular_velocity);
            if (rate > 0.0f)
                to.q = tread_quat_mul(tread_quat_from_axis_angle(tread_v3_scale(d->angular_velocity, 1.0f / rate), rate * BC_DT), to.q);
        }
        if (d->type == TREAD_BODY_DYNAMIC) to = scene[i].moved_to;
        BC_EXPECT(r, bc_same_transform(m.previous, d->transform, f->tol) && bc_same_transform(m.current, to, f->tol),
                  "body %d: previous (%g, %g, %g) current (%g, %g, %g) rotation w %g, expected (%g, %g, %g) (%g, %g, %g) w %g", i, BC_V(m.previous.p),
                  BC_V(m.current.p), (double)m.current.q.w, BC_V(d->transform.p), BC_V(to.p), (double)to.q.w);
        tread_vec3 linear = d->type == TREAD_BODY_STATIC ? tread_v3(0, 0, 0) : d->linear_velocity;
        tread_vec3 angular = d->type == TREAD_BODY_STATIC ? tread_v3(0, 0, 0) : d->angular_velocity;
        BC_EXPECT(r, bc_near3(m.linear_velocity, linear, f->tol) && bc_near3(m.angular_velocity, angular, f->tol) &&
                         bc_near3(m.surface.linear, d->surface.linear, f->tol) && bc_near3(m.surface.angular, d->surface.angular, f->tol),
                  "body %d: velocity (%g, %g, %g) spin (%g, %g, %g) surface (%g, %g, %g)", i, BC_V(m.linear_velocity), BC_V(m.angular_velocity),
                  BC_V(m.surface.linear));
    }
    tread_body_id stale = {f->ids[BC_BODIES - 1].index + 1000u, 1u};
    tread_backend_body b;
    tread_backend_motion m;
    BC_EXPECT(r, !f->backend.body(context, stale, &b) && !f->backend.motion(context, stale, &m), "an id no body has is answered as live");
    // The spinner's far corner moved along a chord of 2 r sin(w dt / 2); the dynamic box 0.2 m.
    float corner = 2.0f * sqrtf(1.0f + 2.0f * 0.0625f) * sinf(0.5f * 2.0f * BC_DT), largest = f->backend.largest_motion(context);
    BC_EXPECT(r, isfinite(largest) && largest >= corner - f->tol && largest >= 0.2f - f->tol && largest < 10.0f,
              "largest motion %g m, expected a bound of at least %g m", (double)largest, (double)corner);
    BC_EXPECT(r, !f->backend.has_one_way || f->backend.has_one_way(context), "has_one_way says no with a one-way body in the scene");
}

// Build the scene into `engine` and run every check; *report says what failed. False when the build failed.
static inline bool bc_run_all(const bc_engine *engine, bc_report *report) {
    memset(report, 0, sizeof *report);
    bc_body scene[BC_BODIES];
    bc_scene(scene);
    bc_fixture f;
    memset(&f, 0, sizeof f);
    f.tol = engine->tolerance;
    if (!engine->build(engine->self, scene, BC_BODIES, BC_DT, &f.backend, f.ids)) {
        bc_fail(report, "build", "%s could not build the conformance scene", engine->name);
        return false;
    }
    bc_check_start_in_contact(&f, report);
    bc_check_normals(&f, report);
    bc_check_edges(&f, report);
    bc_check_ordering(&f, report);
    bc_check_filters(&f, report);
    bc_check_bodies(&f, scene, report);
    if (engine->destroy) engine->destroy(engine->self);
    return true;
}

#endif
