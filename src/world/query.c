// SPDX-License-Identifier: MIT
// World queries: ray casts, shape casts, contact collection and closest distance. Each walks the
// broadphase (explicit stack, front to back for casts), hands the query to the body's shape in the body's
// local frame, and gathers results in a deterministic order (fraction or separation, body, feature).
#include "world_internal.h"
#include "world_query.h"
#include "../validate.h"

#include <string.h>

// Casts to and contacts with one body, in world space. A closest-hit caller prunes with the t it returns.
typedef float tr_body_fn(void *ctx, int32_t slot, float t_max);

// Does the body's world AABB, grown by `inflate`, meet the cast segment? (A cheap test before the shape.)
static bool body_in_reach(const tr_body *b, tread_vec3 o, tread_vec3 inv_d, tread_vec3 inflate, float t_max) {
    return tr_ray_aabb_entry(o, inv_d, b->aabb, inflate, t_max) <= t_max;
}

// What this thread's last query walked (tr_world_last_walk): a test's window on the broad phase's cost.
static _Thread_local tr_walk_stats last_walk;

tr_walk_stats tr_world_last_walk(void) { return last_walk; }

// ---- four candidates at a time ----------------------------------------------------------------------------------

static unsigned scope_reach4_scalar(const tr_scope *s, int first, tread_vec3 o, tread_vec3 inv_d, tread_vec3 inflate, float t_max) {
    const float *p = s->bounds + first;
    const int n = s->stride;
    unsigned mask = 0u;
    for (int k = 0; k < 4; ++k) {
        tread_aabb box = {tread_v3(p[k], p[n + k], p[2 * n + k]), tread_v3(p[3 * n + k], p[4 * n + k], p[5 * n + k])};
        if (tr_ray_aabb_entry(o, inv_d, box, inflate, t_max) <= t_max) mask |= 1u << k;
    }
    return mask;
}

#if defined(__SSE2__) || defined(_M_X64)
#define QUERY_SSE 1
// tr_ray_aabb_entry on four boxes: the same operations in the same order (MINPS/MAXPS return the second operand
// on ties, as its MINSS/MAXSS do), so the same bits.
static unsigned scope_reach4_sse(const tr_scope *s, int first, tread_vec3 o, tread_vec3 inv_d, tread_vec3 inflate, float t_max) {
    // A miss returns t_max + 1 there; past 2^24 that rounds to t_max, which then counts as reached.
    if (t_max + 1.0f == t_max) return 0xFu;
    const float *p = s->bounds + first;
    const int n = s->stride;
    const float oa[3] = {o.x, o.y, o.z}, ia[3] = {inv_d.x, inv_d.y, inv_d.z}, ga[3] = {inflate.x, inflate.y, inflate.z};
    __m128 near_[3], far_[3];
    for (int a = 0; a < 3; ++a) {
        __m128 origin = _mm_set1_ps(oa[a]), inv = _mm_set1_ps(ia[a]), grow = _mm_set1_ps(ga[a]);
        __m128 t0 = _mm_mul_ps(_mm_sub_ps(_mm_sub_ps(_mm_loadu_ps(p + a * n), grow), origin), inv);
        __m128 t1 = _mm_mul_ps(_mm_sub_ps(_mm_add_ps(_mm_loadu_ps(p + (3 + a) * n), grow), origin), inv);
        near_[a] = _mm_min_ps(t0, t1);
        far_[a] = _mm_max_ps(t0, t1);
    }
    __m128 tmin = _mm_max_ps(_mm_max_ps(near_[0], near_[1]), _mm_max_ps(near_[2], _mm_setzero_ps()));
    __m128 tmax = _mm_min_ps(_mm_min_ps(far_[0], far_[1]), _mm_min_ps(far_[2], _mm_set1_ps(t_max)));
    return (unsigned)_mm_movemask_ps(_mm_cmple_ps(tmin, tmax));
}
#else
#define QUERY_SSE 0
#endif

unsigned tr_scope_reach4(const tr_scope *scope, int first, tread_vec3 o, tread_vec3 inv_d, tread_vec3 inflate, float t_max, bool simd) {
    TR_ASSERT(scope && first >= 0 && first + 4 <= scope->stride && first < scope->count);
#if QUERY_SSE
    if (simd) return scope_reach4_sse(scope, first, o, inv_d, inflate, t_max);
#endif
    (void)simd;
    return scope_reach4_scalar(scope, first, o, inv_d, inflate, t_max);
}

// The lowest lane set in a non-zero mask of four.
static inline int lowest_lane(unsigned mask) {
#if defined(__GNUC__)
    return __builtin_ctz(mask);
#else
    return mask & 1u ? 0 : mask & 2u ? 1 : mask & 4u ? 2 : 3;
#endif
}

