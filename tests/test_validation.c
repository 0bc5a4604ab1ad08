// SPDX-License-Identifier: MIT
// Every input validated once, at the door (issue 27): loads check every field as init and the setters do, a
// character's settings are checked on every public entry (it is the caller's plain data), up vectors normalise
// without overflow, surfaces keep to the speed limit over the whole body, a dynamic body put somewhere pushes no one,
// and a character at the coordinate limit moves back inward. Each refusal names the field and changes nothing.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"

static void assert_message_has(const char *part) {
    if (!strstr(tread_error_message(), part)) fail_msg("message \"%s\" lacks \"%s\"", tread_error_message(), part);
}

static tread_character standing(tread_world *w, tread_vec3 feet) {
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, feet), TREAD_OK);
    tread_move_result res;
    for (int i = 0; i < 5; ++i) assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -1, 0), COURSE_DT, &res), TREAD_OK);
    assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
    return ch;
}

// ---- up vectors ------------------------------------------------------------------------------------------------

// (0, 1e30, 0) squared to infinity and was stored as up = (0, 0, 0); every later move returned OK.
static void test_up_is_normalised_without_overflow(void **state) {
    (void)state;
    tread_character_settings s = tread_character_settings_default();
    tread_character ch;
    const tread_vec3 ups[] = {{0, 1e30f, 0}, {0, 3e38f, 0}, {0, 1e-40f, 0}, {0, 1e-20f, 0}, {0, 0, -1e25f}};
    const tread_vec3 want[] = {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}, {0, 0, -1}};
    for (int i = 0; i < 5; ++i) {
        s.up = ups[i];
        assert_int_equal(tread_character_init(&ch, &s, tread_v3_zero()), TREAD_OK);
        assert_memory_equal(&ch.settings.up, &want[i], sizeof want[i]);
    }
    // A diagonal huge up is as long as a small one's.
    s.up = tread_v3(2e30f, 2e30f, 0);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3_zero()), TREAD_OK);
    assert_float_equal(tread_v3_length(ch.settings.up), 1.0f, 1e-6f);
    assert_float_equal(ch.settings.up.x, ch.settings.up.y, 0.0f);
    // An ordinary up normalises to the bits it always did (the pinned behaviour of every valid input).
    s.up = tread_v3(0.3f, 0.9f, 0.1f);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3_zero()), TREAD_OK);
    tread_vec3 usual = tread_v3_normalize(s.up);
    assert_memory_equal(&ch.settings.up, &usual, sizeof usual);
    // Zero and non-finite are refused by name, and the character is not touched.
    tread_character before = ch;
    s.up = tread_v3_zero();
    assert_int_equal(tread_character_init(&ch, &s, tread_v3_zero()), TREAD_ERR_INVALID_ARGUMENT);
    assert_message_has("settings.up");
    s.up = tread_v3(0, INFINITY, 0);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3_zero()), TREAD_ERR_NOT_FINITE);
    assert_message_has("settings.up");
    s.up = tread_v3(NAN, 1, 0);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3_zero()), TREAD_ERR_NOT_FINITE);
    assert_memory_equal(&ch, &before, sizeof ch);
}

// A query shape's up too: the constructors stored (0, 0, 0) for (1e30, 0, 0) (the query then refused "the zero
// vector"), and a shape filled by hand with it was taken as no direction by the query and the backend's rotation.
static void test_query_shape_up_is_normalised_without_overflow(void **state) {
    (void)state;
    tread_query_shape capsule = tread_query_capsule(0.6f, 0.3f, tread_v3(1e30f, 0, 0));
    tread_query_shape box = tread_query_box(tread_v3(0.3f, 0.9f, 0.3f), tread_v3(0, 0, 1e-40f));
    const tread_vec3 x = {1, 0, 0}, z = {0, 0, 1};
    assert_memory_equal(&capsule.up, &x, sizeof x);
    assert_memory_equal(&box.up, &z, sizeof z);
    // Cast down onto the floor: the long up gives the very hit the unit up gives (a capsule lying along x).
    tread_world *w = course_world();
    tread_query_shape lying = tread_query_capsule(0.6f, 0.3f, x);
    tread_query_shape by_hand = lying;
    by_hand.up = tread_v3(3e38f, 0, 0);
    tread_shape_hit a, b;
    assert_int_equal(tread_world_cast_shape(w, &lying, tread_v3(0, 2, 0), tread_v3(0, -3, 0), NULL, &a), TREAD_OK);
    assert_int_equal(tread_world_cast_shape(w, &by_hand, tread_v3(0, 2, 0), tread_v3(0, -3, 0), NULL, &b), TREAD_OK);
    assert_true(a.hit && b.hit);
    assert_memory_equal(&a, &b, sizeof a);
    tread_quat qa = tread_query_shape_rotation(&lying), qb = tread_query_shape_rotation(&by_hand);
    assert_memory_equal(&qa, &qb, sizeof qa);
    assert_true(qa.w != 1.0f); // (turned: Y to X)
    by_hand.up = tread_v3_zero();
    assert_int_equal(tread_world_cast_shape(w, &by_hand, tread_v3(0, 2, 0), tread_v3(0, -3, 0), NULL, &b), TREAD_ERR_INVALID_SHAPE);
    assert_message_has("shape.up");
    tread_world_destroy(w);
}

