// SPDX-License-Identifier: MIT
// Controller behaviours, each in the smallest world that shows it: slide, walls and corners, the
// narrowing hallway, tunnelling, ground, slopes, stepping limits, stepping down and snapping, ceilings,
// recovery, any up direction, bad input, no allocation, and the camera helpers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "course.h"
#include "character/character_internal.h"

#define tr_solve_planes_test tr_solve_planes

static course_run run;

static tread_character make_character(tread_vec3 feet) {
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, feet), TREAD_OK);
    return ch;
}

// The spec's loop with a custom horizontal velocity per frame; returns the final feet.
static tread_vec3 walk(tread_world *w, tread_vec3 start, tread_vec3 velocity, float seconds) {
    course_begin(&run, w, start, NULL);
    course_walk(&run, velocity, seconds, COURSE_DT);
    return run.f[run.frames - 1].feet;
}

// ---- slide -------------------------------------------------------------------------------------------------

static void test_plane_solver_one_two_three_planes(void **state) {
    (void)state;
    tread_vec3 wall = tread_v3(-1, 0, 0), floor = tread_v3(0, 1, 0), side = tread_v3(0, 0, -1);
    tread_vec3 m = tr_solve_planes_test(tread_v3(1, 0, 1), &wall, 1);
    assert_float_equal(m.x, 0.0f, 1e-6f);
    assert_float_equal(m.z, 1.0f, 1e-6f);
    tread_vec3 two[2] = {wall, floor};
    m = tr_solve_planes_test(tread_v3(1, -1, 1), two, 2); // into a wall and the floor: along the crease (z)
    assert_float_equal(m.x, 0.0f, 1e-6f);
    assert_float_equal(m.y, 0.0f, 1e-6f);
    assert_float_equal(m.z, 1.0f, 1e-6f);
    tread_vec3 three[3] = {wall, floor, side};
    m = tr_solve_planes_test(tread_v3(1, -1, 1), three, 3); // a corner: stop
    assert_float_equal(tread_v3_length(m), 0.0f, 1e-6f);
    m = tr_solve_planes_test(tread_v3(-1, 0, 0), &wall, 1); // moving away is free
    assert_float_equal(m.x, -1.0f, 0.0f);
    // A wedge of two walls closing at 5 degrees: the crease is vertical, so horizontal motion stops.
    float a = 2.5f * COURSE_PI / 180.0f;
    tread_vec3 wedge[2] = {tread_v3(-sinf(a), 0, -cosf(a)), tread_v3(-sinf(a), 0, cosf(a))};
    m = tr_solve_planes_test(tread_v3(1, 0, 0), wedge, 2);
    assert_true(tread_v3_length(m) < 1e-6f);
}

static void test_corner_does_not_stick_or_jitter(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(2, 0, -5), tread_v3(3, 3, 5));  // wall ahead (face x = 2)
    course_box(w, tread_v3(-5, 0, 1), tread_v3(2, 3, 2));  // wall to the side (face z = 1)
    walk(w, tread_v3(0, 0, 0), tread_v3(3, 0, 3), 2.0f);
    tread_vec3 end = run.f[run.frames - 1].feet;
    assert_float_equal(end.x, 2.0f - 0.3f - 0.002f, 2e-4f); // resting in the corner at the skin
    assert_float_equal(end.z, 1.0f - 0.3f - 0.002f, 2e-4f);
    for (int i = run.frames - 30; i < run.frames; ++i) assert_true(tread_v3_distance(run.f[i].feet, run.f[i - 1].feet) < 1e-4f);
    // Leaving the corner along either wall is immediate: no sticking.
    course_walk(&run, tread_v3(-3, 0, 0), 0.5f, COURSE_DT);
    assert_true(run.f[run.frames - 1].feet.x < end.x - 1.4f);
    assert_float_equal(run.f[run.frames - 1].feet.z, end.z, 1e-4f);
    tread_world_destroy(w);
}

// An unobstructed move is its velocity times the frame to float rounding (metres; a few ulps of centimetres).
#define FREE_MOTION_TOLERANCE 1.0e-6f

// A rest this far (metres) from the gap the skin asks for, on either wall: the slide ends a cast within the touch
// tolerance (TR_TOUCH_TOLERANCE, 0.1 mm) of the skin, and nothing else moves the character sideways.
#define HALLWAY_GAP_TOLERANCE 1.0e-4

static void test_narrowing_hallway_stops_smoothly(void **state) {
    (void)state;
    // Two walls closing at 5 degrees (a known failure of Unity DOTS's controller): the character must come to rest.
    tread_world *w = course_world();
    float a = 2.5f;
    // Inner faces at z = +-1 at x = 10, closing toward +x: they are 0.6 m apart (the capsule's width) at x = 26.
    course_rotated_box(w, tread_v3(10, 1.5f, 1.5f), tread_v3(20, 1.5f, 0.5f), tread_v3(0, 1, 0), a);
    course_rotated_box(w, tread_v3(10, 1.5f, -1.5f), tread_v3(20, 1.5f, 0.5f), tread_v3(0, 1, 0), -a);
    walk(w, tread_v3(-1, 0, 0), tread_v3(4, 0, 0), 8.0f);
    float last = 0.0f;
    for (int i = run.frames - 60; i < run.frames; ++i) last = fmaxf(last, tread_v3_distance(run.f[i].feet, run.f[i - 1].feet));
    // Where it must stop: the left wall's inner face (local z = -0.5 of the box centred at (10, 1.5) in x-z, turned
    // by a about y) lies 1.5 cos a - 0.5 - (x - 10) sin a from the hallway's axis z = 0; the capsule rests where
    // that equals its radius plus the skin, on both walls at once (the hallway is symmetric, so z stays 0).
    tread_character_settings s = tread_character_settings_default();
    double rad = (double)a * 3.14159265358979323846 / 180.0;
    double stop_x = 10.0 + (1.5 * cos(rad) - 0.5 - (double)s.radius - (double)s.skin) / sin(rad); // 25.9693 m
    // A gap off by g moves the stop along the axis by g / sin a (23 times g at 2.5 degrees).
    double along_tolerance = HALLWAY_GAP_TOLERANCE / sin(rad);
    tread_vec3 end = run.f[run.frames - 1].feet;
    print_message("hallway: stopped at x %.5f (computed %.5f), z %.2e, max frame motion over the last second %.7f m\n",
                  (double)end.x, stop_x, (double)end.z, (double)last);
    assert_true(fabs((double)end.x - stop_x) <= along_tolerance);
    assert_true(fabs((double)end.z) <= HALLWAY_GAP_TOLERANCE);
    assert_true(last < 1e-4f);
    assert_true(course_max_penetration(&run) <= 0.001f);
    tread_world_destroy(w);
}

