// SPDX-License-Identifier: MIT
// The character's public surface beyond moving: a move toward the coordinate limit, errors inside a move,
// settings changes and crouching for every shape, the strategy names, the public plane solver, debug drawing
// and the version.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <math.h>

#include "course.h"

static tread_world *floor_at(float x) {
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    course_box(w, tread_v3(x - 50.0f, -1, -50), tread_v3(x + 50.0f, 0, 50));
    return w;
}

static tread_character standing(tread_world *w, tread_character_settings s, tread_vec3 feet) {
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, feet), TREAD_OK);
    tread_move_result res;
    for (int i = 0; i < 5; ++i) assert_int_equal(tread_character_move(w, &ch, tread_v3_zero(), COURSE_DT, &res), TREAD_OK);
    assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
    return ch;
}

// ---- errors inside a move -----------------------------------------------------------------------------------

// Near the coordinate limit a move succeeds, by every phase, and its part beyond the limit is clamped there: the
// feet stop at the limit (issue 27: a move whose reach crossed the limit was refused, so near it nothing moved, not
// even back inward). One well inside the limit moves as anywhere.
static void test_move_toward_the_coordinate_limit_stops_at_it(void **state) {
    (void)state;
    const float edge = TREAD_MAX_COORDINATE - 10.0f;
    tread_world *w = floor_at(edge);
    tread_character ch = standing(w, tread_character_settings_default(), tread_v3(edge, 0, 0));
    tread_move_result res;
    // 4 m/s: the move stays 10 m from the limit.
    assert_int_equal(tread_character_move(w, &ch, tread_v3(4, 0, 0), COURSE_DT, &res), TREAD_OK);
    assert_true(ch.position.x > edge);
    // 900 m/s for 1/60 s reaches 15 m: to the limit, and no farther.
    assert_int_equal(tread_character_move(w, &ch, tread_v3(900, 0, 0), COURSE_DT, &res), TREAD_OK);
    assert_float_equal(ch.position.x, TREAD_MAX_COORDINATE, 0.0f);
    assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
    tread_move_state st;
    assert_int_equal(tread_character_update(w, &ch, tread_v3(900, 0, 0), COURSE_DT, &st), TREAD_OK);
    assert_float_equal(st.result.position.x, TREAD_MAX_COORDINATE, 0.0f);
    // Standing still at the limit, its probes reaching across: every move succeeds.
    assert_int_equal(tread_character_move(w, &ch, tread_v3_zero(), COURSE_DT, &res), TREAD_OK);
    assert_float_equal(ch.position.x, TREAD_MAX_COORDINATE, 0.0f);
    tread_world_destroy(w);
}

// The later phases check the state they are handed and their own reach.
static void test_phases_refuse_a_state_no_update_wrote(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_character ch = standing(w, tread_character_settings_default(), tread_v3(0, 0, 0));
    tread_character before = ch;
    tread_move_state st;
    memset(&st, 0, sizeof st);
    st.blocked = true;
    st.blocked_motion = tread_v3(1, 0, 0);
    assert_int_equal(tread_character_walk_stairs(w, &ch, &st), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "state->dt"));
    assert_int_equal(tread_character_stick_to_floor(w, &ch, tread_v3_zero(), &st), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_character_walk_stairs(NULL, &ch, &st), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_character_walk_stairs(w, &ch, NULL), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "state is NULL"));
    tread_move_result res;
    ch.settings.step_strategy = (tread_step_strategy)99; // the caller's plain data, corrupted
    assert_int_equal(tread_character_move(w, &ch, tread_v3_zero(), COURSE_DT, &res), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "step_strategy"));
    assert_false(tread_character_can_walk_stairs(&ch, &st));
    ch.settings.step_strategy = before.settings.step_strategy;
    assert_memory_equal(&before, &ch, sizeof ch);
    tread_world_destroy(w);
}

// ---- settings and crouching -----------------------------------------------------------------------------------

