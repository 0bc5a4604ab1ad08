// SPDX-License-Identifier: MIT
// Moving the origin (tread_world_shift_origin): every body and the given characters translated together, for worlds
// larger than floats are precise over.
#include "world_internal.h"
#include "world_query.h"
#include "../validate.h"

#include <stdio.h>

// Where `p` lands when the origin moves to `offset`, and whether that is inside the usable range.
static bool shifted(tread_vec3 p, tread_vec3 offset, tread_vec3 *out) {
    *out = tread_v3_sub(p, offset);
    return tr_check_point("position", *out) == TREAD_OK;
}

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
    tread_vec3 p;
    for (int i = 0; i < w->slot_count; ++i) {
        const tr_body *b = &w->bodies[i];
        if (b->alive && (!shifted(b->transform.p, offset, &p) || !shifted(b->previous.p, offset, &p)))
            return tr_error(TREAD_ERR_INVALID_ARGUMENT, "offset = (%g, %g, %g) puts body %d at (%g, %g, %g), beyond the %g m coordinate limit",
                            (double)offset.x, (double)offset.y, (double)offset.z, i, (double)p.x, (double)p.y, (double)p.z,
                            (double)TR_MAX_COORDINATE);
    }
    for (int i = 0; i < count; ++i)
        if (!shifted(characters[i].position, offset, &p))
            return tr_error(TREAD_ERR_INVALID_ARGUMENT, "offset = (%g, %g, %g) puts characters[%d] at (%g, %g, %g), beyond the %g m coordinate limit",
                            (double)offset.x, (double)offset.y, (double)offset.z, i, (double)p.x, (double)p.y, (double)p.z,
                            (double)TR_MAX_COORDINATE);
    // Each position takes the same float subtraction, so what stood on what still does; bounds are recomputed as
    // when the body was added, and the tree rebuilt over them.
    for (int i = 0; i < w->slot_count; ++i) {
        tr_body *b = &w->bodies[i];
        if (!b->alive) continue;
        b->transform.p = tread_v3_sub(b->transform.p, offset);
        b->previous.p = tread_v3_sub(b->previous.p, offset);
        b->aabb = tr_transform_bounds(b->transform, b->local_bounds);
    }
    tr_world_rebuild_tree(w);
    for (int i = 0; i < count; ++i) {
        characters[i].position = tread_v3_sub(characters[i].position, offset);
        characters[i].ground.point = tread_v3_sub(characters[i].ground.point, offset);
    }
    return TREAD_OK;
}
