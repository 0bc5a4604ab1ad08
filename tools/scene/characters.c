// SPDX-License-Identifier: MIT
// Characters of a scene file: name, start, settings (settings_table.c), the optional movement model ("motor")
// and the input timeline. Calls json_read.c and settings_table.c, and asks the library about input speeds.
#include <stdio.h>
#include <string.h>

#include "scene_internal.h"

// A unit vector along v's part perpendicular to up, or any unit vector perpendicular to up when v has none.
static tread_vec3 horizontal_unit(tread_vec3 v, tread_vec3 up) {
    tread_vec3 h = tread_v3_reject(v, up);
    if (!(tread_v3_length(h) > 1.0e-6f)) h = tread_v3_reject(tread_v3(1.0f, 0.0f, 0.0f), up);
    if (!(tread_v3_length(h) > 1.0e-6f)) h = tread_v3_reject(tread_v3(0.0f, 0.0f, 1.0f), up);
    return tread_v3_normalize(h);
}

// The speed becomes the velocity handed to tread_character_move, so the library judges it (and names its limit):
// one move of the probe at that speed. Without this, a speed the library refuses froze the character and passed.
bool scene_check_speed(loader *L, const char *jp, const speed_probe *probe, tread_vec3 along, float speed) {
    tread_character ch = probe->at_origin;
    tread_move_result res;
    if (tread_character_move(probe->empty, &ch, tread_v3_scale(along, speed), L->s->dt, &res) == TREAD_OK) return true;
    return js_fail(L, jp, "%g m/s is refused by tread_character_move: %s", (double)speed, tread_error_message());
}

bool scene_read_character_settings(loader *L, const scene_json *obj, const char *jp, tread_vec3 start, const char *start_key,
                                   tread_character_settings *out, tread_character *probe) {
    *out = tread_character_settings_default();
    out->up = L->s->up;
    const scene_json *settings = js_member(obj, "settings");
    char p[JP];
    const char *settings_path = jp;
    if (settings) {
        settings_path = js_jp_key(p, jp, "settings");
        if (!scene_read_settings(L, settings, p, out)) return false;
    }
    if (tread_character_init(probe, out, start) == TREAD_OK) return true;
    // The library names the argument: its "position" is our start.
    const char *message = tread_error_message();
    char ps[JP];
    return js_fail(L, strstr(message, " position = ") ? js_jp_key(ps, jp, start_key) : settings_path, "%s", message);
}

bool scene_speed_probe(loader *L, const char *jp, const tread_world *empty, const tread_character_settings *settings, speed_probe *out) {
    out->empty = empty;
    return tread_character_init(&out->at_origin, settings, tread_v3_zero()) == TREAD_OK || js_fail(L, jp, "%s", tread_error_message());
}

static bool parse_input(loader *L, const scene_json *j, const char *jp, const scene_character *c, int index, const speed_probe *probe,
                        scene_input *in) {
    static const char *const fields[] = {"t", "direction", "toward", "speed", "idle", "jump", "crouch", NULL};
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields)) return false;
    memset(in, 0, sizeof *in);
    if (!js_field_float(L, j, jp, "t", true, &in->t, 0.0, INFINITY, 0)) return false;
    const scene_json *dir = js_member(j, "direction"), *toward = js_member(j, "toward"), *idle = js_member(j, "idle"), *speed = js_member(j, "speed");
    const scene_json *jump = js_member(j, "jump"), *crouch = js_member(j, "crouch");
    char p[JP];
    if ((dir != NULL) + (toward != NULL) + (idle != NULL) > 1) return js_fail(L, jp, "give at most one of \"direction\", \"toward\" and \"idle\"");
    if (!dir && !toward && !idle && !jump && !crouch) return js_fail(L, jp, "needs \"direction\", \"toward\", \"idle\", \"jump\" or \"crouch\"");
    in->jump = in->crouch = -1;
    bool b = false;
    if (jump) {
        if (!js_read_bool(L, jump, js_jp_key(p, jp, "jump"), &b)) return false;
        in->jump = b;
    }
    if (crouch) {
        if (!js_read_bool(L, crouch, js_jp_key(p, jp, "crouch"), &b)) return false;
        in->crouch = b;
    }
    if (speed && !dir && !toward) return js_fail(L, jp, "\"speed\" needs \"direction\" or \"toward\"");
    if (dir || toward) {
        if (!js_field_float(L, j, jp, "speed", true, &in->speed, 0.0, INFINITY, 0)) return false;
        if (dir) {
            in->kind = SCENE_INPUT_DIRECTION;
            if (!js_read_vec3(L, dir, js_jp_key(p, jp, "direction"), &in->direction)) return false;
            tread_vec3 flat = tread_v3_reject(in->direction, tread_v3_normalize(c->settings.up));
            if (!(tread_v3_length(flat) > 1.0e-6f)) return js_fail(L, p, "has no horizontal part (it is parallel to the character's up)");
        } else {
            in->kind = SCENE_INPUT_TOWARD;
            if (!js_read_vec3(L, toward, js_jp_key(p, jp, "toward"), &in->target)) return false;
        }
        tread_vec3 up = tread_v3_normalize(c->settings.up);
        tread_vec3 along = horizontal_unit(dir ? in->direction : tread_v3_sub(in->target, c->start), up);
        if (!scene_check_speed(L, js_jp_key(p, jp, "speed"), probe, along, in->speed)) return false;
    } else if (idle) {
        if (!js_read_bool(L, idle, js_jp_key(p, jp, "idle"), &b)) return false;
        if (!b) return js_fail(L, p, "only true is meaningful (leave the field out instead)");
        in->kind = SCENE_INPUT_IDLE;
    } else if (index > 0) {
        // jump / crouch alone: the movement goes on unchanged.
        const scene_input *prev = &c->inputs[index - 1];
        in->kind = prev->kind;
        in->direction = prev->direction;
        in->target = prev->target;
        in->speed = prev->speed;
    } else {
        in->kind = SCENE_INPUT_IDLE;
    }
    if (index > 0 && in->t < c->inputs[index - 1].t)
        return js_fail(L, js_jp_key(p, jp, "t"), "%g s comes before the previous entry's %g s (entries must be sorted by t)", (double)in->t,
                    (double)c->inputs[index - 1].t);
    return true;
}

