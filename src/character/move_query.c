// SPDX-License-Identifier: MIT
// The controller's per-move query layer over the world's unchecked queries (see move_query.h).
#include "move_query.h"

#include "../world/world_query.h"

#include <string.h>

// Most hits of one world a merged cast-all keeps (the phases ask for fewer).
#define TR_MERGE_HITS 32

// The move's debug drawing (tread_move_options::debug_draw), NULL: none.

void tr_draw_ground(const tr_move_query *q, const tread_ground *ground, tread_vec3 feet) {
    if (q->draw && q->draw->ground) q->draw->ground(ground, feet, q->draw->context);
}

void tr_draw_step(const tr_move_query *q, tread_vec3 from, tread_vec3 to, bool accepted) {
    if (q->draw && q->draw->step) q->draw->step(from, to, accepted, q->draw->context);
}

static void draw_contacts(const tr_move_query *q, const tread_contact *contacts, int count) {
    if (!q->draw || !q->draw->contact) return;
    for (int i = 0; i < count; ++i) q->draw->contact(&contacts[i], q->draw->context);
}

// One walk of a world's broad phase over `box`.
static void gather(const tread_world *w, const tread_aabb *box, tr_candidates *c) {
    // (Every world is gathered: tested four at a time, even S1's 11 bodies cost less as candidates than walking
    // their tree for each query.)
    c->box = *box;
    tread_vec3 slack = tread_v3(TR_GATHER_SLACK, TR_GATHER_SLACK, TR_GATHER_SLACK);
    tread_aabb grown = {tread_v3_sub(box->min, slack), tread_v3_add(box->max, slack)};
    c->gathered = tr_world_gather(w, grown, c->slots, c->bounds, TR_MOVE_CANDIDATES, &c->count);
}

static bool inside(const tread_aabb *b, tread_vec3 p, float r);

// The scope a query from `position` along `translation`, grown by `r`, gives a world: the move's candidates when
// it stays inside their box, else NULL (the whole tree).
static const tr_scope *scope_of(const tr_candidates *c, tr_scope *storage, tread_vec3 position, tread_vec3 translation, float r) {
    if (!c->gathered || !inside(&c->box, position, r) || !inside(&c->box, tread_v3_add(position, translation), r)) return NULL;
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
    // The bounds may reach past the coordinate limit (the feet stay within it: character.c, keep_within_limit): a
    // character near the limit moves back inward. Finite is what they must be.
    if (!tread_v3_is_finite(b.min) || !tread_v3_is_finite(b.max))
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "the move around (%g, %g, %g) reaches %g m: its bounds are not finite", (double)center.x,
                        (double)center.y, (double)center.z, (double)reach);
    q->src = *src;
    q->bounds = b;
    q->filter = NULL;
    q->others = NULL;
    q->self = (tread_body_id){0u, 0u}; // (in `others`, untagged)
    q->order = NULL;
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
    q->near_others.gathered = false;
    q->usual = false;
    return tr_source_begin(&q->src, &q->bounds);
}


void tr_move_query_gather(tr_move_query *q, tread_vec3 center, float reach) {
    tread_vec3 r = tread_v3(reach, reach, reach);
    tread_aabb box = {tread_v3_max(tread_v3_sub(center, r), q->bounds.min), tread_v3_min(tread_v3_add(center, r), q->bounds.max)};
    q->usual = true;
    if (q->src.backend) q->near.box = box; // (the other characters' box; the backend gathers its own)
    else gather(q->src.world, &box, &q->near);
    if (q->others) gather(q->others, &box, &q->near_others);
}

void tr_move_query_set_others(tr_move_query *q, const tread_world *others, tread_body_id self, const int *order) {
    q->others = others;
    q->self = self;
    q->order = order;
    if (others && (q->src.backend ? q->usual : q->near.gathered)) gather(others, &q->near.box, &q->near_others);
}

// ---- what a move lets through: one-way bodies and the listener's validation ------------------------------------

// A one-way body blocks this move only when the feet were at or above its top when the move began.
static bool one_way_blocks(const tr_move_query *q, tread_body_id body) {
    tread_body_type type;
    uint32_t flags;
    float top;
    if (!tr_source_body_kind(&q->src, body, &type, &flags) || !(flags & TREAD_BODY_ONE_WAY)) return true;
    return tr_source_body_top(&q->src, body, q->up, &top) && q->feet_height >= top - TR_ONE_WAY_SLACK;
}

