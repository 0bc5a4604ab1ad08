// SPDX-License-Identifier: MIT
// The movers, as Quake III's g_mover.c spawns them. Each keeps its brush model's solid faces, clipped exactly as the
// world's (brushes.c, model N instead of 0) and converted to metres, in the model's own frame: the game places a
// brush model at its entity's origin (q3map builds a model with an origin brush around that point; without one the
// origin is 0 and the model is in world coordinates). This file describes the timed motions; doors, plats and
// buttons (used, not timed) are movers_binary.c's.
//   func_bobbing: "height" (default 32 units) along Quake's Z, X with spawnflags 1, Y with 2; "speed" seconds a
//   cycle (default 4); "phase" the cycle's fraction (the trajectory starts at phase times the cycle): TR_SINE,
//   origin + axis height sin(2 pi (t - phase period) / period).
//   func_rotating: "speed" degrees a second (default 100) about Quake's Z (yaw), X with spawnflags 4 (roll), Y
//   with 8 (pitch); positive turns counter-clockwise seen from the axis's tip (right-handed), as yaw does.
//   func_pendulum: swings about Quake's X (its roll) through its origin, after the rest yaw its "angle" gives:
//   amplitude "speed" degrees (default 30), length the model's reach below its origin (at least 8 units), frequency
//   sqrt(g / (3 length)) / (2 pi) with g 800 units/s^2 (a rod swinging from its end), "phase" as bobbing's.
//   func_train: around its path corners (its "target", then each path_corner's "target" path_corner, until the
//   path comes back to the first), the model's origin on each corner in turn at "speed" units/s (default 100; a
//   corner's own "speed" for the leg leaving it; under 1 is 1), standing "wait" seconds at a corner that has one.
//   It starts at the first corner at time 0. A path that does not come back to its first corner (a corner with no
//   path_corner target, a loop that skips the first) leaves the train standing at its origin, as the game does.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_internal.h"

#define MOVERS_PI 3.14159265358979323846

const char *const level_mover_kind_names[LEVEL_MOVER_KIND_COUNT] = {"bobbing", "rotating", "pendulum", "train", "door", "plat", "button"};

static const char *const mover_classes[LEVEL_MOVER_KIND_COUNT] = {"func_bobbing", "func_rotating", "func_pendulum", "func_train",
                                                                   "func_door",    "func_plat",     "func_button"};

const char *level_value(const level_entity *e, const char *key) {
    for (int i = 0; i < e->pair_count; ++i)
        if (!strcmp(e->pairs[i].key, key)) return e->pairs[i].value;
    return NULL;
}

double level_number(const level_entity *e, const char *key, double fallback) {
    const char *v = level_value(e, key);
    double d;
    return v && sscanf(v, "%lf", &d) == 1 && isfinite(d) ? d : fallback;
}

// Quake's axis `k` (0 x, 1 y, 2 z) in tread's axes.
static void quake_axis(int k, double out[3]) {
    double q[3] = {0.0, 0.0, 0.0};
    q[k] = 1.0;
    out[0] = q[0], out[1] = q[2], out[2] = -q[1];
}

// The rotation by `angle` radians about unit `axis`, quaternion x, y, z, w.
static void axis_angle(const double axis[3], double angle, double q[4]) {
    double s = sin(0.5 * angle);
    for (int k = 0; k < 3; ++k) q[k] = axis[k] * s;
    q[3] = cos(0.5 * angle);
}

