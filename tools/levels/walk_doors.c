// SPDX-License-Identifier: MIT
// Doors, plats and buttons in a walk: Quake III's binary movers (g_mover.c's Use_BinaryMover, Reached_BinaryMover,
// ReturnToPos1, Blocked_Door, Touch_DoorTrigger, Touch_PlatCenterTrigger, Touch_Plat, Touch_Button, and
// trigger_multiple's multi_trigger), our own code. A team moves as one: its leader holds the state, each member
// goes its own way between its own pos1 and pos2 in its own time.
//
// Everything happens when a frame begins, in a fixed order, so a run depends on nothing but its inputs:
//   1. blocked: a door or plat (not a crusher) that crushed a character in the last frame reverses, once a frame;
//   2. arrivals: a mover whose move is over is at pos2 (it returns after its wait, and uses its targets) or pos1;
//   3. each character in turn (the batch's order), against each trigger volume in the level's order, then each
//      button and plat: a door trigger uses its door unless it is opening (at pos2 that restarts the wait, closing
//      it reverses), a plat trigger raises its plat from the bottom, a trigger_multiple uses its targets and waits;
//      a button touched at rest is pressed, a plat touched at its top stays up another second;
//   4. returns: a mover at pos2 whose wait is over starts back.
// Using a mover: at pos1 it starts toward pos2; at pos2 its wait starts again; moving, it reverses, from where it is.
// Touch is the character's bounds within 1 unit of the mover's (the game's linked bounds are 1 unit larger); a
// trigger volume is touched when the bounds overlap it. Quake starts a used mover 50 ms late (its level time lags
// the player's move); here it starts at the frame's beginning.
#include <math.h>
#include <string.h>

#include "walk.h"

static int leader(const level *lv, int i) { return lv->movers[i].master; }

void walk_doors_reset(walk_movers *mv, const level *lv) {
    for (int i = 0; i < lv->mover_count; ++i) {
        mv->binary[i].state = WALK_AT_POS1;
        mv->binary[i].since = 0.0;
        mv->binary[i].returns = INFINITY;
        mv->reversed[i] = false;
    }
    for (int k = 0; k < lv->mover_trigger_count; ++k) mv->trigger_ready[k] = 0.0;
    mv->opened = 0;
}

double walk_doors_fraction(const walk_movers *mv, const level *lv, int i, double t) {
    const walk_binary *b = &mv->binary[leader(lv, i)];
    double f = fmin(1.0, fmax(0.0, (t - b->since) / lv->movers[i].duration));
    switch (b->state) {
    case WALK_AT_POS1: return 0.0;
    case WALK_TO_POS2: return f;
    case WALK_AT_POS2: return 1.0;
    default: return 1.0 - f;
    }
}

// Quake's Use_BinaryMover on mover i (its team's leader acts).
static void use_mover(walk_movers *mv, const level *lv, int i, double t) {
    int l = leader(lv, i);
    const level_mover *m = &lv->movers[l];
    walk_binary *b = &mv->binary[l];
    double partial = fmin(t - b->since, m->duration);
    switch (b->state) {
    case WALK_AT_POS1:
        b->state = WALK_TO_POS2, b->since = t;
        ++mv->opened;
        break;
    case WALK_AT_POS2:
        b->returns = m->wait < 0.0 ? INFINITY : t + m->wait;
        break;
    case WALK_TO_POS1: // only part way back: open again from where it is
        b->state = WALK_TO_POS2, b->since = t - (m->duration - partial);
        break;
    case WALK_TO_POS2:
        b->state = WALK_TO_POS1, b->since = t - (m->duration - partial);
        break;
    }
}

static void use_all(walk_movers *mv, const level *lv, const int *uses, int count, double t) {
    for (int k = 0; k < count; ++k) use_mover(mv, lv, uses[k], t);
}

// 1. Blocked_Door: a door or plat leader that is no crusher reverses when it crushed a character (once a frame).
static void blocked(walk_movers *mv, const level *lv, const walk_presence *chars, int char_count, double t) {
    for (int i = 0; i < lv->mover_count; ++i) mv->reversed[i] = false;
    for (int c = 0; c < char_count; ++c) {
        if (chars[c].crushed_by.generation == 0) continue;
        for (int i = 0; i < lv->mover_count; ++i) {
            if (!tread_body_id_equal(mv->bodies[i], chars[c].crushed_by) || !level_mover_is_binary(lv->movers[i].kind)) continue;
            int l = leader(lv, i);
            const level_mover *m = &lv->movers[l];
            walk_binary_state s = mv->binary[l].state;
            bool moving = s == WALK_TO_POS1 || s == WALK_TO_POS2;
            if (m->kind != LEVEL_MOVER_BUTTON && !m->crusher && moving && !mv->reversed[l]) {
                use_mover(mv, lv, l, t);
                mv->reversed[l] = true;
            }
        }
    }
}