// visit_bodies over a move's candidates: the few bodies its one walk found near it, four tested at a time (results do
// not depend on the visiting order: ties are broken by body and feature). (Apart from the tree's walk, whose stacks
// and registers cost every query of a move a longer prologue.)
static void visit_scope(const tread_world *w, const tr_scope *scope, tread_vec3 o, tread_vec3 inv_d, tread_vec3 inflate, float t_max,
                        const tread_query_filter *filter, tr_body_fn *fn, void *ctx) {
    for (int first = 0; first < scope->count; first += 4) {
        // The candidates in reach, lowest first (lanes past the count masked off): a loop over the set lanes only.
        unsigned in_reach = tr_scope_reach4(scope, first, o, inv_d, inflate, t_max, true);
        if (scope->count - first < 4) in_reach &= (1u << (scope->count - first)) - 1u;
        float tested = t_max;
        for (; in_reach != 0u; in_reach &= in_reach - 1u) {
            int k = lowest_lane(in_reach);
            int32_t slot = scope->slots[first + k];
            const tr_body *b = &w->bodies[slot];
            // A hit found since the four were tested shortened the segment: test this one again, as testing one at a
            // time would have (the same work, the same hits).
            if (t_max < tested && !body_in_reach(b, o, inv_d, inflate, t_max)) continue;
            if (!tr_filter_accepts(filter, b, (uint32_t)slot)) continue;
            t_max = fn(ctx, slot, t_max);
        }
    }
    last_walk.nodes = 0;
    last_walk.scanned = 0;
}

// visit_bodies over the whole world: its tree, nodes visited nearest first so that closest-hit queries prune early,
// then the bodies waiting outside it.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void visit_tree(const tread_world *w, tread_vec3 o, tread_vec3 inv_d, tread_vec3 inflate, float t_max, const tread_query_filter *filter,
                       tr_body_fn *fn, void *ctx);

// Visit every body whose AABB grown by `inflate` meets the segment o + t d, t in [0, t_max] (t_max shrinks as fn finds
// hits): the scope's, or (NULL) the world's.
static void visit_bodies(const tread_world *w, const tr_scope *scope, tread_vec3 o, tread_vec3 d, tread_vec3 inflate, float t_max,
                         const tread_query_filter *filter, tr_body_fn *fn, void *ctx) {
    tread_vec3 inv_d = tr_inverse_direction(d);
    if (scope) visit_scope(w, scope, o, inv_d, inflate, t_max, filter, fn, ctx);
    else visit_tree(w, o, inv_d, inflate, t_max, filter, fn, ctx);
}

static void visit_tree(const tread_world *w, tread_vec3 o, tread_vec3 inv_d, tread_vec3 inflate, float t_max, const tread_query_filter *filter,
                       tr_body_fn *fn, void *ctx) {
    int nodes = 0;
    if (w->tree.node_count > 0) {
        int32_t stack[TR_BVH_STACK_SIZE];
        float entry[TR_BVH_STACK_SIZE];
        int top = 0;
        float root_t = tr_ray_aabb_entry(o, inv_d, w->tree.nodes[0].box, inflate, t_max);
        if (root_t <= t_max) {
            stack[top] = 0;
            entry[top++] = root_t;
        }
        while (top > 0) {
            --top;
            ++nodes;
            if (entry[top] > t_max) continue; // a closer hit was found since this node was pushed
            const tr_bvh_node *node = &w->tree.nodes[stack[top]];
            if (node->count > 0) {
                for (int i = 0; i < node->count; ++i) {
                    int32_t slot = w->tree_body[w->tree.items[node->first + i]];
                    if (slot < 0) continue; // removed since the last rebuild
                    const tr_body *b = &w->bodies[slot];
                    // A one-body leaf's box is that body's AABB, already tested (and its entry checked against
                    // the current t_max above), so only shared leaves test each body.
                    if (node->count > 1 && !body_in_reach(b, o, inv_d, inflate, t_max)) continue;
                    if (!tr_filter_accepts(filter, b, (uint32_t)slot)) continue;
                    t_max = fn(ctx, slot, t_max);
                }
                continue;
            }
            int32_t l = node->first, r = node->first + 1;
            float tl = tr_ray_aabb_entry(o, inv_d, w->tree.nodes[l].box, inflate, t_max);
            float tr = tr_ray_aabb_entry(o, inv_d, w->tree.nodes[r].box, inflate, t_max);
            // Push the farther child first so the nearer one is popped first.
            if (tl > tr) {
                int32_t s = l; l = r; r = s;
                float f = tl; tl = tr; tr = f;
            }
            TR_ASSERT(top + 2 <= TR_BVH_STACK_SIZE);
            if (tr <= t_max) { stack[top] = r; entry[top++] = tr; }
            if (tl <= t_max) { stack[top] = l; entry[top++] = tl; }
        }
    }
    for (int i = 0; i < w->pending_count; ++i) {
        int32_t slot = w->pending[i];
        const tr_body *b = &w->bodies[slot];
        if (!body_in_reach(b, o, inv_d, inflate, t_max) || !tr_filter_accepts(filter, b, (uint32_t)slot)) continue;
        t_max = fn(ctx, slot, t_max);
    }
    last_walk.nodes = nodes;
    last_walk.scanned = w->pending_count;
}

// ---- one body -------------------------------------------------------------------------------------------

