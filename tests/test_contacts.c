// SPDX-License-Identifier: MIT
// What characters meet besides the static world: dynamic bodies (pushed by impulses, pushing and carrying), one-way
// platforms, sensors, the contact listener (validate, added / persisted / removed, push permissions) and the
// caller's contact buffer.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"

static tread_body_id add_box(tread_world *w, tread_body_type type, uint32_t flags, tread_vec3 min, tread_vec3 max) {
    tread_body_def def = tread_body_def_default();
    def.type = type;
    def.flags = flags;
    def.shape = tread_shape_box(tread_v3_scale(tread_v3_sub(max, min), 0.5f));
    def.transform.p = tread_v3_scale(tread_v3_add(min, max), 0.5f);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return id;
}

static tread_character standing_at(tread_vec3 feet) {
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, feet), TREAD_OK);
    return ch;
}

// The course's loop for one frame: gravity off the ground, the horizontal input as given.
static tread_vec3 course_velocity(const tread_character *ch, tread_vec3 horizontal) {
    float vy = ch->ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : ch->velocity.y + COURSE_G * COURSE_DT;
    return tread_v3(horizontal.x, vy, horizontal.z);
}

// A resting gap is the skin to within this (metres): a cast ends within the touch tolerance (0.1 mm) of it.
#define SKIN_GAP_TOLERANCE 1.0e-4f

// ---- a log of listener callbacks -----------------------------------------------------------------------------

#define LOG_MAX 4096

typedef struct log_entry {
    char kind; // 'a'dded, 'p'ersisted, 'r'emoved
    int frame;
    tread_contact_event event;
} log_entry;

typedef struct listener_log {
    log_entry e[LOG_MAX];
    int count;
    int frame;
    tread_body_id ignored;  // validate says no to this body
    int ignored_character;  // and to this character of a batch (-1: none)
    int validated;          // validate calls
    int no_push_character;  // this character index cannot be pushed (-1: none)
    tread_body_id no_push_body; // the character cannot be pushed by this body, nor push it
} listener_log;

static void log_event(listener_log *log, char kind, const tread_contact_event *e) {
    if (log->count == LOG_MAX) return;
    log->e[log->count++] = (log_entry){kind, log->frame, *e};
}

static void on_added(const tread_character *c, int index, const tread_contact_event *e, void *ctx) {
    (void)c, (void)index;
    log_event((listener_log *)ctx, 'a', e);
}
static void on_persisted(const tread_character *c, int index, const tread_contact_event *e, void *ctx) {
    (void)c, (void)index;
    log_event((listener_log *)ctx, 'p', e);
}
static void on_removed(const tread_character *c, int index, const tread_contact_event *e, void *ctx) {
    (void)c, (void)index;
    log_event((listener_log *)ctx, 'r', e);
}
static bool on_validate(const tread_character *c, int index, tread_body_id body, int other, void *ctx) {
    (void)c, (void)index;
    listener_log *log = (listener_log *)ctx;
    ++log->validated;
    if (other >= 0) return other != log->ignored_character && index != log->ignored_character; // a ghost to all, all to it
    return body.generation == 0u || !tread_body_id_equal(body, log->ignored);
}
static void on_push(const tread_character *c, int index, const tread_contact_event *e, bool *can_push, bool *can_be_pushed, void *ctx) {
    (void)c;
    listener_log *log = (listener_log *)ctx;
    if (index == log->no_push_character) *can_be_pushed = false;
    if (e->body.generation != 0u && tread_body_id_equal(e->body, log->no_push_body)) *can_push = false, *can_be_pushed = false;
}

// An empty log: nothing ignored, everyone may push and be pushed.
static void reset_log(listener_log *log) {
    memset(log, 0, sizeof *log);
    log->no_push_character = -1;
    log->ignored_character = -1;
}

static tread_contact_listener listener_of(listener_log *log) {
    tread_contact_listener l;
    memset(&l, 0, sizeof l);
    l.added = on_added;
    l.persisted = on_persisted;
    l.removed = on_removed;
    l.validate = on_validate;
    l.push = on_push;
    l.context = log;
    return l;
}

