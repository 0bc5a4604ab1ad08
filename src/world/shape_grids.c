// SPDX-License-Identifier: MIT
// Shape constructors for the grid shapes (tread_shape_heightfield, tread_shape_voxels), beside defs.c's box, sphere,
// capsule and mesh: they only fill the definition; tread_world_add_body() validates it (tr_heightfield_validate,
// tr_voxels_validate) and copies the arrays, as it does for a mesh.
#include "world_internal.h"

tread_shape_def tread_shape_heightfield(int count_x, int count_z, float spacing_x, float spacing_z, const float *heights,
                                        const uint8_t *holes) {
    tread_shape_def def = tread_shape_def_default();
    def.type = TREAD_SHAPE_HEIGHTFIELD;
    def.heightfield.count_x = count_x;
    def.heightfield.count_z = count_z;
    def.heightfield.spacing_x = spacing_x;
    def.heightfield.spacing_z = spacing_z;
    def.heightfield.heights = heights;
    def.heightfield.holes = holes;
    return def;
}

tread_shape_def tread_shape_voxels(int count_x, int count_y, int count_z, float cell_size, const uint8_t *solid) {
    tread_shape_def def = tread_shape_def_default();
    def.type = TREAD_SHAPE_VOXELS;
    def.voxels.count_x = count_x;
    def.voxels.count_y = count_y;
    def.voxels.count_z = count_z;
    def.voxels.cell_size = cell_size;
    def.voxels.solid = solid;
    return def;
}
