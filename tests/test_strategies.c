// SPDX-License-Identifier: MIT
// The stepping strategies, each held to what its origin promises, plus what all of them share: max step holds
// at the tread, per-layer walkable angles, and a ground mask that snapping and ground probes respect.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "course.h"
#include "character/character_internal.h"

static course_run run;

static tread_character_settings with_strategy(tread_step_strategy strategy) {
    tread_character_settings s = tread_character_settings_default();
    s.step_strategy = strategy;
    return s;
}

static void test_strategy_setting_is_validated(void **state) {
    (void)state;
    tread_character ch;
    tread_character_settings s = with_strategy((tread_step_strategy)17);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "step_strategy"));
    s = with_strategy(TREAD_STEP_RISER);
    s.riser.radius_scale = 0.0f;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "riser.radius_scale"));
}

// ---- contact (Source engine) ----------------------------------------------------------------------------------

static void test_contact_climbs_s1_one_frame_after_touching(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_stairs(w);
    tread_character_settings s = with_strategy(TREAD_STEP_CONTACT);
    course_begin(&run, w, tread_v3(0, 0, 0), &s);
    course_walk(&run, tread_v3(4, 0, 0), 3.0f, COURSE_DT);
    // First frame whose capsule front reaches the first riser, and the first frame that stepped.
    int touch = -1, step = -1;
    for (int i = 0; i < run.frames; ++i) {
        if (touch < 0 && run.f[i].feet.x + 0.3f >= 1.0f - 0.01f) touch = i;
        if (step < 0 && run.f[i].stepped > 0.0f) step = i;
    }
    print_message("contact: first touch frame %d, first step frame %d\n", touch, step);
    assert_true(touch >= 0 && step >= touch && step <= touch + 1);
    assert_float_equal(run.f[run.frames - 1].feet.y, 2.002f, 0.02f);
    tread_world_destroy(w);
}

// A move's state as the slide leaves it: on the floor, stopped by a riser face at x = 1 (a 0.2 m step).
static tread_move_state riser_contact(tread_body_id step, tread_vec3 motion) {
    tread_move_state st;
    memset(&st, 0, sizeof st);
    st.previous_ground.state = TREAD_GROUND_ON_GROUND;
    st.previous_ground.point = tread_v3(0.7f, 0, 0);
    st.blocked = true;
    st.blocked_position = tread_v3(0.7f, 0.002f, 0);
    st.blocked_motion = motion;
    st.contacts_kept = 1;
    st.contacts[0].point = tread_v3(1.0f, 0.2f, 0);
    st.contacts[0].normal = tread_v3(-0.94f, 0.33f, 0);
    st.contacts[0].surface_normal = tread_v3(-1, 0, 0);
    st.contacts[0].body = step;
    st.contacts[0].character = -1;
    return st;
}