// The events the log holds for `body`, as a string of kinds with runs collapsed ("apr": added, persisted, removed).
static void kinds_of(const listener_log *log, tread_body_id body, char *out, size_t size) {
    size_t n = 0;
    for (int i = 0; i < log->count && n + 1 < size; ++i) {
        if (!tread_body_id_equal(log->e[i].event.body, body)) continue;
        if (n > 0 && out[n - 1] == log->e[i].kind) continue;
        out[n++] = log->e[i].kind;
    }
    out[n] = '\0';
}

// ---- dynamic bodies -------------------------------------------------------------------------------------------

static void test_dynamic_body_api(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_id crate = add_box(w, TREAD_BODY_DYNAMIC, 0u, tread_v3(1, 0, -0.5f), tread_v3(2, 1, 0.5f));
    tread_body_id wall = add_box(w, TREAD_BODY_STATIC, 0u, tread_v3(5, 0, -1), tread_v3(6, 2, 1));
    tread_body_type type;
    uint32_t flags;
    assert_int_equal(tread_body_get_type(w, crate, &type, &flags), TREAD_OK);
    assert_int_equal(type, TREAD_BODY_DYNAMIC);
    assert_int_equal(flags, 0u);
    tread_transform t = {tread_v3(1.6f, 0.5f, 0), tread_quat_identity()};
    assert_int_equal(tread_body_move_to(w, wall, t, tread_v3_zero(), tread_v3_zero()), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "not dynamic"));
    assert_int_equal(tread_body_move_to(w, crate, t, tread_v3(NAN, 0, 0), tread_v3_zero()), TREAD_ERR_NOT_FINITE);
    tread_transform far = {tread_v3(1e9f, 0, 0), tread_quat_identity()};
    assert_int_equal(tread_body_move_to(w, crate, far, tread_v3_zero(), tread_v3_zero()), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_body_get_type(w, crate, NULL, &flags), TREAD_ERR_NULL_ARGUMENT);
    // Flags: unknown bits, and one-way with sensor, are refused.
    tread_body_def def = tread_body_def_default();
    tread_body_id id;
    def.flags = 4u;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "def.flags"));
    def.flags = TREAD_BODY_ONE_WAY | TREAD_BODY_SENSOR;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_ERR_INVALID_ARGUMENT);
    // A move records its motion: moved twice before an advance, the frame's motion runs from the first place.
    assert_int_equal(tread_body_move_to(w, crate, t, tread_v3(6, 0, 0), tread_v3_zero()), TREAD_OK);
    tread_transform t2 = {tread_v3(1.7f, 0.5f, 0), tread_quat_identity()};
    assert_int_equal(tread_body_move_to(w, crate, t2, tread_v3(6, 0, 0), tread_v3_zero()), TREAD_OK);
    tread_transform previous, current;
    assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
    assert_int_equal(tread_body_get_motion(w, crate, &previous, &current), TREAD_OK);
    assert_float_equal(previous.p.x, 1.5f, 1e-6f);
    assert_float_equal(current.p.x, 1.7f, 1e-6f);
    // Not moved in the next frame: it stood still.
    assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
    assert_int_equal(tread_body_get_motion(w, crate, &previous, &current), TREAD_OK);
    assert_float_equal(previous.p.x, 1.7f, 0.0f);
    tread_world_destroy(w);
}

