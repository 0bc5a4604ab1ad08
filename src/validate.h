// SPDX-License-Identifier: MIT
// Argument checks shared by every public function: one wording for every "what was wrong" message.
#ifndef TREAD_VALIDATE_H
#define TREAD_VALIDATE_H

#include "core.h"

// `name` is finite and in [lo, hi] (`unit` names the unit in the message, "" for none).
tread_result tr_check_range(const char *name, float value, float lo, float hi, const char *unit);
// `name` is a finite vector no longer than `limit`.
tread_result tr_check_length(const char *name, tread_vec3 v, float limit, const char *unit);
// `name` is a finite point with every coordinate within TR_MAX_COORDINATE.
tread_result tr_check_point(const char *name, tread_vec3 p);
// `name` is a finite vector of length 1 to within TR_UNIT_TOLERANCE.
tread_result tr_check_unit(const char *name, tread_vec3 n);
// `name` is a finite quaternion of length 1 to within TR_UNIT_TOLERANCE (a rotation kept as it is: a load's).
tread_result tr_check_unit_quat(const char *name, tread_quat q);
// Squared lengths between these neither overflow nor lose bits to underflow: tread_v3_normalize is exact enough.
#define TR_NORMALIZE_MIN_SQ 1.0e-30f
#define TR_NORMALIZE_MAX_SQ 1.0e30f
// tr_v3_direction beyond those squared lengths (and for NaN or infinity).
bool tr_v3_direction_scaled(tread_vec3 v, tread_vec3 *out);
// The unit vector along `v` without overflow or underflow (scaled by its largest component first, so (0, 1e30, 0)
// and (0, 1e-40, 0) both give (0, 1, 0)); false for a zero or non-finite `v` (*out untouched). Bit for bit
// tread_v3_normalize where that one neither overflows nor underflows (the usual case costs one comparison more).
static inline bool tr_v3_direction(tread_vec3 v, tread_vec3 *out) {
    float len_sq = tread_v3_length_sq(v);
    if (len_sq == 1.0f) { // already unit (a settings' up): tread_v3_normalize would scale it by exactly 1
        *out = v;
        return true;
    }
    if (len_sq >= TR_NORMALIZE_MIN_SQ && len_sq <= TR_NORMALIZE_MAX_SQ) {
        *out = tread_v3_normalize(v);
        return true;
    }
    return tr_v3_direction_scaled(v, out);
}
// TREAD_ERR_NULL_ARGUMENT for a NULL character, TREAD_ERR_UNINITIALIZED for one that never went through
// tread_character_init() or tread_character_load() (its settings lack the cookie); `name` names it in the message.
tread_result tr_check_initialised(const tread_character *ch, const char *name);
// tr_check_initialised, then the character's whole state as tread_character_init and a move leave it: its settings
// (validated as tread_character_init validates them) and what it derives from them, feet, velocity, ground, snap
// timer (character/settings.c). Every public entry that reads a character calls it: the character is the caller's
// plain data. A message names the field as `name`->field.
tread_result tr_check_character(const tread_character *ch, const char *name);
// `name` is a filter from tread_query_filter_default() (TREAD_ERR_UNINITIALIZED otherwise), or NULL (the default).
tread_result tr_check_filter(const tread_query_filter *filter, const char *name);

#endif
