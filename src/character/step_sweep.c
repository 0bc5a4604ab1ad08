// Step up by sweeps (seed 001's final form, as Jolt's WalkStairs): sweep up by the max step (sliding under
// sloped ceilings), forward by the blocked motion (sliding along walls, never climbing), then down onto the
// tread. Rejected when nothing was gained, when the landing is too steep, too high, or too shallow, or
// when the body does not fit (the up or forward sweep is stopped).
#include "character_internal.h"

// Extra reach of the tread-depth probe above and below the landing height (metres).
#define TR_TREAD_PROBE_REACH 0.05f
// The tread-depth probe must find the tread within this height of the landing point (metres).
#define TR_TREAD_HEIGHT_TOLERANCE 0.02f

// The tread continues at least min_step_depth past the landing contact in the direction of motion: no
// stepping onto a 1 cm lip in front of a wall.
static bool tread_is_deep_enough(const tread_world *w, const tread_character *ch, const tread_shape_hit *landing,
                                 tread_vec3 direction) {
    const tread_character_settings *s = &ch->settings;
    if (s->min_step_depth <= 0.0f) return true;
    tread_vec3 origin = tread_v3_mad(tread_v3_mad(landing->point, s->min_step_depth, direction), TR_TREAD_PROBE_REACH, s->up);
    tread_query_filter filter = tread_query_filter_default();
    filter.layer_mask = s->ground_mask;
    tread_ray_hit hit;
    tread_world_cast_ray(w, origin, tread_v3_scale(s->up, -2.0f * TR_TREAD_PROBE_REACH), &filter, &hit);
    if (!hit.hit || hit.fraction == 0.0f) return false; // nothing there, or the probe starts inside a wall
    float dh = tread_v3_dot(tread_v3_sub(hit.point, landing->point), s->up);
    return fabsf(dh) <= TR_TREAD_HEIGHT_TOLERANCE && tr_is_walkable_on(w, ch, hit.body, hit.normal);
}

// Standing on the tread at the landing point (feet on the tread, axis through the point), the body is free:
// a perched landing on a tread's edge is only a step if the character could stand there. This is what
// stops a step under a low ceiling (S10) when the capsule's round bottom could perch on the edge below it.
// Touching the next riser is fine (allowance: the skin).
static bool fits_standing(const tread_world *w, const tread_character *ch, tread_vec3 support) {
    return tr_fits(w, ch, tread_v3_mad(support, ch->settings.skin, ch->settings.up), ch->settings.skin);
}

bool tr_step_sweep(const tread_world *w, const tread_character *ch, tread_vec3 feet, tread_vec3 motion,
                   tread_move_result *res, tread_vec3 *out_feet, float *out_rise) {
    const tread_character_settings *s = &ch->settings;
    tread_vec3 up = s->up;
    if (s->max_step_height <= 0.0f || tread_v3_length(motion) <= TR_MIN_MOVE) return false;

    // Up, sliding under sloped ceilings.
    tr_slide_result raised;
    tr_slide(w, ch, feet, tread_v3_scale(up, s->max_step_height), TR_SLIDE_AIR, NULL, &raised);
    float lift = tread_v3_dot(tread_v3_sub(raised.feet, feet), up);
    if (lift <= TR_MIN_STEP_RISE) return false; // a ceiling right above: the body does not fit

    // Forward, sliding along walls but never up anything.
    tr_slide_result ahead;
    tr_slide(w, ch, raised.feet, motion, TR_SLIDE_STEP_FORWARD, NULL, &ahead);
    tread_vec3 moved = tread_v3_reject(tread_v3_sub(ahead.feet, raised.feet), up);
    if (tread_v3_length(moved) <= TR_MIN_MOVE) return false;

    // Down onto the tread, at most as far as we went up.
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = tr_probe_down(w, ch, ahead.feet, lift, hits, TR_GROUND_HITS);
    if (count == 0) return false; // lower ground ahead: stepping down is stick-to-floor's job
    int support = tr_pick_support(w, ch, hits, count, lift);
    if (support < 0) return false; // the landing is too steep
    const tread_shape_hit landing = hits[support];
    tread_vec3 landed = tread_v3_mad(ahead.feet, -hits[0].fraction * lift, up);
    float rise = tread_v3_dot(tread_v3_sub(landed, feet), up);
    // The step's height is the tread's, not the feet's: a capsule perched on a tall step's edge has feet
    // well below the tread. Measuring the tread keeps max_step_height a hard limit.
    float tread_height = tread_v3_dot(tread_v3_sub(landing.point, feet), up);
    if (rise <= TR_MIN_STEP_RISE || tread_height > s->max_step_height + TR_STEP_HEIGHT_SLACK) return false;
    if (!tread_is_deep_enough(w, ch, &landing, tread_v3_normalize(moved))) return false;
    if (!tr_is_walkable_on(w, ch, landing.body, landing.normal) && !fits_standing(w, ch, landing.point)) return false;

    tr_record_contact(res, &landing);
    *out_feet = landed;
    *out_rise = rise;
    return true;
}
