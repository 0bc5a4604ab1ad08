// SPDX-License-Identifier: MIT
// Body motion in scene files (docs/SCENES.md, "Body motion"): a kinematic body moves at constant velocities, or
// along a keyframed path (offsets and turns from its placement at given times; once, looping or ping-pong).
// Parsed here, evaluated here for the runner each frame, and turned here for --up. Trigonometry on the library's
// own tread_sin/tread_cos (and an arctangent of our own below), so paths are the same bits everywhere.
// Calls json_read.c.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_internal.h"

#define TWO_PI (2.0 * SCENE_PI)

// ---- angles --------------------------------------------------------------------------------------------

// sin and cos of x radians (|x| up to about 1e9) on tread_sin/tread_cos: x reduced to [-pi, pi] in double, split
// into its float part and the rest, and the rest added by the angle-sum rule, so rounding x to float costs nothing.
static void path_sincos(double x, double *s, double *c) {
    double turns = floor(x / TWO_PI + 0.5);
    // 2 pi = 6.283185307179586 + 2.4492935982947064e-16: the correction keeps the reduction exact to ~1e-16 rad.
    double r = (x - turns * 6.283185307179586) - turns * 2.4492935982947064e-16;
    float hi = (float)r;
    double lo = r - (double)hi, sh = tread_sin(hi), ch = tread_cos(hi);
    *s = sh + ch * lo;
    *c = ch - sh * lo;
}

// atan(x) for x in [0, 1]: halved three times by atan x = 2 atan(x / (1 + sqrt(1 + x^2))) to below tan(pi/32) =
// 0.099, then its series to x^19 (the first term left out is 1e-21 of the sum there).
static double atan_unit(double x) {
    for (int i = 0; i < 3; ++i) x = x / (1.0 + sqrt(1.0 + x * x));
    double z = x * x, sum = 0.0;
    for (int k = 19; k >= 3; k -= 2) sum = (k % 4 == 1 ? 1.0 : -1.0) / k + z * sum;
    return 8.0 * (x + x * z * sum);
}

// The angle of the point (c, s) with s, c >= 0, in [0, pi/2].
static double quadrant_angle(double s, double c) {
    if (s <= c) return c > 0.0 ? atan_unit(s / c) : 0.0;
    return 0.5 * SCENE_PI - atan_unit(c / s);
}

// ---- quaternions in double -----------------------------------------------------------------------------

typedef struct dquat {
    double x, y, z, w;
} dquat;

static dquat dq_of(tread_quat q) { dquat r = {q.x, q.y, q.z, q.w}; return r; }
static dquat dq_mul(dquat a, dquat b) {
    dquat r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
               a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}
static dquat dq_conj(dquat q) { dquat r = {-q.x, -q.y, -q.z, q.w}; return r; }
static tread_quat dq_round(dquat q) {
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    tread_quat r = {(float)(q.x / n), (float)(q.y / n), (float)(q.z / n), (float)(q.w / n)};
    return r;
}
static dquat dq_axis_angle(tread_vec3 axis, double angle) {
    double s, c;
    path_sincos(0.5 * angle, &s, &c);
    dquat r = {axis.x * s, axis.y * s, axis.z * s, c};
    return r;
}

// The rotation taking a to b, as a unit axis and an angle in [0, pi] (the short way); a zero angle when equal.
static void turn_between(dquat a, dquat b, tread_vec3 *axis, double *angle) {
    dquat d = dq_mul(b, dq_conj(a));
    if (d.w < 0.0) d.x = -d.x, d.y = -d.y, d.z = -d.z, d.w = -d.w; // q and -q are one rotation: take the short way
    double v = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    *angle = v > 0.0 ? 2.0 * quadrant_angle(v, d.w) : 0.0;
    *axis = v > 0.0 ? tread_v3((float)(d.x / v), (float)(d.y / v), (float)(d.z / v)) : tread_v3(0.0f, 1.0f, 0.0f);
}

// ---- parsing -------------------------------------------------------------------------------------------

static const char *const loop_names[] = {"once", "loop", "ping_pong", NULL};

