// SPDX-License-Identifier: MIT
// tread_soak: run seeded random worlds and check every frame (docs/RELIABILITY.md).
//   tread_soak --seed N --updates N [--strategy S] [--shape S] [--jobs N] [--known FILE] [--report FILE]
//   tread_soak --seeds A,B,... --updates N [...]   (N split over the seeds; one summary, a row per seed)
//   tread_soak --replay SEED:WORLD [--strategy S] [--shape S] [--frames N]
// Exit status: 0 no violation (or only known ones), 1 a violation, 2 bad command line or unreadable file.
#define _POSIX_C_SOURCE 200809L // clock_gettime: the progress of a many-seed run

#include "soak.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXIT_VIOLATION 1
#define EXIT_BAD_INPUT 2
#define SOAK_MAX_JOBS 64
#define SOAK_EXAMPLES 5 // reproduction ids shown per kind in the report
#define SOAK_MAX_SEEDS 1000 // seeds of one run: each is a row of the report

static const char *const usage =
    "usage: tread_soak --seed N --updates N [options]\n"
    "       tread_soak --seeds A,B,... --updates N [options]\n"
    "       tread_soak --replay SEED:WORLD [--strategy S] [--shape S] [--frames N]\n"
    "Run random worlds (every strategy and shape, kinematic bodies, teleports, dt spikes, edits) and check every\n"
    "frame with double-precision geometry: finite state, penetration <= 1 mm, recovery, no fall-through, no rise\n"
    "above max step, no move beyond its reach. Prints the summary and one line per violation (SEED:WORLD KIND,\n"
    "the id --known lists); exit 1 on a violation not in --known, 2 on bad input.\n"
    "  --seed N            seed of the worlds (world i of seed N is the same on every run and machine)\n"
    "  --seeds A,B,...     several seeds (at most 1000): the updates are split evenly over them (the first seeds\n"
    "                      take the remainder), each runs its first worlds, and the summary has a row per seed\n"
    "  --updates N         character updates to run in all (worlds of 300-3000 updates each)\n"
    "  --strategy S        sweep, contact, cast_down or riser for every world (default: random per world)\n"
    "  --shape S           sphere, capsule or box for every world (default: random per world)\n"
    "  --jobs N            worker threads (1-64, default 1); results do not depend on it\n"
    "  --known FILE        violations (lines SEED:WORLD KIND [# reason]) that are reported but do not fail the run\n"
    "  --report FILE       write the summary as Markdown (make soak puts it in docs/RELIABILITY.md)\n"
    "  --replay SEED:WORLD run that one world, printing every frame\n"
    "  --frames N          with --replay: stop after N frames\n";

typedef struct soak_options {
    uint64_t seed;                    // --replay's, and the seed being run
    uint64_t seeds[SOAK_MAX_SEEDS];   // --seed or --seeds, in the order given
    int seed_count;
    long long updates;
    bool has_seed, has_updates, has_replay;
    uint64_t replay_world;
    int frames;
    int jobs;
    soak_filter filter;
    const char *known, *report;
} soak_options;

static int bad_input(const char *fmt, const char *value) {
    fprintf(stderr, "tread_soak: ");
    fprintf(stderr, fmt, value);
    fprintf(stderr, "\n%s", usage);
    return EXIT_BAD_INPUT;
}

static bool parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s || *s == '-' || *s == '+') return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

static bool parse_int(const char *s, long long lo, long long hi, long long *out) {
    uint64_t v;
    if (!parse_u64(s, &v) || v > (uint64_t)hi || (long long)v < lo) return false;
    *out = (long long)v;
    return true;
}

// "A,B,C": non-negative integers, each seed once.
static bool parse_seed_list(const char *s, soak_options *o) {
    o->seed_count = 0;
    for (const char *at = s;;) {
        char item[32];
        size_t len = strcspn(at, ",");
        if (len == 0 || len >= sizeof item || o->seed_count == SOAK_MAX_SEEDS) return false;
        memcpy(item, at, len);
        item[len] = '\0';
        uint64_t seed;
        if (!parse_u64(item, &seed)) return false;
        for (int i = 0; i < o->seed_count; ++i)
            if (o->seeds[i] == seed) return false; // a seed twice would count its worlds twice
        o->seeds[o->seed_count++] = seed;
        if (at[len] == '\0') return true;
        at += len + 1;
    }
}

// Indexed by tread_query_shape_type (TREAD_QUERY_SPHERE, TREAD_QUERY_CAPSULE, TREAD_QUERY_BOX).
static const char *const shape_names[3] = {"sphere", "capsule", "box"};

