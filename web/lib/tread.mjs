// SPDX-License-Identifier: MIT
// tread in JavaScript: the WebAssembly build of the library behind a typed wrapper (tread.d.ts). One module instance
// per loadTread(); every object made from it lives in its memory. Two builds (web/wasm/build.sh): threads/tread_wasm.mjs
// runs a batch on a pool of workers, where workers can share memory; tread_wasm.mjs runs it on the caller's thread.
// Both compute the same bits.
//
//   import { loadTread } from './tread.mjs';
//   const tread = await loadTread();
//   const world = tread.createWorld();
//   world.addBody({ shape: { type: 'box', half_extents: [50, 0.5, 50] }, transform: { p: [0, -0.5, 0] } });
//   const ch = tread.createCharacter({ max_step_height: 0.4 }, [0, 0, 0]);
//   ch.move(world, [4, 0, 0], 1 / 60);
import { Batch, Character, CharacterArray, MoveResult } from './character.mjs';
import { RESULT } from './enums.mjs';
import { Memory, vec3Of } from './memory.mjs';
import { Motor, StepSmoothing } from './motor.mjs';
import { Body, World } from './world.mjs';

export * from './enums.mjs';
export { Batch, Body, Character, CharacterArray, Motor, MoveResult, StepSmoothing, World };

// A library call that failed: `code` is the result's name (TREAD_ERR_...), the message the library's own (which
// starts with the code's name).
export class TreadError extends Error {
  constructor(call, code, message) {
    super(`${call}: ${message.startsWith(code) ? message : `${code}: ${message}`}`);
    this.name = 'TreadError';
    this.call = call;
    this.code = code;
  }
}

const SCRATCH_SLOTS = 4;
const SCRATCH_BYTES = 1024;

export class Tread {
  constructor(mod, threads = 1) {
    this.module = mod;
    // Threads a batch moves characters on, the caller's included: 1 in the build without threads.
    this.threads = threads;
    this.memory = new Memory(mod);
    // Out-parameters of single calls land here instead of a malloc per call; slots keep a call's inputs and
    // outputs apart.
    this.scratchPtr = this.memory.alloc(SCRATCH_SLOTS * SCRATCH_BYTES);
    this.settingsBuffer = this.memory.alloc(this.memory.sizeOf('tread_character_settings'));
    const v = this.scratch(12);
    mod._tw_version(v);
    this.version = { major: mod.HEAP32[v >> 2], minor: mod.HEAP32[(v >> 2) + 1], patch: mod.HEAP32[(v >> 2) + 2] };
  }

  scratch(bytes, slot = 0) {
    if (bytes > SCRATCH_BYTES || slot >= SCRATCH_SLOTS) throw new Error(`tread: scratch of ${bytes} bytes in slot ${slot}`);
    const ptr = this.scratchPtr + slot * SCRATCH_BYTES;
    this.module.HEAPU8.fill(0, ptr, ptr + bytes);
    return ptr;
  }

  // Throw a TreadError for a failed call's result code.
  check(call, code) {
    if (code !== 0) throw new TreadError(call, RESULT[code] ?? `result ${code}`, this.errorMessage());
  }

  errorMessage() {
    return this.memory.string(this.module._tread_error_message());
  }

  // The project's deterministic sine, cosine and exponential (float in, float out: the same bits everywhere).
  sin(x) {
    return this.module._tread_sin(x);
  }

  cos(x) {
    return this.module._tread_cos(x);
  }

  exp(x) {
    return this.module._tread_exp(x);
  }

  quatFromAxisAngle(axis, radians) {
    const a = vec3Of(axis);
    const out = this.scratch(16);
    this.module._tw_quat_from_axis_angle(a.x, a.y, a.z, radians, out);
    return this.memory.getValue(out, 6);
  }

  characterSettingsDefault() {
    this.module._tw_character_settings_default(this.settingsBuffer);
    return this.memory.read('tread_character_settings', this.settingsBuffer);
  }

  motorSettingsDefault() {
    const ptr = this.scratch(this.memory.sizeOf('tread_motor_settings'));
    this.module._tw_motor_settings_default(ptr);
    return this.memory.read('tread_motor_settings', ptr);
  }

  // Settings in module memory: the defaults, then the given fields (C names). Valid until the next call.
  settingsPtr(settings = {}) {
    this.module._tw_character_settings_default(this.settingsBuffer);
    this.memory.write('tread_character_settings', this.settingsBuffer, settings);
    return this.settingsBuffer;
  }

