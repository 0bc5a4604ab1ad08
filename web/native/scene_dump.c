// SPDX-License-Identifier: MIT
// The native reference the web tests compare against: loads scene files with the C loader (tools/scene, the `tread`
// command's own library), prints what it built, and runs each scene with the C runner, printing per-frame trace
// hashes. One JSON object per line and scene:
//
//   {"path", "ok", "error", "name", "dt", "duration", "gravity", "up", "characters_collide", "layers",
//    "bodies": [{"name", "type", "flags", "layer", "shape": {...}, "transform", "linear_velocity", ...}],
//    "characters": [{"name", "start", "settings": {C field: value}, "motor": {...} or null, "inputs": [...]}],
//    "frames", "trace_hash", "frame_hashes": [...], "body_hash", "final": [...]}
//
//   scene_dump [--no-run] SCENE.json ...
//
// Floats are printed with 9 significant digits, which name one float exactly (the JavaScript side compares
// Math.fround of them). Shape arrays (mesh vertices and indices, heights, holes, voxel cells) are printed as an
// FNV-1a hash of their bytes and their counts. The trace hash is FNV-1a 64 over every frame's characters' feet and
// velocity as float bits (little-endian), in frame then character order, running over the whole run; frame_hashes
// holds its value after each frame. Built by web/native/build.sh against the native build's libraries.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "tread_scene.h"

#define FNV_START 0xcbf29ce484222325ull

static uint64_t fnv(uint64_t h, const void *data, size_t bytes) {
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static void print_float(float v) { printf("%.9g", (double)v); }
static void print_vec3(tread_vec3 v) {
    printf("[");
    print_float(v.x), printf(","), print_float(v.y), printf(","), print_float(v.z);
    printf("]");
}
static void print_quat(tread_quat q) {
    printf("[");
    print_float(q.x), printf(","), print_float(q.y), printf(","), print_float(q.z), printf(","), print_float(q.w);
    printf("]");
}

// A struct as {"dotted.name": value, ...} by its layout table (pointers left out).
static void print_struct(const char *type, const void *base) {
    const tw_struct *t = tw_struct_named(type);
    const char *b = (const char *)base;
    printf("{");
    int n = 0;
    for (const tw_field *f = t->fields; f->kind != TW_END; ++f) {
        if (f->kind == TW_PTR) continue;
        printf("%s\"%s\":", n++ ? "," : "", f->name);
        const char *p = b + f->offset;
        float x;
        int32_t i;
        uint32_t u;
        switch (f->kind) {
        case TW_F32: memcpy(&x, p, 4), print_float(x); break;
        case TW_I32: memcpy(&i, p, 4), printf("%" PRId32, i); break;
        case TW_U32: memcpy(&u, p, 4), printf("%" PRIu32, u); break;
        case TW_BOOL: printf("%s", *(const bool *)p ? "true" : "false"); break;
        case TW_VEC3: print_vec3(*(const tread_vec3 *)p); break;
        case TW_QUAT: print_quat(*(const tread_quat *)p); break;
        case TW_STRUCT: print_struct(tw_structs[f->sub].name, p); break;
        default: printf("null"); break;
        }
    }
    printf("}");
}

static void print_hash(const char *key, uint64_t h) { printf("\"%s\":\"%016" PRIx64 "\"", key, h); }

static void print_shape(const tread_shape_def *s) {
    static const char *const names[] = {"sphere", "capsule", "box", "mesh", "heightfield", "voxels"};
    printf("{\"type\":\"%s\"", names[s->type]);
    switch (s->type) {
    case TREAD_SHAPE_SPHERE: printf(",\"radius\":"), print_float(s->radius); break;
    case TREAD_SHAPE_CAPSULE: printf(",\"radius\":"), print_float(s->radius), printf(",\"half_height\":"), print_float(s->half_height); break;
    case TREAD_SHAPE_BOX: printf(",\"half_extents\":"), print_vec3(s->half_extents); break;
    case TREAD_SHAPE_MESH:
        printf(",\"vertex_count\":%d,\"triangle_count\":%d,", s->mesh.vertex_count, s->mesh.triangle_count);
        print_hash("vertices_hash", fnv(FNV_START, s->mesh.vertices, sizeof(tread_vec3) * (size_t)s->mesh.vertex_count));
        printf(",");
        print_hash("indices_hash", fnv(FNV_START, s->mesh.indices, 3 * sizeof(uint32_t) * (size_t)s->mesh.triangle_count));
        break;
    case TREAD_SHAPE_HEIGHTFIELD: {
        const tread_heightfield_def *h = &s->heightfield;
        printf(",\"count_x\":%d,\"count_z\":%d,\"spacing_x\":", h->count_x, h->count_z);
        print_float(h->spacing_x), printf(",\"spacing_z\":"), print_float(h->spacing_z), printf(",");
        print_hash("heights_hash", fnv(FNV_START, h->heights, sizeof(float) * (size_t)h->count_x * (size_t)h->count_z));
        printf(",");
        if (h->holes) print_hash("holes_hash", fnv(FNV_START, h->holes, (size_t)(h->count_x - 1) * (size_t)(h->count_z - 1)));
        else printf("\"holes_hash\":null");
        break;
    }
    case TREAD_SHAPE_VOXELS: {
        const tread_voxels_def *v = &s->voxels;
        printf(",\"count_x\":%d,\"count_y\":%d,\"count_z\":%d,\"cell_size\":", v->count_x, v->count_y, v->count_z);
        print_float(v->cell_size), printf(",");
        print_hash("solid_hash", fnv(FNV_START, v->solid, (size_t)v->count_x * (size_t)v->count_y * (size_t)v->count_z));
        break;
    }
    default: break;
    }
    printf("}");
}

static void print_string(const char *s) {
    printf("\"");
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", *s);
        else putchar(*s);
    }
    printf("\"");
}

