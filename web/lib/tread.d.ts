// SPDX-License-Identifier: MIT
// Types of tread's JavaScript wrapper (web/lib/tread.mjs). Data objects carry the C structs' field names
// (include/tread/types.h, motor.h), so the C documentation is theirs too; methods are camelCase. Units: metres,
// seconds, radians (degrees where a field's name says so).

export interface Vec3 { x: number; y: number; z: number }
/** A vector as {x, y, z}, [x, y, z] or a typed array of three. */
export type Vec3Like = Vec3 | readonly [number, number, number] | Float32Array;
export interface Quat { x: number; y: number; z: number; w: number }
export type QuatLike = Quat | readonly [number, number, number, number];
export interface Transform { p: Vec3; q: Quat }
export interface TransformLike { p?: Vec3Like; q?: QuatLike }
export interface Aabb { min: Vec3; max: Vec3 }
export interface BodyId { index: number; generation: number }

export type ResultName = 'TREAD_OK' | 'TREAD_ERR_NULL_ARGUMENT' | 'TREAD_ERR_NOT_FINITE' | 'TREAD_ERR_INVALID_SHAPE' | 'TREAD_ERR_INVALID_MESH'
  | 'TREAD_ERR_INVALID_ARGUMENT' | 'TREAD_ERR_INVALID_ID' | 'TREAD_ERR_OUT_OF_MEMORY' | 'TREAD_ERR_BLOCKED' | 'TREAD_ERR_UNINITIALIZED';
export type ShapeTypeName = 'sphere' | 'capsule' | 'box' | 'mesh' | 'heightfield' | 'voxels';
export type BodyTypeName = 'static' | 'kinematic' | 'dynamic';
export type QueryShapeName = 'sphere' | 'capsule' | 'box';
export type GroundStateName = 'on_ground' | 'on_steep' | 'not_supported' | 'in_air';
export type StepStrategyName = 'sweep' | 'contact' | 'cast_down' | 'riser';
export type JumpModeName = 'height' | 'strength_drag';
export type JumpKindName = 'none' | 'ground' | 'air' | 'wall';
export type LeaveGroundName = 'add_velocity' | 'add_upward_velocity' | 'do_nothing';

export const RESULT: readonly ResultName[];
export const SHAPE_TYPE: readonly ShapeTypeName[];
export const BODY_TYPE: readonly BodyTypeName[];
export const QUERY_SHAPE: readonly QueryShapeName[];
export const GROUND_STATE: readonly GroundStateName[];
export const STEP_STRATEGY: readonly StepStrategyName[];
export const JUMP_MODE: readonly JumpModeName[];
export const JUMP_KIND: readonly JumpKindName[];
export const LEAVE_GROUND: readonly LeaveGroundName[];
export const BODY_FLAGS: { readonly one_way: 1; readonly sensor: 2 };

/** A failed library call: `code` is the result's name, the message the library's own. */
export class TreadError extends Error {
  readonly call: string;
  readonly code: ResultName;
}

// ---- definitions ----------------------------------------------------------------------------------------------

export type ShapeDef =
  | { type: 'box'; half_extents?: Vec3Like }
  | { type: 'sphere'; radius: number }
  | { type: 'capsule'; radius: number; half_height: number }
  /** vertices: xyz triples (flat or as vectors); indices: 3 per triangle. Copied by the world. */
  | { type: 'mesh'; vertices: ArrayLike<number> | readonly Vec3Like[]; indices: ArrayLike<number> }
  /** heights: count_x * count_z, row-major in x; holes: (count_x - 1) * (count_z - 1) flags. */
  | { type: 'heightfield'; count_x: number; count_z: number; spacing_x?: number; spacing_z?: number; heights: ArrayLike<number>; holes?: ArrayLike<number> | null }
  /** solid: count_x * count_y * count_z flags, index (k * count_y + j) * count_x + i. */
  | { type: 'voxels'; count_x: number; count_y: number; count_z: number; cell_size?: number; solid: ArrayLike<number> };

