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
    TREAD_OK = 0,                /// success
    TREAD_ERR_NULL_ARGUMENT,     /// a required pointer was NULL
    TREAD_ERR_NOT_FINITE,        /// a float input was NaN or infinite
    TREAD_ERR_INVALID_SHAPE,     /// a shape had zero, negative or absurd extents
    TREAD_ERR_INVALID_MESH,      /// a mesh, heightfield or voxel grid was empty, or its indices were out of range
    TREAD_ERR_INVALID_ARGUMENT,  /// any other argument out of its documented range
    TREAD_ERR_INVALID_ID,        /// a body id that was never issued, was removed, or is stale
    TREAD_ERR_OUT_OF_MEMORY,     /// the allocator returned NULL
    TREAD_RESULT_COUNT
} tread_result;

/// Allocation hooks (default: malloc/free). The world allocates only while bodies are added or removed,
/// never inside a query.
typedef void *tread_alloc_fn(size_t size, void *context);
typedef void tread_free_fn(void *memory, void *context);

/// Opaque collision world.
typedef struct tread_world tread_world;

/// A body handle: slot index plus a generation, so a removed body's id is detected, not reused silently.
typedef struct tread_body_id {
    uint32_t index;      /// slot in the world, 0-based
    uint32_t generation; /// 0 means "no body"; valid ids have generation >= 1
} tread_body_id;

/// The null body id (generation 0).
static inline tread_body_id tread_body_id_null(void) { tread_body_id id = {0u, 0u}; return id; }
static inline bool tread_body_id_equal(tread_body_id a, tread_body_id b) { return a.index == b.index && a.generation == b.generation; }

/// World geometry kinds.
typedef enum tread_shape_type {
    TREAD_SHAPE_SPHERE,      /// centred at the body origin
    TREAD_SHAPE_CAPSULE,     /// core segment along the body's local Y axis, centred at the origin
    TREAD_SHAPE_BOX,         /// oriented box centred at the body origin
    TREAD_SHAPE_MESH,        /// indexed triangle mesh with its own BVH
    TREAD_SHAPE_HEIGHTFIELD, /// grid of heights along local Y over the local XZ plane, with optional holes
    TREAD_SHAPE_VOXELS,      /// dense grid of solid cells
    TREAD_SHAPE_TYPE_COUNT
} tread_shape_type;

/// Indexed triangle mesh. The world copies the data; the caller may free it after tread_world_add_body.
/// Triangles are two-sided. Degenerate (zero-area) triangles are kept in the count but never hit.
typedef struct tread_mesh_def {
    const tread_vec3 *vertices; /// local-space positions, metres; default NULL
    int vertex_count;           /// default 0
    const uint32_t *indices;    /// 3 per triangle, each < vertex_count; default NULL
    int triangle_count;         /// default 0
} tread_mesh_def;

/// Heightfield: samples on a regular grid in the local XZ plane, height along local +Y.
/// Sample (i, j) sits at local (i * spacing_x, heights[j * count_x + i], j * spacing_z). The world copies the data.
typedef struct tread_heightfield_def {
    int count_x;          /// samples along local X, >= 2; default 0
    int count_z;          /// samples along local Z, >= 2; default 0
    float spacing_x;      /// metres between samples along X, > 0; default 1
    float spacing_z;      /// metres between samples along Z, > 0; default 1
    const float *heights; /// count_x * count_z heights, metres, row-major in X; default NULL
    const uint8_t *holes; /// optional (count_x-1) * (count_z-1) cell flags, nonzero = hole; default NULL (no holes)
} tread_heightfield_def;

/// Dense voxel grid. Cell (i, j, k) is the box [i, i+1] x [j, j+1] x [k, k+1] times cell_size in local space.
/// The world copies the data.
typedef struct tread_voxels_def {
    int count_x, count_y, count_z; /// cells along each local axis, >= 1; default 0
    float cell_size;               /// edge length of a cubic cell, metres, > 0; default 1
    const uint8_t *solid;          /// count_x * count_y * count_z flags, index (k * count_y + j) * count_x + i,
                                   /// nonzero = solid; default NULL
} tread_voxels_def;

