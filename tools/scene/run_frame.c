// SPDX-License-Identifier: MIT
// The characters' side of a frame (run.c runs the world's side and the frames): each character's velocity from the
// course's frame loop (docs/COURSE.md: the input's horizontal velocity; along up the ground's while on walkable
// ground, gravity otherwise) or from the movement model (tread_motor_update), then the moves: all characters with one
// tread_batch_move_with, as obstacles to each other (the scene's characters_collide, the default), or one by one
// with tread_character_move_with (they pass through each other). A scene with a sensor body installs a contact
// listener whose entering and leaving events the trace keeps. Then each frame's record: the camera's step
// smoothing, the penetration probe, the overlap with the other characters (overlap.c).
#define _POSIX_C_SOURCE 200809L // clock_gettime

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run_internal.h"

// Height the move lifted (> 0) or lowered (< 0) the feet by stepping or snapping.
// What the camera absorbs: the stairs phase lifted, stick-to-floor lowered.
static float move_stepped(const tread_move_result *r) { return r->step_up - r->snap_down; }

double run_seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void run_record_failure(run_failure *f, tread_result r, const char *call, int character, int frame, float t) {
    f->failed = true;
    f->code = r;
    f->call = call;
    f->character = character;
    f->frame = frame;
    f->t = t;
    snprintf(f->message, sizeof f->message, "%s", tread_error_message());
}

// How far below a one-way platform's top the feet may be while it still counts as something the character must not
// be inside (below that, the character is passing through it, as the library lets it).
#define ONE_WAY_BELOW_TOP 0.01f

typedef struct one_way_probe {
    const tread_world *w;
    float feet; // along up
    tread_vec3 up;
    bool one_way;          // the scene has one-way platforms
    tread_body_id crusher; // the body the move said crushed the character (null: none)
} one_way_probe;

// The penetration probe's filter in a scene with one-way platforms: one whose top (the highest point of its bounds
// along up, as the library judges it) is above the feet is one the character is passing through, not inside.
static bool probe_body(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    (void)layer, (void)user_data;
    const one_way_probe *p = (const one_way_probe *)context;
    if (tread_body_id_equal(body, p->crusher)) return false;
    if (!p->one_way) return true;
    tread_body_type type;
    uint32_t flags;
    tread_aabb box;
    if (tread_body_get_type(p->w, body, &type, &flags) != TREAD_OK || !(flags & TREAD_BODY_ONE_WAY)) return true;
    if (tread_body_get_aabb(p->w, body, &box) != TREAD_OK) return true;
    float top = -INFINITY;
    for (int k = 0; k < 8; ++k) {
        tread_vec3 corner = tread_v3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z);
        top = fmaxf(top, tread_v3_dot(corner, p->up));
    }
    return p->feet >= top - ONE_WAY_BELOW_TOP;
}

tread_result run_penetration_of(const tread_world *w, const tread_character *ch, bool one_way, tread_body_id crusher, float *out) {
    tread_query_shape shape = tread_character_shape(ch);
    tread_distance_result d;
    tread_query_filter filter = tread_query_filter_default();
    one_way_probe probe = {w, tread_v3_dot(ch->position, ch->settings.up), ch->settings.up, one_way, crusher};
    bool filtered = one_way || crusher.generation != 0u;
    if (filtered) filter.callback = probe_body, filter.context = &probe;
    tread_result r = tread_world_closest(w, &shape, tread_character_center(ch), 0.01f, filtered ? &filter : NULL, &d);
    *out = r == TREAD_OK && d.found && d.distance < 0.0f ? -d.distance : 0.0f;
    return r;
}

// The input entry in force at time t (the last one with entry.t <= t).
static const scene_input *input_at(const scene_character *c, float t) {
    const scene_input *in = NULL;
    for (int i = 0; i < c->input_count && c->inputs[i].t <= t + 1e-6f; ++i) in = &c->inputs[i];
    return in;
}

