// SPDX-License-Identifier: MIT
// Rapier (the @dimforge/rapier3d-compat npm package, WebAssembly) as a peers-benchmark engine: its
// KinematicCharacterController with autostep and snap-to-ground (the course's rule: each engine's own best stair and
// snap features) moving a capsule on a kinematic position-based body. The interface is tread.mjs's.
import RAPIER from '@dimforge/rapier3d-compat';

// gap: the KCC's offset (its gap to surfaces, tread's skin); null: 0.01 m, what Rapier's examples use.
export async function load({ gap = null } = {}) {
  const offset = gap ?? 0.01;
  // The compat package's init() warns that it takes no arguments in a future version; it works as documented today.
  const warn = console.warn;
  console.warn = () => {};
  try {
    await RAPIER.init();
  } finally {
    console.warn = warn;
  }
  const version = RAPIER.version();
  return {
    name: 'Rapier',
    version: `@dimforge/rapier3d-compat ${version} (npm, WebAssembly)`,
    notes: [
      `KinematicCharacterController (offset ${offset} m${gap === null ? ', as in Rapier\'s examples' : ''}): enableAutostep(max step, 0.1, false), enableSnapToGround(step down), setMaxSlopeClimbAngle and setMinSlopeSlideAngle 45 degrees; one controller for every character`,
      'each character a capsule collider on a kinematic position-based body: computeColliderMovement, then setNextKinematicTranslation, then one world.step() a frame (timed: it is what moves the colliders Rapier\'s queries see)',
      'without character-vs-character the controller skips kinematic colliders (QueryFilterFlags.EXCLUDE_KINEMATIC), so characters pass through each other',
      'ground state: computedGrounded() only (on_ground or in_air); the KCC has no steep or not-supported state',
      'Rapier\'s snap-to-ground is not a stick-to-floor reach like Jolt\'s and tread\'s: it snaps only while it was grounded and the motion goes down',
    ],
    createWorld: () => new RapierWorld(offset),
  };
}

class RapierWorld {
  constructor(offset) {
    this.offset = offset;
    this.world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    this.stepSeconds = 0;
  }

  addBox(half, p, q) {
    this.world.createCollider(RAPIER.ColliderDesc.cuboid(half.x, half.y, half.z).setTranslation(p.x, p.y, p.z).setRotation(q));
  }

  addMesh(vertices, indices, p) {
    this.world.createCollider(RAPIER.ColliderDesc.trimesh(new Float32Array(vertices), new Uint32Array(indices)).setTranslation(p.x, p.y, p.z));
  }

  finish() {}

  addCharacters(count, character, cvc) {
    this.half = character.height / 2;
    this.bodies = [];
    this.colliders = [];
    for (let i = 0; i < count; ++i) {
      const body = this.world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased());
      const collider = this.world.createCollider(RAPIER.ColliderDesc.capsule(character.height / 2 - character.radius, character.radius), body);
      this.bodies.push(body);
      this.colliders.push(collider);
    }
    const k = (this.controller = this.world.createCharacterController(this.offset));
    k.enableAutostep(character.maxStep, 0.1, false);
    k.enableSnapToGround(character.stepDown);
    k.setMaxSlopeClimbAngle((character.maxSlopeDegrees * Math.PI) / 180);
    k.setMinSlopeSlideAngle((character.maxSlopeDegrees * Math.PI) / 180);
    this.filter = cvc ? undefined : RAPIER.QueryFilterFlags.EXCLUDE_KINEMATIC;
    this.grounded = new Array(count).fill(false);
    this.velocities = new Float32Array(3 * count);
    this.desired = { x: 0, y: 0, z: 0 };
    this.next = { x: 0, y: 0, z: 0 };
  }

  place(i, feet) {
    const centre = { x: feet.x, y: feet.y + this.half, z: feet.z };
    this.bodies[i].setTranslation(centre, true);
    this.bodies[i].setNextKinematicTranslation(centre);
    this.grounded[i] = false;
    this.velocities.fill(0, 3 * i, 3 * i + 3);
  }

  // After place() calls: the colliders and the broad phase where the bodies now are, before the next move.
  afterPlace() {
    this.world.propagateModifiedBodyPositionsToColliders();
    this.world.step();
  }

  update(v, dt) {
    this.world.timestep = dt;
    const k = this.controller, d = this.desired, next = this.next;
    for (let i = 0; i < this.bodies.length; ++i) {
      d.x = v[3 * i] * dt, d.y = v[3 * i + 1] * dt, d.z = v[3 * i + 2] * dt;
      k.computeColliderMovement(this.colliders[i], d, this.filter);
      const m = k.computedMovement();
      this.grounded[i] = k.computedGrounded();
      const p = this.bodies[i].translation();
      next.x = p.x + m.x, next.y = p.y + m.y, next.z = p.z + m.z;
      this.bodies[i].setNextKinematicTranslation(next);
      this.velocities[3 * i] = m.x / dt, this.velocities[3 * i + 1] = m.y / dt, this.velocities[3 * i + 2] = m.z / dt;
    }
    const started = performance.now();
    this.world.step();
    this.stepSeconds += (performance.now() - started) / 1000;
  }

  feet(i) {
    const p = this.bodies[i].translation();
    return { x: p.x, y: p.y - this.half, z: p.z };
  }

  velocity(i) {
    return { x: this.velocities[3 * i], y: this.velocities[3 * i + 1], z: this.velocities[3 * i + 2] };
  }

  ground(i) {
    return this.grounded[i] ? 'on_ground' : 'in_air';
  }

  destroy() {
    this.world.free();
  }
}