static void test_set_settings_validates_and_keeps_the_state(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_character ch = standing(w, tread_character_settings_default(), tread_v3(0, 0, 0));
    tread_character before = ch;
    tread_character_settings s = ch.settings;
    s.max_step_height = -1.0f;
    assert_int_equal(tread_character_set_settings(w, &ch, &s), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "settings.max_step_height"));
    s = ch.settings;
    s.riser.depth = NAN;
    assert_int_equal(tread_character_set_settings(w, &ch, &s), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "settings.riser.depth"));
    assert_int_equal(tread_character_set_settings(w, &ch, NULL), TREAD_ERR_NULL_ARGUMENT);
    assert_memory_equal(&before, &ch, sizeof ch);
    // Same shape, new limits: no world needed; feet, velocity and ground stay, derived values follow.
    s = ch.settings;
    s.max_slope_degrees = 30.0f;
    s.stairs_layer_mask = 1u << 3;
    s.stairs_max_slope_degrees = 60.0f;
    assert_int_equal(tread_character_set_settings(NULL, &ch, &s), TREAD_OK);
    // (Inclusive: the cosines of the limits plus TREAD_SLOPE_TOLERANCE_DEGREES.)
    assert_float_equal(ch.max_slope_cos, (float)cos((30.0 + TREAD_SLOPE_TOLERANCE_DEGREES) * 3.14159265358979 / 180.0), 1e-6f);
    assert_float_equal(ch.stairs_slope_cos, (float)cos((60.0 + TREAD_SLOPE_TOLERANCE_DEGREES) * 3.14159265358979 / 180.0), 1e-6f);
    assert_memory_equal(&before.position, &ch.position, sizeof ch.position);
    assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
    // A new shape needs the world.
    s.radius = 0.4f;
    assert_int_equal(tread_character_set_settings(NULL, &ch, &s), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_character_set_settings(w, &ch, &s), TREAD_OK);
    assert_float_equal(ch.settings.radius, 0.4f, 0.0f);
    tread_world_destroy(w);
}

// Under a ceiling 1.2 m above the floor, a crouched capsule or box cannot stand up (and a wider shape is refused
// with TREAD_ERR_BLOCKED); out in the open both stand. A sphere has no height.
static void test_crouch_and_stand_for_capsule_and_box(void **state) {
    (void)state;
    for (int box = 0; box < 2; ++box) {
        tread_world *w = course_world();
        course_box(w, tread_v3(-1, 1.2f, -1), tread_v3(1, 1.5f, 1));
        tread_character_settings s = tread_character_settings_default();
        s.shape = box ? TREAD_QUERY_BOX : TREAD_QUERY_CAPSULE;
        s.height = 1.0f;
        tread_character ch = standing(w, s, tread_v3(0, 0, 0));
        bool changed = true;
        assert_int_equal(tread_character_set_height(w, &ch, 1.8f, &changed), TREAD_OK);
        assert_false(changed);
        assert_float_equal(ch.settings.height, 1.0f, 0.0f);
        tread_character_settings taller = ch.settings;
        taller.height = 1.8f;
        assert_int_equal(tread_character_set_settings(w, &ch, &taller), TREAD_ERR_BLOCKED);
        assert_non_null(strstr(tread_error_message(), "does not fit"));
        // Lower is always fine.
        assert_int_equal(tread_character_set_height(w, &ch, 0.9f, &changed), TREAD_OK);
        assert_true(changed);
        // Out from under the ceiling: stands up.
        assert_int_equal(tread_character_set_position(&ch, tread_v3(5, 0.002f, 0)), TREAD_OK);
        assert_int_equal(tread_character_set_height(w, &ch, 1.8f, &changed), TREAD_OK);
        assert_true(changed);
        assert_float_equal(ch.settings.height, 1.8f, 0.0f);
        tread_world_destroy(w);
    }
    tread_world *w = course_world();
    tread_character_settings s = tread_character_settings_default();
    s.shape = TREAD_QUERY_SPHERE;
    tread_character ball = standing(w, s, tread_v3(0, 0, 0));
    assert_int_equal(tread_character_set_height(w, &ball, 1.0f, NULL), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "sphere"));
    tread_world_destroy(w);
}

// ---- strategies, solver, drawing, version -------------------------------------------------------------------------

static void test_strategy_names_round_trip(void **state) {
    (void)state;
    const char *expected[TREAD_STEP_STRATEGY_COUNT] = {"sweep", "contact", "cast_down", "riser"};
    for (int i = 0; i < TREAD_STEP_STRATEGY_COUNT; ++i) {
        assert_string_equal(tread_step_strategy_name((tread_step_strategy)i), expected[i]);
        tread_step_strategy back = TREAD_STEP_STRATEGY_COUNT;
        assert_int_equal(tread_step_strategy_from_name(expected[i], &back), TREAD_OK);
        assert_int_equal(back, i);
    }
    assert_string_equal(tread_step_strategy_name(TREAD_STEP_STRATEGY_COUNT), "unknown");
    tread_step_strategy s = TREAD_STEP_SWEEP;
    assert_int_equal(tread_step_strategy_from_name("stairs", &s), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "\"stairs\""));
    assert_int_equal(tread_step_strategy_from_name(NULL, &s), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_step_strategy_from_name("sweep", NULL), TREAD_ERR_NULL_ARGUMENT);
}