export interface SurfaceVelocity { linear?: Vec3Like; angular?: Vec3Like; center?: Vec3Like }

/** tread_body_def: a static body at the origin unless said otherwise. */
export interface BodyDef {
  type?: BodyTypeName;
  shape: ShapeDef;
  transform?: TransformLike;
  linear_velocity?: Vec3Like;
  angular_velocity?: Vec3Like;
  surface?: SurfaceVelocity;
  layer?: number;
  one_way?: boolean;
  sensor?: boolean;
  /** Raw tread_body_flags bits, or-ed with one_way and sensor. */
  flags?: number;
}

/** tread_character_settings; every field optional where settings are given (the rest default). */
export interface CharacterSettings {
  shape: QueryShapeName;
  radius: number;
  height: number;
  up: Vec3;
  max_slope_degrees: number;
  max_step_height: number;
  min_step_depth: number;
  step_down_distance: number;
  max_snap_speed: number;
  ground_probe_distance: number;
  skin: number;
  max_slide_iterations: number;
  collide_mask: number;
  ground_mask: number;
  recovery_speed: number;
  mass: number;
  max_strength: number;
  keep_horizontal_speed: boolean;
  stairs_layer_mask: number;
  stairs_max_slope_degrees: number;
  step_strategy: StepStrategyName;
  contact_step: { search_overshoot: number };
  riser: { depth: number; radius_scale: number; speed_scale: number; fall_scale: number };
}
export type CharacterSettingsInit = Partial<Omit<CharacterSettings, 'up' | 'contact_step' | 'riser'>> & {
  up?: Vec3Like;
  contact_step?: Partial<CharacterSettings['contact_step']>;
  riser?: Partial<CharacterSettings['riser']>;
};

export interface Ground {
  state: GroundStateName;
  normal: Vec3;
  point: Vec3;
  distance: number;
  velocity: Vec3;
  body: BodyId;
  /** the character of a batch it stands on: its index (body is null); -1 otherwise */
  character: number;
}

export interface Contact { separation: number; point: Vec3; normal: Vec3; surface_normal: Vec3; body: BodyId; /** another character of a batch: its index (body is null); -1 for a body */ character: number; feature: number }
export interface BodyImpulse { body: BodyId; point: Vec3; direction: Vec3; magnitude: number }

/** tread_move_result, as MoveResult.read() gives it, with the move's buffers: `contacts` the first
 * TREAD_MAX_MOVE_CONTACTS (16) surfaces it met while moving, `impulses` what it gave dynamic bodies (at most 8). */
export interface MoveResultData {
  position: Vec3; velocity: Vec3; ground: Ground; step_up: number; snap_down: number;
  contact_count: number; moving_contact_count: number; impulse_count: number; contacts_overflow: boolean; impulses_overflow: boolean;
  crushed: boolean; started_on_ground: boolean; held_by_riser: boolean; carried: Vec3; ground_turn: Quat; ground_yaw: number;
  pushed: Vec3; crushed_by: BodyId; crushed_character: number; crushed_aside: number; unburied: number;
  contacts: Contact[]; impulses: BodyImpulse[];
}

/** tread_motor_settings. */
export interface MotorSettings {
  max_speed: number; ground_acceleration: number; air_acceleration: number; friction: number; gravity: number;
  terminal_speed: number; jump_mode: JumpModeName; jump_height: number; jump_strength: number; jump_drag: number;
  jump_cut: number; coyote_time: number; jump_buffer_time: number; max_air_jumps: number; wall_jump: boolean;
  jump_up_bias: number; jump_snap_suppress_time: number; crouch_height: number; crouch_speed_scale: number;
  leave_ground: LeaveGroundName;
}

