// SPDX-License-Identifier: MIT
// Contact-point stepping for a rigid body (include/tread/rigid_step.h): the Source engine's technique for a player
// that is a rigid body in a physics engine. The engine's solver does everything else; from the contacts it reported,
// this finds a step's riser in the way and lifts the body onto the tread (up, forward, down casts, as the Source
// engine's stair trace does), or lowers a body that walked off a stair onto the next one.
#include <stdio.h>

#include "tread/rigid_step.h"
#include "tread/tread.h" // (its queries: tread_query_shape_default)
#include "../validate.h"

// A landing (or a contact) less than this above the feet is not a step: the solver rolls the capsule's rounded bottom
// over so small an edge itself, and lifting for it would only jitter on flat ground. Metres.
#define RS_MIN_RISE 1.0e-3f
// A contact blocks the wished direction when its horizontal normal faces against it by more than this (the cosine of
// about 84 degrees): a wall the body slides along is not a step to climb.
#define RS_FACING 0.1f
// Horizontal normals shorter than this (a contact straight below or above) face no direction.
#define RS_HORIZONTAL_EPS 1.0e-4f
// Longest vector accepted as a velocity, m/s: far beyond any game's, short enough that a step's casts stay finite.
#define RS_MAX_SPEED 1.0e4f
// Longest step the engine may report, seconds (a tenth of a frame at 10 Hz would already be a slide show).
#define RS_MAX_DT 1.0f

tread_rigid_step_settings tread_rigid_step_default(void) {
    tread_rigid_step_settings s;
    s.max_step_height = 0.4f;
    s.max_slope_degrees = 45.0f;
    s.clearance = 0.005f;
    s.min_tread_depth = 0.05f;
    s.min_speed = 0.01f;
    s.cast = NULL;
    s.cast_context = NULL;
    s.internal_cookie = TR_COOKIE;
    return s;
}

tread_rigid_step_input tread_rigid_step_input_default(void) {
    tread_rigid_step_input in;
    in.contacts = NULL;
    in.contact_count = 0;
    in.radius = 0.3f;
    in.half_height = 0.6f;
    in.position = tread_v3(0, 0, 0);
    in.velocity = tread_v3(0, 0, 0);
    in.wish_velocity = tread_v3(0, 0, 0);
    in.up = tread_v3(0, 1, 0);
    in.dt = 1.0f / 60.0f;
    in.was_on_ground = false;
    in.internal_cookie = TR_COOKIE;
    return in;
}

