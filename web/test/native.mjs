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

// The scenes the run-comparing tests take: the course S1-S10 and two crowds (a batch moves their characters, on the
// threaded build's workers too), or with WEB_TEST_ALL=1 every shipped scene.
const ALL = process.env.WEB_TEST_ALL === '1';
const CROWDS = ['scenes/world/crowd-jam-10.json', 'scenes/world/crush-piston-crowd.json'];
export const testedScenes = () => (ALL ? shippedScenes() : [...shippedScenes(join(ROOT, 'scenes/course')), ...CROWDS]);

// The native runs of the tested scenes, by path: `tread suite DIR --json --slow` (each run as `tread run FILE --json`
// gives it; a failing scene makes the suite exit 1 and still print it), and `tread run FILE --json` for the crowds.
export function nativeRuns() {
  const json = (args) => {
    try {
      return JSON.parse(execFileSync(TREAD, args, { cwd: ROOT, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }).toString());
    } catch (e) {
      if (e.status !== 1) throw e;
      return JSON.parse(e.stdout.toString());
    }
  };
  const runs = json(['suite', ALL ? 'scenes' : 'scenes/course', '--json', '--slow']);
  if (!ALL) for (const path of CROWDS) runs.push(json(['run', path, '--json']));
  return new Map(runs.map((run) => [run.path, run]));
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
