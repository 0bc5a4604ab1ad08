// SPDX-License-Identifier: MIT
// Numbers the docs state that no behaviour test pinned (docs/CLAIMS.md lists every claim and what checks it): the
// character's size, the defaults the README and docs/DESIGN.md quote, what follows from them (the roll bound per
// nose), float spacing in large worlds, the drift of straight-line platform integration DESIGN.md's "Moving ground"
// quotes, the setting ranges docs/RELIABILITY.md quotes, the layer limit, S1's climb time at 30, 60 and 240 Hz, a
// mesh's bytes per triangle, and one always/never rule no test held (another character is never a crevasse wall).
// docs/DESIGN.md's table of named tolerances is generated from the code and checked by scripts/tolerances_table.sh.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "course.h"
#include "character/character_internal.h"
#include "tread/motor.h"
#include "world/mesh.h"

// README "Features", DESIGN.md "Settings live in the character": the character is 208 bytes of plain data; its saved
// state (README "Save and restore") is 200; a move's report is 172 (README; at most 256, asserted where it is built).
static void test_character_is_208_bytes_and_saves_200(void **state) {
    (void)state;
    assert_int_equal(sizeof(tread_character), 208);
    assert_int_equal(sizeof(tread_move_result), 172);
    assert_int_equal(TREAD_CHARACTER_STATE_SIZE, 200);
    tread_character_settings s = tread_character_settings_default();
    tread_character ch;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
    unsigned char bytes[TREAD_CHARACTER_STATE_SIZE + 16];
    size_t size = 0;
    assert_int_equal(tread_character_save(&ch, bytes, sizeof bytes, &size), TREAD_OK);
    assert_int_equal(size, 200);
}

// types.h, README's examples ("capsule 0.3 x 1.8 m", "walks at up to 6 m/s"), DESIGN.md's tolerance table (skin 2 mm,
// ground probe 0.02 m) and "Minimum tread depth" (0.1 m).
static void test_defaults_are_the_documented_ones(void **state) {
    (void)state;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(s.shape, TREAD_QUERY_CAPSULE);
    assert_true(s.radius == 0.3f && s.height == 1.8f);
    assert_true(s.max_step_height == 0.4f && s.max_slope_degrees == 45.0f);
    assert_true(s.skin == 0.002f && s.ground_probe_distance == 0.02f && s.min_step_depth == 0.1f);
    assert_true(s.up.x == 0.0f && s.up.y == 1.0f && s.up.z == 0.0f);
    tread_motor_settings m = tread_motor_settings_default();
    assert_true(m.max_speed == 6.0f);
}

// DESIGN.md "A round bottom stands only on its walkable cap" and README "Features": a roll goes at most
// radius + skin - 0.98 radius sin(max slope) sideways, 0.094 m for the default capsule.
static void test_roll_bound_of_the_default_capsule_is_0_094(void **state) {
    (void)state;
    tread_character_settings s = tread_character_settings_default();
    double roll = (double)s.radius + (double)s.skin - (double)TR_ROLL_REST * (double)s.radius * sin((double)s.max_slope_degrees * TR_PI_D / 180.0);
    print_message("roll bound %.5f m\n", roll);
    assert_true(TR_ROLL_REST == 0.98f);
    assert_true(fabs(roll - 0.094) < 0.0005);
}

// DESIGN.md "Large worlds": at distance d the spacing of floats is at most d * 2^-23: 0.5 mm at 4 km (4,096 m),
// 2 mm at 16 km (16,384 m), 7.8 mm at 65 km (65,536 m, the coordinate limit).
static void test_float_spacing_in_large_worlds(void **state) {
    (void)state;
    for (float d = 1.0f; d <= TREAD_MAX_COORDINATE; d *= 1.37f) assert_true((double)(nextafterf(d, INFINITY) - d) <= (double)d * 0x1p-23);
    assert_true(fabs((double)(nextafterf(4096.0f, INFINITY) - 4096.0f) - 0.5e-3) < 0.02e-3);
    assert_true(fabs((double)(nextafterf(16384.0f, INFINITY) - 16384.0f) - 2.0e-3) < 0.05e-3);
    assert_true(fabs((double)(nextafterf(65536.0f, INFINITY) - 65536.0f) - 7.8e-3) < 0.05e-3);
    assert_true(TREAD_MAX_COORDINATE == 65536.0f);
}

