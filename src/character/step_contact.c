// SPDX-License-Identifier: MIT
// Stepping from contacts (the Source engine's): among the surfaces the slide ran into, find one whose
// face is near-vertical (the face normal: a capsule meets a low riser's edge with its round bottom, so the
// contact normal is far from horizontal) and whose contact lies below max step above the surface stood on;
// probe down from max step height a little past it into the step; lift by the offset and give back the motion
// the collision removed. The three cases the Source write-up leaves to the reader are handled: no stepping when moving
// away from the riser (creeping back down a step), no stepping where the body does not fit, and contacts on
// bodies removed since they were gathered are skipped. The Source engine's player is a box, which rests on the
// tread after a lift plus the 1 cm overshoot past its side; a capsule lifted that way floats beside the edge on its
// round bottom, so the body is also advanced toward the nose, to where its round bottom rests on it (roll.c: no
// farther than this frame's motion and the roll onto a nose), and the floor phase settles it there. Heights are
// measured from the surface stood on and the lift from the feet, so a capsule perched on a nose lifts onto its own
// tread too.
#include "character_internal.h"
#include "../geometry/box.h"

// A face is a riser when its normal is this close to horizontal (|n . up|, dimensionless; the Source write-up's 0.01).
#define TR_RISER_FACE_UP 0.01f
// An edge contact is a riser's top edge when its contact normal leans at least this much sideways (|horizontal
// part|, dimensionless).
#define TR_EDGE_ACROSS 0.1f
// The body is set down over the tread from this far above max step (metres, past the skin): a flat bottom, grown by
// the skin, set down from exactly max step over a tread at max step starts touching it and finds nothing to come down
// onto (stairs-straight-boxes-up-r0.40-t0.12-box-30hz never left the floor); casts meet surfaces nearer than the touch
// tolerance.
#define TR_SET_DOWN_CLEARANCE (2.0f * TR_TOUCH_TOLERANCE)
// At most this many risers climbed in one move (each within max step of the ground the move began on): a frame's walk
// at 4 m/s and 30 Hz passes 7 noses of a flight of 2 cm treads.
#define TR_CONTACT_STEPS_MAX 16
// Past a riser that leans, at most this many rays find the nose: the first as far on as the face runs (at most the
// radius), each next halfway between the face and what lies past it (from 0.5 m to within the 1 cm overshoot in 6),
// and one to confirm each nose found.
#define TR_NOSE_SEARCH_RAYS 12
// The step probe starts this far above max step height (metres; the Source write-up's 0.0001), so a tread exactly at
// max step is found.
#define TR_STEP_PROBE_LIFT 1.0e-4f

// The advance over the nose: `across` metres (along the unit, horizontal `inward`, the riser's normal reversed) taken
// the walker's way. Within the motion it is that share of the motion; past it, the rest is the roll onto the nose
// (roll.c): across it, and along it the walker's way at most the radius. Straight along `inward`, each nose of a
// staircase met at 45 degrees turned a capsule's walk toward the risers' normal (0.74 m off its line over the flight:
// stairs-angled-y45-r0.35-t0.15-boxes-up-capsule-60hz), and a box lost the motion along the nose.
static tread_vec3 advance_path(const tread_character *ch, tread_vec3 flat, tread_vec3 inward, float across) {
    float toward = tread_v3_dot(flat, inward); // > 0: the caller skips risers it moves away from
    if (across <= toward) return tread_v3_scale(flat, across / toward);
    float extra = across - toward;
    tread_vec3 along = tread_v3_mad(flat, -toward, inward);
    float along_length = tread_v3_length(along);
    tread_vec3 path = tread_v3_mad(flat, extra, inward);
    if (along_length > 0.0f) path = tread_v3_mad(path, tr_minf(extra / toward, ch->settings.radius / along_length), along);
    return path;
}

