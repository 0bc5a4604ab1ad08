// SPDX-License-Identifier: MIT
// The capsule-vs-box shortcuts give the answers of the long way, bit for bit: tr_closest_segment_box's common case
// (one slab puts the segment apart and its first end is nearest), tr_cast_box's (the tangent that proves a miss,
// the start decided first, the sweep given the start's closest points) and tr_box_surface_normal's (a point on one
// face), against the functions as they were before the shortcuts (the copies below: e43a650's closest.c box
// section, features.c tr_box_surface_normal and shape.c tr_cast_box with its helpers, renamed). Deterministic random segments and casts around boxes
// of many sizes: standing on a face, beside one, across an edge or a corner, inside, far, degenerate, tilted, and
// far from the origin; casts starting touching or a little apart, moving along, toward and away.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <string.h>

#include "geometry/geometry.h"
#include "world/shape.h"
#include "tread/tread.h"
#include "course.h"

#define CASES 200000

// ---- the reference: tr_closest_segment_box before its shortcut (verbatim but for the name) --------------------

#define PARALLEL_SINE 1.0e-6f

static tread_vec3 up_axis(void) { return tread_v3(0.0f, 1.0f, 0.0f); }

// Parameter in [0, 1] of the point of segment p0 + s*e closest to q.
static float segment_param(tread_vec3 p0, tread_vec3 e, tread_vec3 q) {
    float len_sq = tread_v3_length_sq(e);
    if (!(len_sq > 0.0f)) return 0.0f;
    return tr_clampf(tread_v3_dot(tread_v3_sub(q, p0), e) / len_sq, 0.0f, 1.0f);
}

// Closest points of segments p0-p1 and a-b (Ericson 5.1.9); returns the squared distance.
static float segment_segment(tread_vec3 p0, tread_vec3 p1, tread_vec3 a, tread_vec3 b, tread_vec3 *on_p, tread_vec3 *on_a) {
    tread_vec3 d1 = tread_v3_sub(p1, p0), d2 = tread_v3_sub(b, a), r = tread_v3_sub(p0, a);
    float aa = tread_v3_dot(d1, d1), ee = tread_v3_dot(d2, d2), f = tread_v3_dot(d2, r);
    float s, t;
    if (!(aa > 0.0f) && !(ee > 0.0f)) {
        s = t = 0.0f;
    } else if (!(aa > 0.0f)) {
        s = 0.0f;
        t = tr_clampf(f / ee, 0.0f, 1.0f);
    } else {
        float c = tread_v3_dot(d1, r);
        if (!(ee > 0.0f)) {
            t = 0.0f;
            s = tr_clampf(-c / aa, 0.0f, 1.0f);
        } else {
            float b_ = tread_v3_dot(d1, d2);
            // |d1 x d2|^2 instead of aa*ee - b*b: no cancellation for nearly parallel segments.
            float denom = tread_v3_length_sq(tread_v3_cross(d1, d2));
            s = denom > 0.0f ? tr_clampf((b_ * f - c * ee) / denom, 0.0f, 1.0f) : 0.0f;
            t = (b_ * s + f) / ee;
            if (t < 0.0f) {
                t = 0.0f;
                s = tr_clampf(-c / aa, 0.0f, 1.0f);
            } else if (t > 1.0f) {
                t = 1.0f;
                s = tr_clampf((b_ - c) / aa, 0.0f, 1.0f);
            }
        }
    }
    *on_p = tread_v3_mad(p0, s, d1);
    *on_a = tread_v3_mad(a, t, d2);
    return tread_v3_length_sq(tread_v3_sub(*on_p, *on_a));
}

// Fill a separated (or touching) result from its two closest points; `fallback` is the normal when they coincide.
static void set_separated(tr_closest *out, tread_vec3 on_segment, tread_vec3 on_shape, tread_vec3 fallback) {
    tread_vec3 delta = tread_v3_sub(on_segment, on_shape);
    float dist = tread_v3_length(delta);
    out->distance = dist;
    out->on_segment = on_segment;
    out->on_shape = on_shape;
    out->normal = dist > 0.0f ? tread_v3_scale(delta, 1.0f / dist) : fallback;
}

// ---- box -----------------------------------------------------------------------------------------

