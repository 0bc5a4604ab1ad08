// SPDX-License-Identifier: MIT
// The adapter's world: Bullet objects made from tread_body_defs, ids, and each body's motion over the last frame.
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <tuple>

#include "bullet_internal.hpp"

// A body's id: index = position in the adapter's list, generation 1 (bodies are never removed), as a fresh tread
// world numbers its bodies.
static tread_body_id tb_id_of(size_t position) { return tread_body_id{(uint32_t)position, 1u}; }

tb_body *tb_find(const tread_bullet_world *w, tread_body_id id) {
    if (!w || id.generation != 1u || id.index >= w->bodies.size()) return nullptr;
    return w->bodies[id.index].get();
}

int tb_index_of(const tread_bullet_world *w, const btCollisionObject *object) {
    int slot = object->getUserIndex3() - 1;
    if (slot < 0 || (size_t)slot >= w->bodies.size() || w->bodies[(size_t)slot]->object.get() != object) return -1;
    return slot;
}

static btTransform tb_place(const tb_body &b, tread_transform t) {
    btQuaternion q = tb_bt(t.q);
    return btTransform(q, tb_bt(t.p) + quatRotate(q, b.shape_offset));
}

tread_result tread_bullet_world_create(tread_bullet_world **out_world) {
    if (!out_world) return TREAD_ERR_NULL_ARGUMENT;
    *out_world = nullptr;
    auto *w = new (std::nothrow) tread_bullet_world;
    if (!w) return TREAD_ERR_OUT_OF_MEMORY;
    w->configuration.reset(new btDefaultCollisionConfiguration());
    w->dispatcher.reset(new btCollisionDispatcher(w->configuration.get()));
    w->broadphase.reset(new btDbvtBroadphase());
    w->owned_world.reset(new btCollisionWorld(w->dispatcher.get(), w->broadphase.get(), w->configuration.get()));
    w->world = w->owned_world.get();
    *out_world = w;
    return TREAD_OK;
}

tread_result tread_bullet_world_wrap(btCollisionWorld *world, tread_bullet_world **out_world) {
    if (!world || !out_world) return TREAD_ERR_NULL_ARGUMENT;
    auto *w = new (std::nothrow) tread_bullet_world;
    if (!w) return TREAD_ERR_OUT_OF_MEMORY;
    w->world = world;
    *out_world = w;
    return TREAD_OK;
}

void tread_bullet_world_destroy(tread_bullet_world *w) {
    if (!w) return;
    for (auto &b : w->bodies) w->world->removeCollisionObject(b->object.get());
    w->bodies.clear();
    w->owned_world.reset();
    delete w;
}

btCollisionWorld *tread_bullet_collision_world(tread_bullet_world *w) { return w ? w->world : nullptr; }

btCollisionObject *tread_bullet_object(tread_bullet_world *w, tread_body_id id) {
    tb_body *b = tb_find(w, id);
    return b ? b->object.get() : nullptr;
}

// Two faces meeting at an edge are one flat surface when their normals' cosine is at least this (about 1 degree):
// tread's TR_INACTIVE_EDGE_COS (src/world/mesh.c), so that both engines call the same seams inactive.
#define TB_INACTIVE_EDGE_COS 0.99985f

static btVector3 tb_corner(const tb_body &b, int triangle, int corner) {
    const float *v = &b.vertices[3 * (size_t)b.indices[3 * (size_t)triangle + (size_t)corner]];
    return btVector3(v[0], v[1], v[2]);
}

