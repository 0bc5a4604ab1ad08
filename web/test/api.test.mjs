// SPDX-License-Identifier: MIT
// The JavaScript wrapper of the WebAssembly build: every part the web uses (the world; bodies of every type and
// shape, added, moved and removed; characters, settings, moves and ground; the motor; the batch update), errors as
// TreadError with the library's code and message, and the declarations (tread.d.ts) compiled against a usage file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIST, ROOT, requireBuilt } from './native.mjs';

requireBuilt();
const { loadTread, TreadError } = await import(DIST);
const tread = await loadTread();
const dt = 1 / 60;
const floorDef = { shape: { type: 'box', half_extents: [50, 0.5, 50] }, transform: { p: [0, -0.5, 0] } };

// The course's frame loop for one character: walk, gravity off the ground.
function walk(world, ch, vx, vz, frames) {
  for (let i = 0; i < frames; ++i) ch.moveXYZ(world, vx, ch.groundState === 'on_ground' ? 0 : ch.velocity.y - 9.81 * dt, vz, dt);
}

test('the version and the deterministic functions come from the library', () => {
  // One version everywhere: the headers (include/tread/base.h, the source of truth), the module and the npm package.
  const header = readFileSync(join(ROOT, 'include/tread/base.h'), 'utf8');
  const part = (name) => Number(header.match(new RegExp(`#define TREAD_VERSION_${name} +(\\d+)`))[1]);
  assert.deepEqual(tread.version, { major: part('MAJOR'), minor: part('MINOR'), patch: part('PATCH') });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'web/package.json'), 'utf8'));
  assert.equal(pkg.version, `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`);
  assert.equal(tread.sin(1), Math.fround(Math.sin(1)));
  assert.equal(tread.cos(0), 1);
  const q = tread.quatFromAxisAngle([0, 1, 0], Math.PI);
  assert.ok(Math.abs(q.y - 1) < 1e-6 && Math.abs(q.w) < 1e-6);
  assert.equal(tread.characterSettingsDefault().step_strategy, 'sweep');
  assert.equal(tread.motorSettingsDefault().jump_mode, 'height');
});

test('bodies of every shape are added, read back, moved and removed', () => {
  const world = tread.createWorld();
  const shapes = [
    { type: 'box', half_extents: [1, 2, 3] },
    { type: 'sphere', radius: 0.5 },
    { type: 'capsule', radius: 0.3, half_height: 0.6 },
    { type: 'mesh', vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]], indices: [0, 1, 2] },
    { type: 'heightfield', count_x: 2, count_z: 2, spacing_x: 1, spacing_z: 1, heights: [0, 0.1, 0.2, 0.3], holes: [0] },
    { type: 'voxels', count_x: 2, count_y: 1, count_z: 1, cell_size: 0.5, solid: [1, 0] },
  ];
  const bodies = shapes.map((shape, i) => world.addBody({ shape, transform: { p: [10 * i, 0, 0] }, layer: i }));
  assert.equal(world.bodyCount, shapes.length);
  bodies.forEach((b, i) => {
    assert.deepEqual(b.getTransform().p, { x: 10 * i, y: 0, z: 0 });
    assert.equal(b.getLayer(), i);
    assert.equal(b.getType().type, 'static');
  });
  assert.deepEqual(bodies[0].getAabb(), { min: { x: -1, y: -2, z: -3 }, max: { x: 1, y: 2, z: 3 } });
  bodies[1].setTransform({ p: [1, 2, 3], q: [0, 0, 0, 1] });
  assert.deepEqual(bodies[1].getTransform().p, { x: 1, y: 2, z: 3 });
  bodies[1].remove();
  assert.equal(bodies[1].valid, false);
  assert.equal(world.bodyCount, shapes.length - 1);
  assert.throws(() => bodies[1].getTransform(), (e) => e instanceof TreadError && e.code === 'TREAD_ERR_INVALID_ID');
  assert.throws(() => world.addBody({ shape: { type: 'sphere', radius: -1 } }), (e) => e instanceof TreadError && e.code === 'TREAD_ERR_INVALID_SHAPE');
  world.destroy();
});

