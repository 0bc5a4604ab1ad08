// SPDX-License-Identifier: MIT
// Saved state: a character's and the moving bodies' bytes restore exactly, a re-run from them repeats itself bit for
// bit (rollback), the layout is little-endian by name, and bad bytes are refused without changing anything.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"

enum { N = 6 };

typedef struct scene {
    tread_world *world;
    tread_body_id disc, lift, crate;
    tread_batch *batch;
    tread_character c[N];
} scene;

static void build(scene *s) {
    s->world = course_world();
    course_stairs(s->world);
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_KINEMATIC;
    def.shape = tread_shape_box(tread_v3(2, 0.1f, 2));
    def.transform.p = tread_v3(-5, 0.1f, 0);
    def.angular_velocity = tread_v3(0, 0.9f, 0);
    assert_int_equal(tread_world_add_body(s->world, &def, &s->disc), TREAD_OK);
    def.shape = tread_shape_box(tread_v3(1, 0.1f, 1));
    def.transform.p = tread_v3(-5, 0.1f, 5);
    def.angular_velocity = tread_v3_zero();
    def.linear_velocity = tread_v3(0, 0.7f, 0);
    assert_int_equal(tread_world_add_body(s->world, &def, &s->lift), TREAD_OK);
    def.type = TREAD_BODY_DYNAMIC;
    def.linear_velocity = tread_v3_zero();
    def.shape = tread_shape_box(tread_v3(0.4f, 0.4f, 0.4f));
    def.transform.p = tread_v3(-2, 0.4f, -4);
    assert_int_equal(tread_world_add_body(s->world, &def, &s->crate), TREAD_OK);
    tread_batch_def bd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&bd, &s->batch), TREAD_OK);
    tread_character_settings set = tread_character_settings_default();
    const tread_vec3 starts[N] = {{-5, 0.3f, 0.5f}, {-5, 0.3f, 5}, {0, 0.002f, 0}, {0, 0.002f, 0.8f}, {-3, 0.002f, -4}, {-2, 1.5f, 2}};
    for (int i = 0; i < N; ++i) assert_int_equal(tread_character_init(&s->c[i], &set, starts[i]), TREAD_OK);
}

// One frame: the crate slides on by its last velocity (the game's physics), the world advances, the batch moves.
static void frame(scene *s, int f) {
    tread_transform t, prev;
    assert_int_equal(tread_body_get_motion(s->world, s->crate, &prev, &t), TREAD_OK);
    tread_vec3 v = tread_v3(0.5f, 0, 0.2f);
    t.p = tread_v3_mad(t.p, COURSE_DT, v);
    assert_int_equal(tread_body_move_to(s->world, s->crate, t, v, tread_v3_zero()), TREAD_OK);
    if (f % 90 == 0) assert_int_equal(tread_body_set_velocity(s->world, s->lift, tread_v3(0, f % 180 ? -0.7f : 0.7f, 0), tread_v3_zero()), TREAD_OK);
    assert_int_equal(tread_world_advance(s->world, COURSE_DT), TREAD_OK);
    tread_vec3 vel[N];
    for (int i = 0; i < N; ++i) {
        float vy = s->c[i].ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : s->c[i].velocity.y + COURSE_G * COURSE_DT;
        float a = 0.05f * (float)(f + 40 * i);
        vel[i] = tread_v3(2.0f * tread_cos(a), vy, 2.0f * tread_sin(a));
    }
    tread_move_result res[N];
    assert_int_equal(tread_batch_move(s->batch, s->world, s->c, vel, N, COURSE_DT, res), TREAD_OK);
}

static uint64_t hash(const scene *s) {
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *b = (const unsigned char *)s->c;
    for (size_t i = 0; i < sizeof s->c; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    tread_transform t[2];
    tread_body_id ids[3] = {s->disc, s->lift, s->crate};
    for (int k = 0; k < 3; ++k) {
        assert_int_equal(tread_body_get_motion(s->world, ids[k], &t[0], &t[1]), TREAD_OK);
        b = (const unsigned char *)t;
        for (size_t i = 0; i < sizeof t; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    }
    return h;
}

// Save at frame 60, run to 150; restore, run again: the same bits (characters and bodies), twice over.
static void test_rollback_repeats_bit_for_bit(void **state) {
    (void)state;
    static scene s;
    build(&s);
    for (int f = 0; f < 60; ++f) frame(&s, f);
    unsigned char saved[N][TREAD_CHARACTER_STATE_SIZE];
    size_t size = 0, body_size = 0;
    for (int i = 0; i < N; ++i) {
        assert_int_equal(tread_character_save(&s.c[i], saved[i], sizeof saved[i], &size), TREAD_OK);
        assert_int_equal(size, (size_t)TREAD_CHARACTER_STATE_SIZE);
    }
    assert_int_equal(tread_world_save_bodies(s.world, NULL, 0, &body_size), TREAD_OK);
    unsigned char *bodies = (unsigned char *)malloc(body_size);
    assert_non_null(bodies);
    assert_int_equal(tread_world_save_bodies(s.world, bodies, body_size, &size), TREAD_OK);
    assert_int_equal(size, body_size);
    for (int f = 60; f < 150; ++f) frame(&s, f);
    uint64_t first = hash(&s);
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < N; ++i) assert_int_equal(tread_character_load(&s.c[i], saved[i], TREAD_CHARACTER_STATE_SIZE), TREAD_OK);
        assert_int_equal(tread_world_load_bodies(s.world, bodies, body_size), TREAD_OK);
        for (int f = 60; f < 150; ++f) frame(&s, f);
        assert_int_equal(hash(&s), first);
    }
    // And the run did go somewhere: every character moved (riders on the disc and the lift, or walked off them;
    // walkers on the stairs) between the save and the end.
    for (int i = 0; i < N; ++i) {
        tread_character then;
        assert_int_equal(tread_character_load(&then, saved[i], TREAD_CHARACTER_STATE_SIZE), TREAD_OK);
        assert_true(tread_v3_distance(then.position, s.c[i].position) > 0.5f);
    }
    free(bodies);
    tread_batch_destroy(s.batch);
    tread_world_destroy(s.world);
}

