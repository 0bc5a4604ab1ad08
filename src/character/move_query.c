// SPDX-License-Identifier: MIT
// The controller's per-move query layer over the world's unchecked queries (see move_query.h).
#include "move_query.h"

#include "../world/world_query.h"

#include <string.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

// Most hits of one world a merged cast-all keeps (the phases ask for fewer).
#define TR_MERGE_HITS 32


// One walk of a world's broad phase over `box`.
static void gather(const tread_world *w, const tread_aabb *box, tr_candidates *c) {
    // (Every world is gathered: tested four at a time, even S1's 11 bodies cost less as candidates than walking
    // their tree for each query.)
    c->box = *box;
    tread_vec3 slack = tread_v3(TR_GATHER_SLACK, TR_GATHER_SLACK, TR_GATHER_SLACK);
    tread_aabb grown = {tread_v3_sub(box->min, slack), tread_v3_add(box->max, slack)};
    c->gathered = tr_world_gather(w, grown, c->slots, c->bounds, TR_MOVE_CANDIDATES, &c->count);
}

static bool holds(const tread_aabb *b, tread_vec3 p, tread_vec3 e, float r);

// The scope a query from `position` along `translation`, grown by `r`, gives a world: the move's candidates when
// it stays inside their box, else NULL (the whole tree).
static const tr_scope *scope_of(const tr_candidates *c, tr_scope *storage, tread_vec3 position, tread_vec3 translation, float r) {
    if (!c->gathered || !holds(&c->box, position, tread_v3_add(position, translation), r)) return NULL;
    storage->slots = c->slots;
    storage->bounds = c->bounds;
    storage->stride = TR_MOVE_CANDIDATES;
    storage->count = c->count;
    return storage;
}

tread_result tr_move_query_begin(tr_move_query *q, const tread_world *w, const tread_character *ch, tread_vec3 center, float reach) {
    tr_source src = tr_source_world(w);
    return tr_move_query_begin_on(q, &src, ch, center, reach);
}

tread_result tr_move_query_begin_on(tr_move_query *q, const tr_source *src, const tread_character *ch, tread_vec3 center, float reach) {
    TR_ASSERT(q && src && (src->world || src->backend) && ch && isfinite(reach) && reach >= 0.0f);
    tread_vec3 r = tread_v3(reach, reach, reach);
    tread_aabb b = {tread_v3_sub(center, r), tread_v3_add(center, r)};
    // The bounds may reach past the coordinate limit (the feet stay within it: move.c, keep_within_limit): a
    // character near the limit moves back inward. Finite is what they must be.
    if (!tread_v3_is_finite(b.min) || !tread_v3_is_finite(b.max))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "the move around (%g, %g, %g) reaches %g m: its bounds are not finite", (double)center.x,
                        (double)center.y, (double)center.z, (double)reach);
    q->src = *src;
    q->bounds = b;
    q->filter = NULL;
    q->crowd = (tr_crowd){NULL, NULL, NULL, NULL, 0, {0u, 0u}};
    q->character = ch;
    q->up = ch->settings.up;
    q->feet_height = tread_v3_dot(ch->position, ch->settings.up);
    q->one_way = tr_source_has_one_way(&q->src);
    q->listener = NULL;
    q->index = 0;
    q->verdicts = NULL;
    q->contacts = NULL;
    q->contact_capacity = 0;
    q->draw = NULL;
    q->watch = NULL;
    q->near.gathered = false;
    q->near_crowd.gathered = false;
    q->usual = false;
    q->later = NULL;
    return tr_source_begin(&q->src, &q->bounds);
}


// ---- the move's cache: the last move's candidates -----------------------------------------------------------------
// A gather's candidates depend only on the world's bodies and the box: every body meeting it, in the order the tree
// walk meets them, which pruning by a smaller box does not change. So in the same world at the same revision (no body
// added, removed or moved since), the candidates of a box inside one gathered before are that gather's bodies that
// meet it, in its order: the same slots, boxes and order a walk of the tree gives, bit for bit, at the cost of a test
// per cached body instead of the walk. A move that misses gathers over its box grown by TR_MOVE_CACHE_MARGIN, keeps
// that for the next moves, and takes its own box's share of it.

// How much wider than a move needs the box a cached gather covers (metres): a character walking at 4 m/s stays
// inside it for 7 frames at 60 Hz.
#define TR_MOVE_CACHE_MARGIN 0.5f

