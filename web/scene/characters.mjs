// SPDX-License-Identifier: MIT
// Characters of a scene file as tools/scene/characters.c and settings_table.c read them: settings by their C field
// names (flat, dotted for nested members: "riser.depth"), masks as integers or layer names, the optional movement
// model ("motor"), and the input timeline; then the crowds (crowds.mjs). The settings and motor tables are the module's own layout tables, so every
// field of tread_character_settings and tread_motor_settings is accepted, as in the C loader; the library validates
// the result (tread_character_init, tread_motor_update), and its message is reported under the settings' path.
import { ENUM_FIELDS } from '../lib/enums.mjs';
import { KIND } from '../lib/memory.mjs';
import * as V from './f32.mjs';
import { g, index, key } from './json.mjs';
import { layerRef } from './bodies.mjs';
import { parseCrowds } from './crowds.mjs';

const MAX_CHARACTERS = 64;
const NAME_MAX = 63;
const MAX_TRACE_FRAMES = 10000000;
const f = Math.fround;

// One field of a settings object from JSON, by its layout row.
function readField(r, scene, type, row, v, jp) {
  const names = ENUM_FIELDS[type]?.[row.name];
  if (names) {
    // The C loader's name lists (tools/scene/names.c) are the library's names; only the order differs, and the
    // value is the name's.
    if (typeof v !== 'string') r.fail(jp, `expected a string, got ${typeof v}`);
    if (!names.includes(v)) r.fail(jp, `unknown value "${v}": expected one of ${names.map((n) => `"${n}"`).join(', ')}`);
    return v;
  }
  switch (row.kind) {
    case KIND.F32: return r.float(v, jp);
    case KIND.VEC3: return r.vec3(v, jp);
    case KIND.BOOL: return r.bool(v, jp);
    case KIND.I32: return r.integer(v, jp, -2147483647, 2147483647);
    case KIND.U32:
      // A layer mask: an integer, or the names of the layers it selects.
      if (Array.isArray(v)) return v.reduce((mask, name, i) => (mask | (1 << layerRef(r, name, index(jp, i), scene))) >>> 0, 0);
      if (typeof v !== 'number') r.fail(jp, `expected a layer mask (an integer or an array of layer names), got ${typeof v}`);
      return r.integer(v, jp, 0, 4294967295);
    default: throw new Error(`settings field ${row.name}: kind ${row.kind}`);
  }
}

// Apply a JSON settings object onto `out` (a plain object of the struct's fields, dotted names nested).
function readObject(r, scene, tread, type, j, jp, out) {
  r.object(j, jp);
  const rows = tread.memory.table(type).fields.filter((row) => row.kind !== KIND.PTR);
  r.fields(j, jp, rows.map((row) => row.name));
  for (const [name, v] of Object.entries(j)) {
    const row = rows.find((x) => x.name === name);
    const value = readField(r, scene, type, row, v, key(jp, name));
    let o = out;
    for (let k = 0; k < row.path.length - 1; ++k) o = o[row.path[k]];
    o[row.path[row.path.length - 1]] = value;
  }
}

// A unit vector along v's part perpendicular to up (or any, when v has none).
function horizontalUnit(v, up) {
  let h = V.reject(v, up);
  if (!(V.length(h) > f(1e-6))) h = V.reject(V.v3(1, 0, 0), up);
  if (!(V.length(h) > f(1e-6))) h = V.reject(V.v3(0, 0, 1), up);
  return V.normalize(h);
}

function parseInput(r, j, jp, c, i, probe) {
  r.object(j, jp);
  r.fields(j, jp, ['t', 'direction', 'toward', 'speed', 'idle', 'jump', 'crouch']);
  const has = (k) => k in j;
  const input = { t: r.needFloat(j, jp, 't', 0, Infinity), kind: 'idle', direction: V.zero(), target: V.zero(), speed: 0, jump: -1, crouch: -1 };
  if (has('direction') + has('toward') + has('idle') > 1) r.fail(jp, 'give at most one of "direction", "toward" and "idle"');
  if (!has('direction') && !has('toward') && !has('idle') && !has('jump') && !has('crouch'))
    r.fail(jp, 'needs "direction", "toward", "idle", "jump" or "crouch"');
  if (has('jump')) input.jump = r.bool(j.jump, key(jp, 'jump')) ? 1 : 0;
  if (has('crouch')) input.crouch = r.bool(j.crouch, key(jp, 'crouch')) ? 1 : 0;
  if (has('speed') && !has('direction') && !has('toward')) r.fail(jp, '"speed" needs "direction" or "toward"');
  const up = V.normalize(c.settings.up);
  if (has('direction') || has('toward')) {
    input.speed = r.needFloat(j, jp, 'speed', 0, Infinity);
    if (has('direction')) {
      input.kind = 'direction';
      input.direction = r.vec3(j.direction, key(jp, 'direction'));
      if (!(V.length(V.reject(input.direction, up)) > f(1e-6))) r.fail(key(jp, 'direction'), "has no horizontal part (it is parallel to the character's up)");
    } else {
      input.kind = 'toward';
      input.target = r.vec3(j.toward, key(jp, 'toward'));
    }
    const along = horizontalUnit(input.kind === 'direction' ? input.direction : V.sub(input.target, c.start), up);
    checkSpeed(r, probe, c.settings, along, input.speed, key(jp, 'speed'));
  } else if (has('idle')) {
    if (!r.bool(j.idle, key(jp, 'idle'))) r.fail(key(jp, 'idle'), 'only true is meaningful (leave the field out instead)');
  } else if (i > 0) {
    // jump / crouch alone: the movement goes on unchanged.
    const prev = c.inputs[i - 1];
    Object.assign(input, { kind: prev.kind, direction: prev.direction, target: prev.target, speed: prev.speed });
  }
  if (i > 0 && input.t < c.inputs[i - 1].t)
    r.fail(key(jp, 't'), `${input.t} s comes before the previous entry's ${c.inputs[i - 1].t} s (entries must be sorted by t)`);
  return input;
}

