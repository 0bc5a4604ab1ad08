// SPDX-License-Identifier: MIT
// The viewer in a real browser (make test-browser): playwright-core from npm drives Debian's chromium headless (no
// browser download; software WebGL through SwiftShader) against web/dist/viewer served by web/viewer/serve.mjs on a
// free port. It holds W on S1 (scenes/course/S01-stairs-up.json, ten steps of 0.2 m up to a landing at 2 m) and
// checks that the character walks up to the top landing, through the motor, in the browser; that a
// `tread run --trace` file replays to its last row; that the page logged no error; and saves a screenshot
// ($BUILD/viewer-S1.png, and also $SCREENSHOT when set: `make screenshot` writes docs/img/viewer.png).
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
  server = await serve(viewerDir, 0);
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

test('the page logged no errors', () => {
  assert.deepEqual(problems, [], `the viewer logged errors:\n${problems.join('\n')}`);
});