// The inward direction (unit, horizontal: the riser's normal reversed) of the riser contact `c` is on, false when it
// is on no riser.
static bool riser_inward(const tread_character *ch, const tread_contact *c, tread_vec3 *out_inward) {
    const tread_vec3 up = ch->settings.up;
    tread_vec3 face = c->surface_normal;
    if (fabsf(tread_v3_dot(face, up)) >= TR_RISER_FACE_UP) {
        // A mesh reports an edge hit on either triangle; met on the tread's (facing up) with a steep contact,
        // the riser is the face below that edge, facing along the contact normal's horizontal part. So is the
        // face above a nosing's bottom edge, met on the nosing's underside (facing down): a round bottom meets a
        // mesh nosing there first, and the underside's normal hid every riser of a mesh spiral with nosings
        // (stairs-spiral-mesh-nosing-up-r0.40-t0.20-sphere-30hz never left the floor).
        tread_vec3 across = tread_v3_reject(c->normal, up);
        if (tread_v3_dot(c->normal, up) >= ch->max_slope_cos || tread_v3_length(across) < TR_EDGE_ACROSS)
            return false; // not a riser face, nor a riser's edge
        face = across;
    }
    *out_inward = tread_v3_normalize(tread_v3_neg(tread_v3_reject(face, up)));
    return true;
}

// How steeply the surface `hit` met rises along the unit, horizontal `inward` (*out_rate, metres per metre, negative
// where it falls away); false where it does not face up.
static bool rate_along(const tread_character *ch, const tread_ray_hit *hit, tread_vec3 inward, float *out_rate) {
    float upward = tread_v3_dot(hit->normal, ch->settings.up);
    if (!(upward > 0.0f)) return false;
    *out_rate = -tread_v3_dot(hit->normal, inward) / upward;
    return true;
}

