// SPDX-License-Identifier: MIT
// Private interface between the controller's phases. Each phase is one file, above the body module (body.c:
// shape, filters, fit test, ground probe, support pick) and the per-move query layer (move_query.c):
//   planes.c (pure plane solver) · slide.c (collide and slide) · ground.c (classification) · snap.c (stick to
//   floor) · push.c (bodies that hit it) · contacts.c (impulses, the listener's events) · recover.c (penetration
//   recovery) · step_sweep.c, step_contact.c, step_cast_down.c, step_riser.c (the stepping strategies) ·
//   strategies.c (their table and the one max-step rule) · reach.c (how far a move's queries reach, one table) ·
//   settings.c (settings, validation, changes outside a move) · move.c (the public phases and the reference move) ·
//   batch.c (many characters) and batch_bodies.c (their bodies) · smoothing.c (camera)
#ifndef TREAD_CHARACTER_INTERNAL_H
#define TREAD_CHARACTER_INTERNAL_H

#include "body.h"

// ---- named tolerances ------------------------------------------------------------------------------------
// Displacements shorter than this are not cast (metres).
#define TR_MIN_MOVE 1.0e-6f
// A step must lift at least this much to count (metres); less is a seam, ridden over by the slide.
#define TR_MIN_STEP_RISE 1.0e-4f
// Slack on the max-step limit for float rounding (metres). The limit stays a hard guarantee to within this.
#define TR_STEP_HEIGHT_SLACK 1.0e-4f
// Normals that agree to within this cosine (0.026 degrees: float rounding of one normal) are one plane for the
// slide's solver; nearer-parallel planes than TR_SAME_PLANE_COS are still distinct constraints.
#define TR_DUPLICATE_PLANE_COS 0.9999999f
// A character this far or more above the ground it is reported on (below the skin, metres) hovers, and settles onto
// it: the 1 mm the invariants allow.
#define TR_HOVER_GAP 1.0e-3f
// Penetration shallower than this is left to the skin (metres): below float noise at 1 km.
#define TR_PENETRATION_SLOP 1.0e-5f
// (TR_MAX_SPEED, the fastest speed a move accepts, is core.h's: bodies' surfaces and motions are held to it too.)
// Longest snap suppression accepted (seconds): tread_character_suppress_snap's range.
#define TR_MAX_SNAP_SUPPRESS 3600.0f
// Thickest skin accepted (metres). Up to 0.5 m was allowed: a skin a step high or half the radius stepped, snapped
// and recovered from the wrong surfaces (29 of the soak's 269 failing worlds had a skin over 5 cm).
#define TR_MAX_SKIN 0.05f
// A character deeper than this in its ground (metres: the penetration the API allows) is not carried by it.
#define TR_CARRY_INSIDE 1.0e-3f
// Most characters one batch update moves (a bound on the arrays it sizes).
#define TR_BATCH_MAX 1000000
// Planes one slide keeps for the solver.
#define TR_MAX_PLANES 8
// The caller moves away from the ground (a jump) only faster than this along up (metres per second): a
// horizontal input under a tilted up carries rounding-level components that are not jumps.
#define TR_SEPARATING_SPEED 1.0e-3f

// ---- planes.c ------------------------------------------------------------------------------------------------
// The part of `motion` that moves into none of the planes (unit normals; moving along or away is free):
// one plane projects onto it, two project onto their crease, three or more that cannot all be satisfied stop.
tread_vec3 tr_solve_planes(tread_vec3 motion, const tread_vec3 *normals, int count);
// A motion against a face too steep to stand on (its normal points up but is not walkable): the horizontal part
// treats the face as a vertical wall and the vertical part slides along the face when it falls into it, so the
// face can be slid down but never climbed by pushing into it (Jolt turns such slopes into walls the same way).
tread_vec3 tr_clip_steep(tread_vec3 motion, tread_vec3 normal, tread_vec3 up);
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
    tread_vec3 feet;                  // where the slide ended
    tread_vec3 planes[TR_MAX_PLANES]; // the planes it met (as the solver used them)
    bool steep[TR_MAX_PLANES];        // that plane is a face too steep to stand on (tr_clip_steep applies)
    int plane_count;
    bool blocked;              // grounded: a wall stopped part of the motion (a step candidate)
    tread_vec3 blocked_feet;   // where the first wall was met
    tread_vec3 blocked_motion; // the horizontal motion still to do there
} tr_slide_result;

