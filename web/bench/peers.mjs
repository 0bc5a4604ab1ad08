// SPDX-License-Identifier: MIT
// `make bench-peers`: tread's WebAssembly build, Jolt (jolt-physics) and Rapier (@dimforge/rapier3d-compat), the npm
// packages pinned in web/package-lock.json, in one node process, on the course: the scenes S1-S10 scored by their own
// expectations (pass/fail and the key metric), and the benchmarks P1, P2, P3 and P3 with character-vs-character timed
// (microseconds per character update, whole frames timed, the median of interleaved rounds) with the ratio to tread.
// Prints one Markdown table (and writes it with --markdown FILE).
//
//   node web/bench/peers.mjs [--rounds N] [--markdown FILE] [--native BENCH] [--only P1,P3]
//
// --native: tread's native bench (build/bench/tread_bench_character by default, when built) is run once after the
// peers with the same rounds, for a native column and to check that this port ran tread's native workload (the same
// final state hashes).
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { courseScenes, runCourseScene } from './course.mjs';
import { COURSE_CHARACTER, DT, p1, p2, p3 } from './worlds.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function options(argv) {
  const o = { rounds: 5, markdown: null, native: join(ROOT, 'build', 'bench', 'tread_bench_character'), only: null, engineGaps: false };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--rounds') o.rounds = Math.max(1, Number(argv[++i]));
    else if (a === '--markdown') o.markdown = argv[++i];
    else if (a === '--native') o.native = argv[++i];
    else if (a === '--only') o.only = argv[++i].split(',');
    else if (a === '--scenes') o.only = [];
    else if (a === '--engine-gaps') o.engineGaps = true;
    else throw new Error(`peers.mjs: unknown option ${a} (--rounds N, --markdown FILE, --native BENCH, --only P1,P2)`);
  }
  return o;
}

// The peers keep the same gap to surfaces as tread's skin (2 mm; Jolt's character padding, Rapier's offset), the
// character setting all three have; with --engine-gaps each keeps its own default (Jolt 2 cm, Rapier 1 cm).
async function loadEngines(o) {
  const engines = [];
  let gap = null;
  for (const name of ['tread', 'jolt', 'rapier']) {
    try {
      const engine = await (await import(`./engines/${name}.mjs`)).load({ gap });
      if (name === 'tread' && !o.engineGaps) gap = engine.tread.characterSettingsDefault().skin;
      engines.push(engine);
    } catch (e) {
      if (e.code === 'ERR_MODULE_NOT_FOUND') throw new Error(`peers.mjs: ${e.message}\n  (make bench-peers installs the npm packages and builds web/dist)`);
      throw e;
    }
  }
  return engines;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};

// FNV-1a 64 over every character's feet and velocity as float bits: the native bench's state_hash.
function stateHash(world, n) {
  let h = 0xcbf29ce484222325n;
  const bytes = new Uint8Array(new Float32Array(6 * n).buffer);
  const floats = new Float32Array(bytes.buffer);
  for (let i = 0; i < n; ++i) {
    const p = world.feet(i), v = world.velocity(i);
    floats.set([p.x, p.y, p.z, v.x, v.y, v.z], 6 * i);
  }
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & ((1n << 64n) - 1n);
  return h.toString(16).padStart(16, '0');
}

// One timed run of a benchmark on an engine: the world and crowd built (not timed), then every frame the input
// computed (not timed) and the frame's updates timed.
function timeRun(engine, bench) {
  const world = engine.createWorld();
  try {
    bench.build(world);
    world.finish();
    world.addCharacters(bench.characters, bench.character ?? COURSE_CHARACTER, bench.cvc);
    bench.starts.forEach((s, i) => world.place(i, s));
    world.afterPlace();
    const v = new Float32Array(3 * bench.characters);
    let seconds = 0;
    for (let frame = 0; frame < bench.frames; ++frame) {
      bench.steer(frame, world, v);
      const started = performance.now();
      world.update(v, DT);
      seconds += (performance.now() - started) / 1000;
    }
    let grounded = 0;
    for (let i = 0; i < bench.characters; ++i) grounded += world.ground(i) === 'on_ground' ? 1 : 0;
    const updates = bench.characters * bench.frames;
    return { us: (1e6 * seconds) / updates, grounded, hash: stateHash(world, bench.characters), stepUs: world.stepSeconds !== undefined ? (1e6 * world.stepSeconds) / updates : null };
  } finally {
    world.destroy();
  }
}

// tread's native bench on the same runs: medians and state hashes by run name.
function nativeBench(path, names, rounds) {
  if (!path || !existsSync(path) || !names.length || rounds < 1) return null;
  const csv = execFileSync(path, [...names, '--rounds', String(rounds)], { maxBuffer: 1 << 26 }).toString();
  const out = {};
  for (const line of csv.split('\n')) {
    const [run, metric, value] = line.split(',');
    if (!names.includes(run)) continue;
    out[run] ??= {};
    if (metric === 'update_median') out[run].us = Number(value);
    if (metric === 'state_hash') out[run].hash = value;
    if (metric === 'grounded_at_end') out[run].grounded = Number(value);
  }
  return out;
}

