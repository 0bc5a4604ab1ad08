// SPDX-License-Identifier: MIT
// tools/scene/scene_json.h in the WebAssembly build, over the JavaScript engine's JSON.parse: no C JSON parser is
// compiled into the module (the native build's is cJSON, tools/scene/json_cjson.c). The parsed value stays in
// JavaScript; C holds handles to the values it has reached (a scene_json pointer is a handle, 0 for NULL). An
// array's or object's children get consecutive handles, as a block, when the first is reached, so scene_json_next
// is the next handle. Strings are copied into module memory once, on first read. Everything is released by
// scene_json_free of the root: the loader parses, reads and frees one document at a time, so there is one table.
//
// Objects' members come in the order Object.keys gives, which is the text's order except that integer-like keys
// ("1", "20") come first; JSON.parse keeps only the last of a key given twice (docs/SCENES.md, "Errors").
#include <emscripten.h>
#include <stdint.h>

#include "scene_json.h"

// clang-format off
// (No backslash in the JavaScript below: emscripten 3.1.6 passes EM_JS code through JSON metadata unescaped.)
EM_JS(int, tws_json_parse, (const char *text, int length, int *offset, char *message, int message_size), {
  var source = UTF8ToString(text, length);
  var root;
  try {
    root = JSON.parse(source);
  } catch (e) {
    // Engines name the failing place as "position N" (UTF-16 units) in some messages and not in others.
    var at = new RegExp("position ([0-9]+)").exec(e.message);
    HEAP32[offset >> 2] = at ? lengthBytesUTF8(source.slice(0, +at[1])) : -1;
    stringToUTF8(String(e.message), message, message_size);
    return 0;
  }
  // Handle 1 is the root. When C first reaches an array's or object's children, they get the next free handles, one
  // each, in a block: the block (its first handle, its parent's value and an object's keys) is all that is stored,
  // so a million-element array costs one entry. Blocks are made in increasing handle order, so a handle's block is
  // found by bisection (or is the one last used: C mostly walks a block in order).
  var doc = { root: root, blocks: [], byParent: new Map(), free: 2, last: null, texts: new Map() };
  doc.block = function (h) {
    var b = doc.last;
    if (b && h >= b.first && h < b.first + b.count) return b;
    var lo = 0, hi = doc.blocks.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (doc.blocks[mid].first <= h) lo = mid;
      else hi = mid - 1;
    }
    return (doc.last = doc.blocks[lo]);
  };
  doc.value = function (h) {
    if (h === 1) return doc.root;
    var b = doc.block(h), i = h - b.first;
    return b.keys ? b.parent[b.keys[i]] : b.parent[i];
  };
  // The block of h's children, made the first time.
  doc.children = function (h) {
    var b = doc.byParent.get(h);
    if (!b) {
      var v = doc.value(h), keys = Array.isArray(v) ? null : Object.keys(v);
      b = { first: doc.free, count: keys ? keys.length : v.length, parent: v, keys: keys };
      doc.free += b.count;
      doc.blocks.push(b);
      doc.byParent.set(h, b);
    }
    return b;
  };
  Module.sceneJson = doc;
  return 1;
});

EM_JS(void, tws_json_free, (void), {
  var doc = Module.sceneJson;
  if (doc) doc.texts.forEach(function (p) { _free(p); });
  Module.sceneJson = null;
});

// The handle of child `place` of array or object h, or 0.
EM_JS(int, tws_json_child, (int h, int place), {
  var b = Module.sceneJson.children(h);
  return place >= 0 && place < b.count ? b.first + place : 0;
});

// The handle after h in its parent, or 0.
EM_JS(int, tws_json_next, (int h), {
  if (h === 1) return 0;
  var b = Module.sceneJson.block(h);
  return h + 1 < b.first + b.count ? h + 1 : 0;
});

EM_JS(int, tws_json_type, (int h), {
  var v = Module.sceneJson.value(h);
  if (v === null) return 1;
  if (typeof v === "boolean") return 2;
  if (typeof v === "number") return 3;
  if (typeof v === "string") return 4;
  return Array.isArray(v) ? 5 : 6;
});