// The key's full rotation (axis and angle turned into a quaternion in double precision).
static dquat key_rotation(const scene_path_key *k) {
    if (!k->has_rotation) {
        dquat one = {0.0, 0.0, 0.0, 1.0};
        return one;
    }
    return k->has_axis ? dq_axis_angle(k->axis, k->angle) : dq_of(k->rotation);
}

static bool same_axis(tread_vec3 a, tread_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static void build_segments(scene_path *p) {
    for (int i = 0; i + 1 < p->key_count; ++i) {
        const scene_path_key *a = &p->keys[i], *b = &p->keys[i + 1];
        scene_path_segment *g = &p->segments[i];
        bool a_axis = a->has_axis || !a->has_rotation, b_axis = b->has_axis || !b->has_rotation;
        if (a_axis && b_axis && (!a->has_rotation || !b->has_rotation || same_axis(a->axis, b->axis))) {
            // One axis (or none): through the angles as given, whole turns included.
            g->axis = a->has_rotation ? a->axis : (b->has_rotation ? b->axis : tread_v3(0.0f, 1.0f, 0.0f));
            g->angle0 = a->has_rotation ? a->angle : 0.0;
            g->angle1 = b->has_rotation ? b->angle : 0.0;
            g->base = tread_quat_identity();
        } else {
            dquat qa = key_rotation(a), qb = key_rotation(b);
            turn_between(qa, qb, &g->axis, &g->angle1);
            g->angle0 = 0.0;
            g->base = dq_round(qa);
        }
    }
}

static bool parse_key(loader *L, const scene_json *j, const char *jp, const scene_path *p, int index, scene_path_key *k) {
    static const char *const fields[] = {"time", "offset", "rotation", NULL};
    float time = 0.0f;
    char q[JP];
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields) || !js_field_float(L, j, jp, "time", true, &time, 0.0, INFINITY, 0) ||
        !js_field_vec3(L, j, jp, "offset", false, &k->offset))
        return false;
    k->time = time;
    if (index > 0 && !(k->time > p->keys[index - 1].time))
        return js_fail(L, js_jp_key(q, jp, "time"), "%g s is not after the previous key's %g s (keys must be in increasing time)", k->time,
                       p->keys[index - 1].time);
    tread_vec3 at = tread_v3_add(p->placement.p, k->offset);
    if (!(fabsf(at.x) <= TREAD_MAX_COORDINATE && fabsf(at.y) <= TREAD_MAX_COORDINATE && fabsf(at.z) <= TREAD_MAX_COORDINATE))
        return js_fail(L, js_jp_key(q, jp, "offset"), "puts the body at [%g, %g, %g], beyond the %g m coordinate limit", (double)at.x,
                       (double)at.y, (double)at.z, (double)TREAD_MAX_COORDINATE);
    const scene_json *rotation = js_member(j, "rotation");
    k->rotation = tread_quat_identity();
    k->has_axis = true; // no rotation fits any axis
    if (rotation) {
        js_axis_angle aa;
        if (!js_read_rotation(L, rotation, js_jp_key(q, jp, "rotation"), &k->rotation, &aa)) return false;
        k->has_rotation = true;
        k->has_axis = aa.has_axis;
        k->axis = aa.axis;
        k->angle = aa.radians;
    }
    if (index == 0) return true;
    // The library refuses faster bodies (TREAD_MAX_COORDINATE per second): say which key asks for it.
    const scene_path_key *prev = &p->keys[index - 1];
    double span = k->time - prev->time, fastest = TREAD_MAX_COORDINATE;
    tread_vec3 d = tread_v3_sub(k->offset, prev->offset);
    double speed = fmax(fabs(d.x), fmax(fabs(d.y), fabs(d.z))) / span;
    if (speed > fastest)
        return js_fail(L, jp, "moves %g m/s along an axis from the previous key; at most %g", speed, fastest);
    return true;
}

