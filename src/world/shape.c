// SPDX-License-Identifier: MIT
// Per-primitive casts and contacts in a shape's local frame: the start-in-contact rule, surface normals,
// and the internal-edge fix for triangles. Mesh, heightfield and voxel modules call these per feature.
#include "shape.h"

#include "../geometry/closest_box.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define SHAPE_SSE 1
#else
#define SHAPE_SSE 0
#endif

// The box query's branches (end of file).
static bool box_cast_triangle(const tr_cast *c, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges,
                              float t_max, tr_feature_hit *out);
static bool box_cast_box(const tr_cast *c, tread_vec3 half, float t_max, tr_feature_hit *out);
static bool box_cast_capsule(const tr_cast *c, float half_height, float radius, float t_max, tr_feature_hit *out);

// Core segment of a world capsule of half height h along local Y.
static void capsule_core(float half_height, tread_vec3 *a, tread_vec3 *b) {
    *a = tread_v3(0.0f, -half_height, 0.0f);
    *b = tread_v3(0.0f, half_height, 0.0f);
}

// Decide a cast that starts within TR_TOUCH_TOLERANCE of (or inside) a primitive, given the push-out
// normal at t = 0 and the surface distance `sep` (core distance minus radii).
// Returns 1: hit at t = 0; 0: no hit on this primitive; -1: not in contact, let the sweep decide.
// Pressing in means approaching faster than TR_APPROACH_TOLERANCE of the cast's length: a cast along a
// surface it rests on (a character sliding over its floor) must never be stopped by rounding in d . n.
// A zero-length cast reports overlaps (there is nothing else it could report) but not mere touching.
bool tr_presses_into(const tr_cast *c, tread_vec3 normal) {
    return tread_v3_dot(c->d, normal) < -TR_APPROACH_TOLERANCE * tread_v3_length(c->d);
}

static int start_contact(const tr_cast *c, float sep, tread_vec3 normal) {
    if (sep > TR_TOUCH_TOLERANCE) return -1;
    if (tread_v3_length_sq(c->d) == 0.0f) return sep < 0.0f ? 1 : 0;
    return tr_presses_into(c, normal) ? 1 : 0;
}

static void fill_start_hit(tr_feature_hit *out, float sep, const tr_closest *cl, tread_vec3 normal,
                           tread_vec3 surface_normal, float shape_radius) {
    out->t = 0.0f;
    out->started_in_contact = true;
    out->penetration = sep < 0.0f ? -sep : 0.0f;
    out->normal = normal;
    out->surface_normal = surface_normal;
    // For rounded world shapes the surface lies shape_radius out from the core along the normal.
    out->point = tread_v3_mad(cl->on_shape, shape_radius, normal);
    out->feature = 0;
}

static void fill_sweep_hit(tr_feature_hit *out, const tr_hit *h, tread_vec3 surface_normal) {
    out->t = h->t;
    out->started_in_contact = false;
    out->penetration = 0.0f;
    out->point = h->point;
    out->normal = h->normal;
    out->surface_normal = surface_normal;
    out->feature = 0;
}

// ---- triangles -------------------------------------------------------------------------------------

// Face normal of abc turned toward `toward` (a direction from the surface to the query).
static tread_vec3 facing_normal(tread_vec3 face, tread_vec3 toward) {
    return tread_v3_dot(face, toward) < 0.0f ? tread_v3_neg(face) : face;
}

// A contact on an inactive edge or vertex (a flat or concave seam inside a mesh) is really a contact
// with the face: replace its normal so flat floors never report ghost normals. A triangle with no active edge
// lies inside a smooth surface and offers only its face, whatever feature pair the separating axis came from
// (a box riding a heightfield slope a rounding below its plane touched the next cell's triangle on the axis
// across that cell's back edge and its own vertical edges: a wall at the seam).
// Whether a contact's feature of this triangle is a real edge or corner by the triangle's own edges (a face is).
static bool feature_is_real(uint8_t active_edges, int feature) {
    unsigned edges = active_edges;
    if (feature >= TR_TRI_VERTEX0) {
        unsigned i = (unsigned)(feature - TR_TRI_VERTEX0);
        // A corner is a real corner when either edge meeting there is real.
        return ((edges >> i) & 1u) || ((edges >> ((i + 2u) % 3u)) & 1u);
    }
    if (feature >= TR_TRI_EDGE0) return (edges >> (unsigned)(feature - TR_TRI_EDGE0)) & 1u;
    return true;
}

static tread_vec3 resolve_triangle_normal(tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges,
                                          tread_vec3 point, tread_vec3 normal, tread_vec3 face) {
    if ((active_edges & 7u) == 0u) return face;
    return feature_is_real(active_edges, tr_triangle_feature(a, b, cc, point)) ? normal : face;
}

// A contact normal within this cosine of a triangle's face normal is met from the face (dimensionless).
#define TR_CORNER_OFF_FACE_COS 0.9999f

// A round shape's contact normal on this triangle (*out_normal, as resolve_triangle_normal's), or false where the
// contact is not this triangle's: at a corner whose two edges here are seams (flat or concave), met from off the
// face. The corner is a point of the triangles around it too, and may be a convex one of theirs. A heightfield
// curb's steep riser has triangles that meet the curb's top edge only at a corner (all their own edges seams);
// their face's normal put on that corner made the 63-degree riser a wall under a capsule standing on the top edge,
// and it froze there. The triangles with a real edge at the corner report the contact with its own normal; where
// the corner has none, the surface is flat or concave around it and the face under the body reports it. (Boxes
// keep the face: resolve_triangle_normal's note.) The feature is found once for both questions.
static bool round_triangle_normal(tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges, tread_vec3 point,
                                  tread_vec3 normal, tread_vec3 face, tread_vec3 *out_normal) {
    bool off_face = tread_v3_dot(normal, face) < TR_CORNER_OFF_FACE_COS, seams_only = (active_edges & 7u) == 0u;
    *out_normal = face;
    if (seams_only && !off_face) return true;
    int feature = tr_triangle_feature(a, b, cc, point);
    bool real = feature_is_real(active_edges, feature);
    if (off_face && feature >= TR_TRI_VERTEX0 && !real) return false;
    if (!seams_only && real) *out_normal = normal;
    return true;
}

