// SPDX-License-Identifier: MIT
/// tread over another engine: the query backend a character move runs on (docs/BACKENDS.md).
///
/// Every world query a character move makes goes through one per-move query context; a backend is what that
/// context asks: shape casts (closest and all hits), a ray, contact collection and closest distance, and a few facts
/// per body (layer, type, flags, convexity, own bounds, where it was and where it is, its velocities). Fill a
/// tread_backend with your engine's answers (Jolt, PhysX, Bullet, a game's own BVH) and every character function has
/// an _on variant that runs on it; tread's own world is a backend too (tread_world_backend), and the world-taking
/// functions are exactly the _on functions on it.
///
/// The contract (tests/backend_conformance.h checks it; docs/BACKENDS.md says what must be exact and what may be
/// approximate). All positions are world space, metres; shapes are tread_query_shape (centred at `position`, `up`
/// unit); filters are never NULL.
///  - Start in contact: a cast that starts touching a body (surfaces within 0.1 mm) or overlapping it, while its
///    translation presses into it (translation . normal < -1e-4 |translation|), hits it at fraction 0 with
///    started_in_contact set and penetration the overlap depth (0 when only touching). Moving away from it or
///    along it, that body is not hit at all (the cast goes on to what lies beyond). A zero translation reports the
///    bodies the shape overlaps, at fraction 0. Otherwise fraction is how much of the translation is travelled before
///    the surfaces touch, in [0, 1], and point lies on the body's surface.
///  - Normals point from the surface toward the query shape (the way out): tread_shape_hit::normal,
///    tread_contact::normal, tread_distance_result::normal; a ray's normal faces the ray's origin side. They are unit.
///  - surface_normal is the normal of the face that was hit (a mesh triangle, a box face): equal to normal on a
///    face's interior, different at edges and vertices, where normal is the direction between the closest points and
///    surface_normal is that of the face meeting there the translation runs into most (with no translation, or two
///    alike, the one nearest the normal): down onto a step's nose, its tread; sideways into it, its riser.
///  - Order: casts by fraction, contacts and closest distance by separation; ties by body index, then by feature
///    (triangle or cell index; 0 for one convex solid). One result per body and feature.
///  - Capacity: when there are more results than `capacity`, the first `capacity` in that order are kept and
///    *out_overflow is set (it is false otherwise).
///  - Filters: a body is considered only when its layer's bit is in filter->layer_mask, it is not
///    filter->ignore_body, it is not a sensor (TREAD_BODY_SENSOR) unless filter->include_sensors, and
///    filter->callback (when not NULL) returns true for it, called as callback(body, layer, user_data,
///    filter->context) with any user data your engine keeps for it (NULL is fine). tread's callbacks call back into
///    the backend's body() and motion() for the body they are asked about: they must be callable from inside a query.
///  - Body ids: what your queries name bodies by and body() / motion() answer for. generation is never 0 (the null id
///    is {0, 0}); any index. Ties are broken by index: keep ids stable while a move runs. The results' `character`
///    field is tread's (the other characters of a batch are a query source of its own): leave it, tread sets it.
///  - A query that finds nothing sets hit / found to false (count 0); the other fields are then unspecified.
///
/// Threads: a batch update (tread_batch_move_on) runs moves on several threads at once; every function here may then
/// be called concurrently with different `move` states, and must only read the engine (no engine step, no body
/// changes while moves run).
#ifndef TREAD_BACKEND_H
#define TREAD_BACKEND_H

#include "tread/base.h"
#include "tread/math.h"
#include "tread/types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tread_batch; // tread.h: typedef struct tread_batch tread_batch

/// What a backend says about one body: the facts tread keeps for a body of its own world.
typedef struct tread_backend_body {
    tread_body_type type;    ///< static, kinematic (moved by its velocity) or dynamic (moved by a physics step);
                             ///< moving bodies push characters, dynamic ones also receive impulses
    uint32_t flags;          ///< tread_body_flags: TREAD_BODY_ONE_WAY, TREAD_BODY_SENSOR, or 0
    uint32_t layer;          ///< collision layer in [0, TREAD_MAX_LAYERS) (filters test bit 1u << layer)
    bool convex;             ///< one convex solid (sphere, capsule, box, convex hull), so that pushing the character
                             ///< out along a contact normal leaves it; false for triangle meshes, heightfields, voxels
                             ///< and compounds
    tread_aabb local_bounds; ///< bounds in the body's own frame, metres (one-way bodies: the top is the highest corner
                             ///< of these along the character's up, where the body was and where it is)
} tread_backend_body;

