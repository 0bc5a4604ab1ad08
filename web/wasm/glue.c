// SPDX-License-Identifier: MIT
// The WebAssembly module's own exports, besides the library's pointer-only functions which JavaScript calls as they
// are (web/wasm/exports.txt lists those). WebAssembly's C ABI passes a struct argument or result through hidden
// memory, which JavaScript cannot build portably, so every library call that takes or returns a struct by value
// (a tread_vec3, a tread_body_id, a tread_transform, a *_default()) has a wrapper here taking plain numbers and
// pointers. Plus the struct layout tables (layout.c) JavaScript reads every offset from.
#include <emscripten.h>
#include <string.h>

#include "layout.h"
#include "tread/tread.h"

#define EXPORT EMSCRIPTEN_KEEPALIVE

static tread_body_id id_of(uint32_t index, uint32_t generation) {
    tread_body_id id = {index, generation};
    return id;
}

static tread_transform transform_of(float px, float py, float pz, float qx, float qy, float qz, float qw) {
    tread_transform t = {{px, py, pz}, {qx, qy, qz, qw}};
    return t;
}

// ---- layout tables ------------------------------------------------------------------------------------------

EXPORT int tw_layout_count(void) { return tw_struct_count; }
EXPORT const char *tw_layout_name(int s) { return tw_structs[s].name; }
EXPORT int tw_layout_size(int s) { return tw_structs[s].size; }
EXPORT int tw_layout_field_count(int s) {
    int n = 0;
    while (tw_structs[s].fields[n].kind != TW_END) ++n;
    return n;
}
EXPORT const char *tw_layout_field_name(int s, int f) { return tw_structs[s].fields[f].name; }
EXPORT int tw_layout_field_offset(int s, int f) { return tw_structs[s].fields[f].offset; }
EXPORT int tw_layout_field_kind(int s, int f) { return tw_structs[s].fields[f].kind; }
EXPORT int tw_layout_field_sub(int s, int f) { return tw_structs[s].fields[f].sub; }
EXPORT int tw_layout_field_count_of(int s, int f) { return tw_structs[s].fields[f].count; }

// ---- defaults: written into the caller's memory -----------------------------------------------------------------

EXPORT void tw_character_settings_default(tread_character_settings *out) { *out = tread_character_settings_default(); }
EXPORT void tw_body_def_default(tread_body_def *out) { *out = tread_body_def_default(); }
EXPORT void tw_world_def_default(tread_world_def *out) { *out = tread_world_def_default(); }
EXPORT void tw_motor_settings_default(tread_motor_settings *out) { *out = tread_motor_settings_default(); }
EXPORT void tw_motor_state_default(tread_motor_state *out) { *out = tread_motor_state_default(); }
EXPORT void tw_motor_input_default(tread_motor_input *out) { *out = tread_motor_input_default(); }
EXPORT void tw_batch_def_default(tread_batch_def *out) { *out = tread_batch_def_default(); }
EXPORT void tw_step_smoothing_default(tread_step_smoothing *out) { *out = tread_step_smoothing_default(); }
EXPORT void tw_query_filter_default(tread_query_filter *out) { *out = tread_query_filter_default(); }
EXPORT void tw_query_shape_default(tread_query_shape *out) { *out = tread_query_shape_default(); }
EXPORT void tw_move_options_default(tread_move_options *out) { *out = tread_move_options_default(); }
EXPORT int tw_sizeof_move_options(void) { return (int)sizeof(tread_move_options); }

// ---- math the scene builders need bit for bit ------------------------------------------------------------------

EXPORT void tw_quat_from_axis_angle(float ax, float ay, float az, float radians, tread_quat *out) {
    *out = tread_quat_from_axis_angle(tread_v3(ax, ay, az), radians);
}

// ---- bodies: ids and transforms by value --------------------------------------------------------------------------

