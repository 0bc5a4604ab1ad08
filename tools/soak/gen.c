// SPDX-License-Identifier: MIT
// Seeded random worlds: a closed floor slab (box, closed mesh or voxel layer) inside four walls, obstacles of
// every body kind (blocks, rotated blocks, stairs of boxes or one mesh, ramps, heightfields with holes, terrain
// meshes and triangle soups, voxel blobs and voxel stairs, spheres, capsules, low ceilings) and kinematic
// platforms at 0.1-20 m/s, some spinning; a character of random shape, strategy and settings, and a motor.
// Everything is built in a generation frame with up = +Y, then turned by the world's tilt (round characters
// only: a box character's horizontal axes are documented only for up = +Y).
//
// Every setting is drawn inside the range types.h and motor.h document (and src/character/settings.c's
// validation table enforces): mostly where games live, sometimes anywhere in the range.
#include "soak.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SOAK_PI 3.14159265358979323846

static double log_range(soak_rng *r, double lo, double hi) { return exp(soak_rng_range(r, log(lo), log(hi))); }

static tread_quat quat_axis_angle(soak_v3 axis, double radians) {
    soak_v3 a = soak_normalize(axis);
    double s = sin(0.5 * radians);
    tread_quat q = {(float)(a.x * s), (float)(a.y * s), (float)(a.z * s), (float)cos(0.5 * radians)};
    return q;
}

static tread_quat yaw(soak_rng *r) { return quat_axis_angle(soak_v3_make(0.0, 1.0, 0.0), soak_rng_range(r, 0.0, 2.0 * SOAK_PI)); }

static tread_quat any_rotation(soak_rng *r) {
    soak_v3 axis = soak_v3_make(soak_rng_range(r, -1.0, 1.0), soak_rng_range(r, -1.0, 1.0), soak_rng_range(r, -1.0, 1.0));
    if (soak_length(axis) < 1e-3) axis = soak_v3_make(0.0, 1.0, 0.0);
    return quat_axis_angle(axis, soak_rng_range(r, 0.0, 2.0 * SOAK_PI));
}

tread_vec3 soak_tilted(const soak_world *w, soak_v3 p) {
    return tread_quat_rotate(w->tilt, tread_v3((float)p.x, (float)p.y, (float)p.z));
}

soak_v3 soak_untilted(const soak_world *w, tread_vec3 p) {
    // In double: the fall-through check compares heights to the floor's top to the millimetre.
    soak_frame f = soak_frame_of((tread_transform){tread_v3_zero(), w->tilt});
    return soak_frame_inv_point(&f, soak_v3_of(p));
}

tread_vec3 soak_arena_point(soak_rng *r, const soak_world *w, double height) {
    double m = w->arena - 1.0;
    return soak_tilted(w, soak_v3_make(soak_rng_range(r, -m, m), w->floor_top + height, soak_rng_range(r, -m, m)));
}

static soak_body new_body(soak_body_kind kind, int role) {
    soak_body b;
    memset(&b, 0, sizeof b);
    b.def = tread_body_def_default();
    b.kind = kind;
    b.role = role;
    return b;
}

// Add a body whose transform and velocities are given in the generation frame. The body's arrays move into the
// world's mirror, or are freed if the world refuses it.
static bool place(soak_world *w, soak_body *b, soak_v3 position, tread_quat rotation, char *message, size_t size) {
    b->def.transform.p = soak_tilted(w, position);
    b->def.transform.q = tread_quat_normalize(tread_quat_mul(w->tilt, rotation));
    b->def.linear_velocity = tread_quat_rotate(w->tilt, b->def.linear_velocity);
    b->def.angular_velocity = tread_quat_rotate(w->tilt, b->def.angular_velocity);
    b->travel_origin = b->def.transform.p;
    if (soak_world_add(w, b, message, size)) return true;
    free(b->vertices), free(b->indices), free(b->heights), free(b->holes), free(b->solid);
    return false;
}

// ---- meshes -------------------------------------------------------------------------------------------------------

typedef struct mesh_builder {
    tread_vec3 *v;
    uint32_t *i;
    int nv, nt, cv, ct;
    bool failed;
} mesh_builder;

