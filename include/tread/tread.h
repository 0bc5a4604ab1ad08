// SPDX-License-Identifier: MIT
/// tread — kinematic character movement for 3D games, on an exact collision world.
/// This umbrella header is the whole public API, readable top to bottom.
///
/// Conventions: every call that can fail returns a tread_result; on failure nothing was changed and
/// tread_error_message() names the argument and the value that was wrong. Definitions are zero-cost
/// structs initialised by tread_xxx_default(): every definition, settings, options and state struct that has one
/// must start from it (its internal_cookie says it did), and a character from tread_character_init(); a zero-filled
/// or hand-built one is refused with TREAD_ERR_UNINITIALIZED naming the argument and the struct, never read as
/// meaning something (zero masks would have switched collision off). Ids carry a generation so stale ones are rejected.
///
/// Threads: tread has no global state and starts no threads but a batch's pool (tread_batch_def::threads). A world is only read by its queries
/// (tread_world_cast_*, tread_world_collect_contacts, tread_world_closest, tread_world_body_count, tread_body_is_valid,
/// tread_body_get_*, tread_body_user_data) and by every character and motor call, so any number of threads may run
/// those on one world at once; it is written by tread_world_add_body, tread_world_remove_body,
/// tread_body_set_transform, tread_body_set_velocity, tread_body_move_to, tread_world_advance, tread_world_shift_origin and
/// tread_world_destroy, each of which
/// must not overlap any other call on that world. A character (and a motor) is the caller's plain data: one thread at a
/// time per character. Results never depend on which thread ran what (tests/test_threads.c, run under
/// ThreadSanitizer by `make test`). tread_error_message() is per thread. A move on another
/// engine's query backend (tread/backend.h, the _on functions) reads only through it; a batch calls it from several
/// threads at once.
#ifndef TREAD_H
#define TREAD_H

#include "tread/base.h"
#include "tread/math.h"
#include "tread/types.h"
#include "tread/motor.h"
#include "tread/backend.h"
#include "tread/rigid_step.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- core: the version, results and errors, the allocator (tread/types.h) ---------------------------- */

/* ---- definitions ------------------------------------------------------------------------------ */

/// World options with every field at its default (body_capacity 64).
TREAD_API tread_world_def tread_world_def_default(void);
/// A static body at the origin (identity transform) with a 1 m box shape, layer 0, no velocity, no user data.
TREAD_API tread_body_def tread_body_def_default(void);
/// A box of half extents (0.5, 0.5, 0.5) m; the other shape fields at their documented defaults.
TREAD_API tread_shape_def tread_shape_def_default(void);
/// A filter that accepts every body: all layers, no ignored body, no callback.
TREAD_API tread_query_filter tread_query_filter_default(void);
/// An upright capsule, radius 0.3 m and half height 0.6 m along +Y (1.8 m tall), the default character's volume.
TREAD_API tread_query_shape tread_query_shape_default(void);

/// A sphere of `radius` metres centred at the body origin (validated when the body is added, not here).
TREAD_API tread_shape_def tread_shape_sphere(float radius);
/// A capsule along the body's local Y: core segment of half length `half_height` metres, `radius` metres.
TREAD_API tread_shape_def tread_shape_capsule(float half_height, float radius);
/// A box of `half_extents` metres centred at the body origin.
TREAD_API tread_shape_def tread_shape_box(tread_vec3 half_extents);
/// A triangle mesh over the caller's arrays: `indices` holds 3 * triangle_count vertex indices. The arrays are only
/// referenced here; tread_world_add_body() copies them (and checks the indices), after which they may be freed.
TREAD_API tread_shape_def tread_shape_mesh(const tread_vec3 *vertices, int vertex_count, const uint32_t *indices, int triangle_count);
/// A heightfield over the caller's arrays: count_x * count_z samples (each >= 2) in the body's local XZ plane,
/// `spacing_x` and `spacing_z` metres apart (> 0); sample (i, j) stands at local (i * spacing_x, heights[j * count_x + i],
/// j * spacing_z), heights in metres along local +Y. `holes` may be NULL (no holes) or flag each of the
/// (count_x - 1) * (count_z - 1) cells, row-major in X, nonzero = a hole. The arrays are only referenced here;
/// tread_world_add_body() validates them (TREAD_ERR_INVALID_MESH for too few samples, TREAD_ERR_INVALID_SHAPE for a
/// spacing, TREAD_ERR_NOT_FINITE, TREAD_ERR_NULL_ARGUMENT for no heights) and copies them.
TREAD_API tread_shape_def tread_shape_heightfield(int count_x, int count_z, float spacing_x, float spacing_z, const float *heights,
                                                  const uint8_t *holes);
