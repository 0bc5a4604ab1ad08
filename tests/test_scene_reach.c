// SPDX-License-Identifier: MIT
// One reach (src/character/reach.c): every query the reference move makes stays within the reach of the phase that
// made it, from where that phase began, as that phase alone (tread_character_update, _walk_stairs, _stick_to_floor)
// is bounded. Debug builds record each query's excess over its phase's reach (move_query.h: the reach watch); this
// runs shipped scenes (stairs, slopes, ledges, meshes, heightfields, voxels, moving bodies, crushes, crowds) with
// every strategy and fails on any excess. A probe lengthened in a phase and not in its term of the table fails here,
// not as a TREAD_ERR_INVALID_ARGUMENT in a game calling that phase alone. Release builds record nothing: skipped
// there (the sanitize stage of `make test` runs it, in a debug build).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>

#include "character/move_query.h"
#include "tread_scene.h"

#ifndef NDEBUG
// Float rounding of the watch's own sums against the table's (metres): a query at its phase's exact reach may
// measure a few ulps past it.
#define REACH_ROUNDING 1.0e-5f

static const char *const scenes[] = {
    "course/S01-stairs-up",           "course/S02-step-too-high",        "course/S03-stairs-down",
    "course/S04-slope-30",            "course/S05-slope-60",             "course/S07-ramp-crest",
    "course/S08-wall-slide",          "course/S09-crevasse",             "course/S10-low-ceiling-step",
    "more/spiral-staircase",          "more/stairs-mesh",                "more/heightfield-hills",
    "more/voxel-steps",               "more/wall-jump-chimney",          "more/spawn-inside",
    "more/stairs-at-45",              "regressions/micro-steps-2cm",     "regressions/curb-top-slopes-up-10",
    "regressions/box-spiral-nosing-down", "regressions/mesh-valley-steep-face", "moving/crush-lift-ceiling",
    "moving/crush-wall-0.2",          "moving/disc-rider-60hz",          "moving/door-push-50ms",
    "moving/seesaw",                  "world/crowd-jam-10",              "world/one-way-lifts",
};
#endif

static void test_every_query_stays_within_its_phases_reach(void **state) {
    (void)state;
#ifdef NDEBUG
    skip(); // (release builds keep no watch)
#else
    const char *const *strategies = scene_strategy_names();
    float worst = 0.0f;
    tr_reach_watch_take_excess(); // (from nothing before)
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.json", TREAD_SCENES, scenes[i]);
        scene s;
        scene_error err;
        if (!scene_load(path, &s, &err)) fail_msg("%s", err.message);
        for (int k = 0; strategies[k]; ++k) {
            run_options o = {0};
            o.strategy = strategies[k];
            run_trace t;
            char message[512] = "";
            if (!run_scene(&s, &o, &t, message, sizeof message)) fail_msg("%s (%s): %s", scenes[i], strategies[k], message);
            float excess = tr_reach_watch_take_excess();
            if (excess > worst) worst = excess;
            if (excess > REACH_ROUNDING) fail_msg("%s (%s): a query reached %g m past its phase's reach", scenes[i], strategies[k], (double)excess);
            run_trace_free(&t);
        }
        scene_free(&s);
    }
    print_message("worst excess over a phase's reach: %g m\n", (double)worst);
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_query_stays_within_its_phases_reach),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
