// SPDX-License-Identifier: MIT
// The scene library (tools/scene: loading, running, checks) as the WebAssembly module's exports, for web/scene's
// wrapper: the web tools and the viewer run the same C code as the `tread` command. A scene is loaded from JSON text
// (parsed by the JavaScript engine: json_js.c); JavaScript reads what it holds through the layout tables
// (layout.c). A whole run gives its frames, hashes and checks (tws_outcome); a live run (tws_live) is stepped a
// frame at a time, one character driven by the viewer's person if it likes.
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_internal.h"

#define EXPORT EMSCRIPTEN_KEEPALIVE

// The last failure's message (loading, building a run), for tws_error.
static char last_error[SCENE_ERROR_MAX];

EXPORT const char *tws_error(void) { return last_error; }

// NULL, with "<scene>: out of memory" for tws_error.
static void *out_of_memory(const char *path) {
    snprintf(last_error, sizeof last_error, "%s: out of memory", path);
    return NULL;
}

// A run's options: the step strategy named for every character (NULL: the scene's), nothing else.
static run_options with_strategy(const char *strategy) {
    run_options options = {0};
    options.strategy = strategy;
    return options;
}

// The WebAssembly build has no file system and compiles no third-party C, so it has no assimp to read mesh files.
bool scene_load_mesh_file(loader *L, const char *file, const char *jp, mesh_build *mb) {
    (void)file, (void)mb;
    return js_fail(L, jp, "mesh files are read by the native build only (assimp); in WebAssembly give \"vertices\" and \"triangles\"");
}

// ---- scenes ----------------------------------------------------------------------------------------------------

// A loaded scene (free it with tws_scene_free), or NULL with tws_error's message. `path` names it in messages.
EXPORT scene *tws_scene_load(const char *path, const char *text, int length) {
    scene *s = (scene *)calloc(1, sizeof *s);
    scene_error err;
    if (!s) return out_of_memory(path);
    if (scene_load_buffer(path, text, (size_t)length, s, &err)) return s;
    snprintf(last_error, sizeof last_error, "%s", err.message);
    free(s);
    return NULL;
}

EXPORT void tws_scene_free(scene *s) {
    scene_free(s);
    free(s);
}

EXPORT double tws_frame_count(float duration, float dt) { return scene_frame_count(duration, dt); }

EXPORT void tws_course_velocity(const scene *s, int character, float t, float dt, float fx, float fy, float fz, float vx, float vy, float vz,
                                float ux, float uy, float uz, int on_ground, tread_vec3 *out) {
    *out = scene_course_velocity(s, character, t, dt, tread_v3(fx, fy, fz), tread_v3(vx, vy, vz), tread_v3(ux, uy, uz), on_ground != 0);
}

// ---- a whole run ---------------------------------------------------------------------------------------------------

// What `tread run` gets from a run: its trace (frames, failure, final states), the hashes of run_trace_hash and the
// checks' results.
typedef struct tws_outcome {
    run_trace trace;
    uint64_t *frame_hashes; // trace.frame_count of them
    uint64_t trace_hash, body_hash;
    check_result results[SCENE_MAX_RESULTS];
    int result_count;
} tws_outcome;

// Run scene s with the step strategy named (NULL: the scene's) and evaluate its checks; NULL with tws_error's message.
EXPORT tws_outcome *tws_run(const scene *s, const char *strategy) {
    tws_outcome *o = (tws_outcome *)calloc(1, sizeof *o);
    run_options options = with_strategy(strategy);
    if (!o) return out_of_memory(s->path);
    if (!run_scene(s, &options, &o->trace, last_error, sizeof last_error)) {
        free(o);
        return NULL;
    }
    o->frame_hashes = (uint64_t *)calloc((size_t)o->trace.frame_count + 1, sizeof *o->frame_hashes);
    if (!o->frame_hashes) {
        run_trace_free(&o->trace);
        free(o);
        return out_of_memory(s->path);
    }
    run_trace_hash(&o->trace, o->frame_hashes, &o->trace_hash, &o->body_hash);
    o->result_count = run_checks(s, &o->trace, o->results, SCENE_MAX_RESULTS);
    return o;
}

EXPORT void tws_outcome_free(tws_outcome *o) {
    if (!o) return;
    run_trace_free(&o->trace);
    free(o->frame_hashes);
    free(o);
}

EXPORT int tws_outcome_frames(const tws_outcome *o) { return o->trace.frame_count; }
EXPORT const uint64_t *tws_outcome_frame_hashes(const tws_outcome *o) { return o->frame_hashes; }
EXPORT const uint64_t *tws_outcome_trace_hash(const tws_outcome *o) { return &o->trace_hash; }
EXPORT const uint64_t *tws_outcome_body_hash(const tws_outcome *o) { return &o->body_hash; }
EXPORT const run_failure *tws_outcome_failure(const tws_outcome *o) { return &o->trace.failure; }
EXPORT const tread_character *tws_outcome_final(const tws_outcome *o) { return o->trace.final; }
EXPORT const run_frame *tws_outcome_frame(const tws_outcome *o, int character, int frame) { return run_frame_at(&o->trace, character, frame); }
EXPORT int tws_outcome_result_count(const tws_outcome *o) { return o->result_count; }
EXPORT const check_result *tws_outcome_results(const tws_outcome *o) { return o->results; }