// a b (b first, then a), quaternions x, y, z, w.
static void quat_mul(const double a[4], const double b[4], double out[4]) {
    double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

void level_mover_between(const level_mover *m, double fraction, double position[3]) {
    for (int k = 0; k < 3; ++k) position[k] = m->pos1[k] + (m->pos2[k] - m->pos1[k]) * fraction;
}

// A train's place at t: around its path, a stand at each corner that has a wait, then the leg to the next.
static void train_at(const level_mover *m, double t, double position[3]) {
    if (m->path_count < 2 || !(m->lap > 0.0)) {
        memcpy(position, m->path_count > 0 ? m->path[0].position : m->origin, 3 * sizeof *position);
        return;
    }
    double s = fmod(t, m->lap);
    if (s < 0.0) s += m->lap;
    for (int i = 0; i < m->path_count; ++i) {
        const level_path_point *a = &m->path[i], *b = &m->path[(i + 1) % m->path_count];
        if (s < a->wait) {
            memcpy(position, a->position, 3 * sizeof *position);
            return;
        }
        s -= a->wait;
        double d[3] = {b->position[0] - a->position[0], b->position[1] - a->position[1], b->position[2] - a->position[2]};
        double leg = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / a->speed;
        if (s < leg) {
            for (int k = 0; k < 3; ++k) position[k] = a->position[k] + d[k] * (s / leg);
            return;
        }
        s -= leg;
    }
    memcpy(position, m->path[0].position, 3 * sizeof *position); // rounding at the lap's very end
}

void level_mover_at(const level_mover *m, double t, double position[3], double rotation[4]) {
    memcpy(position, m->origin, 3 * sizeof *position);
    rotation[0] = rotation[1] = rotation[2] = 0.0, rotation[3] = 1.0;
    switch (m->kind) {
    case LEVEL_MOVER_BOBBING: {
        double s = m->period > 0.0 ? sin(2.0 * MOVERS_PI * (t / m->period - m->phase)) : 0.0;
        for (int k = 0; k < 3; ++k) position[k] += m->axis[k] * m->amplitude * s;
        break;
    }
    case LEVEL_MOVER_ROTATING:
        axis_angle(m->axis, fmod(m->angular_speed * t, 4.0 * MOVERS_PI), rotation);
        break;
    case LEVEL_MOVER_PENDULUM: {
        double swing[4];
        axis_angle(m->axis, m->amplitude * sin(2.0 * MOVERS_PI * (t / m->period - m->phase)), swing);
        quat_mul(m->rest, swing, rotation);
        break;
    }
    case LEVEL_MOVER_TRAIN:
        train_at(m, t, position);
        break;
    default:
        memcpy(position, m->pos1, 3 * sizeof *position);
        break;
    }
}

// Entity e's model faces into m (metres, the model's frame); false with a message on error.
static bool mover_mesh(const bsp_file *b, level *lv, const level_entity *e, level_mover *m, char *err, size_t errsize) {
    level_soup soup;
    memset(&soup, 0, sizeof soup);
    bool ok = brushes_build_model(b, e->model, &soup, lv, err, errsize);
    if (ok && soup.vert_count > 0) {
        m->vertices = malloc((size_t)soup.vert_count * 3 * sizeof *m->vertices);
        if (!m->vertices) {
            snprintf(err, errsize, "%s: out of memory", lv->name);
            ok = false;
        }
    }
    if (ok) {
        for (int i = 0; i < soup.vert_count; ++i) {
            double t[3];
            level_to_tread(soup.verts + 3 * (size_t)i, t);
            for (int k = 0; k < 3; ++k) m->vertices[3 * (size_t)i + (size_t)k] = (float)t[k];
        }
        m->vertex_count = soup.vert_count;
        m->indices = soup.indices, m->triangle_count = soup.tri_count;
        soup.indices = NULL;
    }
    free(soup.verts);
    free(soup.indices);
    free(soup.flags);
    return ok;
}

// The first entity named `name` (of class `classname`, any class for NULL); -1 for none.
static int find_named(const level *lv, const char *name, const char *classname) {
    if (!name) return -1;
    for (int i = 0; i < lv->skipped_count; ++i) {
        const char *n = level_value(&lv->skipped[i], "targetname");
        if (n && !strcmp(n, name) && (!classname || !strcmp(lv->skipped[i].classname, classname))) return i;
    }
    return -1;
}

static void path_point(const level_entity *corner, double train_speed, level_path_point *p) {
    double q[3] = {0.0, 0.0, 0.0};
    const char *origin = level_value(corner, "origin");
    if (origin && sscanf(origin, "%lf %lf %lf", &q[0], &q[1], &q[2]) != 3) q[0] = q[1] = q[2] = 0.0;
    level_to_tread(q, p->position);
    p->wait = fmax(0.0, level_number(corner, "wait", 0.0));
    double speed = level_number(corner, "speed", 0.0);
    p->speed = fmax(1.0, speed != 0.0 ? speed : train_speed) * LEVEL_UNIT;
}

// A train's path (Quake's Think_SetupTrainTargets): the first entity its target names, then each corner's first
// path_corner target, until the path comes back to the first. False out of memory only; a broken path leaves
// path_count 0 (the train stands at its origin).
static bool train_path(level *lv, const level_entity *e, level_mover *m) {
    double speed = level_number(e, "speed", 0.0);
    if (speed == 0.0) speed = 100.0;
    int first = find_named(lv, level_value(e, "target"), NULL);
    if (first < 0 || strcmp(lv->skipped[first].classname, "path_corner")) return true;
    int *corners = malloc((size_t)lv->skipped_count * sizeof *corners), count = 0;
    if (!corners) return false;
    for (int at = first;;) {
        for (int i = 0; i < count; ++i)
            if (corners[i] == at) { // back at a corner already passed that is not the first: the game never ends this
                free(corners);
                return true;
            }
        corners[count++] = at;
        at = find_named(lv, level_value(&lv->skipped[at], "target"), "path_corner");
        if (at < 0) { // a corner with no path_corner target: the game prints it and never starts the train
            free(corners);
            return true;
        }
        if (at == first) break;
    }
    m->path = malloc((size_t)count * sizeof *m->path);
    if (!m->path) {
        free(corners);
        return false;
    }
    m->path_count = count;
    m->lap = 0.0;
    for (int i = 0; i < count; ++i) path_point(&lv->skipped[corners[i]], speed, &m->path[i]);
    for (int i = 0; i < count; ++i) {
        const double *a = m->path[i].position, *b = m->path[(i + 1) % count].position;
        double d = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
        m->lap += m->path[i].wait + d / m->path[i].speed;
        lv->skipped[corners[i]].simulated = true;
    }
    free(corners);
    return true;
}

// The timed kinds' parameters (bobbing, rotating, pendulum); trains are train_path's.
static void describe_timed(const level_entity *e, level_mover *m) {
    int flags = (int)level_number(e, "spawnflags", 0.0);
    if (m->kind == LEVEL_MOVER_BOBBING) {
        quake_axis((flags & 1) ? 0 : (flags & 2) ? 1 : 2, m->axis);
        m->amplitude = level_number(e, "height", 32.0) * LEVEL_UNIT;
        m->period = level_number(e, "speed", 4.0);
        m->phase = level_number(e, "phase", 0.0);
    } else if (m->kind == LEVEL_MOVER_ROTATING) {
        quake_axis((flags & 4) ? 0 : (flags & 8) ? 1 : 2, m->axis);
        double speed = level_number(e, "speed", 0.0);
        m->angular_speed = (speed != 0.0 ? speed : 100.0) * MOVERS_PI / 180.0;
    } else if (m->kind == LEVEL_MOVER_PENDULUM) {
        quake_axis(0, m->axis);
        double up[3], length = fmax(8.0, fabs(m->lo[1] / LEVEL_UNIT)); // the model's lowest point below its origin
        quake_axis(2, up);
        axis_angle(up, level_number(e, "angle", 0.0) * MOVERS_PI / 180.0, m->rest);
        m->amplitude = level_number(e, "speed", 30.0) * MOVERS_PI / 180.0;
        m->period = 2.0 * MOVERS_PI / sqrt(LEVEL_GRAVITY / (3.0 * length));
        m->phase = level_number(e, "phase", 0.0);
    }
}

static int mover_kind_of(const char *classname) {
    for (int k = 0; k < LEVEL_MOVER_KIND_COUNT; ++k)
        if (!strcmp(classname, mover_classes[k])) return k;
    return -1;
}

bool movers_build(const bsp_file *b, level *lv, char *err, size_t errsize) {
    for (int i = 0; i < lv->skipped_count; ++i) {
        const level_entity *e = &lv->skipped[i];
        int kind = mover_kind_of(e->classname);
        if (kind < 0 || e->model <= 0) continue;
        level_mover m;
        memset(&m, 0, sizeof m);
        m.kind = (level_mover_kind)kind;
        m.entity = i;
        m.master = lv->mover_count;
        m.rest[3] = 1.0;
        double q[3] = {0.0, 0.0, 0.0};
        const char *origin = level_value(e, "origin");
        if (origin && sscanf(origin, "%lf %lf %lf", &q[0], &q[1], &q[2]) != 3) q[0] = q[1] = q[2] = 0.0;
        level_to_tread(q, m.origin);
        memcpy(m.lo, e->lo, sizeof m.lo);
        memcpy(m.hi, e->hi, sizeof m.hi);
        if (level_mover_is_binary(m.kind)) movers_binary_describe(e, &m);
        else describe_timed(e, &m);
        bool ok = m.kind != LEVEL_MOVER_TRAIN || train_path(lv, e, &m);
        if (!ok) snprintf(err, errsize, "%s: out of memory reading a train's path", lv->name);
        if (!ok || !mover_mesh(b, lv, e, &m, err, errsize)) {
            free(m.vertices), free(m.indices), free(m.path);
            return false;
        }
        level_mover *grown = realloc(lv->movers, ((size_t)lv->mover_count + 1) * sizeof *grown);
        if (!grown) {
            free(m.vertices), free(m.indices), free(m.path);
            snprintf(err, errsize, "%s: out of memory reading the movers", lv->name);
            return false;
        }
        lv->movers = grown;
        lv->movers[lv->mover_count++] = m;
        ++lv->mover_kind_counts[kind];
        lv->skipped[i].simulated = true;
    }
    if (!movers_binary_link(lv, err, errsize)) return false;
    level_recount_skipped(lv);
    return true;
}
