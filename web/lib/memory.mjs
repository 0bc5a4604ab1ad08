// SPDX-License-Identifier: MIT
// Reading and writing tread's C structs in the WebAssembly module's memory, by field name. Every offset comes from the
// module's own layout tables (web/wasm/layout.c, from offsetof), so nothing here knows where a field lives: a field
// added to a header in C moves the others, and this code follows. Data objects use the C field names
// (`max_step_height`, `ground.state`), as scene files and docs/SCENES.md do.

import { ENUM_FIELDS, enumValue } from './enums.mjs';

// tw_kind in web/wasm/layout.h.
export const KIND = Object.freeze({ END: 0, F32: 1, I32: 2, U32: 3, BOOL: 4, VEC3: 5, QUAT: 6, PTR: 7, STRUCT: 8, TEXT: 9, F64: 10 });

// The module's struct tables: name -> { name, size, fields: [{ name, path, offset, kind, sub, count }] }.
export function readLayout(mod) {
  const tables = [];
  const count = mod._tw_layout_count();
  for (let s = 0; s < count; ++s) {
    const fields = [];
    const n = mod._tw_layout_field_count(s);
    for (let f = 0; f < n; ++f) {
      const name = mod.UTF8ToString(mod._tw_layout_field_name(s, f));
      fields.push({
        name,
        path: name.split('.'),
        offset: mod._tw_layout_field_offset(s, f),
        kind: mod._tw_layout_field_kind(s, f),
        sub: mod._tw_layout_field_sub(s, f),
        count: mod._tw_layout_field_count_of(s, f),
      });
    }
    tables.push({ name: mod.UTF8ToString(mod._tw_layout_name(s)), size: mod._tw_layout_size(s), fields });
  }
  const byName = new Map();
  for (const t of tables) {
    for (const f of t.fields) f.table = f.kind === KIND.STRUCT ? tables[f.sub] : null;
    t.byName = new Map(t.fields.map((f) => [f.name, f]));
    byName.set(t.name, t);
  }
  return byName;
}

// A vector from [x, y, z], {x, y, z} or a typed array.
export function vec3Of(v) {
  if (v === undefined || v === null) return { x: 0, y: 0, z: 0 };
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return { x: +v[0], y: +v[1], z: +v[2] };
  return { x: +v.x, y: +v.y, z: +v.z };
}

export function quatOf(q) {
  if (q === undefined || q === null) return { x: 0, y: 0, z: 0, w: 1 };
  if (Array.isArray(q) || ArrayBuffer.isView(q)) return { x: +q[0], y: +q[1], z: +q[2], w: +q[3] };
  return { x: +q.x, y: +q.y, z: +q.z, w: +q.w };
}

// Struct access bound to one module. The heap views are looked up on every access: memory growth replaces them.
export class Memory {
  constructor(mod) {
    this.mod = mod;
    this.layout = readLayout(mod);
  }

  table(type) {
    const t = this.layout.get(type);
    if (!t) throw new Error(`tread: no layout for ${type}`);
    return t;
  }

  sizeOf(type) {
    return this.table(type).size;
  }

  // Bytes from the module's allocator, zeroed; throws when it has none left.
  alloc(bytes) {
    const ptr = this.mod._malloc(Math.max(bytes, 1));
    if (!ptr) throw new Error(`tread: out of WebAssembly memory for ${bytes} bytes`);
    this.mod.HEAPU8.fill(0, ptr, ptr + bytes);
    return ptr;
  }

  free(ptr) {
    if (ptr) this.mod._free(ptr);
  }

  // Offset and kind of a field by its dotted name through nested structs ("ground.normal", "settings.riser.depth").
  // Members of a nested C struct that has no table of its own are rows with dotted names ("riser.depth").
  offsetOf(type, name) {
    let table = this.table(type);
    let offset = 0;
    let rest = name;
    for (;;) {
      const field = table.byName.get(rest);
      if (field) return { offset: offset + field.offset, kind: field.kind, table: field.table };
      const outer = table.fields.find((f) => f.kind === KIND.STRUCT && rest.startsWith(f.name + '.'));
      if (!outer) throw new Error(`tread: ${type} has no field ${name}`);
      offset += outer.offset;
      table = outer.table;
      rest = rest.slice(outer.name.length + 1);
    }
  }