/// What a backend says about one body's motion over the last frame (the engine's last step, or the game's last
/// placement of a kinematic body): it carries characters standing on the body and pushes those in its way.
typedef struct tread_backend_motion {
    tread_transform previous;        ///< where the body was when the frame began (position metres, unit rotation);
                                     ///< equal to current for a body that did not move or was teleported
    tread_transform current;         ///< where it is now, as the queries see it
    tread_vec3 linear_velocity;      ///< m/s, what contacts with it are measured against; zero for static bodies
    tread_vec3 angular_velocity;     ///< radians per second about world axes, through current.p; zero for static bodies
    tread_surface_velocity surface;  ///< its surface's own velocity (a conveyor), in its frame; all zero for none
} tread_backend_motion;

/// Begin one move: the axis-aligned box `bounds` (metres) holds every query the move will make (tread checks its own
/// queries against it). Set *out_move to the state the move's queries receive as `move` (a candidate list gathered
/// once, a scratch buffer: anything, NULL too). Return TREAD_OK, or an error the move then returns with the
/// character unchanged (end_move is not called then).
typedef tread_result tread_backend_begin_fn(void *context, const tread_aabb *bounds, void **out_move);
/// End a move begun by begin_move (its `move` state may be freed); called once for every successful begin_move.
typedef void tread_backend_end_fn(void *context, void *move);
/// Closest hit of `shape` centred at `position` moved by `translation` (as tread_world_cast_shape).
typedef void tread_backend_cast_fn(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                   const tread_query_filter *filter, tread_shape_hit *out_hit);
/// Every hit of that cast, in order, at most `capacity` (as tread_world_cast_shape_all).
typedef void tread_backend_cast_all_fn(void *context, void *move, const tread_query_shape *shape, tread_vec3 position,
                                       tread_vec3 translation, const tread_query_filter *filter, tread_shape_hit *hits, int capacity,
                                       int *out_count, bool *out_overflow);
/// Closest hit of the segment origin -> origin + translation (as tread_world_cast_ray).
typedef void tread_backend_ray_fn(void *context, void *move, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                                  tread_ray_hit *out_hit);
/// Every surface within `margin` metres of the shape's surface, with signed separation, in order, at most `capacity`
/// (as tread_world_collect_contacts).
typedef void tread_backend_contacts_fn(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, float margin,
                                       const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count,
                                       bool *out_overflow);
/// The closest surface within max_distance metres of the shape's surface, signed (as tread_world_closest).
typedef void tread_backend_closest_fn(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                                      const tread_query_filter *filter, tread_distance_result *out_result);
/// The body's facts into *out; false when the id names no live body (nothing written).
typedef bool tread_backend_body_fn(void *context, tread_body_id body, tread_backend_body *out);
/// The body's motion over the last frame into *out; false when the id names no live body (nothing written).
typedef bool tread_backend_motion_fn(void *context, tread_body_id body, tread_backend_motion *out);
/// How far any point of any body moved over the last frame, metres: an upper bound (0: nothing moved). A move looks
/// this far around the character for bodies that may have pushed it.
typedef float tread_backend_largest_motion_fn(void *context);
/// Whether any body has TREAD_BODY_ONE_WAY (when none has, moves skip the one-way test).
typedef bool tread_backend_has_one_way_fn(void *context);