/// A voxel grid over the caller's array: count_x * count_y * count_z cubic cells (each count >= 1) of `cell_size`
/// metres (> 0); cell (i, j, k) is the box [i, i+1] x [j, j+1] x [k, k+1] times cell_size in the body's frame, solid
/// where solid[(k * count_y + j) * count_x + i] is nonzero. The array is only referenced here;
/// tread_world_add_body() validates it (TREAD_ERR_INVALID_MESH for a count, TREAD_ERR_INVALID_SHAPE for the cell
/// size, TREAD_ERR_NULL_ARGUMENT for no array) and copies it.
TREAD_API tread_shape_def tread_shape_voxels(int count_x, int count_y, int count_z, float cell_size, const uint8_t *solid);
/// A capsule query shape: core segment of half length `half_height` metres along `up` (normalized without overflow:
/// any finite nonzero length; a zero or non-finite `up` is stored as zero and refused by the query), `radius` metres.
TREAD_API tread_query_shape tread_query_capsule(float half_height, float radius, tread_vec3 up);
/// A sphere query shape of `radius` metres.
TREAD_API tread_query_shape tread_query_sphere(float radius);
/// Upright box query: half extents along its local X, Y (= up), Z; `up` is normalized as tread_query_capsule's.
TREAD_API tread_query_shape tread_query_box(tread_vec3 half_extents, tread_vec3 up);

/// Name of a stepping strategy ("sweep", "contact", "cast_down", "riser"); "unknown" outside the enum.
TREAD_API const char *tread_step_strategy_name(tread_step_strategy strategy);
/// The strategy with that name (as tread_step_strategy_name gives it). TREAD_ERR_INVALID_ARGUMENT for other names.
TREAD_API tread_result tread_step_strategy_from_name(const char *name, tread_step_strategy *out_strategy);

/// Rotation of angle_radians about `axis` (normalized here; it must not be zero), built with the project's own
/// sine and cosine: the same bits on every platform.
TREAD_API tread_quat tread_quat_from_axis_angle(tread_vec3 axis, float angle_radians);
/// sin(x), x in radians, with the project's own deterministic implementation (no libm: the same bits everywhere).
/// Within 1 ulp of the true value for every finite float (an exact reduction by pi/2 for any |x|; for every finite
/// float it equals glibc's double-precision sin rounded to float); NaN for NaN or an infinite x.
TREAD_API float tread_sin(float x);
/// cos(x), x in radians; deterministic and accurate as tread_sin.
TREAD_API float tread_cos(float x);

/* ---- world and bodies ------------------------------------------------------------------------ */

/// Create an empty world and store it in *out_world (NULL on failure). A NULL def means
/// tread_world_def_default(). TREAD_ERR_NULL_ARGUMENT when out_world is NULL, TREAD_ERR_INVALID_ARGUMENT when
/// def->body_capacity is outside [0, 2^28], TREAD_ERR_OUT_OF_MEMORY when the allocator fails.
TREAD_API tread_result tread_world_create(const tread_world_def *def, tread_world **out_world);
/// Free the world and every body in it; their ids become invalid. NULL is ignored.
TREAD_API void tread_world_destroy(tread_world *world);

/// Add a body; validates the whole definition (finite numbers, positive extents, in-range indices). Shape data is
/// copied. Errors: TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_NOT_FINITE, TREAD_ERR_INVALID_SHAPE, TREAD_ERR_INVALID_MESH,
/// TREAD_ERR_INVALID_ARGUMENT (type, layer, transform or velocity out of range), TREAD_ERR_OUT_OF_MEMORY.
TREAD_API tread_result tread_world_add_body(tread_world *world, const tread_body_def *def, tread_body_id *out_body);
/// Remove a body and free its shape data; its id (and every copy of it) becomes stale and its slot may be reused
/// with a new generation. TREAD_ERR_NULL_ARGUMENT for a NULL world, TREAD_ERR_INVALID_ID for a stale or unknown id.
TREAD_API tread_result tread_world_remove_body(tread_world *world, tread_body_id body);
/// True while the id names a live body of this world.
TREAD_API bool tread_body_is_valid(const tread_world *world, tread_body_id body);
/// Number of live bodies.
TREAD_API int tread_world_body_count(const tread_world *world);