// Cast the skin-grown shape along `motion` from `feet`, sliding along what it meets (contacts go to st, which
// may be NULL).
tread_result tr_slide(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 motion, tr_slide_mode mode,
                      tread_move_state *st, tr_slide_result *out);
// The same, against the bodies `filter` accepts instead of the collide mask's.
tread_result tr_slide_filtered(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 motion, tr_slide_mode mode,
                               const tread_query_filter *filter, tread_move_state *st, tr_slide_result *out);

// The velocity after the slide: `velocity` clipped by the steep faces met, then kept out of every plane.
tread_vec3 tr_slide_velocity(const tr_slide_result *slide, tread_vec3 velocity, tread_vec3 up);

// ---- roll.c ---------------------------------------------------------------------------------------------------
// A round bottom perched on a nose comes to rest with the nose this share of r * sin(max slope) from its axis
// (dimensionless): less than 1, so that the contact it settles on is walkable with a margin.
#define TR_ROLL_REST 0.98f
// How far sideways (metres) a round bottom rolls over a level nose to rest on it, at most: from touching it with its
// side to the nose TR_ROLL_REST of the way to the edge of its walkable cap. 0 for a box (it stands on any edge).
float tr_roll_reach(const tread_character *ch);
// How far (metres) a roll over a nose moves the feet at most: across it by its radius and skin (tr_roll_reach on a
// level edge) and along it, where the walk leads that way, by at most the radius. 0 for a box.
float tr_roll_length(const tread_character *ch);
// The feet moved sideways toward the perch's nose (sliding along what is in the way, never climbing) until it is
// within TR_ROLL_REST of the walkable cap: where the round bottom at `feet` rests on it. Along `heading`
// (horizontal, any length; zero: straight across) where it leads toward the nose, at most the radius along the nose.
tread_result tr_roll_onto(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *perch,
                          tread_vec3 heading, tread_vec3 *out_feet);
// The feet moved sideways away from the perch's nose until the bottom sphere (with its skin) is clear of it: where
// the round bottom at `feet` goes on down past it. Along `heading` as tr_roll_onto, where it leads off the nose.
tread_result tr_roll_off(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *perch,
                         tread_vec3 heading, tread_vec3 *out_feet);

// A step's landing: the hits of a downward probe over `distance` from `above` (as tr_probe_down) and the support
// among them (*out_support, -1 when none). A round bottom that comes down on the nose ahead (along `motion`), where
// it cannot rest, rolls onto it first, still up there; *out_above is where the probe that found the hits began.
tread_result tr_probe_landing(const tr_move_query *q, const tread_character *ch, tread_vec3 above, float distance, tread_vec3 motion,
                              tread_shape_hit *hits, int capacity, int *out_count, int *out_support, tread_vec3 *out_above);

// ---- ground.c ------------------------------------------------------------------------------------------------
// Two contacts hold the character as a crevasse only when each lies at least this far (metres) in front of the
// other's pushing direction: the walls of a valley face each other across the body; the two faces of a ridge meet
// at the one line the body rests on, and neither is in front of the other.
#define TR_CREVASSE_SPAN 1.0e-3f
// Classify what holds the character at `feet` (probe of skin + ground_probe_distance below the shape).
// No ground: in the air at `feet` (the state a teleport or a jump leaves).
tread_ground tr_ground_in_air(const tread_character *ch, tread_vec3 feet);
tread_result tr_classify_ground(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_ground *ground);
// As tr_classify_ground, and *out_gap: the support's own gap along the ground's normal (negative: sunk into it), where
// ground.distance is the deepest sinking of all the surfaces touched (what a lift out of the ground must undo).
tread_result tr_classify_ground_gap(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_ground *ground, float *out_gap);

