// SPDX-License-Identifier: MIT
// Private to tools/scene/: the loader state every parsing file shares, the JSON reading helpers of
// json_read.c, and the entry points each parsing file offers the ones above it (see tread_scene.h's file list).
#ifndef TREAD_SCENE_INTERNAL_H
#define TREAD_SCENE_INTERNAL_H

#include "scene_json.h"
#include <stdint.h>

#include "tread_scene.h"

#define JP 192                     // longest JSON path kept in a message
#define SCENE_PI 3.14159265358979323846
#define MAX_LAYERS TREAD_MAX_LAYERS

typedef struct loader {
    const char *file;  // the scene's path, as given, for messages
    char dir[512];     // its directory with a trailing '/', or "" (mesh files are relative to it)
    scene_error *err;
    bool failed;
    scene *s;
} loader;

// ---- json_read.c ----
enum { OPEN_LO = 1, OPEN_HI = 2 }; // range bounds that are excluded
extern const char *const js_axis_names[]; // "x", "y", "z", NULL

const char *js_quote(char *out, size_t size, const char *text);
void js_append(char *out, size_t size, const char *text);
bool js_fail(loader *L, const char *jp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
const char *js_jp_key(char *out, const char *parent, const char *key);
const char *js_jp_index(char *out, const char *parent, int index);
const char *js_type_name(const scene_json *j);
const scene_json *js_member(const scene_json *obj, const char *key);
bool js_expect_object(loader *L, const scene_json *j, const char *jp);
bool js_expect_array(loader *L, const scene_json *j, const char *jp);
bool js_check_fields(loader *L, const scene_json *obj, const char *jp, const char *const *allowed);
bool js_need_field(loader *L, const scene_json *obj, const char *jp, const char *key, const scene_json **out);
bool js_read_double(loader *L, const scene_json *j, const char *jp, double *out);
bool js_read_float(loader *L, const scene_json *j, const char *jp, float *out);
bool js_in_range(double v, double lo, double hi, int open);
bool js_range_fail(loader *L, const char *jp, double v, double lo, double hi, int open);
bool js_read_float_in(loader *L, const scene_json *j, const char *jp, float *out, double lo, double hi, int open);
bool js_read_integer(loader *L, const scene_json *j, const char *jp, double lo, double hi, int64_t *out);
bool js_read_vec3(loader *L, const scene_json *j, const char *jp, tread_vec3 *out);
bool js_read_bool(loader *L, const scene_json *j, const char *jp, bool *out);
bool js_read_string(loader *L, const scene_json *j, const char *jp, char *out, size_t size);
bool js_read_enum(loader *L, const scene_json *j, const char *jp, const char *const *names, int *out);
bool js_field_float(loader *L, const scene_json *obj, const char *jp, const char *key, bool need, float *out, double lo, double hi, int open);
bool js_field_vec3(loader *L, const scene_json *obj, const char *jp, const char *key, bool need, tread_vec3 *out);
bool js_field_bool(loader *L, const scene_json *obj, const char *jp, const char *key, bool *out);
bool js_field_string(loader *L, const scene_json *obj, const char *jp, const char *key, bool need, char *out, size_t size);
bool js_field_enum(loader *L, const scene_json *obj, const char *jp, const char *key, bool need, const char *const *names, int *out);
void *js_alloc_array(loader *L, const char *jp, size_t count, size_t size);
int js_find_layer(const scene *s, const char *name);
// Fails, naming the string's JSON path, when a string of the parsed text[0, length) holds the escape \u0000.
bool js_check_no_nul(loader *L, const scene_json *root, const char *text, size_t length);
bool js_read_layer_ref(loader *L, const scene_json *j, const char *jp, int *out);
// A rotation as given: an axis and an angle (has_axis), or not (a quaternion).
typedef struct js_axis_angle {
    bool has_axis;
    tread_vec3 axis; // unit
    double radians;
} js_axis_angle;
// {"axis": vec3, "degrees": a} or {"quaternion": [x, y, z, w]} into a unit quaternion; axis_angle (may be NULL)
// keeps an axis-and-degrees rotation as given.
bool js_read_rotation(loader *L, const scene_json *j, const char *jp, tread_quat *out, js_axis_angle *axis_angle);

// ---- names.c (internal tables) ----
// The one of `names` (NULL-terminated) a misspelt `typo` most likely meant: the nearest by edits (a letter inserted,
// dropped, changed, or two neighbours swapped), when at most a third of its letters (rounded up) are off and no
// other name is as near; NULL otherwise. For "did you mean" in the loader's messages.
const char *scene_nearest_name(const char *typo, const char *const *names);
extern const char *const scene_shape_names[]; // "capsule", "sphere", "box", NULL
extern const tread_query_shape_type scene_shape_values[];
extern const char *const scene_jump_mode_names[]; // "height", "strength_drag", NULL
extern const tread_jump_mode scene_jump_mode_values[];
extern const char *const scene_leave_ground_names[]; // "add_velocity", "add_upward_velocity", "do_nothing", NULL
extern const tread_leave_ground scene_leave_ground_values[];

// ---- settings_table.c ----
bool scene_read_settings(loader *L, const scene_json *j, const char *jp, tread_character_settings *s);
// Fields by name, then validated by the library (tread_motor_update on `probe` reports what it refuses).
bool scene_read_motor(loader *L, const scene_json *j, const char *jp, const tread_character *probe, tread_motor_settings *m);

// ---- motion.c ----
// A body's "kinematic" object: constant velocities, or a keyframed path (docs/SCENES.md). Called after the body's
// own fields placed it (b->def.transform); a path moves that placement to where the path is at t = 0.
bool scene_parse_kinematic(loader *L, const scene_json *j, const char *jp, scene_body *b);
// A body's "surface" object: its surface velocity (a conveyor), body-local, into b->def.surface.
bool scene_parse_surface(loader *L, const scene_json *j, const char *jp, scene_body *b);

// ---- mesh_file.c (native; web/wasm/scene_glue.c refuses mesh files) ----
// A mesh body's triangles, from inline arrays (geometry.c) or a file.
typedef struct mesh_build {
    tread_vec3 *vertices;
    uint32_t *indices;
    size_t vertex_count, triangle_count;
} mesh_build;
// The mesh file `file` (relative to the scene's directory) into *mb; fails naming jp.
bool scene_load_mesh_file(loader *L, const char *file, const char *jp, mesh_build *mb);

// ---- geometry.c ----
bool scene_parse_layers(loader *L, const scene_json *root);
bool scene_parse_bodies(loader *L, const scene_json *root);

// ---- characters.c ----
bool scene_parse_characters(loader *L, const scene_json *root);
// The character settings of `obj` (the object at jp that may hold "settings"): the library's defaults with the
// scene's up, the fields given, then validated by tread_character_init into *probe with the feet at `start` (a start
// the library refuses is named by the path of obj's `start_key`, anything else by the settings' path).
bool scene_read_character_settings(loader *L, const scene_json *obj, const char *jp, tread_vec3 start, const char *start_key,
                                   tread_character_settings *out, tread_character *probe);
// What the library is asked about input speeds: an empty world and the character standing at its origin (a start
// near the coordinate limit must not be blamed on the speed).
typedef struct speed_probe {
    const tread_world *empty;
    tread_character at_origin;
} speed_probe;
bool scene_speed_probe(loader *L, const char *jp, const tread_world *empty, const tread_character_settings *settings, speed_probe *out);
// A walking speed (along the horizontal unit `along`) as tread_character_move judges it; fails naming jp.
bool scene_check_speed(loader *L, const char *jp, const speed_probe *probe, tread_vec3 along, float speed);

// ---- crowds.c ----
// "crowds": each crowd's characters appended to scene.characters (after the listed ones), with their timelines.
bool scene_parse_crowds(loader *L, const scene_json *root);

// ---- dynamics.c ----
// A body's "dynamic" object: makes it TREAD_BODY_DYNAMIC with the integrator's parameters (its shape must be one
// the integrator can sweep: an unrotated box, a sphere or an upright capsule).
bool scene_parse_dynamic(loader *L, const scene_json *j, const char *jp, scene_body *b);

// ---- checks_parse.c ----
bool scene_parse_checks(loader *L, const scene_json *root);
bool scene_parse_plot(loader *L, const scene_json *root);

#endif
