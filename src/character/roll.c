// SPDX-License-Identifier: MIT
// Rolling over a nose: a round bottom rests on a tread's edge only within its walkable cap (the contact within max
// slope of straight down, body.c). Stepping up onto a tread, or walking off one onto the next below, it rolls over
// the nose sideways until it rests there: across it at most tr_roll_reach, along it (the walker's way) at most its
// radius, the same for every frame rate (per nose, not per frame). A box rests on any edge under its flat bottom and
// never rolls.
#include "character_internal.h"

// A round bottom rolled onto a nose rests with its contact at least this much nearer up than max slope (a cosine of
// the angle from up).
#define TR_ROLL_REST_COS_MARGIN 1.0e-3f
// Rolled off a nose, the skin-grown bottom passes it this far apart (metres): casts meet surfaces nearer than the
// touch tolerance.
#define TR_ROLL_CLEARANCE (2.0f * TR_TOUCH_TOLERANCE)

float tr_roll_reach(const tread_character *ch) {
    const tread_character_settings *s = &ch->settings;
    if (s->shape == TREAD_QUERY_BOX) return 0.0f;
    // The narrower of the walkable cones the character knows (a stairs layer may allow a steeper one).
    float cos_slope = ch->max_slope_cos;
    if (s->stairs_layer_mask != 0u) cos_slope = tr_maxf(cos_slope, ch->stairs_slope_cos);
    float sin_slope = sqrtf(tr_maxf(0.0f, 1.0f - cos_slope * cos_slope));
    return s->radius + s->skin + TR_ROLL_CLEARANCE - TR_ROLL_REST * s->radius * sin_slope;
}

float tr_roll_length(const tread_character *ch) {
    const tread_character_settings *s = &ch->settings;
    if (s->shape == TREAD_QUERY_BOX) return 0.0f;
    // Across at most from touching the nose with its side to past it (a roll off one right under the centre, or onto
    // one whose tilted line leaves no cap to rest within), along it at most the radius.
    float across = s->radius + s->skin + TR_ROLL_CLEARANCE;
    return sqrtf(across * across + s->radius * s->radius);
}

// A contact normal closer to up than this (the sine of the angle between them) has no side: what it touches lies
// straight under the centre. Rejecting up from such a normal leaves rounding, whose direction is anyone's: normalised,
// it rolled a capsule 0.5 m off a point straight under it, up a tilted world's slope (the soak's 17:1037).
#define TR_NOSE_SIDE_MIN 1.0e-4f

// The line of an edge comes from the contact normal and the normal of a face along it (each is perpendicular to the
// edge): closer to each other than this sine, the contact is on the face, and there is no edge to measure.
#define TR_EDGE_LINE_MIN 1.0e-3f

// How far the nose lies across from the centre of the bottom sphere grown by the skin (the sphere the probes cast),
// and which way (*out_toward, unit, level): from the
// contact normal, which points from the nose to the centre (a point reported for a hit that started inside the
// skin lies off the sphere: such a point put a nose 9 cm from a 41 cm capsule's axis, and the roll off it went 33 cm).
// Across means level and square to the edge's line: a body coming down on the edge of a tread that is tilted across
// the walk (a curb on a cross slope) touches it with a normal leaning down the tilt as well, a lean no roll over the
// nose removes. *out_cos_incline is the cosine of the line's slope (1 for a level edge, or where the contact is on a
// face and the lean is taken as it is).
static float nose_across(const tread_character *ch, const tread_shape_hit *perch, tread_vec3 *out_toward, float *out_cos_incline) {
    const tread_vec3 up = ch->settings.up;
    *out_toward = tread_v3_zero();
    *out_cos_incline = 1.0f;
    tread_vec3 line = tread_v3_cross(perch->normal, perch->surface_normal);
    float line_length = tread_v3_length(line);
    if (line_length >= TR_EDGE_LINE_MIN) {
        tread_vec3 across = tread_v3_cross(tread_v3_scale(line, 1.0f / line_length), up);
        float cos_incline = tread_v3_length(across); // (|line x up|: the sine of the line's angle from up)
        if (cos_incline >= TR_NOSE_SIDE_MIN) {
            across = tread_v3_scale(across, 1.0f / cos_incline);
            float sine = tread_v3_dot(perch->normal, across);
            if (sine < 0.0f) {
                sine = -sine;
                across = tread_v3_neg(across);
            }
            *out_cos_incline = cos_incline;
            if (!(sine >= TR_NOSE_SIDE_MIN)) return 0.0f;
            *out_toward = tread_v3_neg(across);
            return (ch->settings.radius + ch->settings.skin) * sine;
        }
    }
    tread_vec3 side = tread_v3_reject(perch->normal, up);
    float sine = tread_v3_length(side);
    if (!(sine >= TR_NOSE_SIDE_MIN)) return 0.0f;
    *out_toward = tread_v3_scale(side, -1.0f / sine);
    return (ch->settings.radius + ch->settings.skin) * sine;
}

