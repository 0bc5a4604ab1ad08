// Running a scene: build its world, drive every character through its input timeline with the course's
// frame loop, record every frame, then evaluate the scene's expectations.
#ifndef TREAD_TOOL_RUN_H
#define TREAD_TOOL_RUN_H

#include "scene.h"

typedef struct run_frame {
    tread_vec3 feet;
    tread_vec3 velocity;
    tread_ground_state ground;
    float stepped;
    float camera;      // camera height along up: feet height plus the step-smoothing offset
    float penetration; // deepest overlap with the world at the end of the frame, metres (>= 0)
    bool finite;
} run_frame;

typedef struct run_options {
    const char *strategy;    // step strategy name, NULL = the scene's
    const char **sets;       // "field=value" overrides for every character's settings
    int set_count;
    float dt;                // > 0 overrides the scene's dt
    bool progress;           // print a progress line on stderr for runs longer than a second
    bool rotate_up;          // run the whole scene rotated so its up becomes `up` (checks see it rotated back)
    tread_vec3 up;
} run_options;

typedef struct run_trace {
    int frame_count;            // frames per character
    int character_count;
    float dt;
    run_frame *frames;          // frames[c * frame_count + i] = character c at the end of frame i + 1
    float *initial_penetration; // per character, at spawn
    tread_character *final;     // per character, the state after the last frame
} run_trace;

typedef struct check_result {
    char name[SCENE_NAME_MAX + 32];
    bool passed;
    double value;        // the measured metric
    char detail[320];    // "value 0.0123 m, expected <= 0.02"
    bool key;
} check_result;

// Simulate. False + message (bad --set value, body the world refused, ...) on failure.
bool run_scene(const scene *s, const run_options *options, run_trace *out, char *message, size_t size);
void run_trace_free(run_trace *t);
static inline const run_frame *run_frame_at(const run_trace *t, int character, int frame) {
    return &t->frames[character * t->frame_count + frame];
}

// Evaluate the scene's checks plus the invariants every scene has (finite state; penetration <= 1 mm, or for a
// character spawned inside geometry: never deeper than at spawn and out within 1 s). Returns the number of
// results written (at most capacity).
int run_checks(const scene *s, const run_trace *t, check_result *results, int capacity);

// Write plots and traces.
bool plot_svg(const scene *s, const run_trace *t, const char *path, char *message, size_t size);
bool write_trace_csv(const scene *s, const run_trace *t, const char *path, char *message, size_t size);

// Step strategy names known to this build (NULL-terminated).
const char *const *run_strategy_names(void);

#endif
