// SPDX-License-Identifier: MIT
// A character's state as versioned bytes (tread_character_save / tread_character_load): rollback netcode keeps a
// frame's bytes and restores them to re-simulate; a server hands a character to another. Little-endian IEEE-754
// whatever the machine (src/bytes.h), every field by name, so the bytes do not depend on the struct's padding.
#include "character_internal.h"
#include "../bytes.h"
#include "../validate.h"

// "TRDC" and the layout's version: a new field bumps it, and an old version is refused with its number.
#define TR_CHARACTER_MAGIC 0x43445254u
#define TR_CHARACTER_VERSION 1u

static void put_settings(tr_cursor *c, const tread_character_settings *s) {
    tr_put_u32(c, (uint32_t)s->shape);
    tr_put_f32(c, s->radius);
    tr_put_f32(c, s->height);
    tr_put_v3(c, s->up);
    tr_put_f32(c, s->max_slope_degrees);
    tr_put_f32(c, s->max_step_height);
    tr_put_f32(c, s->min_step_depth);
    tr_put_f32(c, s->step_down_distance);
    tr_put_f32(c, s->max_snap_speed);
    tr_put_f32(c, s->ground_probe_distance);
    tr_put_f32(c, s->skin);
    tr_put_u32(c, (uint32_t)s->max_slide_iterations);
    tr_put_u32(c, s->collide_mask);
    tr_put_u32(c, s->ground_mask);
    tr_put_f32(c, s->recovery_speed);
    tr_put_f32(c, s->mass);
    tr_put_f32(c, s->max_strength);
    tr_put_u32(c, s->keep_horizontal_speed ? 1u : 0u);
    tr_put_u32(c, s->stairs_layer_mask);
    tr_put_f32(c, s->stairs_max_slope_degrees);
    tr_put_u32(c, (uint32_t)s->step_strategy);
    tr_put_f32(c, s->contact_step.search_overshoot);
    tr_put_f32(c, s->riser.depth);
    tr_put_f32(c, s->riser.radius_scale);
    tr_put_f32(c, s->riser.speed_scale);
    tr_put_f32(c, s->riser.fall_scale);
}

static void get_settings(tr_cursor *c, tread_character_settings *s) {
    s->shape = (tread_query_shape_type)tr_get_u32(c);
    s->radius = tr_get_f32(c);
    s->height = tr_get_f32(c);
    s->up = tr_get_v3(c);
    s->max_slope_degrees = tr_get_f32(c);
    s->max_step_height = tr_get_f32(c);
    s->min_step_depth = tr_get_f32(c);
    s->step_down_distance = tr_get_f32(c);
    s->max_snap_speed = tr_get_f32(c);
    s->ground_probe_distance = tr_get_f32(c);
    s->skin = tr_get_f32(c);
    s->max_slide_iterations = (int)tr_get_u32(c);
    s->collide_mask = tr_get_u32(c);
    s->ground_mask = tr_get_u32(c);
    s->recovery_speed = tr_get_f32(c);
    s->mass = tr_get_f32(c);
    s->max_strength = tr_get_f32(c);
    s->keep_horizontal_speed = tr_get_u32(c) != 0u;
    s->stairs_layer_mask = tr_get_u32(c);
    s->stairs_max_slope_degrees = tr_get_f32(c);
    s->step_strategy = (tread_step_strategy)tr_get_u32(c);
    s->contact_step.search_overshoot = tr_get_f32(c);
    s->riser.depth = tr_get_f32(c);
    s->riser.radius_scale = tr_get_f32(c);
    s->riser.speed_scale = tr_get_f32(c);
    s->riser.fall_scale = tr_get_f32(c);
}

static void put_character(tr_cursor *c, const tread_character *ch) {
    tr_put_u32(c, TR_CHARACTER_MAGIC);
    tr_put_u32(c, TR_CHARACTER_VERSION);
    put_settings(c, &ch->settings);
    tr_put_v3(c, ch->position);
    tr_put_v3(c, ch->velocity);
    tr_put_u32(c, (uint32_t)ch->ground.state);
    tr_put_v3(c, ch->ground.normal);
    tr_put_v3(c, ch->ground.point);
    tr_put_f32(c, ch->ground.distance);
    tr_put_v3(c, ch->ground.velocity);
    // What it stands on: a body's id, or (generation 0, which no body has) character k of a batch as index k + 1, or
    // nothing as the null id {0, 0}. (One field for the two: the state's size and the saves of 0.3.0 stay valid.)
    bool on_character = ch->ground.character >= 0;
    tr_put_u32(c, on_character ? (uint32_t)ch->ground.character + 1u : ch->ground.body.index);
    tr_put_u32(c, on_character ? 0u : ch->ground.body.generation);
    tr_put_f32(c, ch->snap_suppress_time);
}