// Desired velocity perpendicular to up for this frame.
static tread_vec3 desired_horizontal(const scene_input *in, tread_vec3 feet, tread_vec3 up, float dt) {
    if (!in || in->kind == SCENE_INPUT_IDLE || in->speed <= 0.0f) return tread_v3_zero();
    if (in->kind == SCENE_INPUT_DIRECTION) return tread_v3_scale(tread_v3_normalize(tread_v3_reject(in->direction, up)), in->speed);
    tread_vec3 to = tread_v3_reject(tread_v3_sub(in->target, feet), up);
    float distance = tread_v3_length(to);
    if (distance <= 1e-6f) return tread_v3_zero();
    // Arrive exactly instead of oscillating around the target.
    float speed = distance < in->speed * dt ? distance / dt : in->speed;
    return tread_v3_scale(to, speed / distance);
}

// A character with a motor: held buttons, the motor's state and the last move (the contacts it met while moving feed
// the motor).
typedef struct motor_run {
    tread_motor_state state;
    tread_move_result last;
    tread_contact last_contacts[TREAD_MAX_MOVE_CONTACTS];
    int last_contact_count;
    bool has_last;
    bool jump, crouch;  // held, as the timeline says
    float stand_height; // the settings' height: what standing up returns to
    int next_input;     // first timeline entry not yet applied to the buttons
} motor_run;

struct run_characters {
    const scene *s;
    int count;
    tread_character *chars;          // the run's (run_trace.final)
    tread_motor_settings *motor;     // per character: the scene's, with --set motor.field=value applied
    motor_run *motors;
    tread_step_smoothing *smooth;
    tread_vec3 *velocities;
    tread_move_result *results;
    tread_contact *contacts;         // per character, TREAD_MAX_MOVE_CONTACTS: what its move met while moving
    tread_body_impulse *impulses;    // per character, TREAD_MAX_MOVE_IMPULSES: what its move gave dynamic bodies
    float *overlaps;
    run_overlap *overlap;
    tread_batch *batch;              // NULL: one by one
    tread_contact_listener listener; // installed when the scene has a sensor
    bool listening;
    bool one_way;                    // the scene has one-way platforms (the penetration probe judges them apart)
    tread_contact_memory *memories;  // one by one with the listener: each character's
    int current;                     // one by one: the character moving (the listener is told index 0)
    int driven;                      // this frame's character moved at `drive` instead of its input (run_characters_drive), or -1
    tread_vec3 drive;
    const tread_world *world;        // this frame's, for the listener
    const tread_backend *backend;    // run_options::engine's: the moves run on it; NULL: on the world
    run_trace *trace;
    int frame;
};

// A sensor event of the listener: the character (its batch index, or the one moving alone) entered or left a scene
// body (whose user data is its index + 1). Other characters and bodies that are not sensors are not recorded.
static void record_event(run_characters *rc, int index, const tread_contact_event *e, scene_event_kind kind) {
    if (e->character >= 0 || !(e->body_flags & TREAD_BODY_SENSOR)) return;
    run_trace *t = rc->trace;
    if (t->event_count >= SCENE_MAX_EVENTS) {
        ++t->events_dropped;
        return;
    }
    if (t->event_count % 1024 == 0) {
        run_event *grown = (run_event *)realloc(t->events, sizeof *grown * (size_t)(t->event_count + 1024));
        if (!grown) {
            ++t->events_dropped;
            return;
        }
        t->events = grown;
    }
    run_event *ev = &t->events[t->event_count++];
    ev->frame = rc->frame;
    ev->character = rc->batch ? index : rc->current;
    ev->body = (int)(intptr_t)tread_body_user_data(rc->world, e->body) - 1;
    ev->kind = kind;
}

static void on_added(const tread_character *c, int index, const tread_contact_event *e, void *context) {
    (void)c;
    record_event((run_characters *)context, index, e, SCENE_EVENT_ENTERED);
}

static void on_persisted(const tread_character *c, int index, const tread_contact_event *e, void *context) {
    (void)c;
    record_event((run_characters *)context, index, e, SCENE_EVENT_STAYED);
}

static void on_removed(const tread_character *c, int index, const tread_contact_event *e, void *context) {
    (void)c;
    record_event((run_characters *)context, index, e, SCENE_EVENT_EXITED);
}

void run_characters_use_backend(run_characters *rc, const tread_backend *backend) { rc->backend = backend; }

void run_characters_destroy(run_characters *rc) {
    if (!rc) return;
    free(rc->motor);
    free(rc->motors);
    free(rc->smooth);
    free(rc->velocities);
    free(rc->results);
    free(rc->contacts);
    free(rc->impulses);
    free(rc->overlaps);
    free(rc->memories);
    run_overlap_destroy(rc->overlap);
    tread_batch_destroy(rc->batch);
    free(rc);
}

