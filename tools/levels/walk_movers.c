// SPDX-License-Identifier: MIT
// Movers in a walk (`--movers`): a run's own world (the map's runs share its static world read only, and movers
// change a world), the level as a static mesh and each mover (level::movers) as a kinematic mesh body at its place
// at time 0. Before the characters move each frame, the doors, plats and buttons react to them (walk_doors.c), then
// every mover's velocity is set so that tread_world_advance takes it to its place at the frame's end: the step from
// where tread has it to that place over dt (so nothing drifts: bobbing, pendulums, trains from level_mover_at,
// doors, plats and buttons from their state), and for rotating ones their constant angular velocity, which the
// advance turns exactly. A step faster than tread takes (a train's corner of no length, an instant move in Quake)
// is a teleport. The checks then see the movers' triangles where tread has them: each mover's floats under the
// body's own transform after the advance, in double.
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

// Mover i's place at time t: a binary mover's from its state, the others' from level_mover_at.
static void place_of(const walk_movers *mv, const level *lv, int i, double t, double p[3], double r[4]) {
    const level_mover *m = &lv->movers[i];
    level_mover_at(m, t, p, r);
    if (level_mover_is_binary(m->kind)) level_mover_between(m, walk_doors_fraction(mv, lv, i, t), p);
}

static tread_transform place(const walk_movers *mv, const level *lv, int i, double t) {
    double p[3], r[4];
    place_of(mv, lv, i, t, p, r);
    tread_transform tf;
    tf.p = tread_v3((float)p[0], (float)p[1], (float)p[2]);
    tf.q.x = (float)r[0], tf.q.y = (float)r[1], tf.q.z = (float)r[2], tf.q.w = (float)r[3];
    return tf;
}

static bool out_of_memory(const level *lv, char *err, size_t errsize) {
    snprintf(err, errsize, "%s: out of memory", lv->name);
    return false;
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
    mv->binary = calloc((size_t)mv->count + 1, sizeof *mv->binary);
    mv->reversed = calloc((size_t)mv->count + 1, sizeof *mv->reversed);
    mv->trigger_ready = calloc((size_t)lv->mover_trigger_count + 1, sizeof *mv->trigger_ready);
    if (!mv->bodies || !mv->first || !mv->binary || !mv->reversed || !mv->trigger_ready) return out_of_memory(lv, err, errsize);
    walk_doors_reset(mv, lv);
    for (int i = 0; i < mv->count; ++i) mv->first[i + 1] = mv->first[i] + lv->movers[i].triangle_count;
    mv->tri_count = mv->first[mv->count];
    mv->tris = calloc((size_t)mv->tri_count + 1, sizeof *mv->tris);
    if (!mv->tris) return out_of_memory(lv, err, errsize);
    for (int i = 0; i < mv->count; ++i) {
        const level_mover *mo = &lv->movers[i];
        if (mo->triangle_count == 0) continue; // a model with no solid brush: nothing to collide with
        tread_body_def def = tread_body_def_default();
        def.type = TREAD_BODY_KINEMATIC;
        def.shape = tread_shape_mesh((const tread_vec3 *)(const void *)mo->vertices, mo->vertex_count, mo->indices, mo->triangle_count);
        def.transform = place(mv, lv, i, 0.0);
        if (tread_world_add_body(mv->world, &def, &mv->bodies[i]) != TREAD_OK) {
            snprintf(err, errsize, "%s: mover %d (%s): tread_world_add_body: %s", lv->name, i, lv->skipped[mo->entity].classname,
                     tread_error_message());
            return false;
        }
        mover_tris(mv, lv, i);
    }
    return true;
}

// The angular velocity (radians per second about world axes) that turns `from` into `to` in dt.
static tread_vec3 turn_between(tread_quat from, const double to[4], double dt) {
    // d = to conj(from): the world-frame turn from one to the other.
    double fx = -from.x, fy = -from.y, fz = -from.z, fw = from.w;
    double dx = to[3] * fx + to[0] * fw + to[1] * fz - to[2] * fy, dy = to[3] * fy - to[0] * fz + to[1] * fw + to[2] * fx;
    double dz = to[3] * fz + to[0] * fy - to[1] * fx + to[2] * fw, dw = to[3] * fw - to[0] * fx - to[1] * fy - to[2] * fz;
    if (dw < 0.0) dx = -dx, dy = -dy, dz = -dz, dw = -dw;
    double s = sqrt(dx * dx + dy * dy + dz * dz);
    if (s < 1e-12) return tread_v3_zero();
    double angle = 2.0 * atan2(s, dw) / (s * dt);
    return tread_v3((float)(dx * angle), (float)(dy * angle), (float)(dz * angle));
}

// Mover i's velocity toward its place at t + dt; false with a message when tread refused.
static bool aim(walk_movers *mv, const level *lv, int i, double t, double dt, char *err, size_t errsize) {
    const level_mover *mo = &lv->movers[i];
    tread_transform now;
    tread_body_get_transform(mv->world, mv->bodies[i], &now);
    double p[3], r[4];
    place_of(mv, lv, i, t + dt, p, r);
    double v[3] = {(p[0] - now.p.x) / dt, (p[1] - now.p.y) / dt, (p[2] - now.p.z) / dt};
    tread_vec3 linear = tread_v3((float)v[0], (float)v[1], (float)v[2]), angular = tread_v3_zero();
    if (mo->kind == LEVEL_MOVER_ROTATING)
        angular = tread_v3((float)(mo->axis[0] * mo->angular_speed), (float)(mo->axis[1] * mo->angular_speed),
                           (float)(mo->axis[2] * mo->angular_speed));
    else if (mo->kind == LEVEL_MOVER_PENDULUM)
        angular = turn_between(now.q, r, dt);
    if (sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) > 0.5 * TREAD_MAX_SPEED) { // an instant move: a teleport
        tread_body_set_velocity(mv->world, mv->bodies[i], tread_v3_zero(), tread_v3_zero());
        if (tread_body_set_transform(mv->world, mv->bodies[i], place(mv, lv, i, t + dt)) == TREAD_OK) return true;
        snprintf(err, errsize, "mover %d (%s): tread_body_set_transform: %s", i, level_mover_kind_names[mo->kind], tread_error_message());
        return false;
    }
    if (tread_body_set_velocity(mv->world, mv->bodies[i], linear, angular) == TREAD_OK) return true;
    snprintf(err, errsize, "mover %d (%s): tread_body_set_velocity: %s", i, level_mover_kind_names[mo->kind], tread_error_message());
    return false;
}

bool walk_movers_step(walk_movers *mv, const level *lv, const walk_presence *chars, int char_count, double t, double dt, char *err,
                      size_t errsize) {
    walk_doors_frame(mv, lv, chars, char_count, t);
    for (int i = 0; i < mv->count; ++i)
        if (lv->movers[i].triangle_count > 0 && !aim(mv, lv, i, t, dt, err, errsize)) return false;
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
    free(mv->binary);
    free(mv->reversed);
    free(mv->trigger_ready);
    memset(mv, 0, sizeof *mv);
}
