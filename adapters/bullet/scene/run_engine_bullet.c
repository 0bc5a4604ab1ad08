// SPDX-License-Identifier: MIT
// The scene runner's Bullet engine: every body of the scene added to the adapter in the scene's order (so the adapter's
// ids are tread's world's, which the runner's sensor events and impulses are mapped back with), and each frame the
// bodies tread's world moved (paths, dynamic bodies) placed where the world put them, with the same motion.
#include <stdio.h>

#include "run_engine_bullet.h"
#include "tread_bullet.h"

static void *bullet_create(const scene *s, const tread_body_id *ids, char *message, size_t size) {
    tread_bullet_world *w = NULL;
    if (tread_bullet_world_create(&w) != TREAD_OK) return snprintf(message, size, "bullet: out of memory"), NULL;
    for (int i = 0; i < s->body_count; ++i) {
        tread_body_def def = s->bodies[i].def;
        def.user_data = (void *)(intptr_t)(i + 1); // as the runner's world has it
        tread_body_id id;
        tread_result r = tread_bullet_add_body(w, &def, &id);
        if (r != TREAD_OK || !tread_body_id_equal(id, ids[i])) {
            snprintf(message, size, "%s: bodies[%d]: %s", s->path, i,
                     r == TREAD_ERR_INVALID_SHAPE ? "the Bullet adapter has no voxel shape"
                     : r != TREAD_OK              ? tread_result_name(r)
                                                  : "the Bullet adapter's id differs from tread's world's");
            tread_bullet_world_destroy(w);
            return NULL;
        }
    }
    return w;
}

static bool bullet_follow(void *self, const scene *s, const tread_world *world, const tread_body_id *ids, char *message, size_t size) {
    for (int i = 0; i < s->body_count; ++i) {
        if (!scene_body_moves(&s->bodies[i])) continue;
        tread_transform previous, current;
        tread_vec3 linear, angular;
        if (tread_body_get_motion(world, ids[i], &previous, &current) != TREAD_OK ||
            tread_body_get_velocity(world, ids[i], &linear, &angular) != TREAD_OK ||
            tread_bullet_set_motion((tread_bullet_world *)self, ids[i], previous, current, linear, angular) != TREAD_OK) {
            snprintf(message, size, "bullet: bodies[%d]: could not follow its motion: %s", i, tread_error_message());
            return false;
        }
    }
    return true;
}

static tread_backend bullet_backend(void *self) { return tread_bullet_backend((tread_bullet_world *)self); }

static void bullet_destroy(void *self) { tread_bullet_world_destroy((tread_bullet_world *)self); }

static const char *bullet_cannot_build(const scene *s) {
    for (int i = 0; i < s->body_count; ++i)
        if (s->bodies[i].def.shape.type == TREAD_SHAPE_VOXELS) return "a voxel body (Bullet has no voxel shape)";
    return NULL;
}

const run_engine run_engine_bullet = {"bullet", bullet_create, bullet_follow, bullet_backend, bullet_destroy, bullet_cannot_build};
