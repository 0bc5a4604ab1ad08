// SPDX-License-Identifier: MIT
// Collide and slide: cast the shape (grown by the skin) along the motion, stop at the first surface, let
// the plane solver turn the rest of the motion along everything touched so far, repeat.
#include "character_internal.h"

// A contact this close above the feet is at the sole (metres): the skin plus the touch tolerance.
#define TR_SOLE_HEIGHT (2.0f * TR_TOUCH_TOLERANCE)
// A face whose normal's part across the floor is shorter than this (the sine of 6 degrees) is too nearly parallel to
// the floor to stand on it as a wall: a vertical wall is used instead.
#define TR_FLOOR_WALL_MIN 0.1f
// The farthest a contact flush with the floor may be from touching (metres): twice the touch tolerance, as a start
// within it is touching and its position rounds.
#define TR_FLUSH_LEAN_TOLERANCE (2.0f * TR_TOUCH_TOLERANCE)

// A vertical wall through the surface: its normal with the up part removed (zero if it faces straight up/down).
static tread_vec3 as_wall(tread_vec3 n, tread_vec3 up) { return tread_v3_normalize(tread_v3_reject(n, up)); }

// A face met while walking on a floor of normal `floor` stands on that floor as a wall: its normal with the floor's
// part removed. Sliding along it keeps the motion in the floor, so no height is gained from the face, and the
// motion never enters the face itself (the wall and the face cut the floor in the same line). A vertical wall
// (as_wall) does that on level ground only: on a sloped floor, walking down the valley between it and a steep face
// entered the face along the vertical wall's crease, and every cast met the face again at fraction 0 (a capsule
// and a box frozen in rock formations of Quake III levels). A face nearly parallel to the floor has no such wall.
static tread_vec3 as_wall_on(tread_vec3 n, tread_vec3 floor, tread_vec3 up) {
    tread_vec3 wall = tread_v3_reject(n, floor);
    if (tread_v3_length_sq(wall) < TR_FLOOR_WALL_MIN * TR_FLOOR_WALL_MIN) return as_wall(n, up);
    return tread_v3_normalize(wall);
}

// A plane differing from one already held only by rounding replaces it (the newest contact is the one the motion
// presses); any other, however nearly parallel, is kept beside it for the solver. Merging planes within 0.8 degrees
// froze a capsule at a mesh wall's convex corner: rounding it, the corner edge's contact normal is a fraction of a
// degree from the face it slid along, the motion along that face still enters the edge, and with the edge merged
// into the face every cast met it again at fraction 0 (the solver's one-plane projection onto the edge is the way on).
static void add_plane(tr_slide_result *out, tread_vec3 n, bool steep) {
    if (tread_v3_length_sq(n) == 0.0f) return;
    for (int i = 0; i < out->plane_count; ++i) {
        if (tread_v3_dot(out->planes[i], n) > TR_DUPLICATE_PLANE_COS) {
            out->planes[i] = n;
            out->steep[i] = steep;
            return;
        }
    }
    if (out->plane_count < TR_MAX_PLANES) {
        out->steep[out->plane_count] = steep;
        out->planes[out->plane_count++] = n;
    }
}

// Clip by every steep face met so far, then solve: the motion enters no plane and climbs no steep face.
static tread_vec3 solve(const tr_slide_result *out, tread_vec3 motion, tread_vec3 up) {
    for (int i = 0; i < out->plane_count; ++i)
        if (out->steep[i]) motion = tr_clip_steep(motion, out->planes[i], up);
    return tr_solve_planes(motion, out->planes, out->plane_count);
}

tread_vec3 tr_slide_velocity(const tr_slide_result *slide, tread_vec3 velocity, tread_vec3 up) { return solve(slide, velocity, up); }

// In the air a face that points up but is too steep to stand on is slid down, never climbed.
static tread_result is_steep_face(const tr_move_query *q, const tread_character *ch, const tread_shape_hit *hit, bool *out_steep) {
    *out_steep = false;
    if (tread_v3_dot(hit->normal, ch->settings.up) <= 0.0f) return TREAD_OK;
    bool walkable = false;
    tread_result r = tr_is_walkable_on(q, ch, TR_WHO(*hit), hit->normal, &walkable);
    *out_steep = !walkable;
    return r;
}

