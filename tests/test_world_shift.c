// SPDX-License-Identifier: MIT
// Large worlds: positions are floats, precise near the origin (TREAD_MAX_COORDINATE). A game keeps its own double
// coordinates and either builds each region relative to a nearby origin, or moves the origin as play travels
// (tread_world_shift_origin). Both must keep the course's promises far from tread's origin.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "tread/tread.h"

#define DT (1.0f / 60.0f)

// Bit for bit.
static void expect_same(tread_vec3 a, tread_vec3 b) { assert_memory_equal(&a, &b, sizeof a); }

static tread_body_id add_box(tread_world *w, tread_vec3 lo, tread_vec3 hi) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3_scale(tread_v3_sub(hi, lo), 0.5f));
    def.transform.p = tread_v3_scale(tread_v3_add(hi, lo), 0.5f);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return id;
}

// A box given in the game's double coordinates, added relative to the game's origin `o`.
static void add_box_d(tread_world *w, const double o[3], double x0, double y0, double z0, double x1, double y1, double z1) {
    add_box(w, tread_v3((float)(x0 - o[0]), (float)(y0 - o[1]), (float)(z0 - o[2])),
            tread_v3((float)(x1 - o[0]), (float)(y1 - o[1]), (float)(z1 - o[2])));
}

// S1 (ten 0.2 m risers, 0.3 m treads, walked at 4 m/s for 3 s) around `centre`, in double, relative to origin `o`.
static void build_s1(tread_world *w, const double centre[3], const double o[3]) {
    const double *c = centre;
    add_box_d(w, o, c[0] - 50, c[1] - 1, c[2] - 50, c[0] + 50, c[1], c[2] + 50);
    for (int k = 0; k < 10; ++k)
        add_box_d(w, o, c[0] + 1.0 + 0.3 * k, c[1], c[2] - 1, c[0] + 20, c[1] + 0.2 * (k + 1), c[2] + 1);
}

typedef struct climb {
    float reached_top_at; // first time y >= 1.95 above the start, s (INFINITY: never)
    float largest_rise;   // per frame, m
    float mean_speed;     // horizontal, from x 0.69 past the start until the top, m/s
    tread_vec3 end;       // relative to the start
} climb;

// Walk S1 from `start` (tread coordinates) as the course does and measure what its thresholds read.
static climb walk_s1(const tread_world *w, tread_vec3 start) {
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, start), TREAD_OK);
    climb c = {INFINITY, 0.0f, 0.0f, tread_v3_zero()};
    float climbing_time = 0.0f, climbing_distance = 0.0f;
    for (int f = 1; f <= 180; ++f) {
        tread_vec3 before = ch.position;
        tread_move_result res;
        assert_int_equal(tread_character_move(w, &ch, tread_v3(4, 0, 0), DT, &res), TREAD_OK);
        float y = ch.position.y - start.y, x = before.x - start.x;
        c.largest_rise = fmaxf(c.largest_rise, ch.position.y - before.y);
        if (x > 0.69f && isinf(c.reached_top_at)) {
            climbing_time += DT;
            climbing_distance += hypotf(ch.position.x - before.x, ch.position.z - before.z);
        }
        if (y >= 1.95f && isinf(c.reached_top_at)) c.reached_top_at = (float)f * DT;
    }
    c.mean_speed = climbing_time > 0.0f ? climbing_distance / climbing_time : 0.0f;
    c.end = tread_v3_sub(ch.position, start);
    return c;
}

static void expect_s1_thresholds(climb c) {
    assert_true(c.reached_top_at <= 1.0f); // reaches y 1.95 by 1.0 s
    assert_true(c.largest_rise <= 0.4f);   // rise per frame
    assert_true(c.mean_speed >= 3.6f);     // speed while climbing
    assert_true(c.end.x >= 4.0f);          // on the top landing
    assert_true(c.end.y >= 1.98f && c.end.y <= 2.02f);
}

