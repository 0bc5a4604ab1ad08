// SPDX-License-Identifier: MIT
// Riding moving bodies (the controller's side of the moving-worlds issue): the update carries a character by its
// ground's change of transform over the frame, the result reports the ground's turn, and the motor works in the
// ground's frame. Each test would fail on the controller that integrated the ground's point velocity in a straight
// line and a motor that accelerated toward the wish in the world frame.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"
#include "tread/motor.h"

// A kinematic box platform: top face at y = top, centred at (x, z), half extents (hx, hz), 0.25 m thick.
static tread_body_id platform(tread_world *w, float x, float z, float top, float hx, float hz) {
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_KINEMATIC;
    def.shape = tread_shape_box(tread_v3(hx, 0.125f, hz));
    def.transform.p = tread_v3(x, top - 0.125f, z);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return id;
}

// A world with no floor: only what the test adds.
static tread_world *empty_world(void) {
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    return w;
}

// Where a point fixed to the body at `local` (body frame) is now.
static tread_vec3 body_point(const tread_world *w, tread_body_id b, tread_vec3 local) {
    tread_transform t;
    assert_int_equal(tread_body_get_transform(w, b, &t), TREAD_OK);
    return tread_v3_add(t.p, tread_quat_rotate(t.q, local));
}

static tread_vec3 body_local(const tread_world *w, tread_body_id b, tread_vec3 point) {
    tread_transform t;
    assert_int_equal(tread_body_get_transform(w, b, &t), TREAD_OK);
    tread_quat inv = {-t.q.x, -t.q.y, -t.q.z, t.q.w};
    return tread_quat_rotate(inv, tread_v3_sub(point, t.p));
}

// The disc: turning at 1 rad/s about up, a rider standing 4 m from its centre with no input, through the
// update alone (the game loop: advance, then move). After 20 s it is within 1 mm of the point of the disc it stood
// on, at 30, 60 and 240 Hz, and each frame's result reports the disc's turn as its yaw.
static void test_disc_rider_stays_on_its_spot(void **state) {
    (void)state;
    const int rates[] = {30, 60, 240};
    for (int k = 0; k < 3; ++k) {
        tread_world *w = empty_world();
        tread_body_id disc = platform(w, 0, 0, 0.5f, 6, 6);
        assert_int_equal(tread_body_set_velocity(w, disc, tread_v3_zero(), tread_v3(0, 1, 0)), TREAD_OK);
        tread_character ch;
        tread_character_settings s = tread_character_settings_default();
        assert_int_equal(tread_character_init(&ch, &s, tread_v3(4, 0.51f, 0)), TREAD_OK);
        float dt = 1.0f / (float)rates[k];
        tread_move_result res;
        for (int i = 0; i < 30; ++i) assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -1, 0), dt, &res), TREAD_OK); // settle
        assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
        tread_vec3 spot = body_local(w, disc, ch.position);
        float worst_yaw_error = 0.0f;
        for (int i = 0; i < 20 * rates[k]; ++i) {
            assert_int_equal(tread_world_advance(w, dt), TREAD_OK);
            assert_int_equal(tread_character_move(w, &ch, tread_v3_zero(), dt, &res), TREAD_OK);
            assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
            worst_yaw_error = fmaxf(worst_yaw_error, fabsf(res.ground_yaw - dt));
        }
        float off = tread_v3_distance(ch.position, body_point(w, disc, spot));
        print_message("disc rider at %d Hz: %.2g m off its spot after 20 s, yaw error %.2g rad a frame\n", rates[k], (double)off,
                      (double)worst_yaw_error);
        assert_true(off <= 1e-3f);
        assert_true(worst_yaw_error <= 1e-6f);
        assert_float_equal(res.ground_turn.y, tread_sin(0.5f * dt), 1e-6f);
        tread_world_destroy(w);
    }
}