/// Teleport a body of any type to `transform`; the rotation is renormalized. Characters are neither pushed nor carried:
/// the body has no motion over the frame (tread_body_get_motion gives previous == current). For a dynamic body it is
/// the way to say "put, not moved" (a respawn, a reset), as b2Body_SetTransform in Box2D and SetPosition in Jolt are
/// teleports beside their motion calls; it overrides a tread_body_move_to of the same frame, and leaves the velocity
/// (tread_body_set_velocity sets it). TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ID, TREAD_ERR_NOT_FINITE, or
/// TREAD_ERR_INVALID_ARGUMENT when the position lies beyond the usable range or q is not a unit quaternion (length^2
/// outside [0.5, 2]).
TREAD_API tread_result tread_body_set_transform(tread_world *world, tread_body_id body, tread_transform transform);
/// The body's current transform (position in metres, unit rotation) in *out_transform.
/// TREAD_ERR_NULL_ARGUMENT for a NULL world or out_transform, TREAD_ERR_INVALID_ID for a stale or unknown id.
TREAD_API tread_result tread_body_get_transform(const tread_world *world, tread_body_id body, tread_transform *out_transform);
/// Set a kinematic body's linear velocity (m/s) and angular velocity (radians per second about world axes), which
/// tread_world_advance() integrates (a dynamic body's is only read: what its surface moves with).
/// TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ID, TREAD_ERR_NOT_FINITE, or
/// TREAD_ERR_INVALID_ARGUMENT for a static body or a velocity beyond the allowed range.
TREAD_API tread_result tread_body_set_velocity(tread_world *world, tread_body_id body, tread_vec3 linear, tread_vec3 angular);
/// A dynamic body's new place and velocity after the game's physics step (call it each frame before
/// tread_world_advance): the body moved from where it was to `transform` (rotation renormalized) over the frame, so
/// it pushes characters it moved into and carries those standing on it, as a kinematic body does; `linear` (m/s) and
/// `angular` (radians per second about world axes) are its velocity now (what a rider's relative velocity and an
/// impulse's speed are measured against). A body not moved between two advances stood still. A body whose farthest
/// point went farther than TREAD_MAX_SPEED x dt over the advance (dt: tread_world_advance's) was not moved there but
/// put there: it is a teleport, as tread_body_set_transform (no motion over the frame; it pushes and carries no one,
/// where it once pushed a bystander 50.8 m in one frame). TREAD_ERR_NULL_ARGUMENT,
/// TREAD_ERR_INVALID_ID, TREAD_ERR_NOT_FINITE, or TREAD_ERR_INVALID_ARGUMENT for a body that is not dynamic, a position
/// beyond the coordinate limit, a rotation that is not a unit quaternion or a velocity beyond the allowed range.
TREAD_API tread_result tread_body_move_to(tread_world *world, tread_body_id body, tread_transform transform, tread_vec3 linear,
                                          tread_vec3 angular);
