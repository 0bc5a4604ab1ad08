// SPDX-License-Identifier: MIT
// The native side of the web tests: the `tread` command of the native build (BUILD), which the WebAssembly build's
// scene library must match, run on scene files.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILD = process.env.BUILD ?? 'build';
export const TREAD = resolve(ROOT, BUILD, 'tread'); // BUILD relative to the root, or absolute
export const DIST = join(ROOT, 'web', 'dist', 'tread.mjs');

export function requireBuilt() {
  for (const [file, how] of [[TREAD, 'make build'], [DIST, 'make wasm']])
    if (!existsSync(file)) throw new Error(`${relative(ROOT, file)} is missing: run ${how} (make test-web does both)`);
}

// Every scene file under scenes/, relative to the root, sorted.
export function shippedScenes(dir = join(ROOT, 'scenes')) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...shippedScenes(full));
    else if (name.endsWith('.json')) out.push(relative(ROOT, full));
  }
  return out;
}

// The folder the run-comparing tests take: the course S1-S10, or with WEB_TEST_ALL=1 every shipped scene.
const TESTED = process.env.WEB_TEST_ALL === '1' ? 'scenes' : 'scenes/course';
export const testedScenes = () => shippedScenes(join(ROOT, TESTED));

// The native runs of the tested scenes, by path: one `tread suite DIR --json --slow` (each run as `tread run FILE
// --json` gives it; a failing scene makes the suite exit 1 and still print it).
export function nativeRuns() {
  let text;
  try {
    text = execFileSync(TREAD, ['suite', TESTED, '--json', '--slow'], { cwd: ROOT, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  } catch (e) {
    if (e.status !== 1) throw e;
    text = e.stdout.toString();
  }
  return new Map(JSON.parse(text).map((run) => [run.path, run]));
}

// The native loader's message for a file it refuses (`tread run` prints "tread run: <message>" and exits 2).
export function nativeError(path) {
  try {
    execFileSync(TREAD, ['run', path], { cwd: ROOT, stdio: 'pipe' });
  } catch (e) {
    if (e.status === 2) return e.stderr.toString().trim().replace(/^tread run: /, '');
    throw e;
  }
  return null;
}
