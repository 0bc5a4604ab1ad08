// SPDX-License-Identifier: MIT
// The riser (Staxel's, for voxel worlds): a slimmer volume below and ahead of the main one. While there is walkable
// ground within riser.depth below the body, or the body climbs a step it is in, the riser holds it (gravity off: the
// caller owns gravity, so the move reports held_by_riser and the update cancels downward velocity). Where something
// stops the body, the riser finds how much of it is left to climb by a binary search — halving, at most 6 probes,
// stopping below a trivial length — and the body rises by at most Staxel's budget per frame, proportional to how far
// it wanted to move: it climbs anything lower than max step, smoothly, and forgives rough voxel geometry. Staxel's
// riser hovers up to riser.depth above the ground (it rises while its bottom is still in the ground); tread's
// climbs only what stops the body and otherwise settles onto the ground it holds, so the feet rest where the
// other strategies' do, and where it lets go (ground deeper than riser.depth, a nose walked off) stick-to-floor
// takes the body down as it does for the other strategies. What the riser cannot clear by max step is a wall, not
// a step, and what it lands on must be walkable ground the body fits on, so it never ratchets up walls or steep
// faces.
#include "character_internal.h"

#define TR_RISER_ITERATIONS 6       // Staxel's max_riser_iterations
#define TR_RISER_TRIVIAL 1.0e-4f    // metres: Staxel's trivial_length
// A lift ends this far above the height that clears the tread (metres): surfaces nearer than the touch tolerance
// count as touching, and the slide that follows would catch the nose it just cleared.
#define TR_RISER_CLEARANCE (2.0f * TR_TOUCH_TOLERANCE)
#define TR_RISER_LOOKS 2 // where the riser box looks for what stopped the body: one reach on, then two

// Walkable ground within riser.depth below the body: the riser is in the ground and holds the body. *out_hit is
// the support and *out_gap the distance down to the nearest surface (0 when resting on it); *out_perched when only
// a nose's edge under a round bottom holds it.
static tread_result ground_below(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, bool *out_holds,
                                 tread_shape_hit *out_hit, float *out_gap, bool *out_perched) {
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = 0, support = -1;
    float depth = ch->settings.riser.depth;
    *out_holds = false;
    tread_result r = tr_probe_down(q, ch, feet, depth, hits, TR_GROUND_HITS, &count);
    if (r == TREAD_OK && count > 0) r = tr_pick_support(q, ch, feet, hits, count, depth, &support);
    *out_perched = support < 0;
    // The riser is in the ground wherever the body's bottom meets a walkable face, a nose it rolls over included
    // (Staxel's riser is a flat-bottomed volume under the body: a round bottom's walkable cap does not limit it).
    if (r == TREAD_OK && count > 0 && support < 0) r = tr_pick_perch(q, ch, feet, hits, count, depth, &support);
    if (r != TREAD_OK || support < 0) return r;
    *out_holds = true;
    *out_hit = hits[support];
    *out_gap = hits[0].fraction * depth;
    return TREAD_OK;
}

tread_result tr_riser_holds(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, bool *out_holds) {
    tread_shape_hit hit;
    float gap = 0.0f;
    bool perched = false;
    tread_result r = ground_below(q, ch, feet, out_holds, &hit, &gap, &perched);
    // A body in the air falls until it lands (tr_step_riser): held, it would hover where the riser met the ground.
    if (ch->ground.state == TREAD_GROUND_IN_AIR && gap > TR_GROUND_TIE) *out_holds = false;
    return r;
}

// How far the riser may lift this frame: Staxel's distance — horizontal motion, plus a share of downward motion
// (so a falling body is caught), times the speed multiplier — capped at max step so fast motion cannot launch it.
static float rise_budget(const tread_character *ch, tread_vec3 motion) {
    const tread_character_settings *s = &ch->settings;
    float down = tr_minf(0.0f, tread_v3_dot(motion, s->up));
    float across = tread_v3_length(tread_v3_reject(motion, s->up));
    float distance = sqrtf(down * down * s->riser.fall_scale + across * across) * s->riser.speed_scale;
    return tr_minf(distance, tr_maxf(0.0f, s->max_step_height - TR_RISER_CLEARANCE));
}