static float axis_of(tread_vec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
static tread_vec3 unit_axis(int i, float sign) {
    return tread_v3(i == 0 ? sign : 0.0f, i == 1 ? sign : 0.0f, i == 2 ? sign : 0.0f);
}
static tread_vec3 clamp_to_box(tread_vec3 p, tread_vec3 h) {
    return tread_v3(tr_clampf(p.x, -h.x, h.x), tr_clampf(p.y, -h.y, h.y), tr_clampf(p.z, -h.z, h.z));
}

// Does segment p0 + s*e, s in [0, 1], meet the closed box? (slab test)
static bool segment_meets_box(tread_vec3 p0, tread_vec3 e, tread_vec3 h) {
    float lo = 0.0f, hi = 1.0f;
    for (int i = 0; i < 3; ++i) {
        float o = axis_of(p0, i), dir = axis_of(e, i), ext = axis_of(h, i);
        if (dir == 0.0f) {
            if (o < -ext || o > ext) return false;
            continue;
        }
        float t0 = (-ext - o) / dir, t1 = (ext - o) / dir;
        if (t0 > t1) {
            float tmp = t0;
            t0 = t1;
            t1 = tmp;
        }
        lo = tr_maxf(lo, t0);
        hi = tr_minf(hi, t1);
        if (lo > hi) return false;
    }
    return true;
}

// Outward normal of the box face nearest to a surface point (fallback normal for touching contacts).
static tread_vec3 box_face_normal(tread_vec3 h, tread_vec3 p) {
    int best = 0;
    float best_gap = -FLT_MAX;
    for (int i = 0; i < 3; ++i) {
        float gap = fabsf(axis_of(p, i)) - axis_of(h, i);
        if (gap > best_gap) {
            best_gap = gap;
            best = i;
        }
    }
    return unit_axis(best, axis_of(p, best) < 0.0f ? -1.0f : 1.0f);
}

// Half the derivative of F(mu) = sum_k dist(c_k + mu S_k, [-h_k, h_k])^2: sum_k S_k * (x_k - clamp(x_k)).
static float box_gradient(const float c[3], const float S[3], const float h[3], float mu) {
    float g = 0.0f;
    for (int k = 0; k < 3; ++k) {
        float x = c[k] + mu * S[k];
        g += S[k] * (x - tr_clampf(x, -h[k], h[k]));
    }
    return g;
}

// Parameter mu in [-1/2, 1/2] of the point of segment c + mu*S closest to the box. F(mu) above is convex and
// piecewise quadratic, so F' is nondecreasing and linear between the breakpoints where a coordinate crosses a
// face plane: the minimum is at an end or at F' = 0, interpolated between the two breakpoints around it.
static float segment_box_param(tread_vec3 center, tread_vec3 S, tread_vec3 half) {
    const float c[3] = {center.x, center.y, center.z}, s[3] = {S.x, S.y, S.z}, h[3] = {half.x, half.y, half.z};
    // The ends first (they are the first and last breakpoints): most segments are nearest at one of them (a capsule
    // standing above a box), and then no breakpoint needs computing.
    float g_lo = box_gradient(c, s, h, -0.5f);
    if (g_lo >= 0.0f) return -0.5f;
    float g_hi = box_gradient(c, s, h, 0.5f);
    if (g_hi <= 0.0f) return 0.5f;
    float mu[8];
    int n = 0;
    mu[n++] = -0.5f;
    for (int k = 0; k < 3; ++k) {
        if (s[k] == 0.0f) continue;
        for (int side = 0; side < 2; ++side) {
            float m = ((side ? h[k] : -h[k]) - c[k]) / s[k];
            if (m > -0.5f && m < 0.5f) mu[n++] = m;
        }
    }
    mu[n++] = 0.5f;
    for (int i = 1; i < n; ++i) // insertion sort of at most 8
        for (int j = i; j > 0 && mu[j - 1] > mu[j]; --j) {
            float tmp = mu[j];
            mu[j] = mu[j - 1];
            mu[j - 1] = tmp;
        }
    // Bisect over the sorted breakpoints for the last one with F' < 0 (F' is nondecreasing).
    int lo = 0, hi = n - 1; // invariant: F'(mu[lo]) < 0 < F'(mu[hi])
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        float g = box_gradient(c, s, h, mu[mid]);
        if (g < 0.0f) {
            lo = mid;
            g_lo = g;
        } else if (g > 0.0f) {
            hi = mid;
            g_hi = g;
        } else {
            return mu[mid];
        }
    }
    return mu[lo] + (mu[hi] - mu[lo]) * (-g_lo / (g_hi - g_lo));
}

