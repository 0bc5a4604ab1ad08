// SPDX-License-Identifier: MIT
// Zero is refused, by name: every public definition, settings, options and state struct (each has a
// tread_xxx_default()) and the character (tread_character_init) are refused zero-filled by every public function that
// takes them, with TREAD_ERR_UNINITIALIZED and a message naming the argument and the struct; the same call with the
// default passes. A zero-filled tread_move_options used to switch collision off (its filter's layer mask 0): the
// character fell through the floor with TREAD_OK.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <string.h>

#include "course.h"

// `r` is TREAD_ERR_UNINITIALIZED and the message names `argument` and the struct `type`.
#define REFUSED(r, argument, type) refused((r), (argument), (type), __LINE__)

static void refused(tread_result r, const char *argument, const char *type, int line) {
    const char *message = tread_error_message();
    if (r != TREAD_ERR_UNINITIALIZED) fail_msg("line %d: %s, expected TREAD_ERR_UNINITIALIZED (%s)", line, tread_result_name(r), message);
    if (!strstr(message, argument) || !strstr(message, type))
        fail_msg("line %d: the message does not name %s and %s: %s", line, argument, type, message);
    if (!strstr(message, "not initialised")) fail_msg("line %d: the message does not say what is wrong: %s", line, message);
}

// A standing character on the course floor, and the world.
typedef struct fixture {
    tread_world *w;
    tread_backend backend;
    tread_character ch;
    tread_move_result res;
} fixture;

static fixture make_fixture(void) {
    fixture f;
    f.w = course_world();
    f.backend = tread_world_backend(f.w);
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&f.ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
    assert_int_equal(tread_character_move(f.w, &f.ch, tread_v3_zero(), COURSE_DT, &f.res), TREAD_OK);
    return f;
}

static void test_zero_world_and_body_defs(void **state) {
    (void)state;
    tread_world_def wd;
    memset(&wd, 0, sizeof wd);
    tread_world *w = NULL;
    REFUSED(tread_world_create(&wd, &w), "def", "tread_world_def");
    assert_null(w);
    wd = tread_world_def_default();
    assert_int_equal(tread_world_create(&wd, &w), TREAD_OK);

    tread_body_def bd;
    memset(&bd, 0, sizeof bd);
    tread_body_id id;
    REFUSED(tread_world_add_body(w, &bd, &id), "def", "tread_body_def");
    assert_int_equal(tread_world_body_count(w), 0);
    // A body def from its default with a shape built by hand (not from a tread_shape_* constructor).
    bd = tread_body_def_default();
    memset(&bd.shape, 0, sizeof bd.shape);
    bd.shape.type = TREAD_SHAPE_SPHERE;
    bd.shape.radius = 1.0f;
    REFUSED(tread_world_add_body(w, &bd, &id), "def.shape", "tread_shape_def");
    bd.shape = tread_shape_sphere(1.0f);
    assert_int_equal(tread_world_add_body(w, &bd, &id), TREAD_OK);
    bd.shape = tread_shape_def_default();
    assert_int_equal(tread_world_add_body(w, &bd, &id), TREAD_OK);
    assert_int_equal(tread_world_body_count(w), 2);
    tread_world_destroy(w);
}