// The part of the riser that finds what is left to climb: an upright box of the riser's width standing on `feet`, up
// to the main volume's lower sphere centre. Flat-bottomed (Staxel's volumes are boxes): a round bottom would clear a
// step's edge long before the feet reach its tread.
static tread_query_shape riser_box(const tread_character *ch, tread_vec3 feet, tread_vec3 *center) {
    const tread_character_settings *s = &ch->settings;
    // Its bottom sits the skin below the feet, as the slide's shape does: clear of a tread means clear for the slide.
    float below = s->skin;
    float half_width = s->radius * s->riser.radius_scale, height = below + s->radius + half_width;
    *center = tread_v3_mad(feet, 0.5f * height - below, s->up);
    return tread_query_box(tread_v3(half_width, 0.5f * height, half_width), s->up);
}

// What the lift measures what is left to climb with: the riser box, or the body itself (where the body is wider
// than the riser box and something under its outer part still stops it, lift).
typedef enum riser_probe { RISER_BOX, RISER_BODY } riser_probe;

static tread_query_shape probe_shape(const tread_character *ch, riser_probe probe, tread_vec3 feet, tread_vec3 *center) {
    if (probe == RISER_BOX) return riser_box(ch, feet, center);
    // Skin-grown, as the slide's shape is: clear of a tread means clear for the slide.
    *center = tr_center(ch, feet);
    return tr_body_shape(ch, ch->settings.skin);
}

// Does the probe, standing on `feet`, overlap what it stands on (ground_mask), whatever the face?
static tread_result overlaps_above(const tr_move_query *q, const tread_character *ch, riser_probe probe, tread_vec3 feet,
                                   bool *out_overlaps) {
    tread_vec3 center;
    tread_query_shape shape = probe_shape(ch, probe, feet, &center);
    tread_query_filter filter = tr_ground_filter(ch);
    tread_contact deepest;
    int count = 0;
    bool overflow = false;
    tread_result r = tr_query_contacts(q, &shape, center, 0.0f, &filter, &deepest, 1, &count, &overflow);
    *out_overlaps = count > 0 && deepest.separation < -TR_PENETRATION_SLOP; // sorted deepest first
    return r;
}

// How far past where the body stopped the riser box must stand to meet what stopped it: as far as the body reaches
// beyond the riser box (riser.radius_scale makes it the narrower; the body's skin adds to it), plus the clearance so
// the box is past touching. A box body turned to the way it walks (its faces follow the up vector, not the walk)
// meets a riser with a corner, which reaches past the riser box's by up to the half diagonal's share: looking only
// the face's width ahead, the riser box stood short of the riser that stopped the body
// (step-h0.400-box-240hz --up 0.25,1,-0.15 stood at the step for good).
static float riser_reach(const tread_character *ch) {
    const tread_character_settings *s = &ch->settings;
    float corner = s->shape == TREAD_QUERY_BOX ? sqrtf(2.0f) : 1.0f; // a square's half diagonal over its half width
    return s->radius * (1.0f - s->riser.radius_scale) * corner + s->skin + TR_RISER_CLEARANCE;
}