static void ref_closest_segment_box(tread_vec3 p0, tread_vec3 p1, tread_vec3 half, tr_closest *out) {
    tread_vec3 e = tread_v3_sub(p1, p0);
    if (!segment_meets_box(p0, e, half)) {
        // Separated: the exact minimiser along the segment, and its clamp onto the box.
        tread_vec3 center = tread_v3_mad(p0, 0.5f, e);
        tread_vec3 on_seg = tread_v3_mad(center, segment_box_param(center, e, half), e);
        tread_vec3 on_box = clamp_to_box(on_seg, half);
        set_separated(out, on_seg, on_box, box_face_normal(half, on_box));
        return;
    }

    // Penetrating or touching: smallest push over the Minkowski-difference face normals, the box axes and
    // cross(segment, box axis).
    float e_len = tread_v3_length(e);
    float best_depth = FLT_MAX;
    tread_vec3 best_n = up_axis();
    int best_axis = 0; // 0..2 box face, 3..5 cross axis
    for (int k = 0; k < 6; ++k) {
        tread_vec3 n;
        if (k < 3) {
            n = unit_axis(k, 1.0f);
        } else {
            n = tread_v3_cross(e, unit_axis(k - 3, 1.0f));
            float len = tread_v3_length(n);
            if (!(len > PARALLEL_SINE * e_len)) continue;
            n = tread_v3_scale(n, 1.0f / len);
        }
        float box_ext = fabsf(n.x) * half.x + fabsf(n.y) * half.y + fabsf(n.z) * half.z;
        float a0 = tread_v3_dot(n, p0), a1 = tread_v3_dot(n, p1);
        float seg_min = tr_minf(a0, a1), seg_max = tr_maxf(a0, a1);
        float push_pos = box_ext - seg_min; // move along +n until the segment's low end clears the box
        float push_neg = seg_max + box_ext; // move along -n
        float depth = push_pos <= push_neg ? push_pos : push_neg;
        if (depth < best_depth) {
            best_depth = depth;
            best_n = push_pos <= push_neg ? n : tread_v3_neg(n);
            best_axis = k;
        }
    }
    best_depth = tr_maxf(best_depth, 0.0f);
    tread_vec3 n = best_n;
    out->distance = -best_depth;
    out->normal = n;
    if (best_axis >= 3) {
        // Edge axis: n pushes the segment out of the box, so the segment lies across the box edge extreme along
        // +n (the box's support edge toward the segment); the closest points of the two.
        int axis = best_axis - 3;
        float c[3];
        for (int i = 0; i < 3; ++i) {
            float ni = axis_of(n, i);
            c[i] = (ni > 0.0f ? 1.0f : -1.0f) * axis_of(half, i); // extreme along +n
        }
        c[axis] = -axis_of(half, axis);
        tread_vec3 a = tread_v3(c[0], c[1], c[2]);
        c[axis] = axis_of(half, axis);
        tread_vec3 b = tread_v3(c[0], c[1], c[2]);
        segment_segment(p0, p1, a, b, &out->on_segment, &out->on_shape);
        return;
    }
    // Face axis: the deepest segment point (lowest along n); when the segment lies flat, the point nearest the centre.
    float a0 = tread_v3_dot(n, p0), a1 = tread_v3_dot(n, p1);
    tread_vec3 deepest;
    if (fabsf(a0 - a1) <= PARALLEL_SINE * e_len)
        deepest = tread_v3_mad(p0, segment_param(p0, e, tread_v3_zero()), e);
    else
        deepest = a0 < a1 ? p0 : p1;
    out->on_segment = deepest;
    out->on_shape = clamp_to_box(tread_v3_mad(deepest, best_depth, n), half);
}


// ---- the reference: tr_box_surface_normal before its shortcut (verbatim but for the name) ----------------------

#define FACE_TIE_FRACTION 1.0e-4f

