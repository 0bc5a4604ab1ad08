// SPDX-License-Identifier: MIT
// Moving the origin: every body translated together, for worlds larger than floats are precise over. The public
// tread_world_shift_origin (src/character/origin.c) moves the characters with them.
#include "world_internal.h"
#include "world_query.h"
#include "../validate.h"

// Where `p` lands when the origin moves to `offset`, and whether that is inside the usable range.
static bool shifted(tread_vec3 p, tread_vec3 offset, tread_vec3 *out) {
    *out = tread_v3_sub(p, offset);
    return tr_check_point("position", *out) == TREAD_OK;
}

tread_result tr_world_check_shift(const tread_world *w, tread_vec3 offset) {
    tread_vec3 p;
    for (int i = 0; i < w->slot_count; ++i) {
        const tr_body *b = &w->bodies[i];
        if (b->alive && (!shifted(b->transform.p, offset, &p) || !shifted(b->previous.p, offset, &p)))
            return tr_error(TREAD_ERR_INVALID_ARGUMENT, "offset = (%g, %g, %g) puts body %d at (%g, %g, %g), beyond the %g m coordinate limit",
                            (double)offset.x, (double)offset.y, (double)offset.z, i, (double)p.x, (double)p.y, (double)p.z,
                            (double)TR_MAX_COORDINATE);
    }
    return TREAD_OK;
}

void tr_world_shift(tread_world *w, tread_vec3 offset) {
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
    tr_world_changed(w);
}
