// SPDX-License-Identifier: MIT
// Running a scene in JavaScript as the `tread` command's runner does (tools/scene/run.c, run_frame.c), frame for
// frame and float for float: the world first (tread_world_advance), then every character's velocity (the course's
// frame loop, or the movement model through tread_motor_update), then the moves (one tread_batch_move for two or
// more characters that collide, else tread_character_move each), then each frame's record and the camera's step
// smoothing. The per-frame trace hash (FNV-1a 64 over the characters' feet and velocity bits) is the one
// web/native/scene_dump.c prints from the C runner, so equal hashes mean bit-identical runs.
//
// With options.record the run also keeps every frame (feet, velocity, ground, stepped, camera, the penetration probe)
// in the form checks.mjs evaluates. Keyframed paths (motion.mjs) and dynamic bodies (dynamics.mjs) move as in C. Not
// here: the contact listener's sensor events (recorded by the C runner only; they do not change a move), and the penetration
// probe's one-way filter (a one-way platform the feet are below counts as penetrated here).
import * as V from './f32.mjs';
import { buildWorld } from './load.mjs';
import { Dynamics } from './dynamics.mjs';
import { pathVelocity } from './motion.mjs';

const f = Math.fround;
export const CHARACTER_LAYER = 31; // RUN_CHARACTER_LAYER: the batch's characters meet on the last layer
const EPS_T = f(1e-6);

// ---- the trace hash ----------------------------------------------------------------------------------------------

const FNV_START = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = (1n << 64n) - 1n;

// FNV-1a 64 over float32 values' little-endian bytes, continuing from h.
export function traceHash(h, values) {
  const bytes = new Uint8Array(new Float32Array(values).buffer);
  for (const b of bytes) h = ((h ^ BigInt(b)) * FNV_PRIME) & MASK;
  return h;
}
export const hex = (h) => h.toString(16).padStart(16, '0');

// ---- input ------------------------------------------------------------------------------------------------------

// The input entry in force at time t (the last one with entry.t <= t + 1e-6).
export function inputAt(c, t) {
  let found = null;
  const limit = f(t + EPS_T);
  for (const input of c.inputs) {
    if (!(input.t <= limit)) break;
    found = input;
  }
  return found;
}

// Desired velocity perpendicular to up for this frame (run_frame.c's desired_horizontal).
export function desiredHorizontal(input, feet, up, dt) {
  if (!input || input.kind === 'idle' || input.speed <= 0) return V.zero();
  if (input.kind === 'direction') return V.scale(V.normalize(V.reject(input.direction, up)), input.speed);
  const to = V.reject(V.sub(input.target, feet), up);
  const distance = V.length(to);
  if (distance <= EPS_T) return V.zero();
  // Arrive exactly instead of oscillating around the target.
  const speed = distance < f(input.speed * dt) ? f(distance / dt) : input.speed;
  return V.scale(to, f(speed / distance));
}

// ---- characters -------------------------------------------------------------------------------------------------

// The settings a character runs with: the scene's, plus the layers with their own walkable angle as stairs layers,
// plus the batch's layer in both masks when the characters move together (run.c's place_characters).
export function runSettings(scene, c, batched) {
  const s = structuredClone(c.settings);
  if (s.stairs_layer_mask === 0)
    scene.layers.forEach((l, i) => {
      if (i < 32 && l.walkable_degrees > 0) {
        s.stairs_layer_mask = (s.stairs_layer_mask | (1 << i)) >>> 0;
        s.stairs_max_slope_degrees = l.walkable_degrees;
      }
    });
  if (batched) {
    s.collide_mask = (s.collide_mask | (1 << CHARACTER_LAYER)) >>> 0;
    s.ground_mask = (s.ground_mask | (1 << CHARACTER_LAYER)) >>> 0;
  }
  return s;
}

// A character with a motor: the held buttons, the motor and its last move.
export function motorRun(tread, c, ch) {
  return {
    motor: tread.createMotor(c.motor),
    last: tread.createMoveResult(),
    hasLast: false,
    jump: false,
    crouch: false,
    standHeight: ch.height,
    nextInput: 0,
    suppress: f(c.motor.jump_snap_suppress_time),
    crouchHeight: f(c.motor.crouch_height),
  };
}

// The motor's velocity for this frame: buttons from the entries reached by t, the wish from the entry in force,
// crouching through tread_character_set_height (standing only where the body fits).
export function motorVelocity(world, c, ch, m, t, dt) {
  while (m.nextInput < c.inputs.length && c.inputs[m.nextInput].t <= f(t + EPS_T)) {
    const input = c.inputs[m.nextInput++];
    if (input.jump >= 0) m.jump = input.jump === 1;
    if (input.crouch >= 0) m.crouch = input.crouch === 1;
  }
  const height = m.crouch ? m.crouchHeight : m.standHeight;
  const settings = c.runSettings;
  if (settings.shape === 'capsule' && ch.height !== height && height >= f(2 * settings.radius)) ch.setHeight(world, height);
  const wish = desiredHorizontal(inputAt(c, t), ch.position, ch.up, dt);
  const v = m.motor.update({ direction: wish, speed: V.length(wish), jump: m.jump, crouch: m.crouch }, ch, m.hasLast ? m.last : null, dt);
  if (m.motor.jumped) ch.suppressSnap(m.suppress);
  return v;
}