// Each triangle's active edges by tread's rule (src/world/mesh.c compute_active_edges), so that a contact on a flat
// seam inside the mesh takes the face's normal on Bullet as on tread's world (queries.cpp tb_resolve_normal). Bullet's
// own answer to internal edges (btInternalEdgeUtility) corrects a solver's manifold points, not the distances the
// adapter measures, and it judges convexity from the winding, which two-sided triangles do not have. Vertices at the
// same position are one; an edge shared by exactly two non-degenerate triangles is inactive when their faces are
// flat (the second's turned to the first's winding); every other edge (boundary, crease, non-manifold) is active.
static void tb_mesh_active_edges(tb_body &b, int triangle_count) {
    int vertex_count = (int)b.vertices.size() / 3;
    std::vector<int> order((size_t)vertex_count), canon((size_t)vertex_count);
    for (int i = 0; i < vertex_count; ++i) order[(size_t)i] = i;
    auto position = [&](int i) { return std::make_tuple(b.vertices[3 * (size_t)i], b.vertices[3 * (size_t)i + 1], b.vertices[3 * (size_t)i + 2]); };
    std::sort(order.begin(), order.end(), [&](int u, int v) { return std::make_pair(position(u), u) < std::make_pair(position(v), v); });
    for (size_t k = 0; k < order.size(); ++k)
        canon[(size_t)order[k]] = k > 0 && position(order[k]) == position(order[k - 1]) ? canon[(size_t)order[k - 1]] : order[k];

    struct edge {
        int lo, hi, code; // canonical endpoints, lo < hi; 3 * triangle + edge
    };
    std::vector<edge> edges;
    std::vector<btVector3> normals((size_t)triangle_count);
    for (int t = 0; t < triangle_count; ++t) {
        btVector3 n = (tb_corner(b, t, 1) - tb_corner(b, t, 0)).cross(tb_corner(b, t, 2) - tb_corner(b, t, 0));
        if (!(n.length() >= TB_DEGENERATE_AREA)) continue;
        normals[(size_t)t] = n.normalized();
        for (int e = 0; e < 3; ++e) {
            int u = canon[(size_t)b.indices[3 * (size_t)t + (size_t)e]], v = canon[(size_t)b.indices[3 * (size_t)t + (size_t)(e + 1) % 3]];
            edges.push_back(edge{std::min(u, v), std::max(u, v), 3 * t + e});
        }
    }
    std::sort(edges.begin(), edges.end(), [](const edge &x, const edge &y) { return std::tie(x.lo, x.hi, x.code) < std::tie(y.lo, y.hi, y.code); });
    b.active_edges.assign((size_t)triangle_count, 0u);
    for (size_t i = 0; i < edges.size();) {
        size_t j = i + 1;
        while (j < edges.size() && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi) ++j;
        bool active = true;
        if (j - i == 2 && edges[i].code / 3 != edges[i + 1].code / 3) {
            int t1 = edges[i].code / 3, t2 = edges[i + 1].code / 3;
            btVector3 n2 = normals[(size_t)t2];
            // Consistent winding runs the shared edge in opposite directions; otherwise compare against t2's back.
            if (canon[(size_t)b.indices[(size_t)edges[i].code]] == canon[(size_t)b.indices[(size_t)edges[i + 1].code]]) n2 = -n2;
            active = normals[(size_t)t1].dot(n2) < TB_INACTIVE_EDGE_COS;
        }
        for (size_t k = i; k < j && active; ++k) b.active_edges[(size_t)(edges[k].code / 3)] |= (uint8_t)(1u << (edges[k].code % 3));
        i = j;
    }
}

// A heightfield sample in the body's frame (sample (0, 0) at the origin, as tread's heightfields).
static btVector3 tb_sample(const tb_body &b, int i, int j) {
    return btVector3((float)i * b.spacing_x, b.heights[(size_t)j * (size_t)b.count_x + (size_t)i], (float)j * b.spacing_z);
}

// Cell (i, j) has triangles: inside the grid and not a hole.
static bool tb_cell_solid(const tb_body &b, int i, int j) {
    if (i < 0 || j < 0 || i >= b.count_x - 1 || j >= b.count_z - 1) return false;
    return b.holes.empty() || !b.holes[(size_t)j * (size_t)(b.count_x - 1) + (size_t)i];
}

// The upward normal of triangle k of cell (i, j), tread's triangles (src/world/heightfield.c): 0 = (s00, s11, s10),
// 1 = (s00, s01, s11), split along s00-s11 as Bullet's flipped quad edges are.
static btVector3 tb_cell_normal(const tb_body &b, int i, int j, int k) {
    btVector3 s00 = tb_sample(b, i, j), s11 = tb_sample(b, i + 1, j + 1);
    btVector3 other = k == 0 ? tb_sample(b, i + 1, j) : tb_sample(b, i, j + 1);
    btVector3 n = k == 0 ? (s11 - s00).cross(other - s00) : (other - s00).cross(s11 - s00);
    return n.normalized();
}

