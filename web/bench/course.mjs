// SPDX-License-Identifier: MIT
// The course scenes S1-S10 on any engine of the peers benchmark: the scene file's boxes built in the engine, the
// course character walked by the course's frame loop (the C runner's own: courseVelocity) and scored by the scene's
// own expectations with the same C evaluator for every engine (judgeFrames: tools/scene's checks in the WebAssembly
// module). Penetration is judged neutrally, in tread's exact world of the same scene: the course capsule placed at
// each frame's feet, its deepest overlap (tread_world_closest).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildWorld, courseVelocity, judgeFrames, loadScene } from '../dist/tread.mjs';

const UP = { x: 0, y: 1, z: 0 };

export function courseScenes(root) {
  const dir = join(root, 'scenes', 'course');
  return readdirSync(dir).filter((n) => n.endsWith('.json')).sort().map((n) => join(dir, n));
}

// Deepest overlap of the probe character with the judge's world (0 when apart).
function penetrationOf(world, probe) {
  const d = world.closest(probe.shape(), probe.center(), Math.fround(0.01));
  return d.found && d.distance < 0 ? -d.distance : 0;
}

// Run one scene on one engine; returns { scene, passed, key: { name, text, passed }, failed: ["name (value)"],
// failedNames }.
export function runCourseScene(engine, tread, path, character) {
  const scene = loadScene(tread, readFileSync(path, 'utf8'), path.replace(/^.*\/scenes\//, 'scenes/'));
  const world = engine.createWorld();
  const judge = buildWorld(tread, scene);
  const probe = tread.createCharacter({ radius: character.radius, height: character.height }, scene.characters[0]?.start);
  try {
    if (scene.characters.length !== 1) throw new Error(`${path}: the course scenes have one character`);
    for (const b of scene.bodies)
      if (b.def.shape.type !== 'box' || b.def.type !== 'static') throw new Error(`${path}: the course's geometry is static boxes`);
    const c = scene.characters[0];
    for (const b of scene.bodies) world.addBox(b.def.shape.half_extents, b.def.transform.p, b.def.transform.q);
    world.finish();
    world.addCharacters(1, character, false);
    world.place(0, c.start);
    world.afterPlace();
    const v = new Float32Array(3);
    const frames = [];
    const initial = penetrationOf(judge.world, probe);
    for (let i = 0; i < scene.frames; ++i) {
      const t = Math.fround(Math.fround(i) * scene.dt);
      const w = courseVelocity(tread, scene, 0, t, scene.dt, world.feet(0), world.velocity(0), UP, world.ground(0) === 'on_ground');
      v[0] = w.x, v[1] = w.y, v[2] = w.z;
      world.update(v, scene.dt);
      const feet = world.feet(0);
      probe.setPosition(feet);
      frames.push({ feet, velocity: world.velocity(0), ground: world.ground(0), penetration: penetrationOf(judge.world, probe),
        finite: [feet.x, feet.y, feet.z].every(Number.isFinite) });
    }
    const verdict = judgeFrames(tread, scene, [frames], [initial]);
    const failing = verdict.checks.filter((r) => !r.passed);
    const key = verdict.checks.find((r) => r.key);
    return { scene, passed: verdict.passed, key: key && { name: key.name, text: key.value_text, passed: key.passed },
      failed: failing.map((r) => `${r.name} (${r.value_text})`), failedNames: failing.map((r) => r.name) };
  } finally {
    probe.free();
    judge.world.destroy();
    world.destroy();
    scene.free();
  }
}
