// SPDX-License-Identifier: MIT
// The move's debug drawing (tread_move_options::debug_draw, in the move's context; NULL: nothing is drawn): what the
// queries looked at and what the phases decided.
#ifndef TREAD_MOVE_DRAW_H
#define TREAD_MOVE_DRAW_H

#include "move_context.h"

// Debug drawing of what the phases decided (the queries draw themselves).
void tr_draw_ground(const tr_move_query *q, const tread_ground *ground, tread_vec3 feet);
void tr_draw_step(const tr_move_query *q, tread_vec3 from, tread_vec3 to, bool accepted);
// A cast and its nearest hit, and the contacts a collection found. (Inline: every query asks, and nothing is drawn
// unless the caller gave a callback.)
static inline void tr_draw_cast(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                const tread_shape_hit *hit) {
    if (q->draw && q->draw->cast) q->draw->cast(shape, position, translation, hit, q->draw->context);
}
void tr_draw_contacts(const tr_move_query *q, const tread_contact *contacts, int count);

#endif