// DESIGN.md "Moving ground is carried": integrating a turning disc's velocity at one point in a straight line lets a
// rider drift outward, 6 cm in 10 s at 0.5 rad/s, 3 m out (at the course's 60 Hz). Each step moves the rider
// along the tangent, r -> r sqrt(1 + (w dt)^2): after n steps r (1 + (w dt)^2)^(n/2), 6.3 cm out.
static void test_straight_line_integration_drifts_6_cm(void **state) {
    (void)state;
    double x = 3.0, z = 0.0, w = 0.5, dt = 1.0 / 60.0;
    for (int i = 0; i < 600; ++i) {
        double vx = -w * z, vz = w * x; // the disc's velocity at the rider
        x += vx * dt, z += vz * dt;
    }
    double drift = sqrt(x * x + z * z) - 3.0;
    double closed_form = 3.0 * (pow(1.0 + (w * dt) * (w * dt), 300.0) - 1.0); // 0.06315 m
    print_message("drift %.6f m (closed form %.6f m)\n", drift, closed_form);
    assert_true(fabs(drift - closed_form) < 1e-12); // metres: double rounding over 600 steps of 3 m
    assert_true(fabs(drift - 0.06) < 0.005);         // the doc's "6 cm", to the centimetre
}

// docs/RELIABILITY.md: the skin's documented range is [1e-4, 0.05] m; types.h's ranges for the soak's others.
static void test_skin_range_is_1e4_to_0_05(void **state) {
    (void)state;
    const float ok[] = {1.0e-4f, 0.05f}, bad[] = {0.99e-4f, 0.0501f};
    for (int i = 0; i < 2; ++i) {
        tread_character_settings s = tread_character_settings_default();
        tread_character ch;
        s.skin = ok[i];
        assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
        s.skin = bad[i];
        assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_ERR_INVALID_ARGUMENT);
    }
}

// DESIGN.md "Layers": indices 0 .. TREAD_MAX_LAYERS - 1 = 31; README: 32 layers.
static void test_layers_are_0_to_31(void **state) {
    (void)state;
    assert_int_equal(TREAD_MAX_LAYERS, 32);
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(1, 1, 1));
    tread_body_id id;
    def.layer = 31;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    def.layer = 32;
    assert_int_not_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    tread_world_destroy(w);
}

// S1 (the course's stairs, 4 m/s) climbed to y >= 1.95 m by the default capsule: DESIGN.md "A round bottom stands only
// on its walkable cap" (0.80 s at 60 and 240 Hz against 0.97 s at 30 Hz) and README's course table (the 60 Hz time; it
// said 0.950 s, from before the roll over noses). `tread run scenes/course/S01-stairs-up.json` reports the same.
static course_run run;
static float s1_climb_time(float hz) {
    tread_world *w = course_world();
    course_stairs(w);
    float dt = 1.0f / hz;
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    course_walk(&run, tread_v3(4, 0, 0), fminf(2.0f, (float)(COURSE_MAX_FRAMES - 1) * dt), dt);
    float t = -1.0f;
    for (int i = 0; i < run.frames && t < 0.0f; ++i)
        if (run.f[i].feet.y >= 1.95f) t = (float)(i + 1) * dt;
    tread_world_destroy(w);
    return t;
}

static void test_s1_climb_times(void **state) {
    (void)state;
    float t30 = s1_climb_time(30.0f), t60 = s1_climb_time(60.0f), t240 = s1_climb_time(240.0f);
    print_message("S1 climbed in %.3f s at 30 Hz, %.3f s at 60 Hz, %.3f s at 240 Hz\n", (double)t30, (double)t60, (double)t240);
    // Within one frame of the documented times.
    assert_true(fabsf(t30 - 0.967f) <= 1.0f / 30.0f);
    assert_true(fabsf(t60 - 0.800f) <= 1.0f / 60.0f);
    assert_true(fabsf(t240 - 0.796f) <= 1.0f / 240.0f);
}

// README "Collision world": a triangle mesh costs 24 bytes per triangle with its tree, vertices kept exactly
// (docs/PERFORMANCE.md measures 23.9 on the benchmark's 1M-triangle terrain; here the same rolling grid, 400 x 400
// cells). Live bytes are counted through the allocator hook, each block's size kept in a header.
static size_t live_bytes;
static void *sized_alloc(size_t size, void *context) {
    (void)context;
    max_align_t *block = malloc(sizeof(max_align_t) + size);
    if (!block) return NULL;
    memcpy(block, &size, sizeof size);
    live_bytes += size;
    return block + 1;
}
static void sized_free(void *memory, void *context) {
    (void)context;
    if (!memory) return;
    max_align_t *block = (max_align_t *)memory - 1;
    size_t size;
    memcpy(&size, block, sizeof size);
    live_bytes -= size;
    free(block);
}

static float rolling(float x, float period) { // a triangle wave of amplitude 1, as bench/bench.c's terrain
    float u = x / period;
    u -= (float)(long)u;
    return u < 0.5f ? 4.0f * u - 1.0f : 3.0f - 4.0f * u;
}

