// SPDX-License-Identifier: MIT
// tread: run, score and plot scene files.
//   tread run SCENE.json [--strategy NAME] [--set field=value ...] [--trace out.csv] [--plot out.svg] [--json]
//   tread suite DIR [--strategy NAME|all] [--plots DIR] [--json]
//   tread gen DIR [--family F] [--shape S] [--rate HZ] [--case NAME]
//   tread walk [MAP ...|--all] [--shape S] [--strategy NAME|all] [--seconds S] [--batch] [--jobs N] [--report FILE] (tools/levels/)
//   tread matrix [--sample N --seed S] [--families ...] [--strategies ...] [--shapes ...] [--rates ...] [--jobs N] [--markdown FILE]
// Exit status: 0 every check passed, 1 a check failed, 2 bad input (unreadable scene, bad option).
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tread_scene.h"
#include "walk.h"
#ifdef TREAD_HAVE_BULLET
#include "run_engine_bullet.h"
#endif

// A long scene's progress line (rewritten in place with a carriage return) goes to a terminal only: in a log file or
// CI's output every rewrite would be a line of its own.
static bool progress_wanted(void) { return isatty(fileno(stderr)) != 0; }

#define EXIT_CHECK_FAILED 1
#define EXIT_BAD_INPUT 2
#define MAX_SETS 64

static const char *const run_usage =
    "usage: tread run SCENE.json [options]\n"
    "Run one scene, print its metrics and each check's pass/fail; exit 1 if a check fails, 2 on bad input.\n"
    "  --strategy NAME     step strategy for every character (default: the scene's settings)\n"
    "  --set field=value   override a character setting (any tread_character_settings field), a motor setting\n"
    "                      (motor.field=value, any tread_motor_settings field) or dt; repeatable\n"
    "  --trace FILE.csv    write every frame of every character (columns: docs/SCENES.md)\n"
    "  --plot FILE.svg     write the plot: side and/or top view (the scene's \"plot\" field), legend, height over time\n"
    "  --json              print one JSON object (metrics, checks, final state of every character) instead of text\n"
    "  --up X,Y,Z          run the whole scene rotated so that its up becomes (X,Y,Z); checks read it rotated back\n"
    "  --backend NAME      the engine the moves query: tread (default) or bullet (when built with Bullet; the level\n"
    "                      is built into a btCollisionWorld, docs/BACKENDS.md)\n";

static const char *const suite_usage =
    "usage: tread suite DIR [options]\n"
    "Run every scene under DIR (recursively) and print a table scene x strategy with pass/fail and the key metric;\n"
    "exit 1 if any check fails, 2 on bad input.\n"
    "  --strategy NAME|all step strategies to run (default: sweep)\n"
    "  --plots DIR         write each run's plot to DIR/<scene>[-<strategy>].svg\n"
    "  --up X,Y,Z          run every scene rotated so that its up becomes (X,Y,Z)\n"
    "  --slow              also run the scenes marked \"slow\" (skipped by default: too long for the test suite)\n"
    "  --backend NAME      the engine the moves query: tread (default) or bullet (when built with Bullet)\n"
    "  --markdown          print the table as Markdown (docs/STRATEGIES.md is made from it)\n"
    "  --json              print one JSON array of runs instead of the table\n";

static const char *const gen_usage =
    "usage: tread gen DIR [options]\n"
    "Write the generated scene matrix's cases (docs/STRATEGIES.md) as scene files DIR/<case>.json.\n"
    "  --family F          stairs, slopes, ledges, steps, lifts, max_slope, curbs, tilted_treads, micro_steps or\n"
    "                      angled_stairs (default: all; repeatable)\n"
    "  --shape S           capsule, sphere or box (default: all; repeatable)\n"
    "  --rate HZ           30, 60, 120 or 240 (default 60)\n"
    "  --case NAME         only this case (its name, as `tread matrix` prints it, gives the rate)\n";

