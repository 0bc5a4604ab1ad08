// SPDX-License-Identifier: MIT
// Jolt Physics (the jolt-physics npm package, WebAssembly, single-threaded flavour) as a peers-benchmark engine:
// CharacterVirtual moved with ExtendedUpdate, its stair walking and stick-to-floor on (the course's rule: each
// engine's own best stair and snap features). The interface is tread.mjs's.
import { createRequire } from 'node:module';
import initJolt from 'jolt-physics/wasm-compat';

const LAYER_STATIC = 0;
const LAYER_MOVING = 1;

// gap: the character padding (how far Jolt keeps the shape from surfaces); null: Jolt's default (0.02 m).
export async function load({ gap = null } = {}) {
  const Jolt = await initJolt();
  const version = createRequire(import.meta.url)('jolt-physics/package.json').version;
  return {
    name: 'Jolt',
    version: `jolt-physics ${version} (npm, WebAssembly, wasm-compat single-threaded)`,
    notes: [
      'CharacterVirtual::ExtendedUpdate per character: mWalkStairsStepUp (0, max step, 0), mStickToFloorStepDown (0, -step down, 0), other fields Jolt\'s defaults (min step forward 0.02 m, forward test 0.15 m)',
      `CharacterVirtualSettings: mMaxSlopeAngle 45 degrees, mass 70 kg, mSupportingVolume Plane(up, -radius) as in Jolt's samples, mCharacterPadding ${gap ?? '0.02 (default)'} m, Jolt's defaults otherwise (predictive contact distance 0.1 m, penetration recovery speed 1)`,
      'the capsule is offset up by half its height (RotatedTranslatedShape), so the character\'s position is its feet',
      'static boxes with convex radius 0 (exact boxes, as the course\'s geometry and the other engines); the P3 ground is a MeshShape',
      'character-vs-character: CharacterVsCharacterCollisionSimple with every character',
    ],
    createWorld: () => new JoltWorld(Jolt, gap),
  };
}

class JoltWorld {
  constructor(Jolt, gap) {
    this.Jolt = Jolt;
    this.gap = gap;
    const settings = new Jolt.JoltSettings();
    settings.mMaxWorkerThreads = 0;
    settings.mMaxBodies = 65536;
    const objects = new Jolt.ObjectLayerPairFilterTable(2);
    objects.EnableCollision(LAYER_STATIC, LAYER_MOVING);
    objects.EnableCollision(LAYER_MOVING, LAYER_MOVING);
    const broad = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
    broad.MapObjectToBroadPhaseLayer(LAYER_STATIC, new Jolt.BroadPhaseLayer(0));
    broad.MapObjectToBroadPhaseLayer(LAYER_MOVING, new Jolt.BroadPhaseLayer(1));
    settings.mObjectLayerPairFilter = objects;
    settings.mBroadPhaseLayerInterface = broad;
    settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(broad, 2, objects, 2);
    this.jolt = new Jolt.JoltInterface(settings);
    Jolt.destroy(settings);
    this.system = this.jolt.GetPhysicsSystem();
    this.bodies = this.system.GetBodyInterface();
    this.bodyIds = [];
    // Reused for every call: JavaScript objects wrapping Jolt values are not garbage collected.
    this.vec = new Jolt.Vec3(0, 0, 0);
    this.gravity = new Jolt.Vec3(0, -9.81, 0);
    this.rvec = new Jolt.RVec3(0, 0, 0);
  }

