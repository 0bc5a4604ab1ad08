// SPDX-License-Identifier: MIT
// The viewer in a real browser (make test-browser): playwright-core from npm drives Debian's chromium headless (no
// browser download; software WebGL through SwiftShader) against web/dist/viewer served by web/viewer/serve.mjs on a
// free port. It holds W on S1 (scenes/course/S01-stairs-up.json, ten steps of 0.2 m up to a landing at 2 m) and
// checks that the character walks up to the top landing, through the motor, in the browser; that a
// `tread run --trace` file replays to its last row; that the overview (O) frames the scene's bounds; that a wall
// between the third-person camera and the character shortens the boom, which then grows back without popping; that
// the level picker lists the installed OpenArena maps and walks one (skipped, saying why, without the maps package);
// that served with the cross-origin isolation headers the page runs tread's threaded build, a crowd's batch on its
// workers, and served without them the build without threads; that the page logged no error; and saves a screenshot ($BUILD/viewer-S1.png, and also $SCREENSHOT when set:
// `make screenshot` writes docs/img/viewer.png).
//
//   BUILD=build node --test web/test/viewer.browser.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../viewer/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const buildDir = path.resolve(root, process.env.BUILD ?? 'build');
const viewerDir = path.join(root, 'web/dist/viewer');
const HOLD_SECONDS = 30; // wall-clock limit for the climb (it takes about one simulated second)
const LANDING = { x: 4, yMin: 1.98, yMax: 2.02 }; // S1's own expectation "on the top landing"

function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('chromium is not installed (scripts/deps.sh web installs Debian\'s chromium)');
  }
}

let server, browser, page, url;
const problems = []; // console errors and uncaught exceptions

before(async () => {
  assert.ok(fs.existsSync(path.join(viewerDir, 'index.html')), `${viewerDir}/index.html is missing: run make web first`);
  server = await serve(viewerDir, 0, { tread: path.join(buildDir, 'tread') });
  url = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // --no-sandbox: containers run as root, where chromium's sandbox refuses to start. WebGL without a GPU:
    // ANGLE on SwiftShader, which recent chromium only allows when told so.
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()} (${m.location().url})`));
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
});

after(async () => {
  await browser?.close();
  server?.close();
});

const state = () => page.evaluate(() => window.treadViewer.state());

async function openScene(path) {
  await page.goto(`${url}?scene=${path}`);
  await page.waitForFunction(() => window.treadViewer?.state().ready, null, { timeout: 20000 }).catch(async () => {
    const message = await page.locator('#message').textContent().catch(() => '');
    assert.fail(`the viewer did not draw ${path} within 20 s (page message: ${JSON.stringify(message)}; ${problems.join('; ') || 'no console errors'})`);
  });
}

test('holding W walks the character up S1 to the top landing', async () => {
  await openScene('course/S01-stairs-up.json');
  let s = await state();
  assert.equal(s.scene, 'S1-stairs-up');
  assert.equal(s.strategy, 'sweep', 'the viewer starts with the scene\'s strategy');
  const start = s.characters[0].position;
  const started = Date.now();
  await page.keyboard.down('KeyW');
  let top = null;
  while (Date.now() - started < HOLD_SECONDS * 1000) {
    await page.waitForTimeout(50);
    s = await state();
    const c = s.characters[0];
    if (c.position.x >= LANDING.x && c.position.y >= LANDING.yMin && c.position.y <= LANDING.yMax && c.ground === 'on_ground') {
      top = { ...s, seconds: (Date.now() - started) / 1000 };
      break;
    }
  }
  await page.keyboard.up('KeyW');
  const c = s.characters[0];
  assert.ok(top, `holding W for ${HOLD_SECONDS} s did not bring ${c.name} to S1's top landing (x >= ${LANDING.x}, y in ` +
    `[${LANDING.yMin}, ${LANDING.yMax}], on_ground): it started at (${start.x}, ${start.y}, ${start.z}) and is at ` +
    `(${c.position.x.toFixed(3)}, ${c.position.y.toFixed(3)}, ${c.position.z.toFixed(3)}), ${c.ground}, after ${s.frame} ` +
    `frames (${s.time.toFixed(2)} s simulated)${s.errors.length ? `; viewer errors: ${s.errors.join('; ')}` : ''}`);
  // The HUD tells what a step of the scene costs next to the step's own length (the viewer's frame-time display).
  assert.ok(Number.isFinite(top.stepMs) && top.stepMs > 0, `the viewer times its simulation steps (stepMs ${top.stepMs})`);
  const hud = await page.evaluate(() => document.getElementById('hud').textContent);
  assert.match(hud, /step \d+\.\d\d ms for 1 character \(\d+ % of its 16\.7 ms\)/, `the HUD's timing line: ${hud}`);
  console.log(`# reached the landing at (${top.characters[0].position.x.toFixed(2)}, ${top.characters[0].position.y.toFixed(3)}) ` +
    `after ${top.frame} frames (${top.time.toFixed(2)} s simulated, ${top.seconds.toFixed(1)} s wall clock)`);
  // Look back down the flight for the picture: the step events ring every tread, the max-step ring at the feet.
  await page.evaluate(() => {
    const rig = window.treadViewer.app.rig;
    rig.yaw = -1.95;
    rig.pitch = -0.2;
    rig.distance = 6;
  });
  await page.waitForTimeout(600);
  fs.mkdirSync(buildDir, { recursive: true });
  await page.screenshot({ path: path.join(buildDir, 'viewer-S1.png') });
  if (process.env.SCREENSHOT) await page.screenshot({ path: path.resolve(root, process.env.SCREENSHOT) });
  console.log(`# screenshot: ${path.relative(root, path.join(buildDir, 'viewer-S1.png'))}${process.env.SCREENSHOT ? `, ${process.env.SCREENSHOT}` : ''}`);
});