static bool parse_character(loader *L, const scene_json *j, const char *jp, int index, const tread_world *empty, scene_character *c) {
    static const char *const fields[] = {"name", "start", "settings", "motor", "input", NULL};
    if (!js_expect_object(L, j, jp) || !js_check_fields(L, j, jp, fields)) return false;
    snprintf(c->name, sizeof c->name, "character%d", index);
    if (!js_field_string(L, j, jp, "name", false, c->name, sizeof c->name) || !js_field_vec3(L, j, jp, "start", true, &c->start)) return false;
    char p[JP], q[64];
    if (c->name[0] == '\0') return js_fail(L, js_jp_key(p, jp, "name"), "is empty");
    for (int i = 0; i < index; ++i)
        if (strcmp(L->s->characters[i].name, c->name) == 0) return js_fail(L, js_jp_key(p, jp, "name"), "\"%s\" is already characters[%d]'s name", js_quote(q, sizeof q, c->name), i);
    c->crowd = -1;
    tread_character probe;
    const char *settings_path = js_member(j, "settings") ? js_jp_key(p, jp, "settings") : jp;
    if (!scene_read_character_settings(L, j, jp, c->start, "start", &c->settings, &probe)) return false;
    const scene_json *motor = js_member(j, "motor");
    if (motor) {
        c->has_motor = true;
        c->motor = tread_motor_settings_default();
        // Gravity defaults to the scene's, along the character's -up.
        float g = -tread_v3_dot(L->s->gravity, tread_v3_normalize(c->settings.up));
        c->motor.gravity = g > 0.0f ? g : 0.0f;
        char pm[JP];
        if (!scene_read_motor(L, motor, js_jp_key(pm, jp, "motor"), &probe, &c->motor)) return false;
    }

    speed_probe speeds;
    if (!scene_speed_probe(L, settings_path, empty, &c->settings, &speeds)) return false;
    const scene_json *input;
    char pi[JP];
    if (!js_need_field(L, j, jp, "input", &input) || !js_expect_array(L, input, js_jp_key(pi, jp, "input"))) return false;
    int n = scene_json_count(input);
    c->inputs = (scene_input *)js_alloc_array(L, pi, (size_t)n, sizeof(scene_input));
    if (!c->inputs) return false;
    const scene_json *e;
    int i = 0;
    scene_json_each(e, input) {
        char pe[JP];
        if (!parse_input(L, e, js_jp_index(pe, pi, i), c, i, &speeds, &c->inputs[i])) return false;
        c->input_count = ++i;
    }
    return true;
}

bool scene_parse_characters(loader *L, const scene_json *root) {
    const scene_json *j = js_member(root, "characters");
    // A scene of crowds alone lists no characters (scene_parse_crowds then requires a crowd).
    bool crowds = js_member(root, "crowds") != NULL;
    if (!j && crowds) return true;
    if (!js_need_field(L, root, "", "characters", &j) || !js_expect_array(L, j, "characters")) return false;
    int n = scene_json_count(j);
    if (n < 1 && crowds) return true;
    if (n < 1) return js_fail(L, "characters", "is empty; a scene needs at least one character");
    if (n > SCENE_MAX_CHARACTERS) return js_fail(L, "characters", "has %d characters; at most %d", n, SCENE_MAX_CHARACTERS);
    double records = scene_frame_count(L->s->duration, L->s->dt) * n;
    if (records > SCENE_MAX_TRACE_FRAMES)
        return js_fail(L, "characters", "%d characters x %.0f frames = %.0f frames to record; at most %d", n, scene_frame_count(L->s->duration, L->s->dt),
                       records, SCENE_MAX_TRACE_FRAMES);
    L->s->characters = (scene_character *)js_alloc_array(L, "characters", (size_t)n, sizeof(scene_character));
    if (!L->s->characters) return false;
    tread_world *empty = NULL;
    if (tread_world_create(NULL, &empty) != TREAD_OK) return js_fail(L, "characters", "%s", tread_error_message());
    const scene_json *e;
    int i = 0;
    bool ok = true;
    scene_json_each(e, j) {
        char p[JP];
        L->s->character_count = i + 1;
        if (!(ok = parse_character(L, e, js_jp_index(p, "characters", i), i, empty, &L->s->characters[i]))) break;
        ++i;
    }
    tread_world_destroy(empty);
    return ok;
}