/// One body's geometry. Set type and the fields that type reads.
typedef struct tread_shape_def {
    tread_shape_type type;             /// default TREAD_SHAPE_BOX
    float radius;                      /// sphere and capsule radius, metres; default 0.5
    float half_height;                 /// capsule: half the core segment's length along local Y, metres; default 0.5
    tread_vec3 half_extents;           /// box half extents, metres; default (0.5, 0.5, 0.5)
    tread_mesh_def mesh;               /// TREAD_SHAPE_MESH
    tread_heightfield_def heightfield; /// TREAD_SHAPE_HEIGHTFIELD
    tread_voxels_def voxels;           /// TREAD_SHAPE_VOXELS
} tread_shape_def;

/// Static bodies never move on their own; kinematic bodies carry a velocity (moving platforms) that
/// tread_world_advance integrates.
typedef enum tread_body_type {
    TREAD_BODY_STATIC,
    TREAD_BODY_KINEMATIC,
} tread_body_type;

/// Everything needed to add a body to a world.
typedef struct tread_body_def {
    tread_body_type type;        /// default TREAD_BODY_STATIC
    tread_shape_def shape;       /// default a 1 m box
    tread_transform transform;   /// default identity
    tread_vec3 linear_velocity;  /// kinematic only, metres per second; default zero
    tread_vec3 angular_velocity; /// kinematic only, radians per second about world axes; default zero
    uint32_t layer;              /// layer index in [0, 31]; queries select layers by mask bit (1u << layer); default 0
    void *user_data;             /// caller's pointer, returned by tread_body_user_data; default NULL
} tread_body_def;

/// World creation options.
typedef struct tread_world_def {
    int body_capacity; /// bodies allocated up front (the world grows past it while adding bodies); default 64
} tread_world_def;

/// Per-body query filter callback: return true to consider the body.
typedef bool tread_body_filter_fn(tread_body_id body, uint32_t layer, void *user_data, void *context);

/// One filter for every query.
typedef struct tread_query_filter {
    uint32_t layer_mask;           /// bit i set = bodies on layer i are considered; default all (0xFFFFFFFF)
    tread_body_id ignore_body;     /// this body is skipped; default null (none)
    tread_body_filter_fn *callback; /// optional extra test per body; default NULL
    void *context;                 /// passed to callback; default NULL
} tread_query_filter;

/// Query shapes, the characters' volumes. A capsule's core segment runs along `up` through its centre. A box
/// is upright: its local Y is `up`, its horizontal axes come from a fixed basis built from up (for up = +Y
/// exactly, world X and Z), and it is centred at the query position.
typedef enum tread_query_shape_type {
    TREAD_QUERY_SPHERE,
    TREAD_QUERY_CAPSULE,
    TREAD_QUERY_BOX,
} tread_query_shape_type;

typedef struct tread_query_shape {
    tread_query_shape_type type; /// default TREAD_QUERY_CAPSULE
    float radius;                /// metres, > 0; default 0.3
    float half_height;           /// capsule: half the core segment's length, metres, >= 0; default 0.6
    tread_vec3 up;               /// capsule axis / box local Y, unit (normalized on use); default (0, 1, 0)
    tread_vec3 half_extents;     /// box: half extents along its local X, Y (= up), Z, metres, each > 0;
                                 /// default (0.3, 0.9, 0.3)
} tread_query_shape;

/// Closest hit of a ray (or one of all hits).
typedef struct tread_ray_hit {
    bool hit;            /// false: nothing was hit and the other fields are unspecified
    float fraction;      /// of the translation travelled to the hit, in [0, 1]
    tread_vec3 point;    /// world-space hit point, metres
    tread_vec3 normal;   /// unit surface normal at the hit, facing the ray's origin side
    tread_body_id body;  /// body hit
    uint32_t feature;    /// triangle index (mesh), cell index (heightfield: 2 per cell; voxels: cell), else 0
} tread_ray_hit;

