// SPDX-License-Identifier: MIT
// `tread walk`: the command line, a map's runs spread over --jobs threads (the map's world and grid are only read
// while they run: tread.h's threading contract), and the report: every failure kept with what reproduces it,
// totals by kind per map and shape, and overall.
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk.h"

#define EXIT_FAILED 1
#define EXIT_BAD_INPUT 2

static const char *const usage =
    "usage: tread walk [MAP ...|--all] [options]\n"
    "Characters wander through Quake III levels (OpenArena's maps, docs/LEVELS.md) from every spawn point, every frame\n"
    "checked in double precision; exit 1 on any failure, 2 on bad input.\n"
    "  MAP                 a map of the .pk3 (\"oa_dm1\"), or a path to a .bsp file\n"
    "  --all               every map of the .pk3\n"
    "  --pk3 PATH          the archive (default " LEVEL_DEFAULT_PK3 ")\n"
    "  --shape S           box, capsule or all (default all)\n"
    "  --strategy NAME     sweep, contact, cast_down, riser, a comma list, or all (default sweep)\n"
    "  --seconds S         per run (default 60)\n"
    "  --hz HZ             frames per second (default 60)\n"
    "  --seed N            the hands' seed (default 1); character i's hands are seeded by (N, i)\n"
    "  --spawns K          at most K spawns per map, spread over its list (default all)\n"
    "  --spawn I           only spawn I (for reproducing one run)\n"
    "  --batch             also run all the spawns together through tread_batch_move, once per shape and strategy\n"
    "  --batch-only        only the batched runs\n"
    "  --no-movers         leave the movers out: no doors, plats, buttons, trains, bobbing, rotating or pendulums in\n"
    "                      the world (by default they run as kinematic bodies, opened by the characters; --movers\n"
    "                      says so explicitly)\n"
    "  --jobs N            threads (default 1)\n"
    "  --report FILE       the full report into FILE (stdout then gets the totals only)\n"
    "  --keep N            failures listed per run and kind (default 3; all are counted)\n"
    "  --trace             print every frame (use with one map, --spawn and one shape and strategy)\n"
    "  --not-fatal KINDS   a comma list of failure kinds (error, nan, penetration, fall_through, rise, ground,\n"
    "                      freeze) that are counted and printed but do not make the exit status 1\n"
    "  --info              only import the maps and print what they hold\n"
    "  --list              only list the maps of the .pk3, one a line\n"
    "  --scene             write the one MAP as a scene file (docs/SCENES.md) to stdout, for the browser viewer: the\n"
    "                      level and its movers as meshes, a character at --spawn I (default 0) of --shape (default\n"
    "                      capsule) and --strategy with the walk's settings and motor (docs/WEB.md, \"Levels\")\n";

typedef struct work {
    const walk_map *map;
    const walk_options *o;
    walk_run *runs;
    int count, next;
    pthread_mutex_t lock;
} work;

static void *worker(void *arg) {
    work *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        int i = w->next++;
        pthread_mutex_unlock(&w->lock);
        if (i >= w->count) return NULL;
        walk_run *r = &w->runs[i];
        FILE *trace = w->o->trace ? stdout : NULL;
        if (r->spawn < 0) walk_run_batch(w->map, w->o, r, trace);
        else walk_run_alone(w->map, w->o, r, trace);
    }
}

static void run_all(const walk_map *m, const walk_options *o, walk_run *runs, int count) {
    work w = {m, o, runs, count, 0, PTHREAD_MUTEX_INITIALIZER};
    int jobs = o->trace ? 1 : (o->jobs < 1 ? 1 : o->jobs);
    pthread_t threads[64];
    int started = 0;
    for (int i = 1; i < jobs && i < 64; ++i)
        if (pthread_create(&threads[started], NULL, worker, &w) == 0) ++started;
    worker(&w);
    for (int i = 0; i < started; ++i) pthread_join(threads[i], NULL);
}

static bool parse_shapes(const char *text, unsigned *mask) {
    if (!strcmp(text, "all")) *mask = 3u;
    else if (!strcmp(text, "box")) *mask = 1u;
    else if (!strcmp(text, "capsule")) *mask = 2u;
    else return false;
    return true;
}

static bool parse_strategies(const char *text, unsigned *mask) {
    if (!strcmp(text, "all")) {
        *mask = (1u << TREAD_STEP_STRATEGY_COUNT) - 1u;
        return true;
    }
    *mask = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        tread_step_strategy s;
        if (tread_step_strategy_from_name(tok, &s) != TREAD_OK) return false;
        *mask |= 1u << s;
    }
    return *mask != 0;
}

