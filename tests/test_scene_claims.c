// SPDX-License-Identifier: MIT
// docs/DESIGN.md "Large worlds": TREAD_MAX_COORDINATE (65,536 m) was chosen where the course still passes: every
// course scene moved out along x and z (bodies, starts, targets and x/z thresholds shifted together) passes all its
// checks at offsets up to 65,000 m. Here the loaded scenes are shifted in place (docs/CLAIMS.md).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tread_scene.h"

static const char *const course[] = {
    "S01-stairs-up", "S02-step-too-high", "S03-stairs-down", "S04-slope-30", "S05-slope-60",
    "S06-slope-idle", "S07-ramp-crest", "S08-wall-slide", "S09-crevasse", "S10-low-ceiling-step",
};
enum { COURSE_SCENES = sizeof course / sizeof course[0] };

static void shift_condition(scene_condition *c, const float offset[3]) {
    if (c->kind == SCENE_COND_ABOVE || c->kind == SCENE_COND_BELOW) c->value += offset[c->axis];
}

static void shift_range(scene_range *r, float offset) {
    r->min += offset;
    r->max += offset;
}

// Move everything the scene places, and every threshold on an absolute coordinate, by `offset` along x and z. The
// course's checks are the kinds handled here; any other kind with an absolute coordinate fails the test.
static void shift_scene(scene *s, float by) {
    const float offset[3] = {by, 0.0f, by};
    for (int i = 0; i < s->body_count; ++i) {
        tread_body_def *d = &s->bodies[i].def;
        assert_true(d->shape.type == TREAD_SHAPE_BOX || d->shape.type == TREAD_SHAPE_SPHERE); // static boxes, no paths
        assert_null(s->bodies[i].path.keys);
        d->transform.p = tread_v3_add(d->transform.p, tread_v3(by, 0.0f, by));
    }
    for (int i = 0; i < s->character_count; ++i) {
        scene_character *c = &s->characters[i];
        c->start = tread_v3_add(c->start, tread_v3(by, 0.0f, by));
        for (int k = 0; k < c->input_count; ++k)
            if (c->inputs[k].kind == SCENE_INPUT_TOWARD) c->inputs[k].target = tread_v3_add(c->inputs[k].target, tread_v3(by, 0.0f, by));
    }
    for (int i = 0; i < s->check_count; ++i) {
        scene_check *k = &s->checks[i];
        shift_condition(&k->window.start, offset);
        shift_condition(&k->window.end, offset);
        if (k->window.has_where) {
            k->window.where_min += offset[k->window.where_axis];
            k->window.where_max += offset[k->window.where_axis];
        }
        switch (k->kind) {
        case SCENE_CHECK_FINAL:
        case SCENE_CHECK_AT_TIME:
            for (int a = 0; a < 3; ++a) shift_range(&k->axes[a], offset[a]);
            break;
        case SCENE_CHECK_REACHES: shift_condition(&k->condition, offset); break;
        case SCENE_CHECK_HEIGHT_RANGE: shift_range(&k->range, offset[k->axis]); break;
        case SCENE_CHECK_MAX_RISE:
        case SCENE_CHECK_MAX_DROP:
        case SCENE_CHECK_GROUNDED_FRACTION:
        case SCENE_CHECK_SPEED_RANGE:
        case SCENE_CHECK_MEAN_SPEED:
        case SCENE_CHECK_DRIFT:
        case SCENE_CHECK_COMES_TO_REST:
        case SCENE_CHECK_GROUND_STATE:
        case SCENE_CHECK_ADVANCE:
        case SCENE_CHECK_NO_PENETRATION: break; // relative measures
        default: fail_msg("%s: check %s of a kind this test does not shift", s->name, k->name);
        }
    }
}

static void test_course_passes_out_to_65000_m(void **state) {
    (void)state;
    const float offsets[] = {4096.0f, 16384.0f, 40000.0f, 65000.0f};
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; ++o) {
        int passed = 0;
        for (int k = 0; k < COURSE_SCENES; ++k) {
            char path[512];
            snprintf(path, sizeof path, "%s/course/%s.json", TREAD_SCENES, course[k]);
            scene s;
            scene_error err;
            if (!scene_load(path, &s, &err)) fail_msg("%s", err.message);
            shift_scene(&s, offsets[o]);
            run_trace t;
            char message[512] = "";
            bool ran = run_scene(&s, NULL, &t, message, sizeof message);
            bool ok = ran;
            if (ran) {
                check_result results[64];
                int n = run_checks(&s, &t, results, 64);
                for (int i = 0; i < n; ++i)
                    if (!results[i].passed) {
                        print_message("  %s at %.0f m: %s: %s\n", s.name, (double)offsets[o], results[i].name, results[i].detail);
                        ok = false;
                    }
                run_trace_free(&t);
            } else {
                print_message("  %s at %.0f m: %s\n", s.name, (double)offsets[o], message);
            }
            passed += ok;
            scene_free(&s);
        }
        print_message("course moved %.0f m out along x and z: %d of %d scenes pass\n", (double)offsets[o], passed, COURSE_SCENES);
        assert_int_equal(passed, COURSE_SCENES);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_course_passes_out_to_65000_m),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
