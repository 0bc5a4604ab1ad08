// SPDX-License-Identifier: MIT
// The character's body: shape, centre, filters, walkability, fit test, ground probe and support pick.
#include "body.h"

// A tread exactly min_step_depth deep counts: the probe stops this much short of the next riser (metres).
#define TR_TREAD_DEPTH_TOLERANCE 1.0e-3f
// The tread-depth probe must find the tread within this height of the landing point (metres).
#define TR_TREAD_HEIGHT_TOLERANCE 0.02f
// Behind the landing contact the tread must follow its plane within this (metres): the tread below is one rise
// lower, and rises from 2 cm up must not count as one tread (no nosing to allow for behind the contact).
#define TR_TREAD_BEHIND_TOLERANCE 0.005f
// A staircase's next step exactly max step above the tread counts (metres).
#define TR_TREAD_RISE_SLACK 1.0e-4f
// Halvings that find where a tread's edge lies within a leg (a leg of 2.5 cm to within 0.4 mm).
#define TR_TREAD_EDGE_HALVINGS 6
// A round contact this close to the bottom sphere's centre (metres) gives no direction: its own normal does.
#define TR_ROUND_CONTACT_MIN 1.0e-6f
// Legs in which a tread's depth is followed along its surface (each along the plane of the face it starts on).
#define TR_TREAD_SEGMENTS 4


tread_query_shape tr_body_shape(const tread_character *ch, float extra) {
    const tread_character_settings *s = &ch->settings;
    if (s->shape == TREAD_QUERY_SPHERE) return tread_query_sphere(s->radius + extra);
    // The box grows by the skin on every face, as the capsule does (its bottom sits `extra` below the feet).
    // A box grown by `extra` is rounded by it where it starts against something (tread_query_shape::skin).
    if (s->shape == TREAD_QUERY_BOX) {
        tread_query_shape box = tread_query_box(tread_v3(s->radius + extra, 0.5f * s->height + extra, s->radius + extra), s->up);
        box.skin = extra;
        return box;
    }
    // Grow the radius only: the feet stay where they are, the skin surrounds the whole shape.
    return tr_query_capsule(0.5f * s->height - s->radius, s->radius + extra, s->up);
}

float tr_body_reach(const tread_character_settings *s) {
    if (s->shape == TREAD_QUERY_SPHERE) return s->radius;
    // A box's half diagonal bounds both the box and the capsule of the same radius and height.
    float h = 0.5f * s->height;
    return sqrtf(2.0f * s->radius * s->radius + h * h);
}

tread_query_filter tr_filter_one(const tread_character *ch, const tr_who *who, bool only, tr_who_set *set) {
    bool character = who->character >= 0;
    *set = (tr_who_set){&who->body, character ? 0 : 1, &who->character, character ? 1 : 0, only};
    tread_query_filter f = tr_collide_filter(ch);
    f.callback = tr_who_filter;
    f.context = set;
    return f;
}

bool tr_is_walkable(const tread_character *ch, tread_vec3 normal) { return tread_v3_dot(normal, ch->settings.up) >= ch->max_slope_cos; }

tread_result tr_is_walkable_on(const tr_move_query *q, const tread_character *ch, tr_who who, tread_vec3 normal, bool *out_walkable) {
    float limit = ch->max_slope_cos;
    *out_walkable = false;
    if (ch->settings.stairs_layer_mask != 0u || ch->settings.ground_mask != ~0u) {
        uint32_t layer = 0;
        tread_result r = tr_query_body_layer(q, who, &layer);
        if (r != TREAD_OK) return r;
        if (((ch->settings.ground_mask >> layer) & 1u) == 0u) return TREAD_OK; // blocks, but is not ground
        if ((ch->settings.stairs_layer_mask >> layer) & 1u) limit = ch->stairs_slope_cos;
    }
    *out_walkable = tread_v3_dot(normal, ch->settings.up) >= limit;
    return TREAD_OK;
}

tread_result tr_fits(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float allowance, bool *out_fits) {
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tread_query_filter filter = tr_collide_filter(ch);
    tread_distance_result d;
    // A negative allowance asks for clearance: look that far around the shape.
    tread_result r = tr_query_closest(q, &shape, tr_center(ch, feet), tr_maxf(0.0f, -allowance), &filter, &d);
    if (r != TREAD_OK) return r;
    *out_fits = !d.found || d.distance >= -allowance;
    return TREAD_OK;
}

