// SPDX-License-Identifier: MIT
/// tread motor: the movement model that turns a wish (a player's stick, an AI's choice) into the velocity handed to
/// tread_character_move — acceleration, friction, gravity, jumps of every kind — plus crouching.
/// Data in, velocity out: the motor never touches the world; input is kept apart from movement (as in Unity DOTS's character controller).
///
/// A frame:
///     tread_vec3 v;
///     tread_motor_update(&motor, &motor_settings, &input, &character, &last_move, dt, &v);
///     if (motor.jumped) tread_character_suppress_snap(&character, motor_settings.jump_snap_suppress_time);
///     tread_character_move(world, &character, v, dt, &last_move);
///
/// Moving ground: on ground the motor works relative to it (acceleration, friction and jumps), and the velocity it
/// hands over is relative to it, as tread_character_update takes it (the update carries the character by the
/// ground's own motion first): a rider with no wish stays on its spot while the platform starts, stops and turns.
/// Leaving the ground adds the ground's velocity as `leave_ground` says; landing on moving ground takes it away
/// again (the world velocity is continuous; friction then brings the rider to rest on the platform).
///
/// Frame-rate independence: the motor keeps the exact end-of-step velocity in its state and hands the controller
/// the step's mean velocity (displacement over dt of the exact motion under constant gravity, acceleration and
/// exponential friction), so positions land on the same trajectory at any dt.
#ifndef TREAD_MOTOR_H
#define TREAD_MOTOR_H

#include <stdbool.h>

#include "tread/math.h"
#include "tread/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How a jump gives its take-off speed.
typedef enum tread_jump_mode {
    TREAD_JUMP_HEIGHT,        ///< Catlike Coding: speed sqrt(2 g jump_height) along the jump direction, aligned-speed rule
    TREAD_JUMP_STRENGTH_DRAG, ///< Unity DOTS: a separate jump velocity of jump_strength that drag wears down linearly
} tread_jump_mode;

/// What the last tread_motor_update did about jumping.
typedef enum tread_jump_kind {
    TREAD_JUMP_NONE,   ///< no jump this update
    TREAD_JUMP_GROUND, ///< from the ground (or within coyote time of leaving it)
    TREAD_JUMP_AIR,    ///< an air jump
    TREAD_JUMP_WALL,   ///< off a steep contact
} tread_jump_kind;

/// What a character's velocity keeps of its ground's motion when it leaves the ground (jumps or walks off), as
/// Godot's platform_on_leave. On ground the motor's velocity is relative to the ground (the controller carries the
/// character by the ground's own motion); in the air it is the world velocity.
typedef enum tread_leave_ground {
    TREAD_LEAVE_ADD_VELOCITY,        ///< the ground's velocity at the feet is added: a jump off a moving platform goes on with it
    TREAD_LEAVE_ADD_UPWARD_VELOCITY, ///< only its upward part (a lift going up throws its rider higher; nothing sideways)
    TREAD_LEAVE_DO_NOTHING,          ///< nothing: the character leaves with its own velocity only
} tread_leave_ground;

