// SPDX-License-Identifier: MIT
// A scene's expectations evaluated over a recorded run, as tools/scene/checks.c does for the checks of one character
// (final, at_time, reaches, max_rise, max_drop, height_range, grounded_fraction, airborne_frames, speed_range,
// mean_speed, drift, advance, comes_to_rest, ground_state, no_penetration) and the invariants every scene has (finite
// state, penetration). The run may come from any engine: the peers benchmark (web/bench) scores Jolt and Rapier with
// it on the course, so every engine is judged by the same code. The checks of bodies, crowds and sensors are reported
// as not evaluated. The scene file was validated by the loader; the checks are read here without a second validation.
import * as V from './f32.mjs';

const f = Math.fround;
const AXES = ['x', 'y', 'z'];
const GROUND = ['on_ground', 'on_steep', 'not_supported', 'in_air'];
const PENETRATION_LIMIT = f(0.001);

// trace: { dt, ups: [Vec3 per character], start: [Vec3 per character],
//          frames: [[{ feet, ground, penetration?, finite? }] per character], initialPenetration?: [number per character] }

function range(j, defaults = {}) {
  const r = { min: defaults.min, max: defaults.max };
  if ('min' in j) r.min = f(j.min);
  if ('max' in j) r.max = f(j.max);
  return r;
}
const rangeOk = (r, v) => (r.min === undefined || v >= r.min - 1e-9) && (r.max === undefined || v <= r.max + 1e-9);

function condition(c) {
  if (!c) return null;
  if ('time' in c) return { kind: 'time', value: f(c.time) };
  return { kind: 'above' in c ? 'above' : 'below', axis: AXES.indexOf(c.axis), value: f('above' in c ? c.above : c.below) };
}

const frameTime = (t, i) => f(f(i + 1) * t.dt);
const axisOf = (v, a) => v[AXES[a]];

function holds(c, t, frame, i) {
  if (c.kind === 'time') return frameTime(t, i) >= f(c.value - f(1e-6));
  if (c.kind === 'above') return axisOf(frame.feet, c.axis) >= c.value;
  return axisOf(frame.feet, c.axis) <= c.value;
}

function windowOf(w = {}) {
  const where = w.where ? { axis: AXES.indexOf(w.where.axis), min: 'min' in w.where ? f(w.where.min) : -Infinity, max: 'max' in w.where ? f(w.where.max) : Infinity } : null;
  return { start: condition(w.start), end: condition(w.end), where };
}

function span(w, t, frames) {
  const n = frames.length;
  let a = 0, b = n;
  if (w.start) {
    a = n;
    for (let i = 0; i < n; ++i) if (holds(w.start, t, frames[i], i)) { a = i; break; }
  }
  if (w.end) for (let i = a + 1; i < n; ++i) if (holds(w.end, t, frames[i], i)) { b = i; break; }
  return [a, b];
}

const inWhere = (w, frame) => !w.where || (axisOf(frame.feet, w.where.axis) >= w.where.min && axisOf(frame.feet, w.where.axis) <= w.where.max);

function pairSpeed(measure, axis, t, c, i) {
  const frames = t.frames[c];
  const a = i > 0 ? frames[i - 1].feet : t.start[c], b = frames[i].feet;
  const d = V.sub(b, a);
  if (measure === 'horizontal') return f(V.length(V.reject(d, t.ups[c])) / t.dt);
  if (measure === 'surface') return f(V.length(d) / t.dt);
  return f(axisOf(d, axis) / t.dt);
}

