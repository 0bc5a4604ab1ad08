// SPDX-License-Identifier: MIT
// The tests' IBSP writer (level_builder.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_builder.h"

typedef struct builder {
    uint8_t lumps[17][65536];
    size_t len[17];
} builder;

static void put_i32(builder *b, int lump, int32_t v) {
    uint32_t u = (uint32_t)v;
    for (int i = 0; i < 4; ++i) b->lumps[lump][b->len[lump]++] = (uint8_t)(u >> (8 * i));
}
static void put_f32(builder *b, int lump, double v) {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    put_i32(b, lump, (int32_t)u);
}

static void add_shader(builder *b, const char *name, int surface_flags, int contents) {
    char n[64] = {0};
    snprintf(n, sizeof n, "%s", name);
    memcpy(b->lumps[1] + b->len[1], n, 64);
    b->len[1] += 64;
    put_i32(b, 1, surface_flags);
    put_i32(b, 1, contents);
}

int model1_boxes;

// The world's boxes first, then each model's in turn.
uint8_t *build_models(const box_brush *boxes, int box_count, const patch_def *patch, const char *entities, const model_def *models,
                      int model_count, size_t *out_size) {
    static builder b;
    memset(&b, 0, sizeof b);
    size_t elen = strlen(entities) + 1;
    memcpy(b.lumps[0], entities, elen);
    b.len[0] = elen;
    add_shader(&b, "solid", 0, 0x1);
    add_shader(&b, "lava", 0, 0x8);
    add_shader(&b, "clip", 0x80, 0x10000);
    add_shader(&b, "patch", 0, 0x1);
    add_shader(&b, "patch_nonsolid", 0x4000, 0x1);
    for (int i = 0; i < box_count; ++i) {
        const box_brush *x = &boxes[i];
        put_i32(&b, 8, 6 * i); // brush: first side, side count, shader
        put_i32(&b, 8, 6);
        put_i32(&b, 8, x->shader);
        for (int k = 0; k < 3; ++k)
            for (int s = 0; s < 2; ++s) {
                double n[3] = {0, 0, 0};
                n[k] = s ? -1.0 : 1.0;
                put_f32(&b, 2, n[0]), put_f32(&b, 2, n[1]), put_f32(&b, 2, n[2]);
                put_f32(&b, 2, s ? -x->lo[k] : x->hi[k]);
                put_i32(&b, 9, 6 * i + 2 * k + s); // side: plane, shader
                put_i32(&b, 9, x->shader);
            }
    }
    int surfaces = 0;
    if (patch) {
        for (int i = 0; i < patch->w * patch->h; ++i) {
            for (int k = 0; k < 3; ++k) put_f32(&b, 10, patch->pts[i][k]);
            for (int k = 0; k < 8; ++k) put_i32(&b, 10, 0); // st, lm, normal (floats of zero bits) and color
        }
        int fields[26] = {patch->shader, -1, 2, 0, patch->w * patch->h, 0, 0, 0, 0, 0, 0, 0};
        fields[24] = patch->w, fields[25] = patch->h;
        for (int k = 0; k < 26; ++k) put_i32(&b, 13, fields[k]);
        surfaces = 1;
    }
    double m0[6] = {-1024, -1024, -1024, 1024, 1024, 1024};
    int model_boxes = 0;
    for (int m = 0; m < model_count; ++m) model_boxes += models[m].boxes;
    for (int k = 0; k < 6; ++k) put_f32(&b, 7, m0[k]);
    put_i32(&b, 7, 0), put_i32(&b, 7, surfaces), put_i32(&b, 7, 0), put_i32(&b, 7, box_count - model_boxes);
    for (int m = 0, first = box_count - model_boxes; m < model_count; first += models[m++].boxes) {
        for (int k = 0; k < 6; ++k) put_f32(&b, 7, models[m].bounds[k]);
        put_i32(&b, 7, 0), put_i32(&b, 7, 0), put_i32(&b, 7, first), put_i32(&b, 7, models[m].boxes);
    }
    size_t size = 8 + 17 * 8;
    for (int l = 0; l < 17; ++l) size += b.len[l];
    uint8_t *out = calloc(size, 1);
    memcpy(out, "IBSP", 4);
    out[4] = 46;
    size_t at = 8 + 17 * 8;
    for (int l = 0; l < 17; ++l) {
        uint32_t off = (uint32_t)at, len = (uint32_t)b.len[l];
        for (int i = 0; i < 4; ++i) out[8 + 8 * l + i] = (uint8_t)(off >> (8 * i)), out[12 + 8 * l + i] = (uint8_t)(len >> (8 * i));
        memcpy(out + at, b.lumps[l], b.len[l]);
        at += b.len[l];
    }
    *out_size = size;
    return out;
}

uint8_t *build(const box_brush *boxes, int box_count, const patch_def *patch, const char *entities, double model1[6], size_t *out_size) {
    model_def m = {{0, 0, 0, 0, 0, 0}, model1_boxes};
    if (model1) memcpy(m.bounds, model1, sizeof m.bounds);
    return build_models(boxes, box_count, patch, entities, &m, model1 ? 1 : 0, out_size);
}

uint8_t *build_boxes(const box_brush *boxes, int count, size_t *size) { return build(boxes, count, NULL, "", NULL, size); }

void write_models_file(const char *path, const box_brush *boxes, int box_count, const char *entities, const model_def *models, int model_count) {
    size_t size;
    uint8_t *data = build_models(boxes, box_count, NULL, entities, models, model_count, &size);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
    free(data);
}