// The cast's part of the scale of the rounding error in the primitives' results (cast_scale's): the largest
// coordinate magnitude among its segment and translation, and its radius.
void tr_capsule_cast_init(tr_capsule_cast *k, const tr_cast *c, float t_max) {
    k->c = c;
    tread_vec3 m = tread_v3_max(tread_v3_max(tread_v3_abs(c->p0), tread_v3_abs(c->p1)), tread_v3_abs(c->d));
    k->scale = tr_maxf(tr_maxf(m.x, m.y), tr_maxf(m.z, c->r));
    k->d_len = tread_v3_length(c->d);
    k->lo = tread_v3_min(c->p0, c->p1);
    k->hi = tread_v3_max(c->p0, c->p1);
    tr_capsule_cast_sweep(k, t_max);
}

void tr_capsule_cast_sweep(tr_capsule_cast *k, float t_max) {
    tread_vec3 m = tread_v3_scale(k->c->d, t_max);
    k->slo = tread_v3_min(k->lo, tread_v3_add(k->lo, m));
    k->shi = tread_v3_max(k->hi, tread_v3_add(k->hi, m));
    k->t_max = t_max;
}

// Largest coordinate magnitude among the cast's segment, translation, radius and the triangle's corners: the scale of
// the rounding error in the primitives' results (a few float ulps of it). The largest of a set, however grouped.
static float cast_scale(const tr_capsule_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc) {
    tread_vec3 m = tread_v3_max(tread_v3_abs(a), tread_v3_max(tread_v3_abs(b), tread_v3_abs(cc)));
    return tr_maxf(k->scale, tr_maxf(tr_maxf(m.x, m.y), m.z));
}

bool tr_cast_triangle(const tr_cast *c, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges, float t_max,
                      tr_feature_hit *out) {
    if (c->is_box) return box_cast_triangle(c, a, b, cc, active_edges, t_max, out);
    if (c->is_ray) {
        tr_hit h;
        if (!tr_ray_triangle(c->p0, c->d, a, b, cc, t_max, &h)) return false;
        tread_vec3 n = tread_v3_cross(tread_v3_sub(b, a), tread_v3_sub(cc, a));
        float twice_area = tread_v3_length(n);
        if (!(twice_area >= TR_DEGENERATE_AREA)) return false;
        tread_vec3 face = tread_v3_scale(n, 1.0f / twice_area);
        fill_sweep_hit(out, &h, facing_normal(face, h.normal));
        return true;
    }
    tr_capsule_cast k;
    tr_capsule_cast_init(&k, c, t_max);
    return tr_cast_triangle_capsule(&k, a, b, cc, active_edges, out);
}

// How far the closest points' normal may be off its true direction, for a bound on the rate the distance falls at
// (a sine: far above the rounding of a normal between points at least the radius apart).
#define TANGENT_NORMAL_SLACK 1.0e-4f

// tr_presses_into with the cast's length known.
static bool presses_into(const tr_capsule_cast *k, tread_vec3 normal) {
    return tread_v3_dot(k->c->d, normal) < -TR_APPROACH_TOLERANCE * k->d_len;
}

bool tr_cast_triangle_capsule(const tr_capsule_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges,
                              tr_feature_hit *out) {
    float slack;
    unsigned early;
    if (!tr_cast_triangle_bounds(k, a, b, cc, &slack, &early)) return false;
    return tr_cast_triangle_near(k, a, b, cc, active_edges, slack, early, out);
}

bool tr_cast_triangle_bounds(const tr_capsule_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, float *slack_out, unsigned *early) {
    // Conservative early-outs on the triangle's bounds: the swept capsule's bounds farther than the touch
    // tolerance from the triangle's on some axis cannot reach it; the start's bounds that far cannot touch it.
    float slack = TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * cast_scale(k, a, b, cc);
    float reach = k->c->r + TR_TOUCH_TOLERANCE + slack;
    tread_vec3 tlo = tread_v3_min(a, tread_v3_min(b, cc)), thi = tread_v3_max(a, tread_v3_max(b, cc));
    tread_vec3 lo = k->lo, hi = k->hi, slo = k->slo, shi = k->shi;
    if (tlo.x - shi.x > reach || slo.x - thi.x > reach || tlo.y - shi.y > reach || slo.y - thi.y > reach ||
        tlo.z - shi.z > reach || slo.z - thi.z > reach)
        return false;
    bool apart_at_start = tlo.x - hi.x > reach || lo.x - thi.x > reach || tlo.y - hi.y > reach || lo.y - thi.y > reach ||
                          tlo.z - hi.z > reach || lo.z - thi.z > reach;
    *slack_out = slack;
    *early = apart_at_start ? TR_EARLY_APART_AT_START : 0u;
    return true;
}