// One check: { name, type, key, passed, value, text }.
export function evaluateCheck(scene, j, t) {
  const c = typeof j.character === 'string' ? scene.characters.findIndex((x) => x.name === j.character) : j.character ?? 0;
  const frames = t.frames[c];
  const w = windowOf(j.window);
  const [a, b] = span(w, t, frames);
  const out = { name: j.name ?? j.type, type: j.type, key: j.key === true, passed: true, value: 0, text: '' };
  const n = frames.length;
  switch (j.type) {
    case 'final':
    case 'at_time': {
      let i = n - 1;
      if (j.type === 'at_time') i = Math.min(Math.max(Math.floor(f(f(j.time) / t.dt) + 0.5) - 1, 0), n - 1);
      for (const [ax, name] of AXES.entries()) {
        if (!(name in j)) continue;
        const v = axisOf(frames[i].feet, ax);
        out.passed &&= rangeOk(range(j[name]), v);
        out.value = v;
        out.text = `${name} ${v.toFixed(4)} m at ${frameTime(t, i).toFixed(3)} s`;
      }
      return out;
    }
    case 'reaches': {
      const cond = condition(j.condition);
      const by = f(j.by ?? scene.duration);
      const hit = frames.findIndex((fr, i) => holds(cond, t, fr, i));
      out.value = hit >= 0 ? frameTime(t, hit) : Infinity;
      out.passed = hit >= 0 && frameTime(t, hit) <= f(by + f(1e-6));
      out.text = hit >= 0 ? `reached at ${out.value.toFixed(3)} s` : 'never reached';
      return out;
    }
    case 'max_rise':
    case 'max_drop': {
      let worst = 0;
      let prev = V.dot(t.start[c], t.ups[c]);
      for (let i = 0; i < n; ++i) {
        const h = V.dot(frames[i].feet, t.ups[c]);
        const delta = j.type === 'max_rise' ? f(h - prev) : f(prev - h);
        prev = h;
        if (i < a || i >= b || !inWhere(w, frames[i])) continue;
        if (j.grounded_only && frames[i].ground !== 'on_ground') continue;
        if (delta > worst) worst = delta;
      }
      out.value = worst;
      out.passed = rangeOk({ max: f(j.max) }, worst);
      out.text = `largest ${j.type === 'max_rise' ? 'rise' : 'drop'} ${worst.toFixed(4)} m in a frame`;
      return out;
    }
    case 'height_range': {
      const axis = AXES.indexOf(j.axis ?? 'y');
      const r = range(j);
      let lo = Infinity, hi = -Infinity, counted = 0;
      for (let i = a; i < b; ++i) {
        if (!inWhere(w, frames[i])) continue;
        const v = axisOf(frames[i].feet, axis);
        lo = Math.min(lo, v), hi = Math.max(hi, v), ++counted;
        if (!rangeOk(r, v)) out.passed = false;
      }
      out.value = r.max !== undefined ? hi : lo;
      out.passed &&= counted > 0;
      out.text = `${r.max !== undefined ? 'max' : 'min'} ${AXES[axis]} ${out.value.toFixed(4)} m`;
      return out;
    }
    case 'grounded_fraction':
    case 'airborne_frames': {
      let counted = 0, grounded = 0;
      for (let i = a; i < b; ++i) {
        if (!inWhere(w, frames[i])) continue;
        ++counted;
        grounded += frames[i].ground === 'on_ground' ? 1 : 0;
      }
      if (j.type === 'grounded_fraction') {
        out.value = counted ? grounded / counted : 0;
        out.passed = counted > 0 && rangeOk({ min: f(j.min) }, out.value);
        out.text = `grounded ${(100 * out.value).toFixed(1)}% of frames`;
      } else {
        out.value = counted - grounded;
        out.passed = counted > 0 && rangeOk(range(j), out.value);
        out.text = `${out.value} frames off the ground`;
      }
      return out;
    }
    case 'speed_range':
    case 'mean_speed': {
      const measure = ['surface', 'horizontal'].includes(j.measure) ? j.measure : 'axis';
      const axis = AXES.indexOf(j.measure);
      const r = range(j);
      let sum = 0, lo = Infinity, hi = -Infinity, counted = 0;
      for (let i = a > 0 ? a : 1; i < b; ++i) {
        if (!inWhere(w, frames[i]) || !inWhere(w, frames[i - 1])) continue;
        const v = pairSpeed(measure, axis, t, c, i);
        lo = Math.min(lo, v), hi = Math.max(hi, v), sum += v, ++counted;
      }
      const mean = counted ? sum / counted : 0;
      if (j.type === 'mean_speed') {
        out.value = mean;
        out.passed = counted > 0 && rangeOk(r, mean);
      } else {
        out.value = lo;
        out.passed = counted > 0 && rangeOk(r, lo) && rangeOk(r, hi);
      }
      const label = measure === 'horizontal' ? 'horizontal speed' : measure === 'axis' ? `speed along ${j.measure}` : 'speed';
      out.text = `${j.type === 'mean_speed' ? 'mean' : 'min'} ${label} ${out.value.toFixed(4)} m/s`;
      return out;
    }
    case 'drift':
    case 'advance': {
      if (b <= a) return { ...out, passed: false, text: 'empty window' };
      const p0 = frames[a].feet, p1 = frames[b - 1].feet;
      const axis = AXES.indexOf(j.axis);
      out.value = j.type === 'drift' ? V.distance(p0, p1) : f(axisOf(p1, axis) - axisOf(p0, axis));
      out.passed = rangeOk(j.type === 'drift' ? { max: f(j.max) } : range(j), out.value);
      out.text = `${j.type === 'drift' ? 'drift' : `advance along ${j.axis}`} ${out.value.toFixed(4)} m`;
      return out;
    }
    case 'comes_to_rest': {
      let worst = 0;
      for (let i = a > 0 ? a : 1; i < b; ++i) worst = Math.max(worst, V.distance(frames[i].feet, frames[i - 1].feet));
      out.value = worst;
      out.passed = b > a && rangeOk({ max: f(j.max) }, worst);
      out.text = `largest motion ${worst.toFixed(6)} m in a frame`;
      return out;
    }
    case 'ground_state': {
      let i = 'time' in j ? Math.floor(f(f(j.time) / t.dt) + 0.5) - 1 : b - 1;
      i = Math.min(Math.max(i, 0), n - 1);
      out.value = GROUND.indexOf(frames[i].ground);
      out.passed = frames[i].ground === j.state;
      out.text = `${frames[i].ground} at ${frameTime(t, i).toFixed(3)} s`;
      return out;
    }
    case 'no_penetration': {
      let worst = 0;
      for (let i = a; i < b; ++i) worst = Math.max(worst, frames[i].penetration ?? 0);
      out.value = worst;
      out.passed = rangeOk({ max: f(j.max ?? 0.001) }, worst);
      out.text = `deepest penetration ${worst.toFixed(5)} m`;
      return out;
    }
    default:
      return { ...out, passed: false, evaluated: false, text: `${j.type}: not evaluated in JavaScript` };
  }
}

