// SPDX-License-Identifier: MIT
// Evaluating a scene's expectations over a recorded run. Each check measures one number, compares it with
// its threshold, and says both in its detail line.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checks_internal.h"

static const char *speed_label(const scene_check *k) {
    static const char *const along[3] = {"speed along x", "speed along y", "speed along z"};
    return k->measure == SCENE_SPEED_HORIZONTAL ? "horizontal speed" : (k->measure == SCENE_SPEED_AXIS ? along[k->axis] : "speed");
}

// Speed between frames i - 1 and i (i >= 1; frame 0 compares with the start).
static float pair_speed(const scene_check *k, const run_trace *t, const scene *s, int c, int i) {
    tread_vec3 a = i > 0 ? run_frame_at(t, c, i - 1)->feet : s->characters[c].start, b = run_frame_at(t, c, i)->feet;
    tread_vec3 d = tread_v3_sub(b, a);
    tread_vec3 up = t->final[c].settings.up;
    switch (k->measure) {
    case SCENE_SPEED_HORIZONTAL: return tread_v3_length(tread_v3_reject(d, up)) / t->dt;
    case SCENE_SPEED_AXIS: return axis_of(d, k->axis) / t->dt;
    default: return tread_v3_length(d) / t->dt;
    }
}

// A point given in a body's frame (local, double) placed by the body's transform t, and the other way.
static void to_world(tread_transform t, const double local[3], double out[3]) {
    tread_vec3 r = tread_quat_rotate(t.q, tread_v3((float)local[0], (float)local[1], (float)local[2]));
    // The rotation in float is precise to ~1e-7 of the arm: well below the millimetres these checks speak of.
    out[0] = (double)r.x + t.p.x, out[1] = (double)r.y + t.p.y, out[2] = (double)r.z + t.p.z;
}
static void to_local(tread_transform t, tread_vec3 p, double out[3]) {
    tread_vec3 d = tread_v3((float)((double)p.x - t.p.x), (float)((double)p.y - t.p.y), (float)((double)p.z - t.p.z));
    tread_vec3 r = tread_quat_inv_rotate(t.q, d);
    out[0] = r.x, out[1] = r.y, out[2] = r.z;
}

// One frame of a conveyor's surface flow, in the body's frame, as the library carries a rider (turned by |w| dt
// about `center`, then moved by linear dt): the local point p after dt seconds.
static void surface_step(const tread_surface_velocity *v, double dt, double p[3]) {
    double w[3] = {v->angular.x, v->angular.y, v->angular.z}, c[3] = {v->center.x, v->center.y, v->center.z};
    double rate = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (rate > 0.0) {
        double k[3] = {w[0] / rate, w[1] / rate, w[2] / rate}, r[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
        double a = rate * dt, cs = cos(a), sn = sin(a), d = k[0] * r[0] + k[1] * r[1] + k[2] * r[2];
        double x[3] = {k[1] * r[2] - k[2] * r[1], k[2] * r[0] - k[0] * r[2], k[0] * r[1] - k[1] * r[0]};
        for (int i = 0; i < 3; ++i) p[i] = c[i] + r[i] * cs + x[i] * sn + k[i] * d * (1.0 - cs); // Rodrigues
    }
    p[0] += v->linear.x * dt, p[1] += v->linear.y * dt, p[2] += v->linear.z * dt;
}

// RIDES and MAX_SINK: the point of the body the feet were on at the window's first frame, carried by the body to
// every later frame of the window (its own motion, and its surface's flow frame by frame: a conveyor), against where
// the feet are. A static conveyor stays where the scene put it.
static void evaluate_on_body(const scene *s, const scene_check *k, const run_trace *t, int a, int b, check_result *r) {
    int c = k->character, slot = t->body_slot[k->body];
    const scene_body *body = &s->bodies[k->body];
    bool flows = scene_body_has_surface(body);
    char name[SCENE_NAME_MAX + 16], want[64];
    body_label(s, k->body, name, sizeof name);
    range_text(&k->range, "m", 1.0, want, sizeof want);
    if (b <= a || (slot < 0 && !flows)) {
        r->passed = false;
        snprintf(r->value_text, sizeof r->value_text, "empty window");
        snprintf(r->detail, sizeof r->detail, "empty window: no frames between its start and end");
        return;
    }
    tread_vec3 up = t->final[c].settings.up;
    double local[3];
    to_local(slot >= 0 ? run_body_at(t, slot, a) : body->def.transform, run_frame_at(t, c, a)->feet, local);
    double worst = k->kind == SCENE_CHECK_RIDES ? 0.0 : -INFINITY;
    int worst_frame = a, counted = 0;
    for (int i = a; i < b; ++i) {
        const run_frame *f = run_frame_at(t, c, i);
        if (i > a && flows) surface_step(&body->def.surface, (double)t->dt, local);
        if (!in_where(&k->window, f)) continue;
        double on[3];
        to_world(slot >= 0 ? run_body_at(t, slot, i) : body->def.transform, local, on);
        double d[3] = {on[0] - f->feet.x, on[1] - f->feet.y, on[2] - f->feet.z}; // from the feet to the body's point
        double v = k->kind == SCENE_CHECK_RIDES ? sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) : d[0] * up.x + d[1] * up.y + d[2] * up.z;
        if (v > worst) worst = v, worst_frame = i;
        ++counted;
    }
    r->value = counted ? worst : 0.0;
    r->passed = counted > 0 && range_ok(&k->range, r->value);
    if (k->kind == SCENE_CHECK_RIDES) {
        snprintf(r->value_text, sizeof r->value_text, "off its spot on %.32s by %.6f m", name, r->value);
        snprintf(r->detail, sizeof r->detail, "feet at most %.6f m (at t = %.3f s) from the point of %s they were on at t = %.3f s, over %d frames, expected %s",
                 r->value, (double)frame_time(t, worst_frame), name, (double)frame_time(t, a), counted, want);
    } else {
        snprintf(r->value_text, sizeof r->value_text, "sank %.6f m into %.32s", r->value, name);
        snprintf(r->detail, sizeof r->detail, "feet at most %.6f m (at t = %.3f s) below the point of %s they were on at t = %.3f s (< 0: never below), over %d frames, expected %s",
                 r->value, (double)frame_time(t, worst_frame), name, (double)frame_time(t, a), counted, want);
    }
}

