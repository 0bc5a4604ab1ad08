// SPDX-License-Identifier: MIT
// Layers and bodies of a scene file: boxes, spheres, capsules, ramps, meshes (inline, or a file: mesh_file.c),
// heightfields and voxel grids. Structure is checked here (types, ranges, shapes that cannot exist); what only
// the library can judge (a body's full validity) is left to tread_world_add_body when the scene is run.
// Calls json_read.c.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_internal.h"

// ---- layers --------------------------------------------------------------------------------------------

bool scene_parse_layers(loader *L, const scene_json *root) {
    scene *s = L->s;
    const scene_json *j = js_member(root, "layers");
    if (!j) {
        s->layers = (scene_layer *)js_alloc_array(L, "layers", 1, sizeof(scene_layer));
        if (!s->layers) return false;
        snprintf(s->layers[0].name, sizeof s->layers[0].name, "default");
        s->layers[0].walkable_degrees = -1.0f;
        s->layer_count = 1;
        return true;
    }
    if (!js_expect_array(L, j, "layers")) return false;
    int n = scene_json_count(j);
    if (n < 1) return js_fail(L, "layers", "needs at least one layer (leave the field out for a single \"default\" layer)");
    if (n > MAX_LAYERS) return js_fail(L, "layers", "has %d layers; at most %d", n, MAX_LAYERS);
    s->layers = (scene_layer *)js_alloc_array(L, "layers", (size_t)n, sizeof(scene_layer));
    if (!s->layers) return false;
    static const char *const fields[] = {"name", "walkable_degrees", NULL};
    const scene_json *e;
    int i = 0;
    scene_json_each(e, j) {
        char p[JP], q[64];
        js_jp_index(p, "layers", i);
        scene_layer *l = &s->layers[i];
        l->walkable_degrees = -1.0f;
        if (!js_expect_object(L, e, p) || !js_check_fields(L, e, p, fields) || !js_field_string(L, e, p, "name", true, l->name, sizeof l->name) ||
            !js_field_float(L, e, p, "walkable_degrees", false, &l->walkable_degrees, 0.0, 90.0, OPEN_HI))
            return false;
        if (l->name[0] == '\0') return js_fail(L, p, "layer name is empty");
        if (js_find_layer(s, l->name) >= 0) return js_fail(L, p, "layer \"%s\" is named twice", js_quote(q, sizeof q, l->name));
        // A character has one stairs angle for all its stairs layers (tread_character_settings.stairs_max_slope_degrees).
        for (int k = 0; k < i; ++k)
            if (l->walkable_degrees >= 0.0f && s->layers[k].walkable_degrees >= 0.0f && s->layers[k].walkable_degrees != l->walkable_degrees)
                return js_fail(L, p, "walkable_degrees is %g but layer \"%s\" has %g; all layers with their own walkable angle share one",
                               (double)l->walkable_degrees, js_quote(q, sizeof q, s->layers[k].name), (double)s->layers[k].walkable_degrees);
        s->layer_count = ++i;
    }
    return true;
}

// ---- bodies --------------------------------------------------------------------------------------------

static tread_aabb aabb_of_box(tread_transform t, tread_vec3 he) {
    tread_vec3 ax = tread_v3_abs(tread_quat_rotate(t.q, tread_v3(he.x, 0.0f, 0.0f)));
    tread_vec3 ay = tread_v3_abs(tread_quat_rotate(t.q, tread_v3(0.0f, he.y, 0.0f)));
    tread_vec3 az = tread_v3_abs(tread_quat_rotate(t.q, tread_v3(0.0f, 0.0f, he.z)));
    tread_vec3 e = tread_v3_add(tread_v3_add(ax, ay), az);
    tread_aabb a = {tread_v3_sub(t.p, e), tread_v3_add(t.p, e)};
    return a;
}