  #addStatic(shape, p, q) {
    const J = this.Jolt;
    const position = new J.RVec3(p.x, p.y, p.z), rotation = new J.Quat(q.x, q.y, q.z, q.w);
    const creation = new J.BodyCreationSettings(shape, position, rotation, J.EMotionType_Static, LAYER_STATIC);
    const body = this.bodies.CreateBody(creation);
    this.bodies.AddBody(body.GetID(), J.EActivation_DontActivate);
    this.bodyIds.push(body.GetID());
    J.destroy(creation), J.destroy(position), J.destroy(rotation);
  }

  addBox(half, p, q) {
    const J = this.Jolt;
    const extent = new J.Vec3(half.x, half.y, half.z);
    this.#addStatic(new J.BoxShape(extent, 0), p, q);
    J.destroy(extent);
  }

  addMesh(vertices, indices, p) {
    const J = this.Jolt;
    const list = new J.VertexList();
    const f3 = new J.Float3(0, 0, 0);
    for (let i = 0; i < vertices.length; i += 3) {
      f3.x = vertices[i], f3.y = vertices[i + 1], f3.z = vertices[i + 2];
      list.push_back(f3);
    }
    const triangles = new J.IndexedTriangleList();
    for (let i = 0; i < indices.length; i += 3) {
      const t = new J.IndexedTriangle(indices[i], indices[i + 1], indices[i + 2], 0);
      triangles.push_back(t);
      J.destroy(t);
    }
    const materials = new J.PhysicsMaterialList();
    const settings = new J.MeshShapeSettings(list, triangles, materials);
    const shape = settings.Create().Get();
    this.#addStatic(shape, p, { x: 0, y: 0, z: 0, w: 1 });
    J.destroy(f3), J.destroy(list), J.destroy(triangles), J.destroy(materials);
  }

  finish() {
    this.system.OptimizeBroadPhase();
  }

  addCharacters(count, character, cvc) {
    const J = this.Jolt;
    this.character = character;
    const half = character.height / 2 - character.radius;
    const capsule = new J.CapsuleShapeSettings(half, character.radius);
    const offset = new J.Vec3(0, character.height / 2, 0);
    const shape = new J.RotatedTranslatedShapeSettings(offset, J.Quat.prototype.sIdentity(), capsule).Create().Get();
    const settings = new J.CharacterVirtualSettings();
    settings.mMass = 70;
    settings.mMaxSlopeAngle = (character.maxSlopeDegrees * Math.PI) / 180;
    settings.mShape = shape;
    settings.mUp = new J.Vec3(0, 1, 0);
    settings.mSupportingVolume = new J.Plane(J.Vec3.prototype.sAxisY(), -character.radius);
    if (this.gap !== null) settings.mCharacterPadding = this.gap;
    const origin = new J.RVec3(0, 0, 0);
    this.chars = [];
    this.cvc = cvc ? new J.CharacterVsCharacterCollisionSimple() : null;
    for (let i = 0; i < count; ++i) {
      const c = new J.CharacterVirtual(settings, origin, J.Quat.prototype.sIdentity(), this.system);
      if (this.cvc) {
        this.cvc.Add(c);
        c.SetCharacterVsCharacterCollision(this.cvc);
      }
      this.chars.push(c);
    }
    this.updateSettings = new J.ExtendedUpdateSettings();
    this.updateSettings.mWalkStairsStepUp = new J.Vec3(0, character.maxStep, 0);
    this.updateSettings.mStickToFloorStepDown = new J.Vec3(0, -character.stepDown, 0);
    this.broadFilter = new J.DefaultBroadPhaseLayerFilter(this.jolt.GetObjectVsBroadPhaseLayerFilter(), LAYER_MOVING);
    this.objectFilter = new J.DefaultObjectLayerFilter(this.jolt.GetObjectLayerPairFilter(), LAYER_MOVING);
    this.bodyFilter = new J.BodyFilter();
    this.shapeFilter = new J.ShapeFilter();
    this.allocator = this.jolt.GetTempAllocator();
    this.groundNames = { [J.EGroundState_OnGround]: 'on_ground', [J.EGroundState_OnSteepGround]: 'on_steep',
      [J.EGroundState_NotSupported]: 'not_supported', [J.EGroundState_InAir]: 'in_air' };
    J.destroy(origin), J.destroy(offset);
  }

  place(i, feet) {
    const c = this.chars[i];
    this.rvec.Set(feet.x, feet.y, feet.z);
    c.SetPosition(this.rvec);
    this.vec.Set(0, 0, 0);
    c.SetLinearVelocity(this.vec);
    // Contacts and ground where it now stands, as a spawn would find them.
    c.RefreshContacts(this.broadFilter, this.objectFilter, this.bodyFilter, this.shapeFilter, this.allocator);
  }

  afterPlace() {}

  update(v, dt) {
    for (let i = 0; i < this.chars.length; ++i) {
      const c = this.chars[i];
      this.vec.Set(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
      c.SetLinearVelocity(this.vec);
      c.ExtendedUpdate(dt, this.gravity, this.updateSettings, this.broadFilter, this.objectFilter, this.bodyFilter, this.shapeFilter, this.allocator);
    }
  }

  feet(i) {
    const p = this.chars[i].GetPosition();
    return { x: p.GetX(), y: p.GetY(), z: p.GetZ() };
  }

  velocity(i) {
    const v = this.chars[i].GetLinearVelocity();
    return { x: v.GetX(), y: v.GetY(), z: v.GetZ() };
  }

  ground(i) {
    return this.groundNames[this.chars[i].GetGroundState()];
  }

  destroy() {
    // The module instance is shared by every world of a run; the bodies go, the rest stays with the instance.
    for (const id of this.bodyIds) this.bodies.RemoveBody(id), this.bodies.DestroyBody(id);
    for (const c of this.chars ?? []) this.Jolt.destroy(c);
    this.Jolt.destroy(this.jolt);
  }
}
