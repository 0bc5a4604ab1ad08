// SPDX-License-Identifier: MIT
// Crowds of a scene file (docs/SCENES.md, "Crowds"): many characters from one generator instead of a list, so a
// scene of 500 walkers is a few lines. Each crowd spawns its characters on free spots of a grid over its area and
// walks each toward random points of its target area, picked anew every `every` seconds. Every random number is
// a hash of (seed, character, pick, coordinate) in integers, so a crowd is the same on every platform and its
// characters do not depend on each other's draws. Calls json_read.c and characters.c.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_internal.h"

// SplitMix64's finalizer: a well-mixed 64-bit hash of x.
static uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// A number in [0, 1) from the seed and three indices (53 bits of the hash: exact in a double).
static double draw(uint64_t seed, uint64_t a, uint64_t b, uint64_t c) {
    uint64_t h = mix(mix(mix(mix(seed) ^ a) ^ b) ^ c);
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct crowd_spec {
    char name[SCENE_NAME_MAX];
    int count;
    uint64_t seed;
    tread_vec3 area_min, area_max;     // spawn area: feet at area_min.y
    tread_vec3 target_min, target_max; // where targets are picked: at target_min.y
    float speed, every, spacing;       // m/s; seconds between picks (0: one pick); gap between spawn spots, m
    tread_character_settings settings;
} crowd_spec;

// {"min": vec3, "max": vec3}: a horizontal area (min below max in x and z; y is where feet stand, max.y >= min.y).
static bool parse_area(loader *L, const scene_json *obj, const char *jp, const char *key, tread_vec3 *lo, tread_vec3 *hi) {
    static const char *const fields[] = {"min", "max", NULL};
    const scene_json *j;
    char p[JP];
    if (!js_need_field(L, obj, jp, key, &j)) return false;
    js_jp_key(p, jp, key);
    if (!js_expect_object(L, j, p) || !js_check_fields(L, j, p, fields) || !js_field_vec3(L, j, p, "min", true, lo) ||
        !js_field_vec3(L, j, p, "max", true, hi))
        return false;
    if (!(lo->x < hi->x && lo->z < hi->z && lo->y <= hi->y))
        return js_fail(L, p, "min [%g, %g, %g] must be below max [%g, %g, %g] in x and z (and not above it in y)", (double)lo->x, (double)lo->y,
                       (double)lo->z, (double)hi->x, (double)hi->y, (double)hi->z);
    return true;
}

static bool parse_spec(loader *L, const scene_json *j, const char *jp, crowd_spec *c) {
    static const char *const fields[] = {"name", "count", "area", "seed", "settings", "speed", "targets", "every", "spacing", NULL};
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields)) return false;
    memset(c, 0, sizeof *c);
    char p[JP], q[64];
    int64_t count = 0, seed = 1;
    const scene_json *v;
    if (!js_field_string(L, j, jp, "name", true, c->name, sizeof c->name)) return false;
    // Room for "#<index>" in a character's name, and no '#' of its own: "a#1#2" could name two characters.
    if (c->name[0] == '\0' || strlen(c->name) > SCENE_NAME_MAX - 8 || strchr(c->name, '#'))
        return js_fail(L, js_jp_key(p, jp, "name"), "\"%s\": expected 1 to %d characters, without '#'", js_quote(q, sizeof q, c->name), SCENE_NAME_MAX - 8);
    if (!js_need_field(L, j, jp, "count", &v) || !js_read_integer(L, v, js_jp_key(p, jp, "count"), 1.0, SCENE_MAX_CROWD_CHARACTERS, &count)) return false;
    if ((v = js_member(j, "seed")) && !js_read_integer(L, v, js_jp_key(p, jp, "seed"), 0.0, 4294967295.0, &seed)) return false;
    c->count = (int)count;
    c->seed = (uint64_t)seed;
    c->spacing = 0.1f;
    return parse_area(L, j, jp, "area", &c->area_min, &c->area_max) && parse_area(L, j, jp, "targets", &c->target_min, &c->target_max) &&
           js_field_float(L, j, jp, "speed", true, &c->speed, 0.0, INFINITY, 0) &&
           js_field_float(L, j, jp, "every", false, &c->every, 0.0, INFINITY, OPEN_LO) &&
           js_field_float(L, j, jp, "spacing", false, &c->spacing, 0.0, 100.0, 0);
}