export interface MotorState {
  velocity: Vec3; ground_velocity: Vec3; jump_velocity: Vec3; move_velocity: Vec3; time_since_grounded: number;
  jump_buffer: number; jump_phase: number; grounded: boolean; jump_held: boolean; rising: boolean; jump_cut_done: boolean;
  jumped: boolean; last_jump: JumpKindName;
}

/** tread_motor_input: a frame's wish. */
export interface MotorInput { direction?: Vec3Like; speed?: number; magnitude?: number; jump?: boolean; crouch?: boolean }

export interface QueryShape { type: QueryShapeName; radius: number; half_height: number; up: Vec3; half_extents: Vec3; skin: number }
export interface QueryFilter { layer_mask?: number; ignore_body?: BodyId; include_sensors?: boolean }
export interface RayHit { hit: boolean; fraction: number; point: Vec3; normal: Vec3; body: BodyId; /** another character of a batch: its index (body is null); -1 for a body */ character: number; feature: number }
export interface ShapeHit {
  hit: boolean; started_in_contact: boolean; fraction: number; penetration: number; point: Vec3; normal: Vec3;
  surface_normal: Vec3; body: BodyId; /** another character of a batch: its index (body is null); -1 for a body */ character: number; feature: number;
}
export interface DistanceResult { found: boolean; distance: number; point_on_shape: Vec3; point_on_world: Vec3; normal: Vec3; body: BodyId; /** another character of a batch: its index (body is null); -1 for a body */ character: number; feature: number }

// ---- objects ----------------------------------------------------------------------------------------------------

export class Body implements BodyId {
  readonly world: World;
  readonly index: number;
  readonly generation: number;
  readonly valid: boolean;
  getTransform(): Transform;
  /** Teleport (characters are not pushed). */
  setTransform(transform: TransformLike): void;
  /** The transform at the start of the last advance, and now. */
  getMotion(): { previous: Transform; current: Transform };
  /** A kinematic body's velocities (m/s, rad/s about world axes), integrated by World.advance. */
  setVelocity(linear: Vec3Like, angular: Vec3Like): void;
  getVelocity(): { linear: Vec3; angular: Vec3 };
  /** A dynamic body's new place and velocity after the game's physics step (before World.advance). */
  moveTo(transform: TransformLike, linear: Vec3Like, angular: Vec3Like): void;
  setSurfaceVelocity(surface: SurfaceVelocity): void;
  getAabb(): Aabb;
  getType(): { type: BodyTypeName; one_way: boolean; sensor: boolean };
  getLayer(): number;
  remove(): void;
}

export class World {
  readonly tread: Tread;
  readonly bodyCount: number;
  addBody(def: BodyDef): Body;
  /** Move every kinematic body by its velocity over dt seconds; call before the characters' moves each frame. */
  advance(dt: number): void;
  shiftOrigin(offset: Vec3Like, characters?: CharacterArray | null): void;
  castRay(origin: Vec3Like, translation: Vec3Like, filter?: QueryFilter | null): RayHit;
  castShape(shape: Partial<QueryShape>, position: Vec3Like, translation: Vec3Like, filter?: QueryFilter | null): ShapeHit;
  closest(shape: Partial<QueryShape>, position: Vec3Like, maxDistance: number, filter?: QueryFilter | null): DistanceResult;
  destroy(): void;
}

export class MoveResult {
  readonly step_up: number;
  readonly snap_down: number;
  read(): MoveResultData;
  copyFrom(other: MoveResult): void;
  free(): void;
}

