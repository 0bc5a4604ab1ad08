// SPDX-License-Identifier: MIT
// One world's frames: the recommended game loop of the README (the motor turns a wish into velocity, the
// controller moves the character), with a random stick and jump button, dt spikes, and the world changing
// between frames. Every frame is checked (check.c) against the tool's own geometry (world.c).
#include "soak.h"

#include <math.h>
#include <string.h>

#define SOAK_PI 3.14159265358979323846

// The player's hands: the stick turns every 0.2-2 s (now and then let go), the jump button is pressed now and
// then and held 0.03-0.4 s.
typedef struct soak_hands {
    tread_motor_input input;
    double next_turn, next_jump, release_jump;
} soak_hands;

static void move_hands(soak_rng *r, const soak_world *w, double t, soak_hands *h) {
    if (t >= h->next_turn) {
        double angle = soak_rng_range(r, 0.0, 2.0 * SOAK_PI);
        h->input.direction = soak_rng_chance(r, 0.15) ? tread_v3_zero() : soak_tilted(w, soak_v3_make(cos(angle), 0.0, sin(angle)));
        h->input.magnitude = (float)soak_rng_unit(r);
        h->next_turn = t + soak_rng_range(r, 0.2, 2.0);
    }
    if (t >= h->next_jump) {
        h->release_jump = t + soak_rng_range(r, 0.03, 0.4);
        h->next_jump = t + soak_rng_range(r, 0.3, 4.0);
    }
    h->input.jump = t < h->release_jump;
}

// The deepest overlap, its body, and how many bodies are within the skin (plus the tolerance) of the volume.
static double deepest(const soak_world *w, const tread_character *ch, int *out_body, int *out_touching) {
    soak_shape shape = soak_shape_of(ch, ch->position);
    return soak_world_penetration(w, &shape, ch->settings.collide_mask, (double)ch->settings.skin + SOAK_TOLERANCE, out_body, out_touching);
}

// How far the ground's motion this frame took the feet (tread.h: the update carries a character standing on a body
// by the body's rigid motion at its feet): a platform's travel, an edited body's jump.
static soak_v3 ground_motion(const soak_world *w, const tread_character *ch) {
    if (ch->ground.state != TREAD_GROUND_ON_GROUND) return soak_v3_make(0.0, 0.0, 0.0);
    int i = soak_world_find(w, ch->ground.body);
    return i < 0 ? soak_v3_make(0.0, 0.0, 0.0) : soak_body_point_motion(&w->bodies[i], soak_v3_of(ch->position));
}

static void record(soak_world_result *out, int frame, const soak_verdict *v) {
    if (out->counts[v->kind]++ == 0) {
        out->first[v->kind] = *v;
        out->first_frame[v->kind] = frame;
    }
}

static void fail(soak_world_result *out, const char *what, const char *message) {
    out->failed = true;
    snprintf(out->message, sizeof out->message, "%s: %s", what, message);
}

static const char *const body_kind_names[] = {"box", "sphere", "capsule", "mesh", "heightfield", "voxels"};

static void trace_frame(FILE *trace, const soak_world *w, int frame, const soak_frame_facts *f, const tread_move_result *res, const soak_verdict *v,
                        int n) {
    const tread_character *a = f->after;
    fprintf(trace, "%6d t %8.4f dt %.5f feet %9.4f %9.4f %9.4f v %8.3f %8.3f %8.3f %-11s depth %.5f (%d %s) -> %.5f (%d %s) step %.4f snap %.4f%s\n",
            frame, f->time, f->dt, (double)a->position.x, (double)a->position.y, (double)a->position.z, (double)f->velocity.x,
            (double)f->velocity.y, (double)f->velocity.z, soak_ground_name(a->ground.state), f->pre_depth, f->pre_body,
            f->pre_body >= 0 ? body_kind_names[w->bodies[f->pre_body].kind] : "-", f->post_depth, f->post_body,
            f->post_body >= 0 ? body_kind_names[w->bodies[f->post_body].kind] : "-", (double)res->step_up, (double)res->snap_down,
            f->teleported ? " teleported" : "");
    for (int i = 0; i < n; ++i) fprintf(trace, "       VIOLATION %s: %s\n", soak_kind_name(v[i].kind), v[i].detail);
}