test('kinematic bodies move by their velocity, dynamic ones by moveTo, and carry a rider', () => {
  const world = tread.createWorld();
  world.addBody(floorDef);
  const lift = world.addBody({ type: 'kinematic', shape: { type: 'box', half_extents: [1, 0.1, 1] }, transform: { p: [5, 0.1, 0] } });
  lift.setVelocity([0, 1, 0], [0, 0, 0]);
  assert.deepEqual(lift.getVelocity().linear, { x: 0, y: 1, z: 0 });
  const ch = tread.createCharacter({}, [5, 0.2, 0]);
  for (let i = 0; i < 60; ++i) {
    world.advance(dt);
    ch.moveXYZ(world, 0, 0, 0, dt);
  }
  assert.ok(Math.abs(lift.getTransform().p.y - 1.1) < 1e-4);
  assert.ok(Math.abs(ch.position.y - 1.2) < 0.01, `the rider rides: feet at ${ch.position.y}`);
  const motion = lift.getMotion();
  assert.ok(motion.current.p.y > motion.previous.p.y);
  const crate = world.addBody({ type: 'dynamic', shape: { type: 'box', half_extents: [0.5, 0.5, 0.5] }, transform: { p: [-5, 0.5, 0] } });
  crate.moveTo({ p: [-4, 0.5, 0] }, [60, 0, 0], [0, 0, 0]);
  world.advance(dt);
  assert.equal(crate.getTransform().p.x, -4);
  assert.throws(() => lift.moveTo({ p: [0, 0, 0] }, [0, 0, 0], [0, 0, 0]), TreadError);
  const belt = world.addBody({ shape: { type: 'box', half_extents: [1, 0.1, 1] }, transform: { p: [20, 0.1, 0] } });
  belt.setSurfaceVelocity({ linear: [2, 0, 0] });
  world.destroy();
});

test('a character walks up the course stairs and reports its ground, contacts and steps', () => {
  const world = tread.createWorld();
  world.addBody(floorDef);
  for (let i = 0; i < 10; ++i) {
    const x0 = 1 + 0.3 * i, top = 0.2 * (i + 1);
    world.addBody({ shape: { type: 'box', half_extents: [(20 - x0) / 2, top / 2, 1] }, transform: { p: [(20 + x0) / 2, top / 2, 0] } });
  }
  const ch = tread.createCharacter({ max_step_height: 0.4 }, [0, 0, 0]);
  let stepped = 0;
  for (let i = 0; i < 180; ++i) {
    const r = ch.moveXYZ(world, 4, ch.groundState === 'on_ground' ? 0 : ch.velocity.y - 9.81 * dt, 0, dt);
    stepped = Math.max(stepped, r.step_up);
  }
  assert.ok(Math.abs(ch.position.y - 2.002) < 0.01 && ch.position.x > 4, `on the top landing: ${JSON.stringify(ch.position)}`);
  assert.equal(ch.groundState, 'on_ground');
  assert.ok(stepped > 0.1 && stepped <= 0.4);
  const ground = ch.ground;
  assert.ok(ground.normal.y > 0.99 && ground.body.generation > 0);
  const result = ch.result.read();
  assert.equal(result.contacts.length, result.contact_count);
  assert.deepEqual(ch.settings.max_step_height, Math.fround(0.4));
  assert.equal(world.closest(ch.shape(), ch.center(), 0.01).found, true);
  const bytes = ch.save();
  const copy = tread.createCharacter();
  copy.load(bytes);
  assert.deepEqual(copy.read(), ch.read());
  world.destroy();
});

test('settings are validated by the library and changed in place', () => {
  assert.throws(() => tread.createCharacter({ height: 0.1 }), (e) => e instanceof TreadError && /settings\.height/.test(e.message));
  assert.throws(() => tread.createCharacter({ hieght: 1 }), /has no field hieght/);
  assert.throws(() => tread.createCharacter({ step_strategy: 'teleport' }), /unknown value "teleport"/);
  const world = tread.createWorld();
  world.addBody(floorDef);
  const ch = tread.createCharacter({ shape: 'box', step_strategy: 'riser', riser: { depth: 0.3 } }, [0, 0, 0]);
  assert.equal(ch.settings.shape, 'box');
  assert.equal(ch.settings.riser.depth, Math.fround(0.3));
  ch.setSettings(world, { step_strategy: 'contact' });
  assert.equal(ch.settings.step_strategy, 'contact');
  assert.equal(ch.settings.riser.depth, Math.fround(0.3));
  const capsule = tread.createCharacter({}, [3, 0, 0]);
  assert.equal(capsule.setHeight(world, 1.0), true);
  assert.equal(capsule.height, 1);
  capsule.setPosition([3, 1, 0]);
  assert.equal(capsule.groundState, 'in_air');
  world.destroy();
});