/// A query backend: your engine's answers to a character move's questions. Every function but begin_move, end_move
/// and has_one_way is required (the _on functions name a NULL one: TREAD_ERR_NULL_ARGUMENT). The struct is read
/// afresh by every call that takes it; it may live on the stack.
///
/// Per move, tread calls: motion(ground body) and largest_motion (to size the move), then begin_move(bounds), then
/// the queries and body() / motion() in any order and number, then end_move. Phases called one by one
/// (tread_character_update_on, ...) are a move each.
typedef struct tread_backend {
    void *context;                             ///< passed to every function: your engine's world; default NULL
    tread_backend_begin_fn *begin_move;        ///< optional (NULL: `move` is NULL in every query); default NULL
    tread_backend_end_fn *end_move;            ///< optional; default NULL
    tread_backend_cast_fn *cast_shape;         ///< required
    tread_backend_cast_all_fn *cast_shape_all; ///< required
    tread_backend_ray_fn *cast_ray;            ///< required
    tread_backend_contacts_fn *collect_contacts; ///< required
    tread_backend_closest_fn *closest;         ///< required
    tread_backend_body_fn *body;               ///< required
    tread_backend_motion_fn *motion;           ///< required
    tread_backend_largest_motion_fn *largest_motion; ///< required
    tread_backend_has_one_way_fn *has_one_way; ///< optional (NULL: there may be one-way bodies); default NULL
} tread_backend;

/// How a query shape stands in the world: the rotation taking its local X, Y, Z to world axes (Y to the shape's `up`,
/// normalized; a box's horizontal axes are the fixed basis tread_query_box describes). Build your engine's copy of a
/// capsule (along local Y) or an upright box with it. Identity for a sphere's use too, or a NULL or zero `up`.
TREAD_API tread_quat tread_query_shape_rotation(const tread_query_shape *shape);

/// tread's own world as a backend (its queries and bodies, through the functions above). The _on functions given it
/// (any copy of it, its functions unchanged) run exactly as the world-taking ones do: the same bits, the same speed,
/// with no call through the pointers. `world` may be NULL only to be filled in later (context).
TREAD_API tread_backend tread_world_backend(const tread_world *world);

/* ---- every character function on a backend ------------------------------------------------------------------
 * Each is its world-taking namesake (tread.h) with the backend in the world's place: the same validation, results
 * and errors, plus TREAD_ERR_NULL_ARGUMENT for a NULL backend or a NULL required function (naming it), and
 * TREAD_ERR_INVALID_ARGUMENT for a body id a backend returned that breaks the contract (generation 0, top index bit).
 */

/// tread_character_update on a backend.
TREAD_API tread_result tread_character_update_on(const tread_backend *backend, tread_character *character, tread_vec3 velocity, float dt,
                                                 tread_move_state *state);
/// tread_character_walk_stairs on a backend.
TREAD_API tread_result tread_character_walk_stairs_on(const tread_backend *backend, tread_character *character, tread_move_state *state);
/// tread_character_stick_to_floor on a backend.
TREAD_API tread_result tread_character_stick_to_floor_on(const tread_backend *backend, tread_character *character, tread_vec3 velocity,
                                                         tread_move_state *state);
/// tread_character_move (the reference move) on a backend.
TREAD_API tread_result tread_character_move_on(const tread_backend *backend, tread_character *character, tread_vec3 velocity, float dt,
                                               tread_move_result *result);
/// tread_character_move_with on a backend (options NULL: the defaults).
TREAD_API tread_result tread_character_move_with_on(const tread_backend *backend, tread_character *character, tread_vec3 velocity, float dt,
                                                    const tread_move_options *options, tread_move_result *result);
/// tread_character_set_settings on a backend (NULL backend: only when the shape is unchanged).
TREAD_API tread_result tread_character_set_settings_on(const tread_backend *backend, tread_character *character,
                                                       const tread_character_settings *settings);
/// tread_character_set_height on a backend.
TREAD_API tread_result tread_character_set_height_on(const tread_backend *backend, tread_character *character, float height,
                                                     bool *out_changed);
/// tread_batch_move on a backend: the characters meet each other through the batch and the world through the backend.
TREAD_API tread_result tread_batch_move_on(struct tread_batch *batch, const tread_backend *backend, tread_character *characters,
                                           const tread_vec3 *velocities, int count, float dt, tread_move_result *results);
/// tread_batch_move_with on a backend.
TREAD_API tread_result tread_batch_move_with_on(struct tread_batch *batch, const tread_backend *backend, tread_character *characters,
                                                const tread_vec3 *velocities, int count, float dt, const tread_move_options *options,
                                                tread_move_result *results);

#ifdef __cplusplus
}
#endif

#endif
