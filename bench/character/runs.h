// SPDX-License-Identifier: MIT
// The character runs: each a world, a crowd on it and how the crowd steers, as data (runs.c), so the driver
// (main.c) times every run the same way.
#ifndef TREAD_BENCH_RUNS_H
#define TREAD_BENCH_RUNS_H

#include "tread/tread.h"
#include "worlds.h"

/// A crowd between frames: everything one frame reads and writes.
typedef struct crowd {
    tread_world *world;
    tread_batch *batch;          ///< character-vs-character: one tread_batch_move a frame; NULL: tread_character_move each
    tread_character *ch;         ///< count characters
    tread_vec3 *velocity;        ///< this frame's velocities, filled by steer before the clock starts
    tread_vec3 *walk;            ///< P1 and the fields: each character's constant horizontal velocity; else NULL
    tread_move_result *results;  ///< the batch's results, one per character; NULL without a batch
    tread_move_cache *caches;    ///< cached runs: one per character, passed through tread_character_move_with; else NULL
    int count;
    void (*steer)(struct crowd *c, int frame); ///< the course's input for this frame (and P2's resets)
    ground_stats ground;         ///< what the ground costs (features 0 for the box worlds)
    size_t bytes_before_batch;   ///< the library's bytes (bench_live_bytes) just before the batch was created
} crowd;

/// One run: how to build its crowd and how many frames to time.
typedef struct run_def {
    const char *name;    ///< CSV scenario column
    const char *group;   ///< "course" (the spec's P1, P2, P3) or "scaling"
    const char *what;    ///< one line for --list
    bool (*setup)(const struct run_def *r, crowd *c);
    int characters;      ///< field runs: crowd size
    sine_ground ground;  ///< P3-like runs: the ground
    bool batch;          ///< character-vs-character through tread_batch_move
    int warm_frames;     ///< stepped before the clock starts
    int frames;          ///< timed frames
    bool apart;          ///< batch runs: the characters do not meet each other (their masks leave out the batch's
                         ///< character layer), so the batch only spreads the moves over its threads
    bool cached;         ///< single moves through tread_character_move_with, each character with its own
                         ///< tread_move_cache (the same results: the state hash equals the run's without)
} run_def;

extern const run_def bench_runs[];
extern const int bench_run_count;

/// Threads of the batch runs' pools (tread_batch_def::threads; 0, the default, is as many as the machine has).
/// The callgrind mode sets 1: valgrind runs threads one at a time, and the pool's waiting would be counted.
extern int bench_batch_threads;

/// Build the run's world and crowd. False (with a message on stderr) when something could not be built.
bool crowd_setup(const run_def *r, crowd *c);
void crowd_free(crowd *c);

/// The name of the library function one character update of this run goes through (callgrind's toggle).
const char *run_update_function(const run_def *r);

#endif
