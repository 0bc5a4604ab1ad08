// SPDX-License-Identifier: MIT
// The movement model (src/motor/): one test per rule, each in the smallest code-built world that shows it.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"

#define DT (1.0f / 60.0f)

// A character driven by the motor through the controller, the way a game (and `tread run`) does it.
typedef struct sim {
    tread_world *w;
    tread_character ch;
    tread_motor_settings s;
    tread_motor_state m;
    tread_move_result last;
    tread_contact contacts[TREAD_MAX_MOVE_CONTACTS]; // the last move's buffer: what it met while moving feeds the motor
    bool has_last;
    float t;
    float apex; // highest feet along up so far
} sim;

static void sim_init_up(sim *x, tread_world *w, tread_vec3 feet, tread_vec3 up) {
    memset(x, 0, sizeof *x);
    x->w = w;
    tread_character_settings cs = tread_character_settings_default();
    cs.up = up;
    assert_int_equal(tread_character_init(&x->ch, &cs, feet), TREAD_OK);
    x->s = tread_motor_settings_default();
    x->m = tread_motor_state_default();
    // One still move classifies the ground under the spawn point.
    assert_int_equal(tread_character_move(w, &x->ch, tread_v3_zero(), DT, &x->last), TREAD_OK);
    x->has_last = false;
    x->apex = tread_v3_dot(x->ch.position, up);
}

static void sim_init(sim *x, tread_world *w, tread_vec3 feet) { sim_init_up(x, w, feet, tread_v3(0, 1, 0)); }

static void sim_step(sim *x, const tread_motor_input *in, float dt) {
    tread_vec3 v;
    tread_result r = tread_motor_update(&x->m, &x->s, in, &x->ch, x->has_last ? &x->last : NULL, x->contacts, TREAD_MAX_MOVE_CONTACTS, dt, &v);
    if (r != TREAD_OK) fail_msg("tread_motor_update: %s", tread_error_message());
    if (x->m.jumped) tread_character_suppress_snap(&x->ch, x->s.jump_snap_suppress_time);
    tread_move_options o = tread_move_options_default();
    o.contacts = x->contacts;
    o.contact_capacity = TREAD_MAX_MOVE_CONTACTS;
    o.contacts_where_it_ends = false;
    assert_int_equal(tread_character_move_with(x->w, &x->ch, v, dt, &o, &x->last), TREAD_OK);
    x->has_last = true;
    x->t += dt;
    float h = tread_v3_dot(x->ch.position, x->ch.settings.up);
    if (h > x->apex) x->apex = h;
}

static void sim_run(sim *x, const tread_motor_input *in, float seconds, float dt) {
    int n = (int)(seconds / dt + 0.5f);
    for (int i = 0; i < n; ++i) sim_step(x, in, dt);
}

static tread_motor_input walk(float x, float z, float speed) {
    tread_motor_input in = tread_motor_input_default();
    in.direction = tread_v3(x, 0, z);
    in.speed = speed;
    return in;
}

static float horizontal_speed(tread_vec3 v) { return sqrtf(v.x * v.x + v.z * v.z); }

static bool within(float a, float b, float rel) { return fabsf(a - b) <= rel * fabsf(b); }

// Where the motor's exact motion puts the feet, to float rounding (metres): the sum of up to 90 frames' steps with the
// feet within 8 m, half an ulp (2.4e-7 m) each, is 2.2e-5 m.
#define FEET_ROUNDING 1.0e-4f

// ---- validation ---------------------------------------------------------------------------------------------------

static tread_result update_once(tread_motor_state *st, const tread_motor_settings *s, const tread_motor_input *in, float dt) {
    tread_character ch;
    tread_character_settings cs = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &cs, tread_v3_zero()), TREAD_OK);
    tread_vec3 v;
    return tread_motor_update(st, s, in, &ch, NULL, NULL, 0, dt, &v);
}