static void evaluate(const scene *s, const scene_check *k, const run_trace *t, check_result *r) {
    int c = k->character, a = 0, b = 0;
    window_span(&k->window, t, c, &a, &b);
    float up_height_prev = 0.0f;
    tread_vec3 up = t->final[c].settings.up;
    char want[64];
    range_text(&k->range, "m", 1.0, want, sizeof want);
    r->passed = true;
    r->value = 0.0;
    switch (k->kind) {
    case SCENE_CHECK_FINAL:
    case SCENE_CHECK_AT_TIME: {
        int i = t->frame_count - 1;
        if (k->kind == SCENE_CHECK_AT_TIME) {
            i = (int)(k->time / t->dt + 0.5f) - 1;
            if (i < 0) i = 0;
            if (i >= t->frame_count) i = t->frame_count - 1;
        }
        tread_vec3 p = run_frame_at(t, c, i)->feet;
        char parts[160] = "";
        for (int ax = 0; ax < 3; ++ax) {
            if (!k->axes[ax].has_min && !k->axes[ax].has_max) continue;
            char rt[64];
            range_text(&k->axes[ax], "m", 1.0, rt, sizeof rt);
            bool ok = range_ok(&k->axes[ax], (double)axis_of(p, ax));
            r->passed &= ok;
            size_t used = strlen(parts);
            snprintf(parts + used, sizeof parts - used, "%s%s %.4f m (expected %s)", used ? ", " : "", axis_names[ax], (double)axis_of(p, ax), rt);
            r->value = (double)axis_of(p, ax);
            snprintf(r->value_text, sizeof r->value_text, "%s %.4f m at %.3f s", axis_names[ax], r->value, (double)frame_time(t, i));
        }
        snprintf(r->detail, sizeof r->detail, "at t = %.3f s: %s", (double)frame_time(t, i), parts);
        return;
    }
    case SCENE_CHECK_REACHES: {
        int hit = -1;
        for (int i = 0; i < t->frame_count && hit < 0; ++i)
            if (condition_holds(&k->condition, t, run_frame_at(t, c, i), i)) hit = i;
        r->value = hit >= 0 ? (double)frame_time(t, hit) : INFINITY;
        r->passed = hit >= 0 && frame_time(t, hit) <= k->by + 1e-6f;
        if (hit >= 0) {
            snprintf(r->value_text, sizeof r->value_text, "reached at %.3f s", r->value);
            snprintf(r->detail, sizeof r->detail, "first at t = %.3f s, expected by %.3f s", r->value, (double)k->by);
        } else {
            snprintf(r->value_text, sizeof r->value_text, "never reached");
            snprintf(r->detail, sizeof r->detail, "never reached in %.3f s, expected by %.3f s", (double)frame_time(t, t->frame_count - 1), (double)k->by);
        }
        return;
    }
    case SCENE_CHECK_MAX_RISE:
    case SCENE_CHECK_MAX_DROP: {
        float worst = 0.0f;
        up_height_prev = tread_v3_dot(s->characters[c].start, up);
        for (int i = 0; i < t->frame_count; ++i) {
            const run_frame *f = run_frame_at(t, c, i);
            float h = tread_v3_dot(f->feet, up), delta = k->kind == SCENE_CHECK_MAX_RISE ? h - up_height_prev : up_height_prev - h;
            up_height_prev = h;
            if (i < a || i >= b || !in_where(&k->window, f)) continue;
            if (k->grounded_only && f->ground != TREAD_GROUND_ON_GROUND) continue;
            if (delta > worst) worst = delta;
        }
        r->value = worst;
        r->passed = range_ok(&k->range, worst);
        const char *what = k->kind == SCENE_CHECK_MAX_RISE ? "rise" : "drop";
        snprintf(r->value_text, sizeof r->value_text, "largest %s %.4f m in a frame", what, (double)worst);
        snprintf(r->detail, sizeof r->detail, "largest %s in one frame %.4f m, expected %s", what, (double)worst, want);
        return;
    }
    case SCENE_CHECK_HEIGHT_RANGE: {
        float lo = INFINITY, hi = -INFINITY;
        int counted = 0;
        for (int i = a; i < b; ++i) {
            const run_frame *f = run_frame_at(t, c, i);
            if (!in_where(&k->window, f)) continue;
            float v = axis_of(f->feet, k->axis);
            lo = fminf(lo, v);
            hi = fmaxf(hi, v);
            ++counted;
            if (!range_ok(&k->range, v)) r->passed = false;
        }
        r->value = k->range.has_max ? hi : lo;
        r->passed &= counted > 0;
        snprintf(r->value_text, sizeof r->value_text, "%s %s %.4f m", k->range.has_max ? "max" : "min", axis_names[k->axis], r->value);
        snprintf(r->detail, sizeof r->detail, "%s in [%.4f, %.4f] m over %d frames, expected %s", axis_names[k->axis], (double)lo, (double)hi, counted, want);
        return;
    }
    case SCENE_CHECK_GROUNDED_FRACTION: {
        int counted = 0, grounded = 0;
        for (int i = a; i < b; ++i) {
            const run_frame *f = run_frame_at(t, c, i);
            if (!in_where(&k->window, f)) continue;
            ++counted;
            grounded += f->ground == TREAD_GROUND_ON_GROUND;
        }
        r->value = counted ? (double)grounded / (double)counted : 0.0;
        r->passed = counted > 0 && range_ok(&k->range, r->value);
        range_text(&k->range, "%", 100.0, want, sizeof want);
        snprintf(r->value_text, sizeof r->value_text, "grounded %.1f%% of frames", 100.0 * r->value);
        snprintf(r->detail, sizeof r->detail, "grounded in %d of %d frames (%.1f%%), expected %s", grounded, counted, 100.0 * r->value, want);
        return;
    }
    case SCENE_CHECK_AIRBORNE_FRAMES: {
        int counted = 0, airborne = 0;
        for (int i = a; i < b; ++i) {
            const run_frame *f = run_frame_at(t, c, i);
            if (!in_where(&k->window, f)) continue;
            ++counted;
            airborne += f->ground != TREAD_GROUND_ON_GROUND;
        }
        r->value = airborne;
        r->passed = counted > 0 && range_ok(&k->range, airborne);
        range_text(&k->range, "frames", 1.0, want, sizeof want);
        snprintf(r->value_text, sizeof r->value_text, "%d frames off the ground", airborne);
        snprintf(r->detail, sizeof r->detail, "off walkable ground in %d of %d frames, expected %s", airborne, counted, want);
        return;
    }
    case SCENE_CHECK_CRUSHED_FRAMES: {
        int counted = 0, crushed = 0;
        for (int i = a; i < b; ++i) {
            const run_frame *f = run_frame_at(t, c, i);
            if (!in_where(&k->window, f)) continue;
            ++counted;
            crushed += f->crushed;
        }
        r->value = crushed;
        r->passed = counted > 0 && range_ok(&k->range, crushed);
        range_text(&k->range, "frames", 1.0, want, sizeof want);
        snprintf(r->value_text, sizeof r->value_text, "crushed in %d frames", crushed);
        snprintf(r->detail, sizeof r->detail, "reported crushed in %d of %d frames, expected %s", crushed, counted, want);
        return;
    }
    case SCENE_CHECK_SPEED_RANGE:
    case SCENE_CHECK_MEAN_SPEED: {
        double sum = 0.0;
        float lo = INFINITY, hi = -INFINITY;
        int counted = 0;
        for (int i = a > 0 ? a : 1; i < b; ++i) {
            if (!in_where(&k->window, run_frame_at(t, c, i)) || !in_where(&k->window, run_frame_at(t, c, i - 1))) continue;
            float v = pair_speed(k, t, s, c, i);
            lo = fminf(lo, v);
            hi = fmaxf(hi, v);
            sum += v;
            ++counted;
        }
        double mean = counted ? sum / counted : 0.0;
        range_text(&k->range, "m/s", 1.0, want, sizeof want);
        if (k->kind == SCENE_CHECK_MEAN_SPEED) {
            r->value = mean;
            r->passed = counted > 0 && range_ok(&k->range, mean);
        } else {
            r->value = (double)lo;
            r->passed = counted > 0 && range_ok(&k->range, lo) && range_ok(&k->range, hi);
        }
        snprintf(r->value_text, sizeof r->value_text, "%s %s %.4f m/s", k->kind == SCENE_CHECK_MEAN_SPEED ? "mean" : "min", speed_label(k), r->value);
        snprintf(r->detail, sizeof r->detail, "%s mean %.4f, min %.4f, max %.4f m/s over %d frames, expected %s%s", speed_label(k), mean, (double)lo,
                 (double)hi, counted, k->kind == SCENE_CHECK_MEAN_SPEED ? "mean " : "every frame ", want);
        return;
    }
    case SCENE_CHECK_DRIFT:
    case SCENE_CHECK_ADVANCE: {
        if (b <= a) {
            r->passed = false;
            snprintf(r->value_text, sizeof r->value_text, "empty window");
            snprintf(r->detail, sizeof r->detail, "empty window: no frames between its start and end");
            return;
        }
        tread_vec3 p0 = run_frame_at(t, c, a)->feet, p1 = run_frame_at(t, c, b - 1)->feet;
        r->value = k->kind == SCENE_CHECK_DRIFT ? (double)tread_v3_distance(p0, p1) : (double)(axis_of(p1, k->axis) - axis_of(p0, k->axis));
        r->passed = range_ok(&k->range, r->value);
        char what[32];
        if (k->kind == SCENE_CHECK_DRIFT) snprintf(what, sizeof what, "drift");
        else snprintf(what, sizeof what, "advance along %s", axis_names[k->axis]);
        snprintf(r->value_text, sizeof r->value_text, "%s %.4f m", what, r->value);
        snprintf(r->detail, sizeof r->detail, "%s %.6f m from t = %.3f to %.3f s, expected %s", what, r->value, (double)frame_time(t, a),
                 (double)frame_time(t, b - 1), want);
        return;
    }
    case SCENE_CHECK_COMES_TO_REST: {
        float worst = 0.0f;
        for (int i = a > 0 ? a : 1; i < b; ++i)
            worst = fmaxf(worst, tread_v3_distance(run_frame_at(t, c, i)->feet, run_frame_at(t, c, i - 1)->feet));
        r->value = worst;
        r->passed = b > a && range_ok(&k->range, worst);
        snprintf(r->value_text, sizeof r->value_text, "largest motion %.6f m in a frame", (double)worst);
        snprintf(r->detail, sizeof r->detail, "largest motion in one frame %.6f m, expected %s", (double)worst, want);
        return;
    }
    case SCENE_CHECK_GROUND_STATE: {
        int i = k->time >= 0.0f ? (int)(k->time / t->dt + 0.5f) - 1 : b - 1;
        if (i < 0) i = 0;
        if (i >= t->frame_count) i = t->frame_count - 1;
        tread_ground_state g = run_frame_at(t, c, i)->ground;
        r->value = (double)g;
        r->passed = g == k->state;
        snprintf(r->value_text, sizeof r->value_text, "%s at %.3f s", scene_ground_state_name(g), (double)frame_time(t, i));
        snprintf(r->detail, sizeof r->detail, "%s at t = %.3f s, expected %s", scene_ground_state_name(g), (double)frame_time(t, i), scene_ground_state_name(k->state));
        return;
    }
    case SCENE_CHECK_RIDES:
    case SCENE_CHECK_MAX_SINK: evaluate_on_body(s, k, t, a, b, r); return;
    case SCENE_CHECK_MAX_OVERLAP:
    case SCENE_CHECK_MAX_WALL_PENETRATION:
    case SCENE_CHECK_ALL_FINITE:
    case SCENE_CHECK_REACHED_FRACTION:
    case SCENE_CHECK_MAX_FRAME_MOTION:
    case SCENE_CHECK_STAYS_IN:
    case SCENE_CHECK_CRUSHED_FRACTION:
    case SCENE_CHECK_SENSOR_ENTERED:
    case SCENE_CHECK_SENSOR_EXITED:
    case SCENE_CHECK_SENSOR_SEQUENCE:
    case SCENE_CHECK_SENSOR_FRAMES:
    case SCENE_CHECK_BODY_MOVED:
    case SCENE_CHECK_BODY_AHEAD: evaluate_world_check(s, k, t, r); return;
    case SCENE_CHECK_NO_PENETRATION: {
        float worst = 0.0f;
        for (int i = a; i < b; ++i) worst = fmaxf(worst, run_frame_at(t, c, i)->penetration);
        r->value = worst;
        r->passed = range_ok(&k->range, worst);
        snprintf(r->value_text, sizeof r->value_text, "deepest penetration %.5f m", (double)worst);
        snprintf(r->detail, sizeof r->detail, "deepest penetration %.5f m, expected %s", (double)worst, want);
        return;
    }
    }
}