// ---- the character's settings on every entry -------------------------------------------------------------------

typedef void corrupt_fn(tread_character *ch);
static void radius_negative(tread_character *ch) { ch->settings.radius = -1.0f; }
static void iterations_huge(tread_character *ch) { ch->settings.max_slide_iterations = 100000; }
static void timer_nan(tread_character *ch) { ch->snap_suppress_time = NAN; }
static void normal_zero(tread_character *ch) { ch->ground.normal = tread_v3_zero(); }
static void velocity_huge(tread_character *ch) { ch->velocity = tread_v3(3e38f, 0, 0); }
static void up_long(tread_character *ch) { ch->settings.up = tread_v3(0, 2, 0); }

// Every public function that reads a character refuses one whose hand-written fields are out of range, naming the
// field, and leaves it (and the world) as it was. Radius -1 walked through a pillar; 1e5 iterations and a NaN timer
// passed.
static void test_hand_written_settings_are_refused_on_every_entry(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(0.5f, 0, -0.5f), tread_v3(1.5f, 3, 0.5f)); // a pillar ahead
    tread_batch *batch = NULL;
    tread_batch_def bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &batch), TREAD_OK);
    const struct {
        corrupt_fn *corrupt;
        tread_result code;
        const char *field;
    } cases[] = {
        {radius_negative, TREAD_ERR_INVALID_SHAPE, "character->settings.radius"},
        {iterations_huge, TREAD_ERR_INVALID_ARGUMENT, "character->settings.max_slide_iterations"},
        {timer_nan, TREAD_ERR_NOT_FINITE, "character->snap_suppress_time"},
        {normal_zero, TREAD_ERR_INVALID_ARGUMENT, "character->ground.normal"},
        {velocity_huge, TREAD_ERR_INVALID_ARGUMENT, "character->velocity"},
        {up_long, TREAD_ERR_INVALID_ARGUMENT, "character->settings.up"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        tread_character ch = standing(w, tread_v3(-1, 0, 0));
        cases[k].corrupt(&ch);
        const tread_character before = ch;
        tread_move_result res;
        tread_move_state st;
        const tread_vec3 v = tread_v3(4, 0, 0);
        tread_result got[12];
        int n = 0;
        got[n++] = tread_character_move(w, &ch, v, COURSE_DT, &res);
        got[n++] = tread_character_update(w, &ch, v, COURSE_DT, &st);
        tread_move_options o = tread_move_options_default();
        got[n++] = tread_character_move_with(w, &ch, v, COURSE_DT, &o, &res);
        got[n++] = tread_character_set_position(&ch, tread_v3(0, 0, 3));
        got[n++] = tread_character_suppress_snap(&ch, 1.0f);
        tread_character_settings s = tread_character_settings_default();
        got[n++] = tread_character_set_settings(w, &ch, &s);
        got[n++] = tread_character_set_height(w, &ch, 1.0f, NULL);
        unsigned char bytes[TREAD_CHARACTER_STATE_SIZE];
        size_t size;
        got[n++] = tread_character_save(&ch, bytes, sizeof bytes, &size);
        got[n++] = tread_world_shift_origin(w, tread_v3(1, 0, 0), &ch, 1);
        tread_motor_state ms = tread_motor_state_default();
        tread_motor_settings mset = tread_motor_settings_default();
        tread_motor_input in = tread_motor_input_default();
        tread_vec3 out;
        got[n++] = tread_motor_update(&ms, &mset, &in, &ch, NULL, NULL, 0, COURSE_DT, &out);
        for (int i = 0; i < n; ++i) {
            if (got[i] != cases[k].code)
                fail_msg("case %zu, entry %d: %s (%s), expected %s", k, i, tread_result_name(got[i]), tread_error_message(),
                         tread_result_name(cases[k].code));
        }
        assert_memory_equal(&ch, &before, sizeof ch);
        // The batch names the character by its index.
        tread_character crowd[2] = {standing(w, tread_v3(-3, 0, 3)), ch};
        tread_vec3 vs[2] = {v, v};
        tread_move_result rs[2];
        assert_int_equal(tread_batch_move(batch, w, crowd, vs, 2, COURSE_DT, rs), cases[k].code);
        assert_message_has("characters[1]");
        assert_message_has(cases[k].field + strlen("character->"));
        // The phases after an update: a valid result does not make a bad character acceptable.
        tread_character good = standing(w, tread_v3(-1, 0, 0));
        assert_int_equal(tread_character_update(w, &good, v, COURSE_DT, &st), TREAD_OK);
        assert_int_equal(tread_character_walk_stairs(w, &ch, &st), cases[k].code);
        assert_int_equal(tread_character_stick_to_floor(w, &ch, v, &st), cases[k].code);
        assert_message_has(cases[k].field);
        assert_false(tread_character_can_walk_stairs(&ch, &st));
        assert_memory_equal(&ch, &before, sizeof ch);
    }
    tread_batch_destroy(batch);
    tread_world_destroy(w);
}