// The floor walked on: the ground the move began on, then each surface ridden (a plane through `point`).
typedef struct tr_floor {
    tread_vec3 normal;
    tread_vec3 point;
} tr_floor;

// An edge or corner lying in the floor's plane, met within the touch tolerance, is part of that floor as far as
// walking along it goes: the body rests above the plane, so moving along it cannot go into a point of the plane.
// But the contact's normal leans off the floor's by as much as the touch tolerance allows the bottom's rounding
// (acos(R / (R + tolerance)): 1.5 degrees for a 0.3 m capsule), so on a floor at exactly max slope it reads as too
// steep to walk: a ramp's crest ahead (a mesh's vertex at the top of a 45-degree ramp, 0.09 mm from touching) or a
// box's corner lying in the face of a ramp built of boxes stopped capsules and spheres for good. Ridden by its own
// normal, the motion clears it (along the floor it would meet it again at once).
static bool flush_with_floor(const tread_character *ch, const tr_floor *floor, const tread_shape_hit *hit) {
    const tread_character_settings *s = &ch->settings;
    // A flat bottom meets what lies in its floor's plane with that face, no lean: only a round one has this to undo
    // (allowed the lean of its skin's rounding, a box rode a wall's foot up 0.12 m: the soak's 65:1157).
    if (s->shape == TREAD_QUERY_BOX) return false;
    if (!(tread_v3_dot(hit->normal, hit->surface_normal) < TR_SAME_PLANE_COS)) return false; // a face is what it is
    float off = tread_v3_dot(tread_v3_sub(hit->point, floor->point), floor->normal);
    if (fabsf(off) > TR_TOUCH_TOLERANCE) return false;
    // Only the lean a touching contact can have (an overlap's normal is anything).
    float rounding = s->radius + s->skin;
    return tread_v3_dot(hit->normal, floor->normal) >= rounding / (rounding + TR_FLUSH_LEAN_TOLERANCE);
}

// How a grounded character treats a surface it runs into. A low surface with a walkable contact normal (a
// seam between floor pieces, a lip lower than both the max step and the capsule's rounding) is ridden
// over like ground; anything else is a wall for climbing, so no height is ever gained by sliding up an
// edge or a steep face. Climbing is the stairs phase's job, and it enforces the max step.
// A flat bottom meeting the foot of a ramp touches it at a corner, where the contact normal may be the ramp's end
// face; met at the sole, the walkable face there (the surface normal) is the one to ride. *out_normal is the
// plane ridden.
static tread_result ridable(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tr_floor *floor,
                            const tread_shape_hit *hit, bool *out_ridable, tread_vec3 *out_normal) {
    const tread_character_settings *s = &ch->settings;
    float height = tread_v3_dot(tread_v3_sub(hit->point, feet), s->up);
    *out_ridable = false;
    *out_normal = hit->normal;
    if (height > s->max_step_height) return TREAD_OK;
    tread_result r = tr_is_walkable_on(q, ch, TR_WHO(*hit), hit->normal, out_ridable);
    if (r != TREAD_OK || *out_ridable) return r;
    if (flush_with_floor(ch, floor, hit)) {
        *out_ridable = true;
        return TREAD_OK;
    }
    if (height > TR_SOLE_HEIGHT) return TREAD_OK;
    *out_normal = hit->surface_normal;
    return tr_is_walkable_on(q, ch, TR_WHO(*hit), hit->surface_normal, out_ridable);
}

tread_result tr_slide(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 motion, tr_slide_mode mode,
                      tread_move_state *st, tr_slide_result *out) {
    tread_query_filter filter = tr_collide_filter(ch);
    return tr_slide_filtered(q, ch, feet, motion, mode, &filter, st, out);
}

