// SPDX-License-Identifier: MIT
// Building scene files as cJSON trees, for the generated scene matrix (gen_families.c, gen_lifts.c): the shared
// floor, boxes (axis-aligned, turned about an axis, or moving along a path), lists of boxes emitted as box bodies or
// as one triangle mesh, ramps, heightfields, voxels, one character with its input timeline, and expectations. Leaf of the generator: calls
// only cJSON. Everything is in doubles so the JSON text reads as typed (0.2, not 0.200000003).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

static cJSON *vec3_json(const double v[3]) { return cJSON_CreateDoubleArray(v, 3); }

cJSON *gen_scene_new(const char *name, const char *description, double dt, double duration) {
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "name", name);
    cJSON_AddStringToObject(s, "description", description);
    cJSON_AddNumberToObject(s, "dt", dt);
    cJSON_AddNumberToObject(s, "duration", duration);
    cJSON_AddArrayToObject(s, "bodies");
    cJSON_AddArrayToObject(s, "characters");
    cJSON_AddArrayToObject(s, "expectations");
    // The course's shared floor (docs/COURSE.md): top at y = 0.
    const double lo[3] = {-50, -1, -50}, hi[3] = {50, 0, 50};
    gen_box_minmax(s, "floor", lo, hi);
    return s;
}

static cJSON *bodies_of(cJSON *s) { return cJSON_GetObjectItemCaseSensitive(s, "bodies"); }

void gen_box_minmax(cJSON *s, const char *name, const double lo[3], const double hi[3]) {
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "type", "box");
    cJSON_AddStringToObject(b, "name", name);
    cJSON_AddItemToObject(b, "min", vec3_json(lo));
    cJSON_AddItemToObject(b, "max", vec3_json(hi));
    cJSON_AddItemToArray(bodies_of(s), b);
}

// Rodrigues: v turned by `degrees` about the unit axis.
static void turn(const double axis[3], double degrees, const double v[3], double out[3]) {
    double a = degrees * GEN_PI / 180.0, c = cos(a), sn = sin(a);
    double d = axis[0] * v[0] + axis[1] * v[1] + axis[2] * v[2];
    double x[3] = {axis[1] * v[2] - axis[2] * v[1], axis[2] * v[0] - axis[0] * v[2], axis[0] * v[1] - axis[1] * v[0]};
    for (int i = 0; i < 3; ++i) out[i] = v[i] * c + x[i] * sn + axis[i] * d * (1.0 - c);
}

void gen_boxes_add(gen_boxes *list, const double center[3], const double half[3], const double axis[3], double degrees) {
    if (list->count >= GEN_MAX_BOXES) return;
    gen_obox *b = &list->items[list->count++];
    memcpy(b->center, center, sizeof b->center);
    memcpy(b->half, half, sizeof b->half);
    const double y[3] = {0, 1, 0};
    memcpy(b->axis, axis ? axis : y, sizeof b->axis);
    b->degrees = degrees;
}

void gen_boxes_add_minmax(gen_boxes *list, const double lo[3], const double hi[3]) {
    double c[3], h[3];
    for (int i = 0; i < 3; ++i) {
        c[i] = 0.5 * (lo[i] + hi[i]);
        h[i] = 0.5 * (hi[i] - lo[i]);
    }
    gen_boxes_add(list, c, h, NULL, 0.0);
}