bool tr_cast_triangle_near(const tr_capsule_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges, float slack,
                           unsigned early, tr_feature_hit *out) {
    const tr_cast *c = k->c;
    bool apart_at_start = early & TR_EARLY_APART_AT_START, swept_untested = !(early & TR_EARLY_SWEPT_TESTED);
    float t_max = k->t_max;
    float reach = c->r + TR_TOUCH_TOLERANCE + slack;
    // The unnormalised face normal, computed exactly as tr_triangle_normal does; its length decides degeneracy
    // (degenerate triangles are never hit).
    tread_vec3 n = tread_v3_cross(tread_v3_sub(b, a), tread_v3_sub(cc, a));
    float twice_area = tread_v3_length(n);
    if (!(twice_area >= TR_DEGENERATE_AREA)) return false;
    tread_vec3 face = tread_v3_scale(n, 1.0f / twice_area);
    // Conservative early-outs on the triangle's plane (the triangle lies in it, so the distance to the plane
    // bounds the distance to the triangle from below). Skipped work is work whose answer is already known:
    // the start is farther than the touch tolerance (so the closest test would hand over to the sweep), and
    // the swept capsule stays on one side of the plane, farther than its radius (so the sweep misses).
    float s0 = tread_v3_dot(face, tread_v3_sub(c->p0, a)), s1 = tread_v3_dot(face, tread_v3_sub(c->p1, a));
    bool far_at_start = (s0 > reach && s1 > reach) || (s0 < -reach && s1 < -reach);
    // The same off the triangle's edges: the whole swept core farther than reach from the triangle (a lower bound of
    // its distance from the plane's and the edge lines', tr_swept_segment_triangle_beyond) starts apart (the closest
    // test would hand over to the sweep) and the sweep misses. Tested where the plane does not decide, once.
    tread_vec3 m = tread_v3_scale(c->d, t_max);
    if (far_at_start) {
        float sd = t_max * tread_v3_dot(face, c->d);
        float e0 = s0 + sd, e1 = s1 + sd;
        if (s0 > 0.0f ? (e0 > reach && e1 > reach) : (e0 < -reach && e1 < -reach)) return false;
    } else if (!apart_at_start) {
        if (swept_untested && tr_swept_segment_triangle_beyond(a, b, cc, face, s0, s1, tread_v3_dot(face, m), reach, c->p0, c->p1, m))
            return false;
        tr_closest cl;
        if (!tr_closest_segment_triangle(c->p0, c->p1, a, b, cc, &cl)) return false;
        float sep = cl.distance - c->r;
        if (sep <= TR_TOUCH_TOLERANCE) {
            tread_vec3 sided = facing_normal(face, cl.normal);
            tread_vec3 nn;
            if (!round_triangle_normal(a, b, cc, active_edges, cl.on_shape, cl.normal, sided, &nn)) return false;
            int decision = start_contact(c, sep, nn);
            if (decision == 0) return false;
            fill_start_hit(out, sep, &cl, nn, sided, 0.0f);
            return true;
        }
        // Apart at the start by more than the cast travels (plus the touch tolerance): no point of the capsule
        // comes nearer than that distance less the travel, so the sweep would miss. Neighbours of the triangle
        // a probe stands on end here rather than in the sweep.
        if (sep - t_max * k->d_len > reach - c->r) return false;
        // Closing in slower than that: the core's distance from the triangle is convex in t (the distance of the point
        // -t d from the convex set triangle (-) core), so its tangent at the start, the distance plus t times the rate
        // cl.normal . d (the normal: the gradient of that distance), bounds it below over the cast; above reach
        // throughout, the sweep would miss. (The rate with a slack for the normal's rounding.)
        float rate = tr_minf(tread_v3_dot(cl.normal, c->d), 0.0f) - TANGENT_NORMAL_SLACK * k->d_len;
        if (sep + t_max * rate > reach - c->r) return false;
    }
    if (swept_untested && (far_at_start || apart_at_start) && // (else tested above)
        tr_swept_segment_triangle_beyond(a, b, cc, face, s0, s1, tread_v3_dot(face, m), reach, c->p0, c->p1, m))
        return false;
    tr_hit h;
    // (Every way here has shown the start apart: the closest test, or the early-outs that prove its answer.)
    if (!tr_sweep_capsule_triangle_apart(c->p0, c->p1, c->r, c->d, a, b, cc, t_max, &h)) return false;
    tread_vec3 sided = facing_normal(face, h.normal);
    if (!round_triangle_normal(a, b, cc, active_edges, h.point, h.normal, sided, &h.normal)) return false;
    // Shapes first meet moving toward each other: a time of impact whose normal the motion does not press into is
    // a graze (a sphere rising past a stair nosing's front face, touching it at its equator) or a flat seam's
    // ghost edge turned into its face, and moving on cannot enter a triangle there.
    if (!presses_into(k, h.normal)) return false;
    fill_sweep_hit(out, &h, sided);
    return true;
}

bool tr_contact_triangle(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 a, tread_vec3 b, tread_vec3 cc,
                         uint8_t active_edges, float margin, tr_feature_contact *out) {
    // Conservative early-out on the triangle's plane (as tr_cast_triangle's): the core farther from it than r and
    // the margin, on one side, is farther from the triangle (a character resting above a mesh is, from the
    // triangles under it).
    tread_vec3 m = tread_v3_max(tread_v3_max(tread_v3_abs(p0), tread_v3_abs(p1)),
                                tread_v3_max(tread_v3_abs(a), tread_v3_max(tread_v3_abs(b), tread_v3_abs(cc))));
    float reach = r + tr_maxf(margin, 0.0f) + TR_TOUCH_TOLERANCE + TR_SKIP_SLACK_ABS +
                  TR_SKIP_SLACK_REL * tr_maxf(tr_maxf(m.x, m.y), tr_maxf(m.z, r));
    tread_vec3 face = tr_triangle_normal(a, b, cc);
    float h0 = tread_v3_dot(face, tread_v3_sub(p0, a)), h1 = tread_v3_dot(face, tread_v3_sub(p1, a));
    if ((h0 > reach && h1 > reach) || (h0 < -reach && h1 < -reach)) return false;
    if (tr_segment_triangle_beyond(a, b, cc, face, h0, h1, reach, p0, p1)) return false; // (the same, off the triangle's edges)
    tr_closest cl;
    if (!tr_closest_segment_triangle(p0, p1, a, b, cc, &cl)) return false;
    float sep = cl.distance - r;
    if (sep > margin) return false;
    tread_vec3 sided = facing_normal(face, cl.normal);
    tread_vec3 normal;
    if (!round_triangle_normal(a, b, cc, active_edges, cl.on_shape, cl.normal, sided, &normal)) return false;
    out->separation = sep;
    out->point = cl.on_shape;
    out->normal = normal;
    out->surface_normal = sided;
    out->feature = 0;
    return true;
}

// ---- boxes -------------------------------------------------------------------------------------------

// The ray against a box.
static bool ray_cast_box(const tr_cast *c, tread_vec3 half, float t_max, tr_feature_hit *out) {
    tr_hit h;
    if (!tr_ray_box(c->p0, c->d, half, t_max, &h)) return false;
    fill_sweep_hit(out, &h, tr_box_surface_normal(half, h.point, h.normal, c->d));
    out->started_in_contact = h.t == 0.0f && tread_v3_distance(h.point, c->p0) == 0.0f;
    return true;
}

