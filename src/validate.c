// SPDX-License-Identifier: MIT
// Argument checks shared by every public function.
#include "validate.h"

tread_result tr_check_range(const char *name, float value, float lo, float hi, const char *unit) {
    if (!isfinite(value)) return tr_error(TREAD_ERR_NOT_FINITE, "%s is %g; expected a finite number", name, (double)value);
    if (value < lo || value > hi)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s is %g%s%s; expected %g .. %g", name, (double)value, *unit ? " " : "", unit,
                        (double)lo, (double)hi);
    return TREAD_OK;
}

tread_result tr_check_length(const char *name, tread_vec3 v, float limit, const char *unit) {
    if (!tread_v3_is_finite(v))
        return tr_error(TREAD_ERR_NOT_FINITE, "%s = (%g, %g, %g) has a NaN or infinite component", name, (double)v.x, (double)v.y,
                        (double)v.z);
    if (tread_v3_length(v) > limit)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s = (%g, %g, %g) is longer than %g %s", name, (double)v.x, (double)v.y, (double)v.z,
                        (double)limit, unit);
    return TREAD_OK;
}

tread_result tr_check_point(const char *name, tread_vec3 p) {
    if (!tread_v3_is_finite(p))
        return tr_error(TREAD_ERR_NOT_FINITE, "%s = (%g, %g, %g) has a NaN or infinite component", name, (double)p.x, (double)p.y,
                        (double)p.z);
    if (fabsf(p.x) > TR_MAX_COORDINATE || fabsf(p.y) > TR_MAX_COORDINATE || fabsf(p.z) > TR_MAX_COORDINATE)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s = (%g, %g, %g) exceeds the %g m coordinate limit", name, (double)p.x, (double)p.y,
                        (double)p.z, (double)TR_MAX_COORDINATE);
    return TREAD_OK;
}

tread_result tr_check_unit(const char *name, tread_vec3 n) {
    if (!tread_v3_is_finite(n)) return tr_error(TREAD_ERR_NOT_FINITE, "%s has a NaN or infinite component", name);
    float len = tread_v3_length(n);
    if (!(fabsf(len - 1.0f) <= TR_UNIT_TOLERANCE))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s = (%g, %g, %g) has length %g; expected a unit vector (within %g)", name, (double)n.x,
                        (double)n.y, (double)n.z, (double)len, (double)TR_UNIT_TOLERANCE);
    return TREAD_OK;
}

tread_result tr_check_unit_quat(const char *name, tread_quat q) {
    if (!tread_quat_is_finite(q)) return tr_error(TREAD_ERR_NOT_FINITE, "%s has a NaN or infinite component", name);
    // (In double: a component of 4.2e37 squares past the float range.)
    double len = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    if (!(fabs(len - 1.0) <= (double)TR_UNIT_TOLERANCE))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s = (%g, %g, %g, %g) has length %g; expected a unit quaternion (within %g)", name,
                        (double)q.x, (double)q.y, (double)q.z, (double)q.w, len, (double)TR_UNIT_TOLERANCE);
    return TREAD_OK;
}

bool tr_v3_direction_scaled(tread_vec3 v, tread_vec3 *out) {
    if (!tread_v3_is_finite(v)) return false;
    float largest = fmaxf(fabsf(v.x), fmaxf(fabsf(v.y), fabsf(v.z)));
    if (!(largest > 0.0f)) return false;
    // Divided (not multiplied by a reciprocal, which overflows for a subnormal largest): components in [-1, 1].
    tread_vec3 scaled = tread_v3(v.x / largest, v.y / largest, v.z / largest);
    *out = tread_v3_normalize(scaled);
    return true;
}

tread_result tr_check_filter(const tread_query_filter *filter, const char *name) {
    // (A zero-filled filter's layer mask of 0 selects nothing: every query misses with TREAD_OK.)
    return filter ? tr_check_cookie(filter->internal_cookie, name, "tread_query_filter", "tread_query_filter_default()") : TREAD_OK;
}

tread_result tr_check_initialised(const tread_character *ch, const char *name) {
    if (!ch) return tr_error(TREAD_ERR_NULL_ARGUMENT, "%s is NULL", name);
    // Its settings are a validated copy of settings that came from tread_character_settings_default(): a character
    // that never went through tread_character_init() (or tread_character_load()) lacks their cookie. Zero-filled, it
    // moved with OK through nothing (radius 0, no masks).
    if (ch->settings.internal_cookie != TR_COOKIE)
        return tr_error(TREAD_ERR_UNINITIALIZED,
                        "%s is not initialised (a zero-filled or never-initialised tread_character): start with tread_character_init() "
                        "or tread_character_load()",
                        name);
    return TREAD_OK;
}
