// SPDX-License-Identifier: MIT
// The expectations evaluated in JavaScript (web/scene/checks.mjs, which the peers benchmark scores every engine with)
// against the C evaluator: each course scene run in JavaScript through the WebAssembly build, its checks evaluated,
// and every verdict and value compared with `tread run --json` on the same scene. WEB_TEST_ALL=1: every shipped scene
// (about two minutes more), skipping the checks it does not evaluate (bodies, sensors, crowds, one-way penetration).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIST, ROOT, loadOrSkip, requireBuilt, testedScenes } from './native.mjs';

requireBuilt();
const { loadTread, loadScene, runScene } = await import(DIST);
const { evaluateScene } = await import(new URL('../dist/scene/checks.mjs', import.meta.url));
const tread = await loadTread();
const TREAD = join(ROOT, process.env.BUILD ?? 'build', 'tread');

function nativeRun(path) {
  try {
    return JSON.parse(execFileSync(TREAD, ['run', path, '--json'], { cwd: ROOT }).toString());
  } catch (e) {
    return JSON.parse(e.stdout.toString()); // a failing scene exits 1 and still prints its JSON
  }
}

for (const path of testedScenes()) {
  test(`${path}: the checks' verdicts and values are the C evaluator's`, (t) => {
    const scene = loadOrSkip(t, loadScene, tread, path);
    if (!scene) return;
    const native = nativeRun(path);
    const js = evaluateScene(scene, runScene(tread, scene, { record: true }).checkTrace);
    const oneWay = scene.bodies.some((b) => b.def.one_way);
    native.checks.forEach((c, i) => {
      const r = js.results[i];
      if (r.evaluated === false || (oneWay && r.name.endsWith(': penetration'))) return;
      assert.equal(r.name, c.name);
      assert.equal(r.passed, c.passed, `${c.name}: ${r.text}`);
      // The C side prints an unreached time as -1 (its JSON has no infinity), and numbers with 15 digits where
      // cJSON finds them close enough (within DBL_EPSILON relative), so values compare to that.
      const value = r.value === Infinity ? -1 : r.value;
      assert.ok(Math.abs(value - c.value) <= 4e-16 * Math.max(1, Math.abs(value)), `${c.name}: JS ${value}, C ${c.value} (${r.text})`);
    });
    assert.equal(js.results.length, native.checks.length);
  });
}