/// The body's type and its tread_body_flags. TREAD_ERR_NULL_ARGUMENT for a NULL world or output pointer,
/// TREAD_ERR_INVALID_ID for a stale or unknown id.
TREAD_API tread_result tread_body_get_type(const tread_world *world, tread_body_id body, tread_body_type *out_type, uint32_t *out_flags);
/// The body's linear (m/s) and angular (radians per second) velocity, as its definition or
/// tread_body_set_velocity() last set them (static bodies never move by them).
/// TREAD_ERR_NULL_ARGUMENT for a NULL world or output pointer, TREAD_ERR_INVALID_ID for a stale or unknown id.
TREAD_API tread_result tread_body_get_velocity(const tread_world *world, tread_body_id body, tread_vec3 *out_linear, tread_vec3 *out_angular);
/// Set the velocity of the body's surface (a conveyor; any body type): it carries whoever stands on the body, and
/// the body does not move. TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ID, TREAD_ERR_NOT_FINITE, or
/// TREAD_ERR_INVALID_ARGUMENT for a centre beyond the coordinate limit or a surface faster than TREAD_MAX_SPEED
/// anywhere on the body: |linear| + |angular| x (the farthest point of the body's bounds from `center`), m/s.
TREAD_API tread_result tread_body_set_surface_velocity(tread_world *world, tread_body_id body, const tread_surface_velocity *surface);
/// The body's surface velocity in *out_surface. TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ID.
TREAD_API tread_result tread_body_get_surface_velocity(const tread_world *world, tread_body_id body, tread_surface_velocity *out_surface);
/// Velocity of the body's material at a world point (linear + angular x r, plus its surface velocity), m/s: what a
/// character standing there moves with. TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ID, or TREAD_ERR_NOT_FINITE / TREAD_ERR_INVALID_ARGUMENT
/// for a bad point.
TREAD_API tread_result tread_body_get_point_velocity(const tread_world *world, tread_body_id body, tread_vec3 point, tread_vec3 *out_velocity);
/// The body's world-space bounding box, metres (what the broad phase uses).
/// TREAD_ERR_NULL_ARGUMENT for a NULL world or out_aabb, TREAD_ERR_INVALID_ID for a stale or unknown id.
TREAD_API tread_result tread_body_get_aabb(const tread_world *world, tread_body_id body, tread_aabb *out_aabb);
/// The body's collision layer, in [0, TREAD_MAX_LAYERS).
/// TREAD_ERR_NULL_ARGUMENT for a NULL world or out_layer, TREAD_ERR_INVALID_ID for a stale or unknown id.
TREAD_API tread_result tread_body_get_layer(const tread_world *world, tread_body_id body, uint32_t *out_layer);
/// The body's shape type (sphere, capsule and box are convex solids; mesh, heightfield and voxels are surfaces of many
/// pieces). TREAD_ERR_NULL_ARGUMENT for a NULL world or out_type, TREAD_ERR_INVALID_ID for a stale or unknown id.
TREAD_API tread_result tread_body_get_shape_type(const tread_world *world, tread_body_id body, tread_shape_type *out_type);
/// The body's bounds in its own frame, metres (what its world box is built from at every transform).
/// TREAD_ERR_NULL_ARGUMENT for a NULL world or out_aabb, TREAD_ERR_INVALID_ID for a stale or unknown id.
TREAD_API tread_result tread_body_get_local_aabb(const tread_world *world, tread_body_id body, tread_aabb *out_aabb);
/// The body's tread_body_def::user_data; NULL also when the world is NULL or the id is stale (no error is set).
TREAD_API void *tread_body_user_data(const tread_world *world, tread_body_id body);

/// The body's transform at the start of the last tread_world_advance (*out_previous) and now (*out_current):
/// positions in metres, unit rotations. Their difference is the body's rigid motion over that frame, what carries a
/// character standing on it. Equal for static bodies, for a kinematic body that did not move in that advance, and
/// after tread_body_set_transform (a teleport carries nothing). TREAD_ERR_NULL_ARGUMENT for a NULL world or output
/// pointer, TREAD_ERR_INVALID_ID for a stale or unknown id.
TREAD_API tread_result tread_body_get_motion(const tread_world *world, tread_body_id body, tread_transform *out_previous,
                                             tread_transform *out_current);

/// Move every kinematic body by its velocity over dt seconds (dt in (0, 1]): the position by linear * dt, the
/// rotation by exactly the rotation of angle |angular| * dt about angular / |angular| (built with tread_sin and
/// tread_cos, and summed about one axis without drift: after t seconds at a constant angular velocity a body has
/// turned by |angular| * t to within the float rounding of its rotation, about 1e-7 rad, also after hours). Each body's transform before the call becomes its previous transform
/// (tread_body_get_motion); a dynamic body keeps the motion tread_body_move_to gave it since the last advance, or
/// stands still. Frame order: move the dynamic bodies and advance the world first, then update the characters, so that a character
/// standing on a moving body is moved by that body's motion over the frame before it walks.
/// TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_NOT_FINITE or TREAD_ERR_INVALID_ARGUMENT for a bad dt.
TREAD_API tread_result tread_world_advance(tread_world *world, float dt);
/// How far any point of any body moved in the last tread_world_advance (and by tread_body_move_to since), metres: an
/// upper bound, 0 when nothing moved (a character update looks this far around itself for bodies that pushed it).
/// 0 for a NULL world.
TREAD_API float tread_world_largest_motion(const tread_world *world);

