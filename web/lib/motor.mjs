// SPDX-License-Identifier: MIT
// The movement model (include/tread/motor.h) and the camera's step smoothing. A Motor owns its settings, its state
// carried between frames and one input, in module memory; update() turns a wish into the velocity to hand to
// Character.move for the frame.
import { vec3Of } from './memory.mjs';

export class Motor {
  constructor(tread, settings = {}) {
    const mem = tread.memory;
    this.tread = tread;
    this.settingsPtr = mem.alloc(mem.sizeOf('tread_motor_settings'));
    this.statePtr = mem.alloc(mem.sizeOf('tread_motor_state'));
    this.inputPtr = mem.alloc(mem.sizeOf('tread_motor_input'));
    this.outPtr = mem.alloc(12);
    tread.module._tw_motor_settings_default(this.settingsPtr);
    mem.write('tread_motor_settings', this.settingsPtr, settings);
    this.reset();
    this.jumpedOffset = mem.offsetOf('tread_motor_state', 'jumped').offset;
  }

  get settings() {
    return this.tread.memory.read('tread_motor_settings', this.settingsPtr);
  }

  // Change some settings (C field names); the others keep their values.
  set settings(values) {
    this.tread.memory.write('tread_motor_settings', this.settingsPtr, values);
  }

  get state() {
    return this.tread.memory.read('tread_motor_state', this.statePtr);
  }

  // At rest, not yet known to be on ground.
  reset() {
    this.tread.module._tw_motor_state_default(this.statePtr);
  }

  // The last update started a jump: pass settings.jump_snap_suppress_time to Character.suppressSnap.
  get jumped() {
    return this.tread.module.HEAPU8[this.statePtr + this.jumpedOffset] !== 0;
  }

  // input: { direction, speed (< 0: use magnitude), magnitude, jump, crouch }; lastMove: the MoveResult of the
  // character's last move, or null before the first. Returns the velocity for this frame.
  update(input, character, lastMove, dt) {
    const t = this.tread;
    t.module._tw_motor_input_default(this.inputPtr);
    t.memory.write('tread_motor_input', this.inputPtr, { ...input, direction: vec3Of(input.direction) });
    t.check('tread_motor_update',
      t.module._tread_motor_update(this.statePtr, this.settingsPtr, this.inputPtr, character.ptr, lastMove ? lastMove.ptr : 0,
        lastMove ? lastMove.contactsPtr : 0, lastMove ? t.module._tw_move_contacts_capacity() : 0, dt, this.outPtr));
    return t.memory.getValue(this.outPtr, 5);
  }

  free() {
    const mem = this.tread.memory;
    for (const p of [this.settingsPtr, this.statePtr, this.inputPtr, this.outPtr]) mem.free(p);
    this.settingsPtr = this.statePtr = this.inputPtr = this.outPtr = 0;
  }
}

// Camera step smoothing: absorbs a move's step_up - snap_down and decays it, so the view glides while the body steps.
export class StepSmoothing {
  constructor(tread, decay = undefined) {
    this.tread = tread;
    this.ptr = tread.memory.alloc(tread.memory.sizeOf('tread_step_smoothing'));
    tread.module._tw_step_smoothing_default(this.ptr);
    if (decay !== undefined) tread.memory.write('tread_step_smoothing', this.ptr, { decay });
  }

  get offset() {
    return this.tread.module.HEAPF32[(this.ptr + this.tread.memory.offsetOf('tread_step_smoothing', 'offset').offset) >> 2];
  }

  update(offset, dt) {
    this.tread.check('tread_step_smoothing_update', this.tread.module._tread_step_smoothing_update(this.ptr, offset, dt));
    return this.offset;
  }

  free() {
    this.tread.memory.free(this.ptr);
    this.ptr = 0;
  }
}
