// SPDX-License-Identifier: MIT
// The camera rig: yaw and pitch about the scene's up, behind the character (third person) or at its eyes (first
// person), lifted by the library's camera step smoothing (tread_step_smoothing, as Godot's stair-stepping write-ups
// smooth the view): the feet jump up a step in one frame, the smoothing offset (step_up - snap_down absorbed, then
// decayed) keeps the eyes gliding. The offset comes from the Simulation (or a trace's camera column).
//
// Third person keeps the character in sight: the boom from the pivot (just below the eyes) back to the camera is
// cast against the world as a sphere through the library's own query (World.castShape, tread_world_cast_shape, via
// the `clearance` callback the App sets), so moving bodies where they are this frame (lifts, doors) count as well
// as walls. Where the world is in the way the boom is shortened at once to where the sphere stops (never a frame
// behind a wall); when the way clears it grows back toward its rest length over a fraction of a second (an
// exponential approach, at least 0.5 m/s so that it ends; as Unreal's spring arm lags and Godot's SpringArm3D users
// smooth it), so it does not pop.
//
// The overview looks at a box (the scene's bounds, App.sceneBounds) from above at an angle: the box's bounding
// sphere fitted into the narrower field of view, turned by the same mouse yaw, its own pitch and zoom.
import * as THREE from 'three';

const Y = new THREE.Vector3(0, 1, 0);
const LOOK_SPEED = 0.0025; // radians per pixel
const PITCH_LIMIT = 1.45;
export const BOOM_PROBE = 0.2; // metres: the radius of the sphere cast along the boom (the camera's clearance)
const BOOM_MIN = 0.3; // metres: the shortest boom (the camera stays behind the head)
const BOOM_RETURN = 0.35; // seconds: the time constant of the boom's growth back to its rest length
const BOOM_CREEP = 0.5; // m/s: the slowest growth, so that the exponential approach ends
const OVERVIEW_PITCH = -0.9; // radians below the horizon
const OVERVIEW_SETTLE = 0.25; // seconds: the time constant of the overview following bounds that move (crowds)

export class CameraRig {
  constructor(camera) {
    this.camera = camera;
    this.yaw = 0; // 0 looks along +X (in the frame whose Y is up), growing toward +Z
    this.pitch = -0.25;
    this.mode = 'third'; // 'third' | 'first' (what V toggles; the overview is over either)
    this.overview = false; // O: the whole scene from above
    this.distance = 5; // the boom's rest length (the wheel changes it)
    this.boom = null; // the boom's length now (null: at rest, from the next placement)
    this.blocked = false; // the world was between the pivot and the rest position last placement
    this.clearance = null; // (from, translation) => fraction of the way free (0 .. 1), or null: nothing checked
    this.overviewPitch = OVERVIEW_PITCH;
    this.overviewZoom = 1; // the wheel in the overview
    this.framed = null; // { center, radius, distance } the overview is at, smoothed
    this.basis = new THREE.Quaternion(); // turns +Y into the scene's up
    this.up = Y.clone();
  }

  setUp(up) {
    this.up.set(up.x, up.y, up.z).normalize();
    this.basis.setFromUnitVectors(Y, this.up);
  }

  // Face a direction (a vector; only its part across up counts).
  face(direction) {
    const d = new THREE.Vector3(direction.x, direction.y, direction.z).applyQuaternion(this.basis.clone().invert());
    if (Math.hypot(d.x, d.z) > 1e-6) this.yaw = Math.atan2(d.z, d.x);
  }

  turn(look) {
    this.yaw += look.x * LOOK_SPEED;
    if (this.overview) this.overviewPitch = Math.max(-PITCH_LIMIT, Math.min(-0.15, this.overviewPitch - look.y * LOOK_SPEED));
    else this.pitch = Math.max(-PITCH_LIMIT, Math.min(PITCH_LIMIT, this.pitch - look.y * LOOK_SPEED));
  }

  // The wheel: the boom's rest length, or the overview's distance.
  zoom(factor) {
    if (this.overview) this.overviewZoom = Math.max(0.2, Math.min(5, this.overviewZoom * factor));
    else this.distance = Math.max(1.5, Math.min(40, this.distance * factor));
  }

