// SPDX-License-Identifier: MIT
// What a move lets through (move_filter.h).
#include "move_filter.h"

#include <stdint.h>

// A one-way body blocks this move only when the feet were at or above its top when the move began.
static bool one_way_blocks(const tr_move_query *q, tread_body_id body) {
    tread_body_type type;
    uint32_t flags;
    float top;
    if (!tr_source_body_kind(&q->src, body, &type, &flags) || !(flags & TREAD_BODY_ONE_WAY)) return true;
    return tr_source_body_top(&q->src, body, q->up, &top) && q->feet_height >= top - TR_ONE_WAY_SLACK;
}

int32_t tr_crowd_character(const tr_crowd *crowd, tread_body_id body) {
    intptr_t rank = (intptr_t)tread_body_user_data(crowd->world, body) - 1;
    TR_ASSERT(rank >= 0 && rank < crowd->count);
    return (int32_t)crowd->order[rank];
}

bool tr_crowd_body(const tr_crowd *crowd, int32_t index, tread_body_id *out_body) {
    if (!crowd->world || index < 0 || index >= crowd->count) return false;
    *out_body = crowd->bodies[crowd->rank[index]];
    return true;
}

bool tr_who_set_passes(const tr_who_set *set, tr_who who) {
    bool listed = false;
    if (who.character >= 0) {
        for (int i = 0; i < set->character_count && !listed; ++i) listed = set->characters[i] == who.character;
    } else {
        for (int i = 0; i < set->body_count && !listed; ++i) listed = tread_body_id_equal(set->bodies[i], who.body);
    }
    return listed == set->only;
}

bool tr_who_filter(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    (void)layer, (void)user_data;
    return tr_who_set_passes((const tr_who_set *)context, (tr_who){body, -1});
}

// The listener's answer for a body or character, asked once per move.
static bool validated(const tr_move_query *q, tr_who who) {
    tr_verdicts *v = q->verdicts;
    for (int i = 0; i < v->count; ++i)
        if (tr_who_equal(v->who[i], who)) return v->accepted[i];
    bool ok = q->listener->validate(q->character, q->index, who.body, who.character, q->listener->context);
    if (v->count < TR_VERDICTS) {
        v->who[v->count] = who;
        v->accepted[v->count++] = ok;
    }
    return ok;
}

bool tr_query_validated(const tr_move_query *q, tr_who who) { return !q->verdicts || validated(q, who); }

static bool crowd_accepts(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    (void)layer, (void)user_data;
    const tr_filter_context *t = (const tr_filter_context *)context;
    tr_who who = {tread_body_id_null(), tr_crowd_character(&t->move->crowd, body)};
    if (t->move->verdicts && !validated(t->move, who)) return false;
    // (A query that can meet the crowd filters by sets of bodies and characters only: move_context.h.)
    TR_ASSERT(!t->query->callback || t->query->callback == tr_who_filter);
    return !t->query->callback || tr_who_set_passes((const tr_who_set *)t->query->context, who);
}

tread_query_filter tr_filter_crowd(const tr_move_query *q, const tread_query_filter *filter, tr_filter_context *t) {
    tread_query_filter f = tr_query_filter_default();
    f.layer_mask = filter->layer_mask & (q->filter ? q->filter->layer_mask : 0xFFFFFFFFu);
    f.ignore_body = q->crowd.self;
    if (filter->callback || q->verdicts) {
        t->move = q;
        t->query = filter;
        f.callback = crowd_accepts;
        f.context = t;
    }
    return f;
}

static bool both_accept(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    const tr_filter_context *f = (const tr_filter_context *)context;
    const tread_query_filter *mine = f->move->filter;
    if (mine && tread_body_id_equal(body, mine->ignore_body)) return false;
    if (mine && mine->callback && !mine->callback(body, layer, user_data, mine->context)) return false;
    if (f->move->one_way && !one_way_blocks(f->move, body)) return false;
    if (f->move->verdicts && !validated(f->move, (tr_who){body, -1})) return false;
    return !f->query->callback || f->query->callback(body, layer, user_data, f->query->context);
}

const tread_query_filter *tr_filter_wrapped(const tr_move_query *q, const tread_query_filter *filter, tr_filter_context *both,
                                            tread_query_filter *out) {
    TR_ASSERT(filter); // the phases always pass the character's masks
    both->move = q;
    both->query = filter;
    *out = *filter;
    if (q->filter) out->layer_mask &= q->filter->layer_mask;
    out->callback = both_accept;
    out->context = both;
    return out;
}