tread_result tread_character_save(const tread_character *ch, void *bytes, size_t capacity, size_t *out_size) {
    if (!ch || !out_size) return tr_error(TREAD_ERR_NULL_ARGUMENT, "character or out_size is NULL");
    tread_result r = tr_check_character(ch, "character");
    if (r != TREAD_OK) return r;
    if (!bytes && capacity > 0) return tr_error(TREAD_ERR_NULL_ARGUMENT, "bytes is NULL with capacity %zu", capacity);
    *out_size = TREAD_CHARACTER_STATE_SIZE;
    if (!bytes) return TREAD_OK; // a question of size
    if (capacity < TREAD_CHARACTER_STATE_SIZE)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "capacity is %zu bytes; a character's state needs %d", capacity, TREAD_CHARACTER_STATE_SIZE);
    tr_cursor c = {(uint8_t *)bytes, NULL, 0, capacity, false};
    put_character(&c, ch);
    TR_ASSERT(c.at == TREAD_CHARACTER_STATE_SIZE);
    return TREAD_OK;
}

tread_result tread_character_load(tread_character *ch, const void *bytes, size_t size) {
    if (!ch || !bytes) return tr_error(TREAD_ERR_NULL_ARGUMENT, "character or bytes is NULL");
    if (size != TREAD_CHARACTER_STATE_SIZE)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "size is %zu bytes; a character's state is %d", size, TREAD_CHARACTER_STATE_SIZE);
    tr_cursor c = {NULL, (const uint8_t *)bytes, 0, size, false};
    uint32_t magic = tr_get_u32(&c), version = tr_get_u32(&c);
    if (magic != TR_CHARACTER_MAGIC) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "bytes are not a character's state (no TRDC mark)");
    if (version != TR_CHARACTER_VERSION)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "character state version %u; this library reads version %u", version, TR_CHARACTER_VERSION);
    // Every saved field is read over the defaults: the settings then carry the cookie tread_character_init() checks
    // (the bytes do not hold it: it is not state, and a zero-filled buffer is refused by its missing mark first).
    tread_character_settings s = tread_character_settings_default();
    get_settings(&c, &s);
    tread_vec3 position = tr_get_v3(&c);
    // Settings and feet validated as a new character's are; then what it was doing.
    tread_character next;
    tread_result r = tread_character_init(&next, &s, position);
    if (r != TREAD_OK) return r;
    next.velocity = tr_get_v3(&c);
    uint32_t state = tr_get_u32(&c);
    next.ground.normal = tr_get_v3(&c);
    next.ground.point = tr_get_v3(&c);
    next.ground.distance = tr_get_f32(&c);
    next.ground.velocity = tr_get_v3(&c);
    uint32_t index = tr_get_u32(&c), generation = tr_get_u32(&c);
    next.ground.body = generation != 0u ? (tread_body_id){index, generation} : tread_body_id_null();
    next.ground.character = generation == 0u && index > 0u ? (int32_t)(index - 1u) : -1;
    next.snap_suppress_time = tr_get_f32(&c);
    TR_ASSERT(!c.short_read && c.at == size);
    if (generation == 0u && index > 0u && index - 1u > (uint32_t)INT32_MAX)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "ground names character %u; expected an index below 2^31", index - 1u);
    if (state > (uint32_t)TREAD_GROUND_IN_AIR) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "ground state %u is not a tread_ground_state", state);
    next.ground.state = (tread_ground_state)state;
    // The rest as every public entry checks a character (the same code): unit normals, the speed limit, finite
    // numbers, the coordinate limit. It accepted ground normals of length 0 or 2 and velocities of 3e38 m/s.
    if ((r = tr_check_character(&next, "saved character")) != TREAD_OK) return r;
    *ch = next;
    return TREAD_OK;
}