static void test_contact_cases_the_source_write_up_leaves_open(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(1, 0.1f, 1));
    def.transform.p = tread_v3(2, 0.1f, 0);
    tread_body_id step;
    assert_int_equal(tread_world_add_body(w, &def, &step), TREAD_OK);
    tread_character ch;
    tread_character_settings s = with_strategy(TREAD_STEP_CONTACT);
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0.7f, 0.002f, 0)), TREAD_OK);
    tr_move_query q;
    assert_int_equal(tr_move_query_begin(&q, w, &ch, ch.position, 10.0f), TREAD_OK);
    tr_step step_found;
    bool found = false;
    // Moving into the riser: a step of the riser's height.
    tread_move_state res = riser_contact(step, tread_v3(0.05f, 0, 0));
    assert_int_equal(tr_step_contact(&q, &ch, &res, &step_found, &found), TREAD_OK);
    assert_true(found);
    assert_float_equal(step_found.support.y, 0.2f, 1e-4f);
    assert_true(tr_step_within_limit(&ch, &res, &step_found));
    // Creeping back down (moving away from the riser): no stepping back up.
    res = riser_contact(step, tread_v3(-0.05f, 0, 0));
    assert_int_equal(tr_step_contact(&q, &ch, &res, &step_found, &found), TREAD_OK);
    assert_false(found);
    // A body removed since the contact was gathered: skipped.
    res = riser_contact(step, tread_v3(0.05f, 0, 0));
    assert_int_equal(tread_world_remove_body(w, step), TREAD_OK);
    assert_int_equal(tr_step_contact(&q, &ch, &res, &step_found, &found), TREAD_OK);
    assert_false(found);
    tread_world_destroy(w);
    // Where the body does not fit (S10's ceiling over a 0.3 m step): no step, in the full run too.
    w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.3f, 1));
    course_box(w, tread_v3(0.5f, 1.95f, -1), tread_v3(8, 2.5f, 1));
    course_begin(&run, w, tread_v3(0, 0, 0), &s);
    course_walk(&run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
    for (int i = 0; i < run.frames; ++i) assert_true(run.f[i].stepped <= 0.0f);
    assert_true(run.f[run.frames - 1].feet.y < 0.05f);
    tread_world_destroy(w);
}

// ---- cast down (Unity DOTS) ---------------------------------------------------------------------------------

static void test_cast_down_does_not_step_under_low_ceiling(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.3f, 1));
    course_box(w, tread_v3(0.5f, 1.95f, -1), tread_v3(8, 2.5f, 1));
    tread_character_settings s = with_strategy(TREAD_STEP_CAST_DOWN);
    course_begin(&run, w, tread_v3(0, 0, 0), &s);
    course_walk(&run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
    assert_true(run.f[run.frames - 1].feet.y < 0.05f);
    assert_true(course_max_penetration(&run) <= 0.001f);
    tread_world_destroy(w);
    // Without the ceiling the same step is climbed.
    w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.3f, 1));
    course_begin(&run, w, tread_v3(0, 0, 0), &s);
    course_walk(&run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
    assert_float_equal(run.f[run.frames - 1].feet.y, 0.302f, 0.01f);
    tread_world_destroy(w);
}

// ---- riser (Staxel) -------------------------------------------------------------------------------------

static void test_riser_climbs_voxel_steps_within_staxels_rate(void **state) {
    (void)state;
    // 0.25 m voxel steps every 0.5 m, five of them.
    enum { NX = 30, NY = 6, NZ = 8 };
    static uint8_t cells[NX * NY * NZ];
    for (int k = 0; k < NZ; ++k)
        for (int j = 0; j < NY; ++j)
            for (int i = 0; i < NX; ++i) cells[(k * NY + j) * NX + i] = (uint8_t)(j == 0 || i >= 4 + 2 * j);
    tread_world *w = course_world();
    tread_body_def def = tread_body_def_default();
    def.shape.type = TREAD_SHAPE_VOXELS;
    def.shape.voxels = (tread_voxels_def){NX, NY, NZ, 0.25f, cells};
    def.transform.p = tread_v3(0, 0, -1);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    tread_character_settings s = with_strategy(TREAD_STEP_RISER);
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0.5f, 0.25f, 0)), TREAD_OK);
    float worst_ratio = 0.0f, top = 0.0f;
    for (int i = 0; i < 180; ++i) {
        tread_vec3 before = ch.position;
        float vy = ch.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : ch.velocity.y + COURSE_G * COURSE_DT;
        tread_move_result res;
        assert_int_equal(tread_character_move(w, &ch, tread_v3(3, vy, 0), COURSE_DT, &res), TREAD_OK);
        // Staxel's budget: the rise is at most speed_scale x the frame's wanted motion (here horizontal, 3 m/s; it
        // rises only while held, and the held slide cancels downward motion). The riser climbs only what stops the
        // body, so the frame it rises in it moves less than it wanted.
        (void)before;
        float across = 3.0f * COURSE_DT;
        if (res.step_up > 0.0f) {
            assert_true(res.held_by_riser);
            assert_true(res.step_up <= s.riser.speed_scale * across + 2.1e-4f); // + the clearance over the nose
            worst_ratio = fmaxf(worst_ratio, res.step_up / across);
        }
        top = fmaxf(top, ch.position.y);
    }
    print_message("riser: highest feet %.3f, largest rise per metre moved %.3f (limit %.1f)\n", (double)top, (double)worst_ratio,
                  (double)s.riser.speed_scale);
    assert_true(top > 1.5f - 0.01f); // onto the top layer, resting on it (Staxel's riser would hover above it)
    assert_true(top < 1.5f + 0.01f);
    tread_world_destroy(w);
}

