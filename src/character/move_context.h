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

// What a move's query answer names: a body of the move's source, or (character >= 0, body null) another character of
// a batch, by its index in the batch's arrays (the answers' `character` field; tr_crowd).
typedef struct tr_who {
    tread_body_id body;
    int32_t character;
} tr_who;
// What any answer (a hit, contact, distance or ground: each has body and character) names.
#define TR_WHO(answer) ((tr_who){(answer).body, (answer).character})
static inline bool tr_who_equal(tr_who a, tr_who b) { return a.character == b.character && tread_body_id_equal(a.body, b.body); }

// The other characters of a batch update: the move's second query source, a world of their shapes where each stood
// as the frame began (batch.c). Its answers name the character (its index in the batch's arrays), never a body of
// that world: its bodies stay inside the move query.
typedef struct tr_crowd {
    const tread_world *world;    // NULL: no other characters (a single move)
    const tread_body_id *bodies; // rank -> that character's body in `world`
    const int *rank;             // index in the batch's arrays -> rank
    const int *order;            // rank (a body's user data - 1) -> index
    int count;                   // characters in the batch
    tread_body_id self;          // this character's own body in `world` (never met)
} tr_crowd;

// A query filter over named bodies and characters, as the phases ask for one (only the ground; all but what it
// starts inside of, or the crushers): the filter's callback is tr_who_filter and its context a tr_who_set. The query
// layer applies it to both sources (the world's bodies see body ids, the crowd's its characters); no other callback is
// given to a query that can meet the crowd.
typedef struct tr_who_set {
    const tread_body_id *bodies;
    int body_count;
    const int32_t *characters;
    int character_count;
    bool only; // true: only these pass; false: all but these
} tr_who_set;
bool tr_who_filter(tread_body_id body, uint32_t layer, void *user_data, void *context);
// Does the set let `who` through?
bool tr_who_set_passes(const tr_who_set *set, tr_who who);

// The listener's answers so far in one move: each body or character asked about once, whatever number of queries
// meet it.
typedef struct tr_verdicts {
    tr_who who[TR_VERDICTS];
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

// The later candidates of the reference move (what a step or a snap reaches beyond its usual queries), gathered by the
// first query that leaves the usual ones' box and stays inside this one (move_query.c): held outside the context,
// which its queries see as const.
typedef struct tr_later_candidates {
    tread_aabb box;          // cut to the move's bounds
    bool world_done;         // near gathered (or tried)
    bool crowd_done;         // crowd gathered (or tried)
    tr_candidates near;      // the world's bodies meeting the box
    tr_candidates crowd;     // the other characters' (crowd.world's)
} tr_later_candidates;

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
    tr_candidates near_crowd;          // the other characters' bodies within them (crowd.world's)
    bool usual;                        // the move's usual reach was gathered (near.box holds it)
    tr_later_candidates *later;        // what a step or snap reaches besides, gathered on demand; NULL: none
    const tread_query_filter *filter;  // the caller's filter for this move, on top of each query's; NULL: none
    tr_crowd crowd;                    // the other characters of a batch update (crowd.world NULL: none)
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