// Every scene's invariants for characters [first, first + count) (one listed character, or a crowd's): finite
// state; no penetration beyond 1 mm, or for a character spawned inside geometry: never deeper than at spawn and out
// (<= 1 mm) within 1 s. `label` names them in the results.
static int invariants(const run_trace *t, int first, int count, const char *label, check_result *r, int capacity) {
    if (capacity < 2) return 0;
    memset(r, 0, 2 * sizeof *r);
    int bad = -1, bad_character = first, spawned_inside = 0;
    for (int c = first; c < first + count && bad < 0; ++c)
        for (int i = 0; i < t->frame_count && bad < 0; ++i)
            if (!run_frame_at(t, c, i)->finite) bad = i, bad_character = c;
    snprintf(r[0].name, sizeof r[0].name, "%s: finite state", label);
    r[0].passed = bad < 0;
    r[0].value = bad;
    char who[48] = "";
    if (count > 1) snprintf(who, sizeof who, "character %d of %d: ", bad_character - first, count);
    if (bad < 0) snprintf(r[0].detail, sizeof r[0].detail, "every frame finite%s", count > 1 ? " (every character)" : "");
    else snprintf(r[0].detail, sizeof r[0].detail, "%sNaN or Inf at frame %d", who, bad);
    if (bad < 0) snprintf(r[0].value_text, sizeof r[0].value_text, "every frame finite");
    else snprintf(r[0].value_text, sizeof r[0].value_text, "NaN or Inf at frame %d", bad);
    r[0].key = false;

    const float limit = 0.001f;
    float worst = 0.0f, deepest_start = 0.0f;
    int out_frame = (int)(1.0f / t->dt + 0.5f);
    bool ok = true;
    for (int c = first; c < first + count; ++c) {
        float start = t->initial_penetration[c];
        spawned_inside += start > limit;
        deepest_start = fmaxf(deepest_start, start);
        for (int i = 0; i < t->frame_count; ++i) {
            float p = run_frame_at(t, c, i)->penetration;
            worst = fmaxf(worst, p);
            if (start <= limit) ok &= p <= limit;
            else ok &= p <= start + 1e-6f && (i < out_frame || p <= limit);
        }
    }
    snprintf(r[1].name, sizeof r[1].name, "%s: penetration", label);
    r[1].passed = ok;
    r[1].value = worst;
    snprintf(r[1].value_text, sizeof r[1].value_text, "deepest %.5f m", (double)worst);
    if (spawned_inside == 0) snprintf(r[1].detail, sizeof r[1].detail, "deepest %.5f m, expected <= %.3f m", (double)worst, (double)limit);
    else if (count == 1)
        snprintf(r[1].detail, sizeof r[1].detail, "spawned %.4f m inside: deepest %.5f m, expected never deeper and out within 1 s", (double)deepest_start,
                 (double)worst);
    else
        snprintf(r[1].detail, sizeof r[1].detail,
                 "%d of %d spawned inside (up to %.4f m): deepest %.5f m, expected <= %.3f m, and those never deeper and out within 1 s", spawned_inside,
                 count, (double)deepest_start, (double)worst, (double)limit);
    r[1].key = false;
    return 2;
}

