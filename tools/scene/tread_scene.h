// SPDX-License-Identifier: MIT
// tread_scene: the scene files of the `tread` command as a library (docs/SCENES.md). Loading (JSON by cJSON natively,
// by the JavaScript engine's JSON.parse in the WebAssembly build; mesh files by assimp, natively only), running a
// scene with the course's frame loop, evaluating its expectations, and writing plots and traces. The `tread` command
// (tools/tread/main.c), the tests, the fuzzer and the WebAssembly build (web/wasm: loading, running, checks) use it.
//
// Files of tools/scene/ (calls between them form a DAG, leaves first):
//   names.c          enum <-> name tables (shapes, step strategies, ground states, jump modes)
//   json_cjson.c     the JSON document the loader reads (scene_json.h) over cJSON; the WebAssembly build has its own
//                    over the JavaScript engine's JSON.parse (web/wasm/json_js.c)
//   json_read.c      JSON reading helpers: typed values, ranges, paths in messages, layer references
//   settings_table.c the character and motor settings tables: by name from JSON and from "field=value" text
//   mesh_file.c      mesh files via assimp (native only)
//   geometry.c       layers and bodies (box, sphere, capsule, ramp, mesh, heightfield, voxels)
//   characters.c     characters: settings, motor, input timelines
//   crowds.c         crowds: many characters from a generator (grid spawns, seeded random targets)
//   dynamics.c       dynamic bodies: the "dynamic" object, and the runner's own integrator that applies the impulses
//                    characters give them
//   motion.c         body motion: constant velocities and keyframed paths (parsed, evaluated, per-frame velocity);
//                    conveyor surfaces
//   checks_parse.c   expectations
//   scene_load.c     the file: top level, syntax errors, scene_load / scene_free
//   overlap.c        how deep characters overlap each other (the crowd checks' measure), in a hashed grid
//   run_frame.c      one frame of the characters: velocities, the moves (one by one, or one batch), the contact
//                    listener's sensor events, what each frame records
//   run.c            simulation; checks.c expectations evaluated (checks_world.c: crowds, sensors, dynamic
//                    bodies); plot_svg.c plots and CSV traces
//   gen.c            scene files built as cJSON trees (the matrix generator's pieces; gen_internal.h)
//   gen_lifts.c      the generated matrix's lift family: riders of lifts starting, stopping and reversing
//   gen_families.c   the generated matrix's families: cases, geometry and expectations from the settings
//   gen_composite.c  its composite families (issue 26): sloped curbs, tilted treads, micro-steps, angled stairs
//   matrix.c         running the generated matrix: rates x up vectors x strategies x shapes, sampled, in workers
#ifndef TREAD_SCENE_H
#define TREAD_SCENE_H

#include <stdbool.h>
#include <stddef.h>

#include "tread/tread.h"

#define SCENE_NAME_MAX 64
#define SCENE_ERROR_MAX 512