  createWorld(def = {}) {
    return new World(this, def);
  }

  createCharacter(settings = {}, position = [0, 0, 0]) {
    return new Character(this).init(settings, position);
  }

  createCharacters(count) {
    return new CharacterArray(this, count);
  }

  createBatch(def = {}) {
    return new Batch(this, def);
  }

  createMotor(settings = {}) {
    return new Motor(this, settings);
  }

  createStepSmoothing(decay = undefined) {
    return new StepSmoothing(this, decay);
  }

  createMoveResult() {
    return new MoveResult(this);
  }
}

// Whether this JavaScript environment can run the threaded build: workers sharing memory need SharedArrayBuffer, which
// a browser gives a page only when it is cross-origin isolated (served with Cross-Origin-Opener-Policy: same-origin
// and Cross-Origin-Embedder-Policy: require-corp), and node >= 20 always; in node the module also needs
// process.getBuiltinModule (node >= 20.16) for emscripten's require (web/wasm/build.sh).
export function threadsAvailable() {
  if (typeof SharedArrayBuffer != 'function' || typeof WebAssembly?.Memory != 'function') return false;
  const node = globalThis.process?.versions?.node;
  if (typeof node == 'string') return typeof globalThis.process.getBuiltinModule == 'function';
  return globalThis.crossOriginIsolated === true;
}

// The machine's cores as the environment reports them (navigator.hardwareConcurrency, os.availableParallelism).
function machineThreads() {
  const os = globalThis.process?.getBuiltinModule?.('os');
  const n = os ? (os.availableParallelism?.() ?? os.cpus().length) : globalThis.navigator?.hardwareConcurrency;
  return Number.isInteger(n) && n > 0 ? n : 1;
}

// Most threads the threaded build starts by default: every worker loads the module (about 0.7 MB of script) and
// takes a 2 MB stack of the module's memory, and the room's batch leaves a third of its work on one thread, so past
// 8 threads a step hardly shortens (docs/PERFORMANCE.md, "WebAssembly").
const DEFAULT_MAX_THREADS = 8;
const MAX_THREADS = 64; // TR_POOL_MAX_THREADS (src/pool.h)

// Load a module instance. options: threads ('auto', the default: the threaded build with one thread per core up to
// 8 where threadsAvailable(), else the single-threaded one; a number: that many threads in all, 1 for the build
// without threads; true: the threaded build, or an error where it cannot run), and emscripten's Module options
// (print, printErr, ...).
export async function loadTread(options = {}) {
  const { threads = 'auto', ...moduleOptions } = options;
  if (!(threads === 'auto' || threads === true || (Number.isInteger(threads) && threads >= 1 && threads <= MAX_THREADS)))
    throw new RangeError(`loadTread: options.threads is ${threads}; expected 'auto', true or 1 .. ${MAX_THREADS}`);
  const count = threads === 'auto' || threads === true ? Math.min(machineThreads(), DEFAULT_MAX_THREADS) : threads;
  const wanted = threads === true || (count > 1 && threadsAvailable());
  if (wanted && !threadsAvailable())
    throw new Error('loadTread: options.threads is true but this environment cannot share memory with workers (no SharedArrayBuffer, or a page that is not crossOriginIsolated)');
  if (wanted) {
    try {
      return await loadThreaded(moduleOptions, count);
    } catch (e) {
      if (threads === true) throw e;
      // 'auto' or a count: the single-threaded build computes the same bits.
    }
  }
  const { default: create } = await import('./tread_wasm.mjs');
  return new Tread(await create(moduleOptions), 1);
}

async function loadThreaded(moduleOptions, count) {
  const { default: create } = await import('./threads/tread_wasm.mjs');
  // treadWorkers sizes the pool the module starts with (PTHREAD_POOL_SIZE in web/wasm/build.sh): the caller's
  // thread and count - 1 workers. At least one, so that the build's workers are there to be told apart from none.
  const mod = await create({ ...moduleOptions, treadWorkers: Math.max(count - 1, 1) });
  // node keeps running while a worker is referenced: let a program end when its own work does.
  for (const w of mod.PThread?.unusedWorkers ?? []) w.unref?.();
  return new Tread(mod, Math.max(count, 2));
}