EM_JS(double, tws_json_number, (int h), { return Module.sceneJson.value(h); });

EM_JS(int, tws_json_count, (int h), {
  var v = Module.sceneJson.value(h);
  if (Array.isArray(v)) return v.length;
  return v !== null && typeof v === "object" ? Object.keys(v).length : 0;
});

// A string value (key false) or a member's key (key true) in module memory, copied once and kept until the document
// is freed.
EM_JS(char *, tws_json_text, (int h, int key), {
  var doc = Module.sceneJson, id = 2 * h + key, b = key && h !== 1 ? doc.block(h) : null;
  var text = !key ? doc.value(h) : b && b.keys ? b.keys[h - b.first] : null;
  if (typeof text !== "string") return 0;
  if (doc.texts.has(id)) return doc.texts.get(id);
  var bytes = lengthBytesUTF8(text) + 1, p = _malloc(bytes);
  if (!p) return 0;
  stringToUTF8(text, p, bytes);
  doc.texts.set(id, p);
  return p;
});

// The handle of member `key` of object h, or 0.
EM_JS(int, tws_json_find, (int h, const char *key), {
  var doc = Module.sceneJson, v = doc.value(h), k = UTF8ToString(key);
  if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, k)) return 0;
  var b = doc.children(h);
  return b.first + b.keys.indexOf(k);
});

// The first string holding U+0000 in the walk's order (a key before its value), or -1.
EM_JS(int, tws_json_nul_string, (void), {
  var index = -1, found = -1;
  function walk(v) {
    if (found >= 0) return;
    if (typeof v === "string") {
      ++index;
      if (v.indexOf(String.fromCharCode(0)) >= 0) found = index;
    } else if (Array.isArray(v)) {
      v.forEach(walk);
    } else if (v !== null && typeof v === "object") {
      Object.keys(v).forEach(function (k) { walk(k); walk(v[k]); });
    }
  }
  walk(Module.sceneJson.root);
  return found;
});
// clang-format on

static int handle(const scene_json *j) { return (int)(uintptr_t)j; }
static const scene_json *value(int h) { return (const scene_json *)(uintptr_t)h; }

const scene_json *scene_json_parse(const char *text, size_t length, scene_json_syntax *syntax) {
    int offset = -1;
    syntax->message[0] = '\0';
    if (tws_json_parse(text, (int)length, &offset, syntax->message, (int)sizeof syntax->message)) return value(1);
    syntax->offset = offset >= 0 ? (size_t)offset : SCENE_JSON_NO_OFFSET;
    return NULL;
}

void scene_json_free(const scene_json *root) {
    if (root) tws_json_free();
}

long scene_json_nul_string(const scene_json *root, const char *text, size_t length) {
    (void)root, (void)text, (void)length;
    return tws_json_nul_string();
}

scene_json_type scene_json_type_of(const scene_json *j) { return j ? (scene_json_type)tws_json_type(handle(j)) : SCENE_JSON_INVALID; }
double scene_json_number(const scene_json *j) { return tws_json_number(handle(j)); }
bool scene_json_is_true(const scene_json *j) { return scene_json_is_bool(j) && tws_json_number(handle(j)) != 0.0; }
const char *scene_json_string(const scene_json *j) { return scene_json_is_string(j) ? tws_json_text(handle(j), 0) : NULL; }
int scene_json_count(const scene_json *j) { return j ? tws_json_count(handle(j)) : 0; }

const scene_json *scene_json_child(const scene_json *j) {
    return scene_json_is_array(j) || scene_json_is_object(j) ? value(tws_json_child(handle(j), 0)) : NULL;
}

const scene_json *scene_json_next(const scene_json *j) { return j ? value(tws_json_next(handle(j))) : NULL; }

const char *scene_json_key(const scene_json *j) { return j ? tws_json_text(handle(j), 1) : NULL; }
const scene_json *scene_json_at(const scene_json *j, int index) { return scene_json_is_array(j) ? value(tws_json_child(handle(j), index)) : NULL; }

const scene_json *scene_json_member(const scene_json *obj, const char *key) { return obj ? value(tws_json_find(handle(obj), key)) : NULL; }
