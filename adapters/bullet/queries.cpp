// SPDX-License-Identifier: MIT
// The backend's queries over Bullet (include/tread/backend.h's contract). Per query: the move's candidates whose
// Bullet bounds meet the query's, the filter, then every feature (a convex body whole, or each triangle of a mesh or
// heightfield that Bullet's own tree walk finds in the query's bounds) measured by Bullet's GJK (EPA when the cores
// overlap). A cast is conservative advancement on those distances: the distance between convex sets under a
// translation is convex in the fraction, so stepping to where its tangent reaches zero never passes the hit.
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <algorithm>
#include <cmath>

#include "bullet_internal.hpp"

// The contract's touch: surfaces within 0.1 mm touch (a cast starting there hits at 0 when it presses in).
#define TB_TOUCH 1.0e-4f
// The contract's "presses in": translation . normal < -TB_PRESS |translation|.
#define TB_PRESS 1.0e-4f
// Conservative advancement stops when the surfaces are this close, metres: GJK's distances in float are good to about
// 1e-6 m near the origin and a few ulps of the coordinates farther out (4e-6 m at 50 m), so a smaller gap could not
// be reached reliably; 1e-5 m is a tenth of the touch tolerance.
#define TB_CAST_GAP 1.0e-5f
// Steps of conservative advancement before giving up (a flat face converges in one, a curved one in a few).
#define TB_CAST_STEPS 64
// A point within this of a box face's plane lies on that face (edges and corners lie on two or three), metres: GJK's
// closest points land within ~1e-6 m of the surface.
#define TB_FACE_EPS 1.0e-4f
// A point within this of a triangle's corner or edge lies on it (corners first), metres: tread's TR_FEATURE_TOLERANCE,
// so that both engines put a contact on the same feature; GJK's closest points land within ~1e-6 m of it.
#define TB_TRIANGLE_FEATURE_EPS 1.0e-4f
// Every edge of a triangle real: a convex body's placeholder.
#define TB_ALL_EDGES 7u

namespace {

// The query shape as a Bullet convex shape, placed and oriented. All three are built (cheap, no allocation); `shape`
// points at the one asked for. A sphere's and a capsule's margin is their radius (Bullet's definition: the core
// point or segment grown by it), a box's is set to 0, so every surface is exact.
struct tb_shape {
    btSphereShape sphere;
    btCapsuleShape capsule;
    btBoxShape box;
    const btConvexShape *shape;
    btQuaternion rotation;
    float reach; // radius of a ball around the centre that holds the shape, metres
    bool sharp;  // margin 0 (a box, a ray's point): touching a sharp feature, GJK has no separation to measure