void gen_boxes_emit(cJSON *s, const gen_boxes *list, const char *prefix, bool as_mesh) {
    char name[64];
    if (!as_mesh) {
        for (int i = 0; i < list->count; ++i) {
            const gen_obox *o = &list->items[i];
            cJSON *b = cJSON_CreateObject();
            snprintf(name, sizeof name, "%s%d", prefix, i);
            cJSON_AddStringToObject(b, "type", "box");
            cJSON_AddStringToObject(b, "name", name);
            cJSON_AddItemToObject(b, "center", vec3_json(o->center));
            cJSON_AddItemToObject(b, "half_extents", vec3_json(o->half));
            if (o->degrees != 0.0) {
                cJSON *r = cJSON_AddObjectToObject(b, "rotation");
                cJSON_AddItemToObject(r, "axis", vec3_json(o->axis));
                cJSON_AddNumberToObject(r, "degrees", o->degrees);
            }
            cJSON_AddItemToArray(bodies_of(s), b);
        }
        return;
    }
    // One mesh: 8 corners and 12 triangles per box, in world coordinates.
    static const int faces[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                                     {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "type", "mesh");
    cJSON_AddStringToObject(b, "name", prefix);
    cJSON *verts = cJSON_AddArrayToObject(b, "vertices"), *tris = cJSON_AddArrayToObject(b, "triangles");
    for (int i = 0; i < list->count; ++i) {
        const gen_obox *o = &list->items[i];
        for (int k = 0; k < 8; ++k) {
            double local[3] = {(k & 4 ? 1 : -1) * o->half[0], (k & 2 ? 1 : -1) * o->half[1], (k & 1 ? 1 : -1) * o->half[2]}, w[3];
            turn(o->axis, o->degrees, local, w);
            for (int a = 0; a < 3; ++a) w[a] = round((w[a] + o->center[a]) * 1e7) / 1e7;
            cJSON_AddItemToArray(verts, vec3_json(w));
        }
        for (int f = 0; f < 12; ++f) {
            int t[3] = {8 * i + faces[f][0], 8 * i + faces[f][1], 8 * i + faces[f][2]};
            cJSON_AddItemToArray(tris, cJSON_CreateIntArray(t, 3));
        }
    }
    cJSON_AddItemToArray(bodies_of(s), b);
}

void gen_box_path(cJSON *s, const char *name, const double center[3], const double half[3], const double *times, const double (*offsets)[3],
                  int keys, const char *loop) {
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "type", "box");
    cJSON_AddStringToObject(b, "name", name);
    cJSON_AddItemToObject(b, "center", vec3_json(center));
    cJSON_AddItemToObject(b, "half_extents", vec3_json(half));
    cJSON *kinematic = cJSON_AddObjectToObject(b, "kinematic"), *path = cJSON_AddArrayToObject(kinematic, "path");
    for (int i = 0; i < keys; ++i) {
        cJSON *key = cJSON_CreateObject();
        cJSON_AddNumberToObject(key, "time", times[i]);
        cJSON_AddItemToObject(key, "offset", vec3_json(offsets[i]));
        cJSON_AddItemToArray(path, key);
    }
    cJSON_AddStringToObject(kinematic, "loop", loop);
    cJSON_AddItemToArray(bodies_of(s), b);
}

void gen_ramp(cJSON *s, const char *name, const double foot[3], double degrees, double rise, double width, double thickness) {
    const double dir[3] = {1, 0, 0};
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "type", "ramp");
    cJSON_AddStringToObject(b, "name", name);
    cJSON_AddItemToObject(b, "foot", vec3_json(foot));
    cJSON_AddItemToObject(b, "direction", vec3_json(dir));
    cJSON_AddNumberToObject(b, "degrees", degrees);
    cJSON_AddNumberToObject(b, "rise", rise);
    cJSON_AddNumberToObject(b, "width", width);
    cJSON_AddNumberToObject(b, "thickness", thickness);
    cJSON_AddItemToArray(bodies_of(s), b);
}

void gen_heightfield(cJSON *s, const char *name, const double origin[3], double sx, double sz, const double *heights, int count_x, int count_z) {
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "type", "heightfield");
    cJSON_AddStringToObject(b, "name", name);
    cJSON_AddItemToObject(b, "origin", vec3_json(origin));
    const double spacing[2] = {sx, sz};
    cJSON_AddItemToObject(b, "spacing", cJSON_CreateDoubleArray(spacing, 2));
    cJSON *rows = cJSON_AddArrayToObject(b, "heights");
    for (int j = 0; j < count_z; ++j) cJSON_AddItemToArray(rows, cJSON_CreateDoubleArray(heights + (size_t)j * (size_t)count_x, count_x));
    cJSON_AddItemToArray(bodies_of(s), b);
}

void gen_voxels(cJSON *s, const char *name, const double origin[3], double cell, int nx, int ny, int nz, const unsigned char *solid) {
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "type", "voxels");
    cJSON_AddStringToObject(b, "name", name);
    cJSON_AddItemToObject(b, "origin", vec3_json(origin));
    cJSON_AddNumberToObject(b, "cell_size", cell);
    cJSON *rows = cJSON_AddArrayToObject(b, "rows");
    char *line = (char *)malloc((size_t)nx + 1);
    if (!line) return;
    for (int j = 0; j < ny; ++j) {
        cJSON *layer = cJSON_CreateArray();
        for (int k = 0; k < nz; ++k) {
            for (int i = 0; i < nx; ++i) line[i] = solid[((size_t)j * (size_t)nz + (size_t)k) * (size_t)nx + (size_t)i] ? '#' : '.';
            line[nx] = '\0';
            cJSON_AddItemToArray(layer, cJSON_CreateString(line));
        }
        cJSON_AddItemToArray(rows, layer);
    }
    free(line);
    cJSON_AddItemToArray(bodies_of(s), b);
}

