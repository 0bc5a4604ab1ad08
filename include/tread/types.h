// SPDX-License-Identifier: MIT
/// tread public types: errors, definitions (each with a tread_xxx_default()), ids, query filters and results.
/// C99-compatible. Every field says its unit and its default.
#ifndef TREAD_TYPES_H
#define TREAD_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tread/base.h"
#include "tread/math.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every public call that can fail. Stable ids: tests and users compare against these.
typedef enum tread_result {
    TREAD_OK = 0,                ///< success
    TREAD_ERR_NULL_ARGUMENT,     ///< a required pointer was NULL
    TREAD_ERR_NOT_FINITE,        ///< a float input was NaN or infinite
    TREAD_ERR_INVALID_SHAPE,     ///< a shape had zero, negative or absurd extents
    TREAD_ERR_INVALID_MESH,      ///< a mesh, heightfield or voxel grid was empty, or its indices were out of range
    TREAD_ERR_INVALID_ARGUMENT,  ///< any other argument out of its documented range
    TREAD_ERR_INVALID_ID,        ///< a body id that was never issued, was removed, or is stale
    TREAD_ERR_OUT_OF_MEMORY,     ///< the allocator returned NULL
    TREAD_ERR_BLOCKED,           ///< the requested change does not fit the world (a taller shape under a ceiling)
    TREAD_ERR_UNINITIALIZED,     ///< a definition, settings, options or state struct did not come from its
                                 ///< tread_xxx_default() (zero-filled, or never defaulted), or a character never went
                                 ///< through tread_character_init(); the message names the argument and the struct
    TREAD_RESULT_COUNT           ///< number of result codes; not a result (its name is "TREAD_ERR_UNKNOWN")
} tread_result;

/// Allocation hook (default malloc), installed with tread_set_allocator(): return `size` bytes (never 0) aligned
/// for any type, or NULL on failure. `context` is the pointer given to tread_set_allocator(). The world allocates
/// while it is created, while bodies are added or removed, and when moving bodies (tread_body_set_transform(),
/// tread_world_advance()) make it rebuild its broad-phase tree; never inside a query or a character move. NULL
/// makes tread_world_create() and tread_world_add_body() fail with TREAD_ERR_OUT_OF_MEMORY; a failed tree rebuild
/// is not an error (queries then scan the bodies linearly).
typedef void *tread_alloc_fn(size_t size, void *context);
/// Release hook (default free), paired with tread_alloc_fn: free `memory` that the alloc hook returned. Never
/// called with NULL. `context` is the pointer given to tread_set_allocator().
typedef void tread_free_fn(void *memory, void *context);

/* ---- core ---------------------------------------------------------------------------------- */

/// The library's version, as it was built (compare with TREAD_VERSION_* from the headers you compiled against).
typedef struct tread_version_info {
    int major; ///< incompatible API or character-layout changes
    int minor; ///< added features
    int patch; ///< fixes
} tread_version_info;
/// The version of the library as built; differs from TREAD_VERSION_* when the headers and the library disagree.
TREAD_API tread_version_info tread_version(void);

/// Stable name of a result code, e.g. "TREAD_ERR_NOT_FINITE".
TREAD_API const char *tread_result_name(tread_result result);
/// Message of the last failed call on this thread ("" if none): says which argument and value was wrong.
TREAD_API const char *tread_error_message(void);
/// Replace the allocator (default malloc/free). Call before creating worlds.
TREAD_API void tread_set_allocator(tread_alloc_fn *alloc, tread_free_fn *free_fn, void *context);

/// Opaque collision world.
typedef struct tread_world tread_world;

/// A body handle: slot index plus a generation, so a removed body's id is detected, not reused silently.
typedef struct tread_body_id {
    uint32_t index;      ///< slot in the world, 0-based
    uint32_t generation; ///< 0 means "no body"; valid ids have generation >= 1
} tread_body_id;

/// The null body id (generation 0).
static inline tread_body_id tread_body_id_null(void) { tread_body_id id = {0u, 0u}; return id; }
/// True when a and b are the same id (same slot index and same generation).
static inline bool tread_body_id_equal(tread_body_id a, tread_body_id b) { return a.index == b.index && a.generation == b.generation; }

/// World geometry kinds.
typedef enum tread_shape_type {
    TREAD_SHAPE_SPHERE,      ///< centred at the body origin
    TREAD_SHAPE_CAPSULE,     ///< core segment along the body's local Y axis, centred at the origin
    TREAD_SHAPE_BOX,         ///< oriented box centred at the body origin
    TREAD_SHAPE_MESH,        ///< indexed triangle mesh with its own BVH
    TREAD_SHAPE_HEIGHTFIELD, ///< grid of heights along local Y over the local XZ plane, with optional holes
    TREAD_SHAPE_VOXELS,      ///< dense grid of solid cells
    TREAD_SHAPE_TYPE_COUNT   ///< number of shape types (not a shape type)
} tread_shape_type;

/// Indexed triangle mesh. The world copies the data; the caller may free it after tread_world_add_body.
/// Triangles are two-sided unless marked one-sided. Degenerate (zero-area) triangles are kept in the count but never
/// hit.
typedef struct tread_mesh_def {
    const tread_vec3 *vertices; ///< local-space positions, metres; default NULL
    int vertex_count;           ///< default 0
    const uint32_t *indices;    ///< 3 per triangle, each < vertex_count; default NULL
    int triangle_count;         ///< default 0
    const uint8_t *one_sided;   ///< optional triangle_count flags, nonzero = one-sided: seen only by queries whose
                                ///< core starts in front of it (the side its counter-clockwise winding faces), as a
                                ///< closed mesh's or a level brush's faces are (Jolt's back-face mode); default NULL
                                ///< (every triangle two-sided)
} tread_mesh_def;

