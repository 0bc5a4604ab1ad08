// SPDX-License-Identifier: MIT
// tread in JavaScript: the WebAssembly build of the library (web/dist/tread_wasm.mjs, no threads) behind a typed
// wrapper (tread.d.ts). One module instance per loadTread(); every object made from it lives in its memory.
//
//   import { loadTread } from './tread.mjs';
//   const tread = await loadTread();
//   const world = tread.createWorld();
//   world.addBody({ shape: { type: 'box', half_extents: [50, 0.5, 50] }, transform: { p: [0, -0.5, 0] } });
//   const ch = tread.createCharacter({ max_step_height: 0.4 }, [0, 0, 0]);
//   ch.move(world, [4, 0, 0], 1 / 60);
import createTreadModule from './tread_wasm.mjs';
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
  constructor(mod) {
    this.module = mod;
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

// Load a module instance. options are emscripten's Module options (print, printErr, ...).
export async function loadTread(options = {}) {
  return new Tread(await createTreadModule(options));
}