// Every query taking a filter or a shape.
static void test_zero_filters_and_query_shapes(void **state) {
    (void)state;
    fixture f = make_fixture();
    tread_query_filter zf, df = tread_query_filter_default();
    memset(&zf, 0, sizeof zf);
    tread_query_shape zs, ds = tread_query_shape_default();
    memset(&zs, 0, sizeof zs);
    tread_vec3 above = tread_v3(0, 2, 0), down = tread_v3(0, -3, 0);
    tread_ray_hit ray, rays[4];
    tread_shape_hit hit, hits[4];
    tread_contact contacts[4];
    tread_distance_result d;
    int n;
    bool over;

    REFUSED(tread_world_cast_ray(f.w, above, down, &zf, &ray), "filter", "tread_query_filter");
    REFUSED(tread_world_cast_ray_all(f.w, above, down, &zf, rays, 4, &n, &over), "filter", "tread_query_filter");
    REFUSED(tread_world_cast_shape(f.w, &ds, above, down, &zf, &hit), "filter", "tread_query_filter");
    REFUSED(tread_world_cast_shape_all(f.w, &ds, above, down, &zf, hits, 4, &n, &over), "filter", "tread_query_filter");
    REFUSED(tread_world_collect_contacts(f.w, &ds, above, 2.0f, &zf, contacts, 4, &n, &over), "filter", "tread_query_filter");
    REFUSED(tread_world_closest(f.w, &ds, above, 2.0f, &zf, &d), "filter", "tread_query_filter");

    REFUSED(tread_world_cast_shape(f.w, &zs, above, down, &df, &hit), "shape", "tread_query_shape");
    REFUSED(tread_world_cast_shape_all(f.w, &zs, above, down, &df, hits, 4, &n, &over), "shape", "tread_query_shape");
    REFUSED(tread_world_collect_contacts(f.w, &zs, above, 2.0f, &df, contacts, 4, &n, &over), "shape", "tread_query_shape");
    REFUSED(tread_world_closest(f.w, &zs, above, 2.0f, &df, &d), "shape", "tread_query_shape");

    // The defaults pass, and find the floor.
    assert_int_equal(tread_world_cast_ray(f.w, above, down, &df, &ray), TREAD_OK);
    assert_true(ray.hit);
    assert_int_equal(tread_world_cast_ray_all(f.w, above, down, &df, rays, 4, &n, &over), TREAD_OK);
    assert_int_equal(n, 1);
    assert_int_equal(tread_world_cast_shape(f.w, &ds, above, down, &df, &hit), TREAD_OK);
    assert_true(hit.hit);
    assert_int_equal(tread_world_cast_shape_all(f.w, &ds, above, down, &df, hits, 4, &n, &over), TREAD_OK);
    assert_int_equal(n, 1);
    assert_int_equal(tread_world_collect_contacts(f.w, &ds, above, 2.0f, &df, contacts, 4, &n, &over), TREAD_OK);
    assert_int_equal(n, 1);
    assert_int_equal(tread_world_closest(f.w, &ds, above, 2.0f, &df, &d), TREAD_OK);
    assert_true(d.found);
    // The shapes the constructors and the character give carry the cookie too.
    tread_query_shape made[4] = {tread_query_sphere(0.3f), tread_query_capsule(0.6f, 0.3f, tread_v3(0, 1, 0)),
                                 tread_query_box(tread_v3(0.3f, 0.9f, 0.3f), tread_v3(0, 1, 0)), tread_character_shape(&f.ch)};
    for (int i = 0; i < 4; ++i) assert_int_equal(tread_world_closest(f.w, &made[i], above, 2.0f, NULL, &d), TREAD_OK);
    tread_world_destroy(f.w);
}