static void expect_bad_setting(tread_motor_settings s, tread_result want, const char *field) {
    tread_motor_state st = tread_motor_state_default();
    st.velocity = tread_v3(1, 2, 3);
    tread_motor_state before = st;
    tread_motor_input in = tread_motor_input_default();
    assert_int_equal(update_once(&st, &s, &in, DT), want);
    if (!strstr(tread_error_message(), field)) fail_msg("message \"%s\" does not name %s", tread_error_message(), field);
    assert_memory_equal(&st, &before, sizeof st); // unchanged on error
}

static void test_bad_settings_are_rejected_with_the_field_named(void **state) {
    (void)state;
    tread_motor_settings s = tread_motor_settings_default();
    s.jump_height = -1.0f;
    expect_bad_setting(s, TREAD_ERR_INVALID_ARGUMENT, "jump_height");
    s = tread_motor_settings_default();
    s.friction = -0.5f;
    expect_bad_setting(s, TREAD_ERR_INVALID_ARGUMENT, "friction");
    s = tread_motor_settings_default();
    s.gravity = NAN;
    expect_bad_setting(s, TREAD_ERR_NOT_FINITE, "gravity");
    s = tread_motor_settings_default();
    s.jump_cut = 1.5f;
    expect_bad_setting(s, TREAD_ERR_INVALID_ARGUMENT, "jump_cut");
    s = tread_motor_settings_default();
    s.max_air_jumps = -1;
    expect_bad_setting(s, TREAD_ERR_INVALID_ARGUMENT, "max_air_jumps");
    s = tread_motor_settings_default();
    s.terminal_speed = 0.0f;
    expect_bad_setting(s, TREAD_ERR_INVALID_ARGUMENT, "terminal_speed");
    s = tread_motor_settings_default();
    s.jump_mode = (tread_jump_mode)7;
    expect_bad_setting(s, TREAD_ERR_INVALID_ARGUMENT, "jump_mode");
}

static void test_bad_input_and_dt_are_rejected(void **state) {
    (void)state;
    tread_motor_settings s = tread_motor_settings_default();
    tread_motor_state st = tread_motor_state_default();
    tread_motor_input in = tread_motor_input_default();
    in.direction = tread_v3(NAN, 0, 0);
    assert_int_equal(update_once(&st, &s, &in, DT), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "direction"));
    in = tread_motor_input_default();
    in.magnitude = 2.0f;
    assert_int_equal(update_once(&st, &s, &in, DT), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "magnitude"));
    in = tread_motor_input_default();
    assert_int_equal(update_once(&st, &s, &in, 0.0f), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(update_once(&st, &s, &in, INFINITY), TREAD_ERR_NOT_FINITE);
    tread_vec3 v;
    assert_int_equal(tread_motor_update(&st, &s, &in, NULL, NULL, NULL, 0, DT, &v), TREAD_ERR_NULL_ARGUMENT);
    tread_motor_state zero = tread_motor_state_default();
    assert_memory_equal(&st, &zero, sizeof st);
}

// ---- ground and air movement ----------------------------------------------------------------------------------------

static void test_ground_acceleration_toward_the_wish(void **state) {
    (void)state;
    sim x;
    sim_init(&x, course_world(), tread_v3(0, 0, 0));
    tread_motor_input in = walk(1, 0, 6.0f);
    sim_run(&x, &in, 0.05f, DT); // 60 m/s^2: 3 m/s after 0.05 s, 6 m/s (the wish) from 0.1 s on
    assert_true(within(horizontal_speed(x.m.velocity), 3.0f, 1e-3f));
    assert_float_equal(x.ch.position.x, 0.5f * 60.0f * 0.05f * 0.05f, FEET_ROUNDING);
    sim_run(&x, &in, 0.25f, DT);
    assert_true(within(horizontal_speed(x.m.velocity), 6.0f, 1e-4f));
    assert_float_equal(x.ch.position.x, 0.3f + 6.0f * 0.2f, FEET_ROUNDING); // 0.3 m while accelerating, then 6 m/s
    tread_world_destroy(x.w);
}