// A capsule apart from the box at the start (closest points cl, surface distance sep beyond the touch tolerance):
// conservative early-outs before the sweep, each a lower bound on the distance that must exceed the touch tolerance
// by the skip slack (far above the rounding of the closest test and the sweep). The core's distance to the box is
// convex in t (the distance of the point t*d from the convex set box (+) (-core)), so it stays above its tangent
// at t = 0, whose slope is n.d for the closest points' normal n: casts moving along or away from a box they are
// near (a character walking past a block, or away from it) end here. And start and end bounds beyond the same slab
// of the box, the cast passes it. (Not inlined into tr_cast_box: its registers would cost every cast that starts
// touching, most of them, a longer prologue.)
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool capsule_cast_box_apart(const tr_cast *c, tread_vec3 half, float t_max, const tr_closest *cl, float sep,
                                   tr_feature_hit *out) {
    tread_vec3 hm = tread_v3_max(tread_v3_abs(c->p0), tread_v3_abs(c->p1));
    hm = tread_v3_max(tread_v3_max(hm, tread_v3_abs(c->d)), half);
    float slack = TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * tr_maxf(tr_maxf(hm.x, hm.y), tr_maxf(hm.z, c->r));
    float reach = c->r + TR_TOUCH_TOLERANCE + slack;
    if (sep + t_max * tr_minf(tread_v3_dot(cl->normal, c->d), 0.0f) > reach - c->r) return false;
    tread_vec3 lo = tread_v3_min(c->p0, c->p1), hi = tread_v3_max(c->p0, c->p1);
    tread_vec3 m = tread_v3_scale(c->d, t_max);
    tread_vec3 elo = tread_v3_add(lo, m), ehi = tread_v3_add(hi, m);
    bool miss = (lo.x - half.x > reach && elo.x - half.x > reach) || (-half.x - hi.x > reach && -half.x - ehi.x > reach) ||
                (lo.y - half.y > reach && elo.y - half.y > reach) || (-half.y - hi.y > reach && -half.y - ehi.y > reach) ||
                (lo.z - half.z > reach && elo.z - half.z > reach) || (-half.z - hi.z > reach && -half.z - ehi.z > reach);
    if (miss) return false;
    tr_hit h;
    if (!tr_sweep_capsule_box_apart(c->p0, c->p1, c->r, c->d, half, t_max, cl, &h)) return false;
    fill_sweep_hit(out, &h, tr_box_surface_normal(half, h.point, h.normal, c->d));
    return true;
}

bool tr_cast_box(const tr_cast *c, tread_vec3 half, float t_max, tr_feature_hit *out) {
    if (c->is_box) return box_cast_box(c, half, t_max, out);
    if (c->is_ray) return ray_cast_box(c, half, t_max, out);
    // The start decides first: most casts start touching or near a box (a character's floor, a block it walks
    // beside), where the closest test's common case is cheaper than any bound that could skip it. Touching within
    // the tolerance, the cast hits at t = 0 or misses.
    tr_closest cl;
    tread_vec3 e = tread_v3_sub(c->p1, c->p0);
    if (!tr_closest_segment_box_end(c->p0, e, half, &cl)) tr_closest_segment_box_general(c->p0, c->p1, e, half, &cl);
    float sep = cl.distance - c->r;
    int decision = start_contact(c, sep, cl.normal);
    if (decision == 0) return false;
    if (decision == 1) {
        fill_start_hit(out, sep, &cl, cl.normal, tr_box_surface_normal(half, cl.on_shape, cl.normal, c->d), 0.0f);
        return true;
    }
    return capsule_cast_box_apart(c, half, t_max, &cl, sep, out);
}

bool tr_contact_box(tread_vec3 p0, tread_vec3 p1, float r, tread_vec3 half, float margin, tr_feature_contact *out) {
    tr_closest cl;
    tr_closest_segment_box(p0, p1, half, &cl);
    float sep = cl.distance - r;
    if (sep > margin) return false;
    out->separation = sep;
    out->point = cl.on_shape;
    out->normal = cl.normal;
    out->surface_normal = tr_box_surface_normal(half, cl.on_shape, cl.normal, tread_v3_zero());
    out->feature = 0;
    return true;
}

// ---- spheres and capsules (rounded: the surface is the core grown by the radius) ----------------------

bool tr_cast_sphere(const tr_cast *c, float radius, float t_max, tr_feature_hit *out) {
    if (c->is_box) return box_cast_capsule(c, 0.0f, radius, t_max, out);
    tr_hit h;
    tread_vec3 center = tread_v3_zero();
    if (c->is_ray) {
        if (!tr_ray_sphere(c->p0, c->d, center, radius, t_max, &h)) return false;
        fill_sweep_hit(out, &h, h.normal);
        out->started_in_contact = h.t == 0.0f && tread_v3_length(c->p0) <= radius;
        return true;
    }
    tr_closest cl;
    tr_closest_segment_point(c->p0, c->p1, center, &cl);
    float sep = cl.distance - c->r - radius;
    int decision = start_contact(c, sep, cl.normal);
    if (decision == 0) return false;
    if (decision == 1) {
        fill_start_hit(out, sep, &cl, cl.normal, cl.normal, radius);
        return true;
    }
    if (!tr_sweep_capsule_sphere(c->p0, c->p1, c->r, c->d, center, radius, t_max, &h)) return false;
    fill_sweep_hit(out, &h, h.normal);
    return true;
}

bool tr_contact_sphere(tread_vec3 p0, tread_vec3 p1, float r, float radius, float margin, tr_feature_contact *out) {
    tr_closest cl;
    tr_closest_segment_point(p0, p1, tread_v3_zero(), &cl);
    float sep = cl.distance - r - radius;
    if (sep > margin) return false;
    out->separation = sep;
    out->point = tread_v3_mad(cl.on_shape, radius, cl.normal);
    out->normal = cl.normal;
    out->surface_normal = cl.normal;
    out->feature = 0;
    return true;
}

bool tr_cast_capsule(const tr_cast *c, float half_height, float radius, float t_max, tr_feature_hit *out) {
    if (c->is_box) return box_cast_capsule(c, half_height, radius, t_max, out);
    tread_vec3 a, b;
    capsule_core(half_height, &a, &b);
    tr_hit h;
    if (c->is_ray) {
        if (!tr_ray_capsule(c->p0, c->d, a, b, radius, t_max, &h)) return false;
        fill_sweep_hit(out, &h, h.normal);
        out->started_in_contact = h.t == 0.0f && tread_v3_distance(h.point, c->p0) == 0.0f;
        return true;
    }
    tr_closest cl;
    tr_closest_segment_segment(c->p0, c->p1, a, b, &cl);
    float sep = cl.distance - c->r - radius;
    int decision = start_contact(c, sep, cl.normal);
    if (decision == 0) return false;
    if (decision == 1) {
        fill_start_hit(out, sep, &cl, cl.normal, cl.normal, radius);
        return true;
    }
    if (!tr_sweep_capsule_capsule(c->p0, c->p1, c->r, c->d, a, b, radius, t_max, &h)) return false;
    fill_sweep_hit(out, &h, h.normal);
    return true;
}