// A lift going up and down at 1..5 m/s, starting, stopping and reversing at once: the rider is grounded every frame
// and never more than 1 mm inside the lift (a lift starting at 3 m/s sank its rider 16.7 mm for one frame).
static void test_lift_rider_never_sinks(void **state) {
    (void)state;
    const float speeds[] = {1, 3, 5};
    for (int k = 0; k < 3; ++k) {
        tread_world *w = empty_world();
        tread_body_id lift = platform(w, 0, 0, 0.0f, 2, 2);
        tread_character ch;
        tread_character_settings s = tread_character_settings_default();
        assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0.01f, 0)), TREAD_OK);
        tread_move_result res;
        for (int i = 0; i < 10; ++i) assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -1, 0), COURSE_DT, &res), TREAD_OK);
        float worst = 0.0f;
        int airborne = 0;
        // Up for 1 s, stop for 0.5 s, down for 1 s, up again at once (a reversal), stop.
        const float phases[][2] = {{1, 1}, {0, 0.5f}, {-1, 1}, {1, 0.5f}, {0, 0.5f}};
        for (int p = 0; p < 5; ++p) {
            assert_int_equal(tread_body_set_velocity(w, lift, tread_v3(0, phases[p][0] * speeds[k], 0), tread_v3_zero()), TREAD_OK);
            for (int i = 0; i < (int)(phases[p][1] / COURSE_DT + 0.5f); ++i) {
                assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
                assert_int_equal(tread_character_move(w, &ch, tread_v3_zero(), COURSE_DT, &res), TREAD_OK);
                airborne += ch.ground.state != TREAD_GROUND_ON_GROUND;
                worst = fmaxf(worst, course_depth(w, &ch));
            }
        }
        print_message("lift at %.0f m/s: deepest %.2g m, %d frames off the ground\n", (double)speeds[k], (double)worst, airborne);
        assert_int_equal(airborne, 0);
        assert_true(worst <= 1e-3f);
        tread_world_destroy(w);
    }
}

// ---- the motor in the ground's frame ------------------------------------------------------------------------

typedef struct rider {
    tread_world *w;
    tread_body_id platform;
    tread_character ch;
    tread_motor_settings s;
    tread_motor_state m;
    tread_move_result last;
    tread_contact contacts[TREAD_MAX_MOVE_CONTACTS]; // the last move's buffer: the motor reads what it met while moving
    bool has_last;
} rider;

static void rider_init(rider *x, float dt) {
    memset(x, 0, sizeof *x);
    x->w = course_world();
    x->platform = platform(x->w, 0, 0, 0.5f, 8, 3);
    tread_character_settings cs = tread_character_settings_default();
    assert_int_equal(tread_character_init(&x->ch, &cs, tread_v3(0, 0.51f, 0)), TREAD_OK);
    x->s = tread_motor_settings_default();
    x->m = tread_motor_state_default();
    assert_int_equal(tread_character_move(x->w, &x->ch, tread_v3(0, -1, 0), dt, &x->last), TREAD_OK);
}

static void rider_step(rider *x, const tread_motor_input *in, float dt) {
    tread_vec3 v;
    assert_int_equal(tread_world_advance(x->w, dt), TREAD_OK);
    assert_int_equal(tread_motor_update(&x->m, &x->s, in, &x->ch, x->has_last ? &x->last : NULL, x->contacts, TREAD_MAX_MOVE_CONTACTS, dt, &v),
                     TREAD_OK);
    if (x->m.jumped) assert_int_equal(tread_character_suppress_snap(&x->ch, x->s.jump_snap_suppress_time), TREAD_OK);
    tread_move_options o = tread_move_options_default();
    o.contacts = x->contacts;
    o.contact_capacity = TREAD_MAX_MOVE_CONTACTS;
    o.contacts_where_it_ends = false;
    assert_int_equal(tread_character_move_with(x->w, &x->ch, v, dt, &o, &x->last), TREAD_OK);
    x->has_last = true;
}