static tread_result validate(const tread_rigid_step_settings *s, const tread_rigid_step_input *in, const tread_rigid_step_result *out) {
    if (!s) return tr_error(TREAD_ERR_NULL_ARGUMENT, "settings is NULL");
    if (!in) return tr_error(TREAD_ERR_NULL_ARGUMENT, "input is NULL");
    if (!out) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out is NULL");
    tread_result r;
    if ((r = tr_check_cookie(s->internal_cookie, "settings", "tread_rigid_step_settings", "tread_rigid_step_default()")) != TREAD_OK ||
        (r = tr_check_cookie(in->internal_cookie, "input", "tread_rigid_step_input", "tread_rigid_step_input_default()")) != TREAD_OK)
        return r;
    if (!s->cast) return tr_error(TREAD_ERR_NULL_ARGUMENT, "settings->cast is NULL");
    if (s->cast == tread_rigid_step_cast_backend) {
        // The library's own cast: its context is known, so it is checked here (the cast itself cannot report an error,
        // and a bad context would only make every cast miss).
        const tread_rigid_step_backend *b = (const tread_rigid_step_backend *)s->cast_context;
        if (!b || !b->backend)
            return tr_error(TREAD_ERR_NULL_ARGUMENT, "settings->cast_context (a tread_rigid_step_backend) or its backend is NULL");
        if ((r = tr_check_filter(&b->filter, "settings->cast_context->filter")) != TREAD_OK) return r;
    }
    if ((r = tr_check_range("settings->max_step_height", s->max_step_height, 0.0f, TR_MAX_COORDINATE, "m")) != TREAD_OK) return r;
    if ((r = tr_check_range("settings->max_slope_degrees", s->max_slope_degrees, 0.0f, 90.0f, "degrees")) != TREAD_OK) return r;
    if (s->max_slope_degrees >= 90.0f)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings->max_slope_degrees is 90 degrees; expected below 90 (a wall is not ground)");
    if ((r = tr_check_range("settings->clearance", s->clearance, 0.0f, TR_MAX_COORDINATE, "m")) != TREAD_OK) return r;
    if ((r = tr_check_range("settings->min_tread_depth", s->min_tread_depth, 0.0f, TR_MAX_COORDINATE, "m")) != TREAD_OK) return r;
    if (s->min_tread_depth <= 0.0f) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "settings->min_tread_depth is 0 m; expected > 0");
    if ((r = tr_check_range("settings->min_speed", s->min_speed, 0.0f, RS_MAX_SPEED, "m/s")) != TREAD_OK) return r;
    if (in->contact_count < 0) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "input->contact_count is %d; expected >= 0", in->contact_count);
    if (in->contact_count > 0 && !in->contacts)
        return tr_error(TREAD_ERR_NULL_ARGUMENT, "input->contacts is NULL with input->contact_count %d", in->contact_count);
    for (int i = 0; i < in->contact_count; ++i) {
        char name[64];
        snprintf(name, sizeof name, "input->contacts[%d].point", i);
        if ((r = tr_check_point(name, in->contacts[i].point)) != TREAD_OK) return r;
        snprintf(name, sizeof name, "input->contacts[%d].normal", i);
        if ((r = tr_check_length(name, in->contacts[i].normal, 2.0f, "")) != TREAD_OK) return r;
        if (tread_v3_length_sq(in->contacts[i].normal) < 0.25f)
            return tr_error(TREAD_ERR_INVALID_ARGUMENT, "%s has length %g; expected unit length", name, (double)tread_v3_length(in->contacts[i].normal));
    }
    if ((r = tr_check_range("input->radius", in->radius, 0.0f, TR_MAX_COORDINATE, "m")) != TREAD_OK) return r;
    if (in->radius <= 0.0f) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "input->radius is 0 m; expected > 0");
    if ((r = tr_check_range("input->half_height", in->half_height, 0.0f, TR_MAX_COORDINATE, "m")) != TREAD_OK) return r;
    if ((r = tr_check_point("input->position", in->position)) != TREAD_OK) return r;
    if ((r = tr_check_length("input->velocity", in->velocity, RS_MAX_SPEED, "m/s")) != TREAD_OK) return r;
    if ((r = tr_check_length("input->wish_velocity", in->wish_velocity, RS_MAX_SPEED, "m/s")) != TREAD_OK) return r;
    if ((r = tr_check_length("input->up", in->up, 2.0f, "")) != TREAD_OK) return r;
    if (tread_v3_length_sq(in->up) < 0.25f)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "input->up has length %g; expected unit length", (double)tread_v3_length(in->up));
    if ((r = tr_check_range("input->dt", in->dt, 0.0f, RS_MAX_DT, "s")) != TREAD_OK) return r;
    if (in->dt <= 0.0f) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "input->dt is 0 s; expected > 0");
    return TREAD_OK;
}

// What one step's decisions share.
typedef struct rs_frame {
    const tread_rigid_step_settings *s;
    const tread_rigid_step_input *in;
    tread_query_shape shape;
    tread_vec3 up, feet;
    float cos_walkable;
} rs_frame;

static bool walkable(const rs_frame *f, tread_vec3 normal) { return tread_v3_dot(normal, f->up) >= f->cos_walkable; }

// The cast's hit, or none (the callback's *out_hit starts cleared, so a callback that only fills hits is fine).
static tread_shape_hit cast(const rs_frame *f, tread_vec3 from, tread_vec3 by) {
    tread_shape_hit h = {false};
    f->s->cast(f->s->cast_context, &f->shape, from, by, &h);
    return h;
}