static void test_no_tunnelling_through_thin_wall_at_100_m_per_s(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(5, 0, -50), tread_v3(5.01f, 3, 50)); // 1 cm thick
    for (int speed = 10; speed <= 100; speed += 30) {
        tread_vec3 end = walk(w, tread_v3(0, 0, 0), tread_v3((float)speed, 0, 0), 0.5f);
        assert_true(end.x + 0.3f <= 5.0f + 0.001f);
        assert_true(course_max_penetration(&run) <= 0.001f);
    }
    // In the air too, diagonally.
    course_begin(&run, w, tread_v3(0, 1, 0), NULL);
    course_walk(&run, tread_v3(100, 0, 37), 0.3f, COURSE_DT);
    assert_true(run.f[run.frames - 1].feet.x + 0.3f <= 5.001f);
    tread_world_destroy(w);
}

static void test_floor_of_separate_boxes_does_not_snag(void **state) {
    (void)state;
    // Many 1 m boxes side by side: the seams between bodies must not stop or bump the character.
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    for (int i = -5; i < 40; ++i)
        for (int k = -3; k < 3; ++k) course_box(w, tread_v3((float)i, -1, (float)k), tread_v3((float)i + 1, 0, (float)k + 1));
    // From the resting height (the skin above the floor): not a bump at any seam.
    tread_vec3 end = walk(w, tread_v3(0, 0.002f, 0.5f), tread_v3(4, 0, 0.31f), 5.0f);
    float max_dy = 0.0f;
    for (int i = 1; i < run.frames; ++i) max_dy = fmaxf(max_dy, fabsf(run.f[i].feet.y - run.f[i - 1].feet.y));
    assert_float_equal(end.x, 20.0f, 0.01f);
    assert_true(max_dy < 1e-4f);
    for (int i = 0; i < run.frames; ++i) assert_int_equal(run.f[i].ground, TREAD_GROUND_ON_GROUND);
    // Spawned exactly touching (inside the skin): the first seam lifts it to the skin once, no more.
    walk(w, tread_v3(0, 0, 0.5f), tread_v3(4, 0, 0.31f), 5.0f);
    max_dy = 0.0f;
    for (int i = 1; i < run.frames; ++i) max_dy = fmaxf(max_dy, fabsf(run.f[i].feet.y - run.f[i - 1].feet.y));
    assert_true(max_dy <= 0.002f + 1e-4f);
    for (int i = 0; i < run.frames; ++i) assert_int_equal(run.f[i].ground, TREAD_GROUND_ON_GROUND);
    tread_world_destroy(w);
}

// ---- ground -------------------------------------------------------------------------------------------------

// A character reported on ground touches it: one landing within the ground probe (above the skin, up to the probe's
// length) ends resting on the floor, its sole the skin above it, for every shape and probe. It hovered up to the
// probe's length above the floor on the frame it landed (Quake III levels, docs/LEVELS.md's hover count).
static void test_on_ground_touches_the_ground(void **state) {
    (void)state;
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    course_box(w, tread_v3(-10, -1, -10), tread_v3(10, 0, 10));
    const tread_query_shape_type shapes[] = {TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE, TREAD_QUERY_BOX};
    const float probes[] = {0.02f, 0.1f, 0.5f};
    for (int k = 0; k < 3; ++k)
        for (int p = 0; p < 3; ++p)
            for (float gap = 0.004f; gap < probes[p]; gap += probes[p] / 7.0f) {
                tread_character_settings s = tread_character_settings_default();
                s.shape = shapes[k];
                s.ground_probe_distance = probes[p];
                tread_character ch;
                assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, s.skin + gap, 0)), TREAD_OK);
                tread_move_result res;
                assert_int_equal(tread_character_move(w, &ch, tread_v3(0.5f, -0.1f, 0), 1.0f / 60.0f, &res), TREAD_OK);
                assert_int_equal(ch.ground.state, TREAD_GROUND_ON_GROUND);
                assert_float_equal(ch.position.y, s.skin, 1e-3f);
                assert_float_equal(ch.ground.distance, 0.0f, 1e-3f);
            }
    tread_world_destroy(w);
}

static void test_small_hole_under_center_stays_grounded(void **state) {
    (void)state;
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    course_box(w, tread_v3(-10, -1, -10), tread_v3(-0.1f, 0, 10)); // floor with a 20 cm slot at x in [-0.1, 0.1]
    course_box(w, tread_v3(0.1f, -1, -10), tread_v3(10, 0, 10));
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    course_walk(&run, tread_v3(0, 0, 0), 1.0f, COURSE_DT);
    assert_int_equal(run.ch.ground.state, TREAD_GROUND_ON_GROUND);
    assert_true(run.f[run.frames - 1].feet.y > -0.1f);
    tread_world_destroy(w);
}

static void test_standing_on_ledge_edge_is_grounded(void **state) {
    (void)state;
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    course_box(w, tread_v3(-10, -1, -10), tread_v3(0, 0, 10)); // a ledge ending at x = 0, a 3 m drop beyond
    course_box(w, tread_v3(-10, -4, -10), tread_v3(10, -3, 10));
    // The capsule's axis 0.2 m past the edge: its round bottom rests on the edge.
    float cx = 0.2f, drop = 0.3f - sqrtf(0.3f * 0.3f - cx * cx);
    course_begin(&run, w, tread_v3(cx, -drop + 0.001f, 0), NULL);
    course_walk(&run, tread_v3(0, 0, 0), 1.0f, COURSE_DT);
    assert_int_equal(run.ch.ground.state, TREAD_GROUND_ON_GROUND);
    assert_float_equal(run.ch.ground.normal.y, 1.0f, 1e-5f); // the supporting face's normal, not the edge's
    assert_true(run.f[run.frames - 1].feet.y > -0.1f);
    tread_world_destroy(w);
}

// Beyond its walkable cap (the edge 56 degrees off straight down) a round bottom is not standing on the edge: it
// rolls off it and falls.
static void test_perched_beyond_the_cap_rolls_off(void **state) {
    (void)state;
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    course_box(w, tread_v3(-10, -1, -10), tread_v3(0, 0, 10));
    course_box(w, tread_v3(-10, -4, -10), tread_v3(10, -3, 10));
    float cx = 0.25f, drop = 0.3f - sqrtf(0.3f * 0.3f - cx * cx);
    course_begin(&run, w, tread_v3(cx, -drop + 0.001f, 0), NULL);
    course_walk(&run, tread_v3(0, 0, 0), 2.0f, COURSE_DT);
    assert_int_not_equal(run.f[0].ground, TREAD_GROUND_ON_GROUND);
    assert_true(run.f[run.frames - 1].feet.y < -2.9f);
    tread_world_destroy(w);
}

