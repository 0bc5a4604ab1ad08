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
