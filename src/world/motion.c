// SPDX-License-Identifier: MIT
// A body's frame of motion as pure functions of its state (motion.h): shared by tread's world and other backends.
#include "motion.h"

tread_vec3 tr_motion_carry_point(const tread_transform *previous, const tread_transform *current, tread_vec3 point) {
    const tread_transform from = *previous, to = *current;
    if (from.q.x == to.q.x && from.q.y == to.q.y && from.q.z == to.q.z && from.q.w == to.q.w) {
        // No turn (every static body, every lift): a pure translation, and none at all when the body did not move,
        // so a character on still ground is never nudged by rounding.
        bool still = from.p.x == to.p.x && from.p.y == to.p.y && from.p.z == to.p.z;
        return still ? point : tread_v3_add(point, tread_v3_sub(to.p, from.p));
    }
    // Into the body's frame as it was, out of it as it is: in double, rounded once.
    double d[3] = {(double)point.x - from.p.x, (double)point.y - from.p.y, (double)point.z - from.p.z};
    double local[3], out[3];
    double fx = -(double)from.q.x, fy = -(double)from.q.y, fz = -(double)from.q.z, fw = from.q.w; // conjugate
    double tx = to.q.x, ty = to.q.y, tz = to.q.z, tw = to.q.w;
    // v' = v + 2 w (u x v) + 2 u x (u x v) for the unit quaternion (u, w).
    for (int pass = 0; pass < 2; ++pass) {
        double ux = pass ? tx : fx, uy = pass ? ty : fy, uz = pass ? tz : fz, uw = pass ? tw : fw;
        const double *v = pass ? local : d;
        double *r = pass ? out : local;
        double cx = 2.0 * (uy * v[2] - uz * v[1]), cy = 2.0 * (uz * v[0] - ux * v[2]), cz = 2.0 * (ux * v[1] - uy * v[0]);
        r[0] = v[0] + uw * cx + (uy * cz - uz * cy);
        r[1] = v[1] + uw * cy + (uz * cx - ux * cz);
        r[2] = v[2] + uw * cz + (ux * cy - uy * cx);
    }
    return tread_v3((float)(out[0] + to.p.x), (float)(out[1] + to.p.y), (float)(out[2] + to.p.z));
}

float tr_bounds_top(const tread_aabb *local, const tread_transform *previous, const tread_transform *current, tread_vec3 up) {
    // The highest corner of its own bounds along up (a platform turned with an up that is not +Y still has its top
    // face there; the world box's corner stood above it), where it was and where it is: the lower of the two.
    float top[2];
    for (int k = 0; k < 2; ++k) {
        tread_transform t = k ? *current : *previous;
        top[k] = -FLT_MAX;
        for (int corner = 0; corner < 8; ++corner) {
            tread_vec3 p = tread_v3(corner & 1 ? local->max.x : local->min.x, corner & 2 ? local->max.y : local->min.y,
                                    corner & 4 ? local->max.z : local->min.z);
            top[k] = tr_maxf(top[k], tread_v3_dot(tread_transform_point(t, p), up));
        }
    }
    return tr_minf(top[0], top[1]);
}