// Rotation matrix with columns x, y, z (orthonormal, right-handed) as a quaternion.
static tread_quat quat_from_basis(tread_vec3 x, tread_vec3 y, tread_vec3 z) {
    double m00 = x.x, m10 = x.y, m20 = x.z, m01 = y.x, m11 = y.y, m21 = y.z, m02 = z.x, m12 = z.y, m22 = z.z;
    double trace = m00 + m11 + m22, qx, qy, qz, qw;
    if (trace > 0.0) {
        double r = sqrt(trace + 1.0) * 2.0;
        qw = 0.25 * r, qx = (m21 - m12) / r, qy = (m02 - m20) / r, qz = (m10 - m01) / r;
    } else if (m00 > m11 && m00 > m22) {
        double r = sqrt(1.0 + m00 - m11 - m22) * 2.0;
        qw = (m21 - m12) / r, qx = 0.25 * r, qy = (m01 + m10) / r, qz = (m02 + m20) / r;
    } else if (m11 > m22) {
        double r = sqrt(1.0 + m11 - m00 - m22) * 2.0;
        qw = (m02 - m20) / r, qx = (m01 + m10) / r, qy = 0.25 * r, qz = (m12 + m21) / r;
    } else {
        double r = sqrt(1.0 + m22 - m00 - m11) * 2.0;
        qw = (m10 - m01) / r, qx = (m02 + m20) / r, qy = (m12 + m21) / r, qz = 0.25 * r;
    }
    tread_quat q = {(float)qx, (float)qy, (float)qz, (float)qw};
    return tread_quat_normalize(q);
}

static bool field_rotation(loader *L, const scene_json *obj, const char *jp, tread_quat *out) {
    const scene_json *j = js_member(obj, "rotation");
    char p[JP];
    *out = tread_quat_identity();
    return !j || js_read_rotation(L, j, js_jp_key(p, jp, "rotation"), out, NULL);
}

static bool positive_vec3(loader *L, const char *jp, const char *key, tread_vec3 v) {
    char p[JP];
    if (v.x > 0.0f && v.y > 0.0f && v.z > 0.0f) return true;
    return js_fail(L, js_jp_key(p, jp, key), "every component must be > 0, got [%g, %g, %g]", (double)v.x, (double)v.y, (double)v.z);
}

static bool parse_box(loader *L, const scene_json *j, const char *jp, scene_body *b) {
    tread_shape_def *sh = &b->def.shape;
    bool corners = js_member(j, "min") || js_member(j, "max");
    bool centred = js_member(j, "center") || js_member(j, "half_extents");
    if (corners && centred) return js_fail(L, jp, "give either \"min\" and \"max\" or \"center\" and \"half_extents\", not both");
    if (!corners && !centred) return js_fail(L, jp, "missing required fields: \"min\" and \"max\", or \"center\" and \"half_extents\"");
    if (corners) {
        tread_vec3 lo, hi;
        if (js_member(j, "rotation")) return js_fail(L, jp, "\"rotation\" needs the \"center\" and \"half_extents\" form");
        if (!js_field_vec3(L, j, jp, "min", true, &lo) || !js_field_vec3(L, j, jp, "max", true, &hi)) return false;
        if (!(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z))
            return js_fail(L, jp, "min [%g, %g, %g] must be below max [%g, %g, %g] on every axis", (double)lo.x, (double)lo.y, (double)lo.z,
                        (double)hi.x, (double)hi.y, (double)hi.z);
        *sh = tread_shape_box(tread_v3_scale(tread_v3_sub(hi, lo), 0.5f));
        b->def.transform.p = tread_v3_scale(tread_v3_add(lo, hi), 0.5f);
    } else {
        tread_vec3 he;
        if (!js_field_vec3(L, j, jp, "center", true, &b->def.transform.p) || !js_field_vec3(L, j, jp, "half_extents", true, &he) ||
            !positive_vec3(L, jp, "half_extents", he) || !field_rotation(L, j, jp, &b->def.transform.q))
            return false;
        *sh = tread_shape_box(he);
    }
    b->silhouette = aabb_of_box(b->def.transform, sh->half_extents);
    return true;
}

