// SPDX-License-Identifier: MIT
// level_load: the file (a .pk3 entry or a plain .bsp), its lumps, the brushes and patches as one triangle soup in
// Quake units, then converted to tread's metres and axes (level.h); the entities; and the level into a tread world.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_internal.h"

bool soup_vertex(level_soup *s, const double p[3], uint32_t *out_index) {
    if (s->vert_count == s->vert_capacity) {
        int cap = s->vert_capacity ? 2 * s->vert_capacity : 4096;
        double *grown = realloc(s->verts, (size_t)cap * 3 * sizeof *grown);
        if (!grown) return false;
        s->verts = grown, s->vert_capacity = cap;
    }
    memcpy(s->verts + 3 * (size_t)s->vert_count, p, 3 * sizeof *p);
    *out_index = (uint32_t)s->vert_count++;
    return true;
}

bool soup_triangle(level_soup *s, uint32_t a, uint32_t b, uint32_t c, uint8_t flags) {
    if (s->tri_count == s->tri_capacity) {
        int cap = s->tri_capacity ? 2 * s->tri_capacity : 4096;
        uint32_t *indices = realloc(s->indices, (size_t)cap * 3 * sizeof *indices);
        if (!indices) return false;
        s->indices = indices;
        uint8_t *flags_grown = realloc(s->flags, (size_t)cap);
        if (!flags_grown) return false;
        s->flags = flags_grown, s->tri_capacity = cap;
    }
    uint32_t *t = s->indices + 3 * (size_t)s->tri_count;
    t[0] = a, t[1] = b, t[2] = c;
    s->flags[s->tri_count++] = flags;
    return true;
}

bool level_add_hazard(level *lv, level_hazard_kind kind, const double lo[3], const double hi[3]) {
    level_hazard *grown = realloc(lv->hazards, ((size_t)lv->hazard_count + 1) * sizeof *grown);
    if (!grown) return false;
    lv->hazards = grown;
    level_hazard *h = &lv->hazards[lv->hazard_count++];
    h->kind = kind;
    memcpy(h->lo, lo, sizeof h->lo);
    memcpy(h->hi, hi, sizeof h->hi);
    return true;
}

// The map's short name: the file name without folder and ".bsp".
static void short_name(const char *path, char *out, size_t size) {
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    snprintf(out, size, "%s", base);
    size_t n = strlen(out);
    if (n > 4 && !strcmp(out + n - 4, ".bsp")) out[n - 4] = '\0';
}

bool level_load_bsp_memory(const uint8_t *data, size_t size, const char *name, level *out, char *err, size_t errsize) {
    memset(out, 0, sizeof *out);
    short_name(name, out->name, sizeof out->name);
    bsp_file b;
    if (!bsp_parse(data, size, out->name, &b, err, errsize)) return false;
    level_soup soup;
    memset(&soup, 0, sizeof soup);
    bool ok = brushes_build(&b, &soup, out, err, errsize) && patches_build(&b, &soup, out, err, errsize) &&
              entities_parse(&b, out, err, errsize) && triggers_resolve(out, err, errsize) && movers_build(&b, out, err, errsize);
    if (ok && soup.tri_count == 0) {
        snprintf(err, errsize, "%s: the world model has no solid brush or patch", out->name);
        ok = false;
    }
    if (ok) {
        out->vertices = malloc((size_t)soup.vert_count * 3 * sizeof *out->vertices);
        if (!out->vertices) {
            snprintf(err, errsize, "%s: out of memory", out->name);
            ok = false;
        }
    }
    if (ok) {
        for (int i = 0; i < soup.vert_count; ++i) {
            double m[3];
            level_to_tread(soup.verts + 3 * (size_t)i, m);
            for (int k = 0; k < 3; ++k) out->vertices[3 * (size_t)i + (size_t)k] = (float)m[k];
        }
        out->vertex_count = soup.vert_count;
        out->indices = soup.indices, out->triangle_flags = soup.flags, out->triangle_count = soup.tri_count;
        soup.indices = NULL, soup.flags = NULL;
        level_bounds_to_tread(b.models[0].mins, b.models[0].maxs, out->lo, out->hi);
    }
    free(soup.verts);
    free(soup.indices);
    free(soup.flags);
    bsp_free(&b);
    if (!ok) {
        char name_copy[64];
        memcpy(name_copy, out->name, sizeof name_copy);
        level_free(out);
        memcpy(out->name, name_copy, sizeof name_copy);
    }
    return ok;
}

