// SPDX-License-Identifier: MIT
// What a move tells the caller about what it touched, after the move: the impulses it gives dynamic bodies (Jolt's
// CharacterVirtual pushes them the same way: the character's mass times its speed into the body, capped by its
// strength) and the contact listener's added / persisted / removed events, against the caller's contact memory.
#include "contacts.h"

#include <string.h>

// Most surfaces the event collection looks at (nearest first); bodies past them are not reported this move.
#define TR_EVENT_CONTACTS 32
// Most surfaces the end of a move lists as touched into the caller's buffer.
#define TR_TOUCH_CONTACTS 128

tread_contact_event tr_contact_event(const tr_move_query *q, const tread_contact *c, tread_vec3 velocity) {
    tread_contact_event e;
    memset(&e, 0, sizeof e);
    e.character = c->character;
    e.body = c->body; // (null for a character)
    e.separation = c->separation;
    e.point = c->point;
    e.normal = c->normal;
    tread_vec3 other = tread_v3_zero();
    // (Bodies a move met are live: the caller cannot remove one during the move.)
    if (tr_query_body_kind(q, TR_WHO(*c), &e.body_type, &e.body_flags) != TREAD_OK || tr_query_point_velocity(q, TR_WHO(*c), c->point, &other) != TREAD_OK)
        TR_ASSERT(false);
    e.relative_velocity = tread_v3_sub(velocity, other);
    return e;
}

void tr_ask_push(const tr_move_query *q, const tread_contact_event *e, bool *out_can_push, bool *out_can_be_pushed) {
    *out_can_push = true;
    *out_can_be_pushed = true;
    if (q->listener && q->listener->push)
        q->listener->push(q->character, q->index, e, out_can_push, out_can_be_pushed, q->listener->context);
}

tread_vec3 tr_world_velocity(const tread_ground *ground, tread_vec3 velocity) {
    return ground->state == TREAD_GROUND_ON_GROUND ? tread_v3_add(velocity, ground->velocity) : velocity;
}

tread_result tr_move_impulses(const tr_move_query *q, const tread_character *ch, tread_vec3 velocity, float dt, tread_move_state *st) {
    const tread_character_settings *s = &ch->settings;
    tread_vec3 asked = tr_world_velocity(&st->previous_ground, velocity);
    for (int i = 0; i < st->contacts_kept; ++i) {
        const tread_contact *c = &st->contacts[i];
        if (c->character >= 0) continue; // characters of a batch are parted by it, not given impulses
        tread_body_type type;
        uint32_t flags;
        tread_result r = tr_query_body_kind(q, TR_WHO(*c), &type, &flags);
        if (r != TREAD_OK) return r;
        if (type != TREAD_BODY_DYNAMIC) continue;
        tread_contact_event e = tr_contact_event(q, c, asked);
        // The speed at which the character wanted to go into the body.
        float speed = -tread_v3_dot(e.relative_velocity, c->normal);
        if (!(speed > 0.0f)) continue;
        bool can_push, can_be_pushed;
        tr_ask_push(q, &e, &can_push, &can_be_pushed);
        float magnitude = tr_minf(s->mass * speed, s->max_strength * dt);
        if (!can_push || !(magnitude > 0.0f)) continue;
        int k = 0;
        while (k < st->impulses_kept && !tread_body_id_equal(st->impulses[k].body, c->body)) ++k;
        if (k == st->impulses_kept) {
            ++st->result.impulse_count; // (past a full list it cannot tell a body met before: counted again)
            if (k == TREAD_MAX_MOVE_IMPULSES) continue;
            ++st->impulses_kept;
        } else if (st->impulses[k].magnitude >= magnitude) {
            continue; // one impulse per body: the strongest contact's (a mesh body touched on several triangles)
        }
        st->impulses[k] = (tread_body_impulse){c->body, c->point, tread_v3_neg(c->normal), magnitude};
    }
    return TREAD_OK;
}

