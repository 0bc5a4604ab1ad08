// SPDX-License-Identifier: MIT
// A move's report on what it touched (contacts.c): impulses on dynamic bodies, the contact listener's events and who
// may push whom. Below the reference move (character.c) and the batch update (batch.c); calls only the body module
// and the query layer.
#ifndef TREAD_CONTACTS_H
#define TREAD_CONTACTS_H

#include "body.h"

// The velocity over the world of a character moving at `velocity` relative to `ground`.
tread_vec3 tr_world_velocity(const tread_ground *ground, tread_vec3 velocity);
// The impulses the move gives the dynamic bodies it met while moving at `velocity` (the caller's, relative to the
// ground it started on) for dt seconds, into res->impulses.
tread_result tr_move_impulses(const tr_move_query *q, const tread_character *ch, tread_vec3 velocity, float dt, tread_move_result *res);
// Every surface within the skin and the ground probe of where the move left the character (res->position) recorded
// as touched (into the caller's buffer: tr_record_touch), at most TR_TOUCH_CONTACTS of them.
tread_result tr_record_touching(const tr_move_query *q, const tread_character *ch, tread_move_result *res);
// The listener's added / persisted / removed for what touches the character where the move left it (res->position),
// against `memory`, which then holds this move's contacts. Nothing without a listener that has one of them.
tread_result tr_move_events(const tr_move_query *q, const tread_character *ch, tread_move_result *res, tread_contact_memory *memory);
// What a listener is told about a contact of the move, the character moving at `velocity` over the world.
tread_contact_event tr_contact_event(const tr_move_query *q, const tread_contact *c, tread_vec3 velocity);
// The listener's word on pushes for one contact (both true without a push callback).
void tr_ask_push(const tr_move_query *q, const tread_contact_event *e, bool *out_can_push, bool *out_can_be_pushed);

#endif
