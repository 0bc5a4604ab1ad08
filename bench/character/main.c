// SPDX-License-Identifier: MIT
// tread_bench_character: the course's character benchmarks (P1, P2, P3 without and with character-vs-character)
// and the scaling runs (runs.c), single thread, printed as CSV rows `scenario,metric,value,unit`.
//
// How a run is timed: its world and crowd are built (not timed); each frame the course's input is computed for
// every character (not timed), then the clock is read once before and once after the frame's updates, i.e. the
// loop of tread_character_move calls or the one tread_batch_move call. Reading the clock around each update
// instead would add its own cost (tens of ns) to every update of a 1 us figure. A run's figure is its timed time
// over its updates. Runs are interleaved: round 1 runs every selected run once, then round 2, and so on, so a
// change of the machine's load during the bench (other builds, a noisy neighbour) falls on every run alike; the
// median over rounds is reported, with the fastest and slowest round.
//
//   tread_bench_character [RUN|GROUP ...] [--rounds N] [--frames N] [--csv FILE] [--list] [--callgrind]
//
// RUN is a run's name (P1, P2, P3, P3-cvc, field-10k, ...; case does not matter), GROUP is "course", "scaling" or
// the start of names before a dash ("field", "mesh"); none selects every run. --frames times N frames instead of
// each run's own (a quick look, not the course's figure). --callgrind runs each selected run once, untimed, and
// prints how many character updates went through the function to count (callgrind.sh divides by it).
#define _POSIX_C_SOURCE 200809L // strcasecmp, strncasecmp
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/bench_util.h"
#include "course.h" // COURSE_DT, the course's 1/60 s frame
#include "runs.h"

#define DEFAULT_ROUNDS 5
#define MAX_RUNS 64

typedef struct options {
    int rounds, frames; // frames 0: each run's own
    const char *csv;
    bool callgrind, list;
    bool selected[MAX_RUNS];
} options;

// What one run measured over the rounds.
typedef struct outcome {
    double *us;           // per round: microseconds per character update
    int done;             // rounds completed
    uint64_t hash;        // state hash after the first round
    bool hash_varies;     // a later round ended elsewhere: the workload was not the same every round
    int grounded;         // characters on ground at the end
    long updates;         // character updates timed per round
    size_t batch_bytes;   // what the batch held at the end
    ground_stats ground;
    int count;
    bool failed;
} outcome;

// ---- one run -------------------------------------------------------------------------------------------------

// The frame's updates: what the clock brackets. False when a move reported an error.
static bool update_all(crowd *c) {
    if (c->batch) return tread_batch_move(c->batch, c->world, c->ch, c->velocity, c->count, COURSE_DT, c->results) == TREAD_OK;
    bool ok = true;
    tread_move_result result;
    if (c->caches) {
        tread_move_options with = tread_move_options_default();
        for (int i = 0; i < c->count; ++i) {
            with.cache = &c->caches[i];
            ok &= tread_character_move_with(c->world, &c->ch[i], c->velocity[i], COURSE_DT, &with, &result) == TREAD_OK;
        }
        return ok;
    }
    for (int i = 0; i < c->count; ++i) ok &= tread_character_move(c->world, &c->ch[i], c->velocity[i], COURSE_DT, &result) == TREAD_OK;
    return ok;
}

// FNV-1a over every character's feet and velocity bits: equal hashes, the same workload (and a determinism check).
static uint64_t state_hash(const crowd *c) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < c->count; ++i) {
        const float f[6] = {c->ch[i].position.x, c->ch[i].position.y, c->ch[i].position.z,
                            c->ch[i].velocity.x, c->ch[i].velocity.y, c->ch[i].velocity.z};
        const unsigned char *bytes = (const unsigned char *)f;
        for (size_t b = 0; b < sizeof f; ++b) h = (h ^ bytes[b]) * 0x100000001b3ull;
    }
    return h;
}