// The case: a zero-filled tread_move_options switched collision off (the character fell through the floor
// with TREAD_OK). Now refused, by every move taking options, and the character stays where it stood.
static void test_zero_move_options(void **state) {
    (void)state;
    fixture f = make_fixture();
    tread_move_options zo;
    memset(&zo, 0, sizeof zo);
    tread_character before = f.ch;
    tread_vec3 fall = tread_v3(0, -9.81f, 0);
    REFUSED(tread_character_move_with(f.w, &f.ch, fall, COURSE_DT, &zo, &f.res), "options", "tread_move_options");
    REFUSED(tread_character_move_with_on(&f.backend, &f.ch, fall, COURSE_DT, &zo, &f.res), "options", "tread_move_options");
    assert_memory_equal(&before, &f.ch, sizeof before);
    tread_batch_def bd = tread_batch_def_default();
    bd.threads = 1;
    tread_batch *batch = NULL;
    assert_int_equal(tread_batch_create(&bd, &batch), TREAD_OK);
    REFUSED(tread_batch_move_with(batch, f.w, &f.ch, &fall, 1, COURSE_DT, &zo, &f.res), "options", "tread_move_options");
    REFUSED(tread_batch_move_with_on(batch, &f.backend, &f.ch, &fall, 1, COURSE_DT, &zo, &f.res), "options", "tread_move_options");
    assert_memory_equal(&before, &f.ch, sizeof before);
    // Options from the default whose filter was rebuilt by hand.
    tread_move_options o = tread_move_options_default();
    memset(&o.filter, 0, sizeof o.filter);
    o.filter.layer_mask = 1u;
    REFUSED(tread_character_move_with(f.w, &f.ch, fall, COURSE_DT, &o, &f.res), "options.filter", "tread_query_filter");
    REFUSED(tread_batch_move_with(batch, f.w, &f.ch, &fall, 1, COURSE_DT, &o, &f.res), "options.filter", "tread_query_filter");
    // The defaults: the floor holds.
    o = tread_move_options_default();
    for (int i = 0; i < 30; ++i) {
        assert_int_equal(tread_character_move_with(f.w, &f.ch, fall, COURSE_DT, &o, &f.res), TREAD_OK);
        assert_int_equal(tread_character_move_with_on(&f.backend, &f.ch, fall, COURSE_DT, &o, &f.res), TREAD_OK);
        assert_int_equal(tread_batch_move_with(batch, f.w, &f.ch, &fall, 1, COURSE_DT, &o, &f.res), TREAD_OK);
        assert_int_equal(tread_batch_move_with_on(batch, &f.backend, &f.ch, &fall, 1, COURSE_DT, &o, &f.res), TREAD_OK);
    }
    assert_true(f.ch.position.y > -0.01f);
    assert_int_equal(f.ch.ground.state, TREAD_GROUND_ON_GROUND);
    tread_batch_destroy(batch);
    tread_world_destroy(f.w);
}

static void test_zero_character_settings_and_batch_def(void **state) {
    (void)state;
    fixture f = make_fixture();
    tread_character_settings zs;
    memset(&zs, 0, sizeof zs);
    tread_character ch;
    REFUSED(tread_character_init(&ch, &zs, tread_v3_zero()), "settings", "tread_character_settings");
    REFUSED(tread_character_set_settings(f.w, &f.ch, &zs), "settings", "tread_character_settings");
    REFUSED(tread_character_set_settings_on(&f.backend, &f.ch, &zs), "settings", "tread_character_settings");
    REFUSED(tread_character_set_settings_on(NULL, &f.ch, &zs), "settings", "tread_character_settings");
    tread_character_settings ds = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &ds, tread_v3_zero()), TREAD_OK);
    assert_int_equal(tread_character_set_settings(f.w, &f.ch, &ds), TREAD_OK);
    assert_int_equal(tread_character_set_settings_on(&f.backend, &f.ch, &ds), TREAD_OK);
    assert_int_equal(tread_character_set_settings_on(NULL, &f.ch, &ds), TREAD_OK);

    tread_batch_def zd;
    memset(&zd, 0, sizeof zd);
    tread_batch *batch = NULL;
    REFUSED(tread_batch_create(&zd, &batch), "def", "tread_batch_def");
    assert_null(batch);
    tread_batch_def dd = tread_batch_def_default();
    assert_int_equal(tread_batch_create(&dd, &batch), TREAD_OK);
    tread_batch_destroy(batch);
    tread_world_destroy(f.w);
}