static int mesh_vertex(mesh_builder *m, double x, double y, double z) {
    if (m->nv == m->cv) {
        m->cv = m->cv ? 2 * m->cv : 64;
        tread_vec3 *grown = (tread_vec3 *)realloc(m->v, sizeof(tread_vec3) * (size_t)m->cv);
        if (!grown) {
            m->failed = true;
            return 0;
        }
        m->v = grown;
    }
    m->v[m->nv] = tread_v3((float)x, (float)y, (float)z);
    return m->nv++;
}

static void mesh_triangle(mesh_builder *m, int a, int b, int c) {
    if (m->failed) return;
    if (m->nt == m->ct) {
        m->ct = m->ct ? 2 * m->ct : 64;
        uint32_t *grown = (uint32_t *)realloc(m->i, sizeof(uint32_t) * 3 * (size_t)m->ct);
        if (!grown) {
            m->failed = true;
            return;
        }
        m->i = grown;
    }
    m->i[3 * m->nt] = (uint32_t)a, m->i[3 * m->nt + 1] = (uint32_t)b, m->i[3 * m->nt + 2] = (uint32_t)c;
    ++m->nt;
}

// The 12 triangles of the closed box [lo, hi].
static void mesh_box(mesh_builder *m, soak_v3 lo, soak_v3 hi) {
    int c[8];
    for (int k = 0; k < 8; ++k) c[k] = mesh_vertex(m, k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z);
    static const int faces[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
    for (int f = 0; f < 6; ++f) {
        mesh_triangle(m, c[faces[f][0]], c[faces[f][1]], c[faces[f][2]]);
        mesh_triangle(m, c[faces[f][0]], c[faces[f][2]], c[faces[f][3]]);
    }
}

static bool place_mesh(soak_world *w, mesh_builder *m, int role, uint32_t layer, soak_v3 position, tread_quat rotation, char *message,
                       size_t size) {
    if (m->failed || m->nt == 0) {
        free(m->v), free(m->i);
        snprintf(message, size, "out of memory building a mesh");
        return false;
    }
    soak_body b = new_body(SOAK_BODY_MESH, role);
    b.vertices = m->v, b.indices = m->i;
    b.def.shape = tread_shape_mesh(m->v, m->nv, m->i, m->nt);
    b.def.layer = layer;
    return place(w, &b, position, rotation, message, size);
}

// ---- the arena -------------------------------------------------------------------------------------------------

static bool add_floor(soak_rng *r, soak_world *w, char *message, size_t size) {
    double kind = soak_rng_unit(r), thickness = soak_rng_range(r, 0.3, 2.0);
    if (kind < 0.6) {
        soak_body b = new_body(SOAK_BODY_BOX, SOAK_ROLE_FLOOR);
        b.def.shape = tread_shape_box(tread_v3((float)w->arena, (float)(0.5 * thickness), (float)w->arena));
        return place(w, &b, soak_v3_make(0.0, -0.5 * thickness, 0.0), tread_quat_identity(), message, size);
    }
    if (kind < 0.8) { // a closed box of 12 triangles: meshes are surfaces, this one encloses its inside
        mesh_builder m = {0};
        mesh_box(&m, soak_v3_make(-w->arena, -thickness, -w->arena), soak_v3_make(w->arena, 0.0, w->arena));
        return place_mesh(w, &m, SOAK_ROLE_FLOOR, 0u, soak_v3_make(0.0, 0.0, 0.0), tread_quat_identity(), message, size);
    }
    // A voxel layer (or two) whose top is the floor; the arena shrinks to a whole number of cells.
    double cell = soak_rng_range(r, 0.5, 2.0);
    int n = (int)ceil(2.0 * w->arena / cell), layers = soak_rng_int(r, 1, 2);
    w->arena = 0.5 * n * cell;
    soak_body b = new_body(SOAK_BODY_VOXELS, SOAK_ROLE_FLOOR);
    b.solid = (uint8_t *)malloc((size_t)n * (size_t)n * (size_t)layers);
    if (!b.solid) return snprintf(message, size, "out of memory for a voxel floor"), false;
    memset(b.solid, 1, (size_t)n * (size_t)n * (size_t)layers);
    b.def.shape.type = TREAD_SHAPE_VOXELS;
    b.def.shape.voxels.count_x = n, b.def.shape.voxels.count_y = layers, b.def.shape.voxels.count_z = n;
    b.def.shape.voxels.cell_size = (float)cell;
    b.def.shape.voxels.solid = b.solid;
    return place(w, &b, soak_v3_make(-w->arena, -layers * cell, -w->arena), tread_quat_identity(), message, size);
}

static bool add_walls(soak_world *w, char *message, size_t size) {
    for (int k = 0; k < 4; ++k) {
        soak_body b = new_body(SOAK_BODY_BOX, SOAK_ROLE_WALL);
        bool along_x = k < 2;
        double side = (k % 2 ? 1.0 : -1.0) * (w->arena - 0.25);
        b.def.shape = tread_shape_box(along_x ? tread_v3(0.25f, 2.5f, (float)w->arena) : tread_v3((float)w->arena, 2.5f, 0.25f));
        soak_v3 c = along_x ? soak_v3_make(side, 2.5, 0.0) : soak_v3_make(0.0, 2.5, side);
        if (!place(w, &b, c, tread_quat_identity(), message, size)) return false;
    }
    return true;
}

// ---- obstacles ---------------------------------------------------------------------------------------------------

static soak_v3 spot(soak_rng *r, const soak_world *w, double height) {
    double m = w->arena - 1.5;
    return soak_v3_make(soak_rng_range(r, -m, m), w->floor_top + height, soak_rng_range(r, -m, m));
}

// Obstacle layers: 0 everything, 1 blocks but may be left out of the ground mask, 2 the stairs layer, 3 may be
// left out of the collide mask (bodies the character passes through).
static uint32_t obstacle_layer(soak_rng *r) {
    double u = soak_rng_unit(r);
    return u < 0.7 ? 0u : (u < 0.8 ? 1u : (u < 0.9 ? 2u : 3u));
}

static bool add_block(soak_rng *r, soak_world *w, char *message, size_t size) {
    soak_body b = new_body(SOAK_BODY_BOX, 0);
    soak_v3 h = soak_v3_make(soak_rng_range(r, 0.05, 2.0), soak_rng_range(r, 0.02, 1.5), soak_rng_range(r, 0.05, 2.0));
    b.def.shape = tread_shape_box(tread_v3((float)h.x, (float)h.y, (float)h.z));
    b.def.layer = obstacle_layer(r);
    double u = soak_rng_unit(r);
    tread_quat q = u < 0.25 ? tread_quat_identity() : (u < 0.85 ? yaw(r) : any_rotation(r));
    return place(w, &b, spot(r, w, h.y + soak_rng_range(r, -h.y, 0.3)), q, message, size);
}

static bool add_stairs(soak_rng *r, soak_world *w, char *message, size_t size) {
    int steps = soak_rng_int(r, 2, 10);
    double rise = soak_rng_range(r, 0.02, 0.6), tread_depth = soak_rng_range(r, 0.05, 0.8), width = soak_rng_range(r, 0.6, 3.0);
    uint32_t layer = soak_rng_chance(r, 0.3) ? 2u : obstacle_layer(r);
    soak_v3 at = spot(r, w, 0.0);
    tread_quat q = yaw(r);
    bool as_mesh = soak_rng_chance(r, 0.4);
    mesh_builder m = {0};
    for (int k = 0; k < steps; ++k) {
        double depth = k == steps - 1 ? 1.0 : tread_depth, x0 = k * tread_depth, top = (k + 1) * rise;
        if (as_mesh) {
            mesh_box(&m, soak_v3_make(x0, 0.0, -0.5 * width), soak_v3_make(x0 + depth, top, 0.5 * width));
            continue;
        }
        soak_body b = new_body(SOAK_BODY_BOX, 0);
        b.def.shape = tread_shape_box(tread_v3((float)(0.5 * depth), (float)(0.5 * top), (float)(0.5 * width)));
        b.def.layer = layer;
        soak_v3 local = soak_v3_make(x0 + 0.5 * depth, 0.5 * top, 0.0);
        tread_vec3 offset = tread_quat_rotate(q, tread_v3((float)local.x, (float)local.y, (float)local.z));
        if (!place(w, &b, soak_add(at, soak_v3_of(offset)), q, message, size)) return false;
    }
    return !as_mesh || place_mesh(w, &m, 0, layer, at, q, message, size);
}

static bool add_ramp(soak_rng *r, soak_world *w, char *message, size_t size) {
    double a = soak_rng_range(r, 5.0, 85.0) * SOAK_PI / 180.0, length = soak_rng_range(r, 1.0, 6.0), thick = soak_rng_range(r, 0.1, 1.0);
    soak_body b = new_body(SOAK_BODY_BOX, 0);
    b.def.shape = tread_shape_box(tread_v3((float)(0.5 * length), (float)(0.5 * thick), (float)soak_rng_range(r, 0.5, 1.5)));
    b.def.layer = soak_rng_chance(r, 0.3) ? 2u : obstacle_layer(r);
    // Turned about Z by the slope, its top face's lower end (the foot) on the floor at the spot, then yawed.
    tread_quat q0 = yaw(r), q = tread_quat_mul(q0, quat_axis_angle(soak_v3_make(0.0, 0.0, 1.0), a));
    soak_v3 centre = soak_v3_make(0.5 * length * cos(a) + 0.5 * thick * sin(a), 0.5 * length * sin(a) - 0.5 * thick * cos(a), 0.0);
    tread_vec3 offset = tread_quat_rotate(q0, tread_v3((float)centre.x, (float)centre.y, (float)centre.z));
    return place(w, &b, soak_add(spot(r, w, 0.0), soak_v3_of(offset)), q, message, size);
}

static bool add_heightfield(soak_rng *r, soak_world *w, char *message, size_t size) {
    int nx = soak_rng_int(r, 2, 24), nz = soak_rng_int(r, 2, 24);
    double sx = soak_rng_range(r, 0.1, 1.0), sz = soak_rng_range(r, 0.1, 1.0), amplitude = soak_rng_range(r, 0.0, 1.5);
    double fx = soak_rng_range(r, 0.2, 3.0), fz = soak_rng_range(r, 0.2, 3.0), noise = soak_rng_range(r, 0.0, 0.2);
    soak_body b = new_body(SOAK_BODY_HEIGHTFIELD, 0);
    b.heights = (float *)malloc(sizeof(float) * (size_t)nx * (size_t)nz);
    if (!b.heights) return snprintf(message, size, "out of memory for a heightfield"), false;
    for (int j = 0; j < nz; ++j)
        for (int i = 0; i < nx; ++i)
            b.heights[j * nx + i] = (float)(amplitude * (1.0 + sin(fx * i * sx) * cos(fz * j * sz)) + noise * soak_rng_unit(r));
    if (soak_rng_chance(r, 0.3)) {
        b.holes = (uint8_t *)calloc((size_t)(nx - 1) * (size_t)(nz - 1), 1);
        if (!b.holes) return free(b.heights), snprintf(message, size, "out of memory for a heightfield"), false;
        for (int c = 0; c < (nx - 1) * (nz - 1); ++c) b.holes[c] = soak_rng_chance(r, 0.15);
    }
    b.def.shape.type = TREAD_SHAPE_HEIGHTFIELD;
    b.def.shape.heightfield = (tread_heightfield_def){nx, nz, (float)sx, (float)sz, b.heights, b.holes};
    b.def.layer = obstacle_layer(r);
    return place(w, &b, spot(r, w, soak_rng_range(r, -0.3, 0.1)), yaw(r), message, size);
}

static bool add_mesh(soak_rng *r, soak_world *w, char *message, size_t size) {
    mesh_builder m = {0};
    if (soak_rng_chance(r, 0.6)) { // terrain: a grid of random heights, each cell split along a random diagonal
        int nx = soak_rng_int(r, 2, 12), nz = soak_rng_int(r, 2, 12);
        double s = soak_rng_range(r, 0.2, 1.0), amplitude = soak_rng_range(r, 0.0, 1.0);
        for (int j = 0; j < nz; ++j)
            for (int i = 0; i < nx; ++i) mesh_vertex(&m, i * s, amplitude * soak_rng_unit(r), j * s);
        for (int j = 0; j + 1 < nz; ++j)
            for (int i = 0; i + 1 < nx; ++i) {
                int a = j * nx + i, b = a + 1, c = a + nx, d = c + 1;
                if (soak_rng_chance(r, 0.5)) mesh_triangle(&m, a, d, b), mesh_triangle(&m, a, c, d);
                else mesh_triangle(&m, a, c, b), mesh_triangle(&m, b, c, d);
            }
    } else { // a soup of free triangles of every orientation, some degenerate
        int n = soak_rng_int(r, 1, 40);
        double extent = soak_rng_range(r, 0.5, 3.0);
        for (int t = 0; t < n; ++t) {
            int first = mesh_vertex(&m, soak_rng_range(r, 0.0, extent), soak_rng_range(r, 0.0, extent), soak_rng_range(r, 0.0, extent));
            int second = soak_rng_chance(r, 0.05) ? first : mesh_vertex(&m, soak_rng_range(r, 0.0, extent), soak_rng_range(r, 0.0, extent),
                                                                          soak_rng_range(r, 0.0, extent));
            mesh_triangle(&m, first, second, mesh_vertex(&m, soak_rng_range(r, 0.0, extent), soak_rng_range(r, 0.0, extent), soak_rng_range(r, 0.0, extent)));
        }
    }
    return place_mesh(w, &m, 0, obstacle_layer(r), spot(r, w, soak_rng_range(r, -0.2, 0.5)), yaw(r), message, size);
}

static bool add_voxels(soak_rng *r, soak_world *w, char *message, size_t size) {
    int nx = soak_rng_int(r, 1, 10), ny = soak_rng_int(r, 1, 8), nz = soak_rng_int(r, 1, 10);
    double cell = soak_rng_range(r, 0.1, 0.5), density = soak_rng_range(r, 0.1, 0.7);
    bool stairs = soak_rng_chance(r, 0.4);
    soak_body b = new_body(SOAK_BODY_VOXELS, 0);
    b.solid = (uint8_t *)malloc((size_t)nx * (size_t)ny * (size_t)nz);
    if (!b.solid) return snprintf(message, size, "out of memory for voxels"), false;
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) b.solid[(k * ny + j) * nx + i] = stairs ? j <= i : soak_rng_chance(r, density);
    b.def.shape.type = TREAD_SHAPE_VOXELS;
    b.def.shape.voxels = (tread_voxels_def){nx, ny, nz, (float)cell, b.solid};
    b.def.layer = obstacle_layer(r);
    return place(w, &b, spot(r, w, soak_rng_range(r, -cell, 0.05)), yaw(r), message, size);
}