static void run_once(const run_def *r, const options *o, outcome *out) {
    crowd c;
    if (!crowd_setup(r, &c)) {
        out->failed = true;
        return;
    }
    int frames = o->frames > 0 ? o->frames : r->frames;
    bool ok = true;
    for (int f = 0; f < r->warm_frames; ++f) {
        c.steer(&c, f);
        ok &= update_all(&c);
    }
    double spent = 0.0;
    for (int f = r->warm_frames; f < r->warm_frames + frames; ++f) {
        c.steer(&c, f);
        double t0 = bench_now();
        ok &= update_all(&c);
        spent += bench_now() - t0;
    }
    if (!ok) {
        fprintf(stderr, "tread_bench_character: %s: a move failed (%s)\n", r->name, tread_error_message());
        out->failed = true;
    }
    uint64_t h = state_hash(&c);
    if (out->done == 0) out->hash = h;
    out->hash_varies |= h != out->hash;
    out->updates = (long)frames * c.count;
    out->us[out->done++] = spent * 1e6 / (double)out->updates;
    out->grounded = 0;
    for (int i = 0; i < c.count; ++i) out->grounded += c.ch[i].ground.state == TREAD_GROUND_ON_GROUND;
    out->count = c.count;
    out->ground = c.ground;
    // The world allocates nothing while characters move, so what the library holds beyond the mark is the batch's.
    out->batch_bytes = c.batch ? bench_live_bytes() - c.bytes_before_batch : 0;
    crowd_free(&c);
}

// ---- reporting -------------------------------------------------------------------------------------------------

static void report(const run_def *r, outcome *o) {
    const char *n = r->name;
    char unit[32];
    double lowest = o->us[0], highest = o->us[0];
    for (int i = 1; i < o->done; ++i) lowest = o->us[i] < lowest ? o->us[i] : lowest, highest = o->us[i] > highest ? o->us[i] : highest;
    double median = bench_median(o->us, o->done);
    bench_csv(n, "update_median", median, "us/update");
    bench_csv(n, "update_min", lowest, "us/update");
    bench_csv(n, "update_max", highest, "us/update");
    bench_csv(n, "frame_median", median * o->count / 1000.0, "ms/frame");
    // A batch run's time is the whole machine's (its threads), a single run's one core's.
    if (o->count >= 1000) bench_csv(n, "characters_at_60hz", 1e6 / 60.0 / median, r->batch ? "characters/batch threads" : "characters/core");
    bench_csv(n, "rounds", o->done, "count");
    bench_csv(n, "updates_per_round", (double)o->updates, "count");
    snprintf(unit, sizeof unit, "of %d", o->count);
    bench_csv(n, "grounded_at_end", o->grounded, unit);
    char hash[24];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)o->hash);
    bench_csv_text(n, "state_hash", hash, o->hash_varies ? "fnv1a64 VARIED between rounds" : "fnv1a64");
    if (o->ground.features) {
        bench_csv(n, o->ground.feature, (double)o->ground.features, "count");
        bench_csv(n, "ground_bytes", (double)o->ground.bytes, "bytes");
        snprintf(unit, sizeof unit, "bytes/%s", strcmp(o->ground.feature, "cells") ? "triangle" : "cell");
        bench_csv(n, "ground_bytes_per_feature", (double)o->ground.bytes / (double)o->ground.features, unit);
    }
    if (o->batch_bytes) bench_csv(n, "batch_bytes_per_character", (double)o->batch_bytes / o->count, "bytes/character");
}

// ---- selection ---------------------------------------------------------------------------------------------

// An argument names a run exactly; failing that, a group ("course", "scaling") or the start of names before a
// dash ("field" selects field-1k ... field-50k-cvc). So "P3" is P3 alone and "P3-cvc" the other.
static bool select_runs(const char *arg, options *o) {
    bool any = false;
    for (int i = 0; i < bench_run_count; ++i)
        if (!strcasecmp(arg, bench_runs[i].name)) o->selected[i] = any = true;
    if (any) return true;
    size_t len = strlen(arg);
    for (int i = 0; i < bench_run_count; ++i) {
        const char *name = bench_runs[i].name;
        if (!strcasecmp(arg, bench_runs[i].group) || (!strncasecmp(arg, name, len) && name[len] == '-')) o->selected[i] = any = true;
    }
    return any;
}

static int usage(void) {
    fprintf(stderr, "usage: tread_bench_character [RUN|GROUP ...] [--rounds N] [--frames N] [--csv FILE] [--list] [--callgrind]\n"
                    "  --list shows the runs; GROUP: course, scaling, or a name's start before a dash (field, mesh)\n");
    return 2;
}

