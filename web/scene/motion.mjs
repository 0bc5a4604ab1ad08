// SPDX-License-Identifier: MIT
// Keyframed paths of kinematic bodies (docs/SCENES.md, "Body motion"), as tools/scene/motion.c parses and evaluates
// them, number for number: keys of offsets and turns from the body's placement, once, looping or ping-pong; where the
// path is at a time; the velocities that take a body from where it is to where its path is at the frame's end. The
// C code works in double with its own sine and cosine built on tread_sin/tread_cos and an arctangent of its own, so
// the same operations in JavaScript doubles (and the library's tread_sin/tread_cos through the module) give the same
// bits.
import * as V from './f32.mjs';
import { g, index, key } from './json.mjs';

const f = Math.fround;
const PI = Math.PI; // SCENE_PI rounded to double
const TWO_PI = 2 * PI;
const MAX_COORDINATE = 65536;
const LOOPS = ['once', 'loop', 'ping_pong'];

// ---- angles (motion.c's path_sincos, atan_unit, quadrant_angle) ----------------------------------------------------

// sin and cos of x radians: x reduced to [-pi, pi] in double, split into its float part and the rest, the rest added
// by the angle-sum rule.
function sincos(tread, x) {
  const turns = Math.floor(x / TWO_PI + 0.5);
  const r = x - turns * 6.283185307179586 - turns * 2.4492935982947064e-16;
  const hi = f(r);
  const lo = r - hi, sh = tread.sin(hi), ch = tread.cos(hi);
  return [sh + ch * lo, ch - sh * lo];
}

// atan(x) for x in [0, 1]: halved three times, then its series to x^19.
function atanUnit(x) {
  for (let i = 0; i < 3; ++i) x = x / (1 + Math.sqrt(1 + x * x));
  const z = x * x;
  let sum = 0;
  for (let k = 19; k >= 3; k -= 2) sum = (k % 4 === 1 ? 1 : -1) / k + z * sum;
  return 8 * (x + x * z * sum);
}

const quadrantAngle = (s, c) => (s <= c ? (c > 0 ? atanUnit(s / c) : 0) : 0.5 * PI - atanUnit(c / s));

// ---- quaternions in double ----------------------------------------------------------------------------------------

const dq = (q) => ({ x: q.x, y: q.y, z: q.z, w: q.w });
const dqMul = (a, b) => ({
  x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
  y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
  z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
  w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
});
const dqConj = (q) => ({ x: -q.x, y: -q.y, z: -q.z, w: q.w });
function dqRound(q) {
  const n = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return { x: f(q.x / n), y: f(q.y / n), z: f(q.z / n), w: f(q.w / n) };
}
function dqAxisAngle(tread, axis, angle) {
  const [s, c] = sincos(tread, 0.5 * angle);
  return { x: axis.x * s, y: axis.y * s, z: axis.z * s, w: c };
}

// The rotation taking a to b as a unit axis and an angle in [0, pi] (the short way).
function turnBetween(a, b) {
  let d = dqMul(b, dqConj(a));
  if (d.w < 0) d = { x: -d.x, y: -d.y, z: -d.z, w: -d.w };
  const v = Math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  return {
    angle: v > 0 ? 2 * quadrantAngle(v, d.w) : 0,
    axis: v > 0 ? { x: f(d.x / v), y: f(d.y / v), z: f(d.z / v) } : { x: 0, y: 1, z: 0 },
  };
}

function keyRotation(tread, k) {
  if (!k.hasRotation) return { x: 0, y: 0, z: 0, w: 1 };
  return k.hasAxis ? dqAxisAngle(tread, k.axis, k.angle) : dq(k.rotation);
}

const sameAxis = (a, b) => a.x === b.x && a.y === b.y && a.z === b.z;

function buildSegments(tread, keys) {
  const segments = [];
  for (let i = 0; i + 1 < keys.length; ++i) {
    const a = keys[i], b = keys[i + 1];
    const aAxis = a.hasAxis || !a.hasRotation, bAxis = b.hasAxis || !b.hasRotation;
    if (aAxis && bAxis && (!a.hasRotation || !b.hasRotation || sameAxis(a.axis, b.axis))) {
      // One axis (or none): through the angles as given, whole turns included.
      segments.push({
        axis: a.hasRotation ? a.axis : b.hasRotation ? b.axis : { x: 0, y: 1, z: 0 },
        angle0: a.hasRotation ? a.angle : 0,
        angle1: b.hasRotation ? b.angle : 0,
        base: { x: 0, y: 0, z: 0, w: 1 },
      });
    } else {
      const qa = keyRotation(tread, a), qb = keyRotation(tread, b);
      const { axis, angle } = turnBetween(qa, qb);
      segments.push({ axis, angle0: 0, angle1: angle, base: dqRound(qa) });
    }
  }
  return segments;
}

// ---- parsing ------------------------------------------------------------------------------------------------------

