// SPDX-License-Identifier: MIT
// Crowds through the batch update (tread_batch_move), whole frames timed, single thread:
//   C-N: N characters (1,000, 10,000, 50,000) in a walled square room sized for one character per 2 m^2, each
//        walking to random targets, as obstacles to each other; 120 frames at 60 Hz after 30 unmeasured ones.
//   500 characters in such a room for 60 s at 60 Hz (3,600 frames, all timed), overlap and wall depth
//        measured every second: the worst of them.
// Prints CSV (scenario,metric,value,unit): the median over REPEATS runs of microseconds per character per frame,
// the worst overlap between two characters and the deepest a character is in a wall at the end (both metres).
// See docs/PERFORMANCE.md.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/bench_util.h"
#include "course.h"

#define REPEATS 3
#define WARM_FRAMES 30
#define FRAMES 120

static uint32_t next(uint32_t *seed) { return *seed = *seed * 1664525u + 1013904223u; }

typedef struct crowd {
    tread_world *w;
    tread_batch *batch;
    tread_character *c;
    tread_vec3 *v, *target;
    tread_move_result *res;
    int n;
    float half;
    uint32_t seed;
} crowd;

static void crowd_init(crowd *x, int n) {
    x->n = n;
    x->half = 0.5f * sqrtf(2.0f * (float)n);
    x->seed = 12345u;
    x->w = course_world();
    float h = x->half;
    course_box(x->w, tread_v3(-h - 1, 0, -h - 1), tread_v3(-h, 3, h + 1));
    course_box(x->w, tread_v3(h, 0, -h - 1), tread_v3(h + 1, 3, h + 1));
    course_box(x->w, tread_v3(-h, 0, -h - 1), tread_v3(h, 3, -h));
    course_box(x->w, tread_v3(-h, 0, h), tread_v3(h, 3, h + 1));
    x->c = (tread_character *)malloc(sizeof *x->c * (size_t)n);
    x->v = (tread_vec3 *)malloc(sizeof *x->v * (size_t)n);
    x->target = (tread_vec3 *)malloc(sizeof *x->target * (size_t)n);
    x->res = (tread_move_result *)malloc(sizeof *x->res * (size_t)n);
    if (!x->c || !x->v || !x->target || !x->res) exit(2);
    int side = (int)ceilf(sqrtf((float)n));
    float step = 2.0f * (h - 0.5f) / (float)side;
    tread_character_settings s = tread_character_settings_default();
    for (int i = 0; i < n; ++i) {
        tread_vec3 p = tread_v3(-h + 0.5f + step * ((float)(i % side) + 0.5f), 0.002f, -h + 0.5f + step * ((float)(i / side) + 0.5f));
        if (tread_character_init(&x->c[i], &s, p) != TREAD_OK) exit(2);
        x->target[i] = p;
    }
    tread_batch_def bd = tread_batch_def_default();
    bd.capacity = n;
    if (tread_batch_create(&bd, &x->batch) != TREAD_OK) exit(2);
}

static void crowd_free(crowd *x) {
    tread_batch_destroy(x->batch);
    tread_world_destroy(x->w);
    free(x->c), free(x->v), free(x->target), free(x->res);
}

static void frame(crowd *x) {
    for (int i = 0; i < x->n; ++i) {
        tread_vec3 to = tread_v3_sub(x->target[i], x->c[i].position);
        to.y = 0.0f;
        if (tread_v3_length(to) < 0.3f) {
            float a = (float)(next(&x->seed) >> 8) / 16777216.0f, b = (float)(next(&x->seed) >> 8) / 16777216.0f;
            x->target[i] = tread_v3((2.0f * a - 1.0f) * (x->half - 0.5f), 0, (2.0f * b - 1.0f) * (x->half - 0.5f));
        }
        x->v[i] = tread_v3_add(tread_v3_scale(tread_v3_normalize(to), 1.5f), tread_v3(0, -1, 0));
    }
    if (tread_batch_move(x->batch, x->w, x->c, x->v, x->n, 1.0f / 60.0f, x->res) != TREAD_OK) {
        fprintf(stderr, "tread_batch_move: %s\n", tread_error_message());
        exit(1);
    }
}

