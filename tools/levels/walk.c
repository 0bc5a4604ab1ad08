// SPDX-License-Identifier: MIT
// The walker's characters: Quake's player (an upright box 0.9375 x 0.9375 x 1.75 m, or a capsule of that radius
// and height; steps of 18 units, slopes to 45.57 degrees, the rest tread's defaults) driven through tread's motor
// by seeded wandering hands, from every spawn of a map: one at a time (alone), or all together through the batch
// update. A death (a hazard volume, or falling below the level) respawns the character; it is not a failure.
// Jump pads and teleporters (level::triggers) act on a character whose bounds overlap their volume when a frame
// begins: a teleporter moves it to its destination before the motor runs, a jump pad replaces the motor's
// velocity with its launch (as Quake sets the player's velocity every frame it touches the pad). Until it lands
// the flight is the pad's: the hands let go (the motor's air control approaches the wish velocity and would brake
// a flight faster than the running speed, where Quake's only adds along the wish) and the motor's speed clamp is
// the launch's horizontal speed, so the apex is the pad's target.
#define _POSIX_C_SOURCE 200809L // clock_gettime
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "walk.h"

#define WALK_PI 3.14159265358979323846
// Below the world model's bounds by this much, a character has fallen out of the level.
#define WALK_OUT_OF_LEVEL 2.0

const char *const walk_shape_names[WALK_SHAPES] = {"box", "capsule"};

bool walk_map_load(walk_map *m, const char *pk3, const char *name, char *err, size_t errsize) {
    memset(m, 0, sizeof *m);
    if (!level_load(pk3, name, &m->lv, err, errsize)) return false;
    if (!walk_grid_build(&m->grid, &m->lv, err, errsize)) return false;
    if (tread_world_create(NULL, &m->world) != TREAD_OK) {
        snprintf(err, errsize, "%s: tread_world_create: %s", m->lv.name, tread_error_message());
        return false;
    }
    int bodies = 0;
    if (!level_add_to_world(&m->lv, m->world, 0, &m->body, 1, &bodies, err, errsize)) return false;
    return true;
}

void walk_map_free(walk_map *m) {
    tread_world_destroy(m->world);
    walk_grid_free(&m->grid);
    level_free(&m->lv);
    memset(m, 0, sizeof *m);
}

void walk_run_free(walk_run *run) {
    free(run->kept);
    run->kept = NULL;
    run->kept_count = run->kept_capacity = 0;
}

tread_character_settings walk_character_settings(int shape, int strategy) {
    tread_character_settings s = tread_character_settings_default();
    s.shape = shape == 0 ? TREAD_QUERY_BOX : TREAD_QUERY_CAPSULE;
    s.radius = 0.46875f;          // 15 units: Quake's player box is 30 units wide
    s.height = 1.75f;             // 56 units
    s.up = tread_v3(0.0f, 1.0f, 0.0f);
    s.max_step_height = 0.5625f;  // STEPSIZE, 18 units
    s.max_slope_degrees = 45.57f; // MIN_WALK_NORMAL 0.7
    s.step_strategy = (tread_step_strategy)strategy;
    return s;
}

// Quake's movement speeds in metres: 320 units/s running, gravity 800 units/s^2, a jump's 270 units/s take-off
// (an apex of 45.6 units), pm_accelerate 10 and pm_airaccelerate 1 times the wish speed, pm_friction 6; fixed-height
// jumps (no cut on release).
tread_motor_settings walk_motor_settings(void) {
    tread_motor_settings m = tread_motor_settings_default();
    m.max_speed = 10.0f;
    m.gravity = 25.0f;
    m.jump_height = 1.4238f;
    m.ground_acceleration = 100.0f;
    m.air_acceleration = 10.0f;
    m.friction = 6.0f;
    m.jump_cut = 1.0f;
    return m;
}