static tread_vec3 ref_box_surface_normal(tread_vec3 half, tread_vec3 point, tread_vec3 normal, tread_vec3 motion) {
    const float h[3] = {half.x, half.y, half.z};
    const float p[3] = {point.x, point.y, point.z};
    const float m[3] = {motion.x, motion.y, motion.z};
    const float n[3] = {normal.x, normal.y, normal.z};
    float motion_len = tread_v3_length(motion);
    float tie = FACE_TIE_FRACTION * motion_len;

    // Candidate faces: those the point touches. If it touches none (a point off the surface), the nearest face.
    int best_axis = -1;
    float best_sign = 1.0f, best_motion = 0.0f, best_normal = 0.0f;
    for (int axis = 0; axis < 3; ++axis) {
        for (int side = 0; side < 2; ++side) {
            float sign = side == 0 ? 1.0f : -1.0f;
            if (fabsf(sign * p[axis] - h[axis]) > TR_FEATURE_TOLERANCE) continue;
            float along_motion = sign * m[axis];
            float along_normal = sign * n[axis];
            bool better;
            if (best_axis < 0) {
                better = true;
            } else if (motion_len > 0.0f && along_motion < best_motion - tie) {
                better = true; // more opposed to the motion
            } else if (motion_len > 0.0f && along_motion > best_motion + tie) {
                better = false;
            } else {
                better = along_normal > best_normal; // tie or no motion: most aligned with the contact normal
            }
            if (better) {
                best_axis = axis;
                best_sign = sign;
                best_motion = along_motion;
                best_normal = along_normal;
            }
        }
    }
    if (best_axis < 0) {
        // Not on the surface: the face whose plane is nearest (largest signed outside distance).
        float best_gap = -FLT_MAX;
        for (int axis = 0; axis < 3; ++axis) {
            float gap = fabsf(p[axis]) - h[axis];
            if (gap > best_gap) {
                best_gap = gap;
                best_axis = axis;
                best_sign = p[axis] < 0.0f ? -1.0f : 1.0f;
            }
        }
    }
    float out[3] = {0.0f, 0.0f, 0.0f};
    out[best_axis] = best_sign;
    return tread_v3(out[0], out[1], out[2]);
}

// ---- the reference: tr_cast_box (capsules) before its shortcut, with its helpers (verbatim but for the names) ------

static bool ref_presses_into(const tr_cast *c, tread_vec3 normal) {
    return tread_v3_dot(c->d, normal) < -TR_APPROACH_TOLERANCE * tread_v3_length(c->d);
}

static int ref_start_contact(const tr_cast *c, float sep, tread_vec3 normal) {
    if (sep > TR_TOUCH_TOLERANCE) return -1;
    if (tread_v3_length_sq(c->d) == 0.0f) return sep < 0.0f ? 1 : 0;
    return ref_presses_into(c, normal) ? 1 : 0;
}

static void ref_fill_start_hit(tr_feature_hit *out, float sep, const tr_closest *cl, tread_vec3 normal,
                           tread_vec3 surface_normal, float shape_radius) {
    out->t = 0.0f;
    out->started_in_contact = true;
    out->penetration = sep < 0.0f ? -sep : 0.0f;
    out->normal = normal;
    out->surface_normal = surface_normal;
    // For rounded world shapes the surface lies shape_radius out from the core along the normal.
    out->point = tread_v3_mad(cl->on_shape, shape_radius, normal);
    out->feature = 0;
}

static void ref_fill_sweep_hit(tr_feature_hit *out, const tr_hit *h, tread_vec3 surface_normal) {
    out->t = h->t;
    out->started_in_contact = false;
    out->penetration = 0.0f;
    out->point = h->point;
    out->normal = h->normal;
    out->surface_normal = surface_normal;
    out->feature = 0;
}