// A body turned by exactly the identity rotation, +0 +0 +0 1 (every unturned body: tread_quat_identity()).
// Rotating by it, either way, leaves each component as it is but a -0, which comes out +0 (the rotation's zero terms
// are added to it): so adding +0 is the whole rotation, bit for bit, without its two cross products
// (tests/test_unturned_bodies.c).
static bool unturned(const tread_transform *t) {
    static const tread_quat identity = {0.0f, 0.0f, 0.0f, 1.0f};
    return memcmp(&t->q, &identity, sizeof identity) == 0;
}

static inline tread_vec3 to_local_point(const tread_transform *t, bool plain, tread_vec3 v) {
    return plain ? tread_v3_add(tread_v3_sub(v, t->p), tread_v3_zero()) : tread_transform_inv_point(*t, v);
}

static inline tread_vec3 to_local_vector(const tread_transform *t, bool plain, tread_vec3 v) {
    return plain ? tread_v3_add(v, tread_v3_zero()) : tread_transform_inv_vector(*t, v);
}

static inline tread_vec3 to_world_point(const tread_transform *t, bool plain, tread_vec3 v) {
    return plain ? tread_v3_add(tread_v3_add(v, tread_v3_zero()), t->p) : tread_transform_point(*t, v);
}

static inline tread_vec3 to_world_vector(const tread_transform *t, bool plain, tread_vec3 v) {
    return plain ? tread_v3_add(v, tread_v3_zero()) : tread_transform_vector(*t, v);
}

// Hand a world-space cast to a body's shape in its local frame; hits come back through fn (local space).
static void cast_body(const tr_body *b, const tr_cast *world_cast, float t_max, tr_hit_fn *fn, void *ctx) {
    tr_cast c;
    const bool plain = unturned(&b->transform);
    c.p0 = to_local_point(&b->transform, plain, world_cast->p0);
    c.p1 = to_local_point(&b->transform, plain, world_cast->p1);
    c.d = to_local_vector(&b->transform, plain, world_cast->d);
    c.r = world_cast->r;
    c.is_ray = world_cast->is_ray;
    c.is_box = world_cast->is_box;
    c.box_half = world_cast->box_half;
    c.box_skin = world_cast->box_skin;
    if (c.is_box)
        for (int i = 0; i < 3; i++) c.box_axes[i] = to_local_vector(&b->transform, plain, world_cast->box_axes[i]);
    tr_feature_hit hit;
    switch (b->shape_type) {
    case TREAD_SHAPE_SPHERE:
        if (tr_cast_sphere(&c, b->radius, t_max, &hit)) fn(ctx, &hit);
        break;
    case TREAD_SHAPE_CAPSULE:
        if (tr_cast_capsule(&c, b->half_height, b->radius, t_max, &hit)) fn(ctx, &hit);
        break;
    case TREAD_SHAPE_BOX:
        if (tr_cast_box(&c, b->half_extents, t_max, &hit)) fn(ctx, &hit);
        break;
    case TREAD_SHAPE_MESH:
        tr_mesh_cast(b->mesh, &c, t_max, fn, ctx);
        break;
    case TREAD_SHAPE_HEIGHTFIELD:
        tr_heightfield_cast(b->heightfield, &c, t_max, fn, ctx);
        break;
    case TREAD_SHAPE_VOXELS:
        tr_voxels_cast(b->voxels, &c, t_max, fn, ctx);
        break;
    default:
        TR_ASSERT(false);
    }
}

static void contact_body(const tr_body *b, const tr_cast *world_query, float margin, tr_contact_fn *fn, void *ctx) {
    tr_cast q = *world_query;
    const bool plain = unturned(&b->transform);
    q.p0 = to_local_point(&b->transform, plain, world_query->p0);
    q.p1 = to_local_point(&b->transform, plain, world_query->p1);
    q.d = tread_v3_zero();
    if (q.is_box)
        for (int i = 0; i < 3; i++) q.box_axes[i] = to_local_vector(&b->transform, plain, world_query->box_axes[i]);
    tr_feature_contact c;
    switch (b->shape_type) {
    case TREAD_SHAPE_SPHERE:
        if (tr_query_contact_sphere(&q, b->radius, margin, &c)) fn(ctx, &c);
        break;
    case TREAD_SHAPE_CAPSULE:
        if (tr_query_contact_capsule(&q, b->half_height, b->radius, margin, &c)) fn(ctx, &c);
        break;
    case TREAD_SHAPE_BOX:
        if (tr_query_contact_box(&q, b->half_extents, margin, &c)) fn(ctx, &c);
        break;
    case TREAD_SHAPE_MESH:
        tr_mesh_query_contacts(b->mesh, &q, margin, fn, ctx);
        break;
    case TREAD_SHAPE_HEIGHTFIELD:
        tr_heightfield_query_contacts(b->heightfield, &q, margin, fn, ctx);
        break;
    case TREAD_SHAPE_VOXELS:
        tr_voxels_query_contacts(b->voxels, &q, margin, fn, ctx);
        break;
    default:
        TR_ASSERT(false);
    }
}

