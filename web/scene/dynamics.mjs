// SPDX-License-Identifier: MIT
// Dynamic bodies in a JavaScript run, as tools/scene/dynamics.c moves them (docs/SCENES.md, "Dynamic bodies"): the
// runner's own small integrator standing in for a game's physics. Translation only: each body adds up the impulses
// the frame's moves gave it, gets gravity or floor friction, and is swept through the world as its own shape (1 mm
// short of what it meets, sliding along it, up to four times); before the next advance the world gets its new place
// (tread_body_move_to). Float for float the C code's.
import * as V from './f32.mjs';

const f = Math.fround;
const SKIN = f(0.001);
const SUPPORT = f(0.01);
const SUPPORT_COS = f(0.7);
const SLIDES = 4;

// tread_query_box / tread_query_capsule / tread_query_sphere.
function queryShape(shape, axis) {
  const up = V.normalize(axis);
  if (shape.type === 'box') return { type: 'box', radius: 0, half_height: 0, up, half_extents: shape.half_extents };
  if (shape.type === 'capsule') return { type: 'capsule', radius: shape.radius, half_height: shape.half_height, up, half_extents: V.v3(0.3, 0.9, 0.3) };
  return { type: 'sphere', radius: shape.radius, half_height: 0, up: V.v3(0, 1, 0), half_extents: V.v3(0.3, 0.9, 0.3) };
}

export class Dynamics {
  // scene: the loaded scene; bodies: its world bodies (index i = scene body i).
  constructor(scene, bodies) {
    this.list = [];
    this.byId = new Map();
    scene.bodies.forEach((b, i) => {
      if (!b.dynamic) return;
      const d = {
        body: bodies[i],
        params: b.dynamic,
        shape: queryShape(b.def.shape, V.quatRotate(b.def.transform.q, V.v3(0, 1, 0))),
        at: { p: { ...b.def.transform.p }, q: { ...b.def.transform.q } },
        velocity: V.zero(),
        impulse: V.zero(),
      };
      this.list.push(d);
      this.byId.set(`${bodies[i].index}:${bodies[i].generation}`, d);
    });
  }

  get any() {
    return this.list.length > 0;
  }

  // The impulses a move gave dynamic bodies (a MoveResult), applied at the end of the frame.
  take(result) {
    for (const im of result.read().impulses) {
      const d = this.byId.get(`${im.body.index}:${im.body.generation}`);
      if (d) d.impulse = V.mad(d.impulse, im.magnitude, im.direction);
    }
  }

  #sweep(world, d, move) {
    const filter = { ignore_body: d.body };
    let p = d.at.p;
    for (let i = 0; i < SLIDES && V.dot(move, move) > f(1e-14); ++i) {
      const hit = world.castShape(d.shape, p, move, filter);
      if (!hit.hit) {
        p = V.add(p, move);
        break;
      }
      const length = V.length(move), go = f(f(hit.fraction * length) - SKIN);
      if (go > 0) p = V.mad(p, f(go / length), move);
      let rest = V.scale(move, f(1 - (go > 0 ? f(go / length) : 0)));
      const into = V.dot(rest, hit.normal), speedInto = V.dot(d.velocity, hit.normal);
      if (into < 0) rest = V.mad(rest, -into, hit.normal);
      if (speedInto < 0) d.velocity = V.mad(d.velocity, -speedInto, hit.normal);
      move = rest;
    }
    return p;
  }

  #supported(world, d, up) {
    const hit = world.castShape(d.shape, d.at.p, V.scale(up, -f(SUPPORT + SKIN)), { ignore_body: d.body });
    return hit.hit && V.dot(hit.normal, up) >= SUPPORT_COS;
  }

  // The end of the frame: impulses, gravity or friction, and the sweep. Nothing is told to the world yet.
  step(world, gravity, dt) {
    const g = V.length(gravity);
    const up = g > 0 ? V.scale(gravity, f(-1 / g)) : V.v3(0, 1, 0);
    for (const d of this.list) {
      d.velocity = V.mad(d.velocity, f(1 / d.params.mass), d.impulse);
      d.impulse = V.zero();
      const onFloor = d.params.gravity ? this.#supported(world, d, up) : true;
      const alongUp = V.dot(d.velocity, up);
      if (d.params.gravity && !onFloor) d.velocity = V.mad(d.velocity, dt, gravity);
      else if (alongUp < 0 || !d.params.gravity) d.velocity = V.mad(d.velocity, -alongUp, up); // rests
      if (onFloor) {
        const slide = V.reject(d.velocity, up);
        const speed = V.length(slide), drop = f(f(d.params.friction * g) * dt);
        const kept = speed > drop ? V.scale(slide, f(f(speed - drop) / speed)) : V.zero();
        d.velocity = V.add(V.sub(d.velocity, slide), kept);
      }
      if (V.dot(d.velocity, d.velocity) === 0) continue;
      d.at.p = this.#sweep(world, d, V.scale(d.velocity, dt));
    }
  }

  // Before the next advance: every dynamic body's new place and velocity.
  move() {
    for (const d of this.list) d.body.moveTo(d.at, d.velocity, V.zero());
  }
}
