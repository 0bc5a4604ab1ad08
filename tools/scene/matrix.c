// SPDX-License-Identifier: MIT
// Running the generated scene matrix: every case of gen_families.c (family x parameters x shape x
// rate) under every up vector and step strategy. A case's scene goes through the same path as a file (JSON text,
// scene_load_buffer, run_scene, run_checks). Runs are numbered in one fixed order; a sample picks a seeded subset
// of them (selection sampling, so the same seed picks the same runs); worker processes take the cases a hash
// gives them and write fixed-size records that the parent sorts back into run order, so the report never depends on
// scheduling. Calls gen_families.c, scene_load.c, run.c, checks.c, names.c.
#define _POSIX_C_SOURCE 200809L // fork, waitpid, clock_gettime
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gen_internal.h"

#define MAX_STRATEGIES 8
#define UP_VARIANTS 2
static const float tilted_up[3] = {0.25f, 1.0f, -0.15f}; // the second up vector (normalized by the runner)
static const char *const up_names[UP_VARIANTS] = {"+Y", "0.25,1,-0.15"};

typedef struct mcase {
    int family, index, shape, rate;
} mcase;

// One run's outcome. `check`/`value` name the failed check that missed its bound by the most (its own units).
typedef struct mrecord {
    int32_t run;                 // run ordinal: (case ordinal * up variants + up) * strategies + strategy
    uint8_t passed, invariants_ok, error;
    float excess;
    char check[48];
    char value[72];
} mrecord;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// How far a measured value lies outside a range (0 inside).
static double miss(const scene_range *r, double v) {
    if (!isfinite(v)) return 1e9;
    double m = 0.0;
    if (r->has_min && v < r->min) m = r->min - v;
    if (r->has_max && v > r->max) m = fmax(m, v - r->max);
    return m > 0.0 ? m : 1e-9;
}

// A check that holds for every strategy: the per-frame rise limit, and the automatic ones (finite, penetration).
static bool is_invariant(const scene *s, int result) {
    return result >= s->check_count || s->checks[result].kind == SCENE_CHECK_MAX_RISE;
}

static double excess_of(const scene *s, int i, const check_result *r) {
    if (i >= s->check_count) return strstr(r->name, "finite") ? 1e9 : r->value - 0.001;
    const scene_check *k = &s->checks[i];
    if (k->kind == SCENE_CHECK_FINAL || k->kind == SCENE_CHECK_AT_TIME)
        for (int a = 0; a < 3; ++a)
            if (k->axes[a].has_min || k->axes[a].has_max) return miss(&k->axes[a], r->value);
    return miss(&k->range, r->value);
}

// Run one case under its selected variants; append records.
static void run_case(const mcase *c, int ordinal, const char *const *strategies, int nstrat, int ups, const uint8_t *selected, FILE *out) {
    char name[SCENE_NAME_MAX], *json = NULL;
    scene s;
    scene_error err;
    bool loaded = gen_case_text(c->family, c->index, c->shape, c->rate, name, sizeof name, &json) &&
                  scene_load_buffer(name, json, strlen(json), &s, &err);
    if (!loaded && json) fprintf(stderr, "tread matrix: %s: %s\n", name, err.message);
    free(json);
    static check_result results[SCENE_MAX_RESULTS];
    for (int u = 0; u < ups; ++u)
        for (int k = 0; k < nstrat; ++k) {
            int32_t run = (int32_t)(((int64_t)ordinal * ups + u) * nstrat + k);
            if (!selected[run]) continue;
            mrecord rec;
            memset(&rec, 0, sizeof rec);
            rec.run = run;
            rec.invariants_ok = 1;
            run_options o;
            memset(&o, 0, sizeof o);
            o.strategy = strategies[k];
            o.rotate_up = u > 0;
            o.up = tread_v3(tilted_up[0], tilted_up[1], tilted_up[2]);
            run_trace trace;
            char message[512] = "";
            if (!loaded || !run_scene(&s, &o, &trace, message, sizeof message)) {
                rec.error = 1;
                rec.invariants_ok = 0;
                rec.excess = 1e9f;
                snprintf(rec.check, sizeof rec.check, "error");
                snprintf(rec.value, sizeof rec.value, "%.71s", loaded ? message : "scene did not load");
                fwrite(&rec, sizeof rec, 1, out);
                continue;
            }
            if (trace.failure.failed) {
                // A library call failed and stopped the run: as loud as an error, never a pass.
                rec.invariants_ok = 0;
                rec.excess = 1e9f;
                snprintf(rec.check, sizeof rec.check, "%.47s", "library call");
                snprintf(rec.value, sizeof rec.value, "%.71s", trace.failure.message);
                fwrite(&rec, sizeof rec, 1, out);
                run_trace_free(&trace);
                continue;
            }
            int n = run_checks(&s, &trace, results, SCENE_MAX_RESULTS);
            rec.passed = 1;
            double worst = -1.0;
            for (int i = 0; i < n; ++i) {
                if (results[i].passed) continue;
                rec.passed = 0;
                if (is_invariant(&s, i)) rec.invariants_ok = 0;
                double e = excess_of(&s, i, &results[i]);
                if (e > worst) {
                    worst = e;
                    rec.excess = (float)e;
                    snprintf(rec.check, sizeof rec.check, "%.47s", results[i].name);
                    snprintf(rec.value, sizeof rec.value, "%.71s", results[i].value_text);
                }
            }
            fwrite(&rec, sizeof rec, 1, out);
            run_trace_free(&trace);
        }
    if (loaded) scene_free(&s);
}

