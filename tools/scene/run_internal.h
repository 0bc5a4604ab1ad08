// SPDX-License-Identifier: MIT
// Private to the runner: what run.c (the run: world, bodies, frames), run_frame.c (the characters' frame),
// overlap.c and dynamics.c share. Calls between them: run.c -> run_frame.c -> overlap.c; run.c -> dynamics.c.
#ifndef TREAD_SCENE_RUN_INTERNAL_H
#define TREAD_SCENE_RUN_INTERNAL_H

#include "tread_scene.h"

// ---- dynamics.c: the runner's own rigid-body integrator for dynamic bodies ----------------------------------
typedef struct run_dynamics run_dynamics;
// The scene's dynamic bodies, as the world holds them (`ids`: the world id of every scene body). NULL when out of
// memory.
run_dynamics *run_dynamics_create(const scene *s, const tread_body_id *ids);
void run_dynamics_destroy(run_dynamics *d);
// Does the scene have any dynamic body (is there anything to integrate)?
bool run_dynamics_any(const run_dynamics *d);
// Gather the `count` impulses a move gave dynamic bodies (its buffer, tread_move_options::impulses), to apply at the
// end of the frame.
void run_dynamics_take(run_dynamics *d, const tread_world *w, const tread_body_impulse *impulses, int count);
// The end of the frame: each dynamic body gets its impulses, gravity and friction, and moves by its velocity over
// dt, stopped by the world (cast as its own shape). Nothing is told to the world yet.
tread_result run_dynamics_step(run_dynamics *d, const tread_world *w, tread_vec3 gravity, float dt, const char **call);
// Before the next tread_world_advance: every dynamic body that moved is given its new place and velocity
// (tread_body_move_to), so that the advance makes it the frame's motion characters are pushed and carried by.
tread_result run_dynamics_move(run_dynamics *d, tread_world *w, const char **call);

// ---- overlap.c: how deep characters overlap each other ----------------------------------------------------------
typedef struct run_overlap run_overlap;
run_overlap *run_overlap_create(int count); // NULL when out of memory
void run_overlap_destroy(run_overlap *o);
// out[i]: the deepest overlap of characters[i] with any other of the `count` (metres, >= 0).
void run_overlap_measure(run_overlap *o, const tread_character *characters, int count, float *out);

// ---- run_frame.c: the characters' side of a frame ----------------------------------------------------------------
// The layer of the characters as bodies of the batch (tread_batch_def::character_layer): the loader keeps the scene's
// layers below it, and the runner adds it to every character's masks so that they collide and stand on each other.
#define RUN_CHARACTER_LAYER (TREAD_MAX_LAYERS - 1)
typedef struct run_characters run_characters;
// Everything the characters' frames need between frames (motors, smoothing, the batch, the listener's memories).
// `chars` are the run's characters, already placed; `motor` each one's motor settings; `collide`: moved with one
// batch (when there are two or more). False with a message when out of memory or the batch refuses.
bool run_characters_create(const scene *s, const tread_motor_settings *motor, bool collide, tread_character *chars, run_characters **out,
                           char *message, size_t size);
void run_characters_destroy(run_characters *rc);
// The moves run on `backend` (kept by the caller for the run) instead of the world: run_options::engine.
void run_characters_use_backend(run_characters *rc, const tread_backend *backend);
// This frame (the next run_characters_frame only), character c moves at `velocity` instead of its input.
void run_characters_drive(run_characters *rc, int character, tread_vec3 velocity);
// Every character's last move, and one's step-smoothing offset (what its camera lags its feet by, along up).
const tread_move_result *run_characters_results(const run_characters *rc);
float run_characters_camera_offset(const run_characters *rc, int character);
// Frame `frame` (0-based, from t to t + dt) after the world's advance: every character's velocity, the moves (one
// batch, or one by one), their impulses to `dynamics`, sensor events and each frame's record into `trace` (at its
// slot: tread_scene.h's run_trace). On a failed call, records the failure in trace->failure.
void run_characters_frame(run_characters *rc, const tread_world *w, run_dynamics *dynamics, run_trace *trace, int frame, float t,
                          float dt);

// The wall clock, seconds (the timing of crowd scenes).
double run_seconds_now(void);
// The first failed library call of a run: the run stops there (docs/SCENES.md, "A failed call stops the run").
void run_record_failure(run_failure *f, tread_result r, const char *call, int character, int frame, float t);
// Deepest overlap of the character with the world (metres, >= 0) in *out; 0 when the query failed. With `one_way`
// (the scene has one-way platforms), one whose top is more than 1 cm above the feet does not count: the character
// is passing through it from below or from the side, as the library lets it.
tread_result run_penetration_of(const tread_world *w, const tread_character *ch, bool one_way, tread_body_id crusher, float *out);
// Does the scene have a one-way platform?
static inline bool scene_has_one_way(const scene *s) {
    for (int i = 0; i < s->body_count; ++i)
        if (s->bodies[i].def.flags & TREAD_BODY_ONE_WAY) return true;
    return false;
}

#endif