static bool parse_round(loader *L, const scene_json *j, const char *jp, scene_body *b, bool capsule) {
    float radius = 0.0f, half_height = 0.0f;
    tread_transform *t = &b->def.transform;
    if (!js_field_vec3(L, j, jp, "center", true, &t->p) || !js_field_float(L, j, jp, "radius", true, &radius, 0.0, INFINITY, OPEN_LO))
        return false;
    if (!capsule) {
        b->def.shape = tread_shape_sphere(radius);
        b->silhouette = tread_aabb_make(tread_v3_sub(t->p, tread_v3(radius, radius, radius)), tread_v3_add(t->p, tread_v3(radius, radius, radius)));
        return true;
    }
    if (!js_field_float(L, j, jp, "half_height", true, &half_height, 0.0, INFINITY, 0) || !field_rotation(L, j, jp, &t->q)) return false;
    b->def.shape = tread_shape_capsule(half_height, radius);
    tread_vec3 axis = tread_v3_abs(tread_quat_rotate(t->q, tread_v3(0.0f, half_height, 0.0f)));
    tread_vec3 e = tread_v3_add(axis, tread_v3(radius, radius, radius));
    b->silhouette = tread_aabb_make(tread_v3_sub(t->p, e), tread_v3_add(t->p, e));
    return true;
}

// A box whose top face starts at `foot` and rises along the horizontal `direction` at `degrees` until it is
// `rise` above the foot.
static bool parse_ramp(loader *L, const scene_json *j, const char *jp, scene_body *b) {
    tread_vec3 foot, direction;
    float degrees = 0.0f, rise = 0.0f, width = 0.0f, thickness = 0.0f;
    if (!js_field_vec3(L, j, jp, "foot", true, &foot) || !js_field_vec3(L, j, jp, "direction", true, &direction) ||
        !js_field_float(L, j, jp, "degrees", true, &degrees, 0.0, 90.0, OPEN_LO | OPEN_HI) ||
        !js_field_float(L, j, jp, "rise", true, &rise, 0.0, INFINITY, OPEN_LO) ||
        !js_field_float(L, j, jp, "width", true, &width, 0.0, INFINITY, OPEN_LO) ||
        !js_field_float(L, j, jp, "thickness", true, &thickness, 0.0, INFINITY, OPEN_LO))
        return false;
    tread_vec3 up = L->s->up;
    tread_vec3 d = tread_v3_reject(direction, up);
    char p[JP];
    if (!(tread_v3_length(d) > 1.0e-6f)) return js_fail(L, js_jp_key(p, jp, "direction"), "has no horizontal part (it is parallel to up)");
    d = tread_v3_normalize(d);
    // The library's own sine and cosine (src/trig.c), not libm's: the same bits in every build, WebAssembly included.
    float a = (float)((double)degrees * SCENE_PI / 180.0);
    float c = tread_cos(a), sn = tread_sin(a);
    float length = (float)((double)rise / (double)sn);
    tread_vec3 along = tread_v3_add(tread_v3_scale(d, c), tread_v3_scale(up, sn));       // up the slope
    tread_vec3 normal = tread_v3_sub(tread_v3_scale(up, c), tread_v3_scale(d, sn));      // top face normal
    tread_vec3 across = tread_v3_cross(along, normal);
    tread_vec3 he = tread_v3(0.5f * length, 0.5f * thickness, 0.5f * width);
    b->def.shape = tread_shape_box(he);
    b->def.transform.q = quat_from_basis(along, normal, across);
    b->def.transform.p = tread_v3_sub(tread_v3_add(foot, tread_v3_scale(along, he.x)), tread_v3_scale(normal, he.y));
    b->silhouette = aabb_of_box(b->def.transform, he);
    return true;
}

// ---- meshes --------------------------------------------------------------------------------------------