// Walking into a crate gives it an impulse into it, at the contact, of mass x speed capped by max_strength x dt.
static void test_walking_into_a_crate_gives_an_impulse(void **state) {
    (void)state;
    for (int strong = 0; strong < 2; ++strong) {
        tread_world *w = course_world();
        tread_body_id crate = add_box(w, TREAD_BODY_DYNAMIC, 0u, tread_v3(1, 0, -0.5f), tread_v3(2, 1, 0.5f));
        tread_character ch = standing_at(tread_v3(0, 0.002f, 0));
        tread_character_settings s = ch.settings;
        s.max_strength = strong ? 1.0e6f : 100.0f;
        assert_int_equal(tread_character_set_settings(w, &ch, &s), TREAD_OK);
        tread_move_result res;
        tread_body_impulse impulses[2];
        tread_move_options o = tread_move_options_default();
        o.impulses = impulses;
        o.impulse_capacity = 2;
        int frames_with_impulse = 0;
        for (int f = 0; f < 60; ++f) {
            // Every other frame without the buffer: the move is the same, only the count is kept.
            bool buffered = f % 2 == 0;
            assert_int_equal(tread_character_move_with(w, &ch, course_velocity(&ch, tread_v3(2, 0, 0)), COURSE_DT, buffered ? &o : NULL, &res),
                             TREAD_OK);
            assert_false(res.impulses_overflow);
            if (res.impulse_count == 0) continue;
            ++frames_with_impulse;
            assert_int_equal(res.impulse_count, 1);
            if (!buffered) continue;
            const tread_body_impulse *j = &impulses[0];
            assert_true(tread_body_id_equal(j->body, crate));
            assert_float_equal(j->direction.x, 1.0f, 1e-4f);
            assert_float_equal(j->point.x, 1.0f, 1e-3f);
            float expected = strong ? 70.0f * 2.0f : 100.0f * COURSE_DT;
            assert_float_equal(j->magnitude, expected, 1e-3f * expected);
        }
        // It touches the crate within the first half second and pushes every frame after (the crate never moves here).
        assert_true(frames_with_impulse >= 38);
        // A buffer with no room: the count stays, the overflow says none was written.
        o.impulse_capacity = 0;
        assert_int_equal(tread_character_move_with(w, &ch, course_velocity(&ch, tread_v3(2, 0, 0)), COURSE_DT, &o, &res), TREAD_OK);
        assert_int_equal(res.impulse_count, 1);
        assert_true(res.impulses_overflow);
        assert_true(ch.position.x < 1.0f - 0.29f);
        tread_world_destroy(w);
    }
}

// A crate the game moves into the character pushes it as a kinematic body does; one it stands on carries it.
static void test_dynamic_body_pushes_and_carries(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_id crate = add_box(w, TREAD_BODY_DYNAMIC, 0u, tread_v3(-2, 0, -0.5f), tread_v3(-1, 1, 0.5f));
    tread_body_id raft = add_box(w, TREAD_BODY_DYNAMIC, 0u, tread_v3(4, 0, -1), tread_v3(6, 0.5f, 1));
    tread_character walker = standing_at(tread_v3(0, 0.002f, 0));
    tread_character rider = standing_at(tread_v3(5, 0.502f, 0));
    tread_move_result res;
    for (int f = 0; f < 5; ++f) { // settle
        assert_int_equal(tread_character_move(w, &walker, course_velocity(&walker, tread_v3_zero()), COURSE_DT, &res), TREAD_OK);
        assert_int_equal(tread_character_move(w, &rider, course_velocity(&rider, tread_v3_zero()), COURSE_DT, &res), TREAD_OK);
    }
    assert_true(tread_body_id_equal(rider.ground.body, raft));
    // The crate moves 0.5 m a frame (30 m/s) through where the walker stands; the raft drifts 2 cm a frame along z.
    for (int f = 1; f <= 12; ++f) {
        tread_transform t = {tread_v3(-1.5f + 0.5f * (float)f, 0.5f, 0), tread_quat_identity()};
        assert_int_equal(tread_body_move_to(w, crate, t, tread_v3(30, 0, 0), tread_v3_zero()), TREAD_OK);
        tread_transform r = {tread_v3(5, 0.25f, 0.02f * (float)f), tread_quat_identity()};
        assert_int_equal(tread_body_move_to(w, raft, r, tread_v3(0, 0, 1.2f), tread_v3_zero()), TREAD_OK);
        assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
        assert_int_equal(tread_character_move(w, &walker, course_velocity(&walker, tread_v3_zero()), COURSE_DT, &res), TREAD_OK);
        assert_true(course_depth(w, &walker) <= 1e-3f);
        assert_int_equal(tread_character_move(w, &rider, course_velocity(&rider, tread_v3_zero()), COURSE_DT, &res), TREAD_OK);
    }
    // Pushed ahead of the crate (its front at 5 m), never through it.
    assert_true(walker.position.x > 4.9f);
    assert_float_equal(rider.position.z, 0.24f, 2e-3f);
    assert_true(tread_body_id_equal(rider.ground.body, raft));
    tread_world_destroy(w);
}

// ---- one-way platforms ----------------------------------------------------------------------------------------