bool tr_contact_capsule(tread_vec3 p0, tread_vec3 p1, float r, float half_height, float radius, float margin,
                        tr_feature_contact *out) {
    tread_vec3 a, b;
    capsule_core(half_height, &a, &b);
    tr_closest cl;
    tr_closest_segment_segment(p0, p1, a, b, &cl);
    float sep = cl.distance - r - radius;
    if (sep > margin) return false;
    out->separation = sep;
    out->point = tread_v3_mad(cl.on_shape, radius, cl.normal);
    out->normal = cl.normal;
    out->surface_normal = cl.normal;
    out->feature = 0;
    return true;
}

tread_aabb tr_cast_bounds(const tr_cast *c, float t_max) {
    if (c->is_box) {
        tr_obb box = tr_cast_obb(c);
        tread_vec3 e = tr_obb_extent(&box), end = tread_v3_mad(c->p0, t_max, c->d);
        tread_aabb b = tread_aabb_make(c->p0, end);
        b.min = tread_v3_sub(b.min, e);
        b.max = tread_v3_add(b.max, e);
        return b;
    }
    tread_vec3 e0 = tread_v3_mad(c->p0, t_max, c->d), e1 = tread_v3_mad(c->p1, t_max, c->d);
    tread_aabb box = tread_aabb_union(tread_aabb_make(c->p0, c->p1), tread_aabb_make(e0, e1));
    return tread_aabb_expand(box, c->r);
}

tr_obb tr_cast_obb(const tr_cast *c) {
    tr_obb b;
    b.center = c->p0;
    b.axis[0] = c->box_axes[0];
    b.axis[1] = c->box_axes[1];
    b.axis[2] = c->box_axes[2];
    b.half = c->box_half;
    return b;
}

tread_aabb tr_query_bounds(const tr_cast *q, float grow) {
    if (!q->is_box) return tread_aabb_expand(tread_aabb_make(q->p0, q->p1), q->r + grow);
    tr_obb box = tr_cast_obb(q);
    tread_vec3 e = tread_v3_add(tr_obb_extent(&box), tread_v3(grow, grow, grow));
    tread_aabb b;
    b.min = tread_v3_sub(q->p0, e);
    b.max = tread_v3_add(q->p0, e);
    return b;
}

// ---- the box query ------------------------------------------------------------------------------------------
// The same rule as the capsule's: a start within TR_TOUCH_TOLERANCE is decided by start_contact with the
// exact closest distance and push-out normal; otherwise the separating-axis sweep decides.

// |face . normal| below this: a contact across a face's edge, in its plane (a cosine: 0.06 degrees).
#define TR_EDGEWISE_COS 1.0e-3f

// A box query with a skin (tread_query_shape::skin) is, where it starts against something, the box within the skin
// rounded by it: the box grown by the skin has corners that reach up to skin x sqrt(3) past that, and its shallowest
// overlap can then lie along an axis the motion does not press while it goes on into the shape along the inner box's
// closest direction (a box character sliding along a yawed block, its corner against the block's face: the grown
// box's own face axis was the shallowest, the motion left it, and the box ended 5.6 mm inside the block).
static tr_obb inner_box(const tr_cast *c) {
    tr_obb b = tr_cast_obb(c);
    b.half = tread_v3_sub(b.half, tread_v3(c->box_skin, c->box_skin, c->box_skin));
    return b;
}

// Where the grown box overlaps the shape and lets the motion go (it does not press along the grown box's axis), the
// rounded box may still stop it. Only there: where the grown box stops the motion it keeps its own normal, the flat
// faces a box character is chosen for.
static bool skin_may_decide(const tr_cast *c, float grown_distance) {
    return c->box_skin > 0.0f && grown_distance < -TR_TOUCH_TOLERANCE;
}

// The rounded box touches or overlaps the shape (`inner`: the inner box's closest features, its separating axis or,
// once the skin is used up, its shallowest overlap; a box that had slid along the block on the grown box's axis had
// its inner box touching the block).
static bool skin_touches(const tr_cast *c, const tr_closest *inner) { return inner->distance - c->box_skin <= TR_TOUCH_TOLERANCE; }

void tr_box_cast_init(tr_box_cast *k, const tr_cast *c, float t_max) {
    k->c = c;
    k->box = tr_cast_obb(c);
    tread_vec3 e = tr_obb_extent(&k->box);
    tread_vec3 m = tread_v3_max(tread_v3_abs(c->p0), tread_v3_abs(c->d));
    k->scale = tr_maxf(tr_maxf(m.x, m.y), tr_maxf(m.z, tr_maxf(e.x, tr_maxf(e.y, e.z))));
    k->d_len = tread_v3_length(c->d);
    k->lo = tread_v3_sub(c->p0, e);
    k->hi = tread_v3_add(c->p0, e);
    tr_box_cast_sweep(k, t_max);
}

void tr_box_cast_sweep(tr_box_cast *k, float t_max) {
    tread_vec3 mv = tread_v3_scale(k->c->d, t_max);
    k->slo = tread_v3_min(k->lo, tread_v3_add(k->lo, mv));
    k->shi = tread_v3_max(k->hi, tread_v3_add(k->hi, mv));
    k->t_max = t_max;
}

// Conservative early-out on bounds: the swept box's bounds farther than the touch tolerance from the
// primitive's bounds on some axis cannot reach it. Returns 1: miss; 0: the start is apart (skip the closest
// test); -1: test the start. *reach_out (if given): the touch tolerance with the rounding slack (from the largest
// magnitude among the cast's coordinates, its extent and the primitive's bounds: the largest of a set, however
// grouped), for later early-outs.
static int box_bounds_test(const tr_box_cast *k, tread_vec3 lo_p, tread_vec3 hi_p, float *reach_out) {
    tread_vec3 m = tread_v3_max(tread_v3_abs(lo_p), tread_v3_abs(hi_p));
    float scale = tr_maxf(k->scale, tr_maxf(tr_maxf(m.x, m.y), m.z));
    float reach = TR_TOUCH_TOLERANCE + TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * scale;
    if (reach_out) *reach_out = reach;
    tread_vec3 lo = k->lo, hi = k->hi, slo = k->slo, shi = k->shi;
    if (lo_p.x - shi.x > reach || slo.x - hi_p.x > reach || lo_p.y - shi.y > reach || slo.y - hi_p.y > reach ||
        lo_p.z - shi.z > reach || slo.z - hi_p.z > reach)
        return 1;
    bool apart = lo_p.x - hi.x > reach || lo.x - hi_p.x > reach || lo_p.y - hi.y > reach || lo.y - hi_p.y > reach ||
                 lo_p.z - hi.z > reach || lo.z - hi_p.z > reach;
    return apart ? 0 : -1;
}