// window: keep the hits within this fraction of the nearest (< 0: all).
static tread_result probe_down(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float distance, float window,
                               tread_shape_hit *hits, int capacity, int *out_count) {
    const tread_character_settings *s = &ch->settings;
    tread_query_shape shape = tr_body_shape(ch, s->skin);
    // Everything that blocks stops the probe, ground or not: snapping or stepping down through a body that is
    // not ground (outside ground_mask, inside collide_mask) ended inside it. Only ground supports (walkability).
    tread_query_filter filter = tr_mask_filter(s->collide_mask | s->ground_mask);
    return tr_query_cast_near(q, &shape, tr_center(ch, feet), tread_v3_scale(s->up, -distance), &filter, window, hits, capacity, out_count);
}

tread_result tr_probe_down_all(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float distance, tread_shape_hit *hits,
                               int capacity, int *out_count) {
    return probe_down(q, ch, feet, distance, -1.0f, hits, capacity, out_count);
}

tread_result tr_probe_down(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float distance, tread_shape_hit *hits,
                           int capacity, int *out_count) {
    // Twice tr_pick_support's tie (in fractions of the probe) so that its test, rounded differently, keeps every hit
    // it could choose.
    float window = distance > 0.0f ? 2.0f * TR_GROUND_TIE / distance : -1.0f;
    return probe_down(q, ch, feet, distance, window, hits, capacity, out_count);
}

// Whether hit i of a probe is a walkable face (*out_face) and whether the body rests on it (*out_rests): a flat
// bottom wherever it touches it, a round bottom only where the contact lies within its walkable cap (within max
// slope of straight down) seen from where the body stops: the centre of its bottom sphere lowered by the nearest
// hit's distance (`drop`), not the hit's own. A face's interior just beyond an edge that stops the probe first is
// a hit within the tie, whose own normal is the face's, while the body, stopped on the edge, touches it off its cap.
static tread_result rests_on(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float drop, const tread_shape_hit *hit,
                             bool *out_face, bool *out_rests) {
    const tread_character_settings *s = &ch->settings;
    *out_face = *out_rests = false;
    tread_result r = tr_is_walkable_on(q, ch, TR_WHO(*hit), hit->surface_normal, out_face);
    if (r != TREAD_OK || !*out_face) return r;
    if (s->shape == TREAD_QUERY_BOX) {
        *out_rests = true;
        return TREAD_OK;
    }
    tread_vec3 centre = tread_v3_mad(feet, s->radius - drop, s->up), toward = tread_v3_sub(centre, hit->point);
    float length = tread_v3_length(toward);
    tread_vec3 normal = length > TR_ROUND_CONTACT_MIN ? tread_v3_scale(toward, 1.0f / length) : hit->normal;
    if ((r = tr_is_walkable_on(q, ch, TR_WHO(*hit), hit->normal, out_rests)) != TREAD_OK || !*out_rests) return r;
    return tr_is_walkable_on(q, ch, TR_WHO(*hit), normal, out_rests);
}