static void test_mesh_costs_14_bytes_per_triangle(void **state) {
    (void)state;
    enum { CELLS = 400, N = CELLS + 1 };
    tread_vec3 *v = malloc((size_t)N * N * sizeof *v);
    uint32_t *idx = malloc((size_t)CELLS * CELLS * 6 * sizeof *idx), *p = idx;
    assert_true(v && idx);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            v[j * N + i] = tread_v3((float)i, 1.5f * rolling((float)i, 37.0f) + rolling((float)j, 23.0f) + 0.25f * rolling((float)(i + j), 5.3f), (float)j);
    for (int j = 0; j < CELLS; j++)
        for (int i = 0; i < CELLS; i++) {
            uint32_t a = (uint32_t)(j * N + i), b = a + 1, c = a + (uint32_t)N, d = c + 1;
            *p++ = a, *p++ = d, *p++ = b, *p++ = a, *p++ = c, *p++ = d;
        }
    tread_mesh_def def = {v, N * N, idx, CELLS * CELLS * 2, NULL};
    tread_set_allocator(sized_alloc, sized_free, NULL);
    size_t before = live_bytes;
    tr_mesh mesh;
    assert_int_equal(tr_mesh_create(&mesh, &def), TREAD_OK);
    double per = (double)(live_bytes - before) / (double)def.triangle_count;
    print_message("mesh: %.1f bytes per triangle (%d triangles)\n", per, def.triangle_count);
    tr_mesh_destroy(&mesh);
    tread_set_allocator(NULL, NULL, NULL);
    assert_true(live_bytes == before);
    assert_true(per <= 14.0); // (24.3 before the full 4-wide nodes and leaves without records)
    free(v);
    free(idx);
}

// DESIGN.md "Ground": two steep contacts facing each other across a round bottom hold it (a crevasse), but another
// character is never a crevasse wall. A sphere rests on a standing capsule's shoulder (its contact 60 degrees from up,
// steep) against a wall leaning 80 degrees (steep): the two push it toward walkable, so with a static capsule in the
// other character's place it is held, and with the character it is not.
static void crevasse_world(tread_world **out, bool capsule_is_a_body, tread_character *sphere) {
    tread_world *w = course_world();
    const double pi = TR_PI_D, skin = 0.002, r = 0.3;
    // The sphere's centre: 0.6 m (plus the skin) from the capsule's top sphere centre (0, 1.5, 0), 30 degrees up.
    double cx = (0.6 + skin) * cos(pi / 6.0), cy = 1.5 + (0.6 + skin) * sin(pi / 6.0);
    // The wall's face: normal (-cos 10, sin 10), the skin from the sphere; a box turned 80 degrees about z, half 1 m
    // thick, its +y face on that plane.
    double nx = -cos(pi / 18.0), ny = sin(pi / 18.0), gap = r + skin;
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(2.0f, 1.0f, 2.0f));
    def.transform.p = tread_v3((float)(cx - gap * nx - nx), (float)(cy - gap * ny - ny), 0.0f);
    def.transform.q = tread_quat_from_axis_angle(tread_v3(0, 0, 1), (float)(80.0 * pi / 180.0));
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    if (capsule_is_a_body) {
        def = tread_body_def_default();
        def.shape = tread_shape_capsule(0.6f, 0.3f);
        def.transform.p = tread_v3(0.0f, 0.9f, 0.0f);
        assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    }
    tread_character_settings s = tread_character_settings_default();
    s.shape = TREAD_QUERY_SPHERE;
    s.radius = (float)r;
    assert_int_equal(tread_character_init(sphere, &s, tread_v3((float)cx, (float)(cy - r), 0.0f)), TREAD_OK);
    *out = w;
}

static void test_another_character_is_never_a_crevasse_wall(void **state) {
    (void)state;
    // A static capsule and the wall: a crevasse, the sphere is held.
    tread_world *w;
    tread_character sphere;
    crevasse_world(&w, true, &sphere);
    tread_move_result res;
    assert_int_equal(tread_character_move(w, &sphere, tread_v3(0, -0.1f, 0), COURSE_DT, &res), TREAD_OK);
    print_message("against a capsule body: ground state %d, feet y %.4f\n", (int)sphere.ground.state, (double)sphere.position.y);
    assert_int_equal(sphere.ground.state, TREAD_GROUND_ON_GROUND);
    tread_world_destroy(w);

    // The same capsule as a character of a batch: not ground for the sphere.
    crevasse_world(&w, false, &sphere);
    tread_character c[2];
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&c[0], &s, tread_v3(0, 0, 0)), TREAD_OK);
    c[1] = sphere;
    tread_batch_def bd = tread_batch_def_default();
    bd.threads = 1;
    tread_batch *b = NULL;
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
    tread_vec3 v[2] = {tread_v3(0, 0, 0), tread_v3(0, -0.1f, 0)};
    tread_move_result r2[2];
    assert_int_equal(tread_batch_move(b, w, c, v, 2, COURSE_DT, r2), TREAD_OK);
    print_message("against a character: ground state %d, feet y %.4f\n", (int)c[1].ground.state, (double)c[1].position.y);
    assert_int_not_equal(c[1].ground.state, TREAD_GROUND_ON_GROUND);
    tread_batch_destroy(b);
    tread_world_destroy(w);
}

