// SPDX-License-Identifier: MIT
// The riser (Staxel's, for voxel worlds): a second, slimmer volume reaching riser.depth below the main one. While it is
// in the ground it holds the body (gravity off: the caller owns gravity, so the move reports held_by_riser and
// the update cancels downward velocity), and each frame the body rises by a binary search — halving, at
// most 6 probes, stopping below a trivial length — over a distance proportional to how far it moved, keeping
// the riser in the ground and the main volume free. It climbs anything lower than the riser reaches, smoothly,
// and forgives rough voxel geometry; by design it hovers up to riser.depth above the ground and lets the body
// squeeze into gaps the main volume alone would refuse. "In the ground" means overlapping ground: contacts whose
// normal is walkable on their layer. Below a capsule's equator the riser sticks out past the narrowing
// hemisphere, so counting a wall's face as ground would let it ratchet up walls of any height (Staxel's main
// volume is a box, where the slimmer riser never sticks out).
#include "character_internal.h"

#define TR_RISER_ITERATIONS 6       // Staxel's max_riser_iterations
#define TR_RISER_TRIVIAL 1.0e-4f    // metres: Staxel's trivial_length

// The riser: radius scaled down, from riser.depth below the feet up to the main volume's lower sphere centre.
static tread_query_shape riser_shape(const tread_character *ch, tread_vec3 feet, tread_vec3 *center) {
    const tread_character_settings *s = &ch->settings;
    float r = s->radius * s->riser.radius_scale;
    float bottom = -s->riser.depth, top = s->radius + r; // along up, relative to the feet
    float half = tr_maxf(0.0f, 0.5f * (top - bottom) - r);
    *center = tread_v3_mad(feet, 0.5f * (top + bottom), s->up);
    return tread_query_capsule(half, r, s->up);
}

#define TR_RISER_CONTACTS 16

// Does the riser overlap walkable ground? The deepest such contact goes to *ground_contact.
static tread_result overlaps(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_contact *ground_contact,
                             bool *out_overlaps) {
    tread_vec3 center;
    tread_query_shape shape = riser_shape(ch, feet, &center);
    tread_query_filter filter = tr_ground_filter(ch);
    tread_contact contacts[TR_RISER_CONTACTS];
    int count = 0;
    bool overflow = false;
    *out_overlaps = false;
    tread_result r = tr_query_contacts(q, &shape, center, 0.0f, &filter, contacts, TR_RISER_CONTACTS, &count, &overflow);
    for (int i = 0; r == TREAD_OK && i < count; ++i) { // sorted deepest first
        if (contacts[i].separation >= 0.0f) break;
        bool walkable = false;
        if ((r = tr_is_walkable_on(q, ch, contacts[i].body, contacts[i].normal, &walkable)) != TREAD_OK || !walkable) continue;
        *ground_contact = contacts[i];
        *out_overlaps = true;
        break;
    }
    return r;
}

tread_result tr_riser_holds(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, bool *out_holds) {
    tread_contact contact;
    return overlaps(q, ch, feet, &contact, out_holds);
}

// How far the riser may lift this frame: Staxel's distance — horizontal motion, plus a share of downward motion
// (so a falling body is caught), times the speed multiplier — capped at max step so fast motion cannot launch it.
static float rise_budget(const tread_character *ch, tread_vec3 motion, float dt, bool buried) {
    const tread_character_settings *s = &ch->settings;
    float down = tr_minf(0.0f, tread_v3_dot(motion, s->up));
    float across = tread_v3_length(tread_v3_reject(motion, s->up));
    float distance = sqrtf(down * down * s->riser.fall_scale + across * across) * s->riser.speed_scale;
    if (buried) distance = tr_maxf(distance, s->recovery_speed * dt); // starting inside the ground forces a rise
    return tr_minf(distance, tr_maxf(s->max_step_height, s->recovery_speed * dt));
}

tread_result tr_step_riser(const tr_move_query *q, const tread_character *ch, tread_move_result *res, tr_step *out, bool *out_found) {
    const tread_vec3 up = ch->settings.up, feet = res->position;
    tread_contact contact;
    bool held = false, fits = false;
    *out_found = false;
    tread_result r = overlaps(q, ch, feet, &contact, &held);
    if (r != TREAD_OK || !held) return r;
    if ((r = tr_fits(q, ch, feet, TR_PENETRATION_SLOP, &fits)) != TREAD_OK) return r;
    bool buried = !fits;
    float distance = rise_budget(ch, tread_v3_sub(res->position, res->start_position), res->dt, buried);
    // Binary search: halve the step each probe; keep a lift where the riser stays in the ground and the body fits.
    float step = 1.0f, total = 0.0f;
    for (int i = 0; i < TR_RISER_ITERATIONS; ++i) {
        step *= 0.5f;
        if (step * distance < TR_RISER_TRIVIAL) break;
        float d = total + step * distance;
        tread_vec3 f = tread_v3_mad(feet, d, up);
        tread_contact probe;
        bool in_ground = false;
        if ((r = overlaps(q, ch, f, &probe, &in_ground)) != TREAD_OK) return r;
        if (!in_ground) continue;
        if (!buried && ((r = tr_fits(q, ch, f, TR_PENETRATION_SLOP, &fits)) != TREAD_OK)) return r;
        if (buried || fits) total = d;
    }
    out->base = feet;
    out->feet = tread_v3_mad(feet, total, up);
    out->support = contact.point;
    out->has_landing = false;
    out->holds = true;
    tread_ground *g = &out->ground;
    g->state = TREAD_GROUND_ON_GROUND;
    g->normal = contact.surface_normal;
    bool walkable = false;
    if ((r = tr_is_walkable_on(q, ch, contact.body, g->normal, &walkable)) != TREAD_OK) return r;
    if (!walkable) g->normal = contact.normal;
    g->point = contact.point;
    g->distance = 0.0f;
    g->body = contact.body;
    if ((r = tr_query_point_velocity(q, contact.body, contact.point, &g->velocity)) != TREAD_OK) return r;
    *out_found = true;
    return TREAD_OK;
}
