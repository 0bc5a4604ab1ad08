// SPDX-License-Identifier: MIT
// What the soak (tools/soak) found, as small worlds: a teleport trusted the old ground, probes passed through
// bodies that block but are not ground, and a box buried in a heightfield was pushed sideways. (Recovery out of
// convex bodies and never into others is held by soak_sample: worlds such as 12:455 left its known list.)
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "course.h"

static tread_body_id box_on_layer(tread_world *w, tread_vec3 lo, tread_vec3 hi, uint32_t layer) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3_scale(tread_v3_sub(hi, lo), 0.5f));
    def.transform.p = tread_v3_scale(tread_v3_add(hi, lo), 0.5f);
    def.layer = layer;
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return id;
}

// Teleported 2 m up from its floor, the character forgets that floor: the next move neither snaps nor steps
// from it (it snapped 2.3 m down in the soak), it falls.
static void test_teleport_forgets_the_ground(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    s.step_down_distance = 3.0f;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
    tread_move_result res;
    for (int i = 0; i < 5; ++i) assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -1, 0), COURSE_DT, &res), TREAD_OK);
    assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
    assert_int_equal(tread_character_set_position(&ch, tread_v3(0, 2, 0)), TREAD_OK);
    assert_int_equal(ch.ground.state, TREAD_GROUND_IN_AIR);
    assert_int_equal(tread_character_move(w, &ch, tread_v3(1, -1, 0), COURSE_DT, &res), TREAD_OK);
    assert_true(ch.position.y > 1.9f); // one frame of falling, no snap to the floor 2 m below
    tread_world_destroy(w);
}

// A slab on a layer the character collides with but does not stand on (outside ground_mask) lies just below a
// ledge it walks off: stick-to-floor must not snap through it to the floor (it ended inside such bodies).
static void test_probes_stop_at_bodies_that_are_not_ground(void **state) {
    (void)state;
    tread_world *w = course_world();                                    // floor at y 0, layer 0
    box_on_layer(w, tread_v3(-5, 0, -2), tread_v3(0, 0.5f, 2), 0);       // the ledge, 0.5 m high
    box_on_layer(w, tread_v3(0, 0, -2), tread_v3(5, 0.3f, 2), 1);        // below it: a slab that is not ground
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    s.ground_mask = ~(1u << 1);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(-1, 0.5f, 0)), TREAD_OK);
    tread_move_result res;
    float lowest = INFINITY, deepest = 0.0f;
    for (int i = 0; i < 90; ++i) {
        assert_int_equal(tread_character_move(w, &ch, tread_v3(2, -1, 0), COURSE_DT, &res), TREAD_OK);
        if (ch.position.x > 0.5f) lowest = fminf(lowest, ch.position.y);
        deepest = fmaxf(deepest, course_depth(w, &ch));
    }
    assert_true(lowest >= 0.3f - 1e-3f); // on the slab's top, never through it
    assert_true(deepest <= 1e-3f);
    assert_int_not_equal(ch.ground.state, TREAD_GROUND_ON_GROUND); // the slab holds it, but is not ground
    tread_world_destroy(w);
}

// A box sunk 0.27 m into flat terrain, straddling a cell border so that one cell reaches only 0.15 m under it:
// every triangle's contact pushes it up through the surface, as deep as its bottom lies (the thin triangle's own
// axis pointed sideways, into more terrain).
static void test_heightfield_is_solid_below(void **state) {
    (void)state;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    static float heights[25];
    for (int i = 0; i < 25; ++i) heights[i] = 1.0f;
    tread_body_def def = tread_body_def_default();
    def.shape.type = TREAD_SHAPE_HEIGHTFIELD;
    def.shape.heightfield = (tread_heightfield_def){5, 5, 1.0f, 1.0f, heights, NULL};
    def.transform.p = tread_v3(-2, 0, -2);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    tread_query_shape box = tread_query_box(tread_v3(0.3f, 0.9f, 0.3f), tread_v3(0, 1, 0));
    tread_contact contacts[16];
    int count = 0;
    bool overflow = false;
    assert_int_equal(tread_world_collect_contacts(w, &box, tread_v3(1.15f, 1.0f + 0.9f - 0.27f, 0.5f), 0.0f, NULL, contacts, 16, &count,
                                                  &overflow),
                     TREAD_OK);
    assert_true(count >= 3); // the cells on both sides of the border
    for (int i = 0; i < count; ++i) {
        assert_float_equal(contacts[i].normal.y, 1.0f, 1e-5f);
        assert_float_equal(contacts[i].separation, -0.27f, 1e-4f);
    }
    tread_world_destroy(w);
}