static bool parse_inline_mesh(loader *L, const scene_json *j, const char *jp, mesh_build *mb) {
    const scene_json *verts, *tris;
    char pv[JP], pt[JP];
    if (!js_need_field(L, j, jp, "vertices", &verts) || !js_need_field(L, j, jp, "triangles", &tris)) return false;
    js_jp_key(pv, jp, "vertices");
    js_jp_key(pt, jp, "triangles");
    if (!js_expect_array(L, verts, pv) || !js_expect_array(L, tris, pt)) return false;
    int nv = scene_json_count(verts), nt = scene_json_count(tris);
    if (nv < 3) return js_fail(L, pv, "has %d vertices; a mesh needs at least 3", nv);
    if (nt < 1) return js_fail(L, pt, "is empty; a mesh needs at least one triangle");
    if (nt > SCENE_MAX_MESH_TRIANGLES) return js_fail(L, pt, "has %d triangles; at most %d", nt, SCENE_MAX_MESH_TRIANGLES);
    mb->vertices = (tread_vec3 *)js_alloc_array(L, pv, (size_t)nv, sizeof(tread_vec3));
    mb->indices = (uint32_t *)js_alloc_array(L, pt, (size_t)nt * 3, sizeof(uint32_t));
    if (!mb->vertices || !mb->indices) return false;
    const scene_json *e;
    int i = 0;
    scene_json_each(e, verts) {
        char p[JP];
        if (!js_read_vec3(L, e, js_jp_index(p, pv, i), &mb->vertices[i])) return false;
        ++i;
    }
    mb->vertex_count = (size_t)nv;
    i = 0;
    scene_json_each(e, tris) {
        char p[JP];
        js_jp_index(p, pt, i);
        if (!scene_json_is_array(e) || scene_json_count(e) != 3)
            return js_fail(L, p, "expected an array of 3 vertex indices, got %s", scene_json_is_array(e) ? "another length" : js_type_name(e));
        const scene_json *x;
        int k = 0;
        scene_json_each(x, e) {
            char pk[JP];
            int64_t index;
            js_jp_index(pk, p, k);
            if (!js_read_integer(L, x, pk, 0.0, 4294967295.0, &index)) return false;
            if (index >= nv) return js_fail(L, pk, "vertex index %lld is out of range (the mesh has %d vertices)", (long long)index, nv);
            mb->indices[3 * i + k] = (uint32_t)index;
            ++k;
        }
        ++i;
    }
    mb->triangle_count = (size_t)nt;
    return true;
}

static bool parse_mesh(loader *L, const scene_json *j, const char *jp, scene_body *b) {
    mesh_build mb = {0};
    const scene_json *file = js_member(j, "file");
    bool ok;
    if (file) {
        char p[JP];
        js_jp_key(p, jp, "file");
        if (js_member(j, "vertices") || js_member(j, "triangles")) return js_fail(L, jp, "give either \"file\" or \"vertices\" and \"triangles\", not both");
        if (!scene_json_is_string(file)) return js_fail(L, p, "expected a string, got %s", js_type_name(file));
        ok = scene_load_mesh_file(L, scene_json_string(file), p, &mb);
    } else {
        ok = parse_inline_mesh(L, j, jp, &mb);
    }
    // The arrays belong to the body from here on, so scene_free releases them on any later error.
    b->vertices = mb.vertices;
    b->indices = mb.indices;
    if (!ok) return false;
    float scale = 1.0f;
    if (!js_field_vec3(L, j, jp, "position", false, &b->def.transform.p) || !field_rotation(L, j, jp, &b->def.transform.q) ||
        !js_field_float(L, j, jp, "scale", false, &scale, 0.0, INFINITY, OPEN_LO))
        return false;
    for (size_t i = 0; i < mb.vertex_count; ++i) mb.vertices[i] = tread_v3_scale(mb.vertices[i], scale);
    b->def.shape = tread_shape_mesh(mb.vertices, (int)mb.vertex_count, mb.indices, (int)mb.triangle_count);
    // Bounds of the referenced vertices only (a file may carry unused ones).
    tread_aabb a = {tread_v3(FLT_MAX, FLT_MAX, FLT_MAX), tread_v3(-FLT_MAX, -FLT_MAX, -FLT_MAX)};
    for (size_t i = 0; i < mb.triangle_count * 3; ++i) {
        tread_vec3 w = tread_transform_point(b->def.transform, mb.vertices[mb.indices[i]]);
        a.min = tread_v3_min(a.min, w);
        a.max = tread_v3_max(a.max, w);
    }
    b->silhouette = a;
    return true;
}

