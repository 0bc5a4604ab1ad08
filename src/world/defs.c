// SPDX-License-Identifier: MIT
// Definitions with their documented defaults: the world's, a body's, shapes (tread_shape_*) and rotations.
#include "world_internal.h"

#include <string.h>

tread_world_def tread_world_def_default(void) {
    tread_world_def def;
    def.body_capacity = 64;
    def.internal_cookie = TR_COOKIE;
    return def;
}

tread_shape_def tread_shape_def_default(void) {
    tread_shape_def def;
    memset(&def, 0, sizeof def);
    def.type = TREAD_SHAPE_BOX;
    def.radius = 0.5f;
    def.half_height = 0.5f;
    def.half_extents = tread_v3(0.5f, 0.5f, 0.5f);
    def.heightfield.spacing_x = 1.0f;
    def.heightfield.spacing_z = 1.0f;
    def.voxels.cell_size = 1.0f;
    def.internal_cookie = TR_COOKIE;
    return def;
}

tread_body_def tread_body_def_default(void) {
    tread_body_def def;
    memset(&def, 0, sizeof def);
    def.type = TREAD_BODY_STATIC;
    def.shape = tread_shape_def_default();
    def.transform = tread_transform_identity();
    def.internal_cookie = TR_COOKIE;
    return def;
}

tread_shape_def tread_shape_sphere(float radius) {
    tread_shape_def def = tread_shape_def_default();
    def.type = TREAD_SHAPE_SPHERE;
    def.radius = radius;
    return def;
}

tread_shape_def tread_shape_capsule(float half_height, float radius) {
    tread_shape_def def = tread_shape_def_default();
    def.type = TREAD_SHAPE_CAPSULE;
    def.half_height = half_height;
    def.radius = radius;
    return def;
}

tread_shape_def tread_shape_box(tread_vec3 half_extents) {
    tread_shape_def def = tread_shape_def_default();
    def.half_extents = half_extents;
    return def;
}

tread_shape_def tread_shape_mesh(const tread_vec3 *vertices, int vertex_count, const uint32_t *indices, int triangle_count) {
    tread_shape_def def = tread_shape_def_default();
    def.type = TREAD_SHAPE_MESH;
    def.mesh.vertices = vertices;
    def.mesh.vertex_count = vertex_count;
    def.mesh.indices = indices;
    def.mesh.triangle_count = triangle_count;
    return def;
}

tread_quat tread_quat_from_axis_angle(tread_vec3 axis, float angle_radians) {
    tread_vec3 n = tread_v3_normalize(axis);
    double s, c; // the project's own sine and cosine (trig.c): the same rotation on every platform
    tr_sincosf(0.5f * angle_radians, &s, &c);
    tread_quat q = {(float)(n.x * s), (float)(n.y * s), (float)(n.z * s), (float)c};
    return q;
}

