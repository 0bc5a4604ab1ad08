// SPDX-License-Identifier: MIT
// The character's body: shape, centre, filters, walkability, fit test, ground probe and support pick.
#include "body.h"

// A tread exactly min_step_depth deep counts: the probe stops this much short of the next riser (metres).
#define TR_TREAD_DEPTH_TOLERANCE 1.0e-3f
// The tread-depth probe must find the tread within this height of the landing point (metres).
#define TR_TREAD_HEIGHT_TOLERANCE 0.02f
// Behind the landing contact the tread must be level with it within this (metres): the tread below is one rise
// lower, and rises from 2 cm up must not count as one tread (no nosing to allow for behind the contact).
#define TR_TREAD_BEHIND_TOLERANCE 0.005f

float tr_center_height(const tread_character_settings *s) { return s->shape == TREAD_QUERY_SPHERE ? s->radius : 0.5f * s->height; }

tread_vec3 tr_center(const tread_character *ch, tread_vec3 feet) { return tread_v3_mad(feet, tr_center_height(&ch->settings), ch->settings.up); }

tread_query_shape tr_body_shape(const tread_character *ch, float extra) {
    const tread_character_settings *s = &ch->settings;
    if (s->shape == TREAD_QUERY_SPHERE) return tread_query_sphere(s->radius + extra);
    // The box grows by the skin on every face, as the capsule does (its bottom sits `extra` below the feet).
    if (s->shape == TREAD_QUERY_BOX)
        return tread_query_box(tread_v3(s->radius + extra, 0.5f * s->height + extra, s->radius + extra), s->up);
    // Grow the radius only: the feet stay where they are, the skin surrounds the whole shape.
    return tread_query_capsule(0.5f * s->height - s->radius, s->radius + extra, s->up);
}

float tr_body_reach(const tread_character_settings *s) {
    if (s->shape == TREAD_QUERY_SPHERE) return s->radius;
    // A box's half diagonal bounds both the box and the capsule of the same radius and height.
    float h = 0.5f * s->height;
    return sqrtf(2.0f * s->radius * s->radius + h * h);
}

static tread_query_filter mask_filter(uint32_t mask) {
    tread_query_filter f = tread_query_filter_default();
    f.layer_mask = mask;
    return f;
}

tread_query_filter tr_collide_filter(const tread_character *ch) { return mask_filter(ch->settings.collide_mask); }

tread_query_filter tr_ground_filter(const tread_character *ch) { return mask_filter(ch->settings.ground_mask); }

bool tr_only_body(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    (void)layer, (void)user_data;
    return tread_body_id_equal(body, *(const tread_body_id *)context);
}

bool tr_not_body(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    return !tr_only_body(body, layer, user_data, context);
}

bool tr_is_walkable(const tread_character *ch, tread_vec3 normal) { return tread_v3_dot(normal, ch->settings.up) >= ch->max_slope_cos; }