static bool parse_path(loader *L, const scene_json *j, const char *jp, scene_path *p) {
    if (!js_expect_array(L, j, jp)) return false;
    int n = scene_json_count(j);
    if (n < 2) return js_fail(L, jp, "has %d key%s; a path needs at least 2", n, n == 1 ? "" : "s");
    p->keys = (scene_path_key *)js_alloc_array(L, jp, (size_t)n, sizeof(scene_path_key));
    p->segments = (scene_path_segment *)js_alloc_array(L, jp, (size_t)n - 1, sizeof(scene_path_segment));
    if (!p->keys || !p->segments) return false;
    const scene_json *e;
    int i = 0;
    scene_json_each(e, j) {
        char q[JP];
        if (!parse_key(L, e, js_jp_index(q, jp, i), p, i, &p->keys[i])) return false;
        p->key_count = ++i;
    }
    build_segments(p);
    for (i = 0; i + 1 < n; ++i) {
        const scene_path_segment *g = &p->segments[i];
        double rate = fabs(g->angle1 - g->angle0) / (p->keys[i + 1].time - p->keys[i].time);
        char q[JP];
        if (rate > TREAD_MAX_COORDINATE)
            return js_fail(L, js_jp_index(q, jp, i + 1), "turns %g rad/s from the previous key; at most %g", rate, (double)TREAD_MAX_COORDINATE);
    }
    return true;
}

bool scene_parse_kinematic(loader *L, const scene_json *j, const char *jp, scene_body *b) {
    static const char *const fields[] = {"linear_velocity", "angular_velocity", "path", "loop", NULL};
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields)) return false;
    b->def.type = TREAD_BODY_KINEMATIC;
    const scene_json *path = js_member(j, "path");
    char q[JP], qp[JP];
    if (!path) {
        if (js_member(j, "loop")) return js_fail(L, js_jp_key(q, jp, "loop"), "needs a \"path\"");
        return js_field_vec3(L, j, jp, "linear_velocity", false, &b->def.linear_velocity) &&
               js_field_vec3(L, j, jp, "angular_velocity", false, &b->def.angular_velocity);
    }
    if (js_member(j, "linear_velocity") || js_member(j, "angular_velocity"))
        return js_fail(L, jp, "give either \"path\" or \"linear_velocity\"/\"angular_velocity\", not both");
    scene_path *p = &b->path;
    int loop = 0;
    p->placement = b->def.transform;
    if (!js_field_enum(L, j, jp, "loop", false, loop_names, &loop) || !parse_path(L, path, js_jp_key(q, jp, "path"), p)) return false;
    p->loop = loop == 0 ? SCENE_PATH_ONCE : (loop == 1 ? SCENE_PATH_LOOP : SCENE_PATH_PING_PONG);
    if (p->loop == SCENE_PATH_LOOP) {
        // Back to the start in no time would be a jump, not motion: a loop must close.
        const scene_path_key *first = &p->keys[0], *last = &p->keys[p->key_count - 1];
        dquat a = key_rotation(first), z = key_rotation(last);
        double dot = fabs(a.x * z.x + a.y * z.y + a.z * z.z + a.w * z.w);
        if (tread_v3_distance(first->offset, last->offset) > 1e-6f || dot < 1.0 - 1e-12)
            return js_fail(L, js_jp_index(q, js_jp_key(qp, jp, "path"), p->key_count - 1),
                           "a looping path must end where it starts (the offset and rotation of path[0]); end it with a copy of the "
                           "first key, or use \"ping_pong\" or \"once\"");
    }
    b->def.transform = scene_path_transform(p, 0.0);
    b->silhouette = tread_aabb_make(tread_v3_add(b->silhouette.min, tread_v3_sub(b->def.transform.p, p->placement.p)),
                                    tread_v3_add(b->silhouette.max, tread_v3_sub(b->def.transform.p, p->placement.p)));
    return true;
}

// "surface": a conveyor's surface velocity in the body's frame (any body; docs/SCENES.md, "Conveyors"). Each
// component is checked against the library's limits here, so a bad value is named by its JSON path.
bool scene_parse_surface(loader *L, const scene_json *j, const char *jp, scene_body *b) {
    static const char *const fields[] = {"linear", "angular", "center", NULL};
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields)) return false;
    tread_surface_velocity *v = &b->def.surface;
    tread_vec3 *const slots[] = {&v->linear, &v->angular, &v->center};
    for (int f = 0; f < 3; ++f) {
        char q[JP], qi[JP];
        if (!js_field_vec3(L, j, jp, fields[f], false, slots[f])) return false;
        // The library's limit for velocities (per second) and for coordinates alike.
        const float c[3] = {slots[f]->x, slots[f]->y, slots[f]->z};
        for (int i = 0; i < 3; ++i)
            if (!js_in_range((double)c[i], -TREAD_MAX_COORDINATE, TREAD_MAX_COORDINATE, 0))
                return js_range_fail(L, js_jp_index(qi, js_jp_key(q, jp, fields[f]), i), (double)c[i], -TREAD_MAX_COORDINATE,
                                     TREAD_MAX_COORDINATE, 0);
    }
    return true;
}