// The nearest tier of hits (within TR_GROUND_TIE of the nearest), below the shape at `feet`: the most level face
// the body rests on (*out_support) and, when it rests on none, the nearest walkable face it is perched on
// (*out_perch).
static tread_result pick(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *hits, int count,
                         float distance, int *out_support, int *out_perch) {
    const tread_vec3 up = ch->settings.up;
    *out_support = *out_perch = -1;
    if (count == 0) return TREAD_OK;
    float nearest = hits[0].fraction * distance;
    float best_up = -2.0f, best_off_axis_sq = INFINITY;
    for (int i = 0; i < count; ++i) {
        if (hits[i].fraction * distance > nearest + TR_GROUND_TIE) break;
        if (tread_v3_dot(hits[i].normal, up) <= 0.0f) continue;
        // A round bottom is held only by what it touches below its centre. A probe that started deep inside a body the
        // character walks through (a layer in its ground mask, not its collide mask) reports a point above it, which
        // was taken for a nose to roll off: the roll sent a capsule 0.46 m sideways in one frame (the soak's 3:809).
        if (ch->settings.shape != TREAD_QUERY_BOX &&
            tread_v3_dot(tread_v3_sub(tread_v3_mad(feet, ch->settings.radius - nearest, up), hits[i].point), up) <= 0.0f)
            continue;
        bool face = false, rests = false;
        tread_result r = rests_on(q, ch, feet, nearest, &hits[i], &face, &rests);
        if (r != TREAD_OK) return r;
        if (face && !rests && *out_perch < 0) *out_perch = i;
        if (!rests) continue;
        // Of faces in one plane (a floor split into triangles), the one under the body's axis: a neighbour touched
        // only at its edge beside the body (a sunk round bottom reaches it) reports a point off the body's bottom.
        float up_dot = tread_v3_dot(hits[i].surface_normal, up);
        float off_axis_sq = tread_v3_length_sq(tread_v3_reject(tread_v3_sub(hits[i].point, feet), up)); // (compared only)
        bool coplanar = *out_support >= 0 && tread_v3_dot(hits[i].surface_normal, hits[*out_support].surface_normal) >= TR_SAME_PLANE_COS;
        if (coplanar ? off_axis_sq < best_off_axis_sq : up_dot > best_up) {
            *out_support = i;
            best_up = up_dot;
            best_off_axis_sq = off_axis_sq;
        }
    }
    if (*out_support >= 0) *out_perch = -1;
    return TREAD_OK;
}

tread_result tr_pick_support(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *hits, int count,
                             float distance, int *out_index) {
    // Candidates are below the shape (contact normal pointing up) on a walkable face the body rests on. Hits come
    // sorted by fraction; among those about as near as the nearest hit, the most level face wins, so at an edge
    // shared by two faces (a mesh's riser and tread) the face that can hold the character is the one reported.
    int perch;
    return pick(q, ch, feet, hits, count, distance, out_index, &perch);
}

tread_result tr_pick_perch(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *hits, int count,
                           float distance, int *out_index) {
    int support;
    return pick(q, ch, feet, hits, count, distance, &support, out_index);
}

// The walkable surface under `at` within `below` metres (a ray down from there): its point and normal.
static tread_result surface_under(const tr_move_query *q, const tread_character *ch, tread_vec3 at, float below, bool *out_found,
                                  tread_vec3 *out_point, tread_vec3 *out_normal) {
    const tread_character_settings *s = &ch->settings;
    tread_query_filter filter = tr_ground_filter(ch);
    tread_ray_hit hit;
    *out_found = false;
    tread_result r = tr_query_ray(q, at, tread_v3_scale(s->up, -below), &filter, &hit);
    if (r != TREAD_OK || !hit.hit || hit.fraction == 0.0f) return r; // nothing there, or the probe starts inside a wall
    *out_point = hit.point;
    *out_normal = hit.normal;
    return tr_is_walkable_on(q, ch, TR_WHO(hit), hit.normal, out_found);
}

// How far the walkable surface under `from` (normal `normal`) runs on the way `direction` goes (horizontal, unit),
// followed along the surface, up to `length`: in TR_TREAD_SEGMENTS legs, each along the plane of the face it starts
// on, just above it. A leg that meets a walkable face goes on up it (a tread that bends up into a ramp); one that
// meets anything else (a riser, a wall) ends the run there (blocked); at a leg's end the surface must still be
// under it within what the leg could have dropped along a walkable slope plus `drop` (a tread that bends down), or
// the run ends at the edge before it: `bend` (the sine of the steepest bend down followed) times the leg, plus `drop`.
typedef struct tr_tread_run {
    float length;     // metres run along the surface
    bool blocked;     // ended against something not walkable (else at an edge, or the whole length)
    tread_vec3 end;   // on the surface where it ended
} tr_tread_run;