// The probe a little past a riser that leans (a heightfield's riser spans one grid cell: 63 to 82 degrees) meets that
// face again, a centimetre up it, and found no tread: a box at the foot of a 0.1 m heightfield curb's riser, 5 cm deep,
// stood before it for good (curb-level-h0.10-heightfield-on-box-60hz). The face `hit` (the probe from `origin`, `top`
// long, met it) reaches the probe's start within the run it leans by; a tread within max step begins before there, so
// a probe that far on (and the overshoot) finds it, and the nose is where the face meets that tread. Confirmed by the
// probe the overshoot past that nose (the Source rule's, at the riser's top edge): a face that goes on up past the
// probe's start (a wedge too steep to walk) has no nose, and that probe meets the face again. A face that runs on
// farther than tr_step_look_ahead (the sweep's look past a sloped riser) is a slope too steep to walk, not a riser.
// On a tread, *hit is the probe past the nose and *out_nose the nose.
//
// The tread found far on need not be the plane the face meets: a top that bends down from the nose (a heightfield's
// 30-degree top, 10 cm high, ends in a cell of 15 degrees where that probe found it) put the nose 4 cm down the face,
// and the confirming probe met the face (curb-top-down-a30-h0.10-heightfield-on-box-30hz: no step, every frame). So
// the search narrows: between the last probe on the face and the nearest on a walkable tread it probes halfway and
// takes the nose from the nearer tread, until they are within the overshoot (the rule's own reach past a nose).
static tread_result past_leaning_riser(const tr_move_query *q, const tread_character *ch, tread_vec3 origin, float top, tread_vec3 inward,
                                       tread_ray_hit *hit, tread_vec3 *out_nose, bool *out_walkable) {
    const tread_character_settings *s = &ch->settings;
    const tread_vec3 up = s->up;
    const float overshoot = s->contact_step.search_overshoot;
    *out_walkable = false;
    float lean_rate = 0.0f; // metres of rise per metre on
    if (!rate_along(ch, hit, inward, &lean_rate) || !(lean_rate > 0.0f)) return TREAD_OK;
    float run = tread_v3_dot(tread_v3_sub(origin, hit->point), up) / lean_rate;
    if (run > tr_step_look_ahead(ch)) return TREAD_OK;
    tread_query_filter filter = tr_ground_filter(ch);
    tread_vec3 down = tread_v3_scale(up, -top);
    // The farthest probe on the riser met `face`, `near` metres on from `origin`; `beyond` metres on, a probe met a
    // walkable tread or nothing within reach (the ground past a top that falls away lies below the feet); `tread` is
    // the nearest tread found, `on` metres on.
    tread_ray_hit face = *hit, tread;
    float near = 0.0f, beyond = run + overshoot, on = beyond;
    bool found = false;
    tread_result r = tr_query_ray(q, tread_v3_mad(origin, beyond, inward), down, &filter, &tread);
    if (r != TREAD_OK || (tread.hit && tread.fraction == 0.0f)) return r;
    if (tread.hit && (r = tr_is_walkable_on(q, ch, TR_WHO(tread), tread.normal, &found)) != TREAD_OK) return r;
    if (tread.hit && !found) return TREAD_OK; // a face that goes on past max step: no nose
    bool fresh = found; // a tread found since the last nose was tried
    for (int rays = 1; rays < TR_NOSE_SEARCH_RAYS;) {
        // Halfway between the farthest probe on the riser and the nearest past it, until one finds a nearer tread.
        while (!fresh && beyond - near > overshoot && rays < TR_NOSE_SEARCH_RAYS) {
            float mid = 0.5f * (near + beyond);
            tread_ray_hit between;
            ++rays;
            if ((r = tr_query_ray(q, tread_v3_mad(origin, mid, inward), down, &filter, &between)) != TREAD_OK) return r;
            if (between.hit && between.fraction == 0.0f) return TREAD_OK;
            bool walkable = false;
            if (between.hit && (r = tr_is_walkable_on(q, ch, TR_WHO(between), between.normal, &walkable)) != TREAD_OK) return r;
            if (between.hit && !walkable) {
                face = between;
                near = mid;
                continue;
            }
            beyond = mid;
            if (walkable) {
                tread = between;
                on = mid;
                found = fresh = true;
            }
        }
        if (!found || rays >= TR_NOSE_SEARCH_RAYS) return TREAD_OK;
        fresh = false;
        // The nose: where the riser's face nearest it meets the tread's plane, `across` on from where the probe met
        // that face. A tread that slopes down from the nose, taken as level at the height the probe found it, put the
        // nose down the face, on it (curb-top-down-a30-h0.35-heightfield-on-sphere-30hz); so did the first face, where
        // the riser bends (a heightfield's riser cell under a top tilted across the walk is two triangles of 78 and 52
        // degrees: curb-top-across-a15-h0.10-heightfield-on-box-30hz tilted).
        float rate = 0.0f, tread_rate = 0.0f;
        if (!rate_along(ch, &face, inward, &rate) || !(rate > 0.0f) || !rate_along(ch, &tread, inward, &tread_rate) ||
            !(rate > tread_rate))
            return TREAD_OK;
        float across = (tread_v3_dot(tread_v3_sub(tread.point, face.point), up) - tread_rate * (on - near)) / (rate - tread_rate);
        if (!(across > 0.0f)) return TREAD_OK;
        tread_vec3 nose = tread_v3_mad(tread_v3_mad(face.point, across, inward), rate * across, up);
        tread_vec3 past = tread_v3_mad(nose, overshoot, inward);
        past = tread_v3_mad(past, tread_v3_dot(tread_v3_sub(origin, past), up), up);
        tread_ray_hit check;
        ++rays;
        if ((r = tr_query_ray(q, past, down, &filter, &check)) != TREAD_OK || !check.hit || check.fraction == 0.0f) return r;
        bool walkable = false;
        if ((r = tr_is_walkable_on(q, ch, TR_WHO(check), check.normal, &walkable)) != TREAD_OK) return r;
        if (walkable) {
            *hit = check;
            *out_nose = nose;
            *out_walkable = true;
            return TREAD_OK;
        }
        // Not past the nose yet (the tread or the riser bends between): the nose lies farther on than that probe, on
        // the face it met.
        float checked = tread_v3_dot(tread_v3_sub(past, origin), inward);
        if (!(checked > near)) return TREAD_OK;
        face = check;
        near = checked;
    }
    return TREAD_OK;
}

// How far toward the unit, horizontal `inward` the bottom reaches from the feet where it can stand on a nose: a box
// stands on any edge under its flat bottom, out to its side (its upright footprint's half width along `inward`); a
// round bottom only within its walkable cap, TR_ROLL_REST of r sin(max slope) from its axis. Measured for a box as
// for a capsule, a box at 30 Hz was carried 9 cm farther over a 0.35 m curb than it needed at the raised height, into
// the top rising at 45 degrees beyond the nose, and never stepped (curb-top-up-a45-h0.35-boxes-on-box-30hz); on a
// spiral's 12 cm treads, into the next riser (stairs-spiral-boxes-up-r0.40-t0.12-box-30hz).
static float standing_reach(const tread_character *ch, tread_vec3 inward) {
    const tread_character_settings *s = &ch->settings;
    if (s->shape == TREAD_QUERY_BOX) {
        tread_vec3 axes[3];
        tr_upright_axes(s->up, axes);
        return s->radius * (fabsf(tread_v3_dot(inward, axes[0])) + fabsf(tread_v3_dot(inward, axes[2])));
    }
    float sin_slope = sqrtf(tr_maxf(0.0f, 1.0f - ch->max_slope_cos * ch->max_slope_cos));
    return TR_ROLL_REST * s->radius * sin_slope;
}

