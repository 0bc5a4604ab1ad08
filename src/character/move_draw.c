// SPDX-License-Identifier: MIT
// The move's debug drawing (move_draw.h): each callback only when the caller gave one.
#include "move_draw.h"

void tr_draw_ground(const tr_move_query *q, const tread_ground *ground, tread_vec3 feet) {
    if (q->draw && q->draw->ground) q->draw->ground(ground, feet, q->draw->context);
}

void tr_draw_step(const tr_move_query *q, tread_vec3 from, tread_vec3 to, bool accepted) {
    if (q->draw && q->draw->step) q->draw->step(from, to, accepted, q->draw->context);
}

void tr_draw_contacts(const tr_move_query *q, const tread_contact *contacts, int count) {
    if (!q->draw || !q->draw->contact) return;
    for (int i = 0; i < count; ++i) q->draw->contact(&contacts[i], q->draw->context);
}
