// SPDX-License-Identifier: MIT
// Simulating a scene with the course's frame loop (docs/COURSE.md): each frame the desired
// horizontal velocity comes from the input timeline; along up, velocity is the ground's while on walkable
// ground, and gains gravity otherwise. The controller does the rest. Characters with a "motor" are driven by
// the movement model instead (tread_motor_update: acceleration, friction, jumps, crouch).
#include "tread_scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// Height the move lifted (> 0) or lowered (< 0) the feet by stepping or snapping.
// What the camera absorbs: the stairs phase lifted, stick-to-floor lowered.
static float move_stepped(const tread_move_result *r) { return r->step_up - r->snap_down; }

static double seconds_now(void) { return (double)clock() / (double)CLOCKS_PER_SEC; }

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

// A character with a motor: held buttons, the motor's state and the last move (its contacts feed the motor).
typedef struct motor_run {
    tread_motor_state state;
    tread_move_result last;
    bool has_last;
    bool jump, crouch;  // held, as the timeline says
    float stand_height; // the settings' height: what standing up returns to
    int next_input;     // first timeline entry not yet applied to the buttons
    tread_motor_settings motor; // the scene's, with --set motor.field=value applied
} motor_run;

// The motor's velocity for this frame: buttons from the timeline entries reached by t, the wish from the
// entry in force, crouching through tread_character_set_height (standing up only where the body fits). On a
// failed call, *call names it and *v is not written.
static tread_result motor_velocity(const tread_world *w, const scene_character *sc, tread_character *ch, motor_run *m, float t, float dt,
                                   tread_vec3 *v, const char **call) {
    while (m->next_input < sc->input_count && sc->inputs[m->next_input].t <= t + 1e-6f) {
        const scene_input *in = &sc->inputs[m->next_input++];
        if (in->jump >= 0) m->jump = in->jump == 1;
        if (in->crouch >= 0) m->crouch = in->crouch == 1;
    }
    tread_result r = TREAD_OK;
    float height = m->crouch ? m->motor.crouch_height : m->stand_height;
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
    if ((r = tread_motor_update(&m->state, &m->motor, &input, ch, m->has_last ? &m->last : NULL, dt, v)) != TREAD_OK) return r;
    *call = "tread_character_suppress_snap";
    return m->state.jumped ? tread_character_suppress_snap(ch, m->motor.jump_snap_suppress_time) : TREAD_OK;
}

// Deepest overlap of the character with the world (metres, >= 0) in *out; 0 when the query failed.
static tread_result penetration_of(const tread_world *w, const tread_character *ch, float *out) {
    tread_query_shape shape = tread_character_shape(ch);
    tread_distance_result d;
    tread_result r = tread_world_closest(w, &shape, tread_character_center(ch), 0.01f, NULL, &d);
    *out = r == TREAD_OK && d.found && d.distance < 0.0f ? -d.distance : 0.0f;
    return r;
}

// --strategy and --set: "field=value" sets a character setting, "motor.field=value" a motor setting.
static bool apply_options(const run_options *o, tread_character_settings *s, tread_motor_settings *motor, char *message, size_t size) {
    if (!o) return true;
    if (o->strategy && !scene_set_setting(s, "step_strategy", o->strategy, message, size)) return false;
    for (int i = 0; i < o->set_count; ++i) {
        char name[64];
        const char *eq = strchr(o->sets[i], '=');
        if (!eq || eq == o->sets[i] || (size_t)(eq - o->sets[i]) >= sizeof name) {
            snprintf(message, size, "--set %s: expected field=value", o->sets[i]);
            return false;
        }
        memcpy(name, o->sets[i], (size_t)(eq - o->sets[i]));
        name[eq - o->sets[i]] = '\0';
        if (strcmp(name, "dt") == 0) continue; // handled by the caller
        char why[1024];
        bool ok = strncmp(name, "motor.", 6) == 0 ? scene_set_motor_setting(motor, name + 6, eq + 1, why, sizeof why)
                                                  : scene_set_setting(s, name, eq + 1, why, sizeof why);
        if (!ok) {
            snprintf(message, size, "--set %s: %s", o->sets[i], why);
            return false;
        }
    }
    return true;
}

// The rotation taking unit vector a onto unit vector b (the shortest arc; a half turn about any
// perpendicular axis when they are opposite).
static tread_quat rotation_between(tread_vec3 a, tread_vec3 b) {
    float d = tread_v3_dot(a, b);
    if (d < -0.999999f) {
        tread_vec3 axis = tread_v3_cross(a, tread_v3(1, 0, 0));
        if (tread_v3_length_sq(axis) < 1e-6f) axis = tread_v3_cross(a, tread_v3(0, 0, 1));
        axis = tread_v3_normalize(axis);
        tread_quat q = {axis.x, axis.y, axis.z, 0.0f};
        return q;
    }
    tread_vec3 c = tread_v3_cross(a, b);
    tread_quat q = {c.x, c.y, c.z, 1.0f + d};
    return tread_quat_normalize(q);
}

