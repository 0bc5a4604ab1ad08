// SPDX-License-Identifier: MIT
// The controller's query layer: every world query a move makes goes through a per-move context. A move begins
// with its bounds — everything it can reach, validated once (finite; they may reach past the coordinate limit, which
// the feet keep to: move.c) — and then casts,
// collects contacts and probes inside them without re-validating each argument. Every query returns a status
// that its caller checks (a query outside the move's bounds is an error, not a silent miss), so a failure
// reaches the caller of the move with the character unchanged. The context (move_context.h) is also where debug
// drawing sees what a move looked at (move_draw.h) and what it lets through is decided (move_filter.h).
#ifndef TREAD_MOVE_QUERY_H
#define TREAD_MOVE_QUERY_H

#include "move_context.h"
#include "move_filter.h"
#include "move_draw.h"

// The answers name what they met by body, or (the crowd's) by character: TR_WHO (move_context.h).

// Begin a move of `ch` (as it is now) around `center` that reaches at most `reach` metres from it (shape included),
// on `src` (a backend's begin_move is told the bounds, which may reach past TREAD_MAX_COORDINATE). Fails when the
// bounds are not finite or the backend's begin_move fails; once it succeeded, tr_move_query_end must follow. The move's filter, listener, contact
// buffer and the other characters start empty (NULL); set them after beginning.
tread_result tr_move_query_begin_on(tr_move_query *q, const tr_source *src, const tread_character *ch, tread_vec3 center, float reach);
// The same on tread's own world `w` (nothing to end).
tread_result tr_move_query_begin(tr_move_query *q, const tread_world *w, const tread_character *ch, tread_vec3 center, float reach);
// End a move (a backend's end_move); copies of the context made during the move end with it.
static inline void tr_move_query_end(tr_move_query *q) { tr_source_end(&q->src); }
// Gather the candidates of the move: the bodies within `reach` of `center` (its usual queries; those reaching farther,
// as a search for a way out of a burial, walk the tree). Without it every query walks the tree. On a backend only the
// other characters are gathered (the backend gathers its own at begin_move, if it likes). `cache` (NULL: none) is
// what the last move left: its bodies are taken when they hold this move's box in the world as it is now, and it
// keeps this move's for the next. `later` (NULL: none) is the storage of the bodies within `later_reach` of `center`,
// gathered by the first query that reaches past `reach` but not past `later_reach` (a step, a snap): most moves
// never make one.
void tr_move_query_gather(tr_move_query *q, tread_vec3 center, float reach, tread_move_cache_bodies *cache, float later_reach,
                          tr_later_candidates *later);
// Add the other characters of a batch as the move's second source, gathering those within the candidates' box.
void tr_move_query_set_crowd(tr_move_query *q, const tr_crowd *crowd);

tread_result tr_query_cast(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                           const tread_query_filter *filter, tread_shape_hit *out_hit);
tread_result tr_query_cast_all(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                               const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count);
// tr_query_cast_all keeping only the hits within `window` (a fraction of the translation) of the nearest: the first
// ones of cast_all's list, found without looking at what lies beyond them. window < 0: every hit.
tread_result tr_query_cast_near(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                const tread_query_filter *filter, float window, tread_shape_hit *hits, int capacity, int *out_count);
tread_result tr_query_ray(const tr_move_query *q, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                          tread_ray_hit *out_hit);
tread_result tr_query_contacts(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float margin,
                               const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count,
                               bool *out_overflow);
tread_result tr_query_closest(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                              const tread_query_filter *filter, tread_distance_result *out_result);



#ifndef NDEBUG
// The worst excess of a query over its phase's reach (metres) on this thread since the last call, then cleared.
float tr_reach_watch_take_excess(void);
#endif


#endif