// DESIGN.md "A round bottom": a roll goes at most radius + skin - 0.98 radius sin(max slope) sideways (0.094 m for
// the default capsule), once per nose, whatever the rate. Up S1's ten noses at 4 m/s, at 30, 60, 120 and 240 Hz: no
// frame goes farther along x than its motion plus that, and all the frames together gain at most ten of it.
static void test_rolls_gain_at_most_the_bound_per_nose(void **state) {
    (void)state;
    tread_character_settings s = tread_character_settings_default();
    float bound = s.radius + s.skin - TR_ROLL_REST * s.radius * (float)sin((double)s.max_slope_degrees * TR_PI_D / 180.0);
    const float rates[] = {30.0f, 60.0f, 120.0f, 240.0f};
    for (int k = 0; k < 4; ++k) {
        tread_world *w = course_world();
        course_stairs(w);
        float dt = 1.0f / rates[k];
        course_begin(&run, w, tread_v3(0, 0, 0), NULL);
        course_walk(&run, tread_v3(4, 0, 0), 1.5f, dt);
        float worst = 0.0f, gained = 0.0f, x = 0.0f;
        for (int i = 0; i < run.frames; ++i) {
            float excess = run.f[i].feet.x - x - 4.0f * dt;
            x = run.f[i].feet.x;
            if (excess > 0.0f) gained += excess;
            worst = fmaxf(worst, excess);
        }
        print_message("%.0f Hz: worst frame %.4f m past its motion, %.4f m in all (bound %.4f a nose)\n", (double)rates[k],
                      (double)worst, (double)gained, (double)bound);
        assert_true(worst <= bound + 1e-4f);
        assert_true(gained <= 10.0f * bound + 1e-3f);
        tread_world_destroy(w);
    }
}

// README "Features", DESIGN.md "Settings live in the character": the character is plain data, saving it is a memcpy.
// A byte copy taken mid-climb moves on exactly as the original does.
static void test_a_memcpy_of_a_character_moves_the_same(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_stairs(w);
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    course_walk(&run, tread_v3(4, 0, 0), 0.4f, COURSE_DT);
    tread_character copy;
    memcpy(&copy, &run.ch, sizeof copy);
    for (int i = 0; i < 60; ++i) {
        tread_move_result ra, rb;
        tread_vec3 v = tread_v3(4, run.ch.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : run.ch.velocity.y - 9.81f * COURSE_DT, 0);
        assert_int_equal(tread_character_move(w, &run.ch, v, COURSE_DT, &ra), TREAD_OK);
        assert_int_equal(tread_character_move(w, &copy, v, COURSE_DT, &rb), TREAD_OK);
        unsigned char a[TREAD_CHARACTER_STATE_SIZE], b[TREAD_CHARACTER_STATE_SIZE];
        size_t na = 0, nb = 0;
        assert_int_equal(tread_character_save(&run.ch, a, sizeof a, &na), TREAD_OK);
        assert_int_equal(tread_character_save(&copy, b, sizeof b, &nb), TREAD_OK);
        assert_true(na == nb && memcmp(a, b, na) == 0); // every saved field, bit for bit (not padding)
    }
    assert_true(copy.position.y > 1.9f);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_character_is_208_bytes_and_saves_200),
        cmocka_unit_test(test_a_memcpy_of_a_character_moves_the_same),
        cmocka_unit_test(test_defaults_are_the_documented_ones),
        cmocka_unit_test(test_roll_bound_of_the_default_capsule_is_0_094),
        cmocka_unit_test(test_rolls_gain_at_most_the_bound_per_nose),
        cmocka_unit_test(test_float_spacing_in_large_worlds),
        cmocka_unit_test(test_straight_line_integration_drifts_6_cm),
        cmocka_unit_test(test_skin_range_is_1e4_to_0_05),
        cmocka_unit_test(test_layers_are_0_to_31),
        cmocka_unit_test(test_s1_climb_times),
        cmocka_unit_test(test_mesh_costs_14_bytes_per_triangle),
        cmocka_unit_test(test_another_character_is_never_a_crevasse_wall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
