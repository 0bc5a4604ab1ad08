// SPDX-License-Identifier: MIT
// What a game does to its world and its character between frames: moving platforms turn back, level scripts
// remove, add and move bodies, the game teleports its player (spawns, respawns, cutscenes).
#include "soak.h"

#include <math.h>

static bool editable(const soak_body *b) { return b->live && !(b->role & (SOAK_ROLE_FLOOR | SOAK_ROLE_WALL)); }

// A random live obstacle, or -1.
static int pick_obstacle(soak_rng *r, const soak_world *w) {
    int n = 0;
    for (int i = 0; i < w->count; ++i) n += editable(&w->bodies[i]);
    if (n == 0) return -1;
    int k = soak_rng_int(r, 0, n - 1);
    for (int i = 0; i < w->count; ++i)
        if (editable(&w->bodies[i]) && k-- == 0) return i;
    return -1;
}

// A platform past the end of its travel and still moving away turns back (a velocity edit every time).
static bool turn_platforms(soak_world *w, char *message, size_t size) {
    for (int i = 0; i < w->count; ++i) {
        soak_body *b = &w->bodies[i];
        if (!b->live || !(b->role & SOAK_ROLE_PLATFORM)) continue;
        soak_v3 d = soak_sub(b->frame.p, soak_v3_of(b->travel_origin));
        tread_vec3 linear, angular;
        if (tread_body_get_velocity(w->world, b->id, &linear, &angular) != TREAD_OK)
            return snprintf(message, size, "platform %d: %s", i, tread_error_message()), false;
        if (soak_length(d) <= b->travel || soak_dot(d, soak_v3_of(linear)) <= 0.0) continue;
        if (tread_body_set_velocity(w->world, b->id, tread_v3_neg(linear), angular) != TREAD_OK)
            return snprintf(message, size, "platform %d: %s", i, tread_error_message()), false;
    }
    return true;
}

static bool edit(soak_rng *r, soak_world *w, char *message, size_t size) {
    int i = pick_obstacle(r, w);
    double u = soak_rng_unit(r);
    if (i < 0 || u < 0.4) // a body removed (perhaps from under the character's feet) and a new one somewhere
        return (i < 0 || soak_world_remove(w, i, message, size)) && soak_add_obstacle(r, w, message, size);
    soak_body *b = &w->bodies[i];
    if (u < 0.8 || b->def.type != TREAD_BODY_KINEMATIC) { // moved up to 0.5 m and turned (perhaps into the character)
        tread_transform t;
        if (tread_body_get_transform(w->world, b->id, &t) != TREAD_OK) return snprintf(message, size, "%s", tread_error_message()), false;
        tread_vec3 offset = tread_v3((float)soak_rng_range(r, -0.5, 0.5), (float)soak_rng_range(r, -0.3, 0.3), (float)soak_rng_range(r, -0.5, 0.5));
        t.p = tread_v3_add(t.p, tread_quat_rotate(w->tilt, offset));
        tread_vec3 up = tread_quat_rotate(w->tilt, tread_v3(0.0f, 1.0f, 0.0f));
        t.q = tread_quat_normalize(tread_quat_mul(tread_quat_from_axis_angle(up, (float)soak_rng_range(r, -0.5, 0.5)), t.q));
        return soak_world_set_transform(w, i, t, message, size);
    }
    // A platform's speed changed within 0.1-20 m/s, its direction kept.
    tread_vec3 linear, angular;
    if (tread_body_get_velocity(w->world, b->id, &linear, &angular) != TREAD_OK) return snprintf(message, size, "%s", tread_error_message()), false;
    double speed = exp(soak_rng_range(r, log(0.1), log(20.0)));
    tread_vec3 dir = tread_v3_normalize(linear);
    if (tread_body_set_velocity(w->world, b->id, tread_v3_scale(dir, (float)speed), angular) != TREAD_OK)
        return snprintf(message, size, "%s", tread_error_message()), false;
    return true;
}

bool soak_world_events(soak_rng *r, soak_world *w, const soak_plan *plan, double dt, char *message, size_t size) {
    for (int i = 0; i < w->count; ++i) w->bodies[i].previous = w->bodies[i].frame;
    if (!turn_platforms(w, message, size)) return false;
    if (soak_rng_chance(r, plan->edit_rate * dt) && !edit(r, w, message, size)) return false;
    return true;
}

// Out of the arena: flown over a wall (a launch from a fast platform) or fallen off the floor's edge.
static bool outside(const soak_world *w, tread_vec3 feet) {
    soak_v3 g = soak_untilted(w, feet);
    return fabs(g.x) > w->arena || fabs(g.z) > w->arena || g.y < -10.0 || g.y > 100.0;
}

bool soak_teleport(soak_rng *r, const soak_world *w, const soak_plan *plan, double dt, tread_character *ch, tread_motor_state *motor) {
    if (!outside(w, ch->position) && !soak_rng_chance(r, plan->teleport_rate * dt)) return false;
    tread_vec3 to = soak_arena_point(r, w, soak_rng_range(r, 0.0, 3.0));
    if (soak_rng_chance(r, 0.5)) {
        // set_position only moves the feet: velocity and the old ground stay, as a game's plain teleport leaves them.
        tread_character_set_position(ch, to);
    } else {
        tread_character_settings settings = ch->settings;
        tread_character_init(ch, &settings, to);
        *motor = tread_motor_state_default();
    }
    return true;
}