// The course's frame loop: the input's horizontal velocity; along up 0 on walkable ground, else the last velocity
// plus gravity for one frame.
export function courseVelocity(scene, c, ch, t, dt) {
  const up = ch.up;
  const v = desiredHorizontal(inputAt(c, t), ch.position, up, dt);
  const alongUp = ch.groundState === 'on_ground' ? 0 : f(V.dot(ch.velocity, up) + f(V.dot(scene.gravity, up) * dt));
  return V.mad(v, alongUp, up);
}

// Deepest overlap of the character with the world (run_frame.c's probe): tread_world_closest within 1 cm.
export function penetrationOf(world, ch) {
  const d = world.closest(ch.shape(), ch.center(), f(0.01));
  return d.found && d.distance < 0 ? -d.distance : 0;
}

// ---- the run ------------------------------------------------------------------------------------------------------

// Run the scene. Returns { frames, frameHashes, traceHash, bodyHash, final, trace? } (trace: with
// options.record, every frame's { feet, velocity, ground, stepped, camera } per character). options.onFrame(i, state)
// is called after each frame (the viewer draws from it).
export function runScene(tread, scene, options = {}) {
  const dt = scene.dt;
  const n = scene.characters.length;
  const batched = scene.characters_collide && n > 1;
  const { world, bodies } = buildWorld(tread, scene);
  const moving = bodies.filter((_, i) => scene.bodies[i].def.type !== 'static');
  const paths = scene.bodies.map((b, k) => [k, b.path]).filter(([, path]) => path);
  const dynamics = new Dynamics(scene, bodies);
  const chars = tread.createCharacters(n);
  const batch = batched ? tread.createBatch({ capacity: n, character_layer: CHARACTER_LAYER }) : null;
  const smoothing = [];
  const motors = [];
  try {
    scene.characters.forEach((c, i) => {
      c.runSettings = runSettings(scene, c, batched);
      chars.at(i).init(c.runSettings, c.start);
      smoothing.push(tread.createStepSmoothing());
      motors.push(c.has_motor ? motorRun(tread, c, chars.at(i)) : null);
    });
    let hash = FNV_START, bodyHash = FNV_START;
    const frameHashes = [];
    const trace = options.record ? scene.characters.map(() => []) : null;
    const initialPenetration = options.record ? scene.characters.map((_, k) => penetrationOf(world, chars.at(k))) : null;
    for (let i = 0; i < scene.frames; ++i) {
      const t = f(f(i) * dt); // the frame runs from t to t + dt
      // Bodies on a path get the velocities that take them to where the path is at the frame's end (run.c).
      for (const [k, path] of paths) {
        const v = pathVelocity(tread, path, bodies[k].getTransform(), (i + 1) * dt, dt);
        bodies[k].setVelocity(v.linear, v.angular);
      }
      // Dynamic bodies go where the integrator put them at the end of the last frame.
      if (i > 0) dynamics.move();
      world.advance(dt);
      for (const b of moving) {
        const tr = b.getTransform();
        bodyHash = traceHash(bodyHash, [tr.p.x, tr.p.y, tr.p.z, tr.q.x, tr.q.y, tr.q.z, tr.q.w]);
      }
      scene.characters.forEach((c, k) => {
        const ch = chars.at(k);
        const v = motors[k] ? motorVelocity(world, c, ch, motors[k], t, dt) : courseVelocity(scene, c, ch, t, dt);
        chars.setVelocity(k, v.x, v.y, v.z);
      });
      if (batch) batch.move(world, chars, dt);
      else chars.moveEach(world, dt);
      scene.characters.forEach((c, k) => {
        const ch = chars.at(k), result = chars.results[k];
        if (motors[k]) {
          motors[k].last.copyFrom(result);
          motors[k].hasLast = true;
        }
        const stepped = f(result.step_up - result.snap_down);
        smoothing[k].update(stepped, dt);
        if (dynamics.any) dynamics.take(result);
        const p = ch.position, vel = ch.velocity;
        hash = traceHash(hash, [p.x, p.y, p.z, vel.x, vel.y, vel.z]);
        if (trace)
          trace[k].push({
            feet: p, velocity: vel, ground: ch.groundState, stepped, camera: f(V.dot(p, ch.up) + smoothing[k].offset),
            penetration: penetrationOf(world, ch), finite: [p.x, p.y, p.z, vel.x, vel.y, vel.z].every(Number.isFinite),
          });
      });
      // The dynamic bodies take this frame's impulses; the world gets them before the next advance.
      dynamics.step(world, scene.gravity, dt);
      frameHashes.push(hex(hash));
      options.onFrame?.(i, { world, characters: chars, bodies });
    }
    const final = scene.characters.map((_, k) => ({ position: chars.at(k).position, velocity: chars.at(k).velocity, ground: chars.at(k).groundState }));
    const ups = scene.characters.map((_, k) => chars.at(k).up);
    const checkTrace = trace && { dt, ups, start: scene.characters.map((c) => c.start), frames: trace, initialPenetration };
    return { frames: scene.frames, frameHashes, traceHash: hex(hash), bodyHash: hex(bodyHash), final, trace, checkTrace };
  } finally {
    for (const m of motors) m?.motor.free(), m?.last.free();
    for (const s of smoothing) s.free();
    batch?.destroy();
    chars.free();
    world.destroy();
  }
}
