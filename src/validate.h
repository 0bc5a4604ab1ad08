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
// TREAD_ERR_NULL_ARGUMENT for a NULL character, TREAD_ERR_UNINITIALIZED for one that never went through
// tread_character_init() or tread_character_load() (its settings lack the cookie); `name` names it in the message.
tread_result tr_check_initialised(const tread_character *ch, const char *name);
// `name` is a filter from tread_query_filter_default() (TREAD_ERR_UNINITIALIZED otherwise), or NULL (the default).
tread_result tr_check_filter(const tread_query_filter *filter, const char *name);

#endif