static void test_friction_decays_exponentially_at_any_rate(void **state) {
    (void)state;
    float stop_x[3];
    const float dts[3] = {1.0f / 30.0f, 1.0f / 60.0f, 1.0f / 120.0f};
    for (int k = 0; k < 3; ++k) {
        sim x;
        sim_init(&x, course_world(), tread_v3(0, 0, 0));
        x.m.velocity = tread_v3(6, 0, 0);
        tread_motor_input idle = tread_motor_input_default();
        sim_run(&x, &idle, 0.1f, dts[k]);
        // friction 10/s: v = 6 e^-1 after 0.1 s, distance 6 (1 - e^-1) / 10.
        assert_true(within(x.m.velocity.x, 6.0f * 0.36787944f, 1e-3f));
        assert_true(within(x.ch.position.x, 0.6f * (1.0f - 0.36787944f), 2e-3f));
        sim_run(&x, &idle, 1.9f, dts[k]);
        assert_true(x.m.velocity.x == 0.0f); // comes to rest below the rest speed instead of creeping
        stop_x[k] = x.ch.position.x;
        tread_world_destroy(x.w);
    }
    assert_true(within(stop_x[0], stop_x[2], 1e-3f) && within(stop_x[1], stop_x[2], 1e-3f));
}

static void test_air_acceleration_is_separate(void **state) {
    (void)state;
    sim x;
    sim_init(&x, course_world(), tread_v3(0, 50, 0)); // falling for the whole test
    tread_motor_input in = walk(0, 1, 6.0f);
    sim_run(&x, &in, 0.1f, DT);
    assert_int_equal(x.ch.ground.state, TREAD_GROUND_IN_AIR);
    assert_true(within(horizontal_speed(x.m.velocity), 15.0f * 0.1f, 1e-3f)); // air_acceleration 15 m/s^2
    tread_world_destroy(x.w);
}

static void test_max_speed_caps_the_wish_and_clamps_velocity(void **state) {
    (void)state;
    sim x;
    sim_init(&x, course_world(), tread_v3(0, 0, 0));
    tread_motor_input in = walk(1, 0, 20.0f);
    sim_run(&x, &in, 0.5f, DT);
    assert_true(within(horizontal_speed(x.m.velocity), 6.0f, 1e-4f));
    x.m.velocity = tread_v3(0, 0, 15); // a push from elsewhere
    sim_step(&x, &in, DT);
    assert_true(horizontal_speed(x.m.velocity) <= 6.0f + 1e-4f);
    in = tread_motor_input_default();
    in.direction = tread_v3(1, 0, 0);
    in.magnitude = 0.5f; // half a stick
    sim_run(&x, &in, 1.0f, DT);
    assert_true(within(horizontal_speed(x.m.velocity), 3.0f, 1e-4f));
    tread_world_destroy(x.w);
}

static void test_fall_speed_stops_at_terminal_speed(void **state) {
    (void)state;
    sim x;
    sim_init(&x, course_world(), tread_v3(0, 100, 0));
    x.s.terminal_speed = 5.0f;
    tread_motor_input idle = tread_motor_input_default();
    sim_run(&x, &idle, 2.0f, DT);
    assert_true(within(x.m.velocity.y, -5.0f, 1e-5f));
    // 5 / 9.81 s to reach it (1.274 m fallen), then 5 m/s.
    float reach = 5.0f / 9.81f;
    float fallen = 0.5f * 9.81f * reach * reach + 5.0f * (2.0f - reach);
    assert_true(within(100.0f - x.ch.position.y, fallen, 1e-3f));
    tread_world_destroy(x.w);
}

static void test_gravity_acts_along_the_characters_up(void **state) {
    (void)state;
    sim x;
    sim_init_up(&x, course_world(), tread_v3(0, 5, 20), tread_v3(0, 0, 1)); // up = +Z; the floor is far beside it
    tread_motor_input idle = tread_motor_input_default();
    sim_run(&x, &idle, 1.0f, DT);
    assert_true(within(x.ch.position.z, 20.0f - 0.5f * 9.81f, 1e-3f));
    assert_true(fabsf(x.ch.position.y - 5.0f) < 1e-5f);
    tread_world_destroy(x.w);
}

