// SPDX-License-Identifier: MIT
// The entity lump: a text of `{ "key" "value" ... }` blocks. What the walker uses: the spawn points
// (info_player_deathmatch, info_player_start), the trigger_hurt volumes (their brush model's bounds), the named
// points a trigger may target (any entity with a targetname and an origin). Movers, jump pads, teleporters and
// their targets are kept whole in level::skipped and counted by class; triggers.c then takes the jump pads and
// teleporters it can run out of the counts.
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_internal.h"

// The classes kept whole for triggers.c and movers.c: movers and what moves them (path corners, trigger_multiple,
// trigger_relay), jump pads and their targets, teleporters and their destinations. What they do not run stays
// counted as skipped.
static const char *const skipped_classes[] = {"func_door",       "func_plat",         "func_bobbing",         "func_rotating",
                                              "func_train",      "func_button",       "func_pendulum",        "path_corner",
                                              "trigger_multiple", "trigger_relay",    "trigger_push",         "target_push",
                                              "target_position", "trigger_teleport",  "misc_teleporter_dest", "target_teleporter"};

#define MAX_TOKEN 1024

typedef struct lexer {
    const char *p;
    int line;
} lexer;

// The next token: '{', '}' or a quoted string (into buf). 0 at the end, -1 on a malformed text.
static int next_token(lexer *lx, char *buf, size_t size) {
    for (;;) {
        while (*lx->p && isspace((unsigned char)*lx->p)) lx->line += *lx->p++ == '\n';
        if (lx->p[0] == '/' && lx->p[1] == '/') {
            while (*lx->p && *lx->p != '\n') ++lx->p;
            continue;
        }
        break;
    }
    if (!*lx->p) return 0;
    char c = *lx->p++;
    if (c == '{' || c == '}') {
        buf[0] = c, buf[1] = '\0';
        return 1;
    }
    if (c != '"') return -1;
    size_t n = 0;
    while (*lx->p && *lx->p != '"') {
        if (n + 1 >= size) return -1;
        lx->line += *lx->p == '\n';
        buf[n++] = *lx->p++;
    }
    if (*lx->p != '"') return -1;
    ++lx->p;
    buf[n] = '\0';
    return 2;
}

typedef struct entity_text {
    level_key_value *pairs;
    int count, capacity;
} entity_text;

static const char *value_of(const entity_text *e, const char *key) {
    for (int i = 0; i < e->count; ++i)
        if (!strcmp(e->pairs[i].key, key)) return e->pairs[i].value;
    return NULL;
}

static void free_pairs(level_key_value *pairs, int count) {
    for (int i = 0; i < count; ++i) free(pairs[i].key), free(pairs[i].value);
    free(pairs);
}