EXPORT int tw_body_remove(tread_world *w, uint32_t index, uint32_t generation) { return tread_world_remove_body(w, id_of(index, generation)); }
EXPORT int tw_body_is_valid(const tread_world *w, uint32_t index, uint32_t generation) { return tread_body_is_valid(w, id_of(index, generation)); }
EXPORT int tw_body_set_transform(tread_world *w, uint32_t index, uint32_t generation, float px, float py, float pz, float qx, float qy, float qz,
                                 float qw) {
    return tread_body_set_transform(w, id_of(index, generation), transform_of(px, py, pz, qx, qy, qz, qw));
}
EXPORT int tw_body_get_transform(const tread_world *w, uint32_t index, uint32_t generation, tread_transform *out) {
    return tread_body_get_transform(w, id_of(index, generation), out);
}
EXPORT int tw_body_get_motion(const tread_world *w, uint32_t index, uint32_t generation, tread_transform *previous, tread_transform *current) {
    return tread_body_get_motion(w, id_of(index, generation), previous, current);
}
EXPORT int tw_body_set_velocity(tread_world *w, uint32_t index, uint32_t generation, float lx, float ly, float lz, float ax, float ay, float az) {
    return tread_body_set_velocity(w, id_of(index, generation), tread_v3(lx, ly, lz), tread_v3(ax, ay, az));
}
EXPORT int tw_body_get_velocity(const tread_world *w, uint32_t index, uint32_t generation, tread_vec3 *linear, tread_vec3 *angular) {
    return tread_body_get_velocity(w, id_of(index, generation), linear, angular);
}
EXPORT int tw_body_move_to(tread_world *w, uint32_t index, uint32_t generation, const tread_transform *t, float lx, float ly, float lz, float ax,
                           float ay, float az) {
    return tread_body_move_to(w, id_of(index, generation), *t, tread_v3(lx, ly, lz), tread_v3(ax, ay, az));
}
EXPORT int tw_body_set_surface_velocity(tread_world *w, uint32_t index, uint32_t generation, const tread_surface_velocity *surface) {
    return tread_body_set_surface_velocity(w, id_of(index, generation), surface);
}
EXPORT int tw_body_get_aabb(const tread_world *w, uint32_t index, uint32_t generation, tread_aabb *out) {
    return tread_body_get_aabb(w, id_of(index, generation), out);
}
EXPORT int tw_body_get_type(const tread_world *w, uint32_t index, uint32_t generation, int *type, uint32_t *flags) {
    tread_body_type t;
    tread_result r = tread_body_get_type(w, id_of(index, generation), &t, flags);
    if (r == TREAD_OK) *type = (int)t;
    return r;
}
EXPORT int tw_body_get_layer(const tread_world *w, uint32_t index, uint32_t generation, uint32_t *out) {
    return tread_body_get_layer(w, id_of(index, generation), out);
}
EXPORT int tw_world_shift_origin(tread_world *w, float x, float y, float z, tread_character *characters, int count) {
    return tread_world_shift_origin(w, tread_v3(x, y, z), characters, count);
}

// ---- queries ------------------------------------------------------------------------------------------------------

EXPORT int tw_cast_ray(const tread_world *w, float ox, float oy, float oz, float tx, float ty, float tz, const tread_query_filter *filter,
                       tread_ray_hit *out) {
    return tread_world_cast_ray(w, tread_v3(ox, oy, oz), tread_v3(tx, ty, tz), filter, out);
}
EXPORT int tw_cast_shape(const tread_world *w, const tread_query_shape *shape, float px, float py, float pz, float tx, float ty, float tz,
                         const tread_query_filter *filter, tread_shape_hit *out) {
    return tread_world_cast_shape(w, shape, tread_v3(px, py, pz), tread_v3(tx, ty, tz), filter, out);
}
EXPORT int tw_closest(const tread_world *w, const tread_query_shape *shape, float px, float py, float pz, float max_distance,
                      const tread_query_filter *filter, tread_distance_result *out) {
    return tread_world_closest(w, shape, tread_v3(px, py, pz), max_distance, filter, out);
}