// Limits of a scene (docs/SCENES.md, "Limits"), each checked before the work it guards.
// Frames in one run, round(duration / dt): a run's frame count is an int and its trace is kept in memory.
#define SCENE_MAX_FRAMES 10000000
// Bytes of a scene file: cJSON builds the whole document (up to ~45 bytes of memory per byte of text) before any
// field can be judged, so only the text's size can bound that work. Checked before the file is read.
#define SCENE_MAX_FILE_BYTES (8 << 20)
// Bodies: each is added to the world (and its bounding-volume tree) and met by every query of every frame.
#define SCENE_MAX_BODIES 65536
// Characters listed one by one: each is moved, probed and recorded every frame, and has its own invariants.
#define SCENE_MAX_CHARACTERS 64
// Crowds, and characters in all of a scene's crowds: each crowd shares one pair of invariants; the characters are
// bounded by the trace (below) too.
#define SCENE_MAX_CROWDS 16
#define SCENE_MAX_CROWD_CHARACTERS 10000
// Targets of all crowds together (each an input entry, 60 bytes): a tiny "every" over a long run would otherwise ask
// for gigabytes.
#define SCENE_MAX_CROWD_INPUTS 1000000
// Frames x characters: the trace keeps every character's every frame (sizeof(run_frame), 52 bytes): <= 520 MB.
#define SCENE_MAX_TRACE_FRAMES 10000000
// Frames x moving (kinematic or dynamic) bodies: the trace keeps every moving body's transform every frame (28 bytes
// each): <= 280 MB.
#define SCENE_MAX_BODY_TRACE_FRAMES 10000000
// Bodies x characters x frames, the work of a run: every frame moves every character through a world of every body.
// Each cap above allows hours of it together (65,536 coincident boxes, one character, an hour at 60 Hz: 1.4e10, 8
// frames a second, 7.5 h); at 10^9 that scene runs about half an hour, and the largest shipped scene (crowd-room-500,
// 5 bodies x 500 characters x 3600 frames = 9e6) is a hundredth of it.
#define SCENE_MAX_WORK 1.0e9
// Expectations: each is evaluated over the run and reported.
#define SCENE_MAX_CHECKS 256
// Results of one run: a failed call, every expectation and two invariants per listed character and per crowd.
#define SCENE_MAX_RESULTS (1 + SCENE_MAX_CHECKS + 2 * SCENE_MAX_CHARACTERS + 2 * SCENE_MAX_CROWDS)
// Sensor events kept by one run (entering and leaving, docs/SCENES.md "Sensors"): a run with more stops recording
// them and says so in every sensor check.
#define SCENE_MAX_EVENTS 1000000
// Heightfield samples, or voxel cells (and entries of a voxel "cells" list), in one body: the arrays the loader
// allocates and the library builds its structures over.
#define SCENE_MAX_GRID_CELLS (1 << 24)
// Triangles of one mesh, and vertices of a mesh file (inline vertices are bounded by SCENE_MAX_FILE_BYTES).
#define SCENE_MAX_MESH_TRIANGLES (1 << 24)
#define SCENE_MAX_MESH_VERTICES (1 << 24)
// Bytes of a mesh file: assimp reads and processes all of it before its triangles can be counted.
#define SCENE_MAX_MESH_FILE_BYTES (64 << 20)

// Why loading failed: "<file>:<line>:<column>: ..." for syntax errors, "<file>: <json path>: ..." otherwise.
typedef struct scene_error {
    char message[SCENE_ERROR_MAX];
} scene_error;

typedef struct scene_layer {
    char name[SCENE_NAME_MAX];
    float walkable_degrees; // per-layer walkable angle (Catlike Coding's stairs layer); < 0 = use the character's max slope
} scene_layer;

// How a path goes on after its last key (docs/SCENES.md, "Body motion").
typedef enum scene_path_loop {
    SCENE_PATH_ONCE,      // holds the last key
    SCENE_PATH_LOOP,      // starts again from the first key (the last key must equal the first)
    SCENE_PATH_PING_PONG, // plays backwards to the first key, then forwards again
} scene_path_loop;

// One key of a path: where the body is at `time`, relative to where its own fields place it.
typedef struct scene_path_key {
    double time;         // seconds, increasing from key to key
    tread_vec3 offset;   // metres: the body's origin moved from its placement
    tread_quat rotation; // turn about the body's origin (world axes), after the body's own rotation
    bool has_axis;       // the key gave "axis" and "degrees" (or no rotation at all, which fits any axis)
    bool has_rotation;   // the key gave a rotation
    tread_vec3 axis;     // has_axis and has_rotation: unit axis
    double angle;        // radians about axis, as given (more than a turn stays more than a turn)
} scene_path_key;

// How the turn goes from key i to key i + 1: `angle0` to `angle1` radians about `axis`, after `base`. Keys that
// both give the same axis (or no rotation) turn about it through their angles, whole turns included; any other
// pair turns the short way from one rotation to the other (spherical interpolation).
typedef struct scene_path_segment {
    tread_vec3 axis;  // unit (any unit vector when the segment does not turn)
    double angle0, angle1;
    tread_quat base;
} scene_path_segment;

typedef struct scene_path {
    scene_path_key *keys;         // owned; NULL: the body has no path
    scene_path_segment *segments; // owned; key_count - 1 of them
    int key_count;
    scene_path_loop loop;
    tread_transform placement;    // where the body's own fields place it: the keys move it from here
} scene_path;

// A dynamic body's physics, as the runner's own integrator does it (dynamics.c; docs/SCENES.md, "Dynamic bodies"):
// translation only, pushed by the impulses the characters' moves report, slowed by friction with what it rests on.
typedef struct scene_dynamic {
    float mass;     // kilograms, > 0
    float friction; // Coulomb coefficient against the floor, >= 0: slows a sliding body by friction * |gravity|
    bool gravity;   // falls with the scene's gravity and rests on what is below; false: keeps its height, as if
                    // resting on a floor
} scene_dynamic;