bool run_characters_create(const scene *s, const tread_motor_settings *motor, bool collide, tread_character *chars, run_characters **out,
                           char *message, size_t size) {
    int n = s->character_count;
    run_characters *rc = (run_characters *)calloc(1, sizeof *rc);
    *out = NULL;
    if (!rc) return snprintf(message, size, "out of memory for %d characters", n), false;
    rc->s = s;
    rc->count = n;
    rc->chars = chars;
    rc->motor = (tread_motor_settings *)malloc(sizeof *rc->motor * (size_t)n);
    rc->motors = (motor_run *)calloc((size_t)n, sizeof *rc->motors);
    rc->smooth = (tread_step_smoothing *)calloc((size_t)n, sizeof *rc->smooth);
    rc->velocities = (tread_vec3 *)calloc((size_t)n, sizeof *rc->velocities);
    rc->results = (tread_move_result *)calloc((size_t)n, sizeof *rc->results);
    rc->contacts = (tread_contact *)calloc((size_t)n * TREAD_MAX_MOVE_CONTACTS, sizeof *rc->contacts);
    rc->impulses = (tread_body_impulse *)calloc((size_t)n * TREAD_MAX_MOVE_IMPULSES, sizeof *rc->impulses);
    rc->overlaps = (float *)calloc((size_t)n, sizeof *rc->overlaps);
    rc->overlap = run_overlap_create(n);
    for (int i = 0; i < s->body_count; ++i) rc->listening |= (s->bodies[i].def.flags & TREAD_BODY_SENSOR) != 0u;
    rc->one_way = scene_has_one_way(s);
    // One by one, each character keeps its own contact memory for the listener; a batch keeps them itself.
    bool batched = collide && n > 1;
    if (rc->listening && !batched) rc->memories = (tread_contact_memory *)calloc((size_t)n, sizeof *rc->memories);
    if (!rc->motor || !rc->motors || !rc->smooth || !rc->velocities || !rc->results || !rc->contacts || !rc->impulses || !rc->overlaps ||
        !rc->overlap ||
        (rc->listening && !batched && !rc->memories)) {
        run_characters_destroy(rc);
        return snprintf(message, size, "out of memory for %d characters", n), false;
    }
    memcpy(rc->motor, motor, sizeof *rc->motor * (size_t)n);
    for (int c = 0; c < n; ++c) {
        rc->smooth[c] = tread_step_smoothing_default();
        rc->motors[c].state = tread_motor_state_default();
        rc->motors[c].stand_height = chars[c].settings.height;
    }
    if (batched) {
        tread_batch_def def = tread_batch_def_default();
        def.capacity = n;
        def.character_layer = RUN_CHARACTER_LAYER;
        if (tread_batch_create(&def, &rc->batch) != TREAD_OK) {
            snprintf(message, size, "tread_batch_create: %s", tread_error_message());
            run_characters_destroy(rc);
            return false;
        }
    }
    rc->driven = -1;
    rc->listener.added = on_added;
    rc->listener.persisted = on_persisted;
    rc->listener.removed = on_removed;
    rc->listener.context = rc;
    *out = rc;
    return true;
}

// The motor's velocity for this frame: buttons from the timeline entries reached by t, the wish from the
// entry in force, crouching through tread_character_set_height (standing up only where the body fits). On a
// failed call, *call names it and *v is not written.
static tread_result motor_velocity(const tread_world *w, const scene_character *sc, tread_character *ch, motor_run *m,
                                   const tread_motor_settings *motor, float t, float dt, tread_vec3 *v, const char **call) {
    while (m->next_input < sc->input_count && sc->inputs[m->next_input].t <= t + 1e-6f) {
        const scene_input *in = &sc->inputs[m->next_input++];
        if (in->jump >= 0) m->jump = in->jump == 1;
        if (in->crouch >= 0) m->crouch = in->crouch == 1;
    }
    tread_result r = TREAD_OK;
    float height = m->crouch ? motor->crouch_height : m->stand_height;
    *call = "tread_character_set_height";
    if (ch->settings.shape == TREAD_QUERY_CAPSULE && ch->settings.height != height && height >= 2.0f * ch->settings.radius &&
        (r = tread_character_set_height(w, ch, height, NULL)) != TREAD_OK)
        return r;
    tread_motor_input input = tread_motor_input_default();
    tread_vec3 wish = desired_horizontal(input_at(sc, t), ch->position, ch->settings.up, dt);
    float speed = tread_v3_length(wish);
    input.direction = wish;
    input.speed = speed;
    input.jump = m->jump;
    input.crouch = m->crouch;
    *call = "tread_motor_update";
    if ((r = tread_motor_update(&m->state, motor, &input, ch, m->has_last ? &m->last : NULL, m->last_contacts,
                                m->has_last ? m->last_contact_count : 0, dt, v)) != TREAD_OK) return r;
    *call = "tread_character_suppress_snap";
    return m->state.jumped ? tread_character_suppress_snap(ch, motor->jump_snap_suppress_time) : TREAD_OK;
}