// ---- heightfields and voxels ----------------------------------------------------------------------------

static bool parse_heightfield(loader *L, const scene_json *j, const char *jp, scene_body *b) {
    const scene_json *heights, *spacing_j;
    char ph[JP], ps[JP];
    tread_heightfield_def *hf = &b->def.shape.heightfield;
    b->def.shape.type = TREAD_SHAPE_HEIGHTFIELD;
    if (!js_field_vec3(L, j, jp, "origin", true, &b->def.transform.p) || !js_need_field(L, j, jp, "spacing", &spacing_j) ||
        !js_need_field(L, j, jp, "heights", &heights))
        return false;
    js_jp_key(ps, jp, "spacing");
    if (!scene_json_is_array(spacing_j) || scene_json_count(spacing_j) != 2)
        return js_fail(L, ps, "expected an array of 2 numbers [x, z], got %s", scene_json_is_array(spacing_j) ? "another length" : js_type_name(spacing_j));
    float spacing[2];
    for (int i = 0; i < 2; ++i) {
        char p[JP];
        if (!js_read_float_in(L, scene_json_at(spacing_j, i), js_jp_index(p, ps, i), &spacing[i], 0.0, INFINITY, OPEN_LO)) return false;
    }
    hf->spacing_x = spacing[0];
    hf->spacing_z = spacing[1];
    js_jp_key(ph, jp, "heights");
    if (!js_expect_array(L, heights, ph)) return false;
    int nz = scene_json_count(heights), nx = 0;
    if (nz < 2) return js_fail(L, ph, "has %d rows; a heightfield needs at least 2", nz);
    const scene_json *row = scene_json_child(heights);
    char p0[JP];
    if (!js_expect_array(L, row, js_jp_index(p0, ph, 0))) return false;
    nx = scene_json_count(row);
    if (nx < 2) return js_fail(L, p0, "has %d heights; a row needs at least 2", nx);
    if ((int64_t)nx * nz > SCENE_MAX_GRID_CELLS) return js_fail(L, ph, "has %d x %d samples; at most %d", nx, nz, SCENE_MAX_GRID_CELLS);
    b->heights = (float *)js_alloc_array(L, ph, (size_t)nx * (size_t)nz, sizeof(float));
    if (!b->heights) return false;
    float lo = FLT_MAX, hi = -FLT_MAX;
    int r = 0;
    scene_json_each(row, heights) {
        char pr[JP];
        js_jp_index(pr, ph, r);
        if (!js_expect_array(L, row, pr)) return false;
        int n = scene_json_count(row);
        if (n != nx) return js_fail(L, pr, "has %d heights; row 0 has %d (rows must be the same length)", n, nx);
        const scene_json *h;
        int i = 0;
        scene_json_each(h, row) {
            char pi[JP];
            float v;
            if (!js_read_float(L, h, js_jp_index(pi, pr, i), &v)) return false;
            b->heights[(size_t)r * (size_t)nx + (size_t)i] = v;
            lo = fminf(lo, v);
            hi = fmaxf(hi, v);
            ++i;
        }
        ++r;
    }
    hf->count_x = nx;
    hf->count_z = nz;
    hf->heights = b->heights;
    const scene_json *holes = js_member(j, "holes");
    if (holes) {
        char pho[JP];
        js_jp_key(pho, jp, "holes");
        if (!js_expect_array(L, holes, pho)) return false;
        if (scene_json_count(holes) != nz - 1) return js_fail(L, pho, "has %d rows; expected %d (one per row of cells)", scene_json_count(holes), nz - 1);
        b->holes = (uint8_t *)js_alloc_array(L, pho, (size_t)(nx - 1) * (size_t)(nz - 1), 1);
        if (!b->holes) return false;
        r = 0;
        scene_json_each(row, holes) {
            char pr[JP];
            js_jp_index(pr, pho, r);
            if (!js_expect_array(L, row, pr)) return false;
            if (scene_json_count(row) != nx - 1) return js_fail(L, pr, "has %d flags; expected %d (one per cell)", scene_json_count(row), nx - 1);
            const scene_json *h;
            int i = 0;
            scene_json_each(h, row) {
                char pi[JP];
                int64_t v;
                if (!js_read_integer(L, h, js_jp_index(pi, pr, i), 0.0, 1.0, &v)) return false;
                b->holes[(size_t)r * (size_t)(nx - 1) + (size_t)i] = (uint8_t)v;
                ++i;
            }
            ++r;
        }
        hf->holes = b->holes;
    }
    tread_vec3 o = b->def.transform.p;
    b->silhouette = tread_aabb_make(tread_v3(o.x, o.y + lo, o.z),
                                    tread_v3(o.x + (float)(nx - 1) * spacing[0], o.y + hi, o.z + (float)(nz - 1) * spacing[1]));
    return true;
}

