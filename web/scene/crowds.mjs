// SPDX-License-Identifier: MIT
// Crowds of a scene file (docs/SCENES.md, "Crowds") as tools/scene/crowds.c makes them: many characters from a
// generator, on free spots of a grid over an area taken in a seeded shuffled order, each walking toward targets
// picked every `every` seconds. Every random number is a SplitMix64 hash of the seed, the character, the pick and the
// coordinate, in 64-bit integers (BigInt here), so a crowd is the same characters, bit for bit, as in C.
import { OPEN_LO, g, index, key } from './json.mjs';

const M64 = (1n << 64n) - 1n;
const NAME_MAX = 64;
const MAX_CROWDS = 16;
const MAX_CROWD_CHARACTERS = 10000;
const MAX_CROWD_INPUTS = 1000000;
const f = Math.fround;

function mix(x) {
  x = (x + 0x9e3779b97f4a7c15n) & M64;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & M64;
  return x ^ (x >> 31n);
}

// A uniform double in [0, 1) from the seed and three coordinates.
function draw(seed, a, b, c) {
  const h = mix(mix(mix(mix(seed) ^ BigInt.asUintN(64, BigInt(a))) ^ BigInt(b)) ^ BigInt(c));
  return Number(h >> 11n) * (1 / 9007199254740992);
}

function area(r, obj, jp, name) {
  const p = key(jp, name);
  const j = r.object(r.need(obj, jp, name), p);
  r.fields(j, p, ['min', 'max']);
  const lo = r.needVec3(j, p, 'min'), hi = r.needVec3(j, p, 'max');
  if (!(lo.x < hi.x && lo.z < hi.z && lo.y <= hi.y))
    r.fail(p, `min [${g(lo.x)}, ${g(lo.y)}, ${g(lo.z)}] must be below max [${g(hi.x)}, ${g(hi.y)}, ${g(hi.z)}] in x and z (and not above it in y)`);
  return [lo, hi];
}

// The grid's free spots in the seeded order: feet at area min's y (Fisher-Yates; only the first `count` are used).
function spawnSpots(r, jp, c) {
  const pitch = 2 * c.settings.radius + c.spacing;
  const width = c.areaMax.x - c.areaMin.x, depth = c.areaMax.z - c.areaMin.z;
  const nx = Math.floor(width / pitch), nz = Math.floor(depth / pitch);
  if (nx * nz < c.count)
    r.fail(key(jp, 'count'), `${c.count} characters ${g(2 * c.settings.radius, 3)} m wide with ${g(c.spacing, 3)} m between them do not fit in the ${g(width, 3)} x ${g(depth, 3)} m area: at most ${nx * nz}`);
  const cells = nx * nz, columns = nx;
  const order = Array.from({ length: cells }, (_, i) => i);
  for (let i = cells - 1; i > 0; --i) {
    const k = Math.floor(draw(c.seed, -1, i, 0) * (i + 1));
    [order[i], order[k]] = [order[k], order[i]];
  }
  const spots = [];
  for (let m = 0; m < c.count; ++m) {
    const cell = order[cells - 1 - m];
    spots.push({ x: f(c.areaMin.x + ((cell % columns) + 0.5) * (width / nx)), y: c.areaMin.y, z: f(c.areaMin.z + (Math.floor(cell / columns) + 0.5) * (depth / nz)) });
  }
  return spots;
}

