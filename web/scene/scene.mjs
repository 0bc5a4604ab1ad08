// SPDX-License-Identifier: MIT
// tread's scene files (docs/SCENES.md) in JavaScript: the C scene library (tools/scene, the `tread` command's own:
// validation, building, running, checks) compiled into the WebAssembly module (web/wasm/scene_glue.c), behind this
// thin wrapper. The JSON is parsed by the JavaScript engine (web/wasm/json_js.c); mesh files are native only.
//
//   const scene = loadScene(tread, text, 'scenes/course/S01-stairs-up.json'); // throws SceneError: the C message
//   const run = runScene(tread, scene);         // { frames, traceHash, checks, passed, final, ... } as `tread run`
//   const live = new SceneRun(tread, scene);    // frame by frame (the viewer): live.step(), live.drive(k, v)
//   scene.free();
import { BODY_FLAGS, BODY_TYPE, RESULT, SHAPE_TYPE } from '../lib/enums.mjs';
import { Character, MoveResult } from '../lib/character.mjs';
import { KIND, vec3Of } from '../lib/memory.mjs';
import { Body, World } from '../lib/world.mjs';

// A scene file the C loader refused: the message is its own ("<file>: <json path>: <what>").
export class SceneError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SceneError';
  }
}

const utf8 = new TextEncoder();

// Text as a NUL-terminated string in module memory (the caller frees it), and its length in bytes.
function cText(tread, text) {
  const bytes = utf8.encode(text);
  const ptr = tread.memory.alloc(bytes.length + 1);
  tread.module.HEAPU8.set(bytes, ptr);
  return { ptr, length: bytes.length };
}

// `call(ptr)` with text in module memory for the call; 0 for null.
function withText(tread, text, call) {
  if (text === null || text === undefined) return call(0);
  const t = cText(tread, text);
  try {
    return call(t.ptr);
  } finally {
    tread.memory.free(t.ptr);
  }
}

const sceneError = (tread) => new SceneError(tread.module.UTF8ToString(tread.module._tws_error()));

// `count` structs of `type` from `ptr` in module memory, each read and passed through `f`.
function readArray(tread, type, ptr, count, f = (x) => x) {
  const size = tread.memory.sizeOf(type);
  return Array.from({ length: count }, (_, i) => f(tread.memory.read(type, ptr + i * size), i));
}

// A copy of `count` elements of a typed array type from module memory.
function copyOut(tread, Type, ptr, count) {
  return new Type(tread.module.HEAPU8.buffer, ptr, count).slice();
}

// A tread_body_def as read from memory into World.addBody's form (shape arrays copied out, enums by name).
function bodyDef(tread, d) {
  const sh = d.shape, type = SHAPE_TYPE[sh.type];
  let shape;
  switch (type) {
    case 'box': shape = { type, half_extents: sh.half_extents }; break;
    case 'sphere': shape = { type, radius: sh.radius }; break;
    case 'capsule': shape = { type, radius: sh.radius, half_height: sh.half_height }; break;
    case 'mesh':
      shape = { type, vertices: copyOut(tread, Float32Array, sh.mesh.vertices, 3 * sh.mesh.vertex_count),
        indices: copyOut(tread, Uint32Array, sh.mesh.indices, 3 * sh.mesh.triangle_count) };
      break;
    case 'heightfield': {
      const h = sh.heightfield, cells = (h.count_x - 1) * (h.count_z - 1);
      shape = { type, count_x: h.count_x, count_z: h.count_z, spacing_x: h.spacing_x, spacing_z: h.spacing_z,
        heights: copyOut(tread, Float32Array, h.heights, h.count_x * h.count_z), holes: h.holes ? copyOut(tread, Uint8Array, h.holes, cells) : null };
      break;
    }
    case 'voxels': {
      const v = sh.voxels;
      shape = { type, count_x: v.count_x, count_y: v.count_y, count_z: v.count_z, cell_size: v.cell_size,
        solid: copyOut(tread, Uint8Array, v.solid, v.count_x * v.count_y * v.count_z) };
      break;
    }
    default: throw new Error(`tread: scene body of unknown shape type ${sh.type}`);
  }
  return { type: BODY_TYPE[d.type], shape, transform: d.transform, linear_velocity: d.linear_velocity, angular_velocity: d.angular_velocity,
    surface: d.surface, layer: d.layer, one_way: (d.flags & BODY_FLAGS.one_way) !== 0, sensor: (d.flags & BODY_FLAGS.sensor) !== 0 };
}

// The C scene is freed with its Scene, or when the Scene is collected without free().
const unfreed = new FinalizationRegistry(({ tread, ptr }) => tread.module._tws_scene_free(ptr));