static bool add_round(soak_rng *r, soak_world *w, char *message, size_t size) {
    bool sphere = soak_rng_chance(r, 0.5);
    soak_body b = new_body(sphere ? SOAK_BODY_SPHERE : SOAK_BODY_CAPSULE, 0);
    b.def.shape = sphere ? tread_shape_sphere((float)soak_rng_range(r, 0.1, 1.5))
                         : tread_shape_capsule((float)soak_rng_range(r, 0.0, 1.5), (float)soak_rng_range(r, 0.1, 1.0));
    b.def.layer = obstacle_layer(r);
    return place(w, &b, spot(r, w, soak_rng_range(r, 0.0, 2.0)), any_rotation(r), message, size);
}

static bool add_ceiling(soak_rng *r, soak_world *w, char *message, size_t size) {
    soak_body b = new_body(SOAK_BODY_BOX, 0);
    double half_y = soak_rng_range(r, 0.05, 0.5);
    b.def.shape = tread_shape_box(tread_v3((float)soak_rng_range(r, 0.5, 4.0), (float)half_y, (float)soak_rng_range(r, 0.5, 4.0)));
    return place(w, &b, spot(r, w, soak_rng_range(r, 0.5, 3.0) + half_y), soak_rng_chance(r, 0.5) ? yaw(r) : tread_quat_identity(), message, size);
}