// Slide the feet sideways along `path`, every surface a wall (never climbing).
static tread_result roll(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 path, tread_vec3 *out_feet) {
    *out_feet = feet;
    if (!(tread_v3_length(path) > 0.0f)) return TREAD_OK;
    tr_slide_result slid;
    tread_result r = tr_slide(q, ch, feet, path, TR_SLIDE_STEP_FORWARD, NULL, &slid);
    if (r == TREAD_OK) *out_feet = slid.feet;
    return r;
}

// The way a roll goes: `across` (metres) along the unit `direction` it must cover across the nose, taken the
// walker's way where its `heading` (horizontal, any length; zero: straight across) leads that way too. Rolled
// straight across, each nose of a staircase walked at 60 degrees to its risers turned the walk 0.04-0.07 m toward
// their normal (0.72 m over a flight). Along the nose it goes at most its radius (a walk within 74 degrees of
// straight across keeps its line over a nose met r / 4 across), so that a walk nearly along an edge leaves it nearby,
// not metres on.
static tread_vec3 roll_path(const tread_character *ch, tread_vec3 direction, float across, tread_vec3 heading) {
    tread_vec3 path = tread_v3_scale(direction, across);
    float forward = tread_v3_dot(heading, direction);
    tread_vec3 along = tread_v3_mad(heading, -forward, direction);
    float along_length = tread_v3_length(along);
    if (forward > 0.0f && along_length > 0.0f)
        path = tread_v3_mad(path, tr_minf(across / forward, ch->settings.radius / along_length), along);
    return path;
}

tread_result tr_roll_onto(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *perch,
                          tread_vec3 heading, tread_vec3 *out_feet) {
    tread_vec3 toward;
    float cos_incline;
    float d = nose_across(ch, perch, &toward, &cos_incline);
    // On an edge that slopes, the normal leans by the slope already: a contact within max slope of up is within
    // acos(cos(max slope) / cos(incline)) of square to the line's level (none where the line itself is too steep).
    // It rests TR_ROLL_REST of the way there, and at least TR_ROLL_REST_COS_MARGIN within the cap: on a line that
    // slopes at max slope itself the cap is a degree wide, and 2 % of it a rounding (a capsule on a 45-degree cross
    // slope stayed perched on a curb's nose at 45.007 degrees).
    float cos_cap = tr_minf(1.0f, ch->max_slope_cos / cos_incline);
    float sin_cap = sqrtf(tr_maxf(0.0f, 1.0f - cos_cap * cos_cap)), sin_rest = TR_ROLL_REST * sin_cap;
    float cos_rest = tr_maxf(sqrtf(1.0f - sin_rest * sin_rest), tr_minf(1.0f, (ch->max_slope_cos + TR_ROLL_REST_COS_MARGIN) / cos_incline));
    float rest = (ch->settings.radius + ch->settings.skin) * sqrtf(tr_maxf(0.0f, 1.0f - cos_rest * cos_rest));
    *out_feet = feet;
    if (!(d > rest)) return TREAD_OK;
    return roll(q, ch, feet, roll_path(ch, toward, d - rest, heading), out_feet);
}

tread_result tr_roll_off(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *perch,
                         tread_vec3 heading, tread_vec3 *out_feet) {
    const tread_character_settings *s = &ch->settings;
    tread_vec3 toward;
    float cos_incline;
    float d = nose_across(ch, perch, &toward, &cos_incline);
    *out_feet = feet;
    if (!(d > 0.0f)) return TREAD_OK;
    // Clear of the nose: the bottom sphere, grown by the skin, passes beside it going down (and past the touch
    // tolerance: a cast grazing the nose would stop on it).
    float clear = s->radius + s->skin + TR_ROLL_CLEARANCE - d;
    return roll(q, ch, feet, roll_path(ch, tread_v3_neg(toward), clear, heading), out_feet);
}

tread_result tr_probe_landing(const tr_move_query *q, const tread_character *ch, tread_vec3 above, float distance, tread_vec3 motion,
                              tread_shape_hit *hits, int capacity, int *out_count, int *out_support, tread_vec3 *out_above) {
    *out_above = above;
    *out_support = -1;
    tread_result r = tr_probe_down(q, ch, above, distance, hits, capacity, out_count);
    if (r != TREAD_OK || *out_count == 0 || (r = tr_pick_support(q, ch, above, hits, *out_count, distance, out_support)) != TREAD_OK ||
        *out_support >= 0)
        return r;
    // Coming down on the nose ahead, where a round bottom cannot rest: over it, still up here (the nose is below the
    // bottom at any distance from it), to where it rests on the tread, and down again.
    int perch = -1;
    if ((r = tr_pick_perch(q, ch, above, hits, *out_count, distance, &perch)) != TREAD_OK || perch < 0) return r;
    if (tread_v3_dot(hits[perch].normal, motion) >= 0.0f) return TREAD_OK; // (from the nose back to the body)
    if ((r = tr_roll_onto(q, ch, above, &hits[perch], tread_v3_reject(motion, ch->settings.up), out_above)) != TREAD_OK) return r;
    if ((r = tr_probe_down(q, ch, *out_above, distance, hits, capacity, out_count)) != TREAD_OK || *out_count == 0) return r;
    return tr_pick_support(q, ch, *out_above, hits, *out_count, distance, out_support);
}