static void print_body(const scene_body *b) {
    static const char *const types[] = {"static", "kinematic", "dynamic"};
    printf("{\"name\":"), print_string(b->name);
    printf(",\"type\":\"%s\",\"flags\":%u,\"layer\":%u,\"has_path\":%s,\"shape\":", types[b->def.type], b->def.flags, b->def.layer,
           b->path.keys ? "true" : "false");
    print_shape(&b->def.shape);
    printf(",\"transform\":{\"p\":"), print_vec3(b->def.transform.p), printf(",\"q\":"), print_quat(b->def.transform.q), printf("}");
    printf(",\"linear_velocity\":"), print_vec3(b->def.linear_velocity);
    printf(",\"angular_velocity\":"), print_vec3(b->def.angular_velocity);
    printf(",\"surface\":{\"linear\":"), print_vec3(b->def.surface.linear), printf(",\"angular\":"), print_vec3(b->def.surface.angular);
    printf(",\"center\":"), print_vec3(b->def.surface.center), printf("}");
    if (b->def.type == TREAD_BODY_DYNAMIC) {
        printf(",\"dynamic\":{\"mass\":"), print_float(b->dynamic.mass), printf(",\"friction\":"), print_float(b->dynamic.friction);
        printf(",\"gravity\":%s}", b->dynamic.gravity ? "true" : "false");
    }
    printf("}");
}

static void print_character(const scene_character *c) {
    printf("{\"name\":"), print_string(c->name);
    printf(",\"crowd\":%d,\"start\":", c->crowd), print_vec3(c->start);
    printf(",\"settings\":"), print_struct("tread_character_settings", &c->settings);
    printf(",\"motor\":");
    if (c->has_motor) print_struct("tread_motor_settings", &c->motor);
    else printf("null");
    printf(",\"inputs\":[");
    for (int i = 0; i < c->input_count; ++i) {
        const scene_input *in = &c->inputs[i];
        static const char *const kinds[] = {"idle", "direction", "toward"};
        printf("%s{\"t\":", i ? "," : ""), print_float(in->t);
        printf(",\"kind\":\"%s\",\"direction\":", kinds[in->kind]), print_vec3(in->direction);
        printf(",\"target\":"), print_vec3(in->target), printf(",\"speed\":"), print_float(in->speed);
        printf(",\"jump\":%d,\"crouch\":%d}", in->jump, in->crouch);
    }
    printf("]}");
}