// The bytes are little-endian by field, whatever the machine: the mark, the version, then the settings' shape.
static void test_layout_is_little_endian(void **state) {
    (void)state;
    tread_character ch;
    tread_character_settings set = tread_character_settings_default();
    set.radius = 0.5f; // 0x3f000000
    assert_int_equal(tread_character_init(&ch, &set, tread_v3(1, 2, 3)), TREAD_OK);
    unsigned char b[TREAD_CHARACTER_STATE_SIZE];
    size_t size;
    assert_int_equal(tread_character_save(&ch, b, sizeof b, &size), TREAD_OK);
    assert_memory_equal(b, "TRDC", 4);
    assert_int_equal(b[4], 1);
    assert_int_equal(b[5] | b[6] | b[7], 0);
    const unsigned char radius[4] = {0x00, 0x00, 0x00, 0x3f};
    assert_memory_equal(b + 12, radius, 4);
    // Restored exactly, derived values included.
    tread_character back;
    memset(&back, 0xAB, sizeof back);
    assert_int_equal(tread_character_load(&back, b, size), TREAD_OK);
    assert_memory_equal(&back.settings.radius, &ch.settings.radius, sizeof(float));
    assert_memory_equal(&back.position, &ch.position, sizeof ch.position);
    assert_float_equal(back.max_slope_cos, ch.max_slope_cos, 0.0f);
}

static void test_bad_bytes_change_nothing(void **state) {
    (void)state;
    tread_character ch;
    tread_character_settings set = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &set, tread_v3(0, 0, 0)), TREAD_OK);
    unsigned char b[TREAD_CHARACTER_STATE_SIZE], bad[TREAD_CHARACTER_STATE_SIZE];
    size_t size;
    assert_int_equal(tread_character_save(&ch, b, 10, &size), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_character_save(&ch, b, sizeof b, &size), TREAD_OK);
    tread_character other;
    assert_int_equal(tread_character_init(&other, &set, tread_v3(5, 5, 5)), TREAD_OK);
    tread_character before = other;
    assert_int_equal(tread_character_load(&other, b, sizeof b - 1), TREAD_ERR_INVALID_ARGUMENT);
    memcpy(bad, b, sizeof b);
    bad[0] = 'X';
    assert_int_equal(tread_character_load(&other, bad, sizeof bad), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "TRDC"));
    memcpy(bad, b, sizeof b);
    bad[4] = 9;
    assert_int_equal(tread_character_load(&other, bad, sizeof bad), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "version 9"));
    memcpy(bad, b, sizeof b);
    memset(bad + 12, 0xFF, 4); // radius NaN
    assert_int_equal(tread_character_load(&other, bad, sizeof bad), TREAD_ERR_NOT_FINITE);
    memcpy(bad, b, sizeof b);
    memset(bad + sizeof bad - 4, 0xFF, 4); // snap time NaN
    assert_int_equal(tread_character_load(&other, bad, sizeof bad), TREAD_ERR_NOT_FINITE);
    assert_memory_equal(&other, &before, sizeof other);
    // Bodies: a removed body, or bytes of another world, are refused; nothing changes.
    scene s;
    build(&s);
    size_t body_size;
    assert_int_equal(tread_world_save_bodies(s.world, NULL, 0, &body_size), TREAD_OK);
    unsigned char *bodies = (unsigned char *)malloc(body_size);
    assert_non_null(bodies);
    assert_int_equal(tread_world_save_bodies(s.world, bodies, body_size - 1, &size), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_world_save_bodies(s.world, bodies, body_size, &size), TREAD_OK);
    assert_int_equal(tread_world_load_bodies(s.world, bodies, body_size - 4), TREAD_ERR_INVALID_ARGUMENT);
    assert_int_equal(tread_world_advance(s.world, COURSE_DT), TREAD_OK);
    tread_transform disc_before, unused;
    assert_int_equal(tread_body_get_motion(s.world, s.disc, &unused, &disc_before), TREAD_OK);
    assert_int_equal(tread_world_remove_body(s.world, s.crate), TREAD_OK);
    assert_int_equal(tread_world_load_bodies(s.world, bodies, body_size), TREAD_ERR_INVALID_ID);
    tread_transform disc_after;
    assert_int_equal(tread_body_get_motion(s.world, s.disc, &unused, &disc_after), TREAD_OK);
    assert_memory_equal(&disc_after, &disc_before, sizeof disc_after);
    free(bodies);
    tread_batch_destroy(s.batch);
    tread_world_destroy(s.world);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rollback_repeats_bit_for_bit),
        cmocka_unit_test(test_layout_is_little_endian),
        cmocka_unit_test(test_bad_bytes_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