static bool parse_voxels(loader *L, const scene_json *j, const char *jp, scene_body *b) {
    tread_voxels_def *vx = &b->def.shape.voxels;
    b->def.shape.type = TREAD_SHAPE_VOXELS;
    float cell = 0.0f;
    if (!js_field_vec3(L, j, jp, "origin", true, &b->def.transform.p) || !js_field_float(L, j, jp, "cell_size", true, &cell, 0.0, INFINITY, OPEN_LO))
        return false;
    const scene_json *rows = js_member(j, "rows"), *cells = js_member(j, "cells"), *size = js_member(j, "size");
    if (rows && (cells || size)) return js_fail(L, jp, "give either \"rows\" or \"cells\" and \"size\", not both");
    if (!rows && !cells && !size) return js_fail(L, jp, "missing required fields: \"rows\", or \"cells\" and \"size\"");
    int n[3] = {0, 0, 0};
    if (rows) {
        // rows[j][k][i] is cell (i, j, k): one array per layer (y = j, bottom up), one string per z row.
        char pr[JP];
        js_jp_key(pr, jp, "rows");
        if (!js_expect_array(L, rows, pr)) return false;
        n[1] = scene_json_count(rows);
        if (n[1] < 1) return js_fail(L, pr, "is empty; a voxel grid needs at least one layer");
        const scene_json *layer = scene_json_child(rows), *line;
        char pl[JP];
        if (!js_expect_array(L, layer, js_jp_index(pl, pr, 0))) return false;
        n[2] = scene_json_count(layer);
        if (n[2] < 1) return js_fail(L, pl, "is empty; a layer needs at least one row");
        const scene_json *first = scene_json_child(layer);
        if (!scene_json_is_string(first)) return js_fail(L, js_jp_index(pl, pl, 0), "expected a string of '#' and '.', got %s", js_type_name(first));
        size_t len = strlen(scene_json_string(first));
        if (len < 1) return js_fail(L, pl, "is an empty string; a row needs at least one cell");
        if ((double)len * n[1] * n[2] > SCENE_MAX_GRID_CELLS) return js_fail(L, pr, "has %zu x %d x %d cells; at most %d", len, n[1], n[2], SCENE_MAX_GRID_CELLS);
        n[0] = (int)len;
        b->cells = (uint8_t *)js_alloc_array(L, pr, (size_t)n[0] * (size_t)n[1] * (size_t)n[2], 1);
        if (!b->cells) return false;
        int y = 0;
        scene_json_each(layer, rows) {
            js_jp_index(pl, pr, y);
            if (!js_expect_array(L, layer, pl)) return false;
            if (scene_json_count(layer) != n[2]) return js_fail(L, pl, "has %d rows; layer 0 has %d (layers must be the same shape)", scene_json_count(layer), n[2]);
            int z = 0;
            scene_json_each(line, layer) {
                char pz[JP];
                js_jp_index(pz, pl, z);
                if (!scene_json_is_string(line)) return js_fail(L, pz, "expected a string of '#' and '.', got %s", js_type_name(line));
                const char *text = scene_json_string(line);
                if (strlen(text) != len) return js_fail(L, pz, "has %zu cells; rows[0][0] has %zu (rows must be the same length)", strlen(text), len);
                for (int x = 0; x < n[0]; ++x) {
                    if (text[x] != '#' && text[x] != '.')
                        return js_fail(L, pz, "character %d is '%c'; expected '#' (solid) or '.' (empty)", x, (text[x] >= 0x20 && text[x] < 0x7f) ? text[x] : '?');
                    b->cells[((size_t)z * (size_t)n[1] + (size_t)y) * (size_t)n[0] + (size_t)x] = text[x] == '#';
                }
                ++z;
            }
            ++y;
        }
    } else {
        char ps[JP], pc[JP];
        js_jp_key(ps, jp, "size");
        js_jp_key(pc, jp, "cells");
        if (!size) return js_fail(L, jp, "missing required field \"size\" (\"cells\" needs it)");
        if (!cells) return js_fail(L, jp, "missing required field \"cells\" (\"size\" needs it)");
        if (!scene_json_is_array(size) || scene_json_count(size) != 3)
            return js_fail(L, ps, "expected an array of 3 integers [nx, ny, nz], got %s", scene_json_is_array(size) ? "another length" : js_type_name(size));
        for (int a = 0; a < 3; ++a) {
            char p[JP];
            int64_t v;
            if (!js_read_integer(L, scene_json_at(size, a), js_jp_index(p, ps, a), 1.0, (double)SCENE_MAX_GRID_CELLS, &v)) return false;
            n[a] = (int)v;
        }
        if ((double)n[0] * n[1] * n[2] > SCENE_MAX_GRID_CELLS) return js_fail(L, ps, "has %d x %d x %d cells; at most %d", n[0], n[1], n[2], SCENE_MAX_GRID_CELLS);
        if (!js_expect_array(L, cells, pc)) return false;
        if ((double)scene_json_count(cells) > (double)n[0] * n[1] * n[2])
            return js_fail(L, pc, "has %d entries; the grid has only %d x %d x %d cells", scene_json_count(cells), n[0], n[1], n[2]);
        b->cells = (uint8_t *)js_alloc_array(L, pc, (size_t)n[0] * (size_t)n[1] * (size_t)n[2], 1);
        if (!b->cells) return false;
        const scene_json *c;
        int i = 0;
        scene_json_each(c, cells) {
            char p[JP];
            js_jp_index(p, pc, i);
            if (!scene_json_is_array(c) || scene_json_count(c) != 3)
                return js_fail(L, p, "expected an array of 3 integers [i, j, k], got %s", scene_json_is_array(c) ? "another length" : js_type_name(c));
            int64_t at[3];
            for (int a = 0; a < 3; ++a) {
                char pa[JP];
                if (!js_read_integer(L, scene_json_at(c, a), js_jp_index(pa, p, a), 0.0, (double)(n[a] - 1), &at[a])) return false;
            }
            b->cells[((size_t)at[2] * (size_t)n[1] + (size_t)at[1]) * (size_t)n[0] + (size_t)at[0]] = 1;
            ++i;
        }
    }
    vx->count_x = n[0];
    vx->count_y = n[1];
    vx->count_z = n[2];
    vx->cell_size = cell;
    vx->solid = b->cells;
    tread_vec3 o = b->def.transform.p;
    b->silhouette = tread_aabb_make(o, tread_v3_add(o, tread_v3((float)n[0] * cell, (float)n[1] * cell, (float)n[2] * cell)));
    return true;
}

