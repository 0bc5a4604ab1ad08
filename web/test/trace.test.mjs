// SPDX-License-Identifier: MIT
// The WebAssembly build runs the scenes bit for bit as the native build: each scene is loaded by the JavaScript
// loader, run by the JavaScript runner through the WebAssembly module, and its per-frame trace hash (every
// character's feet and velocity as float bits, FNV-1a 64, web/scene/run.mjs) is compared with the one the C loader and
// runner give natively (web/native/scene_dump). The course S1-S10 always; with WEB_TEST_ALL=1 every shipped scene
// (about a minute and a half more).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DIST, loadOrSkip, nativeDump, requireBuilt, testedScenes } from './native.mjs';

requireBuilt();
const { loadTread, loadScene, runScene } = await import(DIST);
const tread = await loadTread();

const paths = testedScenes();
const natives = new Map(nativeDump(paths).map((n) => [n.path, n]));
const results = [];

for (const path of paths) {
  test(`${path}: per-frame trace hash equals the native one`, (t) => {
    const scene = loadOrSkip(t, loadScene, tread, path);
    if (!scene) return;
    const native = natives.get(path);
    const js = runScene(tread, scene);
    assert.equal(js.frames, native.frames, 'frame count');
    const first = js.frameHashes.findIndex((h, i) => h !== native.frame_hashes[i]);
    assert.equal(first, -1, `traces part at frame ${first + 1}: JS ${js.frameHashes[first]}, C ${native.frame_hashes[first]}`);
    assert.equal(js.traceHash, native.trace_hash);
    assert.equal(js.bodyHash, native.body_hash, 'moving bodies');
    results.push(`${scene.name} ${js.frames} frames ${js.traceHash}`);
  });
}

test('summary', () => console.log(results.map((r) => `# ${r}`).join('\n')));