static bool ref_cast_box(const tr_cast *c, tread_vec3 half, float t_max, tr_feature_hit *out) {
    tr_hit h;
    if (c->is_ray) {
        if (!tr_ray_box(c->p0, c->d, half, t_max, &h)) return false;
        ref_fill_sweep_hit(out, &h, tr_box_surface_normal(half, h.point, h.normal, c->d));
        out->started_in_contact = h.t == 0.0f && tread_v3_distance(h.point, c->p0) == 0.0f;
        return true;
    }
    // Conservative early-outs on the box's slabs: the largest per-axis gap between the capsule's bounds and the
    // box bounds their distance from below. Far at the start, the closest test would hand over to the sweep;
    // far over the whole cast (start and end bounds on the same side of one slab), the sweep misses.
    tread_vec3 hm = tread_v3_max(tread_v3_abs(c->p0), tread_v3_abs(c->p1));
    hm = tread_v3_max(tread_v3_max(hm, tread_v3_abs(c->d)), half);
    float slack = TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * tr_maxf(tr_maxf(hm.x, hm.y), tr_maxf(hm.z, c->r));
    tread_vec3 lo = tread_v3_min(c->p0, c->p1), hi = tread_v3_max(c->p0, c->p1);
    float reach = c->r + TR_TOUCH_TOLERANCE + slack;
    float gap = tr_maxf(tr_maxf(tr_maxf(lo.x - half.x, -half.x - hi.x), tr_maxf(lo.y - half.y, -half.y - hi.y)),
                        tr_maxf(lo.z - half.z, -half.z - hi.z));
    if (gap > reach) {
        tread_vec3 m = tread_v3_scale(c->d, t_max);
        tread_vec3 elo = tread_v3_add(lo, m), ehi = tread_v3_add(hi, m);
        bool miss = (lo.x - half.x > reach && elo.x - half.x > reach) || (-half.x - hi.x > reach && -half.x - ehi.x > reach) ||
                    (lo.y - half.y > reach && elo.y - half.y > reach) || (-half.y - hi.y > reach && -half.y - ehi.y > reach) ||
                    (lo.z - half.z > reach && elo.z - half.z > reach) || (-half.z - hi.z > reach && -half.z - ehi.z > reach);
        if (miss) return false;
    } else {
        tr_closest cl;
        ref_closest_segment_box(c->p0, c->p1, half, &cl);
        float sep = cl.distance - c->r;
        int decision = ref_start_contact(c, sep, cl.normal);
        if (decision == 0) return false;
        if (decision == 1) {
            ref_fill_start_hit(out, sep, &cl, cl.normal, tr_box_surface_normal(half, cl.on_shape, cl.normal, c->d), 0.0f);
            return true;
        }
    }
    if (!tr_sweep_capsule_box(c->p0, c->p1, c->r, c->d, half, t_max, &h)) return false;
    ref_fill_sweep_hit(out, &h, tr_box_surface_normal(half, h.point, h.normal, c->d));
    return true;
}

// ---- the comparison --------------------------------------------------------------------------------------------

static uint64_t rng_state;
static float uniform(float lo, float hi) { return course_uniform(&rng_state, lo, hi); }
static tread_vec3 random_vec(float lo, float hi) { return tread_v3(uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)); }

static bool same_bits(const tr_closest *a, const tr_closest *b) {
    const float fa[10] = {a->distance, a->on_shape.x, a->on_shape.y, a->on_shape.z, a->on_segment.x, a->on_segment.y,
                          a->on_segment.z, a->normal.x, a->normal.y, a->normal.z};
    const float fb[10] = {b->distance, b->on_shape.x, b->on_shape.y, b->on_shape.z, b->on_segment.x, b->on_segment.y,
                          b->on_segment.z, b->normal.x, b->normal.y, b->normal.z};
    return memcmp(fa, fb, sizeof fa) == 0;
}

// A coordinate near a box face or inside the slab: on the face plane exactly, a hair off it, a little or far
// off it, or anywhere within.
static float near_face(float h) {
    switch ((int)uniform(0.0f, 6.0f)) {
    case 0: return uniform(0.0f, 1.0f) < 0.5f ? h : -h;
    case 1: return (uniform(0.0f, 1.0f) < 0.5f ? 1.0f : -1.0f) * (h + uniform(-1.0e-5f, 1.0e-5f) * h);
    case 2: return (uniform(0.0f, 1.0f) < 0.5f ? 1.0f : -1.0f) * (h + uniform(0.0f, 0.5f));
    case 3: return uniform(-3.0f * h - 2.0f, 3.0f * h + 2.0f);
    default: return uniform(-h, h);
    }
}

// A segment around the box: its first end placed by near_face on each axis; its direction upright (a capsule's
// core: components exactly zero), along another axis, tilted, random, or none (a sphere).
static void random_segment(tread_vec3 h, int i, tread_vec3 *p0, tread_vec3 *p1) {
    *p0 = tread_v3(near_face(h.x), near_face(h.y), near_face(h.z));
    float len = uniform(0.0f, 2.0f);
    tread_vec3 e;
    switch (i % 6) {
    case 0: e = tread_v3(0.0f, len, 0.0f); break;
    case 1: e = tread_v3(0.0f, -len, 0.0f); break;
    case 2: e = i % 12 < 6 ? tread_v3(len, 0.0f, 0.0f) : tread_v3(0.0f, 0.0f, -len); break;
    case 3: e = tread_v3(uniform(-0.05f, 0.05f), len, uniform(-0.05f, 0.05f)); break;
    case 4: e = random_vec(-2.0f, 2.0f); break;
    default: e = i % 60 == 5 ? tread_v3_zero() : random_vec(-0.5f, 0.5f); break;
    }
    *p1 = tread_v3_add(*p0, e);
}