// One body: a ready-to-add definition plus the arrays its shape points into (owned by the scene).
typedef struct scene_body {
    char name[SCENE_NAME_MAX]; // optional, "" when not given
    tread_body_def def;        // def.layer is the index into scene.layers
    tread_vec3 *vertices;      // mesh
    uint32_t *indices;         // mesh
    float *heights;            // heightfield
    uint8_t *holes;            // heightfield (may stay NULL)
    uint8_t *cells;            // voxels
    tread_aabb silhouette;     // world bounds at the start, for plots
    scene_path path;           // kinematic: a keyframed path (path.keys != NULL), instead of def's constant velocities
    scene_dynamic dynamic;     // def.type == TREAD_BODY_DYNAMIC: its integrator's parameters
} scene_body;

// Does the body move, so that the trace records its transform every frame (kinematic, or dynamic)?
static inline bool scene_body_moves(const scene_body *b) {
    return b->def.type == TREAD_BODY_KINEMATIC || b->def.type == TREAD_BODY_DYNAMIC;
}

// Does the body's surface move on its own (a conveyor: a non-zero surface velocity, linear or angular)?
static inline bool scene_body_has_surface(const scene_body *b) {
    const tread_surface_velocity *v = &b->def.surface;
    return v->linear.x != 0.0f || v->linear.y != 0.0f || v->linear.z != 0.0f || v->angular.x != 0.0f || v->angular.y != 0.0f ||
           v->angular.z != 0.0f;
}

// Where a path puts its body at time t (seconds from the start of the run), as a world transform.
tread_transform scene_path_transform(const scene_path *path, double t);
// The velocities that take a body from `current` to where its path is at t_next in dt seconds (what the runner
// sets before each tread_world_advance, so that the advance lands on the path and the body's velocity is its motion
// over the frame): linear (m/s) and angular (rad/s about world axes).
void scene_path_velocity(const scene_path *path, tread_transform current, double t_next, float dt, tread_vec3 *out_linear,
                         tread_vec3 *out_angular);
// Turn a path (keys, segments, placement) by q, in place, as the runner's --up turns a scene.
void scene_path_rotate(scene_path *path, tread_quat q);

typedef enum scene_input_kind {
    SCENE_INPUT_IDLE,      // zero input
    SCENE_INPUT_DIRECTION, // walk along `direction` (horizontal part, normalized) at `speed`
    SCENE_INPUT_TOWARD,    // walk toward `target` (horizontally) at `speed`, stopping within speed * dt of it
} scene_input_kind;

// From time t on (until the next entry), this input holds.
typedef struct scene_input {
    float t;                 // seconds
    scene_input_kind kind;
    tread_vec3 direction;    // DIRECTION
    tread_vec3 target;       // TOWARD
    float speed;             // metres per second
    int jump;                // 1 = pressed at t, 0 = released at t, -1 = unchanged (acts with the movement model)
    int crouch;              // 1 / 0 / -1 likewise
} scene_input;

typedef struct scene_character {
    char name[SCENE_NAME_MAX];
    tread_character_settings settings;
    tread_vec3 start; // feet
    scene_input *inputs;
    int input_count;
    bool has_motor;              // "motor" given: driven through tread_motor_update instead of the course loop
    tread_motor_settings motor;  // defaults, gravity from the scene's gravity along -up, then the fields given
    int crowd;                   // index into scene.crowds of the crowd that made it; -1: listed in "characters"
} scene_character;

// A crowd: characters made by a generator (docs/SCENES.md, "Crowds") rather than listed one by one. They are
// scene.characters[first, first + count), named "<crowd>#<k>", after the listed ones.
typedef struct scene_crowd {
    char name[SCENE_NAME_MAX];
    int first, count;
} scene_crowd;

// A condition on one frame's state, for window edges and "reaches".
typedef enum scene_condition_kind {
    SCENE_COND_NONE,  // window edge absent: from the first frame / to the last
    SCENE_COND_TIME,  // t >= value
    SCENE_COND_ABOVE, // feet[axis] >= value
    SCENE_COND_BELOW, // feet[axis] <= value
} scene_condition_kind;

typedef struct scene_condition {
    scene_condition_kind kind;
    int axis; // 0 x, 1 y, 2 z (ABOVE/BELOW)
    float value;
} scene_condition;

// Frames a check looks at: from the first frame meeting `start` up to (not including) the first later frame
// meeting `end`; of those, only frames whose feet[where_axis] lies in [where_min, where_max] (and, for
// per-frame-pair measures, whose previous frame does too).
typedef struct scene_window {
    scene_condition start;
    scene_condition end;
    bool has_where;
    int where_axis;
    float where_min, where_max;
} scene_window;

