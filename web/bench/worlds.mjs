// SPDX-License-Identifier: MIT
// The course's benchmarks P1, P2 and P3 (../shared/course/SPEC.md, docs/COURSE.md) in JavaScript, ported number for
// number from tread's native bench (tests/course.h, bench/character/worlds.c and runs.c): the same bodies, starts and
// steering, in float where the C code is in float, with tread's own sine and cosine (tread_sin, tread_cos through the
// WebAssembly module) where the C code uses them, never Math.sin. tread run through this port ends each benchmark
// with the native bench's state hash (peers.mjs checks it), so every engine walks exactly the native workload.
//
// A benchmark is { name, characters, frames, cvc, build(world), starts, steer(frame, engine world, velocities) }:
// build adds the static bodies to an engine world, starts are the feet of each character, steer writes the frame's
// velocities (the course's input: walking velocity, vertically 0 on ground, else last velocity plus gravity).
import * as V from './f32.mjs';

const f = Math.fround;
export const DT = f(1 / 60);
const G_DT = f(f(-9.81) * DT);
const IDENTITY = { x: 0, y: 0, z: 0, w: 1 };

// The course character (tread_character_settings_default()): capsule 0.3 x 1.8, step 0.4, snap 0.5, 45 degrees.
export const COURSE_CHARACTER = { radius: 0.3, height: 1.8, maxStep: 0.4, stepDown: 0.5, maxSlopeDegrees: 45 };

// ---- the course's random numbers ----------------------------------------------------------------------------------

const M64 = (1n << 64n) - 1n;
// splitmix64 (tests/course.h): advances state[0], returns the output.
export function splitmix64(state) {
  state[0] = (state[0] + 0x9e3779b97f4a7c15n) & M64;
  let z = state[0];
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}

// A uniform draw in [lo, hi]: lo + (hi - lo) * (float)((double)(z >> 11) / 2^53), in float.
function uniform(state, lo, hi) {
  const u = f(Number(splitmix64(state) >> 11n) / 9007199254740992);
  return f(f(lo) + f(f(f(hi) - f(lo)) * u));
}

// A static box by corners (course_box).
function box(world, min, max) {
  world.addBox(V.scale(V.sub(max, min), 0.5), V.scale(V.add(min, max), 0.5), IDENTITY);
}

// The course's vertical velocity: 0 on walkable ground, else the last velocity plus one frame of gravity.
const vertical = (engine, i) => (engine.ground(i) === 'on_ground' ? 0 : f(f(engine.velocity(i).y) + G_DT));

// ---- P1: 1000 characters over the 400-box field ---------------------------------------------------------------------

export function p1(tread) {
  const columns = 40, n = 1000;
  const starts = [], walk = [];
  for (let k = 0; k < n; ++k) {
    starts.push(V.v3(2 * (k % columns) - (columns - 1), 0.7, 2 * Math.floor(k / columns) - 24));
    // The angle reduced to one turn in double first, then float (runs.c).
    const angle = f(((k * 0.618) % 1) * 2 * Math.PI);
    walk.push({ x: f(4 * tread.cos(angle)), z: f(4 * tread.sin(angle)) });
  }
  return {
    name: 'P1', what: '1000 characters walking over the 400-box field, 300 frames', characters: n, frames: 300, cvc: false, starts,
    build(world) {
      box(world, V.v3(-50, -1, -50), V.v3(50, 0, 50));
      const state = [12345n];
      for (let i = 0; i < 400; ++i) {
        const cx = uniform(state, -40, 40), cz = uniform(state, -40, 40);
        const sx = uniform(state, 0.3, 2.0), sz = uniform(state, 0.3, 2.0);
        const h = uniform(state, 0.1, 0.6);
        box(world, { x: f(cx - f(0.5 * sx)), y: 0, z: f(cz - f(0.5 * sz)) }, { x: f(cx + f(0.5 * sx)), y: h, z: f(cz + f(0.5 * sz)) });
      }
    },
    steer(frame, engine, v) {
      for (let i = 0; i < n; ++i) v[3 * i] = walk[i].x, v[3 * i + 1] = vertical(engine, i), v[3 * i + 2] = walk[i].z;
    },
  };
}

// ---- P2: one character up S1's stairs, back at the start every 180 frames -----------------------------------------------

export function stairs(world) {
  box(world, V.v3(-50, -1, -50), V.v3(50, 0, 50));
  for (let i = 0; i < 10; ++i) box(world, V.v3(f(1 + f(f(0.3) * i)), 0, -1), V.v3(20, f(f(0.2) * (i + 1)), 1));
}

export function p2() {
  return {
    name: 'P2', what: "one character walking up S1's stairs at 4 m/s, reset every 180 frames, 1000 frames", characters: 1, frames: 1000,
    cvc: false, starts: [V.v3(0, 0, 0)], build: stairs,
    steer(frame, engine, v) {
      if (frame % 180 === 0) {
        engine.place(0, V.v3(0, 0, 0));
        engine.afterPlace();
      }
      v[0] = 4, v[1] = vertical(engine, 0), v[2] = 0;
    },
  };
}

// ---- P3: 100 capsules to random targets on the sine mesh ---------------------------------------------------------------