// Where the body rises from when it cannot rise straight up by `rise` where it stopped: a round body stopped by a
// nosing's lower edge (a slab proud of its riser) is under it, and straight up it met the slab until it had risen
// by the whole riser, more than one frame's budget (stairs-straight-boxes-nosing-up-r0.40-t0.12-sphere-60hz stood
// at the first riser for good). Back along the way it came, by the least that lets it rise (binary search, as the
// lift: at most Staxel's 6 probes), at most `most` (the motion the lift replaces, so the move stays within its
// reach: the soak's 12:252, a box of radius 0.59 m backed 0.53 m off a 0.67 m/s walk; and at most its radius: under
// an edge a round body needs no more); the motion it goes on with then brings it back. *out_ok false: nowhere within
// that.
static tread_result rise_from(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 heading, float rise,
                              float most, tread_vec3 *out_from, bool *out_ok) {
    const tread_character_settings *s = &ch->settings;
    const tread_vec3 up = s->up;
    *out_from = feet;
    tread_result r = tr_fits(q, ch, tread_v3_mad(feet, rise, up), TR_PENETRATION_SLOP, out_ok);
    if (r != TREAD_OK || *out_ok) return r;
    // Back there it must fit standing too: the way back is the way it came.
    most = tr_minf(most, s->radius);
    if (!(most > TR_RISER_TRIVIAL)) return TREAD_OK;
    tread_vec3 back = tread_v3_mad(feet, -most, heading);
    if ((r = tr_fits(q, ch, back, TR_PENETRATION_SLOP, out_ok)) != TREAD_OK || !*out_ok) return r;
    if ((r = tr_fits(q, ch, tread_v3_mad(back, rise, up), TR_PENETRATION_SLOP, out_ok)) != TREAD_OK || !*out_ok) return r;
    float lo = 0.0f, hi = most; // lo: does not fit; hi: fits
    for (int i = 0; i < TR_RISER_ITERATIONS; ++i) {
        float mid = 0.5f * (lo + hi);
        bool fits = false;
        if ((r = tr_fits(q, ch, tread_v3_mad(tread_v3_mad(feet, -mid, heading), rise, up), TR_PENETRATION_SLOP, &fits)) != TREAD_OK) return r;
        if (fits) hi = mid; else lo = mid;
    }
    *out_from = tread_v3_mad(feet, -hi, heading);
    return TREAD_OK;
}

// The least lift above `from` (the probe overlaps there, `ahead` raised by it) that clears the probe at `ahead`, to
// a bracket: binary search (halving, at most Staxel's 6 probes) between `from` and `most`, where it must be clear
// (*out_ok false: blocked up there too, a wall). Search where the answer is: below this frame's budget when the
// budget clears it (the lift is then exact to a 64th of the budget), else above it (the lift is the budget; the rest
// next frame). *out_lo: still blocked; *out_hi: clear.
static tread_result clear_height(const tr_move_query *q, const tread_character *ch, riser_probe probe, tread_vec3 ahead, float from,
                                 float most, float budget, float *out_lo, float *out_hi, bool *out_ok) {
    const tread_vec3 up = ch->settings.up;
    bool blocked = false;
    *out_ok = false;
    tread_result r = overlaps_above(q, ch, probe, tread_v3_mad(ahead, most, up), &blocked);
    if (r != TREAD_OK || blocked) return r;
    float lo = from, hi = most;
    if (budget > from) {
        if ((r = overlaps_above(q, ch, probe, tread_v3_mad(ahead, budget, up), &blocked)) != TREAD_OK) return r;
        if (blocked) lo = budget; else hi = budget;
    }
    for (int i = 0; i < TR_RISER_ITERATIONS && hi - lo > TR_RISER_TRIVIAL; ++i) {
        float mid = 0.5f * (lo + hi);
        if ((r = overlaps_above(q, ch, probe, tread_v3_mad(ahead, mid, up), &blocked)) != TREAD_OK) return r;
        if (blocked) lo = mid; else hi = mid;
    }
    *out_lo = lo;
    *out_hi = hi;
    *out_ok = true;
    return TREAD_OK;
}

