// SPDX-License-Identifier: MIT
// What a move lets through (move_filter.c): the caller's move filter, one-way bodies (blocking only feet that were on
// or above their top), the listener's validation (asked once per body per move), and the other characters of a
// batch, named by tagged ids (source.h). The queries (move_query.c) apply them to every query's own filter.
#ifndef TREAD_MOVE_FILTER_H
#define TREAD_MOVE_FILTER_H

#include "move_context.h"

// The listener's validation of a body (tagged for a character): true without a validate callback.
bool tr_query_validated(const tr_move_query *q, tread_body_id body);
// The index in the batch's arrays of the character a body of `others` is (tagged id), or -1 for a world body.
int tr_query_character_of(const tr_move_query *q, tread_body_id body);

// A body id of `others` tagged as the move's queries name it.
static inline tread_body_id tr_tagged(tread_body_id id) { return (tread_body_id){id.index | TR_OTHERS_BIT, id.generation}; }
// The source a body id names (the move's own, or the batch's characters for a tagged id: NULL when there are none),
// and *id its id there.
static inline const tr_source *tr_source_of_body(const tr_source *src, const tread_world *others, tr_source *storage, tread_body_id *id) {
    if (!tr_is_other(*id)) return src;
    id->index &= ~TR_OTHERS_BIT;
    if (!others) return NULL;
    *storage = tr_source_world(others);
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
// The filter for the other characters: the query's layer mask (and the move's), never this character itself, the
// listener's validation and the query's own callback seeing tagged ids. The caller's move filter names the caller's
// bodies, not characters.
tread_query_filter tr_filter_others(const tr_move_query *q, const tread_query_filter *filter, tr_filter_context *context);

#endif
