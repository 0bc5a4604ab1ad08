// SPDX-License-Identifier: MIT
// tr_closest_segment_box's common case, inline for the query that meets it on nearly every call (tr_cast_box: the
// floor a character stands on, the blocks beside it): one slab puts the segment apart from the box and its p0 end
// is nearest. closest.c's general path decides the rest.
#ifndef TREAD_CLOSEST_BOX_H
#define TREAD_CLOSEST_BOX_H

#include "geometry.h"

// Does axis i's slab alone put the segment o + s*dir, s in [0, 1], outside the box, by the general path's own
// quotients (closest.c segment_meets_box)? Then that test answers false whatever the other axes give: its [lo, hi]
// never leaves [0, 1], and this slab's interval [t_in, t_out] (t0 <= t1 for dir > 0, t0 >= t1 for dir < 0:
// rounding is monotone and -ext <= ext) lies wholly before 0 or after 1. (Finite coordinates, ext >= 0, as the
// library's boxes have.)
static inline bool tr_slab_excludes(float o, float dir, float ext) {
    if (dir == 0.0f) return o < -ext || o > ext;
    float t0 = (-ext - o) / dir, t1 = (ext - o) / dir;
    return dir > 0.0f ? (t1 < 0.0f || t0 > 1.0f) : (t0 < 0.0f || t1 > 1.0f);
}

// The closest points of the segment p0 + s*e and the box at the origin (half extents `half`) when one slab puts
// them apart and p0's end is nearest (the gradient there is not negative, as the general path's segment_box_param
// tests first) at a positive distance: with the general path's float operations in its order (centre, the end, its
// clamp, the gradient from the end's offset, set_separated), so the same bits. False, with nothing written, when
// the general path must decide.
static inline bool tr_closest_segment_box_end(tread_vec3 p0, tread_vec3 e, tread_vec3 half, tr_closest *out) {
    if (!tr_slab_excludes(p0.x, e.x, half.x) && !tr_slab_excludes(p0.y, e.y, half.y) && !tr_slab_excludes(p0.z, e.z, half.z))
        return false;
    tread_vec3 center = tread_v3_mad(p0, 0.5f, e);
    tread_vec3 on_seg = tread_v3_mad(center, -0.5f, e);
    tread_vec3 on_box = tread_v3(tr_clampf(on_seg.x, -half.x, half.x), tr_clampf(on_seg.y, -half.y, half.y),
                                 tr_clampf(on_seg.z, -half.z, half.z));
    tread_vec3 delta = tread_v3_sub(on_seg, on_box);
    float g = 0.0f; // the gradient at mu = -1/2, term by term
    g += e.x * delta.x;
    g += e.y * delta.y;
    g += e.z * delta.z;
    if (!(g >= 0.0f)) return false;
    float dist = tread_v3_length(delta);
    if (!(dist > 0.0f)) return false; // touching: the general path picks the face normal
    out->distance = dist;
    out->on_segment = on_seg;
    out->on_shape = on_box;
    out->normal = tread_v3_scale(delta, 1.0f / dist);
    return true;
}

// The general path, for a caller whose tr_closest_segment_box_end answered false (e = p1 - p0, as given to it):
// tr_closest_segment_box without asking the common case again.
void tr_closest_segment_box_general(tread_vec3 p0, tread_vec3 p1, tread_vec3 e, tread_vec3 half, tr_closest *out);

#endif
