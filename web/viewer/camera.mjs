// SPDX-License-Identifier: MIT
// The camera rig: yaw and pitch about the scene's up, behind the character (third person) or at its eyes (first
// person), lifted by the library's camera step smoothing (tread_step_smoothing, as Godot's stair-stepping write-ups
// smooth the view): the feet jump up a step in one frame, the smoothing offset (step_up - snap_down absorbed, then
// decayed) keeps the eyes gliding. The offset comes from the Simulation (or a trace's camera column).
import * as THREE from 'three';

const Y = new THREE.Vector3(0, 1, 0);
const LOOK_SPEED = 0.0025; // radians per pixel
const PITCH_LIMIT = 1.45;

export class CameraRig {
  constructor(camera) {
    this.camera = camera;
    this.yaw = 0; // 0 looks along +X (in the frame whose Y is up), growing toward +Z
    this.pitch = -0.25;
    this.mode = 'third'; // 'third' | 'first'
    this.distance = 5;
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
    this.pitch = Math.max(-PITCH_LIMIT, Math.min(PITCH_LIMIT, this.pitch - look.y * LOOK_SPEED));
  }

  // Unit vectors across up: where W walks and where D walks.
  forward() {
    return new THREE.Vector3(Math.cos(this.yaw), 0, Math.sin(this.yaw)).applyQuaternion(this.basis);
  }

  right() {
    return new THREE.Vector3(-Math.sin(this.yaw), 0, Math.cos(this.yaw)).applyQuaternion(this.basis);
  }

  look() {
    const c = Math.cos(this.pitch);
    return new THREE.Vector3(c * Math.cos(this.yaw), Math.sin(this.pitch), c * Math.sin(this.yaw)).applyQuaternion(this.basis);
  }

  // The walking wish for the motor from the held keys: { wish: world direction, magnitude in [0, 1] }.
  wish(keys) {
    const w = this.forward().multiplyScalar(keys.forward).add(this.right().multiplyScalar(keys.right));
    const length = w.length();
    if (length < 1e-6) return { wish: { x: 0, y: 0, z: 0 }, magnitude: 0 };
    w.divideScalar(length);
    return { wish: { x: w.x, y: w.y, z: w.z }, magnitude: keys.slow ? 0.4 : 1 };
  }

  // Place the camera for a character: feet, height, the smoothing offset along up.
  place(character) {
    const eyeHeight = (character.height ?? 1.8) * 0.9 + (character.cameraOffset ?? 0);
    const eye = new THREE.Vector3(character.position.x, character.position.y, character.position.z).addScaledVector(this.up, eyeHeight);
    this.camera.up.copy(this.up);
    if (this.mode === 'first') {
      this.camera.position.copy(eye);
      this.camera.lookAt(eye.clone().add(this.look()));
    } else {
      const target = eye.clone().addScaledVector(this.up, -0.3);
      this.camera.position.copy(target).addScaledVector(this.look(), -this.distance);
      this.camera.lookAt(target);
    }
    return eye;
  }
}