static const char *const matrix_usage =
    "usage: tread matrix [options]\n"
    "Generate and run the scene matrix: every case at 30/60/120/240 Hz, up +Y and tilted, every step strategy and\n"
    "shape. Prints per strategy and shape the runs, passes and failures by family and check (worst value, one\n"
    "failing run to reproduce). Exit 1 when the default strategy (sweep) fails anything, 2 on bad input.\n"
    "  --sample N --seed S  run N runs chosen by seed S (the same ones every time)\n"
    "  --families A,B       --strategies A,B   --shapes A,B   --rates 30,60   (default: all)\n"
    "  --up-only            up = +Y only (no tilted up vector)\n"
    "  --jobs N             worker processes (default 2)\n"
    "  --invariants-fatal   exit 1 also when any strategy breaks an invariant (finite, penetration, max rise)\n"
    "  --known FILE         runs of the default strategy known to fail (one label a line, as --failures prints\n"
    "                       them after FAIL): reported, not fatal; any other sweep failure still is\n"
    "  --list               print the case names and the counts, run nothing\n"
    "  --failures           print every failing run (name, the check that missed most, what it measured)\n"
    "  --markdown FILE      write the summary tables (make matrix puts them in docs/STRATEGIES.md)\n";

// The engine --backend names: tread's own world (NULL) or one built in. False, with the names known, for another.
static bool engine_named(const char *command, const char *name, const run_engine **out) {
    *out = NULL;
    if (!strcmp(name, "tread")) return true;
#ifdef TREAD_HAVE_BULLET
    if (!strcmp(name, run_engine_bullet.name)) return *out = &run_engine_bullet, true;
    fprintf(stderr, "tread %s: unknown backend '%s' (known: tread, bullet)\n", command, name);
#else
    fprintf(stderr, "tread %s: unknown backend '%s' (known: tread; bullet needs a build with Bullet, libbullet-dev)\n", command, name);
#endif
    return false;
}

static void print_usage(FILE *f) {
    fprintf(f, "tread: run, score and plot character-controller scenes\n\n%s\n%s\n%s\n%s\n%s", run_usage, suite_usage, gen_usage, matrix_usage,
            "usage: tread walk [MAP ...|--all] [options]   (Quake III levels, docs/LEVELS.md; tread walk --help)\n"
            "usage: tread --version                         (the library's version; CHANGELOG.md says what changed)\n");
}

// `tread --version`: the library's version as linked (tread_version()), and the headers' when they differ (a tool
// built against one release and run with another's shared library).
static int print_version(void) {
    tread_version_info v = tread_version();
    printf("tread %d.%d.%d\n", v.major, v.minor, v.patch);
    if (v.major != TREAD_VERSION_MAJOR || v.minor != TREAD_VERSION_MINOR || v.patch != TREAD_VERSION_PATCH) {
        printf("(built with the headers of tread %d.%d.%d)\n", TREAD_VERSION_MAJOR, TREAD_VERSION_MINOR, TREAD_VERSION_PATCH);
        return 1;
    }
    return 0;
}

// "a,b,c" against a NULL-terminated name list -> bit mask; false on an unknown name.
static bool parse_names(const char *text, const char *const *names, unsigned *mask, const char *what) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = -1;
        for (int i = 0; names[i]; ++i)
            if (!strcmp(names[i], tok)) found = i;
        if (found < 0) {
            fprintf(stderr, "tread: unknown %s '%s' (known:", what, tok);
            for (int i = 0; names[i]; ++i) fprintf(stderr, " %s", names[i]);
            fprintf(stderr, ")\n");
            return false;
        }
        *mask |= 1u << found;
    }
    return true;
}

static int rate_bit(int hz) {
    for (int r = 0; gen_rates[r]; ++r)
        if (gen_rates[r] == hz) return r;
    return -1;
}