// Conservative early-out on the triangle's plane (the capsule's, for a box: its reach along the face normal is
// sum h_i |axis_i . face|): farther than `reach` from the plane at the start and at the end, on one side, the swept
// box misses (returns 1); that far at the start only, the start is apart (0); else -1. A box's bounds overlap
// those of many triangles it is far from (the floor under a wall's foot, the wall over a floor's edge).
static int box_plane_test(const tr_cast *c, tread_vec3 a, tread_vec3 face, float t_max, float reach) {
    float r = c->box_half.x * fabsf(tread_v3_dot(c->box_axes[0], face)) +
              c->box_half.y * fabsf(tread_v3_dot(c->box_axes[1], face)) +
              c->box_half.z * fabsf(tread_v3_dot(c->box_axes[2], face));
    float s0 = tread_v3_dot(face, tread_v3_sub(c->p0, a));
    if (!(fabsf(s0) - r > reach)) return -1;
    float s1 = s0 + t_max * tread_v3_dot(face, c->d);
    return (s0 > 0.0f ? s1 - r > reach : -s1 - r > reach) ? 1 : 0;
}

// Conservative early-out on the triangle's edges: each edge's line, in the triangle's plane, bounds a half-space
// (through the edge, across the plane) that holds the triangle; a box outside one of them by more than `reach` at the
// start and at the end of the cast is outside it all along (the gap is linear in t), so it misses. Separating axes
// the thirteen of the box-triangle test do not include, found before building those (a box beside a wall's triangle
// but past its end, or over a floor triangle's neighbour).
#if SHAPE_SSE
// With the three edges as SSE lanes: each lane's operations are the one-by-one loop's (below), in its order, so each
// edge decides as it would (and the answer is whether any does).
static bool box_beyond_an_edge(const tr_cast *c, tread_vec3 a, tread_vec3 b, tread_vec3 cc, tread_vec3 face, float t_max, float reach) {
    __m128 vx = _mm_setr_ps(a.x, b.x, cc.x, 0.0f), vy = _mm_setr_ps(a.y, b.y, cc.y, 0.0f), vz = _mm_setr_ps(a.z, b.z, cc.z, 0.0f);
    __m128 ex = _mm_sub_ps(_mm_setr_ps(b.x, cc.x, a.x, 0.0f), vx), ey = _mm_sub_ps(_mm_setr_ps(b.y, cc.y, a.y, 0.0f), vy),
           ez = _mm_sub_ps(_mm_setr_ps(b.z, cc.z, a.z, 0.0f), vz);
    __m128 fx = _mm_set1_ps(face.x), fy = _mm_set1_ps(face.y), fz = _mm_set1_ps(face.z);
    __m128 mx = _mm_sub_ps(_mm_mul_ps(ey, fz), _mm_mul_ps(ez, fy));
    __m128 my = _mm_sub_ps(_mm_mul_ps(ez, fx), _mm_mul_ps(ex, fz));
    __m128 mz = _mm_sub_ps(_mm_mul_ps(ex, fy), _mm_mul_ps(ey, fx));
    __m128 len = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(mx, mx), _mm_mul_ps(my, my)), _mm_mul_ps(mz, mz)));
    __m128 valid = _mm_cmpgt_ps(len, _mm_setzero_ps()), inv = _mm_div_ps(_mm_set1_ps(1.0f), len);
    mx = _mm_mul_ps(mx, inv), my = _mm_mul_ps(my, inv), mz = _mm_mul_ps(mz, inv);
    const __m128 sign = _mm_set1_ps(-0.0f);
    __m128 r = _mm_setzero_ps();
    const float h[3] = {c->box_half.x, c->box_half.y, c->box_half.z};
    for (int i = 0; i < 3; i++) {
        tread_vec3 u = c->box_axes[i];
        __m128 dot = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(u.x), mx), _mm_mul_ps(_mm_set1_ps(u.y), my)), _mm_mul_ps(_mm_set1_ps(u.z), mz));
        __m128 term = _mm_mul_ps(_mm_set1_ps(h[i]), _mm_andnot_ps(sign, dot));
        r = i == 0 ? term : _mm_add_ps(r, term);
    }
    __m128 s0 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(mx, _mm_sub_ps(_mm_set1_ps(c->p0.x), vx)), _mm_mul_ps(my, _mm_sub_ps(_mm_set1_ps(c->p0.y), vy))),
                           _mm_mul_ps(mz, _mm_sub_ps(_mm_set1_ps(c->p0.z), vz)));
    __m128 md = _mm_add_ps(_mm_add_ps(_mm_mul_ps(mx, _mm_set1_ps(c->d.x)), _mm_mul_ps(my, _mm_set1_ps(c->d.y))), _mm_mul_ps(mz, _mm_set1_ps(c->d.z)));
    __m128 s1 = _mm_add_ps(s0, _mm_mul_ps(_mm_set1_ps(t_max), md));
    __m128 rr = _mm_set1_ps(reach);
    __m128 beyond = _mm_and_ps(valid, _mm_and_ps(_mm_cmpgt_ps(_mm_sub_ps(s0, r), rr), _mm_cmpgt_ps(_mm_sub_ps(s1, r), rr)));
    return (_mm_movemask_ps(beyond) & 7) != 0;
}
#else
static bool box_beyond_an_edge(const tr_cast *c, tread_vec3 a, tread_vec3 b, tread_vec3 cc, tread_vec3 face, float t_max, float reach) {
    const tread_vec3 v[3] = {a, b, cc};
    for (int k = 0; k < 3; ++k) {
        tread_vec3 m = tread_v3_cross(tread_v3_sub(v[k == 2 ? 0 : k + 1], v[k]), face);
        float len = tread_v3_length(m);
        if (!(len > 0.0f)) continue;
        m = tread_v3_scale(m, 1.0f / len);
        float r = c->box_half.x * fabsf(tread_v3_dot(c->box_axes[0], m)) + c->box_half.y * fabsf(tread_v3_dot(c->box_axes[1], m)) +
                  c->box_half.z * fabsf(tread_v3_dot(c->box_axes[2], m));
        float s0 = tread_v3_dot(m, tread_v3_sub(c->p0, v[k]));
        float s1 = s0 + t_max * tread_v3_dot(m, c->d);
        if (s0 - r > reach && s1 - r > reach) return true;
    }
    return false;
}
#endif