static void test_riser_holds_and_releases(void **state) {
    (void)state;
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    course_box(w, tread_v3(-10, -1, -10), tread_v3(1, 0, 10)); // a floor ending at x = 1, a 3 m drop beyond
    course_box(w, tread_v3(-10, -4, -10), tread_v3(20, -3, 10));
    tread_character_settings s = with_strategy(TREAD_STEP_RISER);
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
    tread_move_result res;
    // Held: gravity pressing down does not sink it.
    assert_int_equal(tread_character_move(w, &ch, tread_v3(0, -5, 0), COURSE_DT, &res), TREAD_OK);
    assert_true(res.held_by_riser);
    assert_true(ch.position.y >= 0.0f);
    assert_int_equal(res.ground.state, TREAD_GROUND_ON_GROUND);
    // Walking off the edge: released, it falls.
    for (int i = 0; i < 40; ++i) {
        float vy = ch.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : ch.velocity.y + COURSE_G * COURSE_DT;
        tread_character_move(w, &ch, tread_v3(4, vy, 0), COURSE_DT, &res);
    }
    assert_false(res.held_by_riser);
    assert_true(ch.position.y < -0.5f);
    tread_world_destroy(w);
}

// Steep short stairs (docs/STRATEGIES.md, riser: what the matrix showed): ten steps of `rise` on `tread` treads from
// x = 1 (the last one the top landing, to x = 20), optionally with a nosing slab 2 cm proud of each riser, 3 cm thick.
#define RISER_STAIRS_STEPS 10
#define RISER_NOSING 0.02f      // metres proud of the riser
#define RISER_NOSING_SLAB 0.03f // metres thick
#define RISER_WALK_SPEED 4.0f   // m/s, the matrix's walk
#define RISER_LANDING_TOLERANCE 0.02f

static tread_world *riser_stairs(float rise, float tread, bool nosing) {
    tread_world *w = course_world();
    for (int i = 0; i < RISER_STAIRS_STEPS; ++i) {
        float x0 = 1.0f + tread * (float)i, top = rise * (float)(i + 1);
        float x1 = i + 1 == RISER_STAIRS_STEPS ? 20.0f : x0 + tread;
        course_box(w, tread_v3(x0, 0, -1), tread_v3(x1, top, 1));
        if (nosing) course_box(w, tread_v3(x0 - RISER_NOSING, top - RISER_NOSING_SLAB, -1), tread_v3(x0, top, 1));
    }
    return w;
}

// Walks `shape` with the riser along x at the matrix's speed for `seconds` at `hz`, from `start`; *out_grounded: on
// ground after every move.
static tread_vec3 riser_walk(tread_world *w, tread_query_shape_type shape, tread_vec3 start, float direction, float hz, float seconds,
                             bool *out_grounded) {
    tread_character_settings s = with_strategy(TREAD_STEP_RISER);
    s.shape = shape;
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, start), TREAD_OK);
    *out_grounded = true;
    float dt = 1.0f / hz;
    for (int i = 0; i < (int)(seconds * hz + 0.5f); ++i) {
        float vy = ch.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : ch.velocity.y + COURSE_G * dt;
        tread_move_result res;
        assert_int_equal(tread_character_move(w, &ch, tread_v3(direction * RISER_WALK_SPEED, vy, 0), dt, &res), TREAD_OK);
        if (ch.ground.state != TREAD_GROUND_ON_GROUND) *out_grounded = false;
    }
    return ch.position;
}

