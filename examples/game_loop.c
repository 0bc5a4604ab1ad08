// SPDX-License-Identifier: MIT
/* The motor's full game loop: input -> tread_motor_update -> tread_character_move at a fixed timestep, as many steps
 * as the elapsed time needs, the character drawn interpolated between its last two steps, the camera gliding over
 * steps (tread_step_smoothing), crouching (tread_character_set_height) and a jump.
 *
 * The level, along +X: a 0.3 m step (x 2-4), a low tunnel (ceiling at 1.3 m, x 6-8) to crouch through, and a 0.8 m
 * ledge from x = 10.5 to jump onto. The "player" holds the stick forward, holds crouch from x = 5 to x = 7 (it lets
 * go under the ceiling: the character stands only once the taller body fits, past x = 7.7), and presses jump at x = 8.5, 2 m before the ledge,
 * holding it until over the ledge (let go while rising, a jump is cut short: motor_settings.jump_cut).
 *
 * Exits non-zero unless the character stood up only clear of the tunnel, jumped once, and ends standing on the
 * ledge. */
#include <stdio.h>
#include <tread/motor.h>
#include <tread/tread.h>

#define SIM_DT (1.0f / 60.0f) /* the fixed simulation step, s */
#define STAND_HEIGHT 1.8f

typedef struct view_state { /* what the renderer needs from one simulation step */
    tread_vec3 feet;
    float camera_offset;    /* step smoothing: add to the eye height */
    float height;           /* the body's height (crouched or standing) */
} view_state;

static view_state view_lerp(view_state a, view_state b, float t) {
    view_state v;
    v.feet = tread_v3_lerp(a.feet, b.feet, t);
    v.camera_offset = a.camera_offset + (b.camera_offset - a.camera_offset) * t;
    v.height = a.height + (b.height - a.height) * t;
    return v;
}

static int add_box(tread_world *world, float x0, float y0, float x1, float y1) { /* spans z from -2 to 2 */
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3(0.5f * (x1 - x0), 0.5f * (y1 - y0), 2.0f));
    def.transform.p = tread_v3(0.5f * (x0 + x1), 0.5f * (y0 + y1), 0.0f);
    tread_body_id id;
    return tread_world_add_body(world, &def, &id) != TREAD_OK;
}

int main(void) {
    tread_world *world = NULL;
    if (tread_world_create(NULL, &world) != TREAD_OK) return 1;
    if (add_box(world, -10, -1, 40, 0) || add_box(world, 2, 0, 4, 0.3f) || /* floor, the step */
        add_box(world, 6, 1.3f, 8, 1.6f) || add_box(world, 10.5f, 0, 40, 0.8f)) /* the tunnel's ceiling, the ledge */
        return 1;

    tread_character_settings settings = tread_character_settings_default(); /* capsule 0.3 x 1.8 m */
    tread_character player;
    if (tread_character_init(&player, &settings, tread_v3_zero()) != TREAD_OK) return 1;
    tread_motor_settings motor_settings = tread_motor_settings_default(); /* 6 m/s, jumps 1.2 m, crouched 1.0 m */
    tread_motor_state motor = tread_motor_state_default();
    tread_step_smoothing smoothing = tread_step_smoothing_default();
    tread_move_result last_move;
    /* What the last move met while moving (walls, ceilings): the motor reads it to stop pushing into them and for wall
       jumps. The move writes it into the caller's buffer. */
    tread_contact last_contacts[TREAD_MAX_MOVE_CONTACTS];
    tread_move_options move_options = tread_move_options_default();
    move_options.contacts = last_contacts;
    move_options.contact_capacity = TREAD_MAX_MOVE_CONTACTS;
    move_options.contacts_where_it_ends = false;
    int moves = 0, jumps = 0;
    float stood_up_at = -1.0f; /* x where the character stood up again after the tunnel */

    view_state previous = {player.position, 0.0f, STAND_HEIGHT}, current = previous;
    float accumulator = 0.0f, sim_time = 0.0f;
    for (int frame = 0; frame < 600; ++frame) {            /* the game's render loop */
        float frame_time = frame % 2 ? 0.004f : 0.013f;    /* measured by the game; here uneven on purpose */
        if (frame_time > 0.25f) frame_time = 0.25f;        /* after a long hitch, slow down, don't spiral */
        accumulator += frame_time;
        while (accumulator >= SIM_DT) {                    /* zero, one or several fixed steps */
            /* 1. input (a player's or an AI's) */
            tread_motor_input input = tread_motor_input_default();
            input.direction = tread_v3(1.0f, 0.0f, 0.0f);
            input.crouch = player.position.x > 5.0f && player.position.x < 7.0f;
            input.jump = player.position.x > 8.5f && player.position.x < 11.0f;
            /* 2. crouch or stand: lowering always fits; standing only where the taller body fits */
            float want = input.crouch ? motor_settings.crouch_height : STAND_HEIGHT;
            if (player.settings.height != want) {
                bool changed = false;
                if (tread_character_set_height(world, &player, want, &changed) != TREAD_OK) return 1;
                if (changed && want == STAND_HEIGHT) stood_up_at = player.position.x;
            }
            input.crouch = player.settings.height < STAND_HEIGHT; /* crouched speed while the body is crouched */
            /* 3. the motor turns the wish into a velocity; 4. the controller moves the character */
            tread_vec3 velocity;
            if (tread_motor_update(&motor, &motor_settings, &input, &player, moves > 0 ? &last_move : NULL, last_contacts,
                                   TREAD_MAX_MOVE_CONTACTS, SIM_DT, &velocity) != TREAD_OK ||
                (motor.jumped && tread_character_suppress_snap(&player, motor_settings.jump_snap_suppress_time) != TREAD_OK) ||
                tread_character_move_with(world, &player, velocity, SIM_DT, &move_options, &last_move) != TREAD_OK) {
                printf("%s\n", tread_error_message());
                return 1;
            }
            ++moves;
            jumps += motor.jumped;
            /* 5. the body steps at once; the camera glides (step_up lifts, snap_down lowers) */
            tread_step_smoothing_update(&smoothing, last_move.step_up - last_move.snap_down, SIM_DT);
            previous = current;
            current.feet = player.position;
            current.camera_offset = smoothing.offset;
            current.height = player.settings.height;
            accumulator -= SIM_DT;
            sim_time += SIM_DT;
        }
        /* 6. draw between the last two steps: the body at shown.feet, the eye at shown.feet + up * (eye height +
           shown.camera_offset); drive the walk cycle from motor.move_velocity */
        view_state shown = view_lerp(previous, current, accumulator / SIM_DT);
        if (frame % 60 == 0)
            printf("t %.2f s: drawn at x %5.2f y %.2f, height %.2f m, camera offset %+.3f m, speed %.2f m/s\n",
                   (double)sim_time, (double)shown.feet.x, (double)shown.feet.y, (double)shown.height,
                   (double)shown.camera_offset, (double)motor.move_velocity.x);
    }
    int on_ledge = player.ground.state == TREAD_GROUND_ON_GROUND && player.position.x > 10.8f && player.position.y > 0.79f &&
                   player.position.y < 0.81f;
    printf("%d steps, %d jump, stood up again at x %.2f, feet at (%.2f, %.2f), height %.1f m, on the ledge: %d\n", moves,
           jumps, (double)stood_up_at, (double)player.position.x, (double)player.position.y, (double)player.settings.height,
           on_ledge);
    tread_world_destroy(world);
    return on_ledge && jumps == 1 && stood_up_at > 7.7f && player.settings.height == STAND_HEIGHT ? 0 : 1;
}