/// Move the origin to `offset` (metres, in current coordinates): every body and the `count` given characters are
/// translated by -offset together (as PhysX's shiftOrigin; bodies' previous transforms too), so play far from the origin can be brought back near it,
/// where floats are precise (see TREAD_MAX_COORDINATE). Velocities, rotations and kinematic motion are unchanged;
/// characters not passed keep their coordinates (shift them too, or re-place them). Move results and any other
/// positions the caller holds stay in the old coordinates. Nothing changes on error: TREAD_ERR_NULL_ARGUMENT,
/// TREAD_ERR_NOT_FINITE, or TREAD_ERR_INVALID_ARGUMENT for a negative count or when a body or character would end
/// beyond the coordinate limit. Writes the world (see Threads above).
TREAD_API tread_result tread_world_shift_origin(tread_world *world, tread_vec3 offset, tread_character *characters, int count);

/* ---- queries -------------------------------------------------------------------------------------
 * A NULL filter means tread_query_filter_default(). Results come in a deterministic order: by fraction
 * (or separation), then body index, then feature. Buffers have a caller-given capacity; when more
 * results exist, the closest `capacity` are kept and *overflow is set.
 */

/// Closest hit of the segment origin -> origin + translation.
TREAD_API tread_result tread_world_cast_ray(const tread_world *world, tread_vec3 origin, tread_vec3 translation,
                                  const tread_query_filter *filter, tread_ray_hit *out_hit);
/// Every hit along the segment (one per body and feature).
TREAD_API tread_result tread_world_cast_ray_all(const tread_world *world, tread_vec3 origin, tread_vec3 translation,
                                      const tread_query_filter *filter, tread_ray_hit *hits, int capacity,
                                      int *out_count, bool *out_overflow);

/// Closest hit of `shape` centred at `position` moved by `translation`. A cast that starts overlapping or
/// touching (within 0.1 mm of) a body while pressing into it hits it at fraction 0 with started_in_contact
/// set; moving away or along, that body is not hit. A zero-length cast reports the bodies it overlaps.
TREAD_API tread_result tread_world_cast_shape(const tread_world *world, const tread_query_shape *shape, tread_vec3 position,
                                    tread_vec3 translation, const tread_query_filter *filter, tread_shape_hit *out_hit);
/// Every hit of the cast (one per body and feature).
TREAD_API tread_result tread_world_cast_shape_all(const tread_world *world, const tread_query_shape *shape, tread_vec3 position,
                                        tread_vec3 translation, const tread_query_filter *filter, tread_shape_hit *hits,
                                        int capacity, int *out_count, bool *out_overflow);

/// Every body (and mesh triangle / cell) whose surface is within `margin` metres of the shape's surface,
/// with signed separation (negative = penetration depth), normal and point.
TREAD_API tread_result tread_world_collect_contacts(const tread_world *world, const tread_query_shape *shape, tread_vec3 position,
                                          float margin, const tread_query_filter *filter, tread_contact *contacts,
                                          int capacity, int *out_count, bool *out_overflow);

/// Closest world surface to the shape within max_distance metres (signed: negative = penetration).
TREAD_API tread_result tread_world_closest(const tread_world *world, const tread_query_shape *shape, tread_vec3 position,
                                 float max_distance, const tread_query_filter *filter, tread_distance_result *out_result);


/* ---- character controller ----------------------------------------------------------------------------
 * The caller owns velocity (gravity, jumps, input); the controller moves the shape through the world and
 * classifies the ground. tread_character_move is the reference combination of the public phases:
 *
 *     update (recover, slide, classify ground) -> walk_stairs if can_walk_stairs -> stick_to_floor
 *
 * A move never allocates. On any error the character is left unchanged.
 */

/// The course character's settings: every field at the default its documentation gives (capsule 0.3 x 1.8 m,
/// step 0.4 m, slopes up to 45 degrees, TREAD_STEP_SWEEP).
TREAD_API tread_character_settings tread_character_settings_default(void);
/// Validate settings and place the character's feet at `position`. settings.up may have any finite nonzero length (it is
/// normalised without overflow: (0, 1e30, 0) is +Y); TREAD_ERR_INVALID_ARGUMENT for a zero up, TREAD_ERR_NOT_FINITE for
/// NaN or infinity. Every public function that reads a character afterwards (moves, phases, setters, save, the motor,
/// the batch, tread_world_shift_origin) checks it again, settings and state, as this one and a move leave them: it is
/// the caller's plain data, so a field written by hand out of range (a radius of -1, 1e5 slide iterations, a NaN snap
/// timer, a ground normal that is not unit) is refused with the error naming it ("character->settings.radius ...")
/// and nothing changes. Change settings through tread_character_set_settings (it derives what the move uses).
TREAD_API tread_result tread_character_init(tread_character *character, const tread_character_settings *settings, tread_vec3 position);
/// Replace the character's settings, validated as tread_character_init does, keeping its feet, velocity and ground.
/// A new shape must fit where the character stands: it may overlap the world no deeper than the current shape
/// does (TREAD_ERR_BLOCKED otherwise, and nothing changes). World may be NULL only when the shape is unchanged.
TREAD_API tread_result tread_character_set_settings(const tread_world *world, tread_character *character,
                                                    const tread_character_settings *settings);