// A run stopped by a failed library call fails: the call, the character, the frame and the library's message.
static void failure_result(const scene *s, const run_trace *t, check_result *r) {
    const run_failure *f = &t->failure;
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s: library call", f->character >= 0 ? s->characters[f->character].name : "world");
    r->value = f->frame;
    snprintf(r->value_text, sizeof r->value_text, "%s failed at %.3f s", f->call, (double)f->t);
    char when[64];
    if (f->frame > 0) snprintf(when, sizeof when, "in frame %d (t = %.3f s)", f->frame, (double)f->t);
    else snprintf(when, sizeof when, "at spawn");
    // The library's messages begin with the code's name; one that does not gets it here.
    const char *code = tread_result_name(f->code);
    bool named = strncmp(f->message, code, strlen(code)) == 0;
    snprintf(r->detail, sizeof r->detail, "%s failed %s: %s%s%.180s; the run stopped there, %d expectation%s not evaluated", f->call, when,
             named ? "" : code, named ? "" : ": ", f->message, s->check_count, s->check_count == 1 ? "" : "s");
}

// A check marked "pending" is expected to fail until the work it names lands: failing, it counts as passed (and
// says so); passing, it fails and asks for the mark to go, so the scene then guards what was done.
static void mark_pending(const char *reason, check_result *r) {
    char detail[sizeof r->detail];
    snprintf(detail, sizeof detail, "%s", r->detail);
    if (!r->passed) {
        r->passed = true;
        r->pending = true;
        snprintf(r->detail, sizeof r->detail, "expected to fail (pending: %.90s): %.190s", reason, detail);
    } else {
        r->passed = false;
        snprintf(r->detail, sizeof r->detail, "passes, but is marked pending (%.90s): remove the mark; %.170s", reason, detail);
    }
}