static char *dup_text(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static bool parse_vec3(const char *text, double out[3]) {
    return text && sscanf(text, "%lf %lf %lf", &out[0], &out[1], &out[2]) == 3 && isfinite(out[0]) && isfinite(out[1]) && isfinite(out[2]);
}

// The brush model "*N" names, checked against the models lump; -1 for none or a bad one.
static int model_index(const bsp_file *b, const char *text) {
    if (!text || text[0] != '*') return -1;
    char *end;
    long n = strtol(text + 1, &end, 10);
    return *end == '\0' && n > 0 && n < b->model_count ? (int)n : -1;
}

static bool add_spawn(level *lv, const entity_text *e, bool deathmatch, int line, char *err, size_t errsize) {
    double q[3];
    if (!parse_vec3(value_of(e, "origin"), q)) {
        snprintf(err, errsize, "%s: entity ending on line %d: %s has no readable origin \"x y z\"", lv->name, line,
                 deathmatch ? "info_player_deathmatch" : "info_player_start");
        return false;
    }
    level_spawn *grown = realloc(lv->spawns, ((size_t)lv->spawn_count + 1) * sizeof *grown);
    if (!grown) return false;
    lv->spawns = grown;
    level_spawn *s = &lv->spawns[lv->spawn_count++];
    memset(s, 0, sizeof *s);
    level_to_tread(q, s->origin);
    // The game lifts a spawn 9 units off its origin (SelectSpawnPoint) and the player's box reaches 24 units
    // below its origin: the feet start 15 units under the entity's origin, and it falls from there if that is air.
    double fq[3] = {q[0], q[1], q[2] + 9.0 - 24.0};
    level_to_tread(fq, s->feet);
    const char *angle = value_of(e, "angle");
    s->angle_degrees = angle ? atof(angle) : 0.0;
    s->deathmatch = deathmatch;
    return true;
}

static bool add_skipped(level *lv, const bsp_file *b, entity_text *e, const char *classname) {
    level_entity *grown = realloc(lv->skipped, ((size_t)lv->skipped_count + 1) * sizeof *grown);
    if (!grown) return false;
    lv->skipped = grown;
    level_entity *s = &lv->skipped[lv->skipped_count++];
    memset(s, 0, sizeof *s);
    snprintf(s->classname, sizeof s->classname, "%s", classname);
    s->model = model_index(b, value_of(e, "model"));
    if (s->model > 0) level_bounds_to_tread(b->models[s->model].mins, b->models[s->model].maxs, s->lo, s->hi);
    s->pairs = e->pairs; // the entity's pairs move into the level
    s->pair_count = e->count;
    e->pairs = NULL, e->count = e->capacity = 0;
    for (int i = 0; i < lv->skip_class_count; ++i)
        if (!strcmp(lv->skip_counts[i].classname, classname)) {
            ++lv->skip_counts[i].count;
            return true;
        }
    level_skip_count *counts = realloc(lv->skip_counts, ((size_t)lv->skip_class_count + 1) * sizeof *counts);
    if (!counts) return false;
    lv->skip_counts = counts;
    snprintf(counts[lv->skip_class_count].classname, sizeof counts[0].classname, "%s", classname);
    counts[lv->skip_class_count++].count = 1;
    return true;
}

// An entity a trigger may name: Quake's G_PickTarget takes any entity by its targetname.
static bool add_target(level *lv, const entity_text *e, const char *classname) {
    const char *name = value_of(e, "targetname");
    double q[3];
    if (!name || !parse_vec3(value_of(e, "origin"), q)) return true;
    level_target *grown = realloc(lv->targets, ((size_t)lv->target_count + 1) * sizeof *grown);
    if (!grown) return false;
    lv->targets = grown;
    level_target *t = &lv->targets[lv->target_count++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->classname, sizeof t->classname, "%s", classname);
    level_to_tread(q, t->origin);
    const char *angle = value_of(e, "angle");
    t->angle_degrees = angle ? atof(angle) : 0.0;
    return true;
}

static bool finish_entity(const bsp_file *b, level *lv, entity_text *e, int line, char *err, size_t errsize) {
    const char *classname = value_of(e, "classname");
    if (!classname) return true;
    if (!add_target(lv, e, classname)) return false;
    if (!strcmp(classname, "info_player_deathmatch") || !strcmp(classname, "info_player_start"))
        return add_spawn(lv, e, !strcmp(classname, "info_player_deathmatch"), line, err, errsize);
    if (!strcmp(classname, "trigger_hurt")) {
        int m = model_index(b, value_of(e, "model"));
        if (m < 0) return true; // a trigger with no brush model hurts nowhere
        double lo[3], hi[3];
        level_bounds_to_tread(b->models[m].mins, b->models[m].maxs, lo, hi);
        return level_add_hazard(lv, LEVEL_HAZARD_TRIGGER_HURT, lo, hi);
    }
    for (size_t i = 0; i < sizeof skipped_classes / sizeof skipped_classes[0]; ++i)
        if (!strcmp(classname, skipped_classes[i])) {
            char name[64];
            snprintf(name, sizeof name, "%s", classname); // e's pairs (and classname with them) move into the level
            return add_skipped(lv, b, e, name);
        }
    return true;
}

bool entities_parse(const bsp_file *b, level *lv, char *err, size_t errsize) {
    lexer lx = {b->entities, 1};
    char key[MAX_TOKEN], value[MAX_TOKEN];
    entity_text e = {NULL, 0, 0};
    bool ok = true;
    err[0] = '\0';
    for (;;) {
        int t = next_token(&lx, key, sizeof key);
        if (t == 0) break;
        if (t != 1 || key[0] != '{') {
            snprintf(err, errsize, "%s: entity lump, line %d: expected '{'", lv->name, lx.line);
            ok = false;
            break;
        }
        for (;;) {
            t = next_token(&lx, key, sizeof key);
            if (t == 1 && key[0] == '}') break;
            if (t != 2 || next_token(&lx, value, sizeof value) != 2) {
                snprintf(err, errsize, "%s: entity lump, line %d: expected a quoted key and value or '}'", lv->name, lx.line);
                ok = false;
                break;
            }
            if (e.count == e.capacity) {
                int cap = e.capacity ? 2 * e.capacity : 16;
                level_key_value *grown = realloc(e.pairs, (size_t)cap * sizeof *grown);
                if (!grown) {
                    ok = false;
                    break;
                }
                e.pairs = grown, e.capacity = cap;
            }
            e.pairs[e.count].key = dup_text(key);
            e.pairs[e.count].value = dup_text(value);
            if (!e.pairs[e.count].key || !e.pairs[e.count].value) {
                free(e.pairs[e.count].key), free(e.pairs[e.count].value);
                ok = false;
                break;
            }
            ++e.count;
        }
        if (!ok) break;
        ok = finish_entity(b, lv, &e, lx.line, err, errsize);
        free_pairs(e.pairs, e.count);
        e.pairs = NULL, e.count = e.capacity = 0;
        if (!ok) break;
    }
    free_pairs(e.pairs, e.count);
    if (!ok && !err[0]) snprintf(err, errsize, "%s: out of memory reading the entities", lv->name);
    return ok;
}