// The library's verdict on settings, as the C loader reports it (under the settings' path, or the start's when the
// library names the position).
function validate(r, tread, settings, start, jp, settingsPath, startKey = 'start') {
  const ch = tread.createCharacter();
  try {
    ch.init(settings, start);
  } catch (e) {
    const message = tread.errorMessage();
    r.fail(message.includes(' position = ') ? key(jp, startKey) : settingsPath, message);
  } finally {
    ch.free();
  }
}

// The speed becomes a velocity the library judges: one move of a probe at that speed in an empty world, as the C
// loader does (a speed the library refuses would otherwise freeze the character and pass).
function checkSpeed(r, probe, settings, along, speed, jp) {
  try {
    probe.character.init(settings, [0, 0, 0]).move(probe.world, V.scale(along, speed), probe.dt);
  } catch (e) {
    r.fail(jp, `${g(speed)} m/s is refused by tread_character_move: ${probe.tread.errorMessage()}`);
  }
}

// Settings of a listed or crowd character: the defaults, up from the scene, then the fields given.
export function readSettings(r, tread, scene, obj, jp) {
  const settings = tread.characterSettingsDefault();
  settings.up = { ...scene.up };
  if ('settings' in obj) readObject(r, scene, tread, 'tread_character_settings', obj.settings, key(jp, 'settings'), settings);
  return settings;
}

function parseCharacter(r, tread, scene, j, jp, i, probe) {
  r.object(j, jp);
  r.fields(j, jp, ['name', 'start', 'settings', 'motor', 'input']);
  const c = { name: `character${i}`, crowd: -1, has_motor: false, motor: null, inputs: [] };
  if ('name' in j) c.name = r.string(j.name, key(jp, 'name'), NAME_MAX);
  c.start = r.needVec3(j, jp, 'start');
  if (c.name === '') r.fail(key(jp, 'name'), 'is empty');
  const other = scene.characters.findIndex((x) => x.name === c.name);
  if (other >= 0) r.fail(key(jp, 'name'), `"${c.name}" is already characters[${other}]'s name`);
  const settingsPath = 'settings' in j ? key(jp, 'settings') : jp;
  c.settings = readSettings(r, tread, scene, j, jp);
  validate(r, tread, c.settings, c.start, jp, settingsPath);
  if ('motor' in j) {
    c.has_motor = true;
    c.motor = tread.motorSettingsDefault();
    // Gravity defaults to the scene's, along the character's -up.
    const g = -V.dot(scene.gravity, V.normalize(c.settings.up));
    c.motor.gravity = g > 0 ? g : 0;
    const pm = key(jp, 'motor');
    readObject(r, scene, tread, 'tread_motor_settings', j.motor, pm, c.motor);
    const motor = tread.createMotor(c.motor);
    try {
      motor.update({}, probe.character.init(c.settings, c.start), null, f(1 / 60));
    } catch (e) {
      r.fail(pm, tread.errorMessage());
    } finally {
      motor.free();
    }
  }
  const pi = key(jp, 'input');
  const inputs = r.array(r.need(j, jp, 'input'), pi);
  inputs.forEach((e, k) => c.inputs.push(parseInput(r, e, index(pi, k), c, k, probe)));
  return c;
}

// The listed characters, then every crowd's (crowds.mjs).
export function parseCharacters(r, tread, root, scene, frames) {
  scene.characters = [];
  const crowds = 'crowds' in root;
  const list = crowds && !('characters' in root) ? [] : r.array(r.need(root, '', 'characters'), 'characters');
  if (list.length < 1 && !crowds) r.fail('characters', 'is empty; a scene needs at least one character');
  if (list.length > MAX_CHARACTERS) r.fail('characters', `has ${list.length} characters; at most ${MAX_CHARACTERS}`);
  if (frames * list.length > MAX_TRACE_FRAMES)
    r.fail('characters', `${list.length} characters x ${frames} frames = ${frames * list.length} frames to record; at most ${MAX_TRACE_FRAMES}`);
  // Speeds are judged by a move in an empty world, as the C loader's probe does.
  const probe = { tread, world: tread.createWorld(), character: tread.createCharacter(), dt: scene.dt };
  try {
    list.forEach((e, i) => scene.characters.push(parseCharacter(r, tread, scene, e, index('characters', i), i, probe)));
    parseCrowds(r, scene, root, {
      readSettings: (j, jp) => readSettings(r, tread, scene, j, jp),
      validate: (settings, start, jp, settingsPath, startKey) => validate(r, tread, settings, start, jp, settingsPath, startKey),
      checkSpeed: (settings, along, speed, jp) => checkSpeed(r, probe, settings, along, speed, jp),
    });
  } finally {
    probe.character.free();
    probe.world.destroy();
  }
  if (crowds && frames * scene.characters.length > MAX_TRACE_FRAMES)
    r.fail('crowds', `${scene.characters.length} characters x ${frames} frames = ${frames * scene.characters.length} frames to record; at most ${MAX_TRACE_FRAMES}`);
}
