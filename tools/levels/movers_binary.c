// SPDX-License-Identifier: MIT
// Doors, plats and buttons: Quake III's binary movers (g_mover.c), which rest at pos1, move to pos2 when used, wait
// there and come back. This file reads their positions and what uses them; the walker runs them (walk_doors.c).
//   func_door: moves along its "angle" (-1 up, -2 down, else that yaw) by its size along the way less "lip"
//   (default 8 units), at "speed" (default 400 units/s), waits "wait" seconds (default 2; negative: stays open, as
//   the editor's documentation promises; the game's code would close it at once). Spawnflags 1 (START_OPEN) swaps
//   the two positions: it rests open and closes when used. Spawnflags 4 (CRUSHER): goes on when blocked (others
//   reverse). A door with no "targetname" and no "health" gets Quake's trigger box (Think_SpawnNewDoorTrigger):
//   its team's bounds (each one grown by 1 unit, as the server links them) grown by 120 units both ways along
//   their thinnest axis. One with a targetname is opened by whatever names it; one with health is shot open, which
//   the walker never does.
//   func_plat: its model is built raised (pos2 = origin) and it rests lowered by "height" (default its height less
//   "lip", 8 units); "speed" default 200 units/s; it always waits 1 s at the top (the game overrides "wait") and
//   stays up while touched there. A plat with no targetname gets Quake's trigger (SpawnPlatTrigger): its bounds at
//   the bottom shrunk by 33 units on both horizontal sides (a 1-unit sliver at the centre when that leaves nothing)
//   and reaching 8 units above its top; it fires only while the plat is at the bottom.
//   func_button: moves along its "angle" by its size less "lip" (default 4 units) at "speed" (default 40 units/s),
//   waits "wait" (default 1 s); touched at rest it moves (one with "health" is shot instead).
//   Reaching pos2 a mover uses its "target": every door, plat or button of that targetname, and through each
//   trigger_relay of that name its targets in turn (to a depth of 8, each mover once).
//   "team": the members move as one (G_FindTeams): the first of the team in the entity lump leads, a member's
//   targetname goes to the leader, and only the leader spawns a door trigger.
//   trigger_multiple: its brush model's bounds; touched, it uses its targets and then waits "wait" seconds (default
//   0.5; "random" is not read; <= 0: it fires once). One whose targets reach no mover stays skipped.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_internal.h"

#define BINARY_PI 3.14159265358979323846
// How deep trigger_relay chains are followed.
#define RELAY_DEPTH 8

// Quake's G_SetMovedir for an "angle": -1 up, -2 down, else that yaw; tread axes.
static void move_direction(const level_entity *e, double out[3]) {
    double angle = level_number(e, "angle", 0.0), q[3] = {0.0, 0.0, 0.0};
    if (angle == -1.0) q[2] = 1.0;
    else if (angle == -2.0) q[2] = -1.0;
    else q[0] = cos(angle * BINARY_PI / 180.0), q[1] = sin(angle * BINARY_PI / 180.0);
    out[0] = q[0], out[1] = q[2], out[2] = -q[1];
}

// A number whose 0 means the default (Quake's `if (!ent->speed) ent->speed = ...`).
static double nonzero_or(const level_entity *e, const char *key, double fallback) {
    double v = level_number(e, key, 0.0);
    return v != 0.0 ? v : fallback;
}