static const char *const body_types[] = {"box", "sphere", "capsule", "ramp", "mesh", "heightfield", "voxels", NULL};
enum { BODY_BOX, BODY_SPHERE, BODY_CAPSULE, BODY_RAMP, BODY_MESH, BODY_HEIGHTFIELD, BODY_VOXELS };

static const char *const *body_fields(int type) {
#define COMMON "type", "name", "layer", "kinematic", "surface", "dynamic", "one_way", "sensor"
    static const char *const box[] = {COMMON, "min", "max", "center", "half_extents", "rotation", NULL};
    static const char *const sphere[] = {COMMON, "center", "radius", NULL};
    static const char *const capsule[] = {COMMON, "center", "radius", "half_height", "rotation", NULL};
    static const char *const ramp[] = {COMMON, "foot", "direction", "degrees", "rise", "width", "thickness", NULL};
    static const char *const mesh[] = {COMMON, "vertices", "triangles", "file", "position", "rotation", "scale", NULL};
    static const char *const heightfield[] = {COMMON, "origin", "spacing", "heights", "holes", NULL};
    static const char *const voxels[] = {COMMON, "origin", "cell_size", "rows", "cells", "size", NULL};
#undef COMMON
    static const char *const *const all[] = {box, sphere, capsule, ramp, mesh, heightfield, voxels};
    return all[type];
}

