// SPDX-License-Identifier: MIT
// Replay of a `tread run SCENE --trace FILE.csv` file (columns: docs/SCENES.md, "Traces") over its scene: one row
// per frame and character, the moving bodies' transforms on every row. A Replay holds the parsed frames and a
// playhead the timeline moves; snapshot() gives what the Stage draws, in the Simulation's snapshot form.

const REQUIRED = ['frame', 't', 'character', 'x', 'y', 'z', 'vx', 'vy', 'vz', 'ground', 'stepped', 'camera'];

export class TraceError extends Error {}

// Parse the CSV text. Returns { names, frames: [{ t, characters: [row per name], bodies: [{ index, transform }] }] }.
export function parseTrace(text, file = 'trace') {
  const lines = text.split(/\r?\n/).filter((l) => l.length);
  if (!lines.length) throw new TraceError(`${file}: empty`);
  const header = lines[0].split(',');
  const col = Object.fromEntries(header.map((h, i) => [h, i]));
  const missing = REQUIRED.filter((h) => !(h in col));
  if (missing.length) throw new TraceError(`${file}: not a tread trace (no column ${missing.join(', ')}); make one with tread run SCENE.json --trace FILE.csv`);
  const bodyIndices = [...new Set(header.map((h) => /^bodies\[(\d+)\]\.x$/.exec(h)?.[1]).filter(Boolean).map(Number))];
  const names = [];
  const frames = [];
  for (let n = 1; n < lines.length; ++n) {
    const cells = lines[n].split(',');
    if (cells.length !== header.length) throw new TraceError(`${file}: line ${n + 1} has ${cells.length} fields; the header has ${header.length}`);
    const num = (name) => Number(cells[col[name]]);
    const frame = num('frame');
    if (!Number.isInteger(frame) || frame < 1) throw new TraceError(`${file}: line ${n + 1}: bad frame number ${cells[col.frame]}`);
    let f = frames[frame - 1];
    if (!f) {
      f = frames[frame - 1] = { t: num('t'), characters: [], bodies: [] };
      for (const i of bodyIndices) {
        const b = (k) => Number(cells[col[`bodies[${i}].${k}`]]);
        f.bodies.push({ index: i, transform: { p: { x: b('x'), y: b('y'), z: b('z') }, q: { x: b('qx'), y: b('qy'), z: b('qz'), w: b('qw') } } });
      }
    }
    const name = cells[col.character];
    let k = names.indexOf(name);
    if (k < 0) k = names.push(name) - 1;
    f.characters[k] = {
      name,
      position: { x: num('x'), y: num('y'), z: num('z') },
      velocity: { x: num('vx'), y: num('vy'), z: num('vz') },
      ground: cells[col.ground],
      stepped: num('stepped'),
      camera: num('camera'),
    };
  }
  if (frames.some((f) => !f)) throw new TraceError(`${file}: frames are missing`);
  return { names, frames };
}

export class Replay {
  // trace: parseTrace's result; scene: the loaded scene it was made from (its characters' names must match).
  constructor(trace, scene, file = 'trace') {
    const names = scene.characters.map((c) => c.name);
    const unknown = trace.names.filter((n) => !names.includes(n));
    if (unknown.length) throw new TraceError(`${file}: character ${unknown.join(', ')} is not in scene ${scene.name} (${names.join(', ') || 'no characters'}); load the trace's scene first`);
    this.trace = trace;
    this.scene = scene;
    this.order = names.map((n) => trace.names.indexOf(n));
    this.index = 0; // the frame shown, 0-based
    this.playing = true;
    this.speed = 1;
    this.clock = 0;
  }

  get length() {
    return this.trace.frames.length;
  }

  seek(index) {
    this.index = Math.max(0, Math.min(this.length - 1, Math.round(index)));
    this.clock = 0;
  }

  // Move the playhead by real seconds (at the scene's dt per frame); stops at the end.
  advance(seconds) {
    if (!this.playing) return;
    this.clock += seconds * this.speed;
    while (this.clock >= this.scene.dt && this.index < this.length - 1) {
      this.clock -= this.scene.dt;
      this.index++;
    }
    if (this.index >= this.length - 1) this.playing = false;
  }

  // Step events (stepped != 0) of character k up to the playhead.
  events(k) {
    const out = [];
    const j = this.order[k];
    for (let i = Math.max(0, this.index - 600); i <= this.index; ++i) {
      const c = this.trace.frames[i].characters[j];
      if (c && Math.abs(c.stepped) > 1e-4) out.push({ frame: i + 1, character: k, stepped: c.stepped, at: c.position });
    }
    return out;
  }

  snapshot() {
    const f = this.trace.frames[this.index];
    const characters = this.scene.characters.map((c, k) => {
      const row = f.characters[this.order[k]];
      const up = c.settings.up ?? this.scene.up;
      const p = row ? row.position : c.start;
      const along = p.x * up.x + p.y * up.y + p.z * up.z;
      return {
        name: c.name, position: p, velocity: row?.velocity ?? { x: 0, y: 0, z: 0 }, up, settings: c.settings,
        height: c.settings.height, cameraOffset: row ? row.camera - along : 0, ground: row?.ground, stepped: row?.stepped,
      };
    });
    return { frame: this.index + 1, time: f.t, characters, bodies: f.bodies };
  }
}
