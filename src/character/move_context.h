// SPDX-License-Identifier: MIT
// A move's query context (the per-move context of docs/DESIGN.md): what every query of one move shares, its bounds,
// candidates, filters and the caller's listener, buffer and debug drawing. The query layer (move_query.c) and what it
// builds on (move_filter.c: what a move lets through; move_draw.c; move_bodies.c) read it.
#ifndef TREAD_MOVE_CONTEXT_H
#define TREAD_MOVE_CONTEXT_H

#include "source.h"

// Most bodies and characters whose validation (tread_contact_listener::validate) one move remembers; past them
// it asks again (the same answer: it is asked about the same move).
#define TR_VERDICTS 32
// One-way bodies block feet up to this far below their top (metres): rounding, not a way in from below.
#define TR_ONE_WAY_SLACK 1.0e-3f

// The listener's answers so far in one move: each body asked about once, whatever number of queries meet it.
typedef struct tr_verdicts {
    tread_body_id body[TR_VERDICTS]; // as the move's queries name them (characters tagged)
    bool accepted[TR_VERDICTS];
    int count;
} tr_verdicts;

// Most bodies of one world a move keeps as its candidates (more: its queries walk the world's tree themselves).
#define TR_MOVE_CANDIDATES 64
// The candidates are gathered this much beyond the move's bounds (metres): touching counts as a hit.
#define TR_GATHER_SLACK 1.0e-3f

// A move's candidate bodies in one world: gathered by one walk of its broad phase when the move begins, then
// every query of the move looks only at them (the per-move query context of docs/DESIGN.md).
typedef struct tr_candidates {
    int32_t slots[TR_MOVE_CANDIDATES];
    float bounds[6 * TR_MOVE_CANDIDATES]; // their boxes, as tr_scope's rows
    int count;
    bool gathered;   // false: none gathered (too many, or not yet): the queries walk the tree
    tread_aabb box;  // every body meeting it is a candidate; a query reaching out of it walks the tree
} tr_candidates;

// The reach of the phase running in the reference move's context (move.c sets it as each phase begins): debug
// builds hold every query to it as well as to the context's bounds, from where the phase began, as that phase alone
// would be bounded, and record the worst excess per thread (tr_reach_watch_take_excess; tests/test_reach.c).
typedef struct tr_reach_watch {
    tread_vec3 center;
    float reach;
} tr_reach_watch;

typedef struct tr_move_query {
    tr_source src;                     // tread's own world (direct calls) or another engine's backend, and its move
    tread_aabb bounds;                 // every query of this move stays inside (metres)
    tr_candidates near;                // the world's bodies within the bounds (tread's own world only)
    tr_candidates near_others;         // the other characters' bodies within them
    bool usual;                        // the move's usual reach was gathered (near.box holds it)
    const tread_query_filter *filter;  // the caller's filter for this move, on top of each query's; NULL: none
    const tread_world *others;         // the other characters of a batch update as bodies; NULL: none
    tread_body_id self;                // this character's own body among them (its id in `others`, untagged)
    const int *order;                  // others: rank (a body's user data - 1) -> index in the batch's arrays
    // Set by begin from the character: one-way bodies (when the world has any) block only feet at or above their
    // top, as the feet were when the move began.
    const tread_character *character;
    tread_vec3 up;
    float feet_height;                 // the feet along up, metres
    bool one_way;                      // the world has one-way bodies
    // The caller's listener (validate asked once per body per move) and the moving character's index for it.
    const tread_contact_listener *listener;
    int index;
    tr_verdicts *verdicts;             // NULL: no validation
    // The caller's buffer for every contact the move records (tr_record_contact); NULL: the result's own only.
    tread_contact *contacts;
    int contact_capacity;
    const tread_debug_draw *draw;      // the caller's debug drawing for this move; NULL: none
    tr_reach_watch *watch;             // the running phase's reach (reference move); NULL: the bounds only
} tr_move_query;

#endif
