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

#endif