// Each heightfield triangle's active edges by tread's rule (src/world/heightfield.c triangle_edges), in tread's corner
// order: an edge is inactive when the triangle across it is flat with this one within TB_INACTIVE_EDGE_COS; the grid's
// border and a hole's make real edges. Both triangles face up, so no winding turns. queries.cpp tb_heightfield_edges
// maps the bits to the corner order Bullet hands a triangle in. Without them a capsule resting across a flat cell's
// diagonal met the diagonal as an edge and took a tilted normal that tread's world does not report.
static void tb_heightfield_active_edges(tb_body &b) {
    int cells_x = b.count_x - 1, cells_z = b.count_z - 1;
    b.active_edges.assign(2 * (size_t)cells_x * (size_t)cells_z, 0u);
    // Bit `bit` of triangle k of (i, j) when the neighbour triangle nk of cell (ni, nj) is missing or not flat with it.
    auto mark = [&](int i, int j, int k, const btVector3 &n, int ni, int nj, int nk, unsigned bit) {
        if (!tb_cell_solid(b, ni, nj) || n.dot(tb_cell_normal(b, ni, nj, nk)) < TB_INACTIVE_EDGE_COS)
            b.active_edges[2 * ((size_t)j * (size_t)cells_x + (size_t)i) + (size_t)k] |= (uint8_t)bit;
    };
    for (int j = 0; j < cells_z; ++j) {
        for (int i = 0; i < cells_x; ++i) {
            btVector3 n0 = tb_cell_normal(b, i, j, 0), n1 = tb_cell_normal(b, i, j, 1);
            mark(i, j, 0, n0, i, j, 1, 1u);     // edge 0: the diagonal
            mark(i, j, 0, n0, i + 1, j, 1, 2u); // edge 1: the x = i + 1 border
            mark(i, j, 0, n0, i, j - 1, 1, 4u); // edge 2: the z = j border
            mark(i, j, 1, n1, i - 1, j, 0, 1u); // edge 0: the x = i border
            mark(i, j, 1, n1, i, j + 1, 0, 2u); // edge 1: the z = j + 1 border
            mark(i, j, 1, n1, i, j, 0, 4u);     // edge 2: the diagonal
        }
    }
}

