// SPDX-License-Identifier: MIT
// A tiny IBSP writer for the level importer's tests (test_levels*.c): axis-aligned box brushes, one patch, an entity
// text, and brush models after the world's; no game data.
#ifndef LEVEL_BUILDER_H
#define LEVEL_BUILDER_H

#include <stddef.h>
#include <stdint.h>

enum { SH_SOLID, SH_LAVA, SH_CLIP, SH_PATCH, SH_PATCH_NONSOLID, SH_COUNT };

typedef struct box_brush {
    double lo[3], hi[3];
    int shader;
} box_brush;

// A control grid of w x h points (Quake units) as one patch surface.
typedef struct patch_def {
    int w, h, shader;
    double pts[25][3];
} patch_def;

// A brush model after the world's: its bounds (Quake units, its own frame) and how many of the boxes are its.
typedef struct model_def {
    double bounds[6];
    int boxes;
} model_def;

// The last this many boxes given to build() are brush model 1's (a mover's), not the world's.
extern int model1_boxes;

// The world's boxes first, then each model's in turn; a malloc'd file of *out_size bytes.
uint8_t *build_models(const box_brush *boxes, int box_count, const patch_def *patch, const char *entities, const model_def *models,
                      int model_count, size_t *out_size);
// One brush model (model1 its bounds, the last model1_boxes boxes), or none for NULL.
uint8_t *build(const box_brush *boxes, int box_count, const patch_def *patch, const char *entities, double model1[6], size_t *out_size);
uint8_t *build_boxes(const box_brush *boxes, int count, size_t *size);
// The same file written to `path` (the test fails when it cannot be).
void write_models_file(const char *path, const box_brush *boxes, int box_count, const char *entities, const model_def *models, int model_count);

#endif