// A loaded scene: the C library's (ptr, for runs) and what it holds as plain objects, read once.
export class Scene {
  constructor(tread, ptr) {
    this.tread = tread;
    this.ptr = ptr;
    unfreed.register(this, { tread, ptr }, this);
    const s = tread.memory.read('scene', ptr);
    Object.assign(this, {
      path: s.path, name: s.name, description: s.description, dt: s.dt, duration: s.duration, frames: frameCount(tread, s.duration, s.dt),
      gravity: s.gravity, up: s.up, characters_collide: s.characters_collide, slow: s.slow, pending_penetration: s.pending_penetration,
      checkCount: s.check_count,
    });
    this.layers = readArray(tread, 'scene_layer', s.layers, s.layer_count);
    this.bodies = readArray(tread, 'scene_body', s.bodies, s.body_count, (b) => {
      const def = bodyDef(tread, b.def);
      return { name: b.name, def, path: b.path.keys !== 0, dynamic: def.type === 'dynamic' ? b.dynamic : null };
    });
    this.characters = readArray(tread, 'scene_character', s.characters, s.character_count, (c) => ({
      name: c.name, start: c.start, settings: c.settings, has_motor: c.has_motor, motor: c.has_motor ? c.motor : null, crowd: c.crowd,
      inputs: readArray(tread, 'scene_input', c.inputs, c.input_count),
    }));
    this.crowds = readArray(tread, 'scene_crowd', s.crowds, s.crowd_count);
  }

  free() {
    if (!this.ptr) return;
    unfreed.unregister(this);
    this.tread.module._tws_scene_free(this.ptr);
    this.ptr = 0;
  }
}

// round(duration / dt), at least 1, as the C runner counts frames.
function frameCount(tread, duration, dt) {
  return tread.module._tws_frame_count(duration, dt);
}

// Load and validate a scene file's text (path names it in messages). Throws SceneError with the C loader's message.
export function loadScene(tread, text, path = '<scene>') {
  const t = cText(tread, text);
  try {
    const ptr = withText(tread, path, (p) => tread.module._tws_scene_load(p, t.ptr, t.length));
    if (!ptr) throw sceneError(tread);
    return new Scene(tread, ptr);
  } finally {
    tread.memory.free(t.ptr);
  }
}

// The scene's bodies in a new World, in file order, as the runner adds them (the caller destroys it).
export function buildWorld(tread, scene) {
  const world = tread.createWorld();
  return { world, bodies: scene.bodies.map((b) => world.addBody(b.def)) };
}

// FNV-1a 64 values as 16 hex digits, from module memory.
function hashAt(tread, ptr, index = 0) {
  return new DataView(tread.module.HEAPU8.buffer).getBigUint64(ptr + 8 * index, true).toString(16).padStart(16, '0');
}

function failureOf(tread, scene, ptr) {
  const f = tread.memory.read('run_failure', ptr);
  if (!f.failed) return null;
  return { character: f.character >= 0 ? scene.characters[f.character].name : 'world', frame: f.frame, t: f.t,
    call: tread.module.UTF8ToString(f.call), code: RESULT[f.code], message: f.message };
}

// What an outcome (web/wasm/scene_glue.c's tws_outcome) holds, as `tread run --json` gives it.
function readOutcome(tread, scene, o, record) {
  const mod = tread.module, frames = mod._tws_outcome_frames(o);
  const hashes = mod._tws_outcome_frame_hashes(o);
  const checks = readArray(tread, 'check_result', mod._tws_outcome_results(o), mod._tws_outcome_result_count(o));
  const final = readArray(tread, 'tread_character', mod._tws_outcome_final(o), scene.characters.length,
    (c) => ({ position: c.position, velocity: c.velocity, ground: c.ground.state }));
  const frameOf = (c, i) => tread.memory.read('run_frame', mod._tws_outcome_frame(o, c, i));
  return {
    frames,
    frameHashes: Array.from({ length: frames }, (_, i) => hashAt(tread, hashes, i)),
    traceHash: hashAt(tread, mod._tws_outcome_trace_hash(o)),
    bodyHash: hashAt(tread, mod._tws_outcome_body_hash(o)),
    failure: failureOf(tread, scene, mod._tws_outcome_failure(o)),
    checks,
    passed: checks.every((c) => c.passed),
    final,
    trace: record ? scene.characters.map((_, c) => Array.from({ length: frames }, (_, i) => frameOf(c, i))) : null,
  };
}

// Run the scene to its end as `tread run` does (options.strategy: every character's step strategy; null: the
// scene's) and evaluate its checks. options.record: also every frame of every character.
export function runScene(tread, scene, options = {}) {
  const mod = tread.module;
  const o = withText(tread, options.strategy, (s) => mod._tws_run(scene.ptr, s));
  if (!o) throw sceneError(tread);
  try {
    return readOutcome(tread, scene, o, options.record);
  } finally {
    mod._tws_outcome_free(o);
  }
}

