// SPDX-License-Identifier: MIT
// tread's float math (include/tread/math.h) in JavaScript, bit for bit: every operation rounds to float32 as C's
// float arithmetic does (Math.fround after each +, -, *, / and sqrt of floats is exact float rounding: a double
// holds those results before rounding without a second rounding error). The peers benchmark's worlds (worlds.mjs)
// are built with these, so every engine gets tread's native benchmark's numbers.
const f = Math.fround;

export const v3 = (x, y, z) => ({ x: f(x), y: f(y), z: f(z) });
export const zero = () => ({ x: 0, y: 0, z: 0 });
export const add = (a, b) => ({ x: f(a.x + b.x), y: f(a.y + b.y), z: f(a.z + b.z) });
export const sub = (a, b) => ({ x: f(a.x - b.x), y: f(a.y - b.y), z: f(a.z - b.z) });
export const scale = (a, s) => ({ x: f(a.x * s), y: f(a.y * s), z: f(a.z * s) });
// a + s * b, rounded as two operations (tread_v3_mad).
export const mad = (a, s, b) => ({ x: f(a.x + f(s * b.x)), y: f(a.y + f(s * b.y)), z: f(a.z + f(s * b.z)) });
export const dot = (a, b) => f(f(f(a.x * b.x) + f(a.y * b.y)) + f(a.z * b.z));
export const cross = (a, b) => ({
  x: f(f(a.y * b.z) - f(a.z * b.y)),
  y: f(f(a.z * b.x) - f(a.x * b.z)),
  z: f(f(a.x * b.y) - f(a.y * b.x)),
});
export const length = (a) => f(Math.sqrt(dot(a, a)));
export const distance = (a, b) => length(sub(a, b));
export const abs = (a) => ({ x: Math.abs(a.x), y: Math.abs(a.y), z: Math.abs(a.z) });
export const min = (a, b) => ({ x: a.x < b.x ? a.x : b.x, y: a.y < b.y ? a.y : b.y, z: a.z < b.z ? a.z : b.z });
export const max = (a, b) => ({ x: a.x > b.x ? a.x : b.x, y: a.y > b.y ? a.y : b.y, z: a.z > b.z ? a.z : b.z });
export function normalize(a) {
  const len = length(a);
  return len > 0 ? scale(a, f(1 / len)) : zero();
}
// The part of a perpendicular to the unit vector n (tread_v3_reject).
export const reject = (a, n) => mad(a, -dot(a, n), n);

export const quatIdentity = () => ({ x: 0, y: 0, z: 0, w: 1 });
export const quatLengthSq = (q) => f(f(f(f(q.x * q.x) + f(q.y * q.y)) + f(q.z * q.z)) + f(q.w * q.w));
export function quatNormalize(q) {
  const len = f(Math.sqrt(quatLengthSq(q)));
  if (!(len > 0)) return quatIdentity();
  const s = f(1 / len);
  return { x: f(q.x * s), y: f(q.y * s), z: f(q.z * s), w: f(q.w * s) };
}
export function quatMul(a, b) {
  return {
    x: f(f(f(f(a.w * b.x) + f(a.x * b.w)) + f(a.y * b.z)) - f(a.z * b.y)),
    y: f(f(f(f(a.w * b.y) - f(a.x * b.z)) + f(a.y * b.w)) + f(a.z * b.x)),
    z: f(f(f(f(a.w * b.z) + f(a.x * b.y)) - f(a.y * b.x)) + f(a.z * b.w)),
    w: f(f(f(f(a.w * b.w) - f(a.x * b.x)) - f(a.y * b.y)) - f(a.z * b.z)),
  };
}
export const quatConjugate = (q) => ({ x: -q.x, y: -q.y, z: -q.z, w: q.w });
// Rotate v by the unit quaternion q (tread_quat_rotate).
export function quatRotate(q, v) {
  const u = { x: q.x, y: q.y, z: q.z };
  const t = scale(cross(u, v), 2);
  return add(mad(v, q.w, t), cross(u, t));
}
export const transformPoint = (t, v) => add(quatRotate(t.q, v), t.p);

// A vector from JSON's [x, y, z] as floats.
export const fromArray = (a) => v3(a[0], a[1], a[2]);
