// SPDX-License-Identifier: MIT
// The plane solver: pure, no world access (like Box2D's mover). Given the motion the character wants and
// the surfaces it touches, return the motion that enters none of them.
#include "character_internal.h"
#include "../validate.h"

#include <stdio.h>

// Slack on "does not enter a plane" (metres of motion per metre): rounding must not flag a projection
// onto a plane as entering it.
#define TR_PLANE_SLACK 1.0e-6f

static bool satisfies(tread_vec3 m, const tread_vec3 *normals, int count, int skip_a, int skip_b) {
    for (int k = 0; k < count; ++k) {
        if (k == skip_a || k == skip_b) continue;
        if (tread_v3_dot(m, normals[k]) < -TR_PLANE_SLACK * tread_v3_length(m)) return false;
    }
    return true;
}

tread_vec3 tr_solve_planes(tread_vec3 motion, const tread_vec3 *normals, int count) {
    if (satisfies(motion, normals, count, -1, -1)) return motion;
    // One plane: slide along the first plane whose projection enters no other.
    for (int i = 0; i < count; ++i) {
        float into = tread_v3_dot(motion, normals[i]);
        if (into >= 0.0f) continue;
        tread_vec3 m = tread_v3_mad(motion, -into, normals[i]);
        if (satisfies(m, normals, count, i, -1)) return m;
    }
    // Two planes: move along their crease (the line both contain), in the motion's sense.
    for (int i = 0; i < count; ++i) {
        for (int j = i + 1; j < count; ++j) {
            tread_vec3 crease = tread_v3_cross(normals[i], normals[j]);
            float len = tread_v3_length(crease);
            if (len < 1.0e-6f) continue; // parallel planes have no crease
            crease = tread_v3_scale(crease, 1.0f / len);
            tread_vec3 m = tread_v3_scale(crease, tread_v3_dot(motion, crease));
            if (satisfies(m, normals, count, i, j)) return m;
        }
    }
    // Three or more planes box it in: stop.
    return tread_v3_zero();
}

tread_vec3 tr_clip_steep(tread_vec3 motion, tread_vec3 normal, tread_vec3 up) {
    // Horizontal: the face is a vertical wall, so pushing into it gains nothing (no climbing by walking).
    tread_vec3 horizontal = tread_v3_reject(motion, up);
    tread_vec3 wall = tread_v3_normalize(tread_v3_reject(normal, up));
    float into_wall = tread_v3_dot(horizontal, wall);
    if (into_wall < 0.0f) horizontal = tread_v3_mad(horizontal, -into_wall, wall);
    // Vertical: falling onto the face slides down along it; rising (a jump) is the caller's and stays.
    tread_vec3 vertical = tread_v3_scale(up, tread_v3_dot(motion, up));
    float into_face = tread_v3_dot(vertical, normal);
    if (into_face < 0.0f) vertical = tread_v3_mad(vertical, -into_face, normal);
    // Each part was shortened, but the slide down the face can point where the walk does: together never longer
    // than the motion (the soak found a capsule on a steep face moving 5 % farther than its input).
    tread_vec3 clipped = tread_v3_add(horizontal, vertical);
    float length = tread_v3_length(clipped), most = tread_v3_length(motion);
    return length > most ? tread_v3_scale(clipped, most / length) : clipped;
}

tread_vec3 tr_align_to_ground(tread_vec3 motion, tread_vec3 up, tread_vec3 ground_normal, bool keep_horizontal) {
    tread_vec3 horizontal = tread_v3_reject(motion, up);
    float n_up = tread_v3_dot(ground_normal, up);
    if (tread_v3_length_sq(horizontal) == 0.0f || n_up <= 0.0f) return horizontal;
    // Lift the horizontal part straight up onto the plane: same horizontal part, no motion into the ground.
    tread_vec3 along = tread_v3_mad(horizontal, -tread_v3_dot(horizontal, ground_normal) / n_up, up);
    if (keep_horizontal) return along;
    // Constant speed: as long as the motion was (turning onto a new slope neither speeds up nor slows down).
    return tread_v3_scale(along, tread_v3_length(motion) / tread_v3_length(along));
}

// ---- the public, validating forms --------------------------------------------------------------------------

tread_result tread_solve_planes(tread_vec3 motion, const tread_vec3 *normals, int count, tread_vec3 *out_motion) {
    if (!out_motion) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_motion is NULL");
    if (count < 0 || count > TREAD_MAX_SOLVER_PLANES)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "count is %d; expected 0 .. %d", count, TREAD_MAX_SOLVER_PLANES);
    if (count > 0 && !normals) return tr_error(TREAD_ERR_NULL_ARGUMENT, "normals is NULL with count %d", count);
    tread_result r = tr_check_length("motion", motion, TR_MAX_COORDINATE, "m");
    if (r != TREAD_OK) return r;
    for (int i = 0; i < count; ++i) {
        char name[32];
        snprintf(name, sizeof name, "normals[%d]", i);
        if ((r = tr_check_unit(name, normals[i])) != TREAD_OK) return r;
    }
    *out_motion = tr_solve_planes(motion, normals, count);
    return TREAD_OK;
}

tread_result tread_align_to_ground(tread_vec3 motion, tread_vec3 up, tread_vec3 ground_normal, bool keep_horizontal,
                                   tread_vec3 *out_motion) {
    if (!out_motion) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_motion is NULL");
    tread_result r = tr_check_length("motion", motion, TR_MAX_COORDINATE, "m");
    if (r != TREAD_OK) return r;
    if ((r = tr_check_unit("up", up)) != TREAD_OK) return r;
    if ((r = tr_check_unit("ground_normal", ground_normal)) != TREAD_OK) return r;
    *out_motion = tr_align_to_ground(motion, up, ground_normal, keep_horizontal);
    return TREAD_OK;
}