int tr_query_character_of(const tr_move_query *q, tread_body_id body) {
    if (!tr_is_other(body) || !q->others || !q->order) return -1;
    body.index &= ~TR_OTHERS_BIT;
    intptr_t rank = (intptr_t)tread_body_user_data(q->others, body) - 1;
    return rank >= 0 ? q->order[rank] : -1;
}

// The listener's answer for a body (tagged for a character), asked once per move.
static bool validated(const tr_move_query *q, tread_body_id body) {
    tr_verdicts *v = q->verdicts;
    for (int i = 0; i < v->count; ++i)
        if (tread_body_id_equal(v->body[i], body)) return v->accepted[i];
    int other = tr_query_character_of(q, body);
    bool ok = q->listener->validate(q->character, q->index, other >= 0 ? tread_body_id_null() : body, other, q->listener->context);
    if (v->count < TR_VERDICTS) {
        v->body[v->count] = body;
        v->accepted[v->count++] = ok;
    }
    return ok;
}

bool tr_query_validated(const tr_move_query *q, tread_body_id body) { return !q->verdicts || validated(q, body); }

static bool gated(const tr_move_query *q) { return q->one_way || q->verdicts; }


// Radius of a sphere around the shape's centre that holds the shape.
static float shape_reach(const tread_query_shape *s) {
    if (s->type == TREAD_QUERY_BOX) return tread_v3_length(s->half_extents);
    return s->radius + (s->type == TREAD_QUERY_CAPSULE ? s->half_height : 0.0f);
}

