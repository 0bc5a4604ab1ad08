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

static bool tag_then_accept(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    const tr_filter_context *t = (const tr_filter_context *)context;
    if (t->move->verdicts && !validated(t->move, tr_tagged(body))) return false;
    return !t->query->callback || t->query->callback(tr_tagged(body), layer, user_data, t->query->context);
}

tread_query_filter tr_filter_others(const tr_move_query *q, const tread_query_filter *filter, tr_filter_context *t) {
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

static bool both_accept(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    const tr_filter_context *f = (const tr_filter_context *)context;
    const tread_query_filter *mine = f->move->filter;
    if (mine && tread_body_id_equal(body, mine->ignore_body)) return false;
    if (mine && mine->callback && !mine->callback(body, layer, user_data, mine->context)) return false;
    if (f->move->one_way && !one_way_blocks(f->move, body)) return false;
    if (f->move->verdicts && !validated(f->move, body)) return false;
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