// ---- snap.c --------------------------------------------------------------------------------------------------
// Cast down by up to `distance` onto walkable ground no more than `distance` below the surface point `stood_on`,
// a round bottom rolling off a nose it meets where it cannot rest; *out_lowered is the distance lowered. *feet is
// left as it was when nothing holds the body within reach. When the nose it would roll off lies ahead along
// `heading` (sideways, any length; zero: never ahead), *out_perched_ahead: *feet is down on it, a step's to climb.
tread_result tr_snap_down(const tr_move_query *q, const tread_character *ch, tread_vec3 *feet, float distance, tread_vec3 stood_on,
                          tread_vec3 heading, float *out_lowered, bool *out_perched_ahead);

// ---- reach.c -------------------------------------------------------------------------------------------------
// The reaches a move's contexts are begun with (metres from the shape's centre where the context begins): each phase
// alone, the reference move's three in one context, its candidates, and a batch's nudge.
typedef enum tr_reach_kind {
    TR_REACH_UPDATE,     // tread_character_update, from where the move begins
    TR_REACH_STAIRS,     // tread_character_walk_stairs, from where the update ended
    TR_REACH_FLOOR,      // tread_character_stick_to_floor, from where the phase before ended
    TR_REACH_MOVE,       // the reference move: all three, from where it begins
    TR_REACH_CANDIDATES, // the bodies the reference move gathers for its usual queries (the update's)
    TR_REACH_HELD_CANDIDATES,  // the same for a strategy that holds the body up (the riser's depth too)
    TR_REACH_LATER_CANDIDATES, // the bodies a step or a snap of the reference move reaches as well (gathered on demand)
    TR_REACH_NUDGE,      // a batch's push or parting
    TR_REACH_BODY,       // the body alone (a change of shape is tested where it stands)
    TR_REACH_COUNT
} tr_reach_kind;
// What a reach depends on besides the settings (metres; unused ones zero).
typedef struct tr_reach_inputs {
    float walk;    // |velocity| dt
    float dt;      // seconds (recovery's push)
    float carried; // how far the ground's carry takes the feet
    float pushers; // how far moving bodies reach (tr_pushers_reach)
    float moved;   // how far the update took the feet (a later phase alone)
    float blocked; // the motion still to do where a wall stopped it (a whole move: at most the walk)
    float nudge;   // a nudge's displacement
} tr_reach_inputs;
float tr_reach(const tread_character *ch, tr_reach_kind kind, const tr_reach_inputs *in);
// The reference move's reaches at once, the values tr_reach gives them (a move begins with all three): its bounds
// (TR_REACH_MOVE), its usual candidates (TR_REACH_CANDIDATES, or TR_REACH_HELD_CANDIDATES when `held`: its strategy
// holds the body up) and its later ones (TR_REACH_LATER_CANDIDATES).
typedef struct tr_move_reach {
    float move, usual, later;
} tr_move_reach;
void tr_move_reaches(const tread_character *ch, const tr_reach_inputs *in, bool held, tr_move_reach *out);

// ---- move.c (for batch.c) --------------------------------------------------------------------------------------
// Where a character of a batch update is: among the others (the move's crowd source) and at its index in the batch's
// arrays. No crowd and index 0 for a single move.
typedef struct tr_batch_place {
    tr_crowd crowd; // the other characters (crowd.world NULL: a single move)
    int index;      // this character's index in the batch's arrays (0 for a single move)
    tread_move_cache_bodies *bodies; // what its last move gathered (the batch's, or the caller's cache's); NULL: none
} tr_batch_place;
// The reference move among the other characters of a batch; arguments already validated (tr_check_move_args,
// tr_check_move_options). With a listener that has events: given `touching` (a batch), what the character touches
// after the move goes there and no callback is called (the batch delivers them once every move succeeded);
// otherwise (a single move) they are delivered against `memory` when the move succeeded. The report is st->result;
// the options' buffers (a batch's: this character's part of them) are filled.
tread_result tr_character_move_among(const tr_source *src, const tr_batch_place *place, tread_character *ch, tread_vec3 velocity, float dt,
                                     const tread_move_options *options, tread_contact_memory *memory, tread_contact_memory *touching,
                                     tread_move_state *st);