// ---- jumps --------------------------------------------------------------------------------------------------------

// A running jump at rate dt: jump held, walking +X at 6 m/s from rest. The apex and x at t = 1 s.
static void running_jump(float dt, tread_motor_settings s, float *apex, float *x_at_1s) {
    sim x;
    sim_init(&x, course_world(), tread_v3(0, 0, 0));
    x.s = s;
    tread_motor_input in = walk(1, 0, 6.0f);
    in.jump = true;
    sim_run(&x, &in, 1.0f, dt);
    *apex = x.apex;
    *x_at_1s = x.ch.position.x;
    tread_world_destroy(x.w);
}

// What a running jump's apex and run must be, at rate dt. The apex is the highest frame end: never above the top of
// the rise, and at most deceleration x dt^2 / 8 below it (the top lies within half a frame of a frame end). The run
// is in the air from the take-off: air acceleration brings it to the 6 m/s wish, so at 1 s it has covered
// 6 - 6^2 / (2 x air acceleration) metres (4.8 m at 15 m/s^2), for jumps that last past the 0.4 s that takes.
static void assert_running_jump(float apex, float x_at_1s, float top, float deceleration, float dt) {
    tread_motor_settings s = tread_motor_settings_default();
    assert_true(apex <= top + FEET_ROUNDING);
    assert_true(apex >= top - deceleration * dt * dt / 8.0f - FEET_ROUNDING);
    assert_float_equal(x_at_1s, 6.0f - 36.0f / (2.0f * s.air_acceleration), FEET_ROUNDING);
}

static void test_jump_height_is_the_apex_at_any_frame_rate(void **state) {
    (void)state;
    const float dts[3] = {1.0f / 30.0f, 1.0f / 60.0f, 1.0f / 120.0f};
    float apex[3], dist[3];
    for (int k = 0; k < 3; ++k) running_jump(dts[k], tread_motor_settings_default(), &apex[k], &dist[k]);
    print_message("jump_height 1.2: apex %.4f / %.4f / %.4f m, x(1 s) %.4f / %.4f / %.4f m at 30/60/120 Hz\n", (double)apex[0],
                  (double)apex[1], (double)apex[2], (double)dist[0], (double)dist[1], (double)dist[2]);
    // A sqrt(2 g h) take-off from the skin the character stands on rises h = 1.2 m, decelerated by gravity.
    tread_motor_settings s = tread_motor_settings_default();
    float top = tread_character_settings_default().skin + s.jump_height;
    for (int k = 0; k < 3; ++k) assert_running_jump(apex[k], dist[k], top, s.gravity, dts[k]);
}

static void test_drag_jump_mode_is_frame_rate_independent(void **state) {
    (void)state;
    tread_motor_settings s = tread_motor_settings_default();
    s.jump_mode = TREAD_JUMP_STRENGTH_DRAG; // 9 m/s, worn down by 12 m/s^2, plus gravity 9.81
    const float dts[3] = {1.0f / 30.0f, 1.0f / 60.0f, 1.0f / 120.0f};
    float apex[3], dist[3];
    for (int k = 0; k < 3; ++k) running_jump(dts[k], s, &apex[k], &dist[k]);
    // Rise speed 9 - (12 + 9.81) t: apex at t = 9 / 21.81, height 9^2 / (2 * 21.81), above the skin.
    float expected = 81.0f / (2.0f * 21.81f);
    print_message("drag jump: apex %.4f / %.4f / %.4f m (exact %.4f), x(1 s) %.4f / %.4f / %.4f m\n", (double)apex[0], (double)apex[1],
                  (double)apex[2], (double)expected, (double)dist[0], (double)dist[1], (double)dist[2]);
    float top = tread_character_settings_default().skin + expected;
    for (int k = 0; k < 3; ++k) assert_running_jump(apex[k], dist[k], top, s.jump_drag + s.gravity, dts[k]);
}