    explicit tb_shape(const tread_query_shape *s)
        : sphere(s->radius), capsule(s->radius, 2.0f * s->half_height),
          box(s->type == TREAD_QUERY_BOX ? tb_bt(s->half_extents) : btVector3(1, 1, 1)), shape(&sphere) {
        box.setMargin(0.0f);
        rotation = tb_bt(tread_query_shape_rotation(s));
        reach = s->radius;
        sharp = false;
        if (s->type == TREAD_QUERY_CAPSULE) shape = &capsule, reach = s->radius + s->half_height;
        if (s->type == TREAD_QUERY_BOX) shape = &box, reach = tread_v3_length(s->half_extents), sharp = true;
    }
    btTransform at(const btVector3 &p) const { return btTransform(rotation, p); }
};

// What a feature answered: the distance between the surfaces (< 0: overlap), the normal from the feature toward the
// query shape, the closest point on the feature.
struct tb_gap {
    bool ok = false;
    float d = 0.0f;
    btVector3 n{0, 1, 0}, p{0, 0, 0};
};

tb_gap tb_distance(const btConvexShape *a, const btTransform &ta, const btConvexShape *b, const btTransform &tb) {
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btGjkPairDetector gjk(a, b, &simplex, &epa);
    btDiscreteCollisionDetectorInterface::ClosestPointInput in;
    in.m_transformA = ta;
    in.m_transformB = tb;
    in.m_maximumDistanceSquared = BT_LARGE_FLOAT;
    btPointCollector out;
    gjk.getClosestPoints(in, out, nullptr);
    tb_gap g;
    if (!out.m_hasResult || !std::isfinite(out.m_distance) || out.m_normalOnBInWorld.length2() < 0.5f) return g;
    g.ok = true;
    g.d = (float)out.m_distance;
    g.n = out.m_normalOnBInWorld.normalized();
    g.p = out.m_pointInWorld;
    return g;
}

// One feature of one body, as the queries see it: its convex shape where it is.
struct tb_feature {
    int index;          // body index (its id's index)
    uint32_t feature;   // triangle or cell index; 0 for a convex body
    const tb_body *body;
    const btConvexShape *shape;
    btTransform xf;
    const btVector3 *triangle; // world-space corners of a triangle; NULL for a convex body
    uint8_t active_edges;      // triangle: bit i = edge i (corner i to i + 1) is a real edge, not a flat seam
};

tread_body_id tb_id(int index) { return tread_body_id{(uint32_t)index, 1u}; }

// Heightfield triangle k's active-edge bits (tread's corner order, world.cpp tb_heightfield_active_edges) in the
// corner order Bullet hands the triangle in, t: each of Bullet's edges is the cell's x border (both corners at one x),
// its z border, or the diagonal, and tread's triangle k = 0 numbers those diagonal, x, z as edges 0, 1, 2, k = 1 x, z,
// diagonal. Corners on one grid line share their x (or z) exactly: both are the same multiple of the spacing.
uint8_t tb_heightfield_edges(uint8_t tread_bits, int k, const btVector3 *t) {
    const unsigned diagonal = k == 0 ? 0u : 2u, x_border = k == 0 ? 1u : 0u, z_border = k == 0 ? 2u : 1u;
    uint8_t bits = 0u;
    for (int e = 0; e < 3; ++e) {
        const btVector3 &a = t[e], &b = t[(e + 1) % 3];
        unsigned edge = a.x() == b.x() ? x_border : a.z() == b.z() ? z_border : diagonal;
        bits |= (uint8_t)(((tread_bits >> edge) & 1u) << e);
    }
    return bits;
}

bool tb_passes(const tb_body &b, int index, const tread_query_filter *f) {
    tread_body_id id = tb_id(index);
    if (!(f->layer_mask & (1u << b.facts.layer)) || tread_body_id_equal(id, f->ignore_body)) return false;
    if ((b.facts.flags & TREAD_BODY_SENSOR) && !f->include_sensors) return false;
    return !f->callback || f->callback(id, b.facts.layer, b.user_data, f->context);
}

// Each triangle of a mesh or heightfield a box meets, as a feature (margin 0, world space).
struct tb_triangles : btTriangleCallback {
    const tb_body &body;
    int index;
    btTransform xf;
    void (*visit)(void *, const tb_feature &);
    void *ctx;
    tb_triangles(const tb_body &b, int i, const btTransform &x, void (*v)(void *, const tb_feature &), void *c)
        : body(b), index(i), xf(x), visit(v), ctx(c) {}