test('served cross-origin isolated, the viewer runs the threaded build, a crowd\'s batch on its workers', async () => {
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  let s = await state();
  assert.equal(s.build.crossOriginIsolated, true, 'serve.mjs\'s headers make the page cross-origin isolated');
  assert.equal(s.build.threads, Math.min(cores, 8), `a thread per core up to 8 (${cores} cores)`);
  assert.ok(s.build.threads > 1, `this machine has ${cores} cores: the threaded build runs on 2 or more`);
  const hud = await page.evaluate(() => document.getElementById('hud').textContent);
  assert.match(hud, new RegExp(`build threads ${s.build.threads}`), `the HUD names the build: ${hud}`);
  await openScene('world/crowd-jam-10.json');
  await page.waitForFunction(() => window.treadViewer.state().frame > 10, null, { timeout: 20000 });
  s = await state();
  assert.equal(s.build.threads, Math.min(cores, 8));
  // The scene's batch (tread_batch_def_default: a thread per core) holds the module's workers while it runs.
  const running = await page.evaluate(() => window.treadViewer.app.tread.module.PThread.runningWorkers.length);
  assert.equal(running, s.build.threads - 1, 'the batch runs on every worker of the pool');
  await openScene('course/S01-stairs-up.json');
});

test('the strategy switcher changes every character\'s strategy', async () => {
  for (const strategy of ['contact', 'cast_down', 'riser', 'sweep']) {
    await page.selectOption('#strategy', strategy);
    assert.equal((await state()).strategy, strategy, `after choosing ${strategy} in the panel`);
  }
});

test('a tread run --trace file replays to its last row', async (t) => {
  const tread = path.join(buildDir, 'tread');
  if (!fs.existsSync(tread)) return t.skip(`${tread} is not built`);
  const csv = path.join(buildDir, 'viewer-S1-trace.csv');
  execFileSync(tread, ['run', path.join(root, 'scenes/course/S01-stairs-up.json'), '--trace', csv], { stdio: 'ignore' });
  const text = fs.readFileSync(csv, 'utf8');
  const lines = text.trim().split('\n');
  const header = lines[0].split(','), last = lines.at(-1).split(',');
  const want = Object.fromEntries(['frame', 'x', 'y', 'z'].map((k) => [k, Number(last[header.indexOf(k)])]));
  await page.evaluate((csvText) => window.treadViewer.replay(csvText, 'S1.csv'), text);
  await page.evaluate(() => window.treadViewer.app.seek(1e9));
  const drawn = (frame) => page.waitForFunction((n) => window.treadViewer.state().mode === 'replay' && window.treadViewer.state().frame === n, frame, { timeout: 10000 });
  await drawn(want.frame).catch(async () => {
    const s = await state();
    assert.fail(`after seeking to the end the viewer shows frame ${s.frame} in mode ${s.mode}; the trace has ${want.frame} frames`);
  });
  const s = await state();
  for (const k of ['x', 'y', 'z']) assert.equal(s.characters[0].position[k], want[k], `feet ${k} at the last frame`);
});