// The invariants of a listed character, or of a crowd's characters together (`members`, labelled "crowd <name>"):
// finite state every frame; penetration at most 1 mm (spawned inside: never deeper than at spawn, and out within 1 s).
export function invariants(t, members, label) {
  let bad = -1;
  for (const c of members) {
    bad = t.frames[c].findIndex((fr) => fr.finite === false);
    if (bad >= 0) break;
  }
  const outFrame = Math.floor(f(f(1) / t.dt) + 0.5);
  let worst = 0, ok = true;
  for (const c of members) {
    const start = t.initialPenetration?.[c] ?? 0;
    t.frames[c].forEach((fr, i) => {
      const p = fr.penetration ?? 0;
      worst = Math.max(worst, p);
      if (start <= PENETRATION_LIMIT) ok &&= p <= PENETRATION_LIMIT;
      else ok &&= p <= f(start + f(1e-6)) && (i < outFrame || p <= PENETRATION_LIMIT);
    });
  }
  return [
    { name: `${label}: finite state`, type: 'invariant', key: false, passed: bad < 0, value: bad, text: bad < 0 ? 'every frame finite' : `NaN or Inf at frame ${bad}` },
    { name: `${label}: penetration`, type: 'invariant', key: false, passed: ok, value: worst, text: `deepest ${worst.toFixed(5)} m` },
  ];
}

// Every expectation and every character's invariants: { passed, key, results }. `key` is the key check's result.
export function evaluateScene(scene, t) {
  const results = scene.expectations.map((j) => {
    const r = evaluateCheck(scene, j, t);
    // A pending check that fails counts as passed (expected to fail); one that passes fails.
    if (j.pending) r.passed = !r.passed, r.pending = true;
    return r;
  });
  // A listed character has its own pair of invariants; a crowd's characters share one. The scene's
  // "pending_penetration" marks the penetration invariant (never the finite-state one).
  const groups = scene.characters.map((ch, c) => [[c], ch.name, ch.crowd]).filter((x) => x[2] < 0);
  for (const crowd of scene.crowds ?? []) groups.push([Array.from({ length: crowd.count }, (_, k) => crowd.first + k), `crowd ${crowd.name}`]);
  for (const [members, label] of groups) {
    const pair = invariants(t, members, label);
    if (scene.pending_penetration) (pair[1].passed = !pair[1].passed), (pair[1].pending = true);
    results.push(...pair);
  }
  return { passed: results.every((r) => r.passed), key: results.find((r) => r.key) ?? null, results };
}