static int parse_options(int argc, char **argv, soak_options *o) {
    memset(o, 0, sizeof *o);
    o->jobs = 1;
    o->filter.strategy = o->filter.shape = -1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            exit(0);
        }
        if (!v) return bad_input("%s needs a value", a);
        ++i;
        if (strcmp(a, "--seed") == 0) {
            if (o->has_seed) return bad_input("%s", "give --seed or --seeds once");
            if (!parse_u64(v, &o->seeds[0])) return bad_input("--seed %s: expected a non-negative integer", v);
            o->seed_count = 1, o->has_seed = true;
        } else if (strcmp(a, "--seeds") == 0) {
            if (o->has_seed) return bad_input("%s", "give --seed or --seeds once");
            if (!parse_seed_list(v, o)) return bad_input("--seeds %s: expected 1 to 1000 different non-negative integers separated by commas", v);
            o->has_seed = true;
        } else if (strcmp(a, "--updates") == 0) {
            if (!parse_int(v, 1, 1000000000000LL, &n)) return bad_input("--updates %s: expected an integer in 1 .. 10^12", v);
            o->updates = n, o->has_updates = true;
        } else if (strcmp(a, "--jobs") == 0) {
            if (!parse_int(v, 1, SOAK_MAX_JOBS, &n)) return bad_input("--jobs %s: expected an integer in 1 .. 64", v);
            o->jobs = (int)n;
        } else if (strcmp(a, "--frames") == 0) {
            if (!parse_int(v, 1, 1000000000LL, &n)) return bad_input("--frames %s: expected a positive integer", v);
            o->frames = (int)n;
        } else if (strcmp(a, "--strategy") == 0) {
            tread_step_strategy s;
            if (tread_step_strategy_from_name(v, &s) != TREAD_OK) return bad_input("--strategy %s: expected sweep, contact, cast_down or riser", v);
            o->filter.strategy = (int)s;
        } else if (strcmp(a, "--shape") == 0) {
            int found = -1;
            for (int k = 0; k < 3; ++k)
                if (strcmp(v, shape_names[k]) == 0) found = k;
            if (found < 0) return bad_input("--shape %s: expected sphere, capsule or box", v);
            o->filter.shape = found;
        } else if (strcmp(a, "--known") == 0) {
            o->known = v;
        } else if (strcmp(a, "--report") == 0) {
            o->report = v;
        } else if (strcmp(a, "--replay") == 0) {
            const char *colon = strchr(v, ':');
            char seed[32];
            if (!colon || colon - v >= (long)sizeof seed) return bad_input("--replay %s: expected SEED:WORLD", v);
            memcpy(seed, v, (size_t)(colon - v));
            seed[colon - v] = '\0';
            if (!parse_u64(seed, &o->seed) || !parse_u64(colon + 1, &o->replay_world)) return bad_input("--replay %s: expected SEED:WORLD", v);
            o->has_replay = true;
        } else {
            --i;
            return bad_input("unknown option %s", a);
        }
    }
    if (o->has_replay) {
        if (o->has_seed || o->has_updates) return bad_input("%s", "--replay takes its seed from SEED:WORLD; leave out --seed(s) and --updates");
        return 0;
    }
    if (o->frames) return bad_input("%s", "--frames goes with --replay");
    if (!o->has_seed || !o->has_updates) return bad_input("%s", "--seed (or --seeds) and --updates are required");
    if (o->updates < o->seed_count) return bad_input("%s", "--updates must give every seed at least one update");
    return 0;
}

// ---- known violations ----------------------------------------------------------------------------------------

typedef struct known_list {
    char **lines;
    int count;
} known_list;

static void free_known(known_list *k) {
    for (int i = 0; i < k->count; ++i) free(k->lines[i]);
    free(k->lines);
}

// Lines "SEED:WORLD KIND", each perhaps followed by "# why it is known"; '#' also starts a comment line.
static bool load_known(const char *path, known_list *k) {
    memset(k, 0, sizeof *k);
    if (!path) return true;
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n#")] = '\0';
        for (size_t n = strlen(line); n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'); --n) line[n - 1] = '\0';
        if (line[0] == '\0') continue;
        char **grown = (char **)realloc(k->lines, sizeof(char *) * (size_t)(k->count + 1));
        char *copy = (char *)malloc(strlen(line) + 1);
        if (!grown || !copy) {
            free(copy);
            if (grown) k->lines = grown;
            fclose(f);
            return false;
        }
        strcpy(copy, line);
        k->lines = grown;
        k->lines[k->count++] = copy;
    }
    fclose(f);
    return true;
}

