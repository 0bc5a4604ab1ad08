// SPDX-License-Identifier: MIT
// The checks of a world that reacts (docs/SCENES.md, "Expectations"): crowds (how deep characters overlap each
// other, how deep any is in a wall, NaN, how many arrive), sensors (the entering and leaving the contact listener
// reported) and dynamic bodies (how far one moved, where it is against a character). Each measures one number and
// says it with what was expected, as checks.c's do.
#include "checks_internal.h"

static const char *const event_names[] = {"entered", "stayed", "exited"};

// The characters a group check reads: a crowd's, or every character of the scene.
static void members(const scene *s, const scene_check *k, int *first, int *count, char *label, size_t size) {
    if (k->crowd >= 0) {
        *first = s->crowds[k->crowd].first;
        *count = s->crowds[k->crowd].count;
        snprintf(label, size, "crowd %s", s->crowds[k->crowd].name);
    } else {
        *first = 0;
        *count = s->character_count;
        snprintf(label, size, "all %d characters", s->character_count);
    }
}

static void empty_window(check_result *r) {
    r->passed = false;
    snprintf(r->value_text, sizeof r->value_text, "empty window");
    snprintf(r->detail, sizeof r->detail, "empty window: no frames between its start and end");
}

// What every group check starts with: its characters, their label, the range as text; false (and the result said)
// for an empty window.
static bool group_start(const scene *s, const scene_check *k, int a, int b, check_result *r, int *first, int *count, char *label, size_t label_size,
                        char *want, size_t want_size) {
    members(s, k, first, count, label, label_size);
    range_text(&k->range, "m", 1.0, want, want_size);
    if (b > a) return true;
    empty_window(r);
    return false;
}

// MAX_OVERLAP and MAX_WALL_PENETRATION: the deepest over the group's frames of the window, and whose and when.
static void evaluate_deepest(const scene *s, const scene_check *k, const run_trace *t, int a, int b, check_result *r) {
    int first, count, who = -1, when = a;
    char label[SCENE_NAME_MAX + 32], want[64];
    if (!group_start(s, k, a, b, r, &first, &count, label, sizeof label, want, sizeof want)) return;
    bool overlap = k->kind == SCENE_CHECK_MAX_OVERLAP;
    float worst = 0.0f;
    for (int c = first; c < first + count; ++c)
        for (int i = a; i < b; ++i) {
            const run_frame *f = run_frame_at(t, c, i);
            float v = overlap ? f->overlap : f->penetration;
            if (v > worst) worst = v, who = c, when = i;
        }
    r->value = worst;
    r->passed = range_ok(&k->range, worst);
    const char *what = overlap ? "into another character" : "into the world";
    snprintf(r->value_text, sizeof r->value_text, "deepest %.5f m %s", (double)worst, what);
    char where[SCENE_NAME_MAX + 48] = "";
    if (who >= 0) snprintf(where, sizeof where, " (%s at t = %.3f s)", s->characters[who].name, (double)frame_time(t, when));
    // (Bounded pieces: the detail holds 320 bytes.)
    snprintf(r->detail, sizeof r->detail, "%.64s: deepest %.5f m %s%.100s over %d frames, expected %.48s", label, (double)worst, what, where,
             b - a, want);
}

// ALL_FINITE: how many of the group were NaN or infinite on some frame of the window (none passes).
static void evaluate_finite(const scene *s, const scene_check *k, const run_trace *t, int a, int b, check_result *r) {
    int first, count, bad = 0, first_bad = -1, frame = 0;
    char label[SCENE_NAME_MAX + 32], want[64];
    if (!group_start(s, k, a, b, r, &first, &count, label, sizeof label, want, sizeof want)) return;
    for (int c = first; c < first + count; ++c)
        for (int i = a; i < b; ++i)
            if (!run_frame_at(t, c, i)->finite) {
                if (bad++ == 0) first_bad = c, frame = i;
                break;
            }
    r->value = bad;
    r->passed = bad == 0;
    snprintf(r->value_text, sizeof r->value_text, "%d not finite", bad);
    if (bad == 0) snprintf(r->detail, sizeof r->detail, "%s: every frame finite over %d frames", label, b - a);
    else
        snprintf(r->detail, sizeof r->detail, "%s: %d of %d went NaN or infinite, first %s at frame %d", label, bad, count, s->characters[first_bad].name,
                 frame + 1);
}