// The Bullet shape of a definition, margins 0 where Bullet allows (the adapter measures triangles with margin 0 itself;
// spheres' and capsules' margins are their radius by Bullet's definition, so their surfaces are exact).
static bool tb_make_shape(tb_body &b, const tread_shape_def &s) {
    b.shape_type = s.type;
    switch (s.type) {
    case TREAD_SHAPE_SPHERE:
        b.shape.reset(new btSphereShape(s.radius));
        b.facts.local_bounds = {{-s.radius, -s.radius, -s.radius}, {s.radius, s.radius, s.radius}};
        return true;
    case TREAD_SHAPE_CAPSULE:
        b.shape.reset(new btCapsuleShape(s.radius, 2.0f * s.half_height));
        b.facts.local_bounds = {{-s.radius, -s.half_height - s.radius, -s.radius}, {s.radius, s.half_height + s.radius, s.radius}};
        return true;
    case TREAD_SHAPE_BOX: {
        auto *box = new btBoxShape(tb_bt(s.half_extents));
        box->setMargin(0.0f); // btBoxShape keeps its outer half extents when the margin changes
        b.shape.reset(box);
        b.half_extents = s.half_extents;
        b.facts.local_bounds = {tread_v3_neg(s.half_extents), s.half_extents};
        return true;
    }
    case TREAD_SHAPE_MESH: {
        const tread_mesh_def &m = s.mesh;
        if (!m.vertices || !m.indices || m.vertex_count < 3 || m.triangle_count < 1) return false;
        tread_aabb bounds = {m.vertices[0], m.vertices[0]};
        for (int i = 0; i < m.vertex_count; ++i) {
            b.vertices.insert(b.vertices.end(), {m.vertices[i].x, m.vertices[i].y, m.vertices[i].z});
            bounds.min = tread_v3_min(bounds.min, m.vertices[i]);
            bounds.max = tread_v3_max(bounds.max, m.vertices[i]);
        }
        for (int i = 0; i < 3 * m.triangle_count; ++i) {
            if (m.indices[i] >= (uint32_t)m.vertex_count) return false;
            b.indices.push_back((int)m.indices[i]);
        }
        b.mesh_arrays.reset(new btTriangleIndexVertexArray(m.triangle_count, b.indices.data(), 3 * (int)sizeof(int), m.vertex_count,
                                                           b.vertices.data(), 3 * (int)sizeof(float)));
        tb_mesh_active_edges(b, m.triangle_count);
        auto *mesh = new btBvhTriangleMeshShape(b.mesh_arrays.get(), true);
        mesh->setMargin(0.0f);
        b.shape.reset(mesh);
        b.facts.local_bounds = bounds;
        return true;
    }
    case TREAD_SHAPE_HEIGHTFIELD: {
        const tread_heightfield_def &h = s.heightfield;
        if (!h.heights || h.count_x < 2 || h.count_z < 2) return false;
        b.count_x = h.count_x, b.count_z = h.count_z, b.spacing_x = h.spacing_x, b.spacing_z = h.spacing_z;
        b.heights.assign(h.heights, h.heights + (size_t)h.count_x * (size_t)h.count_z);
        if (h.holes) b.holes.assign(h.holes, h.holes + (size_t)(h.count_x - 1) * (size_t)(h.count_z - 1));
        float lo = *std::min_element(b.heights.begin(), b.heights.end()), hi = *std::max_element(b.heights.begin(), b.heights.end());
        // flipQuadEdges: each cell's diagonal runs from sample (i, j) to (i + 1, j + 1), as tread's heightfields do.
        auto *field = new btHeightfieldTerrainShape(h.count_x, h.count_z, b.heights.data(), lo, hi, 1, true);
        field->setLocalScaling(btVector3(h.spacing_x, 1.0f, h.spacing_z));
        field->setMargin(0.0f);
        b.shape.reset(field);
        tb_heightfield_active_edges(b);
        // Bullet centres a heightfield on its bounds; tread puts sample (0, 0) at the body's origin.
        float width = h.spacing_x * (float)(h.count_x - 1), depth = h.spacing_z * (float)(h.count_z - 1);
        b.shape_offset = btVector3(0.5f * width, 0.5f * (lo + hi), 0.5f * depth);
        b.facts.local_bounds = {{0, lo, 0}, {width, hi, depth}};
        return true;
    }
    default: return false; // voxels: Bullet has no voxel shape
    }
}

tread_result tread_bullet_add_body(tread_bullet_world *w, const tread_body_def *def, tread_body_id *out_id) {
    if (!w || !def || !out_id) return TREAD_ERR_NULL_ARGUMENT;
    if (def->layer >= TREAD_MAX_LAYERS) return TREAD_ERR_INVALID_ARGUMENT;
    std::unique_ptr<tb_body> b(new (std::nothrow) tb_body);
    if (!b) return TREAD_ERR_OUT_OF_MEMORY;
    if (!tb_make_shape(*b, def->shape)) return def->shape.type == TREAD_SHAPE_MESH || def->shape.type == TREAD_SHAPE_HEIGHTFIELD ? TREAD_ERR_INVALID_MESH : TREAD_ERR_INVALID_SHAPE;
    b->facts.type = def->type;
    b->facts.flags = def->flags;
    b->facts.layer = def->layer;
    b->facts.convex = def->shape.type == TREAD_SHAPE_BOX || def->shape.type == TREAD_SHAPE_SPHERE || def->shape.type == TREAD_SHAPE_CAPSULE;
    tread_transform t = def->transform;
    t.q = tread_quat_normalize(t.q);
    b->motion.previous = b->motion.current = t;
    if (def->type != TREAD_BODY_STATIC) b->motion.linear_velocity = def->linear_velocity, b->motion.angular_velocity = def->angular_velocity;
    b->motion.surface = def->surface;
    b->user_data = def->user_data;
    b->object.reset(new btCollisionObject());
    b->object->setCollisionShape(b->shape.get());
    b->object->setWorldTransform(tb_place(*b, t));
    b->object->setUserIndex3((int)w->bodies.size() + 1);
    if (def->type != TREAD_BODY_STATIC) b->object->setCollisionFlags(btCollisionObject::CF_KINEMATIC_OBJECT);
    else b->object->setCollisionFlags(btCollisionObject::CF_STATIC_OBJECT);
    w->world->addCollisionObject(b->object.get());
    w->has_one_way = w->has_one_way || (def->flags & TREAD_BODY_ONE_WAY) != 0u;
    *out_id = tb_id_of(w->bodies.size());
    w->bodies.push_back(std::move(b));
    return TREAD_OK;
}

