// SPDX-License-Identifier: MIT
/* Mesh, heightfield and voxel worlds: a character walks 9 m across each.
 *
 *   mesh         a bumpy ramp of 160 triangles (tread_shape_mesh over the game's arrays)
 *   heightfield  rolling hills of 41 x 9 samples 0.25 m apart (tread_shape_heightfield)
 *   voxels       stairs of 0.25 m cells, a 0.25 m step every metre (tread_shape_voxels)
 *
 * tread_world_add_body() validates and copies the arrays, so they may be freed (or be on the stack) after it.
 * The surfaces are built with tread_sin, the library's own sine, so every platform builds the same bits.
 *
 * Exits non-zero unless, on each, the character ends past x = 9 m, on ground, its feet on the surface (within 1 cm
 * of where a ray down meets it). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <tread/tread.h>

#define DT (1.0f / 60.0f)

static float ray_down(const tread_world *world, float x, float z) {
    tread_ray_hit hit;
    if (tread_world_cast_ray(world, tread_v3(x, 20.0f, z), tread_v3(0.0f, -40.0f, 0.0f), NULL, &hit) != TREAD_OK || !hit.hit)
        return NAN;
    return hit.point.y;
}

/* Drop a capsule onto the surface at x = 0.5 and walk it along +X at 3 m/s for 4 s (gravity off the ground). */
static int walk_across(const char *name, tread_world *world) {
    tread_character_settings settings = tread_character_settings_default();
    tread_character walker;
    if (tread_character_init(&walker, &settings, tread_v3(0.5f, ray_down(world, 0.5f, 0.0f) + 0.3f, 0.0f)) != TREAD_OK) return 1;
    int steps = 0;
    for (int frame = 0; frame < 240 && walker.position.x < 9.0f; ++frame) {
        float vy = walker.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : walker.velocity.y - 9.81f * DT;
        tread_move_result result;
        if (tread_character_move(world, &walker, tread_v3(3.0f, vy, 0.0f), DT, &result) != TREAD_OK) {
            fprintf(stderr, "%s: %s\n", name, tread_error_message());
            return 1;
        }
        steps += result.step_up > 0.0f;
    }
    float surface = ray_down(world, walker.position.x, walker.position.z);
    int ok = walker.position.x >= 9.0f && walker.ground.state == TREAD_GROUND_ON_GROUND && fabsf(walker.position.y - surface) < 0.01f;
    printf("%-12s feet (%.3f, %.3f), surface at %.3f, on ground %d, %d steps up: %s\n", name, (double)walker.position.x,
           (double)walker.position.y, (double)surface, walker.ground.state == TREAD_GROUND_ON_GROUND, steps, ok ? "ok" : "FAILED");
    return !ok;
}

static int add(tread_world *world, tread_shape_def shape, tread_vec3 at) {
    tread_body_def def = tread_body_def_default();
    def.shape = shape;
    def.transform.p = at;
    tread_body_id id;
    if (tread_world_add_body(world, &def, &id) == TREAD_OK) return 0;
    fprintf(stderr, "add_body: %s\n", tread_error_message());
    return 1;
}

static int mesh_world(void) {
    /* 21 x 5 vertices 0.5 m apart over x in [0, 10], z in [-1, 1]: rising 1 m in 10 with 5 cm bumps */
    enum { NX = 21, NZ = 5 };
    tread_vec3 vertices[NX * NZ];
    uint32_t indices[(NX - 1) * (NZ - 1) * 6];
    int t = 0;
    for (int j = 0; j < NZ; ++j)
        for (int i = 0; i < NX; ++i) {
            float x = 0.5f * (float)i, z = -1.0f + 0.5f * (float)j;
            vertices[j * NX + i] = tread_v3(x, 0.1f * x + 0.05f * tread_sin(2.0f * x + z), z);
        }
    for (int j = 0; j + 1 < NZ; ++j)
        for (int i = 0; i + 1 < NX; ++i) { /* two triangles per quad */
            uint32_t a = (uint32_t)(j * NX + i), b = a + 1, c = a + NX, d = c + 1;
            uint32_t quad[6] = {a, c, b, b, c, d};
            for (int k = 0; k < 6; ++k) indices[t++] = quad[k];
        }
    tread_world *world = NULL;
    if (tread_world_create(NULL, &world) != TREAD_OK) return 1;
    int failed = add(world, tread_shape_mesh(vertices, NX * NZ, indices, t / 3), tread_v3_zero()) || walk_across("mesh", world);
    tread_world_destroy(world);
    return failed;
}

static int heightfield_world(void) {
    /* 41 x 9 samples 0.25 m apart: x in [0, 10], z in [-1, 1] once placed at z = -1; hills 0.4 m high */
    enum { NX = 41, NZ = 9 };
    float heights[NX * NZ];
    for (int j = 0; j < NZ; ++j)
        for (int i = 0; i < NX; ++i) heights[j * NX + i] = 0.4f * tread_sin(0.6f * 0.25f * (float)i) + 0.02f * (float)j;
    tread_world *world = NULL;
    if (tread_world_create(NULL, &world) != TREAD_OK) return 1;
    int failed = add(world, tread_shape_heightfield(NX, NZ, 0.25f, 0.25f, heights, NULL), tread_v3(0.0f, 0.0f, -1.0f)) ||
                 walk_across("heightfield", world);
    tread_world_destroy(world);
    return failed;
}

static int voxel_world(void) {
    /* 40 x 12 x 8 cells of 0.25 m: column i is solid up to 1 + i / 4 cells, a 0.25 m step every metre */
    enum { NX = 40, NY = 12, NZ = 8 };
    uint8_t solid[NX * NY * NZ];
    for (int k = 0; k < NZ; ++k)
        for (int j = 0; j < NY; ++j)
            for (int i = 0; i < NX; ++i) solid[(k * NY + j) * NX + i] = j < 1 + i / 4;
    tread_world *world = NULL;
    if (tread_world_create(NULL, &world) != TREAD_OK) return 1;
    int failed = add(world, tread_shape_voxels(NX, NY, NZ, 0.25f, solid), tread_v3(0.0f, -0.25f, -1.0f)) ||
                 walk_across("voxels", world);
    tread_world_destroy(world);
    return failed;
}

int main(void) {
    int failed = mesh_world();
    failed |= heightfield_world();
    failed |= voxel_world();
    return failed;
}
