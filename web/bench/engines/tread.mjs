// SPDX-License-Identifier: MIT
// tread's WebAssembly build as a peers-benchmark engine. Every engine module (tread.mjs, jolt.mjs, rapier.mjs)
// exports `load({ gap })` giving an engine: { name, version, notes, createWorld() } (gap: the distance the peers keep
// from surfaces, tread's skin; null: the engine's default; tread keeps its own 2 mm skin), and a world:
//   addBox(halfExtents, position, rotation)      a static box (vectors {x, y, z}, rotation {x, y, z, w})
//   addMesh(vertices, indices, position)         a static triangle mesh (flat Float32Array, Uint32Array)
//   finish()                                     after the static bodies, before the characters
//   addCharacters(count, character, cvc)         the course character (radius, height, ...), count of them, with or
//                                                without character-vs-character; placed with place()
//   place(i, feet)                               teleport character i (feet = the capsule's lowest point), at rest
//   afterPlace()                                 after a round of place() calls, before the next update
//   update(velocities, dt)                       one frame: every character moved with its velocity (a Float32Array
//                                                of xyz triples); the only part the benchmark times
//   feet(i), velocity(i), ground(i)              after a frame: feet {x, y, z}, velocity after collisions, ground state
//                                                ('on_ground', 'on_steep', 'not_supported', 'in_air')
//   destroy()
import { loadTread } from '../../dist/tread.mjs';

export async function load() {
  // The build without threads: the peers' packages run on one thread, and so does tread's native column.
  const tread = await loadTread({ threads: 1 });
  return {
    name: 'tread',
    version: `${tread.version.major}.${tread.version.minor}.${tread.version.patch} (this tree, WebAssembly: emcc -O3 -msimd128, the build without threads)`,
    tread,
    notes: [
      'tread_character_move per character from JavaScript; with character-vs-character one tread_batch_move a frame',
      'default settings: the course character (sweep stepping, skin 2 mm)',
    ],
    createWorld: () => new TreadWorld(tread),
  };
}

class TreadWorld {
  constructor(tread) {
    this.tread = tread;
    this.world = tread.createWorld({ body_capacity: 1024 });
  }

  addBox(half, p, q) {
    this.world.addBody({ shape: { type: 'box', half_extents: half }, transform: { p, q } });
  }

  addMesh(vertices, indices, p) {
    this.world.addBody({ shape: { type: 'mesh', vertices, indices }, transform: { p } });
  }

  finish() {}

  addCharacters(count, character, cvc) {
    this.settings = { radius: character.radius, height: character.height, max_step_height: character.maxStep,
      step_down_distance: character.stepDown, max_slope_degrees: character.maxSlopeDegrees };
    this.chars = this.tread.createCharacters(count);
    this.views = Array.from({ length: count }, (_, i) => this.chars.at(i));
    this.batch = cvc ? this.tread.createBatch({ capacity: count }) : null;
  }

  place(i, feet) {
    this.views[i].init(this.settings, feet);
  }

  afterPlace() {}

  update(v, dt) {
    if (this.batch) {
      for (let i = 0; i < this.views.length; ++i) this.chars.setVelocity(i, v[3 * i], v[3 * i + 1], v[3 * i + 2]);
      this.batch.move(this.world, this.chars, dt);
      return;
    }
    for (let i = 0; i < this.views.length; ++i) this.views[i].moveXYZ(this.world, v[3 * i], v[3 * i + 1], v[3 * i + 2], dt, this.chars.results[i]);
  }

  feet(i) {
    return this.views[i].position;
  }

  velocity(i) {
    return this.views[i].velocity;
  }

  ground(i) {
    return this.views[i].groundState;
  }

  destroy() {
    this.batch?.destroy();
    this.chars?.free();
    this.world.destroy();
  }
}