// Wherever the ground is reported, it lies under the body's bottom: a box's sole, or a round body's cap within max
// slope of straight down (within the skin, and a tolerance for the rounding of the probe): up and down the S1
// stairs, straight and at 30 degrees, at 30 to 240 Hz, every shape. A capsule used to perch on each nose with the
// contact up to 70 degrees up its side and call it ground (the real levels: 44,029 frames in 4 M).
static void test_ground_point_lies_under_the_bottom(void **state) {
    (void)state;
    const tread_query_shape_type shapes[] = {TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE, TREAD_QUERY_BOX};
    const float tolerance = 1.0e-3f;
    for (int k = 0; k < 3; ++k)
        for (int hz = 30; hz <= 240; hz *= 2)
            for (int angle = 0; angle <= 30; angle += 30) {
                tread_world *w = course_world();
                course_stairs(w);
                tread_character_settings s = tread_character_settings_default();
                s.shape = shapes[k];
                course_begin(&run, w, tread_v3(0, 0, 0), &s);
                float a = (float)angle * COURSE_PI / 180.0f, dt = 1.0f / (float)hz;
                int checked = 0;
                for (int leg = 0; leg < 2; ++leg) {
                    tread_vec3 v = tread_v3(4.0f * cosf(a) * (leg ? -1.0f : 1.0f), 0, 4.0f * sinf(a) * (leg ? -1.0f : 1.0f));
                    for (int i = 0; i < (int)(1.5f / dt); ++i) {
                        tread_character *ch = &run.ch;
                        tread_vec3 vel = v;
                        if (ch->ground.state != TREAD_GROUND_ON_GROUND) vel.y = ch->velocity.y + COURSE_G * dt;
                        tread_move_result res;
                        assert_int_equal(tread_character_move(w, ch, vel, dt, &res), TREAD_OK);
                        if (ch->ground.state != TREAD_GROUND_ON_GROUND) continue;
                        tread_vec3 p = ch->ground.point, feet = ch->position;
                        if (s.shape == TREAD_QUERY_BOX) {
                            assert_true(fabsf(p.y - feet.y) <= s.skin + tolerance);
                            assert_true(fabsf(p.x - feet.x) <= s.radius + s.skin + tolerance);
                            assert_true(fabsf(p.z - feet.z) <= s.radius + s.skin + tolerance);
                        } else {
                            tread_vec3 d = tread_v3_sub(p, tread_v3(feet.x, feet.y + s.radius, feet.z));
                            float len = tread_v3_length(d);
                            assert_true(fabsf(len - s.radius) <= s.skin + tolerance);
                            assert_true(-d.y / len >= cosf((s.max_slope_degrees + 0.5f) * COURSE_PI / 180.0f));
                        }
                        ++checked;
                    }
                }
                assert_true(checked > 0);
                tread_world_destroy(w);
            }
}

// A static triangle mesh over the caller's arrays (copied by the world).
static void add_mesh(tread_world *w, const tread_vec3 *v, int vertex_count, const uint32_t *idx, int triangle_count) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_mesh(v, vertex_count, idx, triangle_count);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
}

// A round bottom over the lower edge of a 45 degree face that ends in a drop, touching the edge 46.5-51 degrees off
// straight down: beyond its walkable cap, so it is not standing, whatever a triangle meeting the edge at the contact
// says (a hit within the probe's 1 mm tie, reported with the face's normal). It rolls off the edge and falls; it was
// held there on ground (ctf_inyard: a capsule on ground 50 degrees up its side).
static void test_perched_on_a_slope_s_lower_edge_rolls_off(void **state) {
    (void)state;
    // The slope's triangles fan from the middle of its lower edge (z = 0), where the body touches it.
    static const tread_vec3 v[7] = {{-2, 2, -3}, {-2, 2, 3}, {0, 0, -3}, {0, 0, 0}, {0, 0, 3}, {0, -3, -3}, {0, -3, 3}};
    static const uint32_t idx[15] = {0, 3, 2, 0, 1, 3, 1, 4, 3, 2, 4, 6, 2, 6, 5};
    const float angles[] = {46.5f, 48.0f, 49.5f, 51.0f};
    const float offsets[] = {0.0f, 0.001f, 0.0025f};
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 3; ++j) {
            tread_world *w = NULL;
            tread_world_create(NULL, &w);
            add_mesh(w, v, 7, idx, 5);
            course_box(w, tread_v3(-10, -4, -10), tread_v3(10, -3, 10));
            tread_character_settings s = tread_character_settings_default();
            float a = angles[k] * COURSE_PI / 180.0f, r = s.radius + 0.5f * s.skin;
            course_begin(&run, w, tread_v3(r * sinf(a), r * cosf(a) - s.radius, offsets[j]), &s);
            course_walk(&run, tread_v3(0, 0, 0), 1.5f, COURSE_DT);
            assert_int_not_equal(run.f[0].ground, TREAD_GROUND_ON_GROUND);
            assert_true(run.ch.position.y < -2.9f); // off the edge, down on the floor 3 m below
            tread_world_destroy(w);
        }
}

// A crevasse holds only between faces that face each other across the body (Catlike Coding's steep contacts): in a
// V of two 60 degree faces every shape stands, grounded; on a ridge of the same two faces turned over (a roof) none
// does: it slides off down the roof. The rule summed contact normals, which point up on a ridge too, so a box's
// sole or a round bottom on the ridge line was held there (the real levels' steep ridges and rims).
static void add_mesh_vee(tread_world *w, float sign) {
    static tread_vec3 v[2][6];
    static const uint32_t idx[12] = {0, 2, 1, 0, 3, 2, 3, 4, 2, 3, 5, 4}; // wound to face up
    float h = 2.0f * tanf(60.0f * COURSE_PI / 180.0f) * sign;
    tread_vec3 *p = v[sign > 0.0f ? 0 : 1];
    p[0] = tread_v3(-2, h, 5), p[1] = tread_v3(-2, h, -5), p[2] = tread_v3(0, 0, -5);
    p[3] = tread_v3(0, 0, 5), p[4] = tread_v3(2, h, -5), p[5] = tread_v3(2, h, 5);
    for (int t = 0; t < 4; ++t)
        assert_true(tread_v3_cross(tread_v3_sub(p[idx[3 * t + 1]], p[idx[3 * t]]), tread_v3_sub(p[idx[3 * t + 2]], p[idx[3 * t]])).y > 0.0f);
    add_mesh(w, p, 6, idx, 4);
}