// The sine ground's heights: 2 sin(u 20 / 100) cos(w 20 / 100) with the project's own sine and cosine (worlds.c).
function sineMesh(tread) {
  const n = 100, row = n + 1, cell = f(0.5), period = f(100);
  const height = (u, w) => f(f(2 * tread.sin(f(f(u * 20) / period))) * tread.cos(f(f(w * 20) / period)));
  const vertices = new Float32Array(3 * row * row);
  for (let j = 0; j <= n; ++j)
    for (let i = 0; i <= n; ++i) vertices.set([f(cell * i), height(i, j), f(cell * j)], 3 * (j * row + i));
  const indices = new Uint32Array(6 * n * n);
  let k = 0;
  for (let j = 0; j < n; ++j)
    for (let i = 0; i < n; ++i) {
      const start = j * row + i;
      indices.set([start, start + row, start + 1, start + 1, start + row, start + row + 1], k);
      k += 6;
    }
  return { vertices, indices, origin: V.v3(-25, 0, -25) };
}

// Where P3's boxes and characters stand, measured in tread's world of the ground (every engine gets these numbers):
// the surface under each box (a ray straight down, cast again 0.1 / 0.2 mm aside if it slips through an edge), and
// each character's feet 0.1 m above where its capsule rests (a shape cast down, on the whole scene).
function p3Layout(tread, ground) {
  const world = tread.createWorld();
  world.addBody({ shape: { type: 'mesh', vertices: ground.vertices, indices: ground.indices }, transform: { p: ground.origin } });
  const surface = [];
  for (let k = 0; k < 100; ++k) {
    const x = f(f(4 * (k % 10)) - 20), z = f(f(4 * Math.floor(k / 10)) - 20);
    let hit = world.castRay([x, 50, z], [0, -100, 0]);
    if (!hit.hit) hit = world.castRay([f(x + f(1e-4)), 50, f(z + f(2e-4))], [0, -100, 0]);
    if (!hit.hit) throw new Error(`P3: no ground under (${x}, ${z})`);
    surface.push(hit.point.y);
  }
  const boxes = [];
  for (let i = 0; i < 10; ++i) {
    const half = f(4 - f(f(0.4) * i));
    boxes.push([V.v3(half, 0.15, half), V.v3(-4, f(-1 + f(f(0.3) * i)), 0)]);
  }
  for (let z = 0; z < 10; ++z) boxes.push([V.v3(0.1, 2.5, 0.1), V.v3(2, 1, f(2 + f(f(0.2) * z)))]);
  for (let k = 0; k < 100; ++k)
    boxes.push([V.v3(0.25, 0.25, 0.25), V.v3(f(f(4 * (k % 10)) - 20), f(surface[k] + f(0.25)), f(f(4 * Math.floor(k / 10)) - 20))]);
  for (const [half, p] of boxes) world.addBody({ shape: { type: 'box', half_extents: half }, transform: { p } });
  const probe = tread.createCharacter({ radius: 0.3, height: 1.95 });
  const shape = probe.shape();
  const starts = [];
  for (let k = 0; k < 100; ++k) {
    const x = f(f(4 * (k % 10)) - 20), z = f(f(4 * Math.floor(k / 10)) - 20);
    const hit = world.castShape(shape, [x, 50, z], [0, -100, 0]);
    if (!hit.hit) throw new Error(`P3: nothing under a character's start (${x}, ${z})`);
    const feet = f(f(f(50) - f(f(100) * hit.fraction)) - f(0.5 * f(1.95)));
    starts.push(V.v3(x, f(feet + f(0.1)), z));
  }
  probe.free();
  world.destroy();
  return { boxes, starts };
}

export function p3(tread, cvc) {
  const ground = sineMesh(tread);
  const { boxes, starts } = p3Layout(tread, ground);
  return {
    name: cvc ? 'P3-cvc' : 'P3',
    what: `100 capsules to random targets on the sine mesh (20,000 triangles), 600 frames, ${cvc ? 'with' : 'without'} character-vs-character`,
    characters: 100, frames: 600, cvc, starts, character: { ...COURSE_CHARACTER, height: 1.95 },
    build(world) {
      world.addMesh(ground.vertices, ground.indices, ground.origin);
      for (const [half, p] of boxes) world.addBox(half, p, IDENTITY);
    },
    // Every 2 s character k draws h = splitmix64(floor(t / 2) * 100 + k) and walks toward cell (4a - 20, 4b - 20) at
    // 5 + 0.5 s m/s (runs.c's steer_p3; floor(t / 2) is frame / 120).
    steer(frame, engine, v) {
      const period = BigInt(Math.floor(frame / 120));
      for (let k = 0; k < 100; ++k) {
        const h = splitmix64([period * 100n + BigInt(k)]);
        const a = Number(h % 10n), b = Number((h / 10n) % 10n), s = Number((h / 100n) % 10n);
        const feet = engine.feet(k);
        const to = { x: f(f(f(4 * a) - 20) - f(feet.x)), y: 0, z: f(f(f(4 * b) - 20) - f(feet.z)) };
        const distance = V.length(to), speed = f(5 + f(f(0.5) * s));
        const walk = distance > f(1e-6) ? V.scale(to, f(speed / distance)) : V.zero();
        v[3 * k] = walk.x, v[3 * k + 1] = vertical(engine, k), v[3 * k + 2] = walk.z;
      }
    },
  };
}
