// SPDX-License-Identifier: MIT
// `tread walk MAP --scene`: one map as a scene file (docs/SCENES.md) on stdout, for the browser viewer
// (web/viewer/serve.mjs runs it on request, so nothing converted from the game's data is ever written to disk): the
// level's triangles as one inline mesh, each mover's as another at its place at time 0 (rotating ones turn at their
// speed; doors, plats, buttons, trains, bobbing and pendulums stand still there: the scene format has no triggers),
// and one character with the walker's settings and motor (walk.c: Quake's player and speeds) at a spawn point,
// facing the spawn's angle (an input of speed 0, which the viewer reads as the way to look).
//
// What differs from the walk: scene meshes are two-sided (the walk's brush faces are one-sided), and no jump pads,
// teleporters or hazards.
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk.h"

// Shortest text that reads back as the same float.
static void put_float(FILE *out, float v) {
    char text[32];
    for (int digits = 6; digits <= 9; ++digits) {
        snprintf(text, sizeof text, "%.*g", digits, (double)v);
        if (strtof(text, NULL) == v) break;
    }
    fputs(text, out);
}

// A named number of a scene's settings or motor.
typedef struct named {
    const char *name;
    float value;
} named;

// `"name":value` pairs, comma-separated; `after` says whether a field came before them in the object.
static void put_named(FILE *out, const named *fields, size_t count, bool after) {
    for (size_t i = 0; i < count; ++i) {
        fprintf(out, "%s\"%s\":", i > 0 || after ? "," : "", fields[i].name);
        put_float(out, fields[i].value);
    }
}

// A JSON string's contents (a map's name comes from a file name).
static void put_text(FILE *out, const char *text) {
    for (const unsigned char *c = (const unsigned char *)text; *c; ++c) {
        if (*c == '"' || *c == '\\') fprintf(out, "\\%c", *c);
        else if (*c < 0x20) fprintf(out, "\\u%04x", *c);
        else fputc(*c, out);
    }
}

static void put_vec3(FILE *out, float x, float y, float z) {
    fputc('[', out);
    put_float(out, x);
    fputc(',', out);
    put_float(out, y);
    fputc(',', out);
    put_float(out, z);
    fputc(']', out);
}

static void put_mesh(FILE *out, const float *vertices, int vertex_count, const uint32_t *indices, int triangle_count) {
    fputs("\"vertices\":[", out);
    for (int i = 0; i < vertex_count; ++i) {
        if (i) fputc(',', out);
        put_vec3(out, vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]);
    }
    fputs("],\"triangles\":[", out);
    for (int t = 0; t < triangle_count; ++t)
        fprintf(out, "%s[%u,%u,%u]", t ? "," : "", indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]);
    fputc(']', out);
}