/// Closest hit of a shape cast (or one of all hits).
typedef struct tread_shape_hit {
    bool hit;                  /// false: nothing was hit and the other fields are unspecified
    bool started_in_contact;   /// the cast began touching (and moving toward) or overlapping the body; fraction is 0
    float fraction;            /// of the translation travelled before first contact, in [0, 1]
    float penetration;         /// overlap depth at the start when started_in_contact, metres (0 when just touching)
    tread_vec3 point;          /// contact point on the world surface, metres
    tread_vec3 normal;         /// unit contact normal, from the world surface toward the query shape
    tread_vec3 surface_normal; /// unit normal of the world face that was hit (equals normal on a face's interior;
                               /// differs at edges and vertices, where stairs logic needs the face)
    tread_body_id body;        /// body hit
    uint32_t feature;          /// triangle or cell index as in tread_ray_hit
} tread_shape_hit;

/// A body near a query shape (contact collection for depenetration and ground detection).
typedef struct tread_contact {
    float separation;          /// signed distance between the surfaces, metres: < 0 is penetration depth
    tread_vec3 point;          /// closest point on the world surface, metres
    tread_vec3 normal;         /// unit, from the world surface toward the query shape (push-out direction)
    tread_vec3 surface_normal; /// unit normal of the world face at that point
    tread_body_id body;
    uint32_t feature;          /// triangle or cell index as in tread_ray_hit
} tread_contact;

/// Closest distance between a query shape and the world.
typedef struct tread_distance_result {
    bool found;                 /// false: nothing within max_distance
    float distance;             /// signed surface distance, metres: < 0 is penetration depth
    tread_vec3 point_on_shape;  /// closest point on the query shape's surface
    tread_vec3 point_on_world;  /// closest point on the world surface
    tread_vec3 normal;          /// unit, from the world toward the query shape
    tread_body_id body;
    uint32_t feature;
} tread_distance_result;


/* ---- character controller ---------------------------------------------------------------------------- */

/// How the character touches the ground after a move.
typedef enum tread_ground_state {
    TREAD_GROUND_ON_GROUND,      /// standing on walkable ground (or wedged in a walkable crevasse)
    TREAD_GROUND_ON_STEEP,       /// touching ground below that is too steep to stand on: slides down it
    TREAD_GROUND_NOT_SUPPORTED,  /// touching something below, but nothing that holds it (e.g. a wall's foot)
    TREAD_GROUND_IN_AIR,         /// nothing below within the ground probe distance
} tread_ground_state;

/// Stepping technique: one per seed, all sharing the slide, ground and snap code (docs/STRATEGIES.md).
typedef enum tread_step_strategy {
    TREAD_STEP_SWEEP,     /// seed 001 / Jolt WalkStairs: sweep up, forward, down (default)
    TREAD_STEP_CONTACT,   /// seed 000 (Source style): step from the contacts met while sliding
    TREAD_STEP_CAST_DOWN, /// seed 002: cast down from the target raised by max step
    TREAD_STEP_RISER,     /// seed 003: a riser volume lifts the body by binary search
    TREAD_STEP_STRATEGY_COUNT
} tread_step_strategy;

