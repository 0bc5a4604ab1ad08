// SPDX-License-Identifier: MIT
// Bodies that hit the character: a kinematic body's motion over the last world advance is swept against the
// character where it stands, and where it meets the character it pushes it ahead, so a body at any speed moves
// it out of the way instead of passing through (recovery alone caught only bodies slower than the recovery speed:
// a wall at 5 m/s went through a standing character). The sweep is the character's, backwards through the body's
// motion: against the body where it is now, from where the character would be had it moved with the body. The
// push slides along everything else; what it cannot do, the character is crushed (tr_crush_escape, recover.c).
#include "character_internal.h"
#include "contacts.h"

// Most moving bodies near the character one update handles (contacts come sorted: the same ones every time).
#define TR_PUSH_CONTACTS 16

// The push one moving body gives the character at `feet` (zero when its motion does not reach the character).
static tread_result push_of(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tr_who *body, tread_vec3 *out_push) {
    *out_push = tread_v3_zero();
    tread_vec3 center = tr_center(ch, feet), to;
    tread_quat turn;
    // The body's motion where the character is (its turn taken as the motion of the character's centre).
    tr_ground_motion(&q->src, &q->crowd, *body, center, &to, &turn);
    tread_vec3 d = tread_v3_sub(to, center);
    if (tread_v3_length(d) <= TR_MIN_MOVE) return TREAD_OK;
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tr_who_set only;
    tread_query_filter filter = tr_filter_one(ch, body, true, &only);
    tread_shape_hit hit;
    tread_result r = tr_query_cast(q, &shape, tread_v3_add(center, d), tread_v3_neg(d), &filter, &hit);
    // Not met: it passed by. Already inside it, deeper than the skin, when it began to move (teleported or spawned
    // into it): recovery's to resolve, along the way out it finds (the cast's normal from deep inside is no guide:
    // pushed along it, a sphere teleported 31 cm into a moving box went 47 cm in).
    if (r != TREAD_OK || !hit.hit || (hit.started_in_contact && hit.penetration > ch->settings.skin)) return r;
    // Met after `fraction` of the motion: the rest of the motion, along the contact normal, is how far it goes in.
    // Touching it when it began to move: all of its motion (left to recovery, a door at 3 m/s closing on a
    // character it touched went 1.7 cm a frame deeper into it, recovery's 2 m/s behind).
    float depth = (1.0f - hit.fraction) * tread_v3_dot(d, hit.normal);
    if (depth > 0.0f) *out_push = tread_v3_scale(hit.normal, depth + ch->settings.skin);
    return TREAD_OK;
}

// A dynamic body pushes only when the listener lets it (validated, and the character can be pushed by it).
static tread_result may_push(const tr_move_query *move, const tread_contact *contact, bool *out_allowed) {
    tread_body_type type;
    uint32_t flags;
    *out_allowed = true;
    tread_result r = tr_query_body_kind(move, TR_WHO(*contact), &type, &flags);
    if (r != TREAD_OK || type != TREAD_BODY_DYNAMIC || !move->listener) return r;
    bool can_push = true;
    *out_allowed = tr_query_validated(move, TR_WHO(*contact));
    if (*out_allowed) {
        tread_contact_event e = tr_contact_event(move, contact, tr_world_velocity(&move->character->ground, move->character->velocity));
        tr_ask_push(move, &e, &can_push, out_allowed);
    }
    return TREAD_OK;
}

// How deep the bare shape at `feet` is inside `body` (metres, 0 when clear of it).
static tread_result depth_in(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tr_who *body, float *out_depth) {
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tr_who_set only;
    tread_query_filter filter = tr_filter_one(ch, body, true, &only);
    tread_distance_result d;
    tread_result r = tr_query_closest(q, &shape, tr_center(ch, feet), 0.0f, &filter, &d);
    *out_depth = r == TREAD_OK && d.found && d.distance < 0.0f ? -d.distance : 0.0f;
    return r;
}

int tr_pressed_against_character(const tr_move_query *q, const tread_character *ch, tread_vec3 feet) {
    if (!q->crowd.world) return -1;
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tread_query_filter filter = tr_collide_filter(ch);
    tread_contact contacts[TR_PUSH_CONTACTS];
    int count = 0;
    bool overflow = false;
    tread_vec3 center = tr_center(ch, feet);
    if (tr_query_contacts(q, &shape, center, ch->settings.skin, &filter, contacts, TR_PUSH_CONTACTS, &count, &overflow) != TREAD_OK)
        return -1;
    for (int i = 0; i < count; ++i) // (sorted: the nearest first)
        if (contacts[i].character >= 0) return contacts[i].character;
    return -1;
}