// A rider with no input stays on its spot of the platform (slip <= 1 mm) while the platform starts at 3 m/s at once,
// stops, and reverses (the motor accelerated toward the input in the world frame: the rider slipped 0.15-0.23 m).
static void test_idle_rider_does_not_slip(void **state) {
    (void)state;
    const float rates[] = {30, 60};
    for (int k = 0; k < 2; ++k) {
        float dt = 1.0f / rates[k];
        rider x;
        rider_init(&x, dt);
        tread_motor_input idle = tread_motor_input_default();
        for (int i = 0; i < 10; ++i) rider_step(&x, &idle, dt);
        tread_vec3 spot = body_local(x.w, x.platform, x.ch.position);
        const float velocities[] = {3, 0, -3, 3, 0};
        float worst = 0.0f;
        for (int p = 0; p < 5; ++p) {
            assert_int_equal(tread_body_set_velocity(x.w, x.platform, tread_v3(velocities[p], 0, 0), tread_v3_zero()), TREAD_OK);
            for (int i = 0; i < (int)(0.6f / dt); ++i) {
                rider_step(&x, &idle, dt);
                worst = fmaxf(worst, tread_v3_distance(x.ch.position, body_point(x.w, x.platform, spot)));
            }
        }
        print_message("idle rider at %.0f Hz: slipped at most %.2g m\n", (double)rates[k], (double)worst);
        assert_true(worst <= 1e-3f);
        tread_world_destroy(x.w);
    }
}

// Jumping straight up from a platform moving at 4 m/s: with leave_ground = add_velocity (the default, Godot's
// platform_on_leave) the jump goes on with the platform and lands back near the spot it left; with do_nothing it
// keeps only its own velocity and the platform moves on under it.
static void test_jumping_off_keeps_the_platforms_velocity(void **state) {
    (void)state;
    for (int mode = 0; mode < 2; ++mode) {
        rider x;
        rider_init(&x, COURSE_DT);
        x.s.leave_ground = mode == 0 ? TREAD_LEAVE_ADD_VELOCITY : TREAD_LEAVE_DO_NOTHING;
        tread_motor_input idle = tread_motor_input_default(), jump = idle;
        jump.jump = true;
        assert_int_equal(tread_body_set_velocity(x.w, x.platform, tread_v3(4, 0, 0), tread_v3_zero()), TREAD_OK);
        for (int i = 0; i < 10; ++i) rider_step(&x, &idle, COURSE_DT);
        tread_vec3 spot = body_local(x.w, x.platform, x.ch.position);
        rider_step(&x, &jump, COURSE_DT);
        float air_speed = 0.0f;
        int frames = 0;
        for (; frames < 120 && (frames < 5 || x.ch.ground.state != TREAD_GROUND_ON_GROUND); ++frames) {
            rider_step(&x, &idle, COURSE_DT);
            if (frames == 10) air_speed = x.m.velocity.x;
        }
        float drift = tread_v3_distance(x.ch.position, body_point(x.w, x.platform, spot));
        print_message("%s: air speed %.3f m/s, landed %.3f m from the spot it left after %d frames\n",
                      mode == 0 ? "add_velocity" : "do_nothing", (double)air_speed, (double)drift, frames);
        assert_int_equal(x.ch.ground.state, TREAD_GROUND_ON_GROUND);
        if (mode == 0) {
            assert_float_equal(air_speed, 4.0f, 1e-3f);
            assert_true(drift < 0.05f);
        } else {
            assert_float_equal(air_speed, 0.0f, 1e-3f);
            assert_true(drift > 1.5f); // the platform moved on about 4 m/s x the jump's time
        }
        tread_world_destroy(x.w);
    }
}

// ---- conveyors ------------------------------------------------------------------------------------------------