static void print_run(const scene *s) {
    run_trace t;
    char message[512];
    if (!run_scene(s, NULL, &t, message, sizeof message)) {
        printf(",\"run_error\":"), print_string(message);
        return;
    }
    uint64_t h = FNV_START, bh = FNV_START;
    printf(",\"frames\":%d,\"frame_hashes\":[", t.frame_count);
    for (int i = 0; i < t.frame_count; ++i) {
        for (int c = 0; c < t.character_count; ++c) {
            const run_frame *f = run_frame_at(&t, c, i);
            const float v[6] = {f->feet.x, f->feet.y, f->feet.z, f->velocity.x, f->velocity.y, f->velocity.z};
            h = fnv(h, v, sizeof v);
        }
        for (int k = 0; k < t.body_count; ++k) {
            tread_transform b = run_body_at(&t, k, i);
            const float v[7] = {b.p.x, b.p.y, b.p.z, b.q.x, b.q.y, b.q.z, b.q.w};
            bh = fnv(bh, v, sizeof v);
        }
        printf("%s\"%016" PRIx64 "\"", i ? "," : "", h);
    }
    printf("],");
    print_hash("trace_hash", h);
    printf(",");
    print_hash("body_hash", bh);
    printf(",\"failed\":%s,\"final\":[", t.failure.failed ? "true" : "false");
    for (int c = 0; c < t.character_count; ++c) {
        printf("%s{\"position\":", c ? "," : ""), print_vec3(t.final[c].position);
        printf(",\"velocity\":"), print_vec3(t.final[c].velocity);
        printf(",\"ground\":\"%s\"}", scene_ground_state_name(t.final[c].ground.state));
    }
    printf("]");
    run_trace_free(&t);
}

int main(int argc, char **argv) {
    bool run = true;
    for (int a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "--no-run")) {
            run = false;
            continue;
        }
        scene s;
        scene_error err;
        printf("{\"path\":"), print_string(argv[a]);
        if (!scene_load(argv[a], &s, &err)) {
            printf(",\"ok\":false,\"error\":"), print_string(err.message), printf("}\n");
            continue;
        }
        printf(",\"ok\":true,\"name\":"), print_string(s.name);
        printf(",\"dt\":"), print_float(s.dt), printf(",\"duration\":"), print_float(s.duration);
        printf(",\"gravity\":"), print_vec3(s.gravity), printf(",\"up\":"), print_vec3(s.up);
        printf(",\"characters_collide\":%s,\"slow\":%s,\"layers\":[", s.characters_collide ? "true" : "false", s.slow ? "true" : "false");
        for (int i = 0; i < s.layer_count; ++i) {
            printf("%s{\"name\":", i ? "," : ""), print_string(s.layers[i].name);
            printf(",\"walkable_degrees\":"), print_float(s.layers[i].walkable_degrees), printf("}");
        }
        printf("],\"bodies\":[");
        for (int i = 0; i < s.body_count; ++i) printf("%s", i ? "," : ""), print_body(&s.bodies[i]);
        printf("],\"crowds\":%d,\"characters\":[", s.crowd_count);
        for (int i = 0; i < s.character_count; ++i) printf("%s", i ? "," : ""), print_character(&s.characters[i]);
        printf("]");
        if (run) print_run(&s);
        printf("}\n");
        fflush(stdout);
        scene_free(&s);
    }
    return 0;
}
