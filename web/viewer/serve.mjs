// SPDX-License-Identifier: MIT
// A small static file server for the built viewer (node's http module; no dependencies): `make serve` runs it, the
// browser test starts one on a free port. Serves files under one folder only, on localhost only.
//
// Every response carries the cross-origin isolation headers (ISOLATION): a browser gives a page SharedArrayBuffer,
// and so tread's threaded build (its workers share the module's memory), only when the page is crossOriginIsolated.
// Served without them (another static server) the viewer runs the build without threads, the same bits slower.
//
// It also hands the viewer the real levels `make levels` walks (docs/LEVELS.md), converted on request by the native
// `tread` command, so nothing converted from the game's data is ever written to disk:
//   levels/index.json           { installed, maps: ['aggressor', ...], message }   (`tread walk --list`)
//   levels/MAP.json?spawn=I&shape=capsule|box
//                               the map as a scene file (`tread walk MAP --scene --spawn I --shape S`)
// The command is $TREAD, else $BUILD/tread, else build/tread; without it or without the maps package (Debian's
// openarena-081-maps), index.json says so (installed: false) and the rest of the viewer works as before.
//
//   node web/viewer/serve.mjs [DIR] [--port N] [--tread PATH] [--no-isolation]
//                                  (default web/dist/viewer, port 8080; 0: a free one)
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LEVEL_BYTES = 64 << 20; // the largest OpenArena map is about 1.2 MB as a scene

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.map': 'application/json; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.csv': 'text/csv; charset=utf-8', '.wasm': 'application/wasm',
};

// Cross-Origin-Opener-Policy keeps other origins' windows out of the page's browsing context group, and
// Cross-Origin-Embedder-Policy makes every subresource opt in (all of the viewer's are from this server, which says so
// with Cross-Origin-Resource-Policy): together they make the page crossOriginIsolated.
export const ISOLATION = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
};

// The native command that converts levels: options.tread, $TREAD, $BUILD/tread, build/tread.
export function treadCommand(explicit = null) {
  if (explicit) return path.resolve(explicit);
  if (process.env.TREAD) return path.resolve(process.env.TREAD);
  return path.resolve(root, process.env.BUILD ?? 'build', 'tread');
}

function run(command, args) {
  return new Promise((resolve) => {
    execFile(command, args, { maxBuffer: LEVEL_BYTES, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ ok: !error, stdout, message: (stderr || error?.message || '').trim() }));
  });
}

// The maps `tread walk --list` finds (asked once; a failure is asked again next time).
function levels(tread) {
  let listed = null;
  return async () => {
    if (listed) return listed;
    if (!fs.existsSync(tread)) return { installed: false, maps: [], message: `${tread} is not built (make build), so levels cannot be converted` };
    const r = await run(tread, ['walk', '--list']);
    if (!r.ok) return { installed: false, maps: [], message: `${r.message} (the maps come from Debian's openarena-081-maps: scripts/deps.sh levels)` };
    listed = { installed: true, maps: r.stdout.split('\n').filter(Boolean), message: '' };
    return listed;
  };
}

async function serveLevel(res, pathname, query, list, tread, isolation) {
  const json = (status, value) => res.writeHead(status, { ...isolation, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' })
    .end(JSON.stringify(value) + '\n');
  const known = await list();
  if (pathname === '/levels/index.json') return json(200, known);
  const map = /^\/levels\/([A-Za-z0-9_-]+)\.json$/.exec(pathname)?.[1];
  if (!map || !known.maps.includes(map)) return json(404, { error: known.installed ? `no map ${pathname.slice(8)}` : known.message });
  const spawn = query.get('spawn') ?? '0', shape = query.get('shape') ?? 'capsule';
  if (!/^\d{1,4}$/.test(spawn) || !['capsule', 'box'].includes(shape)) return json(400, { error: 'spawn is a number, shape capsule or box' });
  const r = await run(tread, ['walk', map, '--scene', '--spawn', spawn, '--shape', shape]);
  if (!r.ok) return json(400, { error: r.message });
  res.writeHead(200, { ...isolation, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(r.stdout);
}

// Start serving `dir` on 127.0.0.1:port. Resolves to the http.Server once it listens (server.address().port).
// options.tread: the `tread` command for levels (default treadCommand()); options.isolated: false serves without the
// isolation headers (the viewer then runs the build without threads, as behind another static server).
export function serve(dir, port = 0, options = {}) {
  const base = path.resolve(dir);
  const isolation = options.isolated === false ? {} : ISOLATION;
  const tread = treadCommand(options.tread);
  const list = levels(tread);
  const server = http.createServer((req, res) => {
    let pathname, query;
    try {
      const u = new URL(req.url, 'http://localhost');
      pathname = decodeURIComponent(u.pathname);
      query = u.searchParams;
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (pathname.startsWith('/levels/')) {
      serveLevel(res, pathname, query, list, tread, isolation).catch((e) => res.writeHead(500).end(String(e.message ?? e)));
      return;
    }
    let file = path.join(base, pathname);
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (error, data) => {
      if (error) {
        res.writeHead(404, { ...isolation, 'content-type': 'text/plain' }).end(`not found: ${pathname}`);
        return;
      }
      res.writeHead(200, { ...isolation, 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const p = args.indexOf('--port');
  const port = p >= 0 ? Number(args.splice(p, 2)[1]) : 8080;
  const t = args.indexOf('--tread');
  const tread = t >= 0 ? args.splice(t, 2)[1] : null;
  const n = args.indexOf('--no-isolation');
  const isolated = n < 0;
  if (n >= 0) args.splice(n, 1);
  const dir = args[0] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/viewer');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`web/viewer/serve.mjs: ${dir}/index.html is missing; run make web first`);
    process.exit(1);
  }
  const server = await serve(dir, port, { tread, isolated });
  console.log(`tread viewer: http://localhost:${server.address().port}/ (serving ${path.relative(process.cwd(), dir) || '.'}` +
    `${isolated ? ', cross-origin isolated: the threaded build' : ', not isolated: the build without threads'}; Ctrl+C stops)`);
  const known = await levels(treadCommand(tread))();
  console.log(known.installed ? `levels: ${known.maps.length} maps through ${treadCommand(tread)}` : `levels: none (${known.message})`);
}