static bool inside(const tread_aabb *b, tread_vec3 p, float r) {
    return p.x - r >= b->min.x && p.y - r >= b->min.y && p.z - r >= b->min.z && p.x + r <= b->max.x && p.y + r <= b->max.y &&
           p.z + r <= b->max.z;
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

static tread_result check_reach(const tr_move_query *q, tread_vec3 position, tread_vec3 translation, float r) {
    tread_vec3 end = tread_v3_add(position, translation);
#ifndef NDEBUG
    if (q->watch) watch_query(q->watch, position, end, r);
#endif
    if (inside(&q->bounds, position, r) && inside(&q->bounds, end, r)) return TREAD_OK;
    return tr_error(TREAD_ERR_INVALID_ARGUMENT,
                    "a query of this move from (%g, %g, %g) to (%g, %g, %g) leaves the bounds validated when the move began",
                    (double)position.x, (double)position.y, (double)position.z, (double)end.x, (double)end.y, (double)end.z);
}

// The source a body id names (the move's own, or the batch's characters for a tagged id: NULL when there are none),
// and its id there.
static const tr_source *source_of(const tr_source *src, const tread_world *others, tr_source *storage, tread_body_id *id) {
    if (!tr_is_other(*id)) return src;
    id->index &= ~TR_OTHERS_BIT;
    if (!others) return NULL;
    *storage = tr_source_world(others);
    return storage;
}

static tread_body_id tagged(tread_body_id id) { return (tread_body_id){id.index | TR_OTHERS_BIT, id.generation}; }

// The filter for the other characters: the query's layer mask (and the move's), never this character itself, the
// listener's validation and the query's own callback seeing tagged ids. The caller's move filter names the caller's
// bodies, not characters.
typedef struct tagging {
    const tr_move_query *move;
    const tread_query_filter *query;
} tagging;

static bool tag_then_accept(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    const tagging *t = (const tagging *)context;
    if (t->move->verdicts && !validated(t->move, tagged(body))) return false;
    return !t->query->callback || t->query->callback(tagged(body), layer, user_data, t->query->context);
}

static tread_query_filter others_filter(const tr_move_query *q, const tread_query_filter *filter, tagging *t) {
    tread_query_filter f = tread_query_filter_default();
    f.layer_mask = filter->layer_mask & (q->filter ? q->filter->layer_mask : 0xFFFFFFFFu);
    f.ignore_body = q->self;
    if (filter->callback || q->verdicts) {
        t->move = q;
        t->query = filter;
        f.callback = tag_then_accept;
        f.context = t;
    }
    return f;
}

// A query's filter and the move's, both applied: the masks intersected, the first's ignored body and callback kept,
// the move's (its filter, one-way bodies, the listener's validation) checked by a callback that wraps them.
typedef struct both_filters {
    const tr_move_query *move;
    const tread_query_filter *query;
} both_filters;

static bool both_accept(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    const both_filters *f = (const both_filters *)context;
    const tread_query_filter *mine = f->move->filter;
    if (mine && tread_body_id_equal(body, mine->ignore_body)) return false;
    if (mine && mine->callback && !mine->callback(body, layer, user_data, mine->context)) return false;
    if (f->move->one_way && !one_way_blocks(f->move, body)) return false;
    if (f->move->verdicts && !validated(f->move, body)) return false;
    return !f->query->callback || f->query->callback(body, layer, user_data, f->query->context);
}

static const tread_query_filter *combine(const tr_move_query *q, const tread_query_filter *filter, both_filters *both,
                                         tread_query_filter *out) {
    if (!q->filter && !gated(q)) return filter;
    TR_ASSERT(filter); // the phases always pass the character's masks
    both->move = q;
    both->query = filter;
    *out = *filter;
    if (q->filter) out->layer_mask &= q->filter->layer_mask;
    out->callback = both_accept;
    out->context = both;
    return out;
}

#define COMBINED(q, filter) \
    both_filters both_; \
    tread_query_filter combined_; \
    tr_scope near_, near_others_; \
    filter = combine(q, filter, &both_, &combined_)

tread_result tr_query_cast(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                           const tread_query_filter *filter, tread_shape_hit *out_hit) {
    float reach_ = shape_reach(shape);
    tread_result r = check_reach(q, position, translation, reach_);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    if (!q->src.backend)
        tr_world_cast_shape(q->src.world, scope_of(&q->near, &near_, position, translation, reach_), shape, position, translation, filter, out_hit);
    else if ((r = tr_backend_cast(&q->src, shape, position, translation, filter, out_hit)) != TREAD_OK)
        return r;
    if (q->others) {
        tagging t;
        tread_query_filter of = others_filter(q, original, &t);
        tread_shape_hit other;
        tr_world_cast_shape(q->others, scope_of(&q->near_others, &near_others_, position, translation, reach_), shape, position, translation, &of, &other);
        if (other.hit && (!out_hit->hit || other.fraction < out_hit->fraction)) {
            *out_hit = other;
            out_hit->body = tagged(other.body);
        }
    }
    if (q->draw && q->draw->cast) q->draw->cast(shape, position, translation, out_hit, q->draw->context);
    return TREAD_OK;
}

tread_result tr_query_cast_all(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                               const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count) {
    return tr_query_cast_near(q, shape, position, translation, filter, -1.0f, hits, capacity, out_count);
}

tread_result tr_query_cast_near(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                const tread_query_filter *filter, float window, tread_shape_hit *hits, int capacity, int *out_count) {
    float reach_ = shape_reach(shape);
    tread_result r = check_reach(q, position, translation, reach_);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    bool overflow = false; // the closest `capacity` hits are kept: the nearest surfaces are the ones that matter
    if (!q->src.backend)
        tr_world_cast_shape_near(q->src.world, scope_of(&q->near, &near_, position, translation, reach_), shape, position, translation, filter,
                                 window, hits, capacity, out_count, &overflow);
    else if ((r = tr_backend_cast_all(&q->src, shape, position, translation, filter, hits, capacity, out_count, &overflow)) != TREAD_OK)
        return r;
    if (q->others) {
        // Both lists come sorted by fraction: merge them, the world's first on ties, the nearest `capacity` kept.
        tagging t;
        tread_query_filter of = others_filter(q, original, &t);
        tread_shape_hit mine[TR_MERGE_HITS], theirs[TR_MERGE_HITS];
        int n_mine = *out_count < TR_MERGE_HITS ? *out_count : TR_MERGE_HITS, n_theirs = 0;
        memcpy(mine, hits, sizeof(tread_shape_hit) * (size_t)n_mine);
        tr_world_cast_shape_near(q->others, scope_of(&q->near_others, &near_others_, position, translation, reach_), shape, position, translation, &of,
                                 window, theirs, capacity < TR_MERGE_HITS ? capacity : TR_MERGE_HITS, &n_theirs, &overflow);
        int a = 0, b = 0, k = 0;
        while (k < capacity && (a < n_mine || b < n_theirs)) {
            if (b >= n_theirs || (a < n_mine && mine[a].fraction <= theirs[b].fraction)) hits[k++] = mine[a++];
            else {
                hits[k] = theirs[b++];
                hits[k].body = tagged(hits[k].body);
                ++k;
            }
        }
        *out_count = k;
    }
    // (A backend lists every hit; the merged list is trimmed again: the other list's nearest may be nearer.)
    if (window >= 0.0f) *out_count = tr_hits_within_window(hits, *out_count, window);
    if (q->draw && q->draw->cast) {
        tread_shape_hit none;
        none.hit = false;
        q->draw->cast(shape, position, translation, *out_count > 0 ? &hits[0] : &none, q->draw->context);
    }
    return TREAD_OK;
}

tread_result tr_query_ray(const tr_move_query *q, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                          tread_ray_hit *out_hit) {
    tread_result r = check_reach(q, origin, translation, 0.0f);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    if (!q->src.backend)
        tr_world_cast_ray(q->src.world, scope_of(&q->near, &near_, origin, translation, 0.0f), origin, translation, filter, out_hit);
    else if ((r = tr_backend_ray(&q->src, origin, translation, filter, out_hit)) != TREAD_OK)
        return r;
    if (q->others) {
        tagging t;
        tread_query_filter of = others_filter(q, original, &t);
        tread_ray_hit other;
        tr_world_cast_ray(q->others, scope_of(&q->near_others, &near_others_, origin, translation, 0.0f), origin, translation, &of, &other);
        if (other.hit && (!out_hit->hit || other.fraction < out_hit->fraction)) {
            *out_hit = other;
            out_hit->body = tagged(other.body);
        }
    }
    return TREAD_OK;
}

tread_result tr_query_contacts(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float margin,
                               const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count,
                               bool *out_overflow) {
    tread_result r = check_reach(q, position, tread_v3_zero(), shape_reach(shape) + margin);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    if (!q->src.backend)
        tr_world_collect_contacts(q->src.world, scope_of(&q->near, &near_, position, tread_v3_zero(), shape_reach(shape) + margin), shape,
                                  position, margin, filter, contacts, capacity, out_count, out_overflow);
    else if ((r = tr_backend_contacts(&q->src, shape, position, margin, filter, contacts, capacity, out_count, out_overflow)) != TREAD_OK)
        return r;
    if (q->others) {
        // The other characters after the world's bodies (each list in its deterministic order).
        tagging t;
        tread_query_filter of = others_filter(q, original, &t);
        int more = 0;
        bool full = false;
        tr_world_collect_contacts(q->others, scope_of(&q->near_others, &near_others_, position, tread_v3_zero(), shape_reach(shape) + margin), shape, position, margin, &of, contacts + *out_count, capacity - *out_count, &more, &full);
        for (int i = 0; i < more; ++i) contacts[*out_count + i].body = tagged(contacts[*out_count + i].body);
        *out_count += more;
        *out_overflow = *out_overflow || full;
    }
    draw_contacts(q, contacts, *out_count);
    return TREAD_OK;
}

tread_result tr_query_closest(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                              const tread_query_filter *filter, tread_distance_result *out_result) {
    tread_result r = check_reach(q, position, tread_v3_zero(), shape_reach(shape) + max_distance);
    if (r != TREAD_OK) return r;
    const tread_query_filter *original = filter;
    COMBINED(q, filter);
    if (!q->src.backend)
        tr_world_closest(q->src.world, scope_of(&q->near, &near_, position, tread_v3_zero(), shape_reach(shape) + max_distance), shape,
                         position, max_distance, filter, out_result);
    else if ((r = tr_backend_closest(&q->src, shape, position, max_distance, filter, out_result)) != TREAD_OK)
        return r;
    if (q->others) {
        tagging t;
        tread_query_filter of = others_filter(q, original, &t);
        tread_distance_result other;
        tr_world_closest(q->others, scope_of(&q->near_others, &near_others_, position, tread_v3_zero(), shape_reach(shape) + max_distance), shape, position, max_distance, &of, &other);
        if (other.found && (!out_result->found || other.distance < out_result->distance)) {
            *out_result = other;
            out_result->body = tagged(other.body);
        }
    }
    return TREAD_OK;
}

bool tr_query_body_is_live(const tr_move_query *q, tread_body_id body) {
    uint32_t layer;
    tr_source storage;
    const tr_source *s = source_of(&q->src, q->others, &storage, &body);
    return s && tr_source_body_layer(s, body, &layer);
}

static tread_result gone(tread_body_id body) {
    return tr_error(TREAD_ERR_INVALID_ID, "body {index %u, generation %u} met during this move is gone", body.index, body.generation);
}

tread_result tr_query_body_layer(const tr_move_query *q, tread_body_id body, uint32_t *out_layer) {
    tread_body_id id = body;
    tr_source storage;
    const tr_source *s = source_of(&q->src, q->others, &storage, &id);
    return s && tr_source_body_layer(s, id, out_layer) ? TREAD_OK : gone(body);
}

tread_result tr_query_body_is_convex(const tr_move_query *q, tread_body_id body, bool *out_convex) {
    tread_body_id id = body;
    tr_source storage;
    const tr_source *s = source_of(&q->src, q->others, &storage, &id);
    return s && tr_source_body_is_convex(s, id, out_convex) ? TREAD_OK : gone(body);
}

tread_result tr_query_body_kind(const tr_move_query *q, tread_body_id body, tread_body_type *out_type, uint32_t *out_flags) {
    if (tr_is_other(body)) { // a character: pushed, never one-way or a sensor
        *out_type = TREAD_BODY_DYNAMIC;
        *out_flags = 0u;
        return TREAD_OK;
    }
    return tr_source_body_kind(&q->src, body, out_type, out_flags) ? TREAD_OK : gone(body);
}

tread_result tr_query_point_velocity(const tr_move_query *q, tread_body_id body, tread_vec3 point, tread_vec3 *out_velocity) {
    tread_body_id id = body;
    tr_source storage;
    const tr_source *s = source_of(&q->src, q->others, &storage, &id);
    return s && tr_source_point_velocity(s, id, point, out_velocity) ? TREAD_OK : gone(body);
}

void tr_ground_motion(const tr_source *src, const tread_world *others, tread_body_id body, tread_vec3 point, tread_vec3 *out_point,
                      tread_quat *out_turn) {
    *out_point = point;
    *out_turn = tread_quat_identity();
    tr_source storage;
    const tr_source *s = source_of(src, others, &storage, &body);
    if (s) tr_source_ground_motion(s, body, point, out_point, out_turn);
}

float tr_pushers_reach(const tr_source *src) { return tr_source_largest_motion(src); }

void tr_surface_motion(const tr_source *src, const tread_world *others, tread_body_id body, tread_vec3 point, float dt, tread_vec3 *out_point,
                       tread_quat *out_turn) {
    *out_point = point;
    *out_turn = tread_quat_identity();
    tr_source storage;
    const tr_source *s = source_of(src, others, &storage, &body);
    if (s) tr_source_surface_carry(s, body, point, dt, out_point, out_turn);
}

tread_body_def tr_character_body_def(const tread_character *ch, tread_vec3 center, uint32_t layer) {
    const tread_character_settings *s = &ch->settings;
    tread_body_def def = tread_body_def_default();
    if (s->shape == TREAD_QUERY_SPHERE) def.shape = tread_shape_sphere(s->radius);
    else if (s->shape == TREAD_QUERY_BOX) def.shape = tread_shape_box(tread_v3(s->radius, 0.5f * s->height, s->radius));
    else def.shape = tread_shape_capsule(0.5f * s->height - s->radius, s->radius);
    def.transform.p = center;
    def.transform.q = tr_upright_rotation(s->up);
    def.type = TREAD_BODY_KINEMATIC;
    def.layer = layer;
    return def;
}

void tr_settle_character_bodies(tread_world *others) { tr_world_rebuild_tree(others); }

void tr_place_character_body(tread_world *others, tread_body_id body, tread_vec3 previous_center, tread_vec3 center, tread_quat rotation,
                             tread_vec3 velocity) {
    tread_transform before = {previous_center, rotation}, now = {center, rotation};
    tr_world_place_body(others, body, before, now);
    tread_body_set_velocity(others, body, velocity, tread_v3_zero());
}