// A mesh is a surface: a capsule teleported through a mesh floor and the mesh ceiling above it (a room's two
// quads 0.6 m apart, the capsule 1.8 m tall) pierces both, and no push at the recovery speed leads out: up and down
// cancel, and rising meets the ceiling it pierces. It jumps at once to the nearest free spot, on top of the
// ceiling (the soak's capsule stayed 0.42 m deep for good).
static void add_quad(tread_world *w, float y, float half) {
    static const uint32_t indices[6] = {0, 1, 2, 0, 2, 3};
    tread_vec3 v[4];
    v[0] = tread_v3(-half, y, -half), v[1] = tread_v3(-half, y, half), v[2] = tread_v3(half, y, half), v[3] = tread_v3(half, y, -half);
    tread_body_def def = tread_body_def_default();
    def.shape.type = TREAD_SHAPE_MESH;
    def.shape.mesh = (tread_mesh_def){v, 4, indices, 2, NULL};
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK); // (the world copies the vertices)
}

static void test_buried_through_mesh_quads_jumps_out(void **state) {
    (void)state;
    tread_world *w = course_world();
    add_quad(w, 1.0f, 3.0f);
    add_quad(w, 1.6f, 3.0f);
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0.7f, 0)), TREAD_OK);
    assert_true(course_depth(w, &ch) > 0.2f);
    tread_move_result res;
    assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -1, 0), COURSE_DT, &res), TREAD_OK);
    assert_true(course_depth(w, &ch) <= 1e-3f);
    assert_true(res.unburied > 0.0f);
    assert_true(ch.position.y >= 1.6f - 1e-3f); // on the ceiling: out up (sideways is 3.3 m), never down through the floor
    tread_world_destroy(w);
}

// A small sphere deep in a crate that rests on the floor: the crate's own push (down, its nearest face) leads
// into the floor, so it is buried; it comes out on top of the crate in one update rather than never.
static void test_buried_in_a_crate_comes_out_on_top(void **state) {
    (void)state;
    tread_world *w = course_world();
    box_on_layer(w, tread_v3(-1.2f, 0, -1.2f), tread_v3(1.2f, 1.1f, 1.2f), 0);
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    s.shape = TREAD_QUERY_SPHERE;
    s.radius = 0.2f;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0.1f, 0)), TREAD_OK);
    tread_move_result res;
    assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -1, 0), COURSE_DT, &res), TREAD_OK);
    assert_true(course_depth(w, &ch) <= 1e-3f);
    assert_true(ch.position.y >= 1.1f - 1e-3f);
    assert_true(res.unburied > 0.99f && res.unburied < 1.01f + s.skin);
    // Touching both walls of a crevice by less than a millimetre is not buried: it stays where it is.
    tread_world *v = course_world();
    box_on_layer(v, tread_v3(-1, 0, -1), tread_v3(-0.2f + 5e-4f, 2, 1), 0);
    box_on_layer(v, tread_v3(0.2f - 5e-4f, 0, -1), tread_v3(1, 2, 1), 0);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0.0f, 0)), TREAD_OK);
    assert_int_equal(tread_character_move(v, &ch, tread_v3(0, -1, 0), COURSE_DT, &res), TREAD_OK);
    assert_true(res.unburied == 0.0f);
    assert_true(fabsf(ch.position.x) < 1e-3f);
    tread_world_destroy(v);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_teleport_forgets_the_ground),
        cmocka_unit_test(test_probes_stop_at_bodies_that_are_not_ground),
        cmocka_unit_test(test_heightfield_is_solid_below),
        cmocka_unit_test(test_buried_through_mesh_quads_jumps_out),
        cmocka_unit_test(test_buried_in_a_crate_comes_out_on_top),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
