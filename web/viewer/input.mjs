// SPDX-License-Identifier: MIT
// The person's input: WASD (or the arrow keys) to walk, space to jump, ctrl (or C: ctrl+W closes a browser tab) to
// crouch, shift to walk slowly; the mouse looks around (click the view for pointer lock, or drag with a button held).
// Keys are read by their physical position (KeyboardEvent.code), so WASD is the same place on every layout.
const HANDLED = new Set(['KeyW', 'KeyA', 'KeyS', 'KeyD', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Space',
  'ControlLeft', 'ControlRight', 'KeyC', 'ShiftLeft', 'ShiftRight']);

export class Input {
  constructor(canvas) {
    this.canvas = canvas;
    this.down = new Set();
    this.look = { x: 0, y: 0 }; // mouse motion since the last take(), pixels
    this.dragging = false;
    const typing = (e) => e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement;
    window.addEventListener('keydown', (e) => {
      if (typing(e) && e.target.type !== 'range') return;
      if (HANDLED.has(e.code)) {
        this.down.add(e.code);
        e.preventDefault();
      }
    });
    window.addEventListener('keyup', (e) => this.down.delete(e.code));
    window.addEventListener('blur', () => this.down.clear());
    canvas.addEventListener('click', () => {
      if (document.pointerLockElement !== canvas) canvas.requestPointerLock?.()?.catch?.(() => {});
    });
    canvas.addEventListener('mousedown', () => (this.dragging = true));
    window.addEventListener('mouseup', () => (this.dragging = false));
    window.addEventListener('mousemove', (e) => {
      if (document.pointerLockElement === canvas || this.dragging) {
        this.look.x += e.movementX;
        this.look.y += e.movementY;
      }
    });
  }

  held(...codes) {
    return codes.some((c) => this.down.has(c));
  }

  // This frame's walking wish in the camera's frame: { forward, right } in [-1, 1], and the buttons.
  state() {
    const axis = (plus, minus) => (plus ? 1 : 0) - (minus ? 1 : 0);
    const forward = axis(this.held('KeyW', 'ArrowUp'), this.held('KeyS', 'ArrowDown'));
    const right = axis(this.held('KeyD', 'ArrowRight'), this.held('KeyA', 'ArrowLeft'));
    return {
      forward, right,
      jump: this.held('Space'),
      crouch: this.held('ControlLeft', 'ControlRight', 'KeyC'),
      slow: this.held('ShiftLeft', 'ShiftRight'),
    };
  }

  // The mouse motion since the last call.
  takeLook() {
    const l = this.look;
    this.look = { x: 0, y: 0 };
    return l;
  }
}
