// SPDX-License-Identifier: MIT
/* The game of the two CMake consumers (add_subdirectory/ and fetchcontent/): a capsule dropped onto a floor must
 * come to rest on it. Exits non-zero otherwise, so the ctests that build these projects fail with it. */
#include <stdio.h>
#include <tread/tread.h>

int main(void) {
    tread_world *world = NULL;
    if (tread_world_create(NULL, &world) != TREAD_OK) return 1;
    tread_body_def floor = tread_body_def_default();
    floor.shape = tread_shape_box(tread_v3(10.0f, 0.5f, 10.0f));
    floor.transform.p = tread_v3(0.0f, -0.5f, 0.0f); /* top at y = 0 */
    tread_body_id id;
    if (tread_world_add_body(world, &floor, &id) != TREAD_OK) return 1;

    tread_character_settings settings = tread_character_settings_default();
    tread_character character;
    if (tread_character_init(&character, &settings, tread_v3(0.0f, 1.0f, 0.0f)) != TREAD_OK) return 1;
    tread_move_result move;
    for (int i = 0; i < 60; ++i) /* falling at 5 m/s for a second: it lands after 0.2 s */
        if (tread_character_move(world, &character, tread_v3(0.0f, -5.0f, 0.0f), 1.0f / 60.0f, &move) != TREAD_OK) return 1;
    tread_version_info v = tread_version();
    int landed = move.ground.state == TREAD_GROUND_ON_GROUND && character.position.y < 0.01f;
    printf("tread %d.%d.%d: landed %d, feet at y %.4f\n", v.major, v.minor, v.patch, landed, (double)character.position.y);
    tread_world_destroy(world);
    return landed ? 0 : 1;
}
