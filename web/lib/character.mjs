// SPDX-License-Identifier: MIT
// Characters (include/tread/tread.h, "character controller"), their move results, and the batch update. A character
// is plain C data in the module's memory; Character is a view of one, CharacterArray owns many side by side (what the
// batch update and tread_world_shift_origin take). Hot fields (position, velocity, ground state) are read straight
// from the heap through offsets taken once from the layout tables.
import { GROUND_STATE } from './enums.mjs';
import { vec3Of } from './memory.mjs';

// Offsets of the hot fields, per module.
function hotOffsets(mem) {
  const o = (type, name) => mem.offsetOf(type, name).offset;
  return {
    position: o('tread_character', 'position'),
    velocity: o('tread_character', 'velocity'),
    groundState: o('tread_character', 'ground.state'),
    groundNormal: o('tread_character', 'ground.normal'),
    up: o('tread_character', 'settings.up'),
    height: o('tread_character', 'settings.height'),
    resultStepUp: o('tread_move_result', 'step_up'),
    resultSnapDown: o('tread_move_result', 'snap_down'),
  };
}

const offsetsOf = new WeakMap();
export function offsets(tread) {
  let o = offsetsOf.get(tread.memory);
  if (!o) offsetsOf.set(tread.memory, (o = hotOffsets(tread.memory)));
  return o;
}

// How many contacts and impulses a MoveResult keeps (TREAD_MAX_MOVE_CONTACTS, TREAD_MAX_MOVE_IMPULSES).
function capacities(tread) {
  return { contacts: tread.module._tw_move_contacts_capacity(), impulses: tread.module._tw_move_impulses_capacity() };
}

// One tread_move_result in module memory, with the move's buffers beside it: the first TREAD_MAX_MOVE_CONTACTS
// surfaces it met while moving (what the motor reads) and the impulses it gave dynamic bodies. Plain getters for the
// few fields read every frame; read() gives all of it (contacts, impulses, carried, pushed, ...) as a plain object.
export class MoveResult {
  constructor(tread, ptr = 0, contactsPtr = 0, impulsesPtr = 0) {
    const mem = tread.memory, cap = capacities(tread);
    this.tread = tread;
    this.owned = !ptr;
    this.ptr = ptr || mem.alloc(mem.sizeOf('tread_move_result'));
    this.contactsPtr = contactsPtr || mem.alloc(mem.sizeOf('tread_contact') * cap.contacts);
    this.impulsesPtr = impulsesPtr || mem.alloc(mem.sizeOf('tread_body_impulse') * cap.impulses);
  }

  get step_up() {
    return this.tread.module.HEAPF32[(this.ptr + offsets(this.tread).resultStepUp) >> 2];
  }

  get snap_down() {
    return this.tread.module.HEAPF32[(this.ptr + offsets(this.tread).resultSnapDown) >> 2];
  }

  read() {
    const mem = this.tread.memory, cap = capacities(this.tread);
    const r = mem.read('tread_move_result', this.ptr);
    const list = (type, ptr, count) => Array.from({ length: count }, (_, i) => mem.read(type, ptr + i * mem.sizeOf(type)));
    r.contacts = list('tread_contact', this.contactsPtr, Math.min(r.moving_contact_count, cap.contacts));
    r.impulses = list('tread_body_impulse', this.impulsesPtr, Math.min(r.impulse_count, cap.impulses));
    return r;
  }

  // Copy another result's bytes and buffers into this one (the motor keeps the last move).
  copyFrom(other) {
    const mem = this.tread.memory, heap = this.tread.module.HEAPU8, cap = capacities(this.tread);
    heap.copyWithin(this.ptr, other.ptr, other.ptr + mem.sizeOf('tread_move_result'));
    heap.copyWithin(this.contactsPtr, other.contactsPtr, other.contactsPtr + mem.sizeOf('tread_contact') * cap.contacts);
    heap.copyWithin(this.impulsesPtr, other.impulsesPtr, other.impulsesPtr + mem.sizeOf('tread_body_impulse') * cap.impulses);
  }

  free() {
    if (this.owned) for (const p of [this.ptr, this.contactsPtr, this.impulsesPtr]) this.tread.memory.free(p);
    this.ptr = this.contactsPtr = this.impulsesPtr = 0;
  }
}

