// SPDX-License-Identifier: MIT
// Scene files (docs/SCENES.md): the top level, JSON syntax errors, and loading from a file or a buffer. The
// parts are read by geometry.c (layers, bodies), characters.c and checks_parse.c. Top of the loader's call graph.
#define _POSIX_C_SOURCE 200809L // fileno

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scene_internal.h"

// ---- the file ------------------------------------------------------------------------------------------

static bool parse_scene(loader *L, const scene_json *root) {
    static const char *const fields[] = {"name", "description", "dt", "duration", "gravity", "up", "layers", "bodies", "characters", "crowds",
                                          "characters_collide", "slow", "expectations", "plot", "pending_penetration", NULL};
    scene *s = L->s;
    if (!scene_json_is_object(root)) return js_fail(L, "", "the top level must be an object, got %s", js_type_name(root));
    if (!js_check_fields(L, root, "", fields)) return false;
    s->dt = 1.0f / 60.0f;
    s->gravity = tread_v3(0.0f, -9.81f, 0.0f);
    s->up = tread_v3(0.0f, 1.0f, 0.0f);
    s->characters_collide = true;
    if (!js_field_bool(L, root, "", "characters_collide", &s->characters_collide) || !js_field_bool(L, root, "", "slow", &s->slow) ||
        !js_field_string(L, root, "", "name", false, s->name, sizeof s->name) ||
        !js_field_string(L, root, "", "description", false, s->description, sizeof s->description) ||
        !js_field_float(L, root, "", "dt", false, &s->dt, 0.0, 1.0, OPEN_LO) ||
        !js_field_float(L, root, "", "duration", true, &s->duration, 0.0, 3600.0, OPEN_LO) || !js_field_vec3(L, root, "", "gravity", false, &s->gravity) ||
        !js_field_vec3(L, root, "", "up", false, &s->up) ||
        !js_field_string(L, root, "", "pending_penetration", false, s->pending_penetration, sizeof s->pending_penetration))
        return false;
    if (js_member(root, "pending_penetration") && s->pending_penetration[0] == '\0')
        return js_fail(L, "pending_penetration", "is empty; say what the scene waits for (or leave the field out)");
    double frames = scene_frame_count(s->duration, s->dt);
    if (frames > SCENE_MAX_FRAMES) return js_fail(L, "dt", "duration / dt = %.0f frames; at most %d", frames, SCENE_MAX_FRAMES);
    if (!(tread_v3_length(s->up) > 1.0e-6f)) return js_fail(L, "up", "is the zero vector");
    s->up = tread_v3_normalize(s->up);
    if (!scene_parse_layers(L, root) || !scene_parse_bodies(L, root)) return false;
    // The trace keeps every moving body's transform every frame.
    int moving = 0;
    for (int i = 0; i < s->body_count; ++i) moving += scene_body_moves(&s->bodies[i]);
    if (frames * moving > SCENE_MAX_BODY_TRACE_FRAMES)
        return js_fail(L, "bodies", "%d moving bodies x %.0f frames = %.0f body frames to record; at most %d", moving, frames, frames * moving,
                       SCENE_MAX_BODY_TRACE_FRAMES);
    if (!scene_parse_characters(L, root) || !scene_parse_crowds(L, root)) return false;
    char work[SCENE_ERROR_MAX];
    if (!scene_work_within_cap(s, frames, work, sizeof work)) return js_fail(L, "", "%s", work);
    // Characters moved together are bodies of the batch's own layer, which no body of the scene may use.
    if (s->characters_collide && s->character_count > 1 && s->layer_count >= MAX_LAYERS)
        return js_fail(L, "characters_collide", "needs a layer free of bodies for the characters, and the scene names all %d; name fewer, or set it false",
                       MAX_LAYERS);
    return scene_parse_checks(L, root) && scene_parse_plot(L, root);
}

bool scene_work_within_cap(const scene *s, double frames, char *message, size_t size) {
    double work = (double)s->body_count * (double)s->character_count * frames;
    if (work <= SCENE_MAX_WORK) return true;
    snprintf(message, size,
             "%d bodies x %d characters x %.0f frames = %.3g, over the cap of %.0e on bodies x characters x frames (the work of a run); "
             "use fewer bodies, characters or frames",
             s->body_count, s->character_count, frames, work, SCENE_MAX_WORK);
    return false;
}

double scene_frame_count(float duration, float dt) {
    // In float, as the runner has always counted (the shipped scenes' frame counts stay what they were).
    double frames = floor((double)(duration / dt + 0.5f));
    return frames < 1.0 ? 1.0 : frames;
}

// "<file>:<line>:<column>: JSON syntax error near `...`" for the byte offset where the parser gave up, or
// "<file>: JSON syntax error: <the parser's words>" when it gave none.
static void syntax_error(loader *L, const char *json, size_t length, const scene_json_syntax *syntax) {
    L->failed = true;
    if (syntax->offset == SCENE_JSON_NO_OFFSET) {
        snprintf(L->err->message, sizeof L->err->message, "%s: JSON syntax error: %s", L->file, syntax->message);
        return;
    }
    size_t offset = syntax->offset;
    int line = 1, column = 1;
    for (size_t i = 0; i < offset && i < length; ++i) {
        if (json[i] == '\n') ++line, column = 1;
        else ++column;
    }
    char near[40];
    size_t n = 0;
    for (size_t i = offset; i < length && n < 24 && json[i] != '\n' && json[i] != '\r'; ++i)
        near[n++] = (json[i] >= 0x20 && json[i] < 0x7f) ? json[i] : '?';
    near[n] = '\0';
    if (n) snprintf(L->err->message, sizeof L->err->message, "%s:%d:%d: JSON syntax error near `%s`", L->file, line, column, near);
    else snprintf(L->err->message, sizeof L->err->message, "%s:%d:%d: JSON syntax error at the end of the line or file", L->file, line, column);
}

