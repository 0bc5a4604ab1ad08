// SPDX-License-Identifier: MIT
// Character update cost on the course's performance runs (docs/COURSE.md):
//   P1: 1000 characters walking over the 400-box field for 300 frames (single thread)
//   P2: one character on S1, 1000 frames, reset to the start every 180 frames
// Prints CSV (scenario,metric,value,unit): the median over REPEATS runs of the mean microseconds per
// character update, timing only the tread_character_move calls. Usage: tread_bench_character [p1|p2]
#define _POSIX_C_SOURCE 199309L // clock_gettime under -std=c11
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "course.h"

#define REPEATS 5
#define P1_CHARACTERS 1000

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// One frame of the course's loop for one character; returns the seconds spent inside tread_character_move.
static double step(tread_world *w, tread_character *ch, tread_vec3 horizontal) {
    float vy = ch->ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : ch->velocity.y + COURSE_G * COURSE_DT;
    tread_vec3 v = tread_v3(horizontal.x, vy, horizontal.z);
    tread_move_result res;
    double t0 = now_seconds();
    tread_character_move(w, ch, v, COURSE_DT, &res);
    return now_seconds() - t0;
}

static tread_character characters[P1_CHARACTERS];
static tread_vec3 directions[P1_CHARACTERS];

static double run_p1(int *grounded_out) {
    tread_world *w = course_world();
    course_p1_field(w);
    tread_character_settings s = tread_character_settings_default();
    for (int k = 0; k < P1_CHARACTERS; ++k) {
        float x = -39.0f + 2.0f * (float)(k % 40), z = -24.0f + 2.0f * (float)(k / 40);
        tread_character_init(&characters[k], &s, tread_v3(x, 0.7f, z));
        float angle = (float)k * 0.618f * 2.0f * COURSE_PI;
        directions[k] = tread_v3(4.0f * cosf(angle), 0, 4.0f * sinf(angle));
    }
    double spent = 0.0;
    for (int frame = 0; frame < 300; ++frame)
        for (int k = 0; k < P1_CHARACTERS; ++k) spent += step(w, &characters[k], directions[k]);
    int grounded = 0;
    for (int k = 0; k < P1_CHARACTERS; ++k) grounded += characters[k].ground.state == TREAD_GROUND_ON_GROUND;
    *grounded_out = grounded;
    tread_world_destroy(w);
    return spent * 1e6 / (300.0 * P1_CHARACTERS);
}

static double run_p2(void) {
    tread_world *w = course_world();
    course_stairs(w);
    tread_character_settings s = tread_character_settings_default();
    tread_character ch;
    double spent = 0.0;
    for (int frame = 0; frame < 1000; ++frame) {
        if (frame % 180 == 0) tread_character_init(&ch, &s, tread_v3(0, 0, 0));
        spent += step(w, &ch, tread_v3(4, 0, 0));
    }
    tread_world_destroy(w);
    return spent * 1e6 / 1000.0;
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : "";
    printf("scenario,metric,value,unit\n");
    if (strstr("p1", filter)) {
        double us[REPEATS];
        int grounded = 0;
        for (int r = 0; r < REPEATS; ++r) us[r] = run_p1(&grounded);
        qsort(us, REPEATS, sizeof us[0], compare_doubles);
        printf("P1,update_median,%.3f,us/character/frame\n", us[REPEATS / 2]);
        printf("P1,update_min,%.3f,us/character/frame\n", us[0]);
        printf("P1,grounded_at_end,%d,of %d\n", grounded, P1_CHARACTERS);
    }
    if (strstr("p2", filter)) {
        double us[REPEATS];
        for (int r = 0; r < REPEATS; ++r) us[r] = run_p2();
        qsort(us, REPEATS, sizeof us[0], compare_doubles);
        printf("P2,update_median,%.3f,us/update\n", us[REPEATS / 2]);
        printf("P2,update_min,%.3f,us/update\n", us[0]);
    }
    return 0;
}