// Up stairs whose rise is max step (0.4 m) on 0.12 m treads. The riser looked for what stopped the body as far as
// the frame's motion, and at 30 Hz met the riser after the one that stopped it, a wall; a ball under a nosing could
// not rise straight up by one frame's budget; a ball perched on each nose measured the next tread from its feet,
// 0.445 m; a box climbing a 0.4 m step at 240 Hz left riser.depth's reach of the floor halfway up and fell back.
static void test_riser_climbs_steep_short_stairs(void **state) {
    (void)state;
    static const struct {
        tread_query_shape_type shape;
        bool nosing;
        float hz;
    } walks[] = {
        {TREAD_QUERY_BOX, false, 30.0f},     {TREAD_QUERY_BOX, false, 240.0f},   {TREAD_QUERY_SPHERE, true, 60.0f},
        {TREAD_QUERY_CAPSULE, false, 240.0f}, {TREAD_QUERY_CAPSULE, true, 60.0f},
    };
    const float rise = 0.4f, tread = 0.12f, top = rise * RISER_STAIRS_STEPS;
    for (size_t i = 0; i < sizeof walks / sizeof walks[0]; ++i) {
        tread_world *w = riser_stairs(rise, tread, walks[i].nosing);
        bool grounded = false;
        tread_vec3 end = riser_walk(w, walks[i].shape, tread_v3(-0.2f, 0, 0), 1.0f, walks[i].hz, 2.5f, &grounded);
        print_message("riser up, shape %d nosing %d at %.0f Hz: feet (%.3f, %.3f)\n", (int)walks[i].shape, (int)walks[i].nosing,
                      (double)walks[i].hz, (double)end.x, (double)end.y);
        assert_true(fabsf(end.y - top) <= RISER_LANDING_TOLERANCE);
        tread_world_destroy(w);
    }
}

// Down stairs of 0.45 m rises (deeper than riser.depth, within step_down_distance) on 0.12 m treads, on ground every
// frame: where the riser lets go, stick-to-floor takes the body down, and walking off a nose it is not held by it.
static void test_riser_walks_down_deep_stairs_on_ground(void **state) {
    (void)state;
    const float rise = 0.45f, tread = 0.12f, top = rise * RISER_STAIRS_STEPS;
    static const tread_query_shape_type shapes[] = {TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE, TREAD_QUERY_BOX};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        tread_world *w = riser_stairs(rise, tread, false);
        bool grounded = false;
        tread_vec3 end = riser_walk(w, shapes[i], tread_v3(3.0f, top, 0), -1.0f, 60.0f, 2.0f, &grounded);
        print_message("riser down, shape %d: feet (%.3f, %.3f), grounded every frame %d\n", (int)shapes[i], (double)end.x,
                      (double)end.y, (int)grounded);
        assert_true(grounded);
        assert_true(fabsf(end.y) <= RISER_LANDING_TOLERANCE);
        tread_world_destroy(w);
    }
}

// ---- shared by every strategy ------------------------------------------------------------------------------

