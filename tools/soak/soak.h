// SPDX-License-Identifier: MIT
// tread_soak: random worlds and settings, every frame checked by the tool's own double-precision
// geometry. This header is the contract between its parts:
//   geometry.c  double-precision distances and penetration depths between convex pieces
//   world.c     the world's mirror (what the tool added, in double) and its signed distance to the character
//   gen.c       seeded random worlds, character and motor settings, inside the ranges the API documents
//   events.c    what happens between frames: kinematic bodies turning back, edits, removals, teleports
//   check.c     the per-frame invariants and their verdicts
//   run.c       one world's frame loop (the game loop a game would write) and its statistics
//   main.c      command line, worlds split across threads, merged summary, known-violation list
// Only the public API (include/tread/) is used: the soak is a tool, as a game would be.
#ifndef SOAK_H
#define SOAK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <tread/tread.h>

// ---- deterministic random numbers (splitmix64: the same sequence on every platform) -------------------------

typedef struct soak_rng {
    uint64_t state;
} soak_rng;

static inline uint64_t soak_rng_next(soak_rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
// Uniform in [0, 1).
static inline double soak_rng_unit(soak_rng *r) { return (double)(soak_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }
static inline double soak_rng_range(soak_rng *r, double lo, double hi) { return lo + (hi - lo) * soak_rng_unit(r); }
// Integer in [lo, hi].
static inline int soak_rng_int(soak_rng *r, int lo, int hi) { return lo + (int)(soak_rng_unit(r) * (double)(hi - lo + 1)); }
static inline bool soak_rng_chance(soak_rng *r, double p) { return soak_rng_unit(r) < p; }
// The generator of one world: seed and world index mixed, so every world is reproducible on its own.
static inline soak_rng soak_rng_for_world(uint64_t seed, uint64_t world) {
    soak_rng r = {seed * 0xD1B54A32D192ED03ull ^ (world + 0x632BE59BD9B4E019ull)};
    soak_rng_next(&r);
    return r;
}

// A ground state's short name for traces (the soak's and the level walker's).
static inline const char *soak_ground_name(tread_ground_state s) {
    switch (s) {
    case TREAD_GROUND_ON_GROUND: return "ground";
    case TREAD_GROUND_ON_STEEP: return "steep";
    case TREAD_GROUND_NOT_SUPPORTED: return "unsupported";
    case TREAD_GROUND_IN_AIR: return "air";
    }
    return "?";
}

// ---- double-precision geometry (geometry.c) ------------------------------------------------------------------

typedef struct soak_v3 {
    double x, y, z;
} soak_v3;

static inline soak_v3 soak_v3_make(double x, double y, double z) { soak_v3 v = {x, y, z}; return v; }
static inline soak_v3 soak_v3_of(tread_vec3 v) { return soak_v3_make(v.x, v.y, v.z); }
static inline soak_v3 soak_add(soak_v3 a, soak_v3 b) { return soak_v3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline soak_v3 soak_sub(soak_v3 a, soak_v3 b) { return soak_v3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline soak_v3 soak_scale(soak_v3 a, double s) { return soak_v3_make(a.x * s, a.y * s, a.z * s); }
static inline soak_v3 soak_mad(soak_v3 a, double s, soak_v3 b) { return soak_v3_make(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline double soak_component(soak_v3 v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }
static inline bool soak_bounds_overlap(soak_v3 alo, soak_v3 ahi, soak_v3 blo, soak_v3 bhi) {
    return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y && alo.z <= bhi.z && blo.z <= ahi.z;
}
static inline double soak_dot(soak_v3 a, soak_v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline soak_v3 soak_cross(soak_v3 a, soak_v3 b) {
    return soak_v3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
double soak_length(soak_v3 a);
soak_v3 soak_normalize(soak_v3 a);

// A rigid transform in double: x_world = R x_local + p, R's columns the local axes.
typedef struct soak_frame {
    soak_v3 axis[3];
    soak_v3 p;
} soak_frame;
soak_frame soak_frame_of(tread_transform t);
soak_v3 soak_frame_point(const soak_frame *f, soak_v3 local);
soak_v3 soak_frame_inv_point(const soak_frame *f, soak_v3 world);

// An oriented box: centre, unit axes, half extents.
typedef struct soak_box {
    soak_v3 c;
    soak_v3 axis[3];
    double half[3];
} soak_box;

// A round shape: the points within `radius` of the segment a-b (a sphere when a == b).
typedef struct soak_round {
    soak_v3 a, b;
    double radius;
} soak_round;

// Signed distances between the surfaces: > 0 apart, < 0 overlapping by that depth (the shortest translation that
// separates the two convex pieces).
double soak_round_vs_round(const soak_round *s, const soak_round *t);
double soak_round_vs_box(const soak_round *s, const soak_box *b);
// Closest point of triangle abc to p.
soak_v3 soak_closest_on_triangle(soak_v3 p, soak_v3 a, soak_v3 b, soak_v3 c);
double soak_round_vs_triangle(const soak_round *s, soak_v3 t0, soak_v3 t1, soak_v3 t2);
double soak_box_vs_box(const soak_box *a, const soak_box *b);
double soak_box_vs_triangle(const soak_box *a, soak_v3 t0, soak_v3 t1, soak_v3 t2);

// ---- the world's mirror (world.c) ------------------------------------------------------------------------------

typedef enum soak_body_kind {
    SOAK_BODY_BOX,
    SOAK_BODY_SPHERE,
    SOAK_BODY_CAPSULE,
    SOAK_BODY_MESH,
    SOAK_BODY_HEIGHTFIELD,
    SOAK_BODY_VOXELS,
} soak_body_kind;

// Roles the generator gives bodies; events and checks read them.
enum {
    SOAK_ROLE_FLOOR = 1,    // a closed floor slab (level top face at generation height 0): the fall-through check
    SOAK_ROLE_WALL = 2,     // the arena's walls: never edited, so characters stay inside
    SOAK_ROLE_PLATFORM = 4, // kinematic, turns back at the end of its travel
};

typedef struct soak_body {
    tread_body_def def;      // as added to the world (shape arrays point into the fields below)
    tread_body_id id;
    soak_body_kind kind;
    bool live;
    int role;
    tread_vec3 *vertices;    // mesh: owned copies of the arrays the def points at
    uint32_t *indices;
    float *heights;          // heightfield
    uint8_t *holes;
    uint8_t *solid;          // voxels
    soak_frame frame;        // where the world has the body now (read back after every change)
    soak_frame previous;     // where it was when the frame began (ground motion for the rise and move checks)
    soak_v3 lo, hi;          // world bounding box of the body now, metres
    tread_vec3 travel_origin; // platform: centre of its travel
    double travel;           // platform: how far from travel_origin it goes before turning back, metres
} soak_body;

typedef struct soak_world {
    soak_body *bodies;
    int count, capacity;
    tread_world *world;
    tread_quat tilt;         // generation frame (up = +Y) -> world frame
    double arena;            // half size of the floor's top face, metres (generation frame)
    double floor_top;        // generation-frame height of the floors' top faces (0)
} soak_world;

// Where the character is, as the checks see it: its volume in double.
typedef struct soak_shape {
    bool is_box;
    soak_round round;        // capsule, sphere
    soak_box box;            // upright box
    soak_v3 lo, hi;          // bounding box, metres
} soak_shape;

// The volume of a character with settings `s` whose feet are at `feet` (geometry.c).
soak_shape soak_shape_at(const tread_character_settings *s, soak_v3 feet);
soak_shape soak_shape_of(const tread_character *ch, tread_vec3 feet);
// The shape moved by d.
soak_shape soak_shape_moved(const soak_shape *s, soak_v3 d);
// Deepest overlap (>= 0, metres) of the character's volume with the bodies on `collide_mask`'s layers; the
// mirror's index of that body in *out_body (-1: none), and in *out_touching how many bodies come within `margin`
// of the volume (either may be NULL).
double soak_world_penetration(const soak_world *w, const soak_shape *shape, uint32_t collide_mask, double margin, int *out_body,
                              int *out_touching);
// Bodies of the mirror a measure leaves out (by index).
#define SOAK_EXCEPT_MAX 8
typedef struct soak_except {
    int bodies[SOAK_EXCEPT_MAX];
    int count;
} soak_except;
// Is body index `body` in `except` (NULL: none is)?
bool soak_except_has(const soak_except *except, int body);
// Does body `i` count for a measure: live, on a layer of `collide_mask`, not in `except`?
bool soak_body_counts(const soak_world *w, int i, uint32_t collide_mask, const soak_except *except);
// The same with the bodies of `except` left out (NULL: none).
double soak_world_penetration_except(const soak_world *w, const soak_shape *shape, uint32_t collide_mask, double margin,
                                     const soak_except *except, int *out_body, int *out_touching);
// A convex piece of a body, in world coordinates: a mesh's or heightfield's triangle, a voxel cell or a box, a
// sphere or capsule. A body's depth is its deepest piece's (soak_world_penetration).
typedef enum soak_piece_kind { SOAK_PIECE_TRIANGLE, SOAK_PIECE_BOX, SOAK_PIECE_ROUND } soak_piece_kind;
typedef struct soak_piece {
    soak_piece_kind kind;
    soak_v3 v[3];      // triangle
    soak_box box;      // box
    soak_round round;  // round
} soak_piece;
// Called for each piece; returning false stops the walk.
typedef bool (*soak_piece_visit)(void *ctx, const soak_piece *piece);
// Visit the pieces of the body whose bounds may overlap lo-hi (world bounds); false when a visit stopped it.
bool soak_body_pieces(const soak_body *b, soak_v3 lo, soak_v3 hi, soak_piece_visit visit, void *ctx);
// Signed distance (metres) between the shape and the body: its nearest piece's (< 0: the deepest overlap).
double soak_body_distance(const soak_body *b, const soak_shape *s);
// How deep (>= 0, metres) the shape is in the body: its deepest piece.
double soak_body_depth(const soak_body *b, const soak_shape *s);
// Signed distance between the shape and one piece (> 0 apart, < 0 overlapping by that depth).
double soak_piece_distance(const soak_shape *s, const soak_piece *p);
// An upper bound (metres) on how deep the shape is in the bodies on the mask (the deepest body; except's left out):
// for each body it overlaps, the least over directions of how far the shape must go along one to be free of all of
// the body's pieces at once, which is at least the true depth; a body's deepest piece (soak_world_penetration) is at
// most it. Between the two lies the depth in the body's whole solid (bound.c). INFINITY where no direction tried
// frees it within `reach`.
double soak_world_depth_bound(const soak_world *w, const soak_shape *shape, soak_v3 up, uint32_t collide_mask, const soak_except *except,
                              double reach);
// Add to *except the kinematic bodies the shape is deeper than `depth` inside of (as many as fit).
void soak_world_kinematic_inside(const soak_world *w, const soak_shape *shape, uint32_t collide_mask, double depth, soak_except *except);
// How deep (>= 0, metres) the centre's way from a to b runs into a body not in `except` that holds neither end and
// that the volume `before` was not inside of (a body it was already in: recovery's, not a crossing): the least over
// the straight segment and the paths bent along each of `ways` (the directions a crushed move may have gone along);
// 0 when some way no longer than `max_length` keeps the ball of `radius` around the centre (within the shape) out of
// every one (crossing.c).
double soak_world_crossing(const soak_world *w, const soak_shape *before, soak_v3 a, soak_v3 b, const soak_v3 *ways, int way_count,
                           double max_length, double radius, uint32_t collide_mask, const soak_except *except);
// The farthest an unbury may jump (types.h, tread_move_result.unburied): three reaches of the shape, at least 2 m,
// and a skin.
double soak_unbury_bound(const tread_character_settings *s);
// Is some spot within `bound` of the feet free: the shape there overlapping nothing on the collide mask? Looked for
// where the update looks (straight up, around up level, rising and sinking, straight down; the bound and its halves).
// The directions the update's free-spot search goes (recover.c, unbury): straight up, the eight compass points
// around up level, rising and sinking at 45 degrees, straight down.
#define SOAK_SEARCH_DIRECTIONS 26
int soak_search_directions(soak_v3 up, soak_v3 *dirs);
bool soak_world_free_within(const soak_world *w, const tread_character *ch, double bound);
bool soak_world_add(soak_world *w, soak_body *body, char *message, size_t size);
bool soak_world_remove(soak_world *w, int index, char *message, size_t size);
bool soak_world_set_transform(soak_world *w, int index, tread_transform t, char *message, size_t size);
void soak_world_refresh(soak_world *w, int index);
void soak_world_free(soak_world *w);
int soak_world_find(const soak_world *w, tread_body_id id);
soak_v3 soak_body_point_motion(const soak_body *b, soak_v3 point);
// How far the bodies on collide_mask that moved this frame near the character (its bounds grown by margin) can
// have pushed it (tread.h: a body pushes a character ahead of it, the skin away): for each, the farthest its motion
// took a point of the character's bounds, plus the skin; summed, as they push in turn.
double soak_pusher_motion(const soak_world *w, const soak_shape *shape, uint32_t collide_mask, double skin, double margin);

// ---- one world's plan (gen.c) ---------------------------------------------------------------------------------

// What the command line forces on every world (-1: drawn at random like everything else).
typedef struct soak_filter {
    int strategy;            // tread_step_strategy, or -1
    int shape;               // tread_query_shape_type, or -1
} soak_filter;

typedef struct soak_plan {
    int frames;                      // updates this world runs
    tread_character_settings settings;
    tread_motor_settings motor;
    tread_vec3 start;                // feet, world frame
    double base_dt;                  // the world's frame time, s; spikes replace it for single frames
    double spike_chance;             // per frame
    double teleport_rate, edit_rate; // per simulated second
} soak_plan;

// Frames of world `index` of `seed` (drawn first, so that the run can be split before any world is built).
int soak_world_frames(uint64_t seed, uint64_t index);
// Build world `index` of `seed` into *w (its tread world created and filled) and its plan; *rng carries on for
// the world's events. False with a message when the library refused something the generator made (a soak bug:
// the generator keeps every value inside the documented ranges).
bool soak_generate(uint64_t seed, uint64_t index, const soak_filter *filter, soak_rng *rng, soak_world *w, soak_plan *plan,
                   char *message, size_t size);
// A random obstacle added to the running world (events: a body removed is replaced by a new one).
bool soak_add_obstacle(soak_rng *rng, soak_world *w, char *message, size_t size);
// A random point in the arena, `height` above the floor's top (world frame).
tread_vec3 soak_arena_point(soak_rng *rng, const soak_world *w, double height);
tread_vec3 soak_tilted(const soak_world *w, soak_v3 generation_point);
soak_v3 soak_untilted(const soak_world *w, tread_vec3 world_point);

// ---- the per-frame checks (check.c) ----------------------------------------------------------------------------

typedef enum soak_kind {
    SOAK_NAN,          // a non-finite number in the character or the move's result
    SOAK_PENETRATION,  // the move left the character deeper than 1 mm in a body (or deeper than the world put it)
    SOAK_STUCK,        // put inside geometry by the world or a teleport, still deeper than 1 mm past the deadline
    SOAK_FALL_THROUGH, // from above a closed floor's top to below it, within its footprint
    SOAK_RISE,         // the feet rose above the surface stood on by more than max step allows
    SOAK_OVERSHOOT,    // the move went farther than its input, the ground's motion and recovery allow
    SOAK_CROSSED,      // crushed, the feet's centre went through a body (not the crushing one) on its way
    SOAK_ERROR,        // the move or the motor refused valid input
    SOAK_KIND_COUNT
} soak_kind;

const char *soak_kind_name(soak_kind kind);

// Slack on every measured limit: the 1 mm the API's invariants allow.
#define SOAK_TOLERANCE 1e-3
// Below this much the move is no deeper than the world put it (float rounding of a 20 m coordinate is ~2e-6 m).
#define SOAK_DEEPER_SLACK 1e-4

// What one frame did, as the checks need it.
typedef struct soak_frame_facts {
    const tread_character *before;  // the character the move started from (after any teleport)
    const tread_character *after;
    const tread_move_result *result;
    tread_vec3 velocity;            // handed to the move
    double dt;
    double time;                    // simulated time at the frame's end, s
    double pre_depth, post_depth;   // deepest overlap before the move (after the world changed) and after it
    int pre_body, post_body;        // the mirror's index of the body of that overlap (-1: none)
    bool crushed;                   // the world pushed it in while another body held it from elsewhere (no way out)
    double pre_free, post_free;     // the move said crushed: the depths with the crushing body (crushed_by) left out
    double pre_bound;               // an upper bound on the true depth before the move (pre_depth, or pre_free when
                                    // crushed, is a lower one): soak_world_depth_bound, measured only when the move
                                    // ended deeper than that lower bound; else equal to it
    double crossed;                 // the move said crushed: how deep the centre's straight path from before to after
                                    // ran through a body other than the crushing one, metres (0: none)
    bool beyond_reach;              // it began buried (not crushed) and no spot within the unbury reach is free
    bool crushed_nowhere;           // it began buried, is crushed, and no spot within the unbury reach is free
                                    // (soak_world_free_within): the update's last resort rises at the recovery speed
    bool teleported;                // the character was teleported before this move
    soak_v3 ground_motion;          // how far the ground's motion this frame took the feet, metres
    double pusher_motion;           // farthest a body on the collide mask that moved this frame can have pushed it
    soak_v3 feet_generation;        // the feet after the move in the generation frame (up = +Y), for the floor
    double arena;                   // the floor's footprint half size, metres
} soak_frame_facts;

// Carried from frame to frame.
typedef struct soak_check_state {
    bool in_episode;         // inside geometry the world (or a teleport) put it in, not yet out
    double episode_start;    // when the world last pushed it deeper, s
    double episode_depth;    // how deep it was then, metres
    double last_post;        // the last frame's depth after the move
    int floor_side;          // +1 above the floor's top within its footprint, -1 below, 0 unknown or outside
} soak_check_state;

// One verdict: the kind, the measured value and its limit.
typedef struct soak_verdict {
    soak_kind kind;
    double value, limit;
    char detail[160];
} soak_verdict;

// Measured margins (what the summary calls worst values), filled for every frame.
typedef struct soak_measures {
    double penetration;      // depth after a move that started clear (<= 1 mm before it), metres
    double rise_excess;      // rise above the surface stood on minus what it may rise, metres (< 0: margin)
    double overshoot;        // displacement minus what the move may cover, metres (< 0: margin)
    long crushed;            // frames pressed between bodies by the world (a limit, not a violation)
    long reported_crushed;   // frames the move reported crushed (tread_move_result.crushed): checked with the
                             // crushing body left out
} soak_measures;

// Check one frame; returns how many verdicts it wrote to out (at most SOAK_KIND_COUNT).
int soak_check_frame(const soak_frame_facts *f, soak_check_state *state, soak_measures *measures, soak_verdict *out);
bool soak_character_finite(const tread_character *ch, const tread_move_result *res, const tread_contact *contacts, int contact_count);

// ---- between frames (events.c) ---------------------------------------------------------------------------------

// The world's changes before a frame: platforms turning back at the end of their travel, and at the plan's rates
// edits (an obstacle removed and a new one added, a static obstacle moved, a platform's velocity changed). The
// floor and the walls are never touched. False with a message when the library refused a valid change.
bool soak_world_events(soak_rng *rng, soak_world *w, const soak_plan *plan, double dt, char *message, size_t size);
// Teleport at the plan's rate, or rescue a character thrown out of the arena: by tread_character_set_position
// (which keeps velocity and ground) or by tread_character_init (a fresh character). True when it teleported.
bool soak_teleport(soak_rng *rng, const soak_world *w, const soak_plan *plan, double dt, tread_character *ch, tread_motor_state *motor);

// ---- one world (run.c) ---------------------------------------------------------------------------------------------

typedef struct soak_world_result {
    uint64_t index;
    int strategy, shape;            // the character's
    long updates;
    soak_measures worst;
    long counts[SOAK_KIND_COUNT];   // frames with a verdict of each kind
    soak_verdict first[SOAK_KIND_COUNT]; // the first of each kind
    int first_frame[SOAK_KIND_COUNT];
    bool failed;                    // the world could not be run (the soak's own fault): message says why
    char message[256];
} soak_world_result;

// Run world `index` of `seed` for `frames` updates (its own count when <= 0 or larger). With `trace`, print
// every frame (the --replay output).
void soak_run_world(uint64_t seed, uint64_t index, int frames, const soak_filter *filter, FILE *trace, soak_world_result *out);

#endif