// A kinematic box moving at 0.1-20 m/s (horizontally, vertically or anyhow), turning back at the end of its
// travel (events.c); some spin about up as well, their rim no faster than 20 m/s.
static bool add_platform(soak_rng *r, soak_world *w, char *message, size_t size) {
    soak_body b = new_body(SOAK_BODY_BOX, SOAK_ROLE_PLATFORM);
    soak_v3 h = soak_v3_make(soak_rng_range(r, 0.5, 2.0), soak_rng_range(r, 0.05, 0.3), soak_rng_range(r, 0.5, 2.0));
    b.def.type = TREAD_BODY_KINEMATIC;
    b.def.shape = tread_shape_box(tread_v3((float)h.x, (float)h.y, (float)h.z));
    double u = soak_rng_unit(r), theta = soak_rng_range(r, 0.0, 2.0 * SOAK_PI);
    soak_v3 dir = u < 0.45 ? soak_v3_make(cos(theta), 0.0, sin(theta))
                           : (u < 0.8 ? soak_v3_make(0.0, soak_rng_chance(r, 0.5) ? 1.0 : -1.0, 0.0)
                                      : soak_normalize(soak_v3_make(cos(theta), soak_rng_range(r, -1.0, 1.0), sin(theta))));
    soak_v3 v = soak_scale(dir, log_range(r, 0.1, 20.0));
    b.def.linear_velocity = tread_v3((float)v.x, (float)v.y, (float)v.z);
    if (soak_rng_chance(r, 0.3)) {
        double rim = sqrt(h.x * h.x + h.z * h.z);
        double omega = fmin(soak_rng_range(r, 0.1, 3.0), 20.0 / rim) * (soak_rng_chance(r, 0.5) ? 1.0 : -1.0);
        b.def.angular_velocity = tread_v3(0.0f, (float)omega, 0.0f);
    }
    b.travel = soak_rng_range(r, 0.5, 5.0);
    return place(w, &b, spot(r, w, soak_rng_range(r, 0.2, 3.0)), soak_rng_chance(r, 0.5) ? yaw(r) : tread_quat_identity(), message, size);
}