static tread_result run_along(const tr_move_query *q, const tread_character *ch, tread_vec3 from, tread_vec3 normal, tread_vec3 direction,
                              float length, float bend, float drop, tr_tread_run *out) {
    tread_query_filter filter = tr_ground_filter(ch);
    const tread_vec3 up = ch->settings.up;
    float leg = length / (float)TR_TREAD_SEGMENTS, lift = 0.5f * TR_TREAD_HEIGHT_TOLERANCE;
    tread_vec3 at = from;
    out->length = 0.0f;
    out->blocked = false;
    for (int i = 0; i < 2 * TR_TREAD_SEGMENTS && out->length < length; ++i) {
        tread_vec3 along = tread_v3_reject(direction, normal);
        float len = tread_v3_length(along);
        if (len < 1.0e-3f) break;
        along = tread_v3_scale(along, 1.0f / len);
        float step = tr_minf(leg, length - out->length);
        tread_vec3 start = tread_v3_mad(at, lift, normal);
        tread_ray_hit hit;
        tread_result r = tr_query_ray(q, start, tread_v3_scale(along, step), &filter, &hit);
        if (r != TREAD_OK) return r;
        if (hit.hit) {
            bool walkable = false;
            if (hit.fraction > 0.0f && (r = tr_is_walkable_on(q, ch, TR_WHO(hit), hit.normal, &walkable)) != TREAD_OK) return r;
            out->length += hit.fraction * step;
            at = tread_v3_mad(at, hit.fraction * step, along);
            if (!walkable) {
                out->blocked = true;
                break;
            }
            at = hit.point, normal = hit.normal; // up the face it bends into
            continue;
        }
        tread_vec3 end = tread_v3_mad(start, step, along), point, n;
        bool found = false;
        float below = lift + step * bend + drop;
        if ((r = surface_under(q, ch, end, below, &found, &point, &n)) != TREAD_OK) return r;
        if (!found) { // the tread's edge lies within this leg: found by halving it
            float lo = 0.0f, hi = step;
            for (int k = 0; k < TR_TREAD_EDGE_HALVINGS; ++k) {
                float mid = 0.5f * (lo + hi);
                if ((r = surface_under(q, ch, tread_v3_mad(start, mid, along), lift + mid * bend + drop, &found, &point, &n)) != TREAD_OK) return r;
                if (found) lo = mid;
                else hi = mid;
            }
            out->length += lo;
            at = tread_v3_mad(at, lo, along);
            // No surface under the leg's end, but one above the tread there: the leg passed over a riser no higher
            // than the lift (a micro-step's 1 cm, at the lift's height: rounding took the ray over its nose) and
            // ended in the next step. A riser blocks the run; it is no edge.
            bool higher = false;
            if ((r = surface_under(q, ch, tread_v3_mad(end, lift, up), below + lift, &higher, &point, &n)) != TREAD_OK) return r;
            out->blocked = higher && tread_v3_dot(tread_v3_sub(point, end), up) > -lift;
            break;
        }
        out->length += step;
        at = point, normal = n;
    }
    out->end = at;
    return TREAD_OK;
}