static tread_aabb grown_by(const tread_aabb *box, float d) {
    tread_vec3 m = tread_v3(d, d, d);
    return (tread_aabb){tread_v3_sub(box->min, m), tread_v3_add(box->max, m)};
}

// `c` as gather(w, box, c) leaves it, through the cache. Missed: over the box grown by the margin when the world has
// not changed since the cache was filled (where it changes every frame, as with a platform moving, a wider walk
// would be for nothing), kept for the next move.
// (Not inlined into tr_move_query_gather: there its registers cost every move without a cache a longer prologue,
// 20 instructions a move on P1.)
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void gather_cached(const tread_world *w, tread_move_cache_bodies *cache, const tread_aabb *box, tr_candidates *c) {
    uint64_t serial, revision;
    if (!tr_world_revision(w, &serial, &revision)) {
        gather(w, box, c);
        return;
    }
    tread_aabb slack = grown_by(box, TR_GATHER_SLACK); // (what gather() walks)
    bool still = cache->internal_world == serial && cache->internal_revision == revision && cache->internal_count >= 0;
    if (still && tread_aabb_contains(cache->internal_box, *box) &&
        tr_world_gather_among(w, slack, cache->internal_slots, cache->internal_count, c->slots, c->bounds, TR_MOVE_CANDIDATES, &c->count)) {
        c->box = *box;
        c->gathered = true;
        return;
    }
    tread_aabb wide = grown_by(box, TR_MOVE_CACHE_MARGIN);
    if (still) gather(w, &wide, c);
    // (A wide box with more bodies than a move keeps would leave the move's queries to walk the tree: its own box.)
    if (!still || !c->gathered) gather(w, box, c);
    cache->internal_world = serial;
    cache->internal_revision = revision;
    cache->internal_box = c->box;
    cache->internal_count = c->gathered && c->count <= TREAD_MOVE_CACHE_BODIES ? c->count : -1;
    if (cache->internal_count > 0) memcpy(cache->internal_slots, c->slots, sizeof *c->slots * (size_t)c->count);
    if (!c->gathered || tread_aabb_contains(*box, c->box)) return;
    // The move's own share of the wide gather (in place: each body is read before its place is written).
    bool ok = tr_world_gather_among(w, slack, c->slots, c->count, c->slots, c->bounds, TR_MOVE_CANDIDATES, &c->count);
    TR_ASSERT(ok);
    (void)ok;
    c->box = *box;
}

// The box `reach` around `center`, cut to the move's bounds.
static tread_aabb box_within(const tr_move_query *q, tread_vec3 center, float reach) {
    tread_vec3 r = tread_v3(reach, reach, reach);
    return (tread_aabb){tread_v3_max(tread_v3_sub(center, r), q->bounds.min), tread_v3_min(tread_v3_add(center, r), q->bounds.max)};
}

void tr_move_query_gather(tr_move_query *q, tread_vec3 center, float reach, tread_move_cache_bodies *cache, float later_reach,
                          tr_later_candidates *later) {
    tread_aabb box = box_within(q, center, reach);
    q->usual = true;
    if (later) {
        later->box = box_within(q, center, later_reach);
        later->world_done = later->crowd_done = false;
        later->near.gathered = later->crowd.gathered = false;
        q->later = later;
    }
    if (q->src.backend) q->near.box = box; // (the other characters' box; the backend gathers its own)
    else if (cache) gather_cached(q->src.world, cache, &box, &q->near);
    else gather(q->src.world, &box, &q->near);
    if (q->crowd.world) gather(q->crowd.world, &box, &q->near_crowd);
}

void tr_move_query_set_crowd(tr_move_query *q, const tr_crowd *crowd) {
    q->crowd = *crowd;
    if (crowd->world && (q->src.backend ? q->usual : q->near.gathered)) gather(crowd->world, &q->near.box, &q->near_crowd);
}

// The character a body of the crowd's world is: named by its index, with no body.
static void name_character(const tr_move_query *q, tread_body_id *body, int32_t *character) {
    *character = tr_crowd_character(&q->crowd, *body);
    *body = tread_body_id_null();
}



// Radius of a sphere around the shape's centre that holds the shape.
static float shape_reach(const tread_query_shape *s) {
    if (s->type == TREAD_QUERY_BOX) return tread_v3_length(s->half_extents);
    return s->radius + (s->type == TREAD_QUERY_CAPSULE ? s->half_height : 0.0f);
}

