// SPDX-License-Identifier: MIT
// Quake III levels (IBSP version 46, as OpenArena ships them in .pk3 archives) as collision for tread: what a
// player collides with in the game, turned into one triangle soup in metres, plus the spawn points, the places
// that kill, the jump pads and teleporters, the movers (doors, plats, buttons, trains, bobbing, rotating, pendulums)
// and the entities nothing here simulates (kept whole and counted as skipped).
//
// Axes: tread's +Y is up. A Quake point (x, y, z) (Z up, 32 units a metre) becomes (x, z, -y) / 32 metres: a
// rotation (it keeps the winding of every face), so a brush face's triangles keep their outward normals.
// The parts:
//   pk3.c       reading one entry of a .pk3 (a zip archive) through libzip
//   bsp.c       the IBSP header and the lumps the importer reads, every count, offset and index checked
//   brushes.c   the world's solid brushes as polygons (double precision), hidden faces dropped
//   patches.c   the solid Bezier patches tessellated to 16 units of flatness (the game's collision level)
//   entities.c  the entity lump: spawn points, hazards, named points, the skipped entities
//   triggers.c  jump pads and teleporters: each trigger's volume resolved against its target
//   movers.c    the movers: their brush model's faces in the model's own frame, and the timed motions
//               (func_bobbing, func_rotating, func_pendulum, func_train along its path corners)
//   movers_binary.c  doors, plats and buttons: their two positions, teams, the trigger boxes Quake spawns for
//               them, trigger_multiple volumes, and what each uses (targets through trigger_relay)
//   level.c     level_load, level_free, level_add_to_world
#ifndef LEVEL_H
#define LEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tread/tread.h>

// The package the tools read by default (Debian's openarena-081-maps).
#define LEVEL_DEFAULT_PK3 "/usr/share/games/openarena/baseoa/pak1-maps.pk3"
// Metres per Quake unit.
#define LEVEL_UNIT (1.0 / 32.0)

// Per-triangle flags (level::triangle_flags).
enum {
    LEVEL_TRI_PATCH = 1,      // from a Bezier patch: a surface with no inside (two-sided; its winding means nothing)
    LEVEL_TRI_PLAYERCLIP = 2, // from a brush that is only player clip (invisible in the game)
    LEVEL_TRI_NODRAW = 4,     // from a brush side the game does not draw (still collision)
};

// Where a player appears: info_player_deathmatch or info_player_start.
typedef struct level_spawn {
    double origin[3];        // the entity's origin, metres (tread axes)
    double feet[3];          // where the walker puts the feet: the origin lifted 9 units (as the game spawns) less the
                             // 24 units from the player's origin to its feet
    double angle_degrees;    // yaw in Quake's convention (0 = +x), degrees
    bool deathmatch;         // info_player_deathmatch (else info_player_start)
} level_spawn;

// A volume that kills on entry: a trigger_hurt's brush model bounds, or a lava or slime brush's bounds.
typedef enum level_hazard_kind { LEVEL_HAZARD_TRIGGER_HURT, LEVEL_HAZARD_LAVA, LEVEL_HAZARD_SLIME } level_hazard_kind;

typedef struct level_hazard {
    level_hazard_kind kind;
    double lo[3], hi[3];     // bounds, metres (tread axes)
} level_hazard;

typedef struct level_key_value {
    char *key, *value;
} level_key_value;

// An entity the walker does not simulate yet, kept whole for a later step.
typedef struct level_entity {
    char classname[64];
    int model;               // its brush model's index ("*N"), -1 for none
    double lo[3], hi[3];     // that model's bounds, metres (tread axes); zero without a model
    bool simulated;          // run after all (a jump pad or teleporter resolved by triggers.c, or its target): not
                             // counted in skip_counts
    level_key_value *pairs;  // every key and value, as in the file
    int pair_count;
} level_entity;

// How many of each skipped class the level has.
typedef struct level_skip_count {
    char classname[64];
    int count;
} level_skip_count;

// An entity with a "targetname" and an "origin": what a trigger's "target" may name (Quake's G_PickTarget).
typedef struct level_target {
    char name[64];
    char classname[64];
    double origin[3];        // metres, tread axes
    double angle_degrees;    // its "angle" (yaw, Quake's convention), 0 without one
} level_target;

// Quake III's g_gravity (units/s^2): what a jump pad's launch is aimed with. The walker's motor falls at the same
// 25 m/s^2.
#define LEVEL_GRAVITY 800.0

typedef enum level_trigger_kind { LEVEL_TRIGGER_PUSH, LEVEL_TRIGGER_TELEPORT } level_trigger_kind;