// One crowd's characters, appended to scene.characters. helpers: { readSettings, validate, checkSpeed }.
function addCrowd(r, scene, j, jp, i, helpers, totals) {
  r.object(j, jp);
  r.fields(j, jp, ['name', 'count', 'area', 'seed', 'settings', 'speed', 'targets', 'every', 'spacing']);
  const name = r.string(r.need(j, jp, 'name'), key(jp, 'name'), NAME_MAX - 1);
  if (name === '' || name.length > NAME_MAX - 8 || name.includes('#'))
    r.fail(key(jp, 'name'), `"${name}": expected 1 to ${NAME_MAX - 8} characters, without '#'`);
  const count = r.integer(r.need(j, jp, 'count'), key(jp, 'count'), 1, MAX_CROWD_CHARACTERS);
  const seed = 'seed' in j ? BigInt(r.integer(j.seed, key(jp, 'seed'), 0, 4294967295)) : 1n;
  const [areaMin, areaMax] = area(r, j, jp, 'area');
  const [targetMin, targetMax] = area(r, j, jp, 'targets');
  const speed = r.needFloat(j, jp, 'speed', 0, Infinity);
  const every = r.optFloat(j, jp, 'every', 0, Infinity, OPEN_LO) ?? 0;
  const spacing = r.optFloat(j, jp, 'spacing', 0, 100) ?? f(0.1);
  const settings = helpers.readSettings(j, jp);
  helpers.validate(settings, areaMin, jp, 'settings' in j ? key(jp, 'settings') : jp, 'area');
  const other = scene.crowds.findIndex((x) => x.name === name);
  if (other >= 0) r.fail(key(jp, 'name'), `"${name}" is already crowds[${other}]'s name`);
  helpers.checkSpeed(settings, { x: 1, y: 0, z: 0 }, speed, key(jp, 'speed'));
  const picks = Math.max(every > 0 ? Math.ceil(scene.duration / every) : 1, 1);
  if (totals.inputs + picks * count > MAX_CROWD_INPUTS)
    r.fail(key(jp, every > 0 ? 'every' : 'count'), `${count} characters x ${picks} targets each: the crowds would hold more than ${MAX_CROWD_INPUTS} targets`);
  totals.inputs += picks * count;
  const c = { count, seed, areaMin, areaMax, spacing, settings };
  const spots = spawnSpots(r, jp, c);
  scene.crowds.push({ name, first: scene.characters.length, count });
  for (let m = 0; m < count; ++m) {
    const inputs = [];
    for (let k = 0; k < picks; ++k) {
      const u = draw(seed, m, k, 1), w = draw(seed, m, k, 2);
      inputs.push({
        t: f(k * every), kind: 'toward', direction: { x: 0, y: 0, z: 0 }, speed, jump: -1, crouch: -1,
        target: { x: f(targetMin.x + u * (targetMax.x - targetMin.x)), y: targetMin.y, z: f(targetMin.z + w * (targetMax.z - targetMin.z)) },
      });
    }
    scene.characters.push({ name: `${name.slice(0, 56)}#${m}`, crowd: i, start: spots[m], settings: structuredClone(settings), has_motor: false, motor: null, inputs });
  }
  return count;
}

export function parseCrowds(r, scene, root, helpers) {
  scene.crowds = [];
  if (!('crowds' in root)) return;
  const list = r.array(root.crowds, 'crowds');
  if (list.length < 1 && scene.characters.length === 0) r.fail('crowds', 'is empty and no character is listed; a scene needs at least one character');
  if (list.length > MAX_CROWDS) r.fail('crowds', `has ${list.length} crowds; at most ${MAX_CROWDS}`);
  if (scene.up.x !== 0 || scene.up.y !== 1 || scene.up.z !== 0)
    r.fail('crowds', "need the scene's up to be [0, 1, 0] (crowd areas lie in x and z); run the scene with --up to turn it");
  const totals = { inputs: 0 };
  let total = 0;
  list.forEach((e, i) => {
    const p = index('crowds', i);
    total += addCrowd(r, scene, e, p, i, helpers, totals);
    if (total > MAX_CROWD_CHARACTERS) r.fail(p, `the crowds hold ${total} characters; at most ${MAX_CROWD_CHARACTERS}`);
  });
  scene.characters.forEach((c, i) => {
    if (c.crowd >= 0) return;
    const k = scene.crowds.findIndex((crowd) => c.name.startsWith(`${crowd.name}#`));
    if (k >= 0) r.fail(key(index('characters', i), 'name'), `"${c.name}" is a name of crowds[${k}]'s characters`);
  });
}
