// The riser (seed 003, Staxel): a second, slimmer volume reaching riser_depth below the main one. While it is
// in the ground it holds the body (gravity off: the caller owns gravity, so the move reports held_by_riser and
// the reference move cancels downward velocity), and each frame the body rises by a binary search — halving, at
// most 6 probes, stopping below a trivial length — over a distance proportional to how far it moved, keeping
// the riser in the ground and the main volume free. It climbs anything lower than the riser reaches, smoothly,
// and forgives rough voxel geometry; by design it hovers up to riser_depth above the ground and lets the body
// squeeze into gaps the main volume alone would refuse. "In the ground" means overlapping ground: contacts whose
// normal is walkable on their layer. Below a capsule's equator the riser sticks out past the narrowing
// hemisphere, so counting a wall's face as ground would let it ratchet up walls of any height (Staxel's main
// volume is a box, where the slimmer riser never sticks out).
#include "character_internal.h"

#define TR_RISER_ITERATIONS 6       // seed 003's max_riser_iterations
#define TR_RISER_TRIVIAL 1.0e-4f    // metres: seed 003's trivial_length

// The riser: radius scaled down, from riser_depth below the feet up to the main volume's lower sphere centre.
static tread_query_shape riser_shape(const tread_character *ch, tread_vec3 feet, tread_vec3 *center) {
    const tread_character_settings *s = &ch->settings;
    float r = s->radius * s->riser_radius_scale;
    float bottom = -s->riser_depth, top = s->radius + r; // along up, relative to the feet
    float half = tr_maxf(0.0f, 0.5f * (top - bottom) - r);
    *center = tread_v3_mad(feet, 0.5f * (top + bottom), s->up);
    return tread_query_capsule(half, r, s->up);
}

#define TR_RISER_CONTACTS 16

// Does the riser overlap walkable ground? The deepest such contact goes to *ground_contact.
static bool overlaps(const tread_world *w, const tread_character *ch, const tread_query_shape *shape, tread_vec3 center,
                     tread_contact *ground_contact) {
    tread_query_filter filter = tread_query_filter_default();
    filter.layer_mask = ch->settings.ground_mask;
    tread_contact contacts[TR_RISER_CONTACTS];
    int count = 0;
    bool overflow = false;
    tread_world_collect_contacts(w, shape, center, 0.0f, &filter, contacts, TR_RISER_CONTACTS, &count, &overflow);
    for (int i = 0; i < count; ++i) { // sorted deepest first
        if (contacts[i].separation >= 0.0f) break;
        if (!tr_is_walkable_on(w, ch, contacts[i].body, contacts[i].normal)) continue;
        *ground_contact = contacts[i];
        return true;
    }
    return false;
}

bool tr_riser_touches(const tread_world *w, const tread_character *ch, tread_vec3 feet) {
    tread_vec3 c;
    tread_query_shape shape = riser_shape(ch, feet, &c);
    tread_contact contact;
    return overlaps(w, ch, &shape, c, &contact);
}

bool tr_riser_hold(const tread_world *w, const tread_character *ch, tread_vec3 *feet, tread_vec3 motion, float dt,
                   float *out_rise, tread_ground *ground) {
    const tread_character_settings *s = &ch->settings;
    const tread_vec3 up = s->up;
    tread_vec3 c;
    tread_query_shape shape = riser_shape(ch, *feet, &c);
    tread_contact contact;
    *out_rise = 0.0f;
    if (!overlaps(w, ch, &shape, c, &contact)) return false;
    // Seed 003's distance: horizontal motion, plus a share of downward motion (so a falling body is caught),
    // times the speed multiplier; capped at max step so fast motion cannot launch the body.
    float down = tr_minf(0.0f, tread_v3_dot(motion, up));
    float across = tread_v3_length(tread_v3_reject(motion, up));
    float distance = sqrtf(down * down * s->riser_fall_scale + across * across) * s->riser_speed_scale;
    bool buried = !tr_fits(w, ch, *feet, TR_PENETRATION_SLOP);
    if (buried) distance = tr_maxf(distance, s->recovery_speed * dt); // starting inside the ground forces a rise
    distance = tr_minf(distance, tr_maxf(s->max_step_height, s->recovery_speed * dt));
    float step = 1.0f, total = 0.0f;
    for (int i = 0; i < TR_RISER_ITERATIONS; ++i) {
        step *= 0.5f;
        if (step * distance < TR_RISER_TRIVIAL) break;
        float d = total + step * distance;
        tread_vec3 f = tread_v3_mad(*feet, d, up);
        tread_vec3 rc;
        tread_query_shape rs = riser_shape(ch, f, &rc);
        tread_contact probe;
        if (overlaps(w, ch, &rs, rc, &probe) && (buried || tr_fits(w, ch, f, TR_PENETRATION_SLOP))) total = d;
    }
    *feet = tread_v3_mad(*feet, total, up);
    *out_rise = total;
    ground->state = TREAD_GROUND_ON_GROUND;
    ground->normal = contact.surface_normal;
    if (!tr_is_walkable_on(w, ch, contact.body, ground->normal)) ground->normal = contact.normal;
    ground->point = contact.point;
    ground->distance = 0.0f;
    ground->body = contact.body;
    if (tread_body_get_point_velocity(w, contact.body, contact.point, &ground->velocity) != TREAD_OK) ground->velocity = tread_v3_zero();
    return true;
}
