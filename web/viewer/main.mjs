// SPDX-License-Identifier: MIT
// The viewer: tread's WebAssembly build walking a scene in the browser. Loads a scene (?scene=course/S01-stairs-up.json,
// the list, a file or a drop), steps it at the scene's dt (Simulation), lets a person drive one character through
// the movement model, draws it with three.js (Stage, CameraRig, Overlay, Hud), and replays `tread run --trace` files
// (Replay). window.treadViewer is the hook the browser test (web/test/viewer.browser.mjs) reads. Real levels (the
// OpenArena maps `make levels` walks) come converted from the server (serve.mjs, `tread walk MAP --scene`) as scenes.
import * as THREE from 'three';
import { loadTread, loadScene } from '../dist/tread.mjs';
import { BOOM_PROBE, CameraRig } from './camera.mjs';
import { acceptDrops, fetchIndex, fetchLevel, fetchLevels, fetchScene, readPicked } from './catalog.mjs';
import { Hud } from './hud.mjs';
import { Input } from './input.mjs';
import { Overlay } from './overlay.mjs';
import { Panel } from './panel.mjs';
import { Replay, parseTrace } from './replay.mjs';
import { Simulation } from './sim.mjs';
import { Stage } from './stage.mjs';

const DEFAULT_SCENE = 'course/S01-stairs-up.json';
const MAX_FRAME_SECONDS = 0.1; // a longer pause (a hidden tab) does not make the simulation run to catch up
const STEP_BUDGET_MS = 40; // the most simulation time per drawn frame: big scenes slow down instead of freezing
const SLAB_AREA = 4; // a static box this many times the area of everything else is a ground slab, left out of bounds
const FOG = { near: 40, far: 140 }; // metres, the stage's fog around a character
const LEVEL_CEILING = 2.5; // metres over the head: where the overview cuts a level (its roof) away

