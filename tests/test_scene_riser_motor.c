// SPDX-License-Identifier: MIT
// The riser strategy driven through the motor (include/tread/motor.h), as the browser viewer drives a player: the
// course's stairs loaded from their scene files, "forward" held, the motor's velocity handed to the move every frame.
// The riser box is narrower than the body, and the riser looked for what stopped the body only as far ahead as the
// motion left to do: a body stopped with less than that gap (0.032 m) of motion left found nothing to climb. The
// motor takes the velocity into a wall away after each move that met one, so from then on every frame started from
// rest against the riser with one frame of acceleration (0.008 m at 60 Hz) to do, and the walker stood at the foot
// of the step for good (S1: x = 0.72 at 6 m/s; y = 0.81 at 4 m/s).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tread/motor.h"
#include "tread_scene.h"

// S1's top landing is at y = 2 and begins at x = 3.7; the feet rest the skin above it.
#define TOP_LANDING_X 4.0f      // metres: well onto the landing
#define TOP_LANDING_Y 2.0f      // metres
#define LANDING_TOLERANCE 0.02f // metres: the course's own "on the top landing" range (scenes/course/S01-stairs-up.json)
#define FLOOR_TOLERANCE 0.02f   // metres: S3's "down on the floor" range
#define MIN_GROUNDED 0.95f      // fraction of the descent's frames on ground: S3's "grounded while descending"
#define MAX_GROUNDED_DROP 0.4f  // metres in one frame ending on ground: S3's "drop per frame while grounded"

typedef struct walk {
    tread_vec3 feet;          // at the end
    tread_ground_state ground; // at the end
    float grounded_fraction;  // of the frames after the first 0.1 s until the feet first reach the floor
    float max_drop;           // largest drop along up in one frame that ended on ground, metres
} walk;

// Walk the first character of course scene `name` as a `shape` with the riser, holding `direction` at `speed` m/s
// through the motor for `seconds` at `hz`.
static walk walk_as(const char *name, tread_query_shape_type shape, tread_vec3 direction, float speed, float hz, float seconds) {
    char path[512];
    snprintf(path, sizeof path, "%s/course/%s.json", TREAD_SCENES, name);
    scene s;
    scene_error err;
    if (!scene_load(path, &s, &err)) fail_msg("%s", err.message);
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    for (int i = 0; i < s.body_count; ++i) {
        tread_body_id id;
        assert_int_equal(tread_world_add_body(w, &s.bodies[i].def, &id), TREAD_OK);
    }
    tread_character_settings settings = s.characters[0].settings;
    settings.step_strategy = TREAD_STEP_RISER;
    settings.shape = shape;
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &settings, s.characters[0].start), TREAD_OK);
    // The course scenes give no motor: its defaults, as the viewer's player gets them.
    tread_motor_settings motor = tread_motor_settings_default();
    tread_motor_state state = tread_motor_state_default();
    tread_motor_input input = tread_motor_input_default();
    input.direction = direction;
    input.speed = speed;
    tread_move_result last;
    tread_contact contacts[TREAD_MAX_MOVE_CONTACTS]; // the last move's: the motor reads what it met while moving
    tread_move_options options = tread_move_options_default();
    options.contacts = contacts;
    options.contact_capacity = TREAD_MAX_MOVE_CONTACTS;
    options.contacts_where_it_ends = false;
    bool has_last = false, descending = true;
    int counted = 0, grounded = 0;
    walk out = {0};
    float dt = 1.0f / hz;
    int frames = (int)(seconds * hz + 0.5f);
    for (int f = 0; f < frames; ++f) {
        tread_vec3 v;
        assert_int_equal(tread_motor_update(&state, &motor, &input, &ch, has_last ? &last : NULL, contacts, TREAD_MAX_MOVE_CONTACTS, dt, &v),
                         TREAD_OK);
        if (state.jumped) assert_int_equal(tread_character_suppress_snap(&ch, motor.jump_snap_suppress_time), TREAD_OK);
        float before = ch.position.y;
        assert_int_equal(tread_character_move_with(w, &ch, v, dt, &options, &last), TREAD_OK);
        has_last = true;
        bool on_ground = ch.ground.state == TREAD_GROUND_ON_GROUND;
        if (on_ground && before - ch.position.y > out.max_drop) out.max_drop = before - ch.position.y;
        if (descending && (float)(f + 1) * dt > 0.1f) {
            counted += 1;
            grounded += on_ground;
        }
        if (ch.position.y <= FLOOR_TOLERANCE) descending = false;
    }
    out.feet = ch.position;
    out.ground = ch.ground.state;
    out.grounded_fraction = counted ? (float)grounded / (float)counted : 1.0f;
    static const char *const shapes[] = {[TREAD_QUERY_CAPSULE] = "capsule", [TREAD_QUERY_SPHERE] = "sphere", [TREAD_QUERY_BOX] = "box"};
    print_message("%s %s riser through the motor at %.1f m/s, %.0f Hz: feet (%.4f, %.4f) after %.1f s, %s\n", name, shapes[shape],
                  (double)speed, (double)hz, (double)out.feet.x, (double)out.feet.y, (double)seconds, out.ground == TREAD_GROUND_ON_GROUND ? "on ground" : "not on ground");
    tread_world_destroy(w);
    scene_free(&s);
    return out;
}