// ---- the character ----------------------------------------------------------------------------------------

cJSON *gen_character(cJSON *s, const char *shape, const double start[3]) {
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "name", "walker");
    cJSON_AddItemToObject(c, "start", vec3_json(start));
    cJSON *settings = cJSON_AddObjectToObject(c, "settings");
    cJSON_AddStringToObject(settings, "shape", shape);
    cJSON_AddArrayToObject(c, "input");
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(s, "characters"), c);
    return c;
}

static cJSON *input_of(cJSON *c) { return cJSON_GetObjectItemCaseSensitive(c, "input"); }

void gen_input_direction(cJSON *c, double t, double dx, double dz, double speed) {
    cJSON *e = cJSON_CreateObject();
    const double d[3] = {dx, 0, dz};
    cJSON_AddNumberToObject(e, "t", t);
    cJSON_AddItemToObject(e, "direction", vec3_json(d));
    cJSON_AddNumberToObject(e, "speed", speed);
    cJSON_AddItemToArray(input_of(c), e);
}

void gen_input_toward(cJSON *c, double t, const double target[3], double speed) {
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "t", t);
    cJSON_AddItemToObject(e, "toward", vec3_json(target));
    cJSON_AddNumberToObject(e, "speed", speed);
    cJSON_AddItemToArray(input_of(c), e);
}

void gen_input_idle(cJSON *c, double t) {
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "t", t);
    cJSON_AddBoolToObject(e, "idle", true);
    cJSON_AddItemToArray(input_of(c), e);
}

// ---- expectations -----------------------------------------------------------------------------------------

cJSON *gen_check(cJSON *s, const char *type, const char *name) {
    cJSON *k = cJSON_CreateObject();
    cJSON_AddStringToObject(k, "type", type);
    cJSON_AddStringToObject(k, "name", name);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(s, "expectations"), k);
    return k;
}

static cJSON *range_json(double lo, double hi) {
    cJSON *r = cJSON_CreateObject();
    if (!isnan(lo)) cJSON_AddNumberToObject(r, "min", lo);
    if (!isnan(hi)) cJSON_AddNumberToObject(r, "max", hi);
    return r;
}

void gen_check_final(cJSON *s, const char *name, int axis, double lo, double hi) {
    static const char *const axes[3] = {"x", "y", "z"};
    cJSON_AddItemToObject(gen_check(s, "final", name), axes[axis], range_json(lo, hi));
}

void gen_check_min_max(cJSON *k, double lo, double hi) {
    if (!isnan(lo)) cJSON_AddNumberToObject(k, "min", lo);
    if (!isnan(hi)) cJSON_AddNumberToObject(k, "max", hi);
}

cJSON *gen_check_height(cJSON *s, const char *name, int axis, double lo, double hi) {
    static const char *const axes[3] = {"x", "y", "z"};
    cJSON *k = gen_check(s, "height_range", name);
    cJSON_AddStringToObject(k, "axis", axes[axis]);
    gen_check_min_max(k, lo, hi);
    return k;
}

void gen_check_max_rise(cJSON *s, double max) {
    cJSON_AddNumberToObject(gen_check(s, "max_rise", "rise per frame"), "max", max);
}

cJSON *gen_window(cJSON *k) { return cJSON_AddObjectToObject(k, "window"); }

cJSON *gen_check_on_body(cJSON *s, const char *type, const char *name, const char *body, double max) {
    cJSON *k = gen_check(s, type, name);
    cJSON_AddStringToObject(k, "body", body);
    cJSON_AddNumberToObject(k, "max", max);
    return k;
}

void gen_window_where(cJSON *k, int axis, double lo, double hi) {
    static const char *const axes[3] = {"x", "y", "z"};
    cJSON *w = cJSON_GetObjectItemCaseSensitive(k, "window");
    if (!w) w = gen_window(k);
    cJSON *r = range_json(lo, hi);
    cJSON_AddStringToObject(r, "axis", axes[axis]);
    cJSON_AddItemToObject(w, "where", r);
}

void gen_window_start_time(cJSON *k, double t) {
    cJSON *w = cJSON_GetObjectItemCaseSensitive(k, "window");
    if (!w) w = gen_window(k);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(w, "start"), "time", t);
}