static bool is_known(const known_list *k, const char *id) {
    for (int i = 0; i < k->count; ++i)
        if (strcmp(k->lines[i], id) == 0) return true;
    return false;
}

// ---- running worlds on threads -----------------------------------------------------------------------------------

typedef struct soak_job {
    const soak_options *options;
    const int *frames;           // per world
    soak_world_result *results;  // per world, written by whichever thread ran it
    long worlds;
    atomic_long next;
} soak_job;

static void *worker(void *arg) {
    soak_job *job = (soak_job *)arg;
    for (;;) {
        long i = atomic_fetch_add(&job->next, 1);
        if (i >= job->worlds) return NULL;
        soak_run_world(job->options->seed, (uint64_t)i, job->frames[i], &job->options->filter, NULL, &job->results[i]);
    }
}

// The first worlds of o->seed whose frames add up to `updates` (the last one cut short).
static int *plan_worlds(const soak_options *o, long long updates, long *out_worlds) {
    long cap = 1024, n = 0;
    long long total = 0;
    int *frames = (int *)malloc(sizeof(int) * (size_t)cap);
    while (frames && total < updates) {
        if (n == cap) {
            int *grown = (int *)realloc(frames, sizeof(int) * (size_t)(cap *= 2));
            if (!grown) free(frames);
            frames = grown;
            if (!frames) break;
        }
        long long f = soak_world_frames(o->seed, (uint64_t)n);
        if (total + f > updates) f = updates - total;
        frames[n++] = (int)f;
        total += f;
    }
    *out_worlds = n;
    return frames;
}

// ---- the summary ---------------------------------------------------------------------------------------------------

typedef struct soak_cell {
    long updates, worlds;
    soak_measures worst;
    long counts[SOAK_KIND_COUNT];
} soak_cell;

// One seed's row: its worlds and updates, and its violating worlds by kind (the unit --known lists).
typedef struct soak_seed_row {
    uint64_t seed;
    long worlds;
    long long updates;
    long violations[SOAK_KIND_COUNT];
    long unknown;
} soak_seed_row;

typedef struct soak_kind_total {
    long worlds, frames, known;
    double worst_value;
    char examples[SOAK_EXAMPLES][48];
    int example_count;
} soak_kind_total;

static void filter_flags(const soak_options *o, char *out, size_t size) {
    out[0] = '\0';
    if (o->filter.strategy >= 0)
        snprintf(out + strlen(out), size - strlen(out), " --strategy %s", tread_step_strategy_name((tread_step_strategy)o->filter.strategy));
    if (o->filter.shape >= 0) snprintf(out + strlen(out), size - strlen(out), " --shape %s", shape_names[o->filter.shape]);
}

// What each kind's value measures (the first violation of a world's): its unit and meaning.
static const char *const kind_units[SOAK_KIND_COUNT] = {"", "m deep", "s inside", "m below the top", "m risen", "m moved", "m across", ""};

static void fmt_worst(double v, char *out, size_t size) {
    if (v == -INFINITY) snprintf(out, size, "-");
    else snprintf(out, size, "%.4f", v);
}

static void write_seed_row(FILE *f, const char *name, const soak_seed_row *r, bool markdown) {
    if (markdown) fprintf(f, "| %s | %ld | %lld |", name, r->worlds, r->updates);
    else fprintf(f, "%-20s %7ld %11lld", name, r->worlds, r->updates);
    for (int v = 0; v < SOAK_KIND_COUNT; ++v) fprintf(f, markdown ? " %ld |" : " %12ld", r->violations[v]);
    fprintf(f, markdown ? " %ld |\n" : " %9ld\n", r->unknown);
}