/// Change the total height with the feet fixed (crouch and stand), through tread_character_set_settings: lowering
/// always fits; growing only where the taller shape fits, so under a low ceiling the character stays crouched
/// (TREAD_OK with *out_changed false). Capsules and boxes; a sphere has no height (TREAD_ERR_INVALID_ARGUMENT).
/// *out_changed (may be NULL) says whether the height changed.
TREAD_API tread_result tread_character_set_height(const tread_world *world, tread_character *character, float height,
                                                  bool *out_changed);
/// The character's volume as a query shape (for the caller's own queries).
TREAD_API tread_query_shape tread_character_shape(const tread_character *character);
/// Centre of the character's shape (feet + up * half height).
TREAD_API tread_vec3 tread_character_center(const tread_character *character);
/// Teleport the feet (no collision). The ground is forgotten (in the air) until the next move classifies it there.
TREAD_API tread_result tread_character_set_position(tread_character *character, tread_vec3 position);
/// No stick-to-floor snapping for this many seconds (e.g. after a launch pad).
TREAD_API tread_result tread_character_suppress_snap(tread_character *character, float seconds);

/// Phase 1: recover from penetration, collide and slide with `velocity` for dt seconds, classify the ground.
/// Standing on a body that moved in the last tread_world_advance, the character is first carried by that body's
/// change of transform at its feet (result.carried, result.ground_turn, result.ground_yaw); `velocity` is its own,
/// relative to the ground it stands on (in the air: its world velocity). A character deeper than 1 mm inside its
/// ground is not carried. Then bodies that moved into it in that advance push it ahead of them (their motion swept
/// against it: at any speed, never through it; only the collide mask's layers choose which bodies push, no callback
/// vetoes it); pressed against another body it cannot leave, the result says crushed.
/// Recovery pushes the character out of what it overlaps at settings.recovery_speed; when no such push leads out
/// (buried between bodies, or through a mesh or heightfield) or it would take longer than half a second, it jumps
/// at once to the nearest free spot within three body reaches or 2 m (result.unburied says how far), as a spawn
/// inside geometry would be moved; with none within reach it rises at the recovery speed (Staxel's answer), and
/// crushed (buried in a moving body too) it stays. While it is pushed out, the move does not go back in against the
/// push, and a push that would leave it deeper in one body than it was is a burial, not a walk.
/// It begins `state` (tread_move_state: the phases' working state, the report in state->result); hand it to the
/// later phases. The impulses on dynamic bodies and the contact listener belong to the reference move (tread_character_move_with).
TREAD_API tread_result tread_character_update(const tread_world *world, tread_character *character, tread_vec3 velocity, float dt,
                                              tread_move_state *state);
/// True when the last update was stopped by a wall or riser while on ground (a step candidate).
TREAD_API bool tread_character_can_walk_stairs(const tread_character *character, const tread_move_state *state);
/// Phase 2: try to step up where the update was stopped (sweep up, forward, down). Keeps the update's
/// result when no step fits.
TREAD_API tread_result tread_character_walk_stairs(const tread_world *world, tread_character *character, tread_move_state *state);
/// Phase 3: if the move started on ground and lost it (or hovers above it), and the caller is not moving away
/// from the ground, settle down onto walkable ground within step_down_distance.
TREAD_API tread_result tread_character_stick_to_floor(const tread_world *world, tread_character *character, tread_vec3 velocity,
                                                      tread_move_state *state);
/// The reference move: update, walk_stairs when possible, stick_to_floor. Every move (and phase) keeps the feet within
/// TREAD_MAX_COORDINATE: its part beyond is clamped there (the velocity's part outward across it is dropped), and a
/// move near the limit succeeds as anywhere, back inward included.
TREAD_API tread_result tread_character_move(const tread_world *world, tread_character *character, tread_vec3 velocity, float dt,
                                  tread_move_result *result);
