// SPDX-License-Identifier: MIT
// Types of the scene files' wrapper (web/scene/scene.mjs): docs/SCENES.md's files, loaded, run and checked by the C
// scene library in the WebAssembly module.
import type { Body, BodyDef, Character, CharacterSettings, GroundStateName, MotorSettings, MoveResult, Tread, Vec3, Vec3Like, World } from '../lib/tread';

/** A scene file the C loader refused; the message is its own ("<file>: <json path>: <what>"). */
export class SceneError extends Error {}

export interface SceneInput {
  t: number;
  kind: 'idle' | 'direction' | 'toward';
  direction: Vec3;
  target: Vec3;
  speed: number;
  /** 1 pressed, 0 released, -1 unchanged (with a motor). */
  jump: -1 | 0 | 1;
  crouch: -1 | 0 | 1;
}

export interface SceneCharacter {
  name: string;
  start: Vec3;
  settings: CharacterSettings;
  has_motor: boolean;
  motor: MotorSettings | null;
  inputs: SceneInput[];
  /** Index into Scene.crowds of the crowd that made it; -1: listed in "characters". */
  crowd: number;
}

export interface SceneBody {
  name: string;
  /** What World.addBody takes. */
  def: BodyDef & { transform: { p: Vec3; q: { x: number; y: number; z: number; w: number } } };
  /** Moves along a keyframed path. */
  path: boolean;
  dynamic: { mass: number; friction: number; gravity: boolean } | null;
}

/** A loaded scene: the C library's, with what it holds read into plain objects. free() releases the C scene. */
export class Scene {
  readonly path: string;
  readonly name: string;
  readonly description: string;
  readonly dt: number;
  readonly duration: number;
  /** round(duration / dt), as the C runner counts. */
  readonly frames: number;
  readonly gravity: Vec3;
  readonly up: Vec3;
  readonly layers: { name: string; walkable_degrees: number }[];
  readonly bodies: SceneBody[];
  readonly characters: SceneCharacter[];
  readonly crowds: { name: string; first: number; count: number }[];
  readonly characters_collide: boolean;
  readonly slow: boolean;
  readonly pending_penetration: string;
  /** Expectations in the file. */
  readonly checkCount: number;
  free(): void;
}

/** Parse and check a scene file's text (path names it in messages). Throws SceneError with the C loader's message. */
export function loadScene(tread: Tread, text: string, path?: string): Scene;
/** The scene's bodies in a new World, in file order (the caller destroys it). */
export function buildWorld(tread: Tread, scene: Scene): { world: World; bodies: Body[] };

/** One character at the end of one frame, as the C runner records it. */
export interface TraceFrame {
  feet: Vec3;
  velocity: Vec3;
  ground: GroundStateName;
  /** The move's step_up - snap_down. */
  stepped: number;
  /** Height along up of the camera: the feet's plus the step smoothing's offset. */
  camera: number;
  penetration: number;
  overlap: number;
  unburied: number;
  finite: boolean;
  crushed: boolean;
}

/** An expectation or invariant's result, as `tread run` prints it. */
export interface CheckResult {
  name: string;
  passed: boolean;
  value: number;
  value_text: string;
  detail: string;
  key: boolean;
  pending: boolean;
}

/** The library call that stopped a run. */
export interface RunFailure { character: string; frame: number; t: number; call: string; code: string; message: string }

export interface RunResult {
  frames: number;
  /** The running trace hash after each frame (16 hex digits; `tread run --json`'s trace_hash after the last). */
  frameHashes: string[];
  traceHash: string;
  bodyHash: string;
  failure: RunFailure | null;
  checks: CheckResult[];
  passed: boolean;
  final: { position: Vec3; velocity: Vec3; ground: GroundStateName }[];
  /** With options.record: per character, every frame. */
  trace: TraceFrame[][] | null;
}

/** Run the scene to its end as `tread run` does and evaluate its checks. */
export function runScene(tread: Tread, scene: Scene, options?: { strategy?: string | null; record?: boolean }): RunResult;

/** The scene's checks over frames another engine ran: frames[character][frame]. */
export function judgeFrames(tread: Tread, scene: Scene, frames: Partial<TraceFrame>[][], initialPenetration: number[]): RunResult;

/** The course's frame loop for character c (what the runner gives a character without a motor). */
export function courseVelocity(tread: Tread, scene: Scene, c: number, t: number, dt: number, feet: Vec3Like, velocity: Vec3Like, up: Vec3Like, onGround: boolean): Vec3;

/** A run frame by frame: each frame advance(), then optionally drive(k, velocity), then move(); step() is both. */
export class SceneRun {
  constructor(tread: Tread, scene: Scene, options?: { strategy?: string | null });
  readonly world: World;
  readonly characters: Character[];
  readonly results: MoveResult[];
  readonly bodies: Body[];
  /** Frames begun so far. */
  readonly frame: number;
  readonly failure: RunFailure | null;
  advance(): void;
  /** This frame only, character k moves at velocity instead of its scene input (between advance and move). */
  drive(k: number, velocity: Vec3Like): void;
  move(): void;
  step(): void;
  record(k: number): TraceFrame;
  cameraOffset(k: number): number;
  end(): void;
}