// ---- result ordering -------------------------------------------------------------------------------------

static bool before(float ka, uint32_t body_a, uint32_t feature_a, float kb, uint32_t body_b, uint32_t feature_b) {
    if (ka != kb) return ka < kb;
    if (body_a != body_b) return body_a < body_b;
    return feature_a < feature_b;
}

// A caller's result buffer kept sorted, holding the best `capacity` entries of `size` bytes.
typedef struct sorted_buffer {
    void *items;
    size_t size;
    int capacity;
    int count;
    bool overflow;
} sorted_buffer;

// Insert at `position` (found by the caller's ordering); when full, the worst entry is dropped.
static void sorted_insert(sorted_buffer *buf, const void *item, int position) {
    char *base = (char *)buf->items;
    if (buf->count == buf->capacity) {
        buf->overflow = true;
        if (position >= buf->capacity) return;
        --buf->count; // drop the worst
    }
    memmove(base + (size_t)(position + 1) * buf->size, base + (size_t)position * buf->size, (size_t)(buf->count - position) * buf->size);
    memcpy(base + (size_t)position * buf->size, item, buf->size);
    ++buf->count;
}

// ---- validation ---------------------------------------------------------------------------------------------

// A query shape's up as a unit vector, normalised without overflow (validated: never zero).
static tread_vec3 shape_up(const tread_query_shape *s) {
    tread_vec3 up = tread_v3_zero();
    bool direction = tr_v3_direction(s->up, &up);
    TR_ASSERT(direction);
    (void)direction;
    return up;
}

// The query shape in world space (no checks: the shape was validated or built by the controller): a capsule's
// core segment and radius, a sphere, or the upright box (centre and axes).
static void prepare_shape(const tread_query_shape *s, tread_vec3 position, tr_cast *q) {
    q->is_box = false;
    q->is_ray = false;
    q->d = tread_v3_zero();
    q->box_half = tread_v3_zero();
    q->box_skin = 0.0f;
    q->box_axes[0] = q->box_axes[1] = q->box_axes[2] = tread_v3_zero();
    if (s->type == TREAD_QUERY_BOX) {
        q->p0 = q->p1 = position;
        q->r = 0.0f;
        q->is_box = true;
        q->box_half = s->half_extents;
        q->box_skin = s->skin;
        tr_upright_axes(shape_up(s), q->box_axes);
        return;
    }
    q->r = s->radius;
    if (s->type == TREAD_QUERY_SPHERE) {
        q->p0 = q->p1 = position;
        return;
    }
    tread_vec3 up = shape_up(s);
    q->p0 = tread_v3_mad(position, -s->half_height, up);
    q->p1 = tread_v3_mad(position, s->half_height, up);
}

static tread_result check_up(tread_vec3 up) {
    if (!tread_v3_is_finite(up)) return tr_error(TREAD_ERR_NOT_FINITE, "shape.up has a NaN or infinite component");
    tread_vec3 unit;
    if (!tr_v3_direction(up, &unit)) return tr_error(TREAD_ERR_INVALID_SHAPE, "shape.up is the zero vector; expected a direction");
    return TREAD_OK;
}

static tread_result validate_shape(const tread_query_shape *s, tread_vec3 position) {
    if (!s) return tr_error(TREAD_ERR_NULL_ARGUMENT, "shape is NULL");
    tread_result res = tr_check_cookie(s->internal_cookie, "shape", "tread_query_shape",
                                       "tread_query_shape_default() or tread_query_capsule() / tread_query_sphere() / tread_query_box()");
    if (res != TREAD_OK) return res;
    res = tr_check_point("position", position);
    if (res != TREAD_OK) return res;
    if (s->type == TREAD_QUERY_BOX) {
        tread_vec3 h = s->half_extents;
        if (!tread_v3_is_finite(h))
            return tr_error(TREAD_ERR_NOT_FINITE, "shape.half_extents = (%g, %g, %g) has a NaN or infinite component", (double)h.x,
                            (double)h.y, (double)h.z);
        if (!(h.x > 0.0f && h.y > 0.0f && h.z > 0.0f) || h.x > TR_MAX_COORDINATE || h.y > TR_MAX_COORDINATE || h.z > TR_MAX_COORDINATE)
            return tr_error(TREAD_ERR_INVALID_SHAPE, "shape.half_extents = (%g, %g, %g); expected each > 0", (double)h.x, (double)h.y,
                            (double)h.z);
        float smallest = tr_minf(h.x, tr_minf(h.y, h.z));
        if (!(s->skin >= 0.0f && s->skin < smallest))
            return tr_error(isfinite(s->skin) ? TREAD_ERR_INVALID_SHAPE : TREAD_ERR_NOT_FINITE,
                            "shape.skin is %g; expected 0 <= skin < %g (the smallest half extent)", (double)s->skin, (double)smallest);
        return check_up(s->up);
    }
    if (!isfinite(s->radius) || !isfinite(s->half_height))
        return tr_error(TREAD_ERR_NOT_FINITE, "shape.radius = %g, shape.half_height = %g; expected finite numbers", (double)s->radius,
                        (double)s->half_height);
    if (!(s->radius > 0.0f) || s->radius > TR_MAX_COORDINATE)
        return tr_error(TREAD_ERR_INVALID_SHAPE, "shape.radius is %g; expected > 0", (double)s->radius);
    if (s->type == TREAD_QUERY_SPHERE) return TREAD_OK;
    if (s->type != TREAD_QUERY_CAPSULE) return tr_error(TREAD_ERR_INVALID_SHAPE, "shape.type is %d; expected a tread_query_shape_type", (int)s->type);
    if (s->half_height < 0.0f || s->half_height > TR_MAX_COORDINATE)
        return tr_error(TREAD_ERR_INVALID_SHAPE, "shape.half_height is %g; expected >= 0", (double)s->half_height);
    return check_up(s->up);
}