static void test_crevasse_holds_and_ridge_does_not(void **state) {
    (void)state;
    const tread_query_shape_type shapes[] = {TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE, TREAD_QUERY_BOX};
    for (int k = 0; k < 3; ++k) {
        tread_character_settings s = tread_character_settings_default();
        s.shape = shapes[k];
        // In the V: a round bottom touches both faces with its centre 2 r above the valley; a box with its sole's
        // edges on them, r tan 60 up.
        tread_world *w = NULL;
        tread_world_create(NULL, &w);
        add_mesh_vee(w, 1.0f);
        float feet = s.shape == TREAD_QUERY_BOX ? s.radius * tanf(60.0f * COURSE_PI / 180.0f) : s.radius;
        course_begin(&run, w, tread_v3(0, feet + 0.5f * s.skin, 0), &s);
        course_walk(&run, tread_v3(0, 0, 0), 1.0f, COURSE_DT);
        assert_int_equal(run.ch.ground.state, TREAD_GROUND_ON_GROUND);
        assert_true(fabsf(run.ch.position.y - feet) < 0.01f);
        tread_world_destroy(w);
        // On the ridge, 5 cm to one side of it: it slides off down the roof (keeping the speed it gains).
        tread_world_create(NULL, &w);
        add_mesh_vee(w, -1.0f);
        float drop = s.shape == TREAD_QUERY_BOX ? 0.0f : s.radius - sqrtf(s.radius * s.radius - 0.05f * 0.05f);
        course_begin(&run, w, tread_v3(0.05f, -drop + 0.5f * s.skin, 0), &s);
        tread_character *ch = &run.ch;
        for (int i = 0; i < 60; ++i) {
            tread_move_result res;
            tread_vec3 v = tread_v3_add(ch->velocity, tread_v3(0, COURSE_G * COURSE_DT, 0));
            assert_int_equal(tread_character_move(w, ch, v, COURSE_DT, &res), TREAD_OK);
            assert_int_not_equal(ch->ground.state, TREAD_GROUND_ON_GROUND);
        }
        assert_true(ch->position.x > 0.5f && ch->position.y < -0.5f);
        tread_world_destroy(w);
    }
}

// A one-sided mesh is met from outside only (tread_mesh_def::one_sided): a box pressed against the side of a
// floating closed block (a level brush), its sole level with the block's bottom face, falls past it. Two-sided, that
// bottom face seen from above was a floor under the box's sole edge, and the box walked along the block's bottom edge
// in mid-air (OpenArena's suspended).
static void test_box_beside_a_closed_block_falls_past_its_bottom_edge(void **state) {
    (void)state;
    static const tread_vec3 v[8] = {{0, 1, -2}, {2, 1, -2}, {2, 1, 2}, {0, 1, 2}, {0, 3, -2}, {2, 3, -2}, {2, 3, 2}, {0, 3, 2}};
    static const uint32_t idx[36] = {0, 1, 2, 0, 2, 3, 4, 6, 5, 4, 7, 6, 0, 4, 5, 0, 5, 1,
                                     3, 2, 6, 3, 6, 7, 0, 3, 7, 0, 7, 4, 1, 5, 6, 1, 6, 2}; // wound to face out
    static const uint8_t one_sided[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    const tread_query_shape_type shapes[] = {TREAD_QUERY_BOX, TREAD_QUERY_CAPSULE};
    for (int k = 0; k < 2; ++k) {
        tread_world *w = NULL;
        tread_world_create(NULL, &w);
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_mesh(v, 8, idx, 12);
        def.shape.mesh.one_sided = one_sided;
        tread_body_id id;
        assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
        course_box(w, tread_v3(-10, -6, -10), tread_v3(10, -5, 10));
        tread_character_settings s = tread_character_settings_default();
        s.shape = shapes[k];
        course_begin(&run, w, tread_v3(-s.radius - 0.5f * s.skin, 1.0f + 0.5f * s.skin, 0), &s);
        course_walk(&run, tread_v3(1, 0, 0), 1.5f, COURSE_DT);
        assert_int_not_equal(run.f[0].ground, TREAD_GROUND_ON_GROUND);
        assert_true(run.ch.position.y < -4.9f); // down on the floor below, not hanging at the block's bottom edge
        tread_world_destroy(w);
    }
}

// ---- slopes -------------------------------------------------------------------------------------------------

// Max slope is inclusive (types.h, TREAD_SLOPE_TOLERANCE_DEGREES), however the slope is built: a box rotated by
// exactly 45 degrees and a two-triangle mesh ramp at 45 are climbed by every shape (the box ramp stopped them all:
// its rotated normal is a rounding steeper than 45); at 45 plus twice the tolerance neither is.
static void add_mesh_ramp(tread_world *w, float degrees, float height) {
    float run_length = height / tanf(degrees * COURSE_PI / 180.0f);
    static tread_vec3 v[6];
    static const uint32_t idx[12] = {0, 1, 2, 0, 2, 3, 3, 2, 4, 3, 4, 5};
    v[0] = tread_v3(1, 0, -1), v[1] = tread_v3(1, 0, 1), v[2] = tread_v3(1 + run_length, height, 1);
    v[3] = tread_v3(1 + run_length, height, -1), v[4] = tread_v3(20, height, 1), v[5] = tread_v3(20, height, -1);
    add_mesh(w, v, 6, idx, 4);
}

static void test_max_slope_is_inclusive(void **state) {
    (void)state;
    const tread_query_shape_type shapes[] = {TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE, TREAD_QUERY_BOX};
    const float angles[] = {45.0f, 45.0f + 2.0f * TREAD_SLOPE_TOLERANCE_DEGREES};
    for (int k = 0; k < 3; ++k)
        for (int a = 0; a < 2; ++a)
            for (int mesh = 0; mesh < 2; ++mesh) {
                tread_world *w = course_world();
                if (mesh) add_mesh_ramp(w, angles[a], 1.0f);
                else course_ramp(w, angles[a], 1.0f, 2.0f, 20.0f);
                tread_character_settings s = tread_character_settings_default();
                s.shape = shapes[k];
                course_begin(&run, w, tread_v3(0, 0, 0), &s);
                course_walk(&run, tread_v3(2, 0, 0), 3.0f, COURSE_DT);
                float y = run.f[run.frames - 1].feet.y;
                if (a == 0) assert_true(y > 0.99f); // on the plateau at 1 m
                else assert_true(y < 0.05f);        // stopped at the foot
                tread_world_destroy(w);
            }
}

static void test_keep_horizontal_speed_setting(void **state) {
    (void)state;
    tread_world *w = course_world();
    float crest = course_ramp(w, 30.0f, 3.0f, 4.0f, 20.0f);
    tread_character_settings s = tread_character_settings_default();
    s.keep_horizontal_speed = true;
    course_begin(&run, w, tread_v3(0, 0, 0), &s);
    course_walk(&run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
    int n = 0;
    for (int i = 1; i < run.frames; ++i) {
        tread_vec3 a = run.f[i - 1].feet, b = run.f[i].feet;
        if (a.x < 1.5f || b.x > crest - 0.5f) continue;
        // Exactly the input's 4 m/s along the ramp's run (measured to 1.1e-5 m/s), to float rounding: two feet near
        // 5 m, half an ulp (2.4e-7 m) each, over 1/60 s is 3e-5 m/s.
        assert_float_equal((b.x - a.x) / COURSE_DT, 4.0f, 1e-4f);
        ++n;
    }
    assert_true(n > 20);
    tread_world_destroy(w);
}

static void test_steep_slope_slides_down_under_gravity(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_ramp(w, 60.0f, 3.0f, 4.0f, 20.0f);
    // Spawned touching the 60-degree face half way up, idle: gravity takes it down, it never climbs.
    float a = 60.0f * COURSE_PI / 180.0f;
    float x = 1.0f + 1.5f / tanf(a), lift = 0.3f * (1.0f / cosf(a) - 1.0f);
    tread_character ch = make_character(tread_v3(x - 0.01f, 1.5f + lift, 0));
    // The caller owns velocity: it keeps what the slide leaves and adds gravity while not on walkable ground.
    float prev_y = ch.position.y;
    for (int i = 0; i < 120; ++i) {
        tread_vec3 v = ch.velocity;
        if (ch.ground.state != TREAD_GROUND_ON_GROUND) v.y += COURSE_G * COURSE_DT;
        else v = tread_v3(0, 0, 0);
        tread_move_result res;
        assert_int_equal(tread_character_move(w, &ch, v, COURSE_DT, &res), TREAD_OK);
        assert_true(ch.position.y <= prev_y + 1e-5f);
        prev_y = ch.position.y;
    }
    assert_true(ch.position.y < 0.05f);
    tread_world_destroy(w);
}

static void test_max_step_is_a_hard_limit(void **state) {
    (void)state;
    const float heights[] = {0.41f, 0.50f, 0.65f};
    for (int k = 0; k < 3; ++k) {
        tread_world *w = course_world();
        course_box(w, tread_v3(1, 0, -1), tread_v3(8, heights[k], 1));
        for (int frames_per_s = 30; frames_per_s <= 240; frames_per_s *= 2) {
            course_begin(&run, w, tread_v3(0, 0, 0), NULL);
            course_walk(&run, tread_v3(4, 0, 0), 3.0f, 1.0f / (float)frames_per_s);
            float max_y = 0.0f;
            for (int i = 0; i < run.frames; ++i) max_y = fmaxf(max_y, run.f[i].feet.y);
            assert_true(max_y < 0.01f);
        }
        tread_world_destroy(w);
    }
    // And 0.39 is climbed.
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.39f, 1));
    tread_vec3 end = walk(w, tread_v3(0, 0, 0), tread_v3(4, 0, 0), 1.5f);
    assert_float_equal(end.y, 0.392f, 1e-3f);
    tread_world_destroy(w);
}