static int command_gen(int argc, char **argv) {
    const char *dir = NULL, *only = NULL;
    unsigned families = 0, shapes = 0;
    int rate = 60;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(gen_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--family") && has_value) {
            if (!parse_names(argv[++i], gen_family_names, &families, "family")) return EXIT_BAD_INPUT;
        } else if (!strcmp(a, "--shape") && has_value) {
            if (!parse_names(argv[++i], gen_shape_names, &shapes, "shape")) return EXIT_BAD_INPUT;
        } else if (!strcmp(a, "--rate") && has_value) {
            rate = atoi(argv[++i]);
            if (rate_bit(rate) < 0) {
                fprintf(stderr, "tread gen: --rate %s: expected 30, 60, 120 or 240\n", argv[i]);
                return EXIT_BAD_INPUT;
            }
        } else if (!strcmp(a, "--case") && has_value) {
            only = argv[++i];
        } else if (a[0] == '-' || dir) {
            fprintf(stderr, "tread gen: unexpected argument '%s'\n%s", a, gen_usage);
            return EXIT_BAD_INPUT;
        } else {
            dir = a;
        }
    }
    if (!dir) {
        fprintf(stderr, "tread gen: no directory given\n%s", gen_usage);
        return EXIT_BAD_INPUT;
    }
    if (!families) families = ~0u;
    if (!shapes) shapes = ~0u;
    char message[1024] = "";
    int written = 0;
    if (only) {
        // The name ends in -<rate>hz: try each rate.
        for (int r = 0; gen_rates[r] && written == 0; ++r) {
            written = gen_write(dir, families, shapes, gen_rates[r], only, message, sizeof message);
            if (written < 0) break;
        }
    } else {
        written = gen_write(dir, families, shapes, rate, NULL, message, sizeof message);
    }
    if (written < 0) {
        fprintf(stderr, "tread gen: %s\n", message);
        return EXIT_BAD_INPUT;
    }
    if (written == 0) {
        fprintf(stderr, "tread gen: no case%s%s\n", only ? " named " : " selected", only ? only : "");
        return EXIT_BAD_INPUT;
    }
    printf("wrote %d scene file%s to %s\n", written, written == 1 ? "" : "s", dir);
    return 0;
}

static int command_matrix(int argc, char **argv) {
    matrix_options o;
    memset(&o, 0, sizeof o);
    o.jobs = 2;
    o.up_count = 2;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(matrix_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--sample") && has_value) {
            o.sample = atol(argv[++i]);
        } else if (!strcmp(a, "--seed") && has_value) {
            o.seed = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(a, "--jobs") && has_value) {
            o.jobs = atoi(argv[++i]);
        } else if (!strcmp(a, "--markdown") && has_value) {
            o.markdown = argv[++i];
        } else if ((!strcmp(a, "--families") || !strcmp(a, "--family")) && has_value) {
            if (!parse_names(argv[++i], gen_family_names, &o.family_mask, "family")) return EXIT_BAD_INPUT;
        } else if ((!strcmp(a, "--strategies") || !strcmp(a, "--strategy")) && has_value) {
            if (!parse_names(argv[++i], scene_strategy_names(), &o.strategy_mask, "strategy")) return EXIT_BAD_INPUT;
        } else if ((!strcmp(a, "--shapes") || !strcmp(a, "--shape")) && has_value) {
            if (!parse_names(argv[++i], gen_shape_names, &o.shape_mask, "shape")) return EXIT_BAD_INPUT;
        } else if ((!strcmp(a, "--rates") || !strcmp(a, "--rate")) && has_value) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", argv[++i]);
            for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                int r = rate_bit(atoi(tok));
                if (r < 0) {
                    fprintf(stderr, "tread matrix: rate '%s': expected 30, 60, 120 or 240\n", tok);
                    return EXIT_BAD_INPUT;
                }
                o.rate_mask |= 1u << r;
            }
        } else if (!strcmp(a, "--up-only")) {
            o.up_count = 1;
        } else if (!strcmp(a, "--invariants-fatal")) {
            o.invariants_fatal = true;
        } else if (!strcmp(a, "--known") && has_value) {
            o.known = argv[++i];
        } else if (!strcmp(a, "--list")) {
            o.list = true;
        } else if (!strcmp(a, "--failures")) {
            o.failures = true;
        } else {
            fprintf(stderr, "tread matrix: unexpected argument '%s'%s\n%s", a, a[0] == '-' && !has_value ? " (missing its value?)" : "", matrix_usage);
            return EXIT_BAD_INPUT;
        }
    }
    if (!o.family_mask) o.family_mask = ~0u;
    if (!o.strategy_mask) o.strategy_mask = ~0u;
    if (!o.shape_mask) o.shape_mask = ~0u;
    if (!o.rate_mask) o.rate_mask = ~0u;
    if (o.jobs < 1 || o.jobs > 64) {
        fprintf(stderr, "tread matrix: --jobs %d: expected 1 .. 64\n", o.jobs);
        return EXIT_BAD_INPUT;
    }
    return matrix_run(&o);
}

