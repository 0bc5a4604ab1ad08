// SPDX-License-Identifier: MIT
// The IBSP version 46 file (Quake III Arena, OpenArena): a header of 17 lumps {offset, length}, little-endian.
// Only the lumps collision and entities need are decoded, and every count, offset and index is checked against
// the buffer before it is used: a corrupt file gets an error naming the lump and the bad value, never a crash.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_internal.h"

enum { LUMP_ENTITIES = 0, LUMP_SHADERS = 1, LUMP_PLANES = 2, LUMP_MODELS = 7, LUMP_BRUSHES = 8, LUMP_SIDES = 9, LUMP_VERTS = 10, LUMP_SURFACES = 13 };
#define BSP_LUMPS 17
#define BSP_HEADER (8 + 8 * BSP_LUMPS)

static const char *const lump_names[BSP_LUMPS] = {"entities", "shaders", "planes", "nodes", "leafs", "leafsurfaces", "leafbrushes", "models", "brushes",
                                                  "brushsides", "drawverts", "drawindexes", "fogs", "surfaces", "lightmaps", "lightgrid", "visibility"};

// Little-endian reads (the file's byte order on any host).
static uint32_t rd_u32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static int32_t rd_i32(const uint8_t *p) { return (int32_t)rd_u32(p); }
static double rd_f32(const uint8_t *p) {
    uint32_t u = rd_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return (double)f;
}

typedef struct lump {
    const uint8_t *data;
    int count;
} lump;

// Lump `index` as `count` records of `record` bytes, checked against the file.
static bool get_lump(const uint8_t *data, size_t size, const char *name, int index, size_t record, lump *out, char *err, size_t errsize) {
    uint32_t offset = rd_u32(data + 8 + 8 * index), length = rd_u32(data + 12 + 8 * index);
    if ((uint64_t)offset + length > size || (length > 0 && offset < BSP_HEADER)) {
        snprintf(err, errsize, "%s: lump %d (%s): offset %u + length %u lies outside the file's %zu bytes", name, index, lump_names[index], offset,
                 length, size);
        return false;
    }
    if (record > 1 && length % record != 0) {
        snprintf(err, errsize, "%s: lump %d (%s): length %u is not a whole number of %zu-byte records", name, index, lump_names[index], length,
                 record);
        return false;
    }
    if (length / record > 0x7fffffffu / 2) {
        snprintf(err, errsize, "%s: lump %d (%s): %u records is too many", name, index, lump_names[index], (unsigned)(length / record));
        return false;
    }
    out->data = data + offset;
    out->count = (int)(length / record);
    return true;
}

static bool check_finite(const double *v, int n, const char *name, const char *what, int index, char *err, size_t errsize) {
    for (int i = 0; i < n; ++i)
        if (!isfinite(v[i]) || fabs(v[i]) > 1e6) {
            snprintf(err, errsize, "%s: %s %d: coordinate %g is not a finite number within 1e6 units", name, what, index, v[i]);
            return false;
        }
    return true;
}

static bool check_index(int value, int lo, int count, const char *name, const char *what, int index, const char *field, char *err, size_t errsize) {
    if (value >= lo && value < count) return true;
    snprintf(err, errsize, "%s: %s %d: %s = %d is outside [%d, %d)", name, what, index, field, value, lo, count);
    return false;
}

// first + count must lie within [0, total].
static bool check_range(int first, int count, int total, const char *name, const char *what, int index, const char *field, char *err,
                        size_t errsize) {
    if (first >= 0 && count >= 0 && (int64_t)first + count <= total) return true;
    snprintf(err, errsize, "%s: %s %d: %s %d + %d runs outside the %d available", name, what, index, field, first, count, total);
    return false;
}