// The player's hands, as the soak's (tools/soak/run.c): the stick turns every 0.2-2 s (now and then let go), the
// jump button is pressed now and then and held 0.03-0.4 s.
typedef struct walk_hands {
    tread_motor_input input;
    double next_turn, next_jump, release_jump;
} walk_hands;

static void move_hands(soak_rng *r, double t, walk_hands *h) {
    if (t >= h->next_turn) {
        double angle = soak_rng_range(r, 0.0, 2.0 * WALK_PI);
        h->input.direction = soak_rng_chance(r, 0.15) ? tread_v3_zero() : tread_v3((float)cos(angle), 0.0f, (float)sin(angle));
        h->input.magnitude = (float)soak_rng_range(r, 0.5, 1.0);
        h->next_turn = t + soak_rng_range(r, 0.2, 2.0);
    }
    if (t >= h->next_jump) {
        h->release_jump = t + soak_rng_range(r, 0.03, 0.4);
        h->next_jump = t + soak_rng_range(r, 0.3, 4.0);
    }
    h->input.jump = t < h->release_jump;
}

typedef struct walk_agent {
    int spawn;
    tread_character ch;
    tread_motor_state motor;
    tread_move_result last;
    tread_contact contacts[TREAD_MAX_MOVE_CONTACTS]; // what the last move met while moving (its buffer)
    int contact_count;                               // of them in contacts
    bool has_last, fresh;
    bool launched, teleported, on_pad; // this frame's trigger facts; on_pad: a pad launched it the frame before
    double flight_speed;     // a pad's flight: its horizontal launch speed until the character lands (0: none)
    tread_vec3 wish;         // the input's direction the motor was given this frame
    walk_hands hands;
    soak_rng rng;
    walk_check_state st;
    tread_vec3 velocity;
    tread_body_id crushed_by; // the body that crushed it in the last frame (the null id: none), for the movers' logic
} walk_agent;

static tread_vec3 spawn_feet(const walk_map *m, int spawn) {
    const double *f = m->lv.spawns[spawn].feet;
    return tread_v3((float)f[0], (float)(f[1] + 0.01), (float)f[2]);
}

static bool agent_init(walk_agent *a, const walk_map *m, const walk_options *o, int spawn, int shape, int strategy) {
    memset(a, 0, sizeof *a);
    a->spawn = spawn;
    a->rng = soak_rng_for_world(o->seed, (uint64_t)spawn);
    a->hands.input = tread_motor_input_default();
    a->hands.next_jump = soak_rng_range(&a->rng, 0.3, 4.0);
    a->motor = tread_motor_state_default();
    a->fresh = true;
    tread_character_settings s = walk_character_settings(shape, strategy);
    return tread_character_init(&a->ch, &s, spawn_feet(m, spawn)) == TREAD_OK;
}

static void respawn(walk_agent *a, const walk_map *m) {
    tread_character_settings s = a->ch.settings;
    tread_character_init(&a->ch, &s, spawn_feet(m, a->spawn));
    a->motor = tread_motor_state_default();
    a->has_last = false;
    a->fresh = true;
    a->launched = a->teleported = a->on_pad = false;
    a->flight_speed = 0.0;
    a->crushed_by = tread_body_id_null();
    memset(&a->st, 0, sizeof a->st);
}

static bool overlaps(const soak_shape *s, const double lo[3], const double hi[3]) {
    return s->lo.x < hi[0] && s->hi.x > lo[0] && s->lo.y < hi[1] && s->hi.y > lo[1] && s->lo.z < hi[2] && s->hi.z > lo[2];
}

// Dead: inside a hazard's bounds, or fallen below the level.
static bool dead(const walk_map *m, const tread_character *ch) {
    soak_shape s = soak_shape_at(&ch->settings, soak_v3_of(ch->position));
    if (s.hi.y < m->lv.lo[1] - WALK_OUT_OF_LEVEL) return true;
    for (int i = 0; i < m->lv.hazard_count; ++i)
        if (overlaps(&s, m->lv.hazards[i].lo, m->lv.hazards[i].hi)) return true;
    return false;
}