// Character c's velocity for this frame: the motor's, or the course loop's (scene_course_velocity).
static tread_result velocity_of(run_characters *rc, const tread_world *w, int c, float t, float dt, const char **call) {
    const scene_character *sc = &rc->s->characters[c];
    tread_character *ch = &rc->chars[c];
    if (c == rc->driven) {
        rc->velocities[c] = rc->drive;
        return TREAD_OK;
    }
    if (sc->has_motor) return motor_velocity(w, sc, ch, &rc->motors[c], &rc->motor[c], t, dt, &rc->velocities[c], call);
    bool on_ground = ch->ground.state == TREAD_GROUND_ON_GROUND;
    rc->velocities[c] = scene_course_velocity(rc->s, c, t, dt, ch->position, ch->velocity, ch->settings.up, on_ground);
    return TREAD_OK;
}

tread_vec3 scene_course_velocity(const scene *s, int character, float t, float dt, tread_vec3 feet, tread_vec3 velocity, tread_vec3 up,
                                 bool on_ground) {
    tread_vec3 v = desired_horizontal(input_at(&s->characters[character], t), feet, up, dt);
    float along_up = on_ground ? 0.0f : tread_v3_dot(velocity, up) + tread_v3_dot(s->gravity, up) * dt;
    return tread_v3_mad(v, along_up, up);
}

// Which character a batch's error names ("characters[3]: ..."), or -1.
static int named_character(const char *message) {
    const char *at = strstr(message, "characters[");
    int index = -1;
    return at && sscanf(at, "characters[%d]", &index) == 1 ? index : -1;
}

// The moves of the frame: one batch, or each character alone. On a failed call, records it and returns false.
static bool move_all(run_characters *rc, const tread_world *w, run_trace *trace, int frame, float t, float dt) {
    tread_move_options options = tread_move_options_default();
    options.listener = rc->listening ? &rc->listener : NULL;
    // Per character: the contacts met while moving (the motor's), the impulses (the dynamics').
    options.contact_capacity = TREAD_MAX_MOVE_CONTACTS;
    options.contacts_where_it_ends = false;
    options.impulse_capacity = TREAD_MAX_MOVE_IMPULSES;
    rc->world = w;
    rc->trace = trace;
    rc->frame = frame;
    tread_result r;
    if (rc->batch) {
        options.contacts = rc->contacts;
        options.impulses = rc->impulses;
        r = rc->backend ? tread_batch_move_with_on(rc->batch, rc->backend, rc->chars, rc->velocities, rc->count, dt, &options, rc->results)
                        : tread_batch_move_with(rc->batch, w, rc->chars, rc->velocities, rc->count, dt, &options, rc->results);
        if (r != TREAD_OK) run_record_failure(&trace->failure, r, "tread_batch_move_with", named_character(tread_error_message()), frame + 1, t);
        return r == TREAD_OK;
    }
    for (int c = 0; c < rc->count; ++c) {
        rc->current = c;
        options.memory = rc->memories ? &rc->memories[c] : NULL;
        options.contacts = rc->contacts + (size_t)c * TREAD_MAX_MOVE_CONTACTS;
        options.impulses = rc->impulses + (size_t)c * TREAD_MAX_MOVE_IMPULSES;
        r = rc->backend ? tread_character_move_with_on(rc->backend, &rc->chars[c], rc->velocities[c], dt, &options, &rc->results[c])
                        : tread_character_move_with(w, &rc->chars[c], rc->velocities[c], dt, &options, &rc->results[c]);
        if (r != TREAD_OK) {
            run_record_failure(&trace->failure, r, "tread_character_move_with", c, frame + 1, t);
            return false;
        }
    }
    return true;
}

