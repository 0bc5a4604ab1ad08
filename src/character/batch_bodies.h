// SPDX-License-Identifier: MIT
// The batch update's bodies for characters (batch_bodies.c): each character as a kinematic body of the batch's own
// world, which the other characters' moves query as their obstacles.
#ifndef TREAD_BATCH_BODIES_H
#define TREAD_BATCH_BODIES_H

#include "../core.h"

// The batch update's bodies for characters: a character's shape as a kinematic body on `layer`, centred at
// `center` (its shape's centre); and putting one where a character is now, having been at `previous_center` when the
// frame began (what carries a character standing on it).
tread_body_def tr_character_body_def(const tread_character *ch, tread_vec3 center, uint32_t layer);
// Its velocity (m/s) is what a contact with it is measured against.
void tr_place_character_body(tread_world *others, tread_body_id body, tread_vec3 previous_center, tread_vec3 center, tread_quat rotation,
                             tread_vec3 velocity);
// After placing them: the broadphase tree built anew (bodies are handed to characters by rank, which changes as
// they move: a body may jump across the crowd from one frame to the next, which a refit serves badly).
void tr_settle_character_bodies(tread_world *others);

#endif