/// Movement model settings. Every field has a default in tread_motor_settings_default().
typedef struct tread_motor_settings {
    float max_speed;                ///< wish speed cap and horizontal speed clamp, m/s, >= 0; default 6
    float ground_acceleration;      ///< max change of horizontal velocity toward the wish on ground, m/s^2, >= 0; default 60
    float air_acceleration;         ///< the same in the air, m/s^2, >= 0; default 15
    float friction;                 ///< exponential decay rate of ground speed without a wish, 1/s, >= 0; default 10
    float gravity;                  ///< acceleration along -up off the ground, m/s^2, >= 0; default 9.81
    float terminal_speed;           ///< fastest fall along -up, m/s, > 0; default 50
    tread_jump_mode jump_mode;      ///< default TREAD_JUMP_HEIGHT
    float jump_height;              ///< TREAD_JUMP_HEIGHT: apex height of a standing jump, m, >= 0; default 1.2
    float jump_strength;            ///< TREAD_JUMP_STRENGTH_DRAG: take-off jump speed, m/s, >= 0; default 9 (Unity DOTS's
                                    ///< 0.15 m per frame at 60 Hz)
    float jump_drag;                ///< TREAD_JUMP_STRENGTH_DRAG: jump speed lost per second, m/s^2, >= 0; default 12
                                    ///< (Unity DOTS's 0.2 at 60 Hz)
    float jump_cut;                 ///< fraction of the rise speed kept when jump is released while rising, [0, 1];
                                    ///< 1 = fixed-height jumps; default 0.5
    float coyote_time;              ///< a ground jump is still allowed this long after leaving the ground, s, >= 0; default 0.1
    float jump_buffer_time;         ///< a press this long before a jump becomes possible still jumps, s, >= 0; default 0.1
    int max_air_jumps;              ///< jumps allowed in the air, 0..100; default 0
    bool wall_jump;                 ///< jump off steep contacts while in the air; default true
    float jump_up_bias;             ///< weight of up added to a ground or wall jump's normal before normalizing, >= 0;
                                    ///< 1 turns a vertical wall's jump to 45 degrees (Catlike Coding); default 1
    float jump_snap_suppress_time;  ///< stick-to-floor off this long after a jump (for the caller to pass to
                                    ///< tread_character_suppress_snap), s, >= 0; default 0.1
    float crouch_height;            ///< total capsule height while crouched, m, > 0; default 1.0
    float crouch_speed_scale;       ///< wish speed factor while crouched, [0, 1]; default 0.5
    tread_leave_ground leave_ground; ///< what leaving moving ground keeps of its velocity; default
                                    ///< TREAD_LEAVE_ADD_VELOCITY
    uint32_t internal_cookie; ///< set by tread_motor_settings_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_motor_settings;

/// One frame's wish, from a player or an AI.
typedef struct tread_motor_input {
    tread_vec3 direction; ///< wish direction; only its part perpendicular to up counts (normalized); zero = no wish
    float speed;          ///< wish speed, m/s (capped at max_speed); < 0 = use magnitude instead; default -1
    float magnitude;      ///< wish as a fraction of max_speed in [0, 1] (a stick's deflection), used when speed < 0; default 1
    bool jump;            ///< jump button held
    bool crouch;          ///< crouch button held (scales the wish speed while the character is crouched)
    uint32_t internal_cookie; ///< set by tread_motor_input_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_motor_input;

/// Motor state carried between frames. Start from tread_motor_state_default().
typedef struct tread_motor_state {
    tread_vec3 velocity;      ///< exact velocity at the end of the last step (gravity and jump included), m/s:
                              ///< relative to the ground while grounded, the world velocity in the air
    tread_vec3 ground_velocity; ///< the velocity of the ground `velocity` is relative to (zero in the air), m/s
    tread_vec3 jump_velocity; ///< TREAD_JUMP_STRENGTH_DRAG: the jump's own velocity, worn down by drag, m/s
    tread_vec3 move_velocity; ///< the velocity handed to the controller by the last update, m/s
    float time_since_grounded; ///< seconds since the motor last counted as on ground
    float jump_buffer;        ///< seconds a buffered press stays valid (0 = none)
    int jump_phase;           ///< jumps since last grounded (Catlike Coding's jump phase)
    bool grounded;            ///< on walkable ground at the start of the last update
    bool jump_held;           ///< jump was held in the last update (press-edge detection)
    bool rising;              ///< rising from a jump (the cut and the landing test read it)
    bool jump_cut_done;       ///< this jump's rise was already cut
    bool jumped;              ///< the last update started a jump (pass jump_snap_suppress_time to the controller)
    tread_jump_kind last_jump; ///< kind of that jump
    uint32_t internal_cookie; ///< set by tread_motor_state_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_motor_state;

/// Defaults of every field above.
TREAD_API tread_motor_settings tread_motor_settings_default(void);
/// Input with no wish, speed -1 (use magnitude), magnitude 1, nothing held.
TREAD_API tread_motor_input tread_motor_input_default(void);
/// A state for a character at rest, not yet known to be on ground (no coyote jump before it first lands).
TREAD_API tread_motor_state tread_motor_state_default(void);

/// Turn this frame's input into the velocity to hand to tread_character_move for `dt` seconds.
/// `character` is the character after its last move; `last_move` that move's result (NULL before the first move);
/// `last_contacts` the contact buffer that move was given (tread_move_options::contacts, `last_contact_capacity`
/// entries; NULL and 0: none): the surfaces it met while moving, the buffer's first last_move->moving_contact_count
/// (at most TREAD_MAX_MOVE_CONTACTS are read), take velocity into walls and ceilings away and offer wall jumps. A
/// character no longer where its last move left it was teleported: no coyote jump from the ground it left, and its
/// last contacts are ignored. Validates everything (TREAD_ERR_INVALID_ARGUMENT naming the field, TREAD_ERR_NOT_FINITE
/// for NaN or infinity); on error the state is unchanged.
TREAD_API tread_result tread_motor_update(tread_motor_state *state, const tread_motor_settings *settings, const tread_motor_input *input,
                                          const tread_character *character, const tread_move_result *last_move,
                                          const tread_contact *last_contacts, int last_contact_capacity, float dt,
                                          tread_vec3 *out_velocity);

#ifdef __cplusplus
}
#endif

#endif
