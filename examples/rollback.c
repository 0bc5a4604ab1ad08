// SPDX-License-Identifier: MIT
/* Save and restore for rollback: re-running from a saved frame repeats it bit for bit.
 *
 * A rollback-netcode game keeps, every frame, what it needs to re-simulate from there when a late input arrives:
 * the characters (tread_character_save, 200 versioned little-endian bytes), the moving bodies
 * (tread_world_save_bodies: transforms now and at the last advance, velocities; the static level is not saved)
 * and its own state (here the motor's, a plain struct). This example plays 180 frames of a character jumping onto a
 * lift, saves at frame 60, then restores and re-runs frames 60-180 twice:
 *
 *   with the same inputs     every frame's position and velocity must equal the first run's, bit for bit;
 *   with a corrected input   (the jump pressed 10 frames earlier, as a late packet would tell) the run diverges,
 *                            which is what a rollback is for.
 *
 * Exits non-zero unless the same-input re-run is bit-identical and the corrected one is not. */
#include <stdio.h>
#include <string.h>
#include <tread/motor.h>
#include <tread/tread.h>

#define DT (1.0f / 60.0f)
#define FRAMES 180
#define SAVED_FRAME 60

typedef struct game {
    tread_world *world;
    tread_body_id lift;
    tread_character player;
    tread_motor_state motor;
    tread_move_result last_move;
    tread_contact last_contacts[TREAD_MAX_MOVE_CONTACTS]; /* what it met while moving (the move's buffer) */
    int moves;
} game;

typedef struct snapshot { /* everything a re-run from this frame needs */
    unsigned char character[TREAD_CHARACTER_STATE_SIZE];
    unsigned char bodies[1024];
    size_t bodies_size;
    tread_motor_state motor;      /* the game's own state: plain structs, copied */
    tread_move_result last_move;  /* the motor reads the last move's result and the contacts it met (walls, wall jumps) */
    tread_contact last_contacts[TREAD_MAX_MOVE_CONTACTS];
    int moves;
} snapshot;

/* The lift's schedule is a function of the frame: up 1 m/s for a second, down for a second. */
static tread_vec3 lift_velocity(int frame) { return tread_v3(0.0f, (frame / 60) % 2 ? -1.0f : 1.0f, 0.0f); }

static int step(game *g, int frame, int jump_frame, const tread_motor_settings *ms) {
    if (tread_body_set_velocity(g->world, g->lift, lift_velocity(frame), tread_v3_zero()) != TREAD_OK ||
        tread_world_advance(g->world, DT) != TREAD_OK)
        return 1;
    tread_motor_input input = tread_motor_input_default();
    input.direction = tread_v3(1.0f, 0.0f, 0.0f);
    input.magnitude = 0.4f;                                     /* 2.4 m/s toward the lift */
    input.jump = frame >= jump_frame && frame < jump_frame + 6; /* a tap of 0.1 s */
    tread_vec3 v;
    if (tread_motor_update(&g->motor, ms, &input, &g->player, g->moves ? &g->last_move : NULL, g->last_contacts, TREAD_MAX_MOVE_CONTACTS, DT,
                           &v) != TREAD_OK)
        return 1;
    if (g->motor.jumped && tread_character_suppress_snap(&g->player, ms->jump_snap_suppress_time) != TREAD_OK) return 1;
    tread_move_options options = tread_move_options_default();
    options.contacts = g->last_contacts;
    options.contact_capacity = TREAD_MAX_MOVE_CONTACTS;
    options.contacts_where_it_ends = false;
    if (tread_character_move_with(g->world, &g->player, v, DT, &options, &g->last_move) != TREAD_OK) return 1;
    g->moves++;
    return 0;
}

