// SPDX-License-Identifier: MIT
// The generated matrix's lift family (docs/STRATEGIES.md "Generated matrix"): a lift carries an idle rider up or
// down 2 m at 1..5 m/s, starting at once from rest, stopping at once, reversing at once at either end, or shuttling
// with waits. Every expectation follows from the path and the character's skin: the rider stands on the lift every
// frame, never sinks into it, stays on its spot of it, and ends where the lift ends. Calls gen.c.
#include <math.h>
#include <stdio.h>

#include "gen_internal.h"

#define LIFT_SPEEDS 5         // 1..5 m/s
#define LIFT_TRAVEL 2.0       // m between the bottom and the top
#define LIFT_LEAD 0.5         // s the lift waits before it first moves: the rider, spawned on its top, stands first
#define LIFT_WAIT 0.5         // s a shuttle waits at each end
#define LIFT_HALF_HEIGHT 0.25 // the lift is a 3 x 0.5 x 3 m box standing on the floor, its top at 0.5 m at the bottom
#define CHECK_FROM 0.25       // s: the checks start once the rider stands, before the lift first moves
#define SKIN 0.002            // the character's skin: it stands this far above what holds it
#define SINK 0.001            // the most a rider may sink into the lift or leave its spot, m

enum { LIFT_UP, LIFT_DOWN, LIFT_REVERSE, LIFT_SHUTTLE, LIFT_SCENARIOS };
static const char *const scenario_names[] = {"up", "down", "reverse", "shuttle"};

int gen_lift_count(void) { return LIFT_SCENARIOS * LIFT_SPEEDS; }

bool gen_lift_name(int index, char *out, size_t size) {
    if (index < 0 || index >= gen_lift_count()) return false;
    snprintf(out, size, "lift-%s-v%d", scenario_names[index / LIFT_SPEEDS], 1 + index % LIFT_SPEEDS);
    return true;
}

// The lift's path (offsets along y from where it starts), the run's length and where the lift's top is at its end.
typedef struct lift_plan {
    double times[4], offsets[4][3];
    int keys;
    const char *loop;
    double duration, start_top, end_top;
    const char *what;
} lift_plan;

static void plan(int scenario, double speed, int rate_hz, lift_plan *p) {
    double t = LIFT_TRAVEL / speed, l = LIFT_LEAD, w = LIFT_WAIT;
    for (int i = 0; i < 4; ++i) p->offsets[i][0] = p->offsets[i][1] = p->offsets[i][2] = 0.0;
    p->start_top = 2.0 * LIFT_HALF_HEIGHT;
    p->loop = "once";
    switch (scenario) {
    case LIFT_UP:
    case LIFT_DOWN: // from rest to full speed at once, and back to rest at once
        p->keys = 2;
        p->times[0] = l, p->times[1] = l + t;
        if (scenario == LIFT_DOWN) p->start_top += LIFT_TRAVEL;
        p->offsets[1][1] = scenario == LIFT_UP ? LIFT_TRAVEL : -LIFT_TRAVEL;
        p->duration = l + t + 0.5;
        p->end_top = 2.0 * LIFT_HALF_HEIGHT + (scenario == LIFT_UP ? LIFT_TRAVEL : 0.0);
        p->what = scenario == LIFT_UP ? "going up (starting at once, stopping at once at the top)"
                                      : "coming down (starting at once from the top, stopping at once at the bottom)";
        return;
    case LIFT_REVERSE: { // up and down without a pause, twice, then 0.2 s up again
        p->keys = 2;
        p->times[0] = l, p->times[1] = l + t;
        p->offsets[1][1] = LIFT_TRAVEL;
        p->loop = "ping_pong";
        p->duration = l + 4.0 * t + 0.2;
        // Where the last frame ends (the run has round(duration / dt) frames), the lift is on its way up again.
        double end = floor(p->duration * rate_hz + 0.5) / rate_hz;
        p->end_top = p->start_top + speed * (end - (l + 4.0 * t));
        p->what = "up and down twice, reversing at once at the top and at the bottom";
        return;
    }
    default: // waits at each end (a key's wait plays forwards and backwards): starts and stops each way, twice
        p->keys = 4;
        p->times[0] = l, p->times[1] = l + w, p->times[2] = l + w + t, p->times[3] = l + 2.0 * w + t;
        p->offsets[2][1] = p->offsets[3][1] = LIFT_TRAVEL;
        p->loop = "ping_pong";
        p->duration = l + 4.0 * (2.0 * w + t) + 0.25; // two round trips: back at the bottom, waiting
        p->end_top = p->start_top;
        p->what = "up and down twice, waiting 1 s at each end";
        return;
    }
}

cJSON *gen_lift_build(int index, const char *shape, int rate_hz, const char *name, double max_rise) {
    if (index < 0 || index >= gen_lift_count()) return NULL;
    int scenario = index / LIFT_SPEEDS;
    double speed = 1.0 + index % LIFT_SPEEDS;
    lift_plan p;
    plan(scenario, speed, rate_hz, &p);
    char description[256];
    snprintf(description, sizeof description, "Generated: a lift carries an idle rider %.0f m at %.0f m/s, %s.", LIFT_TRAVEL, speed, p.what);
    cJSON *s = gen_scene_new(name, description, 1.0 / rate_hz, p.duration);
    const double center[3] = {0.0, p.start_top - LIFT_HALF_HEIGHT, 0.0}, half[3] = {1.5, LIFT_HALF_HEIGHT, 1.5};
    gen_box_path(s, "lift", center, half, p.times, (const double(*)[3])p.offsets, p.keys, p.loop);
    const double start[3] = {0.0, p.start_top, 0.0};
    gen_input_idle(gen_character(s, shape, start), 0.0);
    gen_check_max_rise(s, max_rise);
    cJSON *k = gen_check(s, "grounded_fraction", "grounded every frame");
    cJSON_AddNumberToObject(k, "min", 1.0);
    gen_window_start_time(k, CHECK_FROM);
    gen_window_start_time(gen_check_on_body(s, "max_sink", "never sinks into the lift", "lift", SINK), CHECK_FROM);
    gen_window_start_time(gen_check_on_body(s, "rides", "stays on its spot", "lift", SINK), CHECK_FROM);
    gen_check_final(s, "where the lift ends", 1, p.end_top + SKIN - SINK, p.end_top + SKIN + SINK);
    return s;
}