// Jumping up through a one-way platform from below and landing on it; walking into its side passes through.
static void test_one_way_platform(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_id plank = add_box(w, TREAD_BODY_STATIC, TREAD_BODY_ONE_WAY, tread_v3(-1, 1.0f, -1), tread_v3(1, 1.2f, 1));
    tread_body_type type;
    uint32_t flags;
    assert_int_equal(tread_body_get_type(w, plank, &type, &flags), TREAD_OK);
    assert_int_equal(flags, (uint32_t)TREAD_BODY_ONE_WAY);
    // A jump straight up from under it: through, and down onto its top.
    tread_character ch = standing_at(tread_v3(0, 0.002f, 0));
    tread_move_result res;
    tread_vec3 v = tread_v3(0, 7, 0);
    float highest = 0.0f;
    for (int f = 0; f < 120; ++f) {
        assert_int_equal(tread_character_move(w, &ch, v, COURSE_DT, &res), TREAD_OK);
        highest = fmaxf(highest, ch.position.y);
        v = ch.ground.state == TREAD_GROUND_ON_GROUND ? tread_v3_zero() : tread_v3(0, ch.velocity.y + COURSE_G * COURSE_DT, 0);
    }
    assert_true(highest > 1.5f); // it went up through the plank
    assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
    assert_true(tread_body_id_equal(ch.ground.body, plank));
    assert_float_equal(ch.position.y, 1.2f, 3e-3f);
    // Walking into its side at floor level passes under and through it.
    tread_character walker = standing_at(tread_v3(-3, 0.002f, 0));
    for (int f = 0; f < 120; ++f)
        assert_int_equal(tread_character_move(w, &walker, course_velocity(&walker, tread_v3(3, 0, 0)), COURSE_DT, &res), TREAD_OK);
    assert_true(walker.position.x > 2.5f);
    assert_float_equal(walker.position.y, 0.002f, 1e-3f);
    tread_world_destroy(w);
}

// A one-way lift rising into a character from below passes it; under feet that are above its top, it lifts them.
static void test_rising_one_way_lift(void **state) {
    (void)state;
    for (int above = 0; above < 2; ++above) {
        tread_world *w = course_world();
        // Above: the character stands on a ledge at 1 m and the lift rises from under the floor next to the ledge's
        // edge, under the feet. Below: it stands on the floor with the lift already around its legs (top at 0.5 m).
        if (above) add_box(w, TREAD_BODY_STATIC, 0u, tread_v3(-3, 0, -1), tread_v3(-0.25f, 1, 1));
        tread_body_def def = tread_body_def_default();
        def.type = TREAD_BODY_KINEMATIC;
        def.flags = TREAD_BODY_ONE_WAY;
        def.shape = tread_shape_box(tread_v3(1, 0.1f, 1));
        def.transform.p = tread_v3(0.8f, above ? -0.2f : 0.4f, 0);
        def.linear_velocity = tread_v3(0, 1, 0);
        tread_body_id lift;
        assert_int_equal(tread_world_add_body(w, &def, &lift), TREAD_OK);
        tread_character ch = standing_at(tread_v3(0, above ? 1.002f : 0.002f, 0));
        tread_move_result res;
        for (int f = 0; f < 150; ++f) { // 2.5 s: the lift's top rises 2.5 m
            assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
            assert_int_equal(tread_character_move(w, &ch, course_velocity(&ch, tread_v3_zero()), COURSE_DT, &res), TREAD_OK);
        }
        if (above) {
            assert_true(tread_body_id_equal(ch.ground.body, lift)); // lifted once its top reached the feet at 1 m
            assert_true(ch.position.y > 2.3f);
        } else {
            assert_float_equal(ch.position.y, 0.002f, 1e-3f); // it rose through the character
        }
        tread_world_destroy(w);
    }
}

// ---- sensors and the listener's events ------------------------------------------------------------------------

