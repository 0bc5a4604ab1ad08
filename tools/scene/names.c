// Names of the library's enums as scene files, the command line and traces spell them. Leaf of tools/scene/.
#include <string.h>

#include "scene_internal.h"

const char *const scene_shape_names[] = {"capsule", "sphere", "box", NULL};
const tread_query_shape_type scene_shape_values[] = {TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE, TREAD_QUERY_BOX};

const char *const scene_jump_mode_names[] = {"height", "strength_drag", NULL};
const tread_jump_mode scene_jump_mode_values[] = {TREAD_JUMP_HEIGHT, TREAD_JUMP_STRENGTH_DRAG};

// ---- step strategies --------------------------------------------------------------------------------------
// API-CHANGE: the tool's only strategy-name table. When the library has tread_step_strategy_name() and
// tread_step_strategy_from_name() (see /work/API_CHANGES.md), the two functions below become calls to them and
// the table goes (scene_strategy_names() can then fill its list from tread_step_strategy_name(0 ..
// TREAD_STEP_STRATEGY_COUNT - 1)).
static const char *const strategy_names[] = {"sweep", "contact", "cast_down", "riser", NULL};
_Static_assert(sizeof strategy_names / sizeof strategy_names[0] == TREAD_STEP_STRATEGY_COUNT + 1, "one name per strategy");

const char *scene_strategy_name(tread_step_strategy strategy) {
    return (int)strategy >= 0 && strategy < TREAD_STEP_STRATEGY_COUNT ? strategy_names[strategy] : NULL;
}

bool scene_strategy_from_name(const char *name, tread_step_strategy *out) {
    for (int i = 0; name && i < TREAD_STEP_STRATEGY_COUNT; ++i)
        if (strcmp(name, strategy_names[i]) == 0) {
            *out = (tread_step_strategy)i;
            return true;
        }
    return false;
}
// ---- end API-CHANGE ----------------------------------------------------------------------------------------

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