static bool parse_lumps(const uint8_t *data, size_t size, const char *name, bsp_file *b, char *err, size_t errsize) {
    lump l;
    if (!get_lump(data, size, name, LUMP_ENTITIES, 1, &l, err, errsize)) return false;
    b->entities = malloc((size_t)l.count + 1);
    if (!b->entities) goto oom;
    memcpy(b->entities, l.data, (size_t)l.count);
    b->entities[l.count] = '\0';

    if (!get_lump(data, size, name, LUMP_SHADERS, 72, &l, err, errsize)) return false;
    b->shader_count = l.count;
    b->shaders = calloc((size_t)l.count + 1, sizeof *b->shaders);
    if (!b->shaders) goto oom;
    for (int i = 0; i < l.count; ++i) {
        const uint8_t *p = l.data + 72 * (size_t)i;
        memcpy(b->shaders[i].name, p, 64);
        b->shaders[i].name[64] = '\0';
        b->shaders[i].surface_flags = rd_i32(p + 64);
        b->shaders[i].content_flags = rd_i32(p + 68);
    }

    if (!get_lump(data, size, name, LUMP_PLANES, 16, &l, err, errsize)) return false;
    b->plane_count = l.count;
    b->planes = calloc((size_t)l.count + 1, sizeof *b->planes);
    if (!b->planes) goto oom;
    for (int i = 0; i < l.count; ++i) {
        const uint8_t *p = l.data + 16 * (size_t)i;
        bsp_plane *pl = &b->planes[i];
        for (int k = 0; k < 3; ++k) pl->normal[k] = rd_f32(p + 4 * k);
        pl->dist = rd_f32(p + 12);
        if (!check_finite(pl->normal, 3, name, "plane", i, err, errsize) || !check_finite(&pl->dist, 1, name, "plane", i, err, errsize)) return false;
        double len = sqrt(pl->normal[0] * pl->normal[0] + pl->normal[1] * pl->normal[1] + pl->normal[2] * pl->normal[2]);
        if (fabs(len - 1.0) > 1e-3) {
            snprintf(err, errsize, "%s: plane %d: normal (%g, %g, %g) is not of unit length", name, i, pl->normal[0], pl->normal[1], pl->normal[2]);
            return false;
        }
    }

    if (!get_lump(data, size, name, LUMP_VERTS, 44, &l, err, errsize)) return false;
    b->vert_count = l.count;
    b->verts = malloc(((size_t)l.count + 1) * 3 * sizeof *b->verts);
    if (!b->verts) goto oom;
    for (int i = 0; i < l.count; ++i) {
        for (int k = 0; k < 3; ++k) b->verts[3 * i + k] = rd_f32(l.data + 44 * (size_t)i + 4 * (size_t)k);
        if (!check_finite(b->verts + 3 * i, 3, name, "drawvert", i, err, errsize)) return false;
    }

    if (!get_lump(data, size, name, LUMP_SIDES, 8, &l, err, errsize)) return false;
    b->side_count = l.count;
    b->sides = calloc((size_t)l.count + 1, sizeof *b->sides);
    if (!b->sides) goto oom;
    for (int i = 0; i < l.count; ++i) {
        b->sides[i].plane = rd_i32(l.data + 8 * (size_t)i);
        b->sides[i].shader = rd_i32(l.data + 8 * (size_t)i + 4);
        if (!check_index(b->sides[i].plane, 0, b->plane_count, name, "brushside", i, "planeNum", err, errsize) ||
            !check_index(b->sides[i].shader, 0, b->shader_count, name, "brushside", i, "shaderNum", err, errsize))
            return false;
    }

    if (!get_lump(data, size, name, LUMP_BRUSHES, 12, &l, err, errsize)) return false;
    b->brush_count = l.count;
    b->brushes = calloc((size_t)l.count + 1, sizeof *b->brushes);
    if (!b->brushes) goto oom;
    for (int i = 0; i < l.count; ++i) {
        bsp_brush *br = &b->brushes[i];
        br->first_side = rd_i32(l.data + 12 * (size_t)i);
        br->side_count = rd_i32(l.data + 12 * (size_t)i + 4);
        br->shader = rd_i32(l.data + 12 * (size_t)i + 8);
        if (!check_range(br->first_side, br->side_count, b->side_count, name, "brush", i, "sides", err, errsize) ||
            !check_index(br->shader, 0, b->shader_count, name, "brush", i, "shaderNum", err, errsize))
            return false;
    }

    if (!get_lump(data, size, name, LUMP_MODELS, 40, &l, err, errsize)) return false;
    if (l.count < 1) {
        snprintf(err, errsize, "%s: lump 7 (models) is empty: no world model", name);
        return false;
    }
    b->model_count = l.count;
    b->models = calloc((size_t)l.count, sizeof *b->models);
    if (!b->models) goto oom;
    for (int i = 0; i < l.count; ++i) {
        const uint8_t *p = l.data + 40 * (size_t)i;
        bsp_model *m = &b->models[i];
        for (int k = 0; k < 3; ++k) m->mins[k] = rd_f32(p + 4 * k), m->maxs[k] = rd_f32(p + 12 + 4 * k);
        m->first_surface = rd_i32(p + 24), m->surface_count = rd_i32(p + 28);
        m->first_brush = rd_i32(p + 32), m->brush_count = rd_i32(p + 36);
        if (!check_finite(m->mins, 3, name, "model", i, err, errsize) || !check_finite(m->maxs, 3, name, "model", i, err, errsize) ||
            !check_range(m->first_brush, m->brush_count, b->brush_count, name, "model", i, "brushes", err, errsize))
            return false;
    }

    if (!get_lump(data, size, name, LUMP_SURFACES, 104, &l, err, errsize)) return false;
    b->surface_count = l.count;
    b->surfaces = calloc((size_t)l.count + 1, sizeof *b->surfaces);
    if (!b->surfaces) goto oom;
    for (int i = 0; i < l.count; ++i) {
        const uint8_t *p = l.data + 104 * (size_t)i;
        bsp_surface *s = &b->surfaces[i];
        s->shader = rd_i32(p);
        s->type = rd_i32(p + 8);
        s->first_vert = rd_i32(p + 12);
        s->vert_count = rd_i32(p + 16);
        s->patch_width = rd_i32(p + 96);
        s->patch_height = rd_i32(p + 100);
        if (!check_index(s->shader, 0, b->shader_count, name, "surface", i, "shaderNum", err, errsize) ||
            !check_range(s->first_vert, s->vert_count, b->vert_count, name, "surface", i, "verts", err, errsize))
            return false;
        if (s->type == Q3_SURFACE_PATCH &&
            (s->patch_width < 3 || s->patch_height < 3 || s->patch_width % 2 == 0 || s->patch_height % 2 == 0 || s->patch_width > 1024 ||
             s->patch_height > 1024 || (int64_t)s->patch_width * s->patch_height != s->vert_count)) {
            snprintf(err, errsize, "%s: surface %d: a patch of %d x %d control points (odd, at least 3, at most 1023) over %d verts", name, i,
                     s->patch_width, s->patch_height, s->vert_count);
            return false;
        }
    }
    if (!check_range(b->models[0].first_surface, b->models[0].surface_count, b->surface_count, name, "model", 0, "surfaces", err, errsize))
        return false;
    return true;
oom:
    snprintf(err, errsize, "%s: out of memory", name);
    return false;
}

bool bsp_parse(const uint8_t *data, size_t size, const char *name, bsp_file *out, char *err, size_t errsize) {
    memset(out, 0, sizeof *out);
    if (size < BSP_HEADER) {
        snprintf(err, errsize, "%s: %zu bytes is shorter than an IBSP header (%d bytes)", name, size, BSP_HEADER);
        return false;
    }
    if (memcmp(data, "IBSP", 4) != 0) {
        snprintf(err, errsize, "%s: not an IBSP file (magic \"%.4s\")", name, (const char *)data);
        return false;
    }
    int32_t version = rd_i32(data + 4);
    if (version != 46) {
        snprintf(err, errsize, "%s: IBSP version %d (only 46, Quake III Arena's, is read)", name, version);
        return false;
    }
    if (!parse_lumps(data, size, name, out, err, errsize)) {
        bsp_free(out);
        return false;
    }
    return true;
}

void bsp_free(bsp_file *b) {
    free(b->entities);
    free(b->shaders);
    free(b->planes);
    free(b->models);
    free(b->brushes);
    free(b->sides);
    free(b->verts);
    free(b->surfaces);
    memset(b, 0, sizeof *b);
}
