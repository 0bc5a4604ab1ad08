// SPDX-License-Identifier: MIT
// The stepping strategies as one table, and the one max-step rule every strategy's step passes.
#include "character_internal.h"

#include <string.h>

static const tr_strategy strategies[TREAD_STEP_STRATEGY_COUNT] = {
    [TREAD_STEP_SWEEP] = {"sweep", tr_step_sweep, NULL, false},
    [TREAD_STEP_CONTACT] = {"contact", tr_step_contact, NULL, false},
    [TREAD_STEP_CAST_DOWN] = {"cast_down", tr_step_cast_down, NULL, false},
    // The riser lifts the body wherever its volume is in the ground, not only at a blocked riser; where it holds
    // the body it settles it itself, and stick-to-floor runs only where it lets go (move.c's floor phase).
    [TREAD_STEP_RISER] = {"riser", tr_step_riser, tr_riser_holds, true},
};

const tr_strategy *tr_strategy_of(tread_step_strategy strategy) {
    TR_ASSERT((int)strategy >= 0 && strategy < TREAD_STEP_STRATEGY_COUNT);
    return &strategies[strategy];
}

bool tr_step_within_limit(const tread_character *ch, const tread_move_state *st, const tr_step *step) {
    const tread_vec3 up = ch->settings.up;
    const float limit = ch->settings.max_step_height + TR_STEP_HEIGHT_SLACK;
    // Heights are measured from the surface stood on: feet perched below it may rise that much more.
    float perch = tr_perch_depth(ch, st, step->base);
    float rise = tread_v3_dot(tread_v3_sub(step->feet, step->base), up);
    float tread_top = tread_v3_dot(tread_v3_sub(step->support, step->base), up) - perch;
    // The feet come to rest the skin above the tread, wherever they stood before.
    return rise <= limit + perch + ch->settings.skin && tread_top <= limit;
}

const char *tread_step_strategy_name(tread_step_strategy strategy) {
    if ((int)strategy < 0 || strategy >= TREAD_STEP_STRATEGY_COUNT) return "unknown";
    return strategies[strategy].name;
}

tread_result tread_step_strategy_from_name(const char *name, tread_step_strategy *out_strategy) {
    if (!name) return tr_error(TREAD_ERR_NULL_ARGUMENT, "name is NULL");
    if (!out_strategy) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_strategy is NULL");
    for (int i = 0; i < TREAD_STEP_STRATEGY_COUNT; ++i) {
        if (strcmp(strategies[i].name, name) == 0) {
            *out_strategy = (tread_step_strategy)i;
            return TREAD_OK;
        }
    }
    return tr_error(TREAD_ERR_INVALID_ARGUMENT, "strategy \"%.64s\" is unknown; expected sweep, contact, cast_down or riser", name);
}