// A view of one tread_character at `ptr` (owned when created alone).
export class Character {
  constructor(tread, ptr = 0) {
    this.tread = tread;
    this.owned = !ptr;
    this.ptr = ptr || tread.memory.alloc(tread.memory.sizeOf('tread_character'));
    this.result = null; // the last move's result, made on the first move
  }

  // Validate settings (tread_character_settings' C field names; missing ones default) and place the feet.
  init(settings, position) {
    const t = this.tread;
    const s = t.settingsPtr(settings);
    const p = vec3Of(position);
    t.check('tread_character_init', t.module._tw_character_init(this.ptr, s, p.x, p.y, p.z));
    return this;
  }

  get settings() {
    return this.tread.memory.read('tread_character_settings', this.ptr + this.tread.memory.offsetOf('tread_character', 'settings').offset);
  }

  // Replace the settings (the new shape must fit where the character stands).
  setSettings(world, settings) {
    const t = this.tread;
    t.check('tread_character_set_settings', t.module._tread_character_set_settings(world ? world.ptr : 0, this.ptr, t.settingsPtr({ ...this.settings, ...settings })));
  }

  // Crouch or stand with the feet fixed; false when the taller shape does not fit (stays crouched).
  setHeight(world, height) {
    const t = this.tread;
    const out = t.scratch(4);
    t.check('tread_character_set_height', t.module._tread_character_set_height(world.ptr, this.ptr, height, out));
    return t.module.HEAPU8[out] !== 0;
  }

  setPosition(position) {
    const p = vec3Of(position);
    this.tread.check('tread_character_set_position', this.tread.module._tw_character_set_position(this.ptr, p.x, p.y, p.z));
  }

  suppressSnap(seconds) {
    this.tread.check('tread_character_suppress_snap', this.tread.module._tread_character_suppress_snap(this.ptr, seconds));
  }

  #vec(offset) {
    const f = this.tread.module.HEAPF32, i = (this.ptr + offset) >> 2;
    return { x: f[i], y: f[i + 1], z: f[i + 2] };
  }

  get position() {
    return this.#vec(offsets(this.tread).position);
  }

  get velocity() {
    return this.#vec(offsets(this.tread).velocity);
  }

  get up() {
    return this.#vec(offsets(this.tread).up);
  }

  get height() {
    return this.tread.module.HEAPF32[(this.ptr + offsets(this.tread).height) >> 2];
  }

  // Ground state as its name ('on_ground', 'on_steep', 'not_supported', 'in_air').
  get groundState() {
    return GROUND_STATE[this.tread.module.HEAP32[(this.ptr + offsets(this.tread).groundState) >> 2]];
  }

  get ground() {
    return this.tread.memory.read('tread_ground', this.ptr + this.tread.memory.offsetOf('tread_character', 'ground').offset);
  }

  // Everything, as a plain object.
  read() {
    return this.tread.memory.read('tread_character', this.ptr);
  }

  // The reference move for dt seconds with `velocity`; returns the MoveResult (the given one, or this
  // character's own, overwritten by the next move).
  move(world, velocity, dt, result = null) {
    const v = vec3Of(velocity);
    return this.moveXYZ(world, v.x, v.y, v.z, dt, result);
  }

  moveXYZ(world, vx, vy, vz, dt, result = null) {
    const r = result ?? (this.result ??= new MoveResult(this.tread));
    const code = this.tread.module._tw_character_move(world.ptr, this.ptr, vx, vy, vz, dt, r.ptr, r.contactsPtr, r.impulsesPtr);
    if (code !== 0) this.tread.check('tread_character_move', code);
    return r;
  }

  // The character's volume as a query shape (for World.castShape / closest).
  shape() {
    const t = this.tread;
    const out = t.scratch(t.memory.sizeOf('tread_query_shape'), 2);
    t.module._tw_character_shape(this.ptr, out);
    return t.memory.read('tread_query_shape', out);
  }

  center() {
    const t = this.tread;
    const out = t.scratch(12);
    t.module._tw_character_center(this.ptr, out);
    return t.memory.getValue(out, 5);
  }

  // Versioned little-endian bytes (tread_character_save), restorable anywhere with load().
  save() {
    const t = this.tread;
    const size = 200;
    const out = t.scratch(size + 8);
    t.check('tread_character_save', t.module._tread_character_save(this.ptr, out, size, out + size));
    return t.module.HEAPU8.slice(out, out + t.module.HEAPU32[(out + size) >> 2]);
  }

  load(bytes) {
    const t = this.tread;
    const ptr = t.memory.copyU8(bytes);
    try {
      t.check('tread_character_load', t.module._tread_character_load(this.ptr, ptr, bytes.length));
    } finally {
      t.memory.free(ptr);
    }
  }

  free() {
    this.result?.free();
    if (this.owned) this.tread.memory.free(this.ptr);
    this.ptr = 0;
  }
}