// The camera's state after at least one more drawn frame.
const nextFrame = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
const camera = async () => (await state()).camera;

// Where the eight corners of a box land in the camera's normalized device coordinates (x, y in [-1, 1] is in view,
// z in [-1, 1] between the near and far planes), by the page's own three.js camera.
const projectCorners = (box) => page.evaluate((b) => {
  const cam = window.treadViewer.app.stage.camera;
  cam.updateMatrixWorld();
  const V = cam.position.constructor, out = [];
  for (const x of [b.min.x, b.max.x]) for (const y of [b.min.y, b.max.y]) for (const z of [b.min.z, b.max.z]) {
    const p = new V(x, y, z).project(cam);
    out.push({ x: p.x, y: p.y, z: p.z });
  }
  return out;
}, box);

test('the overview (O) frames the scene\'s bounds from above, and O again goes back', async () => {
  // S8: a 100 m wall along X beside the walker, on a 100 x 100 m floor (a ground slab, left out of the bounds).
  await openScene('course/S08-wall-slide.json');
  await nextFrame();
  const before = await camera();
  assert.equal(before.mode, 'third');
  await page.keyboard.press('KeyO');
  await nextFrame();
  const cam = await camera();
  assert.equal(cam.mode, 'overview', 'O switches to the overview');
  const b = cam.bounds, near = (a, e, what) => assert.ok(Math.abs(a - e) < 1e-3, `${what}: ${a}, expected ${e}`);
  // The wall's box (x -50 .. 50, y 0 .. 3, z 1 .. 2) and the walker (feet at the origin, radius 0.3, 1.8 m tall).
  near(b.min.x, -50, 'bounds min x'), near(b.max.x, 50, 'bounds max x'), near(b.min.y, 0, 'bounds min y (the floor slab left out)');
  near(b.max.y, 3, 'bounds max y'), near(b.min.z, -0.3, 'bounds min z (the walker)'), near(b.max.z, 2, 'bounds max z');
  const corners = await projectCorners(b);
  for (const c of corners) {
    assert.ok(Math.abs(c.x) <= 1 && Math.abs(c.y) <= 1 && c.z > -1 && c.z < 1, `a corner of the bounds is out of the overview: ${JSON.stringify(c)}`);
  }
  const widest = Math.max(...corners.map((c) => Math.max(Math.abs(c.x), Math.abs(c.y))));
  assert.ok(widest > 0.5, `the bounds fill the view (widest corner at ${widest.toFixed(2)} of the half-width), not a speck`);
  assert.ok(cam.position.y > b.max.y + 10 && cam.direction.y < -0.5, `the overview looks down from above: ${JSON.stringify(cam)}`);
  const moved = Math.hypot(cam.position.x - before.position.x, cam.position.y - before.position.y, cam.position.z - before.position.z);
  assert.ok(moved > 10, `the camera moved to the overview (${moved.toFixed(1)} m)`);
  const hud = await page.evaluate(() => document.getElementById('hud').textContent);
  assert.match(hud, /camera overview \(O\)/, `the HUD names the overview: ${hud}`);
  // A crowd: every character in view (opened from the page, so the overview stays on).
  await page.evaluate(() => window.treadViewer.open('world/crowd-jam-10.json'));
  await nextFrame();
  const crowd = await camera();
  assert.equal(crowd.mode, 'overview', 'the overview stays on across scenes');
  const jam = await state();
  assert.equal(jam.scene, 'crowd-jam-10');
  const feet = jam.characters.map((c) => c.position);
  assert.ok(feet.length >= 10, `the crowd has its characters (${feet.length})`);
  for (const p of feet) {
    const [c] = await projectCorners({ min: p, max: p });
    assert.ok(Math.abs(c.x) <= 1 && Math.abs(c.y) <= 1, `a character of the crowd is out of the overview: ${JSON.stringify(p)} at ${JSON.stringify(c)}`);
  }
  await page.keyboard.press('KeyO');
  await nextFrame();
  assert.equal((await camera()).mode, 'third', 'O again goes back to the third-person camera');
});