static int compare_records(const void *a, const void *b) {
    int32_t x = ((const mrecord *)a)->run, y = ((const mrecord *)b)->run;
    return (x > y) - (x < y);
}

// ---- the report -------------------------------------------------------------------------------------------

// Failures of one (strategy, shape, family, check).
typedef struct failure_group {
    int strategy, shape, family;
    char check[48];
    long count;
    float excess;
    char value[72];
    int32_t run; // the worst one
} failure_group;

typedef struct report {
    long runs[MAX_STRATEGIES][3], passed[MAX_STRATEGIES][3], invariant_failures[MAX_STRATEGIES][3];
    failure_group *groups;
    int group_count, group_capacity;
} report;

static void add_failure(report *r, int strategy, int shape, int family, const mrecord *rec) {
    failure_group *g = NULL;
    for (int i = 0; i < r->group_count && !g; ++i)
        if (r->groups[i].strategy == strategy && r->groups[i].shape == shape && r->groups[i].family == family && !strcmp(r->groups[i].check, rec->check))
            g = &r->groups[i];
    if (!g) {
        if (r->group_count == r->group_capacity) {
            r->group_capacity = r->group_capacity ? 2 * r->group_capacity : 64;
            r->groups = (failure_group *)realloc(r->groups, sizeof(failure_group) * (size_t)r->group_capacity);
        }
        g = &r->groups[r->group_count++];
        memset(g, 0, sizeof *g);
        g->strategy = strategy;
        g->shape = shape;
        g->family = family;
        snprintf(g->check, sizeof g->check, "%s", rec->check);
        g->excess = -1.0f;
    }
    ++g->count;
    if (rec->excess > g->excess) { // ties keep the first, in run order
        g->excess = rec->excess;
        g->run = rec->run;
        snprintf(g->value, sizeof g->value, "%s", rec->value);
    }
}

static int compare_groups(const void *a, const void *b) {
    const failure_group *x = (const failure_group *)a, *y = (const failure_group *)b;
    if (x->strategy != y->strategy) return x->strategy - y->strategy;
    if (x->shape != y->shape) return x->shape - y->shape;
    if (x->family != y->family) return x->family - y->family;
    return strcmp(x->check, y->check);
}

static void run_label(const mcase *cases, int32_t run, int ups, int nstrat, const char *const *strategies, char *out, size_t size) {
    int k = run % nstrat, u = (run / nstrat) % ups, ordinal = run / nstrat / ups;
    const mcase *c = &cases[ordinal];
    char name[SCENE_NAME_MAX];
    gen_case_name(c->family, c->index, c->shape, c->rate, name, sizeof name);
    snprintf(out, size, "%s --strategy %s%s%s", name, strategies[k], u ? " --up " : "", u ? up_names[u] : "");
}

// The run labels in `path` (one a line; blank lines and lines starting with # skipped), sorted for bsearch.
typedef struct known_list {
    char **labels;
    size_t count;
} known_list;