static void test_closest_segment_box_shortcut_is_the_long_way(void **state) {
    (void)state;
    rng_state = 29;
    int apart = 0, inside = 0;
    for (int i = 0; i < CASES; i++) {
        tread_vec3 h = i % 7 == 0 ? tread_v3(50.0f, 0.5f, 50.0f) : random_vec(0.05f, 2.0f);
        tread_vec3 p0, p1;
        random_segment(h, i, &p0, &p1);
        if (i % 11 == 0) { // far from the origin: the box's frame a world away (coordinates' rounding grows)
            tread_vec3 far = random_vec(-3000.0f, 3000.0f);
            p0 = tread_v3_sub(tread_v3_add(p0, far), far);
            p1 = tread_v3_sub(tread_v3_add(p1, far), far);
        }
        tr_closest got, want;
        tr_closest_segment_box(p0, p1, h, &got);
        ref_closest_segment_box(p0, p1, h, &want);
        if (!same_bits(&got, &want))
            fail_msg("case %d: p0 (%a %a %a) p1 (%a %a %a) half (%a %a %a): distance %a, the long way %a", i, p0.x, p0.y,
                     p0.z, p1.x, p1.y, p1.z, h.x, h.y, h.z, got.distance, want.distance);
        if (want.distance > 0.0f)
            apart++;
        else
            inside++;
    }
    // Both sides are met often: the shortcut's and the long way's.
    assert_true(apart > CASES / 4 && inside > CASES / 20);
}

static bool same_hit(const tr_feature_hit *a, const tr_feature_hit *b) {
    const float fa[11] = {a->t, a->penetration, a->point.x, a->point.y, a->point.z, a->normal.x, a->normal.y,
                          a->normal.z, a->surface_normal.x, a->surface_normal.y, a->surface_normal.z};
    const float fb[11] = {b->t, b->penetration, b->point.x, b->point.y, b->point.z, b->normal.x, b->normal.y,
                          b->normal.z, b->surface_normal.x, b->surface_normal.y, b->surface_normal.z};
    return memcmp(fa, fb, sizeof fa) == 0 && a->started_in_contact == b->started_in_contact && a->feature == b->feature;
}

// A capsule cast near a box: a random segment moved along its closest points' normal to a random gap (a third
// of them within 0.1 mm: touching; a third up to 2 m: past the slab bounds), cast along, toward, away from the box
// or anywhere, over a random t_max.
static tr_cast random_cast(tread_vec3 h, int i, float *t_max) {
    tr_cast c;
    memset(&c, 0, sizeof c);
    random_segment(h, i, &c.p0, &c.p1);
    c.r = uniform(0.0f, 1.0f) < 0.1f ? 0.0f : uniform(0.05f, 0.5f);
    tr_closest cl;
    tr_closest_segment_box(c.p0, c.p1, h, &cl);
    float gap = i % 3 == 0 ? uniform(-1.0e-4f, 2.0e-4f) : (i % 3 == 1 ? uniform(-0.01f, 0.3f) : uniform(0.0f, 2.0f));
    tread_vec3 move = tread_v3_scale(cl.normal, c.r + gap - cl.distance);
    c.p0 = tread_v3_add(c.p0, move);
    c.p1 = tread_v3_add(c.p1, move);
    float len = uniform(0.0f, 1.0f) < 0.05f ? 0.0f : uniform(0.0f, i % 3 == 2 ? 3.0f : 0.6f);
    tread_vec3 n = cl.normal, along = tread_v3_normalize(tread_v3_reject(random_vec(-1.0f, 1.0f), n));
    switch (i % 5) {
    case 0: c.d = tread_v3_scale(along, len); break;                                         // sliding past
    case 1: c.d = tread_v3_scale(tread_v3_normalize(tread_v3_mad(along, -0.3f, n)), len); break; // toward
    case 2: c.d = tread_v3_scale(tread_v3_normalize(tread_v3_mad(along, 0.3f, n)), len); break;  // away
    case 3: c.d = tread_v3(0.0f, i % 10 < 5 ? -len : len, 0.0f); break;                     // a probe
    default: c.d = tread_v3_scale(tread_v3_normalize(random_vec(-1.0f, 1.0f)), len); break;
    }
    *t_max = uniform(0.0f, 1.0f) < 0.3f ? 1.0f : uniform(0.01f, 1.0f);
    return c;
}