// A jump pad (trigger_push) or teleporter (trigger_teleport) whose target was found: its brush model's bounds
// are the volume a character touches.
typedef struct level_trigger {
    level_trigger_kind kind;
    double lo[3], hi[3];     // the trigger's brush model bounds, metres (tread axes)
    double target[3];        // the target's origin, metres
    double launch[3];        // PUSH: the velocity that puts the flight's apex at the target (Quake's AimAtTarget), m/s
    double feet[3];          // TELEPORT: where the feet go (the destination's origin lifted 1 unit, less 24 to the feet)
    double exit[3];          // TELEPORT: the velocity out of the destination (400 units/s along its angle), m/s
} level_trigger;

typedef enum level_mover_kind {
    LEVEL_MOVER_BOBBING,     // func_bobbing: a sine along an axis
    LEVEL_MOVER_ROTATING,    // func_rotating: a constant turn
    LEVEL_MOVER_PENDULUM,    // func_pendulum: a sine swing about its origin
    LEVEL_MOVER_TRAIN,       // func_train: around its path corners
    LEVEL_MOVER_DOOR,        // func_door: pos1 to pos2 when used (its trigger box, a button, a trigger), back after wait
    LEVEL_MOVER_PLAT,        // func_plat: rests at the bottom (pos1), rises when stood on, back after 1 s
    LEVEL_MOVER_BUTTON,      // func_button: pressed in when touched, uses its targets, back after wait
    LEVEL_MOVER_KIND_COUNT
} level_mover_kind;

extern const char *const level_mover_kind_names[LEVEL_MOVER_KIND_COUNT];

// A binary mover (door, plat, button): Quake's two positions and the moves between them.
static inline bool level_mover_is_binary(level_mover_kind kind) {
    return kind == LEVEL_MOVER_DOOR || kind == LEVEL_MOVER_PLAT || kind == LEVEL_MOVER_BUTTON;
}

// A train's stop: a path_corner.
typedef struct level_path_point {
    double position[3];      // where the model's frame goes, metres (tread axes)
    double wait;             // seconds the train stands there before leaving
    double speed;            // m/s of the leg leaving it
} level_path_point;

// A mover: its brush model's solid faces (clipped as the world's, patches not included) in the model's own frame,
// which the entity's origin places, and its motion (movers.c and movers_binary.c give Quake's rules).
typedef struct level_mover {
    level_mover_kind kind;
    int entity;              // its index in level::skipped
    double origin[3];        // where the model's frame sits at spawn, metres (tread axes)
    double lo[3], hi[3];     // the model's bounds in its own frame, metres (the models lump's)
    float *vertices;         // 3 per vertex, metres, tread axes, the model's frame
    int vertex_count;
    uint32_t *indices;       // 3 per triangle, wound as the world's (outward)
    int triangle_count;
    double axis[3];          // unit: BOBBING the line it moves along, ROTATING and PENDULUM the axis it turns about
    double amplitude;        // BOBBING: metres ("height", default 32 units); PENDULUM: radians ("speed" degrees, 30)
    double period;           // BOBBING, PENDULUM: seconds a cycle
    double phase;            // BOBBING, PENDULUM: the cycle's fraction at time 0 ("phase")
    double angular_speed;    // ROTATING: radians per second about axis ("speed" degrees/s, default 100)
    double rest[4];          // PENDULUM: the rotation it swings from (its "angle" as a yaw), quaternion x, y, z, w
    level_path_point *path;  // TRAIN: its corners in order, from the one it starts at (none: it stands at origin)
    int path_count;
    double lap;              // TRAIN: seconds around the path (waits and legs)
    // DOOR, PLAT, BUTTON: Quake's pos1 (where it rests; a plat's bottom) and pos2 (open, raised, pressed), the model
    // frame's place at each, metres.
    double pos1[3], pos2[3];
    double speed;            // m/s between them
    double duration;         // seconds from one to the other (at least 1 ms)
    double wait;             // seconds at pos2 before returning; negative: it stays
    bool crusher;            // DOOR, PLAT: spawnflags 4, goes on when blocked (else it reverses)
    bool touch;              // BUTTON: pressed by touch (one with "health" is shot, which the walker never does)
    int master;              // the team's first member (level::movers index; itself without a "team")
    int *uses;               // the movers (level::movers indices) it uses on reaching pos2: its "target" through relays
    int use_count;
} level_mover;