// A character that never went through tread_character_init (zero-filled) used to move 60 times with TREAD_OK alone;
// the batch refused it only as a shape. Every function taking a character now names it.
static void test_zero_character(void **state) {
    (void)state;
    fixture f = make_fixture();
    tread_character z;
    memset(&z, 0, sizeof z);
    const char *T = "tread_character";
    tread_vec3 v = tread_v3(1, -1, 0);
    tread_move_result res = f.res;
    tread_move_state st;
    assert_int_equal(tread_character_update(f.w, &f.ch, tread_v3_zero(), COURSE_DT, &st), TREAD_OK); // (a state a good update began)
    tread_character_settings s = tread_character_settings_default();
    bool changed;
    REFUSED(tread_character_update(f.w, &z, v, COURSE_DT, &st), "character", T);
    REFUSED(tread_character_update_on(&f.backend, &z, v, COURSE_DT, &st), "character", T);
    REFUSED(tread_character_walk_stairs(f.w, &z, &st), "character", T);
    REFUSED(tread_character_walk_stairs_on(&f.backend, &z, &st), "character", T);
    REFUSED(tread_character_stick_to_floor(f.w, &z, v, &st), "character", T);
    REFUSED(tread_character_stick_to_floor_on(&f.backend, &z, v, &st), "character", T);
    REFUSED(tread_character_move(f.w, &z, v, COURSE_DT, &res), "character", T);
    REFUSED(tread_character_move_on(&f.backend, &z, v, COURSE_DT, &res), "character", T);
    REFUSED(tread_character_move_with(f.w, &z, v, COURSE_DT, NULL, &res), "character", T);
    REFUSED(tread_character_move_with_on(&f.backend, &z, v, COURSE_DT, NULL, &res), "character", T);
    REFUSED(tread_character_set_settings(f.w, &z, &s), "character", T);
    REFUSED(tread_character_set_settings_on(&f.backend, &z, &s), "character", T);
    REFUSED(tread_character_set_height(f.w, &z, 1.0f, &changed), "character", T);
    REFUSED(tread_character_set_height_on(&f.backend, &z, 1.0f, &changed), "character", T);
    REFUSED(tread_character_set_position(&z, tread_v3_zero()), "character", T);
    REFUSED(tread_character_suppress_snap(&z, 0.1f), "character", T);
    assert_false(tread_character_can_walk_stairs(&z, &st));
    unsigned char bytes[TREAD_CHARACTER_STATE_SIZE];
    size_t size;
    REFUSED(tread_character_save(&z, bytes, sizeof bytes, &size), "character", T);
    // In an array: the batch and the origin shift name its index, after one good character.
    tread_character two[2] = {f.ch, z};
    tread_vec3 vs[2] = {v, v};
    tread_move_result rs[2];
    tread_batch_def bd = tread_batch_def_default();
    bd.threads = 1;
    tread_batch *batch = NULL;
    assert_int_equal(tread_batch_create(&bd, &batch), TREAD_OK);
    REFUSED(tread_batch_move(batch, f.w, two, vs, 2, COURSE_DT, rs), "characters[1]", T);
    tread_batch_report report;
    assert_int_equal(tread_batch_get_report(batch, &report), TREAD_OK);
    assert_int_equal(report.result, TREAD_ERR_UNINITIALIZED);
    assert_int_equal(report.failed_character, 1);
    REFUSED(tread_batch_move_with(batch, f.w, two, vs, 2, COURSE_DT, NULL, rs), "characters[1]", T);
    REFUSED(tread_batch_move_on(batch, &f.backend, two, vs, 2, COURSE_DT, rs), "characters[1]", T);
    REFUSED(tread_batch_move_with_on(batch, &f.backend, two, vs, 2, COURSE_DT, NULL, rs), "characters[1]", T);
    REFUSED(tread_world_shift_origin(f.w, tread_v3(1, 0, 0), two, 2), "characters[1]", T);
    tread_motor_state ms = tread_motor_state_default();
    tread_motor_settings mset = tread_motor_settings_default();
    tread_motor_input in = tread_motor_input_default();
    tread_vec3 out;
    REFUSED(tread_motor_update(&ms, &mset, &in, &z, NULL, NULL, 0, COURSE_DT, &out), "character", T);
    // Initialised (or loaded from a save), every one of them passes.
    assert_int_equal(tread_character_save(&f.ch, bytes, sizeof bytes, &size), TREAD_OK);
    assert_int_equal(tread_character_load(&z, bytes, size), TREAD_OK);
    two[1] = z;
    two[1].position.x += 2.0f; // (not on the other's spot)
    assert_int_equal(tread_batch_move(batch, f.w, two, vs, 2, COURSE_DT, rs), TREAD_OK);
    assert_int_equal(tread_batch_get_report(batch, &report), TREAD_OK);
    assert_int_equal(report.result, TREAD_OK);
    assert_int_equal(report.failed_character, -1);
    assert_int_equal(tread_world_shift_origin(f.w, tread_v3(1, 0, 0), two, 2), TREAD_OK);
    assert_int_equal(tread_motor_update(&ms, &mset, &in, &z, NULL, NULL, 0, COURSE_DT, &out), TREAD_OK);
    assert_int_equal(tread_character_move(f.w, &z, v, COURSE_DT, &res), TREAD_OK);
    assert_int_equal(tread_character_suppress_snap(&z, 0.1f), TREAD_OK);
    assert_int_equal(tread_character_set_height(f.w, &z, 1.0f, &changed), TREAD_OK);
    assert_int_equal(tread_character_set_position(&z, tread_v3_zero()), TREAD_OK);
    tread_batch_destroy(batch);
    tread_world_destroy(f.w);
}