// Rotate a scene's world, starts, inputs, gravity and up by q, in place (the scene is a private copy).
static void rotate_scene(scene *s, tread_quat q) {
    for (int i = 0; i < s->body_count; ++i) {
        tread_transform *t = &s->bodies[i].def.transform;
        t->p = tread_quat_rotate(q, t->p);
        t->q = tread_quat_normalize(tread_quat_mul(q, t->q));
        s->bodies[i].def.linear_velocity = tread_quat_rotate(q, s->bodies[i].def.linear_velocity);
        s->bodies[i].def.angular_velocity = tread_quat_rotate(q, s->bodies[i].def.angular_velocity);
        if (s->bodies[i].path.keys) scene_path_rotate(&s->bodies[i].path, q); // the copy's own keys (run_scene)
    }
    for (int c = 0; c < s->character_count; ++c) {
        scene_character *ch = &s->characters[c];
        ch->start = tread_quat_rotate(q, ch->start);
        ch->settings.up = tread_quat_rotate(q, ch->settings.up);
        for (int i = 0; i < ch->input_count; ++i) {
            ch->inputs[i].direction = tread_quat_rotate(q, ch->inputs[i].direction);
            ch->inputs[i].target = tread_quat_rotate(q, ch->inputs[i].target);
        }
    }
    s->gravity = tread_quat_rotate(q, s->gravity);
    s->up = tread_quat_rotate(q, s->up);
}

// Map a finished run back through the inverse rotation so checks read it in the scene's own frame.
static void unrotate_trace(run_trace *t, tread_quat q) {
    for (int i = 0; i < t->frame_count * t->character_count; ++i) {
        t->frames[i].feet = tread_quat_inv_rotate(q, t->frames[i].feet);
        t->frames[i].velocity = tread_quat_inv_rotate(q, t->frames[i].velocity);
    }
    for (int c = 0; c < t->character_count; ++c) {
        tread_character *ch = &t->final[c];
        ch->position = tread_quat_inv_rotate(q, ch->position);
        ch->velocity = tread_quat_inv_rotate(q, ch->velocity);
        ch->settings.up = tread_quat_inv_rotate(q, ch->settings.up);
        ch->ground.normal = tread_quat_inv_rotate(q, ch->ground.normal);
        ch->ground.point = tread_quat_inv_rotate(q, ch->ground.point);
    }
    tread_quat back = tread_quat_conjugate(q);
    for (int k = 0; k < t->body_count; ++k)
        for (int i = -1; i < t->frame_count; ++i) {
            tread_transform *b = i < 0 ? &t->body_start[k] : &t->body_frames[(size_t)k * (size_t)t->frame_count + (size_t)i];
            b->p = tread_quat_rotate(back, b->p);
            b->q = tread_quat_normalize(tread_quat_mul(back, b->q));
        }
}

void run_trace_free(run_trace *t) {
    free(t->frames);
    free(t->initial_penetration);
    free(t->final);
    free(t->body_index);
    free(t->body_slot);
    free(t->body_start);
    free(t->body_frames);
    memset(t, 0, sizeof *t);
}

static bool simulate(const scene *s, const run_options *o, run_trace *out, char *message, size_t size);