// ---- evaluation ----------------------------------------------------------------------------------------

// The path's own time at run time t: before the first key it waits there; after the last, by its loop mode.
static double path_time(const scene_path *p, double t) {
    double t0 = p->keys[0].time, span = p->keys[p->key_count - 1].time - t0, u = t - t0;
    if (u <= 0.0) return t0;
    switch (p->loop) {
    case SCENE_PATH_LOOP: return t0 + fmod(u, span);
    case SCENE_PATH_PING_PONG: {
        double v = fmod(u, 2.0 * span);
        return t0 + (v > span ? 2.0 * span - v : v);
    }
    default: return u >= span ? t0 + span : t0 + u;
    }
}

tread_transform scene_path_transform(const scene_path *p, double t) {
    double tau = path_time(p, t);
    int lo = 0, hi = p->key_count - 1; // the segment [keys[lo], keys[lo + 1]] holding tau
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (p->keys[mid].time <= tau) lo = mid;
        else hi = mid;
    }
    const scene_path_key *a = &p->keys[lo], *b = &p->keys[lo + 1];
    const scene_path_segment *g = &p->segments[lo];
    double s = (tau - a->time) / (b->time - a->time);
    if (s < 0.0) s = 0.0;
    if (s > 1.0) s = 1.0;
    double ox = a->offset.x + s * ((double)b->offset.x - a->offset.x), oy = a->offset.y + s * ((double)b->offset.y - a->offset.y),
           oz = a->offset.z + s * ((double)b->offset.z - a->offset.z);
    dquat turn = dq_mul(dq_axis_angle(g->axis, g->angle0 + s * (g->angle1 - g->angle0)), dq_of(g->base));
    tread_transform out;
    out.p = tread_v3((float)(p->placement.p.x + ox), (float)(p->placement.p.y + oy), (float)(p->placement.p.z + oz));
    out.q = dq_round(dq_mul(turn, dq_of(p->placement.q)));
    return out;
}

void scene_path_velocity(const scene_path *p, tread_transform current, double t_next, float dt, tread_vec3 *linear, tread_vec3 *angular) {
    tread_transform target = scene_path_transform(p, t_next);
    double inv = 1.0 / (double)dt;
    *linear = tread_v3((float)(((double)target.p.x - current.p.x) * inv), (float)(((double)target.p.y - current.p.y) * inv),
                       (float)(((double)target.p.z - current.p.z) * inv));
    tread_vec3 axis;
    double angle;
    turn_between(dq_of(current.q), dq_of(target.q), &axis, &angle);
    *angular = tread_v3_scale(axis, (float)(angle * inv));
}

void scene_path_rotate(scene_path *p, tread_quat q) {
    dquat r = dq_of(q), rc = dq_conj(r);
    for (int i = 0; i < p->key_count; ++i) {
        scene_path_key *k = &p->keys[i];
        k->offset = tread_quat_rotate(q, k->offset);
        k->axis = tread_quat_rotate(q, k->axis);
        k->rotation = dq_round(dq_mul(dq_mul(r, dq_of(k->rotation)), rc)); // the same turn, about the turned axis
    }
    for (int i = 0; i + 1 < p->key_count; ++i) {
        scene_path_segment *g = &p->segments[i];
        g->axis = tread_quat_rotate(q, g->axis);
        g->base = dq_round(dq_mul(dq_mul(r, dq_of(g->base)), rc));
    }
    p->placement.p = tread_quat_rotate(q, p->placement.p);
    p->placement.q = tread_quat_normalize(tread_quat_mul(q, p->placement.q));
}