bool walk_write_scene(const char *path, const char *map, const walk_options *o, FILE *out, char *err, size_t errsize) {
    level lv;
    if (!level_load(path, map, &lv, err, errsize)) {
        level_free(&lv);
        return false;
    }
    bool ok = false;
    int spawn = o->only_spawn < 0 ? 0 : o->only_spawn;
    if (lv.spawn_count == 0 || lv.triangle_count == 0) {
        snprintf(err, errsize, "%s: no %s to walk", lv.name, lv.spawn_count == 0 ? "spawn point" : "triangle");
        goto done;
    }
    if (spawn >= lv.spawn_count) {
        snprintf(err, errsize, "%s: --spawn %d: the map has %d spawn points (0 .. %d)", lv.name, spawn, lv.spawn_count, lv.spawn_count - 1);
        goto done;
    }
    int shape = o->shape_mask == 1u ? 0 : 1; // capsule unless the box alone was asked for
    int strategy = 0;
    while (strategy < TREAD_STEP_STRATEGY_COUNT - 1 && !(o->strategy_mask >> strategy & 1u)) ++strategy;
    tread_character_settings s = walk_character_settings(shape, strategy);
    tread_motor_settings m = walk_motor_settings();
    const level_spawn *sp = &lv.spawns[spawn];

    fputs("{\"name\":\"", out);
    put_text(out, lv.name);
    fputs("\",\"description\":\"", out);
    put_text(out, lv.name);
    fprintf(out, " (OpenArena, %d triangles, %d movers) from spawn point %d of 0 .. %d, as tread walk reads it (converted at run time, "
                 "never stored)\",\n", lv.triangle_count, lv.mover_count, spawn, lv.spawn_count - 1);
    fprintf(out, "\"duration\":%g,\"dt\":%.9g,\"gravity\":[0,%g,0],\n", o->seconds, 1.0 / o->hz, -(double)m.gravity);
    fputs("\"bodies\":[{\"type\":\"mesh\",\"name\":\"level\",", out);
    put_mesh(out, lv.vertices, lv.vertex_count, lv.indices, lv.triangle_count);
    fputs("}", out);
    for (int i = 0; i < lv.mover_count && o->movers; ++i) {
        const level_mover *mo = &lv.movers[i];
        if (mo->triangle_count == 0) continue;
        double p[3], r[4];
        level_mover_at(mo, 0.0, p, r);
        if (level_mover_is_binary(mo->kind)) level_mover_between(mo, 0.0, p);
        fprintf(out, ",\n{\"type\":\"mesh\",\"name\":\"%s %d\",\"position\":", level_mover_kind_names[mo->kind], i);
        put_vec3(out, (float)p[0], (float)p[1], (float)p[2]);
        fputs(",\"rotation\":{\"quaternion\":[", out);
        for (int c = 0; c < 4; ++c) {
            if (c) fputc(',', out);
            put_float(out, (float)r[c]);
        }
        fputs("]},", out);
        put_mesh(out, mo->vertices, mo->vertex_count, mo->indices, mo->triangle_count);
        if (mo->kind == LEVEL_MOVER_ROTATING) {
            fputs(",\"kinematic\":{\"angular_velocity\":", out);
            put_vec3(out, (float)(mo->axis[0] * mo->angular_speed), (float)(mo->axis[1] * mo->angular_speed),
                     (float)(mo->axis[2] * mo->angular_speed));
            fputc('}', out);
        }
        fputc('}', out);
    }
    fputs("],\n\"characters\":[{\"name\":\"player\",\"start\":", out);
    put_vec3(out, (float)sp->feet[0], (float)(sp->feet[1] + 0.01), (float)sp->feet[2]);
    fprintf(out, ",\"settings\":{\"shape\":\"%s\"", s.shape == TREAD_QUERY_BOX ? "box" : "capsule");
    const named settings[] = {{"radius", s.radius}, {"height", s.height}, {"max_step_height", s.max_step_height},
                              {"max_slope_degrees", s.max_slope_degrees}};
    put_named(out, settings, sizeof settings / sizeof settings[0], true);
    fprintf(out, ",\"step_strategy\":\"%s\"},\n\"motor\":{", tread_step_strategy_name(s.step_strategy));
    const named motor[] = {{"max_speed", m.max_speed},           {"gravity", m.gravity},
                           {"jump_height", m.jump_height},       {"ground_acceleration", m.ground_acceleration},
                           {"air_acceleration", m.air_acceleration}, {"friction", m.friction},
                           {"jump_cut", m.jump_cut}};
    put_named(out, motor, sizeof motor / sizeof motor[0], false);
    // Quake's yaw turns from +x toward Quake's +y, which is tread's -z.
    double yaw = sp->angle_degrees * 3.14159265358979323846 / 180.0;
    fputs("},\n\"input\":[{\"t\":0,\"direction\":", out);
    put_vec3(out, (float)cos(yaw), 0.0f, (float)-sin(yaw));
    fputs(",\"speed\":0}]}]}\n", out);
    ok = !ferror(out);
    if (!ok) snprintf(err, errsize, "%s: writing the scene failed", lv.name);
done:
    level_free(&lv);
    return ok;
}
