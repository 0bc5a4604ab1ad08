// SPDX-License-Identifier: MIT
// Names of the library's enums as scene files, the command line and traces spell them. Leaf of tools/scene/.

#include "scene_internal.h"

#include <string.h>

// Longest name the nearest-name search compares (longer ones are never suggested).
#define NAME_MAX_COMPARED 64

// Edits between a and b (optimal string alignment distance: insert, delete, change, swap two neighbours).
static int edits(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    if (n > NAME_MAX_COMPARED || m > NAME_MAX_COMPARED) return NAME_MAX_COMPARED;
    int d[NAME_MAX_COMPARED + 1][NAME_MAX_COMPARED + 1];
    for (size_t i = 0; i <= n; ++i) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; ++j) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; ++i)
        for (size_t j = 1; j <= m; ++j) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best) best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *scene_nearest_name(const char *typo, const char *const *names) {
    if (!typo || !names) return NULL;
    int limit = ((int)strlen(typo) + 2) / 3, best = NAME_MAX_COMPARED; // a third of its letters, rounded up
    const char *found = NULL;
    bool tied = false;
    for (int i = 0; names[i]; ++i) {
        int e = edits(typo, names[i]);
        if (e < best) best = e, found = names[i], tied = false;
        else if (e == best) tied = true;
    }
    return found && best <= limit && !tied ? found : NULL;
}

const char *const scene_shape_names[] = {"capsule", "sphere", "box", NULL};
const tread_query_shape_type scene_shape_values[] = {TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE, TREAD_QUERY_BOX};

const char *const scene_jump_mode_names[] = {"height", "strength_drag", NULL};
const tread_jump_mode scene_jump_mode_values[] = {TREAD_JUMP_HEIGHT, TREAD_JUMP_STRENGTH_DRAG};
const char *const scene_leave_ground_names[] = {"add_velocity", "add_upward_velocity", "do_nothing", NULL};
const tread_leave_ground scene_leave_ground_values[] = {TREAD_LEAVE_ADD_VELOCITY, TREAD_LEAVE_ADD_UPWARD_VELOCITY, TREAD_LEAVE_DO_NOTHING};

// ---- step strategies --------------------------------------------------------------------------------------
// The library names them (tread_step_strategy_name); NULL outside the enum, as the tool's callers expect.
const char *scene_strategy_name(tread_step_strategy strategy) {
    return (int)strategy >= 0 && strategy < TREAD_STEP_STRATEGY_COUNT ? tread_step_strategy_name(strategy) : NULL;
}

bool scene_strategy_from_name(const char *name, tread_step_strategy *out) {
    return name && tread_step_strategy_from_name(name, out) == TREAD_OK;
}

const char *const *scene_strategy_names(void) {
    static const char *names[TREAD_STEP_STRATEGY_COUNT + 1];
    for (int i = 0; i < TREAD_STEP_STRATEGY_COUNT; ++i) names[i] = scene_strategy_name((tread_step_strategy)i);
    return names;
}

// ---- ground states ---------------------------------------------------------------------------------------
static const char *const ground_names[] = {"on_ground", "on_steep", "not_supported", "in_air", NULL};
_Static_assert(TREAD_GROUND_ON_GROUND == 0 && TREAD_GROUND_ON_STEEP == 1 && TREAD_GROUND_NOT_SUPPORTED == 2 && TREAD_GROUND_IN_AIR == 3,
               "ground_names follows tread_ground_state");

const char *const *scene_ground_state_names(void) { return ground_names; }

const char *scene_ground_state_name(tread_ground_state state) {
    return (int)state >= 0 && (int)state < 4 ? ground_names[state] : "unknown";
}