// The tread a probe from `origin` (max step above the ground, a little past the riser), `top` long, finds: walkable,
// or past a riser that leans (past_leaning_riser, *out_leans). *out_found, with the probe's hit on the tread (*out_hit)
// and the nose (*out_nose: the overshoot back from the probe, or where the leaning face meets the tread).
static tread_result find_tread(const tr_move_query *q, const tread_character *ch, tread_vec3 origin, float top, tread_vec3 inward,
                               tread_ray_hit *out_hit, tread_vec3 *out_nose, bool *out_leans, bool *out_found) {
    const tread_character_settings *s = &ch->settings;
    *out_found = *out_leans = false;
    tread_query_filter filter = tr_ground_filter(ch);
    tread_result r = tr_query_ray(q, origin, tread_v3_scale(s->up, -top), &filter, out_hit);
    if (r != TREAD_OK || !out_hit->hit || out_hit->fraction == 0.0f) return r;
    if ((r = tr_is_walkable_on(q, ch, TR_WHO(*out_hit), out_hit->normal, out_found)) != TREAD_OK) return r;
    *out_nose = tread_v3_mad(out_hit->point, -s->contact_step.search_overshoot, inward);
    if (*out_found) return TREAD_OK;
    *out_leans = true;
    return past_leaning_riser(q, ch, origin, top, inward, out_hit, out_nose, out_found);
}