// "X,Y,Z" -> a non-zero direction.
static bool parse_up(const char *text, tread_vec3 *out) {
    float x, y, z;
    char tail;
    if (sscanf(text, "%f,%f,%f%c", &x, &y, &z, &tail) != 3) return false;
    *out = tread_v3(x, y, z);
    return tread_v3_is_finite(*out) && tread_v3_length(*out) > 1e-6f;
}

// ---- one scene ----------------------------------------------------------------------------------------------

typedef struct outcome {
    int results_count;
    check_result results[SCENE_MAX_RESULTS];
    bool passed;
    int pending; // results that failed as their "pending" mark expects (counted as passed)
    char key_text[SCENE_NAME_MAX + 128]; // "<check name>: <value with label and unit>", the first failure's if any
} outcome;

static bool run_one(const scene *s, const run_options *o, run_trace *trace, outcome *out, char *message, size_t size) {
    if (!run_scene(s, o, trace, message, size)) return false;
    out->results_count = run_checks(s, trace, out->results, SCENE_MAX_RESULTS);
    out->passed = true;
    out->pending = 0;
    int key = -1;
    for (int i = 0; i < out->results_count; ++i) {
        out->passed &= out->results[i].passed;
        out->pending += out->results[i].pending;
        if (key < 0 && out->results[i].key) key = i;
    }
    if (key < 0 && s->check_count > 0) key = 0;
    // A failing scene shows its first failure and what was measured instead of the key metric.
    for (int i = 0; i < out->results_count; ++i)
        if (!out->results[i].passed) {
            key = i;
            break;
        }
    // A passing scene with expected failures shows the first of them.
    for (int i = 0; out->passed && i < out->results_count; ++i)
        if (out->results[i].pending) {
            key = i;
            break;
        }
    if (key >= 0) snprintf(out->key_text, sizeof out->key_text, "%s: %s", out->results[key].name, out->results[key].value_text);
    else snprintf(out->key_text, sizeof out->key_text, "-");
    return true;
}

// A crowd scene's timing (printed, never judged: it depends on the machine): the characters' moves per frame, the
// slowest frame's, and whole frames (the world, the moves, the runner's own probes and overlap measure).
static void timing_text(const scene *s, const run_trace *t, char *out, size_t size) {
    double frames = t->frame_count > 0 ? (double)t->frame_count : 1.0;
    snprintf(out, size, "timing: %d characters %s: moves %.3f ms a frame (slowest %.3f ms), whole frames %.3f ms", s->character_count,
             t->batched ? "moved together" : "moved one by one", 1e3 * t->move_seconds / frames, 1e3 * t->move_seconds_max,
             1e3 * t->frame_seconds / frames);
}