bool run_scene(const scene *s, const run_options *o, run_trace *out, char *message, size_t size) {
    if (!o || !o->rotate_up) return simulate(s, o, out, message, size);
    // Rotate a shallow copy: bodies and characters are copied, their shape arrays are shared read-only.
    scene copy = *s;
    copy.bodies = (scene_body *)malloc(sizeof(scene_body) * (size_t)(s->body_count > 0 ? s->body_count : 1));
    copy.characters = (scene_character *)malloc(sizeof(scene_character) * (size_t)s->character_count);
    scene_input **inputs = (scene_input **)calloc((size_t)s->character_count, sizeof(scene_input *));
    bool ok = copy.bodies && copy.characters && inputs;
    if (ok) {
        memcpy(copy.bodies, s->bodies, sizeof(scene_body) * (size_t)s->body_count);
        // Paths are turned in place: the copy gets its own keys and segments.
        for (int i = 0; i < s->body_count; ++i) copy.bodies[i].path.keys = NULL, copy.bodies[i].path.segments = NULL;
        for (int i = 0; ok && i < s->body_count; ++i) {
            const scene_path *from = &s->bodies[i].path;
            if (!from->keys) continue;
            scene_path *to = &copy.bodies[i].path;
            to->keys = (scene_path_key *)malloc(sizeof(scene_path_key) * (size_t)from->key_count);
            to->segments = (scene_path_segment *)malloc(sizeof(scene_path_segment) * (size_t)from->key_count);
            ok = to->keys && to->segments;
            if (ok) {
                memcpy(to->keys, from->keys, sizeof(scene_path_key) * (size_t)from->key_count);
                memcpy(to->segments, from->segments, sizeof(scene_path_segment) * (size_t)(from->key_count - 1));
            }
        }
        memcpy(copy.characters, s->characters, sizeof(scene_character) * (size_t)s->character_count);
        for (int c = 0; ok && c < s->character_count; ++c) {
            inputs[c] = (scene_input *)malloc(sizeof(scene_input) * (size_t)(s->characters[c].input_count + 1));
            ok = inputs[c] != NULL;
            if (ok) memcpy(inputs[c], s->characters[c].inputs, sizeof(scene_input) * (size_t)s->characters[c].input_count);
            copy.characters[c].inputs = inputs[c];
        }
    }
    tread_quat q = rotation_between(tread_v3_normalize(s->up), tread_v3_normalize(o->up));
    if (ok) {
        rotate_scene(&copy, q);
        ok = simulate(&copy, o, out, message, size);
        if (ok) unrotate_trace(out, q);
    } else {
        snprintf(message, size, "out of memory rotating the scene");
    }
    for (int c = 0; inputs && c < s->character_count; ++c) free(inputs[c]);
    free(inputs);
    for (int i = 0; copy.bodies && i < s->body_count; ++i) free(copy.bodies[i].path.keys), free(copy.bodies[i].path.segments);
    free(copy.bodies);
    free(copy.characters);
    return ok;
}

// The first failed library call of a run: the run stops there (docs/SCENES.md, "A failed call stops the run").
static void record_failure(run_failure *f, tread_result r, const char *call, int character, int frame, float t) {
    f->failed = true;
    f->code = r;
    f->call = call;
    f->character = character;
    f->frame = frame;
    f->t = t;
    snprintf(f->message, sizeof f->message, "%s", tread_error_message());
}

// One frame of one character: the velocity (the course loop's, or the motor's), the move, the camera's step
// smoothing and the penetration probe, recorded in *f. On a failed call returns its result with its name in
// *call, and nothing of the move is recorded: a failed call wrote no result to read.
static tread_result step_character(const tread_world *w, const scene *s, int c, tread_character *ch, motor_run *motor,
                                   tread_step_smoothing *smooth, float t, float dt, run_frame *f, const char **call) {
    const scene_character *sc = &s->characters[c];
    tread_vec3 up = ch->settings.up, v;
    tread_result r;
    if (sc->has_motor) {
        if ((r = motor_velocity(w, sc, ch, motor, t, dt, &v, call)) != TREAD_OK) return r;
    } else {
        v = desired_horizontal(input_at(sc, t), ch->position, up, dt);
        // On ground the velocity is relative to it (the update carries the character by the ground's motion);
        // in the air, gravity.
        float along_up = ch->ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : tread_v3_dot(ch->velocity, up) + tread_v3_dot(s->gravity, up) * dt;
        v = tread_v3_mad(v, along_up, up);
    }
    tread_move_result res;
    *call = "tread_character_move";
    if ((r = tread_character_move(w, ch, v, dt, &res)) != TREAD_OK) return r;
    if (sc->has_motor) {
        motor->last = res;
        motor->has_last = true;
    }
    *call = "tread_step_smoothing_update";
    if ((r = tread_step_smoothing_update(smooth, move_stepped(&res), dt)) != TREAD_OK) return r;
    float penetration;
    *call = "tread_world_closest";
    if ((r = penetration_of(w, ch, &penetration)) != TREAD_OK) return r;
    f->feet = ch->position;
    f->velocity = ch->velocity;
    f->ground = ch->ground.state;
    f->stepped = move_stepped(&res);
    f->camera = tread_v3_dot(ch->position, up) + smooth->offset;
    f->penetration = penetration;
    f->finite = tread_v3_is_finite(ch->position) && tread_v3_is_finite(ch->velocity);
    f->crushed = res.crushed;
    return TREAD_OK;
}