// ---- loads -----------------------------------------------------------------------------------------------------

// Byte offsets in a character's saved state (tread_character_save: the mark, the version, the settings, then the
// state, field by field).
enum { AT_UP_Y = 24, AT_VELOCITY_X = 132, AT_NORMAL_Y = 152, AT_POINT_X = 160 };

static void put_f32(unsigned char *b, size_t at, float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    for (int i = 0; i < 4; ++i) b[at + (size_t)i] = (unsigned char)(u >> (8 * i));
}

// A load accepts only states init and a move could have made: ground normals of length 0 or 2, velocities of
// 3e38 m/s and a zero up were accepted. The target is untouched by a refused load.
static void test_character_load_refuses_what_init_refuses(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_character ch = standing(w, tread_v3(0, 0, 0));
    unsigned char b[TREAD_CHARACTER_STATE_SIZE], bad[TREAD_CHARACTER_STATE_SIZE];
    size_t size;
    assert_int_equal(tread_character_save(&ch, b, sizeof b, &size), TREAD_OK);
    tread_character target = standing(w, tread_v3(3, 0, 3));
    const tread_character before = target;
    const struct {
        size_t at;
        float value;
        tread_result code;
        const char *field;
    } cases[] = {
        {AT_NORMAL_Y, 0.0f, TREAD_ERR_INVALID_ARGUMENT, "ground.normal"},
        {AT_NORMAL_Y, 2.0f, TREAD_ERR_INVALID_ARGUMENT, "ground.normal"},
        {AT_VELOCITY_X, 3e38f, TREAD_ERR_INVALID_ARGUMENT, "velocity"},
        {AT_VELOCITY_X, INFINITY, TREAD_ERR_NOT_FINITE, "velocity"},
        {AT_UP_Y, 0.0f, TREAD_ERR_INVALID_ARGUMENT, "settings.up"},
        {AT_POINT_X, 1e30f, TREAD_ERR_INVALID_ARGUMENT, "ground.point"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        memcpy(bad, b, sizeof b);
        put_f32(bad, cases[k].at, cases[k].value);
        assert_int_equal(tread_character_load(&target, bad, sizeof bad), cases[k].code);
        assert_message_has(cases[k].field);
        assert_memory_equal(&target, &before, sizeof target);
    }
    // Every single flipped bit: refused (the target untouched), or a state every public entry accepts and that moves.
    int accepted = 0;
    for (size_t bit = 0; bit < 8 * sizeof b; ++bit) {
        memcpy(bad, b, sizeof b);
        bad[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        tread_character t = before;
        if (tread_character_load(&t, bad, sizeof bad) != TREAD_OK) {
            assert_memory_equal(&t, &before, sizeof t);
            continue;
        }
        ++accepted;
        tread_move_result res;
        unsigned char again[TREAD_CHARACTER_STATE_SIZE];
        assert_int_equal(tread_character_save(&t, again, sizeof again, &size), TREAD_OK);
        tread_result r = tread_character_move(w, &t, tread_v3(1, -1, 0), COURSE_DT, &res);
        if (r != TREAD_OK) fail_msg("bit %zu: loaded, then the move failed: %s", bit, tread_error_message());
    }
    assert_true(accepted > 0);
    tread_world_destroy(w);
}

// Bodies: a world of a turning kinematic disc, a lift and a dynamic crate, saved mid-motion.
typedef struct bodies {
    tread_world *world;
    tread_body_id disc, lift, crate;
} bodies;

static bodies moving_bodies(void) {
    bodies s;
    s.world = course_world();
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_KINEMATIC;
    def.shape = tread_shape_box(tread_v3(2, 0.1f, 2));
    def.transform.p = tread_v3(-5, 0.1f, 0);
    def.angular_velocity = tread_v3(0, 0.9f, 0);
    def.surface.linear = tread_v3(1, 0, 0);
    assert_int_equal(tread_world_add_body(s.world, &def, &s.disc), TREAD_OK);
    def.shape = tread_shape_box(tread_v3(1, 0.1f, 1));
    def.transform.p = tread_v3(-5, 0.1f, 5);
    def.angular_velocity = tread_v3_zero();
    def.surface.linear = tread_v3_zero();
    def.linear_velocity = tread_v3(0, 0.7f, 0);
    assert_int_equal(tread_world_add_body(s.world, &def, &s.lift), TREAD_OK);
    def.type = TREAD_BODY_DYNAMIC;
    def.linear_velocity = tread_v3_zero();
    def.shape = tread_shape_box(tread_v3(0.4f, 0.4f, 0.4f));
    def.transform.p = tread_v3(-2, 0.4f, -4);
    assert_int_equal(tread_world_add_body(s.world, &def, &s.crate), TREAD_OK);
    for (int f = 0; f < 30; ++f) {
        tread_transform t = {tread_v3(-2.0f + 0.01f * (float)f, 0.4f, -4), tread_quat_from_axis_angle(tread_v3(0, 1, 0), 0.02f * (float)f)};
        assert_int_equal(tread_body_move_to(s.world, s.crate, t, tread_v3(0.6f, 0, 0), tread_v3(0, 1.2f, 0)), TREAD_OK);
        assert_int_equal(tread_world_advance(s.world, COURSE_DT), TREAD_OK);
    }
    return s;
}

static void motion_of(const bodies *s, tread_transform out[6]) {
    assert_int_equal(tread_body_get_motion(s->world, s->disc, &out[0], &out[1]), TREAD_OK);
    assert_int_equal(tread_body_get_motion(s->world, s->lift, &out[2], &out[3]), TREAD_OK);
    assert_int_equal(tread_body_get_motion(s->world, s->crate, &out[4], &out[5]), TREAD_OK);
}

// Offsets in saved bodies: a 16-byte header (mark, version, count, the last advance's motion bound), then 188 bytes a
// body (slot, generation, type, moved, then the transform: position and rotation; the previous one; velocities; the
// surface's).
enum { BODY_MOTION_BOUND = 12, BODY_HEADER = 16, BODY_SIZE = 188, BODY_P_X = 16, BODY_Q_X = 28, BODY_SURFACE_LINEAR_X = 96 };

// A flipped bit gave a rotation component of 4.2e37 (the next move asserted), a platform at x = 1e20 (it vanished):
// loads check every field as the setters do, and a refused load changes no body.
static void test_body_load_refuses_what_the_setters_refuse(void **state) {
    (void)state;
    bodies s = moving_bodies();
    size_t size;
    assert_int_equal(tread_world_save_bodies(s.world, NULL, 0, &size), TREAD_OK);
    assert_int_equal(size, (size_t)(BODY_HEADER + 3 * BODY_SIZE));
    unsigned char *b = (unsigned char *)malloc(size), *bad = (unsigned char *)malloc(size);
    assert_non_null(b);
    assert_non_null(bad);
    assert_int_equal(tread_world_save_bodies(s.world, b, size, &size), TREAD_OK);
    assert_int_equal(tread_world_advance(s.world, COURSE_DT), TREAD_OK);
    tread_transform before[6], after[6];
    motion_of(&s, before);
    const struct {
        size_t at;
        float value;
        tread_result code;
        const char *field;
    } cases[] = {
        {BODY_HEADER + BODY_Q_X, 4.2e37f, TREAD_ERR_INVALID_ARGUMENT, "transform.q"},
        {BODY_HEADER + BODY_Q_X, 0.5f, TREAD_ERR_INVALID_ARGUMENT, "transform.q"},
        {BODY_HEADER + BODY_SIZE + BODY_P_X, 1e20f, TREAD_ERR_INVALID_ARGUMENT, "transform.p"},
        {BODY_HEADER + 2 * BODY_SIZE + BODY_P_X, NAN, TREAD_ERR_NOT_FINITE, "transform"},
        {BODY_HEADER + BODY_SURFACE_LINEAR_X, 2000.0f, TREAD_ERR_INVALID_ARGUMENT, "surface.linear"},
        {BODY_MOTION_BOUND, 3e37f, TREAD_ERR_INVALID_ARGUMENT, "motion bound"}, // (every move then failed)
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        memcpy(bad, b, size);
        put_f32(bad, cases[k].at, cases[k].value);
        assert_int_equal(tread_world_load_bodies(s.world, bad, size), cases[k].code);
        assert_message_has(cases[k].field);
        motion_of(&s, after);
        assert_memory_equal(after, before, sizeof after);
    }
    // Every single flipped bit: refused with nothing changed, or every body's state is one the setters accept, and a
    // character moves among them.
    int accepted = 0;
    for (size_t bit = 0; bit < 8 * size; ++bit) {
        memcpy(bad, b, size);
        bad[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        assert_int_equal(tread_world_load_bodies(s.world, b, size), TREAD_OK); // (from the same state each time)
        motion_of(&s, before);
        if (tread_world_load_bodies(s.world, bad, size) != TREAD_OK) {
            motion_of(&s, after);
            assert_memory_equal(after, before, sizeof after);
            continue;
        }
        ++accepted;
        motion_of(&s, after);
        tread_body_id ids[3] = {s.disc, s.lift, s.crate};
        for (int i = 0; i < 3; ++i) {
            for (int k = 0; k < 2; ++k) {
                tread_quat q = after[2 * i + k].q;
                float len = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
                if (!(fabsf(len - 1.0f) <= 1e-3f)) fail_msg("bit %zu: body %d holds a rotation of length %g", bit, i, (double)len);
            }
            tread_surface_velocity sv;
            assert_int_equal(tread_body_get_surface_velocity(s.world, ids[i], &sv), TREAD_OK);
            assert_int_equal(tread_body_set_surface_velocity(s.world, ids[i], &sv), TREAD_OK);
            assert_int_equal(tread_body_set_transform(s.world, ids[i], after[2 * i + 1]), TREAD_OK);
        }
        tread_character ch;
        tread_character_settings cs = tread_character_settings_default();
        assert_int_equal(tread_character_init(&ch, &cs, tread_v3(-5, 0.2f, 0)), TREAD_OK);
        tread_move_result res;
        tread_result r = tread_character_move(s.world, &ch, tread_v3(1, -1, 0), COURSE_DT, &res);
        if (r != TREAD_OK) fail_msg("bit %zu: loaded, then the move failed: %s", bit, tread_error_message());
    }
    assert_true(accepted > 0);
    free(b);
    free(bad);
    tread_world_destroy(s.world);
}

// ---- surfaces ------------------------------------------------------------------------------------------------------

// A surface carries riders at its own speed, so it keeps to a move's speed limit everywhere on the body: a 2,000 m/s
// conveyor carried a rider 1,967 m in a second; one turning at 6e6 m/s at its rim made every move fail.
static void test_surface_speed_is_limited_over_the_body(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(3, 0.1f, 4)); // its corners 5 m (and a little) from its centre
    def.transform.p = tread_v3(0, 0.1f, 0);
    tread_body_id belt;
    assert_int_equal(tread_world_add_body(w, &def, &belt), TREAD_OK);
    tread_surface_velocity sv = {tread_v3(2000, 0, 0), tread_v3_zero(), tread_v3_zero()};
    assert_int_equal(tread_body_set_surface_velocity(w, belt, &sv), TREAD_ERR_INVALID_ARGUMENT);
    assert_message_has("surface.linear");
    // Rim 5.001 m: 190 rad/s is 950 m/s there, 200 rad/s is 1,000.2 m/s.
    float rim = tread_v3_length(tread_v3(3, 0.1f, 4));
    sv = (tread_surface_velocity){tread_v3_zero(), tread_v3(0, 190, 0), tread_v3_zero()};
    assert_int_equal(tread_body_set_surface_velocity(w, belt, &sv), TREAD_OK);
    sv.angular = tread_v3(0, 1000.0f / rim * 1.001f, 0);
    assert_int_equal(tread_body_set_surface_velocity(w, belt, &sv), TREAD_ERR_INVALID_ARGUMENT);
    assert_message_has("surface.angular");
    assert_message_has("rim");
    // Linear and turning together: 900 m/s along and 20 rad/s (100 m/s at the rim) is past it.
    sv = (tread_surface_velocity){tread_v3(900, 0, 0), tread_v3(0, 20.1f, 0), tread_v3_zero()};
    assert_int_equal(tread_body_set_surface_velocity(w, belt, &sv), TREAD_ERR_INVALID_ARGUMENT);
    // Turning about a centre off the body: the rim is measured from that centre.
    sv = (tread_surface_velocity){tread_v3_zero(), tread_v3(0, 10, 0), tread_v3(100, 0, 0)};
    assert_int_equal(tread_body_set_surface_velocity(w, belt, &sv), TREAD_ERR_INVALID_ARGUMENT);
    tread_surface_velocity now;
    assert_int_equal(tread_body_get_surface_velocity(w, belt, &now), TREAD_OK);
    assert_float_equal(now.angular.y, 190.0f, 0.0f); // the last accepted one
    // A definition is held to it too (its shape's bounds are the rim), and a refused one adds no body.
    int count = tread_world_body_count(w);
    def.surface.linear = tread_v3(0, 0, 1001);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_ERR_INVALID_ARGUMENT);
    assert_message_has("def.surface.linear");
    def.surface.linear = tread_v3_zero();
    def.shape = tread_shape_sphere(10.0f);
    def.surface.angular = tread_v3(101, 0, 0);
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_ERR_INVALID_ARGUMENT);
    assert_message_has("def.surface.angular");
    assert_int_equal(tread_world_body_count(w), count);
    tread_world_destroy(w);
}