// 2. Reached_BinaryMover: at pos2 the wait starts and the team's targets are used; back at pos1 it rests.
static void arrivals(walk_movers *mv, const level *lv, double t) {
    for (int l = 0; l < lv->mover_count; ++l) {
        const level_mover *m = &lv->movers[l];
        walk_binary *b = &mv->binary[l];
        if (!level_mover_is_binary(m->kind) || m->master != l) continue;
        double reach = b->since + m->duration;
        if (b->state == WALK_TO_POS1 && t >= reach) b->state = WALK_AT_POS1;
        if (b->state != WALK_TO_POS2 || t < reach) continue;
        b->state = WALK_AT_POS2;
        b->returns = m->wait < 0.0 ? INFINITY : reach + m->wait;
        for (int j = l; j < lv->mover_count; ++j)
            if (lv->movers[j].master == l) use_all(mv, lv, lv->movers[j].uses, lv->movers[j].use_count, t);
    }
}

static bool overlaps(const walk_presence *c, const double lo[3], const double hi[3], double margin) {
    for (int k = 0; k < 3; ++k)
        if (!(c->lo[k] < hi[k] + margin && c->hi[k] > lo[k] - margin)) return false;
    return true;
}

// Mover i's bounds where it is at t.
static void bounds_now(const walk_movers *mv, const level *lv, int i, double t, double lo[3], double hi[3]) {
    const level_mover *m = &lv->movers[i];
    double p[3];
    level_mover_between(m, walk_doors_fraction(mv, lv, i, t), p);
    for (int k = 0; k < 3; ++k) lo[k] = m->lo[k] + p[k], hi[k] = m->hi[k] + p[k];
}

// 3. One character's triggers and touches.
static void touches(walk_movers *mv, const level *lv, const walk_presence *c, double t) {
    for (int k = 0; k < lv->mover_trigger_count; ++k) {
        const level_mover_trigger *tr = &lv->mover_triggers[k];
        if (!overlaps(c, tr->lo, tr->hi, 0.0)) continue;
        if (tr->kind == LEVEL_MOVER_TRIGGER_MULTIPLE) {
            if (t < mv->trigger_ready[k]) continue;
            use_all(mv, lv, tr->uses, tr->use_count, t);
            mv->trigger_ready[k] = tr->wait > 0.0 ? t + tr->wait : INFINITY;
            continue;
        }
        walk_binary_state s = mv->binary[leader(lv, tr->mover)].state;
        if ((tr->kind == LEVEL_MOVER_TRIGGER_DOOR && s != WALK_TO_POS2) || (tr->kind == LEVEL_MOVER_TRIGGER_PLAT && s == WALK_AT_POS1))
            use_mover(mv, lv, tr->mover, t);
    }
    for (int i = 0; i < lv->mover_count; ++i) {
        const level_mover *m = &lv->movers[i];
        bool button = m->kind == LEVEL_MOVER_BUTTON && m->touch, plat = m->kind == LEVEL_MOVER_PLAT;
        if (!button && !plat) continue;
        double lo[3], hi[3];
        bounds_now(mv, lv, i, t, lo, hi);
        if (!overlaps(c, lo, hi, LEVEL_UNIT)) continue;
        walk_binary *b = &mv->binary[leader(lv, i)];
        if (button && b->state == WALK_AT_POS1) use_mover(mv, lv, i, t);
        if (plat && b->state == WALK_AT_POS2) b->returns = t + m->wait; // Touch_Plat: stays up while stood on
    }
}

// 4. ReturnToPos1.
static void returns(walk_movers *mv, const level *lv, double t) {
    for (int l = 0; l < lv->mover_count; ++l) {
        walk_binary *b = &mv->binary[l];
        if (level_mover_is_binary(lv->movers[l].kind) && lv->movers[l].master == l && b->state == WALK_AT_POS2 && t >= b->returns)
            b->state = WALK_TO_POS1, b->since = t;
    }
}

void walk_doors_frame(walk_movers *mv, const level *lv, const walk_presence *chars, int char_count, double t) {
    blocked(mv, lv, chars, char_count, t);
    arrivals(mv, lv, t);
    for (int c = 0; c < char_count; ++c) touches(mv, lv, &chars[c], t);
    returns(mv, lv, t);
}