/// Heightfield: samples on a regular grid in the local XZ plane, height along local +Y.
/// Sample (i, j) sits at local (i * spacing_x, heights[j * count_x + i], j * spacing_z). The world copies the data.
typedef struct tread_heightfield_def {
    int count_x;          ///< samples along local X, >= 2; default 0
    int count_z;          ///< samples along local Z, >= 2; default 0
    float spacing_x;      ///< metres between samples along X, > 0; default 1
    float spacing_z;      ///< metres between samples along Z, > 0; default 1
    const float *heights; ///< count_x * count_z heights, metres, row-major in X; default NULL
    const uint8_t *holes; ///< optional (count_x-1) * (count_z-1) cell flags, nonzero = hole; default NULL (no holes)
} tread_heightfield_def;

/// Dense voxel grid. Cell (i, j, k) is the box [i, i+1] x [j, j+1] x [k, k+1] times cell_size in local space.
/// The world copies the data.
typedef struct tread_voxels_def {
    int count_x, count_y, count_z; ///< cells along local Z, >= 1; default 0
    float cell_size;               ///< edge length of a cubic cell, metres, > 0; default 1
    const uint8_t *solid;          ///< count_x * count_y * count_z flags, index (k * count_y + j) * count_x + i,
                                   ///< nonzero = solid; default NULL
} tread_voxels_def;
/// @var tread_voxels_def::count_x
/// Cells along local X, >= 1; default 0.

/// @var tread_voxels_def::count_y
/// Cells along local Y, >= 1; default 0.

/// One body's geometry. Set type and the fields that type reads.
typedef struct tread_shape_def {
    tread_shape_type type;             ///< default TREAD_SHAPE_BOX
    float radius;                      ///< sphere and capsule radius, metres; default 0.5
    float half_height;                 ///< capsule: half the core segment's length along local Y, metres; default 0.5
    tread_vec3 half_extents;           ///< box half extents, metres; default (0.5, 0.5, 0.5)
    tread_mesh_def mesh;               ///< TREAD_SHAPE_MESH
    tread_heightfield_def heightfield; ///< TREAD_SHAPE_HEIGHTFIELD
    tread_voxels_def voxels;           ///< TREAD_SHAPE_VOXELS
    uint32_t internal_cookie; ///< set by tread_shape_def_default() and the tread_shape_* constructors, never by hand: a struct
                              ///< without it (zero-filled, or declared and filled field by field) is refused with
                              ///< TREAD_ERR_UNINITIALIZED
} tread_shape_def;

/// Static bodies never move on their own; kinematic bodies carry a velocity (moving platforms) that
/// tread_world_advance integrates; dynamic bodies are moved by the game's own physics (crates, barrels).
typedef enum tread_body_type {
    TREAD_BODY_STATIC,    ///< fixed in place; moved only by tread_body_set_transform()
    TREAD_BODY_KINEMATIC, ///< moves by its linear and angular velocity in tread_world_advance() (moving platforms)
    TREAD_BODY_DYNAMIC,   ///< moved by the game's physics: tread_body_move_to() each frame gives its new transform and
                          ///< velocity; it pushes and carries characters as a kinematic body does, and a move reports
                          ///< the impulse the character gives it (tread_move_options::impulses) for the game to apply
} tread_body_type;

/// Body flags (tread_body_def::flags), combined with |.
typedef enum tread_body_flags {
    TREAD_BODY_ONE_WAY = 1u << 0, ///< a one-way platform: characters pass through it from below and from the side and
                                  ///< stand on its top. It blocks a character only while the feet are at or above
                                  ///< its top (the highest point of its bounds along the character's up, where it was
                                  ///< and where it is this frame); for flat platforms (a tilted one's top is its
                                  ///< highest corner)
    TREAD_BODY_SENSOR = 1u << 1,  ///< a sensor (water, a ladder, a pickup, a kill zone): never blocks and is skipped by
                                  ///< queries (see tread_query_filter::include_sensors); a move with a contact
                                  ///< listener reports entering, staying in and leaving it
} tread_body_flags;

/// Velocity of a body's surface that is not the body's own motion (a conveyor belt; a turning floor that stays
/// where it is): it carries whoever stands on the body, as the body's own motion does, and the body does not move.
/// In the body's frame, so a belt on a moving platform runs along the platform.
typedef struct tread_surface_velocity {
    tread_vec3 linear;  ///< metres per second along the body's local axes; default zero. |linear| plus the rim speed
                        ///< below is at most TREAD_MAX_SPEED
    tread_vec3 angular; ///< radians per second about the body's local axes, turning about `center`; default zero. Its
                        ///< rim speed, |angular| x the farthest point of the body's bounds from `center`, counts
                        ///< toward TREAD_MAX_SPEED
    tread_vec3 center;  ///< the point the surface turns about, body-local metres; default zero (the body's origin)
} tread_surface_velocity;