tread_result tr_slide_filtered(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 motion, tr_slide_mode mode,
                               const tread_query_filter *filter_in, tread_move_state *st, tr_slide_result *out) {
    const tread_character_settings *s = &ch->settings;
    tread_query_shape shape = tr_body_shape(ch, s->skin);
    tread_query_filter filter = *filter_in;
    out->plane_count = 0;
    out->blocked = false;
    out->blocked_feet = feet;
    out->blocked_motion = tread_v3_zero();
    tread_vec3 original = motion;
    // The floor walked on: the ground the move began on, then each surface ridden.
    bool grounded = ch->ground.state == TREAD_GROUND_ON_GROUND;
    tr_floor floor = {grounded ? ch->ground.normal : s->up, grounded ? ch->ground.point : feet};
    // The contact last ridden by the face under it rather than by its own normal (at the sole), if any.
    bool sole_ridden = false;
    tr_who sole_body = {tread_body_id_null(), -1};
    uint32_t sole_feature = 0;
    for (int it = 0; it < s->max_slide_iterations && tread_v3_length(motion) > TR_MIN_MOVE; ++it) {
        tread_shape_hit hit;
        tread_result r = tr_query_cast(q, &shape, tr_center(ch, feet), motion, &filter, &hit);
        if (r != TREAD_OK) return r;
        if (!hit.hit) {
            feet = tread_v3_add(feet, motion);
            motion = tread_v3_zero();
            break;
        }
        feet = tread_v3_mad(feet, hit.fraction, motion);
        tr_record_contact(q, st, &hit);
        tread_vec3 rest = tread_v3_scale(motion, 1.0f - hit.fraction);
        tread_vec3 n = hit.normal;
        bool steep = false;
        if (mode == TR_SLIDE_STEP_FORWARD) {
            n = as_wall(n, s->up);
        } else if (mode == TR_SLIDE_AIR) {
            if ((r = is_steep_face(q, ch, &hit, &steep)) != TREAD_OK) return r;
            // Sliding down a steep face is the intended motion from here on, not a turn back against the input.
            if (steep) original = tr_clip_steep(original, n, s->up);
        } else if (mode == TR_SLIDE_GROUNDED) {
            bool ride = false;
            tread_vec3 ridden;
            if ((r = ridable(q, ch, feet, &floor, &hit, &ride, &ridden)) != TREAD_OK) return r;
            // Ridden by the face under it, a contact at the sole that the next cast meets again at once gave no way on:
            // the motion along that face still presses into the contact, so it is a wall there. A box's corner on a
            // fold of a Quake III terrain, walking along the fold, touched the next face's edge with a level contact
            // normal; riding that face, every cast met the edge again at fraction 0, and the box froze.
            bool again = sole_ridden && hit.fraction == 0.0f && tr_who_equal(TR_WHO(hit), sole_body) && hit.feature == sole_feature;
            if (ride && again) ride = false;
            if (ride) {
                if (tread_v3_dot(ridden, hit.normal) < TR_SAME_PLANE_COS) {
                    sole_ridden = true;
                    sole_body = TR_WHO(hit);
                    sole_feature = hit.feature;
                }
                n = ridden;
                floor.normal = ridden;
                floor.point = hit.point;
                // Follow the new ground at the same speed (constant speed over seams and onto slopes). An edge's
                // rounded contact normal is no slope: kept horizontal speed (lifted by tan(slope)) is for faces.
                // Over an edge met by the rounded bottom, whose contact normal looked like an 84 degree slope
                // under a max slope of 85, it launched a running capsule 1.2 m in one update past a 0.45 m lip.
                bool face = tread_v3_dot(n, hit.surface_normal) >= TR_SAME_PLANE_COS;
                tread_vec3 aligned = tr_align_to_ground(rest, s->up, n, s->keep_horizontal_speed && face);
                add_plane(out, n, false);
                motion = solve(out, aligned, s->up);
                continue;
            }
            if (tread_v3_dot(n, s->up) > 0.0f) n = as_wall_on(n, floor.normal, s->up);
            if (!out->blocked) {
                out->blocked = true;
                out->blocked_feet = feet;
                out->blocked_motion = tread_v3_reject(rest, s->up);
            }
        }
        add_plane(out, n, steep);
        motion = solve(out, rest, s->up);
        // Never turn back against the intended motion: that is what makes corners jitter.
        if (tread_v3_dot(motion, original) <= 0.0f) {
            motion = tread_v3_zero();
            break;
        }
    }
    out->feet = feet;
    return TREAD_OK;
}