export class Character {
  /** Validate settings (missing fields default) and place the feet. */
  init(settings: CharacterSettingsInit, position: Vec3Like): this;
  readonly settings: CharacterSettings;
  readonly position: Vec3;
  readonly velocity: Vec3;
  readonly up: Vec3;
  readonly height: number;
  readonly groundState: GroundStateName;
  readonly ground: Ground;
  /** The last move's result (this character's own buffer), null before the first move. */
  readonly result: MoveResult | null;
  setSettings(world: World | null, settings: CharacterSettingsInit): void;
  /** Crouch or stand with the feet fixed; false when the taller shape does not fit. */
  setHeight(world: World, height: number): boolean;
  setPosition(position: Vec3Like): void;
  suppressSnap(seconds: number): void;
  /** The reference move: returns `result`, or this character's own result buffer. */
  move(world: World, velocity: Vec3Like, dt: number, result?: MoveResult | null): MoveResult;
  moveXYZ(world: World, vx: number, vy: number, vz: number, dt: number, result?: MoveResult | null): MoveResult;
  shape(): QueryShape;
  center(): Vec3;
  read(): { settings: CharacterSettings; position: Vec3; velocity: Vec3; ground: Ground; snap_suppress_time: number; max_slope_cos: number; stairs_slope_cos: number };
  save(): Uint8Array;
  load(bytes: Uint8Array): void;
  free(): void;
}

/** Characters side by side in module memory, with a velocity and a result each: what a Batch moves. */
export class CharacterArray {
  readonly length: number;
  readonly results: readonly MoveResult[];
  at(i: number): Character;
  setVelocity(i: number, vx: number, vy: number, vz: number): void;
  /** Each character's own move with its velocity, no character-vs-character. */
  moveEach(world: World, dt: number): void;
  free(): void;
}

/** threads: threads the moves run on, the caller's included (the Tread's threads by default; the threaded build only). */
export interface BatchDef { capacity?: number; character_layer?: number; separation_passes?: number; threads?: number }

/** One frame of many characters as obstacles to each other (tread_batch_move; one thread in this build). */
export class Batch {
  move(world: World, characters: CharacterArray, dt: number): void;
  destroy(): void;
}

export class Motor {
  settings: MotorSettings;
  readonly state: MotorState;
  /** The last update started a jump: pass settings.jump_snap_suppress_time to Character.suppressSnap. */
  readonly jumped: boolean;
  reset(): void;
  /** The velocity to hand to Character.move this frame; lastMove is null before the first move. */
  update(input: MotorInput, character: Character, lastMove: MoveResult | null, dt: number): Vec3;
  free(): void;
}

export class StepSmoothing {
  readonly offset: number;
  update(offset: number, dt: number): number;
  free(): void;
}

export class Tread {
  readonly version: { major: number; minor: number; patch: number };
  /** Threads a batch moves characters on, the caller's included: 1 in the build without threads. */
  readonly threads: number;
  /** The emscripten module (heap views, raw exports). */
  readonly module: any;
  errorMessage(): string;
  /** The project's deterministic sine, cosine and exponential: float in, float out, the same bits everywhere. */
  sin(x: number): number;
  cos(x: number): number;
  exp(x: number): number;
  quatFromAxisAngle(axis: Vec3Like, radians: number): Quat;
  characterSettingsDefault(): CharacterSettings;
  motorSettingsDefault(): MotorSettings;
  createWorld(def?: { body_capacity?: number }): World;
  createCharacter(settings?: CharacterSettingsInit, position?: Vec3Like): Character;
  createCharacters(count: number): CharacterArray;
  createBatch(def?: BatchDef): Batch;
  createMotor(settings?: Partial<MotorSettings>): Motor;
  createStepSmoothing(decay?: number): StepSmoothing;
  createMoveResult(): MoveResult;
}

/**
 * Which build loadTread picks: 'auto' (the default) the threaded one with a thread per core (at most 8) where
 * threadsAvailable(), else the one without threads; a number, that many threads in all (1: the build without
 * threads); true, the threaded build or an error. Both builds compute the same bits.
 */
export interface LoadOptions {
  threads?: 'auto' | true | number;
  /** emscripten's Module options (print, printErr, ...) */
  [option: string]: unknown;
}

/** Load one module instance. */
export function loadTread(options?: LoadOptions): Promise<Tread>;

/** Whether workers can share memory here: node >= 20.16, or a browser page that is crossOriginIsolated. */
export function threadsAvailable(): boolean;