static void test_cast_box_shortcuts_are_the_long_way(void **state) {
    (void)state;
    rng_state = 2029;
    int hits = 0, misses = 0, started = 0;
    for (int i = 0; i < CASES; i++) {
        tread_vec3 h = i % 7 == 0 ? tread_v3(50.0f, 0.5f, 50.0f) : random_vec(0.05f, 2.0f);
        float t_max;
        tr_cast c = random_cast(h, i, &t_max);
        tr_feature_hit got, want;
        memset(&got, 0, sizeof got);
        memset(&want, 0, sizeof want);
        bool hit = tr_cast_box(&c, h, t_max, &got), want_hit = ref_cast_box(&c, h, t_max, &want);
        if (hit != want_hit || (hit && !same_hit(&got, &want)))
            fail_msg("case %d: p0 (%a %a %a) p1 (%a %a %a) r %a d (%a %a %a) t_max %a half (%a %a %a): %s, the long way %s",
                     i, c.p0.x, c.p0.y, c.p0.z, c.p1.x, c.p1.y, c.p1.z, c.r, c.d.x, c.d.y, c.d.z, t_max, h.x, h.y, h.z,
                     hit ? "hit" : "miss", want_hit ? "hit" : "miss");
        if (!hit)
            misses++;
        else if (got.started_in_contact)
            started++;
        else
            hits++;
    }
    assert_true(hits > CASES / 20 && misses > CASES / 4 && started > CASES / 20);
}

// A point on (or near) a box's surface: on a face, an edge or a corner (clamped coordinates exactly at +-h), or a
// hair off them within and beyond the feature tolerance.
static tread_vec3 surface_point(tread_vec3 h) {
    float p[3], hv[3] = {h.x, h.y, h.z};
    int on = 1 + (int)uniform(0.0f, 3.0f); // faces the point is placed on: 1 face, 2 an edge, 3 a corner
    int first = (int)uniform(0.0f, 3.0f);
    for (int k = 0; k < 3; k++) {
        bool placed = (k - first + 3) % 3 < on;
        float sign = uniform(0.0f, 1.0f) < 0.5f ? -1.0f : 1.0f;
        p[k] = placed ? sign * hv[k] : uniform(-hv[k], hv[k]);
        if (placed && uniform(0.0f, 1.0f) < 0.3f) p[k] += uniform(-2.0e-4f, 2.0e-4f);
    }
    if (uniform(0.0f, 1.0f) < 0.02f) p[first] = 0.0f; // off the surface
    return tread_v3(p[0], p[1], p[2]);
}

static void test_box_surface_normal_shortcut_is_the_long_way(void **state) {
    (void)state;
    rng_state = 7;
    for (int i = 0; i < CASES; i++) {
        tread_vec3 h = i % 50 == 0 ? tread_v3(1.0e-4f, 0.5f, 1.0f) : random_vec(0.05f, 2.0f);
        tread_vec3 p = surface_point(h);
        tread_vec3 n = tread_v3_normalize(random_vec(-1.0f, 1.0f));
        tread_vec3 m;
        switch (i % 4) {
        case 0: m = tread_v3_zero(); break;
        case 1: m = tread_v3(0.0f, -uniform(0.0f, 1.0f), 0.0f); break;
        case 2: m = tread_v3(uniform(-1.0f, 1.0f), 0.0f, uniform(-1.0f, 1.0f)); break;
        default: m = random_vec(-1.0f, 1.0f); break;
        }
        tread_vec3 got = tr_box_surface_normal(h, p, n, m), want = ref_box_surface_normal(h, p, n, m);
        if (memcmp(&got, &want, sizeof got) != 0)
            fail_msg("case %d: point (%a %a %a) half (%a %a %a): (%g %g %g), the long way (%g %g %g)", i, p.x, p.y, p.z,
                     h.x, h.y, h.z, got.x, got.y, got.z, want.x, want.y, want.z);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closest_segment_box_shortcut_is_the_long_way),
        cmocka_unit_test(test_cast_box_shortcuts_are_the_long_way),
        cmocka_unit_test(test_box_surface_normal_shortcut_is_the_long_way),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
