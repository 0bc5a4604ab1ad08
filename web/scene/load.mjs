// SPDX-License-Identifier: MIT
// Scene files (docs/SCENES.md) in JavaScript: the top level of tools/scene/scene_load.c, with bodies.mjs and
// characters.mjs for the parts. loadScene() gives a plain description (the C loader's `scene` struct in spirit) whose
// body definitions World.addBody takes and whose character settings Character.init takes; buildWorld() makes the
// world. Expectations are kept as written, not evaluated. What the C loader reads and this one does not (mesh files,
// keyframed paths, crowds, duplicate fields) is refused with a message saying so, never silently dropped.
import { parseBodies, parseLayers } from './bodies.mjs';
import { parseCharacters } from './characters.mjs';
import { OPEN_LO, Reader, SceneError } from './json.mjs';
import * as V from './f32.mjs';

export { SceneError };

const MAX_FRAMES = 10000000;
const MAX_FILE_BYTES = 8 << 20;
const MAX_BODY_TRACE_FRAMES = 10000000;
const MAX_CHECKS = 256;
const f = Math.fround;

// round(duration / dt) in float, at least 1: the C runner's frame count.
export function frameCount(duration, dt) {
  const frames = Math.floor(f(f(duration / dt) + 0.5));
  return frames < 1 ? 1 : frames;
}

// Parse scene text. `path` names the file in messages and gives the default name.
export function loadScene(tread, text, path = '<scene>') {
  const r = new Reader(path);
  if (new TextEncoder().encode(text).length > MAX_FILE_BYTES) r.fail('', `is more than ${MAX_FILE_BYTES} bytes`);
  let root;
  try {
    root = JSON.parse(text);
  } catch (e) {
    r.fail('', `JSON syntax error: ${e.message}`);
  }
  const base = path.split('/').pop();
  const scene = {
    path,
    name: base.endsWith('.json') ? base.slice(0, -5) : base,
    description: '',
    dt: f(1 / 60),
    gravity: V.v3(0, -9.81, 0),
    up: V.v3(0, 1, 0),
    characters_collide: true,
    slow: false,
    expectations: [],
    plot: { view: 'both' },
    pending_penetration: '',
  };
  r.object(root, '');
  r.fields(root, '', ['name', 'description', 'dt', 'duration', 'gravity', 'up', 'layers', 'bodies', 'characters', 'crowds',
    'characters_collide', 'slow', 'expectations', 'plot', 'pending_penetration']);
  scene.characters_collide = r.optBool(root, '', 'characters_collide') ?? true;
  scene.slow = r.optBool(root, '', 'slow') ?? false;
  scene.name = r.optString(root, '', 'name', 63) ?? scene.name;
  scene.description = r.optString(root, '', 'description', 255) ?? '';
  scene.dt = r.optFloat(root, '', 'dt', 0, 1, OPEN_LO) ?? scene.dt;
  scene.duration = r.needFloat(root, '', 'duration', 0, 3600, OPEN_LO);
  scene.gravity = r.optVec3(root, '', 'gravity') ?? scene.gravity;
  scene.up = r.optVec3(root, '', 'up') ?? scene.up;
  scene.pending_penetration = r.optString(root, '', 'pending_penetration', 127) ?? '';
  if ('pending_penetration' in root && scene.pending_penetration === '')
    r.fail('pending_penetration', 'is empty; say what the scene waits for (or leave the field out)');
  const frames = frameCount(scene.duration, scene.dt);
  if (frames > MAX_FRAMES) r.fail('dt', `duration / dt = ${frames} frames; at most ${MAX_FRAMES}`);
  if (!(V.length(scene.up) > f(1e-6))) r.fail('up', 'is the zero vector');
  scene.up = V.normalize(scene.up);
  parseLayers(r, root, scene);
  parseBodies(r, tread, root, scene);
  const moving = scene.bodies.filter((b) => b.def.type !== 'static').length;
  if (frames * moving > MAX_BODY_TRACE_FRAMES) r.fail('bodies', `${moving} moving bodies x ${frames} frames; at most ${MAX_BODY_TRACE_FRAMES}`);
  parseCharacters(r, tread, root, scene, frames);
  if (scene.characters_collide && scene.characters.length > 1 && scene.layers.length >= 32)
    r.fail('characters_collide', 'needs a layer free of bodies for the characters, and the scene names all 32; name fewer, or set it false');
  if ('expectations' in root) {
    scene.expectations = r.array(root.expectations, 'expectations');
    if (scene.expectations.length > MAX_CHECKS) r.fail('expectations', `has ${scene.expectations.length} checks; at most ${MAX_CHECKS}`);
  }
  if ('plot' in root) scene.plot = r.object(root.plot, 'plot');
  scene.frames = frames;
  return scene;
}

// The scene's world: every body added in file order (index i is body i). Returns { world, bodies }.
export function buildWorld(tread, scene) {
  const world = tread.createWorld();
  const bodies = [];
  try {
    scene.bodies.forEach((b, i) => {
      try {
        bodies.push(world.addBody(b.def));
      } catch (e) {
        throw new SceneError(`${scene.path}: bodies[${i}]: ${tread.errorMessage()}`);
      }
    });
  } catch (e) {
    world.destroy();
    throw e;
  }
  return { world, bodies };
}