tread_result tr_record_touching(const tr_move_query *q, const tread_character *ch, tread_move_state *st) {
    const tread_character_settings *s = &ch->settings;
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tread_query_filter filter = tr_query_filter_default();
    filter.layer_mask = s->collide_mask | s->ground_mask;
    tread_contact contacts[TR_TOUCH_CONTACTS];
    int count = 0;
    bool overflow = false;
    tread_result r = tr_query_contacts(q, &shape, tr_center(ch, st->result.position), s->skin + s->ground_probe_distance, &filter, contacts,
                                       TR_TOUCH_CONTACTS, &count, &overflow);
    if (r != TREAD_OK) return r;
    for (int i = 0; i < count; ++i) tr_record_touch(q, st, &contacts[i]);
    if (overflow) ++st->result.contact_count; // (at least one more: the count past the query's is unknown)
    return TREAD_OK;
}

static bool same_other(const tread_contact_event *a, const tread_contact_event *b) {
    return a->character == b->character && tread_body_id_equal(a->body, b->body);
}

// Event order: by separation, then body index, then character index.
static bool sooner(const tread_contact_event *a, const tread_contact_event *b) {
    if (a->separation != b->separation) return a->separation < b->separation;
    if (a->body.index != b->body.index) return a->body.index < b->body.index;
    return a->character < b->character;
}

bool tr_listener_has_events(const tread_contact_listener *l) { return l && (l->added || l->persisted || l->removed); }

tread_result tr_touching_events(const tr_move_query *q, const tread_character *ch, const tread_move_state *st, tread_contact_memory *out) {
    const tread_character_settings *s = &ch->settings;
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tread_query_filter filter = tr_query_filter_default();
    filter.layer_mask = s->collide_mask | s->ground_mask;
    filter.include_sensors = true;
    tread_contact contacts[TR_EVENT_CONTACTS];
    int count = 0;
    bool overflow = false;
    // Touching: within the skin the controller keeps and the ground probe's reach (what it stands on counts).
    tread_result r = tr_query_contacts(q, &shape, tr_center(ch, st->result.position), s->skin + s->ground_probe_distance, &filter, contacts,
                                       TR_EVENT_CONTACTS, &count, &overflow);
    if (r != TREAD_OK) return r;
    tread_vec3 velocity = tr_world_velocity(&st->result.ground, st->result.velocity);
    tread_contact_event now[TREAD_MAX_CONTACT_MEMORY];
    int n = 0;
    bool full = false;
    for (int i = 0; i < count; ++i) {
        tread_contact_event e = tr_contact_event(q, &contacts[i], velocity);
        if ((e.body_flags & TREAD_BODY_SENSOR) && e.separation > 0.0f) continue; // near a sensor is not in it
        int k = 0;
        while (k < n && !same_other(&now[k], &e)) ++k;
        if (k < n) {
            if (sooner(&e, &now[k])) now[k] = e; // one event per body: its nearest point
            continue;
        }
        if (n == TREAD_MAX_CONTACT_MEMORY) {
            full = true;
            continue;
        }
        // Sorted as it goes in (a short list).
        int at = n++;
        while (at > 0 && sooner(&e, &now[at - 1])) {
            now[at] = now[at - 1];
            --at;
        }
        now[at] = e;
    }
    memcpy(out->contacts, now, sizeof now[0] * (size_t)n);
    out->count = n;
    out->overflow = full || overflow;
    return TREAD_OK;
}

void tr_deliver_events(const tread_contact_listener *l, const tread_character *ch, int index, const tread_contact_memory *now,
                       tread_contact_memory *memory) {
    TR_ASSERT(l && now && memory && now != memory);
    for (int i = 0; i < now->count; ++i) {
        bool known = false;
        for (int k = 0; k < memory->count && !known; ++k) known = same_other(&memory->contacts[k], &now->contacts[i]);
        tread_contact_event_fn *fn = known ? l->persisted : l->added;
        if (fn) fn(ch, index, &now->contacts[i], l->context);
    }
    for (int k = 0; k < memory->count; ++k) {
        bool kept = false;
        for (int i = 0; i < now->count && !kept; ++i) kept = same_other(&memory->contacts[k], &now->contacts[i]);
        if (!kept && l->removed) l->removed(ch, index, &memory->contacts[k], l->context);
    }
    *memory = *now;
}
