// SPDX-License-Identifier: MIT
// The importer's parts (level.h lists them) and what they share: the checked lumps of one IBSP file, and the
// growing triangle soup the brushes and patches write into.
#ifndef LEVEL_INTERNAL_H
#define LEVEL_INTERNAL_H

#include "level.h"

// Content and surface flags of Quake III (the game's surfaceflags.h), the ones the importer reads.
#define Q3_CONTENTS_SOLID 0x1
#define Q3_CONTENTS_LAVA 0x8
#define Q3_CONTENTS_SLIME 0x10
#define Q3_CONTENTS_PLAYERCLIP 0x10000
#define Q3_PLAYER_MASK (Q3_CONTENTS_SOLID | Q3_CONTENTS_PLAYERCLIP)
#define Q3_SURF_NODRAW 0x80
#define Q3_SURF_NONSOLID 0x4000
#define Q3_SURFACE_PATCH 2

typedef struct bsp_shader {
    char name[65];
    int surface_flags, content_flags;
} bsp_shader;

typedef struct bsp_plane {
    double normal[3], dist;
} bsp_plane;

typedef struct bsp_model {
    double mins[3], maxs[3]; // Quake units, Quake axes
    int first_surface, surface_count, first_brush, brush_count;
} bsp_model;

typedef struct bsp_brush {
    int first_side, side_count, shader;
} bsp_brush;

typedef struct bsp_side {
    int plane, shader;
} bsp_side;

typedef struct bsp_surface {
    int shader, type, first_vert, vert_count, patch_width, patch_height;
} bsp_surface;

// One IBSP file's lumps, decoded and checked: every index below points inside its array.
typedef struct bsp_file {
    char *entities;          // the entity text, NUL-terminated
    bsp_shader *shaders;
    int shader_count;
    bsp_plane *planes;
    int plane_count;
    bsp_model *models;
    int model_count;
    bsp_brush *brushes;
    int brush_count;
    bsp_side *sides;
    int side_count;
    double *verts;           // drawvert positions, 3 per vertex, Quake units
    int vert_count;
    bsp_surface *surfaces;
    int surface_count;
} bsp_file;

bool bsp_parse(const uint8_t *data, size_t size, const char *name, bsp_file *out, char *err, size_t errsize);
void bsp_free(bsp_file *b);

// Read entry `entry` of the zip archive at `path` into a malloc'd buffer.
bool pk3_read(const char *path, const char *entry, uint8_t **out_data, size_t *out_size, char *err, size_t errsize);

// The triangle soup being built, in Quake units and axes (level.c converts it).
typedef struct level_soup {
    double *verts;           // 3 per vertex
    int vert_count, vert_capacity;
    uint32_t *indices;
    int tri_count, tri_capacity;
    uint8_t *flags;
} level_soup;

bool soup_vertex(level_soup *s, const double p[3], uint32_t *out_index);
bool soup_triangle(level_soup *s, uint32_t a, uint32_t b, uint32_t c, uint8_t flags);

// A brush's bounds (Quake units) as its faces' polygons give them; valid false for a brush with no volume.
typedef struct brush_bounds {
    double lo[3], hi[3];
    bool valid;
} brush_bounds;

// The solid brushes of model 0 as triangles (brushes.c); the bounds of the lava and slime brushes go to the
// hazards. Counts go to the level.
bool brushes_build(const bsp_file *b, level_soup *soup, level *lv, char *err, size_t errsize);
// The solid brushes of brush model `model` (> 0) as triangles, counted nowhere and with no hazards (brushes.c).
bool brushes_build_model(const bsp_file *b, int model, level_soup *soup, level *lv, char *err, size_t errsize);
// The movers of level::skipped (doors, plats, buttons, trains, bobbing, rotating, pendulums) as level::movers, the
// volumes that open them as level::mover_triggers; they and what they use are marked simulated (movers.c).
bool movers_build(const bsp_file *b, level *lv, char *err, size_t errsize);
// A door's, plat's or button's positions, speed and wait (movers_binary.c); m has its kind, origin and bounds.
void movers_binary_describe(const level_entity *e, level_mover *m);
// The binary movers' teams, what every mover uses (its "target" through trigger_relay), and the trigger volumes
// that open them (movers_binary.c). False with a message out of memory.
bool movers_binary_link(level *lv, char *err, size_t errsize);
// Recount level::skip_counts without the entities marked simulated (triggers.c).
void level_recount_skipped(level *lv);

// An entity's value for `key`, NULL without one; its number, `fallback` without one or when unreadable.
const char *level_value(const level_entity *e, const char *key);
double level_number(const level_entity *e, const char *key, double fallback);
// The solid patches of model 0 as triangles (patches.c).
bool patches_build(const bsp_file *b, level_soup *soup, level *lv, char *err, size_t errsize);
// The entity lump (entities.c): spawns, trigger_hurt hazards, skipped entities.
bool entities_parse(const bsp_file *b, level *lv, char *err, size_t errsize);
// The jump pads and teleporters whose targets exist become level::triggers (triggers.c); they and their targets
// are marked simulated and the skip counts recounted without them. False only out of memory.
bool triggers_resolve(level *lv, char *err, size_t errsize);

// Quake units and axes -> tread metres and axes (level.h).
static inline void level_to_tread(const double q[3], double out[3]) {
    out[0] = q[0] * LEVEL_UNIT;
    out[1] = q[2] * LEVEL_UNIT;
    out[2] = -q[1] * LEVEL_UNIT;
}
// Bounds in Quake axes -> bounds in tread axes (the y axis flips, so its ends swap).
static inline void level_bounds_to_tread(const double qlo[3], const double qhi[3], double lo[3], double hi[3]) {
    lo[0] = qlo[0] * LEVEL_UNIT, hi[0] = qhi[0] * LEVEL_UNIT;
    lo[1] = qlo[2] * LEVEL_UNIT, hi[1] = qhi[2] * LEVEL_UNIT;
    lo[2] = -qhi[1] * LEVEL_UNIT, hi[2] = -qlo[1] * LEVEL_UNIT;
}

bool level_add_hazard(level *lv, level_hazard_kind kind, const double lo[3], const double hi[3]);

#endif
