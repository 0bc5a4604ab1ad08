// SPDX-License-Identifier: MIT
// Build the viewer into web/dist/viewer (what `make web` runs, after `make wasm` and `npm ci`):
//   viewer.js       web/viewer/main.mjs and everything it imports (three from npm, tread's wrapper from web/dist)
//                   bundled by esbuild into one ES module
//   tread_wasm.mjs, threads/
//                   tread's two WebAssembly builds (web/dist/lib), beside viewer.js rather than in it: the wrapper
//                   imports the one it picks when the page starts (the threaded one where the page is
//                   crossOriginIsolated, as serve.mjs serves it), and each worker of the threaded one imports
//                   threads/tread_wasm.mjs itself, which a bundle could not give it
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
  // The wrapper's import('./tread_wasm.mjs') and import('./threads/tread_wasm.mjs') stay imports, of the copies
  // beside viewer.js (below).
  plugins: [{
    name: 'tread-modules',
    setup(b) {
      b.onResolve({ filter: /(^|\/)(threads\/)?tread_wasm\.mjs$/ }, (args) => ({ path: args.path, external: true }));
    },
  }],
  logLevel: 'warning',
  metafile: true,
});
for (const file of ['index.html', 'style.css']) fs.copyFileSync(path.join(here, file), path.join(out, file));
fs.copyFileSync(path.join(root, 'web/dist/lib/tread_wasm.mjs'), path.join(out, 'tread_wasm.mjs'));
fs.cpSync(path.join(root, 'web/dist/lib/threads'), path.join(out, 'threads'), { recursive: true });

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