// The lift: ground above the feet inside the riser's footprint just past where the body stopped (`ahead`:
// riser_reach along the motion a riser stopped) is what it still has to climb. What the riser cannot clear by max
// step (`most`: measured from the surface stood on, as the shared max-step rule does) is a wall, not a step: no
// lift. Otherwise the least lift that clears it (clear_height); that top must be walkable ground at least
// min_step_depth deep the body can stand on (not a steep face, not under a low ceiling), and the body rises by as
// much of it as the budget allows and it fits (the rest next frame, at Staxel's rate: *out_clears false), from where
// it stopped or, under a nosing, from a little back (rise_from).
// The body is wider than the riser box: where something under its outer part (the higher side of a tread tilted
// sideways under a box's far edge) still stops it above the riser box's lift, or where the riser box is already
// clear, the body itself measures what is left, if it clears by `most`. Staxel's body hovers riser.depth above the
// ground, which clears that part; tread's stands on the ground, and a box on treads tilted 10 degrees sideways was
// lifted 0.096 m up a 0.1 m riser, slid nowhere, settled and began again for good
// (tilted-sideways-a10-r0.10-t0.30-boxes-up-box-60hz).
static tread_result lift(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 ahead, float most, float budget,
                         float back, float *out, bool *out_clears, tread_vec3 *out_from, tread_shape_hit *out_tread) {
    const tread_character_settings *s = &ch->settings;
    const tread_vec3 up = s->up;
    bool blocked = false, ok = false, found = false;
    float lo = 0.0f, hi = 0.0f;
    *out = 0.0f;
    if (budget < TR_RISER_TRIVIAL) return TREAD_OK;
    tread_result r = overlaps_above(q, ch, RISER_BOX, ahead, &blocked);
    if (r == TREAD_OK && blocked) r = clear_height(q, ch, RISER_BOX, ahead, 0.0f, most, budget, &lo, &hi, &found);
    if (r != TREAD_OK) return r;
    // What the riser box lands on is the tread; where it is already clear, or cannot clear it by max step, what the
    // body lands on. A flat bottom on a tread sloped across the walk meets the next tread's higher side at its
    // corner, up to its half width times the slope's tangent above where a round bottom stands: the riser box found
    // a wall in a 0.35 m curb sloped 15 degrees across that a capsule needs 0.35 m to clear
    // (curb-approach-across-a15-h0.35-boxes-on-capsule-60hz). The body's lift is then the one, within max step.
    riser_probe lands = found ? RISER_BOX : RISER_BODY;
    float rise = hi; // what the body must rise by, at least the riser box's lift
    if ((r = overlaps_above(q, ch, RISER_BODY, tread_v3_mad(ahead, hi, up), &blocked)) != TREAD_OK) return r;
    if (blocked) {
        float body_lo = 0.0f, body_hi = 0.0f;
        if ((r = clear_height(q, ch, RISER_BODY, ahead, hi, most, budget, &body_lo, &body_hi, &ok)) != TREAD_OK) return r;
        if (ok) rise = body_hi;
        if (ok && lands == RISER_BODY) {
            lo = body_lo;
            hi = body_hi;
            found = true;
        }
    }
    if (!found) return TREAD_OK;
    // What the probe lands on coming down from there is the tread: it must be walkable (not a steep face), and the
    // body must fit standing up there (not under a low ceiling).
    // (From a little above: at an edge the riser and the tread are met together, and the tread is the one.)
    tread_vec3 center;
    tread_query_shape shape = probe_shape(ch, lands, tread_v3_mad(ahead, hi + (hi - lo), up), &center);
    tread_query_filter filter = tr_ground_filter(ch);
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = 0;
    float reach = 2.0f * (hi - lo) + TR_RISER_TRIVIAL;
    r = tr_query_cast_all(q, &shape, center, tread_v3_scale(up, -reach), &filter, hits, TR_GROUND_HITS, &count);
    if (r != TREAD_OK) return r;
    int tread = -1;
    for (int i = 0; i < count && tread < 0 && (hits[i].fraction - hits[0].fraction) * reach <= TR_GROUND_TIE; ++i) {
        if ((r = tr_is_walkable_on(q, ch, TR_WHO(hits[i]), hits[i].surface_normal, &ok)) != TREAD_OK) return r;
        if (ok) tread = i;
    }
    if (tread < 0) return TREAD_OK;
    // At least min_step_depth deep along the way the body is headed (the shared tread rule).
    tread_vec3 heading = tread_v3_normalize(tread_v3_reject(tread_v3_sub(ahead, feet), up));
    if ((r = tr_tread_is_deep_enough(q, ch, hits[tread].point, heading, &ok)) != TREAD_OK || !ok) return r;
    // Up there where it stopped, or where it is headed: on micro-steps (1 cm rises, 2 cm treads) the body where it
    // is headed reaches over the next step too, which the slide after the lift stops it at
    // (micro-steps-r0.01-t0.02-boxes-up-box-240hz stood at the first one).
    if ((r = tr_fits(q, ch, tread_v3_mad(feet, rise, up), s->skin, &ok)) != TREAD_OK) return r;
    if (!ok && (r = tr_fits(q, ch, tread_v3_mad(ahead, rise, up), s->skin, &ok)) != TREAD_OK) return r;
    if (!ok) return r;
    // Past the touch tolerance too, so the slide that follows does not catch the nose it just cleared.
    float d = tr_minf(rise, budget) + TR_RISER_CLEARANCE;
    if ((r = rise_from(q, ch, feet, heading, d, back, out_from, &ok)) != TREAD_OK || !ok) return r;
    *out_tread = hits[tread];
    *out = d;
    *out_clears = rise <= budget;
    return TREAD_OK;
}