static bool box_cast_triangle(const tr_cast *c, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges,
                              float t_max, tr_feature_hit *out) {
    tr_box_cast k;
    tr_box_cast_init(&k, c, t_max);
    return tr_cast_triangle_box(&k, a, b, cc, active_edges, out);
}

bool tr_cast_triangle_box(const tr_box_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges,
                          tr_feature_hit *out) {
    float reach;
    int bounds = box_bounds_test(k, tread_v3_min(a, tread_v3_min(b, cc)), tread_v3_max(a, tread_v3_max(b, cc)), &reach);
    if (bounds == 1) return false;
    return tr_cast_triangle_box_near(k, a, b, cc, active_edges, bounds == 0, reach, out);
}

bool tr_cast_triangle_box_near(const tr_box_cast *k, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges, bool apart,
                               float reach, tr_feature_hit *out) {
    const tr_cast *c = k->c;
    float t_max = k->t_max;
    tread_vec3 n = tread_v3_cross(tread_v3_sub(b, a), tread_v3_sub(cc, a));
    float twice_area = tread_v3_length(n);
    if (!(twice_area >= TR_DEGENERATE_AREA)) return false;
    tread_vec3 face = tread_v3_scale(n, 1.0f / twice_area);
    int bounds = apart ? 0 : -1;
    int plane = box_plane_test(c, a, face, t_max, reach);
    if (plane == 1) return false;
    if (plane == 0) bounds = 0;
    if (box_beyond_an_edge(c, a, b, cc, face, t_max, reach)) return false;
    const tr_obb box = k->box;
    // The triangle's separating axes, built once for the start, the graze, the skin and the sweep.
    tr_box_axes axes;
    tr_box_triangle_axes_face(&box, a, b, cc, face, &axes);
    // Only a start within the touch tolerance is decided here; one the axes set farther apart, the sweep decides,
    // unless that axis sets them farther apart than the cast travels (the sweep would miss: the capsule's rule).
    tr_box_sat sat;
    bool near = false;
    if (bounds == -1) {
        near = tr_box_triangle_sat(&box, a, b, cc, &axes, reach, &sat);
        if (!near && sat.gap - t_max * k->d_len > reach) return false;
    }
    if (near) {
        // A box moving along what it touches (its floor, a wall beside it) is decided before the closest points' work:
        // overlapping, the depth is the measure's; apart, a pair of features within the touch tolerance shows it.
        bool moving = tread_v3_length_sq(c->d) > 0.0f;
        bool grazing = moving && (sat.gap > 0.0f || sat.gap >= -TR_TOUCH_TOLERANCE) && tr_box_sat_grazes(&sat, &axes, c->d) &&
                       (sat.gap <= 0.0f || tr_box_triangle_within(&box, a, b, cc, &sat, TR_TOUCH_TOLERANCE));
        if (grazing) return false;
        tr_closest cl;
        tr_closest_box_triangle_sat(&box, a, b, cc, &sat, &cl);
        if (cl.distance <= TR_TOUCH_TOLERANCE) {
            tread_vec3 sided = facing_normal(face, cl.normal);
            tread_vec3 nn = resolve_triangle_normal(a, b, cc, active_edges, cl.on_shape, cl.normal, sided);
            // (Overlapping, the graze was decided above.)
            if (sat.gap > 0.0f && cl.distance >= -TR_TOUCH_TOLERANCE && moving && tr_box_sat_grazes(&sat, &axes, c->d))
                return false;
            if (start_contact(c, cl.distance, nn) != 0) {
                fill_start_hit(out, cl.distance, &cl, nn, sided, 0.0f);
                return true;
            }
            if (!skin_may_decide(c, cl.distance)) return false;
            tr_obb inner = inner_box(c);
            tr_box_sat sat_in;
            if (!tr_box_triangle_sat(&inner, a, b, cc, &axes, c->box_skin + reach, &sat_in)) return false;
            tr_closest in;
            tr_closest_box_triangle_sat(&inner, a, b, cc, &sat_in, &in);
            if (!skin_touches(c, &in)) return false;
            float sep = in.distance - c->box_skin;
            // (Met across the face's edge, the normal lies in the face's plane and says nothing of the side: the
            // box's centre does. A box falling past a block's bottom edge was told by rounding that the underside
            // faced up, and stood on it.)
            bool edgewise = fabsf(tread_v3_dot(face, in.normal)) < TR_EDGEWISE_COS;
            sided = facing_normal(face, edgewise ? tread_v3_sub(c->p0, a) : in.normal);
            nn = resolve_triangle_normal(a, b, cc, active_edges, in.on_shape, in.normal, sided);
            if (start_contact(c, sep, nn) == 0) return false;
            fill_start_hit(out, sep, &in, nn, sided, 0.0f);
            return true;
        }
    }
    tr_hit h;
    if (!tr_sweep_box_triangle_on(&box, c->d, a, b, cc, t_max, &axes, &h)) return false;
    // Met while only touching along another axis it does not approach on (a box sliding down a stair nosing's
    // front face reaches the plane of its underside at the nosing's lower edge): a graze, as at the start.
    tr_obb at = box;
    at.center = tread_v3_mad(box.center, h.t, c->d);
    if (tr_box_triangle_grazes_on(&at, c->d, a, b, cc, &axes)) return false;
    tread_vec3 sided = facing_normal(face, h.normal);
    h.normal = resolve_triangle_normal(a, b, cc, active_edges, h.point, h.normal, sided);
    if (!tr_presses_into(c, h.normal)) return false; // a graze or a ghost edge, as for capsules
    fill_sweep_hit(out, &h, sided);
    return true;
}