// A static belt whose surface runs at 2 m/s along its local x, turned 90 degrees about up (so it runs along world
// -z): an idle character on it goes 2 m in 1 s, the belt does not move. A static floor whose surface turns at
// 1 rad/s about a point carries its rider round that point (3 m out, 10 s: within 1 mm of the circle, the turn
// reported as yaw), as a turntable that does not move would.
static void test_conveyors_carry_without_moving(void **state) {
    (void)state;
    tread_world *w = empty_world();
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(10, 0.25f, 1));
    def.transform.p = tread_v3(0, -0.25f, 0);
    def.transform.q = tread_quat_from_axis_angle(tread_v3(0, 1, 0), 0.5f * 3.14159265f);
    def.surface.linear = tread_v3(2, 0, 0);
    tread_body_id belt;
    assert_int_equal(tread_world_add_body(w, &def, &belt), TREAD_OK);
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0.002f, 0)), TREAD_OK);
    tread_move_result res;
    assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -1, 0), COURSE_DT, &res), TREAD_OK);
    tread_vec3 start = ch.position;
    for (int i = 0; i < 60; ++i) assert_int_equal(tread_character_move(w, &ch, tread_v3_zero(), COURSE_DT, &res), TREAD_OK);
    tread_vec3 moved = tread_v3_sub(ch.position, start);
    print_message("belt: moved (%.4f, %.4f, %.4f) m in 1 s\n", (double)moved.x, (double)moved.y, (double)moved.z);
    assert_float_equal(moved.z, -2.0f, 1e-3f);
    assert_float_equal(moved.x, 0.0f, 1e-3f);
    tread_vec3 v;
    assert_int_equal(tread_body_get_point_velocity(w, belt, ch.position, &v), TREAD_OK);
    assert_float_equal(v.z, -2.0f, 1e-5f);
    tread_transform t;
    assert_int_equal(tread_body_get_transform(w, belt, &t), TREAD_OK);
    assert_float_equal(t.p.x, 0.0f, 0.0f);
    tread_world_destroy(w);

    w = empty_world();
    def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(6, 0.25f, 6));
    def.transform.p = tread_v3(1, -0.25f, 0);
    def.surface.angular = tread_v3(0, 1, 0);
    def.surface.center = tread_v3(-1, 0.25f, 0); // world (0, 0, 0)
    tread_body_id floor;
    assert_int_equal(tread_world_add_body(w, &def, &floor), TREAD_OK);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(3, 0.002f, 0)), TREAD_OK);
    assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -1, 0), COURSE_DT, &res), TREAD_OK);
    float worst = 0.0f;
    for (int i = 0; i < 600; ++i) {
        assert_int_equal(tread_character_move(w, &ch, tread_v3_zero(), COURSE_DT, &res), TREAD_OK);
        worst = fmaxf(worst, fabsf(sqrtf(ch.position.x * ch.position.x + ch.position.z * ch.position.z) - 3.0f));
        assert_float_equal(res.ground_yaw, COURSE_DT, 1e-6f);
    }
    float angle = atan2f(-ch.position.z, ch.position.x); // turning about +y takes +x toward -z
    print_message("turning floor: off the 3 m circle by at most %.2g m, at %.4f rad after 10 s\n", (double)worst, (double)angle);
    assert_true(worst <= 1e-3f);
    assert_float_equal(angle, 10.0f - 4.0f * 3.14159265f, 1e-3f);
    tread_world_destroy(w);
}

// ---- bodies that hit the character ---------------------------------------------------------------------------

