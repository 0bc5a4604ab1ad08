// SPDX-License-Identifier: MIT
/* A C99 game that builds tread from source with add_subdirectory(): a capsule character falls onto a floor. */
#include <stdio.h>
#include <tread/tread.h>

#if !defined(TREAD_VERSION_MAJOR) || !defined(TREAD_VERSION_MINOR) || !defined(TREAD_VERSION_PATCH)
#error "tread/tread.h does not define the version macros"
#endif

int main(void) {
    tread_world *world = NULL;
    tread_world_def wdef = tread_world_def_default();
    if (tread_world_create(&wdef, &world) != TREAD_OK) return 1;
    tread_body_def floor = tread_body_def_default();
    floor.shape = tread_shape_box(tread_v3(10.0f, 0.5f, 10.0f));
    floor.transform.p = tread_v3(0.0f, -0.5f, 0.0f);
    tread_body_id id;
    if (tread_world_add_body(world, &floor, &id) != TREAD_OK) return 1;

    tread_character_settings settings = tread_character_settings_default();
    tread_character character;
    if (tread_character_init(&character, &settings, tread_v3(0.0f, 1.0f, 0.0f)) != TREAD_OK) return 1;
    tread_move_result move;
    for (int i = 0; i < 120; ++i) {
        if (tread_character_move(world, &character, tread_v3(0.0f, -5.0f, 0.0f), 1.0f / 60.0f, &move) != TREAD_OK) return 1;
    }
    tread_vec3 center = tread_character_center(&character);
    printf("tread %d.%d.%d: character on ground %d, centre y %.3f\n", TREAD_VERSION_MAJOR, TREAD_VERSION_MINOR,
           TREAD_VERSION_PATCH, (int)(move.ground.state == TREAD_GROUND_ON_GROUND), (double)center.y);
    tread_world_destroy(world);
    return move.ground.state == TREAD_GROUND_ON_GROUND && center.y > 0.0f && center.y < 1.5f ? 0 : 1;
}
