// SPDX-License-Identifier: MIT
// The three.js stage: renderer, lights and sky, one object per scene body (moved every frame for the kinematic and
// dynamic ones), one per character (resized when it crouches). Knows nothing about the library: it draws snapshots
// (Simulation.snapshot or a replayed trace frame).
import * as THREE from 'three';
import { bodyObject, characterGeometry, placeObject } from './shapes.mjs';

const CONTROLLED = 0xf2c94c;
const OTHER = 0x3fb6a8;

export class Stage {
  constructor(container) {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.shadowMap.enabled = true;
    container.appendChild(this.renderer.domElement);
    this.canvas = this.renderer.domElement;
    this.three = new THREE.Scene();
    this.three.background = new THREE.Color(0xdfe8f0);
    this.three.fog = new THREE.Fog(0xdfe8f0, 40, 140);
    this.camera = new THREE.PerspectiveCamera(70, 1, 0.05, 500);
    this.three.add(new THREE.HemisphereLight(0xffffff, 0x667788, 1.6));
    this.sun = new THREE.DirectionalLight(0xffffff, 1.8);
    this.sun.castShadow = true;
    this.sun.shadow.mapSize.set(2048, 2048);
    this.sun.shadow.bias = -0.001;
    this.sun.shadow.normalBias = 0.06;
    Object.assign(this.sun.shadow.camera, { left: -20, right: 20, top: 20, bottom: -20, near: 0.5, far: 120 });
    this.three.add(this.sun, this.sun.target);
    this.content = new THREE.Group();
    this.three.add(this.content);
    this.bodies = [];
    this.characters = [];
    this.resize();
    window.addEventListener('resize', () => this.resize());
  }

  resize() {
    const parent = this.canvas.parentElement;
    const w = parent?.clientWidth || window.innerWidth, h = parent?.clientHeight || window.innerHeight;
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  // Replace what is drawn with a scene's bodies and characters.
  setScene(scene) {
    this.clear();
    scene.bodies.forEach((b, i) => {
      const object = bodyObject(b.def, i);
      this.bodies.push(object);
      this.content.add(object);
    });
    scene.characters.forEach((c) => {
      const mesh = new THREE.Mesh(characterGeometry(c.settings), new THREE.MeshStandardMaterial({ color: OTHER, roughness: 0.5 }));
      mesh.castShadow = true;
      mesh.userData.height = c.settings.height;
      mesh.userData.settings = c.settings;
      this.characters.push(mesh);
      this.content.add(mesh);
    });
  }

  clear() {
    this.content.traverse((o) => {
      o.geometry?.dispose();
      if (o.material) [].concat(o.material).forEach((m) => m.dispose());
    });
    this.content.clear();
    this.bodies = [];
    this.characters = [];
  }

  // Draw a snapshot: { characters: [{ position, up, height, settings }], bodies: [{ index, transform }] }.
  // `controlled` is highlighted; `hideControlled` hides it (first person).
  show(snapshot, controlled, hideControlled = false) {
    for (const b of snapshot.bodies) if (this.bodies[b.index]) placeObject(this.bodies[b.index], b.transform);
    const yAxis = new THREE.Vector3(0, 1, 0);
    snapshot.characters.forEach((c, k) => {
      const mesh = this.characters[k];
      if (!mesh) return;
      if (c.height !== undefined && Math.abs(c.height - mesh.userData.height) > 1e-4) {
        mesh.geometry.dispose();
        mesh.geometry = characterGeometry(mesh.userData.settings, c.height);
        mesh.userData.height = c.height;
      }
      mesh.position.set(c.position.x, c.position.y, c.position.z);
      if (c.up) mesh.quaternion.setFromUnitVectors(yAxis, new THREE.Vector3(c.up.x, c.up.y, c.up.z));
      mesh.material.color.setHex(k === controlled ? CONTROLLED : OTHER);
      mesh.visible = !(hideControlled && k === controlled);
    });
  }

  // Cut away what is above `height` along Y (null: nothing): the overview of a level looks in under its roof.
  setCeiling(height) {
    if (height === null) this.renderer.clippingPlanes = [];
    else {
      this.ceiling ??= new THREE.Plane(new THREE.Vector3(0, -1, 0), 0);
      this.ceiling.constant = height;
      this.renderer.clippingPlanes = [this.ceiling];
    }
  }

  // The fog's range in metres (the overview pushes it back to the far side of what it frames).
  setFog(near, far) {
    this.three.fog.near = near;
    this.three.fog.far = far;
    if (this.camera.far < far + 10) {
      this.camera.far = far + 10;
      this.camera.updateProjectionMatrix();
    }
  }

  // Keep the shadow-casting light over the point of interest.
  follow(point) {
    this.sun.position.set(point.x + 8, point.y + 20, point.z + 6);
    this.sun.target.position.set(point.x, point.y, point.z);
  }

  render() {
    this.renderer.render(this.three, this.camera);
  }
}
