// SPDX-License-Identifier: MIT
// Saved state as bytes (character and body state): little-endian on every machine, floats as their IEEE-754 bits,
// written and read one field at a time through a cursor that never runs past its buffer.
#ifndef TREAD_BYTES_H
#define TREAD_BYTES_H

#include <stdint.h>
#include <string.h>

#include "tread/math.h"

typedef struct tr_cursor {
    uint8_t *out;      // writing (NULL: reading)
    const uint8_t *in; // reading
    size_t at, size;
    bool short_read;   // a read past the end (the bytes were too few)
} tr_cursor;

static inline void tr_put_u32(tr_cursor *c, uint32_t v) {
    if (c->at + 4 <= c->size)
        for (int i = 0; i < 4; ++i) c->out[c->at + (size_t)i] = (uint8_t)(v >> (8 * i));
    c->at += 4;
}
static inline uint32_t tr_get_u32(tr_cursor *c) {
    uint32_t v = 0;
    if (c->at + 4 <= c->size)
        for (int i = 0; i < 4; ++i) v |= (uint32_t)c->in[c->at + (size_t)i] << (8 * i);
    else c->short_read = true;
    c->at += 4;
    return v;
}
static inline void tr_put_f32(tr_cursor *c, float f) {
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    tr_put_u32(c, v);
}
static inline float tr_get_f32(tr_cursor *c) {
    uint32_t v = tr_get_u32(c);
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}
static inline void tr_put_f64(tr_cursor *c, double d) {
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    tr_put_u32(c, (uint32_t)v);
    tr_put_u32(c, (uint32_t)(v >> 32));
}
static inline double tr_get_f64(tr_cursor *c) {
    uint64_t lo = tr_get_u32(c), hi = tr_get_u32(c);
    uint64_t v = lo | (hi << 32);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}
static inline void tr_put_v3(tr_cursor *c, tread_vec3 v) {
    tr_put_f32(c, v.x), tr_put_f32(c, v.y), tr_put_f32(c, v.z);
}
static inline tread_vec3 tr_get_v3(tr_cursor *c) {
    tread_vec3 v;
    v.x = tr_get_f32(c), v.y = tr_get_f32(c), v.z = tr_get_f32(c);
    return v;
}
static inline void tr_put_quat(tr_cursor *c, tread_quat q) {
    tr_put_f32(c, q.x), tr_put_f32(c, q.y), tr_put_f32(c, q.z), tr_put_f32(c, q.w);
}
static inline tread_quat tr_get_quat(tr_cursor *c) {
    tread_quat q;
    q.x = tr_get_f32(c), q.y = tr_get_f32(c), q.z = tr_get_f32(c), q.w = tr_get_f32(c);
    return q;
}

#endif
