// SPDX-License-Identifier: MIT
// Contact-point stepping for a rigid body (include/tread/rigid_step.h), on tread's own world through the cast
// callback (tread_rigid_step_cast_backend over tread_world_backend): the contacts a physics engine would report for a
// capsule against the course's stairs, walls and ceilings, and what the step says to do; and the validation.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"

#define RADIUS 0.3f
#define HALF 0.6f
// Where a capsule of RADIUS touches the nose of a riser `rise` high at x = `face`, its bottom sphere's centre at
// height RADIUS above the feet at y = 0: the sphere's centre x, the contact's point and normal.
static tread_rigid_contact nose_contact(float face, float rise, float *out_centre_x) {
    float dy = RADIUS - rise, dx = sqrtf(RADIUS * RADIUS - dy * dy);
    *out_centre_x = face - dx;
    tread_rigid_contact c = {tread_v3(face, rise, 0), tread_v3_normalize(tread_v3(-dx, dy, 0))};
    return c;
}

typedef struct fixture {
    tread_world *world;
    tread_backend backend;
    tread_rigid_step_backend cast;
    tread_rigid_step_settings settings;
    tread_rigid_step_input input;
} fixture;

static void setup(fixture *f, tread_world *w) {
    f->world = w;
    f->backend = tread_world_backend(w);
    f->cast.backend = &f->backend;
    f->cast.filter = tread_query_filter_default();
    f->settings = tread_rigid_step_default();
    f->settings.cast = tread_rigid_step_cast_backend;
    f->settings.cast_context = &f->cast;
    f->input = tread_rigid_step_input_default();
    f->input.radius = RADIUS;
    f->input.half_height = HALF;
}

// The floor's contact under a capsule standing with its feet at (x, 0, z).
static tread_rigid_contact floor_contact(float x) {
    tread_rigid_contact c = {tread_v3(x, 0, 0), tread_v3(0, 1, 0)};
    return c;
}

static void test_defaults(void **state) {
    (void)state;
    tread_rigid_step_settings s = tread_rigid_step_default();
    assert_true(s.max_step_height == 0.4f && s.max_slope_degrees == 45.0f && s.cast == NULL);
    tread_character_settings c = tread_character_settings_default();
    assert_true(s.max_step_height == c.max_step_height && s.max_slope_degrees == c.max_slope_degrees);
    tread_rigid_step_input in = tread_rigid_step_input_default();
    assert_true(in.radius > 0.0f && in.up.y == 1.0f && in.dt > 0.0f && in.contact_count == 0);
}

static void test_validation_names_the_bad_argument(void **state) {
    (void)state;
    fixture f;
    setup(&f, course_world());
    tread_rigid_step_result r;
    assert_int_equal(tread_rigid_step(NULL, &f.input, &r), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "settings"));
    assert_int_equal(tread_rigid_step(&f.settings, NULL, &r), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, NULL), TREAD_ERR_NULL_ARGUMENT);
    tread_rigid_step_settings s = f.settings;
    s.cast = NULL;
    assert_int_equal(tread_rigid_step(&s, &f.input, &r), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "settings->cast"));
    s = f.settings;
    s.max_slope_degrees = 90.0f;
    assert_int_equal(tread_rigid_step(&s, &f.input, &r), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "max_slope_degrees"));
    s = f.settings;
    s.max_step_height = -0.1f;
    assert_int_equal(tread_rigid_step(&s, &f.input, &r), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "max_step_height"));
    tread_rigid_step_input in = f.input;
    in.contact_count = 1;
    assert_int_equal(tread_rigid_step(&f.settings, &in, &r), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "input->contacts"));
    tread_rigid_contact bad[2] = {floor_contact(0), {tread_v3(0, 0, 0), tread_v3(0, 0, 0)}};
    in.contacts = bad;
    in.contact_count = 2;
    assert_int_equal(tread_rigid_step(&f.settings, &in, &r), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "input->contacts[1].normal"));
    in = f.input;
    in.position.y = NAN;
    assert_int_equal(tread_rigid_step(&f.settings, &in, &r), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "input->position"));
    in = f.input;
    in.radius = 0.0f;
    assert_int_equal(tread_rigid_step(&f.settings, &in, &r), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "input->radius"));
    in = f.input;
    in.dt = 0.0f;
    assert_int_equal(tread_rigid_step(&f.settings, &in, &r), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "input->dt"));
    in = f.input;
    in.up = tread_v3(0, 0, 0);
    assert_int_equal(tread_rigid_step(&f.settings, &in, &r), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "input->up"));
    tread_world_destroy(f.world);
}