const fmt = (us) => (us >= 10 ? us.toFixed(1) : us.toFixed(2));

async function main() {
  const o = options(process.argv.slice(2));
  const engines = await loadEngines(o);
  const tread = engines[0].tread;
  const rows = [];
  const log = (s) => process.stderr.write(`${s}\n`);

  // ---- the scenes ----
  if (!o.only || o.only.length === 0) {
    for (const path of courseScenes(ROOT)) {
      const cells = engines.map((e) => runCourseScene(e, tread, path, COURSE_CHARACTER));
      const scene = cells[0].scene;
      const key = cells[0].key;
      rows.push({
        label: `${scene.name}: ${key ? key.name : 'passes'}`,
        // The key metric; a scene that fails on another check says which.
        cells: cells.map((c) => {
          const others = c.failedNames.filter((n) => n !== c.key?.name);
          return `${c.passed ? 'pass' : '**FAIL**'}: ${c.key ? c.key.text : ''}${others.length ? ` (fails: ${others.join(', ')})` : ''}`;
        }),
        failures: cells.map((c, i) => (c.passed ? null : `${scene.name} on ${engines[i].name}: ${c.failed.join('; ')}`)).filter(Boolean),
      });
      log(`${scene.name}: ${cells.map((c, i) => `${engines[i].name} ${c.passed ? 'pass' : 'FAIL'}`).join(', ')}`);
    }
  }

  // ---- the benchmarks, interleaved rounds ----
  const benches = [p1(tread), p2(), p3(tread, false), p3(tread, true)].filter((b) => !o.only || o.only.includes(b.name));
  if (o.only?.length === 0) o.rounds = 0;
  const runs = benches.map(() => engines.map(() => []));
  for (let round = 0; round < o.rounds; ++round)
    benches.forEach((bench, b) =>
      engines.forEach((engine, e) => {
        const r = timeRun(engine, bench);
        runs[b][e].push(r);
        log(`round ${round + 1}/${o.rounds} ${bench.name} ${engine.name}: ${fmt(r.us)} us/update, ${r.grounded}/${bench.characters} grounded`);
      }),
    );
  const native = nativeBench(o.native, benches.map((b) => b.name), o.rounds);
  benches.forEach((bench, b) => {
    const us = runs[b].map((rs) => median(rs.map((r) => r.us)));
    const last = runs[b].map((rs) => rs[rs.length - 1]);
    const varied = runs[b].map((rs) => new Set(rs.map((r) => r.hash)).size > 1);
    const n = native?.[bench.name];
    rows.push({
      label: `${bench.name}: us per character update (${bench.what})`,
      cells: us.map((u, e) => `${fmt(u)}${e ? ` (${(u / us[0]).toFixed(1)}x)` : ''}; ${last[e].grounded}/${bench.characters} on ground${varied[e] ? ' (runs varied)' : ''}`),
      native: n ? `${fmt(n.us)}; ${n.grounded}/${bench.characters} on ground${n.hash === last[0].hash ? '; same final state as the WebAssembly run' : `; final state differs (native ${n.hash}, WebAssembly ${last[0].hash})`}` : null,
      rapierStep: runs[b][2]?.[0]?.stepUs !== null ? median(runs[b][2].map((r) => r.stepUs)) : null,
    });
  });

  // ---- the table ----
  const withNative = rows.some((r) => r.native);
  const header = ['', ...engines.map((e) => e.name === 'tread' ? 'tread (WebAssembly)' : e.name)];
  if (withNative) header.push('tread native (same rounds, run after)');
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const r of rows) lines.push(`| ${[r.label, ...r.cells, ...(withNative ? [r.native ?? ''] : [])].join(' | ')} |`);
  const failures = rows.flatMap((r) => r.failures ?? []);
  const steps = rows.filter((r) => r.rapierStep !== null && r.rapierStep !== undefined).map((r) => `${r.label.split(':')[0]} ${fmt(r.rapierStep)}`);
  const text = [
    lines.join('\n'),
    '',
    `Engines: ${engines.map((e) => `${e.name}: ${e.version}`).join('; ')}. node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${o.rounds} interleaved rounds, ${new Date().toISOString().slice(0, 10)}.`,
    failures.length ? `\nFailed checks:\n${failures.map((f) => `- ${f}`).join('\n')}` : '',
    steps.length ? `\nOf Rapier's time per update, world.step(): ${steps.join(', ')} us.` : '',
  ].join('\n');
  console.log(text);
  if (o.markdown) writeFileSync(o.markdown, `${text}\n`);
}

main().catch((e) => {
  console.error(e.stack ?? e.message);
  process.exit(1);
});