/// Defaults of tread_move_options (nothing ignored).
TREAD_API tread_move_options tread_move_options_default(void);
/// An empty tread_move_cache (tread_move_options::cache), ready for a character's first move.
TREAD_API tread_move_cache tread_move_cache_default(void);
/// The reference move with options (NULL: the defaults, as tread_character_move): a filter every query of the move
/// passes too (ignore the character's proxy body, or any set of bodies), a listener, and the caller's buffers for the
/// surfaces touched and the impulses given.
TREAD_API tread_result tread_character_move_with(const tread_world *world, tread_character *character, tread_vec3 velocity, float dt,
                                                 const tread_move_options *options, tread_move_result *result);

/* ---- many characters: the batch update ------------------------------------------------------------------ */

/// An opaque batch: the other characters as obstacles, kept between frames so a frame allocates nothing once it has
/// room. Not shared between threads while it moves. Its moves run on its thread pool or the game's parallel-for
/// (tread_batch_def): the results are the same on any number of threads; a listener's validate and push may then be
/// called from several threads at once (its added, persisted and removed come after the moves, on the calling
/// thread), and so may debug drawing's callbacks (tread_move_options::debug_draw).
typedef struct tread_batch tread_batch;
/// Defaults of tread_batch_def.
TREAD_API tread_batch_def tread_batch_def_default(void);
/// Create a batch. TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ARGUMENT naming the bad field, TREAD_ERR_OUT_OF_MEMORY.
TREAD_API tread_result tread_batch_create(const tread_batch_def *def, tread_batch **out_batch);
/// Destroy a batch (NULL is fine).
TREAD_API void tread_batch_destroy(tread_batch *batch);
/// Move `count` characters one frame (the reference move each, with velocities[i]), as obstacles to each other:
/// each moves against the world and the others' shapes as they were when the frame began (so the result does not
/// depend on their order in the array); one that walked into another pushes it by its mass's share, as far as the
/// world and the crowd let it go; characters still overlapping are parted, the overlap split by mass (the heavier
/// moves less), sliding along the world. A crowd squeezed against itself never teleports anyone (only the world's
/// bodies can bury a character). results[i] is character i's move (the contacts in its buffer name the other characters it
/// met by index, tread_contact::character, with a null body). Characters stand on each other as on a platform: the
/// rider's ground names the one under it (tread_ground::character), which carries it at the next batch update.
/// Advance the world first, as for single moves. Every argument is checked before anything moves. All or nothing:
/// on an error (an argument, or any one character's move) no character changes, no contact memory changes and the
/// listener hears nothing; the message and tread_batch_get_report() name the character it failed on.
/// TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ARGUMENT (naming characters[i] or velocities[i]), TREAD_ERR_NOT_FINITE,
/// TREAD_ERR_UNINITIALIZED, TREAD_ERR_OUT_OF_MEMORY, or what a character's move returned.
TREAD_API tread_result tread_batch_move(tread_batch *batch, const tread_world *world, tread_character *characters,
                                        const tread_vec3 *velocities, int count, float dt, tread_move_result *results);

/// tread_batch_move with options: the filter every move passes, and a listener (its validate and events name the
/// other characters by their index in these arrays; its push callback decides who of two characters may push the
/// other, as it does for dynamic bodies). Added, persisted and removed come once every move succeeded, on the calling
/// thread, character by character in index order, each given the character as it was when the frame began (as a
/// single move's are). The batch keeps each index's contact memory itself (allocated once a
/// listener has added, persisted or removed: keep a character at the same index, or its events mix with another's);
/// options.memory and options.cache are for single moves (TREAD_ERR_INVALID_ARGUMENT). options.contacts and options.impulses are
/// per-character buffers: character i's start at contacts + i * contact_capacity (impulses likewise). NULL: the defaults.
TREAD_API tread_result tread_batch_move_with(tread_batch *batch, const tread_world *world, tread_character *characters,
                                             const tread_vec3 *velocities, int count, float dt, const tread_move_options *options,
                                             tread_move_result *results);
/// The report of the last tread_batch_move* call on this batch in *out_report: its result and the index of the
/// character it failed on (-1: none). TREAD_ERR_NULL_ARGUMENT for a NULL batch or out_report.
TREAD_API tread_result tread_batch_get_report(const tread_batch *batch, tread_batch_report *out_report);