static void test_stairs_at_an_angle_climb(void **state) {
    (void)state;
    const float angles[] = {45.0f, 70.0f, 75.0f};
    for (int k = 0; k < 3; ++k) {
        tread_world *w = course_world();
        for (int i = 0; i < 10; ++i) course_box(w, tread_v3(1.0f + 0.3f * (float)i, 0, -20), tread_v3(20, 0.2f * (float)(i + 1), 20));
        float a = angles[k] * COURSE_PI / 180.0f;
        // Long enough to cross the flight's 3.7 m depth along x with margin, short enough to stay on its 40 m width.
        tread_vec3 end = walk(w, tread_v3(0, 0, -18), tread_v3(4 * cosf(a), 0, 4 * sinf(a)), 6.0f / (4.0f * cosf(a)));
        print_message("stairs at %.0f degrees: final (%.3f, %.3f, %.3f)\n", (double)angles[k], (double)end.x, (double)end.y, (double)end.z);
        assert_float_equal(end.y, 2.002f, 0.02f);
        tread_world_destroy(w);
    }
}

static void test_does_not_step_onto_a_one_cm_lip(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(1.01f, 0.2f, 1)); // a 1 cm deep, 20 cm high lip
    course_box(w, tread_v3(1.01f, 0, -1), tread_v3(3, 2.5f, 1));  // against a tall wall
    tread_vec3 end = walk(w, tread_v3(0, 0, 0), tread_v3(4, 0, 0), 2.0f);
    assert_true(end.y < 0.01f);
    for (int i = 0; i < run.frames; ++i) assert_true(run.f[i].stepped <= 0.0f);
    tread_world_destroy(w);
}

static void test_stepped_reports_the_lift(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_stairs(w);
    walk(w, tread_v3(0, 0, 0), tread_v3(4, 0, 0), 1.2f);
    float total_up = 0.0f;
    int steps = 0;
    for (int i = 0; i < run.frames; ++i) {
        total_up += run.f[i].stepped > 0.0f ? run.f[i].stepped : 0.0f;
        steps += run.f[i].stepped > 0.0f;
        // A step's lift is exactly the frame's rise when nothing else moved the feet vertically.
        if (run.f[i].stepped > 0.0f && i > 0) assert_true(run.f[i].feet.y - run.f[i - 1].feet.y >= run.f[i].stepped - 1e-4f);
    }
    print_message("S1: %d stepping frames lifted %.3f m in total\n", steps, (double)total_up);
    assert_true(steps >= 10);      // every riser was stepped
    assert_true(total_up > 1.0f);  // the bulk of the 2 m came from steps (the rest from riding over tread edges)
    tread_world_destroy(w);
}

// ---- stepping down and snapping ---------------------------------------------------------------------------