/// Character settings. Defaults are the shared course's character (capsule 0.3 x 1.8 m, step 0.4 m, 45 deg).
typedef struct tread_character_settings {
    tread_query_shape_type shape;   /// TREAD_QUERY_CAPSULE, TREAD_QUERY_SPHERE or TREAD_QUERY_BOX; default capsule
    float radius;                   /// metres, > 0 (box: half its width along both horizontal axes); default 0.3
    float height;                   /// total height, metres: capsule >= 2 * radius; box > 0 (feet at the bottom
                                    /// face's centre); sphere: ignored; default 1.8
    tread_vec3 up;                  /// unit up direction (normalized on init); default (0, 1, 0)
    float max_slope_degrees;        /// steepest walkable ground, degrees in [0, 90); default 45
    float max_step_height;          /// tallest step climbed, metres, >= 0 (a hard limit); default 0.4
    float min_step_depth;           /// shallowest tread stepped onto, metres, >= 0; default 0.1
    float step_down_distance;       /// stick-to-floor / snap probe reach below the feet, metres, >= 0; default 0.5
    float max_snap_speed;           /// no snapping to the floor above this speed, metres per second; default 12
    float ground_probe_distance;    /// ground within this distance below the feet supports, metres, > 0; default 0.02
    float skin;                     /// gap kept between the shape and surfaces, metres, > 0; default 0.002
    int max_slide_iterations;       /// casts per slide, 1..16; default 5
    uint32_t collide_mask;          /// layers that block movement; default all
    uint32_t ground_mask;           /// layers that count as ground for probes and snapping; default all
    float recovery_speed;           /// how fast penetration is resolved, metres per second, > 0; default 2
    bool keep_horizontal_speed;     /// slopes: false = speed along the surface equals the input (Quake,
                                    /// Godot's floor_constant_speed); true = horizontal speed is kept; default false
    tread_step_strategy step_strategy; /// default TREAD_STEP_SWEEP
    float layer_max_slope_degrees[32]; /// per-layer walkable angle (seed 004's steeper stairs layer), degrees in
                                       /// [0, 90); 0 = use max_slope_degrees; default all 0
    float step_search_overshoot;    /// contact strategy: how far past a riser the step probe looks, metres; default 0.01
    float riser_depth;              /// riser strategy: how far the riser reaches below the main volume, metres; default 0.25
    float riser_radius_scale;       /// riser strategy: riser radius / radius, in (0, 1]; default 0.9
    float riser_speed_scale;        /// riser strategy: rise per metre moved (seed 003's 1.5); default 1.5
    float riser_fall_scale;         /// riser strategy: weight of downward motion in the rise (seed 003's 0.25); default 0.25
} tread_character_settings;

/// What holds the character up.
typedef struct tread_ground {
    tread_ground_state state;  /// see tread_ground_state
    tread_vec3 normal;         /// walkable: the supporting face's normal (crevasse: the combined normal); else up
    tread_vec3 point;          /// supporting point on the surface, metres
    float distance;            /// gap below the skin to that surface along up, metres (0 when resting on it)
    tread_vec3 velocity;       /// velocity of the supporting body at that point (moving platforms), m/s
    tread_body_id body;        /// supporting body, null in the air
} tread_ground;

/// Contacts kept per move.
#define TREAD_MAX_MOVE_CONTACTS 16

/// A character: plain data owned by the caller (no allocation). Fields are read-only for the caller;
/// change them through tread_character_* functions.
typedef struct tread_character {
    tread_character_settings settings; /// validated copy
    tread_vec3 position;               /// feet: the lowest point of the shape along up, metres
    tread_vec3 velocity;               /// velocity after the last move's collisions, m/s
    tread_ground ground;               /// ground after the last move
    float snap_suppress_time;          /// seconds left during which stick-to-floor is suppressed
    float max_slope_cos;               /// derived: cos(max_slope_degrees)
    float layer_slope_cos[32];         /// derived: per-layer walkable cosine
} tread_character;

/// What one move did.
typedef struct tread_move_result {
    tread_vec3 position;       /// new feet position, metres
    tread_vec3 velocity;       /// velocity after collisions, m/s
    tread_ground ground;       /// ground after the move
    float stepped;             /// distance lifted (> 0) or lowered (< 0) along up by stepping or snapping, metres
    tread_contact contacts[TREAD_MAX_MOVE_CONTACTS]; /// surfaces touched during the move
    int contact_count;
    bool contacts_overflow;    /// more surfaces were touched than TREAD_MAX_MOVE_CONTACTS
    tread_ground previous_ground; /// the ground the move started on (the stairs and floor phases judge it)
    bool blocked;              /// on ground, a wall or riser stopped part of the motion (a step candidate)
    tread_vec3 blocked_position; /// feet where it was first stopped, metres
    tread_vec3 blocked_motion; /// the horizontal motion still to do there, metres (the stairs phase's input)
    bool held_by_riser;        /// riser strategy: the riser is in the ground, so gravity is off (the reference
                               /// move cancels downward velocity while it holds)
} tread_move_result;

/// Camera step smoothing (seed 001): absorbs `stepped` and decays it so the view glides while the body steps.
typedef struct tread_step_smoothing {
    float offset; /// current view offset along up, metres (add to the camera's height)
    float decay;  /// exponential decay rate, 1/s; default 15
} tread_step_smoothing;

#ifdef __cplusplus
}
#endif

#endif
