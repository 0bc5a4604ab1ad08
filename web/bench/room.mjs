// SPDX-License-Identifier: MIT
// The 500-character room in WebAssembly, step by step as the viewer steps it (SceneRun: the world's side of a frame,
// then the batch moving every character as obstacles to each other), timed per step: docs/WEB.md, "Threads".
//
//   node web/bench/room.mjs [--threads auto|N] [--frames 600] [--warm 60] [--scene scenes/world/crowd-room-500.json]
//
// --threads 1 is the build without threads; auto (the default) what loadTread picks. Prints the build, the threads,
// the median, 10th and 90th percentile of the wall-clock ms per step over the timed frames, the median of its
// characters' side alone (SceneRun.move: the batch and the runner's per-frame records), the process's CPU ms per
// step (every thread's: on a busy machine the wall clock also counts waiting for a core), and an FNV-1a 64 hash of
// every character's feet (float bits) at the end, which is the same for every build and thread count. On Linux also
// each thread's CPU ms per step (/proc/self/task), busiest first: the main thread, then the pool's workers (and
// node's own threads, with next to nothing), which tells how the batch's work split between them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTread, loadScene, SceneRun } from '../dist/tread.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = { threads: 'auto', frames: 600, warm: 60, scene: path.join(root, 'scenes/world/crowd-room-500.json') };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, ''), value = process.argv[i + 1];
  if (!(key in args) || value === undefined) {
    console.error(`room.mjs: unknown or incomplete option ${process.argv[i]}`);
    process.exit(2);
  }
  args[key] = key === 'scene' || value === 'auto' ? value : Number(value);
}

const tread = await loadTread({ threads: args.threads });
const scene = loadScene(tread, fs.readFileSync(args.scene, 'utf8'), args.scene);
const run = new SceneRun(tread, scene);
// CPU ticks by thread (utime + stime of /proc/self/task/TID/stat), where Linux has them.
function threadTicks() {
  const out = new Map();
  try {
    for (const tid of fs.readdirSync('/proc/self/task')) {
      const fields = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(tid, Number(fields[11]) + Number(fields[12]));
    }
  } catch {
    return null;
  }
  return out;
}
const TICK_MS = 10; // USER_HZ is 100 on Linux

const times = [], moves = [];
let ticks = null;
let cpu = null;
for (let f = 0; f < args.warm + args.frames; ++f) {
  if (f === args.warm) cpu = process.cpuUsage(), ticks = threadTicks();
  const t0 = performance.now();
  run.advance();
  const t1 = performance.now();
  run.move();
  const t2 = performance.now();
  if (f >= args.warm) times.push(t2 - t0), moves.push(t2 - t1);
}
cpu = process.cpuUsage(cpu);
const ticksAfter = threadTicks();
const byThread = ticks && ticksAfter ? [...ticksAfter].map(([tid, t]) => (t - (ticks.get(tid) ?? 0)) * TICK_MS / times.length)
  .filter((ms) => ms > 0.05).sort((a, b) => b - a).map((ms) => +ms.toFixed(2)) : null;
if (run.failure) throw new Error(`room.mjs: the run stopped: ${JSON.stringify(run.failure)}`);

// FNV-1a 64 over the feet's float bits, character by character.
let hash = 0xcbf29ce484222325n;
const bits = new DataView(new ArrayBuffer(4));
for (const ch of run.characters) {
  const p = ch.position;
  for (const v of [p.x, p.y, p.z]) {
    bits.setFloat32(0, v, true);
    for (let b = 0; b < 4; ++b) hash = ((hash ^ BigInt(bits.getUint8(b))) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
}
times.sort((a, b) => a - b);
moves.sort((a, b) => a - b);
const at = (q, list = times) => list[Math.min(list.length - 1, Math.floor(q * list.length))];
console.log(JSON.stringify({
  scene: scene.name, characters: run.characters.length, build: tread.threads > 1 ? 'threads' : 'single', threads: tread.threads,
  frames: times.length, warm: args.warm, median_ms: +at(0.5).toFixed(3), p10_ms: +at(0.1).toFixed(3), p90_ms: +at(0.9).toFixed(3),
  move_median_ms: +at(0.5, moves).toFixed(3), cpu_ms: +((cpu.user + cpu.system) / 1000 / times.length).toFixed(3), cpu_ms_by_thread: byThread,
  feet_hash: hash.toString(16).padStart(16, '0'),
}));
run.end();
scene.free();