// Run at a 0.2 m riser at x = 1 (a deep tread): lifted by the rise plus the clearance, keeping the wished velocity; at
// S1's first riser, whose 0.3 m tread is shorter than the capsule is wide, the landing also leans on the next nose
// (0.4 m at x = 1.3), so the lift is the height where the capsule rests there. Either way the lifted capsule is free.
static void step_up_at(tread_world *w, float expected_rise) {
    fixture f;
    setup(&f, w);
    float x;
    tread_rigid_contact contacts[2] = {floor_contact(0), nose_contact(1.0f, 0.2f, &x)};
    contacts[0].point.x = x;
    f.input.contacts = contacts;
    f.input.contact_count = 2;
    f.input.position = tread_v3(x, RADIUS + HALF, 0);
    f.input.velocity = tread_v3(0.3f, -0.1f, 0); // what the riser left of the run
    f.input.wish_velocity = tread_v3(4, 0, 0);
    f.input.was_on_ground = true;
    tread_rigid_step_result r;
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_true(r.stepped);
    assert_int_equal(r.contact, 1);
    assert_float_equal(r.lift, expected_rise + f.settings.clearance, 1.0e-4f);
    assert_float_equal(r.position.y, f.input.position.y + r.lift, 1.0e-6f);
    assert_true(r.velocity.x == 4.0f && r.velocity.y == 0.0f && r.velocity.z == 0.0f);
    assert_true(r.on_ground && r.ground_normal.y > 0.999f);
    tread_query_shape shape = tread_query_capsule(HALF, RADIUS, tread_v3(0, 1, 0));
    tread_distance_result d;
    assert_int_equal(tread_world_closest(w, &shape, r.position, 0.0025f, NULL, &d), TREAD_OK);
    assert_false(d.found);
    tread_world_destroy(w);
}

static void test_steps_up_a_riser(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.2f, 1));
    step_up_at(w, 0.2f);
}

static void test_steps_up_the_first_stair_of_s1(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_stairs(w);
    // The capsule's axis probed 0.05 m past the contact point, at x = 1.05: its bottom sphere rests on the nose at
    // (1.3, 0.4), 0.25 m away horizontally.
    step_up_at(w, 0.4f + sqrtf(RADIUS * RADIUS - 0.25f * 0.25f) - RADIUS);
}

// The riser ahead (a 0.2 m riser at x = 1, a deep tread): a capsule on the floor with no contact on the riser yet, whose
// run this step (4 m/s for 1/60 s, 0.067 m) would meet it, is lifted now, so the engine's next step carries it over
// the tread instead of stopping it against the riser (the Bullet example reached S1's top 4 frames later without). A
// riser farther than that run, or a body not on the ground, waits for the contact.
static void test_steps_up_a_riser_ahead(void **state) {
    (void)state;
    fixture f;
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.2f, 1));
    setup(&f, w);
    // Its bottom sphere meets the riser's nose (1, 0.2) when its centre is at x = 1 - sqrt(0.3^2 - 0.1^2) = 0.717.
    tread_rigid_contact contacts[1] = {floor_contact(0.68f)};
    f.input.contacts = contacts;
    f.input.contact_count = 1;
    f.input.position = tread_v3(0.68f, RADIUS + HALF, 0);
    f.input.velocity = f.input.wish_velocity = tread_v3(4, 0, 0);
    f.input.dt = 1.0f / 60.0f;
    f.input.was_on_ground = true;
    tread_rigid_step_result r;
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_true(r.stepped && r.on_ground);
    assert_int_equal(r.contact, -1);
    assert_float_equal(r.lift, 0.2f + f.settings.clearance, 1.0e-4f);
    assert_true(r.velocity.x == 4.0f && r.velocity.y == 0.0f);

    f.input.position.x = contacts[0].point.x = 0.6f; // 0.117 m short of the nose: more than this step's run
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_false(r.stepped);
    f.input.position.x = 0.68f;
    f.input.contact_count = 0; // in the air
    f.input.was_on_ground = false;
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_false(r.stepped);
    tread_world_destroy(w);
}

// The frame after that lift: the capsule is over the floor short of the riser, touching nothing, its feet level with
// the tread. Cast down, it would come to rest on the riser's nose (1, 0.2) 0.25 m ahead, leaning on it 56 degrees
// from up: not ground it could stand on, so it is not lowered there (which undid the lift, the riser's top face
// under that nose being flat), and the next steps carry it onto the tread.
static void test_not_lowered_onto_a_nose_too_steep(void **state) {
    (void)state;
    fixture f;
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.2f, 1));
    setup(&f, w);
    f.input.position = tread_v3(0.75f, 0.205f + RADIUS + HALF, 0);
    f.input.velocity = f.input.wish_velocity = tread_v3(4, 0, 0);
    f.input.was_on_ground = true;
    tread_rigid_step_result r;
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_false(r.stepped);
    assert_false(r.on_ground);
    tread_world_destroy(w);
}

