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

// The scenes the run-comparing tests take: the course S1-S10, or with WEB_TEST_ALL=1 every shipped scene.
export function testedScenes() {
  const all = process.env.WEB_TEST_ALL === '1';
  return shippedScenes().filter((p) => all || p.startsWith('scenes/course/'));
}

// `tread run FILE --json`: the native run's outcome (a failing scene exits 1 and still prints it).
export function nativeRun(path) {
  try {
    return JSON.parse(execFileSync(TREAD, ['run', path, '--json'], { cwd: ROOT, maxBuffer: 1 << 28 }).toString());
  } catch (e) {
    if (e.status !== 1) throw e;
    return JSON.parse(e.stdout.toString());
  }
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