// One step over the riser of contact `c` (`inward` from riser_inward) from `feet` walking `motion`, onto a tread at
// most max step above `ground` (the surface the move began on: the whole move climbs no more). *out_found, with
// where the slide giving back the motion the riser took ended (*out_rest) and the tread's point (*out_support).
static tread_result step_over(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tread_vec3 feet, tread_vec3 ground,
                              tread_vec3 motion, const tread_contact *c, tread_vec3 inward, tr_slide_result *out_rest,
                              tread_vec3 *out_support, bool *out_found) {
    const tread_character_settings *s = &ch->settings;
    const tread_vec3 up = s->up;
    *out_found = false;
    if (tread_v3_dot(inward, motion) <= 0.0f) return TREAD_OK; // moving away from it: creeping back down a step
    float height = tread_v3_dot(tread_v3_sub(c->point, ground), up);
    // Above max step, too high to be a step; at it, the top edge of a riser of max step (the one max-step rule allows
    // its tread: a capsule perched on a spiral's 0.4 m tread touched the next riser's top edge with its side, exactly
    // max step above the nose it stood on, and stood there: stairs-spiral-mesh-up-r0.40-t0.20-capsule-60hz).
    if (height > s->max_step_height + TR_STEP_HEIGHT_SLACK) return TREAD_OK;
    // Max step above the ground, measured from the feet (perched on a nose, or a step into this move, below it).
    float top = tread_v3_dot(tread_v3_sub(ground, feet), up) + s->max_step_height;
    // Probe down from there to the feet, a little past the riser: at the contact, and for a box at both ends of its
    // front along the riser. A box's flat front meets a riser along a line, and the slide reports one point of it: on
    // treads tilted sideways that point was where the riser's tilted top edge crosses the box's bottom, where the next
    // tread lies at the feet, and the box stood before the riser for good (tilted-sideways-a30-r0.10-t0.15-mesh-up-box-
    // 30hz); at the line's higher end that tread lies the riser's height up.
    tread_vec3 origin = tread_v3_mad(c->point, s->max_step_height + TR_STEP_PROBE_LIFT - height, up);
    origin = tread_v3_mad(origin, s->contact_step.search_overshoot, inward);
    tread_vec3 along = tread_v3_normalize(tread_v3_cross(up, inward));
    float offsets[3] = {0.0f, 0.0f, 0.0f};
    int probes = 1;
    if (s->shape == TREAD_QUERY_BOX) {
        float centre = tread_v3_dot(tread_v3_sub(feet, c->point), along), half = standing_reach(ch, along);
        offsets[1] = centre + half;
        offsets[2] = centre - half;
        probes = 3;
    }
    // Down to the feet, and a box's flat bottom on to the skin below them: grown by the skin, it is stopped by the
    // edge of a tread that lies within the skin below its feet, and comes to rest the skin above that tread (on an
    // approach sloping down to a curb, resting on its back edge, its bottom 0.7 mm above the curb's top, it stood
    // before the curb for good: curb-approach-down-a30-h0.35-boxes-on-box-60hz). A round bottom meets such an edge
    // only right under its lowest point, where it stands on it.
    float under = s->shape == TREAD_QUERY_BOX ? s->skin : 0.0f;
    tread_ray_hit hit;
    tread_vec3 nose = feet;
    bool walkable = false, leans = false;
    for (int i = 0; i < probes && !walkable; ++i) {
        tread_result r = find_tread(q, ch, tread_v3_mad(origin, offsets[i], along), top + under, inward, &hit, &nose, &leans, &walkable);
        if (r != TREAD_OK) return r;
        if (!walkable) continue;
        float rise = tread_v3_dot(tread_v3_sub(hit.point, feet), up) + under; // a perched body lifts onto its own tread too
        walkable = rise > TR_MIN_STEP_RISE;
    }
    if (!walkable) return TREAD_OK;
    // How far on from the contact the nose is, past a riser that leans.
    float lean = leans ? tr_maxf(0.0f, tread_v3_dot(tread_v3_sub(nose, c->point), inward)) : 0.0f;
    tread_result r = TREAD_OK;
    // The tread runs on at least min_step_depth from the riser.
    if ((r = tr_tread_is_deep_enough(q, ch, nose, inward, &walkable)) != TREAD_OK || !walkable) return r;
    // Lift onto the tread, advance over the nose (plus the overshoot), then give back the motion the riser took.
    float to_nose = tread_v3_dot(tread_v3_sub(c->point, feet), inward) + lean;
    float advance = tr_maxf(0.0f, to_nose - standing_reach(ch, inward)) + s->contact_step.search_overshoot;
    // No farther than this frame's motion toward the riser and the roll onto the nose (roll.c: once per step, the
    // same at every frame rate): a round bottom left short of that would perch on the nose, where it cannot rest. Past
    // a riser that leans, on by the lean as well, straight in, as far as the sweep looks past one (tr_step_look_ahead):
    // a box stands only past the leaning face's top edge, and set down short of it, on the face, it never stepped
    // where its frame's walk was shorter than the lean (a 0.1 m heightfield curb leans 5 cm: 120 and 240 Hz, and 60 Hz
    // up a 45-degree approach, 4.7 cm a frame: curb-approach-up-a45-h0.10-heightfield-on-box-60hz).
    float toward = tread_v3_dot(motion, inward), rolled = toward + tr_roll_reach(ch);
    advance = tr_minf(advance, rolled + tr_minf(lean, tr_step_look_ahead(ch)));
    tread_vec3 path = advance_path(ch, tread_v3_reject(motion, up), inward, tr_minf(advance, rolled));
    path = tread_v3_mad(path, tr_maxf(0.0f, advance - rolled), inward);
    // Set down there from max step (and the skin) above the surface stood on: the Source engine's box lands on level
    // treads, where the lift is the probe's; on a sloped or tilted tread the body rests on the highest point under it.
    float drop = top + s->skin + TR_SET_DOWN_CLEARANCE;
    // Over the nose by a sweep, whole or no step: placed there only where it fit, a capsule's advance (the walker's
    // way, up to its radius along the nose) crossed a real level's thin wall and ended 0.34-0.47 m inside it.
    tr_slide_result advanced;
    if ((r = tr_slide(q, ch, tread_v3_mad(feet, drop, up), path, TR_SLIDE_STEP_FORWARD, NULL, &advanced)) != TREAD_OK ||
        advanced.plane_count > 0)
        return r; // no way over the nose
    tread_vec3 over = advanced.feet;
    bool fits = false;
    if ((r = tr_fits(q, ch, over, TR_PENETRATION_SLOP, &fits)) != TREAD_OK || !fits) return r; // no room over the step
    // Down onto the tread through the shared landing (roll.c), which rolls a round bottom that comes down on the nose
    // onto it: the advance above rests it on a level nose, but a nose tilted across the walk (a curb on a cross slope,
    // treads tilted sideways) leaves it a narrower cap, and it perched there, no step, every frame
    // (curb-approach-across-a30-h0.20-boxes-on-capsule-60hz: stopped at the curb; the shipped curb-on-cross-slope-30
    // and stairs-tilted-sideways-30 the same).
    tread_shape_hit rests[TR_GROUND_HITS];
    int count = 0, support = -1;
    tread_vec3 above = over;
    if ((r = tr_probe_landing(q, ch, over, drop, motion, rests, TR_GROUND_HITS, &count, &support, &above)) != TREAD_OK) return r;
    if (count == 0 || rests[0].fraction == 0.0f || support < 0 || drop * (1.0f - rests[0].fraction) <= TR_MIN_STEP_RISE)
        return TREAD_OK; // nothing to stand on up there
    tread_vec3 lifted = tread_v3_mad(above, -drop * rests[0].fraction, up);
    // (Past the motion, the roll's remainder runs back from the riser: nothing is left to give back.)
    tread_vec3 remaining = tread_v3_sub(motion, tread_v3_reject(tread_v3_sub(above, feet), up));
    r = tr_slide(q, ch, lifted, tread_v3_dot(remaining, inward) > 0.0f ? remaining : tread_v3_zero(), TR_SLIDE_GROUNDED, st, out_rest);
    if (r != TREAD_OK) return r;
    // That motion walks on the tread; where the tread rises (a top rising at 45 degrees past the nose) it walked the
    // feet past max step above the ground the move began on (where they rest the skin above a tread at max step), a
    // step the move may not take (the box on a tilted world's curb-top-up-a45-h0.35-boxes-on-box-30hz was refused it
    // every frame): then it stands where it was set down, and the next frame walks on up.
    float walked_up = tread_v3_dot(tread_v3_sub(out_rest->feet, ground), up);
    if (walked_up > s->max_step_height + s->skin + TR_STEP_HEIGHT_SLACK &&
        (r = tr_slide(q, ch, lifted, tread_v3_zero(), TR_SLIDE_GROUNDED, st, out_rest)) != TREAD_OK)
        return r;
    *out_support = hit.point;
    *out_found = true;
    return TREAD_OK;
}

