// SPDX-License-Identifier: MIT
/* A tiny outside program (C99) that uses the installed tread: one box, one ray. */
#include <stdio.h>
#include <tread/tread.h>

int main(void) {
    tread_world *world = NULL;
    tread_world_def wdef = tread_world_def_default();
    if (tread_world_create(&wdef, &world) != TREAD_OK) return 1;
    tread_body_def body = tread_body_def_default();
    body.shape = tread_shape_box(tread_v3(1.0f, 1.0f, 1.0f));
    tread_body_id id;
    if (tread_world_add_body(world, &body, &id) != TREAD_OK) return 1;
    tread_ray_hit hit;
    if (tread_world_cast_ray(world, tread_v3(0.0f, 5.0f, 0.0f), tread_v3(0.0f, -10.0f, 0.0f), NULL, &hit) != TREAD_OK) return 1;
    printf("hit %d at fraction %.3f\n", hit.hit, (double)hit.fraction);
    tread_world_destroy(world);
    return hit.hit && hit.fraction > 0.39f && hit.fraction < 0.41f ? 0 : 1;
}