tread_result tr_push_by_bodies(const tr_move_query *move, const tread_character *ch, tread_vec3 feet, float reach, tread_vec3 *out_push,
                               tr_crush *out_crush) {
    // Not vetoed by the move's filter: a kinematic body that pushes cannot be ignored (the collide mask's layers
    // alone choose, and one-way bodies push only feet above their top); a dynamic one can (the listener's validate
    // and can_be_pushed).
    *out_push = tread_v3_zero();
    *out_crush = (tr_crush){.count = 0, .aside = 0.0f};
    if (!(reach > 0.0f)) return TREAD_OK; // nothing moved (before the copy: the context is not small)
    // The other characters of a batch are where they were when the frame began, and the batch parts them after the
    // moves: a push slides along the world only. (Stopped by them, the first of two rows a piston met was crushed
    // against the second, which was free to go, and the piston then passed over it.)
    tr_move_query unfiltered = *move;
    unfiltered.filter = NULL;
    unfiltered.verdicts = NULL;
    tr_move_query world_only = unfiltered;
    world_only.crowd.world = NULL;
    const tr_move_query *q = &unfiltered;
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tread_query_filter filter = tr_collide_filter(ch);
    tread_contact contacts[TR_PUSH_CONTACTS];
    int count = 0;
    bool overflow = false;
    tread_result r = tr_query_contacts(q, &shape, tr_center(ch, feet), reach, &filter, contacts, TR_PUSH_CONTACTS, &count, &overflow);
    if (r != TREAD_OK) return r;
    bool grounded = ch->ground.state == TREAD_GROUND_ON_GROUND;
    tread_vec3 at = feet, rest = tread_v3_zero();
    for (int i = 0; i < count; ++i) {
        tr_who body = TR_WHO(contacts[i]);
        bool seen = false; // one push per body (a mesh reports a contact per triangle)
        for (int j = 0; j < i && !seen; ++j) seen = tr_who_equal(TR_WHO(contacts[j]), body);
        // The ground it stands on carries it instead (carry_phase); other characters are the batch update's to
        // part (they are where they were when the frame began).
        if (seen || body.character >= 0 || (grounded && tr_who_equal(body, TR_WHO(ch->ground)))) continue;
        bool allowed;
        if ((r = may_push(move, &contacts[i], &allowed)) != TREAD_OK) return r;
        if (!allowed) continue;
        tread_vec3 push;
        if ((r = push_of(q, ch, at, &body, &push)) != TREAD_OK) return r;
        float wanted = tread_v3_length(push);
        if (wanted <= TR_MIN_MOVE) continue;
        tr_who_set but_it;
        tread_query_filter others = tr_filter_one(ch, &body, false, &but_it);
        tr_slide_result slid;
        if ((r = tr_slide_filtered(&world_only, ch, at, push, TR_SLIDE_AIR, &others, NULL, &slid)) != TREAD_OK) return r;
        // Still inside the body where the slide stopped: pressed against something it cannot slide along, the push
        // was not completed along the body's motion. What is left of it is where a free spot would have to be.
        float depth;
        if ((r = depth_in(q, ch, slid.feet, &body, &depth)) != TREAD_OK) return r;
        if (depth > TR_CRUSH_DEPTH) {
            if (out_crush->count == 0) rest = tread_v3_sub(tread_v3_add(at, push), slid.feet);
            tr_crush_add(out_crush, body.body);
        }
        at = slid.feet;
    }
    // Crushed: from where the push stopped (swept there from where it stood), aside and then on along the push, to
    // the nearest free spot a sweep reaches with the crushers left out; none within reach: it stays where it is,
    // free of everything but them. Never a jump to a spot across a body. The other characters of a batch are in the
    // way here (where they stood): escaping into one, a character of a crowd a piston closed on was parted onto
    // another's head.
    if (out_crush->count > 0) {
        tread_vec3 spot;
        bool found = false;
        if ((r = tr_crush_escape(q, ch, at, rest, out_crush, &spot, &out_crush->aside, &found)) != TREAD_OK) return r;
        if (found) at = spot;
    }
    *out_push = tread_v3_sub(at, feet);
    return TREAD_OK;
}