tread_result tr_is_walkable_on(const tr_move_query *q, const tread_character *ch, tread_body_id body, tread_vec3 normal,
                               bool *out_walkable) {
    float limit = ch->max_slope_cos;
    *out_walkable = false;
    if (ch->settings.stairs_layer_mask != 0u || ch->settings.ground_mask != ~0u) {
        uint32_t layer = 0;
        tread_result r = tr_query_body_layer(q, body, &layer);
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
    tread_query_filter filter = mask_filter(s->collide_mask | s->ground_mask);
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
// bottom wherever it touches it, a round bottom only where its contact normal is as walkable as the face (its
// contact within max slope of straight down: on a nose's edge beyond that, a capsule is perched, not standing).
static tread_result rests_on(const tr_move_query *q, const tread_character *ch, const tread_shape_hit *hit, bool *out_face, bool *out_rests) {
    *out_face = *out_rests = false;
    tread_result r = tr_is_walkable_on(q, ch, hit->body, hit->surface_normal, out_face);
    if (r != TREAD_OK || !*out_face) return r;
    if (ch->settings.shape == TREAD_QUERY_BOX) {
        *out_rests = true;
        return TREAD_OK;
    }
    return tr_is_walkable_on(q, ch, hit->body, hit->normal, out_rests);
}

// The nearest tier of hits (within TR_GROUND_TIE of the nearest), below the shape: the most level face the body
// rests on (*out_support) and, when it rests on none, the nearest walkable face it is perched on (*out_perch).
static tread_result pick(const tr_move_query *q, const tread_character *ch, const tread_shape_hit *hits, int count, float distance,
                         int *out_support, int *out_perch) {
    const tread_vec3 up = ch->settings.up;
    *out_support = *out_perch = -1;
    if (count == 0) return TREAD_OK;
    float nearest = hits[0].fraction * distance;
    float best_up = -2.0f;
    for (int i = 0; i < count; ++i) {
        if (hits[i].fraction * distance > nearest + TR_GROUND_TIE) break;
        if (tread_v3_dot(hits[i].normal, up) <= 0.0f) continue;
        bool face = false, rests = false;
        tread_result r = rests_on(q, ch, &hits[i], &face, &rests);
        if (r != TREAD_OK) return r;
        if (face && !rests && *out_perch < 0) *out_perch = i;
        if (!rests) continue;
        float up_dot = tread_v3_dot(hits[i].surface_normal, up);
        if (up_dot > best_up) {
            *out_support = i;
            best_up = up_dot;
        }
    }
    if (*out_support >= 0) *out_perch = -1;
    return TREAD_OK;
}

tread_result tr_pick_support(const tr_move_query *q, const tread_character *ch, const tread_shape_hit *hits, int count, float distance,
                             int *out_index) {
    // Candidates are below the shape (contact normal pointing up) on a walkable face the body rests on. Hits come
    // sorted by fraction; among those about as near as the nearest hit, the most level face wins, so at an edge
    // shared by two faces (a mesh's riser and tread) the face that can hold the character is the one reported.
    int perch;
    return pick(q, ch, hits, count, distance, out_index, &perch);
}

tread_result tr_pick_perch(const tr_move_query *q, const tread_character *ch, const tread_shape_hit *hits, int count, float distance,
                           int *out_index) {
    int support;
    return pick(q, ch, hits, count, distance, &support, out_index);
}

// The tread is a walkable surface at the landing's height (within `tolerance`, metres) at `at`, reached by a ray
// from just above the landing's height.
static tread_result tread_is_under(const tr_move_query *q, const tread_character *ch, tread_vec3 landing, tread_vec3 at,
                                   float tolerance, bool *out_under) {
    const tread_character_settings *s = &ch->settings;
    tread_query_filter filter = tr_ground_filter(ch);
    tread_ray_hit hit;
    *out_under = false;
    tread_result r = tr_query_ray(q, at, tread_v3_scale(s->up, -2.0f * TR_TREAD_HEIGHT_TOLERANCE), &filter, &hit);
    if (r != TREAD_OK) return r;
    if (!hit.hit || hit.fraction == 0.0f) return TREAD_OK; // nothing there, or the probe starts inside a wall
    float dh = tread_v3_dot(tread_v3_sub(hit.point, landing), s->up);
    if (fabsf(dh) > tolerance) return TREAD_OK;
    return tr_is_walkable_on(q, ch, hit.body, hit.normal, out_under);
}

// The tread at the landing contact is at least min_step_depth deep along the direction of motion: no stepping
// onto a 1 cm lip in front of a wall. Measured ahead of the contact up to the next riser (or wall), and what is
// missing there behind it: a round bottom lands on a tread's nose, so all of its depth lies ahead, but a flat
// bottom lands anywhere on it (a box over 0.12 m spiral treads touches the tread it lands on at its inner corner,
// 9 cm from the next riser).
tread_result tr_tread_is_deep_enough(const tr_move_query *q, const tread_character *ch, tread_vec3 landing, tread_vec3 direction,
                                     bool *out_deep) {
    const tread_character_settings *s = &ch->settings;
    *out_deep = true;
    if (s->min_step_depth <= 0.0f) return TREAD_OK;
    float depth = tr_maxf(0.0f, s->min_step_depth - TR_TREAD_DEPTH_TOLERANCE);
    tread_vec3 above = tread_v3_mad(landing, 0.5f * TR_TREAD_HEIGHT_TOLERANCE, s->up);
    tread_query_filter filter = tr_ground_filter(ch);
    tread_ray_hit hit;
    *out_deep = false;
    // Along the tread, just above it (half the height tolerance: under the next step's nosing): the room up to
    // the next riser or wall.
    // (A mesh is only its surface: a probe that started inside the next step would find its underside below.)
    tread_result r = tr_query_ray(q, above, tread_v3_scale(direction, depth), &filter, &hit);
    if (r != TREAD_OK) return r;
    float ahead = hit.hit ? hit.fraction * depth : depth;
    // The tread runs on under that room (a probe just short of what stopped it).
    bool under = true;
    if (ahead > TR_TREAD_DEPTH_TOLERANCE &&
        (r = tread_is_under(q, ch, landing, tread_v3_mad(above, ahead - TR_TREAD_DEPTH_TOLERANCE, direction),
                             TR_TREAD_HEIGHT_TOLERANCE, &under)) != TREAD_OK)
        return r;
    if (!under) return TREAD_OK;
    float behind = depth - ahead;
    if (behind <= 0.0f) {
        *out_deep = true;
        return TREAD_OK;
    }
    // The rest behind the contact: free above the tread, and the tread still there at its end.
    if ((r = tr_query_ray(q, above, tread_v3_scale(direction, -behind), &filter, &hit)) != TREAD_OK) return r;
    if (hit.hit) return TREAD_OK;
    return tread_is_under(q, ch, landing, tread_v3_mad(above, -behind, direction), TR_TREAD_BEHIND_TOLERANCE, out_deep);
}

float tr_perch_depth(const tread_character *ch, const tread_move_result *res, tread_vec3 feet) {
    const tread_character_settings *s = &ch->settings;
    if (res->previous_ground.state != TREAD_GROUND_ON_GROUND || s->shape == TREAD_QUERY_BOX) return 0.0f;
    // A round bottom rests on an edge at most its radius below it (the support is the edge's walkable face, whatever
    // the contact normal there).
    float deepest = s->radius + s->skin;
    return tr_clampf(tread_v3_dot(tread_v3_sub(res->previous_ground.point, feet), s->up), 0.0f, deepest);
}

static tread_contact contact_of(const tread_shape_hit *hit) {
    tread_contact c;
    c.separation = -hit->penetration;
    c.point = hit->point;
    c.normal = hit->normal;
    c.surface_normal = hit->surface_normal;
    c.body = hit->body;
    c.feature = hit->feature;
    return c;
}

static bool listed(const tread_contact *list, int count, const tread_contact *c) {
    for (int i = 0; i < count; ++i)
        if (tread_body_id_equal(list[i].body, c->body) && list[i].feature == c->feature) return true;
    return false;
}

void tr_record_touch(const tr_move_query *q, tread_move_result *res, const tread_contact *c) {
    if (!res) return;
    // New when neither list has it (past a full list it cannot tell: counted again, as the totals say).
    if (listed(res->contacts, res->contact_count, c)) return;
    int kept = q->contacts ? (res->contact_total < q->contact_capacity ? res->contact_total : q->contact_capacity) : 0;
    if (q->contacts && listed(q->contacts, kept, c)) return;
    ++res->contact_total;
    if (q->contacts) {
        if (kept < q->contact_capacity) q->contacts[kept] = *c;
        else ++res->contacts_dropped;
    }
    if (res->contact_count == TREAD_MAX_MOVE_CONTACTS) {
        res->contacts_overflow = true;
        if (!q->contacts) ++res->contacts_dropped;
        return;
    }
    res->contacts[res->contact_count++] = *c;
}

void tr_record_contact(const tr_move_query *q, tread_move_result *res, const tread_shape_hit *hit) {
    tread_contact c = contact_of(hit);
    tr_record_touch(q, res, &c);
}