// What frame `frame` of character c left, after every move: the motor's last move, the camera's smoothing, the
// penetration probe, the impulses for the dynamic bodies.
static tread_result record(run_characters *rc, const tread_world *w, run_dynamics *dynamics, int c, float dt, run_frame *f, const char **call) {
    const tread_move_result *res = &rc->results[c];
    const tread_character *ch = &rc->chars[c];
    if (rc->s->characters[c].has_motor) {
        motor_run *m = &rc->motors[c];
        m->last = *res;
        m->last_contact_count = res->moving_contact_count < TREAD_MAX_MOVE_CONTACTS ? res->moving_contact_count : TREAD_MAX_MOVE_CONTACTS;
        memcpy(m->last_contacts, rc->contacts + (size_t)c * TREAD_MAX_MOVE_CONTACTS, sizeof m->last_contacts[0] * (size_t)m->last_contact_count);
        m->has_last = true;
    }
    tread_result r;
    *call = "tread_step_smoothing_update";
    if ((r = tread_step_smoothing_update(&rc->smooth[c], move_stepped(res), dt)) != TREAD_OK) return r;
    float penetration;
    *call = "tread_world_closest";
    // A crushed character may overlap the body that crushed it, and nothing else (tread_move_result.crushed_by).
    tread_body_id crusher = res->crushed ? res->crushed_by : tread_body_id_null();
    if ((r = run_penetration_of(w, ch, rc->one_way, crusher, &penetration)) != TREAD_OK) return r;
    if (dynamics) run_dynamics_take(dynamics, w, rc->impulses + (size_t)c * TREAD_MAX_MOVE_IMPULSES, res->impulse_count < TREAD_MAX_MOVE_IMPULSES ? res->impulse_count : TREAD_MAX_MOVE_IMPULSES);
    f->feet = ch->position;
    f->velocity = ch->velocity;
    f->ground = ch->ground.state;
    f->stepped = move_stepped(res);
    f->camera = tread_v3_dot(ch->position, ch->settings.up) + rc->smooth[c].offset;
    f->penetration = penetration;
    f->finite = tread_v3_is_finite(ch->position) && tread_v3_is_finite(ch->velocity);
    f->crushed = res->crushed;
    f->unburied = res->unburied;
    return TREAD_OK;
}

void run_characters_drive(run_characters *rc, int character, tread_vec3 velocity) {
    rc->driven = character;
    rc->drive = velocity;
}

const tread_move_result *run_characters_results(const run_characters *rc) { return rc->results; }
float run_characters_camera_offset(const run_characters *rc, int character) { return rc->smooth[character].offset; }

void run_characters_frame(run_characters *rc, const tread_world *w, run_dynamics *dynamics, run_trace *trace, int frame, float t, float dt) {
    const char *call = NULL;
    tread_result r;
    size_t slot = (size_t)(frame % trace->frame_count);
    for (int c = 0; c < rc->count; ++c)
        if ((r = velocity_of(rc, w, c, t, dt, &call)) != TREAD_OK) {
            run_record_failure(&trace->failure, r, call, c, frame + 1, t);
            return;
        }
    rc->driven = -1; // for this frame only
    double started = run_seconds_now();
    bool moved = move_all(rc, w, trace, frame, t, dt);
    double took = run_seconds_now() - started;
    trace->move_seconds += took;
    if (took > trace->move_seconds_max) trace->move_seconds_max = took;
    if (!moved) return;
    for (int c = 0; c < rc->count; ++c)
        if ((r = record(rc, w, dynamics, c, dt, &trace->frames[(size_t)c * (size_t)trace->frame_count + slot], &call)) != TREAD_OK) {
            run_record_failure(&trace->failure, r, call, c, frame + 1, t);
            return;
        }
    if (rc->count < 2) return;
    run_overlap_measure(rc->overlap, rc->chars, rc->count, rc->overlaps);
    for (int c = 0; c < rc->count; ++c) trace->frames[(size_t)c * (size_t)trace->frame_count + slot].overlap = rc->overlaps[c];
}