// A thin door (10 cm) sliding at 5, 20 and 50 m/s into a standing character, at 60 Hz: at 50 m/s it moves 0.83 m a
// frame, farther than the door and the character together (recovery alone let it through). The character is
// pushed ahead of it every frame, never left behind it, and never more than 1 mm inside it, even by a move whose
// filter ignores the door.
static void test_fast_door_pushes_a_standing_character(void **state) {
    (void)state;
    const float speeds[] = {5, 20, 50};
    for (int k = 0; k < 3; ++k) {
        tread_world *w = course_world();
        tread_body_def def = tread_body_def_default();
        def.type = TREAD_BODY_KINEMATIC;
        def.shape = tread_shape_box(tread_v3(0.05f, 1.2f, 1.5f));
        def.transform.p = tread_v3(-3, 1.25f, 0);
        def.linear_velocity = tread_v3(speeds[k], 0, 0);
        tread_body_id door;
        assert_int_equal(tread_world_add_body(w, &def, &door), TREAD_OK);
        tread_character ch;
        tread_character_settings s = tread_character_settings_default();
        assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0.002f, 0)), TREAD_OK);
        tread_move_result res;
        float deepest = 0.0f;
        int pushed = 0;
        // A filter cannot veto a push: the move ignores the door, and the door still pushes.
        tread_move_options o = tread_move_options_default();
        o.filter.ignore_body = door;
        for (int i = 0; i < 60; ++i) {
            assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
            assert_int_equal(tread_character_move_with(w, &ch, tread_v3(0, -1, 0), COURSE_DT, &o, &res), TREAD_OK);
            tread_transform t;
            assert_int_equal(tread_body_get_transform(w, door, &t), TREAD_OK);
            if (t.p.x > -2.9f) assert_true(ch.position.x > t.p.x); // ahead of the door, never behind it
            deepest = fmaxf(deepest, course_depth(w, &ch));
            pushed += tread_v3_length(res.pushed) > 0.0f;
            assert_false(res.crushed);
        }
        print_message("door at %.0f m/s: pushed %d frames, deepest %.2g m, feet x %.2f\n", (double)speeds[k], pushed, (double)deepest,
                      (double)ch.position.x);
        assert_true(pushed > 0);
        assert_true(deepest <= 1e-3f);
        tread_world_destroy(w);
    }
}

// A slab coming down at 2 m/s onto a character standing on the floor: once the gap is lower than the character,
// the push into the floor cannot be made; the move reports it crushed, and its state stays finite.
static void test_crusher_reports_crushed(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_KINEMATIC;
    def.shape = tread_shape_box(tread_v3(2, 0.25f, 2));
    def.transform.p = tread_v3(0, 2.5f, 0);
    def.linear_velocity = tread_v3(0, -2, 0);
    tread_body_id slab;
    assert_int_equal(tread_world_add_body(w, &def, &slab), TREAD_OK);
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0.002f, 0)), TREAD_OK);
    tread_move_result res;
    int crushed = 0;
    for (int i = 0; i < 60; ++i) {
        assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
        assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -1, 0), COURSE_DT, &res), TREAD_OK);
        assert_true(tread_v3_is_finite(ch.position) && tread_v3_is_finite(ch.velocity));
        crushed += res.crushed;
        // The result names the slab, no other character (a single move), and the move aside stays within the
        // search's documented bound; a crushed character is never left inside the floor.
        if (res.crushed) {
            assert_true(tread_body_id_equal(res.crushed_by, slab));
            assert_int_equal(res.crushed_character, -1);
            assert_true(res.crushed_aside >= 0.0f && res.crushed_aside <= 3.0f * sqrtf(2.0f * 0.09f + 0.81f) + s.skin + 1e-4f);
            assert_true(ch.position.y >= 0.0f);
        } else {
            assert_true(res.crushed_by.generation == 0u && res.crushed_aside == 0.0f && res.crushed_character == -1);
        }
    }
    print_message("crusher: crushed in %d frames, feet (%.2f, %.2f, %.2f)\n", crushed, (double)ch.position.x, (double)ch.position.y,
                  (double)ch.position.z);
    assert_true(crushed > 0);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disc_rider_stays_on_its_spot),
        cmocka_unit_test(test_lift_rider_never_sinks),
        cmocka_unit_test(test_idle_rider_does_not_slip),
        cmocka_unit_test(test_jumping_off_keeps_the_platforms_velocity),
        cmocka_unit_test(test_conveyors_carry_without_moving),
        cmocka_unit_test(test_fast_door_pushes_a_standing_character),
        cmocka_unit_test(test_crusher_reports_crushed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