// The public solver is the controller's: a corner of two walls leaves the crease; bad input names the argument.
static void test_public_plane_solver_and_ground_alignment(void **state) {
    (void)state;
    tread_vec3 planes[2] = {tread_v3(-1, 0, 0), tread_v3(0, 0, -1)};
    tread_vec3 out = tread_v3(9, 9, 9);
    assert_int_equal(tread_solve_planes(tread_v3(1, 0.5f, 1), planes, 2, &out), TREAD_OK);
    assert_float_equal(out.x, 0.0f, 1e-6f);
    assert_float_equal(out.y, 0.5f, 1e-6f);
    assert_float_equal(out.z, 0.0f, 1e-6f);
    assert_int_equal(tread_solve_planes(tread_v3(1, 0, 0), planes, 0, &out), TREAD_OK);
    assert_float_equal(out.x, 1.0f, 0.0f);
    tread_vec3 bad[1] = {tread_v3(2, 0, 0)};
    assert_int_equal(tread_solve_planes(tread_v3(1, 0, 0), bad, 1, &out), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "normals[0]"));
    assert_int_equal(tread_solve_planes(tread_v3(1, 0, 0), NULL, 1, &out), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_solve_planes(tread_v3(1, 0, 0), planes, TREAD_MAX_SOLVER_PLANES + 1, &out), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_solve_planes(tread_v3(NAN, 0, 0), planes, 2, &out), TREAD_ERR_NOT_FINITE);
    // Up a 30-degree slope at constant speed: same length, along the surface.
    float c = 0.8660254f, s = 0.5f;
    assert_int_equal(tread_align_to_ground(tread_v3(4, 0, 0), tread_v3(0, 1, 0), tread_v3(-s, c, 0), false, &out), TREAD_OK);
    assert_float_equal(tread_v3_length(out), 4.0f, 1e-5f);
    assert_float_equal(out.y / out.x, s / c, 1e-5f);
    assert_int_equal(tread_align_to_ground(tread_v3(4, 0, 0), tread_v3(0, 1, 0), tread_v3(-s, c, 0), true, &out), TREAD_OK);
    assert_float_equal(out.x, 4.0f, 1e-5f);
    assert_int_equal(tread_align_to_ground(tread_v3(4, 0, 0), tread_v3(0, 0, 0), tread_v3(0, 1, 0), false, &out), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_align_to_ground(tread_v3(4, 0, 0), tread_v3(0, 1, 0), tread_v3(0, 1, 0), false, NULL), TREAD_ERR_NULL_ARGUMENT);
}

typedef struct drawn {
    int casts, contacts, grounds, steps, accepted;
    float last_step_rise;
} drawn;

static void on_cast(const tread_query_shape *shape, tread_vec3 p, tread_vec3 d, const tread_shape_hit *hit, void *ctx) {
    (void)shape, (void)p, (void)d, (void)hit;
    ((drawn *)ctx)->casts++;
}
static void on_contact(const tread_contact *c, void *ctx) {
    (void)c;
    ((drawn *)ctx)->contacts++;
}
static void on_ground(const tread_ground *g, tread_vec3 feet, void *ctx) {
    (void)g, (void)feet;
    ((drawn *)ctx)->grounds++;
}
static void on_step(tread_vec3 from, tread_vec3 to, bool accepted, void *ctx) {
    drawn *d = (drawn *)ctx;
    d->steps++;
    d->accepted += accepted;
    if (accepted) d->last_step_rise = to.y - from.y;
}