static void test_aligned_speed_counts_toward_the_jump(void **state) {
    (void)state;
    sim x;
    sim_init(&x, course_world(), tread_v3(0, 30, 0));
    x.s.max_air_jumps = 5;
    float take_off = sqrtf(2.0f * 9.81f * 1.2f);
    tread_motor_input in = tread_motor_input_default();
    x.m.velocity = tread_v3(0, 2.0f, 0); // already rising at 2 m/s
    in.jump = true;
    sim_step(&x, &in, DT);
    assert_int_equal(x.m.last_jump, TREAD_JUMP_AIR);
    // 2 m/s along the jump counts: the result is the take-off speed, not 2 more (then one step of gravity).
    assert_true(within(x.m.velocity.y, take_off - 9.81f * DT, 1e-4f));
    in.jump = false;
    sim_step(&x, &in, DT);
    x.m.velocity = tread_v3(0, 8.0f, 0); // faster than a jump: nothing added
    in.jump = true;
    sim_step(&x, &in, DT);
    assert_int_equal(x.m.last_jump, TREAD_JUMP_AIR);
    assert_true(within(x.m.velocity.y, 8.0f - 9.81f * DT, 1e-4f));
    tread_world_destroy(x.w);
}

// A 3 m high ledge ending at x = 2 with the floor below; the character walks off it at 3 m/s.
static tread_world *ledge_world(void) {
    tread_world *w = course_world();
    course_box(w, tread_v3(-10, 0, -2), tread_v3(2, 3, 2));
    return w;
}

// Walk off the ledge and return the time the feet left it (no longer on ground).
static float walk_off(sim *x, float speed) {
    tread_motor_input in = walk(1, 0, speed);
    while (x->ch.ground.state == TREAD_GROUND_ON_GROUND && x->t < 5.0f) sim_step(x, &in, DT);
    return x->t;
}

static void test_coyote_time_allows_a_late_jump(void **state) {
    (void)state;
    for (int late = 0; late < 2; ++late) {
        sim x;
        sim_init(&x, ledge_world(), tread_v3(1.0f, 3, 0));
        x.s.max_air_jumps = 0;
        walk_off(&x, 3.0f);
        tread_motor_input in = walk(1, 0, 3.0f);
        sim_run(&x, &in, late ? 0.2f : 0.05f, DT); // within / beyond the 0.1 s coyote time
        float before = x.ch.position.y;
        in.jump = true;
        x.s.jump_buffer_time = 0.0f; // judge this press alone
        sim_step(&x, &in, DT);
        x.apex = x.ch.position.y;
        if (late) {
            assert_int_equal(x.m.last_jump, TREAD_JUMP_NONE);
            assert_true(x.ch.position.y < before);
        } else {
            assert_int_equal(x.m.last_jump, TREAD_JUMP_GROUND);
            sim_run(&x, &in, 0.6f, DT);
            assert_true(x.apex > before + 1.15f); // a full jump (1.2 m) from where the press came // a full jump from just past the edge
        }
        tread_world_destroy(x.w);
    }
}

static void test_jump_buffer_fires_on_landing(void **state) {
    (void)state;
    for (int early = 0; early < 2; ++early) {
        sim x;
        sim_init(&x, course_world(), tread_v3(0, 2.0f, 0));
        // Falling 2 m takes sqrt(4 / 9.81) = 0.639 s. Press 0.05 s (buffered) or 0.3 s (too early) before.
        tread_motor_input in = tread_motor_input_default();
        sim_run(&x, &in, early ? 0.339f : 0.589f, DT);
        in.jump = true;
        sim_step(&x, &in, DT);
        assert_int_equal(x.m.last_jump, TREAD_JUMP_NONE);
        in.jump = true; // held: no new press
        bool jumped = false;
        for (int i = 0; i < 60 && !jumped; ++i) {
            sim_step(&x, &in, DT);
            jumped = x.m.jumped;
        }
        assert_true(jumped == !early);
        tread_world_destroy(x.w);
    }
}