static bool read_file(const char *path, uint8_t **out_data, size_t *out_size, char *err, size_t errsize) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsize, "%s: cannot open", path);
        return false;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? 2 * cap : 1 << 20;
            uint8_t *grown = cap <= (256u << 20) ? realloc(data, cap) : NULL;
            if (!grown) {
                snprintf(err, errsize, "%s: too large or out of memory", path);
                free(data);
                fclose(f);
                return false;
            }
            data = grown;
        }
        size_t got = fread(data + size, 1, cap - size, f);
        size += got;
        if (got == 0) break;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        snprintf(err, errsize, "%s: read error", path);
        free(data);
        return false;
    }
    *out_data = data;
    *out_size = size;
    return true;
}

bool level_load(const char *path, const char *map_name, level *out, char *err, size_t errsize) {
    memset(out, 0, sizeof *out);
    size_t n = strlen(path);
    uint8_t *data = NULL;
    size_t size = 0;
    char entry[512];
    if (n > 4 && !strcmp(path + n - 4, ".bsp")) {
        if (!read_file(path, &data, &size, err, errsize)) return false;
        snprintf(entry, sizeof entry, "%s", path);
    } else {
        if (!map_name || !map_name[0]) {
            snprintf(err, errsize, "%s: which map? (a .pk3 holds many)", path);
            return false;
        }
        if (strchr(map_name, '/')) snprintf(entry, sizeof entry, "%s", map_name);
        else snprintf(entry, sizeof entry, "maps/%s.bsp", map_name);
        if (!pk3_read(path, entry, &data, &size, err, errsize)) return false;
    }
    bool ok = level_load_bsp_memory(data, size, entry, out, err, errsize);
    free(data);
    return ok;
}

void level_free(level *lv) {
    free(lv->vertices);
    free(lv->indices);
    free(lv->triangle_flags);
    free(lv->spawns);
    free(lv->hazards);
    for (int i = 0; i < lv->skipped_count; ++i) {
        for (int k = 0; k < lv->skipped[i].pair_count; ++k) free(lv->skipped[i].pairs[k].key), free(lv->skipped[i].pairs[k].value);
        free(lv->skipped[i].pairs);
    }
    free(lv->skipped);
    free(lv->skip_counts);
    free(lv->targets);
    free(lv->triggers);
    for (int i = 0; i < lv->mover_count; ++i)
        free(lv->movers[i].vertices), free(lv->movers[i].indices), free(lv->movers[i].path), free(lv->movers[i].uses);
    free(lv->movers);
    for (int i = 0; i < lv->mover_trigger_count; ++i) free(lv->mover_triggers[i].uses);
    free(lv->mover_triggers);
    memset(lv, 0, sizeof *lv);
}

// The library's mesh takes up to 2^28 triangles (src/world/mesh.h); a body of at most this many keeps every
// index an int with room to spare.
#define LEVEL_BODY_TRIANGLES (1 << 24)

bool level_add_to_world(const level *lv, tread_world *world, uint32_t layer, tread_body_id *out_ids, int capacity, int *out_count, char *err,
                        size_t errsize) {
    *out_count = 0;
    const tread_vec3 *verts = (const tread_vec3 *)(const void *)lv->vertices; // three floats a vertex, as tread_vec3
    // Brush faces are one-sided, as the game collides: a brush is solid, met from outside only, so its bottom face is
    // no floor to a character beside it. A patch is a surface with no inside, met from both sides.
    uint8_t *one_sided = (uint8_t *)malloc(lv->triangle_count > 0 ? (size_t)lv->triangle_count : 1u);
    if (!one_sided) {
        snprintf(err, errsize, "%s: out of memory", lv->name);
        return false;
    }
    for (int i = 0; i < lv->triangle_count; ++i) one_sided[i] = (lv->triangle_flags[i] & LEVEL_TRI_PATCH) == 0;
    bool ok = true;
    for (int first = 0; ok && first < lv->triangle_count; first += LEVEL_BODY_TRIANGLES) {
        int count = lv->triangle_count - first < LEVEL_BODY_TRIANGLES ? lv->triangle_count - first : LEVEL_BODY_TRIANGLES;
        if (*out_count >= capacity) {
            snprintf(err, errsize, "%s: more than %d bodies", lv->name, capacity);
            ok = false;
            break;
        }
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_mesh(verts, lv->vertex_count, lv->indices + 3 * (size_t)first, count);
        def.shape.mesh.one_sided = one_sided + first;
        def.layer = layer;
        if (tread_world_add_body(world, &def, &out_ids[*out_count]) != TREAD_OK) {
            snprintf(err, errsize, "%s: tread_world_add_body: %s", lv->name, tread_error_message());
            ok = false;
            break;
        }
        ++*out_count;
    }
    free(one_sided);
    return ok;
}