// A row per seed (violating worlds by kind; "not known": those --known does not list), then their sum.
static void write_seed_table(FILE *f, const soak_seed_row *rows, int count, bool markdown) {
    if (markdown) {
        fprintf(f, "| seed | worlds | updates |");
        for (int v = 0; v < SOAK_KIND_COUNT; ++v) fprintf(f, " %s |", soak_kind_name((soak_kind)v));
        fprintf(f, " not known |\n| ---: | ---: | ---: |");
        for (int v = 0; v <= SOAK_KIND_COUNT; ++v) fprintf(f, " ---: |");
        fprintf(f, "\n");
    } else {
        fprintf(f, "%-20s %7s %11s", "seed", "worlds", "updates");
        for (int v = 0; v < SOAK_KIND_COUNT; ++v) fprintf(f, " %12s", soak_kind_name((soak_kind)v));
        fprintf(f, " %9s\n", "not known");
    }
    soak_seed_row all;
    memset(&all, 0, sizeof all);
    for (int i = 0; i < count; ++i) {
        char name[24];
        snprintf(name, sizeof name, "%llu", (unsigned long long)rows[i].seed);
        write_seed_row(f, name, &rows[i], markdown);
        all.worlds += rows[i].worlds, all.updates += rows[i].updates, all.unknown += rows[i].unknown;
        for (int v = 0; v < SOAK_KIND_COUNT; ++v) all.violations[v] += rows[i].violations[v];
    }
    if (count > 1) write_seed_row(f, markdown ? "**all**" : "all", &all, markdown);
    fprintf(f, "\n");
}

