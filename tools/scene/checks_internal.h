// SPDX-License-Identifier: MIT
// Private to the expectations (checks.c, checks_world.c): windows, ranges and labels every check reads the same way.
#ifndef TREAD_SCENE_CHECKS_INTERNAL_H
#define TREAD_SCENE_CHECKS_INTERNAL_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tread_scene.h"

static const char *const axis_names[3] = {"x", "y", "z"};

static inline float axis_of(tread_vec3 v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }

static inline float frame_time(const run_trace *t, int i) { return (float)(i + 1) * t->dt; }

static inline bool condition_holds(const scene_condition *c, const run_trace *t, const run_frame *f, int i) {
    switch (c->kind) {
    case SCENE_COND_TIME: return frame_time(t, i) >= c->value - 1e-6f;
    case SCENE_COND_ABOVE: return axis_of(f->feet, c->axis) >= c->value;
    case SCENE_COND_BELOW: return axis_of(f->feet, c->axis) <= c->value;
    default: return true;
    }
}

// The window's frames [*first, *last) for character c.
static inline void window_span(const scene_window *w, const run_trace *t, int c, int *first, int *last) {
    int n = t->frame_count, a = 0, b = n;
    if (w->start.kind != SCENE_COND_NONE) {
        a = n;
        for (int i = 0; i < n; ++i)
            if (condition_holds(&w->start, t, run_frame_at(t, c, i), i)) { a = i; break; }
    }
    if (w->end.kind != SCENE_COND_NONE)
        for (int i = a + 1; i < n; ++i)
            if (condition_holds(&w->end, t, run_frame_at(t, c, i), i)) { b = i; break; }
    *first = a;
    *last = b;
}

static inline bool in_where(const scene_window *w, const run_frame *f) {
    if (!w->has_where) return true;
    float v = axis_of(f->feet, w->where_axis);
    return v >= w->where_min && v <= w->where_max;
}

static inline bool range_ok(const scene_range *r, double v) {
    return (!r->has_min || v >= (double)r->min - 1e-9) && (!r->has_max || v <= (double)r->max + 1e-9);
}

// "in [0.5, 1] m", ">= 4 m/s", "<= 0.02 m"; `scale` turns fractions into percent.
static inline void range_text(const scene_range *r, const char *unit, double scale, char *out, size_t size) {
    const char *space = unit[0] == '%' ? "" : " ";
    if (r->has_min && r->has_max) snprintf(out, size, "in [%g, %g]%s%s", scale * r->min, scale * r->max, space, unit);
    else if (r->has_min) snprintf(out, size, ">= %g%s%s", scale * r->min, space, unit);
    else if (r->has_max) snprintf(out, size, "<= %g%s%s", scale * r->max, space, unit);
    else snprintf(out, size, "any");
}

static inline const char *body_label(const scene *s, int body, char *out, size_t size) {
    if (s->bodies[body].name[0]) snprintf(out, size, "%s", s->bodies[body].name);
    else snprintf(out, size, "bodies[%d]", body);
    return out;
}

// ---- checks_world.c: the checks of crowds, sensors and dynamic bodies ----
void evaluate_world_check(const scene *s, const scene_check *k, const run_trace *t, check_result *r);

#endif