// The validation of a move's options (NULL is fine).
tread_result tr_check_move_options(const tread_move_options *options);
// Move the feet by `displacement`, sliding along the world and, given `among`, the other characters of a batch (the
// batch's pushes and parting).
tread_result tr_character_nudge(const tr_source *src, const tr_batch_place *among, tread_character *ch, tread_vec3 displacement);
// The validation of a move's arguments (no world or backend, a bad character, dt or velocity, a NULL `out`: the
// result or state the move writes, named `out_name` in the error).
tread_result tr_check_move_args(const tr_source *src, const tread_character *ch, tread_vec3 velocity, float dt, const void *out,
                                const char *out_name);

// ---- push.c --------------------------------------------------------------------------------------------------
// Most crushing bodies one update names (the first is the move's crushed_by).
#define TR_CRUSHERS 4
// Deeper than this (metres, the penetration the API allows) in a moving body where the push's slide stopped, or
// after recovery's walk out of it, the push was not completed: the character is crushed. Shallower is recovery's
// (the next frame's push goes on from a skin).
#define TR_CRUSH_DEPTH 1.0e-3f
// What crushed the character in an update (tread_move_result's crushed fields): the moving bodies it could not be
// pushed out of, in the order met, and how far it went aside to a free spot (metres, 0: none was found: it
// overlaps the bodies).
typedef struct tr_crush {
    tread_body_id bodies[TR_CRUSHERS];
    int count;
    float aside;
} tr_crush;

// Moving bodies (kinematic or dynamic, within `reach` of the character: tr_pushers_reach) whose motion over the last
// world advance meets the character at `feet` push it ahead of them, sliding along the world; *out_push is how far.
// A push that leaves it inside the body (it met something it cannot slide along) crushes it: *out_crush names the
// bodies and it goes on as tr_crush_escape finds. Its ground is left out (it carries instead).
tread_result tr_push_by_bodies(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float reach, tread_vec3 *out_push,
                               tr_crush *out_crush);
// The index of the other character of a batch the shape at `feet` touches or overlaps (the nearest), or -1.
int tr_pressed_against_character(const tr_move_query *q, const tread_character *ch, tread_vec3 feet);

// ---- recover.c -----------------------------------------------------------------------------------------------
// Push the shape out of anything it penetrates, at most recovery_speed * dt this frame, never out of the bodies
// `crush` names (the push judged them). Buried (no push leads out): inside a moving body, crushed (added to `crush`)
// and out along tr_crush_escape or nowhere; else a jump to the nearest free spot within tr_unbury_reach that a sweep
// reaches (*out_unburied: it did). *out_left: how much of a walk out at the recovery speed is still to do after this
// update's push (metres; 0 when it is out, or did not walk).
tread_result tr_recover(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float dt, tr_crush *crush,
                        tread_vec3 *out_push, bool *out_unburied, float *out_left);
bool tr_crush_has(const tr_crush *crush, tread_body_id body);
void tr_crush_add(tr_crush *crush, tread_body_id body);
// The way out of a crush from `feet`: aside (across `rest`, the push still to make), then on along `rest`, to the
// nearest spot where the shape is free, swept with the crushing bodies left out so it never passes through anything
// else; *out_aside is how far aside (metres, at most tr_unbury_reach). *out_found false: none within reach.
tread_result tr_crush_escape(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 rest, const tr_crush *crush,
                             tread_vec3 *out_feet, float *out_aside, bool *out_found);
// How far from the feet the unbury search looks for a free spot (metres): three body reaches and a skin.
float tr_unbury_reach(const tread_character_settings *s);

// ---- stepping strategies (one file each) and strategies.c ------------------------------------------------------

// A step a strategy found. Every step passes the one max-step rule (tr_step_within_limit) before it is taken.
typedef struct tr_step {
    tread_vec3 base;          // the feet the step started from
    tread_vec3 feet;          // where it lands
    tread_vec3 support;       // the point of the tread it stands on
    bool has_landing;         // `landing` is the tread's hit, recorded as a contact when the step is taken
    tread_shape_hit landing;
    bool holds;               // the strategy holds the body itself (the riser): `ground` replaces the probe's
    tread_ground ground;
} tr_step;

// Look for a step from the update's result (blocked_position, blocked_motion, contacts, previous_ground); the
// slide a step runs may record contacts in st.
typedef tread_result tr_step_fn(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out,
                                bool *out_found);
// The strategy holds the body at these feet: the update cancels downward velocity (gravity is off).
typedef tread_result tr_hold_fn(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, bool *out_holds);

