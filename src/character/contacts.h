// SPDX-License-Identifier: MIT
// A move's report on what it touched (contacts.c): impulses on dynamic bodies, the contact listener's events and who
// may push whom. Below the reference move (move.c) and the batch update (batch.c); calls only the body module
// and the query layer.
#ifndef TREAD_CONTACTS_H
#define TREAD_CONTACTS_H

#include "body.h"

// The velocity over the world of a character moving at `velocity` relative to `ground`.
tread_vec3 tr_world_velocity(const tread_ground *ground, tread_vec3 velocity);
// The impulses the move gives the dynamic bodies it met while moving at `velocity` (the caller's, relative to the
// ground it started on) for dt seconds, into st->impulses.
tread_result tr_move_impulses(const tr_move_query *q, const tread_character *ch, tread_vec3 velocity, float dt, tread_move_state *st);
// Every surface within the skin and the ground probe of where the move left the character (st->result.position) recorded
// as touched (into the caller's buffer: tr_record_touch), at most TR_TOUCH_CONTACTS of them.
tread_result tr_record_touching(const tr_move_query *q, const tread_character *ch, tread_move_state *st);
// The listener has added, persisted or removed (events to follow from move to move, with a contact memory).
bool tr_listener_has_events(const tread_contact_listener *listener);
// What touches the character where the move left it (st->result.position), as the listener's events would name it, into
// *out: by separation then body, at most TREAD_MAX_CONTACT_MEMORY (out->overflow when more did). Calls nothing: a
// move collects, and its caller delivers once the whole update succeeded (tr_deliver_events).
tread_result tr_touching_events(const tr_move_query *q, const tread_character *ch, const tread_move_state *st, tread_contact_memory *out);
// The listener's added / persisted / removed for `now` (tr_touching_events) against `memory`, which then holds `now`;
// `character` and `index` are what the callbacks are given.
void tr_deliver_events(const tread_contact_listener *listener, const tread_character *character, int index, const tread_contact_memory *now,
                       tread_contact_memory *memory);
// What a listener is told about a contact of the move, the character moving at `velocity` over the world.
tread_contact_event tr_contact_event(const tr_move_query *q, const tread_contact *c, tread_vec3 velocity);
// The listener's word on pushes for one contact (both true without a push callback).
void tr_ask_push(const tr_move_query *q, const tread_contact_event *e, bool *out_can_push, bool *out_can_be_pushed);

#endif
