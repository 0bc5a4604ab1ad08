// SPDX-License-Identifier: MIT
// The scene loader in the WebAssembly build (the C loader, tools/scene, reading JSON the JavaScript engine parsed):
// every shipped scene loads, and what it holds reaches JavaScript; broken files give the native loader's messages
// word for word.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIST, ROOT, nativeError, requireBuilt, shippedScenes } from './native.mjs';

requireBuilt();
const { loadTread, loadScene, SceneError } = await import(DIST);
const tread = await loadTread();

test('every shipped scene loads in WebAssembly', () => {
  const paths = shippedScenes();
  for (const path of paths) {
    const scene = loadScene(tread, readFileSync(join(ROOT, path), 'utf8'), path);
    assert.ok(scene.characters.length > 0 || scene.bodies.length > 0, `${path}: nothing read`);
    scene.free();
  }
  console.log(`# ${paths.length} scenes loaded`);
});

test('what a scene holds reaches JavaScript: bodies, layers, characters, inputs', () => {
  const path = 'scenes/course/S01-stairs-up.json';
  const file = JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
  const scene = loadScene(tread, JSON.stringify(file), path);
  try {
    assert.equal(scene.name, file.name);
    assert.equal(scene.frames, Math.round(file.duration / Math.fround(scene.dt)));
    assert.equal(scene.bodies.length, file.bodies.length);
    assert.deepEqual(scene.bodies[0].def.shape, { type: 'box', half_extents: { x: 50, y: 0.5, z: 50 } });
    assert.deepEqual(scene.layers.map((l) => l.name), ['default']);
    const c = scene.characters[0];
    assert.equal(c.inputs[0].kind, 'direction');
    assert.equal(c.settings.step_strategy, 'sweep');
    assert.equal(c.crowd, -1);
  } finally {
    scene.free();
  }
});

test('shape arrays and flags reach JavaScript', () => {
  const text = JSON.stringify({
    duration: 1, bodies: [
      { type: 'mesh', vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]], triangles: [[0, 2, 1]] },
      { type: 'heightfield', origin: [0, 0, 0], spacing: [1, 2], heights: [[0, 1], [2, 3]], holes: [[1]] },
      { type: 'voxels', origin: [0, 0, 0], cell_size: 0.5, rows: [['#.']] },
      { type: 'box', min: [0, 0, 0], max: [1, 1, 1], one_way: true },
    ], characters: [{ start: [0, 2, 0], input: [] }],
  });
  const scene = loadScene(tread, text, 'shapes.json');
  try {
    const [mesh, field, voxels, box] = scene.bodies.map((b) => b.def);
    assert.deepEqual([...mesh.shape.vertices], [0, 0, 0, 1, 0, 0, 0, 0, 1]);
    assert.deepEqual([...mesh.shape.indices], [0, 2, 1]);
    assert.deepEqual([...field.shape.heights], [0, 1, 2, 3]);
    assert.deepEqual([...field.shape.holes], [1]);
    assert.equal(field.shape.spacing_z, 2);
    assert.deepEqual([...voxels.shape.solid], [1, 0]);
    assert.equal(box.one_way, true);
    assert.equal(box.sensor, false);
  } finally {
    scene.free();
  }
});

test('mesh files are refused with a clear message (native only)', () => {
  assert.throws(() => loadScene(tread, '{"duration": 1, "bodies": [{"type": "mesh", "file": "rock.obj"}], "characters": []}', 'm.json'),
    (e) => e instanceof SceneError && /m\.json: bodies\[0\]\.file: mesh files are read by the native build only/.test(e.message));
});

// Broken scenes: the WebAssembly build's message must be the native one's, word for word.
const BROKEN = {
  'unknown-field': '{"duration": 1, "bodies": [{"type": "box", "hieght": 1}], "characters": []}',
  'no-duration': '{"bodies": [], "characters": []}',
  'dt-range': '{"duration": 1, "dt": 2, "bodies": [], "characters": []}',
  'radius-type': '{"duration": 1, "bodies": [], "characters": [{"start": [0, 0, 0], "settings": {"radius": "a"}, "input": []}]}',
  'height-refused': '{"duration": 1, "bodies": [], "characters": [{"start": [0, 0, 0], "settings": {"height": 0.1}, "input": []}]}',
  'vec-length': '{"duration": 1, "bodies": [{"type": "sphere", "center": [0, 0], "radius": 1}], "characters": []}',
  'box-corners': '{"duration": 1, "bodies": [{"type": "box", "min": [0, 0, 0], "max": [1, 0, 1]}], "characters": []}',
  'layer-unknown': '{"duration": 1, "bodies": [{"type": "sphere", "center": [0, 0, 0], "radius": 1, "layer": "x"}], "characters": []}',
  'input-order': '{"duration": 1, "bodies": [], "characters": [{"start": [0, 0, 0], "input": [{"t": 1, "idle": true}, {"t": 0.5, "idle": true}]}]}',
  'speed-refused': '{"duration": 1, "bodies": [], "characters": [{"start": [0, 0, 0], "input": [{"t": 0, "direction": [1, 0, 0], "speed": 5000}]}]}',
  'ramp-up': '{"duration": 1, "bodies": [{"type": "ramp", "foot": [0, 0, 0], "direction": [0, 1, 0], "degrees": 30, "rise": 1, "width": 1, "thickness": 1}], "characters": []}',
  'motor-field': '{"duration": 1, "bodies": [], "characters": [{"start": [0, 0, 0], "motor": {"max_sped": 1}, "input": []}]}',
  'hf-ragged': '{"duration": 1, "bodies": [{"type": "heightfield", "origin": [0, 0, 0], "spacing": [1, 1], "heights": [[0, 0], [0]]}], "characters": []}',
  'voxel-char': '{"duration": 1, "bodies": [{"type": "voxels", "origin": [0, 0, 0], "cell_size": 1, "rows": [["#x"]]}], "characters": []}',
  'nul-name': '{"duration": 1, "name": "a\\u0000b", "bodies": [], "characters": []}',
  'nul-key': '{"duration": 1, "bodies": [{"type": "box", "min": [0, 0, 0], "max": [1, 1, 1], "na\\u0000me": 1}], "characters": []}',
  'top-level': '[1, 2]',
};

test('errors are the native loader\'s, naming the file and the JSON path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tread-web-'));
  try {
    for (const [name, text] of Object.entries(BROKEN)) {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, text);
      const native = nativeError(file);
      assert.ok(native, `${name}: the native loader took it`);
      assert.throws(() => loadScene(tread, text, file), (e) => e instanceof SceneError && e.message === native, name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// JSON syntax is the JavaScript engine's to judge: the message names the file, and the line and column where the
// engine names a position (docs/SCENES.md, "Errors").
test('a JSON syntax error names the file', () => {
  for (const text of ['{"duration": 1,\n  "bodies": [,]}', '{"duration": 1', '{"duration": 1} x'])
    assert.throws(() => loadScene(tread, text, 'bad.json'), (e) => e instanceof SceneError && /^bad\.json(:\d+:\d+)?: JSON syntax error/.test(e.message), text);
});

// JSON.parse keeps the last of a field given twice, where the native loader refuses the file (docs/SCENES.md).
test('a field given twice is the last one given', () => {
  const scene = loadScene(tread, '{"duration": 1, "name": "first", "name": "last", "bodies": [], "characters": [{"start": [0, 0, 0], "input": []}]}', 'twice.json');
  assert.equal(scene.name, 'last');
  scene.free();
});
