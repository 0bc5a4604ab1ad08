// SPDX-License-Identifier: MIT
// The movers the importer can describe: func_bobbing and func_rotating, as Quake III's SP_func_bobbing and
// SP_func_rotating (g_mover.c) read them. Each keeps its brush model's solid faces, clipped exactly as the world's
// (brushes.c, model N instead of 0) and converted to metres, in the model's own frame: the game places a brush
// model at its entity's origin (q3map builds a model with an origin brush around that point; without one the
// origin is 0 and the model is in world coordinates). The walker runs them only with --movers (walk_movers.c), so
// they stay listed as skipped.
//   func_bobbing: "height" (default 32 units) along Quake's Z, X with spawnflags 1, Y with 2; "speed" seconds a
//   cycle (default 4); "phase" the cycle's fraction (the trajectory starts at phase times the cycle): TR_SINE,
//   origin + axis height sin(2 pi (t - phase period) / period).
//   func_rotating: "speed" degrees a second (default 100) about Quake's Z (yaw), X with spawnflags 4 (roll), Y
//   with 8 (pitch); positive turns counter-clockwise seen from the axis's tip (right-handed), as yaw does.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_internal.h"

#define MOVERS_PI 3.14159265358979323846

static const char *value_of(const level_entity *e, const char *key) {
    for (int i = 0; i < e->pair_count; ++i)
        if (!strcmp(e->pairs[i].key, key)) return e->pairs[i].value;
    return NULL;
}

static double number_or(const level_entity *e, const char *key, double fallback) {
    const char *v = value_of(e, key);
    double d;
    return v && sscanf(v, "%lf", &d) == 1 && isfinite(d) ? d : fallback;
}

// Quake's axis `k` (0 x, 1 y, 2 z) in tread's axes.
static void quake_axis(int k, double out[3]) {
    double q[3] = {0.0, 0.0, 0.0};
    q[k] = 1.0;
    out[0] = q[0], out[1] = q[2], out[2] = -q[1];
}

void level_mover_at(const level_mover *m, double t, double position[3], double rotation[4]) {
    memcpy(position, m->origin, 3 * sizeof *position);
    rotation[0] = rotation[1] = rotation[2] = 0.0, rotation[3] = 1.0;
    if (m->kind == LEVEL_MOVER_BOBBING) {
        double s = m->period > 0.0 ? sin(2.0 * MOVERS_PI * (t / m->period - m->phase)) : 0.0;
        for (int k = 0; k < 3; ++k) position[k] += m->axis[k] * m->amplitude * s;
    } else {
        double half = 0.5 * fmod(m->angular_speed * t, 4.0 * MOVERS_PI), s = sin(half);
        for (int k = 0; k < 3; ++k) rotation[k] = m->axis[k] * s;
        rotation[3] = cos(half);
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

bool movers_build(const bsp_file *b, level *lv, char *err, size_t errsize) {
    for (int i = 0; i < lv->skipped_count; ++i) {
        const level_entity *e = &lv->skipped[i];
        bool bobbing = !strcmp(e->classname, "func_bobbing"), rotating = !strcmp(e->classname, "func_rotating");
        if ((!bobbing && !rotating) || e->model <= 0) continue;
        level_mover m;
        memset(&m, 0, sizeof m);
        m.kind = bobbing ? LEVEL_MOVER_BOBBING : LEVEL_MOVER_ROTATING;
        m.entity = i;
        double q[3] = {0.0, 0.0, 0.0};
        const char *origin = value_of(e, "origin");
        if (origin && sscanf(origin, "%lf %lf %lf", &q[0], &q[1], &q[2]) != 3) q[0] = q[1] = q[2] = 0.0;
        level_to_tread(q, m.origin);
        int flags = (int)number_or(e, "spawnflags", 0.0);
        if (bobbing) {
            quake_axis((flags & 1) ? 0 : (flags & 2) ? 1 : 2, m.axis);
            m.amplitude = number_or(e, "height", 32.0) * LEVEL_UNIT;
            m.period = number_or(e, "speed", 4.0);
            m.phase = number_or(e, "phase", 0.0);
        } else {
            quake_axis((flags & 4) ? 0 : (flags & 8) ? 1 : 2, m.axis);
            double speed = number_or(e, "speed", 0.0);
            m.angular_speed = (speed != 0.0 ? speed : 100.0) * MOVERS_PI / 180.0;
        }
        if (!mover_mesh(b, lv, e, &m, err, errsize)) {
            free(m.vertices), free(m.indices);
            return false;
        }
        level_mover *grown = realloc(lv->movers, ((size_t)lv->mover_count + 1) * sizeof *grown);
        if (!grown) {
            free(m.vertices), free(m.indices);
            snprintf(err, errsize, "%s: out of memory reading the movers", lv->name);
            return false;
        }
        lv->movers = grown;
        lv->movers[lv->mover_count++] = m;
    }
    return true;
}