// The spawn spots: a grid over the area with cells at least a body plus `spacing` wide, of which `count` are taken
// in a seeded shuffled order, so that nobody starts inside anybody. Fails naming count when they do not fit.
static bool spawn_spots(loader *L, const char *jp, const crowd_spec *c, tread_vec3 *out) {
    double pitch = 2.0 * (double)c->settings.radius + (double)c->spacing;
    double width = (double)c->area_max.x - c->area_min.x, depth = (double)c->area_max.z - c->area_min.z;
    double nx = floor(width / pitch), nz = floor(depth / pitch);
    char p[JP];
    if (nx * nz < (double)c->count)
        return js_fail(L, js_jp_key(p, jp, "count"), "%d characters %.3g m wide with %.3g m between them do not fit in the %.3g x %.3g m area: at most %.0f",
                       c->count, 2.0 * (double)c->settings.radius, (double)c->spacing, width, depth, nx * nz);
    int cells = (int)(nx * nz), columns = (int)nx;
    int *order = (int *)js_alloc_array(L, jp, (size_t)cells, sizeof(int));
    if (!order) return false;
    for (int i = 0; i < cells; ++i) order[i] = i;
    for (int i = cells - 1; i > 0; --i) { // Fisher-Yates: only the first `count` are used
        int k = (int)(draw(c->seed, UINT64_MAX, (uint64_t)i, 0) * (double)(i + 1));
        int swap = order[i];
        order[i] = order[k];
        order[k] = swap;
    }
    for (int m = 0; m < c->count; ++m) {
        int cell = order[cells - 1 - m];
        double x = c->area_min.x + ((double)(cell % columns) + 0.5) * (width / nx);
        double z = c->area_min.z + ((double)(cell / columns) + 0.5) * (depth / nz);
        out[m] = tread_v3((float)x, c->area_min.y, (float)z);
    }
    free(order);
    return true;
}

// Member m's timeline: toward a point of the target area from t = 0, and toward a new one every `every` seconds.
static bool member_inputs(loader *L, const char *jp, const crowd_spec *c, int m, int picks, scene_character *ch) {
    ch->inputs = (scene_input *)js_alloc_array(L, jp, (size_t)picks, sizeof(scene_input));
    if (!ch->inputs) return false;
    for (int k = 0; k < picks; ++k) {
        scene_input *in = &ch->inputs[k];
        double u = draw(c->seed, (uint64_t)m, (uint64_t)k, 1), w = draw(c->seed, (uint64_t)m, (uint64_t)k, 2);
        in->t = (float)((double)k * (double)c->every);
        in->kind = SCENE_INPUT_TOWARD;
        in->target = tread_v3((float)(c->target_min.x + u * ((double)c->target_max.x - c->target_min.x)), c->target_min.y,
                              (float)(c->target_min.z + w * ((double)c->target_max.z - c->target_min.z)));
        in->speed = c->speed;
        in->jump = in->crouch = -1;
        ch->input_count = k + 1;
    }
    return true;
}

// One crowd: its settings and speed judged by the library, its characters appended to the scene's.
static bool add_crowd(loader *L, const scene_json *j, const char *jp, int index, const tread_world *empty, int *inputs_total) {
    scene *s = L->s;
    crowd_spec c;
    tread_character probe;
    char p[JP], q[64];
    if (!parse_spec(L, j, jp, &c) || !scene_read_character_settings(L, j, jp, c.area_min, "area", &c.settings, &probe)) return false;
    for (int i = 0; i < index; ++i)
        if (strcmp(s->crowds[i].name, c.name) == 0) return js_fail(L, js_jp_key(p, jp, "name"), "\"%s\" is already crowds[%d]'s name", js_quote(q, sizeof q, c.name), i);
    speed_probe speeds;
    const char *settings_path = js_member(j, "settings") ? js_jp_key(p, jp, "settings") : jp;
    char ps[JP];
    if (!scene_speed_probe(L, settings_path, empty, &c.settings, &speeds) ||
        !scene_check_speed(L, js_jp_key(ps, jp, "speed"), &speeds, tread_v3(1.0f, 0.0f, 0.0f), c.speed))
        return false;
    double picks = c.every > 0.0f ? ceil((double)s->duration / (double)c.every) : 1.0;
    if (picks < 1.0) picks = 1.0;
    if ((double)*inputs_total + picks * c.count > SCENE_MAX_CROWD_INPUTS)
        return js_fail(L, js_jp_key(p, jp, c.every > 0.0f ? "every" : "count"), "%d characters x %.0f targets each: the crowds would hold more than %d targets",
                       c.count, picks, SCENE_MAX_CROWD_INPUTS);
    *inputs_total += (int)picks * c.count;
    int first = s->character_count;
    scene_character *grown = (scene_character *)realloc(s->characters, sizeof *grown * (size_t)(first + c.count));
    if (!grown) return js_fail(L, jp, "out of memory for %d characters", first + c.count);
    s->characters = grown;
    memset(&s->characters[first], 0, sizeof *grown * (size_t)c.count);
    tread_vec3 *spots = (tread_vec3 *)js_alloc_array(L, jp, (size_t)c.count, sizeof(tread_vec3));
    if (!spots || !spawn_spots(L, jp, &c, spots)) {
        free(spots);
        return false;
    }
    scene_crowd *crowd = &s->crowds[index];
    snprintf(crowd->name, sizeof crowd->name, "%s", c.name);
    crowd->first = first;
    crowd->count = c.count;
    bool ok = true;
    for (int m = 0; m < c.count && ok; ++m) {
        scene_character *ch = &s->characters[first + m];
        s->character_count = first + m + 1; // counted before its inputs so scene_free sees them
        snprintf(ch->name, sizeof ch->name, "%.56s#%hu", c.name, (unsigned short)m); // <= 56 + 1 + 4 characters: m < 10,000
        ch->settings = c.settings;
        ch->start = spots[m];
        ch->crowd = index;
        ok = member_inputs(L, jp, &c, m, (int)picks, ch);
    }
    free(spots);
    return ok;
}

