// SPDX-License-Identifier: MIT
// A small static file server for the built viewer (node's http module; no dependencies): `make serve` runs it, the
// browser test starts one on a free port. Serves files under one folder only, on localhost only.
//
//   node web/viewer/serve.mjs [DIR] [--port N]      (default web/dist/viewer, port 8080; 0 picks a free one)
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8', '.map': 'application/json; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.csv': 'text/csv; charset=utf-8', '.wasm': 'application/wasm',
};

// Start serving `dir` on 127.0.0.1:port. Resolves to the http.Server once it listens (server.address().port).
export function serve(dir, port = 0) {
  const base = path.resolve(dir);
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end('bad request');
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
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${pathname}`);
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
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
  const dir = args[0] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/viewer');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`web/viewer/serve.mjs: ${dir}/index.html is missing; run make web first`);
    process.exit(1);
  }
  const server = await serve(dir, port);
  console.log(`tread viewer: http://localhost:${server.address().port}/ (serving ${path.relative(process.cwd(), dir) || '.'}; Ctrl+C stops)`);
}