// ---- teleports -----------------------------------------------------------------------------------------------------

static tread_body_id add_crate(tread_world *w, tread_vec3 at) {
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_DYNAMIC;
    def.shape = tread_shape_box(tread_v3(0.5f, 0.5f, 0.5f));
    def.transform.p = at;
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return id;
}

// A dynamic body moved farther than TREAD_MAX_SPEED x dt in one advance was put there, not moved there: it pushes no
// one (a 100 m respawn pushed a bystander 50.8 m in that frame). tread_body_set_transform is the caller's way to say
// so at any distance. A body moved within the limit still pushes.
static void test_a_teleported_dynamic_body_pushes_nothing(void **state) {
    (void)state;
    for (int how = 0; how < 3; ++how) {
        tread_world *w = course_world();
        tread_body_id crate = add_crate(w, tread_v3(-50, 0.5f, 0));
        tread_character ch = standing(w, tread_v3(0, 0, 0));
        const tread_transform at = {tread_v3(0.3f, 0.5f, 0), tread_quat_identity()}; // overlapping the character
        if (how == 0) {
            // 50.3 m in 1/60 s: 3,018 m/s.
            assert_int_equal(tread_body_move_to(w, crate, at, tread_v3_zero(), tread_v3_zero()), TREAD_OK);
        } else if (how == 1) {
            assert_int_equal(tread_body_set_transform(w, crate, at), TREAD_OK);
        } else {
            // Just within the limit over the advance's dt (1,000 m/s x 1/60 s = 16.7 m): a motion, which pushes.
            tread_transform near = {tread_v3(-16.0f, 0.5f, 0), tread_quat_identity()};
            assert_int_equal(tread_body_set_transform(w, crate, near), TREAD_OK);
            assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
            assert_int_equal(tread_body_move_to(w, crate, at, tread_v3(960, 0, 0), tread_v3_zero()), TREAD_OK);
        }
        assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
        tread_transform prev, now;
        assert_int_equal(tread_body_get_motion(w, crate, &prev, &now), TREAD_OK);
        tread_vec3 feet = ch.position;
        tread_move_result res;
        assert_int_equal(tread_character_move(w, &ch, tread_v3_zero(), COURSE_DT, &res), TREAD_OK);
        if (how < 2) {
            assert_memory_equal(&prev, &now, sizeof now); // no motion over the frame
            assert_true(tread_v3_length(res.pushed) == 0.0f);
            // (Inside the crate, it is recovered out of it at the recovery speed, not shoved ahead.)
            assert_true(tread_v3_distance(feet, ch.position) < 0.5f);
            assert_true(tread_world_largest_motion(w) == 0.0f);
        } else {
            assert_true(tread_v3_length(res.pushed) > 0.5f); // swept ahead of the crate
        }
        tread_world_destroy(w);
    }
}