test('the motor jumps, and its velocity moves the character', () => {
  const world = tread.createWorld();
  world.addBody(floorDef);
  const ch = tread.createCharacter({}, [0, 0, 0]);
  const motor = tread.createMotor({ jump_height: 1 });
  let last = null, top = 0, jumped = false;
  for (let i = 0; i < 90; ++i) {
    const v = motor.update({ direction: [1, 0, 0], speed: 3, jump: i >= 10 && i < 80 }, ch, last, dt);
    if (motor.jumped) (jumped = true), ch.suppressSnap(motor.settings.jump_snap_suppress_time);
    last = ch.move(world, v, dt);
    top = Math.max(top, ch.position.y);
  }
  assert.ok(jumped && Math.abs(top - 1) < 0.05, `jumped to ${top}`);
  assert.ok(ch.position.x > 3);
  assert.equal(motor.state.last_jump, 'none');
  motor.free();
  world.destroy();
});

test('the batch update moves characters as obstacles to each other', () => {
  const world = tread.createWorld();
  world.addBody(floorDef);
  const crowd = tread.createCharacters(2);
  crowd.at(0).init({}, [-1, 0, 0]);
  crowd.at(1).init({}, [1, 0, 0]);
  const batch = tread.createBatch({ capacity: 2 });
  for (let i = 0; i < 60; ++i) {
    crowd.setVelocity(0, 2, 0, 0);
    crowd.setVelocity(1, -2, 0, 0);
    batch.move(world, crowd, dt);
  }
  const gap = crowd.at(1).position.x - crowd.at(0).position.x;
  assert.ok(gap >= 0.6 - 1e-3, `they do not pass through each other: ${gap}`);
  // Without the batch they do.
  const ghosts = tread.createCharacters(2);
  ghosts.at(0).init({}, [-1, 0, 5]);
  ghosts.at(1).init({}, [1, 0, 5]);
  for (let i = 0; i < 60; ++i) {
    ghosts.setVelocity(0, 2, 0, 0);
    ghosts.setVelocity(1, -2, 0, 0);
    ghosts.moveEach(world, dt);
  }
  assert.ok(ghosts.at(1).position.x < ghosts.at(0).position.x);
  const before = crowd.at(0).position.x;
  world.shiftOrigin([1, 0, 0], crowd);
  assert.equal(crowd.at(0).position.x, Math.fround(before - 1));
  batch.destroy();
  crowd.free();
  world.destroy();
});

test('queries: rays, shape casts, closest, with filters', () => {
  const world = tread.createWorld();
  const floor = world.addBody(floorDef);
  world.addBody({ shape: { type: 'sphere', radius: 1 }, transform: { p: [0, 3, 0] }, layer: 1 });
  assert.equal(world.castRay([0, 10, 0], [0, -20, 0]).point.y, 4);
  const under = world.castRay([0, 10, 0], [0, -20, 0], { layer_mask: 1 }); // the floor (layer 0) through the sphere (1)
  assert.equal(under.hit, true);
  assert.equal(under.point.y, 0);
  assert.equal(world.castRay([0, 10, 0], [0, -20, 0], { layer_mask: 0 }).hit, false);
  const shape = { type: 'sphere', radius: 0.5 };
  const hit = world.castShape(shape, [5, 5, 0], [0, -10, 0], { ignore_body: floor });
  assert.equal(hit.hit, false);
  assert.ok(Math.abs(world.castShape(shape, [5, 5, 0], [0, -10, 0]).fraction - 0.45) < 1e-5);
  assert.ok(Math.abs(world.closest(shape, [5, 1, 0], 2).distance - 0.5) < 1e-5);
  world.destroy();
});

test('the declarations compile against a usage file (tsc --strict, both module resolutions)', (t) => {
  let tsc;
  try {
    tsc = execFileSync('sh', ['-c', 'command -v tsc']).toString().trim();
  } catch {
    return t.skip('tsc is missing (scripts/deps.sh web installs node-typescript)');
  }
  const dir = join(ROOT, 'web', 'test', 'types');
  const common = ['--noEmit', '--strict', '--target', 'es2022'];
  execFileSync(tsc, [...common, '--module', 'node16', '--moduleResolution', 'node16', 'usage.mts'], { cwd: dir, stdio: 'inherit' });
  // The classic resolution imports the path without its extension: the same file, written as a .ts that does.
  const classic = mkdtempSync(join(tmpdir(), 'tread-types-'));
  try {
    const source = readFileSync(join(dir, 'usage.mts'), 'utf8');
    const bare = source.replace("'../../dist/tread.mjs'", JSON.stringify(join(ROOT, 'web', 'dist', 'tread')));
    assert.notEqual(bare, source, 'usage.mts imports ../../dist/tread.mjs');
    writeFileSync(join(classic, 'usage.ts'), bare);
    execFileSync(tsc, [...common, '--module', 'es2022', '--moduleResolution', 'node', 'usage.ts'], { cwd: classic, stdio: 'inherit' });
  } finally {
    rmSync(classic, { recursive: true, force: true });
  }
});