// S1 a thousand kilometres out, built by the game in double relative to an origin next to it: tread sees S1 at its
// origin and keeps every threshold. Without the shift the world is refused (beyond the coordinate limit).
static void test_s1_built_relative_to_a_far_origin(void **state) {
    (void)state;
    const double centre[3] = {1.0e6, 0.0, 1.0e6};
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    build_s1(w, centre, centre);
    expect_s1_thresholds(walk_s1(w, tread_v3(0, 0, 0)));
    tread_body_def def = tread_body_def_default();
    def.transform.p = tread_v3((float)centre[0], 0.0f, (float)centre[2]);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_ERR_INVALID_ARGUMENT);
    tread_world_destroy(w);
}

// S1 at the edge of the usable range still keeps every threshold; that is what the limit promises.
static void test_s1_at_the_coordinate_limit(void **state) {
    (void)state;
    const double zero[3] = {0.0, 0.0, 0.0}, centre[3] = {TREAD_MAX_COORDINATE - 60.0, 0.0, TREAD_MAX_COORDINATE - 60.0};
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    build_s1(w, centre, zero);
    expect_s1_thresholds(walk_s1(w, tread_v3((float)centre[0], 0.0f, (float)centre[2])));
    tread_world_destroy(w);
}

// 50 km at 20 m/s, the origin moved every kilometre with the character, the floor streamed around it as a game
// would: it never sinks or lifts, and at the end it still climbs stairs as S1 does.
static void test_walk_50_km_shifting_every_km(void **state) {
    (void)state;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_id floor = add_box(w, tread_v3(-1500, -1, -5), tread_v3(1500, 0, 5));
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
    double travelled = 0.0; // game coordinates: shifts so far
    float lowest = INFINITY, highest = -INFINITY;
    while (travelled < 50000.0) {
        tread_move_result res;
        assert_int_equal(tread_character_move(w, &ch, tread_v3(20, 0, 0), DT, &res), TREAD_OK);
        assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
        lowest = fminf(lowest, ch.position.y);
        highest = fmaxf(highest, ch.position.y);
        if (ch.position.x < 1000.0f) continue;
        assert_int_equal(tread_world_shift_origin(w, tread_v3(1000, 0, 0), &ch, 1), TREAD_OK);
        travelled += 1000.0;
        assert_int_equal(tread_world_remove_body(w, floor), TREAD_OK); // the terrain behind is streamed out
        floor = add_box(w, tread_v3(-1500, -1, -5), tread_v3(1500, 0, 5));
    }
    assert_true(travelled + ch.position.x >= 50000.0);
    assert_true(lowest >= 0.0f && highest <= 0.0021f); // resting on the floor at the skin, every frame
    const double origin[3] = {0.0, 0.0, 0.0}, stairs[3] = {(double)ch.position.x + 2.0, 0.0, 0.0};
    assert_int_equal(tread_world_remove_body(w, floor), TREAD_OK);
    build_s1(w, stairs, origin);
    expect_s1_thresholds(walk_s1(w, tread_v3(ch.position.x + 2.0f, ch.position.y, ch.position.z)));
    tread_world_destroy(w);
}