// Where the riser looks for what stopped the body: riser_reach past where it stopped, along the motion a riser
// stopped. Looking only as far as the motion, a body stopped at a riser that wanted less than that gap (0.032 m for
// the default capsule) found nothing to climb, and went on finding nothing while it wanted that little: a slow walk
// (0.5 m/s at 60 Hz), and the motor, which takes the velocity into a wall away after each move that met one and so
// starts every frame there from rest (on S1 at 6 m/s, 60 Hz, it stood at the foot of the first step for good).
// Looking as far as the motion, a fast body on short treads met the riser after the one that stopped it, two rises
// above its feet, a wall (stairs-straight-boxes-up-r0.40-t0.12-box-30hz stood at the first riser): what stopped
// it is right in front of it, and the slide that follows the lift carries it on over the tread.
static tread_vec3 riser_ahead(tread_vec3 feet, tread_vec3 motion, float reach) {
    float length = tread_v3_length(motion);
    // No way it is headed to look along.
    if (length <= TR_MIN_MOVE) return tread_v3_add(feet, motion);
    return tread_v3_mad(feet, reach / length, motion);
}

// The step the riser takes: from `base` to `feet`, standing on `support` (never a landing of the sweep's kind); `holds`:
// the riser holds the body up there (gravity off), or it let go of it (taken down off a nose).
static void riser_step(tr_step *out, tread_vec3 base, tread_vec3 feet, tread_vec3 support, bool holds) {
    out->base = base;
    out->feet = feet;
    out->support = support;
    out->has_landing = false;
    out->holds = holds;
}