static void describe(FILE *trace, const soak_plan *p, const soak_world *w) {
    const tread_character_settings *s = &p->settings;
    fprintf(trace, "world: %d bodies, arena %.2f m, up (%.4f, %.4f, %.4f), dt %.5f s (spikes %.3f per frame), %d frames\n", w->count, w->arena,
            (double)s->up.x, (double)s->up.y, (double)s->up.z, p->base_dt, p->spike_chance, p->frames);
    fprintf(trace, "character: %s %s r %.4f h %.4f skin %.5f slope %.2f step %.4f depth %.4f down %.4f snap %.2f probe %.5f iter %d recovery %.4g "
                   "keep %d stairs 0x%x/%.1f collide 0x%x ground 0x%x overshoot %.4f riser %.3f/%.3f/%.3f/%.3f\n",
            tread_step_strategy_name(s->step_strategy), s->shape == TREAD_QUERY_BOX ? "box" : (s->shape == TREAD_QUERY_SPHERE ? "sphere" : "capsule"),
            (double)s->radius, (double)s->height, (double)s->skin, (double)s->max_slope_degrees, (double)s->max_step_height,
            (double)s->min_step_depth, (double)s->step_down_distance, (double)s->max_snap_speed, (double)s->ground_probe_distance,
            s->max_slide_iterations, (double)s->recovery_speed, s->keep_horizontal_speed, s->stairs_layer_mask,
            (double)s->stairs_max_slope_degrees, s->collide_mask, s->ground_mask, (double)s->contact_step.search_overshoot,
            (double)s->riser.depth, (double)s->riser.radius_scale, (double)s->riser.speed_scale, (double)s->riser.fall_scale);
    for (int i = 0; i < w->count; ++i) {
        const soak_body *b = &w->bodies[i];
        fprintf(trace, "body %d: %s%s layer %u at (%.3f, %.3f, %.3f) velocity (%.3f, %.3f, %.3f) spin (%.3f, %.3f, %.3f)\n", i,
                b->def.type == TREAD_BODY_KINEMATIC ? "kinematic " : "", body_kind_names[b->kind], b->def.layer, b->frame.p.x, b->frame.p.y,
                b->frame.p.z, (double)b->def.linear_velocity.x, (double)b->def.linear_velocity.y, (double)b->def.linear_velocity.z,
                (double)b->def.angular_velocity.x, (double)b->def.angular_velocity.y, (double)b->def.angular_velocity.z);
        // A box's extents and axes, and every body's world bounds: enough to find the bodies near a violation.
        if (b->def.shape.type == TREAD_SHAPE_BOX)
            fprintf(trace, "        half (%.4f, %.4f, %.4f) axes (%.4f, %.4f, %.4f) (%.4f, %.4f, %.4f) (%.4f, %.4f, %.4f)\n",
                    (double)b->def.shape.half_extents.x, (double)b->def.shape.half_extents.y, (double)b->def.shape.half_extents.z,
                    b->frame.axis[0].x, b->frame.axis[0].y, b->frame.axis[0].z, b->frame.axis[1].x, b->frame.axis[1].y, b->frame.axis[1].z,
                    b->frame.axis[2].x, b->frame.axis[2].y, b->frame.axis[2].z);
        fprintf(trace, "        bounds (%.3f, %.3f, %.3f) .. (%.3f, %.3f, %.3f)\n", b->lo.x, b->lo.y, b->lo.z, b->hi.x, b->hi.y, b->hi.z);
    }
}