static void test_releasing_jump_early_cuts_the_rise(void **state) {
    (void)state;
    float apex[2];
    for (int release = 0; release < 2; ++release) {
        sim x;
        sim_init(&x, course_world(), tread_v3(0, 0, 0));
        tread_motor_input in = tread_motor_input_default();
        in.jump = true;
        sim_run(&x, &in, 0.1f, DT);
        in.jump = release ? false : true;
        sim_run(&x, &in, 1.0f, DT);
        apex[release] = x.apex;
        tread_world_destroy(x.w);
    }
    // Held: 1.2 m. Released at 0.1 s (at 0.436 m, rising at 4.852 - 0.981 = 3.871 m/s, cut to half):
    // 0.436 + 1.936^2 / 19.62 = 0.627 m.
    print_message("jump cut: apex held %.4f m, released at 0.1 s %.4f m\n", (double)apex[0], (double)apex[1]);
    assert_true(within(apex[0], 1.2f, 0.01f));
    assert_true(within(apex[1], 0.436f + 0.25f * 3.871f * 3.871f / (2.0f * 9.81f), 0.02f));
}

static int jumps_possible(sim *x) {
    tread_motor_input in = tread_motor_input_default();
    int count = 0;
    for (int i = 0; i < 6; ++i) {
        in.jump = true;
        sim_step(x, &in, DT);
        count += x->m.jumped;
        in.jump = false;
        sim_step(x, &in, DT);
    }
    return count;
}

static void test_air_jumps_follow_jump_phases(void **state) {
    (void)state;
    // From the ground: the ground jump plus max_air_jumps.
    sim x;
    sim_init(&x, course_world(), tread_v3(0, 0, 0));
    x.s.max_air_jumps = 2;
    x.s.jump_buffer_time = 0.0f;
    assert_int_equal(jumps_possible(&x), 3);
    tread_world_destroy(x.w);
    // Walking off a ledge (after coyote time): only max_air_jumps, not one more.
    sim_init(&x, ledge_world(), tread_v3(1.0f, 3, 0));
    x.s.max_air_jumps = 2;
    x.s.jump_buffer_time = 0.0f;
    walk_off(&x, 3.0f);
    tread_motor_input in = tread_motor_input_default();
    sim_run(&x, &in, 0.2f, DT);
    assert_int_equal(jumps_possible(&x), 2);
    tread_world_destroy(x.w);
}

// A wall at x = 1 (face toward -X) from the floor to 10 m.
static tread_world *wall_world(void) {
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -5), tread_v3(2, 10, 5));
    return w;
}

static void test_wall_jump_off_a_steep_contact_with_upward_bias(void **state) {
    (void)state;
    sim x;
    sim_init(&x, wall_world(), tread_v3(0.5f, 3.0f, 0)); // in the air beside the wall
    x.s.jump_buffer_time = 0.0f;
    tread_motor_input in = walk(1, 0, 4.0f); // pressing into the wall: the move touches it
    sim_run(&x, &in, 0.2f, DT);
    assert_int_equal(x.ch.ground.state, TREAD_GROUND_IN_AIR);
    assert_true(x.ch.position.x > 0.69f); // against the wall (radius 0.3)
    in.jump = true;
    sim_step(&x, &in, DT);
    assert_int_equal(x.m.last_jump, TREAD_JUMP_WALL);
    // normalize(wall normal + up) = 45 degrees: away from the wall and up at sqrt(2 g h) / sqrt(2) each.
    float each = sqrtf(2.0f * 9.81f * 1.2f) / sqrtf(2.0f);
    assert_true(within(x.m.velocity.y, each - 9.81f * DT, 0.01f));
    assert_true(x.m.velocity.x < -0.5f * each); // pushed away (the wish pulls back at 15 m/s^2)
    float y0 = x.ch.position.y;
    in.jump = true;
    sim_run(&x, &in, 0.2f, DT);
    assert_true(x.ch.position.y > y0 + 0.3f);
    // Without wall jumps the same press does nothing (no air jumps either).
    sim_init(&x, x.w, tread_v3(0.5f, 3.0f, 0));
    x.s.wall_jump = false;
    x.s.jump_buffer_time = 0.0f;
    in.jump = false;
    sim_run(&x, &in, 0.2f, DT);
    in.jump = true;
    sim_step(&x, &in, DT);
    assert_int_equal(x.m.last_jump, TREAD_JUMP_NONE);
    tread_world_destroy(x.w);
}