// Walking through a water volume: it never blocks, queries skip it unless they ask for sensors, and the listener
// hears added (enter) once, persisted (stay) while inside, removed (exit) once, in that order; a wall touched on
// the way gives added, persisted, removed too.
static void test_sensor_and_event_order(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_id water = add_box(w, TREAD_BODY_STATIC, TREAD_BODY_SENSOR, tread_v3(2, 0, -2), tread_v3(4, 1, 2));
    tread_body_id wall = add_box(w, TREAD_BODY_STATIC, 0u, tread_v3(-2, 0, 0.35f), tread_v3(10, 2, 1));
    tread_ray_hit hit;
    assert_int_equal(tread_world_cast_ray(w, tread_v3(3, 5, 0), tread_v3(0, -10, 0), NULL, &hit), TREAD_OK);
    assert_false(tread_body_id_equal(hit.body, water)); // the floor, through the water
    tread_query_filter f = tread_query_filter_default();
    f.include_sensors = true;
    assert_int_equal(tread_world_cast_ray(w, tread_v3(3, 5, 0), tread_v3(0, -10, 0), &f, &hit), TREAD_OK);
    assert_true(tread_body_id_equal(hit.body, water));

    static listener_log log;
    reset_log(&log);
    tread_contact_listener l = listener_of(&log);
    tread_contact_memory memory;
    memset(&memory, 0, sizeof memory);
    tread_move_options o = tread_move_options_default();
    o.listener = &l;
    o.memory = &memory;
    tread_character ch = standing_at(tread_v3(0, 0.002f, 0));
    tread_move_result res;
    for (log.frame = 0; log.frame < 240; ++log.frame) {
        // Along the wall (pressed into it, z) for 3 s, then away from it.
        tread_vec3 h = log.frame < 180 ? tread_v3(2, 0, 0.3f) : tread_v3(0, 0, -2);
        assert_int_equal(tread_character_move_with(w, &ch, course_velocity(&ch, h), COURSE_DT, &o, &res), TREAD_OK);
    }
    assert_true(ch.position.x > 5.5f); // the water did not hold it back
    char kinds[64];
    kinds_of(&log, water, kinds, sizeof kinds);
    assert_string_equal(kinds, "apr");
    kinds_of(&log, wall, kinds, sizeof kinds);
    assert_string_equal(kinds, "apr");
    // Where the events fall: the feet move 2 m/s x 1/60 s a frame (the slide along the wall keeps all of x), so after
    // frame f they are at x = (f + 1) / 30 m. The capsule (radius 0.3 m) overlaps the water [2, 4] once its front is
    // past x = 2 and leaves it once its back is past x = 4: frames 51 (x = 1.733 m) and 129 (x = 4.333 m). Frames 50
    // and 128 end with it exactly touching (x = 1.7 and 4.3 m, up to the float sum's rounding): a tie either way.
    int entered = -1, left = -1;
    for (int i = 0; i < log.count; ++i) {
        if (!tread_body_id_equal(log.e[i].event.body, water)) continue;
        if (log.e[i].kind == 'a') entered = log.e[i].frame;
        if (log.e[i].kind == 'r') left = log.e[i].frame;
        assert_int_equal(log.e[i].event.character, -1);
        assert_int_equal(log.e[i].event.body_flags, (uint32_t)TREAD_BODY_SENSOR);
        assert_true(log.e[i].event.separation <= 0.0f);
    }
    assert_true(entered == 50 || entered == 51);
    assert_true(left == 128 || left == 129);
    // The floor was touched all along: added at the first frame, then persisted every frame.
    int floor_added = 0, floor_persisted = 0;
    for (int i = 0; i < log.count; ++i) {
        if (log.e[i].event.body.index != 0u) continue;
        floor_added += log.e[i].kind == 'a';
        floor_persisted += log.e[i].kind == 'p';
        if (log.e[i].kind == 'p') assert_float_equal(log.e[i].event.normal.y, 1.0f, 1e-4f);
    }
    assert_int_equal(floor_added, 1);
    assert_int_equal(floor_persisted, 239);
    // Validate was asked once per body per move at most (two or three bodies near it each move).
    assert_true(log.validated <= 240 * 3);
    tread_world_destroy(w);
}

