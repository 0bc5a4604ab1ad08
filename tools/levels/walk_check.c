// SPDX-License-Identifier: MIT
// The per-frame checks of `tread walk`, measured in double precision against the level's triangles (the very
// floats tread was given) with the soak's geometry (tools/soak/geometry.c), nothing of tread's. docs/LEVELS.md
// gives the same definitions.
//
// A level is a triangle soup with no inside of its own, so penetration is measured per triangle and one-sided: a
// brush face counts only while the character's centre is in front of its plane (its outward side), and then the
// depth is how far the volume reaches past the face (minus the signed distance between them). A character's
// centre behind a face is on the far side of that brush, where the faces it faces measure it. Patches have no
// inside: the side the centre is on is the front.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "walk.h"

#define WALK_PI 3.14159265358979323846
// Feet this far behind an up-facing face went through it (a foot a little behind is a penetration, reported there).
#define FALL_DEPTH 0.01
// The library's ground tie (TR_GROUND_TIE): contacts this much farther than the nearest still pair in a crevasse.
#define WALK_GROUND_TIE 1e-3
// The freeze check: input along the contact planes for this long, moving under FREEZE_MOVE, while FREEZE_PATH
// that way is free; the tangent part counts from FREEZE_SHARE of the input.
#define FREEZE_TIME 2.0
#define FREEZE_MOVE 0.01
#define FREEZE_PATH 0.03
#define FREEZE_SHARE 0.2

static const char *const kind_names[WALK_KIND_COUNT] = {"error", "nan", "penetration", "fall_through", "rise", "ground", "freeze", "crush"};

const char *const walk_ground_fault_names[WALK_GROUND_FAULT_COUNT] = {"hover", "off_bottom", "not_walkable"};

const char *walk_kind_name(walk_kind kind) { return (int)kind >= 0 && kind < WALK_KIND_COUNT ? kind_names[kind] : "unknown"; }