bool soak_add_obstacle(soak_rng *r, soak_world *w, char *message, size_t size) {
    typedef bool adder(soak_rng *, soak_world *, char *, size_t);
    static adder *const adders[] = {add_block, add_block, add_stairs, add_stairs, add_ramp, add_heightfield,
                                    add_mesh, add_voxels, add_round, add_ceiling, add_platform, add_platform};
    return adders[soak_rng_int(r, 0, (int)(sizeof adders / sizeof adders[0]) - 1)](r, w, message, size);
}

// ---- the character and its motor -----------------------------------------------------------------------------

// Mostly where games live, sometimes anywhere in the documented range [lo, hi].
static double setting(soak_rng *r, double typical_lo, double typical_hi, double lo, double hi) {
    return soak_rng_chance(r, 0.85) ? soak_rng_range(r, typical_lo, typical_hi) : soak_rng_range(r, lo, hi);
}

static void draw_settings(soak_rng *r, const soak_filter *filter, tread_character_settings *s) {
    *s = tread_character_settings_default();
    s->shape = (tread_query_shape_type)soak_rng_int(r, 0, 2);
    s->step_strategy = (tread_step_strategy)soak_rng_int(r, 0, TREAD_STEP_STRATEGY_COUNT - 1);
    if (filter->shape >= 0) s->shape = (tread_query_shape_type)filter->shape;
    if (filter->strategy >= 0) s->step_strategy = (tread_step_strategy)filter->strategy;
    s->radius = (float)(soak_rng_chance(r, 0.85) ? soak_rng_range(r, 0.15, 0.6) : log_range(r, 0.02, 2.0));
    s->height = (float)(s->shape == TREAD_QUERY_CAPSULE ? 2.0 * s->radius + soak_rng_range(r, 0.0, 2.5) : soak_rng_range(r, 0.1, 2.5));
    s->max_slope_degrees = (float)setting(r, 20.0, 60.0, 0.0, 89.9);
    s->max_step_height = (float)setting(r, 0.0, 0.6, 0.0, 2.0);
    s->min_step_depth = (float)setting(r, 0.0, 0.3, 0.0, 2.0);
    s->step_down_distance = (float)setting(r, 0.0, 1.0, 0.0, 5.0);
    s->max_snap_speed = (float)setting(r, 1.0, 30.0, 0.0, 1000.0);
    s->ground_probe_distance = (float)(soak_rng_chance(r, 0.95) ? log_range(r, 1e-4, 0.2) : soak_rng_range(r, 0.2, 10.0));
    s->skin = (float)(soak_rng_chance(r, 0.9) ? log_range(r, 1e-4, 0.02) : soak_rng_range(r, 0.02, 0.05));
    s->max_slide_iterations = soak_rng_int(r, 1, 16);
    s->recovery_speed = (float)(soak_rng_chance(r, 0.9) ? log_range(r, 0.05, 20.0) : log_range(r, 1e-3, 1000.0));
    s->keep_horizontal_speed = soak_rng_chance(r, 0.5);
    if (soak_rng_chance(r, 0.3)) {
        s->stairs_layer_mask = 1u << 2;
        s->stairs_max_slope_degrees = (float)setting(r, 40.0, 70.0, 0.0, 89.9);
    }
    if (soak_rng_chance(r, 0.2)) s->collide_mask = ~(1u << 3);
    if (soak_rng_chance(r, 0.2)) s->ground_mask = ~(1u << 1);
    s->contact_step.search_overshoot = (float)setting(r, 0.0, 0.1, 0.0, 1.0);
    s->riser.depth = (float)setting(r, 0.0, 0.5, 0.0, 10.0);
    s->riser.radius_scale = (float)soak_rng_range(r, 0.01, 1.0);
    s->riser.speed_scale = (float)setting(r, 0.0, 5.0, 0.0, 100.0);
    s->riser.fall_scale = (float)setting(r, 0.0, 1.0, 0.0, 100.0);
}