void soak_run_world(uint64_t seed, uint64_t index, int frames, const soak_filter *filter, FILE *trace, soak_world_result *out) {
    memset(out, 0, sizeof *out);
    out->index = index;
    out->worst.rise_excess = out->worst.overshoot = -INFINITY;
    soak_rng rng;
    soak_world w;
    soak_plan plan;
    char message[256] = "";
    if (!soak_generate(seed, index, filter, &rng, &w, &plan, message, sizeof message)) {
        fail(out, "generating the world", message);
        soak_world_free(&w);
        return;
    }
    out->strategy = (int)plan.settings.step_strategy;
    out->shape = (int)plan.settings.shape;
    if (frames <= 0 || frames > plan.frames) frames = plan.frames;
    tread_character ch;
    if (tread_character_init(&ch, &plan.settings, plan.start) != TREAD_OK) {
        fail(out, "tread_character_init", tread_error_message());
        soak_world_free(&w);
        return;
    }
    if (trace) describe(trace, &plan, &w);
    tread_motor_state motor = tread_motor_state_default();
    tread_move_result last;
    // The first surfaces each move met while moving (the motor reads the last move's).
    tread_contact contacts[TREAD_MAX_MOVE_CONTACTS], last_contacts[TREAD_MAX_MOVE_CONTACTS];
    int last_contact_count = 0;
    tread_move_options options = tread_move_options_default();
    options.contacts = contacts;
    options.contact_capacity = TREAD_MAX_MOVE_CONTACTS;
    options.contacts_where_it_ends = false;
    bool has_last = false;
    soak_hands hands = {tread_motor_input_default(), 0.0, soak_rng_range(&rng, 0.3, 4.0), 0.0};
    soak_check_state state;
    memset(&state, 0, sizeof state);
    double t = 0.0;
    bool teleported = true; // the spawn: nothing stood on before it, and it may be inside something
    for (int frame = 0; frame < frames; ++frame) {
        double dt = soak_rng_chance(&rng, plan.spike_chance) ? soak_rng_range(&rng, 1.0 / 240.0, 1.0 / 20.0) : plan.base_dt;
        if (!soak_world_events(&rng, &w, &plan, dt, message, sizeof message)) {
            fail(out, "changing the world", message);
            break;
        }
        if (soak_teleport(&rng, &w, &plan, dt, &ch, &motor)) teleported = true, has_last = false;
        if (tread_world_advance(w.world, (float)dt) != TREAD_OK) {
            fail(out, "tread_world_advance", tread_error_message());
            break;
        }
        for (int i = 0; i < w.count; ++i)
            if (w.bodies[i].live && w.bodies[i].def.type == TREAD_BODY_KINEMATIC) soak_world_refresh(&w, i);
        move_hands(&rng, &w, t, &hands);
        t += dt;
        ++out->updates;

        tread_character before = ch;
        soak_frame_facts f;
        memset(&f, 0, sizeof f);
        f.before = &before;
        f.after = &ch;
        f.dt = dt;
        f.time = t;
        f.teleported = teleported;
        int touching = 0;
        f.pre_depth = deepest(&w, &ch, &f.pre_body, &touching);
        f.crushed = f.pre_depth > SOAK_TOLERANCE && touching >= 2;
        soak_shape before_shape = soak_shape_of(&ch, ch.position);
        f.pusher_motion = soak_pusher_motion(&w, &before_shape, ch.settings.collide_mask, ch.settings.skin,
                                             (double)ch.settings.skin + SOAK_TOLERANCE);
        f.post_body = -1;
        tread_move_result res;
        memset(&res, 0, sizeof res);
        f.result = &res;
        soak_verdict verdicts[SOAK_KIND_COUNT];
        int n = 0;
        if (tread_motor_update(&motor, &plan.motor, &hands.input, &ch, has_last ? &last : NULL, last_contacts, has_last ? last_contact_count : 0,
                               (float)dt, &f.velocity) != TREAD_OK ||
            (motor.jumped && tread_character_suppress_snap(&ch, plan.motor.jump_snap_suppress_time) != TREAD_OK) ||
            tread_character_move_with(w.world, &ch, f.velocity, (float)dt, &options, &res) != TREAD_OK) {
            snprintf(verdicts[n].detail, sizeof verdicts[n].detail, "%s", tread_error_message());
            verdicts[n].kind = SOAK_ERROR, verdicts[n].value = verdicts[n].limit = 0.0;
            ++n;
        } else if (!soak_character_finite(&ch, &res, contacts, res.moving_contact_count < TREAD_MAX_MOVE_CONTACTS ? res.moving_contact_count
                                                                                                                   : TREAD_MAX_MOVE_CONTACTS) ||
                   !tread_v3_is_finite(f.velocity)) {
            snprintf(verdicts[n].detail, sizeof verdicts[n].detail, "feet (%g, %g, %g) velocity (%g, %g, %g)", (double)ch.position.x,
                     (double)ch.position.y, (double)ch.position.z, (double)ch.velocity.x, (double)ch.velocity.y, (double)ch.velocity.z);
            verdicts[n].kind = SOAK_NAN, verdicts[n].value = verdicts[n].limit = 0.0;
            ++n;
        } else {
            f.post_depth = deepest(&w, &ch, &f.post_body, NULL);
            // Buried and not unburied: is there a free spot within reach at all? Not crushed, only then is the update's
            // last resort, rising at the recovery speed through what is above, its contract; crushed, it stays where it
            // is (it never jumps, nor moves through the body pressing on it), and no deadline can hold it.
            bool nowhere = f.pre_depth > SOAK_TOLERANCE && !(res.unburied > 0.0f) &&
                           !soak_world_free_within(&w, &before, soak_unbury_bound(&before.settings));
            f.beyond_reach = nowhere && !res.crushed;
            f.crushed_nowhere = nowhere && res.crushed;
            soak_except crushers = {.count = 0};
            if (res.crushed) {
                // Crushed: it may be left overlapping the body that crushed it, and only that one; its way there never
                // runs through any other body (tread_move_result.crushed). The result names one body; every kinematic
                // body it was inside of before the move pressed into it as well, and is left out too.
                double margin = (double)ch.settings.skin + SOAK_TOLERANCE;
                soak_shape pre = soak_shape_of(&before, before.position), post = soak_shape_of(&ch, ch.position);
                int named = soak_world_find(&w, res.crushed_by);
                if (named >= 0) crushers.bodies[crushers.count++] = named;
                soak_world_kinematic_inside(&w, &pre, ch.settings.collide_mask, SOAK_TOLERANCE, &crushers);
                f.pre_free = soak_world_penetration_except(&w, &pre, ch.settings.collide_mask, margin, &crushers, NULL, NULL);
                f.post_free = soak_world_penetration_except(&w, &post, ch.settings.collide_mask, margin, &crushers, NULL, NULL);
                soak_v3 from = soak_v3_of(tread_character_center(&before)), to = soak_v3_of(tread_character_center(&ch));
                // The ways it may have been pushed: each crusher's motion where the character was, and the axes of
                // its frame (the push out of a box is along one).
                soak_v3 ways[4 * SOAK_EXCEPT_MAX];
                int way_count = 0;
                for (int i = 0; i < crushers.count; ++i) {
                    const soak_body *c = &w.bodies[crushers.bodies[i]];
                    ways[way_count++] = soak_sub(soak_frame_point(&c->frame, soak_frame_inv_point(&c->previous, from)), from);
                    for (int k = 0; k < 3; ++k) ways[way_count++] = c->frame.axis[k];
                }
                // The longest way the move documents: the world's push, the crush's aside and its way on (the depth
                // before it and a skin), the walk, a step up and a snap down.
                const tread_character_settings *s = &before.settings;
                double longest = soak_length(soak_v3_of(res.pushed)) + res.crushed_aside + f.pre_depth + s->skin +
                                 soak_length(soak_v3_of(f.velocity)) * dt + s->max_step_height + s->step_down_distance;
                double inscribed = s->shape == TREAD_QUERY_BOX ? fmin(s->radius, 0.5 * s->height) : s->radius;
                f.crossed = soak_world_crossing(&w, &pre, from, to, ways, way_count, longest, inscribed, ch.settings.collide_mask, &crushers);
            }
            // Ended deeper in what it began inside, by the deepest piece: was it deeper in the body's solid at all?
            f.pre_bound = res.crushed ? f.pre_free : f.pre_depth;
            if (f.pre_bound > SOAK_TOLERANCE && (res.crushed ? f.post_free : f.post_depth) > f.pre_bound + SOAK_DEEPER_SLACK) {
                soak_shape pre = soak_shape_of(&before, before.position);
                f.pre_bound = soak_world_depth_bound(&w, &pre, soak_normalize(soak_v3_of(before.settings.up)), before.settings.collide_mask,
                                                     &crushers, soak_unbury_bound(&before.settings));
            }
            f.ground_motion = ground_motion(&w, &before);
            f.feet_generation = soak_untilted(&w, ch.position);
            f.arena = w.arena;
            n = soak_check_frame(&f, &state, &out->worst, verdicts);
        }
        for (int i = 0; i < n; ++i) record(out, frame, &verdicts[i]);
        if (trace) trace_frame(trace, &w, frame, &f, &res, verdicts, n);
        if (n > 0 && (verdicts[0].kind == SOAK_ERROR || verdicts[0].kind == SOAK_NAN)) {
            // Nothing after a broken state would mean anything: respawn it where the plan spawned it.
            tread_character_init(&ch, &plan.settings, plan.start);
            motor = tread_motor_state_default();
            has_last = false;
            teleported = true;
            continue;
        }
        last = res;
        last_contact_count = res.moving_contact_count < TREAD_MAX_MOVE_CONTACTS ? res.moving_contact_count : TREAD_MAX_MOVE_CONTACTS;
        memcpy(last_contacts, contacts, sizeof contacts[0] * (size_t)last_contact_count);
        has_last = true;
        teleported = false;
    }
    soak_world_free(&w);
}