tread_result tr_step_riser(const tr_move_query *q, const tread_character *ch, tread_move_state *st, tr_step *out, bool *out_found) {
    const tread_vec3 up = ch->settings.up, feet = st->result.position;
    tread_shape_hit below;
    float gap = 0.0f;
    bool held = false, perched = false;
    *out_found = false;
    // Rising away from the ground (a jump) is not held: the riser would pull the body back down.
    if (st->leaving_ground) return TREAD_OK;
    tread_result r = ground_below(q, ch, feet, &held, &below, &gap, &perched);
    // Nor is a body that began the move in the air, until it touches the ground: it lands where its fall takes it,
    // as for the other strategies. Caught within riser.depth of the ground and settled onto it (Staxel's body would
    // hover there instead), a capsule falling off a 0.6 m ledge dropped 0.28 m in one frame
    // (scenes/regressions/ledge-0.6.json; ledge-3m: 0.35 m). (Placed on the ground, it is held from the first frame:
    // max-slope-mesh-across-a45.00-capsule-120hz, started on a slope at max slope, slid down it.)
    if (st->previous_ground.state == TREAD_GROUND_IN_AIR && gap > TR_GROUND_TIE) held = false;
    // Climbing a riser taller than riser.depth at its budget, the body rises out of the reach of the ground it
    // left before it is up on the tread: there the riser is in the step it climbs, and holds it while it climbs on
    // (a box climbing a 0.4 m step at 240 Hz let go 0.25 m up, fell, and began again: step-h0.400-box-240hz).
    if (r != TREAD_OK || (!held && !st->blocked)) return r;
    // The motion the budget scales with is the one the body wanted: what it moved plus what a riser stopped.
    tread_vec3 wanted = tread_v3_sub(st->result.position, st->start_position);
    if (st->blocked) wanted = tread_v3_add(wanted, st->blocked_motion);
    float budget = rise_budget(ch, wanted);
    float rise = 0.0f;
    bool clears = false;
    tread_vec3 landed = feet, from = st->blocked_position;
    tread_shape_hit climbed = below;
    // Only what stopped the body is climbed: walkable slopes and seams are the slide's to ride.
    if (st->blocked) {
        // A round bottom perched on a nose has its feet below the tread it stands on: they may rise that much more
        // (on a staircase of 0.4 m rises and 0.12 m treads a ball perched 0.045 m below each nose, and the next tread
        // was a wall 0.445 m above its feet).
        // (Resting, the feet are the skin above the tread; perched, the perch depth below the nose's top.)
        float perch = tr_perch_depth(ch, st, st->blocked_position);
        float most = ch->settings.max_step_height + (perch > 0.0f ? perch + ch->settings.skin : 0.0f);
        // Backing off under a nosing goes at most as far as the motion the lift replaces: from the start to where the
        // riser stopped the body, and what it stopped. What the slide made of the rest along the riser (the lift
        // starts over from where it was stopped) is not part of it: counted, a box sliding along under a tilted
        // slab's lower edge backed off by that slide too, 5.8 cm for 4.2 cm of input (the soak's 79:697).
        tread_vec3 replaced = tread_v3_add(tread_v3_sub(st->blocked_position, st->start_position), st->blocked_motion);
        float back = tread_v3_length(tread_v3_reject(replaced, up));
        // Where the riser box meets only the edge of what stopped the body, with no tread under it to land on (the
        // lower front corner of a tread that leans down toward the body, tilted-forward-a10-r0.30-t0.15-boxes-up-
        // capsule-120hz), it looks again a reach further on, where the tread is.
        for (int look = 1; look <= TR_RISER_LOOKS && rise <= 0.0f; ++look) {
            tread_vec3 ahead = riser_ahead(st->blocked_position, st->blocked_motion, (float)look * riser_reach(ch));
            if ((r = lift(q, ch, st->blocked_position, ahead, most, budget, back, &rise, &clears, &from, &climbed)) != TREAD_OK) return r;
        }
    }
    if (!held && rise <= 0.0f) return TREAD_OK;
    if (rise > 0.0f) {
        landed = tread_v3_mad(from, rise, up);
        // Lifted clear of what stopped it: the motion the riser took goes on from up there. Only part of the way up,
        // it stays at the riser it climbs: the motion slid it along that riser every frame of the climb, and a walk
        // meeting risers at 45 degrees ended 0.69 m off its line (stairs-angled-y45-r0.35-t0.15-boxes-up-box-240hz).
        tr_slide_result rest;
        if (clears && (r = tr_slide(q, ch, landed, st->blocked_motion, TR_SLIDE_GROUNDED, st, &rest)) != TREAD_OK) return r;
        if (clears) landed = rest.feet;
    } else {
        // Nothing to climb: settle onto the ground the riser holds, instead of hovering up to riser.depth above it as
        // Staxel's riser does; as stick-to-floor settles (tr_snap_down), so a round bottom walking off a nose rolls
        // off it the way the edge pushes it. Settled straight down it came to hang on the nose's side, held there,
        // and walked on off it to where the ground below lay beyond riser.depth and more than the snap's reach below
        // its hanging feet: it fell from each step of stairs-straight-boxes-down-r0.45-t0.12-capsule-60hz.
        tread_vec3 heading = tread_v3_reject(wanted, up);
        float settle = 0.0f;
        bool perched_ahead = false;
        r = tr_snap_down(q, ch, &landed, ch->settings.riser.depth, below.point, heading, &settle, &perched_ahead);
        if (r != TREAD_OK) return r;
        // Never into what it overlaps: the probe looks past what it starts in, and a box that recovery was pushing
        // up out of a heightfield was settled back onto the floor under it every frame, for good.
        bool fits = true;
        if (settle > 0.0f && (r = tr_fits(q, ch, landed, TR_PENETRATION_SLOP, &fits)) != TREAD_OK) return r;
        if (!fits) landed = feet;
    }
    // The ground is what the riser holds where the body ends (lifted or settled), not where it began: from there the
    // old support lay as far away as the body moved.
    if ((r = ground_below(q, ch, landed, &held, &below, &gap, &perched)) != TREAD_OK) return r;
    if (!held) {
        // Still on its way up a riser taller than riser.depth: held by the step it climbs.
        if (rise <= 0.0f) return TREAD_OK;
        below = climbed;
        gap = 0.0f;
    }
    // Walking off a nose, held only by its edge (the contact's normal, from the nose to the body, leads the way the
    // body goes): the riser lets go, and stick-to-floor takes the body down to the tread below, as it does for the
    // other strategies. Held by that edge as it rolled off it, the riser kept a capsule on each nose of
    // stairs-straight-boxes-down-r0.45-t0.12-capsule-60hz until it had walked past the snap's reach, and it fell.
    bool walks_off = rise <= 0.0f && perched && tread_v3_dot(below.normal, tread_v3_reject(wanted, up)) >= 0.0f;
    // Unless it turns away from a step it had begun to climb: the ground it reported there is that step's tread,
    // above its feet, and stick-to-floor, which reaches down only as far below the ground the move began on, does
    // not reach the tread below the nose it walks off. The riser takes it down itself, measured from that nose, as
    // stick-to-floor would: walking down a spiral, a capsule that overshot its way point turned back up a 0.3 m
    // riser for a frame, turned away again and hovered over the nose, then fell
    // (stairs-spiral-boxes-down-r0.30-t0.12-capsule-60hz).
    // Or where the lift left its feet above the nose it walks off (it climbed part of the way up the riser behind
    // it, held by that nose): stick-to-floor's probe reaches step_down_distance below the feet, not below the nose,
    // and on stairs steeper than a round body can stand on, where it comes to rest perched the perch depth below
    // the next nose, that fell short: walking down a spiral of 0.4 m rises and 0.12 m treads, a capsule lifted
    // 0.08 m above a nose turned away from the riser behind it, had 0.54 m to the next rest, and fell
    // (stairs-spiral-boxes-down-r0.40-t0.12-capsule-120hz).
    // (Resting, the feet are at most the skin above what holds them, and below a nose they are perched on.)
    float hover = tread_v3_dot(tread_v3_sub(landed, below.point), up);
    bool abandoned = st->previous_ground.state == TREAD_GROUND_ON_GROUND &&
                     (tread_v3_dot(tread_v3_sub(st->previous_ground.point, landed), up) > 0.0f || hover > ch->settings.skin + TR_GROUND_TIE);
    if (walks_off && !abandoned) return TREAD_OK;
    if (walks_off) {
        float lowered = 0.0f;
        bool perched_ahead = false;
        tread_vec3 down = landed;
        // The probe reaches step_down_distance below the nose, however far above it the feet are; the drop is still
        // measured from the nose (the surface stood on, raised as far as the probe is lengthened).
        float above = tr_maxf(0.0f, hover);
        r = tr_snap_down(q, ch, &down, ch->settings.step_down_distance + above, tread_v3_mad(below.point, above, up),
                         tread_v3_reject(wanted, up), &lowered, &perched_ahead);
        if (r != TREAD_OK || perched_ahead || !(lowered > 0.0f)) return r;
        riser_step(out, feet, down, below.point, false);
        *out_found = true;
        return TREAD_OK;
    }
    riser_step(out, rise > 0.0f ? from : feet, landed, climbed.point, true);
    tread_ground *g = &out->ground;
    g->state = TREAD_GROUND_ON_GROUND;
    g->normal = below.surface_normal;
    g->point = below.point;
    g->distance = gap;
    g->body = below.body;
    g->character = below.character;
    if ((r = tr_query_point_velocity(q, TR_WHO(below), below.point, &g->velocity)) != TREAD_OK) return r;
    *out_found = true;
    return TREAD_OK;
}