static cJSON *outcome_json(const scene *s, const run_trace *t, const outcome *o, const char *strategy) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scene", s->name);
    cJSON_AddStringToObject(root, "path", s->path);
    cJSON_AddStringToObject(root, "strategy", strategy ? strategy : "sweep");
    cJSON_AddBoolToObject(root, "passed", o->passed);
    cJSON_AddNumberToObject(root, "frames", t->frame_count);
    cJSON_AddNumberToObject(root, "dt", t->dt);
    // The run's fingerprints (run_trace_hash): the web tests compare the WebAssembly build's with these.
    uint64_t characters, bodies;
    char hex[17];
    run_trace_hash(t, NULL, &characters, &bodies);
    snprintf(hex, sizeof hex, "%016" PRIx64, characters);
    cJSON_AddStringToObject(root, "trace_hash", hex);
    snprintf(hex, sizeof hex, "%016" PRIx64, bodies);
    cJSON_AddStringToObject(root, "body_hash", hex);
    // The library call that stopped the run, or null.
    if (t->failure.failed) {
        cJSON *f = cJSON_AddObjectToObject(root, "failure");
        // character -1: a call on the world (moving its bodies), not on a character.
        cJSON_AddStringToObject(f, "character", t->failure.character >= 0 ? s->characters[t->failure.character].name : "world");
        cJSON_AddNumberToObject(f, "frame", t->failure.frame);
        cJSON_AddNumberToObject(f, "t", t->failure.t);
        cJSON_AddStringToObject(f, "call", t->failure.call);
        cJSON_AddStringToObject(f, "code", tread_result_name(t->failure.code));
        cJSON_AddStringToObject(f, "message", t->failure.message);
    } else {
        cJSON_AddNullToObject(root, "failure");
    }
    cJSON *checks = cJSON_AddArrayToObject(root, "checks");
    for (int i = 0; i < o->results_count; ++i) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", o->results[i].name);
        cJSON_AddBoolToObject(c, "passed", o->results[i].passed);
        cJSON_AddBoolToObject(c, "pending", o->results[i].pending); // failed as its "pending" mark expects
        cJSON_AddNumberToObject(c, "value", isfinite(o->results[i].value) ? o->results[i].value : -1.0);
        cJSON_AddStringToObject(c, "value_text", o->results[i].value_text);
        cJSON_AddStringToObject(c, "detail", o->results[i].detail);
        cJSON_AddItemToArray(checks, c);
    }
    if (s->crowd_count > 0) {
        cJSON *timing = cJSON_AddObjectToObject(root, "timing");
        double frames = t->frame_count > 0 ? (double)t->frame_count : 1.0;
        cJSON_AddBoolToObject(timing, "batched", t->batched);
        cJSON_AddNumberToObject(timing, "move_ms_per_frame", 1e3 * t->move_seconds / frames);
        cJSON_AddNumberToObject(timing, "move_ms_slowest_frame", 1e3 * t->move_seconds_max);
        cJSON_AddNumberToObject(timing, "frame_ms_per_frame", 1e3 * t->frame_seconds / frames);
    }
    cJSON *chars = cJSON_AddArrayToObject(root, "characters");
    for (int c = 0; c < t->character_count; ++c) {
        const tread_character *ch = &t->final[c];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", s->characters[c].name);
        double pos[3] = {ch->position.x, ch->position.y, ch->position.z}, vel[3] = {ch->velocity.x, ch->velocity.y, ch->velocity.z};
        cJSON_AddItemToObject(j, "position", cJSON_CreateDoubleArray(pos, 3));
        cJSON_AddItemToObject(j, "velocity", cJSON_CreateDoubleArray(vel, 3));
        cJSON_AddStringToObject(j, "ground", scene_ground_state_name(ch->ground.state));
        cJSON_AddItemToArray(chars, j);
    }
    return root;
}