static void test_walking_off_a_3m_ledge_falls(void **state) {
    (void)state;
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    course_box(w, tread_v3(-10, 2, -10), tread_v3(1, 3, 10)); // ledge top y = 3 ends at x = 1
    course_box(w, tread_v3(-10, -1, -10), tread_v3(20, 0, 10));
    course_begin(&run, w, tread_v3(0, 3, 0), NULL);
    course_walk(&run, tread_v3(4, 0, 0), 1.5f, COURSE_DT);
    float max_drop = 0.0f;
    int air = 0;
    for (int i = 1; i < run.frames; ++i) {
        max_drop = fmaxf(max_drop, run.f[i - 1].feet.y - run.f[i].feet.y);
        air += run.f[i].ground == TREAD_GROUND_IN_AIR;
    }
    assert_true(air > 20);       // a real fall, not a snap
    assert_true(max_drop < 0.3f); // gravity's pace at 60 Hz, never a 3 m teleport
    assert_float_equal(run.f[run.frames - 1].feet.y, 0.002f, 1e-3f);
    tread_world_destroy(w);
}

static void test_no_snap_when_jumping_or_suppressed_or_too_fast(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_stairs(w);
    // Walking down the stairs at 15 m/s (> max snap speed 12): leaves the stairs in the air.
    course_begin(&run, w, tread_v3(3.9f, 2, 0), NULL);
    course_walk(&run, tread_v3(-15, 0, 0), 0.2f, COURSE_DT);
    int air = 0;
    for (int i = 0; i < run.frames; ++i) air += run.f[i].ground != TREAD_GROUND_ON_GROUND;
    assert_true(air > 0);
    // A jump (caller moves up) from grounded: no snap back down.
    tread_character ch = make_character(tread_v3(0, 0.002f, 0));
    tread_move_result res;
    tread_world *flat = course_world();
    assert_int_equal(tread_character_move(flat, &ch, tread_v3(0, 0, 0), COURSE_DT, &res), TREAD_OK);
    assert_int_equal(res.ground.state, TREAD_GROUND_ON_GROUND);
    assert_int_equal(tread_character_move(flat, &ch, tread_v3(0, 5, 0), COURSE_DT, &res), TREAD_OK);
    assert_true(ch.position.y > 0.08f);
    assert_int_equal(res.ground.state, TREAD_GROUND_IN_AIR);
    // A small hop (1 m/s: 1.7 cm this frame, within the ground probe's reach): the frame it starts is not on ground.
    ch = make_character(tread_v3(0, 0.002f, 0));
    assert_int_equal(tread_character_move(flat, &ch, tread_v3(0, 0, 0), COURSE_DT, &res), TREAD_OK);
    assert_int_equal(tread_character_move(flat, &ch, tread_v3(2, 1, 0), COURSE_DT, &res), TREAD_OK);
    assert_float_equal(ch.position.y, 0.002f + 1.0f * COURSE_DT, FREE_MOTION_TOLERANCE); // from the skin, 1 m/s for a frame
    assert_int_equal(res.ground.state, TREAD_GROUND_IN_AIR);
    // Suppressed snapping: walking off a step down stays in the air while suppressed.
    course_begin(&run, w, tread_v3(3.9f, 2, 0), NULL);
    course_walk(&run, tread_v3(0, 0, 0), 0.1f, COURSE_DT);
    assert_int_equal(tread_character_suppress_snap(&run.ch, 1.0f), TREAD_OK);
    course_walk(&run, tread_v3(-4, 0, 0), 0.2f, COURSE_DT);
    air = 0;
    for (int i = 6; i < run.frames; ++i) air += run.f[i].ground != TREAD_GROUND_ON_GROUND;
    assert_true(air > 0);
    assert_int_equal(tread_character_suppress_snap(&run.ch, -1.0f), TREAD_ERR_INVALID_ARGUMENT);
    tread_world_destroy(flat);
    tread_world_destroy(w);
}

// ---- ceilings -------------------------------------------------------------------------------------------------

static void test_ceiling_removes_upward_velocity(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(-5, 2.5f, -5), tread_v3(5, 3, 5));
    tread_character ch = make_character(tread_v3(0, 0.002f, 0));
    tread_move_result res;
    tread_character_move(w, &ch, tread_v3(0, 0, 0), COURSE_DT, &res);
    for (int i = 0; i < 3; ++i) tread_character_move(w, &ch, tread_v3(1, 30, 0), COURSE_DT, &res); // into a ceiling 0.7 m above the head
    assert_true(ch.position.y + 1.8f <= 2.5f + 1e-4f);
    assert_true(res.velocity.y <= 1e-4f);
    assert_float_equal(res.velocity.x, 1.0f, 1e-4f);
    tread_world_destroy(w);
}

// ---- recovery -------------------------------------------------------------------------------------------------

static void test_spawned_touching_floor_stays(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_begin(&run, w, tread_v3(0, 0, 0), NULL); // exactly touching, inside the skin
    course_walk(&run, tread_v3(0, 0, 0), 1.0f, COURSE_DT);
    // The first move settles it at the skin (every shape rests the skin above its ground); then it stays still.
    assert_float_equal(run.f[0].feet.y, 0.002f, 1e-6f);
    for (int i = 1; i < run.frames; ++i) assert_float_equal(run.f[i].feet.y, run.f[0].feet.y, 0.0f);
    assert_int_equal(run.ch.ground.state, TREAD_GROUND_ON_GROUND);
    tread_world_destroy(w);
}

static void test_spawned_inside_geometry_gets_out_within_a_second(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(0.1f, 0, -2), tread_v3(3, 1, 2)); // a crate the capsule starts 0.2 m inside
    course_begin(&run, w, tread_v3(-0.1f, 0.0f, 0), NULL);
    float depth = course_penetration(&run);
    assert_true(depth > 0.1f);
    course_walk(&run, tread_v3(0, 0, 0), 1.0f, COURSE_DT);
    for (int i = 0; i < run.frames; ++i) {
        assert_true(run.f[i].penetration <= depth + 1e-6f); // never deeper
        depth = run.f[i].penetration > 0.0f ? run.f[i].penetration : depth;
    }
    assert_true(run.f[run.frames - 1].penetration <= 0.001f);
    tread_world_destroy(w);
}

static void test_buried_character_rises_out(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_begin(&run, w, tread_v3(0, -0.8f, 0), NULL); // 0.8 m into the floor
    course_walk(&run, tread_v3(0, 0, 0), 1.0f, COURSE_DT);
    for (int i = 1; i < run.frames; ++i) assert_true(run.f[i].penetration <= run.f[i - 1].penetration + 1e-6f);
    assert_true(run.f[run.frames - 1].penetration <= 0.001f);
    assert_true(run.f[run.frames - 1].feet.y > -0.01f);
    tread_world_destroy(w);
}