// Worst overlap between characters (their own bodies in a world of their own) and deepest in the room's walls.
static void measure(const crowd *x, double *out_overlap, double *out_wall) {
    tread_world *w = NULL;
    if (tread_world_create(NULL, &w) != TREAD_OK) exit(2);
    tread_body_id *ids = (tread_body_id *)malloc(sizeof *ids * (size_t)x->n);
    if (!ids) exit(2);
    for (int i = 0; i < x->n; ++i) {
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_capsule(0.5f * x->c[i].settings.height - x->c[i].settings.radius, x->c[i].settings.radius);
        def.transform.p = tread_character_center(&x->c[i]);
        if (tread_world_add_body(w, &def, &ids[i]) != TREAD_OK) exit(2);
    }
    *out_overlap = *out_wall = 0.0;
    for (int i = 0; i < x->n; ++i) {
        tread_query_shape shape = tread_character_shape(&x->c[i]);
        tread_query_filter f = tread_query_filter_default();
        f.ignore_body = ids[i];
        tread_distance_result d;
        if (tread_world_closest(w, &shape, tread_character_center(&x->c[i]), 0.0f, &f, &d) == TREAD_OK && d.found)
            *out_overlap = fmax(*out_overlap, -(double)d.distance);
        if (tread_world_closest(x->w, &shape, tread_character_center(&x->c[i]), 0.0f, NULL, &d) == TREAD_OK && d.found)
            *out_wall = fmax(*out_wall, -(double)d.distance);
    }
    free(ids);
    tread_world_destroy(w);
}

// a minute of a 500-character room.
static void room_minute(void) {
    crowd x;
    crowd_init(&x, 500);
    double spent = 0.0, overlap = 0.0, wall = 0.0;
    for (int f = 0; f < 3600; ++f) {
        double t0 = bench_now();
        frame(&x);
        spent += bench_now() - t0;
        if (f % 60 == 59) {
            double o, d;
            measure(&x, &o, &d);
            overlap = fmax(overlap, o), wall = fmax(wall, d);
        }
    }
    bench_csv("R-500", "update_mean", spent * 1e6 / (3600.0 * 500.0), "us/character/frame");
    bench_csv("R-500", "frame_mean", spent * 1e3 / 3600.0, "ms/frame");
    bench_csv("R-500", "worst_overlap", overlap, "m");
    bench_csv("R-500", "deepest_in_wall", wall, "m");
    crowd_free(&x);
}

int main(void) {
    const int sizes[] = {1000, 10000, 50000};
    bench_csv_begin(NULL);
    room_minute();
    for (int s = 0; s < 3; ++s) {
        double us[REPEATS], overlap = 0.0, wall = 0.0;
        for (int r = 0; r < REPEATS; ++r) {
            crowd x;
            crowd_init(&x, sizes[s]);
            for (int f = 0; f < WARM_FRAMES; ++f) frame(&x);
            double t0 = bench_now();
            for (int f = 0; f < FRAMES; ++f) frame(&x);
            us[r] = (bench_now() - t0) * 1e6 / ((double)FRAMES * (double)sizes[s]);
            if (r == 0) measure(&x, &overlap, &wall);
            crowd_free(&x);
        }
        char name[16];
        snprintf(name, sizeof name, "C-%d", sizes[s]);
        double median = bench_median(us, REPEATS);
        bench_csv(name, "update_median", median, "us/character/frame");
        bench_csv(name, "frame_median", median * sizes[s] / 1000.0, "ms/frame");
        bench_csv(name, "worst_overlap", overlap, "m");
        bench_csv(name, "deepest_in_wall", wall, "m");
    }
    return 0;
}