// The contact a step up starts from: one blocking the wished direction `dir`, too steep to stand on, its point above
// the feet by more than RS_MIN_RISE and at most max_step_height; of several, the one facing the motion most (then the
// first). -1 when none.
static int riser_contact(const rs_frame *f, tread_vec3 dir) {
    int best = -1;
    float best_facing = 0.0f;
    for (int i = 0; i < f->in->contact_count; ++i) {
        const tread_rigid_contact *c = &f->in->contacts[i];
        tread_vec3 n = tread_v3_normalize(c->normal);
        float height = tread_v3_dot(tread_v3_sub(c->point, f->feet), f->up);
        if (height <= RS_MIN_RISE || height > f->s->max_step_height || walkable(f, n)) continue;
        tread_vec3 across = tread_v3_reject(n, f->up);
        float length = tread_v3_length(across);
        if (length < RS_HORIZONTAL_EPS) continue;
        float facing = -tread_v3_dot(across, dir) / length;
        if (facing > RS_FACING && facing > best_facing) best = i, best_facing = facing;
    }
    return best;
}

// A riser the body will meet during the engine's next step: the capsule cast along the wished direction by what that
// step moves it (speed * dt) hits a surface that riser_contact would take for a riser. Stepping only once the riser
// is a contact loses the rest of the step in which the solver stopped the body against it; stepping on the riser
// ahead lifts the body so that the next step carries it on over the tread (with the step down's check on the nose
// below, the Bullet example reaches S1's top 4 frames sooner). Its point, or false.
static bool riser_ahead(const rs_frame *f, tread_vec3 dir, float speed, tread_vec3 *out_point) {
    float reach = speed * f->in->dt;
    tread_shape_hit h = cast(f, f->in->position, tread_v3_scale(dir, reach));
    if (!h.hit || h.started_in_contact || walkable(f, h.normal)) return false;
    float height = tread_v3_dot(tread_v3_sub(h.point, f->feet), f->up);
    if (height <= RS_MIN_RISE || height > f->s->max_step_height) return false;
    tread_vec3 across = tread_v3_reject(h.normal, f->up);
    float length = tread_v3_length(across);
    if (length < RS_HORIZONTAL_EPS || -tread_v3_dot(across, dir) / length <= RS_FACING) return false;
    *out_point = h.point;
    return true;
}

// The Source engine's stair trace from the riser's point: up by the headroom, forward past the point onto the
// tread, down onto it. The rise of a walkable landing above where the body is, or -1.
static float step_up_rise(const rs_frame *f, tread_vec3 riser, tread_vec3 dir, float speed, tread_vec3 *out_ground) {
    const tread_rigid_step_input *in = f->in;
    float height = f->s->max_step_height;
    tread_shape_hit h = cast(f, in->position, tread_v3_scale(f->up, height));
    float headroom = h.hit ? h.fraction * height : height;
    if (headroom <= RS_MIN_RISE) return -1.0f;
    tread_vec3 raised = tread_v3_mad(in->position, headroom, f->up);
    float past = tread_v3_dot(tread_v3_sub(riser, in->position), dir) + f->s->min_tread_depth;
    float forward = tr_maxf(speed * in->dt, past);
    h = cast(f, raised, tread_v3_scale(dir, forward));
    if (h.hit && h.started_in_contact) return -1.0f;
    tread_vec3 ahead = tread_v3_mad(raised, h.hit ? h.fraction * forward : forward, dir);
    h = cast(f, ahead, tread_v3_scale(f->up, -headroom));
    if (!h.hit || h.started_in_contact || !walkable(f, h.surface_normal)) return -1.0f;
    float rise = headroom * (1.0f - h.fraction);
    if (rise <= RS_MIN_RISE || rise > f->s->max_step_height) return -1.0f;
    *out_ground = h.surface_normal;
    return rise;
}