// S1 climbed at 30, 60, 120 and 240 Hz takes about the same time for every strategy: no strategy gains
// distance per step (the contact strategy used to advance past its motion: 16 % faster at 240 Hz than at 60).
static void test_every_strategy_climbs_s1_at_the_same_pace_at_any_rate(void **state) {
    (void)state;
    const tread_step_strategy all[] = {TREAD_STEP_SWEEP, TREAD_STEP_CONTACT, TREAD_STEP_CAST_DOWN, TREAD_STEP_RISER};
    const float rates[] = {30.0f, 60.0f, 120.0f, 240.0f};
    for (int k = 0; k < 4; ++k) {
        float lo = 1e9f, hi = 0.0f;
        for (int r = 0; r < 4; ++r) {
            tread_world *w = course_world();
            course_stairs(w);
            tread_character_settings s = with_strategy(all[k]);
            float dt = 1.0f / rates[r];
            course_begin(&run, w, tread_v3(0, 0, 0), &s);
            course_walk(&run, tread_v3(4, 0, 0), fminf(2.0f, (float)(COURSE_MAX_FRAMES - 1) * dt), dt);
            float t = -1.0f;
            for (int i = 0; i < run.frames && t < 0.0f; ++i)
                if (run.f[i].feet.y >= 1.95f) t = (float)(i + 1) * dt;
            assert_true(t > 0.0f);
            lo = fminf(lo, t), hi = fmaxf(hi, t);
            tread_world_destroy(w);
        }
        print_message("%s: S1 climbed in %.3f .. %.3f s over 30-240 Hz\n", tread_step_strategy_name(all[k]), (double)lo, (double)hi);
        // The riser lifts at most Staxel's budget per frame where a riser stops it, so whole frames of waiting
        // differ between rates: at 30 Hz one frame's budget (0.2 m) clears a whole riser, at 240 Hz a riser takes 8
        // frames (0.867 s at 30 Hz .. 0.942 s at 240 Hz, 9 %; sooner than the others at 30 Hz because it keeps more
        // of the walk's 4 m/s over the noses, never more). The others step in the frame they meet the riser (4 %).
        // A round bottom also rolls onto each nose it steps onto (roll.c): where a frame's motion falls short of
        // where it rests (high rates), each of the 10 steps gains at most tr_roll_reach, at 4 m/s.
        tread_character_settings s = with_strategy(all[k]);
        float roll = s.radius + s.skin + 2.0e-4f - 0.98f * s.radius * sinf(s.max_slope_degrees * 3.14159265f / 180.0f);
        float gained = s.shape == TREAD_QUERY_BOX ? 0.0f : 10.0f * roll / 4.0f;
        assert_true(hi <= lo * (all[k] == TREAD_STEP_RISER ? 1.09f : 1.04f) + gained);
    }
}

static void test_every_strategy_keeps_max_step(void **state) {
    (void)state;
    const tread_step_strategy all[] = {TREAD_STEP_SWEEP, TREAD_STEP_CONTACT, TREAD_STEP_CAST_DOWN, TREAD_STEP_RISER};
    const float heights[] = {0.41f, 0.5f, 0.65f};
    for (int k = 0; k < 4; ++k) {
        for (int h = 0; h < 3; ++h) {
            tread_world *w = course_world();
            course_box(w, tread_v3(1, 0, -1), tread_v3(8, heights[h], 1));
            tread_character_settings s = with_strategy(all[k]);
            course_begin(&run, w, tread_v3(0, 0, 0), &s);
            course_walk(&run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
            // Never on top of the step (the riser hovers, but never above the step's height).
            assert_true(run.f[run.frames - 1].feet.x < 1.0f);
            tread_world_destroy(w);
        }
    }
}

// The reliability issue's cases: with max step 0 (no stepping) and 0.0097 m, no strategy and no shape climbs a
// 0.2 m riser (the riser strategy climbed it with max step 0 and stepped 0.124 m with a 0.0097 m limit), and a box
// walking into it slowly moves no farther than it is asked (the contact strategy moved one 0.164 m for 8 mm).
static void test_every_strategy_and_shape_keep_a_small_max_step(void **state) {
    (void)state;
    const tread_step_strategy all[] = {TREAD_STEP_SWEEP, TREAD_STEP_CONTACT, TREAD_STEP_CAST_DOWN, TREAD_STEP_RISER};
    const tread_query_shape_type shapes[] = {TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE, TREAD_QUERY_BOX};
    const float limits[] = {0.0f, 0.0097f};
    for (int k = 0; k < 4; ++k)
        for (int sh = 0; sh < 3; ++sh)
            for (int l = 0; l < 2; ++l) {
                tread_world *w = course_world();
                course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.2f, 1));
                tread_character_settings s = with_strategy(all[k]);
                s.shape = shapes[sh];
                s.max_step_height = limits[l];
                course_begin(&run, w, tread_v3(0, 0, 0), &s);
                course_walk(&run, tread_v3(0.5f, 0, 0), 3.0f, COURSE_DT); // 8 mm a frame
                float highest = 0.0f, longest = 0.0f;
                for (int i = 0; i < run.frames; ++i) {
                    highest = fmaxf(highest, run.f[i].feet.y);
                    if (i > 0) longest = fmaxf(longest, tread_v3_distance(run.f[i].feet, run.f[i - 1].feet));
                }
                print_message("strategy %d shape %d max step %.4f: highest %.4f m, longest frame %.4f m\n", (int)all[k], sh,
                              (double)limits[l], (double)highest, (double)longest);
                assert_true(highest <= limits[l] + 2.0f * s.skin + 1e-4f);
                assert_true(longest <= 0.5f * COURSE_DT + s.contact_step.search_overshoot + 1e-3f);
                tread_world_destroy(w);
            }
}