tread_result tread_bullet_body_move_to(tread_bullet_world *w, tread_body_id id, tread_transform transform, tread_vec3 linear_velocity,
                                       tread_vec3 angular_velocity) {
    tb_body *b = tb_find(w, id);
    if (!b) return TREAD_ERR_INVALID_ID;
    if (b->facts.type != TREAD_BODY_DYNAMIC) return TREAD_ERR_INVALID_ARGUMENT;
    b->pending = transform;
    b->pending.q = tread_quat_normalize(transform.q);
    b->has_pending = true;
    b->motion.linear_velocity = linear_velocity;
    b->motion.angular_velocity = angular_velocity;
    return TREAD_OK;
}

// The farthest any point of the body's bounds moved from previous to current: the origin's move plus the chord the
// turn sweeps at the bounds' far corner.
static float tb_motion_extent(const tb_body &b) {
    const tread_backend_motion &m = b.motion;
    tread_quat turn = tread_quat_mul(m.current.q, tread_quat_conjugate(m.previous.q));
    float w = std::fabs(turn.w) > 1.0f ? 1.0f : std::fabs(turn.w);
    float angle = 2.0f * std::acos(w);
    tread_vec3 far = tread_v3_max(tread_v3_abs(b.facts.local_bounds.min), tread_v3_abs(b.facts.local_bounds.max));
    return tread_v3_distance(m.current.p, m.previous.p) + 2.0f * tread_v3_length(far) * std::sin(0.5f * angle);
}

static void tb_settle(tread_bullet_world *w, tb_body &b) {
    b.object->setWorldTransform(tb_place(b, b.motion.current));
    w->world->updateSingleAabb(b.object.get());
}

tread_result tread_bullet_advance(tread_bullet_world *w, float dt) {
    if (!w) return TREAD_ERR_NULL_ARGUMENT;
    if (!(dt >= 0.0f) || !std::isfinite(dt)) return TREAD_ERR_INVALID_ARGUMENT;
    w->largest_motion = 0.0f;
    for (auto &bp : w->bodies) {
        tb_body &b = *bp;
        b.motion.previous = b.motion.current;
        if (b.facts.type == TREAD_BODY_KINEMATIC) {
            tread_transform &c = b.motion.current;
            c.p = tread_v3_mad(c.p, dt, b.motion.linear_velocity);
            float rate = tread_v3_length(b.motion.angular_velocity);
            if (rate > 0.0f)
                c.q = tread_quat_normalize(
                    tread_quat_mul(tread_quat_from_axis_angle(tread_v3_scale(b.motion.angular_velocity, 1.0f / rate), rate * dt), c.q));
        } else if (b.facts.type == TREAD_BODY_DYNAMIC && b.has_pending) {
            b.motion.current = b.pending;
            b.has_pending = false;
        }
        if (b.facts.type != TREAD_BODY_STATIC) {
            tb_settle(w, b);
            w->largest_motion = std::max(w->largest_motion, tb_motion_extent(b));
        }
    }
    return TREAD_OK;
}

tread_result tread_bullet_set_motion(tread_bullet_world *w, tread_body_id id, tread_transform previous, tread_transform current,
                                     tread_vec3 linear_velocity, tread_vec3 angular_velocity) {
    tb_body *b = tb_find(w, id);
    if (!b) return TREAD_ERR_INVALID_ID;
    b->motion.previous = previous;
    b->motion.current = current;
    b->motion.linear_velocity = linear_velocity;
    b->motion.angular_velocity = angular_velocity;
    tb_settle(w, *b);
    // The largest motion is a bound over every body: recomputed, since this body's old motion may have been the largest.
    w->largest_motion = 0.0f;
    for (auto &o : w->bodies)
        if (o->facts.type != TREAD_BODY_STATIC) w->largest_motion = std::max(w->largest_motion, tb_motion_extent(*o));
    return TREAD_OK;
}

tread_backend tread_bullet_backend(tread_bullet_world *w) {
    tread_backend b{};
    tb_fill_backend(w, &b);
    return b;
}