typedef enum scene_check_kind {
    SCENE_CHECK_FINAL,            // final feet within per-axis ranges
    SCENE_CHECK_AT_TIME,          // feet at `time` within per-axis ranges
    SCENE_CHECK_REACHES,          // `condition` holds on some frame at or before `by` seconds
    SCENE_CHECK_MAX_RISE,         // largest per-frame rise along up <= max (grounded_only: frames ending grounded)
    SCENE_CHECK_MAX_DROP,         // largest per-frame drop along up <= max
    SCENE_CHECK_HEIGHT_RANGE,     // feet[axis] within [min, max] on every frame of the window (axis default y)
    SCENE_CHECK_GROUNDED_FRACTION,// fraction of window frames on walkable ground >= min
    SCENE_CHECK_SPEED_RANGE,      // every frame-pair speed (measure) within [min, max]
    SCENE_CHECK_MEAN_SPEED,       // mean frame-pair speed (measure) >= min (and <= max when given)
    SCENE_CHECK_DRIFT,            // distance between the window's first and last frame <= max
    SCENE_CHECK_COMES_TO_REST,    // every per-frame movement in the window <= max
    SCENE_CHECK_GROUND_STATE,     // ground state at `time` (or the window's last frame) == state
    SCENE_CHECK_ADVANCE,          // displacement along axis over the window >= min (<= max when given)
    SCENE_CHECK_NO_PENETRATION,   // penetration <= max every frame (spawned inside: never deeper, out within `within` s)
    SCENE_CHECK_AIRBORNE_FRAMES,  // number of window frames not on walkable ground within [min, max]
    SCENE_CHECK_RIDES,            // the feet stay within max of the point of `body` they were on at the window's start
    SCENE_CHECK_MAX_SINK,         // the feet never sink more than max below that point of `body`, along up
    SCENE_CHECK_CRUSHED_FRAMES,   // number of window frames whose move reported the character crushed within [min, max]
    // Of a group (a crowd, or every character; checks_world.c):
    SCENE_CHECK_MAX_OVERLAP,      // deepest overlap of a member with any other character <= max
    SCENE_CHECK_MAX_WALL_PENETRATION, // deepest overlap of a member with the world <= max
    SCENE_CHECK_ALL_FINITE,       // every member's state finite on every frame
    SCENE_CHECK_REACHED_FRACTION, // the fraction of members meeting `condition` on some frame by `by` within [min, max]
    SCENE_CHECK_MAX_FRAME_MOTION, // the farthest a member's feet moved in one frame <= max (a jump through a wall, a fall)
    SCENE_CHECK_STAYS_IN,         // no member's feet leave the box [box_min, box_max] on any window frame
    SCENE_CHECK_CRUSHED_FRACTION, // the fraction of members reported crushed on some window frame within [min, max]
    // Of one character and a sensor body (its entering and leaving, as the contact listener reported them):
    SCENE_CHECK_SENSOR_ENTERED,   // times entered in the window within [min, max]
    SCENE_CHECK_SENSOR_EXITED,    // times left in the window within [min, max]
    SCENE_CHECK_SENSOR_SEQUENCE,  // the window's enter and exit events are exactly `sequence`
    SCENE_CHECK_SENSOR_FRAMES,    // frames of the window the character was inside within [min, max]
    // Of a dynamic body:
    SCENE_CHECK_BODY_MOVED,       // the body's displacement along axis over the window within [min, max]
    SCENE_CHECK_BODY_AHEAD,       // on every window frame, the body's origin minus the character's feet along axis within [min, max]
} scene_check_kind;

// Is this check about a group of characters (a crowd, or all) rather than one?
static inline bool scene_check_is_group(scene_check_kind kind) {
    return kind == SCENE_CHECK_MAX_OVERLAP || kind == SCENE_CHECK_MAX_WALL_PENETRATION || kind == SCENE_CHECK_ALL_FINITE ||
           kind == SCENE_CHECK_REACHED_FRACTION || kind == SCENE_CHECK_MAX_FRAME_MOTION || kind == SCENE_CHECK_STAYS_IN ||
           kind == SCENE_CHECK_CRUSHED_FRACTION;
}

// Sensor events as checks and traces name them: the character entered (the listener's "added"), was still inside at
// a later frame ("persisted") or left ("removed").
typedef enum scene_event_kind { SCENE_EVENT_ENTERED, SCENE_EVENT_STAYED, SCENE_EVENT_EXITED } scene_event_kind;
#define SCENE_MAX_SEQUENCE 16