static void test_ground_mask_agent_layer_is_not_snapped_to(void **state) {
    (void)state;
    // Walking off a 0.3 m ledge onto a crate on layer 5 (say, other characters): with layer 5 out of the ground
    // mask, stick-to-floor does not snap onto it (the character falls onto it instead).
    for (int masked = 0; masked < 2; ++masked) {
        tread_world *w = NULL;
        tread_world_create(NULL, &w);
        course_box(w, tread_v3(-10, -1, -10), tread_v3(1, 0.3f, 10));
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_box(tread_v3(5, 0.5f, 5));
        def.transform.p = tread_v3(6, -0.5f, 0);
        def.layer = 5;
        tread_body_id agent;
        assert_int_equal(tread_world_add_body(w, &def, &agent), TREAD_OK);
        tread_character_settings s = tread_character_settings_default();
        if (masked) s.ground_mask = ~(1u << 5);
        course_begin(&run, w, tread_v3(0, 0.302f, 0), &s);
        course_walk(&run, tread_v3(4, 0, 0), 0.6f, COURSE_DT);
        int air = 0;
        for (int i = 0; i < run.frames; ++i) air += run.f[i].ground != TREAD_GROUND_ON_GROUND;
        if (masked) assert_true(air > 0);
        else assert_int_equal(air, 0);
        tread_world_destroy(w);
    }
}

static void test_per_layer_walkable_angle(void **state) {
    (void)state;
    // A 50 degree ramp on layer 2: climbed only when layer 2's walkable angle is 55 degrees.
    for (int steep_ok = 0; steep_ok < 2; ++steep_ok) {
        tread_world *w = course_world();
        float a = 50.0f * COURSE_PI / 180.0f, length = 1.5f / sinf(a);
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_box(tread_v3(0.5f * length, 0.5f, 1));
        tread_vec3 face = tread_v3(1.0f + 0.5f * length * cosf(a), 0.75f, 0);
        def.transform.p = tread_v3_mad(face, -0.5f, tread_v3(-sinf(a), cosf(a), 0));
        def.transform.q = tread_quat_from_axis_angle(tread_v3(0, 0, 1), a);
        def.layer = 2;
        tread_body_id id;
        assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
        tread_character_settings s = tread_character_settings_default();
        if (steep_ok) {
            s.stairs_layer_mask = 1u << 2;
            s.stairs_max_slope_degrees = 55.0f;
        }
        course_begin(&run, w, tread_v3(0, 0, 0), &s);
        course_walk(&run, tread_v3(4, 0, 0), 1.5f, COURSE_DT);
        float top = 0.0f;
        for (int i = 0; i < run.frames; ++i) top = fmaxf(top, run.f[i].feet.y);
        if (steep_ok) assert_true(top > 1.0f);
        else assert_true(top < 0.01f);
        tread_world_destroy(w);
    }
}

