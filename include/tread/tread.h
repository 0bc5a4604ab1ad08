/// tread — kinematic character movement for 3D games, on an exact collision world.
/// This umbrella header is the whole public API, readable top to bottom.
///
/// Conventions: every call that can fail returns a tread_result; on failure nothing was changed and
/// tread_error_message() names the argument and the value that was wrong. Definitions are zero-cost
/// structs initialised by tread_xxx_default(). Ids carry a generation so stale ones are rejected.
#ifndef TREAD_H
#define TREAD_H

#include "tread/base.h"
#include "tread/math.h"
#include "tread/types.h"
#include "tread/motor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- core ---------------------------------------------------------------------------------- */

/// Stable name of a result code, e.g. "TREAD_ERR_NOT_FINITE".
TREAD_API const char *tread_result_name(tread_result result);
/// Message of the last failed call on this thread ("" if none): says which argument and value was wrong.
TREAD_API const char *tread_error_message(void);
/// Replace the allocator (default malloc/free). Call before creating worlds.
TREAD_API void tread_set_allocator(tread_alloc_fn *alloc, tread_free_fn *free_fn, void *context);

/* ---- definitions ------------------------------------------------------------------------------ */

TREAD_API tread_world_def tread_world_def_default(void);
TREAD_API tread_body_def tread_body_def_default(void);
TREAD_API tread_shape_def tread_shape_def_default(void);
TREAD_API tread_query_filter tread_query_filter_default(void);
TREAD_API tread_query_shape tread_query_shape_default(void);

/// Shorthands for shape definitions.
TREAD_API tread_shape_def tread_shape_sphere(float radius);
TREAD_API tread_shape_def tread_shape_capsule(float half_height, float radius);
TREAD_API tread_shape_def tread_shape_box(tread_vec3 half_extents);
TREAD_API tread_shape_def tread_shape_mesh(const tread_vec3 *vertices, int vertex_count, const uint32_t *indices, int triangle_count);
/// Query-shape shorthands. `up` is normalized.
TREAD_API tread_query_shape tread_query_capsule(float half_height, float radius, tread_vec3 up);
TREAD_API tread_query_shape tread_query_sphere(float radius);
/// Upright box query: half extents along its local X, Y (= up), Z; `up` is normalized.
TREAD_API tread_query_shape tread_query_box(tread_vec3 half_extents, tread_vec3 up);

/// Rotation of angle_radians about a unit axis (setup-time helper; uses libm sin/cos).
TREAD_API tread_quat tread_quat_from_axis_angle(tread_vec3 axis, float angle_radians);

/* ---- world and bodies ------------------------------------------------------------------------ */

TREAD_API tread_result tread_world_create(const tread_world_def *def, tread_world **out_world);
TREAD_API void tread_world_destroy(tread_world *world);

/// Add a body; validates the whole definition (finite numbers, positive extents, in-range indices).
TREAD_API tread_result tread_world_add_body(tread_world *world, const tread_body_def *def, tread_body_id *out_body);
TREAD_API tread_result tread_world_remove_body(tread_world *world, tread_body_id body);
/// True while the id names a live body of this world.
TREAD_API bool tread_body_is_valid(const tread_world *world, tread_body_id body);
/// Number of live bodies.
TREAD_API int tread_world_body_count(const tread_world *world);

TREAD_API tread_result tread_body_set_transform(tread_world *world, tread_body_id body, tread_transform transform);
TREAD_API tread_result tread_body_get_transform(const tread_world *world, tread_body_id body, tread_transform *out_transform);
/// Kinematic bodies only.
TREAD_API tread_result tread_body_set_velocity(tread_world *world, tread_body_id body, tread_vec3 linear, tread_vec3 angular);
TREAD_API tread_result tread_body_get_velocity(const tread_world *world, tread_body_id body, tread_vec3 *out_linear, tread_vec3 *out_angular);
/// Velocity of the body's material at a world point (linear + angular x r): what a character standing there moves with.
TREAD_API tread_result tread_body_get_point_velocity(const tread_world *world, tread_body_id body, tread_vec3 point, tread_vec3 *out_velocity);
TREAD_API tread_result tread_body_get_aabb(const tread_world *world, tread_body_id body, tread_aabb *out_aabb);
TREAD_API tread_result tread_body_get_layer(const tread_world *world, tread_body_id body, uint32_t *out_layer);
TREAD_API void *tread_body_user_data(const tread_world *world, tread_body_id body);

/// Move every kinematic body by its velocity over dt seconds (dt in (0, 1]).
TREAD_API tread_result tread_world_advance(tread_world *world, float dt);

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

TREAD_API tread_character_settings tread_character_settings_default(void);
/// Validate settings and place the character's feet at `position`.
TREAD_API tread_result tread_character_init(tread_character *character, const tread_character_settings *settings, tread_vec3 position);
/// The character's volume as a query shape (for the caller's own queries).
TREAD_API tread_query_shape tread_character_shape(const tread_character *character);
/// Centre of the character's shape (feet + up * half height).
TREAD_API tread_vec3 tread_character_center(const tread_character *character);
/// Teleport the feet (no collision).
TREAD_API tread_result tread_character_set_position(tread_character *character, tread_vec3 position);
/// No stick-to-floor snapping for this many seconds (e.g. after a launch pad).
TREAD_API tread_result tread_character_suppress_snap(tread_character *character, float seconds);

/// Phase 1: recover from penetration, collide and slide with `velocity` for dt seconds, classify the ground.
TREAD_API tread_result tread_character_update(const tread_world *world, tread_character *character, tread_vec3 velocity, float dt,
                                    tread_move_result *result);
/// True when the last update was stopped by a wall or riser while on ground (a step candidate).
TREAD_API bool tread_character_can_walk_stairs(const tread_character *character, const tread_move_result *result);
/// Phase 2: try to step up where the update was stopped (sweep up, forward, down). Keeps the update's
/// result when no step fits.
TREAD_API tread_result tread_character_walk_stairs(const tread_world *world, tread_character *character, tread_move_result *result);
/// Phase 3: if the move started on ground and lost it (or hovers above it), and the caller is not moving away
/// from the ground, settle down onto walkable ground within step_down_distance.
TREAD_API tread_result tread_character_stick_to_floor(const tread_world *world, tread_character *character, tread_vec3 velocity,
                                            tread_move_result *result);
/// The reference move: update, walk_stairs when possible, stick_to_floor.
TREAD_API tread_result tread_character_move(const tread_world *world, tread_character *character, tread_vec3 velocity, float dt,
                                  tread_move_result *result);

/* ---- camera helpers ------------------------------------------------------------------------------------ */

/// e^x with the project's own deterministic implementation (same bits everywhere).
TREAD_API float tread_exp(float x);
/// Exponential approach from a to b: b + (a - b) * e^(-decay * dt). Frame-rate independent.
TREAD_API float tread_exp_decay(float a, float b, float decay, float dt);
TREAD_API tread_step_smoothing tread_step_smoothing_default(void);
/// Absorb a move's `stepped` into the view offset and decay it by dt seconds.
TREAD_API tread_result tread_step_smoothing_update(tread_step_smoothing *smoothing, float stepped, float dt);

#ifdef __cplusplus
}
#endif

#endif