// A shift moves bodies (and their bounds, and kinematic motion) and the given characters by the same subtraction;
// the next move is the old one translated.
static void test_shift_moves_world_and_characters_together(void **state) {
    (void)state;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_id box = add_box(w, tread_v3(-20, -1, -20), tread_v3(20, 0, 20));
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_KINEMATIC;
    def.transform.p = tread_v3(5, 1, 5);
    def.linear_velocity = tread_v3(1, 0, 0);
    tread_body_id mover;
    assert_int_equal(tread_world_add_body(w, &def, &mover), TREAD_OK);
    tread_character ch, other;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(1, 0.002f, 2)), TREAD_OK);
    other = ch;
    tread_move_result res;
    assert_int_equal(tread_character_move(w, &ch, tread_v3(1, 0, 0), DT, &res), TREAD_OK);
    tread_character copy = ch;
    tread_move_result unshifted;
    assert_int_equal(tread_character_move(w, &copy, tread_v3(2, 0, 1), DT, &unshifted), TREAD_OK);

    const tread_vec3 offset = tread_v3(12.5f, -3.25f, 7.0f);
    tread_transform t_box, t_mover;
    tread_aabb a_box, a_after;
    assert_int_equal(tread_body_get_transform(w, box, &t_box), TREAD_OK);
    assert_int_equal(tread_body_get_transform(w, mover, &t_mover), TREAD_OK);
    assert_int_equal(tread_body_get_aabb(w, box, &a_box), TREAD_OK);
    tread_vec3 ground_point = ch.ground.point;
    assert_int_equal(tread_world_shift_origin(w, offset, &ch, 1), TREAD_OK);
    tread_transform t;
    assert_int_equal(tread_body_get_transform(w, box, &t), TREAD_OK);
    expect_same(t.p, tread_v3_sub(t_box.p, offset));
    assert_int_equal(tread_body_get_aabb(w, box, &a_after), TREAD_OK);
    assert_float_equal(a_after.min.x, a_box.min.x - offset.x, 1e-5f);
    assert_float_equal(a_after.max.y, a_box.max.y - offset.y, 1e-5f);
    expect_same(ch.ground.point, tread_v3_sub(ground_point, offset));
    // A character not passed keeps its coordinates.
    expect_same(other.position, tread_v3(1, 0.002f, 2));
    // The next move is the old one, translated (to float rounding at these magnitudes).
    tread_move_result shifted;
    assert_int_equal(tread_character_move(w, &ch, tread_v3(2, 0, 1), DT, &shifted), TREAD_OK);
    assert_float_equal(shifted.position.x + offset.x, unshifted.position.x, 1e-5f);
    assert_float_equal(shifted.position.y + offset.y, unshifted.position.y, 1e-5f);
    assert_float_equal(shifted.position.z + offset.z, unshifted.position.z, 1e-5f);
    assert_int_equal(shifted.ground.state, unshifted.ground.state);
    // Kinematic motion goes on from the shifted place.
    assert_int_equal(tread_world_advance(w, 0.5f), TREAD_OK);
    assert_int_equal(tread_body_get_transform(w, mover, &t), TREAD_OK);
    assert_float_equal(t.p.x, t_mover.p.x - offset.x + 0.5f, 1e-5f);
    tread_world_destroy(w);
}

// Every error leaves the world and the characters as they were.
static void test_shift_errors_change_nothing(void **state) {
    (void)state;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_id box = add_box(w, tread_v3(-1, -1, -1), tread_v3(1, 0, 1));
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
    tread_character before = ch;
    assert_int_equal(tread_world_shift_origin(NULL, tread_v3(1, 0, 0), &ch, 1), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_shift_origin(w, tread_v3(1, 0, 0), NULL, 1), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_world_shift_origin(w, tread_v3(1, 0, 0), &ch, -1), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_world_shift_origin(w, tread_v3(NAN, 0, 0), &ch, 1), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "offset"));
    // The body would land beyond the limit; then a character would.
    assert_int_equal(tread_world_shift_origin(w, tread_v3(TREAD_MAX_COORDINATE + 10.0f, 0, 0), &ch, 1), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "body"));
    assert_int_equal(tread_character_set_position(&ch, tread_v3(TREAD_MAX_COORDINATE - 1.0f, 0, 0)), TREAD_OK);
    before = ch;
    assert_int_equal(tread_world_shift_origin(w, tread_v3(-10.0f, 0, 0), &ch, 1), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "characters[0]"));
    assert_memory_equal(&before, &ch, sizeof ch);
    tread_transform t;
    assert_int_equal(tread_body_get_transform(w, box, &t), TREAD_OK);
    expect_same(t.p, tread_v3(0, -0.5f, 0));
    assert_int_equal(tread_world_shift_origin(w, tread_v3_zero(), NULL, 0), TREAD_OK); // nothing to move: fine
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s1_built_relative_to_a_far_origin),
        cmocka_unit_test(test_s1_at_the_coordinate_limit),
        cmocka_unit_test(test_walk_50_km_shifting_every_km),
        cmocka_unit_test(test_shift_moves_world_and_characters_together),
        cmocka_unit_test(test_shift_errors_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
