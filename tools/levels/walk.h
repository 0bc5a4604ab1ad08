// SPDX-License-Identifier: MIT
// `tread walk`: characters wandering through real levels (level.h), every frame checked in double precision by
// the tool's own geometry (the soak's, tools/soak/geometry.c). The parts:
//   grid.c        a uniform grid over the level's triangles, in double, to find the ones near the character
//   walk_check.c  the per-frame checks and their exact definitions (docs/LEVELS.md)
//   walk.c        the characters' frame loop: alone (one at a time) or all of a map's spawns in one batch
//   walk_movers.c a run's world with the movers as kinematic bodies, moved to their place every frame
//   walk_doors.c  doors, plats and buttons: Quake's states, opened by the characters through triggers and touch
//   walk_main.c   the command line, the runs split over threads, the report
//   walk_scene.c  one map as a scene file on stdout (--scene), for the browser viewer
#ifndef WALK_H
#define WALK_H

#include <stdio.h>

#include "level.h"
#include "soak.h"

// ---- the level's triangles in double, and a grid over them (grid.c) ------------------------------------------

typedef struct walk_tri {
    soak_v3 p[3];
    soak_v3 n;               // unit normal (a brush face's outward one; a patch's oriented up, normal.y >= 0)
    soak_v3 lo, hi;          // bounds
    bool two_sided;          // a patch: no inside
} walk_tri;

typedef struct walk_grid {
    walk_tri *tris;
    int count;
    soak_v3 lo;              // the grid's corner, metres
    double cell;             // cell edge, metres
    int nx, ny, nz;
    int *start;              // nx * ny * nz + 1 offsets into items
    int *items;              // triangle indices
} walk_grid;

bool walk_grid_build(walk_grid *g, const level *lv, char *err, size_t errsize);
void walk_grid_free(walk_grid *g);

// A query's scratch (one per thread): marks so that a triangle in several cells is visited once.
typedef struct walk_query {
    uint32_t *marks;
    uint32_t stamp;
    int *found;
    int found_count, found_capacity;
} walk_query;

bool walk_query_init(walk_query *q, const walk_grid *g);
void walk_query_free(walk_query *q);
// The triangles whose bounds meet [lo, hi], into q->found.
void walk_grid_near(const walk_grid *g, walk_query *q, soak_v3 lo, soak_v3 hi);

// ---- the checks (walk_check.c) -----------------------------------------------------------------------------------

typedef enum walk_kind {
    WALK_ERROR,          // a move or the motor refused valid input
    WALK_NAN,            // a non-finite number in the character or the move's result
    WALK_PENETRATION,    // deeper than 1 mm past a triangle's front after the move
    WALK_FALL_THROUGH,   // from in front of an up-facing triangle to more than 1 cm behind it, over its interior
    WALK_RISE,           // rose more than max step (and what the input and a slope allow) in one frame
    WALK_GROUND,         // ON_GROUND with the ground point off the body's bottom or off any walkable face
    WALK_FREEZE,         // pressed along its contacts for 2 s, moved under 1 cm, while 3 cm that way is free
    WALK_CRUSH,          // a mover pressed it against something and the move said crushed (counted, never fatal)
    WALK_KIND_COUNT
} walk_kind;

const char *walk_kind_name(walk_kind kind);

#define WALK_TOLERANCE 1e-3

// The ways a ground point fails (WALK_GROUND).
typedef enum walk_ground_fault {
    WALK_GROUND_HOVER,       // in the bottom's direction but too far from it (below a hovering body, or above a sunk one)
    WALK_GROUND_OFF_BOTTOM,  // off the bottom: outside a box's footprint, or on a round body's side beyond max slope
    WALK_GROUND_NOT_WALKABLE, // on the bottom, but on no walkable triangle (within 1 mm)
    WALK_GROUND_FAULT_COUNT
} walk_ground_fault;

extern const char *const walk_ground_fault_names[WALK_GROUND_FAULT_COUNT];

// A check's verdict.
typedef struct walk_verdict {
    walk_kind kind;
    int fault;               // WALK_GROUND: a walk_ground_fault
    double value;
    char detail[200];
} walk_verdict;

