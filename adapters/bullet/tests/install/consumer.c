// SPDX-License-Identifier: MIT
/* A game on the installed Bullet adapter: a floor in a btCollisionWorld the adapter owns, and a capsule character
 * dropped onto it through tread's query backend. Exits non-zero unless it lands. */
#include <stdio.h>
#include <tread/backend.h>
#include <tread/tread.h>
#include <tread_bullet.h>

int main(void) {
    tread_bullet_world *world = NULL;
    if (tread_bullet_world_create(&world) != TREAD_OK) return 1;
    tread_body_def floor = tread_body_def_default();
    floor.shape = tread_shape_box(tread_v3(10.0f, 0.5f, 10.0f));
    floor.transform.p = tread_v3(0.0f, -0.5f, 0.0f); /* top at y = 0 */
    tread_body_id id;
    if (tread_bullet_add_body(world, &floor, &id) != TREAD_OK) return 1;
    tread_backend backend = tread_bullet_backend(world);

    tread_character_settings settings = tread_character_settings_default();
    tread_character character;
    if (tread_character_init(&character, &settings, tread_v3(0.0f, 1.0f, 0.0f)) != TREAD_OK) return 1;
    tread_move_result move;
    for (int i = 0; i < 60; ++i)
        if (tread_character_move_on(&backend, &character, tread_v3(0.0f, -5.0f, 0.0f), 1.0f / 60.0f, &move) != TREAD_OK) {
            fprintf(stderr, "move: %s\n", tread_error_message());
            return 1;
        }
    int landed = move.ground.state == TREAD_GROUND_ON_GROUND && character.position.y < 0.01f;
    printf("tread on Bullet (installed): landed %d, feet at y %.4f\n", landed, (double)character.position.y);
    tread_bullet_world_destroy(world);
    return landed ? 0 : 1;
}
