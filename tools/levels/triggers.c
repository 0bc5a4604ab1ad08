// SPDX-License-Identifier: MIT
// Jump pads and teleporters: a trigger_push or trigger_teleport whose brush model gives the volume a character
// touches and whose "target" names a point (level::targets) becomes a level::trigger the walker runs.
//   Jump pad: as Quake III's AimAtTarget (g_trigger.c), the launch puts the flight's apex at the target: from the
//   trigger volume's centre, height h = target - centre (up), flight time to the apex t = sqrt(2 h / g), up speed
//   g t, horizontal speed the horizontal distance over t. Any named entity aims a pad (OpenArena's maps aim at
//   target_position, target_push and once target_location); a target not above the centre makes no pad (the game
//   frees such a pad).
//   Teleporter: as TeleportPlayer (g_misc.c), the player's origin goes to the destination's origin lifted 1 unit
//   (the feet 24 units under it), leaving at 400 units/s along the destination's angle. Only destinations meant as
//   such are run (misc_teleporter_dest, target_position, info_notnull); a trigger naming anything else (a
//   target_teleporter's spot, say) stays skipped.
// The triggers and the points they name are then marked simulated and the skip counts recounted without them.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_internal.h"

// Quake's teleporter exit speed (units/s).
#define TELEPORT_EXIT_SPEED 400.0

bool level_jump_pad_launch(const double centre[3], const double target[3], double gravity, double out[3]) {
    double height = target[1] - centre[1];
    if (!(height > 0.0) || !(gravity > 0.0)) return false;
    double time = sqrt(2.0 * height / gravity);
    out[0] = (target[0] - centre[0]) / time;
    out[1] = gravity * time;
    out[2] = (target[2] - centre[2]) / time;
    return true;
}

static const char *value_of(const level_entity *e, const char *key) {
    for (int i = 0; i < e->pair_count; ++i)
        if (!strcmp(e->pairs[i].key, key)) return e->pairs[i].value;
    return NULL;
}

static bool teleport_destination(const char *classname) {
    return !strcmp(classname, "misc_teleporter_dest") || !strcmp(classname, "target_position") || !strcmp(classname, "info_notnull");
}

// The first point named `name` a trigger of `kind` may use; NULL for none.
static const level_target *find_target(const level *lv, const char *name, level_trigger_kind kind) {
    if (!name) return NULL;
    for (int i = 0; i < lv->target_count; ++i)
        if (!strcmp(lv->targets[i].name, name) && (kind == LEVEL_TRIGGER_PUSH || teleport_destination(lv->targets[i].classname)))
            return &lv->targets[i];
    return NULL;
}

// The trigger entity e as a level_trigger in *out; false when it cannot run (no brush model, no usable target).
static bool make_trigger(const level *lv, const level_entity *e, level_trigger *out) {
    level_trigger_kind kind;
    if (!strcmp(e->classname, "trigger_push"))
        kind = LEVEL_TRIGGER_PUSH;
    else if (!strcmp(e->classname, "trigger_teleport"))
        kind = LEVEL_TRIGGER_TELEPORT;
    else
        return false;
    const level_target *t = find_target(lv, value_of(e, "target"), kind);
    if (e->model <= 0 || !t) return false;
    memset(out, 0, sizeof *out);
    out->kind = kind;
    memcpy(out->lo, e->lo, sizeof out->lo);
    memcpy(out->hi, e->hi, sizeof out->hi);
    memcpy(out->target, t->origin, sizeof out->target);
    if (kind == LEVEL_TRIGGER_PUSH) {
        double centre[3] = {0.5 * (e->lo[0] + e->hi[0]), 0.5 * (e->lo[1] + e->hi[1]), 0.5 * (e->lo[2] + e->hi[2])};
        return level_jump_pad_launch(centre, t->origin, LEVEL_GRAVITY * LEVEL_UNIT, out->launch);
    }
    out->feet[0] = t->origin[0];
    out->feet[1] = t->origin[1] + (1.0 - 24.0) * LEVEL_UNIT;
    out->feet[2] = t->origin[2];
    // Quake's yaw turns from +x toward +y; tread's -z is Quake's +y.
    double yaw = t->angle_degrees * 3.14159265358979323846 / 180.0, speed = TELEPORT_EXIT_SPEED * LEVEL_UNIT;
    out->exit[0] = speed * cos(yaw);
    out->exit[2] = -speed * sin(yaw);
    return true;
}

static void mark_named(level *lv, const char *name) {
    for (int i = 0; i < lv->skipped_count; ++i) {
        const char *n = value_of(&lv->skipped[i], "targetname");
        if (n && !strcmp(n, name)) lv->skipped[i].simulated = true;
    }
}

void level_recount_skipped(level *lv) {
    lv->skip_class_count = 0;
    for (int i = 0; i < lv->skipped_count; ++i) {
        const level_entity *e = &lv->skipped[i];
        if (e->simulated) continue;
        int k = 0;
        while (k < lv->skip_class_count && strcmp(lv->skip_counts[k].classname, e->classname)) ++k;
        if (k == lv->skip_class_count) {
            // Never more classes than before the triggers were taken out: the array entities.c grew is big enough.
            snprintf(lv->skip_counts[k].classname, sizeof lv->skip_counts[k].classname, "%s", e->classname);
            lv->skip_counts[k].count = 0;
            ++lv->skip_class_count;
        }
        ++lv->skip_counts[k].count;
    }
}

bool triggers_resolve(level *lv, char *err, size_t errsize) {
    for (int i = 0; i < lv->skipped_count; ++i) {
        level_trigger t;
        if (!make_trigger(lv, &lv->skipped[i], &t)) continue;
        level_trigger *grown = realloc(lv->triggers, ((size_t)lv->trigger_count + 1) * sizeof *grown);
        if (!grown) {
            snprintf(err, errsize, "%s: out of memory reading the triggers", lv->name);
            return false;
        }
        lv->triggers = grown;
        lv->triggers[lv->trigger_count++] = t;
        lv->skipped[i].simulated = true;
    }
    for (int i = 0; i < lv->skipped_count; ++i) {
        const level_entity *e = &lv->skipped[i];
        bool trigger = !strcmp(e->classname, "trigger_push") || !strcmp(e->classname, "trigger_teleport");
        if (e->simulated && trigger) mark_named(lv, value_of(e, "target"));
    }
    level_recount_skipped(lv);
    return true;
}