// `count` characters side by side in module memory, with their velocities, results and the results' buffers: what a
// batch moves.
export class CharacterArray {
  constructor(tread, count) {
    const mem = tread.memory, cap = capacities(tread);
    this.tread = tread;
    this.length = count;
    this.stride = mem.sizeOf('tread_character');
    this.resultStride = mem.sizeOf('tread_move_result');
    const contactsStride = mem.sizeOf('tread_contact') * cap.contacts, impulsesStride = mem.sizeOf('tread_body_impulse') * cap.impulses;
    this.ptr = mem.alloc(this.stride * count);
    this.velocities = mem.alloc(12 * count);
    this.resultsPtr = mem.alloc(this.resultStride * count);
    this.contactsPtr = mem.alloc(contactsStride * count);
    this.impulsesPtr = mem.alloc(impulsesStride * count);
    this.views = Array.from({ length: count }, (_, i) => new Character(tread, this.ptr + i * this.stride));
    this.results = Array.from({ length: count }, (_, i) =>
      new MoveResult(tread, this.resultsPtr + i * this.resultStride, this.contactsPtr + i * contactsStride, this.impulsesPtr + i * impulsesStride));
  }

  at(i) {
    return this.views[i];
  }

  setVelocity(i, vx, vy, vz) {
    const f = this.tread.module.HEAPF32, k = (this.velocities >> 2) + 3 * i;
    f[k] = vx, f[k + 1] = vy, f[k + 2] = vz;
  }

  // Every character's own move, one after the other (no character-vs-character), from the velocities set.
  moveEach(world, dt) {
    const t = this.tread;
    const failed = t.scratch(4);
    const code = t.module._tw_character_move_many(world.ptr, this.ptr, this.velocities, this.length, dt, this.resultsPtr, this.contactsPtr,
      this.impulsesPtr, failed);
    if (code !== 0) t.check(`tread_character_move (characters[${t.module.HEAP32[failed >> 2]}])`, code);
  }

  free() {
    const mem = this.tread.memory;
    for (const p of [this.ptr, this.velocities, this.resultsPtr, this.contactsPtr, this.impulsesPtr]) mem.free(p);
    this.ptr = this.velocities = this.resultsPtr = this.contactsPtr = this.impulsesPtr = 0;
  }
}

// The batch update: a CharacterArray moved one frame as obstacles to each other (tread_batch_move). In the threaded
// build the moves run on the module's workers and the caller's thread (def.threads, by default the Tread's threads);
// in the other, on the caller's thread. The results are the same bits either way.
export class Batch {
  constructor(tread, def = {}) {
    const t = tread, mem = t.memory;
    this.tread = t;
    const size = mem.sizeOf('tread_batch_def');
    const ptr = t.scratch(size + 4);
    t.module._tw_batch_def_default(ptr);
    mem.write('tread_batch_def', ptr, { threads: t.threads, ...def });
    t.check('tread_batch_create', t.module._tread_batch_create(ptr, ptr + size));
    this.ptr = t.module.HEAPU32[(ptr + size) >> 2];
  }

  // Move the array's characters with their velocities (CharacterArray.setVelocity); results in characters.results.
  move(world, characters, dt) {
    const t = this.tread;
    const code = t.module._tw_batch_move(this.ptr, world.ptr, characters.ptr, characters.velocities, characters.length, dt, characters.resultsPtr,
      characters.contactsPtr, characters.impulsesPtr);
    if (code !== 0) t.check('tread_batch_move', code);
  }

  destroy() {
    if (this.ptr) this.tread.module._tread_batch_destroy(this.ptr);
    this.ptr = 0;
  }
}