typedef enum scene_speed_measure {
    SCENE_SPEED_SURFACE,    // full 3D distance per frame / dt
    SCENE_SPEED_HORIZONTAL, // distance perpendicular to up
    SCENE_SPEED_AXIS,       // along `axis`
} scene_speed_measure;

typedef struct scene_range {
    bool has_min, has_max;
    float min, max;
} scene_range;

typedef struct scene_check {
    char name[SCENE_NAME_MAX];
    scene_check_kind kind;
    int character;            // index into scene.characters
    scene_window window;
    scene_range axes[3];      // FINAL, AT_TIME
    scene_range range;        // min/max for the other kinds
    float time;               // AT_TIME, GROUND_STATE (< 0: window's last frame)
    float by;                 // REACHES
    scene_condition condition;// REACHES
    bool grounded_only;       // MAX_RISE, MAX_DROP
    int axis;                 // HEIGHT_RANGE, ADVANCE, SPEED (AXIS)
    scene_speed_measure measure;
    tread_ground_state state; // GROUND_STATE
    float within;             // NO_PENETRATION for a character spawned inside: out within this many seconds
    int body;                 // RIDES, MAX_SINK (a kinematic body or a conveyor), SENSOR_* (a sensor), BODY_* (a dynamic
                              // body): index into scene.bodies
    int crowd;                // group checks: index into scene.crowds; -1: every character of the scene
    tread_vec3 box_min, box_max; // STAYS_IN
    scene_event_kind sequence[SCENE_MAX_SEQUENCE]; // SENSOR_SEQUENCE
    int sequence_length;
    char pending[SCENE_NAME_MAX * 2]; // non-empty: expected to fail until this is done (docs/SCENES.md, "Pending")
    bool key;                 // the metric the suite table shows for this scene
} scene_check;

// Which views a plot shows ("plot": {"view": ...} in the scene file).
typedef enum scene_plot_view {
    SCENE_PLOT_SIDE = 1,  // along the path, up vertical
    SCENE_PLOT_TOP = 2,   // looking down along -up
    SCENE_PLOT_FRONT = 4, // looking along the path: its cross-section (a trench, a corridor), up vertical
    SCENE_PLOT_BOTH = SCENE_PLOT_SIDE | SCENE_PLOT_TOP,
} scene_plot_view;

typedef struct scene {
    char path[512];
    char name[SCENE_NAME_MAX]; // "name" field, or the file's base name
    char description[256];
    float dt;                  // seconds; default 1/60
    float duration;            // seconds; required
    tread_vec3 gravity;        // m/s^2; default (0, -9.81, 0)
    tread_vec3 up;             // default (0, 1, 0); characters' settings.up defaults to it
    scene_layer *layers;       // layers[0] is "default" unless the file names layers
    int layer_count;
    scene_body *bodies;
    int body_count;
    scene_character *characters; // the listed ones, then every crowd's
    int character_count;
    scene_crowd *crowds;
    int crowd_count;
    bool slow;                 // `tread suite` skips it unless asked (--slow): too long for the test suite
    bool characters_collide;   // default true: every frame moves all characters with one tread_batch_move, as
                               // obstacles to each other (with a single character: its own move)
    scene_check *checks;
    int check_count;
    int plot_view; // scene_plot_view bits; default SCENE_PLOT_BOTH
    char pending_penetration[SCENE_NAME_MAX * 2]; // non-empty: the penetration invariant is expected to fail until
                                                  // this is done ("pending_penetration", docs/SCENES.md, "Pending")
} scene;

// Load and validate a scene file. On failure returns false, fills err, and leaves *out empty.
bool scene_load(const char *path, scene *out, scene_error *err);
// Same from a buffer already in memory (the fuzz target's entry); `path` only names it in messages.
bool scene_load_buffer(const char *path, const char *json, size_t length, scene *out, scene_error *err);
void scene_free(scene *s);
// The frames a run of `duration` s at `dt` s takes: round(duration / dt), at least 1. The loader compares it with
// SCENE_MAX_FRAMES and the runner runs it (with --set dt too), so both count the same frames. A double, so that a
// tiny dt cannot overflow it before the comparison.
double scene_frame_count(float duration, float dt);