static int command_run(int argc, char **argv) {
    const char *path = NULL, *trace_path = NULL, *plot_path = NULL;
    const char *sets[MAX_SETS];
    bool json = false;
    run_options o = {0};
    o.sets = sets;
    o.progress = progress_wanted();
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(run_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--strategy") && has_value) {
            o.strategy = argv[++i];
        } else if (!strcmp(a, "--backend") && has_value) {
            if (!engine_named("run", argv[++i], &o.engine)) return EXIT_BAD_INPUT;
        } else if (!strcmp(a, "--trace") && has_value) {
            trace_path = argv[++i];
        } else if (!strcmp(a, "--plot") && has_value) {
            plot_path = argv[++i];
        } else if (!strcmp(a, "--up") && has_value) {
            o.rotate_up = true;
            if (!parse_up(argv[++i], &o.up)) {
                fprintf(stderr, "tread run: --up %s: expected a non-zero direction X,Y,Z\n", argv[i]);
                return EXIT_BAD_INPUT;
            }
        } else if (!strcmp(a, "--set") && has_value) {
            const char *kv = argv[++i];
            if (!strncmp(kv, "dt=", 3)) {
                char *end = NULL;
                o.dt = strtof(kv + 3, &end);
                if (!end || *end || !(o.dt > 0.0f) || o.dt > 1.0f) {
                    fprintf(stderr, "tread run: --set %s: expected dt in (0, 1] seconds\n", kv);
                    return EXIT_BAD_INPUT;
                }
            } else if (o.set_count < MAX_SETS) {
                sets[o.set_count++] = kv;
            }
        } else if (a[0] == '-' || path) {
            fprintf(stderr, "tread run: unexpected argument '%s'%s\n%s", a, a[0] == '-' && !has_value ? " (missing its value?)" : "", run_usage);
            return EXIT_BAD_INPUT;
        } else {
            path = a;
        }
    }
    if (!path) {
        fprintf(stderr, "tread run: no scene file given\n%s", run_usage);
        return EXIT_BAD_INPUT;
    }
    scene s;
    scene_error err;
    if (!scene_load(path, &s, &err)) {
        fprintf(stderr, "tread run: %s\n", err.message);
        return EXIT_BAD_INPUT;
    }
    run_trace trace;
    static outcome out;
    char message[512] = "";
    if (!run_one(&s, &o, &trace, &out, message, sizeof message)) {
        fprintf(stderr, "tread run: %s\n", message);
        scene_free(&s);
        return EXIT_BAD_INPUT;
    }
    int status = out.passed ? 0 : EXIT_CHECK_FAILED;
    if ((trace_path && !write_trace_csv(&s, &trace, trace_path, message, sizeof message)) ||
        (plot_path && !plot_svg(&s, &trace, plot_path, message, sizeof message))) {
        fprintf(stderr, "tread run: %s\n", message);
        status = EXIT_BAD_INPUT;
    }
    if (json) {
        cJSON *root = outcome_json(&s, &trace, &out, o.strategy);
        char *text = cJSON_Print(root);
        puts(text);
        free(text);
        cJSON_Delete(root);
    } else {
        if (trace.failure.failed)
            printf("%s (%s): stopped after %d of %.0f frames at dt %.5f s\n", s.name, s.path, trace.frame_count,
                   scene_frame_count(s.duration, trace.dt), (double)trace.dt);
        else
            printf("%s (%s): %d frames at dt %.5f s\n", s.name, s.path, trace.frame_count, (double)trace.dt);
        for (int i = 0; i < out.results_count; ++i)
            printf("  %-5s %-32s %s\n", out.results[i].pending ? "xfail" : out.results[i].passed ? "pass" : "FAIL", out.results[i].name,
                   out.results[i].detail);
        for (int c = 0; c < trace.character_count; ++c) {
            const tread_character *ch = &trace.final[c];
            if (s.characters[c].crowd >= 0) continue; // a crowd's, summed up below
            printf("  final %s: feet (%.4f, %.4f, %.4f)\n", s.characters[c].name, (double)ch->position.x, (double)ch->position.y,
                   (double)ch->position.z);
        }
        for (int k = 0; k < s.crowd_count; ++k) {
            const scene_crowd *crowd = &s.crowds[k];
            double sum[3] = {0.0, 0.0, 0.0};
            for (int c = crowd->first; c < crowd->first + crowd->count && c < trace.character_count; ++c)
                sum[0] += trace.final[c].position.x, sum[1] += trace.final[c].position.y, sum[2] += trace.final[c].position.z;
            printf("  final crowd %s: %d characters, mean feet (%.4f, %.4f, %.4f)\n", crowd->name, crowd->count, sum[0] / crowd->count,
                   sum[1] / crowd->count, sum[2] / crowd->count);
        }
        if (s.crowd_count > 0) {
            char timing[256];
            timing_text(&s, &trace, timing, sizeof timing);
            printf("  %s\n", timing);
        }
        int failed = 0, pending = 0;
        for (int i = 0; i < out.results_count; ++i) failed += !out.results[i].passed, pending += out.results[i].pending;
        printf("%d of %d checks failed", failed, out.results_count);
        if (pending) printf(" (%d more failed as expected: pending)", pending);
        printf("\n");
    }
    run_trace_free(&trace);
    scene_free(&s);
    return status;
}

// ---- suites -----------------------------------------------------------------------------------------------------

typedef struct path_list {
    char **items;
    int count, capacity;
} path_list;

static int compare_paths(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// Every *.json under dir, recursively; sorted so runs are in a stable order.
static bool collect_scenes(const char *dir, path_list *list) {
    DIR *d = opendir(dir);
    if (!d) return false;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *full = (char *)malloc(len);
        if (!full) break;
        snprintf(full, len, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            collect_scenes(full, list);
            free(full);
            continue;
        }
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".json") != 0) {
            free(full);
            continue;
        }
        if (list->count == list->capacity) {
            list->capacity = list->capacity ? 2 * list->capacity : 32;
            list->items = (char **)realloc(list->items, sizeof(char *) * (size_t)list->capacity);
        }
        list->items[list->count++] = full;
    }
    closedir(d);
    qsort(list->items, (size_t)list->count, sizeof(char *), compare_paths);
    return true;
}