// The first trigger of `kind` the character's bounds overlap; NULL for none.
static const level_trigger *touched(const walk_map *m, const tread_character *ch, level_trigger_kind kind) {
    soak_shape s = soak_shape_at(&ch->settings, soak_v3_of(ch->position));
    for (int i = 0; i < m->lv.trigger_count; ++i)
        if (m->lv.triggers[i].kind == kind && overlaps(&s, m->lv.triggers[i].lo, m->lv.triggers[i].hi)) return &m->lv.triggers[i];
    return NULL;
}

// A teleporter touched: the feet to its destination (1 cm up, as a spawn), the motor leaving at the exit velocity
// in the air; the last move's contacts are another place's.
static bool teleport(walk_agent *a, const walk_map *m, walk_run *run) {
    const level_trigger *t = touched(m, &a->ch, LEVEL_TRIGGER_TELEPORT);
    if (!t) return false;
    tread_vec3 feet = tread_v3((float)t->feet[0], (float)(t->feet[1] + 0.01), (float)t->feet[2]);
    if (tread_character_set_position(&a->ch, feet) != TREAD_OK) return false;
    a->motor = tread_motor_state_default();
    a->motor.velocity = tread_v3((float)t->exit[0], (float)t->exit[1], (float)t->exit[2]);
    a->has_last = false;
    memset(&a->st, 0, sizeof a->st);
    ++run->teleports;
    return true;
}

// A jump pad touched: the velocity handed to the move becomes the launch's mean over the frame (gravity acting
// on it), the motor's the launch's at the frame's end, in the air with no coyote jump, snapping to the floor off
// long enough to leave it.
static bool launch(walk_agent *a, const walk_map *m, walk_run *run, const tread_motor_settings *ms, double dt) {
    const level_trigger *t = touched(m, &a->ch, LEVEL_TRIGGER_PUSH);
    if (!t) return false;
    double g = (double)ms->gravity;
    a->velocity = tread_v3((float)t->launch[0], (float)(t->launch[1] - 0.5 * g * dt), (float)t->launch[2]);
    a->motor.velocity = tread_v3((float)t->launch[0], (float)(t->launch[1] - g * dt), (float)t->launch[2]);
    a->motor.move_velocity = a->velocity;
    a->motor.ground_velocity = tread_v3_zero();
    a->motor.grounded = a->motor.rising = a->motor.jumped = false;
    a->motor.time_since_grounded = 1e3f;
    if (tread_character_suppress_snap(&a->ch, ms->jump_snap_suppress_time) != TREAD_OK) return false;
    if (!a->on_pad) ++run->launches;
    a->flight_speed = sqrt(t->launch[0] * t->launch[0] + t->launch[2] * t->launch[2]);
    return true;
}

static void record(walk_run *run, const walk_options *o, int spawn, int frame, const tread_character *ch, const walk_verdict *v) {
    int kept = 0;
    ++run->counts[v->kind];
    if (v->kind == WALK_GROUND) ++run->ground_faults[v->fault];
    for (int i = 0; i < run->kept_count; ++i) kept += run->kept[i].kind == v->kind && run->kept[i].spawn == spawn;
    if (kept >= o->keep) return;
    if (run->kept_count == run->kept_capacity) {
        int cap = run->kept_capacity ? 2 * run->kept_capacity : 16;
        walk_failure *grown = realloc(run->kept, (size_t)cap * sizeof *grown);
        if (!grown) return;
        run->kept = grown, run->kept_capacity = cap;
    }
    walk_failure *f = &run->kept[run->kept_count++];
    f->spawn = spawn, f->shape = run->shape, f->strategy = run->strategy, f->frame = frame, f->batch = run->spawn < 0;
    f->kind = v->kind, f->value = v->value, f->feet = soak_v3_of(ch->position);
    snprintf(f->detail, sizeof f->detail, "%s", v->detail);
}

