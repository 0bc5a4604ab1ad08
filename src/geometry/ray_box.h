// SPDX-License-Identifier: MIT
// The slab test of a segment against an axis-aligned box, shared by the BVH traversals and the grid shapes
// (heightfield, voxels) that clip rays and sweeps to their bounds and cells.
#ifndef TREAD_RAY_BOX_H
#define TREAD_RAY_BOX_H

#include "../core.h"

// Branch-free min/max with exactly tr_minf/tr_maxf's results (a < b ? a : b, a > b ? a : b, including
// which operand a tie or NaN returns: MINSS/MAXSS return the second operand then). The compiler otherwise
// tends to emit compare-and-branch, and slab tests mispredict badly.
#if defined(__SSE__) || defined(_M_X64)
#include <xmmintrin.h>
static inline float tr_branchless_minf(float a, float b) { return _mm_cvtss_f32(_mm_min_ss(_mm_set_ss(a), _mm_set_ss(b))); }
static inline float tr_branchless_maxf(float a, float b) { return _mm_cvtss_f32(_mm_max_ss(_mm_set_ss(a), _mm_set_ss(b))); }
#else
static inline float tr_branchless_minf(float a, float b) { return tr_minf(a, b); }
static inline float tr_branchless_maxf(float a, float b) { return tr_maxf(a, b); }
#endif

// Slab test of the segment o + t d, t in [0, t_max], against box grown by `inflate` on each axis.
// inv_d from tr_inverse_direction. Returns the entry t, or a value > t_max when missed.
static inline float tr_ray_aabb_entry(tread_vec3 o, tread_vec3 inv_d, tread_aabb box, tread_vec3 inflate, float t_max) {
    float tx0 = (box.min.x - inflate.x - o.x) * inv_d.x, tx1 = (box.max.x + inflate.x - o.x) * inv_d.x;
    float ty0 = (box.min.y - inflate.y - o.y) * inv_d.y, ty1 = (box.max.y + inflate.y - o.y) * inv_d.y;
    float tz0 = (box.min.z - inflate.z - o.z) * inv_d.z, tz1 = (box.max.z + inflate.z - o.z) * inv_d.z;
    float tmin = tr_branchless_maxf(tr_branchless_maxf(tr_branchless_minf(tx0, tx1), tr_branchless_minf(ty0, ty1)), tr_branchless_maxf(tr_branchless_minf(tz0, tz1), 0.0f));
    float tmax = tr_branchless_minf(tr_branchless_minf(tr_branchless_maxf(tx0, tx1), tr_branchless_maxf(ty0, ty1)), tr_branchless_minf(tr_branchless_maxf(tz0, tz1), t_max));
    return tmin <= tmax ? tmin : t_max + 1.0f;
}

// Per-axis 1/d. A zero component maps to a huge finite value (not inf) so that 0 * it stays 0, never NaN:
// a segment lying exactly on a slab plane counts as inside that slab.
#define TR_HUGE_INVERSE 1.0e30f
static inline float tr_inverse_component(float v) { return v != 0.0f ? 1.0f / v : TR_HUGE_INVERSE; }
static inline tread_vec3 tr_inverse_direction(tread_vec3 d) {
    return tread_v3(tr_inverse_component(d.x), tr_inverse_component(d.y), tr_inverse_component(d.z));
}

// The part [*t_in, *t_out] of the segment o + t d, t in [0, t_max], inside the box, faces included (false when there
// is none): a grid shape's walk over its cells. An axis the segment does not move along only tests the origin
// against that slab. (In tr_ray_aabb_entry's slab arithmetic an origin on the slab's max face, as a ray straight
// down the last column of a heightfield, gives (max - o) * inv_d = 0: the segment would end at t = 0.) Elsewhere the
// same operations as tr_ray_aabb_entry, so the same fractions.
static inline bool tr_ray_aabb_clip(tread_vec3 o, tread_vec3 d, tread_aabb box, float t_max, float *t_in, float *t_out) {
    const float oa[3] = {o.x, o.y, o.z}, da[3] = {d.x, d.y, d.z};
    const float lo[3] = {box.min.x, box.min.y, box.min.z}, hi[3] = {box.max.x, box.max.y, box.max.z};
    float enter = 0.0f, leave = t_max;
    for (int a = 0; a < 3; a++) {
        if (da[a] == 0.0f) {
            if (oa[a] < lo[a] || oa[a] > hi[a]) return false;
            continue;
        }
        float inv = 1.0f / da[a];
        float t0 = (lo[a] - oa[a]) * inv, t1 = (hi[a] - oa[a]) * inv;
        enter = tr_maxf(enter, tr_minf(t0, t1));
        leave = tr_minf(leave, tr_maxf(t0, t1));
    }
    *t_in = enter;
    *t_out = leave;
    return enter <= leave;
}

// How far a cast's cell or node boxes are grown (metres) so that pruning never drops a triangle holding a hit: the
// touch tolerance plus the rounding of coordinates as large as the path's (o the point whose path o + t d, t in
// [0, 1], the boxes are tested against). A ray's watertight triangle test decides on corners rounded relative to its
// origin, which can put a crossing at a shared edge a few such roundings across it: the pad covers that too.
static inline float tr_cast_pad(tread_vec3 o, tread_vec3 d) {
    tread_vec3 m = tread_v3_max(tread_v3_abs(o), tread_v3_abs(tread_v3_add(o, d)));
    return TR_TOUCH_TOLERANCE + 1.0e-6f * tr_maxf(m.x, tr_maxf(m.y, m.z));
}

#endif