void movers_binary_describe(const level_entity *e, level_mover *m) {
    int flags = (int)level_number(e, "spawnflags", 0.0);
    double size[3] = {(m->hi[0] - m->lo[0]) / LEVEL_UNIT, (m->hi[1] - m->lo[1]) / LEVEL_UNIT, (m->hi[2] - m->lo[2]) / LEVEL_UNIT};
    double dir[3] = {0.0, 1.0, 0.0}, distance, speed;
    if (m->kind == LEVEL_MOVER_PLAT) {
        speed = nonzero_or(e, "speed", 200.0);
        m->wait = 1.0;
        const char *height = level_value(e, "height");
        distance = height ? level_number(e, "height", 0.0) : size[1] - level_number(e, "lip", 8.0);
        // pos2 is where the model was built (raised), pos1 below it: the plat rests at pos1.
        memcpy(m->pos2, m->origin, sizeof m->pos2);
        for (int k = 0; k < 3; ++k) m->pos1[k] = m->origin[k] - dir[k] * distance * LEVEL_UNIT;
        m->crusher = (flags & 4) != 0;
    } else {
        bool door = m->kind == LEVEL_MOVER_DOOR;
        speed = nonzero_or(e, "speed", door ? 400.0 : 40.0);
        m->wait = nonzero_or(e, "wait", door ? 2.0 : 1.0);
        move_direction(e, dir);
        distance = fabs(dir[0]) * size[0] + fabs(dir[1]) * size[1] + fabs(dir[2]) * size[2] - level_number(e, "lip", door ? 8.0 : 4.0);
        memcpy(m->pos1, m->origin, sizeof m->pos1);
        for (int k = 0; k < 3; ++k) m->pos2[k] = m->origin[k] + dir[k] * distance * LEVEL_UNIT;
        if (door && (flags & 1)) { // START_OPEN: rests open, closes when used
            double t[3];
            memcpy(t, m->pos1, sizeof t), memcpy(m->pos1, m->pos2, sizeof t), memcpy(m->pos2, t, sizeof t);
        }
        m->crusher = door && (flags & 4);
        m->touch = !door && level_number(e, "health", 0.0) == 0.0;
    }
    m->speed = fabs(speed) * LEVEL_UNIT;
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) d2 += (m->pos2[k] - m->pos1[k]) * (m->pos2[k] - m->pos1[k]);
    m->duration = fmax(1e-3, sqrt(d2) / m->speed);
}

// The resolution's scratch: each binary mover's targetname after the teams took theirs, what was found.
typedef struct resolver {
    level *lv;
    const char **names;      // per mover
    int *found;
    int found_count;
} resolver;

// Every binary mover named `name` into r->found (each once), through trigger_relays to `depth`.
static void resolve(resolver *r, const char *name, int depth) {
    if (!name || depth > RELAY_DEPTH) return;
    for (int i = 0; i < r->lv->mover_count; ++i) {
        if (!r->names[i] || strcmp(r->names[i], name) || !level_mover_is_binary(r->lv->movers[i].kind)) continue;
        bool seen = false;
        for (int k = 0; k < r->found_count; ++k) seen = seen || r->found[k] == i;
        if (!seen) r->found[r->found_count++] = i;
    }
    for (int i = 0; i < r->lv->skipped_count; ++i) {
        level_entity *e = &r->lv->skipped[i];
        const char *n = level_value(e, "targetname");
        if (strcmp(e->classname, "trigger_relay") || !n || strcmp(n, name)) continue;
        int before = r->found_count;
        resolve(r, level_value(e, "target"), depth + 1);
        if (r->found_count > before) e->simulated = true;
    }
}

// What `target` names, as a new array in *out (NULL when nothing); false out of memory.
static bool resolve_uses(resolver *r, const char *target, int **out, int *out_count) {
    *out = NULL, *out_count = 0;
    r->found_count = 0;
    resolve(r, target, 0);
    if (r->found_count == 0) return true;
    *out = malloc((size_t)r->found_count * sizeof **out);
    if (!*out) return false;
    memcpy(*out, r->found, (size_t)r->found_count * sizeof **out);
    *out_count = r->found_count;
    return true;
}

// The teams (G_FindTeams): the first member of each leads; a member's targetname goes to the leader.
static void find_teams(level *lv, const char **names) {
    for (int i = 0; i < lv->mover_count; ++i) {
        const level_entity *e = &lv->skipped[lv->movers[i].entity];
        const char *team = level_value(e, "team");
        if (!team || lv->movers[i].master != i || !level_mover_is_binary(lv->movers[i].kind)) continue;
        for (int j = i + 1; j < lv->mover_count; ++j) {
            const char *other = level_value(&lv->skipped[lv->movers[j].entity], "team");
            if (!other || strcmp(other, team) || lv->movers[j].master != j || !level_mover_is_binary(lv->movers[j].kind)) continue;
            lv->movers[j].master = i;
            if (names[j]) names[i] = names[j], names[j] = NULL;
        }
    }
}

static bool add_trigger(level *lv, const level_mover_trigger *t) {
    level_mover_trigger *grown = realloc(lv->mover_triggers, ((size_t)lv->mover_trigger_count + 1) * sizeof *grown);
    if (!grown) return false;
    lv->mover_triggers = grown;
    lv->mover_triggers[lv->mover_trigger_count++] = *t;
    return true;
}