static tread_result check_buffer(const void *items, int capacity, const int *count, const bool *overflow) {
    if (!count || !overflow) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_count or out_overflow is NULL");
    if (capacity < 0) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "capacity is %d; expected >= 0", capacity);
    if (capacity > 0 && !items) return tr_error(TREAD_ERR_NULL_ARGUMENT, "the result buffer is NULL with capacity %d", capacity);
    return TREAD_OK;
}

static tread_result check_margin(const char *name, float margin) {
    return tr_check_range(name, margin, 0.0f, TR_MAX_COORDINATE, "m");
}

static const tread_query_filter *filter_or_default(const tread_query_filter *filter, tread_query_filter *storage) {
    if (filter) return filter;
    *storage = tread_query_filter_default();
    return storage;
}

// ---- casts -------------------------------------------------------------------------------------------------

typedef struct cast_query {
    const tread_world *w;
    const tr_scope *scope; // NULL: the whole world
    tr_cast cast;
    bool all;
    bool ray_output; // the all-hits buffer holds tread_ray_hit instead of tread_shape_hit
    // closest
    tread_shape_hit best;
    // all
    sorted_buffer buf;
    float window; // keep only hits within this fraction of the nearest (< 0: every hit)
    // the body being visited
    int32_t slot;
    float t_max;
} cast_query;

static tread_shape_hit to_world_hit(const tr_body *b, int32_t slot, const tr_feature_hit *h) {
    tread_shape_hit out;
    out.hit = true;
    out.started_in_contact = h->started_in_contact;
    out.fraction = h->t;
    out.penetration = h->penetration;
    const bool plain = unturned(&b->transform);
    out.point = to_world_point(&b->transform, plain, h->point);
    out.normal = to_world_vector(&b->transform, plain, h->normal);
    out.surface_normal = to_world_vector(&b->transform, plain, h->surface_normal);
    out.body.index = (uint32_t)slot;
    out.body.generation = b->generation;
    out.character = -1;
    out.feature = h->feature;
    return out;
}

static tread_ray_hit to_ray_hit(const tread_shape_hit *h) {
    tread_ray_hit out;
    out.hit = h->hit;
    out.fraction = h->fraction;
    out.point = h->point;
    out.normal = h->normal;
    out.body = h->body;
    out.character = -1;
    out.feature = h->feature;
    return out;
}

static float on_feature_hit(void *ctx, const tr_feature_hit *h) {
    cast_query *q = (cast_query *)ctx;
    const tr_body *b = &q->w->bodies[q->slot];
    tread_shape_hit hit = to_world_hit(b, q->slot, h);
    if (!q->all) {
        if (!q->best.hit || before(hit.fraction, hit.body.index, hit.feature, q->best.fraction, q->best.body.index, q->best.feature)) {
            q->best = hit;
            q->t_max = hit.fraction;
        }
        return q->t_max;
    }
    int pos = q->buf.count;
    if (q->ray_output) {
        const tread_ray_hit *items = (const tread_ray_hit *)q->buf.items;
        while (pos > 0 && before(hit.fraction, hit.body.index, hit.feature, items[pos - 1].fraction, items[pos - 1].body.index, items[pos - 1].feature)) --pos;
        tread_ray_hit ray = to_ray_hit(&hit);
        sorted_insert(&q->buf, &ray, pos);
    } else {
        const tread_shape_hit *items = (const tread_shape_hit *)q->buf.items;
        while (pos > 0 && before(hit.fraction, hit.body.index, hit.feature, items[pos - 1].fraction, items[pos - 1].body.index, items[pos - 1].feature)) --pos;
        sorted_insert(&q->buf, &hit, pos);
        // Hits beyond the window of the nearest so far are not wanted: stop looking past it (the bound only falls,
        // and never below the final nearest's window, so every wanted hit is still found).
        if (q->window >= 0.0f && q->buf.count > 0) q->t_max = tr_minf(q->t_max, items[0].fraction + q->window);
    }
    return q->t_max;
}

static float on_body_cast(void *ctx, int32_t slot, float t_max) {
    cast_query *q = (cast_query *)ctx;
    q->slot = slot;
    q->t_max = t_max;
    cast_body(&q->w->bodies[slot], &q->cast, t_max, on_feature_hit, q);
    return q->t_max;
}