  getValue(ptr, kind) {
    const m = this.mod;
    switch (kind) {
      case KIND.F32: return m.HEAPF32[ptr >> 2];
      case KIND.I32: return m.HEAP32[ptr >> 2];
      case KIND.U32: case KIND.PTR: return m.HEAPU32[ptr >> 2];
      case KIND.BOOL: return m.HEAPU8[ptr] !== 0;
      case KIND.TEXT: return m.UTF8ToString(ptr);
      case KIND.F64: return m.HEAPF64[ptr >> 3];
      case KIND.VEC3: return { x: m.HEAPF32[ptr >> 2], y: m.HEAPF32[(ptr >> 2) + 1], z: m.HEAPF32[(ptr >> 2) + 2] };
      case KIND.QUAT: {
        const i = ptr >> 2;
        return { x: m.HEAPF32[i], y: m.HEAPF32[i + 1], z: m.HEAPF32[i + 2], w: m.HEAPF32[i + 3] };
      }
      default: throw new Error(`tread: cannot read kind ${kind}`);
    }
  }

  setValue(ptr, kind, value) {
    const m = this.mod;
    switch (kind) {
      case KIND.F32: m.HEAPF32[ptr >> 2] = value; return;
      case KIND.I32: m.HEAP32[ptr >> 2] = value; return;
      case KIND.U32: case KIND.PTR: m.HEAPU32[ptr >> 2] = value >>> 0; return;
      case KIND.BOOL: m.HEAPU8[ptr] = value ? 1 : 0; return;
      case KIND.VEC3: {
        const v = vec3Of(value);
        const i = ptr >> 2;
        m.HEAPF32[i] = v.x, m.HEAPF32[i + 1] = v.y, m.HEAPF32[i + 2] = v.z;
        return;
      }
      case KIND.QUAT: {
        const q = quatOf(value);
        const i = ptr >> 2;
        m.HEAPF32[i] = q.x, m.HEAPF32[i + 1] = q.y, m.HEAPF32[i + 2] = q.z, m.HEAPF32[i + 3] = q.w;
        return;
      }
      default: throw new Error(`tread: cannot write kind ${kind}`);
    }
  }

  // The whole struct as a plain object (nested structs as objects, arrays of structs as arrays).
  read(type, ptr) {
    return this.readTable(this.table(type), ptr);
  }

  readTable(table, ptr) {
    const out = {};
    for (const f of table.fields) {
      let value;
      if (f.kind === KIND.STRUCT) {
        if (f.count === 1) value = this.readTable(f.table, ptr + f.offset);
        else value = Array.from({ length: f.count }, (_, k) => this.readTable(f.table, ptr + f.offset + k * f.table.size));
      } else {
        value = this.getValue(ptr + f.offset, f.kind);
        const names = ENUM_FIELDS[table.name]?.[f.name];
        if (names && names[value] !== undefined) value = names[value];
      }
      let o = out;
      for (let k = 0; k < f.path.length - 1; ++k) o = o[f.path[k]] ??= {};
      o[f.path[f.path.length - 1]] = value;
    }
    return out;
  }

  // Write the fields `values` gives (nested objects for nested members); the others stay as they are. Unknown
  // names are errors, so a typo never silently becomes a default.
  write(type, ptr, values) {
    this.writeTable(this.table(type), ptr, values, type);
  }

  writeTable(table, ptr, values, where) {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      const field = table.byName.get(key);
      if (field) {
        if (field.kind === KIND.STRUCT) {
          if (field.count !== 1) throw new Error(`tread: ${where}.${key} is read-only here`);
          this.writeTable(field.table, ptr + field.offset, value, `${where}.${key}`);
        } else {
          const names = ENUM_FIELDS[table.name]?.[key];
          this.setValue(ptr + field.offset, field.kind, names ? enumValue(names, value, `${where}.${key}`) : value);
        }
        continue;
      }
      // A group of dotted rows ("riser" for riser.depth, riser.radius_scale, ...).
      const prefix = key + '.';
      const rows = table.fields.filter((f) => f.name.startsWith(prefix));
      if (!rows.length || typeof value !== 'object') throw new Error(`tread: ${where} has no field ${key}`);
      for (const [sub, v] of Object.entries(value)) {
        const row = table.byName.get(prefix + sub);
        if (!row) throw new Error(`tread: ${where} has no field ${prefix + sub}`);
        this.setValue(ptr + row.offset, row.kind, v);
      }
    }
  }

  // Copy JavaScript numbers into module memory as float32 / uint32 / uint8; returns the pointer (caller frees).
  copyF32(values) {
    const ptr = this.alloc(values.length * 4);
    this.mod.HEAPF32.set(values, ptr >> 2);
    return ptr;
  }

  copyU32(values) {
    const ptr = this.alloc(values.length * 4);
    this.mod.HEAPU32.set(values, ptr >> 2);
    return ptr;
  }

  copyU8(values) {
    const ptr = this.alloc(values.length);
    this.mod.HEAPU8.set(values, ptr);
    return ptr;
  }

  string(ptr) {
    return this.mod.UTF8ToString(ptr);
  }
}