tread_result tread_rigid_step(const tread_rigid_step_settings *settings, const tread_rigid_step_input *input, tread_rigid_step_result *out) {
    tread_result r = validate(settings, input, out);
    if (r != TREAD_OK) return r;
    rs_frame f;
    f.s = settings;
    f.in = input;
    f.up = tread_v3_normalize(input->up);
    f.shape = tread_query_capsule(input->half_height, input->radius, f.up);
    f.feet = tread_v3_mad(input->position, -(input->half_height + input->radius), f.up);
    double sine, cosine;
    tr_sincos((double)(settings->max_slope_degrees + TREAD_SLOPE_TOLERANCE_DEGREES) * (TR_PI_D / 180.0), &sine, &cosine);
    f.cos_walkable = (float)cosine;

    tread_rigid_step_result res;
    res.stepped = false;
    res.lift = 0.0f;
    res.position = input->position;
    res.velocity = input->velocity;
    res.on_ground = false;
    res.ground_normal = f.up;
    res.contact = -1;
    // Walkable ground now: a walkable contact on the capsule's lower half-sphere (the most upward one).
    for (int i = 0; i < input->contact_count; ++i) {
        tread_vec3 n = tread_v3_normalize(input->contacts[i].normal);
        float height = tread_v3_dot(tread_v3_sub(input->contacts[i].point, f.feet), f.up);
        if (walkable(&f, n) && height <= input->radius && (!res.on_ground || tread_v3_dot(n, f.up) > tread_v3_dot(res.ground_normal, f.up)))
            res.on_ground = true, res.ground_normal = n;
    }

    tread_vec3 wish = tread_v3_reject(input->wish_velocity, f.up);
    float speed = tread_v3_length(wish);
    if (speed >= settings->min_speed && speed > 0.0f) {
        tread_vec3 dir = tread_v3_scale(wish, 1.0f / speed), ground;
        int contact = riser_contact(&f, dir);
        tread_vec3 riser;
        float rise = -1.0f;
        if (contact >= 0) rise = step_up_rise(&f, input->contacts[contact].point, dir, speed, &ground);
        // Looking ahead only from the ground: a body in the air (a jump) meets a riser as it comes.
        else if (res.on_ground && riser_ahead(&f, dir, speed, &riser)) rise = step_up_rise(&f, riser, dir, speed, &ground);
        if (rise > 0.0f) {
            res.stepped = true;
            res.lift = rise + settings->clearance;
            res.position = tread_v3_mad(input->position, res.lift, f.up);
            res.velocity = wish;
            res.on_ground = true;
            res.ground_normal = ground;
            res.contact = contact;
            *out = res;
            return TREAD_OK;
        }
    }
    // Step down: it stood on ground, stands on none now and is not going up: the stair below, within max_step_height,
    // where the capsule would stand: the hit's own normal walkable as well as the surface's (as res.on_ground judges
    // contacts). A riser's nose whose top face is flat but that the capsule would lean on steeply is not a stair: after
    // a step up on the riser ahead the body is short of the riser for a frame or more, and lowering it onto the nose
    // there undid the step.
    if (input->was_on_ground && !res.on_ground && tread_v3_dot(input->velocity, f.up) <= 0.0f && tread_v3_dot(input->wish_velocity, f.up) <= 0.0f &&
        settings->max_step_height > 0.0f) {
        tread_shape_hit h = cast(&f, input->position, tread_v3_scale(f.up, -settings->max_step_height));
        if (h.hit && !h.started_in_contact && walkable(&f, h.normal) && walkable(&f, h.surface_normal)) {
            res.stepped = true;
            res.lift = -h.fraction * settings->max_step_height;
            res.position = tread_v3_mad(input->position, res.lift, f.up);
            res.velocity = tread_v3_reject(input->velocity, f.up);
            res.on_ground = true;
            res.ground_normal = h.surface_normal;
        }
    }
    *out = res;
    return TREAD_OK;
}

void tread_rigid_step_cast_backend(void *context, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                   tread_shape_hit *out_hit) {
    const tread_rigid_step_backend *b = (const tread_rigid_step_backend *)context;
    out_hit->hit = false;
    if (!b || !b->backend || !b->backend->cast_shape) return;
    // The move's bounds: the swept shape's box, grown by the touch tolerance (a touching surface is a hit).
    float reach = shape->radius + TR_TOUCH_TOLERANCE +
                  (shape->type == TREAD_QUERY_CAPSULE ? shape->half_height : shape->type == TREAD_QUERY_BOX ? tread_v3_length(shape->half_extents) : 0.0f);
    tread_vec3 end = tread_v3_add(position, translation);
    tread_aabb bounds = tread_aabb_expand(tread_aabb_make(tread_v3_min(position, end), tread_v3_max(position, end)), reach);
    void *move = NULL;
    if (b->backend->begin_move && b->backend->begin_move(b->backend->context, &bounds, &move) != TREAD_OK) return;
    b->backend->cast_shape(b->backend->context, move, shape, position, translation, &b->filter, out_hit);
    if (b->backend->end_move) b->backend->end_move(b->backend->context, move);
}
