// SPDX-License-Identifier: MIT
// The collision world and its bodies (include/tread/tread.h, "world and bodies" and "queries"). A World owns the C
// world; a Body is its id (index and generation), so a removed body's handle is refused by the library, not reused.
import { BODY_FLAGS, BODY_TYPE, SHAPE_TYPE, enumValue } from './enums.mjs';
import { vec3Of, quatOf } from './memory.mjs';

// A flat float array of xyz triples from [[x, y, z], ...], [{x, y, z}, ...] or an already flat array.
function flatVec3(values) {
  if (ArrayBuffer.isView(values)) return values;
  if (values.length && typeof values[0] === 'number') return values;
  const out = new Float32Array(values.length * 3);
  values.forEach((v, i) => {
    const p = vec3Of(v);
    out[3 * i] = p.x, out[3 * i + 1] = p.y, out[3 * i + 2] = p.z;
  });
  return out;
}

function flat(values) {
  if (ArrayBuffer.isView(values)) return values;
  return values.flat ? values.flat(Infinity) : values;
}

export class Body {
  constructor(world, index, generation) {
    this.world = world;
    this.index = index;
    this.generation = generation;
  }

  get #mod() {
    return this.world.tread.module;
  }

  get valid() {
    return this.world.ptr !== 0 && this.#mod._tw_body_is_valid(this.world.ptr, this.index, this.generation) !== 0;
  }

  getTransform() {
    const t = this.world.tread;
    const out = t.scratch(28);
    t.check('tread_body_get_transform', this.#mod._tw_body_get_transform(this.world.ptr, this.index, this.generation, out));
    return t.memory.read('tread_transform', out);
  }

  setTransform(transform) {
    const p = vec3Of(transform.p), q = quatOf(transform.q);
    this.world.tread.check('tread_body_set_transform',
      this.#mod._tw_body_set_transform(this.world.ptr, this.index, this.generation, p.x, p.y, p.z, q.x, q.y, q.z, q.w));
  }

  // The transform at the start of the last advance and now.
  getMotion() {
    const t = this.world.tread;
    const out = t.scratch(56);
    t.check('tread_body_get_motion', this.#mod._tw_body_get_motion(this.world.ptr, this.index, this.generation, out, out + 28));
    return { previous: t.memory.read('tread_transform', out), current: t.memory.read('tread_transform', out + 28) };
  }

  setVelocity(linear, angular) {
    const l = vec3Of(linear), a = vec3Of(angular);
    this.world.tread.check('tread_body_set_velocity',
      this.#mod._tw_body_set_velocity(this.world.ptr, this.index, this.generation, l.x, l.y, l.z, a.x, a.y, a.z));
  }

  getVelocity() {
    const t = this.world.tread;
    const out = t.scratch(24);
    t.check('tread_body_get_velocity', this.#mod._tw_body_get_velocity(this.world.ptr, this.index, this.generation, out, out + 12));
    return { linear: t.memory.getValue(out, 5), angular: t.memory.getValue(out + 12, 5) };
  }

  // A dynamic body's new place and velocity after the game's physics step.
  moveTo(transform, linear, angular) {
    const t = this.world.tread;
    const ptr = t.scratch(28);
    t.memory.write('tread_transform', ptr, { p: vec3Of(transform.p), q: quatOf(transform.q) });
    const l = vec3Of(linear), a = vec3Of(angular);
    t.check('tread_body_move_to', this.#mod._tw_body_move_to(this.world.ptr, this.index, this.generation, ptr, l.x, l.y, l.z, a.x, a.y, a.z));
  }

  setSurfaceVelocity(surface) {
    const t = this.world.tread;
    const ptr = t.scratch(36);
    t.memory.write('tread_surface_velocity', ptr, { linear: vec3Of(surface.linear), angular: vec3Of(surface.angular), center: vec3Of(surface.center) });
    t.check('tread_body_set_surface_velocity', this.#mod._tw_body_set_surface_velocity(this.world.ptr, this.index, this.generation, ptr));
  }

  getAabb() {
    const t = this.world.tread;
    const out = t.scratch(24);
    t.check('tread_body_get_aabb', this.#mod._tw_body_get_aabb(this.world.ptr, this.index, this.generation, out));
    return t.memory.read('tread_aabb', out);
  }

  // Type name and flags ({ one_way, sensor }).
  getType() {
    const t = this.world.tread;
    const out = t.scratch(8);
    t.check('tread_body_get_type', this.#mod._tw_body_get_type(this.world.ptr, this.index, this.generation, out, out + 4));
    const flags = t.module.HEAPU32[(out + 4) >> 2];
    return { type: BODY_TYPE[t.module.HEAP32[out >> 2]], one_way: (flags & BODY_FLAGS.one_way) !== 0, sensor: (flags & BODY_FLAGS.sensor) !== 0 };
  }

  getLayer() {
    const t = this.world.tread;
    const out = t.scratch(4);
    t.check('tread_body_get_layer', this.#mod._tw_body_get_layer(this.world.ptr, this.index, this.generation, out));
    return t.module.HEAPU32[out >> 2];
  }

  remove() {
    this.world.tread.check('tread_world_remove_body', this.#mod._tw_body_remove(this.world.ptr, this.index, this.generation));
  }
}

// What World.view passes its constructor for `def`: a view is made by the constructor too, so it has the class's
// private methods (an object made by Object.create had none, and its queries threw).
const VIEW = Symbol('view');

export class World {
  constructor(tread, def = {}) {
    this.tread = tread;
    if (def === VIEW) return; // (view() sets ptr and owned)
    const mem = tread.memory;
    const defPtr = tread.scratch(mem.sizeOf('tread_world_def') + 4);
    tread.module._tw_world_def_default(defPtr);
    mem.write('tread_world_def', defPtr, def);
    const out = defPtr + mem.sizeOf('tread_world_def');
    tread.check('tread_world_create', tread.module._tread_world_create(defPtr, out));
    this.ptr = tread.module.HEAPU32[out >> 2];
    this.owned = true;
  }

  // A view of a world another object owns (a scene run's, web/scene): destroy() leaves the world to its owner.
  static view(tread, ptr) {
    const world = new World(tread, VIEW);
    return Object.assign(world, { ptr, owned: false });
  }

  destroy() {
    if (this.ptr && this.owned) this.tread.module._tread_world_destroy(this.ptr);
    this.ptr = 0;
  }

  get bodyCount() {
    return this.tread.module._tread_world_body_count(this.ptr);
  }

  // Add a body from a definition with tread_body_def's C field names:
  //   { type: 'static' | 'kinematic' | 'dynamic', shape: { type: 'box', half_extents } | { type: 'sphere', radius } |
  //     { type: 'capsule', radius, half_height } | { type: 'mesh', vertices, indices } |
  //     { type: 'heightfield', count_x, count_z, spacing_x, spacing_z, heights, holes? } |
  //     { type: 'voxels', count_x, count_y, count_z, cell_size, solid },
  //     transform: { p, q }, linear_velocity, angular_velocity, surface: { linear, angular, center }, layer,
  //     one_way, sensor }
  // Shape arrays are copied into the module for the call; the world keeps its own copy.
  addBody(def) {
    const t = this.tread, mem = t.memory, mod = t.module;
    const size = mem.sizeOf('tread_body_def');
    const ptr = mem.alloc(size + 8);
    const owned = [];
    try {
      mod._tw_body_def_default(ptr);
      const shape = def.shape ?? { type: 'box' };
      const values = {
        type: enumValue(BODY_TYPE, def.type ?? 'static', 'body type'),
        transform: def.transform ? { p: vec3Of(def.transform.p), q: quatOf(def.transform.q) } : undefined,
        linear_velocity: def.linear_velocity,
        angular_velocity: def.angular_velocity,
        surface: def.surface ? { linear: vec3Of(def.surface.linear), angular: vec3Of(def.surface.angular), center: vec3Of(def.surface.center) } : undefined,
        layer: def.layer,
        flags: (def.flags ?? 0) | (def.one_way ? BODY_FLAGS.one_way : 0) | (def.sensor ? BODY_FLAGS.sensor : 0),
      };
      mem.write('tread_body_def', ptr, values);
      const put = (name, value) => {
        const field = mem.offsetOf('tread_body_def', name);
        mem.setValue(ptr + field.offset, field.kind, value);
      };
      put('shape.type', enumValue(SHAPE_TYPE, shape.type, 'shape type'));
      switch (shape.type) {
        case 'box':
          if (shape.half_extents !== undefined) put('shape.half_extents', shape.half_extents);
          break;
        case 'sphere':
          put('shape.radius', shape.radius);
          break;
        case 'capsule':
          put('shape.radius', shape.radius);
          put('shape.half_height', shape.half_height);
          break;
        case 'mesh': {
          const v = flatVec3(shape.vertices), idx = flat(shape.indices);
          owned.push(mem.copyF32(v), mem.copyU32(idx));
          put('shape.mesh.vertices', owned[0]);
          put('shape.mesh.vertex_count', v.length / 3);
          put('shape.mesh.indices', owned[1]);
          put('shape.mesh.triangle_count', idx.length / 3);
          break;
        }
        case 'heightfield': {
          const heights = flat(shape.heights);
          owned.push(mem.copyF32(heights));
          put('shape.heightfield.count_x', shape.count_x);
          put('shape.heightfield.count_z', shape.count_z);
          put('shape.heightfield.spacing_x', shape.spacing_x ?? 1);
          put('shape.heightfield.spacing_z', shape.spacing_z ?? 1);
          put('shape.heightfield.heights', owned[0]);
          if (shape.holes) {
            owned.push(mem.copyU8(flat(shape.holes)));
            put('shape.heightfield.holes', owned[1]);
          }
          break;
        }
        case 'voxels':
          owned.push(mem.copyU8(flat(shape.solid)));
          put('shape.voxels.count_x', shape.count_x);
          put('shape.voxels.count_y', shape.count_y);
          put('shape.voxels.count_z', shape.count_z);
          put('shape.voxels.cell_size', shape.cell_size ?? 1);
          put('shape.voxels.solid', owned[0]);
          break;
        default:
          throw new Error(`tread: unknown shape type ${JSON.stringify(shape.type)}`);
      }
      t.check('tread_world_add_body', mod._tread_world_add_body(this.ptr, ptr, ptr + size));
      return new Body(this, mod.HEAPU32[(ptr + size) >> 2], mod.HEAPU32[(ptr + size + 4) >> 2]);
    } finally {
      for (const p of owned) mem.free(p);
      mem.free(ptr);
    }
  }

  // Move every kinematic body by its velocity over dt seconds (before the characters, each frame).
  advance(dt) {
    this.tread.check('tread_world_advance', this.tread.module._tread_world_advance(this.ptr, dt));
  }

  // Move the origin to `offset`: bodies and the given characters (a CharacterArray) shift by -offset.
  shiftOrigin(offset, characters = null) {
    const o = vec3Of(offset);
    this.tread.check('tread_world_shift_origin',
      this.tread.module._tw_world_shift_origin(this.ptr, o.x, o.y, o.z, characters ? characters.ptr : 0, characters ? characters.length : 0));
  }

  // Closest hit of the segment origin -> origin + translation; filter: tread_query_filter's fields (layer_mask, ...).
  castRay(origin, translation, filter = null) {
    const t = this.tread, mem = t.memory;
    const f = this.#filter(filter);
    const out = t.scratch(mem.sizeOf('tread_ray_hit'), 3); // (slot 1 holds the filter: scratch() zeroes its slot)
    const o = vec3Of(origin), d = vec3Of(translation);
    t.check('tread_world_cast_ray', t.module._tw_cast_ray(this.ptr, o.x, o.y, o.z, d.x, d.y, d.z, f, out));
    return mem.read('tread_ray_hit', out);
  }

  // A query shape (tread_query_shape's fields, or Character.shape()) cast from position by translation.
  castShape(shape, position, translation, filter = null) {
    const t = this.tread, mem = t.memory;
    const f = this.#filter(filter);
    const s = this.#shape(shape);
    const out = t.scratch(mem.sizeOf('tread_shape_hit'), 3);
    const p = vec3Of(position), d = vec3Of(translation);
    t.check('tread_world_cast_shape', t.module._tw_cast_shape(this.ptr, s, p.x, p.y, p.z, d.x, d.y, d.z, f, out));
    return mem.read('tread_shape_hit', out);
  }

  // Closest world surface to the shape within maxDistance (signed: negative = penetration).
  closest(shape, position, maxDistance, filter = null) {
    const t = this.tread, mem = t.memory;
    const f = this.#filter(filter);
    const s = this.#shape(shape);
    const out = t.scratch(mem.sizeOf('tread_distance_result'), 3);
    const p = vec3Of(position);
    t.check('tread_world_closest', t.module._tw_closest(this.ptr, s, p.x, p.y, p.z, maxDistance, f, out));
    return mem.read('tread_distance_result', out);
  }

  #filter(filter) {
    if (!filter) return 0;
    const t = this.tread;
    const ptr = t.scratch(t.memory.sizeOf('tread_query_filter'), 1);
    t.module._tw_query_filter_default(ptr);
    const { ignore_body, ...rest } = filter;
    t.memory.write('tread_query_filter', ptr, rest);
    if (ignore_body) t.memory.write('tread_query_filter', ptr, { ignore_body: { index: ignore_body.index, generation: ignore_body.generation } });
    return ptr;
  }

  #shape(shape) {
    const t = this.tread;
    const ptr = t.scratch(t.memory.sizeOf('tread_query_shape'), 2);
    // Over the defaults, as every struct the library takes (the fields written are the caller's; the rest, the
    // library's cookie included, come from tread_query_shape_default()).
    t.module._tw_query_shape_default(ptr);
    t.memory.write('tread_query_shape', ptr, shape);
    return ptr;
  }
}