static void print_level(FILE *out, const level *lv) {
    fprintf(out, "map %s: %d triangles (%d brush, %d patch), %d vertices, %d solid brushes (%d faces kept, %d hidden, %d without area), %d patches, "
                 "%d spawns, %d hazards, %d jump pads and teleporters, %d movers (",
            lv->name, lv->triangle_count, lv->brush_triangles, lv->patch_triangles, lv->vertex_count, lv->solid_brushes, lv->faces_kept,
            lv->faces_hidden, lv->faces_degenerate, lv->patches, lv->spawn_count, lv->hazard_count, lv->trigger_count, lv->mover_count);
    for (int k = 0; k < LEVEL_MOVER_KIND_COUNT; ++k) fprintf(out, "%s%s %d", k ? ", " : "", level_mover_kind_names[k], lv->mover_kind_counts[k]);
    fprintf(out, "; %d trigger volumes open them); skipped:", lv->mover_trigger_count);
    for (int i = 0; i < lv->skip_class_count; ++i) fprintf(out, "%s %s (%d)", i ? "," : "", lv->skip_counts[i].classname, lv->skip_counts[i].count);
    fprintf(out, "%s\n", lv->skip_class_count ? "" : " nothing");
}

typedef struct totals {
    long counts[WALK_SHAPES][WALK_KIND_COUNT];
    long faults[WALK_SHAPES][WALK_GROUND_FAULT_COUNT];
    long frames[WALK_SHAPES], deaths[WALK_SHAPES], launches[WALK_SHAPES], teleports[WALK_SHAPES], movers[WALK_SHAPES], opens[WALK_SHAPES], moves;
    double move_seconds;
} totals;

static void print_counts(FILE *out, const long *counts, const long *faults) {
    for (int k = 0; k < WALK_KIND_COUNT; ++k) {
        fprintf(out, " %s %ld", walk_kind_name((walk_kind)k), counts[k]);
        if (k == WALK_GROUND) {
            fprintf(out, " (");
            for (int f = 0; f < WALK_GROUND_FAULT_COUNT; ++f) fprintf(out, "%s%s %ld", f ? ", " : "", walk_ground_fault_names[f], faults[f]);
            fprintf(out, ")");
        }
    }
}

static bool counts_fail(const long *counts, unsigned not_fatal) {
    for (int k = 0; k < WALK_KIND_COUNT; ++k)
        if (counts[k] > 0 && k != WALK_CRUSH && !(not_fatal & (1u << k))) return true;
    return false;
}

// A comma list of kind names into bits (1 << walk_kind); false on an unknown name.
static bool parse_kinds(const char *list, unsigned *out) {
    *out = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        int k = 0;
        while (k < WALK_KIND_COUNT && !(strlen(walk_kind_name((walk_kind)k)) == n && !strncmp(p, walk_kind_name((walk_kind)k), n))) ++k;
        if (k == WALK_KIND_COUNT) return false;
        *out |= 1u << k;
        p += n + (p[n] == ',');
    }
    return true;
}

