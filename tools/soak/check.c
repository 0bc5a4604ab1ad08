// SPDX-License-Identifier: MIT
// The invariants every frame must keep, judged from the tool's own double-precision geometry (world.c) and the
// limits the API documents. Each limit below names where it comes from; none reads tread's own query results.
#include "soak.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SOAK_PI 3.14159265358979323846
// The gap a round bottom rolled off a nose keeps from it (metres; roll.c: twice the touch tolerance).
#define SOAK_ROLL_CLEARANCE 2e-4
// Deepest depth the fall-through check reads as "on the floor's top": a foot this far below the top is already
// a penetration the other check reports; farther down, it went through.
#define SOAK_FLOOR_SLACK 0.01

static const char *const kind_names[SOAK_KIND_COUNT] = {"nan", "penetration", "stuck", "fall_through", "rise", "overshoot", "crossed",
                                                                  "error"};

const char *soak_kind_name(soak_kind kind) { return (int)kind >= 0 && kind < SOAK_KIND_COUNT ? kind_names[kind] : "unknown"; }

static bool finite3(tread_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static bool ground_finite(const tread_ground *g) {
    return finite3(g->normal) && finite3(g->point) && isfinite(g->distance) && finite3(g->velocity);
}

bool soak_character_finite(const tread_character *ch, const tread_move_result *res, const tread_contact *contacts, int contact_count) {
    if (!finite3(ch->position) || !finite3(ch->velocity) || !ground_finite(&ch->ground) || !isfinite(ch->snap_suppress_time)) return false;
    if (!finite3(res->position) || !finite3(res->velocity) || !ground_finite(&res->ground) || !isfinite(res->step_up) ||
        !isfinite(res->snap_down) || !finite3(res->carried) || !finite3(res->pushed))
        return false;
    for (int i = 0; i < contact_count; ++i) {
        const tread_contact *c = &contacts[i];
        if (!isfinite(c->separation) || !finite3(c->point) || !finite3(c->normal) || !finite3(c->surface_normal)) return false;
    }
    return true;
}

static soak_v3 reject(soak_v3 v, soak_v3 n) { return soak_mad(v, -soak_dot(v, n), n); }

// The steepest ground the character may walk (types.h: max_slope_degrees, and stairs_max_slope_degrees on the
// stairs layers), as its sine.
static double walkable_sine(const tread_character_settings *s) {
    double degrees = s->max_slope_degrees;
    if (s->stairs_layer_mask && s->stairs_max_slope_degrees > degrees) degrees = s->stairs_max_slope_degrees;
    return sin((degrees + TREAD_SLOPE_TOLERANCE_DEGREES) * SOAK_PI / 180.0);
}

// How far sideways a round bottom rolls over noses in one move (docs/DESIGN.md, rolling over a nose): onto the nose
// of the tread a step lands on and off the nose a snap leaves, each across the nose at most from touching it with
// its side to past it (a nose on a line that slopes leaves a narrower cap to rest within, or none), and along it,
// the walker's way, at most the radius. A box never rolls.
static double roll_reach(const tread_character_settings *s) {
    if (s->shape == TREAD_QUERY_BOX) return 0.0;
    double across = s->radius + s->skin + SOAK_ROLL_CLEARANCE;
    return 2.0 * sqrt(across * across + (double)s->radius * s->radius);
}

// How far the slide may carry the feet this frame: the velocity as the controller uses it (tread.h, update: it is
// relative to the ground, whose rigid motion over the frame carries the feet first; on walkable ground the
// horizontal input runs along it, at the same speed or, with keep_horizontal_speed, the same horizontal speed,
// i.e. 1 / cos(slope) longer), over dt. The slide's plane projections only shorten it.
static double slide_reach(const soak_frame_facts *f, soak_v3 up) {
    const tread_character *ch = f->before;
    soak_v3 v = soak_v3_of(f->velocity);
    double reach = soak_length(v) * f->dt;
    if (ch->ground.state == TREAD_GROUND_ON_GROUND && !f->teleported) {
        double along = soak_length(reject(v, up));
        // Keeping its horizontal speed (types.h), it goes along a slope 1 / cos of its angle as far: the ground's,
        // and, met on the way, any walkable one (the slide realigns what is left onto each walkable face it meets:
        // a box walking at 5 m/s onto a 73-degree ramp rose 0.22 m in a frame).
        if (ch->settings.keep_horizontal_speed) {
            double c = soak_dot(soak_normalize(soak_v3_of(ch->ground.normal)), up);
            double walkable = sqrt(fmax(0.0, 1.0 - walkable_sine(&ch->settings) * walkable_sine(&ch->settings)));
            along /= fmax(fmin(c, walkable), cos(89.9 * SOAK_PI / 180.0));
        }
        reach = fmax(reach, along * f->dt) + soak_length(f->ground_motion);
    }
    // A body that moved into it pushes it ahead (tread.h, update), as far as the body went.
    return reach + f->pusher_motion;
}

// The farthest an unbury may jump (types.h, tread_move_result.unburied): three reaches of the shape, at least
// 2 m, and a skin.
double soak_unbury_bound(const tread_character_settings *s) {
    double r = s->radius, h = 0.5 * s->height;
    double reach = s->shape == TREAD_QUERY_SPHERE ? r : sqrt(2.0 * r * r + h * h);
    return fmax(3.0 * reach, 2.0) + s->skin;
}

// Recovery (tread.h update, DESIGN.md): penetration is pushed out at recovery_speed, so a move that started
// overlapping may go recovery_speed * dt farther, in any direction; one that started buried may jump to the
// nearest free spot, as far as the result says but never beyond the documented bound.
// Crushed (types.h, crushed_aside): it may go aside as far as the result says, within the same bound, and then on
// along the push it could not complete (no more than it was inside what pushed it, and a skin).
// (Crushed by a body that met it during the move's push, it may have started clear: the way aside is the move's own.)
static double recovery_reach(const soak_frame_facts *f) {
    const tread_character_settings *s = &f->before->settings;
    double reach = 0.0;
    if (f->pre_depth > 0.0) reach = fmax((double)s->recovery_speed * f->dt, fmin((double)f->result->unburied, soak_unbury_bound(s)));
    if (f->result->crushed)
        reach = fmax(reach, fmin((double)f->result->crushed_aside, soak_unbury_bound(s)) + fmax(f->pre_depth, 0.0) + s->skin);
    return reach;
}

static void verdict(soak_verdict *v, soak_kind kind, double value, double limit, const char *detail) {
    v->kind = kind;
    v->value = value;
    v->limit = limit;
    snprintf(v->detail, sizeof v->detail, "%s", detail);
}

// Penetration (the API's invariant: at most 1 mm) and recovery (after the world or a teleport put the character
// inside something: never deeper than at that moment, and out within 1 s plus the time recovery_speed needs).
static int check_depth(const soak_frame_facts *f, soak_check_state *st, soak_measures *m, soak_verdict *out) {
    int n = 0;
    char detail[160];
    double rs = f->before->settings.recovery_speed;
    // Reported crushed, the character may stay in the body that crushed it (the game decides): the depths that count
    // are those with that body left out, and it is never deeper in anything else than it was.
    bool reported = f->result->crushed;
    double pre = reported ? f->pre_free : f->pre_depth, post = reported ? f->post_free : f->post_depth;
    if (pre > SOAK_TOLERANCE && (!st->in_episode || pre > st->last_post + SOAK_DEEPER_SLACK)) {
        st->in_episode = true; // the world pushed it in (or deeper), or it was teleported inside: the clock restarts
        st->episode_start = f->time - f->dt;
        st->episode_depth = pre;
    }
    if (pre <= SOAK_TOLERANCE && post > m->penetration) m->penetration = post;
    // Pressed between a body that moved into it and another one, every way out goes into something: counted, and
    // only the deadline applies, unless the move said so and named the body (checked above, with it left out).
    m->crushed += f->crushed;
    m->reported_crushed += reported;
    // Never deeper than at its start: by the deepest piece after the move against a bound on its depth in the
    // solid before it (bound.c: a box across a heightfield's diagonal leaves one triangle soonest over it).
    double allowed = fmax(SOAK_TOLERANCE, f->pre_bound + SOAK_DEEPER_SLACK);
    // Buried with no free spot within the unbury reach (tread.h, update): it rises at the recovery speed, through
    // what is above it, deeper as it goes until it passes the middle.
    if (f->beyond_reach) allowed += rs * f->dt;
    if ((reported || !f->crushed) && post > allowed) {
        snprintf(detail, sizeof detail, "%.4f m deep after the move, %.4f m before it%s", post, pre,
                 reported ? " (crushed: the crusher left out)" : "");
        verdict(&out[n++], SOAK_PENETRATION, f->post_depth, allowed, detail);
        if (!st->in_episode) { // do not also call it stuck: this frame's move made it
            st->in_episode = true;
            st->episode_start = f->time;
            st->episode_depth = post;
        }
    }
    if (post <= SOAK_TOLERANCE) {
        st->in_episode = false;
    } else if (f->beyond_reach || f->crushed_nowhere) {
        // Rising out is its contract there, or (crushed) staying: the clock runs from where a spot is in reach.
        st->episode_start = f->time;
        st->episode_depth = post;
    } else if (st->in_episode) {
        double deadline = 1.0 + st->episode_depth / rs;
        if (f->time - st->episode_start > deadline) {
            snprintf(detail, sizeof detail, "still %.4f m deep %.2f s after being put %.4f m deep (deadline %.2f s at %.3g m/s recovery)",
                     post, f->time - st->episode_start, st->episode_depth, deadline, rs);
            verdict(&out[n++], SOAK_STUCK, f->time - st->episode_start, deadline, detail);
            st->episode_start = f->time; // one verdict per deadline missed, not one per frame
        }
    }
    st->last_post = post;
    return n;
}

// Crushed (types.h): never moved through a body. The centre's straight way from before to after runs through no body
// but the crushing one (the move's own way, aside and then on, keeps the whole shape free: its centre a radius from
// every surface, and the straight line is near it).
static int check_crossing(const soak_frame_facts *f, soak_verdict *out) {
    if (!f->result->crushed || !(f->crossed > SOAK_TOLERANCE)) return 0;
    char detail[160];
    snprintf(detail, sizeof detail, "crushed, its centre went %.4f m deep through a body that is not the crushing one", f->crossed);
    verdict(out, SOAK_CROSSED, f->crossed, SOAK_TOLERANCE, detail);
    return 1;
}

// Max step (types.h: max_step_height "a hard limit, measured at the tread"; DESIGN.md: the feet rise at most
// max step above the surface stood on, or above the feet if they were higher, plus the skin they rest above the
// tread, plus up to the skin again when a move lifts the skin out of its ground (1 / cos of a walkable slope,
// at most twice)). On top: what the input itself lifts (a jump, the ground's rise carried by the motor), the
// slide up a walkable slope, and recovery.
static int check_rise(const soak_frame_facts *f, soak_measures *m, soak_verdict *out) {
    const tread_character *b = f->before, *a = f->after;
    const tread_character_settings *s = &b->settings;
    soak_v3 up = soak_normalize(soak_v3_of(s->up));
    double base = soak_dot(soak_v3_of(b->position), up);
    bool stood = !f->teleported && b->ground.state == TREAD_GROUND_ON_GROUND;
    if (stood) base = fmax(base, soak_dot(soak_v3_of(b->ground.point), up));
    double rise = soak_dot(soak_v3_of(a->position), up) - base;
    // (A body pushing it from below lifts it as far as it moved.)
    double lifted = fmax(fmax(0.0, soak_dot(soak_v3_of(f->velocity), up)) * f->dt, soak_dot(f->ground_motion, up)) + f->pusher_motion;
    double limit = s->max_step_height + 3.0 * s->skin + SOAK_TOLERANCE + lifted + slide_reach(f, up) * walkable_sine(s) + recovery_reach(f);
    double excess = rise - limit;
    if (excess > m->rise_excess) m->rise_excess = excess;
    if (excess <= 0.0) return 0;
    char detail[160];
    snprintf(detail, sizeof detail, "rose %.4f m above the %s (max step %.3f m, limit %.4f m)", rise, stood ? "surface it stood on" : "feet",
             (double)s->max_step_height, limit);
    verdict(out, SOAK_RISE, rise, limit, detail);
    return 1;
}

// How far past its motion the sweep's and cast_down's steps go to land beyond a sloped riser (DESIGN.md, a riser that
// slopes), and the contact strategy's advance over the nose of a riser that leans: max step / tan(max slope), at most
// the radius.
static double look_ahead(const tread_character_settings *s) {
    double slope = (s->max_slope_degrees + TREAD_SLOPE_TOLERANCE_DEGREES) * SOAK_PI / 180.0;
    double sine = fmax(sin(slope), 1e-3);
    return fmin(s->max_step_height * cos(slope) / sine, s->radius);
}

// The move's reach. Sideways (perpendicular to up) only the slide (and the contact strategy's probe past the
// riser: types.h search_overshoot, and its advance past a riser that leans; the sweep's and cast_down's look past a
// sloped riser), the roll over noses and
// recovery move the feet: steps lift along up and go forward by the motion
// the slide was blocked from, snapping lowers along up. Overall the vertical phases add at most a step (max step
// + the skin + the perch below a nose, up to the radius), a snap back down (step_down_distance below the surface
// stood on, after up to that step; the riser settles within riser.depth where it holds the body, and snaps as the
// others do where it lets go), the probe and the skins.
static int check_reach(const soak_frame_facts *f, soak_measures *m, soak_verdict *out) {
    const tread_character *b = f->before, *a = f->after;
    const tread_character_settings *s = &b->settings;
    soak_v3 up = soak_normalize(soak_v3_of(s->up));
    soak_v3 moved = soak_sub(soak_v3_of(a->position), soak_v3_of(b->position));
    double overshoot = s->step_strategy == TREAD_STEP_CONTACT ? s->contact_step.search_overshoot + look_ahead(s) : 0.0;
    if (s->step_strategy == TREAD_STEP_SWEEP || s->step_strategy == TREAD_STEP_CAST_DOWN) overshoot = look_ahead(s);
    double side_limit = slide_reach(f, up) + recovery_reach(f) + overshoot + roll_reach(s) + SOAK_TOLERANCE;
    double side = soak_length(reject(moved, up));
    double perch = s->shape == TREAD_QUERY_BOX ? 0.0 : s->radius;
    double step = s->max_step_height + s->skin + perch;
    double settle = s->step_strategy == TREAD_STEP_RISER ? fmax(s->riser.depth, s->step_down_distance) : s->step_down_distance;
    double limit = side_limit + 2.0 * step + settle + s->ground_probe_distance + 3.0 * s->skin;
    double total = soak_length(moved);
    double excess = fmax(side - side_limit, total - limit);
    if (excess > m->overshoot) m->overshoot = excess;
    if (excess <= 0.0) return 0;
    char detail[160];
    if (side - side_limit >= total - limit)
        snprintf(detail, sizeof detail, "moved %.4f m sideways (limit %.4f m: input %.3f m/s over %.4f s)", side, side_limit,
                 soak_length(soak_v3_of(f->velocity)), f->dt);
    else
        snprintf(detail, sizeof detail, "moved %.4f m (limit %.4f m)", total, limit);
    verdict(out, SOAK_OVERSHOOT, side - side_limit >= total - limit ? side : total, side - side_limit >= total - limit ? side_limit : limit,
            detail);
    return 1;
}

// A closed floor is never passed through: from above its top (within its footprint) to below it, in one frame.
static int check_floor(const soak_frame_facts *f, soak_check_state *st, soak_verdict *out) {
    soak_v3 g = f->feet_generation;
    double m = f->arena - 0.5; // the walls stand on the rim
    int side = 0;
    if (fabs(g.x) <= m && fabs(g.z) <= m) side = g.y >= -SOAK_FLOOR_SLACK ? 1 : -1;
    int before = f->teleported || f->crushed ? 0 : st->floor_side; // teleports and crushes are the world's doing
    st->floor_side = f->crushed ? 0 : side;
    if (!(before == 1 && side == -1)) return 0;
    char detail[160];
    snprintf(detail, sizeof detail, "feet %.4f m below the floor's top within its footprint, above it the frame before", -g.y);
    verdict(out, SOAK_FALL_THROUGH, -g.y, SOAK_FLOOR_SLACK, detail);
    return 1;
}

int soak_check_frame(const soak_frame_facts *f, soak_check_state *state, soak_measures *measures, soak_verdict *out) {
    int n = check_depth(f, state, measures, out);
    n += check_rise(f, measures, out + n);
    n += check_reach(f, measures, out + n);
    n += check_floor(f, state, out + n);
    n += check_crossing(f, out + n);
    return n;
}