static void draw_motor(soak_rng *r, tread_motor_settings *m) {
    *m = tread_motor_settings_default();
    m->max_speed = (float)setting(r, 1.0, 10.0, 0.0, 30.0);
    m->ground_acceleration = (float)soak_rng_range(r, 5.0, 120.0);
    m->air_acceleration = (float)soak_rng_range(r, 0.0, 40.0);
    m->friction = (float)soak_rng_range(r, 0.0, 20.0);
    m->gravity = (float)setting(r, 9.0, 10.0, 0.0, 40.0);
    m->terminal_speed = (float)soak_rng_range(r, 5.0, 60.0);
    m->jump_mode = soak_rng_chance(r, 0.5) ? TREAD_JUMP_HEIGHT : TREAD_JUMP_STRENGTH_DRAG;
    m->jump_height = (float)soak_rng_range(r, 0.0, 3.0);
    m->jump_strength = (float)soak_rng_range(r, 0.0, 15.0);
    m->jump_drag = (float)soak_rng_range(r, 0.0, 30.0);
    m->jump_cut = (float)soak_rng_unit(r);
    m->coyote_time = (float)soak_rng_range(r, 0.0, 0.2);
    m->jump_buffer_time = (float)soak_rng_range(r, 0.0, 0.2);
    m->max_air_jumps = soak_rng_int(r, 0, 2);
    m->wall_jump = soak_rng_chance(r, 0.5);
    m->jump_up_bias = (float)soak_rng_range(r, 0.0, 2.0);
    m->jump_snap_suppress_time = (float)soak_rng_range(r, 0.0, 0.3);
}