// Both points, grown by r, lie inside the box: the twelve comparisons of the scalar test, eight lanes at a time where
// the build has SSE (every query of a move asks, twice: 40 instructions a move on P1).
static bool holds(const tread_aabb *b, tread_vec3 p, tread_vec3 e, float r) {
#if defined(__SSE2__) || defined(_M_X64)
    const __m128 grow = _mm_set1_ps(r);
    const float *f = &b->min.x;
    // Lanes 0-2: the points' lows against (min x, min y, min z, max x); lanes 1-3: their highs against (min z, max x,
    // max y, max z). The fourth lane of each is not looked at.
    const __m128 lows = _mm_loadu_ps(f), highs = _mm_loadu_ps(f + 2);
    __m128 low = _mm_and_ps(_mm_cmpge_ps(_mm_sub_ps(_mm_setr_ps(p.x, p.y, p.z, 0.0f), grow), lows),
                            _mm_cmpge_ps(_mm_sub_ps(_mm_setr_ps(e.x, e.y, e.z, 0.0f), grow), lows));
    __m128 high = _mm_and_ps(_mm_cmple_ps(_mm_add_ps(_mm_setr_ps(0.0f, p.x, p.y, p.z), grow), highs),
                             _mm_cmple_ps(_mm_add_ps(_mm_setr_ps(0.0f, e.x, e.y, e.z), grow), highs));
    return (_mm_movemask_ps(low) & 0x7) == 0x7 && (_mm_movemask_ps(high) & 0xE) == 0xE;
#else
    return p.x - r >= b->min.x && p.y - r >= b->min.y && p.z - r >= b->min.z && p.x + r <= b->max.x && p.y + r <= b->max.y &&
           p.z + r <= b->max.z && e.x - r >= b->min.x && e.y - r >= b->min.y && e.z - r >= b->min.z && e.x + r <= b->max.x &&
           e.y + r <= b->max.y && e.z + r <= b->max.z;
#endif
}

// The query (from `position` to `position + translation`, grown by `r`) stays inside the move's bounds.
#ifndef NDEBUG
static _Thread_local float worst_excess;

// A query against the running phase's own reach, measured as the bounds measure it (a box around the centre).
static void watch_query(const tr_reach_watch *watch, tread_vec3 position, tread_vec3 end, float reach) {
    const float a[3] = {position.x - watch->center.x, position.y - watch->center.y, position.z - watch->center.z};
    const float b[3] = {end.x - watch->center.x, end.y - watch->center.y, end.z - watch->center.z};
    float used = 0.0f;
    for (int k = 0; k < 3; ++k) used = tr_maxf(used, tr_maxf(fabsf(a[k]), fabsf(b[k])) + reach);
    if (used - watch->reach > worst_excess) worst_excess = used - watch->reach;
}

float tr_reach_watch_take_excess(void) {
    float e = worst_excess;
    worst_excess = 0.0f;
    return e;
}
#endif

// The later candidates when the query (as check_reach measures it) leaves the usual ones' box but not theirs,
// gathered now if no query did before; NULL otherwise. (A query may be the first of its move to look there from a
// copy of the context, recovery's: the storage is shared, and each world is gathered once.) (Not inlined into
// check_reach: the few queries that reach this far would lengthen every query's path: 56 instructions a move on P1.)
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static const tr_later_candidates *later_for(const tr_move_query *q, tread_vec3 position, tread_vec3 end, float r) {
    tr_later_candidates *l = q->later;
    if (!l || holds(&q->near.box, position, end, r) || !holds(&l->box, position, end, r))
        return NULL;
    if (!l->world_done && !q->src.backend) gather(q->src.world, &l->box, &l->near);
    l->world_done = true;
    if (!l->crowd_done && q->crowd.world) {
        gather(q->crowd.world, &l->box, &l->crowd);
        l->crowd_done = true;
    }
    return l;
}

// The crowd's scope for a query of the move: its usual candidates, or the later ones when the query's check_reach
// took those.
static const tr_scope *crowd_scope(const tr_move_query *q, tr_scope *storage, tread_vec3 position, tread_vec3 translation, float r) {
    const tr_scope *s = scope_of(&q->near_crowd, storage, position, translation, r);
    if (s || !q->later || !q->later->crowd_done) return s;
    return scope_of(&q->later->crowd, storage, position, translation, r);
}