static void test_snap_is_suppressed_right_after_a_jump(void **state) {
    (void)state;
    // A tiny hop (2 cm): its rise is slow, yet the character must leave the ground instead of being snapped back.
    sim x;
    sim_init(&x, course_world(), tread_v3(0, 0, 0));
    x.s.jump_height = 0.02f;
    tread_motor_input in = tread_motor_input_default();
    in.jump = true;
    sim_step(&x, &in, DT);
    assert_true(x.m.jumped);
    assert_true(x.ch.snap_suppress_time > 0.0f);
    sim_step(&x, &in, DT);
    assert_true(x.apex > 0.01f);
    tread_world_destroy(x.w);
}

static void test_walls_and_ceilings_take_velocity_away(void **state) {
    (void)state;
    sim x;
    sim_init(&x, wall_world(), tread_v3(0, 0, 0));
    tread_motor_input in = walk(1, 0, 6.0f);
    sim_run(&x, &in, 0.5f, DT);
    assert_true(x.ch.position.x > 0.69f);
    assert_true(fabsf(x.m.velocity.x) <= 60.0f * DT + 1e-4f); // only this frame's acceleration, not 6 m/s
    tread_world_destroy(x.w);
    // A ceiling 2.2 m up stops a jump's rise at once.
    tread_world *w = course_world();
    course_box(w, tread_v3(-5, 2.2f, -5), tread_v3(5, 3, 5));
    sim_init(&x, w, tread_v3(0, 0, 0));
    in = tread_motor_input_default();
    in.jump = true;
    for (int i = 0; i < 60 && x.ch.position.y < 0.39f; ++i) sim_step(&x, &in, DT);
    sim_step(&x, &in, DT);
    sim_step(&x, &in, DT);
    assert_true(x.m.velocity.y <= 0.0f);
    assert_true(x.apex < 0.41f);
    tread_world_destroy(w);
}

// ---- crouch -------------------------------------------------------------------------------------------------------

static void test_crouch_lowers_and_stands_when_free(void **state) {
    (void)state;
    tread_world *w = course_world();
    sim x;
    sim_init(&x, w, tread_v3(0, 0, 0));
    bool changed = false;
    assert_int_equal(tread_character_set_height(w, &x.ch, 1.0f, &changed), TREAD_OK);
    assert_true(changed);
    assert_true(x.ch.settings.height == 1.0f);
    assert_true(x.ch.position.y == 0.0f || fabsf(x.ch.position.y) < 0.003f); // feet fixed
    // Crouched, the wish speed is scaled.
    tread_motor_input in = walk(1, 0, 6.0f);
    sim_run(&x, &in, 0.5f, DT);
    assert_true(within(horizontal_speed(x.m.velocity), 3.0f, 1e-4f));
    assert_int_equal(tread_character_set_height(w, &x.ch, 1.8f, &changed), TREAD_OK);
    assert_true(changed);
    assert_true(x.ch.settings.height == 1.8f);
    tread_world_destroy(w);
}

static void test_crouched_under_a_low_ceiling_stays_crouched(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(2, 1.2f, -5), tread_v3(6, 3, 5)); // a 1.2 m high tunnel from x = 2 to 6
    sim x;
    sim_init(&x, w, tread_v3(0, 0, 0));
    bool changed = false;
    assert_int_equal(tread_character_set_height(w, &x.ch, 1.0f, &changed), TREAD_OK);
    tread_motor_input in = walk(1, 0, 6.0f);
    sim_run(&x, &in, 1.5f, DT); // 3 m/s crouched: well inside the tunnel
    // At 60 m/s^2 to the crouched wish of 3 m/s (0.05 s, 0.075 m), then 3 m/s for 1.45 s: x = 4.425 m.
    assert_float_equal(x.ch.position.x, 0.5f * 60.0f * 0.05f * 0.05f + 3.0f * 1.45f, FEET_ROUNDING);
    assert_int_equal(tread_character_set_height(w, &x.ch, 1.8f, &changed), TREAD_OK);
    assert_false(changed);
    assert_true(x.ch.settings.height == 1.0f);
    sim_run(&x, &in, 1.5f, DT); // out the other side: now it fits
    assert_true(x.ch.position.x > 6.5f);
    assert_int_equal(tread_character_set_height(w, &x.ch, 1.8f, &changed), TREAD_OK);
    assert_true(changed);
    tread_world_destroy(w);
}