void scene_free(scene *s) {
    if (!s) return;
    for (int i = 0; i < s->body_count && s->bodies; ++i) {
        free(s->bodies[i].vertices);
        free(s->bodies[i].indices);
        free(s->bodies[i].heights);
        free(s->bodies[i].holes);
        free(s->bodies[i].cells);
        free(s->bodies[i].path.keys);
        free(s->bodies[i].path.segments);
    }
    for (int i = 0; i < s->character_count && s->characters; ++i) free(s->characters[i].inputs);
    free(s->layers);
    free(s->bodies);
    free(s->characters);
    free(s->checks);
    free(s->crowds);
    memset(s, 0, sizeof *s);
}

bool scene_load_buffer(const char *path, const char *json, size_t length, scene *out, scene_error *err) {
    scene_error dummy;
    loader L;
    memset(&L, 0, sizeof L);
    L.file = path ? path : "<scene>";
    L.err = err ? err : &dummy;
    L.err->message[0] = '\0';
    if (!out) {
        js_fail(&L, "", "no scene to load into");
        return false;
    }
    memset(out, 0, sizeof *out);
    if (length > SCENE_MAX_FILE_BYTES) {
        js_fail(&L, "", "is %zu bytes; at most %d", length, SCENE_MAX_FILE_BYTES);
        return false;
    }
    L.s = out;
    snprintf(out->path, sizeof out->path, "%s", L.file);
    // The directory mesh files are relative to, and the default name: the base name without ".json".
    const char *slash = strrchr(L.file, '/');
    const char *base = slash ? slash + 1 : L.file;
    if (slash && (size_t)(slash - L.file) + 2 <= sizeof L.dir) memcpy(L.dir, L.file, (size_t)(slash - L.file) + 1);
    size_t base_len = strlen(base);
    if (base_len > 5 && strcmp(base + base_len - 5, ".json") == 0) base_len -= 5;
    if (base_len >= sizeof out->name) base_len = sizeof out->name - 1;
    memcpy(out->name, base, base_len);
    out->name[base_len] = '\0';
    if (!json) {
        js_fail(&L, "", "no JSON text");
        return false;
    }

    scene_json_syntax syntax;
    const scene_json *root = scene_json_parse(json, length, &syntax);
    if (!root) {
        syntax_error(&L, json, length, &syntax);
        scene_free(out);
        return false;
    }
    bool ok = js_check_no_nul(&L, root, json, length) && parse_scene(&L, root);
    scene_json_free(root);
    if (!ok) scene_free(out);
    return ok;
}

bool scene_load(const char *path, scene *out, scene_error *err) {
    scene_error dummy;
    if (!err) err = &dummy;
    if (out) memset(out, 0, sizeof *out);
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        snprintf(err->message, sizeof err->message, "%s: cannot open: %s", path ? path : "(null)", path ? strerror(errno) : "no path");
        return false;
    }
    // The size is known before reading a regular file; a pipe or a growing file is cut one byte past the limit.
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > SCENE_MAX_FILE_BYTES) {
        snprintf(err->message, sizeof err->message, "%s: is %lld bytes; at most %d", path, (long long)st.st_size, SCENE_MAX_FILE_BYTES);
        fclose(f);
        return false;
    }
    size_t size = 0, cap = 1 << 16;
    char *buf = (char *)malloc(cap);
    while (buf && size <= SCENE_MAX_FILE_BYTES) {
        size_t got = fread(buf + size, 1, cap - size - 1, f);
        size += got;
        if (got == 0) break;
        if (size + 1 == cap) {
            char *bigger = (char *)realloc(buf, cap * 2);
            if (!bigger) free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (!buf || read_error) {
        snprintf(err->message, sizeof err->message, "%s: cannot read: %s", path, buf ? "read error" : "out of memory");
        free(buf);
        return false;
    }
    if (size > SCENE_MAX_FILE_BYTES) {
        snprintf(err->message, sizeof err->message, "%s: is more than %d bytes; at most %d", path, SCENE_MAX_FILE_BYTES, SCENE_MAX_FILE_BYTES);
        free(buf);
        return false;
    }
    buf[size] = '\0';
    bool ok = scene_load_buffer(path, buf, size, out, err);
    free(buf);
    return ok;
}

bool scene_file_is_scene(const char *path) {
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) return true; // let scene_load say why it cannot be read
    char *text = NULL;
    size_t size = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        // A file past the limit is not read here: scene_load refuses it with its size.
        if (n > SCENE_MAX_FILE_BYTES) {
            fclose(f);
            return true;
        }
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = (char *)malloc((size_t)n + 1)) != NULL) {
            size = fread(text, 1, (size_t)n, f);
            text[size] = '\0';
        }
    }
    fclose(f);
    if (!text) return true;
    scene_json_syntax syntax;
    const scene_json *root = scene_json_parse(text, size, &syntax);
    free(text);
    if (!root) return true; // broken JSON: may well be a scene with a typo
    bool is_scene = scene_json_is_object(root) && (js_member(root, "bodies") || js_member(root, "characters"));
    scene_json_free(root);
    return is_scene;
}