// The query's check against the move's bounds and its scope in the world (scope_of over the move's candidates) in one:
// the candidates' box is cut to the bounds (tr_move_query_gather), so a query inside it is inside them too, and only
// one outside it is measured against them.
static tread_result check_reach(const tr_move_query *q, tr_scope *storage, tread_vec3 position, tread_vec3 translation, float r,
                                const tr_scope **out_scope) {
    tread_vec3 end = tread_v3_add(position, translation);
#ifndef NDEBUG
    if (q->watch) watch_query(q->watch, position, end, r);
#endif
    const tr_candidates *c = &q->near;
    if (c->gathered && holds(&c->box, position, end, r)) {
        TR_ASSERT(holds(&q->bounds, position, end, r));
        storage->slots = c->slots;
        storage->bounds = c->bounds;
        storage->stride = TR_MOVE_CANDIDATES;
        storage->count = c->count;
        *out_scope = storage;
        return TREAD_OK;
    }
    const tr_later_candidates *l = q->later ? later_for(q, position, end, r) : NULL;
    if (l && l->near.gathered) {
        TR_ASSERT(holds(&q->bounds, position, end, r));
        storage->slots = l->near.slots;
        storage->bounds = l->near.bounds;
        storage->stride = TR_MOVE_CANDIDATES;
        storage->count = l->near.count;
        *out_scope = storage;
        return TREAD_OK;
    }
    *out_scope = NULL;
    if (holds(&q->bounds, position, end, r)) return TREAD_OK;
    return tr_error(TREAD_ERR_INVALID_ARGUMENT,
                    "a query of this move from (%g, %g, %g) to (%g, %g, %g) leaves the bounds validated when the move began",
                    (double)position.x, (double)position.y, (double)position.z, (double)end.x, (double)end.y, (double)end.z);
}

#define COMBINED(q, filter) \
    tr_filter_context both_; \
    tread_query_filter combined_; \
    tr_scope near_crowd_; \
    filter = tr_filter_combined(q, filter, &both_, &combined_)

tread_result tr_query_cast(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                           const tread_query_filter *filter, tread_shape_hit *out_hit) {
    float reach_ = shape_reach(shape);
    tr_scope near_;
    const tr_scope *scope;
    tread_result r = check_reach(q, &near_, position, translation, reach_, &scope);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    if (!q->src.backend)
        tr_world_cast_shape(q->src.world, scope, shape, position, translation, filter, out_hit);
    else if ((r = tr_backend_cast(&q->src, shape, position, translation, filter, out_hit)) != TREAD_OK)
        return r;
    if (q->crowd.world) {
        tr_filter_context t;
        tread_query_filter of = tr_filter_crowd(q, original, &t);
        tread_shape_hit other;
        tr_world_cast_shape(q->crowd.world, crowd_scope(q, &near_crowd_, position, translation, reach_), shape, position, translation, &of, &other);
        if (other.hit && (!out_hit->hit || other.fraction < out_hit->fraction)) {
            *out_hit = other;
            name_character(q, &out_hit->body, &out_hit->character);
        }
    }
    tr_draw_cast(q, shape, position, translation, out_hit);
    return TREAD_OK;
}

tread_result tr_query_cast_all(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                               const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count) {
    return tr_query_cast_near(q, shape, position, translation, filter, -1.0f, hits, capacity, out_count);
}

tread_result tr_query_cast_near(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                const tread_query_filter *filter, float window, tread_shape_hit *hits, int capacity, int *out_count) {
    float reach_ = shape_reach(shape);
    tr_scope near_;
    const tr_scope *scope;
    tread_result r = check_reach(q, &near_, position, translation, reach_, &scope);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    bool overflow = false; // the closest `capacity` hits are kept: the nearest surfaces are the ones that matter
    if (!q->src.backend)
        tr_world_cast_shape_near(q->src.world, scope, shape, position, translation, filter,
                                 window, hits, capacity, out_count, &overflow);
    else if ((r = tr_backend_cast_all(&q->src, shape, position, translation, filter, hits, capacity, out_count, &overflow)) != TREAD_OK)
        return r;
    if (q->crowd.world) {
        // Both lists come sorted by fraction: merge them, the world's first on ties, the nearest `capacity` kept.
        tr_filter_context t;
        tread_query_filter of = tr_filter_crowd(q, original, &t);
        tread_shape_hit mine[TR_MERGE_HITS], theirs[TR_MERGE_HITS];
        int n_mine = *out_count < TR_MERGE_HITS ? *out_count : TR_MERGE_HITS, n_theirs = 0;
        memcpy(mine, hits, sizeof(tread_shape_hit) * (size_t)n_mine);
        tr_world_cast_shape_near(q->crowd.world, crowd_scope(q, &near_crowd_, position, translation, reach_), shape, position, translation, &of,
                                 window, theirs, capacity < TR_MERGE_HITS ? capacity : TR_MERGE_HITS, &n_theirs, &overflow);
        int a = 0, b = 0, k = 0;
        while (k < capacity && (a < n_mine || b < n_theirs)) {
            if (b >= n_theirs || (a < n_mine && mine[a].fraction <= theirs[b].fraction)) hits[k++] = mine[a++];
            else {
                hits[k] = theirs[b++];
                name_character(q, &hits[k].body, &hits[k].character);
                ++k;
            }
        }
        *out_count = k;
    }
    // (A backend lists every hit; the merged list is trimmed again: the other list's nearest may be nearer.)
    if (window >= 0.0f) *out_count = tr_hits_within_window(hits, *out_count, window);
    if (q->draw) {
        tread_shape_hit none;
        none.hit = false;
        tr_draw_cast(q, shape, position, translation, *out_count > 0 ? &hits[0] : &none);
    }
    return TREAD_OK;
}

