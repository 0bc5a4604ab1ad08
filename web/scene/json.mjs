// SPDX-License-Identifier: MIT
// Typed reading of a parsed scene file with the C loader's rules (tools/scene/json_read.c): unknown fields are
// errors, types are checked, numbers must be finite and fit a float, and every message names the file and the
// value's JSON path ("<file>: bodies[3].radius: ..."). Numbers become floats as the C loader's (float)double does.
export const OPEN_LO = 1;
export const OPEN_HI = 2;
const FLT_MAX = 3.4028234663852886e38;

export class SceneError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SceneError';
  }
}

export const key = (jp, k) => (jp ? `${jp}.${k}` : k);
export const index = (jp, i) => `${jp}[${i}]`;

export function typeName(v) {
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return 'a boolean';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return 'an object';
}

// C's %g (%.<precision>g): 6 significant digits by default, trailing zeros dropped, an exponent below 1e-4 and from 1e6 (messages match the C
// loader's word for word).
export function g(x, precision = 6) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, exponent] = x.toExponential(precision - 1).split('e');
  const e = Number(exponent);
  const trim = (t) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  if (e < -4 || e >= precision) return `${trim(mantissa)}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return trim(x.toFixed(precision - 1 - e));
}
const fmt = g;

export class Reader {
  constructor(file) {
    this.file = file;
  }

  // Messages stop at 511 characters, as the C loader's 512-byte buffer does.
  fail(jp, what) {
    throw new SceneError((jp ? `${this.file}: ${jp}: ${what}` : `${this.file}: ${what}`).slice(0, 511));
  }

  object(v, jp) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) this.fail(jp, `expected an object, got ${typeName(v)}`);
    return v;
  }

  array(v, jp) {
    if (!Array.isArray(v)) this.fail(jp, `expected an array, got ${typeName(v)}`);
    return v;
  }

  // Every member must be one of `allowed`. (JSON.parse keeps the last of a field given twice, so duplicates, which
  // the C loader refuses, are not seen here.)
  fields(obj, jp, allowed) {
    for (const k of Object.keys(obj))
      // The C loader lists the names in a 256-byte buffer: the list stops at 255 characters.
      if (!allowed.includes(k)) this.fail(jp, `unknown field "${k}" (expected one of: ${allowed.join(', ').slice(0, 255)})`);
  }

  need(obj, jp, k) {
    if (!(k in obj)) this.fail(jp, `missing required field "${k}"`);
    return obj[k];
  }

  double(v, jp) {
    if (typeof v !== 'number') this.fail(jp, `expected a number, got ${typeName(v)}`);
    return v;
  }

  // A float in range ((float)double, then the range check on the float, as js_read_float_in).
  float(v, jp, lo = -Infinity, hi = Infinity, open = 0) {
    const d = this.double(v, jp);
    if (Math.abs(d) > FLT_MAX) this.fail(jp, `${fmt(d)} is out of range for a 32-bit float`);
    const x = Math.fround(d);
    const loOk = open & OPEN_LO ? x > lo : x >= lo;
    const hiOk = open & OPEN_HI ? x < hi : x <= hi;
    if (!loOk || !hiOk) {
      const want = [];
      if (Number.isFinite(lo)) want.push(`${open & OPEN_LO ? '>' : '>='} ${lo}`);
      if (Number.isFinite(hi)) want.push(`${open & OPEN_HI ? '<' : '<='} ${hi}`);
      this.fail(jp, `${fmt(x)} is out of range: expected ${want.join(' and ')}`);
    }
    return x;
  }

  integer(v, jp, lo, hi) {
    const d = this.double(v, jp);
    if (d !== Math.floor(d)) this.fail(jp, `expected an integer, got ${fmt(d)}`);
    if (d < lo || d > hi) this.fail(jp, `${d} is out of range: expected >= ${lo} and <= ${hi}`);
    return d;
  }

  vec3(v, jp) {
    if (!Array.isArray(v)) this.fail(jp, `expected an array of 3 numbers, got ${typeName(v)}`);
    if (v.length !== 3) this.fail(jp, `expected an array of 3 numbers, got ${v.length} element${v.length === 1 ? '' : 's'}`);
    return { x: this.float(v[0], index(jp, 0)), y: this.float(v[1], index(jp, 1)), z: this.float(v[2], index(jp, 2)) };
  }

  bool(v, jp) {
    if (typeof v !== 'boolean') this.fail(jp, `expected true or false, got ${typeName(v)}`);
    return v;
  }

  string(v, jp, maxLength = Infinity) {
    if (typeof v !== 'string') this.fail(jp, `expected a string, got ${typeName(v)}`);
    if (v.includes('\u0000')) this.fail(jp, `"${v.split('\u0000')[0]}..." holds a NUL character (\\u0000); no string in a scene may`);
    // The C loader counts bytes (UTF-8), and keeps at most size - 1 of them.
    const bytes = new TextEncoder().encode(v).length;
    if (bytes > maxLength) this.fail(jp, `is ${bytes} characters long; at most ${maxLength} allowed`);
    return v;
  }

  enumeration(v, jp, names) {
    if (typeof v !== 'string') this.fail(jp, `expected a string, got ${typeName(v)}`);
    const i = names.indexOf(v);
    if (i < 0) this.fail(jp, `unknown value "${v}": expected one of ${names.map((n) => `"${n}"`).join(', ')}`);
    return i;
  }

  // Optional fields: undefined when absent (the caller keeps its default).
  optFloat(obj, jp, k, lo, hi, open) {
    return k in obj ? this.float(obj[k], key(jp, k), lo, hi, open) : undefined;
  }

  optVec3(obj, jp, k) {
    return k in obj ? this.vec3(obj[k], key(jp, k)) : undefined;
  }

  optBool(obj, jp, k) {
    return k in obj ? this.bool(obj[k], key(jp, k)) : undefined;
  }

  optString(obj, jp, k, maxLength) {
    return k in obj ? this.string(obj[k], key(jp, k), maxLength) : undefined;
  }

  needFloat(obj, jp, k, lo, hi, open) {
    this.need(obj, jp, k);
    return this.float(obj[k], key(jp, k), lo, hi, open);
  }

  needVec3(obj, jp, k) {
    this.need(obj, jp, k);
    return this.vec3(obj[k], key(jp, k));
  }
}
