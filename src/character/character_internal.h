// Private interface between the controller's phases. Each phase is one file:
//   planes.c (pure plane solver) · slide.c (collide and slide) · ground.c (ground probe and classification)
//   step_sweep.c (step up: up, forward, down) · snap.c (stick to floor) · recover.c (penetration recovery)
//   character.c (settings, validation, the public phases and the reference move) · smoothing.c (camera)
#ifndef TREAD_CHARACTER_INTERNAL_H
#define TREAD_CHARACTER_INTERNAL_H

#include "../core.h"

// ---- named tolerances ------------------------------------------------------------------------------------
// Displacements shorter than this are not cast (metres).
#define TR_MIN_MOVE 1.0e-6f
// A step must lift at least this much to count (metres); less is a seam, ridden over by the slide.
#define TR_MIN_STEP_RISE 1.0e-4f
// Slack on the max-step limit for float rounding (metres). The limit stays a hard guarantee to within this.
#define TR_STEP_HEIGHT_SLACK 1.0e-4f
// Planes whose normals agree to within this cosine are one plane for the solver.
#define TR_SAME_PLANE_COS 0.9999f
// Penetration shallower than this is left to the skin (metres): below float noise at 1 km.
#define TR_PENETRATION_SLOP 1.0e-5f
// Fastest speed a move accepts (metres per second): far beyond any game's characters; bounds casts.
#define TR_MAX_SPEED 1000.0f
#define TR_MAX_PLANES 8
// The caller moves away from the ground (a jump) only faster than this along up (metres per second): a
// horizontal input under a tilted up carries rounding-level components that are not jumps.
#define TR_SEPARATING_SPEED 1.0e-3f

// ---- geometry of the character --------------------------------------------------------------------------
// Distance from the feet to the shape's centre along up.
float tr_character_center_height(const tread_character_settings *s);
tread_vec3 tr_character_center(const tread_character *ch, tread_vec3 feet);
// The query shape, grown by `extra` metres of radius (the skin).
tread_query_shape tr_character_query_shape(const tread_character *ch, float extra);

// ---- planes.c ------------------------------------------------------------------------------------------------
// The part of `motion` that moves into none of the planes (unit normals; moving along or away is free):
// one plane projects onto it, two project onto their crease, three or more that cannot all be satisfied stop.
tread_vec3 tr_solve_planes(tread_vec3 motion, const tread_vec3 *normals, int count);
// Turn a motion along a walkable ground plane, keeping its horizontal direction. The length is the motion's
// (speed along the surface is kept) or, with keep_horizontal, its horizontal part is kept.
tread_vec3 tr_align_to_ground(tread_vec3 motion, tread_vec3 up, tread_vec3 ground_normal, bool keep_horizontal);

// ---- slide.c -------------------------------------------------------------------------------------------------
typedef enum tr_slide_mode {
    TR_SLIDE_AIR,          // every surface is what it is
    TR_SLIDE_GROUNDED,     // steep or high surfaces are walls (no height gained); low walkable ones are ridden
    TR_SLIDE_STEP_FORWARD, // the stairs' forward sweep: every surface is a vertical wall
} tr_slide_mode;

typedef struct tr_slide_result {
    tread_vec3 feet;          // where the slide ended
    tread_vec3 planes[TR_MAX_PLANES]; // the planes it met (as the solver used them)
    int plane_count;
    bool blocked;             // grounded: a wall stopped part of the motion (a step candidate)
    tread_vec3 blocked_feet;  // where the first wall was met
    tread_vec3 blocked_motion; // the horizontal motion still to do there
} tr_slide_result;

void tr_slide(const tread_world *w, const tread_character *ch, tread_vec3 feet, tread_vec3 motion, tr_slide_mode mode,
              tread_move_result *res, tr_slide_result *out);
// Remember a touched surface in the move's result (deduplicated by body and feature).
void tr_record_contact(tread_move_result *res, const tread_shape_hit *hit);

// ---- ground.c ------------------------------------------------------------------------------------------------
// Classify what holds the character at `feet` (probe of skin + ground_probe_distance below the shape).
void tr_classify_ground(const tread_world *w, const tread_character *ch, tread_vec3 feet, tread_ground *ground);
bool tr_is_walkable(const tread_character *ch, tread_vec3 normal);
// Walkable on that body's layer (per-layer walkable angles, seed 004's steeper stairs layer).
bool tr_is_walkable_on(const tread_world *w, const tread_character *ch, tread_body_id body, tread_vec3 normal);
// Hits this close to the nearest one (metres) compete to be the support.
#define TR_GROUND_TIE 1.0e-3f
// Hits kept by a downward probe.
#define TR_GROUND_HITS 8
// Every surface a downward cast of `distance` meets (sorted by fraction), at most `capacity`.
int tr_probe_down(const tread_world *w, const tread_character *ch, tread_vec3 feet, float distance, tread_shape_hit *hits, int capacity);
// The hit that supports: walkable face, contact below the shape, about as near as the nearest hit, most
// level. -1 when none.
int tr_pick_support(const tread_world *w, const tread_character *ch, const tread_shape_hit *hits, int count, float distance);

// ---- step_sweep.c ------------------------------------------------------------------------------------------
// Try to climb from `feet` by `motion` (horizontal): sweep up by max step, forward, and down. On success
// writes the landing feet and the rise and returns true.
bool tr_step_sweep(const tread_world *w, const tread_character *ch, tread_vec3 feet, tread_vec3 motion,
                   tread_move_result *res, tread_vec3 *out_feet, float *out_rise);

// ---- snap.c --------------------------------------------------------------------------------------------------
// Cast down by up to `distance` onto walkable ground; returns the distance lowered (0 when none).
float tr_snap_down(const tread_world *w, const tread_character *ch, tread_vec3 *feet, float distance);

// ---- recover.c ------------------------------------------------------------------------------------------------
// Push the shape out of anything it penetrates, at most recovery_speed * dt this frame. Returns the push.
tread_vec3 tr_recover(const tread_world *w, const tread_character *ch, tread_vec3 feet, float dt);
// The shape at `feet` overlaps nothing deeper than `allowance` metres: the body fits there (stepping onto a
// tread under a ceiling, seed 000's "player too wide", crouching back up).
bool tr_fits(const tread_world *w, const tread_character *ch, tread_vec3 feet, float allowance);

// ---- the other stepping strategies (one file each; the sweep is step_sweep.c) --------------------------------
// Seed 000: step from the contacts met while sliding. Reads res->contacts, res->previous_ground, blocked_*.
bool tr_step_contact(const tread_world *w, const tread_character *ch, tread_move_result *res, tread_vec3 *out_feet,
                     float *out_rise);
// Seed 002: cast down from the target raised by max step.
bool tr_step_cast_down(const tread_world *w, const tread_character *ch, tread_move_result *res, tread_vec3 *out_feet,
                       float *out_rise);
// Seed 003: true while the riser volume is in the ground (it holds the body); lifts *feet by the binary-searched
// rise for this frame's motion and writes the support into *ground.
bool tr_riser_hold(const tread_world *w, const tread_character *ch, tread_vec3 *feet, tread_vec3 motion, float dt,
                   float *out_rise, tread_ground *ground);
// The riser is in the ground at these feet (the move cancels downward velocity while it is).
bool tr_riser_touches(const tread_world *w, const tread_character *ch, tread_vec3 feet);

#endif