// readRotation(r, v, jp) gives { q, hasAxis, axis, radians } (bodies.mjs's reader, passed in to keep the files apart).
function parseKey(r, readRotation, j, jp, path, i) {
  r.object(j, jp);
  r.fields(j, jp, ['time', 'offset', 'rotation']);
  const k = { time: r.needFloat(j, jp, 'time', 0, Infinity), offset: r.optVec3(j, jp, 'offset') ?? V.zero(), rotation: { x: 0, y: 0, z: 0, w: 1 },
    hasAxis: true, hasRotation: false, axis: V.zero(), angle: 0 };
  const prev = path.keys[i - 1];
  if (i > 0 && !(k.time > prev.time)) r.fail(key(jp, 'time'), `${g(k.time)} s is not after the previous key's ${g(prev.time)} s (keys must be in increasing time)`);
  const at = V.add(path.placement.p, k.offset);
  if (!(Math.abs(at.x) <= MAX_COORDINATE && Math.abs(at.y) <= MAX_COORDINATE && Math.abs(at.z) <= MAX_COORDINATE))
    r.fail(key(jp, 'offset'), `puts the body at [${g(at.x)}, ${g(at.y)}, ${g(at.z)}], beyond the ${MAX_COORDINATE} m coordinate limit`);
  if ('rotation' in j) {
    const rot = readRotation(r, j.rotation, key(jp, 'rotation'));
    Object.assign(k, { rotation: rot.q, hasRotation: true, hasAxis: rot.hasAxis, axis: rot.axis ?? V.zero(), angle: rot.radians ?? 0 });
  }
  if (i > 0) {
    // The library refuses faster bodies: say which key asks for it.
    const d = V.sub(k.offset, prev.offset);
    const speed = Math.max(Math.abs(d.x), Math.abs(d.y), Math.abs(d.z)) / (k.time - prev.time);
    if (speed > MAX_COORDINATE) r.fail(jp, `moves ${g(speed)} m/s along an axis from the previous key; at most ${MAX_COORDINATE}`);
  }
  return k;
}

// The "path" and "loop" of a kinematic body placed at `placement` ({ p, q }): the path, its transform at t = 0 the
// body's start.
export function parsePath(r, tread, readRotation, j, loop, jp, loopPath, placement) {
  const path = { keys: [], loop: loop === undefined ? 'once' : LOOPS[r.enumeration(loop, loopPath, LOOPS)], placement };
  r.array(j, jp);
  if (j.length < 2) r.fail(jp, `has ${j.length} key${j.length === 1 ? '' : 's'}; a path needs at least 2`);
  j.forEach((e, i) => path.keys.push(parseKey(r, readRotation, e, index(jp, i), path, i)));
  path.segments = buildSegments(tread, path.keys);
  path.segments.forEach((s, i) => {
    const rate = Math.abs(s.angle1 - s.angle0) / (path.keys[i + 1].time - path.keys[i].time);
    if (rate > MAX_COORDINATE) r.fail(index(jp, i + 1), `turns ${g(rate)} rad/s from the previous key; at most ${MAX_COORDINATE}`);
  });
  if (path.loop === 'loop') {
    // Back to the start in no time would be a jump, not motion: a loop must close.
    const first = path.keys[0], last = path.keys[path.keys.length - 1];
    const a = keyRotation(tread, first), z = keyRotation(tread, last);
    const dot = Math.abs(a.x * z.x + a.y * z.y + a.z * z.z + a.w * z.w);
    if (V.distance(first.offset, last.offset) > f(1e-6) || dot < 1 - 1e-12)
      r.fail(index(jp, path.keys.length - 1), 'a looping path must end where it starts (the offset and rotation of path[0]); end it with a copy of the first key, or use "ping_pong" or "once"');
  }
  return path;
}

// ---- evaluation ---------------------------------------------------------------------------------------------------

// The path's own time at run time t: before the first key it waits there; after the last, by its loop mode.
function pathTime(path, t) {
  const t0 = path.keys[0].time, span = path.keys[path.keys.length - 1].time - t0, u = t - t0;
  if (u <= 0) return t0;
  if (path.loop === 'loop') return t0 + (u % span);
  if (path.loop === 'ping_pong') {
    const v = u % (2 * span);
    return t0 + (v > span ? 2 * span - v : v);
  }
  return u >= span ? t0 + span : t0 + u;
}

// Where the path puts its body at time t (seconds from the start of the run): { p, q } in floats.
export function pathTransform(tread, path, t) {
  const tau = pathTime(path, t);
  let lo = 0, hi = path.keys.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (path.keys[mid].time <= tau) lo = mid;
    else hi = mid;
  }
  const a = path.keys[lo], b = path.keys[lo + 1], s0 = path.segments[lo];
  const s = Math.min(Math.max((tau - a.time) / (b.time - a.time), 0), 1);
  const o = { x: a.offset.x + s * (b.offset.x - a.offset.x), y: a.offset.y + s * (b.offset.y - a.offset.y), z: a.offset.z + s * (b.offset.z - a.offset.z) };
  const turn = dqMul(dqAxisAngle(tread, s0.axis, s0.angle0 + s * (s0.angle1 - s0.angle0)), dq(s0.base));
  const pl = path.placement;
  return { p: { x: f(pl.p.x + o.x), y: f(pl.p.y + o.y), z: f(pl.p.z + o.z) }, q: dqRound(dqMul(turn, dq(pl.q))) };
}

// The velocities that take a body from `current` to where its path is at tNext in dt seconds.
export function pathVelocity(tread, path, current, tNext, dt) {
  const target = pathTransform(tread, path, tNext);
  const inv = 1 / dt;
  const linear = { x: f((target.p.x - current.p.x) * inv), y: f((target.p.y - current.p.y) * inv), z: f((target.p.z - current.p.z) * inv) };
  const { axis, angle } = turnBetween(dq(current.q), dq(target.q));
  return { linear, angular: V.scale(axis, f(angle * inv)) };
}