int run_checks(const scene *s, const run_trace *t, check_result *results, int capacity) {
    int n = 0;
    // A stopped run fails on its failure; its expectations speak of the whole run and are not evaluated.
    if (t->failure.failed && capacity > 0) failure_result(s, t, &results[n++]);
    for (int i = 0; i < s->check_count && n < capacity && !t->failure.failed; ++i, ++n) {
        memset(&results[n], 0, sizeof results[n]);
        snprintf(results[n].name, sizeof results[n].name, "%s", s->checks[i].name);
        results[n].key = s->checks[i].key;
        evaluate(s, &s->checks[i], t, &results[n]);
        if (s->checks[i].pending[0]) mark_pending(s->checks[i].pending, &results[n]);
    }
    // A listed character has its own invariants; a crowd's characters share a pair (hundreds of lines would bury the
    // report), which names the worst of them.
    for (int c = 0; c < s->character_count + s->crowd_count; ++c) {
        bool listed = c < s->character_count;
        if (listed && s->characters[c].crowd >= 0) continue;
        const scene_crowd *crowd = listed ? NULL : &s->crowds[c - s->character_count];
        char label[SCENE_NAME_MAX + 16];
        snprintf(label, sizeof label, "%s%s", listed ? "" : "crowd ", listed ? s->characters[c].name : crowd->name);
        int added = invariants(t, listed ? c : crowd->first, listed ? 1 : crowd->count, label, results + n, capacity - n);
        // The scene's "pending_penetration" marks the penetration invariant (never the finite-state one).
        if (added == 2 && s->pending_penetration[0]) mark_pending(s->pending_penetration, &results[n + 1]);
        n += added;
    }
    return n;
}