static int compare_labels(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool load_known(const char *path, known_list *out) {
    memset(out, 0, sizeof *out);
    if (!path) return true;
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[512];
    size_t capacity = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#') continue;
        if (out->count == capacity) {
            capacity = capacity ? 2 * capacity : 256;
            char **grown = (char **)realloc(out->labels, capacity * sizeof *grown);
            if (!grown) break;
            out->labels = grown;
        }
        size_t n = strlen(line) + 1;
        out->labels[out->count] = (char *)malloc(n);
        if (!out->labels[out->count]) break;
        memcpy(out->labels[out->count++], line, n);
    }
    fclose(f);
    if (out->count) qsort(out->labels, out->count, sizeof *out->labels, compare_labels);
    return true;
}

static bool is_known(const known_list *k, const char *label) {
    return k->count && bsearch(&label, k->labels, k->count, sizeof *k->labels, compare_labels) != NULL;
}

static void free_known(known_list *k) {
    for (size_t i = 0; i < k->count; ++i) free(k->labels[i]);
    free(k->labels);
}

int matrix_run(const matrix_options *opt) {
    const char *const *all = scene_strategy_names();
    const char *strategies[MAX_STRATEGIES];
    int strategy_index[MAX_STRATEGIES], nstrat = 0;
    for (int i = 0; all[i] && nstrat < MAX_STRATEGIES; ++i)
        if (opt->strategy_mask >> i & 1u) {
            strategy_index[nstrat] = i;
            strategies[nstrat++] = all[i];
        }
    int ups = opt->up_count == 1 ? 1 : UP_VARIANTS, jobs = opt->jobs < 1 ? 1 : (opt->jobs > 64 ? 64 : opt->jobs);
    // Every case, in order: family, index, shape, rate.
    long case_count = 0, per_family[32] = {0}; // a family is a bit of family_mask
    for (int f = 0; gen_family_names[f]; ++f)
        if (opt->family_mask >> f & 1u) case_count += (long)gen_family_size(f) * 3 * 4;
    mcase *cases = (mcase *)malloc(sizeof(mcase) * (size_t)(case_count > 0 ? case_count : 1));
    if (!cases || nstrat == 0) {
        fprintf(stderr, "tread matrix: %s\n", cases ? "no strategy selected" : "out of memory");
        free(cases);
        return 2;
    }
    int ncases = 0;
    for (int f = 0; gen_family_names[f]; ++f) {
        if (!(opt->family_mask >> f & 1u)) continue;
        for (int i = 0; i < gen_family_size(f); ++i)
            for (int sh = 0; sh < 3; ++sh)
                for (int r = 0; gen_rates[r]; ++r) {
                    char name[SCENE_NAME_MAX];
                    if (!(opt->shape_mask >> sh & 1u) || !(opt->rate_mask >> r & 1u) || !gen_case_name(f, i, sh, gen_rates[r], name, sizeof name)) continue;
                    cases[ncases++] = (mcase){f, i, sh, gen_rates[r]};
                    ++per_family[f];
                    if (opt->list) printf("%s\n", name);
                }
    }
    long total = (long)ncases * ups * nstrat;
    printf("matrix: %d cases (", ncases);
    for (int f = 0, first = 1; gen_family_names[f]; ++f)
        if (opt->family_mask >> f & 1u) {
            printf("%s%s %ld", first ? "" : ", ", gen_family_names[f], per_family[f]);
            first = 0;
        }
    printf(") x %d up vector%s x %d strateg%s = %ld runs\n", ups, ups == 1 ? "" : "s", nstrat, nstrat == 1 ? "y" : "ies", total);
    if (opt->list) {
        free(cases);
        return 0;
    }
    // Selection sampling (Knuth's algorithm S): exactly `sample` runs, each subset equally likely, in run order.
    uint8_t *selected = (uint8_t *)calloc((size_t)(total > 0 ? total : 1), 1);
    uint8_t *case_selected = (uint8_t *)calloc((size_t)(ncases > 0 ? ncases : 1), 1);
    if (!selected || !case_selected) {
        fprintf(stderr, "tread matrix: out of memory\n");
        free(cases);
        free(selected);
        free(case_selected);
        return 2;
    }
    long want = opt->sample > 0 && opt->sample < total ? opt->sample : total, chosen = 0;
    uint64_t state = opt->seed;
    for (long i = 0; i < total && chosen < want; ++i) {
        double u = (double)(splitmix64(&state) >> 11) / 9007199254740992.0;
        if ((double)(total - i) * u < (double)(want - chosen)) {
            selected[i] = 1;
            case_selected[i / (ups * nstrat)] = 1;
            ++chosen;
        }
    }
    if (want < total) printf("sample: %ld runs (seed %llu)\n", chosen, (unsigned long long)opt->seed);
    printf("running %ld runs in %d worker%s\n", chosen, jobs, jobs == 1 ? "" : "s");
    fflush(stdout);
    double started = now_seconds();
    // Workers: case i goes to worker owner[i], a hash of i, so that the rates (a 240 Hz case costs eight 30 Hz
    // ones) and families spread evenly; the report is sorted back into run order, so this never shows in it.
    int *owner = (int *)malloc(sizeof(int) * (size_t)(ncases > 0 ? ncases : 1));
    if (!owner) {
        fprintf(stderr, "tread matrix: out of memory\n");
        return 2;
    }
    for (int i = 0; i < ncases; ++i) {
        uint64_t h = (uint64_t)i;
        owner[i] = (int)(splitmix64(&h) % (uint64_t)jobs);
    }
    FILE *files[64];
    pid_t pids[64];
    int status = 0;
    for (int w = 0; w < jobs; ++w) {
        files[w] = tmpfile();
        if (!files[w]) {
            fprintf(stderr, "tread matrix: cannot create a temporary file\n");
            return 2;
        }
        pids[w] = jobs > 1 ? fork() : 0;
        if (pids[w] < 0) {
            fprintf(stderr, "tread matrix: fork failed\n");
            return 2;
        }
        if (pids[w] > 0) continue;
        long done = 0, mine = 0;
        for (int i = 0; i < ncases; ++i) mine += case_selected[i] && owner[i] == w;
        double last = now_seconds();
        for (int i = 0; i < ncases; ++i) {
            if (!case_selected[i]) continue;
            if (owner[i] != w) continue;
            run_case(&cases[i], i, strategies, nstrat, ups, selected, files[w]);
            ++done;
            if (now_seconds() - last > 30.0) {
                last = now_seconds();
                fprintf(stderr, "tread matrix: worker %d: %ld of %ld cases (%.0f s)\n", w, done, mine, last - started);
            }
        }
        fflush(files[w]);
        if (jobs > 1) _exit(0);
    }
    for (int w = 0; jobs > 1 && w < jobs; ++w) {
        int ws = 0;
        if (waitpid(pids[w], &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
            fprintf(stderr, "tread matrix: worker %d failed\n", w);
            status = 2;
        }
    }
    double elapsed = now_seconds() - started;
    // Merge in run order.
    mrecord *records = (mrecord *)malloc(sizeof(mrecord) * (size_t)(chosen > 0 ? chosen : 1));
    long nrec = 0;
    for (int w = 0; w < jobs; ++w) {
        rewind(files[w]);
        while (records && nrec < chosen && fread(&records[nrec], sizeof(mrecord), 1, files[w]) == 1) ++nrec;
        fclose(files[w]);
    }
    if (!records || nrec != chosen) {
        fprintf(stderr, "tread matrix: %ld of %ld results came back\n", nrec, chosen);
        status = 2;
    }
    if (records) qsort(records, (size_t)nrec, sizeof(mrecord), compare_records);
    report rep;
    memset(&rep, 0, sizeof rep);
    bool sweep_failed = false, invariant_failed = false;
    long known_failures = 0;
    known_list known;
    if (!load_known(opt->known, &known)) {
        fprintf(stderr, "tread matrix: --known %s: cannot read it\n", opt->known);
        status = 2;
    }
    for (long i = 0; i < nrec; ++i) {
        const mrecord *rec = &records[i];
        int k = rec->run % nstrat;
        const mcase *c = &cases[rec->run / nstrat / ups];
        ++rep.runs[k][c->shape];
        if (rec->passed) {
            ++rep.passed[k][c->shape];
            continue;
        }
        if (!rec->invariants_ok) {
            ++rep.invariant_failures[k][c->shape];
            invariant_failed = true;
        }
        char label[256];
        run_label(cases, rec->run, ups, nstrat, strategies, label, sizeof label);
        if (strategy_index[k] == (int)TREAD_STEP_SWEEP) {
            if (is_known(&known, label)) ++known_failures;
            else sweep_failed = true;
        }
        add_failure(&rep, k, c->shape, c->family, rec);
        if (opt->failures) printf("FAIL %s: %s: %s\n", label, rec->check, rec->value);
    }
    if (rep.group_count) qsort(rep.groups, (size_t)rep.group_count, sizeof(failure_group), compare_groups);
    printf("ran %ld runs in %.1f s (%.2f ms per run, %d worker%s)\n", nrec, elapsed, nrec ? 1000.0 * elapsed / (double)nrec : 0.0, jobs,
           jobs == 1 ? "" : "s");
    long all_runs = 0, all_passed = 0;
    for (int k = 0; k < nstrat; ++k)
        for (int sh = 0; sh < 3; ++sh) {
            if (!rep.runs[k][sh]) continue;
            all_runs += rep.runs[k][sh];
            all_passed += rep.passed[k][sh];
            printf("\n%s, %s: %ld runs, %ld passed, %ld failed (%ld breaking an invariant)\n", strategies[k], gen_shape_names[sh], rep.runs[k][sh],
                   rep.passed[k][sh], rep.runs[k][sh] - rep.passed[k][sh], rep.invariant_failures[k][sh]);
            for (int g = 0; g < rep.group_count; ++g) {
                const failure_group *fg = &rep.groups[g];
                if (fg->strategy != k || fg->shape != sh) continue;
                char label[256];
                run_label(cases, fg->run, ups, nstrat, strategies, label, sizeof label);
                printf("  %-7s %-32s %6ld failed; worst %s: %s\n", gen_family_names[fg->family], fg->check, fg->count, fg->value, label);
            }
        }
    printf("\n%ld of %ld runs passed; the default strategy (sweep) %s", all_passed, all_runs, sweep_failed ? "FAILED" : "passed");
    if (known_failures) printf(" (but for %ld known failures, listed in %s)", known_failures, opt->known);
    printf("\n");
    free_known(&known);
    if (sweep_failed || invariant_failed)
        printf("reproduce one: tread gen DIR --case NAME && tread run DIR/NAME.json --strategy S [--up X,Y,Z]\n");
    if (opt->markdown) {
        FILE *md = fopen(opt->markdown, "w");
        if (!md) {
            fprintf(stderr, "tread matrix: cannot write %s\n", opt->markdown);
            status = 2;
        } else {
            fprintf(md, "| strategy | shape | runs | passed | failed | breaking an invariant |\n| --- | --- | ---: | ---: | ---: | ---: |\n");
            for (int k = 0; k < nstrat; ++k)
                for (int sh = 0; sh < 3; ++sh)
                    if (rep.runs[k][sh])
                        fprintf(md, "| %s | %s | %ld | %ld | %ld | %ld |\n", strategies[k], gen_shape_names[sh], rep.runs[k][sh], rep.passed[k][sh],
                                rep.runs[k][sh] - rep.passed[k][sh], rep.invariant_failures[k][sh]);
            fprintf(md, "\n%ld of %ld runs passed.\n", all_passed, all_runs);
            if (rep.group_count) {
                fprintf(md, "\n| strategy | shape | family | check | failed | worst | one failing run |\n| --- | --- | --- | --- | ---: | --- | --- |\n");
                for (int g = 0; g < rep.group_count; ++g) {
                    const failure_group *fg = &rep.groups[g];
                    char label[256];
                    run_label(cases, fg->run, ups, nstrat, strategies, label, sizeof label);
                    fprintf(md, "| %s | %s | %s | %s | %ld | %s | `%s` |\n", strategies[fg->strategy], gen_shape_names[fg->shape], gen_family_names[fg->family],
                            fg->check, fg->count, fg->value, label);
                }
            }
            fclose(md);
        }
    }
    free(rep.groups);
    free(owner);
    free(records);
    free(selected);
    free(case_selected);
    free(cases);
    if (status) return status;
    return sweep_failed || (opt->invariants_fatal && invariant_failed) ? 1 : 0;
}
