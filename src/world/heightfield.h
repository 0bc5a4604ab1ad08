// SPDX-License-Identifier: MIT
// Heightfield shape: a grid of heights over the local XZ plane, up = local +Y, optional per-cell holes.
// Queried directly, cell by cell (2D DDA for rays; the cast's footprint for capsules), never expanded into
// a triangle mesh. Cell (i, j) is split along the diagonal from sample (i, j) to (i+1, j+1) into triangle
// 2 * (j * (count_x - 1) + i) and the next index. Edge activity comes from the neighbouring heights.
#ifndef TREAD_HEIGHTFIELD_H
#define TREAD_HEIGHTFIELD_H

#include "shape.h"

typedef struct tr_heightfield {
    float *heights; // count_x * count_z
    uint8_t *holes; // (count_x - 1) * (count_z - 1), or NULL
    int count_x, count_z;
    float spacing_x, spacing_z;
    float min_height, max_height;
    tread_aabb bounds; // local
} tr_heightfield;

tread_result tr_heightfield_validate(const tread_heightfield_def *def);
tread_result tr_heightfield_create(tr_heightfield *hf, const tread_heightfield_def *def);
void tr_heightfield_destroy(tr_heightfield *hf);
void tr_heightfield_cast(const tr_heightfield *hf, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx);
// The same for any query (capsule or box; d unused).
void tr_heightfield_query_contacts(const tr_heightfield *hf, const tr_cast *q, float margin, tr_contact_fn *fn, void *ctx);

#endif
