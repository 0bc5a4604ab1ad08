// SPDX-License-Identifier: MIT
// Private to the scene matrix generator of tools/scene/: gen.c builds scene files as cJSON trees,
// gen_families.c makes the cases of each family from those pieces (and expectations from the character's
// settings; the lifts in gen_lifts.c, the composite families in gen_composite.c), matrix.c runs them. Layering:
// matrix.c -> gen_families.c -> gen_composite.c, gen_lifts.c -> gen.c.
#ifndef TREAD_GEN_INTERNAL_H
#define TREAD_GEN_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "tread_scene.h"

#define GEN_PI 3.14159265358979323846
#define GEN_MAX_BOXES 64

// The course character (docs/COURSE.md) every expectation is computed from, and the walk.
#define GEN_RADIUS 0.3     // m (box: half width)
#define GEN_HEIGHT 1.8     // m
#define GEN_MAX_STEP 0.4   // m
#define GEN_MAX_SLOPE 45.0 // degrees, inclusive within TREAD_SLOPE_TOLERANCE_DEGREES
#define GEN_MIN_DEPTH 0.1  // m: min_step_depth
#define GEN_STEP_DOWN 0.5  // m: step_down_distance
#define GEN_SKIN 0.002     // m
#define GEN_SPEED 4.0      // m/s: the walk
// Walkable ground: up to max slope plus the library's one slope tolerance; steep from max slope plus twice it.
#define GEN_WALKABLE_DEGREES (GEN_MAX_SLOPE + (double)TREAD_SLOPE_TOLERANCE_DEGREES)
#define GEN_STEEP_DEGREES (GEN_MAX_SLOPE + 2.0 * (double)TREAD_SLOPE_TOLERANCE_DEGREES)

// An oriented box: centre, half extents, turned by `degrees` about the unit `axis`.
typedef struct gen_obox {
    double center[3], half[3], axis[3], degrees;
} gen_obox;

typedef struct gen_boxes {
    gen_obox items[GEN_MAX_BOXES];
    int count;
} gen_boxes;

// ---- gen.c ----
// A scene with the course's shared floor, empty character and expectation lists.
cJSON *gen_scene_new(const char *name, const char *description, double dt, double duration);
void gen_box_minmax(cJSON *s, const char *name, const double lo[3], const double hi[3]);
void gen_boxes_add(gen_boxes *list, const double center[3], const double half[3], const double axis[3], double degrees);
void gen_boxes_add_minmax(gen_boxes *list, const double lo[3], const double hi[3]);
// As box bodies named prefix0, prefix1, ... or as one triangle mesh (12 triangles per box) named prefix.
void gen_boxes_emit(cJSON *s, const gen_boxes *list, const char *prefix, bool as_mesh);
// A box by centre and half extents that moves along `keys` path keys (times in s, offsets from the centre in m;
// loop "once", "loop" or "ping_pong"; docs/SCENES.md "Body motion").
void gen_box_path(cJSON *s, const char *name, const double center[3], const double half[3], const double *times, const double (*offsets)[3],
                  int keys, const char *loop);
void gen_ramp(cJSON *s, const char *name, const double foot[3], double degrees, double rise, double width, double thickness);
void gen_heightfield(cJSON *s, const char *name, const double origin[3], double sx, double sz, const double *heights, int count_x, int count_z);
// solid[(j * nz + k) * nx + i] != 0: cell (i, j, k) is solid.
void gen_voxels(cJSON *s, const char *name, const double origin[3], double cell, int nx, int ny, int nz, const unsigned char *solid);
// The one character ("walker"), default settings but its shape; returns it for the input helpers.
cJSON *gen_character(cJSON *s, const char *shape, const double start[3]);
void gen_input_direction(cJSON *c, double t, double dx, double dz, double speed);
void gen_input_toward(cJSON *c, double t, const double target[3], double speed);
void gen_input_idle(cJSON *c, double t);
// Expectations (NAN leaves a bound out).
cJSON *gen_check(cJSON *s, const char *type, const char *name);
void gen_check_min_max(cJSON *k, double lo, double hi);
void gen_check_final(cJSON *s, const char *name, int axis, double lo, double hi);
cJSON *gen_check_height(cJSON *s, const char *name, int axis, double lo, double hi);
void gen_check_max_rise(cJSON *s, double max);
// A rider check ("rides" or "max_sink") against the body named `body`, with its max in metres.
cJSON *gen_check_on_body(cJSON *s, const char *type, const char *name, const char *body, double max);
void gen_window_where(cJSON *k, int axis, double lo, double hi);
void gen_window_start_time(cJSON *k, double t);

// ---- gen_lifts.c ----
// The lift family: cases 0 .. gen_lift_count() - 1, named and built as gen_families.c's families are.
int gen_lift_count(void);
bool gen_lift_name(int index, char *out, size_t size);
// max_rise: the family-wide per-frame rise check's bound for this shape (gen_families.c).
cJSON *gen_lift_build(int index, const char *shape, int rate_hz, const char *name, double max_rise);

// ---- gen_composite.c ----
// The composite families (issue 26): "curbs" (steps whose top or approach is sloped), "tilted_treads",
// "micro_steps" and "angled_stairs", numbered GEN_COMPOSITE_* and named and built as gen_families.c's families are.
enum { GEN_COMPOSITE_CURBS, GEN_COMPOSITE_TILTED_TREADS, GEN_COMPOSITE_MICRO_STEPS, GEN_COMPOSITE_ANGLED_STAIRS, GEN_COMPOSITE_FAMILIES };
int gen_composite_size(int composite);
bool gen_composite_name(int composite, int index, char *out, size_t size);
// max_rise: the family-wide per-frame rise check's bound for this shape (gen_families.c).
cJSON *gen_composite_build(int composite, int index, int shape, int rate_hz, const char *name, double max_rise);

// ---- gen_families.c ----
// Cases of one family are numbered 0 .. gen_family_size() - 1; a case is (family, index, shape, rate).
int gen_family_size(int family);
bool gen_case_name(int family, int index, int shape, int rate_hz, char *out, size_t size);
cJSON *gen_case_build(int family, int index, int shape, int rate_hz); // NULL when out of range

#endif