// ---- rolling over a nose (roll.c, shared by every strategy that snaps) -----------------------------------------

// A perch whose normal is up itself (within rounding) lies straight under the bottom sphere: no roll off it. In a
// world whose up is tilted, rejecting up from such a normal left rounding of any direction, and the soak's 17:1037
// capsule rolled 0.5 m along it, rising 0.5 m above the slope it stood on in one 6 ms frame (20:946 the same with a
// cast_down sphere). Off-axis noses still roll: one 30 degrees to the side sends the feet the other way.
static void test_no_roll_off_a_point_straight_under(void **state) {
    (void)state;
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_character_settings s = tread_character_settings_default();
    s.up = tread_v3_normalize(tread_v3(-0.3271f, 0.9306f, 0.1644f));
    s.radius = 0.5336f;
    s.height = 2.682f;
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(6.9611f, 3.6174f, -6.3356f)), TREAD_OK);
    tr_move_query q;
    assert_int_equal(tr_move_query_begin(&q, w, &ch, ch.position, 10.0f), TREAD_OK);
    tread_shape_hit perch;
    memset(&perch, 0, sizeof perch);
    perch.hit = true;
    perch.normal = ch.settings.up;
    perch.surface_normal = ch.settings.up;
    perch.point = tread_v3_mad(ch.position, -0.01f, ch.settings.up);
    perch.character = -1;
    tread_vec3 feet;
    assert_int_equal(tr_roll_off(&q, &ch, ch.position, &perch, tread_v3_zero(), &feet), TREAD_OK);
    assert_memory_equal(&feet, &ch.position, sizeof feet);
    // A nose 30 degrees off the axis, toward +side: rolled off the other way, level (along neither up nor the side).
    tread_vec3 side = tread_v3_normalize(tread_v3_cross(ch.settings.up, tread_v3(0, 0, 1)));
    perch.normal = tread_v3_add(tread_v3_scale(ch.settings.up, 0.8660254f), tread_v3_scale(side, -0.5f));
    assert_int_equal(tr_roll_off(&q, &ch, ch.position, &perch, tread_v3_zero(), &feet), TREAD_OK);
    tread_vec3 moved = tread_v3_sub(feet, ch.position);
    assert_true(tread_v3_dot(moved, side) < -0.1f);
    assert_true(fabsf(tread_v3_dot(moved, ch.settings.up)) < 1e-4f);
    // Walked off it at 60 degrees to the way the edge pushes, it rolls the walker's way (a staircase walked down at an
    // angle keeps its line); walked nearly along the edge, across it and at most its radius along it.
    tread_vec3 across = tread_v3_normalize(tread_v3_cross(side, ch.settings.up));
    tread_vec3 heading = tread_v3_add(tread_v3_scale(side, -0.5f), tread_v3_scale(across, 0.8660254f));
    assert_int_equal(tr_roll_off(&q, &ch, ch.position, &perch, tread_v3_scale(heading, 4.0f), &feet), TREAD_OK);
    moved = tread_v3_sub(feet, ch.position);
    assert_true(tread_v3_dot(moved, side) < -0.1f);
    assert_float_equal(tread_v3_length(tread_v3_reject(moved, heading)), 0.0f, 1e-4f);
    heading = tread_v3_add(tread_v3_scale(side, -0.14f), tread_v3_scale(across, 0.99f));
    assert_int_equal(tr_roll_off(&q, &ch, ch.position, &perch, heading, &feet), TREAD_OK);
    moved = tread_v3_sub(feet, ch.position);
    assert_true(tread_v3_dot(moved, side) < -0.1f);
    assert_float_equal(tread_v3_dot(moved, across), ch.settings.radius, 1e-4f);
    tr_move_query_end(&q);
    tread_world_destroy(w);
}