// ---- characters ---------------------------------------------------------------------------------------------------

EXPORT int tw_character_init(tread_character *c, const tread_character_settings *s, float x, float y, float z) {
    return tread_character_init(c, s, tread_v3(x, y, z));
}
EXPORT int tw_character_set_position(tread_character *c, float x, float y, float z) { return tread_character_set_position(c, tread_v3(x, y, z)); }
// The wrapper's moves give every character a buffer of TREAD_MAX_MOVE_CONTACTS contacts (the first it meets while
// moving: what the motor reads) and one of TREAD_MAX_MOVE_IMPULSES impulses (web/lib/character.mjs's MoveResult).
static tread_move_options tw_buffers(tread_contact *contacts, tread_body_impulse *impulses) {
    tread_move_options o = tread_move_options_default();
    o.contacts = contacts;
    o.contact_capacity = contacts ? TREAD_MAX_MOVE_CONTACTS : 0;
    o.contacts_where_it_ends = false;
    o.impulses = impulses;
    o.impulse_capacity = impulses ? TREAD_MAX_MOVE_IMPULSES : 0;
    return o;
}
EXPORT int tw_character_move(const tread_world *w, tread_character *c, float vx, float vy, float vz, float dt, tread_move_result *result,
                             tread_contact *contacts, tread_body_impulse *impulses) {
    tread_move_options o = tw_buffers(contacts, impulses);
    return tread_character_move_with(w, c, tread_v3(vx, vy, vz), dt, &o, result);
}
EXPORT void tw_character_shape(const tread_character *c, tread_query_shape *out) { *out = tread_character_shape(c); }
EXPORT void tw_character_center(const tread_character *c, tread_vec3 *out) { *out = tread_character_center(c); }
EXPORT int tw_sizeof_character(void) { return (int)sizeof(tread_character); }
EXPORT int tw_sizeof_move_result(void) { return (int)sizeof(tread_move_result); }
EXPORT int tw_move_contacts_capacity(void) { return TREAD_MAX_MOVE_CONTACTS; }
EXPORT int tw_move_impulses_capacity(void) { return TREAD_MAX_MOVE_IMPULSES; }
// Many characters in one call (a frame's single moves without a JavaScript call per character): velocities are 3
// floats each; results, contacts and impulses hold one result and buffer each per character (tw_buffers), or are
// all NULL (one scratch result is reused). Stops at the first error and returns it; *failed says which character.
EXPORT int tw_character_move_many(const tread_world *w, tread_character *characters, const float *velocities, int count, float dt,
                                  tread_move_result *results, tread_contact *contacts, tread_body_impulse *impulses, int *failed) {
    tread_move_result scratch;
    for (int i = 0; i < count; ++i) {
        const float *v = velocities + 3 * i;
        tread_move_options o = tw_buffers(contacts ? contacts + (size_t)i * TREAD_MAX_MOVE_CONTACTS : NULL,
                                          impulses ? impulses + (size_t)i * TREAD_MAX_MOVE_IMPULSES : NULL);
        tread_result r = tread_character_move_with(w, &characters[i], tread_v3(v[0], v[1], v[2]), dt, &o, results ? &results[i] : &scratch);
        if (r != TREAD_OK) {
            if (failed) *failed = i;
            return r;
        }
    }
    return TREAD_OK;
}
// The batch update with each character's buffers (tw_buffers, one after another per character).
EXPORT int tw_batch_move(tread_batch *b, const tread_world *w, tread_character *characters, const tread_vec3 *velocities, int count, float dt,
                         tread_move_result *results, tread_contact *contacts, tread_body_impulse *impulses) {
    tread_move_options o = tw_buffers(contacts, impulses);
    return tread_batch_move_with(b, w, characters, velocities, count, dt, &o, results);
}

EXPORT void tw_version(int *out) {
    tread_version_info v = tread_version();
    out[0] = v.major, out[1] = v.minor, out[2] = v.patch;
}