// S2's 0.5 m step: too high. The capsule's side touches the riser at its equator (0.3 m above the feet, below the max
// step), but no walkable tread lies within 0.4 m: nothing happens.
static void test_does_not_climb_a_step_too_high(void **state) {
    (void)state;
    fixture f;
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.5f, 1));
    setup(&f, w);
    tread_rigid_contact contacts[2] = {floor_contact(0.7f), {tread_v3(1, RADIUS, 0), tread_v3(-1, 0, 0)}};
    f.input.contacts = contacts;
    f.input.contact_count = 2;
    f.input.position = tread_v3(1.0f - RADIUS, RADIUS + HALF, 0);
    f.input.wish_velocity = tread_v3(4, 0, 0);
    tread_rigid_step_result r;
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_false(r.stepped);
    assert_true(r.lift == 0.0f && r.on_ground && r.contact == -1);
    tread_world_destroy(w);
}

// A wall the body slides along, and a riser it walks away from, are not steps.
static void test_does_not_step_along_or_away(void **state) {
    (void)state;
    fixture f;
    tread_world *w = course_world();
    course_stairs(w);
    setup(&f, w);
    float x;
    tread_rigid_contact contacts[2] = {floor_contact(0), nose_contact(1.0f, 0.2f, &x)};
    f.input.contacts = contacts;
    f.input.contact_count = 2;
    f.input.position = tread_v3(x, RADIUS + HALF, 0);
    const tread_vec3 wishes[3] = {{0, 0, 4}, {-4, 0, 0}, {0, 0, 0}};
    for (int k = 0; k < 3; ++k) {
        f.input.wish_velocity = wishes[k];
        tread_rigid_step_result r;
        assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
        assert_false(r.stepped);
    }
    tread_world_destroy(w);
}

// S10: a 0.3 m step under a ceiling 1.95 m up leaves no room for a 1.8 m capsule: the headroom cast stops the lift.
static void test_low_ceiling_stops_the_step(void **state) {
    (void)state;
    fixture f;
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.3f, 1));
    course_box(w, tread_v3(0.5f, 1.95f, -1), tread_v3(8, 2.5f, 1));
    setup(&f, w);
    float x;
    tread_rigid_contact contacts[2] = {floor_contact(0), nose_contact(1.0f, 0.25f, &x)};
    contacts[1].point.y = 0.3f - 0.05f; // the riser's face, near its nose
    f.input.contacts = contacts;
    f.input.contact_count = 2;
    f.input.position = tread_v3(x, RADIUS + HALF, 0);
    f.input.wish_velocity = tread_v3(4, 0, 0);
    tread_rigid_step_result r;
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_false(r.stepped);
    tread_world_destroy(w);
}

// S3 going down: off a tread with nothing below the capsule but the next tread 0.2 m down: lowered onto it, vertical
// velocity dropped. Off a ledge higher than the max step: left to fall.
static void test_steps_down_a_stair_and_not_off_a_ledge(void **state) {
    (void)state;
    fixture f;
    tread_world *w = course_world();
    course_stairs(w);
    setup(&f, w);
    // Feet 1.18 m up at x = 2.05, over the tread 0.8 m up (x in [1.9, 2.2]), just off the one 1.2 m up: the capsule
    // comes to rest on the nose of the one 1.0 m up at (2.2, 1.0), 0.15 m away horizontally.
    f.input.position = tread_v3(2.05f, 1.18f + RADIUS + HALF, 0);
    f.input.velocity = tread_v3(-4, -0.3f, 0);
    f.input.wish_velocity = tread_v3(-4, 0, 0);
    f.input.was_on_ground = true;
    tread_rigid_step_result r;
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_true(r.stepped && r.on_ground);
    assert_float_equal(r.lift, 1.0f + sqrtf(RADIUS * RADIUS - 0.15f * 0.15f) - RADIUS - 1.18f, 1.0e-4f);
    assert_true(r.velocity.x == -4.0f && r.velocity.y == 0.0f);
    f.input.was_on_ground = false; // in the air already (a jump): not pulled down
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_false(r.stepped);
    tread_world_destroy(w);

    w = course_world();
    course_box(w, tread_v3(-2, 0, -2), tread_v3(2, 1.0f, 2)); // a 1 m ledge
    setup(&f, w);
    f.input.position = tread_v3(2.4f, 0.98f + RADIUS + HALF, 0);
    f.input.velocity = tread_v3(4, -0.3f, 0);
    f.input.wish_velocity = tread_v3(4, 0, 0);
    f.input.was_on_ground = true;
    assert_int_equal(tread_rigid_step(&f.settings, &f.input, &r), TREAD_OK);
    assert_false(r.stepped);
    assert_false(r.on_ground);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_validation_names_the_bad_argument),
        cmocka_unit_test(test_steps_up_a_riser),
        cmocka_unit_test(test_steps_up_the_first_stair_of_s1),
        cmocka_unit_test(test_steps_up_a_riser_ahead),
        cmocka_unit_test(test_not_lowered_onto_a_nose_too_steep),
        cmocka_unit_test(test_does_not_climb_a_step_too_high),
        cmocka_unit_test(test_does_not_step_along_or_away),
        cmocka_unit_test(test_low_ceiling_stops_the_step),
        cmocka_unit_test(test_steps_down_a_stair_and_not_off_a_ledge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