// What a character's checks carry from frame to frame.
typedef struct walk_check_state {
    bool window_open;        // the freeze check's window
    double window_start;     // s
    soak_v3 window_feet;     // where the window began
} walk_check_state;

// The movers' triangles where tread has them this frame (walk_movers.c), for the checks.
typedef struct walk_mover_tris {
    const walk_tri *tris;
    int count;
    const int *first;        // per mover: its first triangle (mover_count + 1 entries)
    int mover_count;
} walk_mover_tris;

// One frame, as the checks see it.
typedef struct walk_frame_facts {
    const tread_character *before, *after;
    const tread_move_result *result;
    const tread_contact *contacts; // what the move met while moving (its buffer's first ones), contact_count of them
    int contact_count;
    tread_vec3 velocity;     // handed to the move
    tread_vec3 wish;         // the input's direction (horizontal, unit; zero when none)
    double dt, time;
    bool fresh;              // the first frame after a spawn or respawn (nothing stood on before it)
    bool launched;           // a jump pad set the velocity handed to this move (the rise check does not apply)
    bool teleported;         // a teleporter moved the character before this move (rise, fall-through and freeze do
                             // not apply; `before` is already at the destination)
    bool others;             // a batch: another character was touched or stood on this frame (the level-only checks
                             // of ground, rise and freeze do not apply)
    tread_body_id level_body;
    walk_mover_tris movers;  // none without --movers
} walk_frame_facts;

// Deepest penetration past a triangle's front (>= 0), and that triangle (-1 none).
double walk_depth(const walk_grid *g, walk_query *q, const soak_shape *shape, int *out_tri);
// Check one frame after a successful, finite move; returns how many verdicts it wrote (at most WALK_KIND_COUNT).
int walk_check_frame(const walk_grid *g, walk_query *q, const walk_frame_facts *f, walk_check_state *st, walk_verdict *out);
bool walk_finite(const tread_character *ch, const tread_move_result *res, const tread_contact *contacts, int contact_count);

// ---- runs (walk.c) -------------------------------------------------------------------------------------------------

#define WALK_SHAPES 2        // box, capsule
extern const char *const walk_shape_names[WALK_SHAPES];

// What the command line chose.
typedef struct walk_options {
    const char *pk3;
    double seconds;          // per run
    double hz;
    uint64_t seed;
    int max_spawns;          // spawns used per map (0: all)
    int only_spawn;          // -1: all
    unsigned shape_mask;     // bit per walk_shape_names entry
    unsigned strategy_mask;  // bit per tread_step_strategy
    bool alone, batch;
    int jobs;
    bool trace;
    bool movers;             // run the movers (walk_movers.c; the command's default, off with --no-movers)
    unsigned not_fatal;      // kinds (bits 1 << walk_kind) counted and printed but not failing the exit status
    int keep;                // failures kept per run and kind for the report
} walk_options;

// One failure, as the report prints it.
typedef struct walk_failure {
    int spawn, shape, strategy, frame;
    bool batch;
    walk_kind kind;
    double value;
    soak_v3 feet;
    char detail[200];
} walk_failure;

// One run: one spawn alone (or every spawn batched) with one shape and strategy.
typedef struct walk_run {
    int spawn;               // -1: the batch
    int shape, strategy;
    long frames, deaths, moves; // frames: character updates (a batch's frame counts each of its characters)
    long launches, teleports; // jump pads entered (a stay of several frames counts once), teleports
    long mover_frames;       // frames a character touched or stood on a mover (--movers)
    long mover_opens;        // doors, plats and buttons set moving from pos1 (--movers)
    double move_seconds;     // wall time in tread's moves
    long counts[WALK_KIND_COUNT];
    long ground_faults[WALK_GROUND_FAULT_COUNT];
    walk_failure *kept;
    int kept_count, kept_capacity;
    bool failed;             // the run could not be made (the world refused the level)
    char message[256];
} walk_run;

