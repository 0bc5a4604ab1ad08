// SPDX-License-Identifier: MIT
// Double-precision sine and cosine of our own, for the one place scene building takes them in double: the C loader's
// ramp (tools/scene/geometry.c) calls libm's sin and cos of a double angle and rounds the results to float. Math.sin
// and Math.cos differ between JavaScript engines (each has its own libm port), so they are not used: this computes
// the series in double-double arithmetic (about 104 bits) and rounds once, giving the correctly rounded double, which
// is what glibc gives to within its last bit; after the loader's rounding to float both are the same float (the
// scene tests compare every ramp of the shipped scenes with the C loader's). Only for |x| <= 2 (ramps are 0..90
// degrees): no range reduction.

// Double-double helpers: a value is [hi, lo] with |lo| <= ulp(hi) / 2.
function twoSum(a, b) {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function split(a) {
  const c = 134217729 * a; // 2^27 + 1: Dekker's split into two 26-bit halves
  const hi = c - (c - a);
  return [hi, a - hi];
}

function twoProd(a, b) {
  const p = a * b;
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return [p, ((ah * bh - p) + ah * bl + al * bh) + al * bl];
}

function add(a, b) {
  const [s, e] = twoSum(a[0], b[0]);
  return twoSum(s, e + a[1] + b[1]);
}

function mul(a, b) {
  const [p, e] = twoProd(a[0], b[0]);
  return twoSum(p, e + a[0] * b[1] + a[1] * b[0]);
}

// a / n for a small positive integer n.
function divInt(a, n) {
  const q1 = a[0] / n;
  const [p, pe] = twoProd(q1, n);
  const r = twoSum(a[0] - p, a[1] - pe);
  return twoSum(q1, (r[0] + r[1]) / n);
}

// The Taylor series from `first` (x for sine, 1 for cosine), term k+1 = -term k * x^2 / ((n+1)(n+2)).
function series(x, first, n0) {
  const x2 = mul([x, 0], [x, 0]);
  let term = first;
  let sum = first;
  for (let n = n0; Math.abs(term[0]) > 1e-40; n += 2) {
    term = divInt(mul(term, x2), (n + 1) * (n + 2));
    term = [-term[0], -term[1]];
    sum = add(sum, term);
  }
  return sum[0] + sum[1];
}

export function sinDouble(x) {
  if (!(Math.abs(x) <= 2)) throw new Error(`sinDouble: ${x} is outside [-2, 2]`);
  return series(x, [x, 0], 1);
}

export function cosDouble(x) {
  if (!(Math.abs(x) <= 2)) throw new Error(`cosDouble: ${x} is outside [-2, 2]`);
  return series(x, [1, 0], 0);
}
