// SPDX-License-Identifier: MIT
// The native side of the web tests: web/native/scene_dump (the C loader and runner) run on scene files, and the
// comparison of what it built with what the JavaScript loader built, field by field and float by float.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BODY_FLAGS, ENUM_FIELDS } from '../lib/enums.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILD = process.env.BUILD ?? 'build';
export const DUMP = join(ROOT, BUILD, 'web', 'scene_dump');
export const DIST = join(ROOT, 'web', 'dist', 'tread.mjs');

// What the JavaScript loader refuses, by its message: a shipped scene refused for another reason fails the tests.
// Nothing in the shipped scenes today.
export const UNSUPPORTED = {};

export function requireBuilt() {
  for (const [file, how] of [[DUMP, 'web/native/build.sh'], [DIST, 'make wasm']])
    if (!existsSync(file)) throw new Error(`${relative(ROOT, file)} is missing: run ${how} (make test-web does both)`);
}

// Every scene file under scenes/, relative to the root, sorted.
export function shippedScenes(dir = join(ROOT, 'scenes')) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...shippedScenes(full));
    else if (name.endsWith('.json')) out.push(relative(ROOT, full));
  }
  return out;
}

// The scenes the run-comparing tests take: the course S1-S10, or with WEB_TEST_ALL=1 every shipped scene.
export function testedScenes() {
  const all = process.env.WEB_TEST_ALL === '1';
  return shippedScenes().filter((p) => all || p.startsWith('scenes/course/'));
}

// The scene at `path` loaded by the JavaScript loader, or null after skipping test `t` when the loader refuses it
// for a reason listed in UNSUPPORTED (any other refusal fails the test).
export function loadOrSkip(t, loadScene, tread, path) {
  try {
    return loadScene(tread, readFileSync(join(ROOT, path), 'utf8'), path);
  } catch (e) {
    if (Object.values(UNSUPPORTED).some((re) => re.test(e.message))) {
      t.skip(e.message);
      return null;
    }
    throw e;
  }
}

// The C loader's (and with run, the C runner's) view of each scene: one object per path.
export function nativeDump(paths, { run = true } = {}) {
  const args = run ? paths : ['--no-run', ...paths];
  const text = execFileSync(DUMP, args, { cwd: ROOT, maxBuffer: 1 << 30 }).toString();
  return text.trim().split('\n').map((line) => JSON.parse(line));
}

// ---- comparison -----------------------------------------------------------------------------------------------

// Equal as floats: the native side prints 9 digits, which name one float.
const sameFloat = (native, js) => Object.is(Math.fround(native), Math.fround(js));
const vecOf = (v) => (Array.isArray(v) ? v : 'w' in v ? [v.x, v.y, v.z, v.w] : [v.x, v.y, v.z]);