class App {
  constructor(tread) {
    this.tread = tread;
    this.stage = new Stage(document.getElementById('view'));
    this.rig = new CameraRig(this.stage.camera);
    this.input = new Input(this.stage.canvas);
    this.overlay = new Overlay(this.stage.three);
    this.hud = new Hud(document.getElementById('hud'));
    // Milliseconds a simulation step and a drawn frame take, smoothed (the HUD shows them); behind: the last frame
    // gave up steps to stay interactive.
    this.timing = { stepMs: null, frameMs: null, behind: false };
    // Which of tread's builds runs (loadTread picks it): the threaded one on `threads` threads where the page is
    // crossOriginIsolated (serve.mjs's headers), else the one without threads.
    this.build = { threads: tread.threads, crossOriginIsolated: globalThis.crossOriginIsolated === true };
    this.panel = new Panel(this);
    this.sim = null;
    this.replay = null;
    this.scene = null;
    this.source = null; // { text, path, shipped }
    this.strategy = null; // chosen in the panel; null: the scene's own
    this.controlled = 0;
    this.debug = true;
    this.autopilot = false;
    this.accumulator = 0;
    this.last = null;
    this.errors = [];
    this.rig.clearance = (from, translation) => this.clearance(from, translation);
    this.staticBounds = []; // the static bodies' boxes (World's tread_body_get_aabb), once per scene
    this.staticBoxes = [];
    this.bounds = null; // the scene's bounds the overview last framed (null outside the overview)
    this.stage.canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.rig.zoom(Math.exp(e.deltaY * 0.001));
    }, { passive: false });
    acceptDrops(document.body, document.getElementById('drop-hint'), (file) => this.openFile(file));
  }

  get characterCount() {
    return this.scene?.characters.length ?? 0;
  }

  async start() {
    const params = new URLSearchParams(location.search);
    const wanted = params.get('scene') ?? DEFAULT_SCENE;
    try {
      this.index = await fetchIndex();
      this.panel.setIndex(this.index, wanted);
    } catch (e) {
      this.fail(e);
    }
    if (params.get('strategy')) this.strategy = params.get('strategy');
    if (params.get('camera') === 'first') this.rig.mode = 'first';
    if (params.get('camera') === 'overview') this.rig.overview = true;
    this.levels = await fetchLevels();
    this.panel.setLevels(this.levels);
    if (params.get('level')) await this.openLevel(params.get('level'), Number(params.get('spawn') ?? 0), params.get('shape') ?? 'capsule');
    else await this.openShipped(wanted);
    requestAnimationFrame((now) => this.frame(now));
  }

  fail(error) {
    this.errors.push(String(error.message ?? error));
    this.panel.say(String(error.message ?? error));
    console.error(error);
  }

  async openShipped(path) {
    try {
      this.load({ text: await fetchScene(path), path, shipped: true });
    } catch (e) {
      this.fail(e);
    }
  }

  // A real level, converted by the server from the installed maps package; spawn: the index of its spawn point.
  async openLevel(map, spawn = 0, shape = 'capsule') {
    try {
      const text = await fetchLevel(map, spawn, shape);
      this.load({ text, path: `${map}.json`, shipped: false, level: { map, spawn, shape } });
    } catch (e) {
      this.fail(e);
    }
  }

  openPicked(input) {
    return readPicked(input, (file) => this.openFile(file));
  }

  // A scene (.json) replaces the scene; a trace (.csv) replays over the scene loaded.
  openFile(file) {
    try {
      if (file.name.toLowerCase().endsWith('.csv')) this.startReplay(file.text, file.name);
      else this.load({ text: file.text, path: file.name, shipped: false });
    } catch (e) {
      this.fail(e);
    }
  }

  // Build the scene's world and characters; throws the loader's message for a bad file.
  load(source) {
    const scene = loadScene(this.tread, source.text, source.path);
    let sim;
    try {
      sim = new Simulation(this.tread, scene, { strategy: this.strategy });
    } catch (e) {
      scene.free();
      throw e;
    }
    this.sim?.destroy();
    this.scene?.free(); // the replaced scene's C side
    this.sim = sim;
    this.scene = scene;
    this.source = source;
    this.replay = null;
    this.lastSnapshot = null; // drawn from the new scene from the next frame on
    this.accumulator = 0;
    this.controlled = 0;
    this.stage.setScene(scene);
    this.rig.setUp(scene.up);
    this.rig.boom = null;
    this.rig.framed = null;
    this.staticBounds = []; // the static bodies' boxes; staticBoxes: which of them are box shapes (slab candidates)
    this.staticBoxes = [];
    scene.bodies.forEach((b, i) => {
      if (b.def.type !== 'static') return;
      if (b.def.shape?.type === 'box') this.staticBoxes.push(this.staticBounds.length);
      this.staticBounds.push(sim.run.bodies[i].getAabb());
    });
    this.faceStart(scene);
    this.panel.setScene(scene, source.shipped ? source.path : null, sim.strategy, source.level ?? null);
    this.panel.showTimeline(null);
    this.panel.say(scene.description ? `${scene.name}: ${scene.description}` : scene.name, 'info');
    this.panel.sync(this);
  }

  // Look where the controlled character's scene input first goes (along +X when it has none; a level's spawn faces
  // its angle through an input of speed 0).
  faceStart(scene) {
    const c = scene.characters[this.controlled];
    const input = c?.inputs.find((i) => i.kind !== 'idle' && i.speed > 0) ?? c?.inputs.find((i) => i.kind === 'direction');
    let d = { x: 1, y: 0, z: 0 };
    if (input?.kind === 'direction') d = input.direction;
    else if (input?.kind === 'toward') d = { x: input.target.x - c.start.x, y: input.target.y - c.start.y, z: input.target.z - c.start.z };
    this.rig.face(d);
  }

  restart() {
    if (!this.source) return;
    try {
      this.load(this.source);
    } catch (e) {
      this.fail(e);
    }
  }

  setStrategy(strategy) {
    this.strategy = strategy;
    try {
      this.sim?.setStrategy(strategy);
    } catch (e) {
      this.fail(e);
    }
  }

  control(k) {
    if (!this.sim || k < 0 || k >= this.characterCount) return;
    this.controlled = k;
    this.sim.takeControl(k);
    this.panel.sync(this);
  }

  toggleCamera() {
    this.rig.mode = this.rig.mode === 'first' ? 'third' : 'first';
    this.rig.overview = false;
    this.rig.boom = null;
    this.panel.sync(this);
  }

  toggleOverview() {
    this.rig.overview = !this.rig.overview;
    this.rig.framed = null; // jump to the frame, then follow it
    this.rig.boom = null;
    this.panel.sync(this);
  }

  // How much of the way from `from` along `translation` the camera's sphere travels before the world is in the way
  // (1: all of it): the library's shape cast in the simulation's world, lifts and doors where they are now.
  clearance(from, translation) {
    const world = this.sim?.world;
    if (!world) return 1;
    const hit = world.castShape({ type: 'sphere', radius: BOOM_PROBE }, from, translation);
    return hit.hit ? (hit.started_in_contact ? 0 : hit.fraction) : 1;
  }

  // The scene's bounds now: every body's box (the static ones' from load, the moving ones' where they are) and every
  // character, less a ground slab (a static box over SLAB_AREA times the area of the rest: the course's 100 m
  // floor), so the overview frames the scene rather than the floor under it. { min, max } as THREE.Vector3.
  sceneBounds(snapshot) {
    const boxes = [...this.staticBounds];
    for (const i of this.sim?.moving ?? []) boxes.push(this.sim.run.bodies[i].getAabb());
    const area = (b) => {
      const e = [b.max.x - b.min.x, b.max.y - b.min.y, b.max.z - b.min.z].sort((x, y) => y - x);
      return e[0] * e[1];
    };
    // A character: the segment from its feet up its height, widened by its radius across up.
    const characters = snapshot.characters.map((c) => {
      const r = c.settings?.radius ?? 0.3, h = c.height ?? c.settings?.height ?? 1.8, p = c.position, u = c.up ?? { x: 0, y: 1, z: 0 };
      const box = { min: {}, max: {} };
      for (const k of ['x', 'y', 'z']) {
        const across = r * Math.sqrt(Math.max(0, 1 - u[k] * u[k]));
        box.min[k] = Math.min(p[k], p[k] + u[k] * h) - across;
        box.max[k] = Math.max(p[k], p[k] + u[k] * h) + across;
      }
      return box;
    });
    // The largest static box is a slab when it dwarfs the rest.
    let slab = -1;
    this.staticBoxes.forEach((k) => {
      if (slab < 0 || area(boxes[k]) > area(boxes[slab])) slab = k;
    });
    const union = (list) => {
      if (!list.length) return null;
      const min = new THREE.Vector3(Infinity, Infinity, Infinity), max = new THREE.Vector3(-Infinity, -Infinity, -Infinity);
      for (const b of list) {
        min.min(new THREE.Vector3(b.min.x, b.min.y, b.min.z));
        max.max(new THREE.Vector3(b.max.x, b.max.y, b.max.z));
      }
      return { min, max };
    };
    const rest = union([...boxes.filter((_, k) => k !== slab), ...characters]);
    if (slab >= 0 && rest && area(boxes[slab]) > SLAB_AREA * Math.max(area(rest), 1)) return rest;
    return union([...boxes, ...characters]) ?? { min: new THREE.Vector3(-5, -1, -5), max: new THREE.Vector3(5, 1, 5) };
  }

  setDebug(on) {
    this.debug = on;
    this.hud.visible = on;
    this.overlay.visible = on;
    this.panel.sync(this);
  }

  setAutopilot(on) {
    this.autopilot = on;
    this.panel.sync(this);
  }

  startReplay(text, name) {
    if (!this.scene) throw new Error('load the trace\'s scene first');
    this.replay = new Replay(parseTrace(text, name), this.scene, name);
    this.panel.showTimeline(this.replay);
    this.panel.say(`replaying ${name} (${this.replay.length} frames) over ${this.scene.name}`, 'info');
  }

  leaveReplay() {
    this.replay = null;
    this.panel.showTimeline(null);
  }

  togglePlay() {
    if (!this.replay) return;
    if (!this.replay.playing && this.replay.index >= this.replay.length - 1) this.replay.seek(0);
    this.replay.playing = !this.replay.playing;
    this.panel.updateTimeline(this.replay);
  }

  seek(index) {
    if (!this.replay) return;
    this.replay.seek(index);
    this.replay.playing = false;
    this.panel.updateTimeline(this.replay);
  }

  setReplaySpeed(speed) {
    if (this.replay) this.replay.speed = speed;
  }

  // Step the simulation by the real time passed, in the scene's fixed steps.
  simulate(seconds, keys) {
    const sim = this.sim;
    if (!sim || !this.scene.characters.length && !sim.moving.length) return;
    this.accumulator += seconds;
    const started = performance.now();
    const wish = this.rig.wish(keys);
    const input = this.autopilot ? null : { ...wish, jump: keys.jump, crouch: keys.crouch };
    let steps = 0;
    while (this.accumulator >= sim.dt) {
      sim.step(this.characterCount ? input : null);
      this.accumulator -= sim.dt;
      ++steps;
      if (performance.now() - started > STEP_BUDGET_MS) {
        this.accumulator = 0;
        this.timing.behind = true;
        break;
      }
    }
    // What a step of the whole scene costs (world advance, every character's move, checks), smoothed over about a
    // second of steps: the figure to compare with the step's own length, sim.dt.
    if (steps > 0) this.timing.stepMs = smooth(this.timing.stepMs, (performance.now() - started) / steps, steps);
  }

  frame(now) {
    requestAnimationFrame((t) => this.frame(t));
    const seconds = this.last === null ? 0 : Math.min((now - this.last) / 1000, MAX_FRAME_SECONDS);
    if (this.last !== null) this.timing.frameMs = smooth(this.timing.frameMs, now - this.last, 1);
    this.last = now;
    if (!this.sim) return;
    try {
      this.rig.turn(this.input.takeLook());
      const keys = this.input.state();
      let snapshot, detail = null, events;
      if (this.replay) {
        this.replay.advance(seconds);
        this.panel.updateTimeline(this.replay);
        snapshot = this.replay.snapshot();
        events = this.replay.events(this.controlled);
      } else {
        this.simulate(seconds, keys);
        snapshot = this.sim.snapshot();
        if (this.sim.frame > 0 && this.characterCount) detail = this.sim.detail(this.controlled);
        events = this.sim.events.filter((e) => e.character === this.controlled);
      }
      const c = snapshot.characters[this.controlled];
      const overview = this.rig.overview || !c;
      this.stage.show(snapshot, this.controlled, this.rig.mode === 'first' && !overview);
      this.bounds = overview ? this.sceneBounds(snapshot) : null; // (a crowd's 500 characters cost no time otherwise)
      if (overview) {
        const f = this.rig.placeOverview(this.bounds, seconds);
        this.stage.follow(f.center);
        this.stage.setFog(f.distance, f.distance + 2 * f.radius);
        // A level is closed over its rooms: cut it 2.5 m over the controlled character's head to see them.
        this.stage.setCeiling(this.source?.level && c ? c.position.y + (c.height ?? 1.8) + LEVEL_CEILING : null);
      } else {
        this.rig.place(c, seconds);
        this.stage.follow(c.position);
        this.stage.setFog(FOG.near, FOG.far);
        this.stage.setCeiling(null);
      }
      if (this.debug) this.overlay.update(c, detail, events);
      this.hud.update({
        scene: this.scene.name, mode: this.replay ? 'replay' : this.autopilot ? 'scene inputs' : 'you drive',
        frame: snapshot.frame, time: snapshot.time, strategy: this.sim.strategy, controlled: this.controlled,
        count: this.characterCount, character: c, detail, ground: c?.ground, stepped: c?.stepped, events,
        timing: this.replay ? null : { ...this.timing, dtMs: this.sim.dt * 1000 }, camera: this.cameraState(), build: this.build,
      });
      this.timing.behind = false;
      this.stage.render();
      this.lastSnapshot = snapshot;
    } catch (e) {
      this.fail(e);
      this.sim.destroy();
      this.sim = null;
    }
  }

  // The camera as the HUD and the browser test see it: the mode, where it is and looks, the boom (third person:
  // its length now, its rest length, whether the world cut it) and the bounds the overview frames.
  cameraState() {
    const cam = this.stage.camera, rig = this.rig;
    const v = (p) => ({ x: p.x, y: p.y, z: p.z });
    const overview = rig.overview || !this.characterCount;
    return {
      mode: overview ? 'overview' : rig.mode, position: v(cam.position), direction: v(cam.getWorldDirection(new THREE.Vector3())),
      boom: overview || rig.mode === 'first' ? null : rig.boom, rest: rig.distance, blocked: !overview && rig.mode === 'third' && rig.blocked,
      bounds: this.bounds ? { min: v(this.bounds.min), max: v(this.bounds.max) } : null,
      framed: overview && rig.framed ? { center: v(rig.framed.center), radius: rig.framed.radius, distance: rig.framed.distance } : null,
    };
  }

  // What the browser test reads.
  state() {
    const s = this.lastSnapshot;
    return {
      ready: !!s, scene: this.scene?.name ?? null, frame: s?.frame ?? 0, time: s?.time ?? 0, strategy: this.sim?.strategy ?? null,
      mode: this.replay ? 'replay' : this.autopilot ? 'autopilot' : 'drive', controlled: this.controlled, errors: [...this.errors],
      stepMs: this.timing.stepMs, build: { ...this.build }, camera: this.cameraState(), level: this.source?.level ?? null,
      characters: (s?.characters ?? []).map((c, k) => ({
        name: c.name, position: { ...c.position }, ground: c.ground ?? (this.sim && !this.replay ? this.sim.characters[k]?.groundState ?? null : null),
      })),
    };
  }
}

// An exponential average over about a second's worth (60 samples), `weight` samples at once; the first sample as is.
function smooth(average, sample, weight) {
  if (average === null) return sample;
  const keep = Math.pow(1 - 1 / 60, weight);
  return keep * average + (1 - keep) * sample;
}

async function main() {
  const tread = await loadTread();
  const app = new App(tread);
  window.treadViewer = {
    app,
    state: () => app.state(),
    open: (path) => app.openShipped(path),
    setStrategy: (s) => app.setStrategy(s),
    replay: (text, name = 'trace.csv') => app.openFile({ name, text }),
    openLevel: (map, spawn = 0, shape = 'capsule') => app.openLevel(map, spawn, shape),
    levels: () => app.levels,
  };
  await app.start();
}

main().catch((e) => {
  document.getElementById('message').textContent = `the viewer failed to start: ${e.message ?? e}`;
  console.error(e);
});