// Is the work of `frames` frames of scene `s` (its bodies x its characters x frames) within SCENE_MAX_WORK? If not,
// false with a message naming the product and the cap ("65536 bodies x 1 characters x 216000 frames = 1.4e+10, over
// the cap of 1e+09 ..."). The loader checks the scene's own frames, the runner those of --set dt.
bool scene_work_within_cap(const scene *s, double frames, char *message, size_t size);

// Set one character setting by its field name (as in tread_character_settings, e.g. "max_step_height",
// "up", "shape", "keep_horizontal_speed"), from text as on the command line ("0.3", "1,0,0", "capsule",
// "true"). Used by the loader's "settings" object and by `tread run --set`. False + message on an unknown
// name or a malformed value.
bool scene_set_setting(tread_character_settings *settings, const char *name, const char *value, char *message, size_t size);
// The names scene_set_setting accepts, NULL-terminated (for help text and error messages).
const char *const *scene_setting_names(void);
// The same for tread_motor_settings ("max_speed", "jump_mode" = "height" | "strength_drag", ...).
bool scene_set_motor_setting(tread_motor_settings *motor, const char *name, const char *value, char *message, size_t size);
const char *const *scene_motor_setting_names(void);

// Does this file look like a scene (a JSON object with "bodies" or "characters")? False for other JSON
// files (package.json, tool configs) that share a folder with scenes; true for anything that is not valid
// JSON or cannot be read, so that a broken scene still fails loudly when loaded.
bool scene_file_is_scene(const char *path);

// ---- names (names.c) ----
// Step strategy names: "sweep", "contact", "cast_down", "riser". NULL-terminated list, name of a value
// (NULL when out of range), value of a name (false when unknown).
const char *const *scene_strategy_names(void);
const char *scene_strategy_name(tread_step_strategy strategy);
bool scene_strategy_from_name(const char *name, tread_step_strategy *out);
// Ground state names as in scene files and traces: "on_ground", "on_steep", "not_supported", "in_air".
const char *const *scene_ground_state_names(void);
const char *scene_ground_state_name(tread_ground_state state);


typedef struct run_frame {
    tread_vec3 feet;
    tread_vec3 velocity;
    tread_ground_state ground;
    float stepped;
    float camera;      // camera height along up: feet height plus the step-smoothing offset
    float penetration; // deepest overlap with the world at the end of the frame, metres (>= 0)
    float overlap;     // deepest overlap with another character at the end of the frame, metres (>= 0; overlap.c)
    float unburied;    // the move found the character buried and jumped it this far to a free spot (tread_move_result)
    bool finite;
    bool crushed;      // the move reported it crushed: a moving body pressed it against another (tread_move_result)
} run_frame;

// Another engine the characters move on instead of tread's world (`tread run --backend bullet`, docs/BACKENDS.md):
// it builds the scene's bodies into itself with the ids tread's world gave them, follows the bodies the world moved
// each frame, and answers the moves' queries through its tread_backend. tread's world is still built: it still drives
// paths and dynamic bodies and still measures penetration, the judge independent of the engine under test.
typedef struct run_engine {
    const char *name;
    // The scene's bodies (ids[i]: tread's world's id of body i) into a new engine; NULL with a message on failure.
    void *(*create)(const scene *s, const tread_body_id *ids, char *message, size_t size);
    // After each tread_world_advance: every moving body where `w` put it over the frame. False with a message.
    bool (*follow)(void *self, const scene *s, const tread_world *w, const tread_body_id *ids, char *message, size_t size);
    tread_backend (*backend)(void *self);
    void (*destroy)(void *self);
    // Why the engine cannot build the scene at all (a shape it has no counterpart for), or NULL when it can: `tread
    // suite` skips such a scene rather than failing it. NULL: the engine builds every scene.
    const char *(*cannot_build)(const scene *s);
} run_engine;

typedef struct run_options {
    const char *strategy;    // step strategy name, NULL = the scene's
    const char **sets;       // "field=value" overrides for every character's settings ("motor.field=value": its motor)
    int set_count;
    float dt;                // > 0 overrides the scene's dt
    bool progress;           // print a progress line on stderr for runs longer than a second
    bool rotate_up;          // run the whole scene rotated so its up becomes `up` (checks see it rotated back)
    tread_vec3 up;
    int characters_collide;  // 0: as the scene says; 1: on; -1: off (characters move one by one and pass through
                             // each other)
    const run_engine *engine; // NULL: the moves run on tread's world; else on this engine (the motor's own probes,
                              // crouching's headroom, still ask tread's world)
} run_options;