typedef struct tr_strategy {
    const char *name;   // as tread_step_strategy_name gives it
    tr_step_fn *step;   // the stairs phase
    tr_hold_fn *hold;   // NULL, or holds the body up (the riser)
    bool every_move;    // looks for a step on every grounded move, not only where the update was blocked
} tr_strategy;

const tr_strategy *tr_strategy_of(tread_step_strategy strategy);
// The one max-step rule: the tread a step stands on is at most max_step_height above the surface the character
// stood on (measured at the treads: a capsule perched on a tall step's edge has its feet well below the tread),
// and the feet rise at most max_step_height plus how far they were below that surface (tr_perch_depth).
bool tr_step_within_limit(const tread_character *ch, const tread_move_state *st, const tr_step *step);

// How far past a forward motion a step looks for the tread behind a sloped riser (metres): the farthest a face
// steeper than max slope and no taller than max step runs along the motion, max step / tan(max slope), at most the
// radius (a box's half width).
float tr_step_look_ahead(const tread_character *ch);
// How steeply the face of a landing probe's hit rises along the unit `along`: metres of rise per metre along it (0
// where it does not rise that way). (landing.c)
float tr_rise_along(const tread_shape_hit *hit, tread_vec3 up, tread_vec3 along);
// A landing on a face that rises along the motion (a ramp starting at the riser's top edge), higher than max step:
// the body, lifted by max step, met that face at the raised height (the sweep's forward sweep ran into it; cast_down's
// cast came down on it a frame's walk on), so it came down on it as high as the lift went (a box at 30 Hz, 0.13 m a
// frame, stood for good before a 0.35 m curb whose top rose at 45 degrees). Back along the way it went from `feet`
// to `ahead` (the probe's start, `down` above the landing's reach), the face is lower by its rise per metre: the
// landing (hits, *io_count, *io_support, *io_above, as tr_probe_landing's) becomes where the face is within max
// step, if the body got that far; otherwise it is left as it is.
tread_result tr_land_within_max_step(const tr_move_query *q, const tread_character *ch, const tread_move_state *st, tread_vec3 feet,
                                     tread_vec3 ahead, float down, tread_vec3 motion, tread_shape_hit *hits, int *io_count,
                                     int *io_support, tread_vec3 *io_above);
// A riser that slopes (a heightfield's is one grid cell wide; a chamfered kerb) runs on past a short forward motion,
// and the body came down on its steep face: at 120 Hz a box met a 0.1 m heightfield curb's 63-degree riser, 5 cm
// deep, 3.3 cm a frame, and stood before it for good. Along the motion that face reaches the raised bottom within
// `rise / rate`; past that, still up here, the probe finds the tread, if there is one, or the riser's next face
// (a heightfield curb whose top slopes up across the walk rises higher beside the body: a box yawed to the grid met
// its riser's next, taller triangle with its far corner), past which it looks again; then back to where the first
// face meets the tread's height (plus the clearance), so the body lands just past the riser's top edge, no farther
// on than the riser made it go. Faces that run on farther than tr_step_look_ahead in all are a slope too steep to
// walk, not a riser. `ahead`: where the probe came down from, `down` its length; hits, *out_count, *out_support and
// *out_above as tr_probe_landing's, replaced by the tread's when one is found. (landing.c)
tread_result tr_land_past_sloped_riser(const tr_move_query *q, const tread_character *ch, tread_vec3 ahead, float down, tread_vec3 motion,
                                       tread_shape_hit *hits, int *out_count, int *out_support, tread_vec3 *out_above);
// Sweep up by max step, forward, down (Godot's and Jolt's stair walking).
tread_result tr_step_sweep(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out, bool *out_found);
// The Source engine's stepping from the contacts met while sliding.
tread_result tr_step_contact(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out,
                             bool *out_found);
// Unity DOTS: cast down from the target raised by max step.
tread_result tr_step_cast_down(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out,
                               bool *out_found);
// Staxel's riser: while the riser volume is in the ground it holds the body and lifts it by a binary search.
tread_result tr_step_riser(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out, bool *out_found);
tread_result tr_riser_holds(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, bool *out_holds);

#endif