// Quake's door trigger for leader i: its team's bounds at pos1, each grown by 1 unit, then 120 units both ways
// along the thinnest axis.
static void door_trigger(const level *lv, int i, level_mover_trigger *t) {
    memset(t, 0, sizeof *t);
    t->kind = LEVEL_MOVER_TRIGGER_DOOR, t->mover = i, t->entity = -1;
    bool first = true;
    for (int j = i; j < lv->mover_count; ++j) {
        const level_mover *m = &lv->movers[j];
        if (m->master != i) continue;
        for (int k = 0; k < 3; ++k) {
            double lo = m->lo[k] + m->pos1[k] - LEVEL_UNIT, hi = m->hi[k] + m->pos1[k] + LEVEL_UNIT;
            t->lo[k] = first ? lo : fmin(t->lo[k], lo);
            t->hi[k] = first ? hi : fmax(t->hi[k], hi);
        }
        first = false;
    }
    int thin = 0;
    for (int k = 1; k < 3; ++k)
        if (t->hi[k] - t->lo[k] < t->hi[thin] - t->lo[thin]) thin = k;
    t->lo[thin] -= 120.0 * LEVEL_UNIT, t->hi[thin] += 120.0 * LEVEL_UNIT;
}

// Quake's plat trigger: the plat's bounds at the bottom, 33 units in on both horizontal sides, 8 units over its top.
static void plat_trigger(const level_mover *m, int i, level_mover_trigger *t) {
    memset(t, 0, sizeof *t);
    t->kind = LEVEL_MOVER_TRIGGER_PLAT, t->mover = i, t->entity = -1;
    for (int k = 0; k < 3; ++k) t->lo[k] = m->lo[k] + m->pos1[k], t->hi[k] = m->hi[k] + m->pos1[k];
    t->hi[1] += 8.0 * LEVEL_UNIT;
    for (int k = 0; k < 3; k += 2) {
        double lo = t->lo[k] + 33.0 * LEVEL_UNIT, hi = t->hi[k] - 33.0 * LEVEL_UNIT;
        if (hi <= lo) lo = 0.5 * (t->lo[k] + t->hi[k]), hi = lo + LEVEL_UNIT;
        t->lo[k] = lo, t->hi[k] = hi;
    }
}

static bool link_all(level *lv, resolver *r) {
    for (int i = 0; i < lv->mover_count; ++i) {
        level_mover *m = &lv->movers[i];
        if (!level_mover_is_binary(m->kind)) continue;
        if (!resolve_uses(r, level_value(&lv->skipped[m->entity], "target"), &m->uses, &m->use_count)) return false;
        const level_entity *e = &lv->skipped[m->entity];
        bool named = level_value(e, "targetname") != NULL, shot = level_number(e, "health", 0.0) != 0.0;
        level_mover_trigger t;
        if (m->kind == LEVEL_MOVER_DOOR && m->master == i && !named && !shot) {
            door_trigger(lv, i, &t);
            if (!add_trigger(lv, &t)) return false;
        } else if (m->kind == LEVEL_MOVER_PLAT && !named) {
            plat_trigger(m, i, &t);
            if (!add_trigger(lv, &t)) return false;
        }
    }
    for (int i = 0; i < lv->skipped_count; ++i) {
        level_entity *e = &lv->skipped[i];
        if (strcmp(e->classname, "trigger_multiple") || e->model <= 0) continue;
        level_mover_trigger t;
        memset(&t, 0, sizeof t);
        t.kind = LEVEL_MOVER_TRIGGER_MULTIPLE, t.mover = -1, t.entity = i;
        memcpy(t.lo, e->lo, sizeof t.lo), memcpy(t.hi, e->hi, sizeof t.hi);
        t.wait = level_number(e, "wait", 0.5);
        if (!resolve_uses(r, level_value(e, "target"), &t.uses, &t.use_count)) return false;
        if (t.use_count == 0) continue;
        if (!add_trigger(lv, &t)) {
            free(t.uses);
            return false;
        }
        e->simulated = true;
    }
    return true;
}

bool movers_binary_link(level *lv, char *err, size_t errsize) {
    resolver r = {lv, calloc((size_t)lv->mover_count + 1, sizeof *r.names), malloc(((size_t)lv->mover_count + 1) * sizeof *r.found), 0};
    bool ok = r.names && r.found;
    for (int i = 0; ok && i < lv->mover_count; ++i) r.names[i] = level_value(&lv->skipped[lv->movers[i].entity], "targetname");
    if (ok) find_teams(lv, r.names);
    ok = ok && link_all(lv, &r);
    free(r.names);
    free(r.found);
    if (!ok) snprintf(err, errsize, "%s: out of memory linking the movers", lv->name);
    return ok;
}
