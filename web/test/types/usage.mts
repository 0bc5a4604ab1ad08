// SPDX-License-Identifier: MIT
// Compiled (never run) by web/test/api.test.mjs with tsc --strict: the wrapper's declarations describe a real
// program, in both of TypeScript's module resolutions (this file as it is: node16; a copy importing the path
// without its extension: the classic one).
import { loadTread, loadScene, runScene, threadsAvailable, TreadError, type CharacterSettingsInit, type Vec3 } from '../../dist/tread.mjs';

const tread = await loadTread({ threads: threadsAvailable() ? 'auto' : 1 });
const threads: number = tread.threads;
const batch = tread.createBatch({ threads, capacity: 8 });
batch.destroy();
const world = tread.createWorld({ body_capacity: 16 });
const floor = world.addBody({ shape: { type: 'box', half_extents: [50, 0.5, 50] }, transform: { p: [0, -0.5, 0] } });
world.addBody({ type: 'kinematic', shape: { type: 'capsule', radius: 0.5, half_height: 1 }, linear_velocity: { x: 1, y: 0, z: 0 } });
world.addBody({ shape: { type: 'heightfield', count_x: 2, count_z: 2, heights: [0, 0, 0, 0] } });
const settings: CharacterSettingsInit = { max_step_height: 0.3, step_strategy: 'contact', riser: { depth: 0.2 } };
const ch = tread.createCharacter(settings, [0, 0, 0]);
const motor = tread.createMotor({ jump_height: 1 });
const v: Vec3 = motor.update({ direction: [1, 0, 0], speed: 4, jump: true }, ch, ch.result, 1 / 60);
const result = ch.move(world, v, 1 / 60).read();
const grounded: boolean = result.ground.state === 'on_ground' && ch.groundState !== 'in_air';
const crowd = tread.createCharacters(2);
crowd.at(0).init({}, [0, 0, 0]);
crowd.setVelocity(0, 1, 0, 0);
tread.createBatch({ capacity: 2 }).move(world, crowd, 1 / 60);
const hit = world.castRay([0, 5, 0], [0, -10, 0], { layer_mask: 1 });
const t = floor.getTransform();
try {
  floor.setVelocity([1, 0, 0], [0, 0, 0]);
} catch (e) {
  if (e instanceof TreadError && e.code === 'TREAD_ERR_INVALID_ARGUMENT') console.log(e.call);
}
const scene = loadScene(tread, '{}', 'x.json');
const run = runScene(tread, scene, { record: true });
console.log(grounded, hit.fraction, t.q.w, run.traceHash, run.trace?.[0]?.[0]?.ground);
