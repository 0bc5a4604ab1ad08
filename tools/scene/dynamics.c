// SPDX-License-Identifier: MIT
// Dynamic bodies (docs/SCENES.md, "Dynamic bodies"): the "dynamic" object of a body, and the runner's own small
// rigid-body integrator, standing in for a game's physics engine. tread moves characters, not crates: a move only
// reports the impulse its character gives each dynamic body (tread_move_options::impulses), and the game applies it.
// Here, at the end of each frame, every body gets the impulses of that frame's moves, gravity and friction with
// what it rests on, and slides by its velocity, stopped by the world; before the next tread_world_advance it is
// handed to the world with tread_body_move_to, so the advance makes that the motion characters see (pushed by it,
// carried on it). Translation only: the bodies never turn (impulses off the centre give no spin), and they do not
// hit each other as rigid bodies (each stops at another's surface like at a wall). Calls json_read.c.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_internal.h"
#include "scene_internal.h"

// Gap the integrator leaves between a body and what stops it, metres (as a character's skin: the next cast does not
// start inside).
#define DYN_SKIN 0.001f
// How far below a body a floor still holds it (gravity on), metres.
#define DYN_SUPPORT 0.01f
// A surface holds a body when its normal is within about 45 degrees of up.
#define DYN_SUPPORT_COS 0.7f
// Slides along what stops the body, per frame.
#define DYN_SLIDES 4

// ---- the file ------------------------------------------------------------------------------------------------

bool scene_parse_dynamic(loader *L, const scene_json *j, const char *jp, scene_body *b) {
    static const char *const fields[] = {"mass", "friction", "gravity", NULL};
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields)) return false;
    scene_dynamic *d = &b->dynamic;
    d->friction = 0.5f;
    d->gravity = true;
    if (!js_field_float(L, j, jp, "mass", true, &d->mass, 0.0, 1.0e9, OPEN_LO) || !js_field_float(L, j, jp, "friction", false, &d->friction, 0.0, 100.0, 0) ||
        !js_field_bool(L, j, jp, "gravity", &d->gravity))
        return false;
    // The integrator sweeps the body as a query shape, which is upright along the body's own Y axis: a box must not
    // be turned (a query box's horizontal axes are the world's), a capsule must stand.
    const tread_shape_def *sh = &b->def.shape;
    tread_quat q = b->def.transform.q;
    bool turned = q.x != 0.0f || q.y != 0.0f || q.z != 0.0f;
    if (sh->type != TREAD_SHAPE_BOX && sh->type != TREAD_SHAPE_SPHERE && sh->type != TREAD_SHAPE_CAPSULE)
        return js_fail(L, jp, "the runner moves boxes, spheres and capsules; this body is a mesh, heightfield or voxel grid");
    if (turned && sh->type != TREAD_SHAPE_SPHERE) return js_fail(L, jp, "the runner moves dynamic boxes and capsules unrotated (translation only); give no \"rotation\"");
    b->def.type = TREAD_BODY_DYNAMIC;
    return true;
}

// ---- the integrator --------------------------------------------------------------------------------------------

typedef struct dyn_body {
    int body;              // index into scene.bodies
    tread_body_id id;
    scene_dynamic params;
    tread_query_shape shape;
    tread_transform at;    // where the integrator has it (the world gets it at run_dynamics_move)
    tread_vec3 velocity;   // m/s
    tread_vec3 impulse;    // this frame's, N s
} dyn_body;

struct run_dynamics {
    dyn_body *bodies;
    int count;
    int *slot; // per scene body: its index in `bodies`, or -1
};

run_dynamics *run_dynamics_create(const scene *s, const tread_body_id *ids) {
    run_dynamics *d = (run_dynamics *)calloc(1, sizeof *d);
    if (!d) return NULL;
    d->bodies = (dyn_body *)calloc((size_t)s->body_count + 1, sizeof(dyn_body));
    d->slot = (int *)calloc((size_t)s->body_count + 1, sizeof(int));
    if (!d->bodies || !d->slot) {
        run_dynamics_destroy(d);
        return NULL;
    }
    for (int i = 0; i < s->body_count; ++i) {
        const scene_body *b = &s->bodies[i];
        d->slot[i] = -1;
        if (b->def.type != TREAD_BODY_DYNAMIC) continue;
        dyn_body *db = &d->bodies[d->count];
        d->slot[i] = d->count++;
        db->body = i;
        db->id = ids[i];
        db->params = b->dynamic;
        db->at = b->def.transform;
        // Its own Y axis is the query shape's up (turned with the scene by --up).
        tread_vec3 axis = tread_quat_rotate(b->def.transform.q, tread_v3(0.0f, 1.0f, 0.0f));
        const tread_shape_def *sh = &b->def.shape;
        if (sh->type == TREAD_SHAPE_BOX) db->shape = tread_query_box(sh->half_extents, axis);
        else if (sh->type == TREAD_SHAPE_CAPSULE) db->shape = tread_query_capsule(sh->half_height, sh->radius, axis);
        else db->shape = tread_query_sphere(sh->radius);
    }
    return d;
}

void run_dynamics_destroy(run_dynamics *d) {
    if (!d) return;
    free(d->bodies);
    free(d->slot);
    free(d);
}

bool run_dynamics_any(const run_dynamics *d) { return d && d->count > 0; }