bool scene_parse_crowds(loader *L, const scene_json *root) {
    scene *s = L->s;
    const scene_json *j = js_member(root, "crowds");
    if (!j) return true;
    if (!js_expect_array(L, j, "crowds")) return false;
    int n = scene_json_count(j);
    if (n < 1 && s->character_count == 0) return js_fail(L, "crowds", "is empty and no character is listed; a scene needs at least one character");
    if (n > SCENE_MAX_CROWDS) return js_fail(L, "crowds", "has %d crowds; at most %d", n, SCENE_MAX_CROWDS);
    // Spawn areas and targets are horizontal in x and z: a scene turned another way is run with --up instead.
    if (s->up.x != 0.0f || s->up.y != 1.0f || s->up.z != 0.0f)
        return js_fail(L, "crowds", "need the scene's up to be [0, 1, 0] (crowd areas lie in x and z); run the scene with --up to turn it");
    s->crowds = (scene_crowd *)js_alloc_array(L, "crowds", (size_t)n, sizeof(scene_crowd));
    if (!s->crowds) return false;
    tread_world *empty = NULL;
    if (tread_world_create(NULL, &empty) != TREAD_OK) return js_fail(L, "crowds", "%s", tread_error_message());
    int inputs = 0, total = 0;
    bool ok = true;
    const scene_json *e;
    scene_json_each(e, j) {
        char p[JP];
        js_jp_index(p, "crowds", s->crowd_count);
        if (!(ok = add_crowd(L, e, p, s->crowd_count, empty, &inputs))) break;
        total += s->crowds[s->crowd_count++].count;
        if (total > SCENE_MAX_CROWD_CHARACTERS) {
            ok = js_fail(L, p, "the crowds hold %d characters; at most %d", total, SCENE_MAX_CROWD_CHARACTERS);
            break;
        }
    }
    tread_world_destroy(empty);
    if (!ok) return false;
    // A listed character named like a crowd's ("left#3") would make that name ambiguous in checks and reports.
    for (int c = 0; c < s->character_count && s->characters[c].crowd < 0; ++c)
        for (int k = 0; k < s->crowd_count; ++k) {
            size_t len = strlen(s->crowds[k].name);
            if (strncmp(s->characters[c].name, s->crowds[k].name, len) == 0 && s->characters[c].name[len] == '#') {
                char p[JP], at[JP], q[64];
                js_jp_key(p, js_jp_index(at, "characters", c), "name");
                return js_fail(L, p, "\"%s\" is a name of crowds[%d]'s characters", js_quote(q, sizeof q, s->characters[c].name), k);
            }
        }
    double records = scene_frame_count(s->duration, s->dt) * s->character_count;
    if (records > SCENE_MAX_TRACE_FRAMES)
        return js_fail(L, "crowds", "%d characters x %.0f frames = %.0f frames to record; at most %d", s->character_count,
                       scene_frame_count(s->duration, s->dt), records, SCENE_MAX_TRACE_FRAMES);
    return true;
}
