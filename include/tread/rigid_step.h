// SPDX-License-Identifier: MIT
/// Contact-point stepping for a rigid body: the Source engine's technique for a player that is a rigid body inside a
/// physics engine's solver (docs/BACKENDS.md, "Stepping a rigid body").
///
/// The engine moves the body; after its step, the game passes the contacts the engine reported for the body (points and
/// normals) with the body's capsule, position, velocity and the velocity it wants, and tread_rigid_step says whether to
/// lift the body onto a step, or to lower it onto the stair below, and the velocity to keep. It looks at the world only
/// through a shape-cast callback (tread_rigid_step_cast_fn: your engine's convex sweep, or tread_rigid_step_cast_backend
/// over any tread_backend), and allocates nothing.
///
/// Step up: a contact that blocks the wished direction (its normal too steep to stand on, facing against the motion)
/// with its point no higher above the feet than max_step_height is a step's riser or nose. The capsule is cast up by
/// max_step_height (the headroom), forward past the contact point, and down onto the tread; a walkable landing within
/// max_step_height above the feet is the step. The body is lifted by that rise plus `clearance`, and keeps its wished
/// horizontal velocity with nothing along up (what the riser took from it, given back).
/// Step before contact: a body on walkable ground with no riser among its contacts casts forward by one step's run
/// (wished speed x dt); a riser met there (the same tests as a contact's) is stepped onto now, before the engine's
/// solver stops the body against it for a frame (result.contact is -1 then).
/// Step down: a body that stood on walkable ground last step, has no walkable contact below now and is not moving up
/// is cast down by max_step_height; walkable ground there (the cast's own hit normal walkable too, so a body short of
/// a riser is not lowered onto its nose) is the next stair, and the body is lowered onto it.
#ifndef TREAD_RIGID_STEP_H
#define TREAD_RIGID_STEP_H

#include "tread/backend.h"
#include "tread/base.h"
#include "tread/math.h"
#include "tread/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One contact the physics engine reported for the body this step.
typedef struct tread_rigid_contact {
    tread_vec3 point;  ///< world-space contact point on the other body's surface, metres
    tread_vec3 normal; ///< unit-length (normalized on use) normal from the other surface toward the body: the push-out
                       ///< direction (Bullet's normalWorldOnB with the body as A, negated when the body is B)
} tread_rigid_contact;

/// Closest hit of `shape` centred at `position` moved by `translation`, with tread_world_cast_shape's contract
/// (docs/BACKENDS.md: normals toward the shape, start-in-contact at fraction 0 when pressing in): your engine's convex
/// sweep, ignoring the body itself. `context` is tread_rigid_step_settings::cast_context.
typedef void tread_rigid_step_cast_fn(void *context, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                      tread_shape_hit *out_hit);

/// How the body steps, and the world it asks. Start from tread_rigid_step_default().
typedef struct tread_rigid_step_settings {
    float max_step_height;          ///< highest step climbed and deepest stair followed down, metres, >= 0; default 0.4
                                    ///< (tread_character_settings' default)
    float max_slope_degrees;        ///< steepest walkable ground, degrees in [0, 90); default 45
    float clearance;                ///< metres added to a step-up's lift so the capsule clears the step's nose before
                                    ///< gravity sets it down on the tread, >= 0; default 0.005
    float min_tread_depth;          ///< metres past the contact point the capsule's axis is probed forward onto the
                                    ///< tread (a landing on the nose itself is not a step), > 0; default 0.05
    float min_speed;                ///< m/s of wished horizontal speed below which nothing steps up, >= 0; default 0.01
    tread_rigid_step_cast_fn *cast; ///< the shape cast; required (default NULL)
    void *cast_context;             ///< passed to cast; default NULL
    uint32_t internal_cookie; ///< set by tread_rigid_step_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_rigid_step_settings;

/// The body this step: its capsule and where the engine left it.
typedef struct tread_rigid_step_input {
    const tread_rigid_contact *contacts; ///< the contacts the engine reported for the body this step; default NULL
    int contact_count;                   ///< >= 0 (contacts may be NULL when 0); default 0
    float radius;                        ///< capsule radius, metres, > 0; default 0.3
    float half_height;                   ///< half the capsule's core segment along up, metres, >= 0; default 0.6
    tread_vec3 position;                 ///< capsule centre after the engine's step, metres; default zero
    tread_vec3 velocity;                 ///< the body's velocity after the engine's step, m/s; default zero
    tread_vec3 wish_velocity;            ///< the velocity the game drives the body at (its horizontal part is what a step
                                         ///< keeps), m/s; default zero
    tread_vec3 up;                       ///< unit-length (normalized on use) up, the capsule's axis; default (0, 1, 0)
    float dt;                            ///< seconds of the engine's step (how far forward the capsule is probed), > 0;
                                         ///< default 1/60
    bool was_on_ground;                  ///< it stood on walkable ground after the previous step (the result's
                                         ///< on_ground): only such a body is lowered onto the stair below; default false
    uint32_t internal_cookie; ///< set by tread_rigid_step_input_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_rigid_step_input;

/// What to do with the body.
typedef struct tread_rigid_step_result {
    bool stepped;              ///< lift is not zero: move the body by it and set its velocity to `velocity`
    float lift;                ///< metres along up to move the body: > 0 up a step, < 0 down onto a stair, 0 none
    tread_vec3 position;       ///< the capsule centre after the lift, metres
    tread_vec3 velocity;       ///< the velocity to keep, m/s: after a step, the wished horizontal velocity with nothing
                               ///< along up; otherwise the input velocity
    bool on_ground;            ///< walkable ground under the body after the lift (pass it back as was_on_ground)
    tread_vec3 ground_normal;  ///< unit normal of that ground; up when there is none
    int contact;               ///< index of the contact a step up started from, or -1 (a step down, none, or a riser met
                               ///< by the look-ahead cast before contact)
} tread_rigid_step_result;

/// Defaults as documented on each field (cast NULL: set it).
TREAD_API tread_rigid_step_settings tread_rigid_step_default(void);
/// Defaults as documented on each field.
TREAD_API tread_rigid_step_input tread_rigid_step_input_default(void);

/// Whether and how far to lift (or lower) the body, and the velocity to keep. Validates every argument
/// (TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_NOT_FINITE, TREAD_ERR_INVALID_ARGUMENT naming it; *out untouched then).
TREAD_API tread_result tread_rigid_step(const tread_rigid_step_settings *settings, const tread_rigid_step_input *input,
                                        tread_rigid_step_result *out);

/// A tread_rigid_step_cast_fn over any query backend (tread_world_backend for tread's own world, the Bullet adapter's):
/// point tread_rigid_step_settings::cast at it and cast_context at one of these. Each cast is one move of its own
/// (begin_move, cast_shape, end_move) with `filter`.
typedef struct tread_rigid_step_backend {
    const tread_backend *backend; ///< the world asked; required
    tread_query_filter filter;    ///< which bodies count (ignore_body: the rigid body's own id, if the backend has it)
} tread_rigid_step_backend;
TREAD_API void tread_rigid_step_cast_backend(void *context, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                             tread_shape_hit *out_hit);

#ifdef __cplusplus
}
#endif

#endif
