// SPDX-License-Identifier: MIT
// The moving bodies' state as versioned bytes (tread_world_save_bodies / tread_world_load_bodies), beside the
// characters' (character/state.c): what rollback must restore for a re-run to repeat itself bit for bit — every
// kinematic and dynamic body's transform now and at the last advance, its velocities, its surface velocity and its
// exact-rotation state. Static bodies and shapes are the level: not saved.
#include "world_internal.h"
#include "../bytes.h"

// "TRDB" and the layout's version.
#define TR_BODIES_MAGIC 0x42445254u
#define TR_BODIES_VERSION 1u
// Bytes before the bodies: mark, version, count, the last advance's motion bound.
#define TR_BODIES_HEADER 16u
// Bytes per saved body.
#define TR_BODY_STATE_SIZE 188u

static bool moving(const tr_body *b) { return b->alive && b->body_type != TREAD_BODY_STATIC; }

static void put_transform(tr_cursor *c, tread_transform t) {
    tr_put_v3(c, t.p);
    tr_put_quat(c, t.q);
}

static tread_transform get_transform(tr_cursor *c) {
    tread_transform t;
    t.p = tr_get_v3(c);
    t.q = tr_get_quat(c);
    return t;
}

static void put_body(tr_cursor *c, const tr_body *b, uint32_t slot) {
    tr_put_u32(c, slot);
    tr_put_u32(c, b->generation);
    tr_put_u32(c, (uint32_t)b->body_type);
    tr_put_u32(c, b->moved ? 1u : 0u);
    put_transform(c, b->transform);
    put_transform(c, b->previous);
    tr_put_v3(c, b->linear_velocity);
    tr_put_v3(c, b->angular_velocity);
    tr_put_v3(c, b->surface.linear);
    tr_put_v3(c, b->surface.angular);
    tr_put_v3(c, b->surface.center);
    tr_put_quat(c, b->spin_base);
    for (int i = 0; i < 3; ++i) tr_put_f64(c, b->spin_axis[i]);
    tr_put_f64(c, b->spin_angle);
    tr_put_f64(c, b->spin_error);
}

tread_result tread_world_save_bodies(const tread_world *w, void *bytes, size_t capacity, size_t *out_size) {
    if (!w || !out_size) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world or out_size is NULL");
    if (!bytes && capacity > 0) return tr_error(TREAD_ERR_NULL_ARGUMENT, "bytes is NULL with capacity %zu", capacity);
    uint32_t count = 0;
    for (int i = 0; i < w->slot_count; ++i) count += moving(&w->bodies[i]);
    size_t size = TR_BODIES_HEADER + (size_t)count * TR_BODY_STATE_SIZE;
    *out_size = size;
    if (!bytes) return TREAD_OK; // a question of size
    if (capacity < size) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "capacity is %zu bytes; the %u moving bodies need %zu", capacity, count, size);
    tr_cursor c = {(uint8_t *)bytes, NULL, 0, capacity, false};
    tr_put_u32(&c, TR_BODIES_MAGIC);
    tr_put_u32(&c, TR_BODIES_VERSION);
    tr_put_u32(&c, count);
    tr_put_f32(&c, w->largest_motion);
    for (int i = 0; i < w->slot_count; ++i)
        if (moving(&w->bodies[i])) put_body(&c, &w->bodies[i], (uint32_t)i);
    TR_ASSERT(c.at == size);
    return TREAD_OK;
}

// One saved body read and checked against the world (the same body, of the same type, sane numbers).
static tread_result get_body(tr_cursor *c, const tread_world *w, tr_body *out, uint32_t *out_slot) {
    uint32_t slot = tr_get_u32(c), generation = tr_get_u32(c), type = tr_get_u32(c), moved = tr_get_u32(c);
    if (slot >= (uint32_t)w->slot_count || !w->bodies[slot].alive || w->bodies[slot].generation != generation)
        return tr_error(TREAD_ERR_INVALID_ID, "saved body {index %u, generation %u} is not in this world", slot, generation);
    const tr_body *now = &w->bodies[slot];
    if (type != (uint32_t)now->body_type)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "saved body {index %u} was of type %u; it is of type %d now", slot, type, (int)now->body_type);
    tr_body b = *now;
    b.moved = moved != 0u;
    b.transform = get_transform(c);
    b.previous = get_transform(c);
    b.linear_velocity = tr_get_v3(c);
    b.angular_velocity = tr_get_v3(c);
    b.surface.linear = tr_get_v3(c);
    b.surface.angular = tr_get_v3(c);
    b.surface.center = tr_get_v3(c);
    b.spin_base = tr_get_quat(c);
    for (int i = 0; i < 3; ++i) b.spin_axis[i] = tr_get_f64(c);
    b.spin_angle = tr_get_f64(c);
    b.spin_error = tr_get_f64(c);
    tread_result r = tr_world_check_saved_body(&b, slot);
    if (r != TREAD_OK) return r;
    *out = b;
    *out_slot = slot;
    return TREAD_OK;
}

tread_result tread_world_load_bodies(tread_world *w, const void *bytes, size_t size) {
    if (!w || !bytes) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world or bytes is NULL");
    tr_cursor c = {NULL, (const uint8_t *)bytes, 0, size, false};
    uint32_t magic = tr_get_u32(&c), version = tr_get_u32(&c), count = tr_get_u32(&c);
    float largest_motion = tr_get_f32(&c);
    if (c.short_read || magic != TR_BODIES_MAGIC) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "bytes are not saved bodies (no TRDB mark)");
    if (version != TR_BODIES_VERSION)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "saved bodies version %u; this library reads version %u", version, TR_BODIES_VERSION);
    if (count > (size - TR_BODIES_HEADER) / TR_BODY_STATE_SIZE || size != TR_BODIES_HEADER + (size_t)count * TR_BODY_STATE_SIZE)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "size is %zu bytes; %u saved bodies take %zu", size, count,
                        TR_BODIES_HEADER + (size_t)count * TR_BODY_STATE_SIZE);
    if (!isfinite(largest_motion) || largest_motion < 0.0f)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "saved bodies' motion bound is %g; expected a finite number >= 0", (double)largest_motion);
    // Everything checked before anything changes: a load restores every body or none.
    float cap = TR_MAX_SPEED; // (what a dynamic body may move in an advance, also when none was saved)
    for (uint32_t k = 0; k < count; ++k) {
        tr_body b;
        uint32_t slot;
        tread_result r = get_body(&c, w, &b, &slot);
        if (r != TREAD_OK) return r;
        cap = tr_maxf(cap, tr_world_motion_cap(&b));
    }
    // (How far every move looks for bodies that pushed it: a flipped bit made it 3e37 m, and every move failed.)
    if (largest_motion > cap)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "saved bodies' motion bound is %g m; these bodies cannot have moved farther than %g m in an advance",
                        (double)largest_motion, (double)cap);
    c.at = TR_BODIES_HEADER;
    for (uint32_t k = 0; k < count; ++k) {
        tr_body b;
        uint32_t slot;
        tread_result r = get_body(&c, w, &b, &slot);
        TR_ASSERT(r == TREAD_OK);
        (void)r;
        tr_world_restore_body(w, slot, &b);
    }
    w->largest_motion = largest_motion; // how far the pushes look, as at the save
    tr_world_changed(w); // (never back to the saved revision: what a move cached since the save is stale too)
    return TREAD_OK;
}
