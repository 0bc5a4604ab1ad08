// SPDX-License-Identifier: MIT
// The npm package `make package` writes (scripts/package.sh npm): installed offline into an empty folder, it needs
// nothing else (no dependencies, not private, the headers' version), a program there imports it by name, builds a
// world and walks a character (on the threaded build, and on the one without threads where the threaded one cannot
// load), and TypeScript finds its declarations through the package's exports. The .tgz is
// $BUILD/package/tread-X.Y.Z.tgz (TREAD_NPM_PACKAGE names another); make test-web builds it first.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from './native.mjs';

const header = readFileSync(join(ROOT, 'include/tread/base.h'), 'utf8');
const version = ['MAJOR', 'MINOR', 'PATCH'].map((p) => header.match(new RegExp(`#define TREAD_VERSION_${p} +(\\d+)`))[1]).join('.');
const tgz = process.env.TREAD_NPM_PACKAGE ?? join(ROOT, process.env.BUILD ?? 'build', 'package', `tread-${version}.tgz`);
let dir;

before(() => {
  if (!existsSync(tgz)) throw new Error(`${relative(ROOT, tgz)} is missing: run make package (make test-web builds it)`);
  dir = mkdtempSync(join(tmpdir(), 'tread-npm-'));
  // An empty folder, as a new project starts; --offline: the package must need nothing from a registry.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tgz], { cwd: dir, stdio: 'pipe' });
});
after(() => dir && rmSync(dir, { recursive: true, force: true }));

test('the package installs alone: the version of the headers, not private, no dependencies', () => {
  const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', 'tread', 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'tread');
  assert.equal(pkg.version, version);
  assert.equal(pkg.private, undefined);
  assert.equal(pkg.dependencies, undefined);
  assert.equal(pkg.devDependencies, undefined);
  assert.deepEqual(readdirSync(join(dir, 'node_modules')).filter((n) => !n.startsWith('.')), ['tread']);
  for (const f of ['README.md', 'LICENSE', 'dist/tread.mjs', 'dist/tread.d.ts', 'dist/lib/tread_wasm.mjs', 'dist/lib/threads/tread_wasm.mjs',
    'dist/lib/threads/tread_wasm.worker.js', 'dist/lib/threads/package.json'])
    assert.ok(existsSync(join(dir, 'node_modules', 'tread', f)), `the package has ${f}`);
  assert.match(readFileSync(join(dir, 'node_modules', 'tread', 'README.md'), 'utf8'), /three\.js/);
});

test('a program in the new project imports it by name, builds a world and walks a character', () => {
  // The README's node example, checked.
  writeFileSync(join(dir, 'walk.mjs'), `
import { loadTread } from 'tread';
const tread = await loadTread();
const world = tread.createWorld();
world.addBody({ shape: { type: 'box', half_extents: [50, 0.5, 50] }, transform: { p: [0, -0.5, 0] } });
const player = tread.createCharacter({}, [0, 1, 0]);
for (let i = 0; i < 60; ++i) player.moveXYZ(world, 2, player.groundState === 'on_ground' ? 0 : player.velocity.y - 9.81 / 60, 0, 1 / 60);
console.log(JSON.stringify({ version: tread.version, threads: tread.threads, position: player.position, ground: player.groundState }));
`);
  const out = JSON.parse(execFileSync('node', ['walk.mjs'], { cwd: dir }).toString());
  assert.equal(out.threads, Math.min(availableParallelism(), 8), 'node runs the threaded build');
  // Without the threaded build (a bundler that dropped it, say) the program runs on the other, to the same bits.
  const threads = join(dir, 'node_modules', 'tread', 'dist', 'lib', 'threads');
  renameSync(threads, `${threads}.away`);
  try {
    const single = JSON.parse(execFileSync('node', ['walk.mjs'], { cwd: dir }).toString());
    assert.equal(single.threads, 1, 'the build without threads');
    assert.deepEqual(single.position, out.position);
  } finally {
    renameSync(`${threads}.away`, threads);
  }
  assert.deepEqual(out.version, Object.fromEntries(['major', 'minor', 'patch'].map((k, i) => [k, Number(version.split('.')[i])])));
  assert.equal(out.ground, 'on_ground');
  assert.ok(Math.abs(out.position.x - 2) < 1e-3, `walked 2 m: x ${out.position.x}`);
  assert.ok(out.position.y >= 0 && out.position.y < 0.01, `on the floor: y ${out.position.y}`);
});

test('TypeScript finds the declarations through the package (tsc --strict, node16)', (t) => {
  let tsc;
  try {
    tsc = execFileSync('sh', ['-c', 'command -v tsc']).toString().trim();
  } catch {
    return t.skip('tsc is missing (scripts/deps.sh web installs node-typescript)');
  }
  writeFileSync(join(dir, 'use.mts'), `
import { loadTread, type Vec3 } from 'tread';
const tread = await loadTread();
const world = tread.createWorld();
const player = tread.createCharacter({ max_step_height: 0.3 }, [0, 0, 0]);
const feet: Vec3 = player.move(world, [1, 0, 0], 1 / 60).read().position;
export const x: number = feet.x;
`);
  try {
    execFileSync(tsc, ['--noEmit', '--strict', '--target', 'es2022', '--module', 'node16', '--moduleResolution', 'node16', 'use.mts'],
      { cwd: dir, stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc refused the installed package's types:\n${e.stdout}${e.stderr}`);
  }
});
