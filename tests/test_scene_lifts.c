// SPDX-License-Identifier: MIT
// The generated matrix's lift family (docs/STRATEGIES.md "Generated matrix", tools/scene/gen_lifts.c): it is
// registered by name, its 20 cases load as scene files with the checks the docs list, the lift follows its path
// (the "where the lift ends" bound is where the path puts the lift's top at the last frame), and with the default
// strategy every case passes at 30 Hz and 240 Hz for every shape.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tread_scene.h"

static int lifts(void) {
    int family = gen_family_from_name("lifts");
    assert_true(family >= 0);
    return family;
}

static void load_case(int index, int shape, int rate, scene *s) {
    char name[SCENE_NAME_MAX], *json = NULL;
    scene_error err;
    assert_true(gen_case_text(lifts(), index, shape, rate, name, sizeof name, &json));
    if (!scene_load_buffer(name, json, strlen(json), s, &err)) fail_msg("%s: %s", name, err.message);
    free(json);
}

static const scene_check *check_named(const scene *s, const char *name) {
    for (int i = 0; i < s->check_count; ++i)
        if (strcmp(s->checks[i].name, name) == 0) return &s->checks[i];
    fail_msg("%s has no check named %s", s->name, name);
    return NULL;
}

static void test_the_family_is_registered(void **state) {
    (void)state;
    int family = lifts();
    assert_int_equal(gen_family_size(family), 20);
    char name[SCENE_NAME_MAX];
    assert_true(gen_case_name(family, 0, 0, 60, name, sizeof name));
    assert_string_equal(name, "lift-up-v1-capsule-60hz");
    assert_true(gen_case_name(family, 19, 2, 240, name, sizeof name));
    assert_string_equal(name, "lift-shuttle-v5-box-240hz");
    assert_true(gen_case_name(family, 12, 1, 30, name, sizeof name));
    assert_string_equal(name, "lift-reverse-v3-sphere-30hz");
    assert_false(gen_case_name(family, 20, 0, 60, name, sizeof name));
}

// Every case: a kinematic "lift" on a path, one idle rider of the case's shape, and the checks the docs list.
static void test_cases_carry_the_documented_checks(void **state) {
    (void)state;
    for (int i = 0; i < 20; ++i) {
        scene s;
        load_case(i, 2, 60, &s);
        assert_int_equal(s.body_count, 2);
        assert_int_equal(s.bodies[1].def.type, TREAD_BODY_KINEMATIC);
        assert_non_null(s.bodies[1].path.keys);
        assert_int_equal(s.characters[0].settings.shape, TREAD_QUERY_BOX);
        assert_int_equal(check_named(&s, "grounded every frame")->kind, SCENE_CHECK_GROUNDED_FRACTION);
        const scene_check *sink = check_named(&s, "never sinks into the lift"), *rides = check_named(&s, "stays on its spot");
        assert_int_equal(sink->kind, SCENE_CHECK_MAX_SINK);
        assert_int_equal(rides->kind, SCENE_CHECK_RIDES);
        assert_int_equal(sink->body, 1);
        assert_true(sink->range.max == 0.001f && rides->range.max == 0.001f);
        assert_int_equal(check_named(&s, "rise per frame")->kind, SCENE_CHECK_MAX_RISE);
        // The final bound is the lift's top where its path is at the last frame, plus the skin, within 1 mm.
        double frames = scene_frame_count(s.duration, s.dt), end = frames * (double)s.dt;
        tread_transform at = scene_path_transform(&s.bodies[1].path, end);
        const scene_range *y = &check_named(&s, "where the lift ends")->axes[1];
        double top = (double)at.p.y + 0.25, middle = 0.5 * ((double)y->min + (double)y->max);
        if (fabs(middle - (top + 0.002)) > 1e-4) fail_msg("%s: the final check expects %g, the path ends the top at %g", s.name, middle, top);
        scene_free(&s);
    }
}

// The default strategy carries every rider (and the shipped expectations are right): all pass at 30 and 240 Hz.
static void test_every_case_passes_with_the_default_strategy(void **state) {
    (void)state;
    static check_result results[SCENE_MAX_RESULTS];
    static const int rates[] = {30, 240};
    int runs = 0;
    for (int r = 0; r < 2; ++r)
        for (int shape = 0; shape < 3; ++shape)
            for (int i = 0; i < 20; ++i) {
                scene s;
                run_trace t;
                char message[512] = "";
                load_case(i, shape, rates[r], &s);
                assert_true(run_scene(&s, NULL, &t, message, sizeof message));
                int n = run_checks(&s, &t, results, SCENE_MAX_RESULTS);
                for (int k = 0; k < n; ++k)
                    if (!results[k].passed) fail_msg("%s: %s: %s", s.name, results[k].name, results[k].detail);
                run_trace_free(&t);
                scene_free(&s);
                ++runs;
            }
    assert_int_equal(runs, 120);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_family_is_registered),
        cmocka_unit_test(test_cases_carry_the_documented_checks),
        cmocka_unit_test(test_every_case_passes_with_the_default_strategy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
