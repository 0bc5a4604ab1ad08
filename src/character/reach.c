// SPDX-License-Identifier: MIT
// How far a move's queries reach, from one table: each phase (and each context that holds several) lists the terms
// it adds to the body's own reach, and one function sums them. A probe lengthened in a phase is lengthened here, in
// its term, or the debug build's reach watch (move_query.h) fails the tests that move characters: every
// query of the reference move is held to the reach of the phase that made it, as that phase alone would be.
#include "character_internal.h"

// Probes reach a little past the distances the settings name (the tread-depth ray, the step probe's lift): the
// margin every reach keeps for them (metres).
#define TR_REACH_MARGIN 0.1f

enum {
    TERM_BODY = 1u << 0,     // the shape's farthest point from its centre, the skin and the margin
    TERM_CARRY = 1u << 1,    // the ground's carry before the walk
    TERM_PUSHERS = 1u << 2,  // moving bodies looked for within their reach and swept back over it: twice it
    TERM_WALK = 1u << 3,     // the caller's motion, |velocity| dt
    TERM_UNBURY = 1u << 4,   // recovery's push over dt, or the unbury search's reach (the farther)
    TERM_RECOVERY = 1u << 5, // recovery's push over dt
    TERM_PROBE = 1u << 6,    // the ground probe below the feet
    TERM_RISER = 1u << 7,    // the riser's depth below the feet
    TERM_MOVED = 1u << 8,    // how far the update took the feet (a later phase begins where it ended)
    TERM_BLOCKED = 1u << 9,  // the motion still to do where a wall stopped it, which a step walks again
    TERM_STEP = 1u << 10,    // a step: up and down twice max step, a tread, the contact search, the riser, a roll, the look past a sloped riser
    TERM_FLOOR = 1u << 11,   // a snap: step_down_distance, the probe, a roll
    TERM_NUDGE = 1u << 12,   // a batch's push or parting
};

// The terms of each reach. The reference move's context holds its three phases from where it began: the update's
// reach, then the step's and the snap's beyond it (the blocked motion a step walks again is part of the walk, so a
// whole move counts the walk twice). Its candidates are what the update's usual queries reach (the slide, recovery's
// push, the ground probe; the unbury search walks the tree when it runs, and the riser's depth counts only for the
// strategy that holds the body up): most moves neither step nor snap, and a box reaching as far as a step's roll
// onto a nose gathered twice the bodies (P1: 6 a move). The later candidates are what a step or a snap reaches as
// well, gathered only by a move that goes there (move_query.c).
static const unsigned terms_of[TR_REACH_COUNT] = {
    [TR_REACH_UPDATE] = TERM_BODY | TERM_CARRY | TERM_PUSHERS | TERM_WALK | TERM_UNBURY | TERM_PROBE | TERM_RISER,
    [TR_REACH_STAIRS] = TERM_BODY | TERM_MOVED | TERM_BLOCKED | TERM_RECOVERY | TERM_STEP,
    [TR_REACH_FLOOR] = TERM_BODY | TERM_FLOOR,
    [TR_REACH_MOVE] = TERM_BODY | TERM_CARRY | TERM_PUSHERS | TERM_WALK | TERM_UNBURY | TERM_PROBE | TERM_RISER | TERM_BLOCKED |
                      TERM_STEP | TERM_FLOOR,
    [TR_REACH_CANDIDATES] = TERM_BODY | TERM_CARRY | TERM_PUSHERS | TERM_WALK | TERM_RECOVERY | TERM_PROBE,
    [TR_REACH_HELD_CANDIDATES] = TERM_BODY | TERM_CARRY | TERM_PUSHERS | TERM_WALK | TERM_RECOVERY | TERM_PROBE | TERM_RISER,
    [TR_REACH_LATER_CANDIDATES] = TERM_BODY | TERM_CARRY | TERM_PUSHERS | TERM_WALK | TERM_BLOCKED | TERM_RECOVERY | TERM_PROBE |
                                  TERM_STEP | TERM_FLOOR,
    [TR_REACH_NUDGE] = TERM_BODY | TERM_NUDGE | TERM_PROBE,
    [TR_REACH_BODY] = TERM_BODY,
};

float tr_reach(const tread_character *ch, tr_reach_kind kind, const tr_reach_inputs *in) {
    TR_ASSERT(kind >= 0 && kind < TR_REACH_COUNT);
    const tread_character_settings *s = &ch->settings;
    const unsigned t = terms_of[kind];
    // The terms in the table's order, each only when the kind has it (a move begins two or three contexts: this is
    // on every move's path, so no loop over the table and each shared quantity once).
    float sum = 0.0f;
    float roll = t & (TERM_STEP | TERM_FLOOR) ? tr_roll_length(ch) : 0.0f;
    if (t & TERM_BODY) sum += tr_body_reach(s) + s->skin + TR_REACH_MARGIN;
    if (t & TERM_CARRY) sum += in->carried;
    if (t & TERM_PUSHERS) sum += 2.0f * in->pushers;
    if (t & TERM_WALK) sum += in->walk;
    if (t & TERM_UNBURY) sum += tr_maxf(s->recovery_speed * in->dt, tr_unbury_reach(s));
    if (t & TERM_RECOVERY) sum += s->recovery_speed * in->dt;
    if (t & TERM_PROBE) sum += s->ground_probe_distance;
    if (t & TERM_RISER) sum += s->riser.depth;
    if (t & TERM_MOVED) sum += in->moved;
    if (t & TERM_BLOCKED) sum += in->blocked;
    // (A round bottom rolls over the nose it lands on: roll.c.)
    if (t & TERM_STEP)
        sum += 2.0f * s->max_step_height + s->min_step_depth + s->contact_step.search_overshoot + s->riser.depth + roll + tr_step_look_ahead(ch);
    if (t & TERM_FLOOR) sum += s->step_down_distance + s->ground_probe_distance + roll;
    if (t & TERM_NUDGE) sum += in->nudge;
    return sum;
}

void tr_move_reaches(const tread_character *ch, const tr_reach_inputs *in, bool held, tr_move_reach *out) {
    const tread_character_settings *s = &ch->settings;
    // tr_reach's sums for the three kinds, each in the table's order (the same bits), their shared terms computed once.
    float roll = tr_roll_length(ch);
    float step = 2.0f * s->max_step_height + s->min_step_depth + s->contact_step.search_overshoot + s->riser.depth + roll + tr_step_look_ahead(ch);
    float floor = s->step_down_distance + s->ground_probe_distance + roll;
    float recovery = s->recovery_speed * in->dt;
    float common = tr_body_reach(s) + s->skin + TR_REACH_MARGIN + in->carried + 2.0f * in->pushers + in->walk; // body, carry, pushers, walk
    out->move = common + tr_maxf(recovery, tr_unbury_reach(s)) + s->ground_probe_distance + s->riser.depth + in->blocked + step + floor;
    float usual = common + recovery + s->ground_probe_distance;
    out->usual = held ? usual + s->riser.depth : usual;
    out->later = usual + in->blocked + step + floor;
    TR_ASSERT(out->move == tr_reach(ch, TR_REACH_MOVE, in) && out->later == tr_reach(ch, TR_REACH_LATER_CANDIDATES, in) &&
              out->usual == tr_reach(ch, held ? TR_REACH_HELD_CANDIDATES : TR_REACH_CANDIDATES, in));
}
