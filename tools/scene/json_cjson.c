// SPDX-License-Identifier: MIT
// scene_json.h over Debian's cJSON (the native build): a value is the cJSON item itself, so reading costs nothing
// over cJSON's own calls. Leaf of tools/scene/.
#include <cjson/cJSON.h>
#include <string.h>

#include "scene_json.h"

static const cJSON *item(const scene_json *j) { return (const cJSON *)j; }
static const scene_json *value(const cJSON *c) { return (const scene_json *)c; }

const scene_json *scene_json_parse(const char *text, size_t length, scene_json_syntax *syntax) {
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, length, &end, false);
    syntax->message[0] = '\0';
    if (!root) {
        syntax->offset = end && end >= text ? (size_t)(end - text) : 0;
        return NULL;
    }
    // Only whitespace may follow the value (a NUL ends the text as the file's end does).
    size_t at = (size_t)(end - text);
    while (at < length && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) ++at;
    if (at < length && text[at] != '\0') {
        syntax->offset = at;
        cJSON_Delete(root);
        return NULL;
    }
    return value(root);
}

void scene_json_free(const scene_json *root) { cJSON_Delete((cJSON *)item(root)); }

// cJSON decodes "a\u0000b" to the bytes a, NUL, b and keeps no length, so the decoded strings cannot tell: the text
// is scanned for the escape instead. Every '"' outside a string opens one (the text is JSON that cJSON accepted), and
// the strings come in the order cJSON keeps them, keys before their values.
long scene_json_nul_string(const scene_json *root, const char *text, size_t length) {
    (void)root;
    long index = -1;
    bool in_string = false;
    for (size_t i = 0; i < length; ++i) {
        if (!in_string) {
            if (text[i] == '\0') break; // the text's end (scene_json_parse lets a NUL end it)
            if (text[i] == '"') in_string = true, ++index;
        } else if (text[i] == '"') {
            in_string = false;
        } else if (text[i] == '\\' && i + 1 < length) {
            if (text[i + 1] == 'u' && i + 5 < length && memcmp(text + i + 2, "0000", 4) == 0) return index;
            ++i; // the escaped character: an escaped quote does not end the string
        }
    }
    return -1;
}

scene_json_type scene_json_type_of(const scene_json *j) {
    const cJSON *c = item(j);
    if (cJSON_IsNumber(c)) return SCENE_JSON_NUMBER;
    if (cJSON_IsString(c)) return SCENE_JSON_STRING;
    if (cJSON_IsBool(c)) return SCENE_JSON_BOOL;
    if (cJSON_IsNull(c)) return SCENE_JSON_NULL;
    if (cJSON_IsArray(c)) return SCENE_JSON_ARRAY;
    if (cJSON_IsObject(c)) return SCENE_JSON_OBJECT;
    return SCENE_JSON_INVALID;
}

double scene_json_number(const scene_json *j) { return item(j)->valuedouble; }
bool scene_json_is_true(const scene_json *j) { return cJSON_IsTrue(item(j)); }
const char *scene_json_string(const scene_json *j) { return cJSON_IsString(item(j)) ? item(j)->valuestring : NULL; }
int scene_json_count(const scene_json *j) { return cJSON_IsArray(item(j)) || cJSON_IsObject(item(j)) ? cJSON_GetArraySize(item(j)) : 0; }
const scene_json *scene_json_child(const scene_json *j) {
    return cJSON_IsArray(item(j)) || cJSON_IsObject(item(j)) ? value(item(j)->child) : NULL;
}
const scene_json *scene_json_next(const scene_json *j) { return j ? value(item(j)->next) : NULL; }
const char *scene_json_key(const scene_json *j) { return j ? item(j)->string : NULL; }
const scene_json *scene_json_at(const scene_json *j, int index) { return cJSON_IsArray(item(j)) ? value(cJSON_GetArrayItem(item(j), index)) : NULL; }
const scene_json *scene_json_member(const scene_json *obj, const char *key) {
    return cJSON_IsObject(item(obj)) ? value(cJSON_GetObjectItemCaseSensitive(item(obj), key)) : NULL;
}