/* ---- saving and restoring state (rollback netcode, server handoff) ------------------------------------------ */

/// Bytes of a character's saved state (tread_character_save).
#define TREAD_CHARACTER_STATE_SIZE 200
/// Save a character (settings, feet, velocity, ground, snap suppression) as versioned bytes: little-endian IEEE-754
/// on every machine, so they restore anywhere. NULL bytes with capacity 0 asks the size (*out_size). Errors:
/// TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ARGUMENT when capacity is short (nothing is written).
TREAD_API tread_result tread_character_save(const tread_character *character, void *bytes, size_t capacity, size_t *out_size);
/// Restore a character from tread_character_save's bytes, validated as tread_character_init validates and every other
/// field as every public entry checks a character (the same code: finite numbers, feet within the coordinate limit,
/// a unit ground normal within 1e-3, a velocity within the speed limit, a snap timer in [0, 3600] s); on any error the
/// character is unchanged: TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ARGUMENT (wrong size, not a character's state,
/// another version, settings or a field out of range), TREAD_ERR_INVALID_SHAPE, TREAD_ERR_NOT_FINITE.
TREAD_API tread_result tread_character_load(tread_character *character, const void *bytes, size_t size);
/// Save every kinematic and dynamic body's motion state (transform now and at the last advance, velocities, surface
/// velocity, its exact-rotation state) as versioned little-endian bytes: with the characters', what a re-run from
/// this frame needs to repeat itself bit for bit. Static bodies and shapes are not saved (the level is the same).
/// NULL bytes with capacity 0 asks the size. TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ARGUMENT (capacity short).
TREAD_API tread_result tread_world_save_bodies(const tread_world *world, void *bytes, size_t capacity, size_t *out_size);
/// Restore tread_world_save_bodies' bytes into the same world (the same bodies still in it): all bodies or, on an
/// error, none. Every field is checked as the setters check it (the same code: positions within the coordinate
/// limit, velocities as tread_body_set_velocity takes them, surfaces within the speed limit), and rotations, kept bit
/// for bit, must be unit to within 1e-3; the saved motion bound (tread_world_largest_motion) no more than the saved
/// bodies can have moved in one advance. TREAD_ERR_NULL_ARGUMENT, TREAD_ERR_INVALID_ARGUMENT (wrong size, mark or
/// version, a body's type changed, a field out of range, naming the body and the field), TREAD_ERR_INVALID_ID (a
/// saved body was removed), TREAD_ERR_NOT_FINITE. Writes the world (see Threads).
TREAD_API tread_result tread_world_load_bodies(tread_world *world, const void *bytes, size_t size);

/* ---- building your own mover on tread's queries -------------------------------------------------------- */

/// Most planes tread_solve_planes takes.
#define TREAD_MAX_SOLVER_PLANES 16
/// The pure plane solver the controller slides with: the part of `motion` that moves into none of the planes
/// (unit normals; moving along or away is free). One plane projects onto it, two onto their crease, three or more
/// that cannot all be satisfied stop. count in [0, TREAD_MAX_SOLVER_PLANES].
TREAD_API tread_result tread_solve_planes(tread_vec3 motion, const tread_vec3 *normals, int count, tread_vec3 *out_motion);
/// Turn a motion along a walkable ground plane, keeping its horizontal direction: the same length (constant speed
/// along the surface) or, with keep_horizontal, the same horizontal part. `up` and `ground_normal` are unit.
TREAD_API tread_result tread_align_to_ground(tread_vec3 motion, tread_vec3 up, tread_vec3 ground_normal, bool keep_horizontal,
                                             tread_vec3 *out_motion);

/* ---- camera helpers ------------------------------------------------------------------------------------ */

/// e^x with the project's own deterministic implementation (same bits everywhere).
TREAD_API float tread_exp(float x);
/// Exponential approach from a to b: b + (a - b) * e^(-decay * dt). Frame-rate independent.
TREAD_API float tread_exp_decay(float a, float b, float decay, float dt);
/// Smoothing at rest: offset 0 m, decay 15 per second.
TREAD_API tread_step_smoothing tread_step_smoothing_default(void);
/// Absorb a step or snap (a move's step_up - snap_down, metres) into the view offset and decay it by dt seconds.
TREAD_API tread_result tread_step_smoothing_update(tread_step_smoothing *smoothing, float offset, float dt);

#ifdef __cplusplus
}
#endif

#endif