// Validate saying no to a wall: the character walks through it and hears nothing of it. A kinematic body pushing
// the character cannot be refused.
static void test_validate_ignores_a_body(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_id wall = add_box(w, TREAD_BODY_STATIC, 0u, tread_v3(1, 0, -1), tread_v3(1.2f, 2, 1));
    static listener_log log;
    reset_log(&log);
    log.ignored = wall;
    tread_contact_listener l = listener_of(&log);
    tread_contact_memory memory;
    memset(&memory, 0, sizeof memory);
    tread_move_options o = tread_move_options_default();
    o.listener = &l;
    o.memory = &memory;
    tread_character ch = standing_at(tread_v3(0, 0.002f, 0));
    tread_move_result res;
    for (int f = 0; f < 60; ++f)
        assert_int_equal(tread_character_move_with(w, &ch, course_velocity(&ch, tread_v3(3, 0, 0)), COURSE_DT, &o, &res), TREAD_OK);
    assert_true(ch.position.x > 2.5f);
    char kinds[64];
    kinds_of(&log, wall, kinds, sizeof kinds);
    assert_string_equal(kinds, "");
    // A kinematic door sweeping through where it stands pushes it, refused or not.
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_KINEMATIC;
    def.shape = tread_shape_box(tread_v3(0.1f, 1, 1));
    def.transform.p = tread_v3(ch.position.x - 1.0f, 1, 0);
    def.linear_velocity = tread_v3(3, 0, 0);
    tread_body_id door;
    assert_int_equal(tread_world_add_body(w, &def, &door), TREAD_OK);
    log.ignored = door;
    float start = ch.position.x;
    for (int f = 0; f < 60; ++f) {
        assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
        assert_int_equal(tread_character_move_with(w, &ch, course_velocity(&ch, tread_v3_zero()), COURSE_DT, &o, &res), TREAD_OK);
    }
    assert_true(ch.position.x > start + 2.0f);
    tread_world_destroy(w);
}

// A dynamic body the listener says cannot push the character (nor be pushed): it goes through the character
// instead, and the character's walk into it gives it no impulse.
static void test_push_permissions_with_a_dynamic_body(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_id crate = add_box(w, TREAD_BODY_DYNAMIC, 0u, tread_v3(1, 0, -0.5f), tread_v3(2, 1, 0.5f));
    static listener_log log;
    reset_log(&log);
    log.no_push_body = crate;
    tread_contact_listener l = listener_of(&log);
    l.added = l.persisted = l.removed = NULL; // no memory needed
    tread_move_options o = tread_move_options_default();
    o.listener = &l;
    tread_character ch = standing_at(tread_v3(0, 0.002f, 0));
    tread_move_result res;
    int impulses = 0;
    for (int f = 0; f < 60; ++f) {
        assert_int_equal(tread_character_move_with(w, &ch, course_velocity(&ch, tread_v3(2, 0, 0)), COURSE_DT, &o, &res), TREAD_OK);
        impulses += res.impulse_count;
    }
    assert_int_equal(impulses, 0);
    assert_true(ch.position.x < 0.71f); // it still blocks
    float x = ch.position.x;
    tread_transform t = {tread_v3(x - 0.5f, 0.5f, 0), tread_quat_identity()}; // moved over the character
    assert_int_equal(tread_body_move_to(w, crate, t, tread_v3_zero(), tread_v3_zero()), TREAD_OK);
    assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
    assert_int_equal(tread_character_move_with(w, &ch, course_velocity(&ch, tread_v3_zero()), COURSE_DT, &o, &res), TREAD_OK);
    assert_float_equal(res.pushed.x, 0.0f, 0.0f);
    // Without the listener the same motion pushes it.
    tread_character other = standing_at(tread_v3(5, 0.002f, 0));
    tread_transform t2 = {tread_v3(5.1f, 0.5f, 0), tread_quat_identity()};
    tread_transform t1 = {tread_v3(4.2f, 0.5f, 0), tread_quat_identity()};
    assert_int_equal(tread_body_move_to(w, crate, t1, tread_v3_zero(), tread_v3_zero()), TREAD_OK);
    assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
    assert_int_equal(tread_body_move_to(w, crate, t2, tread_v3_zero(), tread_v3_zero()), TREAD_OK);
    assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
    assert_int_equal(tread_character_move(w, &other, course_velocity(&other, tread_v3_zero()), COURSE_DT, &res), TREAD_OK);
    assert_true(res.pushed.x > 0.5f);
    tread_world_destroy(w);
}

