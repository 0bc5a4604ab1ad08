// SPDX-License-Identifier: MIT
// Build the viewer into web/dist/viewer (what `make web` runs, after `make wasm` and `npm ci`):
//   viewer.js       web/viewer/main.mjs and everything it imports (three from npm, tread's WebAssembly build from
//                   web/dist) bundled by esbuild into one ES module
//   index.html, style.css
//   scenes/         every shipped scene file (scenes/**.json), and scenes/index.json listing them
//
//   node web/viewer/build.mjs [OUT_DIR]
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'web/dist/viewer'));

if (!fs.existsSync(path.join(root, 'web/dist/tread.mjs'))) {
  console.error('web/viewer/build.mjs: web/dist/tread.mjs is missing; run make wasm first');
  process.exit(1);
}
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: [path.join(here, 'main.mjs')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  outfile: path.join(out, 'viewer.js'),
  // Emscripten's module carries a node branch (never taken in a browser) that requires node's own modules.
  external: ['fs', 'path', 'crypto', 'module', 'url', 'worker_threads'],
  logLevel: 'warning',
  metafile: true,
});
for (const file of ['index.html', 'style.css']) fs.copyFileSync(path.join(here, file), path.join(out, file));

// The shipped scenes, folder by folder.
const scenesDir = path.join(root, 'scenes');
const index = [];
for (const group of fs.readdirSync(scenesDir).sort()) {
  const dir = path.join(scenesDir, group);
  if (!fs.statSync(dir).isDirectory()) continue;
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    fs.mkdirSync(path.join(out, 'scenes', group), { recursive: true });
    fs.copyFileSync(path.join(dir, name), path.join(out, 'scenes', group, name));
    index.push({ path: `${group}/${name}`, group, name: name.slice(0, -5) });
  }
}
fs.writeFileSync(path.join(out, 'scenes', 'index.json'), JSON.stringify(index, null, 1) + '\n');
const bytes = result.metafile.outputs[Object.keys(result.metafile.outputs).find((k) => k.endsWith('viewer.js'))].bytes;
console.log(`web/viewer/build.mjs: ${path.relative(root, out)}/ (viewer.js ${(bytes / 1024).toFixed(0)} KiB, ${index.length} scenes)`);
