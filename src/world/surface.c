// SPDX-License-Identifier: MIT
// A body's surface velocity: a conveyor belt, or a floor whose surface turns while the body stays where it is. It is
// the body's own (any body type), in its frame, and it carries whoever stands on the body as the body's motion does.
#include "world_internal.h"

#include <math.h>

// A vector of the surface velocity: finite, each component within the coordinate limit (per second, or metres).
static tread_result check_part(const char *name, tread_vec3 v, const char *what) {
    if (!tread_v3_is_finite(v)) return tr_error(TREAD_ERR_NOT_FINITE, "%s has a NaN or infinite component", name);
    if (!(fabsf(v.x) <= TR_MAX_COORDINATE && fabsf(v.y) <= TR_MAX_COORDINATE && fabsf(v.z) <= TR_MAX_COORDINATE))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s = (%g, %g, %g) exceeds %g %s", name, (double)v.x, (double)v.y, (double)v.z,
                        (double)TR_MAX_COORDINATE, what);
    return TREAD_OK;
}

// The farthest a point of `local` bounds lies from `center` (metres): the rim a turning surface moves fastest at.
static float rim_radius(const tread_aabb *local, tread_vec3 center) {
    tread_vec3 far = tread_v3_max(tread_v3_abs(tread_v3_sub(local->min, center)), tread_v3_abs(tread_v3_sub(local->max, center)));
    return tread_v3_length(far);
}

tread_result tr_validate_surface(bool def, const tread_surface_velocity *v, const tread_aabb *local) {
    const char *linear = def ? "def.surface.linear" : "surface.linear", *angular = def ? "def.surface.angular" : "surface.angular";
    tread_result r;
    if ((r = check_part(linear, v->linear, "per second")) != TREAD_OK) return r;
    if ((r = check_part(angular, v->angular, "per second")) != TREAD_OK) return r;
    if ((r = check_part(def ? "def.surface.center" : "surface.center", v->center, "m (the coordinate limit)")) != TREAD_OK) return r;
    // Its speed anywhere on the body within the speed limit: the speed it carries a rider at is a move's speed. A
    // 2,000 m/s conveyor carried riders 1,967 m in a second; one turning at 6e6 m/s at its rim made every move fail.
    float along = tread_v3_length(v->linear), rim = rim_radius(local, v->center), turning = tread_v3_length(v->angular) * rim;
    if (!(along <= TR_MAX_SPEED))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s = (%g, %g, %g) is %g m/s; the speed limit is %g m/s", linear, (double)v->linear.x,
                        (double)v->linear.y, (double)v->linear.z, (double)along, (double)TR_MAX_SPEED);
    if (!(along + turning <= TR_MAX_SPEED))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT,
                        "%s = (%g, %g, %g) rad/s moves the body's rim (%g m from the centre it turns about) at %g m/s, %g m/s with "
                        "the linear part; the speed limit is %g m/s",
                        angular, (double)v->angular.x, (double)v->angular.y, (double)v->angular.z, (double)rim, (double)turning,
                        (double)(along + turning), (double)TR_MAX_SPEED);
    return TREAD_OK;
}

tread_vec3 tr_surface_point_velocity(const tread_surface_velocity *s, const tread_transform *transform, tread_vec3 point) {
    const tread_transform t = *transform;
    tread_vec3 arm = tread_v3_sub(tread_quat_rotate(tread_quat_conjugate(t.q), tread_v3_sub(point, t.p)), s->center);
    return tread_quat_rotate(t.q, tread_v3_add(s->linear, tread_v3_cross(s->angular, arm)));
}

void tr_surface_carry(const tread_surface_velocity *s, const tread_transform *transform, tread_vec3 point, float dt, tread_vec3 *out_point,
                      tread_quat *out_turn) {
    const tread_transform t = *transform;
    TR_ASSERT(s && out_point && out_turn);
    *out_point = point;
    *out_turn = tread_quat_identity();
    if (tread_v3_length_sq(s->linear) == 0.0f && tread_v3_length_sq(s->angular) == 0.0f) return;
    // In the body's frame: turned by |w| dt about `center` (the project's own sine and cosine), then moved along.
    tread_quat inv = tread_quat_conjugate(t.q);
    tread_vec3 q = tread_quat_rotate(inv, tread_v3_sub(point, t.p));
    float rate = tread_v3_length(s->angular);
    tread_quat spin = tread_quat_identity();
    if (rate > 0.0f) {
        double sn, cs;
        tr_sincos(0.5 * (double)rate * (double)dt, &sn, &cs);
        tread_vec3 axis = tread_v3_scale(s->angular, 1.0f / rate);
        spin = (tread_quat){(float)(axis.x * sn), (float)(axis.y * sn), (float)(axis.z * sn), (float)cs};
        q = tread_v3_add(s->center, tread_quat_rotate(spin, tread_v3_sub(q, s->center)));
    }
    q = tread_v3_mad(q, dt, s->linear);
    *out_point = tread_v3_add(t.p, tread_quat_rotate(t.q, q));
    *out_turn = tread_quat_normalize(tread_quat_mul(tread_quat_mul(t.q, spin), inv));
}