// One map: its runs, their failures, its totals. False when the map could not be loaded.
static bool walk_one_map(const char *pk3, const char *name, const walk_options *o, FILE *rep, bool summary_to_stdout, totals *all, bool *failed) {
    char err[512];
    walk_map m;
    if (!walk_map_load(&m, pk3, name, err, sizeof err)) {
        fprintf(stderr, "tread walk: %s\n", err);
        walk_map_free(&m);
        return false;
    }
    print_level(rep, &m.lv);
    if (summary_to_stdout) print_level(stdout, &m.lv);
    fflush(rep);
    int spawns[4096], spawn_count = 0, n = m.lv.spawn_count;
    if (o->only_spawn >= 0) {
        if (o->only_spawn < n) spawns[spawn_count++] = o->only_spawn;
        else fprintf(stderr, "tread walk: %s has %d spawns: no spawn %d\n", m.lv.name, n, o->only_spawn);
    } else if (o->max_spawns > 0 && n > o->max_spawns) {
        for (int j = 0; j < o->max_spawns && j < 4096; ++j) spawns[spawn_count++] = (int)((long)j * n / o->max_spawns); // spread over the list
    } else {
        for (int i = 0; i < n && i < 4096; ++i) spawns[spawn_count++] = i;
    }
    int capacity = (spawn_count + 1) * WALK_SHAPES * TREAD_STEP_STRATEGY_COUNT, count = 0;
    walk_run *runs = calloc((size_t)capacity, sizeof *runs);
    if (!runs) {
        walk_map_free(&m);
        return false;
    }
    // The batched runs (the longest) first, so that the threads finish together.
    for (int pass = 0; pass < 2; ++pass)
        for (int strategy = 0; strategy < TREAD_STEP_STRATEGY_COUNT; ++strategy)
            for (int shape = 0; shape < WALK_SHAPES; ++shape) {
                if (!(o->strategy_mask >> strategy & 1u) || !(o->shape_mask >> shape & 1u)) continue;
                if (pass == 0 && o->batch && n > 0) runs[count].spawn = -1, runs[count].shape = shape, runs[count++].strategy = strategy;
                for (int i = 0; pass == 1 && o->alone && i < spawn_count; ++i)
                    runs[count].spawn = spawns[i], runs[count].shape = shape, runs[count++].strategy = strategy;
            }
    run_all(&m, o, runs, count);
    long map_counts[WALK_SHAPES][WALK_KIND_COUNT], map_faults[WALK_SHAPES][WALK_GROUND_FAULT_COUNT];
    long map_frames[WALK_SHAPES] = {0}, map_deaths[WALK_SHAPES] = {0}, map_launches[WALK_SHAPES] = {0}, map_teleports[WALK_SHAPES] = {0},
         map_movers[WALK_SHAPES] = {0}, map_opens[WALK_SHAPES] = {0};
    memset(map_counts, 0, sizeof map_counts);
    memset(map_faults, 0, sizeof map_faults);
    for (int r = 0; r < count; ++r) {
        walk_run *run = &runs[r];
        if (run->failed) {
            fprintf(rep, "  %s %s %s spawn %d: could not run: %s\n", m.lv.name, walk_shape_names[run->shape],
                    tread_step_strategy_name((tread_step_strategy)run->strategy), run->spawn, run->message);
            *failed = true;
            continue;
        }
        for (int k = 0; k < WALK_KIND_COUNT; ++k) map_counts[run->shape][k] += run->counts[k];
        for (int f = 0; f < WALK_GROUND_FAULT_COUNT; ++f) map_faults[run->shape][f] += run->ground_faults[f];
        all->frames[run->shape] += run->frames;
        all->deaths[run->shape] += run->deaths;
        map_frames[run->shape] += run->frames;
        map_deaths[run->shape] += run->deaths;
        map_launches[run->shape] += run->launches;
        map_teleports[run->shape] += run->teleports;
        map_movers[run->shape] += run->mover_frames;
        map_opens[run->shape] += run->mover_opens;
        all->moves += run->moves;
        all->move_seconds += run->move_seconds;
        for (int i = 0; i < run->kept_count; ++i) {
            const walk_failure *f = &run->kept[i];
            fprintf(rep, "  FAIL %s spawn %d %s %s%s seed %llu frame %d feet (%.4f, %.4f, %.4f) %s %.4f: %s", m.lv.name, f->spawn,
                    walk_shape_names[f->shape], tread_step_strategy_name((tread_step_strategy)f->strategy), f->batch ? " batch" : "",
                    (unsigned long long)o->seed, f->frame, f->feet.x, f->feet.y, f->feet.z, walk_kind_name(f->kind), f->value, f->detail);
            if (!f->batch)
                fprintf(rep, " [tread walk %s --spawn %d --shape %s --strategy %s --seed %llu --seconds %g --hz %g --trace]", m.lv.name, f->spawn,
                        walk_shape_names[f->shape], tread_step_strategy_name((tread_step_strategy)f->strategy), (unsigned long long)o->seed,
                        o->seconds, o->hz);
            fprintf(rep, "\n");
        }
        walk_run_free(run);
    }
    for (int shape = 0; shape < WALK_SHAPES; ++shape) {
        if (!(o->shape_mask >> shape & 1u)) continue;
        for (int k = 0; k < WALK_KIND_COUNT; ++k) all->counts[shape][k] += map_counts[shape][k];
        for (int f = 0; f < WALK_GROUND_FAULT_COUNT; ++f) all->faults[shape][f] += map_faults[shape][f];
        all->launches[shape] += map_launches[shape];
        all->teleports[shape] += map_teleports[shape];
        all->movers[shape] += map_movers[shape];
        all->opens[shape] += map_opens[shape];
        FILE *outs[2] = {rep, summary_to_stdout ? stdout : NULL};
        for (int j = 0; j < 2 && outs[j]; ++j) {
            fprintf(outs[j], "  totals %s %s: %ld frames, %ld deaths, %ld jump pad launches, %ld teleports, %ld frames on movers, "
                             "%ld movers opened;",
                    m.lv.name, walk_shape_names[shape], map_frames[shape], map_deaths[shape], map_launches[shape], map_teleports[shape],
                    map_movers[shape], map_opens[shape]);
            print_counts(outs[j], map_counts[shape], map_faults[shape]);
            fprintf(outs[j], "\n");
        }
        if (counts_fail(map_counts[shape], o->not_fatal)) *failed = true;
    }
    fflush(rep);
    free(runs);
    walk_map_free(&m);
    return true;
}