test('a wall between the third-person camera and the character shortens the boom, which grows back smoothly', async () => {
  // S8's walker stands at the origin; the wall's near face is at z = 1, 3 m high. Looking along -Z puts the rest
  // position of the camera (5 m back, 1.2 m up) at z = 4.8, behind the wall.
  await openScene('course/S08-wall-slide.json');
  await page.evaluate(() => Object.assign(window.treadViewer.app.rig, { yaw: -Math.PI / 2, pitch: -0.25, distance: 5 }));
  await nextFrame();
  await nextFrame();
  const blocked = await camera();
  assert.equal(blocked.mode, 'third');
  assert.ok(blocked.blocked, `the world is in the way: ${JSON.stringify(blocked)}`);
  assert.ok(blocked.boom < blocked.rest - 3, `the boom is shortened: ${blocked.boom} of ${blocked.rest} m`);
  // The camera's sphere (0.2 m) stops at the wall's face: the camera is on the walker's side of the wall.
  assert.ok(blocked.position.z <= 1 - 0.2 + 1e-3, `the camera stays in front of the wall (z ${blocked.position.z.toFixed(3)})`);
  assert.ok(blocked.position.z > 0, `the camera is still behind the walker (z ${blocked.position.z.toFixed(3)})`);
  // Turn to the open side (-Z): the boom grows back over several frames, not at once.
  await page.evaluate(() => (window.treadViewer.app.rig.yaw = Math.PI / 2));
  await nextFrame();
  const first = await camera();
  assert.ok(!first.blocked, 'nothing in the way on the open side');
  assert.ok(first.boom < first.rest - 1, `the boom does not pop back out: ${first.boom.toFixed(2)} of ${first.rest} m one or two frames after`);
  let last = first, started = Date.now();
  while (last.boom < last.rest && Date.now() - started < 20000) {
    await nextFrame();
    const now = await camera();
    assert.ok(now.boom >= last.boom - 1e-6, `the boom only grows on the open side (${last.boom} then ${now.boom})`);
    last = now;
  }
  assert.equal(last.boom, last.rest, `the boom is back at its rest length within 20 s (${last.boom})`);
});

test('a lift counts where it is now: riding it up, a boom looking up from under it is cut at the lift', async () => {
  // lift-stop-and-go: a 3 x 0.5 x 3 m lift rises from the floor to 3 m between 1 and 2 s and waits there until 3 s,
  // its rider on it. Looking up at 1.2 rad the boom goes down through the lift's top. Had the camera's cast seen the
  // lift where it started (on the floor), the boom would reach 4 m or more; cut at the raised lift it is about 1.2 m.
  await openScene('moving/lift-stop-and-go.json');
  await page.evaluate(() => Object.assign(window.treadViewer.app.rig, { yaw: 0, pitch: 1.2, distance: 5 }));
  await page.waitForFunction(() => window.treadViewer.state().time >= 2.2, null, { timeout: 30000 });
  const s = await state();
  assert.ok(s.time < 3, `read while the lift waits at the top (t ${s.time.toFixed(2)} s)`);
  const rider = s.characters[0];
  assert.ok(Math.abs(rider.position.y - 3.5) < 0.01, `the rider is up on the lift (feet y ${rider.position.y})`);
  assert.ok(s.camera.blocked && s.camera.boom < 2, `the boom is cut at the raised lift: ${s.camera.boom.toFixed(2)} of ${s.camera.rest} m`);
  assert.ok(s.camera.position.y > 3.5, `the camera stays above the lift's top (y ${s.camera.position.y.toFixed(2)})`);
});