// A stopped run keeps the frames every character completed: the first `done` of each, packed to the new stride.
static void keep_completed_frames(run_trace *t, int done) {
    for (int c = 1; c < t->character_count; ++c)
        memmove(&t->frames[(size_t)c * (size_t)done], &t->frames[(size_t)c * (size_t)t->frame_count], sizeof(run_frame) * (size_t)done);
    for (int k = 1; k < t->body_count; ++k)
        memmove(&t->body_frames[(size_t)k * (size_t)done], &t->body_frames[(size_t)k * (size_t)t->frame_count], sizeof(tread_transform) * (size_t)done);
    t->frame_count = done;
}

// Before each frame's tread_world_advance: bodies on a path get the velocities that take them to where the path is
// at the frame's end (the advance then lands on the path, and each body's velocity is its motion over the frame).
// Constant-velocity bodies keep theirs. On a failed call, *call names it.
static tread_result drive_paths(tread_world *w, const scene *s, const tread_body_id *ids, const run_trace *t, double t_next, float dt,
                                const char **call) {
    for (int k = 0; k < t->body_count; ++k) {
        const scene_body *b = &s->bodies[t->body_index[k]];
        if (!b->path.keys) continue;
        tread_transform now;
        tread_vec3 linear, angular;
        tread_result r;
        *call = "tread_body_get_transform";
        if ((r = tread_body_get_transform(w, ids[k], &now)) != TREAD_OK) return r;
        scene_path_velocity(&b->path, now, t_next, dt, &linear, &angular);
        *call = "tread_body_set_velocity";
        if ((r = tread_body_set_velocity(w, ids[k], linear, angular)) != TREAD_OK) return r;
    }
    return TREAD_OK;
}

// The world's frame: paths drive their bodies, every kinematic body moves (tread_world_advance: before the
// characters, the library's frame order), and the moving bodies' transforms are recorded.
static tread_result advance_world(tread_world *w, const scene *s, const tread_body_id *ids, run_trace *t, int frame, float dt,
                                  const char **call) {
    tread_result r = drive_paths(w, s, ids, t, (double)(frame + 1) * (double)dt, dt, call);
    if (r != TREAD_OK) return r;
    *call = "tread_world_advance";
    if ((r = tread_world_advance(w, dt)) != TREAD_OK) return r;
    *call = "tread_body_get_transform";
    for (int k = 0; k < t->body_count; ++k)
        if ((r = tread_body_get_transform(w, ids[k], &t->body_frames[(size_t)k * (size_t)t->frame_count + (size_t)frame])) != TREAD_OK) return r;
    return TREAD_OK;
}