// ---- any up direction -------------------------------------------------------------------------------------

static void test_course_with_up_z_matches_bit_for_bit(void **state) {
    (void)state;
    // S1 built with Y and Z swapped, walked with up = +Z: the same positions, swapped.
    tread_world *wy = course_world(), *wz = NULL;
    course_stairs(wy);
    tread_world_create(NULL, &wz);
    course_box(wz, tread_v3(-50, -50, -1), tread_v3(50, 50, 0));
    for (int i = 0; i < 10; ++i) course_box(wz, tread_v3(1.0f + 0.3f * (float)i, -1, 0), tread_v3(20, 1, 0.2f * (float)(i + 1)));
    tread_character_settings sz = tread_character_settings_default();
    sz.up = tread_v3(0, 0, 1);
    tread_character cy = make_character(tread_v3(0, 0, 0)), cz;
    assert_int_equal(tread_character_init(&cz, &sz, tread_v3(0, 0, 0)), TREAD_OK);
    for (int i = 0; i < 180; ++i) {
        tread_move_result ry, rz;
        float vy = cy.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : cy.velocity.y + COURSE_G * COURSE_DT;
        float vz = cz.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : cz.velocity.z + COURSE_G * COURSE_DT;
        tread_character_move(wy, &cy, tread_v3(4, vy, 0), COURSE_DT, &ry);
        tread_character_move(wz, &cz, tread_v3(4, 0, vz), COURSE_DT, &rz);
        assert_true(cy.position.x == cz.position.x && cy.position.y == cz.position.z && cy.position.z == cz.position.y);
    }
    assert_float_equal(cy.position.y, 2.002f, 0.02f);
    tread_world_destroy(wy);
    tread_world_destroy(wz);
}

static void test_tilted_up_climbs_the_tilted_course(void **state) {
    (void)state;
    // The whole S1 world and the character's up rotated by 30 degrees about X: same path within 1e-3 m.
    tread_quat q = tread_quat_from_axis_angle(tread_v3(1, 0, 0), 30.0f * COURSE_PI / 180.0f);
    tread_world *wy = course_world(), *wt = NULL;
    course_stairs(wy);
    tread_world_create(NULL, &wt);
    tread_vec3 mins[11], maxs[11];
    mins[0] = tread_v3(-50, -1, -50);
    maxs[0] = tread_v3(50, 0, 50);
    for (int i = 0; i < 10; ++i) {
        mins[i + 1] = tread_v3(1.0f + 0.3f * (float)i, 0, -1);
        maxs[i + 1] = tread_v3(20, 0.2f * (float)(i + 1), 1);
    }
    for (int i = 0; i < 11; ++i) {
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_box(tread_v3_scale(tread_v3_sub(maxs[i], mins[i]), 0.5f));
        def.transform.p = tread_quat_rotate(q, tread_v3_scale(tread_v3_add(mins[i], maxs[i]), 0.5f));
        def.transform.q = q;
        tread_body_id id;
        assert_int_equal(tread_world_add_body(wt, &def, &id), TREAD_OK);
    }
    tread_character_settings st = tread_character_settings_default();
    st.up = tread_quat_rotate(q, tread_v3(0, 1, 0));
    tread_character cy = make_character(tread_v3(0, 0, 0)), ct;
    assert_int_equal(tread_character_init(&ct, &st, tread_v3(0, 0, 0)), TREAD_OK);
    tread_vec3 g = tread_v3(0, COURSE_G, 0);
    for (int i = 0; i < 180; ++i) {
        tread_move_result ry, rt;
        tread_vec3 vy = tread_v3(4, cy.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : cy.velocity.y + g.y * COURSE_DT, 0);
        tread_vec3 local_t = tread_quat_inv_rotate(q, ct.velocity);
        tread_vec3 vt_local = tread_v3(4, ct.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : local_t.y + g.y * COURSE_DT, 0);
        tread_character_move(wy, &cy, vy, COURSE_DT, &ry);
        tread_character_move(wt, &ct, tread_quat_rotate(q, vt_local), COURSE_DT, &rt);
    }
    tread_vec3 back = tread_quat_inv_rotate(q, ct.position);
    print_message("tilted up: (%.5f, %.5f, %.5f) vs (%.5f, %.5f, %.5f)\n", (double)back.x, (double)back.y, (double)back.z, (double)cy.position.x,
                  (double)cy.position.y, (double)cy.position.z);
    assert_true(tread_v3_distance(back, cy.position) < 1e-3f);
    tread_world_destroy(wy);
    tread_world_destroy(wt);
}

// ---- bad input, allocation, camera ----------------------------------------------------------------------------

static void test_bad_input_leaves_character_unchanged(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_character ch = make_character(tread_v3(0, 0, 0));
    tread_move_result res;
    tread_character_move(w, &ch, tread_v3(1, 0, 0), COURSE_DT, &res);
    tread_character before = ch;
    assert_int_equal(tread_character_move(w, &ch, tread_v3(NAN, 0, 0), COURSE_DT, &res), TREAD_ERR_NOT_FINITE);
    assert_non_null(strstr(tread_error_message(), "velocity"));
    assert_int_equal(tread_character_move(w, &ch, tread_v3(0, INFINITY, 0), COURSE_DT, &res), TREAD_ERR_NOT_FINITE);
    assert_int_equal(tread_character_move(w, &ch, tread_v3(5000, 0, 0), COURSE_DT, &res), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_character_move(w, &ch, tread_v3(1, 0, 0), 0.0f, &res), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "dt"));
    assert_int_equal(tread_character_move(w, &ch, tread_v3(1, 0, 0), -0.1f, &res), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_character_move(w, &ch, tread_v3(1, 0, 0), 1.5f, &res), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_character_move(w, &ch, tread_v3(1, 0, 0), NAN, &res), TREAD_ERR_NOT_FINITE);
    assert_int_equal(tread_character_move(NULL, &ch, tread_v3(1, 0, 0), COURSE_DT, &res), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_character_move(w, &ch, tread_v3(1, 0, 0), COURSE_DT, NULL), TREAD_ERR_NULL_ARGUMENT);
    assert_memory_equal(&before, &ch, sizeof ch);

    tread_character_settings s = tread_character_settings_default();
    tread_character fresh;
    s.radius = -0.3f;
    assert_int_equal(tread_character_init(&fresh, &s, tread_v3(0, 0, 0)), TREAD_ERR_INVALID_SHAPE);
    assert_non_null(strstr(tread_error_message(), "radius"));
    s = tread_character_settings_default();
    s.max_slope_degrees = 90.0f;
    assert_int_equal(tread_character_init(&fresh, &s, tread_v3(0, 0, 0)), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "max_slope_degrees"));
    s = tread_character_settings_default();
    s.height = 0.4f;
    assert_int_equal(tread_character_init(&fresh, &s, tread_v3(0, 0, 0)), TREAD_ERR_INVALID_SHAPE);
    s = tread_character_settings_default();
    s.up = tread_v3(0, 0, 0);
    assert_int_equal(tread_character_init(&fresh, &s, tread_v3(0, 0, 0)), TREAD_ERR_INVALID_ARGUMENT);
    s = tread_character_settings_default();
    s.skin = NAN;
    assert_int_equal(tread_character_init(&fresh, &s, tread_v3(0, 0, 0)), TREAD_ERR_NOT_FINITE);
    s = tread_character_settings_default();
    s.max_slide_iterations = 0;
    assert_int_equal(tread_character_init(&fresh, &s, tread_v3(0, 0, 0)), TREAD_ERR_INVALID_ARGUMENT);
    s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&fresh, &s, tread_v3(NAN, 0, 0)), TREAD_ERR_NOT_FINITE);
    assert_int_equal(tread_character_init(NULL, &s, tread_v3(0, 0, 0)), TREAD_ERR_NULL_ARGUMENT);
    tread_world_destroy(w);
}