// A round bottom is held only by what it touches below its centre: a capsule walking through a thin tilted slab on a
// layer it does not collide with but counts as ground (the soak's 3:809) met it with the ground probe starting deep
// inside, at a point above the bottom sphere's centre, and rolled 0.46 m sideways off that "nose" in one 4 ms frame.
static void test_no_perch_above_the_bottom_centre(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(2.6216f, 0.0509f, 0.9371f));
    def.layer = 3;
    def.transform.p = tread_v3(3.213f, 0.358f, -2.011f);
    // The slab's x axis as the soak printed it, (-0.8190, 0.1556, 0.5523): yawed to its heading, then tilted about
    // the yawed z so x rises as printed.
    tread_vec3 ax = tread_v3(-0.8190f, 0.1556f, 0.5523f);
    tread_quat yaw = tread_quat_from_axis_angle(tread_v3(0, 1, 0), atan2f(-ax.z, ax.x));
    tread_vec3 z_yawed = tread_quat_rotate(yaw, tread_v3(0, 0, 1));
    tread_quat tilt = tread_quat_from_axis_angle(z_yawed, asinf(ax.y));
    def.transform.q = tread_quat_normalize(tread_quat_mul(tilt, yaw));
    tread_body_id slab;
    assert_int_equal(tread_world_add_body(w, &def, &slab), TREAD_OK);
    tread_character_settings s = tread_character_settings_default();
    s.radius = 0.5689f;
    s.height = 1.3187f;
    s.skin = 0.00374f;
    s.collide_mask = 0xfffffff7u; // walks through layer 3; stands on it (ground_mask all)
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(2.5266f, 0.0037f, -0.4881f)), TREAD_OK);
    const float dt = 0.00438f;
    float worst = 0.0f;
    for (int i = 0; i < 120; ++i) {
        tread_vec3 before = ch.position;
        tread_move_result res;
        assert_int_equal(tread_character_move(w, &ch, tread_v3(-0.146f, -1.0f, -1.853f), dt, &res), TREAD_OK);
        tread_vec3 side = tread_v3_sub(ch.position, before);
        side.y = 0.0f;
        worst = fmaxf(worst, tread_v3_length(side));
    }
    print_message("walking through a ground-only slab: at most %.4f m sideways a frame (input 1.86 m/s x %.5f s)\n", (double)worst, (double)dt);
    assert_true(worst <= 1.9f * dt + 0.01f);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strategy_setting_is_validated),
        cmocka_unit_test(test_contact_climbs_s1_one_frame_after_touching),
        cmocka_unit_test(test_contact_cases_the_source_write_up_leaves_open),
        cmocka_unit_test(test_cast_down_does_not_step_under_low_ceiling),
        cmocka_unit_test(test_riser_climbs_voxel_steps_within_staxels_rate),
        cmocka_unit_test(test_riser_holds_and_releases),
        cmocka_unit_test(test_riser_climbs_steep_short_stairs),
        cmocka_unit_test(test_riser_walks_down_deep_stairs_on_ground),
        cmocka_unit_test(test_every_strategy_climbs_s1_at_the_same_pace_at_any_rate),
        cmocka_unit_test(test_every_strategy_keeps_max_step),
        cmocka_unit_test(test_every_strategy_and_shape_keep_a_small_max_step),
        cmocka_unit_test(test_ground_mask_agent_layer_is_not_snapped_to),
        cmocka_unit_test(test_per_layer_walkable_angle),
        cmocka_unit_test(test_no_roll_off_a_point_straight_under),
        cmocka_unit_test(test_no_perch_above_the_bottom_centre),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