// An outcome to be filled by the caller: `frames` frames of s's characters moved by another engine (web/bench's
// peers), judged by tws_outcome_judge with the same checks. Frames, initial penetrations and final positions start
// zeroed, each character's settings are its scene's (the checks read its up), and there are no moving bodies.
EXPORT tws_outcome *tws_outcome_new(const scene *s, int frames, float dt) {
    tws_outcome *o = (tws_outcome *)calloc(1, sizeof *o);
    run_trace *t = o ? &o->trace : NULL;
    int n = s->character_count;
    if (!o) return NULL;
    t->frame_count = frames;
    t->character_count = n;
    t->dt = dt;
    t->frames = (run_frame *)calloc((size_t)frames * (size_t)n + 1, sizeof *t->frames);
    t->initial_penetration = (float *)calloc((size_t)n + 1, sizeof *t->initial_penetration);
    t->final = (tread_character *)calloc((size_t)n + 1, sizeof *t->final);
    t->body_slot = (int *)malloc(sizeof *t->body_slot * ((size_t)s->body_count + 1));
    o->frame_hashes = (uint64_t *)calloc((size_t)frames + 1, sizeof *o->frame_hashes);
    if (!t->frames || !t->initial_penetration || !t->final || !t->body_slot || !o->frame_hashes) {
        tws_outcome_free(o);
        return NULL;
    }
    for (int i = 0; i < s->body_count; ++i) t->body_slot[i] = -1;
    for (int c = 0; c < n; ++c) t->final[c].settings = s->characters[c].settings;
    return o;
}

EXPORT float *tws_outcome_initial_penetration(tws_outcome *o) { return o->trace.initial_penetration; }
EXPORT tread_character *tws_outcome_final_of(tws_outcome *o) { return o->trace.final; }
EXPORT run_frame *tws_outcome_frame_of(tws_outcome *o, int character, int frame) {
    return &o->trace.frames[(size_t)character * (size_t)o->trace.frame_count + (size_t)frame];
}

// The checks of s over what the caller wrote, and the hashes of those frames.
EXPORT void tws_outcome_judge(const scene *s, tws_outcome *o) {
    run_trace_hash(&o->trace, o->frame_hashes, &o->trace_hash, &o->body_hash);
    o->result_count = run_checks(s, &o->trace, o->results, SCENE_MAX_RESULTS);
}

// ---- a live run ----------------------------------------------------------------------------------------------------

// A run stepped by the caller for as long as it likes, recording only its last frame.
typedef struct tws_live {
    scene_run *run;
    run_trace trace;
} tws_live;

// Build scene s's world and place its characters (with the step strategy named; NULL: the scene's); NULL with
// tws_error's message.
EXPORT tws_live *tws_live_begin(const scene *s, const char *strategy) {
    run_options options = with_strategy(strategy);
    tws_live *l = (tws_live *)calloc(1, sizeof *l);
    if (!l) return out_of_memory(s->path);
    if (scene_run_begin(s, &options, 1, &l->trace, &l->run, last_error, sizeof last_error)) return l;
    free(l);
    return NULL;
}

EXPORT void tws_live_end(tws_live *l) {
    if (!l) return;
    scene_run_end(l->run);
    run_trace_free(&l->trace);
    free(l);
}

// The world's side of the next frame. Only an engine (none here) fails scene_run_advance itself; a failed library
// call stops the run and is in tws_live_failure.
EXPORT void tws_live_advance(tws_live *l) { scene_run_advance(l->run, last_error, sizeof last_error); }

EXPORT void tws_live_drive(tws_live *l, int character, float vx, float vy, float vz) { scene_run_drive(l->run, character, tread_v3(vx, vy, vz)); }
EXPORT void tws_live_move(tws_live *l) { scene_run_move(l->run); }
EXPORT tread_world *tws_live_world(tws_live *l) { return scene_run_world(l->run); }
EXPORT tread_character *tws_live_characters(tws_live *l) { return l->trace.final; }
EXPORT const tread_move_result *tws_live_results(tws_live *l) { return scene_run_results(l->run); }
EXPORT const run_frame *tws_live_frame(const tws_live *l, int character) { return run_frame_at(&l->trace, character, 0); }
EXPORT float tws_live_camera_offset(const tws_live *l, int character) { return scene_run_camera_offset(l->run, character); }
EXPORT const run_failure *tws_live_failure(const tws_live *l) { return &l->trace.failure; }
EXPORT int tws_live_frames(const tws_live *l) { return scene_run_frames_done(l->run); }
EXPORT void tws_live_body_id(const tws_live *l, int body, uint32_t *out) {
    tread_body_id id = scene_run_body_id(l->run, body);
    out[0] = id.index, out[1] = id.generation;
}