void run_dynamics_take(run_dynamics *d, const tread_world *w, const tread_body_impulse *impulses, int count) {
    for (int k = 0; k < count; ++k) {
        const tread_body_impulse *im = &impulses[k];
        // The runner gave every body its scene index + 1 as user data.
        int body = (int)(intptr_t)tread_body_user_data(w, im->body) - 1;
        if (body < 0 || d->slot[body] < 0) continue;
        dyn_body *db = &d->bodies[d->slot[body]];
        db->impulse = tread_v3_mad(db->impulse, im->magnitude, im->direction);
    }
}

// The body's motion `move` swept through the world from where it is: it stops DYN_SKIN short of what it meets and
// slides along it; velocity loses what pressed into it. Returns where it ends.
static tread_result sweep(const tread_world *w, dyn_body *db, tread_vec3 move, tread_vec3 *out, const char **call) {
    tread_query_filter filter = tread_query_filter_default();
    filter.ignore_body = db->id;
    tread_vec3 p = db->at.p;
    *call = "tread_world_cast_shape";
    for (int i = 0; i < DYN_SLIDES && tread_v3_length_sq(move) > 1e-14f; ++i) {
        tread_shape_hit hit;
        tread_result r = tread_world_cast_shape(w, &db->shape, p, move, &filter, &hit);
        if (r != TREAD_OK) return r;
        if (!hit.hit) {
            p = tread_v3_add(p, move);
            break;
        }
        float length = tread_v3_length(move), go = hit.fraction * length - DYN_SKIN;
        if (go > 0.0f) p = tread_v3_mad(p, go / length, move);
        tread_vec3 rest = tread_v3_scale(move, 1.0f - (go > 0.0f ? go / length : 0.0f));
        float into = tread_v3_dot(rest, hit.normal), speed_into = tread_v3_dot(db->velocity, hit.normal);
        if (into < 0.0f) rest = tread_v3_mad(rest, -into, hit.normal);
        if (speed_into < 0.0f) db->velocity = tread_v3_mad(db->velocity, -speed_into, hit.normal);
        move = rest;
    }
    *out = p;
    return TREAD_OK;
}

// Is there ground within DYN_SUPPORT below the body (against gravity's `up`)?
static tread_result supported(const tread_world *w, const dyn_body *db, tread_vec3 up, bool *out, const char **call) {
    tread_query_filter filter = tread_query_filter_default();
    filter.ignore_body = db->id;
    tread_shape_hit hit;
    *call = "tread_world_cast_shape";
    tread_result r = tread_world_cast_shape(w, &db->shape, db->at.p, tread_v3_scale(up, -(DYN_SUPPORT + DYN_SKIN)), &filter, &hit);
    *out = r == TREAD_OK && hit.hit && tread_v3_dot(hit.normal, up) >= DYN_SUPPORT_COS;
    return r;
}

tread_result run_dynamics_step(run_dynamics *d, const tread_world *w, tread_vec3 gravity, float dt, const char **call) {
    float g = tread_v3_length(gravity);
    tread_vec3 up = g > 0.0f ? tread_v3_scale(gravity, -1.0f / g) : tread_v3(0.0f, 1.0f, 0.0f);
    for (int k = 0; k < d->count; ++k) {
        dyn_body *db = &d->bodies[k];
        db->velocity = tread_v3_mad(db->velocity, 1.0f / db->params.mass, db->impulse);
        db->impulse = tread_v3_zero();
        // Without gravity the body keeps its height and rests on an imagined floor: friction always holds it.
        bool on_floor = !db->params.gravity;
        tread_result r;
        if (db->params.gravity && (r = supported(w, db, up, &on_floor, call)) != TREAD_OK) return r;
        float along_up = tread_v3_dot(db->velocity, up);
        if (db->params.gravity && !on_floor) db->velocity = tread_v3_mad(db->velocity, dt, gravity);
        else if (along_up < 0.0f || !db->params.gravity) db->velocity = tread_v3_mad(db->velocity, -along_up, up); // rests
        if (on_floor) {
            // Coulomb friction: the sliding speed drops by friction * g * dt, and never turns around; a push weaker
            // than that per frame does not start the body (static friction).
            tread_vec3 slide = tread_v3_reject(db->velocity, up);
            float speed = tread_v3_length(slide), drop = db->params.friction * g * dt;
            tread_vec3 kept = speed > drop ? tread_v3_scale(slide, (speed - drop) / speed) : tread_v3_zero();
            db->velocity = tread_v3_add(tread_v3_sub(db->velocity, slide), kept);
        }
        if (tread_v3_length_sq(db->velocity) == 0.0f) continue;
        if ((r = sweep(w, db, tread_v3_scale(db->velocity, dt), &db->at.p, call)) != TREAD_OK) return r;
    }
    return TREAD_OK;
}

tread_result run_dynamics_move(run_dynamics *d, tread_world *w, const char **call) {
    *call = "tread_body_move_to";
    // Every body, also one at rest: the world then holds its velocity now, which the next impulses are measured
    // against (a body not moved keeps the velocity it was last given).
    for (int k = 0; k < d->count; ++k) {
        const dyn_body *db = &d->bodies[k];
        tread_result r = tread_body_move_to(w, db->id, db->at, db->velocity, tread_v3_zero());
        if (r != TREAD_OK) return r;
    }
    return TREAD_OK;
}
