// SPDX-License-Identifier: MIT
/* A moving platform with facing: a character riding a turntable turns with it.
 *
 * A kinematic disc-like box turns at 0.5 rad/s about +Y. Each frame the game advances the world first (the platform
 * moves), then moves the character: tread carries a character standing on a body by that body's motion over the
 * advance (translation and rotation at the feet), and reports the turn about up as tread_move_result::ground_yaw.
 * The game adds it to the character's facing (and would to its camera), so the rider keeps looking the same way
 * relative to the platform. Halfway, the rider walks 1 m "forward" (along its facing); the walk is relative to the
 * platform, as the velocity given to a move is relative to the ground stood on.
 *
 * Exits non-zero unless, after 6 s, the facing turned exactly as the platform did (3 rad, within 1e-4) and the
 * character stands where the platform carried it (within 2 cm of where its spot on the platform went: each
 * frame's walk is a straight line across a floor that turns under it). */
#include <math.h>
#include <stdio.h>
#include <tread/tread.h>

#define DT (1.0f / 60.0f)
#define SPIN 0.5f /* rad/s */

/* Rotation about +Y by yaw: (1, 0, 0) goes to (cos yaw, 0, -sin yaw). */
static tread_vec3 turn_about_y(tread_vec3 v, float yaw) {
    float c = cosf(yaw), s = sinf(yaw);
    return tread_v3(c * v.x + s * v.z, v.y, -s * v.x + c * v.z);
}

int main(void) {
    tread_world *world = NULL;
    if (tread_world_create(NULL, &world) != TREAD_OK) return 1;
    tread_body_def def = tread_body_def_default();
    def.type = TREAD_BODY_KINEMATIC;
    def.shape = tread_shape_box(tread_v3(5.0f, 0.25f, 5.0f));
    def.transform.p = tread_v3(0.0f, -0.25f, 0.0f);             /* top at y = 0, turning about the origin */
    def.angular_velocity = tread_v3(0.0f, SPIN, 0.0f);
    tread_body_id platform;
    if (tread_world_add_body(world, &def, &platform) != TREAD_OK) return 1;

    tread_character_settings settings = tread_character_settings_default();
    tread_character rider;
    if (tread_character_init(&rider, &settings, tread_v3(2.0f, 0.0f, 0.0f)) != TREAD_OK) return 1;
    float facing = 0.0f; /* the game's yaw for the model and camera: forward is turn_about_y((1, 0, 0), facing) */
    tread_move_result result;
    /* one move before the platform moves, so the character knows what it stands on when the first advance turns it */
    if (tread_character_move(world, &rider, tread_v3_zero(), DT, &result) != TREAD_OK) return 1;

    for (int frame = 0; frame < 360; ++frame) {
        if (tread_world_advance(world, DT) != TREAD_OK) return 1; /* the platform turns first */
        /* frames 120-180: walk forward at 1 m/s along the facing (relative to the platform); otherwise stand */
        tread_vec3 v = frame >= 120 && frame < 180 ? turn_about_y(tread_v3(1.0f, 0.0f, 0.0f), facing) : tread_v3_zero();
        v.y = rider.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : rider.velocity.y - 9.81f * DT;
        if (tread_character_move(world, &rider, v, DT, &result) != TREAD_OK) {
            fprintf(stderr, "move: %s\n", tread_error_message());
            return 1;
        }
        facing += result.ground_yaw; /* turn with the ground: the one line this example is about */
        if (frame % 60 == 59)
            printf("t %.0f s: feet (%6.3f, %6.3f, %6.3f), facing %.4f rad, on ground %d\n", (double)((float)(frame + 1) * DT),
                   (double)rider.position.x, (double)rider.position.y, (double)rider.position.z, (double)facing,
                   rider.ground.state == TREAD_GROUND_ON_GROUND);
    }

    /* Where the rider's spot went: it stood at (2, 0, 0) for 2 s, walked 1 m along its facing (the platform's local
       +X, 2 m out becoming 3 m out), then rode on. In the platform's frame it ends at (3, 0, 0) (less the little
       acceleration the walk needs: none here, the velocity is set directly), turned by the platform's 3 rad. */
    float turned = SPIN * 360.0f * DT;
    tread_vec3 expected = turn_about_y(tread_v3(3.0f, 0.0f, 0.0f), turned);
    float off = tread_v3_distance(rider.position, expected);
    printf("platform turned %.4f rad, facing %.4f rad; feet %.4f m from the carried spot\n", (double)turned,
           (double)facing, (double)off);
    tread_world_destroy(world);
    return fabsf(facing - turned) < 1e-4f && off < 0.02f && rider.ground.state == TREAD_GROUND_ON_GROUND ? 0 : 1;
}
