// SPDX-License-Identifier: MIT
// Simulating a scene, frame by frame: the world first (bodies on paths, dynamic bodies where the runner's integrator
// put them, tread_world_advance), then the characters (run_frame.c: the course's frame loop or the movement model,
// moved together as obstacles to each other or one by one), then the dynamic bodies take the characters' impulses
// (dynamics.c). Also --up (the whole scene turned) and the trace's memory.
#include "run_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    free(t->events);
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

static uint64_t fnv_floats(uint64_t h, const float *v, int count) {
    const unsigned char *p = (const unsigned char *)v;
    for (size_t i = 0; i < (size_t)count * sizeof(float); ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

void run_trace_hash(const run_trace *t, uint64_t *per_frame, uint64_t *characters, uint64_t *bodies) {
    uint64_t h = 0xcbf29ce484222325ull, bh = h;
    for (int i = 0; i < t->frame_count; ++i) {
        for (int c = 0; c < t->character_count; ++c) {
            const run_frame *f = run_frame_at(t, c, i);
            const float v[6] = {f->feet.x, f->feet.y, f->feet.z, f->velocity.x, f->velocity.y, f->velocity.z};
            h = fnv_floats(h, v, 6);
        }
        for (int k = 0; k < t->body_count; ++k) {
            tread_transform b = run_body_at(t, k, i);
            const float v[7] = {b.p.x, b.p.y, b.p.z, b.q.x, b.q.y, b.q.z, b.q.w};
            bh = fnv_floats(bh, v, 7);
        }
        if (per_frame) per_frame[i] = h;
    }
    *characters = h;
    *bodies = bh;
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
static tread_result drive_paths(tread_world *w, const scene *s, const tread_body_id *ids, double t_next, float dt, const char **call) {
    for (int i = 0; i < s->body_count; ++i) {
        const scene_body *b = &s->bodies[i];
        if (!b->path.keys) continue;
        tread_transform now;
        tread_vec3 linear, angular;
        tread_result r;
        *call = "tread_body_get_transform";
        if ((r = tread_body_get_transform(w, ids[i], &now)) != TREAD_OK) return r;
        scene_path_velocity(&b->path, now, t_next, dt, &linear, &angular);
        *call = "tread_body_set_velocity";
        if ((r = tread_body_set_velocity(w, ids[i], linear, angular)) != TREAD_OK) return r;
    }
    return TREAD_OK;
}

// The world's frame: paths drive their bodies, dynamic bodies go where the integrator put them at the end of the
// last frame, every moving body moves (tread_world_advance: before the characters, the library's frame order), and
// the moving bodies' transforms are recorded (at the frame's slot in the trace: tread_scene.h's run_trace).
static tread_result advance_world(tread_world *w, const scene *s, const tread_body_id *ids, run_dynamics *dynamics, run_trace *t, int frame,
                                  float dt, const char **call) {
    tread_result r = drive_paths(w, s, ids, (double)(frame + 1) * (double)dt, dt, call);
    if (r != TREAD_OK || (frame > 0 && (r = run_dynamics_move(dynamics, w, call)) != TREAD_OK)) return r;
    *call = "tread_world_advance";
    if ((r = tread_world_advance(w, dt)) != TREAD_OK) return r;
    *call = "tread_body_get_transform";
    size_t slot = (size_t)(frame % t->frame_count);
    for (int k = 0; k < t->body_count; ++k)
        if ((r = tread_body_get_transform(w, ids[t->body_index[k]], &t->body_frames[(size_t)k * (size_t)t->frame_count + slot])) != TREAD_OK)
            return r;
    return TREAD_OK;
}

// The trace's arrays for `frames` frames, the world with the scene's bodies (each one's user data is its index + 1:
// what the listener's and the impulses' body ids are mapped back with), and the moving bodies' slots.
static bool build(const scene *s, int frames, float dt, run_trace *out, tread_world **world, tread_body_id **ids, char *message, size_t size) {
    int n = s->character_count, moving = 0;
    for (int i = 0; i < s->body_count; ++i) moving += scene_body_moves(&s->bodies[i]);
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
    *ids = (tread_body_id *)calloc((size_t)s->body_count + 1, sizeof(tread_body_id));
    *world = NULL;
    if (!out->frames || !out->initial_penetration || !out->final || !out->body_index || !out->body_slot || !out->body_start || !out->body_frames ||
        !*ids)
        return snprintf(message, size, "out of memory for %d frames", frames), false;
    if (tread_world_create(NULL, world) != TREAD_OK) return snprintf(message, size, "%s", tread_error_message()), false;
    for (int i = 0, k = 0; i < s->body_count; ++i) {
        tread_body_def def = s->bodies[i].def;
        def.user_data = (void *)(intptr_t)(i + 1);
        if (tread_world_add_body(*world, &def, &(*ids)[i]) != TREAD_OK)
            return snprintf(message, size, "%s: bodies[%d]: %s", s->path, i, tread_error_message()), false;
        out->body_slot[i] = -1;
        if (!scene_body_moves(&s->bodies[i])) continue;
        out->body_slot[i] = k;
        out->body_index[k] = i;
        if (tread_body_get_transform(*world, (*ids)[i], &out->body_start[k++]) != TREAD_OK) return snprintf(message, size, "%s", tread_error_message()), false;
    }
    return true;
}

// Every character placed at its start with its settings (and --set's), and its motor settings in motor[c].
static bool place_characters(const scene *s, const run_options *o, const tread_world *w, bool batched, run_trace *out, tread_motor_settings *motor,
                             char *message, size_t size) {
    for (int c = 0; c < s->character_count; ++c) {
        tread_character_settings settings = s->characters[c].settings;
        // The scene's layers with their own walkable angle become the character's stairs layers (Catlike Coding's
        // stairs layer) unless the character sets its own.
        if (settings.stairs_layer_mask == 0u)
            for (int l = 0; l < s->layer_count && l < TREAD_MAX_LAYERS; ++l)
                if (s->layers[l].walkable_degrees > 0.0f) {
                    settings.stairs_layer_mask |= 1u << l;
                    settings.stairs_max_slope_degrees = s->layers[l].walkable_degrees;
                }
        // Characters of one batch meet each other on its layer, whatever the scene's masks name (they name the
        // scene's layers).
        if (batched) {
            settings.collide_mask |= 1u << RUN_CHARACTER_LAYER;
            settings.ground_mask |= 1u << RUN_CHARACTER_LAYER;
        }
        motor[c] = s->characters[c].motor;
        if (!apply_options(o, &settings, &motor[c], message, size)) return false;
        if (tread_character_init(&out->final[c], &settings, s->characters[c].start) != TREAD_OK)
            return snprintf(message, size, "characters[%d]: %s", c, tread_error_message()), false;
        tread_result r = run_penetration_of(w, &out->final[c], scene_has_one_way(s), tread_body_id_null(), &out->initial_penetration[c]);
        if (r != TREAD_OK && !out->failure.failed) run_record_failure(&out->failure, r, "tread_world_closest", c, 0, 0.0f);
    }
    return true;
}

struct scene_run {
    const scene *s;
    run_trace *trace;
    float dt;
    int frame; // frames begun
    tread_world *w;
    tread_body_id *ids;
    run_dynamics *dynamics;
    run_characters *rc;
    const run_engine *engine;
    void *engine_self;
    tread_backend backend;
};

void scene_run_end(scene_run *r) {
    if (!r) return;
    if (r->engine_self) r->engine->destroy(r->engine_self);
    run_characters_destroy(r->rc);
    run_dynamics_destroy(r->dynamics);
    free(r->ids);
    tread_world_destroy(r->w);
    free(r);
}

bool scene_run_begin(const scene *s, const run_options *o, int frames, run_trace *out, scene_run **run, char *message, size_t size) {
    memset(out, 0, sizeof *out);
    *run = NULL;
    scene_run *r = (scene_run *)calloc(1, sizeof *r);
    if (!r) return snprintf(message, size, "out of memory for the run"), false;
    r->s = s;
    r->trace = out;
    r->dt = o && o->dt > 0.0f ? o->dt : s->dt;
    r->engine = o ? o->engine : NULL;
    bool collide = o && o->characters_collide ? o->characters_collide > 0 : s->characters_collide;
    out->batched = collide && s->character_count > 1;
    tread_motor_settings *motor = (tread_motor_settings *)calloc((size_t)s->character_count + 1, sizeof *motor);
    bool ok = motor && build(s, frames, r->dt, out, &r->w, &r->ids, message, size) &&
              place_characters(s, o, r->w, out->batched, out, motor, message, size) &&
              run_characters_create(s, motor, collide, out->final, &r->rc, message, size);
    if (!motor) snprintf(message, size, "out of memory for %d characters", s->character_count);
    free(motor);
    if (ok && !(r->dynamics = run_dynamics_create(s, r->ids))) ok = false, snprintf(message, size, "out of memory for the dynamic bodies");
    if (ok && r->engine && !(r->engine_self = r->engine->create(s, r->ids, message, size))) ok = false;
    if (ok && r->engine) {
        r->backend = r->engine->backend(r->engine_self);
        run_characters_use_backend(r->rc, &r->backend);
    }
    if (!ok) {
        scene_run_end(r);
        run_trace_free(out);
        return false;
    }
    *run = r;
    return true;
}

bool scene_run_advance(scene_run *r, char *message, size_t size) {
    run_trace *t = r->trace;
    int i = r->frame++;
    if (t->failure.failed) return true;
    const char *call = NULL;
    tread_result res = advance_world(r->w, r->s, r->ids, r->dynamics, t, i, r->dt, &call);
    if (res != TREAD_OK) run_record_failure(&t->failure, res, call, -1, i + 1, (float)i * r->dt);
    return t->failure.failed || !r->engine || r->engine->follow(r->engine_self, r->s, r->w, r->ids, message, size);
}

void scene_run_drive(scene_run *r, int character, tread_vec3 velocity) { run_characters_drive(r->rc, character, velocity); }

void scene_run_move(scene_run *r) {
    run_trace *t = r->trace;
    int i = r->frame - 1;
    float t0 = (float)i * r->dt; // the frame runs from t0 to t0 + dt
    if (!t->failure.failed) run_characters_frame(r->rc, r->w, run_dynamics_any(r->dynamics) ? r->dynamics : NULL, t, i, t0, r->dt);
    // The dynamic bodies take this frame's impulses; the world gets them before the next advance.
    const char *call = NULL;
    tread_result res;
    if (!t->failure.failed && (res = run_dynamics_step(r->dynamics, r->w, r->s->gravity, r->dt, &call)) != TREAD_OK)
        run_record_failure(&t->failure, res, call, -1, i + 1, t0);
}

tread_world *scene_run_world(scene_run *r) { return r->w; }
tread_body_id scene_run_body_id(const scene_run *r, int body) { return r->ids[body]; }
const tread_move_result *scene_run_results(const scene_run *r) { return run_characters_results(r->rc); }
float scene_run_camera_offset(const scene_run *r, int character) { return run_characters_camera_offset(r->rc, character); }
int scene_run_frames_done(const scene_run *r) { return r->frame; }

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
    char work[512];
    if (!scene_work_within_cap(s, count, work, sizeof work)) {
        snprintf(message, size, "at dt %g s: %s", (double)dt, work);
        return false;
    }
    int moving = 0;
    for (int i = 0; i < s->body_count; ++i) moving += scene_body_moves(&s->bodies[i]);
    if (count * moving > SCENE_MAX_BODY_TRACE_FRAMES) {
        snprintf(message, size, "%d moving bodies x %d frames at dt %g s = %.0f body frames to record; at most %d", moving, frames, (double)dt,
                 count * moving, SCENE_MAX_BODY_TRACE_FRAMES);
        return false;
    }
    scene_run *r = NULL;
    if (!scene_run_begin(s, o, frames, out, &r, message, size)) return false;
    bool ok = true;
    double started = run_seconds_now();
    bool progress_shown = false;
    for (int i = 0; i < frames && !out->failure.failed; ++i) {
        double frame_started = run_seconds_now();
        if (!scene_run_advance(r, message, size)) { // the world first, then the characters
            ok = false;
            break;
        }
        scene_run_move(r);
        out->frame_seconds += run_seconds_now() - frame_started;
        if (o && o->progress && (i & 63) == 0 && run_seconds_now() - started > 1.0) {
            fprintf(stderr, "\r%s: frame %d of %d (%.0f%%)", s->name, i, frames, 100.0 * (double)i / (double)frames);
            progress_shown = true;
        }
    }
    if (ok && out->failure.failed) keep_completed_frames(out, out->failure.frame > 0 ? out->failure.frame - 1 : 0);
    if (progress_shown) fprintf(stderr, "\r%s: %d frames done%20s\n", s->name, out->frame_count, "");
    scene_run_end(r);
    if (!ok) run_trace_free(out);
    return ok;
}