    void processTriangle(btVector3 *t, int partId, int triangleIndex) override {
        (void)partId;
        uint32_t feature = (uint32_t)triangleIndex;
        uint8_t edges = body.shape_type == TREAD_SHAPE_MESH ? body.active_edges[(size_t)triangleIndex] : (uint8_t)TB_ALL_EDGES;
        if (body.shape_type == TREAD_SHAPE_HEIGHTFIELD) {
            // tread's numbering: cell j * (count_x - 1) + i; triangle 2 cell holds sample (i + 1, j), 2 cell + 1 (i, j + 1).
            btVector3 lo = t[0], hi = t[0];
            for (int k = 1; k < 3; ++k) lo.setMin(t[k]), hi.setMax(t[k]);
            btVector3 corner = lo + body.shape_offset;
            int i = (int)std::floor(corner.x() / body.spacing_x + 0.5f), j = (int)std::floor(corner.z() / body.spacing_z + 0.5f);
            int cell = j * (body.count_x - 1) + i;
            if (!body.holes.empty() && body.holes[(size_t)cell]) return;
            bool first = false;
            for (int k = 0; k < 3; ++k)
                first = first || (t[k].x() > lo.x() + 0.5f * body.spacing_x && t[k].z() < lo.z() + 0.5f * body.spacing_z);
            feature = 2u * (uint32_t)cell + (first ? 0u : 1u);
            edges = tb_heightfield_edges(body.active_edges[feature], first ? 0 : 1, t);
        }
        btVector3 w[3] = {xf * t[0], xf * t[1], xf * t[2]};
        if (!((w[1] - w[0]).cross(w[2] - w[0]).length() >= TB_DEGENERATE_AREA)) return; // degenerate: never hit (as tread's meshes)
        btTriangleShape tri(w[0], w[1], w[2]);
        tri.setMargin(0.0f);
        tb_feature f{index, feature, &body, &tri, btTransform::getIdentity(), w, edges};
        visit(ctx, f);
    }
};

// Every feature of every candidate (the move's, or every body without a move) whose bounds meet [lo, hi] and that the
// filter lets through, in body order.
void tb_each(const tread_bullet_world *w, const tb_move *move, const tread_query_filter *filter, const btVector3 &lo, const btVector3 &hi,
             void (*visit)(void *, const tb_feature &), void *ctx) {
    size_t n = move ? move->candidates.size() : w->bodies.size();
    for (size_t k = 0; k < n; ++k) {
        int index = move ? move->candidates[k] : (int)k;
        const tb_body &b = *w->bodies[(size_t)index];
        const btBroadphaseProxy *proxy = b.object->getBroadphaseHandle();
        if (proxy && !TestAabbAgainstAabb2(lo, hi, proxy->m_aabbMin, proxy->m_aabbMax)) continue;
        if (!tb_passes(b, index, filter)) continue;
        const btTransform &xf = b.object->getWorldTransform();
        if (b.facts.convex) {
            tb_feature f{index, 0u, &b, static_cast<const btConvexShape *>(b.shape.get()), xf, nullptr, (uint8_t)TB_ALL_EDGES};
            visit(ctx, f);
            continue;
        }
        // The query's box in the shape's frame (the box around its corners, taken back).
        btVector3 llo(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT), lhi = -llo;
        btTransform inv = xf.inverse();
        for (int c = 0; c < 8; ++c) {
            btVector3 p = inv * btVector3(c & 1 ? hi.x() : lo.x(), c & 2 ? hi.y() : lo.y(), c & 4 ? hi.z() : lo.z());
            llo.setMin(p), lhi.setMax(p);
        }
        tb_triangles cb(b, index, xf, visit, ctx);
        static_cast<const btConcaveShape *>(b.shape.get())->processAllTriangles(&cb, llo, lhi);
    }
}

// Whether a contact at `p` on the feature lies on a flat seam, by tread's rule (src/world/shape.c
// resolve_triangle_normal): on an inactive edge of a triangle, or a corner both of whose edges are, or anywhere on a
// triangle with no real edge. Its normal is then the face's (tb_face_normal), not the closest points' -- a capsule
// crossing the seam inside a flat riser meets no ghost edge there.
bool tb_on_seam(const tb_feature &f, const btVector3 &p) {
    if (!f.triangle) return false;
    const btVector3 *v = f.triangle;
    bool real = true;
    if ((f.active_edges & TB_ALL_EDGES) == 0u) {
        real = false;
    } else {
        const float eps_sq = TB_TRIANGLE_FEATURE_EPS * TB_TRIANGLE_FEATURE_EPS;
        int corner = -1, edge = -1;
        float nearest = eps_sq;
        for (int i = 0; i < 3; ++i) {
            float d = (float)(p - v[i]).length2();
            if (d <= nearest) nearest = d, corner = i;
        }
        nearest = eps_sq;
        for (int i = 0; i < 3 && corner < 0; ++i) {
            btVector3 ab = v[(i + 1) % 3] - v[i], ap = p - v[i];
            float len_sq = (float)ab.length2();
            float s = len_sq > 0.0f ? std::min(std::max((float)ap.dot(ab) / len_sq, 0.0f), 1.0f) : 0.0f;
            float d = (float)(ap - ab * s).length2();
            if (d <= nearest) nearest = d, edge = i;
        }
        if (corner >= 0) real = ((f.active_edges >> corner) & 1u) || ((f.active_edges >> ((corner + 2) % 3)) & 1u);
        else if (edge >= 0) real = (f.active_edges >> edge) & 1u;
    }
    return !real;
}

// A triangle's face normal, two-sided: turned to the side the query shape's centre is on, or where the query began
// when the centre lies in the face's plane (a ray's point at its hit), or toward `n` when both do. Not toward `n`
// first: when the surfaces touch exactly (a ray's point on the face, a margin-0 box flat on it) GJK has no separation
// to take a direction from and its normal is arbitrary.
btVector3 tb_face_normal(const tb_feature &f, const btVector3 &centre, const btVector3 &start, const btVector3 &n) {
    btVector3 face = (f.triangle[1] - f.triangle[0]).cross(f.triangle[2] - f.triangle[0]).normalized();
    float side = (float)face.dot(centre - f.triangle[0]);
    if (std::fabs(side) <= TB_CAST_GAP) side = (float)face.dot(start - f.triangle[0]);
    if (std::fabs(side) <= TB_CAST_GAP) side = (float)face.dot(n);
    return side < 0.0f ? -face : face;
}

// The face normal at the feature's point: a triangle's (tb_face_normal), the box
// face meeting there that `translation` runs into most (none, or two alike: the one nearest `n`), or `n` on a
// sphere or capsule.
btVector3 tb_surface_normal(const tb_feature &f, const btVector3 &p, const btVector3 &n, const btVector3 &translation, const btVector3 &centre,
                            const btVector3 &start) {
    if (f.triangle) return tb_face_normal(f, centre, start, n);
    if (f.body->shape_type != TREAD_SHAPE_BOX) return n;
    const btMatrix3x3 &basis = f.xf.getBasis();
    btVector3 lp = f.xf.invXform(p), lt = basis.transpose() * translation, ln = basis.transpose() * n;
    const float half[3] = {f.body->half_extents.x, f.body->half_extents.y, f.body->half_extents.z};
    bool moving = translation.length2() > 0.0f, found = false;
    btVector3 best = ln;
    float best_into = 0.0f, best_along = 0.0f;
    for (int axis = 0; axis < 3; ++axis) {
        for (int s = -1; s <= 1; s += 2) {
            if (std::fabs((float)lp[axis] * (float)s - half[axis]) > TB_FACE_EPS) continue;
            btVector3 e(0, 0, 0);
            e[axis] = (btScalar)s;
            float into = moving ? -(float)lt.dot(e) : 0.0f, along = (float)ln.dot(e);
            if (!found || into > best_into + 1.0e-6f || (std::fabs(into - best_into) <= 1.0e-6f && along > best_along))
                best = e, best_into = into, best_along = along, found = true;
        }
    }
    return found ? basis * best : n;
}

// The normal of a contact at `p` where a sharp query shape (tb_shape::sharp) meets a box body or a triangle, both
// margin 0: touching, GJK has no separation to take a direction from and its normal is arbitrary (a box character
// riding a tilted plank got the plank's top as (0.55, -0.83, 0), did not press into it at the start of its ground
// probe, and lost its ground); a few tenths of a millimetre apart it is still off by 1e-3. When `p` lies inside one
// face of the body's -- not on its edges -- that face's normal is exactly the contact's at any separation; elsewhere,
// and overlapping deeper than the touch tolerance (EPA's depth direction), GJK's `n` stays.
btVector3 tb_touch_normal(const tb_shape &s, const tb_feature &f, const tb_gap &g, const btVector3 &centre, const btVector3 &start) {
    const btVector3 &p = g.p, &n = g.n;
    if (!s.sharp || g.d < -TB_TOUCH) return n;
    if (f.triangle) {
        // Inside the face: no edge (nor corner) within the feature tolerance.
        const btVector3 *v = f.triangle;
        for (int i = 0; i < 3; ++i) {
            btVector3 ab = v[(i + 1) % 3] - v[i], ap = p - v[i];
            float len_sq = (float)ab.length2();
            float t = len_sq > 0.0f ? std::min(std::max((float)ap.dot(ab) / len_sq, 0.0f), 1.0f) : 0.0f;
            if ((float)(ap - ab * t).length2() <= TB_TRIANGLE_FEATURE_EPS * TB_TRIANGLE_FEATURE_EPS) return n;
        }
        return tb_face_normal(f, centre, start, n);
    }
    if (f.body->shape_type != TREAD_SHAPE_BOX) return n;
    btVector3 lp = f.xf.invXform(p);
    const float half[3] = {f.body->half_extents.x, f.body->half_extents.y, f.body->half_extents.z};
    int faces = 0;
    btVector3 face(0, 0, 0);
    for (int axis = 0; axis < 3; ++axis)
        for (int side = -1; side <= 1; side += 2)
            if (std::fabs((float)lp[axis] * (float)side - half[axis]) <= TB_FACE_EPS) ++faces, face = btVector3(0, 0, 0), face[axis] = (btScalar)side;
    return faces == 1 ? f.xf.getBasis() * face : n;
}

// The cast of one feature (start-in-contact rule, then conservative advancement).
struct tb_cast_result {
    bool hit = false, started = false;
    float fraction = 0.0f, penetration = 0.0f;
    tb_gap gap;
};

tb_cast_result tb_cast_feature(const tb_shape &s, const btVector3 &from, const btVector3 &t, const tb_feature &f) {
    tb_cast_result r;
    tb_gap g = tb_distance(s.shape, s.at(from), f.shape, f.xf);
    if (!g.ok) return r;
    float length = (float)t.length();
    if (g.d <= TB_TOUCH) {
        // Touching or overlapping: a hit at 0 when pressing in (or asked with no translation), else not this feature.
        g.n = tb_on_seam(f, g.p) ? tb_face_normal(f, from, from, g.n) : tb_touch_normal(s, f, g, from, from);
        if (length > 0.0f && (float)t.dot(g.n) >= -TB_PRESS * length) return r;
        r.hit = r.started = true, r.penetration = g.d < 0.0f ? -g.d : 0.0f, r.gap = g;
        return r;
    }
    if (length <= 0.0f) return r;
    float lambda = 0.0f;
    for (int step = 0; step < TB_CAST_STEPS && g.d > TB_CAST_GAP; ++step) {
        float closing = -(float)t.dot(g.n);
        if (closing <= 0.0f) return r; // the distance no longer falls along the translation: it never reaches 0
        lambda += g.d / closing;
        if (lambda > 1.0f) return r;
        g = tb_distance(s.shape, s.at(from + t * lambda), f.shape, f.xf);
        if (!g.ok) return r;
    }
    if (g.d > TB_TOUCH) return r;
    // The advancement above runs on the closest points' own normal (its tangent bound needs it). A triangle met on a
    // flat seam takes the face's normal, and when the translation does not press into the face the seam was a ghost
    // edge, not a hit (as on tread's world: a capsule sliding down a riser past the riser's diagonal).
    if (tb_on_seam(f, g.p)) {
        g.n = tb_face_normal(f, from + t * lambda, from, g.n);
        if ((float)t.dot(g.n) >= -TB_PRESS * length) return r;
    } else {
        g.n = tb_touch_normal(s, f, g, from + t * lambda, from);
    }
    r.hit = true, r.fraction = lambda, r.gap = g;
    return r;
}

// Bounds of the shape swept from `from` by `t`, grown by `margin`.
void tb_sweep_bounds(const tb_shape &s, const btVector3 &from, const btVector3 &t, float margin, btVector3 &lo, btVector3 &hi) {
    btVector3 r(s.reach + margin + TB_TOUCH, s.reach + margin + TB_TOUCH, s.reach + margin + TB_TOUCH);
    lo = from, hi = from;
    lo.setMin(from + t), hi.setMax(from + t);
    lo -= r, hi += r;
}

template <class T> bool tb_before(float ka, const T &a, float kb, const T &b) {
    if (ka != kb) return ka < kb;
    if (a.body.index != b.body.index) return a.body.index < b.body.index;
    return a.feature < b.feature;
}

thread_local tb_move tb_no_move_scratch; // scratch for a query made without begin_move (a direct caller's)

tb_move *tb_scratch(void *move) { return move ? static_cast<tb_move *>(move) : &tb_no_move_scratch; }

// ---- the backend's functions ---------------------------------------------------------------------------------------

struct tb_cast_ctx {
    const tb_shape *s;
    btVector3 from, t;
    std::vector<tread_shape_hit> *all; // cast_all: every hit; else only `best`
    tread_shape_hit best;
};

void tb_cast_visit(void *ctx, const tb_feature &f) {
    tb_cast_ctx &c = *static_cast<tb_cast_ctx *>(ctx);
    tb_cast_result r = tb_cast_feature(*c.s, c.from, c.t, f);
    if (!r.hit) return;
    tread_shape_hit h{};
    h.hit = true;
    h.started_in_contact = r.started;
    h.fraction = r.fraction;
    h.penetration = r.penetration;
    h.point = tb_tr(r.gap.p);
    h.normal = tb_tr(r.gap.n);
    h.surface_normal = tb_tr(tb_surface_normal(f, r.gap.p, r.gap.n, c.t, c.from + c.t * r.fraction, c.from));
    h.body = tb_id(f.index);
    h.feature = f.feature;
    if (c.all) c.all->push_back(h);
    else if (!c.best.hit || tb_before(h.fraction, h, c.best.fraction, c.best)) c.best = h;
}

void tb_cast_shape(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                   const tread_query_filter *filter, tread_shape_hit *out_hit) {
    const auto *w = static_cast<const tread_bullet_world *>(context);
    tb_shape s(shape);
    tb_cast_ctx c{&s, tb_bt(position), tb_bt(translation), nullptr, tread_shape_hit{}};
    btVector3 lo, hi;
    tb_sweep_bounds(s, c.from, c.t, 0.0f, lo, hi);
    tb_each(w, static_cast<const tb_move *>(move), filter, lo, hi, tb_cast_visit, &c);
    *out_hit = c.best;
}

void tb_cast_shape_all(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                       const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count, bool *out_overflow) {
    const auto *w = static_cast<const tread_bullet_world *>(context);
    tb_move *m = tb_scratch(move);
    m->hits.clear();
    tb_shape s(shape);
    tb_cast_ctx c{&s, tb_bt(position), tb_bt(translation), &m->hits, tread_shape_hit{}};
    btVector3 lo, hi;
    tb_sweep_bounds(s, c.from, c.t, 0.0f, lo, hi);
    tb_each(w, static_cast<const tb_move *>(move), filter, lo, hi, tb_cast_visit, &c);
    std::sort(m->hits.begin(), m->hits.end(),
              [](const tread_shape_hit &a, const tread_shape_hit &b) { return tb_before(a.fraction, a, b.fraction, b); });
    int n = (int)std::min(m->hits.size(), (size_t)std::max(capacity, 0));
    std::copy(m->hits.begin(), m->hits.begin() + n, hits);
    *out_count = n;
    *out_overflow = m->hits.size() > (size_t)n;
}

void tb_cast_ray(void *context, void *move, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter, tread_ray_hit *out_hit) {
    // A ray is the cast of a point: a sphere of radius 0 (margin 0), so every surface is met where it is.
    tread_query_shape point = tread_query_sphere(1.0f);
    tb_shape s(&point);
    s.sphere.setUnscaledRadius(0.0f);
    s.reach = 0.0f;
    s.sharp = true;
    tb_cast_ctx c{&s, tb_bt(origin), tb_bt(translation), nullptr, tread_shape_hit{}};
    btVector3 lo, hi;
    tb_sweep_bounds(s, c.from, c.t, 0.0f, lo, hi);
    tb_each(static_cast<const tread_bullet_world *>(context), static_cast<const tb_move *>(move), filter, lo, hi, tb_cast_visit, &c);
    *out_hit = tread_ray_hit{};
    if (!c.best.hit) return;
    out_hit->hit = true;
    out_hit->fraction = c.best.fraction;
    out_hit->point = c.best.point;
    out_hit->normal = c.best.surface_normal; // the face's, toward the origin's side
    out_hit->body = c.best.body;
    out_hit->feature = c.best.feature;
}

struct tb_contact_ctx {
    const tb_shape *s;
    btVector3 at;
    float margin;
    std::vector<tread_contact> *all; // contacts: every one; closest: only `best`
    tread_contact best;
    bool found;
};

void tb_contact_visit(void *ctx, const tb_feature &f) {
    tb_contact_ctx &c = *static_cast<tb_contact_ctx *>(ctx);
    tb_gap g = tb_distance(c.s->shape, c.s->at(c.at), f.shape, f.xf);
    if (!g.ok || g.d > c.margin) return;
    tread_contact k{};
    k.separation = g.d;
    k.point = tb_tr(g.p);
    k.normal = tb_tr(tb_on_seam(f, g.p) ? tb_face_normal(f, c.at, c.at, g.n) : tb_touch_normal(*c.s, f, g, c.at, c.at));
    k.surface_normal = tb_tr(tb_surface_normal(f, g.p, g.n, btVector3(0, 0, 0), c.at, c.at));
    k.body = tb_id(f.index);
    k.feature = f.feature;
    if (c.all) c.all->push_back(k);
    else if (!c.found || tb_before(k.separation, k, c.best.separation, c.best)) c.best = k, c.found = true;
}

void tb_collect_contacts(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, float margin,
                         const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count, bool *out_overflow) {
    tb_move *m = tb_scratch(move);
    m->contacts.clear();
    tb_shape s(shape);
    tb_contact_ctx c{&s, tb_bt(position), margin, &m->contacts, tread_contact{}, false};
    btVector3 lo, hi;
    tb_sweep_bounds(s, c.at, btVector3(0, 0, 0), margin, lo, hi);
    tb_each(static_cast<const tread_bullet_world *>(context), static_cast<const tb_move *>(move), filter, lo, hi, tb_contact_visit, &c);
    std::sort(m->contacts.begin(), m->contacts.end(),
              [](const tread_contact &a, const tread_contact &b) { return tb_before(a.separation, a, b.separation, b); });
    int n = (int)std::min(m->contacts.size(), (size_t)std::max(capacity, 0));
    std::copy(m->contacts.begin(), m->contacts.begin() + n, contacts);
    *out_count = n;
    *out_overflow = m->contacts.size() > (size_t)n;
}

void tb_closest(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                const tread_query_filter *filter, tread_distance_result *out_result) {
    tb_shape s(shape);
    tb_contact_ctx c{&s, tb_bt(position), max_distance, nullptr, tread_contact{}, false};
    btVector3 lo, hi;
    tb_sweep_bounds(s, c.at, btVector3(0, 0, 0), max_distance, lo, hi);
    tb_each(static_cast<const tread_bullet_world *>(context), static_cast<const tb_move *>(move), filter, lo, hi, tb_contact_visit, &c);
    *out_result = tread_distance_result{};
    if (!c.found) return;
    out_result->found = true;
    out_result->distance = c.best.separation;
    out_result->point_on_world = c.best.point;
    out_result->point_on_shape = tread_v3_mad(c.best.point, c.best.separation, c.best.normal);
    out_result->normal = c.best.normal;
    out_result->body = c.best.body;
    out_result->feature = c.best.feature;
}

struct tb_gather : btBroadphaseAabbCallback {
    const tread_bullet_world *w;
    std::vector<int> *out;
    bool process(const btBroadphaseProxy *proxy) override {
        int index = tb_index_of(w, static_cast<const btCollisionObject *>(proxy->m_clientObject));
        if (index >= 0) out->push_back(index);
        return true;
    }
};

// A move's candidates, gathered once by Bullet's broadphase over the move's bounds (its own tree walk allocates its
// traversal stack; the adapter's vectors are reused from move to move).
tread_result tb_begin(void *context, const tread_aabb *bounds, void **out_move) {
    auto *w = static_cast<tread_bullet_world *>(context);
    std::unique_ptr<tb_move> m;
    {
        std::lock_guard<std::mutex> lock(w->pool_lock);
        if (!w->pool.empty()) m = std::move(w->pool.back()), w->pool.pop_back();
    }
    if (!m) m.reset(new tb_move);
    m->candidates.clear();
    tb_gather g;
    g.w = w;
    g.out = &m->candidates;
    w->world->getBroadphase()->aabbTest(tb_bt(bounds->min), tb_bt(bounds->max), g);
    std::sort(m->candidates.begin(), m->candidates.end());
    *out_move = m.release();
    return TREAD_OK;
}

void tb_end(void *context, void *move) {
    auto *w = static_cast<tread_bullet_world *>(context);
    std::lock_guard<std::mutex> lock(w->pool_lock);
    w->pool.emplace_back(static_cast<tb_move *>(move));
}

bool tb_body_facts(void *context, tread_body_id id, tread_backend_body *out) {
    const tb_body *b = tb_find(static_cast<const tread_bullet_world *>(context), id);
    if (!b) return false;
    *out = b->facts;
    return true;
}

bool tb_body_motion(void *context, tread_body_id id, tread_backend_motion *out) {
    const tb_body *b = tb_find(static_cast<const tread_bullet_world *>(context), id);
    if (!b) return false;
    *out = b->motion;
    return true;
}

float tb_largest_motion(void *context) { return static_cast<const tread_bullet_world *>(context)->largest_motion; }
bool tb_has_one_way(void *context) { return static_cast<const tread_bullet_world *>(context)->has_one_way; }

} // namespace

void tb_fill_backend(tread_bullet_world *w, tread_backend *b) {
    b->context = w;
    b->begin_move = tb_begin;
    b->end_move = tb_end;
    b->cast_shape = tb_cast_shape;
    b->cast_shape_all = tb_cast_shape_all;
    b->cast_ray = tb_cast_ray;
    b->collect_contacts = tb_collect_contacts;
    b->closest = tb_closest;
    b->body = tb_body_facts;
    b->motion = tb_body_motion;
    b->largest_motion = tb_largest_motion;
    b->has_one_way = tb_has_one_way;
}
