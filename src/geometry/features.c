// SPDX-License-Identifier: MIT
// Surface features: which box face or triangle feature a contact point lies on, and triangle normals.
#include "geometry.h"

// Two face choices whose dot products with the motion differ by less than this fraction of |motion| tie,
// so a diagonal motion onto an edge falls back to the contact normal instead of to rounding noise.
#define FACE_TIE_FRACTION 1.0e-4f

// The face to report among those a point touches (bit 2 axis + side of `touched`, side 1 the negative face): the
// one most opposed to the motion, ties (and no motion) to the one most aligned with the contact normal, in face
// order; touching none (a point off the surface), the face whose plane is nearest.
static tread_vec3 choose_box_face(unsigned touched, const float p[3], const float h[3], tread_vec3 normal,
                                  tread_vec3 motion) {
    const float m[3] = {motion.x, motion.y, motion.z};
    const float n[3] = {normal.x, normal.y, normal.z};
    float motion_len = tread_v3_length(motion);
    float tie = FACE_TIE_FRACTION * motion_len;
    int best_axis = -1;
    float best_sign = 1.0f, best_motion = 0.0f, best_normal = 0.0f;
    for (int axis = 0; axis < 3; ++axis) {
        for (int side = 0; side < 2; ++side) {
            float sign = side == 0 ? 1.0f : -1.0f;
            if (!(touched & (1u << (2 * axis + side)))) continue;
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

tread_vec3 tr_box_surface_normal(tread_vec3 half, tread_vec3 point, tread_vec3 normal, tread_vec3 motion) {
    const float h[3] = {half.x, half.y, half.z};
    const float p[3] = {point.x, point.y, point.z};
    // Candidate faces: those the point touches. One alone (a point inside a face, the common contact) is the answer
    // whatever the motion and the normal; more (an edge, a corner) or none are weighed.
    unsigned touched = 0;
    float out[3] = {0.0f, 0.0f, 0.0f};
    for (int axis = 0; axis < 3; ++axis) {
        if (!(fabsf(p[axis] - h[axis]) > TR_FEATURE_TOLERANCE)) touched |= 1u << (2 * axis), out[axis] = 1.0f;
        if (!(fabsf(-p[axis] - h[axis]) > TR_FEATURE_TOLERANCE)) touched |= 2u << (2 * axis), out[axis] = -1.0f;
    }
    if (touched == 0 || (touched & (touched - 1u)) != 0) return choose_box_face(touched, p, h, normal, motion);
    return tread_v3(out[0], out[1], out[2]);
}

// Squared distance from p to the segment a-b.
static float point_segment_distance_sq(tread_vec3 p, tread_vec3 a, tread_vec3 b) {
    tread_vec3 ab = tread_v3_sub(b, a);
    tread_vec3 ap = tread_v3_sub(p, a);
    float len_sq = tread_v3_length_sq(ab);
    float s = len_sq > 0.0f ? tr_clampf(tread_v3_dot(ap, ab) / len_sq, 0.0f, 1.0f) : 0.0f;
    return tread_v3_length_sq(tread_v3_sub(ap, tread_v3_scale(ab, s)));
}

int tr_triangle_feature(tread_vec3 a, tread_vec3 b, tread_vec3 c, tread_vec3 point) {
    const tread_vec3 v[3] = {a, b, c};
    const float tol_sq = TR_FEATURE_TOLERANCE * TR_FEATURE_TOLERANCE;
    // Corners before edges: a point near a corner is near both its edges too.
    int nearest = -1;
    float nearest_sq = tol_sq;
    for (int i = 0; i < 3; ++i) {
        float dist_sq = tread_v3_length_sq(tread_v3_sub(point, v[i]));
        if (dist_sq <= nearest_sq) {
            nearest_sq = dist_sq;
            nearest = i;
        }
    }
    if (nearest >= 0) return TR_TRI_VERTEX0 + nearest;
    nearest_sq = tol_sq;
    for (int i = 0; i < 3; ++i) {
        float dist_sq = point_segment_distance_sq(point, v[i], v[(i + 1) % 3]);
        if (dist_sq <= nearest_sq) {
            nearest_sq = dist_sq;
            nearest = i;
        }
    }
    if (nearest >= 0) return TR_TRI_EDGE0 + nearest;
    return TR_TRI_FACE;
}

tread_vec3 tr_triangle_normal(tread_vec3 a, tread_vec3 b, tread_vec3 c) {
    tread_vec3 n = tread_v3_cross(tread_v3_sub(b, a), tread_v3_sub(c, a));
    float twice_area = tread_v3_length(n);
    if (!(twice_area >= TR_DEGENERATE_AREA)) return tread_v3_zero();
    return tread_v3_scale(n, 1.0f / twice_area);
}