static int save(const game *g, snapshot *s) {
    size_t size;
    s->motor = g->motor;
    s->last_move = g->last_move;
    memcpy(s->last_contacts, g->last_contacts, sizeof s->last_contacts);
    s->moves = g->moves;
    return tread_character_save(&g->player, s->character, sizeof s->character, &size) != TREAD_OK ||
           tread_world_save_bodies(g->world, s->bodies, sizeof s->bodies, &s->bodies_size) != TREAD_OK;
}

static int restore(game *g, const snapshot *s) {
    g->motor = s->motor;
    g->last_move = s->last_move;
    memcpy(g->last_contacts, s->last_contacts, sizeof g->last_contacts);
    g->moves = s->moves;
    return tread_character_load(&g->player, s->character, sizeof s->character) != TREAD_OK ||
           tread_world_load_bodies(g->world, s->bodies, s->bodies_size) != TREAD_OK;
}

int main(void) {
    game g;
    memset(&g, 0, sizeof g);
    if (tread_world_create(NULL, &g.world) != TREAD_OK) return 1;
    tread_body_def def = tread_body_def_default();
    tread_body_id floor_id;
    def.shape = tread_shape_box(tread_v3(20.0f, 0.5f, 20.0f));
    def.transform.p = tread_v3(0.0f, -0.5f, 0.0f);
    if (tread_world_add_body(g.world, &def, &floor_id) != TREAD_OK) return 1;
    def.type = TREAD_BODY_KINEMATIC;                          /* the lift, 0.2 m above the floor at the start */
    def.shape = tread_shape_box(tread_v3(1.0f, 0.1f, 1.0f));
    def.transform.p = tread_v3(4.0f, 0.1f, 0.0f);
    if (tread_world_add_body(g.world, &def, &g.lift) != TREAD_OK) return 1;

    tread_character_settings settings = tread_character_settings_default();
    tread_motor_settings ms = tread_motor_settings_default();
    if (tread_character_init(&g.player, &settings, tread_v3_zero()) != TREAD_OK) return 1;
    g.motor = tread_motor_state_default();

    /* The first run, saving at SAVED_FRAME and recording every frame after it. */
    static tread_vec3 position[FRAMES], velocity[FRAMES];
    snapshot saved;
    const int jump_frame = 80;
    for (int frame = 0; frame < FRAMES; ++frame) {
        if (frame == SAVED_FRAME && save(&g, &saved)) return 1;
        if (step(&g, frame, jump_frame, &ms)) {
            fprintf(stderr, "frame %d: %s\n", frame, tread_error_message());
            return 1;
        }
        position[frame] = g.player.position;
        velocity[frame] = g.player.velocity;
    }
    printf("first run: feet (%.4f, %.4f), on ground %d\n", (double)g.player.position.x, (double)g.player.position.y,
           g.player.ground.state == TREAD_GROUND_ON_GROUND);

    /* Roll back and re-run with the same inputs, then with the jump 10 frames earlier. */
    int identical = 1, diverged = 0;
    for (int pass = 0; pass < 2; ++pass) {
        if (restore(&g, &saved)) {
            fprintf(stderr, "restore: %s\n", tread_error_message());
            return 1;
        }
        for (int frame = SAVED_FRAME; frame < FRAMES; ++frame) {
            if (step(&g, frame, pass == 0 ? jump_frame : jump_frame - 10, &ms)) return 1;
            int same = !memcmp(&position[frame], &g.player.position, sizeof(tread_vec3)) &&
                       !memcmp(&velocity[frame], &g.player.velocity, sizeof(tread_vec3));
            if (pass == 0) identical &= same;
            else diverged |= !same;
        }
        printf("re-run %s: feet (%.4f, %.4f)\n", pass == 0 ? "with the same inputs   " : "with the jump corrected",
               (double)g.player.position.x, (double)g.player.position.y);
    }
    printf("same inputs: %s; corrected input: %s\n", identical ? "bit-identical" : "DIFFERENT",
           diverged ? "diverged" : "NO CHANGE");
    tread_world_destroy(g.world);
    return identical && diverged ? 0 : 1;
}
