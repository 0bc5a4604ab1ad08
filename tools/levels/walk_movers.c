// SPDX-License-Identifier: MIT
// Movers in a walk (`--movers`): a run's own world (the map's runs share its static world read only, and movers
// change a world), the level as a static mesh and each mover (level::movers) as a kinematic mesh body at the
// entity's origin. Before the characters move each frame, every mover's velocity is set so that
// tread_world_advance takes it to its place at the frame's end (level_mover_at: bobbing's velocity is the step to
// the next place over dt, so the sine never drifts; rotating's angular velocity is constant and the advance turns
// it exactly). The checks then see the movers' triangles where tread has them: each mover's floats under the body's
// own transform after the advance, in double.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk.h"

static void mover_tris(walk_movers *mv, const level *lv, int i) {
    const level_mover *m = &lv->movers[i];
    tread_transform tf;
    tread_body_get_transform(mv->world, mv->bodies[i], &tf);
    double qx = tf.q.x, qy = tf.q.y, qz = tf.q.z, qw = tf.q.w;
    for (int t = 0; t < m->triangle_count; ++t) {
        walk_tri *w = &mv->tris[mv->first[i] + t];
        for (int c = 0; c < 3; ++c) {
            const float *v = m->vertices + 3 * (size_t)m->indices[3 * (size_t)t + (size_t)c];
            double x = v[0], y = v[1], z = v[2];
            // v + 2 w (q x v) + 2 q x (q x v), q the quaternion's vector part
            double cx = qy * z - qz * y, cy = qz * x - qx * z, cz = qx * y - qy * x;
            double ccx = qy * cz - qz * cy, ccy = qz * cx - qx * cz, ccz = qx * cy - qy * cx;
            w->p[c] = soak_v3_make(tf.p.x + x + 2.0 * (qw * cx + ccx), tf.p.y + y + 2.0 * (qw * cy + ccy),
                                   tf.p.z + z + 2.0 * (qw * cz + ccz));
        }
        w->n = soak_normalize(soak_cross(soak_sub(w->p[1], w->p[0]), soak_sub(w->p[2], w->p[0])));
        w->lo = w->hi = w->p[0];
        for (int c = 1; c < 3; ++c) {
            w->lo = soak_v3_make(fmin(w->lo.x, w->p[c].x), fmin(w->lo.y, w->p[c].y), fmin(w->lo.z, w->p[c].z));
            w->hi = soak_v3_make(fmax(w->hi.x, w->p[c].x), fmax(w->hi.y, w->p[c].y), fmax(w->hi.z, w->p[c].z));
        }
        w->two_sided = false;
    }
}

static tread_transform place(const level_mover *m, double t) {
    double p[3], r[4];
    level_mover_at(m, t, p, r);
    tread_transform tf;
    tf.p = tread_v3((float)p[0], (float)p[1], (float)p[2]);
    tf.q.x = (float)r[0], tf.q.y = (float)r[1], tf.q.z = (float)r[2], tf.q.w = (float)r[3];
    return tf;
}

bool walk_movers_init(walk_movers *mv, const walk_map *m, char *err, size_t errsize) {
    const level *lv = &m->lv;
    memset(mv, 0, sizeof *mv);
    if (tread_world_create(NULL, &mv->world) != TREAD_OK) {
        snprintf(err, errsize, "%s: tread_world_create: %s", lv->name, tread_error_message());
        return false;
    }
    int bodies = 0;
    if (!level_add_to_world(lv, mv->world, 0, &mv->level_body, 1, &bodies, err, errsize)) return false;
    mv->count = lv->mover_count;
    mv->bodies = calloc((size_t)mv->count + 1, sizeof *mv->bodies);
    mv->first = calloc((size_t)mv->count + 1, sizeof *mv->first);
    if (!mv->bodies || !mv->first) {
        snprintf(err, errsize, "%s: out of memory", lv->name);
        return false;
    }
    for (int i = 0; i < mv->count; ++i) mv->first[i + 1] = mv->first[i] + lv->movers[i].triangle_count;
    mv->tri_count = mv->first[mv->count];
    mv->tris = calloc((size_t)mv->tri_count + 1, sizeof *mv->tris);
    if (!mv->tris) {
        snprintf(err, errsize, "%s: out of memory", lv->name);
        return false;
    }
    for (int i = 0; i < mv->count; ++i) {
        const level_mover *mo = &lv->movers[i];
        tread_body_def def = tread_body_def_default();
        def.type = TREAD_BODY_KINEMATIC;
        def.shape = tread_shape_mesh((const tread_vec3 *)(const void *)mo->vertices, mo->vertex_count, mo->indices, mo->triangle_count);
        def.transform = place(mo, 0.0);
        if (mo->triangle_count == 0) continue; // a model with no solid brush: nothing to collide with
        if (tread_world_add_body(mv->world, &def, &mv->bodies[i]) != TREAD_OK) {
            snprintf(err, errsize, "%s: mover %d (%s): tread_world_add_body: %s", lv->name, i, lv->skipped[mo->entity].classname,
                     tread_error_message());
            return false;
        }
        mover_tris(mv, lv, i);
    }
    return true;
}

bool walk_movers_step(walk_movers *mv, const level *lv, double t, double dt, char *err, size_t errsize) {
    for (int i = 0; i < mv->count; ++i) {
        const level_mover *mo = &lv->movers[i];
        if (mo->triangle_count == 0) continue;
        tread_vec3 linear = tread_v3_zero(), angular = tread_v3_zero();
        if (mo->kind == LEVEL_MOVER_BOBBING) {
            tread_transform now, next = place(mo, t + dt);
            tread_body_get_transform(mv->world, mv->bodies[i], &now);
            linear = tread_v3_scale(tread_v3_sub(next.p, now.p), (float)(1.0 / dt));
        } else {
            angular = tread_v3((float)(mo->axis[0] * mo->angular_speed), (float)(mo->axis[1] * mo->angular_speed),
                               (float)(mo->axis[2] * mo->angular_speed));
        }
        if (tread_body_set_velocity(mv->world, mv->bodies[i], linear, angular) != TREAD_OK) {
            snprintf(err, errsize, "mover %d: tread_body_set_velocity: %s", i, tread_error_message());
            return false;
        }
    }
    if (tread_world_advance(mv->world, (float)dt) != TREAD_OK) {
        snprintf(err, errsize, "tread_world_advance: %s", tread_error_message());
        return false;
    }
    for (int i = 0; i < mv->count; ++i)
        if (lv->movers[i].triangle_count > 0) mover_tris(mv, lv, i);
    return true;
}

void walk_movers_free(walk_movers *mv) {
    tread_world_destroy(mv->world);
    free(mv->bodies);
    free(mv->first);
    free(mv->tris);
    memset(mv, 0, sizeof *mv);
}