// ---- a whole world -------------------------------------------------------------------------------------------------

int soak_world_frames(uint64_t seed, uint64_t index) {
    soak_rng r = soak_rng_for_world(seed, index);
    return soak_rng_int(&r, 300, 3000);
}

bool soak_generate(uint64_t seed, uint64_t index, const soak_filter *filter, soak_rng *r, soak_world *w, soak_plan *plan,
                   char *message, size_t size) {
    *r = soak_rng_for_world(seed, index);
    memset(plan, 0, sizeof *plan);
    memset(w, 0, sizeof *w);
    plan->frames = soak_rng_int(r, 300, 3000); // the same first draw as soak_world_frames
    draw_settings(r, filter, &plan->settings);
    draw_motor(r, &plan->motor);
    w->tilt = tread_quat_identity();
    if (plan->settings.shape != TREAD_QUERY_BOX && soak_rng_chance(r, 0.3)) {
        double theta = soak_rng_range(r, 0.0, 2.0 * SOAK_PI);
        w->tilt = quat_axis_angle(soak_v3_make(cos(theta), 0.0, sin(theta)), soak_rng_range(r, 5.0, 35.0) * SOAK_PI / 180.0);
    }
    plan->settings.up = tread_quat_rotate(w->tilt, tread_v3(0.0f, 1.0f, 0.0f));
    double rate = soak_rng_range(r, 20.0, 240.0);
    plan->base_dt = 1.0 / rate;
    plan->spike_chance = soak_rng_range(r, 0.0, 0.05);
    plan->teleport_rate = soak_rng_range(r, 0.0, 0.5);
    plan->edit_rate = soak_rng_range(r, 0.0, 2.0);
    w->arena = soak_rng_range(r, 8.0, 20.0);
    w->floor_top = 0.0;
    if (tread_world_create(NULL, &w->world) != TREAD_OK) return snprintf(message, size, "%s", tread_error_message()), false;
    if (!add_floor(r, w, message, size) || !add_walls(w, message, size)) return false;
    int obstacles = soak_rng_int(r, 4, 24);
    for (int i = 0; i < obstacles; ++i)
        if (!soak_add_obstacle(r, w, message, size)) return false;
    plan->start = soak_arena_point(r, w, soak_rng_range(r, 0.0, 2.0));
    return true;
}
