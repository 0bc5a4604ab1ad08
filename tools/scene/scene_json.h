// SPDX-License-Identifier: MIT
// The scene loader's view of a JSON document: parse the text, then walk its values. The loader (json_read.c and the
// parsing files above it) reads scene files only through this interface, so that one loader serves both builds with
// each platform's own JSON parser:
//   json_cjson.c         natively, over Debian's cJSON (the `tread` command, the tests, the fuzzer)
//   web/wasm/json_js.c   in the WebAssembly build, over the JavaScript engine's JSON.parse (no C parser compiled in)
// The model is cJSON's: a value has a type, a number, a string, and (arrays and objects) children in document order,
// each member of an object knowing its key. A value is only valid until scene_json_free of its document.
#ifndef TREAD_SCENE_JSON_H
#define TREAD_SCENE_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef struct scene_json scene_json; // one value of a parsed document (opaque; NULL: absent)

typedef enum scene_json_type {
    SCENE_JSON_INVALID, // NULL, or nothing the parser produces
    SCENE_JSON_NULL,
    SCENE_JSON_BOOL,
    SCENE_JSON_NUMBER,
    SCENE_JSON_STRING,
    SCENE_JSON_ARRAY,
    SCENE_JSON_OBJECT,
} scene_json_type;

// Where and why parsing failed. The loader turns an offset into "<file>:<line>:<column>: ...".
#define SCENE_JSON_NO_OFFSET ((size_t)-1)
typedef struct scene_json_syntax {
    size_t offset;      // byte offset in the text where the parser gave up, or SCENE_JSON_NO_OFFSET when it did not say
    char message[160];  // with no offset: the parser's own words
} scene_json_syntax;

// Parse text[0, length): one JSON value, only whitespace after it. NULL with *syntax filled on a syntax error (or
// when out of memory). The caller frees the root with scene_json_free.
const scene_json *scene_json_parse(const char *text, size_t length, scene_json_syntax *syntax);
void scene_json_free(const scene_json *root);
// The first string (0-based, counted in the order scene_json_child and scene_json_next walk the document, every
// object's keys included, a key before its value) that holds the character U+0000, or -1. A C string cannot hold it:
// the loader refuses such a document rather than read a name cut short.
long scene_json_nul_string(const scene_json *root, const char *text, size_t length);

scene_json_type scene_json_type_of(const scene_json *j);
double scene_json_number(const scene_json *j);     // a number's value
bool scene_json_is_true(const scene_json *j);      // a boolean's value
const char *scene_json_string(const scene_json *j); // a string's value (UTF-8, NUL-terminated); NULL for other types
int scene_json_count(const scene_json *j);          // elements of an array, members of an object; 0 otherwise
const scene_json *scene_json_child(const scene_json *j); // the first element or member, or NULL
const scene_json *scene_json_next(const scene_json *j);  // the element or member after j in its parent, or NULL
const char *scene_json_key(const scene_json *j);         // a member's key; NULL for an array element or the root
const scene_json *scene_json_at(const scene_json *j, int index); // element `index` of an array, or NULL
const scene_json *scene_json_member(const scene_json *obj, const char *key); // an object's member by key, or NULL

static inline bool scene_json_is_number(const scene_json *j) { return scene_json_type_of(j) == SCENE_JSON_NUMBER; }
static inline bool scene_json_is_string(const scene_json *j) { return scene_json_type_of(j) == SCENE_JSON_STRING; }
static inline bool scene_json_is_bool(const scene_json *j) { return scene_json_type_of(j) == SCENE_JSON_BOOL; }
static inline bool scene_json_is_array(const scene_json *j) { return scene_json_type_of(j) == SCENE_JSON_ARRAY; }
static inline bool scene_json_is_object(const scene_json *j) { return scene_json_type_of(j) == SCENE_JSON_OBJECT; }

// Every element of an array or member of an object, in document order.
#define scene_json_each(e, j) for ((e) = scene_json_child(j); (e) != NULL; (e) = scene_json_next(e))

#endif