// The scene's checks over frames another engine ran (web/bench's peers): frames[c][i] = { feet, velocity, ground,
// penetration, finite } at the end of frame i + 1, initialPenetration[c] at spawn. Gives what runScene gives.
export function judgeFrames(tread, scene, frames, initialPenetration) {
  const mod = tread.module, mem = tread.memory, count = frames[0]?.length ?? 0;
  const o = mod._tws_outcome_new(scene.ptr, count, scene.dt);
  if (!o) throw new Error('tread: out of WebAssembly memory for a trace');
  try {
    const characterSize = mem.sizeOf('tread_character'), position = mem.offsetOf('tread_character', 'position').offset;
    frames.forEach((list, c) => {
      list.forEach((f, i) => mem.write('run_frame', mod._tws_outcome_frame_of(o, c, i), f));
      mod.HEAPF32[(mod._tws_outcome_initial_penetration(o) >> 2) + c] = initialPenetration[c];
      if (count) mem.setValue(mod._tws_outcome_final_of(o) + c * characterSize + position, KIND.VEC3, list[count - 1].feet);
    });
    mod._tws_outcome_judge(scene.ptr, o);
    return readOutcome(tread, scene, o, false);
  } finally {
    mod._tws_outcome_free(o);
  }
}

// The course's frame loop for character c of the scene (tools/scene's scene_course_velocity): the input's velocity
// perpendicular to up, along up 0 on walkable ground, else the last velocity's part plus gravity for one frame.
export function courseVelocity(tread, scene, c, t, dt, feet, velocity, up, onGround) {
  const f = vec3Of(feet), v = vec3Of(velocity), u = vec3Of(up), out = tread.scratch(12);
  tread.module._tws_course_velocity(scene.ptr, c, t, dt, f.x, f.y, f.z, v.x, v.y, v.z, u.x, u.y, u.z, onGround ? 1 : 0, out);
  return tread.memory.getValue(out, 5);
}

// A run frame by frame, for as long as the caller likes (the viewer): the C runner's world, characters and last
// moves, seen through the library's wrappers (they stay the run's: end() frees them). Each frame is advance() (the
// world's side), then optionally drive(k, velocity) (character k moves at it this frame instead of its scene
// input), then move() (the characters' side); step() is both.
export class SceneRun {
  constructor(tread, scene, options = {}) {
    const mod = tread.module, mem = tread.memory;
    this.tread = tread;
    this.scene = scene;
    this.ptr = withText(tread, options.strategy, (s) => mod._tws_live_begin(scene.ptr, s));
    if (!this.ptr) throw sceneError(tread);
    this.world = World.view(tread, mod._tws_live_world(this.ptr));
    const chars = mod._tws_live_characters(this.ptr), results = mod._tws_live_results(this.ptr);
    this.characters = scene.characters.map((_, k) => new Character(tread, chars + k * mem.sizeOf('tread_character')));
    this.results = scene.characters.map((_, k) => new MoveResult(tread, results + k * mem.sizeOf('tread_move_result')));
    const id = tread.scratch(8);
    this.bodies = scene.bodies.map((_, i) => {
      mod._tws_live_body_id(this.ptr, i, id);
      return new Body(this.world, mod.HEAPU32[id >> 2], mod.HEAPU32[(id >> 2) + 1]);
    });
  }

  // Frames begun so far.
  get frame() {
    return this.tread.module._tws_live_frames(this.ptr);
  }

  // The library call that stopped the run, or null (later frames do nothing).
  get failure() {
    return failureOf(this.tread, this.scene, this.tread.module._tws_live_failure(this.ptr));
  }

  advance() {
    this.tread.module._tws_live_advance(this.ptr);
  }

  drive(k, velocity) {
    const v = vec3Of(velocity);
    this.tread.module._tws_live_drive(this.ptr, k, v.x, v.y, v.z);
  }

  move() {
    this.tread.module._tws_live_move(this.ptr);
  }

  step() {
    this.advance();
    this.move();
  }

  // Character k's last frame as the runner recorded it: { feet, velocity, ground, stepped, camera, penetration, ... }.
  record(k) {
    return this.tread.memory.read('run_frame', this.tread.module._tws_live_frame(this.ptr, k));
  }

  // How far character k's camera lags its feet along up (its step smoothing's offset).
  cameraOffset(k) {
    return this.tread.module._tws_live_camera_offset(this.ptr, k);
  }

  end() {
    if (this.ptr) this.tread.module._tws_live_end(this.ptr);
    this.ptr = 0;
  }
}