static int command_suite(int argc, char **argv) {
    const char *dir = NULL, *plots = NULL, *strategy = "sweep";
    bool json = false, rotate = false, markdown = false, slow = false;
    tread_vec3 up = tread_v3(0, 1, 0);
    const run_engine *engine = NULL;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(suite_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--markdown")) {
            markdown = true;
        } else if (!strcmp(a, "--slow")) {
            slow = true;
        } else if (!strcmp(a, "--strategy") && i + 1 < argc) {
            strategy = argv[++i];
        } else if (!strcmp(a, "--backend") && i + 1 < argc) {
            if (!engine_named("suite", argv[++i], &engine)) return EXIT_BAD_INPUT;
        } else if (!strcmp(a, "--plots") && i + 1 < argc) {
            plots = argv[++i];
        } else if (!strcmp(a, "--up") && i + 1 < argc) {
            rotate = true;
            if (!parse_up(argv[++i], &up)) {
                fprintf(stderr, "tread suite: --up %s: expected a non-zero direction X,Y,Z\n", argv[i]);
                return EXIT_BAD_INPUT;
            }
        } else if (a[0] == '-' || dir) {
            fprintf(stderr, "tread suite: unexpected argument '%s'\n%s", a, suite_usage);
            return EXIT_BAD_INPUT;
        } else {
            dir = a;
        }
    }
    if (!dir) {
        fprintf(stderr, "tread suite: no directory given\n%s", suite_usage);
        return EXIT_BAD_INPUT;
    }
    const char *const *all = scene_strategy_names();
    const char *chosen[16];
    int strategies = 0;
    if (!strcmp(strategy, "all")) {
        for (int i = 0; all[i] && strategies < 16; ++i) chosen[strategies++] = all[i];
    } else {
        bool known = false;
        for (int i = 0; all[i]; ++i) known |= !strcmp(all[i], strategy);
        if (!known) {
            fprintf(stderr, "tread suite: unknown strategy '%s' (known:", strategy);
            for (int i = 0; all[i]; ++i) fprintf(stderr, " %s", all[i]);
            fprintf(stderr, ", all)\n");
            return EXIT_BAD_INPUT;
        }
        chosen[strategies++] = strategy;
    }
    path_list list = {0};
    if (!collect_scenes(dir, &list) || list.count == 0) {
        fprintf(stderr, "tread suite: no scene files (*.json) under '%s'\n", dir);
        return EXIT_BAD_INPUT;
    }
    if (plots) mkdir(plots, 0777);
    int status = 0, passed = 0, failed = 0, skipped = 0, slow_skipped = 0, engine_skipped = 0;
    cJSON *runs = json ? cJSON_CreateArray() : NULL;
    if (markdown) {
        printf("| scene |");
        for (int k = 0; k < strategies; ++k) printf(" %s |", chosen[k]);
        printf("\n| --- |");
        for (int k = 0; k < strategies; ++k) printf(" --- |");
        printf("\n");
    } else if (!json) {
        printf("%-28s", "scene");
        for (int k = 0; k < strategies; ++k) printf(" | %-52s", chosen[k]);
        printf("\n");
    }
    for (int i = 0; i < list.count; ++i) {
        scene s;
        scene_error err;
        if (!scene_file_is_scene(list.items[i])) {
            // Other JSON sharing the folder (package.json, editor settings) is not a scene and not a failure.
            fprintf(json || markdown ? stderr : stdout, "skip  %s: not a scene file (no \"bodies\" or \"characters\")\n", list.items[i]);
            ++skipped;
            continue;
        }
        if (!scene_load(list.items[i], &s, &err)) {
            fprintf(stderr, "tread suite: %s\n", err.message);
            status = EXIT_BAD_INPUT;
            ++failed;
            continue;
        }
        if (s.slow && !slow) {
            fprintf(json || markdown ? stderr : stdout, "skip  %s: marked slow (tread run it, or tread suite --slow)\n", list.items[i]);
            ++slow_skipped;
            scene_free(&s);
            continue;
        }
        const char *unbuildable = engine && engine->cannot_build ? engine->cannot_build(&s) : NULL;
        if (unbuildable) {
            // Not a failure of the engine's answers: there is nothing it could be asked about.
            fprintf(json || markdown ? stderr : stdout, "skip  %s: the %s backend cannot build it: %s\n", list.items[i], engine->name, unbuildable);
            ++engine_skipped;
            scene_free(&s);
            continue;
        }
        if (markdown) printf("| %s |", s.name);
        else if (!json) printf("%-28s", s.name);
        static char timings[16][256];
        for (int k = 0; k < strategies; ++k) timings[k][0] = '\0';
        for (int k = 0; k < strategies; ++k) {
            run_options o = {0};
            o.strategy = chosen[k];
            o.progress = !json && progress_wanted();
            o.rotate_up = rotate;
            o.up = up;
            o.engine = engine;
            run_trace trace;
            static outcome out;
            char message[512] = "";
            if (!run_one(&s, &o, &trace, &out, message, sizeof message)) {
                if (markdown) printf(" ERROR |");
                else if (!json) printf(" | %-52s", "ERROR");
                fprintf(stderr, "tread suite: %s: %s\n", s.path, message);
                status = EXIT_BAD_INPUT;
                ++failed;
                continue;
            }
            if (out.passed) ++passed;
            else {
                ++failed;
                if (status == 0) status = EXIT_CHECK_FAILED;
            }
            if (plots) {
                char plot_path[1024];
                if (strategies > 1) snprintf(plot_path, sizeof plot_path, "%s/%s-%s.svg", plots, s.name, chosen[k]);
                else snprintf(plot_path, sizeof plot_path, "%s/%s.svg", plots, s.name);
                for (char *p = plot_path + strlen(plots) + 1; *p; ++p)
                    if (*p == ' ' || *p == '/') *p = '_';
                if (!plot_svg(&s, &trace, plot_path, message, sizeof message)) fprintf(stderr, "tread suite: %s\n", message);
            }
            if (json) cJSON_AddItemToArray(runs, outcome_json(&s, &trace, &out, chosen[k]));
            else if (markdown) printf(" %s %s |", !out.passed ? "**FAIL**" : out.pending ? "xfail" : "pass", out.key_text);
            else {
                char cell[SCENE_NAME_MAX + 140];
                snprintf(cell, sizeof cell, "%s %s", !out.passed ? "FAIL" : out.pending ? "xfail" : "pass", out.key_text);
                printf(" | %-52s", cell);
            }
            // A crowd scene's timing goes to the table's end of row, one line per strategy, below the row.
            if (s.crowd_count > 0 && !json && !markdown) timing_text(&s, &trace, timings[k], sizeof timings[k]);
            run_trace_free(&trace);
        }
        if (!json) printf("\n");
        for (int k = 0; k < strategies && s.crowd_count > 0 && !json && !markdown; ++k)
            if (timings[k][0]) printf("  %s%s%s\n", strategies > 1 ? chosen[k] : "", strategies > 1 ? ": " : "", timings[k]);
        scene_free(&s);
    }
    if (json) {
        char *text = cJSON_Print(runs);
        puts(text);
        free(text);
        cJSON_Delete(runs);
    } else if (markdown) {
        printf("\n%d of %d runs failed.\n", failed, passed + failed);
    } else {
        printf("%d of %d runs failed", failed, passed + failed);
        if (skipped) printf(" (%d file%s skipped: not scenes)", skipped, skipped == 1 ? "" : "s");
        if (slow_skipped) printf(" (%d slow scene%s skipped)", slow_skipped, slow_skipped == 1 ? "" : "s");
        if (engine_skipped)
            printf(" (%d scene%s skipped: the %s backend cannot build them)", engine_skipped, engine_skipped == 1 ? "" : "s", engine->name);
        printf("\n");
    }
    for (int i = 0; i < list.count; ++i) free(list.items[i]);
    free(list.items);
    return status;
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        print_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_BAD_INPUT : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version")) return print_version();
    if (!strcmp(argv[1], "run")) return command_run(argc - 2, argv + 2);
    if (!strcmp(argv[1], "suite")) return command_suite(argc - 2, argv + 2);
    if (!strcmp(argv[1], "gen")) return command_gen(argc - 2, argv + 2);
    if (!strcmp(argv[1], "matrix")) return command_matrix(argc - 2, argv + 2);
    if (!strcmp(argv[1], "walk")) return walk_command(argc - 2, argv + 2);
    fprintf(stderr, "tread: unknown command '%s'\n", argv[1]);
    print_usage(stderr);
    return EXIT_BAD_INPUT;
}
