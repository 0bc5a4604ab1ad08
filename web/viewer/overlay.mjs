// SPDX-License-Identifier: MIT
// The debug overlay drawn in the world: the last move's contacts (a dot on the surface and its push-out normal,
// red when penetrating), the ground normal at the supporting point coloured by ground state, the max-step height
// (a ring at feet + max_step_height: what rises above it is a wall), and the last step events (a ring where the
// stairs phase lifted the feet, blue where stick-to-floor lowered them).
import * as THREE from 'three';

export const GROUND_COLORS = { on_ground: 0x2e9e4f, on_steep: 0xe0a030, not_supported: 0xd0506a, in_air: 0x7a7a9a };
const MAX_CONTACTS = 32;
const MAX_EVENTS = 24;

export class Overlay {
  constructor(three) {
    this.group = new THREE.Group();
    this.group.renderOrder = 10;
    three.add(this.group);
    const dotGeometry = new THREE.SphereGeometry(0.035, 10, 8);
    this.contacts = Array.from({ length: MAX_CONTACTS }, () => {
      const dot = new THREE.Mesh(dotGeometry, new THREE.MeshBasicMaterial({ color: 0xff3060, depthTest: false }));
      const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(), 0.35, 0xff3060, 0.08, 0.05);
      dot.renderOrder = arrow.renderOrder = 10;
      this.group.add(dot, arrow);
      return { dot, arrow };
    });
    this.ground = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(), 0.8, GROUND_COLORS.on_ground, 0.15, 0.08);
    this.group.add(this.ground);
    this.stepRing = new THREE.Mesh(new THREE.RingGeometry(0.45, 0.5, 48).rotateX(-Math.PI / 2),
      new THREE.MeshBasicMaterial({ color: 0x8040ff, side: THREE.DoubleSide, transparent: true, opacity: 0.8, depthTest: false }));
    this.stepDisk = new THREE.Mesh(new THREE.CircleGeometry(0.45, 48).rotateX(-Math.PI / 2),
      new THREE.MeshBasicMaterial({ color: 0x8040ff, side: THREE.DoubleSide, transparent: true, opacity: 0.12, depthWrite: false }));
    this.group.add(this.stepRing, this.stepDisk);
    const eventGeometry = new THREE.RingGeometry(0.12, 0.18, 24).rotateX(-Math.PI / 2);
    this.events = Array.from({ length: MAX_EVENTS }, () => {
      const ring = new THREE.Mesh(eventGeometry, new THREE.MeshBasicMaterial({ color: 0xff8c1a, side: THREE.DoubleSide, depthTest: false, transparent: true }));
      ring.renderOrder = 10;
      this.group.add(ring);
      return ring;
    });
    this.hideAll();
  }

  set visible(on) {
    this.group.visible = on;
  }

  get visible() {
    return this.group.visible;
  }

  hideAll() {
    for (const c of this.contacts) c.dot.visible = c.arrow.visible = false;
    this.ground.visible = this.stepRing.visible = this.stepDisk.visible = false;
    for (const e of this.events) e.visible = false;
  }

  // character: a snapshot's character; detail: Simulation.detail() (null in a replay); events: step events
  // ({ at, stepped }) of the character, oldest first.
  update(character, detail, events) {
    this.hideAll();
    if (!character) return;
    const up = new THREE.Vector3(character.up?.x ?? 0, character.up?.y ?? 1, character.up?.z ?? 0);
    const feet = new THREE.Vector3(character.position.x, character.position.y, character.position.z);
    const align = new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), up);
    const maxStep = character.settings?.max_step_height ?? 0;
    const radius = character.settings?.radius ?? 0.3;
    for (const m of [this.stepRing, this.stepDisk]) {
      m.visible = true;
      m.position.copy(feet).addScaledVector(up, maxStep);
      m.quaternion.copy(align);
      m.scale.setScalar((radius + 0.25) / 0.5);
    }
    if (detail) {
      detail.result.contacts.slice(0, MAX_CONTACTS).forEach((c, i) => {
        const { dot, arrow } = this.contacts[i];
        const color = c.separation < -1e-4 ? 0xff0000 : 0xff3060;
        dot.visible = arrow.visible = true;
        dot.position.set(c.point.x, c.point.y, c.point.z);
        dot.material.color.setHex(color);
        arrow.position.copy(dot.position);
        arrow.setDirection(new THREE.Vector3(c.normal.x, c.normal.y, c.normal.z));
        arrow.setColor(color);
      });
      const g = detail.ground;
      if (detail.groundState !== 'in_air') {
        this.ground.visible = true;
        this.ground.position.set(g.point.x, g.point.y, g.point.z);
        this.ground.setDirection(new THREE.Vector3(g.normal.x, g.normal.y, g.normal.z));
        this.ground.setColor(GROUND_COLORS[detail.groundState] ?? 0xffffff);
      }
    }
    events.slice(-MAX_EVENTS).forEach((e, i, list) => {
      const ring = this.events[i];
      ring.visible = true;
      ring.position.set(e.at.x, e.at.y, e.at.z).addScaledVector(up, 0.01);
      ring.quaternion.copy(align);
      ring.material.color.setHex(e.stepped > 0 ? 0xff8c1a : 0x3a7bd5);
      ring.material.opacity = 0.3 + 0.7 * ((i + 1) / list.length);
    });
  }
}