static bool parse_body(loader *L, const scene_json *j, const char *jp, scene_body *b) {
    int type = 0;
    b->def = tread_body_def_default();
    b->def.transform = tread_transform_identity();
    if (!js_expect_object(L, j, jp) || !js_field_enum(L, j, jp, "type", true, body_types, &type) || !js_check_fields(L, j, jp, body_fields(type)) ||
        !js_field_string(L, j, jp, "name", false, b->name, sizeof b->name))
        return false;
    const scene_json *layer = js_member(j, "layer"), *kin = js_member(j, "kinematic"), *surface = js_member(j, "surface");
    const scene_json *dynamic = js_member(j, "dynamic");
    char p[JP];
    bool one_way = false, sensor = false;
    if (!js_field_bool(L, j, jp, "one_way", &one_way) || !js_field_bool(L, j, jp, "sensor", &sensor)) return false;
    // The library's flags exclude each other: a sensor never blocks, a one-way platform blocks from above.
    if (one_way && sensor) return js_fail(L, jp, "give \"one_way\" or \"sensor\", not both");
    if (kin && dynamic) return js_fail(L, jp, "give \"kinematic\" or \"dynamic\", not both");
    b->def.flags = (one_way ? (uint32_t)TREAD_BODY_ONE_WAY : 0u) | (sensor ? (uint32_t)TREAD_BODY_SENSOR : 0u);
    if (layer) {
        int index;
        if (!js_read_layer_ref(L, layer, js_jp_key(p, jp, "layer"), &index)) return false;
        b->def.layer = (uint32_t)index;
    }
    bool ok;
    switch (type) {
    case BODY_BOX: ok = parse_box(L, j, jp, b); break;
    case BODY_SPHERE: ok = parse_round(L, j, jp, b, false); break;
    case BODY_CAPSULE: ok = parse_round(L, j, jp, b, true); break;
    case BODY_RAMP: ok = parse_ramp(L, j, jp, b); break;
    case BODY_MESH: ok = parse_mesh(L, j, jp, b); break;
    case BODY_HEIGHTFIELD: ok = parse_heightfield(L, j, jp, b); break;
    default: ok = parse_voxels(L, j, jp, b); break;
    }
    // Motion last: a path moves the body from where its own fields placed it.
    return ok && (!kin || scene_parse_kinematic(L, kin, js_jp_key(p, jp, "kinematic"), b)) &&
           (!dynamic || scene_parse_dynamic(L, dynamic, js_jp_key(p, jp, "dynamic"), b)) &&
           (!surface || scene_parse_surface(L, surface, js_jp_key(p, jp, "surface"), b));
}

bool scene_parse_bodies(loader *L, const scene_json *root) {
    const scene_json *j;
    if (!js_need_field(L, root, "", "bodies", &j) || !js_expect_array(L, j, "bodies")) return false;
    int n = scene_json_count(j);
    if (n > SCENE_MAX_BODIES) return js_fail(L, "bodies", "has %d bodies; at most %d", n, SCENE_MAX_BODIES);
    L->s->bodies = (scene_body *)js_alloc_array(L, "bodies", (size_t)n, sizeof(scene_body));
    if (!L->s->bodies) return false;
    const scene_json *e;
    int i = 0;
    scene_json_each(e, j) {
        char p[JP];
        L->s->body_count = i + 1; // counted before parsing so scene_free sees partial arrays
        if (!parse_body(L, e, js_jp_index(p, "bodies", i), &L->s->bodies[i])) return false;
        ++i;
    }
    return true;
}