static bool finite3(tread_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

bool walk_finite(const tread_character *ch, const tread_move_result *res, const tread_contact *contacts, int contact_count) {
    const tread_ground *g[2] = {&ch->ground, &res->ground};
    for (int i = 0; i < 2; ++i)
        if (!finite3(g[i]->normal) || !finite3(g[i]->point) || !isfinite(g[i]->distance) || !finite3(g[i]->velocity)) return false;
    if (!finite3(ch->position) || !finite3(ch->velocity) || !finite3(res->position) || !finite3(res->velocity) || !isfinite(res->step_up) ||
        !isfinite(res->snap_down))
        return false;
    for (int i = 0; i < contact_count; ++i)
        if (!isfinite(contacts[i].separation) || !finite3(contacts[i].point) || !finite3(contacts[i].normal)) return false;
    return true;
}

static soak_v3 shape_centre(const soak_shape *s) { return s->is_box ? s->box.c : soak_scale(soak_add(s->round.a, s->round.b), 0.5); }

static double shape_distance(const soak_shape *s, const walk_tri *t) {
    return s->is_box ? soak_box_vs_triangle(&s->box, t->p[0], t->p[1], t->p[2]) : soak_round_vs_triangle(&s->round, t->p[0], t->p[1], t->p[2]);
}

double walk_depth(const walk_grid *g, walk_query *q, const soak_shape *shape, int *out_tri) {
    soak_v3 m = soak_v3_make(0.01, 0.01, 0.01);
    walk_grid_near(g, q, soak_sub(shape->lo, m), soak_add(shape->hi, m));
    soak_v3 c = shape_centre(shape);
    soak_v3 ext = soak_scale(soak_sub(shape->hi, shape->lo), 0.5);
    double reach = soak_length(ext); // no point of the volume is farther from its centre
    double deepest = 0.0;
    int which = -1;
    for (int i = 0; i < q->found_count; ++i) {
        const walk_tri *t = &g->tris[q->found[i]];
        double side = soak_dot(t->n, soak_sub(c, t->p[0]));
        if ((!t->two_sided && side < 0.0) || fabs(side) > reach + 0.01) continue;
        double d = shape_distance(shape, t);
        if (-d > deepest) deepest = -d, which = q->found[i];
    }
    if (out_tri) *out_tri = which;
    return deepest;
}

// The same measure against the movers' triangles (few: every one is tried); the triangle as -2 - its index.
static double movers_depth(const walk_mover_tris *mv, const soak_shape *shape, int *out_tri) {
    soak_v3 c = shape_centre(shape);
    double reach = soak_length(soak_scale(soak_sub(shape->hi, shape->lo), 0.5)), deepest = 0.0;
    int which = -1;
    for (int i = 0; i < mv->count; ++i) {
        const walk_tri *t = &mv->tris[i];
        if (t->lo.x > shape->hi.x + 0.01 || t->hi.x < shape->lo.x - 0.01 || t->lo.y > shape->hi.y + 0.01 || t->hi.y < shape->lo.y - 0.01 ||
            t->lo.z > shape->hi.z + 0.01 || t->hi.z < shape->lo.z - 0.01)
            continue;
        double side = soak_dot(t->n, soak_sub(c, t->p[0]));
        if (side < 0.0 || side > reach + 0.01) continue;
        double d = shape_distance(shape, t);
        if (-d > deepest) deepest = -d, which = -2 - i;
    }
    // A centre behind every face of a mover is inside it, where the one-sided measure sees nothing: the depth is
    // then how far the centre is behind the nearest face. Exact for a convex mover (one brush); a mover of several
    // brushes never has a point behind all its faces, so this misses a centre inside one of its brushes there.
    for (int m = 0; m < mv->mover_count; ++m) {
        double least = INFINITY;
        int nearest = -1;
        for (int i = mv->first[m]; i < mv->first[m + 1] && least > 0.0; ++i) {
            double behind = -soak_dot(mv->tris[i].n, soak_sub(c, mv->tris[i].p[0]));
            if (behind < least) least = behind, nearest = i;
        }
        if (nearest >= 0 && least > 0.0 && least > deepest) deepest = least, which = -2 - nearest;
    }
    if (out_tri) *out_tri = which;
    return deepest;
}

// Deepest past the level's and the movers' triangles.
static double depth_all(const walk_grid *g, walk_query *q, const walk_frame_facts *f, const soak_shape *shape, int *out_tri) {
    int tri = -1, mover_tri = -1;
    double d = walk_depth(g, q, shape, &tri), m = f->movers.count > 0 ? movers_depth(&f->movers, shape, &mover_tri) : 0.0;
    if (out_tri) *out_tri = m > d ? mover_tri : tri;
    return fmax(d, m);
}

static void verdict(walk_verdict *v, walk_kind kind, double value, const char *detail) {
    v->kind = kind;
    v->fault = 0;
    v->value = value;
    snprintf(v->detail, sizeof v->detail, "%s", detail);
}

// Inside the triangle (or on its edges), p in its plane.
static bool inside_triangle(const walk_tri *t, soak_v3 p) {
    for (int k = 0; k < 3; ++k) {
        soak_v3 e = soak_sub(t->p[(k + 1) % 3], t->p[k]);
        if (soak_dot(soak_cross(e, soak_sub(p, t->p[k])), t->n) < 0.0) return false;
    }
    return true;
}

// Through a floor: the feet were in front of an up-facing triangle's plane (at most 1 mm behind it) and end more
// than 1 cm behind it over its interior (their projection on its plane inside it). The end, not the straight path
// between the two feet, decides: a round bottom rolling off an edge and snapped down cuts the corner of the floor's
// plane in one frame's chord without going through anything.
static int check_fall(const walk_grid *g, walk_query *q, const walk_frame_facts *f, walk_verdict *out) {
    if (f->fresh || f->teleported) return 0;
    soak_v3 a = soak_v3_of(f->before->position), b = soak_v3_of(f->after->position);
    soak_v3 m = soak_v3_make(0.02, 0.02, 0.02);
    soak_v3 lo = soak_v3_make(fmin(a.x, b.x), fmin(a.y, b.y), fmin(a.z, b.z)), hi = soak_v3_make(fmax(a.x, b.x), fmax(a.y, b.y), fmax(a.z, b.z));
    walk_grid_near(g, q, soak_sub(lo, m), soak_add(hi, m));
    for (int i = 0; i < q->found_count; ++i) {
        const walk_tri *t = &g->tris[q->found[i]];
        if (t->n.y <= 0.0) continue; // only up-facing faces: a step-up's straight path crosses risers
        double da = soak_dot(t->n, soak_sub(a, t->p[0])), db = soak_dot(t->n, soak_sub(b, t->p[0]));
        if (da < -WALK_TOLERANCE || db >= -FALL_DEPTH) continue;
        if (!inside_triangle(t, soak_mad(b, -db, t->n))) continue;
        char detail[200];
        snprintf(detail, sizeof detail, "feet from %.4f m in front of triangle %d (normal %.3f %.3f %.3f) to %.4f m behind it, over it", da,
                 q->found[i], t->n.x, t->n.y, t->n.z, -db);
        verdict(out, WALK_FALL_THROUGH, -db, detail);
        return 1;
    }
    return 0;
}

// As the soak's check_rise (tools/soak/check.c) on a static level: at most max step above the surface stood on
// (or the feet), plus three skins and the tolerance, plus what the input lifts (a jump), the slide up a walkable
// slope (its reach times sin(max slope)), and what the move says carried or pushed it.
static int check_rise(const walk_frame_facts *f, walk_verdict *out) {
    const tread_character *b = f->before, *a = f->after;
    const tread_character_settings *s = &b->settings;
    double base = b->position.y;
    bool stood = !f->fresh && b->ground.state == TREAD_GROUND_ON_GROUND;
    if (stood) base = fmax(base, (double)b->ground.point.y);
    double rise = (double)a->position.y - base;
    soak_v3 v = soak_v3_of(f->velocity);
    double reach = soak_length(v) * f->dt;
    if (stood) reach = fmax(reach, sqrt(v.x * v.x + v.z * v.z) * f->dt);
    double lifted = fmax(0.0, v.y) * f->dt + soak_length(soak_v3_of(f->result->carried)) + soak_length(soak_v3_of(f->result->pushed));
    double recovery = fmax((double)s->recovery_speed * f->dt, (double)f->result->unburied);
    double limit = s->max_step_height + 3.0 * s->skin + WALK_TOLERANCE + lifted + reach * sin((s->max_slope_degrees + TREAD_SLOPE_TOLERANCE_DEGREES) * WALK_PI / 180.0) + recovery;
    if (rise <= limit) return 0;
    char detail[200];
    snprintf(detail, sizeof detail, "rose %.4f m above the %s (limit %.4f m)", rise, stood ? "surface stood on" : "feet", limit);
    verdict(out, WALK_RISE, rise - limit, detail);
    return 1;
}

static double point_triangle(soak_v3 p, const walk_tri *t) {
    soak_round point = {p, p, 0.0};
    return soak_round_vs_triangle(&point, t->p[0], t->p[1], t->p[2]);
}

// The point of triangle t nearest p.
static soak_v3 closest_on_triangle(soak_v3 p, const walk_tri *t) { return soak_closest_on_triangle(p, t->p[0], t->p[1], t->p[2]); }

// A round bottom held in a crevasse (README: "Crevasses"; Catlike Coding's steep contacts, Jolt's averaged steep
// normals): the ground point is one of two contacts of the bottom sphere with the level, below its centre, that face
// each other across it and whose pushes (from each contact toward the centre) sum to a walkable direction. Found
// here from the level's triangles, not from what tread reports but the point.
static bool held_in_crevasse(const walk_grid *g, walk_query *q, soak_v3 centre, double radius, double slack, double cos_slope, soak_v3 ground) {
    enum { CONTACTS = 32 };
    soak_v3 point[CONTACTS], push[CONTACTS];
    int n = 0;
    double reach = radius + slack;
    walk_grid_near(g, q, soak_sub(centre, soak_v3_make(reach, reach, reach)), soak_add(centre, soak_v3_make(reach, reach, reach)));
    for (int i = 0; i < q->found_count && n < CONTACTS; ++i) {
        soak_v3 p = closest_on_triangle(centre, &g->tris[q->found[i]]), d = soak_sub(centre, p);
        double len = soak_length(d);
        if (len > reach || len <= 0.0 || d.y <= 0.0) continue;
        point[n] = p;
        push[n++] = soak_scale(d, 1.0 / len);
    }
    for (int i = 0; i < n; ++i) {
        if (soak_length(soak_sub(point[i], ground)) > slack) continue;
        for (int j = 0; j < n; ++j) {
            soak_v3 across = soak_sub(point[j], point[i]), sum = soak_add(push[i], push[j]);
            double len = soak_length(sum);
            if (soak_dot(push[i], across) > 0.0 && soak_dot(push[j], across) < 0.0 && len > 0.0 && sum.y / len >= cos_slope - 1e-4) return true;
        }
    }
    return false;
}

// A flat bottom held in a crevasse (the same rule as a round bottom's, above): the ground point lies on a face the
// box touches (within the slack; the partner, as the library's rule takes it, within its 1 mm ground tie more), and
// another face it touches faces it across the box: each face's point nearest the
// box's centre lies in front of the other face, and the two normals sum to a walkable direction. A ridge's faces fall
// away from each other (each lies behind the other's plane), so a box on a roof is not held.
static bool box_held_in_crevasse(const walk_grid *g, walk_query *q, const tread_character_settings *s, soak_v3 feet, double slack, double cos_slope,
                                 soak_v3 ground) {
    enum { FACES = 32 };
    soak_shape shape = soak_shape_at(s, feet);
    soak_v3 centre = shape.box.c, m = soak_v3_make(slack, slack, slack);
    int face[FACES], n = 0, on = -1;
    walk_grid_near(g, q, soak_sub(shape.lo, m), soak_add(shape.hi, m));
    for (int i = 0; i < q->found_count && n < FACES; ++i) {
        const walk_tri *t = &g->tris[q->found[i]];
        if (t->n.y <= 0.0 || soak_box_vs_triangle(&shape.box, t->p[0], t->p[1], t->p[2]) > slack + WALK_GROUND_TIE) continue;
        if (on < 0 && point_triangle(ground, t) <= WALK_TOLERANCE) on = n;
        face[n++] = q->found[i];
    }
    if (on < 0) return false;
    const walk_tri *a = &g->tris[face[on]];
    soak_v3 qa = closest_on_triangle(centre, a);
    for (int j = 0; j < n; ++j) {
        const walk_tri *b = &g->tris[face[j]];
        soak_v3 qb = closest_on_triangle(centre, b), sum = soak_add(a->n, b->n);
        double len = soak_length(sum);
        if (j != on && soak_dot(a->n, soak_sub(qb, qa)) > 0.0 && soak_dot(b->n, soak_sub(qa, qb)) > 0.0 && len > 0.0 &&
            sum.y / len >= cos_slope - 1e-4)
            return true;
    }
    return false;
}

// The ground point on a walkable face (or its edge or corner)?
static int check_on_walkable_face(const walk_grid *g, walk_query *q, soak_v3 p, double cos_slope, walk_verdict *out) {
    char detail[200];
    soak_v3 m = soak_v3_make(0.01, 0.01, 0.01);
    walk_grid_near(g, q, soak_sub(p, m), soak_add(p, m));
    double nearest = INFINITY;
    for (int i = 0; i < q->found_count; ++i) {
        const walk_tri *t = &g->tris[q->found[i]];
        double d = point_triangle(p, t);
        if (d < nearest) nearest = d;
        if (t->n.y >= cos_slope - 1e-6 && d <= WALK_TOLERANCE) return 0;
    }
    snprintf(detail, sizeof detail, "not_walkable: ground point (%.4f, %.4f, %.4f) on no walkable face (nearest triangle %.4f m away)", p.x, p.y, p.z,
             nearest);
    verdict(out, WALK_GROUND, nearest, detail);
    out->fault = WALK_GROUND_NOT_WALKABLE;
    return 1;
}

static int check_ground(const walk_grid *g, walk_query *q, const walk_frame_facts *f, walk_verdict *out) {
    const tread_character *a = f->after;
    const tread_character_settings *s = &a->settings;
    if (a->ground.state != TREAD_GROUND_ON_GROUND || f->others || !tread_body_id_equal(a->ground.body, f->level_body)) return 0;
    soak_v3 p = soak_v3_of(a->ground.point), feet = soak_v3_of(a->position);
    // Within skin of the bottom, plus the gap the move reports (ground.distance: on ground within the probe, at most
    // the 1 mm hover the invariants allow before it settles).
    double slack = s->skin + fmax(0.0, (double)a->ground.distance) + WALK_TOLERANCE, cos_slope = cos((s->max_slope_degrees + TREAD_SLOPE_TOLERANCE_DEGREES) * WALK_PI / 180.0);
    char detail[200];
    // Held by the riser (Staxel's volume, the riser strategy): the body stands on its riser, a volume reaching
    // riser.depth below the feet, radius_scale times as wide; a round bottom also on any walkable face its lower half
    // meets (the riser's rule, docs/STRATEGIES.md: it holds the body on the noses it rises over); or on its own
    // bottom (below).
    if (f->result->held_by_riser) {
        double dy = p.y - feet.y, dx = p.x - feet.x, dz = p.z - feet.z, reach = s->radius * s->riser.radius_scale + slack;
        bool under = s->shape == TREAD_QUERY_BOX ? fabs(dx) <= reach && fabs(dz) <= reach : sqrt(dx * dx + dz * dz) <= reach;
        if (dy <= slack && dy >= -(s->riser.depth + slack) && under) return check_on_walkable_face(g, q, p, cos_slope, out);
        soak_v3 d = soak_sub(p, soak_v3_make(feet.x, feet.y + s->radius, feet.z));
        if (s->shape != TREAD_QUERY_BOX && d.y <= 0.0 && fabs(soak_length(d) - s->radius) <= slack) return check_on_walkable_face(g, q, p, cos_slope, out);
        // Part of the way up a riser taller than riser.depth, it is held by the step it climbs (docs/STRATEGIES.md,
        // riser): that tread lies above the feet, within max step, under the riser box where it looks, two of its
        // short reaches ahead (a box's corner: r sqrt 2 and two reaches of a few cm; within twice the radius).
        double across = sqrt(dx * dx + dz * dz);
        if (f->result->step_up > 0.0f && dy > 0.0 && dy <= s->max_step_height + slack && across <= 2.0 * s->radius + slack)
            return check_on_walkable_face(g, q, p, cos_slope, out);
    }
    // Off the body's bottom?
    if (s->shape == TREAD_QUERY_BOX) {
        double dy = p.y - feet.y, dx = fabs(p.x - feet.x), dz = fabs(p.z - feet.z);
        bool inside = dx <= s->radius + slack && dz <= s->radius + slack;
        if (fabs(dy) > slack || !inside) {
            snprintf(detail, sizeof detail, "%s: ground point %.4f m above the feet, %.4f / %.4f m from them across (box half width %.4f; "
                     "ground.distance %.4f)", inside ? "hover" : "off_bottom", dy, dx, dz, (double)s->radius, (double)a->ground.distance);
            verdict(out, WALK_GROUND, fmax(fabs(dy), fmax(dx, dz) - s->radius), detail);
            out->fault = inside ? WALK_GROUND_HOVER : WALK_GROUND_OFF_BOTTOM;
            return 1;
        }
    } else {
        soak_v3 c = soak_v3_make(feet.x, feet.y + s->radius, feet.z), d = soak_sub(p, c);
        double len = soak_length(d), down = len > 0.0 ? -d.y / len : 1.0;
        bool within = down >= cos_slope - 1e-4;
        if (fabs(len - s->radius) <= slack && !within && held_in_crevasse(g, q, c, s->radius, slack, cos_slope, p)) return 0;
        if (fabs(len - s->radius) > slack || !within) {
            snprintf(detail, sizeof detail, "%s: ground point %.4f m from the bottom sphere's centre (radius %.4f), %.2f degrees off straight down "
                     "(ground.distance %.4f)", within ? "hover" : "off_bottom", len, (double)s->radius,
                     acos(fmax(-1.0, fmin(1.0, down))) * 180.0 / WALK_PI, (double)a->ground.distance);
            verdict(out, WALK_GROUND, fmax(fabs(len - s->radius), acos(fmax(-1.0, fmin(1.0, down))) - acos(cos_slope)), detail);
            out->fault = within ? WALK_GROUND_HOVER : WALK_GROUND_OFF_BOTTOM;
            return 1;
        }
    }
    if (s->shape == TREAD_QUERY_BOX && box_held_in_crevasse(g, q, s, feet, slack, cos_slope, p)) return 0;
    return check_on_walkable_face(g, q, p, cos_slope, out);
}

// The input's part along every contact plane (and the ground's): projected off each plane it pushes into, a few
// rounds; zero when no direction satisfies them all. A face too steep to walk is a wall for climbing (README:
// standing on one and walking up it gains nothing), so its plane counts as the vertical wall through it: pressing
// into a steep slope has no way on up the slope.
static soak_v3 tangent_input(const walk_frame_facts *f, soak_v3 wish) {
    soak_v3 n[TREAD_MAX_MOVE_CONTACTS + 1];
    int count = 0;
    double cos_slope = cos((f->after->settings.max_slope_degrees + TREAD_SLOPE_TOLERANCE_DEGREES) * WALK_PI / 180.0);
    for (int i = 0; i < f->contact_count && i < TREAD_MAX_MOVE_CONTACTS; ++i) {
        soak_v3 c = soak_normalize(soak_v3_of(f->contacts[i].normal));
        if (c.y > 0.0 && c.y < cos_slope) c = soak_normalize(soak_v3_make(c.x, 0.0, c.z));
        n[count++] = c;
    }
    bool grounded = f->after->ground.state == TREAD_GROUND_ON_GROUND;
    if (grounded) n[count++] = soak_normalize(soak_v3_of(f->after->ground.normal));
    soak_v3 t = wish;
    for (int round = 0; round < 8; ++round) {
        for (int i = 0; i < count; ++i) {
            double d = soak_dot(t, n[i]);
            if (d < 0.0) t = soak_mad(t, -d, n[i]);
        }
        // Walking, the way on is along the ground: leaving it upward (up an overhang pressed into) is a jump's.
        if (grounded) t = soak_mad(t, -soak_dot(t, n[count - 1]), n[count - 1]);
    }
    for (int i = 0; i < count; ++i)
        if (soak_dot(t, n[i]) < -1e-6) return soak_v3_make(0.0, 0.0, 0.0);
    return t;
}

static int check_freeze(const walk_grid *g, walk_query *q, const walk_frame_facts *f, walk_check_state *st, walk_verdict *out) {
    soak_v3 feet = soak_v3_of(f->after->position), wish = soak_v3_of(f->wish);
    soak_v3 t = soak_length(wish) > 0.0 ? tangent_input(f, wish) : soak_v3_make(0.0, 0.0, 0.0);
    bool pressed = !f->fresh && !f->teleported && !f->others && soak_length(wish) > 0.0 &&
                   soak_length(t) >= FREEZE_SHARE * soak_length(wish);
    if (!pressed || !st->window_open || soak_length(soak_sub(feet, st->window_feet)) >= FREEZE_MOVE) {
        st->window_open = pressed;
        st->window_start = f->time;
        st->window_feet = feet;
        return 0;
    }
    if (f->time - st->window_start < FREEZE_TIME) return 0;
    double moved = soak_length(soak_sub(feet, st->window_feet));
    st->window_start = f->time; // one verdict (or one free-path test) per window
    st->window_feet = feet;
    soak_v3 dir = soak_normalize(t);
    for (int k = 1; k <= 6; ++k) {
        soak_shape s = soak_shape_at(&f->after->settings, soak_mad(feet, FREEZE_PATH * k / 6.0, dir));
        if (depth_all(g, q, f, &s, NULL) > WALK_TOLERANCE) return 0; // not free: held for a reason
    }
    char detail[200];
    snprintf(detail, sizeof detail, "moved %.4f m in %.1f s pressed along its contacts (%.0f %% of the input, toward %.3f %.3f %.3f), %.2f m free that way",
             moved, FREEZE_TIME, 100.0 * soak_length(t) / soak_length(wish), dir.x, dir.y, dir.z, FREEZE_PATH);
    verdict(out, WALK_FREEZE, moved, detail);
    return 1;
}

int walk_check_frame(const walk_grid *g, walk_query *q, const walk_frame_facts *f, walk_check_state *st, walk_verdict *out) {
    int n = 0;
    soak_shape before = soak_shape_at(&f->before->settings, soak_v3_of(f->before->position));
    soak_shape after = soak_shape_at(&f->after->settings, soak_v3_of(f->after->position));
    double pre = depth_all(g, q, f, &before, NULL);
    int tri = -1;
    double post = depth_all(g, q, f, &after, &tri);
    // No deeper than 1 mm, or than the frame began (recovery pushes out at its speed). A crushed character is
    // inside by definition: the frame is a crush, never a penetration.
    double allowed = fmax(WALK_TOLERANCE, pre + 1e-4);
    char detail[200];
    const char *owner = tri < -1 ? "mover" : "level";
    int index = tri < -1 ? -2 - tri : tri;
    if (f->result->crushed) {
        snprintf(detail, sizeof detail, "crushed, %.4f m past the front of %s triangle %d after the move", post, owner, index);
        verdict(&out[n++], WALK_CRUSH, post, detail);
    } else if (post > allowed) {
        snprintf(detail, sizeof detail, "%.4f m past the front of %s triangle %d after the move, %.4f m before it", post, owner, index,
                 pre);
        verdict(&out[n++], WALK_PENETRATION, post, detail);
    }
    n += check_fall(g, q, f, out + n);
    if (!f->others && !f->launched && !f->teleported) n += check_rise(f, out + n);
    n += check_ground(g, q, f, out + n);
    n += check_freeze(g, q, f, st, out + n);
    return n;
}