// In a batch: a character that cannot be pushed is walked into and stays; the walker stops at it.
static void test_batch_push_permission(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_batch *b = NULL;
    tread_batch_def bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
    tread_character c[2] = {standing_at(tread_v3(0, 0.002f, 0)), standing_at(tread_v3(2, 0.002f, 0))};
    c[0].settings.mass = 500.0f; // heavy: it would push the other at 7/8 of its speed
    static listener_log log;
    reset_log(&log);
    log.no_push_character = 1;
    tread_contact_listener l = listener_of(&log);
    tread_move_options o = tread_move_options_default();
    o.listener = &l;
    tread_move_result res[2];
    for (log.frame = 0; log.frame < 120; ++log.frame) {
        tread_vec3 v[2] = {course_velocity(&c[0], tread_v3(2, 0, 0)), course_velocity(&c[1], tread_v3_zero())};
        assert_int_equal(tread_batch_move_with(b, w, c, v, 2, COURSE_DT, &o, res), TREAD_OK);
    }
    assert_float_equal(c[1].position.x, 2.0f, 2e-3f);
    // The walker stops where the two capsules are the skin apart: 2 - 2 x 0.3 - 0.002 = 1.398 m (measured exactly).
    assert_float_equal(c[0].position.x, 2.0f - 2.0f * c[0].settings.radius - c[0].settings.skin, SKIN_GAP_TOLERANCE);
    // The events name the other character by its index.
    bool heard = false;
    for (int i = 0; i < log.count; ++i) heard = heard || (log.e[i].kind == 'a' && log.e[i].event.character == 1);
    assert_true(heard);
    // Character 1 a ghost (ignored by the others and ignoring them): character 0 walks through it, in its move and in
    // the batch's parting.
    log.ignored_character = 1;
    for (log.frame = 0; log.frame < 60; ++log.frame) {
        tread_vec3 v[2] = {course_velocity(&c[0], tread_v3(2, 0, 0)), course_velocity(&c[1], tread_v3_zero())};
        assert_int_equal(tread_batch_move_with(b, w, c, v, 2, COURSE_DT, &o, res), TREAD_OK);
    }
    assert_true(c[0].position.x > 3.0f);
    assert_float_equal(c[1].position.x, 2.0f, 2e-3f);
    // Options a batch does not take.
    tread_contact_memory memory;
    o.memory = &memory;
    tread_vec3 v[2] = {tread_v3_zero(), tread_v3_zero()};
    assert_int_equal(tread_batch_move_with(b, w, c, v, 2, COURSE_DT, &o, res), TREAD_ERR_INVALID_ARGUMENT);
    tread_batch_destroy(b);
    tread_world_destroy(w);
}

// ---- the caller's contact buffer ------------------------------------------------------------------------------

// A character on a finely cut mesh floor (2.5 cm cells: with 5 cm ones, once the corners of a flat floor's triangles
// were left to the triangles around them, it met 16) touches more triangles than the result holds: given a
// buffer, the move lists every surface within skin + ground probe of where it ends; the count counts them all, the
// buffer holds as many as fit, and the overflow flag says when some did not.
static void test_contact_buffer(void **state) {
    (void)state;
    enum { N = 160 }; // cells per side: a 4 x 4 m floor
    static tread_vec3 vertices[(N + 1) * (N + 1)];
    static uint32_t indices[N * N * 6];
    for (int j = 0; j <= N; ++j)
        for (int i = 0; i <= N; ++i) vertices[j * (N + 1) + i] = tread_v3(-2.0f + 0.025f * (float)i, 0.0f, -2.0f + 0.025f * (float)j);
    int k = 0;
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) {
            uint32_t a = (uint32_t)(j * (N + 1) + i), b = a + 1, c = a + (N + 1), d = c + 1;
            uint32_t tri[6] = {a, c, b, b, c, d};
            for (int m = 0; m < 6; ++m) indices[k++] = tri[m];
        }
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_mesh(vertices, (N + 1) * (N + 1), indices, N * N * 2);
    tread_body_id floor;
    assert_int_equal(tread_world_add_body(w, &def, &floor), TREAD_OK);
    static tread_contact big[256], small[4], met[256];
    int totals[2] = {0, 0};
    for (int pass = 0; pass < 2; ++pass) {
        tread_character ch = standing_at(tread_v3(0.01f, 0.002f, 0.02f));
        tread_move_options o = tread_move_options_default();
        o.contacts = pass ? small : big;
        o.contact_capacity = pass ? 4 : 256;
        tread_move_result res;
        assert_int_equal(tread_character_move_with(w, &ch, tread_v3(0.5f, 0, 0), COURSE_DT, &o, &res), TREAD_OK);
        totals[pass] = res.contact_count;
        assert_true(res.moving_contact_count <= res.contact_count);
        if (pass == 0) {
            assert_true(res.contact_count > TREAD_MAX_MOVE_CONTACTS);
            assert_false(res.contacts_overflow);
            // Distinct triangles of the floor.
            for (int i = 0; i < res.contact_count; ++i) {
                assert_true(tread_body_id_equal(big[i].body, floor));
                for (int m = 0; m < i; ++m) assert_true(big[i].feature != big[m].feature);
            }
        } else {
            assert_true(res.contacts_overflow);
            assert_memory_equal(small, big, sizeof small);
        }
    }
    assert_int_equal(totals[0], totals[1]);
    // Only what it met while moving: the buffer's first ones as above, the same move.
    tread_character ch = standing_at(tread_v3(0.01f, 0.002f, 0.02f)), alone = ch;
    tread_move_options o = tread_move_options_default();
    o.contacts = met;
    o.contact_capacity = 256;
    o.contacts_where_it_ends = false;
    tread_move_result res, plain;
    assert_int_equal(tread_character_move_with(w, &ch, tread_v3(0.5f, 0, 0), COURSE_DT, &o, &res), TREAD_OK);
    assert_int_equal(res.contact_count, res.moving_contact_count);
    assert_memory_equal(met, big, sizeof met[0] * (size_t)res.contact_count);
    // Without a buffer: the same move, its count kept, no overflow.
    assert_int_equal(tread_character_move(w, &alone, tread_v3(0.5f, 0, 0), COURSE_DT, &plain), TREAD_OK);
    assert_memory_equal(&alone, &ch, sizeof ch);
    assert_int_equal(plain.moving_contact_count, plain.contact_count);
    assert_true(plain.contact_count >= res.contact_count); // (past the state's full list a surface met twice counts twice)
    assert_false(plain.contacts_overflow);
    tread_world_destroy(w);
}