// A group check's share: `hits` of the `count` members did it (`verb`), against the check's range (the text in want).
static void group_share(const scene_check *k, int hits, int count, const char *verb, char *want, size_t want_size, check_result *r) {
    r->value = count ? (double)hits / (double)count : 0.0;
    r->passed = count > 0 && range_ok(&k->range, r->value);
    range_text(&k->range, "%", 100.0, want, want_size);
    snprintf(r->value_text, sizeof r->value_text, "%d of %d %s (%.1f%%)", hits, count, verb, 100.0 * r->value);
}

// REACHED_FRACTION: the share of the group whose feet met the condition on some frame by `by`.
static void evaluate_reached(const scene *s, const scene_check *k, const run_trace *t, check_result *r) {
    int first, count, reached = 0;
    char label[SCENE_NAME_MAX + 32], want[64];
    members(s, k, &first, &count, label, sizeof label);
    for (int c = first; c < first + count; ++c)
        for (int i = 0; i < t->frame_count && frame_time(t, i) <= k->by + 1e-6f; ++i)
            if (condition_holds(&k->condition, t, run_frame_at(t, c, i), i)) {
                ++reached;
                break;
            }
    group_share(k, reached, count, "reached", want, sizeof want, r);
    snprintf(r->detail, sizeof r->detail, "%s: %d of %d met the condition by %.3f s (%.1f%%), expected %s", label, reached, count, (double)k->by,
             100.0 * r->value, want);
}

// MAX_FRAME_MOTION: the farthest any of the group's feet moved in one frame of the window (frame 0 from the start),
// and the first frame that went farther than allowed: whose, when, and whether that move reported the character
// unburied (jumped out of something it was buried in). The first says why; the farthest is often the fall after it.
static void evaluate_frame_motion(const scene *s, const scene_check *k, const run_trace *t, int a, int b, check_result *r) {
    int first, count, over = -1, over_frame = b;
    char label[SCENE_NAME_MAX + 32], want[64];
    if (!group_start(s, k, a, b, r, &first, &count, label, sizeof label, want, sizeof want)) return;
    float worst = 0.0f, over_by = 0.0f;
    for (int c = first; c < first + count; ++c)
        for (int i = a; i < b; ++i) {
            tread_vec3 from = i > 0 ? run_frame_at(t, c, i - 1)->feet : s->characters[c].start;
            float d = tread_v3_distance(from, run_frame_at(t, c, i)->feet);
            worst = fmaxf(worst, d);
            if (!range_ok(&k->range, d) && i < over_frame) over = c, over_frame = i, over_by = d;
        }
    r->value = worst;
    r->passed = range_ok(&k->range, worst);
    snprintf(r->value_text, sizeof r->value_text, "farthest %.4f m in a frame", (double)worst);
    char where[SCENE_NAME_MAX + 128] = "";
    if (over >= 0) {
        const run_frame *f = run_frame_at(t, over, over_frame);
        snprintf(where, sizeof where, "; first %s, %.4f m in frame %d (t = %.3f s)", s->characters[over].name, (double)over_by, over_frame + 1,
                 (double)frame_time(t, over_frame));
        if (f->unburied > 0.0f) snprintf(where + strlen(where), sizeof where - strlen(where), ", reported unburied by %.4f m", (double)f->unburied);
    }
    snprintf(r->detail, sizeof r->detail, "%.64s: farthest %.5f m in one frame%.160s, expected %.48s", label, (double)worst, where, want);
}

// STAYS_IN: how many of the group had their feet outside the box on some frame of the window (none passes), and the
// first to leave: where, when.
static void evaluate_stays_in(const scene *s, const scene_check *k, const run_trace *t, int a, int b, check_result *r) {
    int first, count, left = 0, who = -1, when = b;
    char label[SCENE_NAME_MAX + 32], want[64];
    if (!group_start(s, k, a, b, r, &first, &count, label, sizeof label, want, sizeof want)) return;
    tread_vec3 lo = k->box_min, hi = k->box_max, at = tread_v3_zero();
    for (int c = first; c < first + count; ++c)
        for (int i = a; i < b; ++i) {
            tread_vec3 p = run_frame_at(t, c, i)->feet;
            if (p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z) continue;
            ++left;
            if (i < when) who = c, when = i, at = p;
            break;
        }
    r->value = left;
    r->passed = left == 0;
    snprintf(r->value_text, sizeof r->value_text, "%d of %d left the box", left, count);
    if (left == 0) snprintf(r->detail, sizeof r->detail, "%s: every one's feet stayed in [%g, %g, %g] .. [%g, %g, %g] over %d frames", label, (double)lo.x,
                            (double)lo.y, (double)lo.z, (double)hi.x, (double)hi.y, (double)hi.z, b - a);
    else
        snprintf(r->detail, sizeof r->detail, "%.60s: %d of %d left the box, first %.63s in frame %d (t = %.3f s), its feet at (%.3f, %.3f, %.3f)", label,
                 left, count, s->characters[who].name, when + 1, (double)frame_time(t, when), (double)at.x, (double)at.y, (double)at.z);
}