static bool box_cast_box(const tr_cast *c, tread_vec3 half, float t_max, tr_feature_hit *out) {
    tr_box_cast k;
    tr_box_cast_init(&k, c, t_max);
    int bounds = box_bounds_test(&k, tread_v3_neg(half), half, NULL);
    if (bounds == 1) return false;
    tr_obb box = k.box;
    if (bounds == -1) {
        tr_closest cl;
        tr_closest_box_box(&box, half, &cl);
        if (cl.distance <= TR_TOUCH_TOLERANCE) {
            if (cl.distance >= -TR_TOUCH_TOLERANCE && tr_box_box_grazes(&box, c->d, half)) return false;
            tread_vec3 n = cl.normal;
            if (start_contact(c, cl.distance, n) != 0 || (cl.distance < 0.0f && tr_box_box_presses_near_tie(&box, c->d, half, &n))) {
                fill_start_hit(out, cl.distance, &cl, n, tr_box_surface_normal(half, cl.on_shape, n, c->d), 0.0f);
                return true;
            }
            if (!skin_may_decide(c, cl.distance)) return false;
            tr_obb inner = inner_box(c);
            tr_closest in;
            tr_closest_box_box(&inner, half, &in);
            if (!skin_touches(c, &in)) return false;
            float sep = in.distance - c->box_skin;
            if (start_contact(c, sep, in.normal) == 0) return false;
            fill_start_hit(out, sep, &in, in.normal, tr_box_surface_normal(half, in.on_shape, in.normal, c->d), 0.0f);
            return true;
        }
    }
    tr_hit h;
    if (!tr_sweep_box_box(&box, c->d, half, t_max, &h)) return false;
    fill_sweep_hit(out, &h, tr_box_surface_normal(half, h.point, h.normal, c->d));
    return true;
}

static bool box_cast_capsule(const tr_cast *c, float half_height, float radius, float t_max, tr_feature_hit *out) {
    tread_vec3 ca, cb;
    capsule_core(half_height, &ca, &cb);
    tread_vec3 ext = tread_v3(radius, half_height + radius, radius);
    tr_box_cast k;
    tr_box_cast_init(&k, c, t_max);
    int bounds = box_bounds_test(&k, tread_v3_neg(ext), ext, NULL);
    if (bounds == 1) return false;
    tr_obb box = k.box;
    if (bounds == -1) {
        tr_closest cl;
        tr_closest_box_capsule(&box, ca, cb, radius, &cl);
        if (cl.distance <= TR_TOUCH_TOLERANCE) {
            if (start_contact(c, cl.distance, cl.normal) != 0) {
                fill_start_hit(out, cl.distance, &cl, cl.normal, cl.normal, 0.0f);
                return true;
            }
            if (!skin_may_decide(c, cl.distance)) return false;
            tr_obb inner = inner_box(c);
            tr_closest in;
            tr_closest_box_capsule(&inner, ca, cb, radius, &in);
            if (!skin_touches(c, &in)) return false;
            float sep = in.distance - c->box_skin;
            if (start_contact(c, sep, in.normal) == 0) return false;
            fill_start_hit(out, sep, &in, in.normal, in.normal, 0.0f);
            return true;
        }
    }
    tr_hit h;
    if (!tr_sweep_box_capsule(&box, c->d, ca, cb, radius, t_max, &h)) return false;
    fill_sweep_hit(out, &h, h.normal);
    return true;
}

static void fill_contact(tr_feature_contact *out, const tr_closest *cl, tread_vec3 normal, tread_vec3 surface_normal) {
    out->separation = cl->distance;
    out->point = cl->on_shape;
    out->normal = normal;
    out->surface_normal = surface_normal;
    out->feature = 0;
}

bool tr_query_contact_triangle(const tr_cast *q, tread_vec3 a, tread_vec3 b, tread_vec3 cc, uint8_t active_edges,
                               float margin, tr_feature_contact *out) {
    if (!q->is_box) return tr_contact_triangle(q->p0, q->p1, q->r, a, b, cc, active_edges, margin, out);
    tread_vec3 n = tread_v3_cross(tread_v3_sub(b, a), tread_v3_sub(cc, a));
    float twice_area = tread_v3_length(n);
    if (!(twice_area >= TR_DEGENERATE_AREA)) return false;
    tread_vec3 face = tread_v3_scale(n, 1.0f / twice_area);
    tr_obb box = tr_cast_obb(q);
    // Conservative early-outs (as the cast's): the triangle's plane, then every separating axis, farther than the
    // margin beyond rounding leave the triangle farther than the margin, with no closest points to measure.
    tread_vec3 e = tr_obb_extent(&box);
    tread_vec3 m = tread_v3_max(tread_v3_max(tread_v3_abs(q->p0), e), tread_v3_max(tread_v3_abs(a), tread_v3_max(tread_v3_abs(b), tread_v3_abs(cc))));
    float reach = margin + TR_SKIP_SLACK_ABS + TR_SKIP_SLACK_REL * tr_maxf(m.x, tr_maxf(m.y, m.z));
    if (box_plane_test(q, a, face, 0.0f, reach) != -1) return false;
    tr_box_axes axes;
    tr_box_sat sat;
    if (!tr_box_triangle_axes(&box, a, b, cc, &axes) || !tr_box_triangle_sat(&box, a, b, cc, &axes, reach, &sat)) return false;
    tr_closest cl;
    tr_closest_box_triangle_sat(&box, a, b, cc, &sat, &cl);
    if (cl.distance > margin) return false;
    tread_vec3 sided = facing_normal(face, cl.normal);
    fill_contact(out, &cl, resolve_triangle_normal(a, b, cc, active_edges, cl.on_shape, cl.normal, sided), sided);
    return true;
}

bool tr_query_contact_box(const tr_cast *q, tread_vec3 half, float margin, tr_feature_contact *out) {
    if (!q->is_box) return tr_contact_box(q->p0, q->p1, q->r, half, margin, out);
    tr_obb box = tr_cast_obb(q);
    tr_closest cl;
    tr_closest_box_box(&box, half, &cl);
    if (cl.distance > margin) return false;
    fill_contact(out, &cl, cl.normal, tr_box_surface_normal(half, cl.on_shape, cl.normal, tread_v3_zero()));
    return true;
}

bool tr_query_contact_sphere(const tr_cast *q, float radius, float margin, tr_feature_contact *out) {
    if (!q->is_box) return tr_contact_sphere(q->p0, q->p1, q->r, radius, margin, out);
    return tr_query_contact_capsule(q, 0.0f, radius, margin, out);
}

bool tr_query_contact_capsule(const tr_cast *q, float half_height, float radius, float margin, tr_feature_contact *out) {
    if (!q->is_box) return tr_contact_capsule(q->p0, q->p1, q->r, half_height, radius, margin, out);
    tread_vec3 ca, cb;
    capsule_core(half_height, &ca, &cb);
    tr_obb box = tr_cast_obb(q);
    tr_closest cl;
    tr_closest_box_capsule(&box, ca, cb, radius, &cl);
    if (cl.distance > margin) return false;
    fill_contact(out, &cl, cl.normal, cl.normal);
    return true;
}
