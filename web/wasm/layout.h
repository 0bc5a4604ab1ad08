// SPDX-License-Identifier: MIT
// The layout of tread's public structs, and of the scene library's that JavaScript reads (a loaded scene, a run's
// frames and checks), as data: every field a JavaScript caller reads or writes, by its C name, with its byte offset
// from offsetof. The WebAssembly glue exports these tables so web/lib/memory.mjs never hard-codes an offset (a field
// added to a header moves the others; the compiler then tells JavaScript where they went).
#ifndef TREAD_WEB_LAYOUT_H
#define TREAD_WEB_LAYOUT_H

#include <stddef.h>

typedef enum tw_kind {
    TW_END = 0, // terminates a table
    TW_F32,     // float
    TW_I32,     // int, and enums (4 bytes in C on every target tread supports)
    TW_U32,     // uint32_t (masks, layers, body id parts)
    TW_BOOL,    // bool (1 byte)
    TW_VEC3,    // tread_vec3: 3 floats
    TW_QUAT,    // tread_quat: 4 floats (x, y, z, w)
    TW_PTR,     // a pointer (4 bytes in WebAssembly; 8 natively)
    TW_STRUCT,  // a nested struct: `sub` is its table's index; `count` > 1 for an array of them
    TW_TEXT,    // a NUL-terminated char array (the scene library's names and messages)
    TW_F64,     // double
} tw_kind;

typedef struct tw_field {
    const char *name; // C name, dotted for nested members ("ground.state", "contact_step.search_overshoot")
    int offset;       // bytes from the start of the struct
    int kind;         // tw_kind
    int sub;          // TW_STRUCT: index of the nested struct's table
    int count;        // TW_STRUCT: array length (1 for a single struct)
} tw_field;

typedef struct tw_struct {
    const char *name; // the C type name ("tread_character_settings")
    int size;         // sizeof
    const tw_field *fields;
} tw_struct;

// Every table, and how many.
extern const tw_struct tw_structs[];
extern const int tw_struct_count;
// The table of a type by its C name, or NULL.
const tw_struct *tw_struct_named(const char *name);

#endif