// The library call that failed and stopped a run (docs/SCENES.md, "A failed call stops the run").
typedef struct run_failure {
    bool failed;
    tread_result code;
    const char *call;  // the library function, e.g. "tread_character_move"
    int character;     // index into scene.characters
    int frame;         // the frame it failed in, 1-based as in traces; 0: at spawn, before the first frame
    float t;           // when that frame began, s
    char message[256]; // the library's tread_error_message()
} run_failure;

// A sensor event: in `frame` (0-based), character `character` entered or left sensor body `body` (scene.bodies index).
typedef struct run_event {
    int frame;
    int character;
    int body;
    scene_event_kind kind;
} run_event;

typedef struct run_trace {
    run_failure failure;        // failure.failed: the run stopped; frame_count counts the frames every character completed,
                                // and `final` holds the states at the stop; character -1: a call on the world
    int frame_count;            // frames per character
    int character_count;
    float dt;
    run_frame *frames;          // frames[c * frame_count + i] = character c at the end of frame i + 1; a live run
                                // (scene_run_begin with fewer frames than it runs) keeps frame i at i % frame_count
    float *initial_penetration; // per character, at spawn
    tread_character *final;     // per character, the state after the last frame
    int body_count;             // moving (kinematic and dynamic) bodies recorded (the scene's, in file order)
    int *body_index;            // per recorded body: its index in scene.bodies
    int *body_slot;             // per scene body: its recorded index, or -1 (static)
    run_event *events;          // sensor events in the order they came (frame, then character), when the scene has a
    int event_count;            // sensor; at most SCENE_MAX_EVENTS (events_dropped counts the rest)
    int events_dropped;
    bool batched;               // the characters moved together (tread_batch_move_with), as obstacles to each other
    double move_seconds;        // wall-clock time of the characters' moves over the run (the library calls only)
    double move_seconds_max;    // the slowest frame's
    double frame_seconds;       // of whole frames: the world, the moves, the runner's probes, dynamic bodies
    tread_transform *body_start;  // per recorded body, at spawn
    tread_transform *body_frames; // body_frames[k * frame_count + i] = recorded body k at the end of frame i + 1
} run_trace;

typedef struct check_result {
    char name[SCENE_NAME_MAX + 32];
    bool passed;
    double value;        // the measured metric
    char value_text[80]; // the metric with its label and unit: "max y 2.0020 m", "grounded 98.5%"
    char detail[320];    // every measurement and the expectation: "y in [2.0020, 2.0020] m over 109 frames, expected <= 2.02 m"
    bool key;
    bool pending;        // the check is marked "pending" and failed, as expected: it counts as passed (an expected
                         // failure); a pending check that passes fails, so the mark is removed when the work lands
} check_result;

// The course's frame loop (docs/COURSE.md) for character `character` of s in the frame from t to t + dt: its input's
// velocity perpendicular to up, and along up 0 on walkable ground (the move carries the character with the ground's
// motion), else `velocity`'s part plus gravity for one frame. What the runner gives a character without a motor;
// the peers benchmark (web/bench) gives other engines' characters the same.
tread_vec3 scene_course_velocity(const scene *s, int character, float t, float dt, tread_vec3 feet, tread_vec3 velocity, tread_vec3 up,
                                 bool on_ground);

// Simulate. False + message (bad --set value, body the world refused, ...) on failure.
bool run_scene(const scene *s, const run_options *options, run_trace *out, char *message, size_t size);

// A run frame by frame: run_scene runs one to its end; the WebAssembly build's viewer steps one live, for as long as
// a person plays, driving one character itself. Each frame is scene_run_advance (the world: bodies on paths, dynamic
// bodies, tread_world_advance), then scene_run_move (the characters' velocities and moves, the dynamic bodies'
// impulses). A failed library call stops the run: it is in trace->failure, and later frames do nothing.
typedef struct scene_run scene_run;
// Build the world and place the characters; `out` records `frames` frames (fewer than the run: the last ones) and
// `final` is the characters' live state. False + message on failure (nothing to end).
bool scene_run_begin(const scene *s, const run_options *options, int frames, run_trace *out, scene_run **run, char *message, size_t size);
// The world's side of the next frame. False + message when run_options::engine fails.
bool scene_run_advance(scene_run *run, char *message, size_t size);
// After scene_run_advance, for this frame only: character c moves at `velocity` instead of its scene input.
void scene_run_drive(scene_run *run, int character, tread_vec3 velocity);
// The characters' side of the frame scene_run_advance began.
void scene_run_move(scene_run *run);
void scene_run_end(scene_run *run); // the trace stays the caller's (run_trace_free)
tread_world *scene_run_world(scene_run *run);
tread_body_id scene_run_body_id(const scene_run *run, int body); // scene.bodies[body]'s id in the world
const tread_move_result *scene_run_results(const scene_run *run); // every character's last move
float scene_run_camera_offset(const scene_run *run, int character); // its step smoothing's offset, along up
int scene_run_frames_done(const scene_run *run);
void run_trace_free(run_trace *t);
static inline const run_frame *run_frame_at(const run_trace *t, int character, int frame) {
    return &t->frames[character * t->frame_count + frame];
}
// Recorded body k's transform at the end of frame `frame` (0-based); frame -1: at spawn.
static inline tread_transform run_body_at(const run_trace *t, int k, int frame) {
    return frame < 0 ? t->body_start[k] : t->body_frames[(size_t)k * (size_t)t->frame_count + (size_t)frame];
}