// Walking the S1 stairs shows casts, ground checks and accepted steps no higher than max step; moves without the
// option draw nothing.
static void test_debug_draw_sees_a_stair_climb(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_stairs(w);
    course_box(w, tread_v3(-1, 0, -1), tread_v3(-0.5f, 0.05f, 1)); // a 5 cm lip behind the start: overlapped
    drawn d;
    memset(&d, 0, sizeof d);
    tread_debug_draw draw = {on_cast, on_contact, on_ground, on_step, &d};
    tread_move_options drawing = tread_move_options_default();
    drawing.debug_draw = &draw;
    course_run *run = (course_run *)malloc(sizeof *run);
    course_begin(run, w, tread_v3(-0.7f, 0.0f, 0), NULL); // starts inside the lip: recovery collects contacts
    run->options = &drawing;
    course_walk(run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
    run->options = NULL;
    assert_true(run->f[run->frames - 1].feet.y > 1.9f);
    assert_true(d.casts > run->frames);
    assert_true(d.grounds >= run->frames);
    assert_true(d.contacts > 0);
    assert_true(d.accepted >= 10);
    assert_true(d.last_step_rise > 0.0f && d.last_step_rise <= 0.4f + 1e-4f);
    drawn copy = d;
    course_walk(run, tread_v3(4, 0, 0), 0.2f, COURSE_DT);
    assert_memory_equal(&copy, &d, sizeof d);
    free(run);
    tread_world_destroy(w);
}

static void test_version_matches_the_headers(void **state) {
    (void)state;
    tread_version_info v = tread_version();
    assert_int_equal(v.major, TREAD_VERSION_MAJOR);
    assert_int_equal(v.minor, TREAD_VERSION_MINOR);
    assert_int_equal(v.patch, TREAD_VERSION_PATCH);
    assert_string_equal(tread_result_name(TREAD_ERR_BLOCKED), "TREAD_ERR_BLOCKED");
}

// Filters per move: the character's own proxy body (ignore_body), any set of bodies (callback) or layers (mask) are
// ignored by every query of the move; a body moving into the character still pushes it, whatever the filter says.
static bool skip_all_but_floor(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    (void)layer, (void)user_data;
    return tread_body_id_equal(body, *(const tread_body_id *)context);
}

static void test_move_filters_ignore_bodies(void **state) {
    (void)state;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(20, 0.5f, 20));
    def.transform.p = tread_v3(0, -0.5f, 0);
    tread_body_id floor, wall, proxy;
    assert_int_equal(tread_world_add_body(w, &def, &floor), TREAD_OK);
    def.shape = tread_shape_box(tread_v3(0.1f, 1, 2));
    def.transform.p = tread_v3(1, 1, 0);
    def.layer = 3;
    assert_int_equal(tread_world_add_body(w, &def, &wall), TREAD_OK);
    def.shape = tread_shape_capsule(0.6f, 0.3f); // the character's own proxy in a game's physics, where it stands
    def.transform.p = tread_v3(0, 0.9f, 0);
    def.layer = 0;
    assert_int_equal(tread_world_add_body(w, &def, &proxy), TREAD_OK);
    tread_vec3 first_with_filter = tread_v3_zero();
    for (int mode = 0; mode < 4; ++mode) {
        tread_character ch;
        tread_character_settings s = tread_character_settings_default();
        assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0.002f, 0)), TREAD_OK);
        tread_move_options o = tread_move_options_default();
        o.filter.ignore_body = proxy;
        if (mode == 1) o.filter.layer_mask = ~(1u << 3);
        if (mode == 2) o.filter.callback = skip_all_but_floor, o.filter.context = &floor;
        tread_move_result res;
        tread_vec3 first = tread_v3_zero();
        for (int i = 0; i < 60; ++i) {
            assert_int_equal(tread_character_move_with(w, &ch, tread_v3(3, -1, 0), COURSE_DT, mode == 3 ? NULL : &o, &res), TREAD_OK);
            if (i == 0) first = ch.position;
        }
        if (mode == 0) first_with_filter = first;
        print_message("filter mode %d: feet x %.3f\n", mode, (double)ch.position.x);
        if (mode == 0) assert_true(ch.position.x < 0.61f);             // the proxy ignored, the wall stops it
        if (mode == 1 || mode == 2) assert_true(ch.position.x > 2.9f); // the wall's layer or everything but the floor ignored
        // No options: its own proxy is an obstacle it starts inside of, and the first move pushes it out of it.
        if (mode == 3) assert_true(tread_v3_distance(first, first_with_filter) > 0.01f);
    }
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_toward_the_coordinate_limit_stops_at_it),
        cmocka_unit_test(test_phases_refuse_a_state_no_update_wrote),
        cmocka_unit_test(test_set_settings_validates_and_keeps_the_state),
        cmocka_unit_test(test_crouch_and_stand_for_capsule_and_box),
        cmocka_unit_test(test_strategy_names_round_trip),
        cmocka_unit_test(test_public_plane_solver_and_ground_alignment),
        cmocka_unit_test(test_debug_draw_sees_a_stair_climb),
        cmocka_unit_test(test_version_matches_the_headers),
        cmocka_unit_test(test_move_filters_ignore_bodies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
