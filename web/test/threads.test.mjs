// SPDX-License-Identifier: MIT
// The two WebAssembly builds (web/wasm/build.sh): loadTread picks the threaded one in node, the threaded one runs a
// batch on its workers, and both move a crowd to the same bits, frame by frame, whatever the thread count. (That both
// are the native bits is scenes.test.mjs's: every tested scene in both builds against `tread run`.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIST, ROOT, requireBuilt } from './native.mjs';

requireBuilt();
const { loadTread, loadScene, SceneRun, threadsAvailable } = await import(DIST);
const cores = availableParallelism();

test('loadTread picks the threaded build in node, a thread per core up to 8; threads: 1 the build without threads', async () => {
  assert.equal(threadsAvailable(), true, 'node >= 20.16 shares memory with workers');
  const auto = await loadTread();
  assert.equal(auto.threads, cores > 1 ? Math.min(cores, 8) : 1);
  assert.equal(auto.module.PThread?.unusedWorkers.length, cores > 1 ? auto.threads - 1 : undefined, 'its pool of workers');
  const single = await loadTread({ threads: 1 });
  assert.equal(single.threads, 1);
  assert.equal(single.module.PThread, undefined, 'the build without threads has no pool');
  const three = await loadTread({ threads: 3 });
  assert.equal(three.threads, 3);
  assert.equal(three.module.PThread.unusedWorkers.length, 2);
  for (const bad of [0, 65, 1.5, 'two', false])
    await assert.rejects(loadTread({ threads: bad }), RangeError, `threads: ${bad}`);
});

// Every character's feet and velocity as float bits.
function bitsOf(characters) {
  const f = new Float32Array(6 * characters.length);
  characters.forEach((c, i) => {
    const p = c.position, v = c.velocity;
    f.set([p.x, p.y, p.z, v.x, v.y, v.z], 6 * i);
  });
  return new Uint32Array(f.buffer);
}

const ROOM = 'scenes/world/crowd-room-500.json';
const ROOM_FRAMES = 90;

test(`the 500-character room: the threaded build's batch on its workers is the single-threaded build's, frame by frame (${ROOM_FRAMES} frames)`, async () => {
  const text = readFileSync(join(ROOT, ROOM), 'utf8');
  const builds = [await loadTread({ threads: 1 }), await loadTread({ threads: 2 })];
  const runs = builds.map((t) => new SceneRun(t, loadScene(t, text, ROOM)));
  try {
    // The runner's batch asks for a thread per core (tread_batch_def_default): on two cores or more one of the
    // threaded module's workers runs it.
    if (cores > 1) assert.equal(builds[1].module.PThread.runningWorkers.length, 1, 'a worker runs the batch\'s pool');
    for (let frame = 1; frame <= ROOM_FRAMES; ++frame) {
      runs.forEach((r) => r.step());
      const [a, b] = runs.map((r) => bitsOf(r.characters));
      const differ = a.findIndex((x, i) => x !== b[i]);
      assert.equal(differ, -1, `frame ${frame}: character ${Math.floor(differ / 6)} differs`);
    }
    assert.equal(runs[0].characters.length, 500);
  } finally {
    for (const r of runs) {
      r.end();
      r.scene.free();
    }
  }
});

test('a Batch on 1, 2 and 4 threads of the threaded build moves a crowd as the single-threaded build does', async () => {
  const single = await loadTread({ threads: 1 });
  const threaded = await loadTread({ threads: 6 }); // 5 workers: the batches of 2 and 4 threads below hold 1 and 3 at once
  const runs = [[single, 1], [threaded, 1], [threaded, 2], [threaded, 4]].map(([t, threads]) => {
    const world = t.createWorld();
    world.addBody({ shape: { type: 'box', half_extents: [20, 0.5, 20] }, transform: { p: [0, -0.5, 0] } });
    world.addBody({ shape: { type: 'box', half_extents: [0.5, 1, 6] }, transform: { p: [0, 1, 0] } });
    const crowd = t.createCharacters(200);
    for (let i = 0; i < crowd.length; ++i) crowd.at(i).init({}, [-8 + (i % 20) * 0.8, 0, -8 + Math.floor(i / 20) * 0.8]);
    return { world, crowd, batch: t.createBatch({ threads }) };
  });
  try {
    for (let frame = 0; frame < 60; ++frame) {
      for (const { world, crowd, batch } of runs) {
        // Everyone toward the wall at x = 0 and the middle, with a per-character sideways drift.
        for (let i = 0; i < crowd.length; ++i) crowd.setVelocity(i, 3, 0, ((i * 7) % 11) / 5 - 1);
        batch.move(world, crowd, 1 / 60);
      }
      const expected = bitsOf(runs[0].crowd.views);
      runs.slice(1).forEach((r, k) => {
        const got = bitsOf(r.crowd.views);
        const differ = got.findIndex((x, i) => x !== expected[i]);
        assert.equal(differ, -1, `frame ${frame}, run ${k + 1}: character ${Math.floor(differ / 6)} differs`);
      });
    }
  } finally {
    for (const { world, crowd, batch } of runs) {
      batch.destroy();
      crowd.free();
      world.destroy();
    }
  }
});