tread_result tr_query_ray(const tr_move_query *q, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                          tread_ray_hit *out_hit) {
    tr_scope near_;
    const tr_scope *scope;
    tread_result r = check_reach(q, &near_, origin, translation, 0.0f, &scope);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    if (!q->src.backend)
        tr_world_cast_ray(q->src.world, scope, origin, translation, filter, out_hit);
    else if ((r = tr_backend_ray(&q->src, origin, translation, filter, out_hit)) != TREAD_OK)
        return r;
    if (q->crowd.world) {
        tr_filter_context t;
        tread_query_filter of = tr_filter_crowd(q, original, &t);
        tread_ray_hit other;
        tr_world_cast_ray(q->crowd.world, crowd_scope(q, &near_crowd_, origin, translation, 0.0f), origin, translation, &of, &other);
        if (other.hit && (!out_hit->hit || other.fraction < out_hit->fraction)) {
            *out_hit = other;
            name_character(q, &out_hit->body, &out_hit->character);
        }
    }
    return TREAD_OK;
}

tread_result tr_query_contacts(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float margin,
                               const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count,
                               bool *out_overflow) {
    tr_scope near_;
    const tr_scope *scope;
    tread_result r = check_reach(q, &near_, position, tread_v3_zero(), shape_reach(shape) + margin, &scope);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    if (!q->src.backend)
        tr_world_collect_contacts(q->src.world, scope, shape, position, margin, filter, contacts, capacity, out_count, out_overflow);
    else if ((r = tr_backend_contacts(&q->src, shape, position, margin, filter, contacts, capacity, out_count, out_overflow)) != TREAD_OK)
        return r;
    if (q->crowd.world) {
        // The other characters after the world's bodies (each list in its deterministic order).
        tr_filter_context t;
        tread_query_filter of = tr_filter_crowd(q, original, &t);
        int more = 0;
        bool full = false;
        tr_world_collect_contacts(q->crowd.world, crowd_scope(q, &near_crowd_, position, tread_v3_zero(), shape_reach(shape) + margin), shape, position, margin, &of, contacts + *out_count, capacity - *out_count, &more, &full);
        for (int i = 0; i < more; ++i) name_character(q, &contacts[*out_count + i].body, &contacts[*out_count + i].character);
        *out_count += more;
        *out_overflow = *out_overflow || full;
    }
    tr_draw_contacts(q, contacts, *out_count);
    return TREAD_OK;
}

tread_result tr_query_closest(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                              const tread_query_filter *filter, tread_distance_result *out_result) {
    tr_scope near_;
    const tr_scope *scope;
    tread_result r = check_reach(q, &near_, position, tread_v3_zero(), shape_reach(shape) + max_distance, &scope);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    if (!q->src.backend)
        tr_world_closest(q->src.world, scope, shape, position, max_distance, filter, out_result);
    else if ((r = tr_backend_closest(&q->src, shape, position, max_distance, filter, out_result)) != TREAD_OK)
        return r;
    if (q->crowd.world) {
        tr_filter_context t;
        tread_query_filter of = tr_filter_crowd(q, original, &t);
        tread_distance_result other;
        tr_world_closest(q->crowd.world, crowd_scope(q, &near_crowd_, position, tread_v3_zero(), shape_reach(shape) + max_distance), shape, position, max_distance, &of, &other);
        if (other.found && (!out_result->found || other.distance < out_result->distance)) {
            *out_result = other;
            name_character(q, &out_result->body, &out_result->character);
        }
    }
    return TREAD_OK;
}