typedef enum level_mover_trigger_kind {
    LEVEL_MOVER_TRIGGER_DOOR,     // the box Quake spawns around a door (team) with no targetname and no health
    LEVEL_MOVER_TRIGGER_PLAT,     // the box Quake spawns just above a plat's bottom (a plat with no targetname)
    LEVEL_MOVER_TRIGGER_MULTIPLE, // a trigger_multiple whose targets reach movers
} level_mover_trigger_kind;

// A volume that opens movers when a character's bounds overlap it.
typedef struct level_mover_trigger {
    level_mover_trigger_kind kind;
    double lo[3], hi[3];     // metres (tread axes)
    int mover;               // DOOR, PLAT: the mover it opens
    double wait;             // MULTIPLE: seconds before it fires again ("wait", default 0.5); <= 0: once
    int *uses;               // MULTIPLE: the movers its targets (through relays) name
    int use_count;
    int entity;              // MULTIPLE: its index in level::skipped; else -1
} level_mover_trigger;

typedef struct level {
    char name[64];               // the map's name ("oa_dm1")
    float *vertices;             // 3 per vertex, metres, tread axes
    int vertex_count;
    uint32_t *indices;           // 3 per triangle; a brush face's triangles wind counter-clockwise seen from its outside
    int triangle_count;
    uint8_t *triangle_flags;     // LEVEL_TRI_* per triangle
    int brush_triangles, patch_triangles;
    int solid_brushes, faces_kept, faces_hidden, faces_degenerate, patches;
    double lo[3], hi[3];         // the world model's bounds, metres (tread axes)
    level_spawn *spawns;
    int spawn_count;
    level_hazard *hazards;
    int hazard_count;
    level_entity *skipped;       // movers, jump pads, teleporters (the ones simulated after all are marked)
    int skipped_count;
    level_target *targets;       // every entity with a targetname and an origin
    int target_count;
    level_trigger *triggers;     // the jump pads and teleporters the walker runs
    int trigger_count;
    level_mover *movers;         // the movers described (marked simulated; the walker runs them with --movers)
    int mover_count;
    int mover_kind_counts[LEVEL_MOVER_KIND_COUNT];
    level_mover_trigger *mover_triggers; // the volumes that open doors, plats (and what triggers name)
    int mover_trigger_count;
    level_skip_count *skip_counts; // by classname, in the order first met, not counting the simulated ones
    int skip_class_count;
} level;

// Load map `map_name` ("oa_dm1", or "maps/oa_dm1.bsp") from the .pk3 at `path`, or the plain .bsp file at `path`
// (map_name may then be NULL). False with a message naming what was wrong (the file, the lump, the index) in err;
// *out is then empty (level_free is still safe).
bool level_load(const char *path, const char *map_name, level *out, char *err, size_t errsize);
// The same from a .bsp already in memory (`name` for messages).
bool level_load_bsp_memory(const uint8_t *data, size_t size, const char *name, level *out, char *err, size_t errsize);
void level_free(level *lv);

// The names of the maps in a .pk3 (maps/*.bsp without folder and extension), sorted; NULL with a message on error.
// Free with level_free_names.
char **level_list_maps(const char *pk3_path, int *out_count, char *err, size_t errsize);
void level_free_names(char **names, int count);

// Add the level's triangles to `world` as static mesh bodies on `layer` (one body, or several when one mesh would
// pass the library's limits). The ids go to out_ids (capacity entries), their number to *out_count. False with
// tread's message on error.
// The launch velocity (m/s, tread axes) of a jump pad whose volume is centred at `centre` aimed at `target`
// (metres, tread axes), as Quake's AimAtTarget: the flight's apex is the target, under gravity `gravity` m/s^2.
// False when the target is not above the centre (Quake then removes the pad).
bool level_jump_pad_launch(const double centre[3], const double target[3], double gravity, double out[3]);

// A mover's place at time t seconds (Quake's TR_SINE for bobbing: origin + axis amplitude sin(2 pi (t / period -
// phase)); a constant turn for rotating; the swing amplitude sin(2 pi (t / period - phase)) after the rest rotation
// for a pendulum; around the path for a train): the model frame's position (metres) and rotation (unit quaternion
// x, y, z, w). A door, plat or button is used, not timed: this gives pos1, where it rests.
void level_mover_at(const level_mover *m, double t, double position[3], double rotation[4]);
// A binary mover's place `fraction` (0 pos1 .. 1 pos2) of the way.
void level_mover_between(const level_mover *m, double fraction, double position[3]);

bool level_add_to_world(const level *lv, tread_world *world, uint32_t layer, tread_body_id *out_ids, int capacity, int *out_count, char *err,
                        size_t errsize);

#endif
