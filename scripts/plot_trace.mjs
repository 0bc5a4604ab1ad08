#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Plot a `tread run SCENE --trace FILE.csv` file (columns: docs/SCENES.md, "Traces") as an SVG: height along up of
// the feet and of the step-smoothed camera over time, for the first character, with a mark at each frame the stairs
// phase lifted the feet (stepped > 0). `make course-plot` makes docs/img/S1-climb.svg with it from S1.
//
//   node scripts/plot_trace.mjs TRACE.csv OUT.svg [--title TEXT] [--character NAME] [--until SECONDS]
import fs from 'node:fs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const title = option('--title');
const wanted = option('--character');
const until = option('--until');
if (args.length !== 2) {
  console.error('usage: node scripts/plot_trace.mjs TRACE.csv OUT.svg [--title TEXT] [--character NAME] [--until SECONDS]');
  process.exit(2);
}
const [input, output] = args;
const lines = fs.readFileSync(input, 'utf8').trim().split('\n');
const header = lines[0].split(',');
const col = (name) => {
  const i = header.indexOf(name);
  if (i < 0) throw new Error(`${input}: no column ${name}; is it a tread run --trace file?`);
  return i;
};
const [cT, cName, cY, cStepped, cCamera] = ['t', 'character', 'y', 'stepped', 'camera'].map(col);
const rows = lines.slice(1).map((l) => l.split(','));
const name = wanted ?? rows[0]?.[cName];
const data = rows.filter((r) => r[cName] === name).map((r) => ({ t: +r[cT], feet: +r[cY], camera: +r[cCamera], stepped: +r[cStepped] }))
  .filter((d) => until === undefined || d.t <= Number(until) + 1e-9);
if (!data.length) throw new Error(`${input}: no rows for character ${name}`);

// Layout and scales.
const W = 720, H = 360, L = 56, R = 16, T = 40, B = 44;
const tMax = until === undefined ? data.at(-1).t : Number(until);
const yMin = Math.min(0, ...data.map((d) => Math.min(d.feet, d.camera)));
const yMax = Math.max(...data.map((d) => Math.max(d.feet, d.camera))) * 1.05 || 1;
const x = (t) => L + (t / tMax) * (W - L - R);
const y = (v) => H - B - ((v - yMin) / (yMax - yMin)) * (H - T - B);
const line = (key) => data.map((d, i) => `${i ? 'L' : 'M'}${x(d.t).toFixed(1)},${y(d[key]).toFixed(1)}`).join('');
const niceStep = (span, n) => {
  const raw = span / n, p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
};
const ticks = (lo, hi, step) => {
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(+v.toFixed(6));
  return out;
};
const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);

const parts = [];
parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
parts.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
parts.push(`<text x="${L}" y="22" font-size="14" font-weight="bold">${esc(title ?? `${name}: height over time`)}</text>`);
for (const v of ticks(yMin, yMax, niceStep(yMax - yMin, 6))) {
  parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e3e7ec"/>`);
  parts.push(`<text x="${L - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#555">${v}</text>`);
}
for (const t of ticks(0, tMax, niceStep(tMax, 8))) {
  parts.push(`<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${T}" y2="${H - B}" stroke="#f0f2f5"/>`);
  parts.push(`<text x="${x(t).toFixed(1)}" y="${H - B + 16}" text-anchor="middle" fill="#555">${t}</text>`);
}
parts.push(`<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="none" stroke="#99a"/>`);
parts.push(`<text x="${(L + W - R) / 2}" y="${H - 8}" text-anchor="middle">time (s)</text>`);
parts.push(`<text transform="translate(16 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">height along up (m)</text>`);
parts.push(`<path d="${line('feet')}" fill="none" stroke="#d9822b" stroke-width="2"/>`);
parts.push(`<path d="${line('camera')}" fill="none" stroke="#2b6cb0" stroke-width="2" stroke-dasharray="6 3"/>`);
for (const d of data.filter((d) => d.stepped > 1e-4))
  parts.push(`<path d="M${x(d.t).toFixed(1)},${(y(d.feet) - 9).toFixed(1)}l-3.5,5h7z" fill="#d9822b"/>`);
const steps = data.filter((d) => d.stepped > 1e-4).length;
const legend = [
  ['#d9822b', '', 'feet'],
  ['#2b6cb0', '6 3', 'camera: feet + step smoothing offset'],
];
legend.forEach(([color, dash, label], i) => {
  const ly = H - B - 62 + i * 18;
  parts.push(`<line x1="${W - R - 270}" x2="${W - R - 244}" y1="${ly - 4}" y2="${ly - 4}" stroke="${color}" stroke-width="2" stroke-dasharray="${dash}"/>`);
  parts.push(`<text x="${W - R - 238}" y="${ly}">${esc(label)}</text>`);
});
parts.push(`<path d="M${W - R - 257},${H - B - 62 + 2 * 18 - 9}l-3.5,5h7z" fill="#d9822b"/><text x="${W - R - 238}" y="${H - B - 62 + 2 * 18}">frames with a step up (${steps})</text>`);
parts.push('</svg>');
fs.writeFileSync(output, parts.join('\n') + '\n');
console.log(`scripts/plot_trace.mjs: ${output} (${name}, ${data.length} frames, ${steps} step-up frames)`);
