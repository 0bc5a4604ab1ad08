// SPDX-License-Identifier: MIT
// Moving the origin (tread_world_shift_origin): the world's bodies (tr_world_shift) and the given characters
// translated together, for worlds larger than floats are precise over. Here, above the world, because the characters
// are checked whole first, as every public entry that reads one checks it.
#include "character_internal.h"
#include "../validate.h"

#include <stdio.h>

tread_result tread_world_shift_origin(tread_world *w, tread_vec3 offset, tread_character *characters, int count) {
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    if (count < 0) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "count is %d; expected >= 0", count);
    if (count > 0 && !characters) return tr_error(TREAD_ERR_NULL_ARGUMENT, "characters is NULL with count %d", count);
    if (!tread_v3_is_finite(offset))
        return tr_error(TREAD_ERR_NOT_FINITE, "offset = (%g, %g, %g) has a NaN or infinite component", (double)offset.x,
                        (double)offset.y, (double)offset.z);
    // Everything is checked before anything moves: a shift either moves the world and the characters together or
    // changes nothing.
    for (int i = 0; i < count; ++i) {
        char name[32];
        snprintf(name, sizeof name, "characters[%d]", i);
        tread_result r = tr_check_character(&characters[i], name);
        if (r != TREAD_OK) return r;
    }
    tread_result r = tr_world_check_shift(w, offset);
    if (r != TREAD_OK) return r;
    for (int i = 0; i < count; ++i) {
        tread_vec3 p = tread_v3_sub(characters[i].position, offset);
        if ((r = tr_check_point("position", p)) != TREAD_OK)
            return tr_error(TREAD_ERR_INVALID_ARGUMENT, "offset = (%g, %g, %g) puts characters[%d] at (%g, %g, %g), beyond the %g m coordinate limit",
                            (double)offset.x, (double)offset.y, (double)offset.z, i, (double)p.x, (double)p.y, (double)p.z,
                            (double)TR_MAX_COORDINATE);
    }
    tr_world_shift(w, offset);
    for (int i = 0; i < count; ++i) {
        characters[i].position = tread_v3_sub(characters[i].position, offset);
        characters[i].ground.point = tread_v3_sub(characters[i].ground.point, offset);
    }
    return TREAD_OK;
}