tread_result tr_step_contact(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out, bool *out_found) {
    const tread_vec3 up = ch->settings.up;
    *out_found = false;
    if (st->previous_ground.state != TREAD_GROUND_ON_GROUND) return TREAD_OK;
    // Step heights are measured from the surface stood on (standing flat, the feet; perched on a nose, the nose above
    // them), the lift from the feet.
    tread_vec3 feet = st->blocked_position, motion = st->blocked_motion;
    tread_vec3 ground = tread_v3_mad(feet, tr_perch_depth(ch, st, feet), up);
    // The update's contacts are the first candidates; after a step, those its slide met (it appends them).
    int first = 0, last = st->contacts_kept;
    for (int steps = 0; steps < TR_CONTACT_STEPS_MAX && tread_v3_length(motion) > TR_MIN_MOVE; ++steps) {
        bool found = false;
        tr_slide_result rest;
        tread_vec3 support = feet;
        for (int i = first; i < last && !found; ++i) {
            const tread_contact c = st->contacts[i];
            tread_vec3 inward;
            if (!tr_query_body_is_live(q, TR_WHO(c))) continue; // removed since the slide met it
            if (!riser_inward(ch, &c, &inward)) continue;
            tread_result r = step_over(q, ch, st, feet, ground, motion, &c, inward, &rest, &support, &found);
            if (r != TREAD_OK) return r;
        }
        if (!found) break;
        out->base = st->blocked_position;
        out->feet = rest.feet;
        out->support = support;
        out->has_landing = false;
        out->holds = false;
        *out_found = true;
        // The motion given back ran into the next riser of the flight: step again from there, within max step of the
        // ground the move began on. One riser a frame, a capsule climbed a flight of 2 cm risers on 2 cm treads
        // 2 cm a frame, a sixth of its walk at 30 Hz (micro-steps-r0.02-t0.02-mesh-up-capsule-30hz: 1.92 of 2.58 m).
        if (!rest.blocked) break;
        feet = rest.blocked_feet;
        motion = rest.blocked_motion;
        first = last;
        last = st->contacts_kept;
    }
    return TREAD_OK;
}
