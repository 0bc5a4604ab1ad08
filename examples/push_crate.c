// SPDX-License-Identifier: MIT
/* A character pushes a crate across a floor. The crate is a dynamic body: the game's own physics moves it (here a
 * few lines of rigid-body integration with floor friction, translation only), and tread reports the impulse each
 * character move gives it. The frame, in the order docs/INTEGRATION.md gives:
 *
 *   1. the game's physics step: apply last frame's impulses, friction, integrate
 *   2. tread_body_move_to: tell tread where the crate went (it pushes and carries characters from there)
 *   3. tread_world_advance: kinematic bodies move, every body's motion over the frame is known
 *   4. move the characters; keep the impulses their results list for step 1 of the next frame
 *
 * Prints the crate and the character every half second; exits 1 unless the crate was pushed at least 2 m and the
 * character stayed behind it, out of it. */
#include <math.h>
#include <stdio.h>
#include <tread/tread.h>

#define DT (1.0f / 60.0f)
#define GRAVITY 9.81f

typedef struct crate {
    tread_body_id body;
    float mass;     /* kg */
    float friction; /* Coulomb coefficient against the floor */
    tread_vec3 position, velocity;
    tread_vec3 impulse; /* summed from last frame's moves, N s */
} crate;

static int check(tread_result r, const char *what) {
    if (r == TREAD_OK) return 0;
    fprintf(stderr, "push_crate: %s failed: %s\n", what, tread_error_message());
    return 1;
}

/* The game's physics step for the crate: the impulses change its velocity, sliding friction slows it (never
 * reversing it), and it moves. Horizontal only: it rests on the floor. */
static void physics_step(crate *c) {
    c->velocity = tread_v3_add(c->velocity, tread_v3_scale(tread_v3(c->impulse.x, 0.0f, c->impulse.z), 1.0f / c->mass));
    c->impulse = tread_v3_zero();
    float speed = tread_v3_length(c->velocity), slowed = speed - c->friction * GRAVITY * DT;
    c->velocity = slowed > 0.0f ? tread_v3_scale(c->velocity, slowed / speed) : tread_v3_zero();
    c->position = tread_v3_mad(c->position, DT, c->velocity);
}

int main(void) {
    tread_world *world = NULL;
    if (check(tread_world_create(NULL, &world), "world_create")) return 1;
    tread_body_def floor = tread_body_def_default();
    floor.shape = tread_shape_box(tread_v3(50, 0.5f, 50));
    floor.transform.p = tread_v3(0, -0.5f, 0);
    tread_body_id floor_id;
    if (check(tread_world_add_body(world, &floor, &floor_id), "add floor")) return 1;

    crate box = {tread_body_id_null(), 20.0f, 0.3f, tread_v3(2.0f, 0.5f, 0.0f), tread_v3_zero(), tread_v3_zero()};
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_DYNAMIC;
    def.shape = tread_shape_box(tread_v3(0.5f, 0.5f, 0.5f));
    def.transform.p = box.position;
    if (check(tread_world_add_body(world, &def, &box.body), "add crate")) return 1;

    tread_character ch;
    tread_character_settings settings = tread_character_settings_default(); /* 70 kg, pushes with up to 100 N */
    if (check(tread_character_init(&ch, &settings, tread_v3(0, 0, 0)), "character_init")) return 1;

    float deepest = 0.0f;
    for (int frame = 0; frame < 300; ++frame) {
        physics_step(&box);
        tread_transform t = {box.position, tread_quat_identity()};
        if (check(tread_body_move_to(world, box.body, t, box.velocity, tread_v3_zero()), "body_move_to")) return 1;
        if (check(tread_world_advance(world, DT), "world_advance")) return 1;

        /* Walk +x at 2 m/s for 4 s, then stand; gravity while in the air. */
        float walk = frame < 240 ? 2.0f : 0.0f;
        float vy = ch.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : ch.velocity.y - GRAVITY * DT;
        /* The move writes the impulses it gives dynamic bodies into our buffer, for our physics step to apply. */
        tread_move_result res;
        tread_body_impulse impulses[TREAD_MAX_MOVE_IMPULSES];
        tread_move_options options = tread_move_options_default();
        options.impulses = impulses;
        options.impulse_capacity = TREAD_MAX_MOVE_IMPULSES;
        if (check(tread_character_move_with(world, &ch, tread_v3(walk, vy, 0.0f), DT, &options, &res), "character_move_with")) return 1;
        for (int i = 0; i < res.impulse_count && i < TREAD_MAX_MOVE_IMPULSES; ++i)
            if (tread_body_id_equal(impulses[i].body, box.body))
                box.impulse = tread_v3_mad(box.impulse, impulses[i].magnitude, impulses[i].direction);

        tread_query_shape shape = tread_character_shape(&ch);
        tread_distance_result d;
        if (check(tread_world_closest(world, &shape, tread_character_center(&ch), 0.0f, NULL, &d), "closest")) return 1;
        if (d.found && -d.distance > deepest) deepest = -d.distance;
        if (frame % 30 == 29)
            printf("t=%.1f s  character x=%.3f  crate x=%.3f v=%.2f m/s\n", (double)((float)(frame + 1) * DT), (double)ch.position.x,
                   (double)box.position.x, (double)box.velocity.x);
    }
    float pushed = box.position.x - 2.0f, gap = (box.position.x - 0.5f) - (ch.position.x + settings.radius);
    printf("crate pushed %.2f m; character %.3f m behind it; deepest overlap %.4f m\n", (double)pushed, (double)gap, (double)deepest);
    tread_world_destroy(world);
    return pushed >= 2.0f && gap >= -0.001f && deepest <= 0.001f ? 0 : 1;
}
