// SPDX-License-Identifier: MIT
/* tread demo: builds the course's stairs (S1 of docs/COURSE.md) as boxes and prints what the
 * collision world answers: a ray down onto each step, a capsule cast walking into the stairs, the contacts
 * of a capsule resting on the floor, and the closest surface. A first look at the queries a character is moved
 * with; the other programs in examples/ show one feature each (docs/EXAMPLES.md), and `tread run` runs whole
 * scenes (docs/SCENES.md). */
#include <stdio.h>
#include <tread/tread.h>

static int check(tread_result r, const char *what) {
    if (r == TREAD_OK) return 0;
    fprintf(stderr, "tread_demo: %s failed: %s\n", what, tread_error_message());
    return 1;
}

static void add_box(tread_world *world, tread_vec3 min, tread_vec3 max) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3_scale(tread_v3_sub(max, min), 0.5f));
    def.transform.p = tread_v3_scale(tread_v3_add(min, max), 0.5f);
    tread_body_id id;
    check(tread_world_add_body(world, &def, &id), "add_body");
}

int main(void) {
    tread_world *world = NULL;
    if (check(tread_world_create(NULL, &world), "world_create")) return 1;
    add_box(world, tread_v3(-50, -1, -50), tread_v3(50, 0, 50)); /* shared floor */
    for (int i = 0; i < 10; ++i) /* S1: rise 0.2, tread 0.3 */
        add_box(world, tread_v3(1.0f + 0.3f * (float)i, 0, -1), tread_v3(20, 0.2f * (float)(i + 1), 1));
    printf("world: %d bodies (floor + 10 steps)\n", tread_world_body_count(world));

    printf("\nray down at x:   ");
    for (int i = 0; i < 12; ++i) {
        float x = 0.85f + 0.3f * (float)i;
        tread_ray_hit hit;
        if (check(tread_world_cast_ray(world, tread_v3(x, 5, 0), tread_v3(0, -10, 0), NULL, &hit), "cast_ray")) return 1;
        printf("%.2f->y=%.2f  ", (double)x, (double)hit.point.y);
    }

    tread_query_shape capsule = tread_query_capsule(0.6f, 0.3f, tread_v3(0, 1, 0));
    tread_vec3 start = tread_v3(0, 0.9f + 0.01f, 0); /* centre: feet 1 cm above the floor */
    tread_shape_hit hit;
    if (check(tread_world_cast_shape(world, &capsule, start, tread_v3(3, 0, 0), NULL, &hit), "cast_shape")) return 1;
    printf("\n\ncapsule walking +X 3 m from x=0: hits at fraction %.4f (x=%.4f)\n", (double)hit.fraction,
           (double)(start.x + 3.0f * hit.fraction));
    printf("  contact point (%.3f, %.3f, %.3f), contact normal (%.3f, %.3f, %.3f), surface normal (%.3f, %.3f, %.3f)\n",
           (double)hit.point.x, (double)hit.point.y, (double)hit.point.z, (double)hit.normal.x, (double)hit.normal.y,
           (double)hit.normal.z, (double)hit.surface_normal.x, (double)hit.surface_normal.y, (double)hit.surface_normal.z);

    tread_contact contacts[8];
    int count = 0;
    bool overflow = false;
    tread_vec3 on_step = tread_v3(1.15f, 0.2f + 0.9f, 0); /* standing on step 0's edge region */
    if (check(tread_world_collect_contacts(world, &capsule, on_step, 0.05f, NULL, contacts, 8, &count, &overflow), "contacts")) return 1;
    printf("\ncontacts of a capsule standing on step 0 (margin 5 cm): %d%s\n", count, overflow ? " (overflow)" : "");
    for (int i = 0; i < count; ++i)
        printf("  body %u separation %+.4f normal (%.3f, %.3f, %.3f)\n", contacts[i].body.index, (double)contacts[i].separation,
               (double)contacts[i].normal.x, (double)contacts[i].normal.y, (double)contacts[i].normal.z);

    tread_distance_result near;
    if (check(tread_world_closest(world, &capsule, tread_v3(0.5f, 1.5f, 0), 2.0f, NULL, &near), "closest")) return 1;
    printf("\nclosest surface to a capsule at (0.5, 1.5, 0): %.4f m (body %u)\n", (double)near.distance, near.body.index);

    tread_body_def bad = tread_body_def_default();
    bad.shape = tread_shape_box(tread_v3(1, -1, 1));
    tread_body_id id;
    tread_result r = tread_world_add_body(world, &bad, &id);
    printf("\nbad input is refused: %s\n  %s\n", tread_result_name(r), tread_error_message());
    tread_world_destroy(world);
    return 0;
}
