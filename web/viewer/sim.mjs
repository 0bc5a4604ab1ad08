// SPDX-License-Identifier: MIT
// The live simulation behind the viewer: the C scene runner (tools/scene, the `tread` command's own, in the
// WebAssembly module: SceneRun) stepped one frame at a time: bodies on paths, dynamic bodies, the world's advance,
// every character's velocity and the moves (one batch when characters collide), the camera's step smoothing.
//
// The one difference from `tread run` is the controlled character: while a person drives it, its velocity comes from
// the movement model (include/tread/motor.h) fed by the keyboard, handed to the runner for the frame (SceneRun.drive),
// not from the scene's input list. The other characters follow their scene inputs (the course's frame loop, or
// their own motor) as in `tread run`.
import { SceneRun } from '../dist/tread.mjs';

const f = Math.fround;

export class Simulation {
  // scene: loadScene's result. options.strategy: a step strategy for every character (null: the scene's).
  constructor(tread, scene, options = {}) {
    this.tread = tread;
    this.scene = scene;
    this.dt = scene.dt;
    this.run = new SceneRun(tread, scene, { strategy: options.strategy ?? null });
    this.world = this.run.world;
    this.characters = this.run.characters;
    this.moving = scene.bodies.map((b, i) => i).filter((i) => scene.bodies[i].def.type !== 'static');
    this.settings = this.characters.map((ch) => ch.settings); // what the characters run with (drawn, and crouching)
    this.controlled = 0;
    this.player = null;
    this.events = []; // step events: { frame, character, stepped, at }
    if (scene.characters.length > 0) this.takeControl(0);
  }

  get count() {
    return this.scene.characters.length;
  }

  get frame() {
    return this.run.frame;
  }

  // Drive character i with the keyboard from now on (its own motor settings when the scene gives them).
  takeControl(i) {
    const c = this.scene.characters[i], ch = this.characters[i];
    this.player?.motor.free();
    this.player?.last.free();
    const motor = this.tread.createMotor(c.motor ?? {});
    const settings = motor.settings;
    this.controlled = i;
    this.player = {
      motor, last: this.tread.createMoveResult(), hasLast: false, standHeight: this.settings[i].height,
      crouchHeight: f(settings.crouch_height), suppress: f(settings.jump_snap_suppress_time), crouched: ch.height < this.settings[i].height,
    };
  }

  // Change every character's stepping strategy ('sweep', 'contact', 'cast_down', 'riser').
  setStrategy(strategy) {
    this.characters.forEach((ch, i) => {
      ch.setSettings(this.world, { step_strategy: strategy });
      this.settings[i] = ch.settings;
    });
  }

  get strategy() {
    return this.count ? this.settings[this.controlled].step_strategy : 'sweep';
  }

  // The controlled character's velocity from the person's input: { wish (world direction, perpendicular to up
  // or not), magnitude in [0, 1], jump, crouch }.
  playerVelocity(input) {
    const p = this.player, ch = this.characters[this.controlled], settings = this.settings[this.controlled];
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
    const run = this.run, k0 = this.controlled;
    run.advance();
    if (input && this.count) run.drive(k0, this.playerVelocity(input));
    run.move();
    if (input && this.count) {
      this.player.last.copyFrom(run.results[k0]);
      this.player.hasLast = true;
    }
    this.characters.forEach((ch, k) => {
      const stepped = run.record(k).stepped;
      if (Math.abs(stepped) > 1e-4) {
        this.events.push({ frame: run.frame, character: k, stepped, at: ch.position });
        if (this.events.length > 200) this.events.shift();
      }
    });
  }

  // Where to draw the characters and bodies now.
  snapshot() {
    const characters = this.scene.characters.map((c, k) => {
      const ch = this.characters[k];
      return {
        name: c.name, position: ch.position, velocity: ch.velocity, up: ch.up, height: ch.height,
        settings: this.settings[k], cameraOffset: this.run.cameraOffset(k),
      };
    });
    const bodies = this.moving.map((i) => ({ index: i, transform: this.run.bodies[i].getTransform() }));
    return { frame: this.frame, time: this.frame * this.dt, characters, bodies };
  }

  // The controlled character's last move in full (contacts, ground, step_up, snap_down) and its ground.
  detail(k = this.controlled) {
    const ch = this.characters[k];
    return { result: this.run.results[k].read(), ground: ch.ground, groundState: ch.groundState, settings: this.settings[k] };
  }

  destroy() {
    this.player?.motor.free();
    this.player?.last.free();
    this.run.end();
  }
}