// CRUSHED_FRACTION: the share of the group whose move reported it crushed (tread_move_result.crushed) on some frame
// of the window: a crowd a piston closes on is told, each one, that it was squeezed.
static void evaluate_crushed(const scene *s, const scene_check *k, const run_trace *t, int a, int b, check_result *r) {
    int first, count, crushed = 0;
    char label[SCENE_NAME_MAX + 32], want[64];
    members(s, k, &first, &count, label, sizeof label);
    if (b <= a) {
        empty_window(r);
        return;
    }
    for (int c = first; c < first + count; ++c)
        for (int i = a; i < b; ++i)
            if (run_frame_at(t, c, i)->crushed) {
                ++crushed;
                break;
            }
    group_share(k, crushed, count, "crushed", want, sizeof want, r);
    snprintf(r->detail, sizeof r->detail, "%s: %d of %d reported crushed over %d frames (%.1f%%), expected %s", label, crushed, count, b - a,
             100.0 * r->value, want);
}

// The SENSOR_* checks: character c's events about the body in the window's frames, as the listener gave them.
static void evaluate_sensor(const scene *s, const scene_check *k, const run_trace *t, int a, int b, check_result *r) {
    int c = k->character, counts[3] = {0, 0, 0}, seen = 0;
    scene_event_kind got[SCENE_MAX_SEQUENCE + 1];
    char name[SCENE_NAME_MAX + 16], want[64];
    body_label(s, k->body, name, sizeof name);
    for (int e = 0; e < t->event_count; ++e) {
        const run_event *ev = &t->events[e];
        if (ev->character != c || ev->body != k->body || ev->frame < a || ev->frame >= b) continue;
        if (!in_where(&k->window, run_frame_at(t, c, ev->frame))) continue;
        ++counts[ev->kind];
        if (ev->kind != SCENE_EVENT_STAYED && seen <= SCENE_MAX_SEQUENCE) got[seen++] = ev->kind;
    }
    if (t->events_dropped > 0) {
        r->passed = false;
        snprintf(r->value_text, sizeof r->value_text, "%d events lost", t->events_dropped);
        snprintf(r->detail, sizeof r->detail, "the run kept %d sensor events and lost %d more (at most %d): not judged", t->event_count, t->events_dropped,
                 SCENE_MAX_EVENTS);
        return;
    }
    if (k->kind == SCENE_CHECK_SENSOR_SEQUENCE) {
        char list[2][160] = {"", ""};
        for (int i = 0; i < seen || i < k->sequence_length; ++i)
            for (int side = 0; side < 2; ++side) {
                int length = side ? k->sequence_length : seen;
                if (i >= length) continue;
                size_t used = strlen(list[side]);
                snprintf(list[side] + used, sizeof list[side] - used, "%s%s", i ? ", " : "",
                         i == SCENE_MAX_SEQUENCE ? "..." : event_names[side ? k->sequence[i] : got[i]]);
            }
        r->passed = seen == k->sequence_length && memcmp(got, k->sequence, sizeof got[0] * (size_t)seen) == 0;
        r->value = seen;
        snprintf(r->value_text, sizeof r->value_text, "%d events in %.32s", seen, name);
        snprintf(r->detail, sizeof r->detail, "%.60s: [%.120s], expected [%.120s]", name, list[0], list[1]);
        return;
    }
    int v = k->kind == SCENE_CHECK_SENSOR_ENTERED ? counts[SCENE_EVENT_ENTERED]
          : k->kind == SCENE_CHECK_SENSOR_EXITED  ? counts[SCENE_EVENT_EXITED]
                                                  : counts[SCENE_EVENT_ENTERED] + counts[SCENE_EVENT_STAYED];
    const char *what = k->kind == SCENE_CHECK_SENSOR_ENTERED ? "entered" : k->kind == SCENE_CHECK_SENSOR_EXITED ? "left" : "inside";
    const char *unit = k->kind == SCENE_CHECK_SENSOR_FRAMES ? "frames" : "times";
    r->value = v;
    r->passed = b > a && range_ok(&k->range, v);
    range_text(&k->range, unit, 1.0, want, sizeof want);
    snprintf(r->value_text, sizeof r->value_text, "%s %.32s %d %s", what, name, v, unit);
    snprintf(r->detail, sizeof r->detail, "%s %s %d %s over %d frames (entered %d, left %d, inside %d frames), expected %s", what, name, v, unit, b - a,
             counts[SCENE_EVENT_ENTERED], counts[SCENE_EVENT_EXITED], counts[SCENE_EVENT_ENTERED] + counts[SCENE_EVENT_STAYED], want);
}

