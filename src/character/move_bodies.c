// SPDX-License-Identifier: MIT
// What a move asks about the bodies and characters it met, and how the ground moved before it (move_bodies.h).
#include "move_bodies.h"

#include "move_filter.h"

bool tr_query_body_is_live(const tr_move_query *q, tr_who who) {
    uint32_t layer;
    tr_source storage;
    tread_body_id body;
    const tr_source *s = tr_source_of_who(&q->src, &q->crowd, &storage, who, &body);
    return s && tr_source_body_layer(s, body, &layer);
}

static tread_result gone(tr_who who) {
    if (who.character >= 0) return tr_error(TREAD_ERR_INVALID_ID, "character %d met during this move is gone", (int)who.character);
    return tr_error(TREAD_ERR_INVALID_ID, "body {index %u, generation %u} met during this move is gone", who.body.index, who.body.generation);
}

tread_result tr_query_body_layer(const tr_move_query *q, tr_who who, uint32_t *out_layer) {
    tr_source storage;
    tread_body_id body;
    const tr_source *s = tr_source_of_who(&q->src, &q->crowd, &storage, who, &body);
    return s && tr_source_body_layer(s, body, out_layer) ? TREAD_OK : gone(who);
}

tread_result tr_query_body_is_convex(const tr_move_query *q, tr_who who, bool *out_convex) {
    tr_source storage;
    tread_body_id body;
    const tr_source *s = tr_source_of_who(&q->src, &q->crowd, &storage, who, &body);
    return s && tr_source_body_is_convex(s, body, out_convex) ? TREAD_OK : gone(who);
}

tread_result tr_query_body_kind(const tr_move_query *q, tr_who who, tread_body_type *out_type, uint32_t *out_flags) {
    if (who.character >= 0) { // a character: pushed, never one-way or a sensor
        *out_type = TREAD_BODY_DYNAMIC;
        *out_flags = 0u;
        return TREAD_OK;
    }
    return tr_source_body_kind(&q->src, who.body, out_type, out_flags) ? TREAD_OK : gone(who);
}

tread_result tr_query_point_velocity(const tr_move_query *q, tr_who who, tread_vec3 point, tread_vec3 *out_velocity) {
    tr_source storage;
    tread_body_id body;
    const tr_source *s = tr_source_of_who(&q->src, &q->crowd, &storage, who, &body);
    return s && tr_source_point_velocity(s, body, point, out_velocity) ? TREAD_OK : gone(who);
}

void tr_ground_motion(const tr_source *src, const tr_crowd *crowd, tr_who ground, tread_vec3 point, tread_vec3 *out_point,
                      tread_quat *out_turn) {
    *out_point = point;
    *out_turn = tread_quat_identity();
    tr_source storage;
    tread_body_id body;
    const tr_source *s = tr_source_of_who(src, crowd, &storage, ground, &body);
    if (s) tr_source_ground_motion(s, body, point, out_point, out_turn);
}

bool tr_ground_still(const tr_source *src, const tr_crowd *crowd, tr_who ground) {
    tr_source storage;
    tread_body_id body;
    const tr_source *s = ground.character >= 0 ? NULL : tr_source_of_who(src, crowd, &storage, ground, &body);
    return s && tr_source_body_still(s, body);
}

float tr_pushers_reach(const tr_source *src) { return tr_source_largest_motion(src); }

void tr_surface_motion(const tr_source *src, const tr_crowd *crowd, tr_who ground, tread_vec3 point, float dt, tread_vec3 *out_point,
                       tread_quat *out_turn) {
    *out_point = point;
    *out_turn = tread_quat_identity();
    tr_source storage;
    tread_body_id body;
    const tr_source *s = tr_source_of_who(src, crowd, &storage, ground, &body);
    if (s) tr_source_surface_carry(s, body, point, dt, out_point, out_turn);
}
