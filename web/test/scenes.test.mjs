// SPDX-License-Identifier: MIT
// The WebAssembly build runs the C scene library (tools/scene) bit for bit as the native build: each scene loaded,
// run and checked by runScene in the module, against the native runs of the same files (`tread suite --json`, each
// run as `tread run --json` gives it): the frame count, the trace and body hashes (every character's feet and
// velocity, every moving body's transform, as float bits: FNV-1a 64), the final states, and every check's verdict
// and value. The course S1-S10 and two crowds always; with WEB_TEST_ALL=1 every shipped scene. Each in both builds:
// the one without threads and the threaded one (whose batches run on its workers), so both are the native bits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIST, ROOT, nativeRuns, requireBuilt, testedScenes } from './native.mjs';

requireBuilt();
const { loadTread, loadScene, runScene, SceneRun } = await import(DIST);
const single = await loadTread({ threads: 1 });
const threaded = await loadTread({ threads: 2 });
const tread = single;
const natives = nativeRuns();
const results = [];

for (const path of testedScenes()) for (const tread of [single, threaded]) {
  const build = tread.threads > 1 ? `threads ${tread.threads}` : 'single';
  test(`${path}: the WebAssembly run (${build}) is the native one`, () => {
    const scene = loadScene(tread, readFileSync(join(ROOT, path), 'utf8'), path);
    try {
      const native = natives.get(path);
      assert.ok(native, `${path}: no native run`);
      const run = runScene(tread, scene);
      assert.equal(run.frames, native.frames, 'frame count');
      assert.equal(run.traceHash, native.trace_hash, 'the characters\' trace');
      assert.equal(run.bodyHash, native.body_hash, 'the moving bodies');
      assert.equal(run.passed, native.passed);
      // Floats the native side printed with 15 digits where they read back close enough: Math.fround names them.
      assert.deepEqual(run.final.map((c) => [c.position.x, c.position.y, c.position.z, c.ground]),
        native.characters.map((c) => [...c.position.map(Math.fround), c.ground]));
      assert.equal(run.checks.length, native.checks.length);
      native.checks.forEach((c, i) => {
        const r = run.checks[i];
        assert.equal(r.name, c.name);
        assert.equal(r.passed, c.passed, `${c.name}: ${r.detail}`);
        assert.equal(r.detail, c.detail);
        // The native side prints an unreached time as -1 (JSON has no infinity), and numbers with 15 digits where
        // cJSON finds them close enough (within DBL_EPSILON relative), so values compare to that.
        const value = Number.isFinite(r.value) ? r.value : -1;
        assert.ok(Math.abs(value - c.value) <= 4e-16 * Math.max(1, Math.abs(value)), `${c.name}: WebAssembly ${value}, native ${c.value}`);
      });
      results.push(`${scene.name} ${run.frames} frames ${run.traceHash} (${build})`);
    } finally {
      scene.free();
    }
  });
}

// The viewer's live run (SceneRun, the runner frame by frame) is runScene's run; driving a character moves it.
test('a SceneRun stepped to the end is runScene\'s run, and drive() moves a character', () => {
  const path = 'scenes/course/S07-ramp-crest.json';
  const scene = loadScene(tread, readFileSync(join(ROOT, path), 'utf8'), path);
  const live = new SceneRun(tread, scene);
  try {
    const run = runScene(tread, scene, { record: true });
    for (let i = 0; i < scene.frames; ++i) live.step();
    assert.equal(live.frame, run.frames);
    assert.equal(live.failure, null);
    assert.deepEqual(live.characters[0].position, run.final[0].position);
    assert.deepEqual(live.record(0), run.trace[0][run.frames - 1]);
    const before = live.characters[0].position;
    live.advance();
    live.drive(0, [0, 0, -1]);
    live.move();
    assert.ok(live.characters[0].position.z < before.z - 0.5 * scene.dt, 'driven along -z');
    assert.equal(live.bodies.length, scene.bodies.length);
    assert.deepEqual(live.bodies[0].getTransform(), scene.bodies[0].def.transform);
    // The run's world (a view of the C run's) answers queries as a world of one's own does: the floor under the
    // character, a ray from 1 m above its feet (the viewer's camera casts through it).
    const feet = live.characters[0].position;
    const ray = live.world.castRay([feet.x, feet.y + 1, feet.z], [0, -3, 0]);
    assert.ok(ray.hit && ray.character === -1, 'the ray meets a body');
    const shape = live.world.castShape({ type: 'sphere', radius: 0.2 }, [feet.x, feet.y + 1, feet.z], [0, -3, 0]);
    assert.ok(shape.hit && shape.fraction < ray.fraction, 'the sphere meets it sooner');
  } finally {
    live.end();
    scene.free();
  }
});

test('summary', () => console.log(results.map((r) => `# ${r}`).join('\n')));