static void run_cast(cast_query *q, const tread_query_filter *filter) {
    // Grow node boxes by the query's half size around the segment's midpoint, then cast that point.
    tread_vec3 mid = tread_v3_scale(tread_v3_add(q->cast.p0, q->cast.p1), 0.5f);
    tread_vec3 half = tread_v3_add(tread_v3_scale(tread_v3_abs(tread_v3_sub(q->cast.p1, q->cast.p0)), 0.5f),
                                   tread_v3(q->cast.r, q->cast.r, q->cast.r));
    if (q->cast.is_box) {
        tr_obb box = tr_cast_obb(&q->cast);
        half = tr_obb_extent(&box);
    }
    // Touching counts as a hit, so reach TR_TOUCH_TOLERANCE past the shape.
    half = tread_v3_add(half, tread_v3(TR_TOUCH_TOLERANCE, TR_TOUCH_TOLERANCE, TR_TOUCH_TOLERANCE));
    q->t_max = 1.0f;
    visit_bodies(q->w, q->scope, mid, q->cast.d, half, 1.0f, filter, on_body_cast, q);
}

static void begin_shape_cast(cast_query *q, const tread_world *w, const tr_scope *scope, const tread_query_shape *shape,
                             tread_vec3 position, tread_vec3 translation) {
    // Field by field: prepare_shape sets the whole cast, and zeroing all of it first cost 34 instructions a cast.
    q->w = w;
    q->scope = scope;
    prepare_shape(shape, position, &q->cast);
    q->cast.d = translation;
    q->all = false;
    q->ray_output = false;
    memset(&q->best, 0, sizeof q->best); // (what a miss reports: zeros)
    q->buf = (sorted_buffer){NULL, 0, 0, 0, false};
    q->window = 0.0f;
    q->slot = 0;
    q->t_max = 0.0f;
}

void tr_world_cast_shape(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                         tread_vec3 translation, const tread_query_filter *filter, tread_shape_hit *out_hit) {
    TR_ASSERT(w && shape && filter && out_hit);
    cast_query q;
    begin_shape_cast(&q, w, scope, shape, position, translation);
    run_cast(&q, filter);
    *out_hit = q.best;
}

void tr_world_cast_shape_near(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                              tread_vec3 translation, const tread_query_filter *filter, float window, tread_shape_hit *hits, int capacity,
                              int *out_count, bool *out_overflow) {
    TR_ASSERT(w && shape && filter && out_count && out_overflow && capacity >= 0 && (hits || capacity == 0));
    cast_query q;
    begin_shape_cast(&q, w, scope, shape, position, translation);
    q.all = true;
    q.window = window;
    q.buf.items = hits;
    q.buf.size = sizeof(tread_shape_hit);
    q.buf.capacity = capacity;
    run_cast(&q, filter);
    *out_count = window >= 0.0f ? tr_hits_within_window(hits, q.buf.count, window) : q.buf.count;
    *out_overflow = q.buf.overflow;
}

void tr_world_cast_shape_all(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                             tread_vec3 translation, const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count,
                             bool *out_overflow) {
    tr_world_cast_shape_near(w, scope, shape, position, translation, filter, -1.0f, hits, capacity, out_count, out_overflow);
}

int tr_hits_within_window(const tread_shape_hit *hits, int count, float window) {
    while (count > 0 && hits[count - 1].fraction > hits[0].fraction + window) --count;
    return count;
}

static tread_result check_cast(const tread_world *w, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation) {
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    tread_result r = validate_shape(shape, position);
    if (r != TREAD_OK) return r;
    return tr_check_point("translation", translation);
}

tread_result tread_world_cast_shape(const tread_world *w, const tread_query_shape *shape, tread_vec3 position,
                                    tread_vec3 translation, const tread_query_filter *filter, tread_shape_hit *out_hit) {
    if (!out_hit) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_hit is NULL");
    tread_result r = check_cast(w, shape, position, translation);
    if (r != TREAD_OK) return r;
    if ((r = tr_check_filter(filter, "filter")) != TREAD_OK) return r;
    tread_query_filter storage;
    tr_world_cast_shape(w, NULL, shape, position, translation, filter_or_default(filter, &storage), out_hit);
    return TREAD_OK;
}

tread_result tread_world_cast_shape_all(const tread_world *w, const tread_query_shape *shape, tread_vec3 position,
                                        tread_vec3 translation, const tread_query_filter *filter, tread_shape_hit *hits,
                                        int capacity, int *out_count, bool *out_overflow) {
    tread_result r = check_buffer(hits, capacity, out_count, out_overflow);
    if (r != TREAD_OK) return r;
    if ((r = check_cast(w, shape, position, translation)) != TREAD_OK) return r;
    if ((r = tr_check_filter(filter, "filter")) != TREAD_OK) return r;
    tread_query_filter storage;
    tr_world_cast_shape_all(w, NULL, shape, position, translation, filter_or_default(filter, &storage), hits, capacity, out_count,
                            out_overflow);
    return TREAD_OK;
}