static void trace_frame(FILE *trace, const walk_agent *a, int frame, double t, const tread_move_result *res, const walk_verdict *v, int n) {
    const tread_character *c = &a->ch;
    fprintf(trace, "%6d spawn %d t %8.4f feet %9.4f %9.4f %9.4f v %8.3f %8.3f %8.3f wish %6.3f %6.3f%s %-11s step %.4f snap %.4f contacts %d\n", frame,
            a->spawn, t, (double)c->position.x, (double)c->position.y, (double)c->position.z, (double)a->velocity.x, (double)a->velocity.y,
            (double)a->velocity.z, (double)a->hands.input.direction.x, (double)a->hands.input.direction.z, a->hands.input.jump ? " jump" : "",
            soak_ground_name(c->ground.state), (double)res->step_up, (double)res->snap_down, res->contact_count);
    for (int i = 0; i < a->contact_count; ++i) {
        const tread_contact *k = &a->contacts[i];
        fprintf(trace, "       contact triangle %u separation %.5f point %.4f %.4f %.4f normal %.4f %.4f %.4f surface %.4f %.4f %.4f\n", k->feature,
                (double)k->separation, (double)k->point.x, (double)k->point.y, (double)k->point.z, (double)k->normal.x, (double)k->normal.y,
                (double)k->normal.z, (double)k->surface_normal.x, (double)k->surface_normal.y, (double)k->surface_normal.z);
    }
    if (a->teleported) fprintf(trace, "       teleported before the move\n");
    if (a->launched) fprintf(trace, "       launched by a jump pad\n");
    for (int i = 0; i < n; ++i) fprintf(trace, "       FAIL %s: %s\n", walk_kind_name(v[i].kind), v[i].detail);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// The hands and the motor for one agent; false (the error recorded, the agent respawned) when the motor refused.
static bool drive(walk_agent *a, const walk_map *m, walk_run *run, const walk_options *o, int frame, double t, double dt) {
    move_hands(&a->rng, t, &a->hands);
    tread_motor_settings ms = walk_motor_settings();
    a->teleported = teleport(a, m, run);
    if (a->teleported || a->ch.ground.state == TREAD_GROUND_ON_GROUND) a->flight_speed = 0.0;
    tread_motor_input input = a->hands.input;
    if (a->flight_speed > 0.0) {
        input.direction = tread_v3_zero();
        input.jump = false;
        ms.max_speed = fmaxf(ms.max_speed, (float)a->flight_speed);
    }
    a->wish = input.direction;
    if (tread_motor_update(&a->motor, &ms, &input, &a->ch, a->has_last ? &a->last : NULL, a->contacts,
                           a->has_last ? a->contact_count : 0, (float)dt, &a->velocity) != TREAD_OK ||
        (a->motor.jumped && tread_character_suppress_snap(&a->ch, ms.jump_snap_suppress_time) != TREAD_OK)) {
        walk_verdict v = {WALK_ERROR, 0, 0.0, ""};
        snprintf(v.detail, sizeof v.detail, "motor: %s", tread_error_message());
        record(run, o, a->spawn, frame, &a->ch, &v);
        respawn(a, m);
        return false;
    }
    a->launched = launch(a, m, run, &ms, dt);
    a->on_pad = a->launched;
    return true;
}

// A move's options: a buffer (set by the caller) for the TREAD_MAX_MOVE_CONTACTS first surfaces met while moving, which
// the motor and the checks read.
static tread_move_options move_options(void) {
    tread_move_options o = tread_move_options_default();
    o.contact_capacity = TREAD_MAX_MOVE_CONTACTS;
    o.contacts_where_it_ends = false;
    return o;
}

// What a run moves its characters in: the map's shared world, or with movers the run's own (walk_movers.c).
typedef struct walk_scene {
    tread_world *world;
    tread_body_id level_body;
    walk_movers movers;
    bool has_movers;
    walk_presence *presences; // the characters as the movers' logic sees them (one per agent)
} walk_scene;

static bool scene_init(walk_scene *sc, const walk_map *m, const walk_options *o, int agents, char *err, size_t errsize) {
    memset(sc, 0, sizeof *sc);
    sc->world = m->world, sc->level_body = m->body;
    if (!o->movers || m->lv.mover_count == 0) return true;
    sc->has_movers = true;
    sc->presences = calloc((size_t)agents + 1, sizeof *sc->presences);
    if (!sc->presences) {
        snprintf(err, errsize, "%s: out of memory", m->lv.name);
        return false;
    }
    if (!walk_movers_init(&sc->movers, m, err, errsize)) return false;
    sc->world = sc->movers.world, sc->level_body = sc->movers.level_body;
    return true;
}

// Frees the scene; the movers opened go to the run.
static void scene_free(walk_scene *sc, walk_run *run) {
    if (sc->has_movers) {
        run->mover_opens += sc->movers.opened;
        walk_movers_free(&sc->movers);
    }
    free(sc->presences);
    sc->presences = NULL;
}

// The movers react to the agents (in their order) and go to their places at the frame's end; false (the error
// recorded) when tread refused.
static bool scene_step(walk_scene *sc, const walk_map *m, walk_run *run, const walk_options *o, int frame, double t, double dt,
                       const walk_agent *agents, int count) {
    if (!sc->has_movers) return true;
    for (int i = 0; i < count; ++i) {
        soak_shape s = soak_shape_at(&agents[i].ch.settings, soak_v3_of(agents[i].ch.position));
        walk_presence *p = &sc->presences[i];
        p->lo[0] = s.lo.x, p->lo[1] = s.lo.y, p->lo[2] = s.lo.z;
        p->hi[0] = s.hi.x, p->hi[1] = s.hi.y, p->hi[2] = s.hi.z;
        p->crushed_by = agents[i].crushed_by;
    }
    char err[160];
    if (walk_movers_step(&sc->movers, &m->lv, sc->presences, count, t, dt, err, sizeof err)) return true;
    walk_verdict v = {WALK_ERROR, 0, 0.0, ""};
    snprintf(v.detail, sizeof v.detail, "movers: %s", err);
    record(run, o, run->spawn, frame, &agents[0].ch, &v);
    return false;
}

static bool is_mover(const walk_movers *mv, tread_body_id id) {
    for (int i = 0; i < mv->count; ++i)
        if (tread_body_id_equal(mv->bodies[i], id)) return true;
    return false;
}

// Stood on or touched a mover in this move.
static bool touches_mover(const walk_movers *mv, const walk_agent *a) {
    bool touched = a->ch.ground.state != TREAD_GROUND_IN_AIR && is_mover(mv, a->ch.ground.body);
    for (int i = 0; i < a->contact_count; ++i) touched = touched || is_mover(mv, a->contacts[i].body);
    return touched;
}

// After a move: the checks, the deaths. `before` is the character the move started from; `contacts` the buffer the
// move was given (TREAD_MAX_MOVE_CONTACTS), kept by the agent for its motor and checks.
static void after_move(walk_agent *a, const walk_map *m, const walk_scene *sc, walk_query *q, walk_run *run, const walk_options *o,
                       int frame, double t, double dt, const tread_character *before, const tread_move_result *res, const tread_contact *contacts,
                       FILE *trace) {
    walk_verdict v[WALK_KIND_COUNT];
    int n = 0;
    a->contact_count = res->moving_contact_count < TREAD_MAX_MOVE_CONTACTS ? res->moving_contact_count : TREAD_MAX_MOVE_CONTACTS;
    if (contacts != a->contacts) memcpy(a->contacts, contacts, sizeof *contacts * (size_t)a->contact_count);
    a->crushed_by = res->crushed ? res->crushed_by : tread_body_id_null();
    if (!walk_finite(&a->ch, res, a->contacts, a->contact_count)) {
        v[0].kind = WALK_NAN, v[0].value = 0.0;
        snprintf(v[0].detail, sizeof v[0].detail, "feet (%g, %g, %g) velocity (%g, %g, %g)", (double)a->ch.position.x, (double)a->ch.position.y,
                 (double)a->ch.position.z, (double)a->ch.velocity.x, (double)a->ch.velocity.y, (double)a->ch.velocity.z);
        n = 1;
    } else {
        walk_frame_facts f;
        memset(&f, 0, sizeof f);
        f.before = before, f.after = &a->ch, f.result = res;
        f.contacts = a->contacts, f.contact_count = a->contact_count;
        f.velocity = a->velocity;
        f.wish = a->wish;
        f.dt = dt, f.time = t;
        f.fresh = a->fresh;
        f.launched = a->launched, f.teleported = a->teleported;
        f.level_body = sc->level_body;
        if (sc->has_movers) {
            f.movers.tris = sc->movers.tris, f.movers.count = sc->movers.tri_count;
            f.movers.first = sc->movers.first, f.movers.mover_count = sc->movers.count;
        }
        // Another character or a mover touched or stood on: the level-only checks do not apply.
        bool others = a->ch.ground.state != TREAD_GROUND_IN_AIR && !tread_body_id_equal(a->ch.ground.body, sc->level_body);
        for (int i = 0; i < a->contact_count; ++i) others = others || !tread_body_id_equal(a->contacts[i].body, sc->level_body);
        f.others = others;
        if (sc->has_movers && touches_mover(&sc->movers, a)) ++run->mover_frames;
        n = walk_check_frame(&m->grid, q, &f, &a->st, v);
    }
    for (int i = 0; i < n; ++i) record(run, o, a->spawn, frame, &a->ch, &v[i]);
    if (trace) trace_frame(trace, a, frame, t, res, v, n);
    if ((n > 0 && v[0].kind == WALK_NAN) || dead(m, &a->ch)) {
        if (n == 0 || v[0].kind != WALK_NAN) ++run->deaths;
        if (trace) fprintf(trace, "       %s: respawn\n", n > 0 && v[0].kind == WALK_NAN ? "broken state" : "death");
        respawn(a, m);
        return;
    }
    a->last = *res;
    a->has_last = true;
    a->fresh = false;
}

static int frame_count(const walk_options *o) { return (int)lround(o->seconds * o->hz); }

void walk_run_alone(const walk_map *m, const walk_options *o, walk_run *run, FILE *trace) {
    walk_query q;
    walk_agent a;
    walk_scene sc;
    memset(&sc, 0, sizeof sc);
    char err[200] = "";
    if (!walk_query_init(&q, &m->grid) || !agent_init(&a, m, o, run->spawn, run->shape, run->strategy) ||
        !scene_init(&sc, m, o, 1, err, sizeof err)) {
        run->failed = true;
        const char *why = err[0] ? err : q.marks ? tread_error_message() : "out of memory";
        snprintf(run->message, sizeof run->message, "setting up spawn %d: %s", run->spawn, why);
        walk_query_free(&q);
        scene_free(&sc, run);
        return;
    }
    double dt = 1.0 / o->hz, t = 0.0;
    int frames = frame_count(o);
    for (int frame = 0; frame < frames; ++frame, ++run->frames) {
        t += dt;
        if (!scene_step(&sc, m, run, o, frame, t - dt, dt, &a, 1)) break;
        if (!drive(&a, m, run, o, frame, t - dt, dt)) continue;
        tread_character before = a.ch;
        tread_move_result res;
        memset(&res, 0, sizeof res);
        tread_move_options options = move_options();
        options.contacts = a.contacts;
        double start = now_seconds();
        tread_result r = tread_character_move_with(sc.world, &a.ch, a.velocity, (float)dt, &options, &res);
        run->move_seconds += now_seconds() - start;
        ++run->moves;
        if (r != TREAD_OK) {
            walk_verdict v = {WALK_ERROR, 0, 0.0, ""};
            snprintf(v.detail, sizeof v.detail, "move: %s", tread_error_message());
            record(run, o, a.spawn, frame, &a.ch, &v);
            respawn(&a, m);
            continue;
        }
        after_move(&a, m, &sc, &q, run, o, frame, t, dt, &before, &res, a.contacts, trace);
    }
    walk_query_free(&q);
    scene_free(&sc, run);
}

void walk_run_batch(const walk_map *m, const walk_options *o, walk_run *run, FILE *trace) {
    int n = m->lv.spawn_count;
    walk_query q;
    walk_agent *agents = calloc((size_t)n + 1, sizeof *agents);
    tread_character *chars = calloc((size_t)n + 1, sizeof *chars), *before = calloc((size_t)n + 1, sizeof *before);
    tread_vec3 *velocities = calloc((size_t)n + 1, sizeof *velocities);
    tread_move_result *results = calloc((size_t)n + 1, sizeof *results);
    tread_contact *contacts = calloc(((size_t)n + 1) * TREAD_MAX_MOVE_CONTACTS, sizeof *contacts);
    tread_move_options options = move_options();
    options.contacts = contacts;
    tread_batch *batch = NULL;
    tread_batch_def def = tread_batch_def_default();
    def.capacity = n;
    def.threads = 1; // the runs are spread over threads already
    walk_scene sc;
    memset(&sc, 0, sizeof sc);
    char err[200] = "";
    bool ok = walk_query_init(&q, &m->grid) && agents && chars && before && velocities && results && contacts &&
              tread_batch_create(&def, &batch) == TREAD_OK && scene_init(&sc, m, o, n, err, sizeof err);
    for (int i = 0; ok && i < n; ++i) ok = agent_init(&agents[i], m, o, i, run->shape, run->strategy);
    if (!ok) {
        run->failed = true;
        snprintf(run->message, sizeof run->message, "setting up the batch: %s", err[0] ? err : tread_error_message());
    }
    double dt = 1.0 / o->hz, t = 0.0;
    int frames = ok ? frame_count(o) : 0;
    for (int frame = 0; frame < frames; ++frame, run->frames += n) { // frames: character updates, as alone
        t += dt;
        if (!scene_step(&sc, m, run, o, frame, t - dt, dt, agents, n)) break;
        for (int i = 0; i < n; ++i) {
            if (!drive(&agents[i], m, run, o, frame, t - dt, dt)) agents[i].velocity = tread_v3_zero();
            chars[i] = before[i] = agents[i].ch;
            velocities[i] = agents[i].velocity;
        }
        double start = now_seconds();
        tread_result r = tread_batch_move_with(batch, sc.world, chars, velocities, n, (float)dt, &options, results);
        run->move_seconds += now_seconds() - start;
        run->moves += n;
        if (r != TREAD_OK) {
            walk_verdict v = {WALK_ERROR, 0, 0.0, ""};
            snprintf(v.detail, sizeof v.detail, "batch move: %s", tread_error_message());
            record(run, o, -1, frame, &chars[0], &v);
            for (int i = 0; i < n; ++i) respawn(&agents[i], m);
            continue;
        }
        for (int i = 0; i < n; ++i) {
            agents[i].ch = chars[i];
            after_move(&agents[i], m, &sc, &q, run, o, frame, t, dt, &before[i], &results[i], contacts + (size_t)i * TREAD_MAX_MOVE_CONTACTS,
                       trace);
        }
    }
    tread_batch_destroy(batch);
    scene_free(&sc, run);
    free(agents);
    free(chars);
    free(before);
    free(velocities);
    free(results);
    free(contacts);
    walk_query_free(&q);
}