test('the level picker lists the installed OpenArena maps and walks one', async (t) => {
  const tread = path.join(buildDir, 'tread');
  if (!fs.existsSync(tread)) return t.skip(`${tread} is not built`);
  let maps;
  try {
    maps = execFileSync(tread, ['walk', '--list'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).split('\n').filter(Boolean);
  } catch (e) {
    // Without Debian's openarena-081-maps the picker says so, and nothing else changes.
    const note = await page.locator('#level-note').textContent();
    assert.match(note, /cannot open|openarena/i, `the picker says the maps are missing: ${note}`);
    return t.skip(`the maps package is not installed (${String(e.stderr ?? e.message).trim()}): scripts/deps.sh levels installs it`);
  }
  const listed = await page.evaluate(() => [...document.querySelectorAll('#level-list option')].map((o) => o.value).filter(Boolean));
  assert.deepEqual(listed, maps, 'the picker lists what tread walk --list finds');
  // The scene the server makes is tread walk's own conversion, at spawn 0.
  const scene = JSON.parse(execFileSync(tread, ['walk', 'oa_dm1', '--scene'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  const spawn = scene.characters[0].start;
  await page.selectOption('#level-list', 'oa_dm1');
  await page.waitForFunction(() => window.treadViewer.state().scene === 'oa_dm1' && window.treadViewer.state().frame > 0, null, { timeout: 20000 });
  let s = await state();
  assert.deepEqual(s.level, { map: 'oa_dm1', spawn: 0, shape: 'capsule' });
  // The player falls the centimetre from the spawn to the floor and stands there.
  const started = Date.now();
  while (s.characters[0].ground !== 'on_ground' && Date.now() - started < 15000) {
    await page.waitForTimeout(100);
    s = await state();
  }
  const p = s.characters[0].position;
  assert.equal(s.characters[0].ground, 'on_ground', `the player stands on oa_dm1's floor at spawn 0 (${JSON.stringify(p)})`);
  assert.ok(Math.hypot(p.x - spawn[0], p.z - spawn[2]) < 0.05 && p.y <= spawn[1] && p.y > spawn[1] - 0.6,
    `the player is at spawn 0 ${JSON.stringify(spawn)}: ${JSON.stringify(p)}`);
  // First person, then walking forward moves the player through the level.
  await page.keyboard.press('KeyV');
  await nextFrame();
  assert.equal((await camera()).mode, 'first', 'V gives the first-person view in a level');
  // Half a simulated second (software WebGL draws a level in about half a second a frame here).
  const from = (await state()).frame;
  await page.keyboard.down('KeyW');
  await page.waitForFunction((f) => window.treadViewer.state().frame >= f + 30, from, { timeout: 30000 }).catch(() => {});
  await page.keyboard.up('KeyW');
  const q = (await state()).characters[0].position;
  assert.ok(Math.hypot(q.x - p.x, q.z - p.z) > 0.5, `holding W walks the player (from ${JSON.stringify(p)} to ${JSON.stringify(q)})`);
  await page.keyboard.press('KeyV');
  await nextFrame();
  assert.equal((await camera()).mode, 'third');
});

test('served without the isolation headers, the viewer runs the build without threads and says so', async () => {
  await page.goto('about:blank'); // the level drawn last takes SwiftShader half a second a frame: let it go
  const plain = await serve(viewerDir, 0, { tread: path.join(buildDir, 'tread'), isolated: false });
  const other = await browser.newPage({ viewport: { width: 640, height: 360 } });
  other.on('console', (m) => m.type() === 'error' && problems.push(`console error (not isolated): ${m.text()} (${m.location().url})`));
  other.on('pageerror', (e) => problems.push(`uncaught (not isolated): ${e.message}`));
  try {
    await other.goto(`http://127.0.0.1:${plain.address().port}/?scene=course/S01-stairs-up.json`);
    await other.waitForFunction(() => window.treadViewer?.state().ready && window.treadViewer.state().frame > 5, null, { timeout: 30000 });
    const s = await other.evaluate(() => window.treadViewer.state());
    assert.deepEqual(s.build, { threads: 1, crossOriginIsolated: false });
    const hud = await other.evaluate(() => document.getElementById('hud').textContent);
    assert.match(hud, /build single \(page not cross-origin isolated\)/, `the HUD names the build: ${hud}`);
  } finally {
    await other.close();
    plain.close();
  }
});

test('the page logged no errors', () => {
  assert.deepEqual(problems, [], `the viewer logged errors:\n${problems.join('\n')}`);
});