static void test_set_height_validates(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_character ch;
    tread_character_settings cs = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &cs, tread_v3_zero()), TREAD_OK);
    tread_character before = ch;
    assert_int_equal(tread_character_set_height(w, &ch, 0.4f, NULL), TREAD_ERR_INVALID_ARGUMENT); // < 2 * radius
    assert_non_null(strstr(tread_error_message(), "height"));
    assert_int_equal(tread_character_set_height(w, &ch, NAN, NULL), TREAD_ERR_NOT_FINITE);
    assert_int_equal(tread_character_set_height(NULL, &ch, 1.0f, NULL), TREAD_ERR_NULL_ARGUMENT);
    assert_memory_equal(&ch, &before, sizeof ch);
    tread_world_destroy(w);
}

// Teleported into the air (tread_character_set_position), a character that stood on ground a frame ago cannot
// jump from there: its coyote time belongs to the ground it left (it jumped in mid-air before).
static void test_no_ground_jump_after_a_teleport_into_the_air(void **state) {
    (void)state;
    tread_world *w = course_world();
    sim x;
    sim_init(&x, w, tread_v3(0, 0, 0));
    tread_motor_input idle = tread_motor_input_default(), jump = idle;
    jump.jump = true;
    sim_run(&x, &idle, 0.5f, DT);
    assert_int_equal(x.ch.ground.state, TREAD_GROUND_ON_GROUND);
    assert_int_equal(tread_character_set_position(&x.ch, tread_v3(0, 5, 0)), TREAD_OK);
    sim_step(&x, &jump, DT);
    assert_false(x.m.jumped);
    assert_true(x.ch.position.y < 5.0f); // falling from where it was put
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_settings_are_rejected_with_the_field_named),
        cmocka_unit_test(test_bad_input_and_dt_are_rejected),
        cmocka_unit_test(test_ground_acceleration_toward_the_wish),
        cmocka_unit_test(test_friction_decays_exponentially_at_any_rate),
        cmocka_unit_test(test_air_acceleration_is_separate),
        cmocka_unit_test(test_max_speed_caps_the_wish_and_clamps_velocity),
        cmocka_unit_test(test_fall_speed_stops_at_terminal_speed),
        cmocka_unit_test(test_gravity_acts_along_the_characters_up),
        cmocka_unit_test(test_jump_height_is_the_apex_at_any_frame_rate),
        cmocka_unit_test(test_drag_jump_mode_is_frame_rate_independent),
        cmocka_unit_test(test_aligned_speed_counts_toward_the_jump),
        cmocka_unit_test(test_coyote_time_allows_a_late_jump),
        cmocka_unit_test(test_jump_buffer_fires_on_landing),
        cmocka_unit_test(test_releasing_jump_early_cuts_the_rise),
        cmocka_unit_test(test_air_jumps_follow_jump_phases),
        cmocka_unit_test(test_wall_jump_off_a_steep_contact_with_upward_bias),
        cmocka_unit_test(test_snap_is_suppressed_right_after_a_jump),
        cmocka_unit_test(test_walls_and_ceilings_take_velocity_away),
        cmocka_unit_test(test_crouch_lowers_and_stands_when_free),
        cmocka_unit_test(test_no_ground_jump_after_a_teleport_into_the_air),
        cmocka_unit_test(test_crouched_under_a_low_ceiling_stays_crouched),
        cmocka_unit_test(test_set_height_validates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
