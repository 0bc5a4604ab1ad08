// SPDX-License-Identifier: MIT
// Voxel grid shape: dense solid cells of edge cell_size (Staxel's voxel worlds). Rays use a 3D DDA; capsules test
// the solid cells in the cast's footprint as boxes. Only exposed surfaces count: a contact on a cell edge or
// corner shared with solid neighbours (a flat voxel floor's seams) takes the exposed face's normal.
// feature = cell index (k * count_y + j) * count_x + i.
#ifndef TREAD_VOXELS_H
#define TREAD_VOXELS_H

#include "shape.h"

typedef struct tr_voxels {
    uint8_t *solid; // count_x * count_y * count_z, nonzero = solid
    int count_x, count_y, count_z;
    float cell_size;
    tread_aabb bounds; // local
} tr_voxels;

tread_result tr_voxels_validate(const tread_voxels_def *def);
tread_result tr_voxels_create(tr_voxels *vox, const tread_voxels_def *def);
void tr_voxels_destroy(tr_voxels *vox);
void tr_voxels_cast(const tr_voxels *vox, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx);
// The same for any query (capsule or box; d unused).
void tr_voxels_query_contacts(const tr_voxels *vox, const tr_cast *q, float margin, tr_contact_fn *fn, void *ctx);

#endif