// A loaded map with everything its runs share (read only while they run).
typedef struct walk_map {
    level lv;
    walk_grid grid;
    tread_world *world;
    tread_body_id body;
} walk_map;

bool walk_map_load(walk_map *m, const char *pk3, const char *name, char *err, size_t errsize);
void walk_map_free(walk_map *m);

// ---- movers (walk_movers.c, walk_doors.c) -------------------------------------------------------------------------

// What the movers' logic sees of a character when a frame begins.
typedef struct walk_presence {
    double lo[3], hi[3];       // its bounds, metres
    tread_body_id crushed_by;  // the body that crushed it in the last frame (the null id: none)
} walk_presence;

// Quake's binary mover states (g_mover.c's moverState).
typedef enum walk_binary_state { WALK_AT_POS1, WALK_TO_POS2, WALK_AT_POS2, WALK_TO_POS1 } walk_binary_state;

// A door's, plat's or button's state (a team's is its leader's).
typedef struct walk_binary {
    walk_binary_state state;
    double since;            // when its move began, s (a reversal sets it back by the part still to undo)
    double returns;          // WALK_AT_POS2: when it starts back, s (INFINITY: never)
} walk_binary;

// A run's own world with the level and its movers, and the movers' triangles now.
typedef struct walk_movers {
    tread_world *world;
    tread_body_id level_body;
    tread_body_id *bodies;   // per level::movers entry (the null id for a mover with no solid brush)
    int *first;              // per mover: its first triangle in tris (count + 1 entries)
    int count;
    walk_tri *tris;
    int tri_count;
    walk_binary *binary;     // per mover (walk_doors.c)
    double *trigger_ready;   // per level::mover_triggers entry: when it may fire again, s (INFINITY: spent)
    bool *reversed;          // per mover: a blocked leader reversed this frame (scratch)
    long opened;             // binary movers set moving from pos1 (a team counts once)
} walk_movers;

bool walk_movers_init(walk_movers *mv, const walk_map *m, char *err, size_t errsize);
// The frame that begins at t: the doors, plats and buttons react to the characters (`chars`, in that order), then
// every mover goes to its place at t + dt through tread_world_advance (call before the frame's moves).
bool walk_movers_step(walk_movers *mv, const level *lv, const walk_presence *chars, int char_count, double t, double dt, char *err,
                      size_t errsize);
void walk_movers_free(walk_movers *mv);

// The binary movers' logic (walk_doors.c): every state at pos1, every trigger ready.
void walk_doors_reset(walk_movers *mv, const level *lv);
// At the frame's start t: blocked movers reverse, arrivals, triggers and touches by each character in order, returns.
void walk_doors_frame(walk_movers *mv, const level *lv, const walk_presence *chars, int char_count, double t);
// How far mover i (binary) is from pos1 to pos2 at time t (its state's move, clamped to 0 .. 1).
double walk_doors_fraction(const walk_movers *mv, const level *lv, int i, double t);

// Quake's player (a box or capsule 30 units wide, 56 tall; steps of 18 units; slopes to 45.57 degrees) and its
// movement speeds in metres (walk.c): shape 0 box, 1 capsule.
tread_character_settings walk_character_settings(int shape, int strategy);
tread_motor_settings walk_motor_settings(void);

void walk_run_alone(const walk_map *m, const walk_options *o, walk_run *run, FILE *trace);
void walk_run_batch(const walk_map *m, const walk_options *o, walk_run *run, FILE *trace);
void walk_run_free(walk_run *run);

// ---- the command (walk_main.c) -------------------------------------------------------------------------------------

int walk_command(int argc, char **argv);

// ---- one map as a scene file, for the browser viewer (walk_scene.c) ---------------------------------------------

// Write map `map` of `path` (or the .bsp `path`, map NULL) as a scene (docs/SCENES.md) to out: the level and its
// movers as meshes, one character at spawn o->only_spawn (0 when -1) with the walker's settings (the box when
// o->shape_mask is the box alone, else the capsule; the first strategy of o->strategy_mask) and motor.
bool walk_write_scene(const char *path, const char *map, const walk_options *o, FILE *out, char *err, size_t errsize);

#endif