static void write_report(FILE *f, const soak_seed_row *rows, int row_count, soak_cell cells[TREAD_STEP_STRATEGY_COUNT][3],
                         const soak_kind_total totals[SOAK_KIND_COUNT], bool markdown) {
    write_seed_table(f, rows, row_count, markdown);
    if (markdown) {
        fprintf(f, "| strategy | shape | worlds | updates | worst penetration (m) | worst rise excess (m) | worst overshoot (m) | NaN | "
                   "fall-through | violating frames | crushed frames | reported crushed |\n");
        fprintf(f, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    } else {
        fprintf(f, "%-10s %-8s %7s %11s %11s %12s %12s %5s %6s %10s %8s %8s\n", "strategy", "shape", "worlds", "updates", "penetration",
                "rise excess", "overshoot", "NaN", "fall", "violations", "crushed", "reported");
    }
    for (int s = 0; s < TREAD_STEP_STRATEGY_COUNT; ++s)
        for (int k = 0; k < 3; ++k) {
            soak_cell *c = &cells[s][k];
            if (c->worlds == 0) continue;
            char pen[32], rise[32], over[32];
            long bad = 0;
            for (int v = 0; v < SOAK_KIND_COUNT; ++v) bad += c->counts[v];
            fmt_worst(c->worst.penetration, pen, sizeof pen);
            fmt_worst(c->worst.rise_excess, rise, sizeof rise);
            fmt_worst(c->worst.overshoot, over, sizeof over);
            const char *name = tread_step_strategy_name((tread_step_strategy)s);
            long nan = c->counts[SOAK_NAN], fall = c->counts[SOAK_FALL_THROUGH];
            if (markdown)
                fprintf(f, "| %s | %s | %ld | %ld | %s | %s | %s | %ld | %ld | %ld | %ld | %ld |\n", name, shape_names[k], c->worlds,
                        c->updates, pen, rise, over, nan, fall, bad, c->worst.crushed, c->worst.reported_crushed);
            else
                fprintf(f, "%-10s %-8s %7ld %11ld %11s %12s %12s %5ld %6ld %10ld %8ld %8ld\n", name, shape_names[k], c->worlds,
                        c->updates, pen, rise, over, nan, fall, bad, c->worst.crushed, c->worst.reported_crushed);
        }
    fprintf(f, "\n");
    if (markdown) {
        fprintf(f, "| violation | worlds | frames | known | worst (first of a world) | reproductions (`tread_soak --replay ID`) |\n");
        fprintf(f, "| --- | ---: | ---: | ---: | ---: | --- |\n");
    }
    for (int v = 0; v < SOAK_KIND_COUNT; ++v) {
        const soak_kind_total *t = &totals[v];
        char examples[SOAK_EXAMPLES * 50] = "";
        for (int e = 0; e < t->example_count; ++e)
            snprintf(examples + strlen(examples), sizeof examples - strlen(examples), "%s%s%s%s", e ? ", " : "", markdown ? "`" : "", t->examples[e],
                     markdown ? "`" : "");
        char worst[48] = "-";
        if (t->worlds && kind_units[v][0]) snprintf(worst, sizeof worst, "%.4g %s", t->worst_value, kind_units[v]);
        if (markdown)
            fprintf(f, "| %s | %ld | %ld | %ld | %s | %s |\n", soak_kind_name((soak_kind)v), t->worlds, t->frames, t->known, worst,
                    t->example_count ? examples : "-");
        else if (t->worlds)
            fprintf(f, "%-12s %ld worlds, %ld frames (%ld known), worst %s; e.g. %s\n", soak_kind_name((soak_kind)v), t->worlds, t->frames,
                    t->known, worst, examples);
    }
}

static double max2(double a, double b) { return a > b ? a : b; }

// Fold one seed's worlds (o->seed) into the summary, in world order, fill its row, and print one line per
// violation. Returns the number of violations not in the known list.
static long summarize(const soak_options *o, const soak_world_result *results, long worlds, const known_list *known,
                      soak_cell cells[TREAD_STEP_STRATEGY_COUNT][3], soak_kind_total totals[SOAK_KIND_COUNT], soak_seed_row *row) {
    char flags[64];
    filter_flags(o, flags, sizeof flags);
    long unknown = 0;
    row->seed = o->seed;
    row->worlds = worlds;
    for (long i = 0; i < worlds; ++i) {
        const soak_world_result *r = &results[i];
        row->updates += r->updates;
        soak_cell *c = &cells[r->strategy][r->shape];
        ++c->worlds;
        c->updates += r->updates;
        c->worst.penetration = max2(c->worst.penetration, r->worst.penetration);
        c->worst.rise_excess = max2(c->worst.rise_excess, r->worst.rise_excess);
        c->worst.overshoot = max2(c->worst.overshoot, r->worst.overshoot);
        c->worst.crushed += r->worst.crushed;
        c->worst.reported_crushed += r->worst.reported_crushed;
        char id[48];
        if (r->failed) { // the library refused what the generator made: reported as an error of that world
            snprintf(id, sizeof id, "%llu:%ld error", (unsigned long long)o->seed, i);
            bool k = is_known(known, id);
            printf("%s %s frame 0: %s -- replay: tread_soak --replay %llu:%ld%s\n", k ? "known    " : "VIOLATION", id, r->message,
                   (unsigned long long)o->seed, i, flags);
            unknown += !k;
            ++totals[SOAK_ERROR].worlds, ++totals[SOAK_ERROR].frames, totals[SOAK_ERROR].known += k;
            ++row->violations[SOAK_ERROR];
            continue;
        }
        for (int v = 0; v < SOAK_KIND_COUNT; ++v) {
            if (!r->counts[v]) continue;
            c->counts[v] += r->counts[v];
            snprintf(id, sizeof id, "%llu:%ld %s", (unsigned long long)o->seed, i, soak_kind_name((soak_kind)v));
            bool k = is_known(known, id);
            unknown += !k;
            ++row->violations[v];
            soak_kind_total *t = &totals[v];
            ++t->worlds;
            t->frames += r->counts[v];
            t->known += k;
            t->worst_value = t->worlds == 1 ? r->first[v].value : max2(t->worst_value, r->first[v].value);
            if (t->example_count < SOAK_EXAMPLES) snprintf(t->examples[t->example_count++], sizeof t->examples[0], "%llu:%ld", (unsigned long long)o->seed, i);
            printf("%s %s frame %d (%ld frames) [%s %s]: %s -- replay: tread_soak --replay %llu:%ld%s\n", k ? "known    " : "VIOLATION", id,
                   r->first_frame[v], r->counts[v], tread_step_strategy_name((tread_step_strategy)r->strategy), shape_names[r->shape],
                   r->first[v].detail, (unsigned long long)o->seed, i, flags);
        }
    }
    row->unknown = unknown;
    return unknown;
}

static int run_replay(const soak_options *o) {
    soak_world_result r;
    soak_run_world(o->seed, o->replay_world, o->frames, &o->filter, stdout, &r);
    if (r.failed) {
        printf("VIOLATION %llu:%llu error: %s\n", (unsigned long long)o->seed, (unsigned long long)o->replay_world, r.message);
        return EXIT_VIOLATION;
    }
    long bad = 0;
    for (int v = 0; v < SOAK_KIND_COUNT; ++v)
        if (r.counts[v]) {
            printf("%s: %ld frames, first at frame %d: %s\n", soak_kind_name((soak_kind)v), r.counts[v], r.first_frame[v], r.first[v].detail);
            bad += r.counts[v];
        }
    printf("replay %llu:%llu: %ld updates, %ld violating frames\n", (unsigned long long)o->seed, (unsigned long long)o->replay_world, r.updates, bad);
    return bad ? EXIT_VIOLATION : 0;
}

int main(int argc, char **argv) {
    soak_options o;
    int status = parse_options(argc, argv, &o);
    if (status) return status;
    if (o.has_replay) return run_replay(&o);
    known_list known;
    if (!load_known(o.known, &known)) {
        fprintf(stderr, "tread_soak: --known %s: cannot read it\n", o.known);
        return EXIT_BAD_INPUT;
    }
    FILE *report = NULL;
    if (o.report && !(report = fopen(o.report, "w"))) {
        fprintf(stderr, "tread_soak: --report %s: cannot write it\n", o.report);
        free_known(&known);
        return EXIT_BAD_INPUT;
    }
    static soak_cell cells[TREAD_STEP_STRATEGY_COUNT][3];
    static soak_kind_total totals[SOAK_KIND_COUNT];
    static soak_seed_row rows[SOAK_MAX_SEEDS];
    for (int s = 0; s < TREAD_STEP_STRATEGY_COUNT; ++s)
        for (int k = 0; k < 3; ++k) cells[s][k].worst.rise_excess = cells[s][k].worst.overshoot = -INFINITY;
    long unknown = 0, worlds_in_all = 0;
    long long updates = 0;
    struct timespec began;
    clock_gettime(CLOCK_MONOTONIC, &began);
    // One seed at a time, every thread on it: only one seed's results are held, and its violations are printed as
    // soon as it is done.
    for (int n = 0; n < o.seed_count; ++n) {
        o.seed = o.seeds[n];
        long long share = o.updates / o.seed_count + (n < o.updates % o.seed_count);
        long worlds = 0;
        int *frames = plan_worlds(&o, share, &worlds);
        soak_world_result *results = frames ? (soak_world_result *)calloc((size_t)worlds, sizeof(soak_world_result)) : NULL;
        if (!results) {
            fprintf(stderr, "tread_soak: out of memory planning %lld updates of seed %llu\n", share, (unsigned long long)o.seed);
            free(frames);
            free_known(&known);
            if (report) fclose(report);
            return EXIT_BAD_INPUT;
        }
        soak_job job = {&o, frames, results, worlds, 0};
        pthread_t threads[SOAK_MAX_JOBS];
        int started = 0;
        for (; started < o.jobs - 1; ++started)
            if (pthread_create(&threads[started], NULL, worker, &job) != 0) break; // fewer threads: slower, same results
        worker(&job);
        for (int i = 0; i < started; ++i) pthread_join(threads[i], NULL);
        unknown += summarize(&o, results, worlds, &known, cells, totals, &rows[n]);
        worlds_in_all += worlds;
        updates += rows[n].updates;
        free(results);
        free(frames);
        if (o.seed_count > 1) { // progress of a long run, on stderr so that stdout stays the results
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            fprintf(stderr, "tread_soak: seed %llu (%d of %d): %lld updates in %ld worlds, %ld violations not known; %.0f s so far\n",
                    (unsigned long long)o.seed, n + 1, o.seed_count, rows[n].updates, worlds, rows[n].unknown,
                    (double)(now.tv_sec - began.tv_sec) + 1e-9 * (double)(now.tv_nsec - began.tv_nsec));
        }
    }

    char seeds[64];
    if (o.seed_count == 1) snprintf(seeds, sizeof seeds, "seed %llu", (unsigned long long)o.seeds[0]);
    else snprintf(seeds, sizeof seeds, "%d seeds (%lld updates each)", o.seed_count, o.updates / o.seed_count);
    printf("\nsoak: %s, %lld updates in %ld worlds\n", seeds, updates, worlds_in_all);
    write_report(stdout, rows, o.seed_count, cells, totals, false);
    if (report) {
        if (o.seed_count == 1) fprintf(report, "Seed %llu: %lld updates in %ld worlds.\n\n", (unsigned long long)o.seeds[0], updates, worlds_in_all);
        else {
            fprintf(report, "Seeds ");
            for (int n = 0; n < o.seed_count; ++n) fprintf(report, "%s%llu", n ? ", " : "", (unsigned long long)o.seeds[n]);
            fprintf(report, ": %lld updates in %ld worlds (the first %lld updates of each seed).\n\n", updates, worlds_in_all,
                    o.updates / o.seed_count);
        }
        write_report(report, rows, o.seed_count, cells, totals, true);
        fclose(report);
    }
    long known_count = 0;
    for (int v = 0; v < SOAK_KIND_COUNT; ++v) known_count += totals[v].known;
    printf("%ld violations not known%s", unknown, known_count ? "" : "\n");
    if (known_count) printf(" (and %ld known, listed in %s)\n", known_count, o.known);
    free_known(&known);
    return unknown ? EXIT_VIOLATION : 0;
}