// ---- rays (shape casts of a point, reported as ray hits) ----------------------------------------------------

static void begin_ray(cast_query *q, const tread_world *w, const tr_scope *scope, tread_vec3 origin, tread_vec3 translation) {
    memset(q, 0, sizeof *q);
    q->w = w;
    q->scope = scope;
    q->cast.p0 = q->cast.p1 = origin;
    q->cast.r = 0.0f;
    q->cast.d = translation;
    q->cast.is_ray = true;
}

void tr_world_cast_ray(const tread_world *w, const tr_scope *scope, tread_vec3 origin, tread_vec3 translation,
                       const tread_query_filter *filter, tread_ray_hit *out_hit) {
    TR_ASSERT(w && filter && out_hit);
    cast_query q;
    begin_ray(&q, w, scope, origin, translation);
    run_cast(&q, filter);
    *out_hit = to_ray_hit(&q.best);
}

static tread_result check_ray(const tread_world *w, tread_vec3 origin, tread_vec3 translation) {
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    tread_result r = tr_check_point("origin", origin);
    if (r != TREAD_OK) return r;
    return tr_check_point("translation", translation);
}

tread_result tread_world_cast_ray(const tread_world *w, tread_vec3 origin, tread_vec3 translation,
                                  const tread_query_filter *filter, tread_ray_hit *out_hit) {
    if (!out_hit) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_hit is NULL");
    tread_result r = check_ray(w, origin, translation);
    if (r != TREAD_OK) return r;
    if ((r = tr_check_filter(filter, "filter")) != TREAD_OK) return r;
    tread_query_filter storage;
    tr_world_cast_ray(w, NULL, origin, translation, filter_or_default(filter, &storage), out_hit);
    return TREAD_OK;
}

tread_result tread_world_cast_ray_all(const tread_world *w, tread_vec3 origin, tread_vec3 translation,
                                      const tread_query_filter *filter, tread_ray_hit *hits, int capacity, int *out_count,
                                      bool *out_overflow) {
    tread_result r = check_buffer(hits, capacity, out_count, out_overflow);
    if (r != TREAD_OK) return r;
    if ((r = check_ray(w, origin, translation)) != TREAD_OK) return r;
    if ((r = tr_check_filter(filter, "filter")) != TREAD_OK) return r;
    tread_query_filter storage;
    cast_query q;
    begin_ray(&q, w, NULL, origin, translation);
    q.all = true;
    q.ray_output = true;
    q.buf.items = hits;
    q.buf.size = sizeof(tread_ray_hit);
    q.buf.capacity = capacity;
    run_cast(&q, filter_or_default(filter, &storage));
    *out_count = q.buf.count;
    *out_overflow = q.buf.overflow;
    return TREAD_OK;
}

// ---- contacts and closest distance -------------------------------------------------------------------------

typedef struct contact_query {
    const tread_world *w;
    const tr_scope *scope; // NULL: the whole world
    tr_cast query; // d = 0
    float margin;
    int32_t slot;
    bool closest_only;
    sorted_buffer buf;         // all contacts (collect)
    tread_distance_result best; // closest only
} contact_query;

static tread_contact to_world_contact(const tr_body *b, int32_t slot, const tr_feature_contact *c) {
    tread_contact out;
    out.separation = c->separation;
    const bool plain = unturned(&b->transform);
    out.point = to_world_point(&b->transform, plain, c->point);
    out.normal = to_world_vector(&b->transform, plain, c->normal);
    out.surface_normal = to_world_vector(&b->transform, plain, c->surface_normal);
    out.body.index = (uint32_t)slot;
    out.body.generation = b->generation;
    out.character = -1;
    out.feature = c->feature;
    return out;
}

static void on_feature_contact(void *ctx, const tr_feature_contact *c) {
    contact_query *q = (contact_query *)ctx;
    const tr_body *b = &q->w->bodies[q->slot];
    tread_contact contact = to_world_contact(b, q->slot, c);
    if (q->closest_only) {
        tread_distance_result *best = &q->best;
        if (best->found && !before(contact.separation, contact.body.index, contact.feature, best->distance, best->body.index, best->feature)) return;
        best->found = true;
        best->distance = contact.separation;
        best->point_on_world = contact.point;
        // The closest points are `separation` apart along the normal.
        best->point_on_shape = tread_v3_mad(contact.point, contact.separation, contact.normal);
        best->normal = contact.normal;
        best->body = contact.body;
        best->character = -1;
        best->feature = contact.feature;
        return;
    }
    const tread_contact *items = (const tread_contact *)q->buf.items;
    int pos = q->buf.count;
    while (pos > 0 && before(contact.separation, contact.body.index, contact.feature, items[pos - 1].separation, items[pos - 1].body.index, items[pos - 1].feature)) --pos;
    sorted_insert(&q->buf, &contact, pos);
}

static float on_body_contact(void *ctx, int32_t slot, float t_max) {
    contact_query *q = (contact_query *)ctx;
    q->slot = slot;
    contact_body(&q->w->bodies[slot], &q->query, q->margin, on_feature_contact, q);
    return t_max;
}

