// SPDX-License-Identifier: MIT
// Types of the scene loader and runner (web/scene/load.mjs, run.mjs): docs/SCENES.md's files in JavaScript.
import type { Body, BodyDef, CharacterArray, CharacterSettings, GroundStateName, MotorSettings, Tread, Vec3, World } from '../lib/tread';

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
  crowd: number;
}

export interface SceneBody {
  name: string;
  /** What World.addBody takes. */
  def: BodyDef & { transform: { p: Vec3; q: { x: number; y: number; z: number; w: number } } };
  dynamic: { mass: number; friction: number; gravity: boolean } | null;
}

export interface Scene {
  path: string;
  name: string;
  description: string;
  dt: number;
  duration: number;
  /** round(duration / dt), as the C runner counts. */
  frames: number;
  gravity: Vec3;
  up: Vec3;
  layers: { name: string; walkable_degrees: number }[];
  bodies: SceneBody[];
  characters: SceneCharacter[];
  characters_collide: boolean;
  slow: boolean;
  /** As written; not evaluated here. */
  expectations: object[];
  plot: object;
  pending_penetration: string;
}

/** Parse and check a scene file's text (path names it in messages). Throws SceneError with the C loader's message. */
export function loadScene(tread: Tread, text: string, path?: string): Scene;
/** The scene's world, bodies added in file order. */
export function buildWorld(tread: Tread, scene: Scene): { world: World; bodies: Body[] };
export function frameCount(duration: number, dt: number): number;

export interface TraceFrame { feet: Vec3; velocity: Vec3; ground: GroundStateName; stepped: number; camera: number }
export interface RunResult {
  frames: number;
  /** The running trace hash after each frame (16 hex digits). */
  frameHashes: string[];
  traceHash: string;
  bodyHash: string;
  final: { position: Vec3; velocity: Vec3; ground: GroundStateName }[];
  /** With options.record: per character, every frame. */
  trace: TraceFrame[][] | null;
}

export function runScene(tread: Tread, scene: Scene, options?: {
  record?: boolean;
  onFrame?: (frame: number, state: { world: World; characters: CharacterArray; bodies: Body[] }) => void;
}): RunResult;
/** FNV-1a 64 over float32 values' bytes, continuing from h. */
export function traceHash(h: bigint, values: ArrayLike<number>): bigint;