// FNV-1a 64 of a typed array's bytes, as scene_dump hashes shape arrays.
export function bytesHash(array) {
  let h = 0xcbf29ce484222325n;
  for (const b of new Uint8Array(array.buffer, array.byteOffset, array.byteLength)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & ((1n << 64n) - 1n);
  return h.toString(16).padStart(16, '0');
}

class Diff {
  constructor() {
    this.list = [];
  }

  float(path, native, js) {
    if (!sameFloat(native, js)) this.list.push(`${path}: C ${native}, JS ${js}`);
  }

  vec(path, native, js) {
    const a = vecOf(native), b = vecOf(js);
    if (a.length !== b.length || a.some((x, i) => !sameFloat(x, b[i]))) this.list.push(`${path}: C [${a}], JS [${b}]`);
  }

  equal(path, native, js) {
    if (native !== js) this.list.push(`${path}: C ${JSON.stringify(native)}, JS ${JSON.stringify(js)}`);
  }
}

function compareShape(d, path, native, shape) {
  d.equal(`${path}.type`, native.type, shape.type);
  switch (shape.type) {
    case 'box': d.vec(`${path}.half_extents`, native.half_extents, shape.half_extents); break;
    case 'sphere': d.float(`${path}.radius`, native.radius, shape.radius); break;
    case 'capsule':
      d.float(`${path}.radius`, native.radius, shape.radius);
      d.float(`${path}.half_height`, native.half_height, shape.half_height);
      break;
    case 'mesh':
      d.equal(`${path}.vertex_count`, native.vertex_count, shape.vertices.length / 3);
      d.equal(`${path}.triangle_count`, native.triangle_count, shape.indices.length / 3);
      d.equal(`${path}.vertices`, native.vertices_hash, bytesHash(shape.vertices));
      d.equal(`${path}.indices`, native.indices_hash, bytesHash(shape.indices));
      break;
    case 'heightfield':
      for (const k of ['count_x', 'count_z']) d.equal(`${path}.${k}`, native[k], shape[k]);
      for (const k of ['spacing_x', 'spacing_z']) d.float(`${path}.${k}`, native[k], shape[k]);
      d.equal(`${path}.heights`, native.heights_hash, bytesHash(shape.heights));
      d.equal(`${path}.holes`, native.holes_hash, shape.holes ? bytesHash(shape.holes) : null);
      break;
    case 'voxels':
      for (const k of ['count_x', 'count_y', 'count_z']) d.equal(`${path}.${k}`, native[k], shape[k]);
      d.float(`${path}.cell_size`, native.cell_size, shape.cell_size);
      d.equal(`${path}.solid`, native.solid_hash, bytesHash(shape.solid));
      break;
  }
}

function compareBody(d, path, native, body) {
  const def = body.def;
  d.equal(`${path}.name`, native.name, body.name);
  d.equal(`${path}.type`, native.type, def.type);
  d.equal(`${path}.flags`, native.flags, (def.one_way ? BODY_FLAGS.one_way : 0) | (def.sensor ? BODY_FLAGS.sensor : 0));
  d.equal(`${path}.layer`, native.layer, def.layer);
  compareShape(d, `${path}.shape`, native.shape, def.shape);
  d.vec(`${path}.transform.p`, native.transform.p, def.transform.p);
  d.vec(`${path}.transform.q`, native.transform.q, def.transform.q);
  d.vec(`${path}.linear_velocity`, native.linear_velocity, def.linear_velocity ?? [0, 0, 0]);
  d.vec(`${path}.angular_velocity`, native.angular_velocity, def.angular_velocity ?? [0, 0, 0]);
  for (const k of ['linear', 'angular', 'center']) d.vec(`${path}.surface.${k}`, native.surface[k], def.surface?.[k] ?? [0, 0, 0]);
  if (native.dynamic) {
    d.float(`${path}.dynamic.mass`, native.dynamic.mass, body.dynamic?.mass);
    d.float(`${path}.dynamic.friction`, native.dynamic.friction, body.dynamic?.friction);
    d.equal(`${path}.dynamic.gravity`, native.dynamic.gravity, body.dynamic?.gravity);
  }
}

// A struct the native side printed by dotted field names, against the JavaScript object (nested, enums by name).
function compareStruct(d, path, type, native, js) {
  for (const [name, value] of Object.entries(native)) {
    let v = js;
    for (const part of name.split('.')) v = v?.[part];
    const names = ENUM_FIELDS[type]?.[name];
    if (names) d.equal(`${path}.${name}`, names[value], v);
    else if (typeof value === 'number' && !Number.isInteger(value)) d.float(`${path}.${name}`, value, v);
    else if (Array.isArray(value)) d.vec(`${path}.${name}`, value, v);
    else if (typeof value === 'number' && typeof v === 'number' && !Number.isInteger(v)) d.float(`${path}.${name}`, value, v);
    else d.equal(`${path}.${name}`, value, v);
  }
}

function compareCharacter(d, path, native, c) {
  d.equal(`${path}.name`, native.name, c.name);
  d.equal(`${path}.crowd`, native.crowd, c.crowd);
  d.vec(`${path}.start`, native.start, c.start);
  compareStruct(d, `${path}.settings`, 'tread_character_settings', native.settings, c.settings);
  d.equal(`${path}.motor given`, native.motor !== null, c.has_motor);
  if (native.motor && c.motor) compareStruct(d, `${path}.motor`, 'tread_motor_settings', native.motor, c.motor);
  d.equal(`${path}.inputs.length`, native.inputs.length, c.inputs.length);
  native.inputs.forEach((n, i) => {
    const js = c.inputs[i];
    if (!js) return;
    const p = `${path}.inputs[${i}]`;
    d.float(`${p}.t`, n.t, js.t);
    d.equal(`${p}.kind`, n.kind, js.kind);
    d.vec(`${p}.direction`, n.direction, js.direction);
    d.vec(`${p}.target`, n.target, js.target);
    d.float(`${p}.speed`, n.speed, js.speed);
    d.equal(`${p}.jump`, n.jump, js.jump);
    d.equal(`${p}.crouch`, n.crouch, js.crouch);
  });
}

// Every difference between the C loader's scene and the JavaScript loader's, as "path: C x, JS y" lines.
export function compareScenes(native, scene) {
  const d = new Diff();
  d.equal('name', native.name, scene.name);
  d.float('dt', native.dt, scene.dt);
  d.float('duration', native.duration, scene.duration);
  d.vec('gravity', native.gravity, scene.gravity);
  d.vec('up', native.up, scene.up);
  d.equal('characters_collide', native.characters_collide, scene.characters_collide);
  d.equal('slow', native.slow, scene.slow);
  d.equal('layers.length', native.layers.length, scene.layers.length);
  native.layers.forEach((l, i) => {
    d.equal(`layers[${i}].name`, l.name, scene.layers[i]?.name);
    d.float(`layers[${i}].walkable_degrees`, l.walkable_degrees, scene.layers[i]?.walkable_degrees);
  });
  d.equal('bodies.length', native.bodies.length, scene.bodies.length);
  native.bodies.forEach((b, i) => scene.bodies[i] && compareBody(d, `bodies[${i}]`, b, scene.bodies[i]));
  d.equal('crowds', native.crowds, scene.crowds.length);
  d.equal('characters.length', native.characters.length, scene.characters.length);
  native.characters.forEach((c, i) => scene.characters[i] && compareCharacter(d, `characters[${i}]`, c, scene.characters[i]));
  return d.list;
}
