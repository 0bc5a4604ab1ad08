// SPDX-License-Identifier: MIT
// The live simulation behind the viewer: a scene's world and characters stepped one frame at a time, the way the
// JavaScript runner (web/scene/run.mjs, itself the C runner's twin) steps them: bodies on paths get their velocities,
// dynamic bodies go where the runner's integrator put them, the world advances, every character gets its velocity,
// the moves run (one batch when characters collide), the camera's step smoothing absorbs step_up - snap_down.
//
// The one difference is the controlled character: while a person drives it, its velocity comes from the movement
// model (include/tread/motor.h) fed by the keyboard, not from the scene's input list. The other characters follow
// their scene inputs (the course's frame loop, or their own motor) as in `tread run`.
import { buildWorld } from '../dist/scene/load.mjs';
import { Dynamics } from '../dist/scene/dynamics.mjs';
import { pathVelocity } from '../dist/scene/motion.mjs';
import { CHARACTER_LAYER, courseVelocity, motorRun, motorVelocity, runSettings } from '../dist/scene/run.mjs';

const f = Math.fround;

export class Simulation {
  // scene: loadScene's result. options.strategy: a step strategy for every character (null: the scene's).
  constructor(tread, scene, options = {}) {
    this.tread = tread;
    this.scene = scene;
    this.dt = scene.dt;
    const n = scene.characters.length;
    this.batched = scene.characters_collide && n > 1;
    const { world, bodies } = buildWorld(tread, scene);
    this.world = world;
    this.bodies = bodies;
    this.moving = bodies.map((b, i) => i).filter((i) => scene.bodies[i].def.type !== 'static');
    this.paths = scene.bodies.map((b, k) => [k, b.path]).filter(([, path]) => path);
    this.dynamics = new Dynamics(scene, bodies);
    this.chars = tread.createCharacters(n);
    this.batch = this.batched ? tread.createBatch({ capacity: n, character_layer: CHARACTER_LAYER }) : null;
    this.smoothing = [];
    this.scripted = [];
    scene.characters.forEach((c, i) => {
      c.runSettings = runSettings(scene, c, this.batched);
      if (options.strategy) c.runSettings.step_strategy = options.strategy;
      this.chars.at(i).init(c.runSettings, c.start);
      this.smoothing.push(tread.createStepSmoothing());
      this.scripted.push(c.has_motor ? motorRun(tread, c, this.chars.at(i)) : null);
    });
    this.controlled = 0;
    this.player = null;
    this.frame = 0;
    this.events = []; // step events: { frame, character, stepped, at }
    this.driving = n > 0;
    if (n > 0) this.takeControl(0);
  }

  get count() {
    return this.scene.characters.length;
  }

  // Drive character i with the keyboard from now on (its own motor settings when the scene gives them).
  takeControl(i) {
    const c = this.scene.characters[i], ch = this.chars.at(i);
    this.player?.motor.free();
    this.player?.last.free();
    const motor = this.tread.createMotor(c.motor ?? {});
    const settings = motor.settings;
    this.controlled = i;
    this.player = {
      motor, last: this.tread.createMoveResult(), hasLast: false, standHeight: ch.height,
      crouchHeight: f(settings.crouch_height), suppress: f(settings.jump_snap_suppress_time), crouched: false,
    };
  }

  // Change every character's stepping strategy ('sweep', 'contact', 'cast_down', 'riser').
  setStrategy(strategy) {
    this.scene.characters.forEach((c, i) => {
      c.runSettings.step_strategy = strategy;
      this.chars.at(i).setSettings(this.world, { step_strategy: strategy });
    });
  }

  get strategy() {
    return this.count ? this.chars.at(this.controlled).settings.step_strategy : 'sweep';
  }

  // The controlled character's velocity from the person's input: { wish (world direction, perpendicular to up
  // or not), magnitude in [0, 1], jump, crouch }.
  playerVelocity(input) {
    const p = this.player, ch = this.chars.at(this.controlled);
    const settings = this.scene.characters[this.controlled].runSettings;
    const height = input.crouch ? p.crouchHeight : p.standHeight;
    if (settings.shape === 'capsule' && ch.height !== height && height >= f(2 * settings.radius)) ch.setHeight(this.world, height);
    p.crouched = ch.height < p.standHeight;
    const v = p.motor.update({ direction: input.wish, speed: -1, magnitude: input.magnitude, jump: input.jump, crouch: input.crouch },
      ch, p.hasLast ? p.last : null, this.dt);
    if (p.motor.jumped) ch.suppressSnap(p.suppress);
    return v;
  }

  // One frame. input: the person's input for the controlled character, or null to let it follow the scene.
  step(input) {
    const { scene, dt, world, bodies } = this;
    const i = this.frame;
    const t = f(f(i) * dt);
    for (const [k, path] of this.paths) {
      const v = pathVelocity(this.tread, path, bodies[k].getTransform(), (i + 1) * dt, dt);
      bodies[k].setVelocity(v.linear, v.angular);
    }
    if (i > 0) this.dynamics.move();
    world.advance(dt);
    scene.characters.forEach((c, k) => {
      const ch = this.chars.at(k);
      let v;
      if (k === this.controlled && input) v = this.playerVelocity(input);
      else if (this.scripted[k]) v = motorVelocity(world, c, ch, this.scripted[k], t, dt);
      else v = courseVelocity(scene, c, ch, t, dt);
      this.chars.setVelocity(k, v.x, v.y, v.z);
    });
    if (this.batch) this.batch.move(world, this.chars, dt);
    else this.chars.moveEach(world, dt);
    scene.characters.forEach((c, k) => {
      const result = this.chars.results[k];
      const own = k === this.controlled && input ? this.player : this.scripted[k];
      if (own) {
        own.last.copyFrom(result);
        own.hasLast = true;
      }
      const stepped = f(result.step_up - result.snap_down);
      this.smoothing[k].update(stepped, dt);
      if (Math.abs(stepped) > 1e-4) {
        this.events.push({ frame: i + 1, character: k, stepped, at: this.chars.at(k).position });
        if (this.events.length > 200) this.events.shift();
      }
      if (this.dynamics.any) this.dynamics.take(result);
    });
    this.dynamics.step(world, scene.gravity, dt);
    this.frame = i + 1;
  }

  // Where to draw the characters and bodies now.
  snapshot() {
    const characters = this.scene.characters.map((c, k) => {
      const ch = this.chars.at(k);
      return {
        name: c.name, position: ch.position, velocity: ch.velocity, up: ch.up, height: ch.height,
        settings: c.runSettings, cameraOffset: this.smoothing[k].offset,
      };
    });
    const bodies = this.moving.map((i) => ({ index: i, transform: this.bodies[i].getTransform() }));
    return { frame: this.frame, time: this.frame * this.dt, characters, bodies };
  }

  // The controlled character's last move in full (contacts, ground, step_up, snap_down) and its ground.
  detail(k = this.controlled) {
    const ch = this.chars.at(k);
    return { result: this.chars.results[k].read(), ground: ch.ground, groundState: ch.groundState, settings: ch.settings };
  }

  destroy() {
    this.player?.motor.free();
    this.player?.last.free();
    for (const m of this.scripted) m?.motor.free(), m?.last.free();
    for (const s of this.smoothing) s.free();
    this.batch?.destroy();
    this.chars.free();
    this.world.destroy();
  }
}
