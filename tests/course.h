// SPDX-License-Identifier: MIT
// Code-built worlds from the comparison course (docs/COURSE.md) for the controller's behaviour tests and
// the P1/P2 benchmarks: the floor, the S1 stairs, ramps, the P1 box field, and the course's frame loop with
// per-frame records. The course scenes themselves are data: scenes/course/*.json, run by `tread suite`.
#ifndef TREAD_TEST_COURSE_H
#define TREAD_TEST_COURSE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tread/tread.h"

#define COURSE_DT (1.0f / 60.0f)
#define COURSE_G (-9.81f)
#define COURSE_MAX_FRAMES 2000
#define COURSE_PI 3.14159265358979f

typedef struct course_frame {
    tread_vec3 feet;
    tread_ground_state ground;
    float stepped;
    float penetration; // deepest overlap with the world at the end of the frame (>= 0)
    bool finite;
} course_frame;

typedef struct course_run {
    tread_world *world;
    const tread_move_options *options; // each move's (NULL: the defaults)
    tread_character ch;
    tread_vec3 start;
    int frames;
    course_frame f[COURSE_MAX_FRAMES];
} course_run;

static inline void course_box(tread_world *w, tread_vec3 min, tread_vec3 max) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3_scale(tread_v3_sub(max, min), 0.5f));
    def.transform.p = tread_v3_scale(tread_v3_add(min, max), 0.5f);
    tread_body_id id;
    tread_world_add_body(w, &def, &id);
}

static inline void course_rotated_box(tread_world *w, tread_vec3 center, tread_vec3 half, tread_vec3 axis, float degrees) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(half);
    def.transform.p = center;
    def.transform.q = tread_quat_from_axis_angle(axis, degrees * COURSE_PI / 180.0f);
    tread_body_id id;
    tread_world_add_body(w, &def, &id);
}

static inline tread_world *course_world(void) {
    tread_world *w = NULL;
    tread_world_create(NULL, &w);
    course_box(w, tread_v3(-50, -1, -50), tread_v3(50, 0, 50));
    return w;
}

static inline void course_stairs(tread_world *w) {
    for (int i = 0; i < 10; ++i) course_box(w, tread_v3(1.0f + 0.3f * (float)i, 0, -1), tread_v3(20, 0.2f * (float)(i + 1), 1));
}

// A ramp of `degrees` whose top face starts on the floor at x = 1 and rises to `height`, 1 m thick, z in
// [-width/2, width/2]; a plateau at `height` continues to x = plateau_end. Returns the crest x.
static inline float course_ramp(tread_world *w, float degrees, float height, float width, float plateau_end) {
    float a = degrees * COURSE_PI / 180.0f;
    float length = height / sinf(a);
    float crest = 1.0f + length * cosf(a);
    tread_vec3 face_center = tread_v3(0.5f * (1.0f + crest), 0.5f * height, 0);
    tread_vec3 normal = tread_v3(-sinf(a), cosf(a), 0);
    course_rotated_box(w, tread_v3_mad(face_center, -0.5f, normal), tread_v3(0.5f * length, 0.5f, 0.5f * width), tread_v3(0, 0, 1), degrees);
    course_box(w, tread_v3(crest, 0, -0.5f * width), tread_v3(plateau_end, height, 0.5f * width));
    return crest;
}

// splitmix64 as the course uses it, and a uniform draw in [lo, hi].
static inline uint64_t course_splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline float course_uniform(uint64_t *state, float lo, float hi) {
    return lo + (hi - lo) * (float)((double)(course_splitmix64(state) >> 11) / 9007199254740992.0);
}

// P1's field: the shared floor plus 400 boxes (sizes 0.3..2.0, heights 0.1..0.6, centres in [-40, 40]).
static inline void course_p1_field(tread_world *w) {
    uint64_t state = 12345;
    for (int i = 0; i < 400; ++i) {
        float cx = course_uniform(&state, -40, 40), cz = course_uniform(&state, -40, 40);
        float sx = course_uniform(&state, 0.3f, 2.0f), sz = course_uniform(&state, 0.3f, 2.0f);
        float h = course_uniform(&state, 0.1f, 0.6f);
        course_box(w, tread_v3(cx - 0.5f * sx, 0, cz - 0.5f * sz), tread_v3(cx + 0.5f * sx, h, cz + 0.5f * sz));
    }
}

static inline void course_begin(course_run *run, tread_world *w, tread_vec3 start, const tread_character_settings *settings) {
    memset(run, 0, sizeof *run);
    run->world = w;
    run->start = start;
    tread_character_settings s = settings ? *settings : tread_character_settings_default();
    tread_character_init(&run->ch, &s, start);
}

static inline float course_penetration(const course_run *run) {
    tread_query_shape shape = tread_character_shape(&run->ch);
    tread_distance_result d;
    tread_world_closest(run->world, &shape, tread_character_center(&run->ch), 0.01f, NULL, &d);
    return d.found && d.distance < 0.0f ? -d.distance : 0.0f;
}

// The course's frame loop: desired horizontal velocity, gravity while not grounded, 0 vertical when grounded.
static inline void course_walk(course_run *run, tread_vec3 horizontal_velocity, float seconds, float dt) {
    int n = (int)(seconds / dt + 0.5f);
    for (int i = 0; i < n && run->frames < COURSE_MAX_FRAMES; ++i) {
        tread_character *ch = &run->ch;
        float vy = 0.0f;
        if (ch->ground.state != TREAD_GROUND_ON_GROUND) vy = ch->velocity.y + COURSE_G * dt;
        tread_vec3 v = tread_v3(horizontal_velocity.x, vy, horizontal_velocity.z);
        tread_move_result res;
        tread_character_move_with(run->world, ch, v, dt, run->options, &res);
        course_frame *f = &run->f[run->frames++];
        f->feet = ch->position;
        f->ground = ch->ground.state;
        f->stepped = res.step_up - res.snap_down;
        f->finite = tread_v3_is_finite(ch->position) && tread_v3_is_finite(ch->velocity);
        f->penetration = course_penetration(run);
    }
}

// Deepest overlap of the character with anything in the world, metres (0 when clear).
static inline float course_depth(const tread_world *w, const tread_character *ch) {
    tread_query_shape shape = tread_character_shape(ch);
    tread_distance_result d;
    if (tread_world_closest(w, &shape, tread_character_center(ch), 0.0f, NULL, &d) != TREAD_OK) return INFINITY;
    return d.found && d.distance < 0.0f ? -d.distance : 0.0f;
}

static inline float course_max_penetration(const course_run *run) {
    float m = 0.0f;
    for (int i = 0; i < run->frames; ++i) m = fmaxf(m, run->f[i].penetration);
    return m;
}

static inline bool course_all_finite(const course_run *run) {
    for (int i = 0; i < run->frames; ++i)
        if (!run->f[i].finite) return false;
    return true;
}

#endif