/// Everything needed to add a body to a world (tread_world_add_body). Start from tread_body_def_default().
typedef struct tread_body_def {
    tread_body_type type;        ///< default TREAD_BODY_STATIC
    tread_shape_def shape;       ///< default a 1 m box
    tread_transform transform;   ///< default identity
    tread_vec3 linear_velocity;  ///< kinematic only, metres per second; default zero
    tread_vec3 angular_velocity; ///< kinematic only, radians per second about world axes; default zero
    tread_surface_velocity surface; ///< any body: its surface's own velocity (a conveyor); default zero (none)
    uint32_t layer;              ///< layer index in [0, TREAD_MAX_LAYERS); queries select layers by mask bit (1u << layer); default 0
    uint32_t flags;              ///< tread_body_flags: TREAD_BODY_ONE_WAY or TREAD_BODY_SENSOR (not both); default 0
    void *user_data;             ///< caller's pointer, returned by tread_body_user_data; default NULL
    uint32_t internal_cookie; ///< set by tread_body_def_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_body_def;

/// World creation options.
typedef struct tread_world_def {
    int body_capacity; ///< bodies allocated up front (the world grows past it while adding bodies); default 64
    uint32_t internal_cookie; ///< set by tread_world_def_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_world_def;

/// Per-body query filter callback: return true to consider the body.
typedef bool tread_body_filter_fn(tread_body_id body, uint32_t layer, void *user_data, void *context);

/// One filter for every query.
typedef struct tread_query_filter {
    uint32_t layer_mask;           ///< bit i set = bodies on layer i are considered; default all (0xFFFFFFFF)
    tread_body_id ignore_body;     ///< this body is skipped; default null (none)
    tread_body_filter_fn *callback; ///< optional extra test per body; default NULL
    void *context;                 ///< passed to callback; default NULL
    bool include_sensors;          ///< sensor bodies (TREAD_BODY_SENSOR) are considered too; default false (skipped)
    uint32_t internal_cookie; ///< set by tread_query_filter_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_query_filter;

/// Kinds of query shape (and of character volume).
typedef enum tread_query_shape_type {
    TREAD_QUERY_SPHERE,  ///< sphere of `radius` centred at the query position
    TREAD_QUERY_CAPSULE, ///< capsule: core segment along `up` through the centre, `half_height` each way, `radius`
    TREAD_QUERY_BOX,     ///< upright box of `half_extents`, its local Y along `up`
} tread_query_shape_type;

/// A query shape, the characters' volumes; placed by the position each query takes (its centre). Start from
/// tread_query_shape_default() or tread_query_capsule() / tread_query_sphere() / tread_query_box(). A capsule's
/// core segment runs along `up` through its centre. A box is upright: its local Y is `up`, its horizontal axes
/// come from a fixed basis built from up (for up = +Y exactly, world X and Z), and it is centred at the query
/// position.
typedef struct tread_query_shape {
    tread_query_shape_type type; ///< default TREAD_QUERY_CAPSULE
    float radius;                ///< metres, > 0; default 0.3
    float half_height;           ///< capsule: half the core segment's length, metres, >= 0; default 0.6
    tread_vec3 up;               ///< capsule axis / box local Y, unit (normalized on use); default (0, 1, 0)
    tread_vec3 half_extents;     ///< box: half extents along its local X, Y (= up), Z, metres, each > 0;
                                 ///< default (0.3, 0.9, 0.3)
    float skin;                  ///< box: how much of half_extents is a skin around the box within (a contact offset,
                                 ///< as the controller's), metres, [0, the smallest half extent); a cast that starts
                                 ///< with the skin overlapping something the box within it is clear of is decided as
                                 ///< the box rounded by the skin would be: pushed out along the inner box's closest
                                 ///< direction, as deep as the skin overlaps. (The grown box's corners reach past the
                                 ///< skin: its shallowest overlap can lie along an axis the motion does not press.)
                                 ///< Spheres and capsules ignore it (their radius rounds them); backends may too.
                                 ///< Default 0
    uint32_t internal_cookie; ///< set by tread_query_shape_default() and the tread_query_* constructors, never by hand: a struct
                              ///< without it (zero-filled, or declared and filled field by field) is refused with
                              ///< TREAD_ERR_UNINITIALIZED
} tread_query_shape;

/// Closest hit of a ray (or one of all hits).
typedef struct tread_ray_hit {
    bool hit;            ///< false: nothing was hit and the other fields are unspecified
    float fraction;      ///< of the translation travelled to the hit, in [0, 1]
    tread_vec3 point;    ///< world-space hit point, metres
    tread_vec3 normal;   ///< unit surface normal at the hit, facing the ray's origin side
    tread_body_id body;  ///< body hit
    int32_t character;   ///< another character of a batch update (tread_batch_move) hit: its index in the batch's
                         ///< arrays, and body is null; -1 for a body (the world's queries: always)
    uint32_t feature;    ///< triangle index (mesh), cell index (heightfield: 2 per cell; voxels: cell), else 0
} tread_ray_hit;

/// Closest hit of a shape cast (or one of all hits).
typedef struct tread_shape_hit {
    bool hit;                  ///< false: nothing was hit and the other fields are unspecified
    bool started_in_contact;   ///< the cast began touching (and moving toward) or overlapping the body; fraction is 0
    float fraction;            ///< of the translation travelled before first contact, in [0, 1]
    float penetration;         ///< overlap depth at the start when started_in_contact, metres (0 when just touching)
    tread_vec3 point;          ///< contact point on the world surface, metres
    tread_vec3 normal;         ///< unit contact normal, from the world surface toward the query shape
    tread_vec3 surface_normal; ///< unit normal of the world face that was hit (equals normal on a face's interior;
                               ///< differs at edges and vertices, where stairs logic needs the face)
    tread_body_id body;        ///< body hit
    int32_t character;         ///< another character of a batch update (tread_batch_move) hit: its index in the
                               ///< batch's arrays, and body is null; -1 for a body (the world's queries: always)
    uint32_t feature;          ///< triangle or cell index as in tread_ray_hit
} tread_shape_hit;

/// A body near a query shape (contact collection for depenetration and ground detection).
typedef struct tread_contact {
    float separation;          ///< signed distance between the surfaces, metres: < 0 is penetration depth
    tread_vec3 point;          ///< closest point on the world surface, metres
    tread_vec3 normal;         ///< unit, from the world surface toward the query shape (push-out direction)
    tread_vec3 surface_normal; ///< unit normal of the world face at that point
    tread_body_id body;        ///< body touched
    int32_t character;         ///< another character of a batch update (tread_batch_move) touched: its index in
                               ///< the batch's arrays, and body is null; -1 for a body (the world's queries: always)
    uint32_t feature;          ///< triangle or cell index as in tread_ray_hit
} tread_contact;

/// Closest distance between a query shape and the world.
typedef struct tread_distance_result {
    bool found;                 ///< false: nothing within max_distance
    float distance;             ///< signed surface distance, metres: < 0 is penetration depth
    tread_vec3 point_on_shape;  ///< closest point on the query shape's surface, metres
    tread_vec3 point_on_world;  ///< closest point on the world surface, metres
    tread_vec3 normal;          ///< unit, from the world toward the query shape
    tread_body_id body;         ///< body that surface belongs to
    int32_t character;          ///< another character of a batch update (tread_batch_move): its index in the
                                ///< batch's arrays, and body is null; -1 for a body (the world's queries: always)
    uint32_t feature;           ///< triangle or cell index as in tread_ray_hit
} tread_distance_result;


/* ---- character controller ---------------------------------------------------------------------------- */

/// How the character touches the ground after a move.
typedef enum tread_ground_state {
    TREAD_GROUND_ON_GROUND,      ///< standing on walkable ground (or wedged in a walkable crevasse)
    TREAD_GROUND_ON_STEEP,       ///< touching ground below that is too steep to stand on: slides down it
    TREAD_GROUND_NOT_SUPPORTED,  ///< touching something below, but nothing that holds it (e.g. a wall's foot)
    TREAD_GROUND_IN_AIR,         ///< nothing below within the ground probe distance
} tread_ground_state;

/// Stepping technique, each named for where it comes from; all share the slide, ground, snap code and the one
/// max-step rule (docs/STRATEGIES.md). tread_step_strategy_name() gives the names the tools use.
typedef enum tread_step_strategy {
    TREAD_STEP_SWEEP,     ///< "sweep": sweep up, forward, down, as in Godot's and Jolt's stair walking (default)
    TREAD_STEP_CONTACT,   ///< "contact": the Source engine's stepping from the contacts met while sliding
    TREAD_STEP_CAST_DOWN, ///< "cast_down": Unity DOTS's cast down from the target raised by max step
    TREAD_STEP_RISER,     ///< "riser": Staxel's riser volume, lifted by a binary search (voxel worlds)
    TREAD_STEP_STRATEGY_COUNT ///< number of strategies (not a strategy)
} tread_step_strategy;

/// Settings of the contact strategy (TREAD_STEP_CONTACT) only.
typedef struct tread_contact_step_settings {
    float search_overshoot; ///< how far past a riser the step probe looks, metres, [0, 1]; default 0.01
} tread_contact_step_settings;

/// Settings of the riser strategy (TREAD_STEP_RISER) only.
typedef struct tread_riser_settings {
    float depth;        ///< how far the riser reaches below the main volume, metres, [0, 10]; default 0.25
    float radius_scale; ///< riser radius / character radius, (0, 1]; default 0.9
    float speed_scale;  ///< rise per metre moved, [0, 100] (Staxel's 1.5); default 1.5
    float fall_scale;   ///< weight of downward motion in the rise, [0, 100] (Staxel's 0.25); default 0.25
} tread_riser_settings;

/// Walkable slopes are inclusive: ground up to max_slope_degrees (or stairs_max_slope_degrees) plus this many
/// degrees is walkable, however it is built (a box rotated by exactly the max slope, a ramp, a mesh, a heightfield;
/// rounding puts their normals a few millionths of a degree either side). Max slope plus twice this is steep. The
/// controller, the scene matrix's expectations and the level walker all use this one value.
#define TREAD_SLOPE_TOLERANCE_DEGREES 0.01f

/// Character settings. Defaults are the course character (capsule 0.3 x 1.8 m, step 0.4 m, 45 degrees).
typedef struct tread_character_settings {
    tread_query_shape_type shape;   ///< TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE or TREAD_QUERY_BOX; default capsule
    float radius;                   ///< metres, (0, 100] (box: half its width along both horizontal axes); default 0.3
    float height;                   ///< total height, metres, at most 1000: capsule >= 2 * radius; box > 0 (feet at the
                                    ///< bottom face's centre); sphere: ignored; default 1.8
    tread_vec3 up;                  ///< up direction, any finite nonzero length (normalized on init, without
                                    ///< overflow); default (0, 1, 0)
    float max_slope_degrees;        ///< steepest walkable ground, degrees in [0, 89.9], inclusive within
                                    ///< TREAD_SLOPE_TOLERANCE_DEGREES; default 45
    float max_step_height;          ///< tallest step climbed, metres, [0, 100] (a hard limit, measured at the tread);
                                    ///< default 0.4
    float min_step_depth;           ///< shallowest tread stepped onto, metres, [0, 100]; default 0.1
    float step_down_distance;       ///< stick-to-floor reach below the feet, metres, [0, 100]; default 0.5
    float max_snap_speed;           ///< no snapping to the floor above this speed, metres per second, [0, 1000];
                                    ///< default 12
    float ground_probe_distance;    ///< ground within this distance below the feet supports, metres, [1e-4, 10];
                                    ///< default 0.02
    float skin;                     ///< gap kept between the shape and surfaces, metres, [1e-4, 0.05]; default 0.002
    int max_slide_iterations;       ///< casts per slide, 1..16; default 5
    uint32_t collide_mask;          ///< layers that block movement (bit i = layer i); default all
    uint32_t ground_mask;           ///< layers that count as ground for probes and snapping; default all
    float recovery_speed;           ///< how fast penetration is resolved, metres per second, [1e-3, 1000]; default 2
                                    ///< (deeper than half a second of it: unburied at once, tread_character_update)
    float mass;                     ///< kilograms, [1e-3, 1e6]; among characters of a batch update the overlap left
                                    ///< between two is split by mass: the heavier pushes the lighter; the impulse
                                    ///< given to a dynamic body is at most mass times the speed into it; default 70
    float max_strength;             ///< newtons, [0, 1e7]: the most force the character pushes dynamic bodies with
                                    ///< (an impulse of at most max_strength * dt a move); default 100 (as Jolt's)
    bool keep_horizontal_speed;     ///< slopes: false = speed along the surface equals the input (Quake, Godot's
                                    ///< floor_constant_speed); true = horizontal speed is kept; default false
    uint32_t stairs_layer_mask;     ///< layers walkable up to stairs_max_slope_degrees instead of max_slope_degrees
                                    ///< (Catlike Coding's stairs layer: steep stair ramps that stay walkable);
                                    ///< default 0 (none)
    float stairs_max_slope_degrees; ///< steepest walkable ground on stairs_layer_mask's layers, degrees in [0, 89.9];
                                    ///< default 60
    tread_step_strategy step_strategy;      ///< default TREAD_STEP_SWEEP
    tread_contact_step_settings contact_step; ///< read by TREAD_STEP_CONTACT only
    tread_riser_settings riser;             ///< read by TREAD_STEP_RISER only
    uint32_t internal_cookie; ///< set by tread_character_settings_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_character_settings;

/// What holds the character up.
typedef struct tread_ground {
    tread_ground_state state;  ///< see tread_ground_state
    tread_vec3 normal;         ///< walkable: the supporting face's normal (crevasse: the combined normal); else up
    tread_vec3 point;          ///< supporting point on the surface, metres
    float distance;            ///< gap below the skin to that surface along up, metres (0 when resting on it; a move
                               ///< never ends with the skin inside its ground)
    tread_vec3 velocity;       ///< velocity of the supporting body at that point (moving platforms), m/s
    tread_body_id body;        ///< supporting body, null in the air
    int32_t character;         ///< the character of a batch update (tread_batch_move) it stands on: its index in
                               ///< the batch's arrays (carried by it at the next batch update), and body is null;
                               ///< -1 otherwise
} tread_ground;

/// Contacts a move keeps in its own state (tread_move_state::contacts; a caller's buffer, tread_move_options::contacts,
/// takes any number).
#define TREAD_MAX_MOVE_CONTACTS 16
/// Dynamic bodies a move gives impulses to, at most (one impulse per body).
#define TREAD_MAX_MOVE_IMPULSES 8
/// Bodies and characters a contact memory follows from one move to the next.
#define TREAD_MAX_CONTACT_MEMORY 32

/// The impulse a move gives a dynamic body (the character walking into it), for the game to apply to that body in its
/// physics step: along `direction` at `point`, magnitude min(mass * speed into the body, max_strength * dt).
typedef struct tread_body_impulse {
    tread_body_id body;   ///< the dynamic body
    tread_vec3 point;     ///< where to apply it, on the body's surface, metres
    tread_vec3 direction; ///< unit, into the body (against the contact normal)
    float magnitude;      ///< newton-seconds, > 0
} tread_body_impulse;

/// A character: plain data owned by the caller (no allocation, no pointers: saving it is a memcpy). Fields are
/// read-only for the caller; change them through tread_character_* functions. Every public function that reads one
/// checks all of it first (settings in their documented ranges, a unit up and ground normal, finite numbers, the
/// coordinate and speed limits) and refuses one written out of range by hand, naming the field.
typedef struct tread_character {
    tread_character_settings settings; ///< validated copy (tread_character_set_settings changes it); its cookie marks
                                       ///< a character tread_character_init() or _load() made: one zero-filled or
                                       ///< never initialised is refused (TREAD_ERR_UNINITIALIZED)
    tread_vec3 position;               ///< feet: the lowest point of the shape along up, metres
    tread_vec3 velocity;               ///< velocity after the last move's collisions, m/s
    tread_ground ground;               ///< ground after the last move
    float snap_suppress_time;          ///< seconds left during which stick-to-floor is suppressed, [0, 3600]
    float max_slope_cos;               ///< derived: cos(settings.max_slope_degrees + TREAD_SLOPE_TOLERANCE_DEGREES)
    float stairs_slope_cos;            ///< derived: cos(settings.stairs_max_slope_degrees + TREAD_SLOPE_TOLERANCE_DEGREES)
} tread_character;

/// What one move did: what a game reads, kept small (at most 256 bytes: one per character costs little). The surfaces
/// touched and the impulses given go to the caller's buffers (tread_move_options), counted here.
typedef struct tread_move_result {
    tread_vec3 position;       ///< new feet position, metres
    tread_vec3 velocity;       ///< velocity after collisions, m/s
    tread_ground ground;       ///< ground after the move
    float step_up;             ///< distance the stairs phase lifted the feet along up, metres, >= 0
    float snap_down;           ///< distance stick-to-floor lowered the feet along up, metres, >= 0 (camera smoothing
                               ///< absorbs step_up - snap_down)
    int contact_count;         ///< surfaces touched in all, one per body and feature: those met while moving and, with a
                               ///< buffer (tread_move_options::contacts), every one within skin + ground probe of where it
                               ///< ended; the buffer holds the first min(contact_count, contact_capacity) of them
    int moving_contact_count;  ///< of contact_count, those met while moving: the buffer's first ones (the rest touch the
                               ///< character where the move ended)
    int impulse_count;         ///< dynamic bodies the move gives an impulse (tread_move_options::impulses holds the first
                               ///< min(impulse_count, impulse_capacity), at most TREAD_MAX_MOVE_IMPULSES)
    bool contacts_overflow;    ///< the caller's buffer did not hold every surface touched (contact_count > its
                               ///< capacity); false without a buffer
    bool impulses_overflow;    ///< the caller's buffer did not hold every impulse (impulse_count is more than it holds:
                               ///< beyond its capacity, or beyond TREAD_MAX_MOVE_IMPULSES bodies); false without a buffer
    bool crushed;              ///< a moving body pressed it against something else and the push could not be made
                               ///< along the body's motion (or it is still inside that body, squeezed): it is never
                               ///< moved through a body and never jumps; it went aside to the nearest free spot a sweep
                               ///< reaches (crushed_aside), or stays where it last was free, overlapping only
                               ///< crushed_by. The game decides what a crush does (damage, respawn)
    bool started_on_ground;    ///< the move began on walkable ground (the character's ground before it)
    bool held_by_riser;        ///< riser strategy: the riser is in the ground, so gravity is off (the update
                               ///< cancels downward velocity while it holds)
    tread_vec3 carried;        ///< how far the ground's motion over the last tread_world_advance carried the feet
                               ///< before the update walked, metres (its rigid motion at the feet; less where the
                               ///< carry met something else)
    tread_quat ground_turn;    ///< the rotation the ground turned by over that advance (identity: it did not turn,
                               ///< or the character was not on ground)
    float ground_yaw;          ///< that turn's angle about up, radians, in (-pi, pi]: turn the model and the camera
                               ///< by it to keep facing the same way on the platform
    tread_vec3 pushed;         ///< how far bodies that moved into the character in the last tread_world_advance
                               ///< pushed it ahead of them, metres (swept: at any speed, never through it)
    tread_body_id crushed_by;  ///< crushed: the moving body that crushed it (the first, when several did); otherwise
                               ///< the null id (generation 0)
    int crushed_character;     ///< crushed in a batch update (tread_batch_move): the index, in the batch's arrays, of
                               ///< the other character it was pressed against; -1 otherwise
    float crushed_aside;       ///< crushed: how far it was moved aside (perpendicular to the push) to the free spot it
                               ///< went to, metres, at most max(3 reaches, 2 m) + skin (see unburied); 0 when it went
                               ///< nowhere (no free spot within reach: it overlaps crushed_by) or was not crushed
    float unburied;            ///< the update began buried (no push at the recovery speed led out of what it
                               ///< overlapped) and jumped this far to the nearest free spot, metres; 0 otherwise
                               ///< (at most max(3 reaches, 2 m) + skin; the reach is the radius for a
                               ///< sphere, else sqrt(2 radius^2 + (height / 2)^2))
} tread_move_result;

/// One move made phase by phase (tread_character_update, then tread_character_walk_stairs when
/// tread_character_can_walk_stairs, then tread_character_stick_to_floor: the reference move's phases, to compose as
/// Jolt's ExtendedUpdate is): what the phases pass each other. Caller-owned plain data, on the stack for the move;
/// tread_character_update begins it. Read `result` and the contacts; the other fields are the phases' own.
typedef struct tread_move_state {
    tread_move_result result;  ///< the move's report so far (after the last phase, the move's)
    tread_contact contacts[TREAD_MAX_MOVE_CONTACTS]; ///< the first surfaces touched while moving, in the order met (one
                               ///< per body and feature; result.contact_count counts them all)
    int contacts_kept;         ///< entries of contacts in use
    tread_body_impulse impulses[TREAD_MAX_MOVE_IMPULSES]; ///< impulses of the reference move (tread_character_move*),
                               ///< one per dynamic body, in the order met; the phases alone give none
    int impulses_kept;         ///< entries of impulses in use
    tread_vec3 start_position; ///< feet when the update began, metres
    float dt;                  ///< seconds the update covered
    tread_ground previous_ground; ///< the ground the move started on (the stairs and floor phases judge it)
    bool snap_suppressed;      ///< stick-to-floor was suppressed when the update began (tread_character_suppress_snap)
    bool lifted_out;           ///< recovery is lifting the feet out of what they are inside of, and is not out yet: the
                               ///< floor phase does not snap them back down against that push
    bool leaving_ground;       ///< the update's velocity moved away from the ground it started on faster than that
                               ///< ground moves (a jump): the later phases neither step nor snap it back
    bool blocked;              ///< on ground, a wall or riser stopped part of the motion (a step candidate)
    tread_vec3 blocked_position; ///< feet where it was first stopped, metres
    tread_vec3 blocked_motion; ///< the horizontal motion still to do there, metres (the stairs phase's input)
} tread_move_state;

/// A piece of a batch update's work: items [begin, end) of `count` (tread_parallel_for_fn).
typedef void tread_task_fn(void *task_context, int begin, int end);
/// A game's parallel-for (its job system): call task(task_context, begin, end) over ranges that cover [0, count)
/// exactly once each, on any threads in any order, and return when all have run. `context` is the one given in
/// tread_batch_def::parallel_context. The results do not depend on how the ranges are split or run. A frame of 1,024
/// characters or more calls it twice: once for the characters' checks, once for their moves.
typedef void tread_parallel_for_fn(tread_task_fn *task, void *task_context, int count, void *context);

/// A batch update (tread_batch_move) moves many characters one frame, as obstacles to each other. Start from
/// tread_batch_def_default().
typedef struct tread_batch_def {
    int capacity;             ///< characters it is sized for (it grows past it, allocating), >= 0; default 64
    uint32_t character_layer; ///< the layer the characters are on as obstacles, [0, TREAD_MAX_LAYERS): a character
                              ///< collides with the others when its collide_mask has this bit and stands on them
                              ///< when its ground_mask has it; keep it free of world bodies; default 31
    int separation_passes;    ///< passes that part characters still overlapping after their moves, [1, 64]; default 8
    int threads;              ///< threads the characters' moves run on in the built-in pool, the caller's included,
                              ///< [0, 64]: 0 as many as the machine has, 1 only the caller's (no pool); ignored with
                              ///< parallel_for; a build without threads (WebAssembly) uses 1; default 0
    tread_parallel_for_fn *parallel_for; ///< the game's job system instead of the pool; default NULL
    void *parallel_context;   ///< passed to parallel_for; default NULL
    bool move_cache;          ///< keep the bodies part of a tread_move_cache per character index (176 bytes each): the
                              ///< same results, fewer instructions where the world stands still; default true
    uint32_t internal_cookie; ///< set by tread_batch_def_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_batch_def;

/// What the last batch update (any tread_batch_move*) on a batch came to (tread_batch_get_report): which character it
/// failed on, for the game to act on without reading the error message.
typedef struct tread_batch_report {
    tread_result result;  ///< what that call returned; TREAD_OK before the first
    int failed_character; ///< the index, in that call's arrays, of the character it failed on: one whose argument was
                          ///< refused (characters[i], velocities[i], results[i]) or whose move failed (the first by
                          ///< index when several did); -1 when it succeeded or failed on no one character (a NULL
                          ///< argument, the count, the options, the world or backend, memory, the parting after the moves)
} tread_batch_report;

/// What a contact listener is told about one body or character the character touches.
typedef struct tread_contact_event {
    tread_body_id body;           ///< the world body touched; null for another character
    int character;                ///< that character's index in the batch's arrays; -1 for a world body
    tread_body_type body_type;    ///< the body's type (a character: TREAD_BODY_DYNAMIC, it can be pushed)
    uint32_t body_flags;          ///< the body's tread_body_flags (TREAD_BODY_SENSOR: these events are entering,
                                  ///< staying in and leaving it); 0 for a character
    float separation;             ///< gap between the surfaces, metres (< 0: overlap; a sensor is reported while <= 0)
    tread_vec3 point;             ///< closest point on the other's surface, metres
    tread_vec3 normal;            ///< unit, from the other toward the character
    tread_vec3 relative_velocity; ///< the character's velocity minus the other's at `point`, m/s
} tread_contact_event;

/// Validate: return false to ignore `body` (a world body; null for a character) or character `other` (its index in the
/// batch; -1 for a body) for this move: the move goes through it and reports nothing about it. Kinematic bodies
/// pushing the character cannot be ignored. `index` is the moving character's index in the batch (0 for a single move).
typedef bool tread_contact_validate_fn(const tread_character *character, int index, tread_body_id body, int other, void *context);
/// Added, persisted or removed: the character (index as for validate) began touching, still touches or stopped
/// touching what `contact` names (removed repeats the last contact seen).
typedef void tread_contact_event_fn(const tread_character *character, int index, const tread_contact_event *contact, void *context);
/* ---- debug drawing ------------------------------------------------------------------------------------- */

/// A shape cast a move made, with its closest hit (hit->hit false: nothing was hit).
typedef void tread_debug_cast_fn(const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                 const tread_shape_hit *hit, void *context);
/// A surface the move's contact collection found near the character.
typedef void tread_debug_contact_fn(const tread_contact *contact, void *context);
/// A ground classification: the ground found for feet at `feet`.
typedef void tread_debug_ground_fn(const tread_ground *ground, tread_vec3 feet, void *context);
/// A step attempt by the stairs phase: from the blocked feet to the landing it tried; accepted or not.
typedef void tread_debug_step_fn(tread_vec3 from, tread_vec3 to, bool accepted, void *context);

/// What the controller shows while it moves a character (tread_move_options::debug_draw). Every callback may be NULL.
/// In a batch the moves run on several threads: the callbacks may then be called from several threads at once.
typedef struct tread_debug_draw {
    tread_debug_cast_fn *cast;       ///< every shape cast of a move; default NULL
    tread_debug_contact_fn *contact; ///< every contact a move collected; default NULL
    tread_debug_ground_fn *ground;   ///< every ground classification; default NULL
    tread_debug_step_fn *step;       ///< every step attempt; default NULL
    void *context;                   ///< passed to every callback; default NULL
} tread_debug_draw;

/// Who pushes whom, asked per contact with a dynamic body or another character: *can_push (default true) lets this
/// character push it (an impulse on a dynamic body; moving another character of the batch), *can_be_pushed (default
/// true) lets it push this character (a dynamic body moving into it; another character).
typedef void tread_contact_push_fn(const tread_character *character, int index, const tread_contact_event *contact, bool *can_push,
                                   bool *can_be_pushed, void *context);

/// An optional listener on a move (tread_move_options::listener), as Jolt's CharacterContactListener. Every callback
/// may be NULL. Events come after the move, in a fixed order: added and persisted by separation then body, then
/// removed in the order they were remembered; only for a move that succeeded (a batch: once every move of it did, on
/// the calling thread, character by character in index order). Validate and push are asked while the move runs.
typedef struct tread_contact_listener {
    tread_contact_validate_fn *validate; ///< default NULL (everything counts)
    tread_contact_event_fn *added;       ///< began touching (entered, for a sensor); default NULL
    tread_contact_event_fn *persisted;   ///< touching this move as at the last one (stays in a sensor); default NULL
    tread_contact_event_fn *removed;     ///< touched at the last move, not at this one (left a sensor); default NULL
    tread_contact_push_fn *push;         ///< default NULL (every push allowed)
    void *context;                       ///< passed to every callback; default NULL
} tread_contact_listener;

/// What a listener's added / persisted / removed compare against: the bodies and characters a character touched at
/// its last move. Caller-owned, one per character, zeroed to start: all zero is the empty memory (state, not a
/// definition: it has no _default() and no cookie).
typedef struct tread_contact_memory {
    tread_contact_event contacts[TREAD_MAX_CONTACT_MEMORY]; ///< touched at the last move, by separation then body
    int count;                                              ///< entries in use
    bool overflow;                                          ///< more were touched than it holds (those were not followed)
} tread_contact_memory;

/// Most world bodies a tread_move_cache holds (a neighbourhood with more is not cached).
#define TREAD_MOVE_CACHE_BODIES 32

/// What one move leaves for the next: the world's bodies around where it went (its candidates, as one walk of the
/// broad phase found them over a box a little wider than the move needed), so that a next move within that box, in
/// the same world with nothing changed in it since (tread_world_*, tread_body_* setters, advance, load, shift),
/// takes them instead of walking the broad phase again; and, when a single move left the character exactly as it
/// found it (standing still, or pressed against a wall it cannot climb), that move, so that the same move again
/// (the same character bytes, velocity, dt and filter, the world unchanged) gives its result without running.
/// It only saves work: a move gives the same result, bit for bit, with a cache or without one, whatever the cache
/// holds (another character's, a stale one, an empty one). Caller-owned state (tread_move_options::cache), 608 bytes,
/// one per character for the most hits; a move writes it, so it is not shared between threads that move at once.
/// Moves on a backend (the _on functions) do not use it. A batch keeps its bodies part per character itself
/// (tread_batch_def::move_cache). Start from tread_move_cache_default(); every field is the library's.
typedef struct tread_move_cache_bodies {
    uint64_t internal_world;    ///< the world the bodies were gathered in (its serial); 0: empty
    uint64_t internal_revision; ///< the world's revision then (every change to the world bumps it)
    tread_aabb internal_box;    ///< every body meeting this box (metres) is one of internal_slots
    int32_t internal_count;     ///< bodies in internal_slots, [-1, TREAD_MOVE_CACHE_BODIES]; -1: more than it holds
    int32_t internal_slots[TREAD_MOVE_CACHE_BODIES]; ///< the bodies, as the world's slots
} tread_move_cache_bodies;
typedef struct tread_move_cache {
    tread_move_cache_bodies internal_bodies; ///< the last move's bodies (all a batch keeps of a cache: 176 bytes)
    // The last move that changed nothing of its character, and what it reported (internal_still_world 0: none).
    uint64_t internal_still_world;    ///< the world it ran in (its serial)
    uint64_t internal_still_revision; ///< the world's revision then
    tread_character internal_still;   ///< the character before and after it
    tread_vec3 internal_still_velocity; ///< its velocity, m/s
    float internal_still_dt;            ///< its dt, s
    uint32_t internal_still_mask;       ///< its filter's layer mask
    tread_body_id internal_still_ignore; ///< its filter's ignored body
    tread_move_result internal_still_result; ///< what it reported
    uint32_t internal_cookie; ///< set by tread_move_cache_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_move_cache;

/// What one move takes besides the character and its velocity (tread_character_move_with). Start from
/// tread_move_options_default().
typedef struct tread_move_options {
    tread_query_filter filter; ///< every query of the move passes this filter too, on top of the character's masks:
                               ///< its layer mask, ignore_body (the character's own proxy body in a game's physics
                               ///< world) and callback (any set of bodies). Bodies that push the character (moving
                               ///< into it) are not filtered. Default tread_query_filter_default(): nothing ignored
    const tread_contact_listener *listener; ///< default NULL (none)
    tread_contact_memory *memory;  ///< what the listener's added / persisted / removed compare against (required when
                                   ///< the listener has any of them; a batch update keeps its own); default NULL
    tread_contact *contacts;       ///< the caller's buffer for every surface the move touches: those met while moving,
                                   ///< in the order met, then (contacts_where_it_ends) every surface within skin + ground
                                   ///< probe of where it ends (up to 128: all the triangles of a mesh under its feet, for
                                   ///< footsteps or damage);
                                   ///< result.contact_count counts them. A batch takes contact_capacity entries per
                                   ///< character: character i's start at contacts + i * contact_capacity. Default NULL
                                   ///< (only the count is kept)
    int contact_capacity;          ///< entries `contacts` holds (a batch: per character), >= 0; default 0
    bool contacts_where_it_ends;   ///< the buffer also gets the surfaces touched where the move ended (one more query a
                                   ///< move); false: only those met while moving (what tread_motor_update reads);
                                   ///< default true
    tread_body_impulse *impulses;  ///< the caller's buffer for the impulses the move gives dynamic bodies it walked into,
                                   ///< one per body in the order met, for the game to apply in its physics step;
                                   ///< result.impulse_count counts them. A batch takes impulse_capacity entries per
                                   ///< character, as contacts. Default NULL (only the count is kept)
    int impulse_capacity;          ///< entries `impulses` holds (a batch: per character), >= 0; default 0
    const tread_debug_draw *debug_draw; ///< what the move shows while it runs (every cast, contact, ground check and step
                                   ///< attempt; it must outlive the move); the phases called alone show nothing;
                                   ///< default NULL (none: it costs nothing)
    tread_move_cache *cache;       ///< what the last move of this character left for this one, and what this one leaves
                                   ///< for the next (tread_move_cache: the same result with or without it, fewer
                                   ///< instructions with it); single moves only (a batch keeps its own); default NULL
    uint32_t internal_cookie; ///< set by tread_move_options_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_move_options;

/// Camera step smoothing (as Godot's stair-stepping write-ups do it): absorbs the teleport of a step or snap and
/// decays it, so the view glides while the body steps.
typedef struct tread_step_smoothing {
    float offset; ///< current view offset along up, metres (add to the camera's height); default 0
    float decay;  ///< exponential decay rate, 1/s, >= 0; default 15
    uint32_t internal_cookie; ///< set by tread_step_smoothing_default(), never by hand: a struct without it (zero-filled,
                              ///< or declared and filled field by field) is refused with TREAD_ERR_UNINITIALIZED
} tread_step_smoothing;


#ifdef __cplusplus
}
#endif

#endif