// BODY_MOVED: the body's displacement along the axis from the window's start (its place before the window's first
// frame) to its last frame. BODY_AHEAD: on every window frame, the body's origin minus the character's feet along it.
static void evaluate_body(const scene *s, const scene_check *k, const run_trace *t, int a, int b, check_result *r) {
    int slot = t->body_slot[k->body], c = k->character;
    char name[SCENE_NAME_MAX + 16], want[64];
    body_label(s, k->body, name, sizeof name);
    range_text(&k->range, "m", 1.0, want, sizeof want);
    if (b <= a || slot < 0) {
        empty_window(r);
        return;
    }
    if (k->kind == SCENE_CHECK_BODY_MOVED) {
        float from = axis_of(run_body_at(t, slot, a - 1).p, k->axis), to = axis_of(run_body_at(t, slot, b - 1).p, k->axis);
        r->value = (double)to - (double)from;
        r->passed = range_ok(&k->range, r->value);
        snprintf(r->value_text, sizeof r->value_text, "%.32s moved %.4f m along %s", name, r->value, axis_names[k->axis]);
        snprintf(r->detail, sizeof r->detail, "%s moved %.6f m along %s (from %.4f to %.4f) from t = %.3f to %.3f s, expected %s", name, r->value,
                 axis_names[k->axis], (double)from, (double)to, (double)frame_time(t, a - 1), (double)frame_time(t, b - 1), want);
        return;
    }
    float lo = INFINITY, hi = -INFINITY;
    int counted = 0, low_frame = a;
    r->passed = true;
    for (int i = a; i < b; ++i) {
        const run_frame *f = run_frame_at(t, c, i);
        if (!in_where(&k->window, f)) continue;
        float lead = axis_of(run_body_at(t, slot, i).p, k->axis) - axis_of(f->feet, k->axis);
        if (lead < lo) lo = lead, low_frame = i;
        hi = fmaxf(hi, lead);
        r->passed &= range_ok(&k->range, lead);
        ++counted;
    }
    r->value = lo;
    r->passed &= counted > 0;
    snprintf(r->value_text, sizeof r->value_text, "%.32s ahead by %.4f m at least", name, (double)lo);
    snprintf(r->detail, sizeof r->detail, "%s ahead of %s along %s by %.5f (at t = %.3f s) to %.5f m over %d frames, expected %s", name,
             s->characters[c].name, axis_names[k->axis], (double)lo, (double)frame_time(t, low_frame), (double)hi, counted, want);
}

void evaluate_world_check(const scene *s, const scene_check *k, const run_trace *t, check_result *r) {
    int a = 0, b = 0;
    // A group's window has times only (the loader refuses feet conditions): any character's frames serve.
    window_span(&k->window, t, scene_check_is_group(k->kind) ? 0 : k->character, &a, &b);
    r->passed = true;
    r->value = 0.0;
    switch (k->kind) {
    case SCENE_CHECK_MAX_OVERLAP:
    case SCENE_CHECK_MAX_WALL_PENETRATION: evaluate_deepest(s, k, t, a, b, r); return;
    case SCENE_CHECK_ALL_FINITE: evaluate_finite(s, k, t, a, b, r); return;
    case SCENE_CHECK_REACHED_FRACTION: evaluate_reached(s, k, t, r); return;
    case SCENE_CHECK_MAX_FRAME_MOTION: evaluate_frame_motion(s, k, t, a, b, r); return;
    case SCENE_CHECK_STAYS_IN: evaluate_stays_in(s, k, t, a, b, r); return;
    case SCENE_CHECK_CRUSHED_FRACTION: evaluate_crushed(s, k, t, a, b, r); return;
    case SCENE_CHECK_SENSOR_ENTERED:
    case SCENE_CHECK_SENSOR_EXITED:
    case SCENE_CHECK_SENSOR_SEQUENCE:
    case SCENE_CHECK_SENSOR_FRAMES: evaluate_sensor(s, k, t, a, b, r); return;
    case SCENE_CHECK_BODY_MOVED:
    case SCENE_CHECK_BODY_AHEAD: evaluate_body(s, k, t, a, b, r); return;
    default: return; // the kinds of checks.c never come here
    }
}