static void test_bad_options(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_character ch = standing_at(tread_v3(0, 0.002f, 0));
    tread_character before = ch;
    tread_move_result res;
    tread_move_options o = tread_move_options_default();
    o.contact_capacity = -1;
    assert_int_equal(tread_character_move_with(w, &ch, tread_v3_zero(), COURSE_DT, &o, &res), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "options.contact_capacity"));
    o.contact_capacity = 8;
    assert_int_equal(tread_character_move_with(w, &ch, tread_v3_zero(), COURSE_DT, &o, &res), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "options.contacts"));
    o = tread_move_options_default();
    o.impulse_capacity = -2;
    assert_int_equal(tread_character_move_with(w, &ch, tread_v3_zero(), COURSE_DT, &o, &res), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "options.impulse_capacity"));
    o.impulse_capacity = 3;
    assert_int_equal(tread_character_move_with(w, &ch, tread_v3_zero(), COURSE_DT, &o, &res), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "options.impulses"));
    o = tread_move_options_default();
    static listener_log log;
    tread_contact_listener l = listener_of(&log);
    o.listener = &l;
    assert_int_equal(tread_character_move_with(w, &ch, tread_v3_zero(), COURSE_DT, &o, &res), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "options.memory"));
    tread_contact_memory memory;
    memset(&memory, 0, sizeof memory);
    memory.count = 99;
    o.memory = &memory;
    assert_int_equal(tread_character_move_with(w, &ch, tread_v3_zero(), COURSE_DT, &o, &res), TREAD_ERR_INVALID_ARGUMENT);
    assert_memory_equal(&ch, &before, sizeof ch);
    tread_character_settings s = ch.settings;
    s.max_strength = -1.0f;
    assert_int_equal(tread_character_set_settings(w, &ch, &s), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "settings.max_strength"));
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dynamic_body_api),
        cmocka_unit_test(test_walking_into_a_crate_gives_an_impulse),
        cmocka_unit_test(test_dynamic_body_pushes_and_carries),
        cmocka_unit_test(test_one_way_platform),
        cmocka_unit_test(test_rising_one_way_lift),
        cmocka_unit_test(test_sensor_and_event_order),
        cmocka_unit_test(test_validate_ignores_a_body),
        cmocka_unit_test(test_push_permissions_with_a_dynamic_body),
        cmocka_unit_test(test_batch_push_permission),
        cmocka_unit_test(test_contact_buffer),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
