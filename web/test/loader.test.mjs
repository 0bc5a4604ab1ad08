// SPDX-License-Identifier: MIT
// The JavaScript scene loader against the C loader on every shipped scene: the same bodies (count, types, shapes,
// transforms, velocities, layers, flags), the same layers and the same characters (settings field by field, motor,
// inputs), float for float. Scenes using what the JavaScript loader does not read would be listed in UNSUPPORTED with
// the reason; a scene there that loads, or one not there that does not, fails the test.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIST, ROOT, UNSUPPORTED, compareScenes, nativeDump, requireBuilt, shippedScenes } from './native.mjs';

requireBuilt();
const { loadTread, loadScene } = await import(DIST);
const tread = await loadTread();


const paths = shippedScenes();
const natives = new Map(nativeDump(paths, { run: false }).map((n) => [n.path, n]));

test('every shipped scene loads in JavaScript as in C, or is refused for a named reason', () => {
  const refused = [];
  for (const path of paths) {
    const native = natives.get(path);
    assert.ok(native?.ok, `${path}: the C loader failed: ${native?.error}`);
    let scene;
    try {
      scene = loadScene(tread, readFileSync(join(ROOT, path), 'utf8'), path);
    } catch (e) {
      const reason = Object.keys(UNSUPPORTED).find((k) => UNSUPPORTED[k].test(e.message));
      assert.ok(reason, `${path}: the JavaScript loader failed: ${e.message}`);
      refused.push(`${path} (${reason})`);
      continue;
    }
    assert.deepEqual(compareScenes(native, scene), [], `${path}: the loaders disagree`);
  }
  console.log(`# ${paths.length - refused.length} of ${paths.length} scenes the same in both loaders; refused: ${refused.join(', ') || 'none'}`);
});

test('the course scenes all load in JavaScript', () => {
  for (const path of paths.filter((p) => p.startsWith('scenes/course/')))
    assert.doesNotThrow(() => loadScene(tread, readFileSync(join(ROOT, path), 'utf8'), path));
});

// Broken scenes: the JavaScript loader's message must be the C loader's, word for word.
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
};

test('errors are the C loader\'s, naming the file and the JSON path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tread-web-'));
  try {
    const files = Object.entries(BROKEN).map(([name, text]) => {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, text);
      return file;
    });
    const natives = nativeDump(files, { run: false });
    files.forEach((file, i) => {
      assert.equal(natives[i].ok, false, `${file}: the C loader took it`);
      let message = 'loaded';
      try {
        loadScene(tread, readFileSync(file, 'utf8'), file);
      } catch (e) {
        message = e.message;
      }
      assert.equal(message, natives[i].error);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