static void test_zero_motor_structs(void **state) {
    (void)state;
    fixture f = make_fixture();
    tread_motor_state ds = tread_motor_state_default(), zs;
    tread_motor_settings dm = tread_motor_settings_default(), zm;
    tread_motor_input di = tread_motor_input_default(), zi;
    memset(&zs, 0, sizeof zs);
    memset(&zm, 0, sizeof zm);
    memset(&zi, 0, sizeof zi);
    tread_vec3 out;
    REFUSED(tread_motor_update(&zs, &dm, &di, &f.ch, &f.res, NULL, 0, COURSE_DT, &out), "state", "tread_motor_state");
    REFUSED(tread_motor_update(&ds, &zm, &di, &f.ch, &f.res, NULL, 0, COURSE_DT, &out), "settings", "tread_motor_settings");
    REFUSED(tread_motor_update(&ds, &dm, &zi, &f.ch, &f.res, NULL, 0, COURSE_DT, &out), "input", "tread_motor_input");
    assert_int_equal(tread_motor_update(&ds, &dm, &di, &f.ch, &f.res, NULL, 0, COURSE_DT, &out), TREAD_OK);

    tread_step_smoothing zsm, dsm = tread_step_smoothing_default();
    memset(&zsm, 0, sizeof zsm);
    REFUSED(tread_step_smoothing_update(&zsm, 0.2f, COURSE_DT), "smoothing", "tread_step_smoothing");
    assert_int_equal(tread_step_smoothing_update(&dsm, 0.2f, COURSE_DT), TREAD_OK);
    tread_world_destroy(f.w);
}

static void test_zero_rigid_step_structs(void **state) {
    (void)state;
    fixture f = make_fixture();
    tread_rigid_step_backend cast = {&f.backend, tread_query_filter_default()};
    tread_rigid_step_settings ds = tread_rigid_step_default(), zs;
    ds.cast = tread_rigid_step_cast_backend;
    ds.cast_context = &cast;
    tread_rigid_step_input di = tread_rigid_step_input_default(), zi;
    di.position = tread_v3(0, 0.9f, 0);
    memset(&zs, 0, sizeof zs);
    zs.cast = tread_rigid_step_cast_backend; // (a cast given, so only the missing default is wrong)
    zs.cast_context = &cast;
    memset(&zi, 0, sizeof zi);
    tread_rigid_step_result out;
    REFUSED(tread_rigid_step(&zs, &di, &out), "settings", "tread_rigid_step_settings");
    REFUSED(tread_rigid_step(&ds, &zi, &out), "input", "tread_rigid_step_input");
    // The library's own cast's context: its filter too.
    memset(&cast.filter, 0, sizeof cast.filter);
    REFUSED(tread_rigid_step(&ds, &di, &out), "settings->cast_context->filter", "tread_query_filter");
    cast.filter = tread_query_filter_default();
    assert_int_equal(tread_rigid_step(&ds, &di, &out), TREAD_OK);
    tread_world_destroy(f.w);
}

static void test_the_result_has_a_name(void **state) {
    (void)state;
    assert_string_equal(tread_result_name(TREAD_ERR_UNINITIALIZED), "TREAD_ERR_UNINITIALIZED");
    assert_int_equal(TREAD_ERR_UNINITIALIZED + 1, TREAD_RESULT_COUNT); // appended: the earlier ids keep their values
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_world_and_body_defs),
        cmocka_unit_test(test_zero_filters_and_query_shapes),
        cmocka_unit_test(test_zero_move_options),
        cmocka_unit_test(test_zero_character_settings_and_batch_def),
        cmocka_unit_test(test_zero_character),
        cmocka_unit_test(test_zero_motor_structs),
        cmocka_unit_test(test_zero_rigid_step_structs),
        cmocka_unit_test(test_the_result_has_a_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
