// SPDX-License-Identifier: MIT
// The course scenes S1-S10 on any engine of the peers benchmark: the scene file's boxes built in the engine, the
// course character walked by the course's frame loop (the input's horizontal velocity; vertically 0 on walkable
// ground, else the last velocity plus gravity) and scored by the scene's own expectations with the same evaluator
// for every engine (web/scene/checks.mjs). Penetration is judged neutrally, in tread's exact world of the same scene:
// the course capsule placed at each frame's feet, its deepest overlap (tread_world_closest).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateScene } from '../scene/checks.mjs';
import * as V from '../scene/f32.mjs';
import { buildWorld, loadScene } from '../scene/load.mjs';
import { desiredHorizontal, inputAt, penetrationOf } from '../scene/run.mjs';

const f = Math.fround;

export function courseScenes(root) {
  const dir = join(root, 'scenes', 'course');
  return readdirSync(dir).filter((n) => n.endsWith('.json')).sort().map((n) => join(dir, n));
}

// Run one scene on one engine; returns { scene, passed, key: { name, text, passed }, failed: ["name (value)"],
// failedNames }.
export function runCourseScene(engine, tread, path, character) {
  const scene = loadScene(tread, readFileSync(path, 'utf8'), path.replace(/^.*\/scenes\//, 'scenes/'));
  if (scene.characters.length !== 1) throw new Error(`${path}: the course scenes have one character`);
  for (const b of scene.bodies)
    if (b.def.shape.type !== 'box' || b.def.type !== 'static') throw new Error(`${path}: the course's geometry is static boxes`);
  const c = scene.characters[0];
  const world = engine.createWorld();
  const judge = buildWorld(tread, scene);
  const probe = tread.createCharacter({ radius: character.radius, height: character.height }, c.start);
  try {
    for (const b of scene.bodies) world.addBox(b.def.shape.half_extents, b.def.transform.p, b.def.transform.q);
    world.finish();
    world.addCharacters(1, character, false);
    world.place(0, c.start);
    world.afterPlace();
    const up = V.v3(0, 1, 0);
    const v = new Float32Array(3);
    const frames = [];
    const initial = penetrationOf(judge.world, probe);
    for (let i = 0; i < scene.frames; ++i) {
      const t = f(f(i) * scene.dt);
      const h = desiredHorizontal(inputAt(c, t), world.feet(0), up, scene.dt);
      const vy = world.ground(0) === 'on_ground' ? 0 : f(f(world.velocity(0).y) + f(scene.gravity.y * scene.dt));
      v[0] = h.x, v[1] = vy, v[2] = h.z;
      world.update(v, scene.dt);
      const feet = world.feet(0);
      probe.setPosition(feet);
      frames.push({ feet, ground: world.ground(0), penetration: penetrationOf(judge.world, probe), finite: [feet.x, feet.y, feet.z].every(Number.isFinite) });
    }
    const verdict = evaluateScene(scene, { dt: scene.dt, ups: [up], start: [c.start], frames: [frames], initialPenetration: [initial] });
    const failing = verdict.results.filter((r) => !r.passed);
    return { scene, passed: verdict.passed, key: verdict.key, failed: failing.map((r) => `${r.name} (${r.text})`), failedNames: failing.map((r) => (r.type === 'invariant' ? `${r.name.split(': ')[1]}, ${r.text}` : r.name)) };
  } finally {
    probe.free();
    judge.world.destroy();
    world.destroy();
  }
}