  // Unit vectors across up: where W walks and where D walks.
  forward() {
    return new THREE.Vector3(Math.cos(this.yaw), 0, Math.sin(this.yaw)).applyQuaternion(this.basis);
  }

  right() {
    return new THREE.Vector3(-Math.sin(this.yaw), 0, Math.cos(this.yaw)).applyQuaternion(this.basis);
  }

  look(pitch = this.pitch) {
    const c = Math.cos(pitch);
    return new THREE.Vector3(c * Math.cos(this.yaw), Math.sin(pitch), c * Math.sin(this.yaw)).applyQuaternion(this.basis);
  }

  // The walking wish for the motor from the held keys: { wish: world direction, magnitude in [0, 1] }.
  wish(keys) {
    const w = this.forward().multiplyScalar(keys.forward).add(this.right().multiplyScalar(keys.right));
    const length = w.length();
    if (length < 1e-6) return { wish: { x: 0, y: 0, z: 0 }, magnitude: 0 };
    w.divideScalar(length);
    return { wish: { x: w.x, y: w.y, z: w.z }, magnitude: keys.slow ? 0.4 : 1 };
  }

  // Place the camera for a character: feet, height, the smoothing offset along up. seconds: the time since the last
  // placement (the boom's return).
  place(character, seconds = 0) {
    const eyeHeight = (character.height ?? 1.8) * 0.9 + (character.cameraOffset ?? 0);
    const eye = new THREE.Vector3(character.position.x, character.position.y, character.position.z).addScaledVector(this.up, eyeHeight);
    this.camera.up.copy(this.up);
    if (this.mode === 'first') {
      this.camera.position.copy(eye);
      this.camera.lookAt(eye.clone().add(this.look()));
    } else {
      const pivot = eye.clone().addScaledVector(this.up, -0.3);
      const back = this.look().negate();
      this.camera.position.copy(pivot).addScaledVector(back, this.boomLength(pivot, back, seconds));
      this.camera.lookAt(pivot);
    }
    return eye;
  }

  // The boom's length this frame along unit direction `back` from `pivot`: cut at once to what the world leaves
  // free, grown back toward the rest length smoothly.
  boomLength(pivot, back, seconds) {
    const rest = this.distance;
    let free = rest;
    if (this.clearance) {
      const fraction = this.clearance(pivot, back.clone().multiplyScalar(rest));
      free = Math.max(BOOM_MIN, Math.min(rest, fraction * rest));
    }
    this.blocked = free < rest;
    if (this.boom === null || free <= this.boom) this.boom = free;
    else {
      const t = Math.max(0, seconds);
      this.boom = Math.min(free, this.boom + Math.max((free - this.boom) * (1 - Math.exp(-t / BOOM_RETURN)), BOOM_CREEP * t));
    }
    return this.boom;
  }

  // Place the overview over `bounds` ({ min, max }), following a change of bounds smoothly (seconds since the last
  // placement; 0 jumps there). The camera looks at the box's centre from its yaw and the overview's pitch, as far
  // as puts the box's bounding sphere inside the narrower field of view.
  placeOverview(bounds, seconds = 0) {
    const center = new THREE.Vector3().addVectors(bounds.min, bounds.max).multiplyScalar(0.5);
    const radius = Math.max(1, new THREE.Vector3().subVectors(bounds.max, bounds.min).length() / 2);
    const vertical = THREE.MathUtils.degToRad(this.camera.fov);
    const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * this.camera.aspect);
    const distance = (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * this.overviewZoom;
    const want = { center, radius, distance };
    if (!this.framed || seconds <= 0) this.framed = want;
    else {
      const k = 1 - Math.exp(-seconds / OVERVIEW_SETTLE);
      this.framed = { center: this.framed.center.clone().lerp(center, k), radius: this.framed.radius + (radius - this.framed.radius) * k,
        distance: this.framed.distance + (distance - this.framed.distance) * k };
    }
    const f = this.framed;
    this.camera.up.copy(this.up);
    this.camera.position.copy(f.center).addScaledVector(this.look(this.overviewPitch), -f.distance);
    this.camera.lookAt(f.center);
    return f;
  }
}
