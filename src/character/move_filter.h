// SPDX-License-Identifier: MIT
// What a move lets through (move_filter.c): the caller's move filter, one-way bodies (blocking only feet that were on
// or above their top), the listener's validation (asked once per body or character per move), the phases' sets of
// bodies and characters (tr_who_set), and for the other characters of a batch (the crowd, a source of its own) the
// filter its world is queried with. The queries (move_query.c) apply them to every query's own filter.
#ifndef TREAD_MOVE_FILTER_H
#define TREAD_MOVE_FILTER_H

#include "move_context.h"

// The listener's validation of a body or character: true without a validate callback.
bool tr_query_validated(const tr_move_query *q, tr_who who);

// The index in the batch's arrays of the character a body of the crowd's world is.
int32_t tr_crowd_character(const tr_crowd *crowd, tread_body_id body);
// The body in the crowd's world of the character at `index` in the batch's arrays; false when there is none (no
// crowd, or an index past the batch's characters: a ground kept from another batch).
bool tr_crowd_body(const tr_crowd *crowd, int32_t index, tread_body_id *out_body);

// The source that answers the body questions about `who` (the move's own, or the crowd's world: NULL when there is no
// such character), and *out_body its body there.
static inline const tr_source *tr_source_of_who(const tr_source *src, const tr_crowd *crowd, tr_source *storage, tr_who who,
                                                tread_body_id *out_body) {
    *out_body = who.body;
    if (who.character < 0) return src;
    if (!tr_crowd_body(crowd, who.character, out_body)) return NULL;
    *storage = tr_source_world(crowd->world);
    return storage;
}

// Storage for a combined filter's callback context (on the query's stack).
typedef struct tr_filter_context {
    const tr_move_query *move;
    const tread_query_filter *query;
} tr_filter_context;
// A query's filter and the move's, both applied: the masks intersected, the query's ignored body and callback kept,
// the move's (its filter, one-way bodies, the listener's validation) checked by a callback that wraps them, in *out.
const tread_query_filter *tr_filter_wrapped(const tr_move_query *q, const tread_query_filter *filter, tr_filter_context *context,
                                            tread_query_filter *out);
// The same, or `filter` itself when the move adds nothing (inline: most moves add nothing, and every query asks).
static inline const tread_query_filter *tr_filter_combined(const tr_move_query *q, const tread_query_filter *filter,
                                                           tr_filter_context *context, tread_query_filter *out) {
    if (!q->filter && !q->one_way && !q->verdicts) return filter;
    return tr_filter_wrapped(q, filter, context, out);
}
// The filter the crowd's world is queried with: the query's layer mask (and the move's), never this character itself,
// the listener's validation and the query's set of bodies and characters (tr_who_filter) asked about the character.
// The caller's move filter names the caller's bodies, not characters.
tread_query_filter tr_filter_crowd(const tr_move_query *q, const tread_query_filter *filter, tr_filter_context *context);

#endif