static walk walk_riser(const char *name, tread_vec3 direction, float speed, float hz, float seconds) {
    return walk_as(name, TREAD_QUERY_CAPSULE, direction, speed, hz, seconds);
}

static void assert_on_top_landing(walk r) {
    assert_true(r.feet.x >= TOP_LANDING_X);
    assert_float_equal(r.feet.y, TOP_LANDING_Y, LANDING_TOLERANCE);
    assert_int_equal(r.ground, TREAD_GROUND_ON_GROUND);
}

// S1 at the motor's default 6 m/s and at the scene's 4 m/s: it stopped at the foot of the first step, and on the
// fourth.
static void test_s1_climbed_through_the_motor(void **state) {
    (void)state;
    const float speeds[] = {6.0f, 4.0f};
    for (int k = 0; k < 2; ++k) assert_on_top_landing(walk_riser("S01-stairs-up", tread_v3(1, 0, 0), speeds[k], 60.0f, 3.0f));
}

// The same at 30 and 120 Hz.
static void test_s1_climbed_through_the_motor_at_30_and_120_hz(void **state) {
    (void)state;
    const float rates[] = {30.0f, 120.0f}, speeds[] = {6.0f, 4.0f};
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k) assert_on_top_landing(walk_riser("S01-stairs-up", tread_v3(1, 0, 0), speeds[k], rates[i], 3.0f));
}

// The box body reaches farther beyond the riser box than the capsule's round bottom does.
static void test_s1_climbed_through_the_motor_as_a_box(void **state) {
    (void)state;
    const float speeds[] = {6.0f, 4.0f};
    for (int k = 0; k < 2; ++k) assert_on_top_landing(walk_as("S01-stairs-up", TREAD_QUERY_BOX, tread_v3(1, 0, 0), speeds[k], 60.0f, 3.0f));
}

// A walk starting from rest at the foot of a step wants one frame of acceleration: the riser still climbs it.
static void test_s1_climbed_at_a_slow_walk(void **state) {
    (void)state;
    assert_on_top_landing(walk_riser("S01-stairs-up", tread_v3(1, 0, 0), 0.5f, 60.0f, 12.0f));
}

// S2's 0.5 m step is above max step: the motor's walker is blocked below it, never on top.
static void test_s2_blocks_through_the_motor(void **state) {
    (void)state;
    const float rates[] = {30.0f, 60.0f, 120.0f};
    for (int i = 0; i < 3; ++i) {
        walk r = walk_riser("S02-step-too-high", tread_v3(1, 0, 0), 6.0f, rates[i], 2.0f);
        assert_true(r.feet.x <= 1.0f);
        assert_true(r.feet.y <= 0.05f);
    }
}

// S3, the stairs walked down: grounded all the way (the riser holds the body down each 0.2 m step), on the floor at
// the end.
static void test_s3_descended_through_the_motor(void **state) {
    (void)state;
    const float rates[] = {30.0f, 60.0f, 120.0f};
    for (int i = 0; i < 3; ++i) {
        walk r = walk_riser("S03-stairs-down", tread_v3(-1, 0, 0), 4.0f, rates[i], 3.0f);
        assert_float_equal(r.feet.y, 0.0f, FLOOR_TOLERANCE);
        assert_int_equal(r.ground, TREAD_GROUND_ON_GROUND);
        print_message("  grounded %.0f %% of the descent, largest grounded drop %.3f m\n", (double)(100.0f * r.grounded_fraction),
                      (double)r.max_drop);
        assert_true(r.grounded_fraction >= MIN_GROUNDED);
        assert_true(r.max_drop <= MAX_GROUNDED_DROP);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s1_climbed_through_the_motor),
        cmocka_unit_test(test_s1_climbed_through_the_motor_at_30_and_120_hz),
        cmocka_unit_test(test_s1_climbed_through_the_motor_as_a_box),
        cmocka_unit_test(test_s1_climbed_at_a_slow_walk),
        cmocka_unit_test(test_s2_blocks_through_the_motor),
        cmocka_unit_test(test_s3_descended_through_the_motor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
