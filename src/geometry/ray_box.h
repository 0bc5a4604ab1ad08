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


#endif