static size_t allocations;
static void *counting_alloc(size_t size, void *context) {
    (void)context;
    ++allocations;
    return malloc(size);
}
static void counting_free(void *memory, void *context) {
    (void)context;
    free(memory);
}

static void test_move_allocates_nothing(void **state) {
    (void)state;
    tread_set_allocator(counting_alloc, counting_free, NULL);
    tread_world *w = course_world();
    course_stairs(w);
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    size_t before = allocations;
    course_walk(&run, tread_v3(4, 0, 0), 3.0f, COURSE_DT);
    assert_int_equal(allocations, before);
    assert_true(run.f[run.frames - 1].feet.y > 1.9f);
    tread_world_destroy(w);
    tread_set_allocator(NULL, NULL, NULL);
}

static void test_deterministic_exp_and_step_smoothing(void **state) {
    (void)state;
    for (float x = -80.0f; x <= 80.0f; x += 0.37f) {
        double ref = exp((double)x), got = (double)tread_exp(x);
        assert_true(fabs(got - ref) <= 4e-7 * ref);
    }
    assert_float_equal(tread_exp(0.0f), 1.0f, 0.0f);
    assert_float_equal(tread_exp_decay(1.0f, 0.0f, 0.0f, 1.0f), 1.0f, 0.0f);
    // Frame-rate independent: 60 steps of 1/60 equal 30 steps of 1/30 within float rounding.
    float a = 1.0f, b = 1.0f;
    for (int i = 0; i < 60; ++i) a = tread_exp_decay(a, 0.0f, 10.0f, 1.0f / 60.0f);
    for (int i = 0; i < 30; ++i) b = tread_exp_decay(b, 0.0f, 10.0f, 1.0f / 30.0f);
    assert_float_equal(a, b, 1e-6f);
    assert_float_equal(a, (float)exp(-10.0), 1e-6f);
    // The camera keeps the view where it was when the body steps up 0.2 m, then glides to it.
    tread_step_smoothing s = tread_step_smoothing_default();
    assert_int_equal(tread_step_smoothing_update(&s, 0.2f, 1.0f / 60.0f), TREAD_OK);
    assert_true(s.offset < -0.15f && s.offset > -0.2f);
    for (int i = 0; i < 60; ++i) tread_step_smoothing_update(&s, 0.0f, 1.0f / 60.0f);
    assert_true(fabsf(s.offset) < 1e-4f);
    assert_int_equal(tread_step_smoothing_update(&s, NAN, 0.1f), TREAD_ERR_NOT_FINITE);
    assert_int_equal(tread_step_smoothing_update(NULL, 0.0f, 0.1f), TREAD_ERR_NULL_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plane_solver_one_two_three_planes),
        cmocka_unit_test(test_corner_does_not_stick_or_jitter),
        cmocka_unit_test(test_narrowing_hallway_stops_smoothly),
        cmocka_unit_test(test_no_tunnelling_through_thin_wall_at_100_m_per_s),
        cmocka_unit_test(test_floor_of_separate_boxes_does_not_snag),
        cmocka_unit_test(test_on_ground_touches_the_ground),
        cmocka_unit_test(test_small_hole_under_center_stays_grounded),
        cmocka_unit_test(test_standing_on_ledge_edge_is_grounded),
        cmocka_unit_test(test_perched_beyond_the_cap_rolls_off), cmocka_unit_test(test_crevasse_holds_and_ridge_does_not), cmocka_unit_test(test_box_beside_a_closed_block_falls_past_its_bottom_edge), cmocka_unit_test(test_perched_on_a_slope_s_lower_edge_rolls_off),
        cmocka_unit_test(test_ground_point_lies_under_the_bottom),
        cmocka_unit_test(test_max_slope_is_inclusive),
        cmocka_unit_test(test_keep_horizontal_speed_setting),
        cmocka_unit_test(test_steep_slope_slides_down_under_gravity),
        cmocka_unit_test(test_max_step_is_a_hard_limit),
        cmocka_unit_test(test_stairs_at_an_angle_climb),
        cmocka_unit_test(test_does_not_step_onto_a_one_cm_lip),
        cmocka_unit_test(test_stepped_reports_the_lift),
        cmocka_unit_test(test_walking_off_a_3m_ledge_falls),
        cmocka_unit_test(test_no_snap_when_jumping_or_suppressed_or_too_fast),
        cmocka_unit_test(test_ceiling_removes_upward_velocity),
        cmocka_unit_test(test_spawned_touching_floor_stays),
        cmocka_unit_test(test_spawned_inside_geometry_gets_out_within_a_second),
        cmocka_unit_test(test_buried_character_rises_out),
        cmocka_unit_test(test_course_with_up_z_matches_bit_for_bit),
        cmocka_unit_test(test_tilted_up_climbs_the_tilted_course),
        cmocka_unit_test(test_bad_input_leaves_character_unchanged),
        cmocka_unit_test(test_move_allocates_nothing),
        cmocka_unit_test(test_deterministic_exp_and_step_smoothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