// ---- the coordinate limit ------------------------------------------------------------------------------------------

// About 6 m short of the limit every move failed, walking back included (the move's reach crossed it). Now every
// move whose feet stay within the limit succeeds, and the part of one beyond is clamped: the feet stop at the limit.
static void test_a_character_near_the_limit_moves_back_inward(void **state) {
    (void)state;
    const float limit = TREAD_MAX_COORDINATE;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    course_box(w, tread_v3(limit - 100.0f, -1, -50), tread_v3(limit, 0, 50));
    for (int k = 0; k < 3; ++k) {
        const float from[3] = {limit - 6.0f, limit - 0.5f, limit};
        tread_character ch = standing(w, tread_v3(from[k], 0, 0));
        tread_move_result res;
        assert_int_equal(tread_character_move(w, &ch, tread_v3(-3, 0, 0), COURSE_DT, &res), TREAD_OK);
        assert_true(ch.position.x < from[k]);
        assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
        // Along the limit, and outward: it stops at the limit, its outward velocity dropped; its other motion happens.
        for (int f = 0; f < 60; ++f) assert_int_equal(tread_character_move(w, &ch, tread_v3(600, -1, 2), COURSE_DT, &res), TREAD_OK);
        assert_float_equal(ch.position.x, limit, 0.0f);
        assert_float_equal(res.position.x, limit, 0.0f);
        assert_float_equal(res.velocity.x, 0.0f, 0.0f);
        assert_true(ch.position.z > 1.9f);
        assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
        // And back in, by the phases one at a time too.
        tread_move_state st;
        assert_int_equal(tread_character_update(w, &ch, tread_v3(-3, 0, 0), COURSE_DT, &st), TREAD_OK);
        assert_int_equal(tread_character_stick_to_floor(w, &ch, tread_v3(-3, 0, 0), &st), TREAD_OK);
        assert_true(ch.position.x < limit);
    }
    // Falling past the limit below: it stops there (no floor), every frame OK.
    tread_character_settings s = tread_character_settings_default();
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, -limit + 1.0f, 0)), TREAD_OK);
    tread_move_result res;
    for (int f = 0; f < 60; ++f) assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -200, 0), COURSE_DT, &res), TREAD_OK);
    assert_float_equal(ch.position.y, -limit, 0.0f);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_up_is_normalised_without_overflow),
        cmocka_unit_test(test_query_shape_up_is_normalised_without_overflow),
        cmocka_unit_test(test_hand_written_settings_are_refused_on_every_entry),
        cmocka_unit_test(test_character_load_refuses_what_init_refuses),
        cmocka_unit_test(test_body_load_refuses_what_the_setters_refuse),
        cmocka_unit_test(test_surface_speed_is_limited_over_the_body),
        cmocka_unit_test(test_a_teleported_dynamic_body_pushes_nothing),
        cmocka_unit_test(test_a_character_near_the_limit_moves_back_inward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