// The tread at the landing contact is deep enough to stand on: its walkable surface runs on at least min_step_depth
// along the motion (projected onto the surface, followed where it bends: a curb whose top is a slope, a tread
// that tilts), ahead of the contact up to the next riser or wall and, for what is missing there, behind it up to
// the nose (a round bottom lands on a tread's nose, so all of its depth lies ahead, but a flat bottom lands anywhere
// on it: a box over 0.12 m spiral treads touches the tread it lands on at its inner corner, 9 cm from the next
// riser). A shallower tread still counts when what ends it is the next step of a staircase, its rise within max
// step and the line of the noses walkable (micro-steps of 2 cm on 5 cm treads): min_step_depth guards a single
// ledge, a 1 cm lip in front of a wall.
tread_result tr_tread_is_deep_enough(const tr_move_query *q, const tread_character *ch, tread_vec3 landing, tread_vec3 direction,
                                     bool *out_deep) {
    const tread_character_settings *s = &ch->settings;
    *out_deep = true;
    if (s->min_step_depth <= 0.0f) return TREAD_OK;
    *out_deep = false;
    float depth = tr_maxf(0.0f, s->min_step_depth - TR_TREAD_DEPTH_TOLERANCE), lift = 0.5f * TR_TREAD_HEIGHT_TOLERANCE;
    // The face the contact lands on (just past the contact: on a nose the riser meets it too). Far from the origin
    // that millimetre is below a float's resolution and the ray may meet the nose's edge: the tread is then taken as
    // level, and its run measures it.
    tread_vec3 point, normal;
    bool found = false;
    tread_result r = surface_under(q, ch, tread_v3_mad(tread_v3_mad(landing, TR_TREAD_DEPTH_TOLERANCE, direction), lift, s->up),
                                   2.0f * lift, &found, &point, &normal);
    if (r != TREAD_OK) return r;
    if (!found) normal = s->up;
    tr_tread_run ahead, behind;
    float bend = sqrtf(tr_maxf(0.0f, 1.0f - ch->max_slope_cos * ch->max_slope_cos)); // sin(max slope): a walkable bend down
    if ((r = run_along(q, ch, landing, normal, direction, depth, bend, TR_TREAD_HEIGHT_TOLERANCE, &ahead)) != TREAD_OK) return r;
    if (ahead.length >= depth) {
        *out_deep = true;
        return TREAD_OK;
    }
    // Behind, along the landing's plane: the tread below is one rise lower, and rises from 2 cm up must not count as
    // the same tread.
    if ((r = run_along(q, ch, landing, normal, tread_v3_neg(direction), depth - ahead.length, 0.0f, TR_TREAD_BEHIND_TOLERANCE, &behind)) !=
        TREAD_OK)
        return r;
    if (ahead.length + behind.length >= depth) {
        *out_deep = true;
        return TREAD_OK;
    }
    if (!ahead.blocked) return TREAD_OK;
    // A staircase: the next step's top within max step above this tread, and the line from nose to nose walkable.
    tread_vec3 over = tread_v3_mad(tread_v3_mad(ahead.end, TR_TREAD_DEPTH_TOLERANCE, direction), s->max_step_height + lift, s->up);
    if ((r = surface_under(q, ch, over, s->max_step_height + lift, &found, &point, &normal)) != TREAD_OK || !found) return r;
    float rise = tread_v3_dot(tread_v3_sub(point, ahead.end), s->up), going = ahead.length + behind.length;
    *out_deep = rise > 0.0f && rise <= s->max_step_height + TR_TREAD_RISE_SLACK && going >= ch->max_slope_cos * sqrtf(going * going + rise * rise);
    return TREAD_OK;
}

float tr_perch_depth(const tread_character *ch, const tread_move_state *st, tread_vec3 feet) {
    const tread_character_settings *s = &ch->settings;
    if (st->previous_ground.state != TREAD_GROUND_ON_GROUND || s->shape == TREAD_QUERY_BOX) return 0.0f;
    // A round bottom rests on an edge at most its radius below it (the support is the edge's walkable face, whatever
    // the contact normal there).
    float deepest = s->radius + s->skin;
    return tr_clampf(tread_v3_dot(tread_v3_sub(st->previous_ground.point, feet), s->up), 0.0f, deepest);
}

static tread_contact contact_of(const tread_shape_hit *hit) {
    tread_contact c;
    c.separation = -hit->penetration;
    c.point = hit->point;
    c.normal = hit->normal;
    c.surface_normal = hit->surface_normal;
    c.body = hit->body;
    c.character = hit->character;
    c.feature = hit->feature;
    return c;
}

static bool listed(const tread_contact *list, int count, const tread_contact *c) {
    for (int i = 0; i < count; ++i)
        if (tr_who_equal(TR_WHO(list[i]), TR_WHO(*c)) && list[i].feature == c->feature) return true;
    return false;
}

void tr_record_touch(const tr_move_query *q, tread_move_state *st, const tread_contact *c) {
    if (!st) return;
    // New when neither list has it (past full lists it cannot tell: counted again, as the count says).
    if (listed(st->contacts, st->contacts_kept, c)) return;
    int written = q->contacts ? (st->result.contact_count < q->contact_capacity ? st->result.contact_count : q->contact_capacity) : 0;
    if (q->contacts && listed(q->contacts, written, c)) return;
    ++st->result.contact_count;
    if (q->contacts && written < q->contact_capacity) q->contacts[written] = *c;
    if (st->contacts_kept < TREAD_MAX_MOVE_CONTACTS) st->contacts[st->contacts_kept++] = *c;
}

void tr_record_contact(const tr_move_query *q, tread_move_state *st, const tread_shape_hit *hit) {
    tread_contact c = contact_of(hit);
    tr_record_touch(q, st, &c);
}