static bool simulate(const scene *s, const run_options *o, run_trace *out, char *message, size_t size) {
    memset(out, 0, sizeof *out);
    float dt = o && o->dt > 0.0f ? o->dt : s->dt;
    // --set dt can ask for more frames than the loader allowed the scene's own dt.
    double count = scene_frame_count(s->duration, dt);
    if (count > SCENE_MAX_FRAMES) {
        snprintf(message, size, "duration / dt = %.0f frames at dt %g s; at most %d", count, (double)dt, SCENE_MAX_FRAMES);
        return false;
    }
    int frames = (int)count;
    if (count * s->character_count > SCENE_MAX_TRACE_FRAMES) {
        snprintf(message, size, "%d characters x %d frames at dt %g s = %.0f frames to record; at most %d", s->character_count, frames, (double)dt,
                 count * s->character_count, SCENE_MAX_TRACE_FRAMES);
        return false;
    }
    int moving = 0;
    for (int i = 0; i < s->body_count; ++i) moving += s->bodies[i].def.type == TREAD_BODY_KINEMATIC;
    if (count * moving > SCENE_MAX_BODY_TRACE_FRAMES) {
        snprintf(message, size, "%d kinematic bodies x %d frames at dt %g s = %.0f body frames to record; at most %d", moving, frames, (double)dt,
                 count * moving, SCENE_MAX_BODY_TRACE_FRAMES);
        return false;
    }
    int n = s->character_count;
    out->frame_count = frames;
    out->character_count = n;
    out->dt = dt;
    out->body_count = moving;
    out->frames = (run_frame *)calloc((size_t)frames * (size_t)n, sizeof(run_frame));
    out->initial_penetration = (float *)calloc((size_t)n, sizeof(float));
    out->final = (tread_character *)calloc((size_t)n, sizeof(tread_character));
    out->body_index = (int *)calloc((size_t)moving + 1, sizeof(int));
    out->body_slot = (int *)calloc((size_t)s->body_count + 1, sizeof(int));
    out->body_start = (tread_transform *)calloc((size_t)moving + 1, sizeof(tread_transform));
    out->body_frames = (tread_transform *)calloc((size_t)frames * (size_t)moving + 1, sizeof(tread_transform));
    tread_body_id *ids = (tread_body_id *)calloc((size_t)moving + 1, sizeof(tread_body_id)); // the moving bodies' ids
    tread_step_smoothing *smooth = (tread_step_smoothing *)calloc((size_t)n, sizeof(tread_step_smoothing));
    motor_run *motors = (motor_run *)calloc((size_t)n, sizeof(motor_run));
    tread_world *w = NULL;
    bool ok = out->frames && out->initial_penetration && out->final && out->body_index && out->body_slot && out->body_start &&
              out->body_frames && ids && smooth && motors;
    if (!ok) snprintf(message, size, "out of memory for %d frames", frames);
    else if (tread_world_create(NULL, &w) != TREAD_OK) ok = false, snprintf(message, size, "%s", tread_error_message());
    for (int i = 0, k = 0; ok && i < s->body_count; ++i) {
        tread_body_id id;
        if (tread_world_add_body(w, &s->bodies[i].def, &id) != TREAD_OK) {
            snprintf(message, size, "%s: bodies[%d]: %s", s->path, i, tread_error_message());
            ok = false;
            break;
        }
        out->body_slot[i] = -1;
        if (s->bodies[i].def.type != TREAD_BODY_KINEMATIC) continue;
        out->body_slot[i] = k;
        out->body_index[k] = i;
        ids[k] = id;
        ok = tread_body_get_transform(w, id, &out->body_start[k]) == TREAD_OK;
        ++k;
    }
    if (!ok) {
        free(ids);
        free(motors);
        free(smooth);
        tread_world_destroy(w);
        run_trace_free(out);
        return false;
    }
    tread_character *chars = out->final;
    for (int c = 0; c < n; ++c) {
        tread_character_settings settings = s->characters[c].settings;
        // The scene's layers with their own walkable angle become the character's stairs layers (Catlike Coding's
        // stairs layer) unless the character sets its own.
        if (settings.stairs_layer_mask == 0u)
            for (int l = 0; l < s->layer_count && l < TREAD_MAX_LAYERS; ++l)
                if (s->layers[l].walkable_degrees > 0.0f) {
                    settings.stairs_layer_mask |= 1u << l;
                    settings.stairs_max_slope_degrees = s->layers[l].walkable_degrees;
                }
        motors[c].motor = s->characters[c].motor;
        if (!apply_options(o, &settings, &motors[c].motor, message, size) ||
            tread_character_init(&chars[c], &settings, s->characters[c].start) != TREAD_OK) {
            if (message[0] == '\0') snprintf(message, size, "characters[%d]: %s", c, tread_error_message());
            free(ids);
            free(motors);
            free(smooth);
            tread_world_destroy(w);
            run_trace_free(out);
            return false;
        }
        smooth[c] = tread_step_smoothing_default();
        motors[c].state = tread_motor_state_default();
        motors[c].stand_height = chars[c].settings.height;
        tread_result r = penetration_of(w, &chars[c], &out->initial_penetration[c]);
        if (r != TREAD_OK && !out->failure.failed) record_failure(&out->failure, r, "tread_world_closest", c, 0, 0.0f);
    }
    double started = seconds_now();
    bool progress_shown = false;
    for (int i = 0; i < frames && !out->failure.failed; ++i) {
        float t = (float)i * dt; // the frame runs from t to t + dt
        const char *world_call = NULL;
        tread_result wr = advance_world(w, s, ids, out, i, dt, &world_call); // the world first, then the characters
        if (wr != TREAD_OK) record_failure(&out->failure, wr, world_call, -1, i + 1, t);
        for (int c = 0; c < n && !out->failure.failed; ++c) {
            const char *call = NULL;
            tread_result r = step_character(w, s, c, &chars[c], &motors[c], &smooth[c], t, dt, &out->frames[c * frames + i], &call);
            if (r != TREAD_OK) record_failure(&out->failure, r, call, c, i + 1, t);
        }
        if (o && o->progress && (i & 63) == 0 && seconds_now() - started > 1.0) {
            fprintf(stderr, "\r%s: frame %d of %d (%.0f%%)", s->name, i, frames, 100.0 * (double)i / (double)frames);
            progress_shown = true;
        }
    }
    if (out->failure.failed) keep_completed_frames(out, out->failure.frame > 0 ? out->failure.frame - 1 : 0);
    if (progress_shown) fprintf(stderr, "\r%s: %d frames done%20s\n", s->name, out->frame_count, "");
    free(ids);
    free(motors);
    free(smooth);
    tread_world_destroy(w);
    return true;
}