// Fingerprints of a run, FNV-1a 64 over float bits (little-endian): *characters over every frame's characters' feet
// and velocity (frame by frame, characters in order), *bodies over every frame's moving bodies' transforms (p, then
// q). per_frame (NULL, or frame_count entries) gets *characters' value after each frame. Equal hashes mean
// bit-identical runs: the web tests compare the WebAssembly build's with `tread run --json`'s.
void run_trace_hash(const run_trace *t, uint64_t *per_frame, uint64_t *characters, uint64_t *bodies);

// Evaluate the scene's checks plus the invariants every scene has (finite state; penetration <= 1 mm, or for a
// character spawned inside geometry: never deeper than at spawn and out within 1 s). A run stopped by a failed
// library call (t->failure) gives a failed result for the failure first, then the invariants over the frames that
// ran; its checks are not evaluated. Returns the number of results written (at most capacity).
int run_checks(const scene *s, const run_trace *t, check_result *results, int capacity);

// Write plots and traces.
bool plot_svg(const scene *s, const run_trace *t, const char *path, char *message, size_t size);
bool write_trace_csv(const scene *s, const run_trace *t, const char *path, char *message, size_t size);

// ---- the generated scene matrix (gen_families.c, matrix.c) ----
// Families "stairs", "slopes", "ledges", "steps", "lifts", "max_slope", and the composite ones of gen_composite.c:
// "curbs", "tilted_treads", "micro_steps", "angled_stairs"; shapes "capsule", "sphere", "box"; rates 30, 60, 120, 240 Hz
// (each list NULL- or 0-terminated). A case is (family, index, shape, rate); its name says all four.
extern const char *const gen_family_names[];
extern const char *const gen_shape_names[];
extern const int gen_rates[];
int gen_family_from_name(const char *name); // -1 when unknown
int gen_shape_from_name(const char *name);  // -1 when unknown
// Cases in a family (per shape and rate).
int gen_family_size(int family);
bool gen_case_name(int family, int index, int shape, int rate_hz, char *out, size_t size);
// The case's scene file as JSON text (malloc'd, *json; free it). False for an index out of range.
bool gen_case_text(int family, int index, int shape, int rate_hz, char *name, size_t name_size, char **json);
// Write DIR/<case name>.json for every case of the masked families and shapes at rate_hz (only: one name, or
// NULL for all). Returns the number of files written, or -1 with a message.
int gen_write(const char *dir, unsigned family_mask, unsigned shape_mask, int rate_hz, const char *only, char *message, size_t size);

typedef struct matrix_options {
    unsigned family_mask, strategy_mask, shape_mask, rate_mask; // bit i: gen_family_names[i], scene_strategy_names()[i], ...
    int up_count;              // 1: +Y only; 2: +Y and the tilted up vector
    long sample;               // > 0: run only this many runs, chosen by `seed` (the same every time)
    unsigned long long seed;
    int jobs;                  // worker processes (>= 1)
    bool invariants_fatal;     // exit 1 also when any strategy breaks an invariant (NaN, penetration, max rise)
    bool list;                 // print the case names and counts only
    bool failures;             // print every failing run (its name, the check that missed most, its value)
    const char *markdown;      // write the summary tables here (NULL: none)
    const char *known;         // a file of run labels (as --failures prints them) the default strategy is known to
                               // fail: they are reported but do not fail the run (NULL: none)
} matrix_options;
// Run the matrix; prints the counts, then per strategy and shape the totals and the failures by family. Returns
// 0, 1 (the default strategy, sweep, failed something; or an invariant broke with invariants_fatal) or 2.
int matrix_run(const matrix_options *options);

#endif