int walk_command(int argc, char **argv) {
    walk_options o;
    memset(&o, 0, sizeof o);
    o.pk3 = LEVEL_DEFAULT_PK3;
    o.seconds = 60.0, o.hz = 60.0, o.seed = 1, o.only_spawn = -1, o.shape_mask = 3u, o.strategy_mask = 1u << TREAD_STEP_SWEEP;
    o.alone = true, o.jobs = 1, o.keep = 3, o.movers = true;
    const char *report = NULL;
    bool all_maps = false, info = false, list = false, scene = false;
    const char **maps = calloc((size_t)argc + 1, sizeof *maps);
    int map_count = 0;
    if (!maps) return EXIT_BAD_INPUT;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            free(maps);
            return 0;
        } else if (!strcmp(a, "--all")) all_maps = true;
        else if (!strcmp(a, "--batch")) o.batch = true;
        else if (!strcmp(a, "--batch-only")) o.batch = true, o.alone = false;
        else if (!strcmp(a, "--trace")) o.trace = true;
        else if (!strcmp(a, "--movers")) o.movers = true;
        else if (!strcmp(a, "--no-movers")) o.movers = false;
        else if (!strcmp(a, "--info")) info = true;
        else if (!strcmp(a, "--list")) list = true;
        else if (!strcmp(a, "--scene")) scene = true;
        else if (!strcmp(a, "--not-fatal") && has) {
            if (!parse_kinds(argv[++i], &o.not_fatal)) goto bad_value;
        } else if (!strcmp(a, "--pk3") && has) o.pk3 = argv[++i];
        else if (!strcmp(a, "--report") && has) report = argv[++i];
        else if (!strcmp(a, "--shape") && has) {
            if (!parse_shapes(argv[++i], &o.shape_mask)) goto bad_value;
        } else if (!strcmp(a, "--strategy") && has) {
            if (!parse_strategies(argv[++i], &o.strategy_mask)) goto bad_value;
        } else if (!strcmp(a, "--seconds") && has) {
            o.seconds = atof(argv[++i]);
            if (!(o.seconds > 0.0 && o.seconds <= 86400.0)) goto bad_value;
        } else if (!strcmp(a, "--hz") && has) {
            o.hz = atof(argv[++i]);
            if (!(o.hz >= 1.0 && o.hz <= 1000.0)) goto bad_value;
        } else if (!strcmp(a, "--seed") && has) o.seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--spawns") && has) {
            o.max_spawns = atoi(argv[++i]);
            if (o.max_spawns < 1) goto bad_value;
        } else if (!strcmp(a, "--spawn") && has) {
            o.only_spawn = atoi(argv[++i]);
            if (o.only_spawn < 0) goto bad_value;
        } else if (!strcmp(a, "--jobs") && has) {
            o.jobs = atoi(argv[++i]);
            if (o.jobs < 1 || o.jobs > 64) goto bad_value;
        } else if (!strcmp(a, "--keep") && has) {
            o.keep = atoi(argv[++i]);
            if (o.keep < 0) goto bad_value;
        } else if (a[0] == '-') {
            fprintf(stderr, "tread walk: unknown option %s (or its value is missing)\n%s", a, usage);
            free(maps);
            return EXIT_BAD_INPUT;
        } else maps[map_count++] = a;
        continue;
    bad_value:
        fprintf(stderr, "tread walk: %s %s: bad value\n%s", a, argv[i], usage);
        free(maps);
        return EXIT_BAD_INPUT;
    }
    char err[512];
    char **names = NULL;
    int name_count = 0;
    if (list || scene) {
        int status = 0;
        if (list) {
            if (!(names = level_list_maps(o.pk3, &name_count, err, sizeof err))) {
                fprintf(stderr, "tread walk: %s\n", err);
                status = EXIT_BAD_INPUT;
            }
            for (int i = 0; i < name_count; ++i) printf("%s\n", names[i]);
            level_free_names(names, name_count);
        } else if (map_count != 1 || all_maps) {
            fprintf(stderr, "tread walk: --scene takes one MAP\n%s", usage);
            status = EXIT_BAD_INPUT;
        } else {
            bool bsp = strlen(maps[0]) > 4 && !strcmp(maps[0] + strlen(maps[0]) - 4, ".bsp");
            if (!walk_write_scene(bsp ? maps[0] : o.pk3, bsp ? NULL : maps[0], &o, stdout, err, sizeof err)) {
                fprintf(stderr, "tread walk: %s\n", err);
                status = EXIT_BAD_INPUT;
            }
        }
        free(maps);
        return status;
    }
    if (all_maps) {
        names = level_list_maps(o.pk3, &name_count, err, sizeof err);
        if (!names) {
            fprintf(stderr, "tread walk: %s\n", err);
            free(maps);
            return EXIT_BAD_INPUT;
        }
    }
    if (map_count == 0 && name_count == 0) {
        fprintf(stderr, "tread walk: no map given (MAP or --all)\n%s", usage);
        free(maps);
        return EXIT_BAD_INPUT;
    }
    FILE *rep = stdout;
    if (report && !(rep = fopen(report, "w"))) {
        fprintf(stderr, "tread walk: cannot write %s\n", report);
        level_free_names(names, name_count);
        free(maps);
        return EXIT_BAD_INPUT;
    }
    bool to_stdout = rep != stdout;
    int total = map_count + name_count;
    char strategies[128] = "";
    for (int s = 0; s < TREAD_STEP_STRATEGY_COUNT; ++s)
        if (o.strategy_mask >> s & 1u) snprintf(strategies + strlen(strategies), sizeof strategies - strlen(strategies), "%s%s", strategies[0] ? "," : "",
                                                tread_step_strategy_name((tread_step_strategy)s));
    FILE *heads[2] = {rep, to_stdout ? stdout : NULL};
    for (int j = 0; j < 2 && heads[j] && !info; ++j)
        fprintf(heads[j], "walk: %d maps, shapes %s, strategies %s, %g s at %g Hz, seed %llu, %s%s, %s, %d jobs\n", total,
                o.shape_mask == 3u ? "box,capsule" : walk_shape_names[o.shape_mask == 1u ? 0 : 1], strategies, o.seconds, o.hz,
                (unsigned long long)o.seed, o.alone ? "alone" : "", o.batch ? (o.alone ? " and batched" : "batched") : "",
                o.movers ? "movers" : "no movers", o.jobs);
    totals all;
    memset(&all, 0, sizeof all);
    bool failed = false, bad = false;
    for (int i = 0; i < total; ++i) {
        const char *name = i < map_count ? maps[i] : names[i - map_count];
        bool bsp = strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".bsp");
        if (info) {
            level lv;
            if (!level_load(bsp ? name : o.pk3, bsp ? NULL : name, &lv, err, sizeof err)) {
                fprintf(stderr, "tread walk: %s\n", err);
                bad = true;
            } else print_level(rep, &lv);
            level_free(&lv);
            continue;
        }
        if (!walk_one_map(bsp ? name : o.pk3, bsp ? NULL : name, &o, rep, to_stdout, &all, &failed)) bad = true;
    }
    for (int j = 0; j < 2 && heads[j] && !info; ++j) {
        for (int shape = 0; shape < WALK_SHAPES; ++shape) {
            if (!(o.shape_mask >> shape & 1u)) continue;
            fprintf(heads[j], "overall %s: %ld frames, %ld deaths, %ld jump pad launches, %ld teleports, %ld frames on movers, "
                              "%ld movers opened;",
                    walk_shape_names[shape], all.frames[shape], all.deaths[shape], all.launches[shape], all.teleports[shape],
                    all.movers[shape], all.opens[shape]);
            print_counts(heads[j], all.counts[shape], all.faults[shape]);
            fprintf(heads[j], "\n");
        }
        if (all.moves > 0)
            fprintf(heads[j], "moves: %ld, %.2f us a move (wall time in tread_character_move / tread_batch_move per character)\n", all.moves,
                    1e6 * all.move_seconds / (double)all.moves);
    }
    if (rep != stdout) fclose(rep);
    level_free_names(names, name_count);
    free(maps);
    return bad ? EXIT_BAD_INPUT : (failed ? EXIT_FAILED : 0);
}