static bool parse(int argc, char **argv, options *o) {
    *o = (options){.rounds = DEFAULT_ROUNDS};
    bool chosen = false;
    for (int a = 1; a < argc; ++a) {
        const char *arg = argv[a];
        if (!strcmp(arg, "--csv") && a + 1 < argc) {
            o->csv = argv[++a];
        } else if (!strcmp(arg, "--rounds") && a + 1 < argc) {
            if ((o->rounds = atoi(argv[++a])) < 1) return false;
        } else if (!strcmp(arg, "--frames") && a + 1 < argc) {
            if ((o->frames = atoi(argv[++a])) < 1) return false;
        } else if (!strcmp(arg, "--callgrind")) {
            o->callgrind = true;
        } else if (!strcmp(arg, "--list")) {
            o->list = true;
        } else if (arg[0] == '-' || !select_runs(arg, o)) {
            fprintf(stderr, "tread_bench_character: %s: no such run or option\n", arg);
            return false;
        } else {
            chosen = true;
        }
    }
    for (int i = 0; !chosen && i < bench_run_count; ++i) o->selected[i] = true;
    return true;
}

// ---- main ------------------------------------------------------------------------------------------------------

// The callgrind workload: each selected run once, warm frames included (they call the same function), no clock.
// `valgrind --tool=callgrind --toggle-collect=FUNCTION` counts the instructions inside FUNCTION; the rows say how
// many character updates those were.
static int callgrind(const options *o) {
    bench_batch_threads = 1;
    for (int i = 0; i < bench_run_count; ++i) {
        if (!o->selected[i]) continue;
        const run_def *r = &bench_runs[i];
        double us;
        outcome out = {.us = &us};
        run_once(r, o, &out);
        if (out.failed) return 1;
        int frames = (o->frames > 0 ? o->frames : r->frames) + r->warm_frames;
        bench_csv_text(r->name, "callgrind_function", run_update_function(r), "function");
        char updates[24]; // exact: the script divides by it
        snprintf(updates, sizeof updates, "%ld", (long)frames * out.count);
        bench_csv_text(r->name, "callgrind_updates", updates, "count");
        char hash[24];
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)out.hash);
        bench_csv_text(r->name, "state_hash", hash, "fnv1a64");
    }
    return 0;
}

int main(int argc, char **argv) {
    options o;
    if (bench_run_count > MAX_RUNS) return 2; // the table outgrew the fixed arrays below
    if (!parse(argc, argv, &o)) return usage();
    if (o.list) {
        for (int i = 0; i < bench_run_count; ++i)
            printf("%s\t%s\t%s\t%s\n", bench_runs[i].name, bench_runs[i].group, run_update_function(&bench_runs[i]), bench_runs[i].what);
        return 0;
    }
    bench_count_allocations(); // before any world: the ground and batch byte counts
    if (!bench_csv_begin(o.csv)) return 1;
    if (o.callgrind) {
        int status = callgrind(&o);
        bench_csv_end();
        return status;
    }
    bench_csv("memory", "character_bytes", (double)sizeof(tread_character), "bytes");
    bench_csv("memory", "move_result_bytes", (double)sizeof(tread_move_result), "bytes");

    outcome results[MAX_RUNS];
    for (int i = 0; i < bench_run_count; ++i) {
        results[i] = (outcome){.us = calloc((size_t)o.rounds, sizeof(double))};
        if (!results[i].us) return 1;
    }
    for (int round = 0; round < o.rounds; ++round)
        for (int i = 0; i < bench_run_count; ++i) {
            if (!o.selected[i] || results[i].failed) continue;
            double t0 = bench_now();
            run_once(&bench_runs[i], &o, &results[i]);
            if (!results[i].failed)
                fprintf(stderr, "round %d/%d %-14s %8.3f us/update (%.1f s)\n", round + 1, o.rounds, bench_runs[i].name,
                        results[i].us[results[i].done - 1], bench_now() - t0);
        }
    int failures = 0;
    for (int i = 0; i < bench_run_count; ++i) {
        if (o.selected[i] && !results[i].failed) report(&bench_runs[i], &results[i]);
        failures += o.selected[i] && results[i].failed;
        free(results[i].us);
    }
    bench_csv_end();
    return failures ? 1 : 0;
}