static void run_contacts(contact_query *q, const tread_query_filter *filter) {
    tread_vec3 mid = tread_v3_scale(tread_v3_add(q->query.p0, q->query.p1), 0.5f);
    float grow = q->query.r + q->margin;
    tread_vec3 half = tread_v3_add(tread_v3_scale(tread_v3_abs(tread_v3_sub(q->query.p1, q->query.p0)), 0.5f), tread_v3(grow, grow, grow));
    if (q->query.is_box) {
        tr_obb box = tr_cast_obb(&q->query);
        half = tread_v3_add(tr_obb_extent(&box), tread_v3(grow, grow, grow));
    }
    visit_bodies(q->w, q->scope, mid, tread_v3_zero(), half, 0.0f, filter, on_body_contact, q);
}

static void begin_contacts(contact_query *q, const tread_world *w, const tr_scope *scope, const tread_query_shape *shape,
                           tread_vec3 position, float margin) {
    // Field by field, as begin_shape_cast.
    q->w = w;
    q->scope = scope;
    prepare_shape(shape, position, &q->query);
    q->margin = margin;
    q->slot = 0;
    q->closest_only = false;
    q->buf = (sorted_buffer){NULL, 0, 0, 0, false};
    memset(&q->best, 0, sizeof q->best); // (what finding nothing reports: zeros)
}

void tr_world_collect_contacts(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                               float margin, const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count,
                               bool *out_overflow) {
    TR_ASSERT(w && shape && filter && out_count && out_overflow && margin >= 0.0f && capacity >= 0 && (contacts || capacity == 0));
    contact_query q;
    begin_contacts(&q, w, scope, shape, position, margin);
    q.buf.items = contacts;
    q.buf.size = sizeof(tread_contact);
    q.buf.capacity = capacity;
    run_contacts(&q, filter);
    *out_count = q.buf.count;
    *out_overflow = q.buf.overflow;
}

void tr_world_closest(const tread_world *w, const tr_scope *scope, const tread_query_shape *shape, tread_vec3 position,
                      float max_distance, const tread_query_filter *filter, tread_distance_result *out_result) {
    TR_ASSERT(w && shape && filter && out_result && max_distance >= 0.0f);
    contact_query q;
    begin_contacts(&q, w, scope, shape, position, max_distance);
    q.closest_only = true;
    run_contacts(&q, filter);
    *out_result = q.best;
}

tread_result tread_world_collect_contacts(const tread_world *w, const tread_query_shape *shape, tread_vec3 position, float margin,
                                          const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count,
                                          bool *out_overflow) {
    tread_result r = check_buffer(contacts, capacity, out_count, out_overflow);
    if (r != TREAD_OK) return r;
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    if ((r = validate_shape(shape, position)) != TREAD_OK) return r;
    if ((r = check_margin("margin", margin)) != TREAD_OK) return r;
    if ((r = tr_check_filter(filter, "filter")) != TREAD_OK) return r;
    tread_query_filter storage;
    tr_world_collect_contacts(w, NULL, shape, position, margin, filter_or_default(filter, &storage), contacts, capacity, out_count,
                              out_overflow);
    return TREAD_OK;
}

tread_result tread_world_closest(const tread_world *w, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                                 const tread_query_filter *filter, tread_distance_result *out_result) {
    if (!out_result) return tr_error(TREAD_ERR_NULL_ARGUMENT, "out_result is NULL");
    if (!w) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    tread_result r = validate_shape(shape, position);
    if (r != TREAD_OK) return r;
    if ((r = check_margin("max_distance", max_distance)) != TREAD_OK) return r;
    if ((r = tr_check_filter(filter, "filter")) != TREAD_OK) return r;
    tread_query_filter storage;
    tr_world_closest(w, NULL, shape, position, max_distance, filter_or_default(filter, &storage), out_result);
    return TREAD_OK;
}

// ---- query definitions ---------------------------------------------------------------------------------------

tread_query_filter tread_query_filter_default(void) { return tr_query_filter_default(); }

tread_query_shape tread_query_shape_default(void) { return tr_query_shape_default(); }

tread_query_shape tread_query_box(tread_vec3 half_extents, tread_vec3 up) {
    tread_query_shape s = tread_query_shape_default();
    s.type = TREAD_QUERY_BOX;
    s.radius = 0.0f;
    s.half_height = 0.0f;
    s.half_extents = half_extents;
    s.up = tread_v3_zero(); // (kept zero when `up` is zero or not finite: the query that takes it refuses it)
    tr_v3_direction(up, &s.up);
    return s;
}

tread_query_shape tread_query_capsule(float half_height, float radius, tread_vec3 up) { return tr_query_capsule(half_height, radius, up); }

tread_query_shape tread_query_sphere(float radius) {
    tread_query_shape s = tread_query_shape_default();
    s.type = TREAD_QUERY_SPHERE;
    s.radius = radius;
    s.half_height = 0.0f;
    return s;
}
