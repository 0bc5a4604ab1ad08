// SPDX-License-Identifier: MIT
// Layers and bodies of a scene file, as tools/scene/geometry.c builds them, number for number: boxes (by corners or
// centre), spheres, capsules, ramps, inline meshes, heightfields, voxel grids; one-way and sensor flags; dynamic
// bodies' parameters; conveyor surfaces; kinematic bodies at constant velocities
// and keyframed paths (motion.mjs). Not here: mesh files (the C loader reads them with assimp). Each body comes out as
// a definition World.addBody takes, with its path (null: none) and dynamic parameters (null: not dynamic).
import * as V from './f32.mjs';
import { OPEN_HI, OPEN_LO, g, key, index } from './json.mjs';
import { parsePath, pathTransform } from './motion.mjs';
import { cosDouble, sinDouble } from './trig.mjs';

const MAX_LAYERS = 32;
const MAX_BODIES = 65536;
const MAX_GRID_CELLS = 1 << 24;
const MAX_COORDINATE = 65536;
const NAME_MAX = 63;
const f = Math.fround;

export function parseLayers(r, root, scene) {
  if (!('layers' in root)) {
    scene.layers = [{ name: 'default', walkable_degrees: -1 }];
    return;
  }
  const list = r.array(root.layers, 'layers');
  if (list.length < 1) r.fail('layers', 'needs at least one layer (leave the field out for a single "default" layer)');
  if (list.length > MAX_LAYERS) r.fail('layers', `has ${list.length} layers; at most ${MAX_LAYERS}`);
  scene.layers = [];
  list.forEach((e, i) => {
    const p = index('layers', i);
    r.object(e, p);
    r.fields(e, p, ['name', 'walkable_degrees']);
    r.need(e, p, 'name');
    const layer = { name: r.string(e.name, key(p, 'name'), NAME_MAX), walkable_degrees: r.optFloat(e, p, 'walkable_degrees', 0, 90, OPEN_HI) ?? -1 };
    if (layer.name === '') r.fail(p, 'layer name is empty');
    if (scene.layers.some((l) => l.name === layer.name)) r.fail(p, `layer "${layer.name}" is named twice`);
    for (const other of scene.layers)
      if (layer.walkable_degrees >= 0 && other.walkable_degrees >= 0 && other.walkable_degrees !== layer.walkable_degrees)
        r.fail(p, `walkable_degrees is ${layer.walkable_degrees} but layer "${other.name}" has ${other.walkable_degrees}; all layers with their own walkable angle share one`);
    scene.layers.push(layer);
  });
}

export function layerRef(r, v, jp, scene) {
  if (typeof v !== 'string') r.fail(jp, `expected a layer name (a string), got ${typeof v}`);
  const i = scene.layers.findIndex((l) => l.name === v);
  if (i < 0) r.fail(jp, `unknown layer "${v}"`);
  return i;
}

// {"axis": [..], "degrees": a} or {"quaternion": [x, y, z, w]} (tools/scene/json_read.c's js_read_rotation): the
// quaternion, and for an axis and degrees also the unit axis and the angle in double radians as given (a path key
// turns through more than a turn when it says so).
export function readRotationParts(r, tread, v, jp) {
  r.object(v, jp);
  r.fields(v, jp, ['axis', 'degrees', 'quaternion']);
  if ('quaternion' in v) {
    if ('axis' in v || 'degrees' in v) r.fail(jp, 'give either "quaternion" or "axis" and "degrees", not both');
    const p = key(jp, 'quaternion');
    if (!Array.isArray(v.quaternion) || v.quaternion.length !== 4) r.fail(p, 'expected an array of 4 numbers [x, y, z, w]');
    const [x, y, z, w] = v.quaternion.map((e, i) => r.float(e, index(p, i), -1e6, 1e6));
    const q = { x, y, z, w };
    if (!(V.quatLengthSq(q) > f(1e-12))) r.fail(p, 'is the zero quaternion');
    return { q: V.quatNormalize(q), hasAxis: false };
  }
  const axis = r.needVec3(v, jp, 'axis');
  const degrees = r.needFloat(v, jp, 'degrees', -1e6, 1e6);
  if (!(V.length(axis) > f(1e-6))) r.fail(key(jp, 'axis'), 'is the zero vector');
  // Degrees to radians in double, then one rounding to float, as the C loader does.
  const radians = (degrees * Math.PI) / 180;
  return { q: tread.quatFromAxisAngle(V.normalize(axis), f(radians)), hasAxis: true, axis: V.normalize(axis), radians };
}

export const readRotation = (r, tread, v, jp) => readRotationParts(r, tread, v, jp).q;

const rotationOf = (r, tread, obj, jp) => ('rotation' in obj ? readRotation(r, tread, obj.rotation, key(jp, 'rotation')) : V.quatIdentity());

function parseBox(r, tread, j, jp, def) {
  const corners = 'min' in j || 'max' in j;
  const centred = 'center' in j || 'half_extents' in j;
  if (corners && centred) r.fail(jp, 'give either "min" and "max" or "center" and "half_extents", not both');
  if (!corners && !centred) r.fail(jp, 'missing required fields: "min" and "max", or "center" and "half_extents"');
  if (corners) {
    if ('rotation' in j) r.fail(jp, '"rotation" needs the "center" and "half_extents" form');
    const lo = r.needVec3(j, jp, 'min'), hi = r.needVec3(j, jp, 'max');
    if (!(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z))
      r.fail(jp, `min [${g(lo.x)}, ${g(lo.y)}, ${g(lo.z)}] must be below max [${g(hi.x)}, ${g(hi.y)}, ${g(hi.z)}] on every axis`);
    def.shape = { type: 'box', half_extents: V.scale(V.sub(hi, lo), 0.5) };
    def.transform.p = V.scale(V.add(lo, hi), 0.5);
    return;
  }
  def.transform.p = r.needVec3(j, jp, 'center');
  const he = r.needVec3(j, jp, 'half_extents');
  if (!(he.x > 0 && he.y > 0 && he.z > 0)) r.fail(key(jp, 'half_extents'), `every component must be > 0, got [${g(he.x)}, ${g(he.y)}, ${g(he.z)}]`);
  def.transform.q = rotationOf(r, tread, j, jp);
  def.shape = { type: 'box', half_extents: he };
}

function parseRound(r, tread, j, jp, def, capsule) {
  def.transform.p = r.needVec3(j, jp, 'center');
  const radius = r.needFloat(j, jp, 'radius', 0, Infinity, OPEN_LO);
  if (!capsule) {
    def.shape = { type: 'sphere', radius };
    return;
  }
  const half_height = r.needFloat(j, jp, 'half_height', 0, Infinity);
  def.transform.q = rotationOf(r, tread, j, jp);
  def.shape = { type: 'capsule', radius, half_height };
}

// Rotation matrix with columns x, y, z as a quaternion, in double, then floats normalized (geometry.c).
function quatFromBasis(x, y, z) {
  const m00 = x.x, m10 = x.y, m20 = x.z, m01 = y.x, m11 = y.y, m21 = y.z, m02 = z.x, m12 = z.y, m22 = z.z;
  const trace = m00 + m11 + m22;
  let qx, qy, qz, qw;
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    [qw, qx, qy, qz] = [0.25 * s, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = Math.sqrt(1 + m00 - m11 - m22) * 2;
    [qw, qx, qy, qz] = [(m21 - m12) / s, 0.25 * s, (m01 + m10) / s, (m02 + m20) / s];
  } else if (m11 > m22) {
    const s = Math.sqrt(1 + m11 - m00 - m22) * 2;
    [qw, qx, qy, qz] = [(m02 - m20) / s, (m01 + m10) / s, 0.25 * s, (m12 + m21) / s];
  } else {
    const s = Math.sqrt(1 + m22 - m00 - m11) * 2;
    [qw, qx, qy, qz] = [(m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, 0.25 * s];
  }
  return V.quatNormalize({ x: f(qx), y: f(qy), z: f(qz), w: f(qw) });
}

// A box whose top face starts at `foot` and rises along `direction` at `degrees` until `rise` above the foot.
function parseRamp(r, j, jp, def, up) {
  const foot = r.needVec3(j, jp, 'foot');
  const direction = r.needVec3(j, jp, 'direction');
  const degrees = r.needFloat(j, jp, 'degrees', 0, 90, OPEN_LO | OPEN_HI);
  const rise = r.needFloat(j, jp, 'rise', 0, Infinity, OPEN_LO);
  const width = r.needFloat(j, jp, 'width', 0, Infinity, OPEN_LO);
  const thickness = r.needFloat(j, jp, 'thickness', 0, Infinity, OPEN_LO);
  let d = V.reject(direction, up);
  if (!(V.length(d) > f(1e-6))) r.fail(key(jp, 'direction'), 'has no horizontal part (it is parallel to up)');
  d = V.normalize(d);
  // The C loader takes sin and cos in double (libm) and rounds them to float; trig.mjs gives the same floats.
  const a = (degrees * Math.PI) / 180;
  const c = f(cosDouble(a)), sn = f(sinDouble(a));
  const length = f(rise / sinDouble(a));
  const along = V.add(V.scale(d, c), V.scale(up, sn));
  const normal = V.sub(V.scale(up, c), V.scale(d, sn));
  const across = V.cross(along, normal);
  const he = { x: f(0.5 * length), y: f(0.5 * thickness), z: f(0.5 * width) };
  def.shape = { type: 'box', half_extents: he };
  def.transform.q = quatFromBasis(along, normal, across);
  def.transform.p = V.sub(V.add(foot, V.scale(along, he.x)), V.scale(normal, he.y));
}

function parseMesh(r, tread, j, jp, def) {
  if ('file' in j) r.fail(key(jp, 'file'), 'mesh files are not read by the JavaScript loader (the C loader reads them with assimp); give "vertices" and "triangles"');
  const pv = key(jp, 'vertices'), pt = key(jp, 'triangles');
  const verts = r.array(r.need(j, jp, 'vertices'), pv);
  const tris = r.array(r.need(j, jp, 'triangles'), pt);
  if (verts.length < 3) r.fail(pv, `has ${verts.length} vertices; a mesh needs at least 3`);
  if (tris.length < 1) r.fail(pt, 'is empty; a mesh needs at least one triangle');
  def.transform.p = r.optVec3(j, jp, 'position') ?? V.zero();
  def.transform.q = rotationOf(r, tread, j, jp);
  const scale = r.optFloat(j, jp, 'scale', 0, Infinity, OPEN_LO) ?? 1;
  const vertices = new Float32Array(verts.length * 3);
  verts.forEach((e, i) => {
    const v = V.scale(r.vec3(e, index(pv, i)), scale);
    vertices[3 * i] = v.x, vertices[3 * i + 1] = v.y, vertices[3 * i + 2] = v.z;
  });
  const indices = new Uint32Array(tris.length * 3);
  tris.forEach((e, i) => {
    const p = index(pt, i);
    if (!Array.isArray(e) || e.length !== 3) r.fail(p, 'expected an array of 3 vertex indices');
    e.forEach((x, k) => {
      const v = r.integer(x, index(p, k), 0, 4294967295);
      if (v >= verts.length) r.fail(index(p, k), `vertex index ${v} is out of range (the mesh has ${verts.length} vertices)`);
      indices[3 * i + k] = v;
    });
  });
  def.shape = { type: 'mesh', vertices, indices };
}

function parseHeightfield(r, j, jp, def) {
  def.transform.p = r.needVec3(j, jp, 'origin');
  const ps = key(jp, 'spacing'), ph = key(jp, 'heights');
  const spacing = r.need(j, jp, 'spacing');
  const heights = r.array(r.need(j, jp, 'heights'), ph);
  if (!Array.isArray(spacing) || spacing.length !== 2) r.fail(ps, 'expected an array of 2 numbers [x, z]');
  const [sx, sz] = spacing.map((v, i) => r.float(v, index(ps, i), 0, Infinity, OPEN_LO));
  const nz = heights.length;
  if (nz < 2) r.fail(ph, `has ${nz} rows; a heightfield needs at least 2`);
  const nx = r.array(heights[0], index(ph, 0)).length;
  if (nx < 2) r.fail(index(ph, 0), `has ${nx} heights; a row needs at least 2`);
  if (nx * nz > MAX_GRID_CELLS) r.fail(ph, `has ${nx} x ${nz} samples; at most ${MAX_GRID_CELLS}`);
  const h = new Float32Array(nx * nz);
  heights.forEach((row, z) => {
    const pr = index(ph, z);
    r.array(row, pr);
    if (row.length !== nx) r.fail(pr, `has ${row.length} heights; row 0 has ${nx} (rows must be the same length)`);
    row.forEach((v, x) => (h[z * nx + x] = r.float(v, index(pr, x))));
  });
  let holes = null;
  if ('holes' in j) {
    const pho = key(jp, 'holes');
    const rows = r.array(j.holes, pho);
    if (rows.length !== nz - 1) r.fail(pho, `has ${rows.length} rows; expected ${nz - 1} (one per row of cells)`);
    holes = new Uint8Array((nx - 1) * (nz - 1));
    rows.forEach((row, z) => {
      const pr = index(pho, z);
      if (r.array(row, pr).length !== nx - 1) r.fail(pr, `has ${row.length} flags; expected ${nx - 1} (one per cell)`);
      row.forEach((v, x) => (holes[z * (nx - 1) + x] = r.integer(v, index(pr, x), 0, 1)));
    });
  }
  def.shape = { type: 'heightfield', count_x: nx, count_z: nz, spacing_x: sx, spacing_z: sz, heights: h, holes };
}

function parseVoxels(r, j, jp, def) {
  def.transform.p = r.needVec3(j, jp, 'origin');
  const cell = r.needFloat(j, jp, 'cell_size', 0, Infinity, OPEN_LO);
  const has = (k) => k in j;
  if (has('rows') && (has('cells') || has('size'))) r.fail(jp, 'give either "rows" or "cells" and "size", not both');
  if (!has('rows') && !has('cells') && !has('size')) r.fail(jp, 'missing required fields: "rows", or "cells" and "size"');
  let n;
  let solid;
  if (has('rows')) {
    // rows[y][z] is a string over x: one array per layer (bottom up), one string per z row.
    const pr = key(jp, 'rows');
    const rows = r.array(j.rows, pr);
    if (rows.length < 1) r.fail(pr, 'is empty; a voxel grid needs at least one layer');
    const first = r.array(rows[0], index(pr, 0));
    if (first.length < 1) r.fail(index(pr, 0), 'is empty; a layer needs at least one row');
    const len = r.string(first[0], index(index(pr, 0), 0)).length;
    if (len < 1) r.fail(index(pr, 0), 'is an empty string; a row needs at least one cell');
    n = [len, rows.length, first.length];
    if (n[0] * n[1] * n[2] > MAX_GRID_CELLS) r.fail(pr, `has ${n[0]} x ${n[1]} x ${n[2]} cells; at most ${MAX_GRID_CELLS}`);
    solid = new Uint8Array(n[0] * n[1] * n[2]);
    rows.forEach((layer, y) => {
      const pl = index(pr, y);
      if (r.array(layer, pl).length !== n[2]) r.fail(pl, `has ${layer.length} rows; layer 0 has ${n[2]} (layers must be the same shape)`);
      layer.forEach((text, z) => {
        const pz = index(pl, z);
        r.string(text, pz);
        if (text.length !== len) r.fail(pz, `has ${text.length} cells; rows[0][0] has ${len} (rows must be the same length)`);
        for (let x = 0; x < len; ++x) {
          if (text[x] !== '#' && text[x] !== '.') r.fail(pz, `character ${x} is '${text[x]}'; expected '#' (solid) or '.' (empty)`);
          solid[(z * n[1] + y) * n[0] + x] = text[x] === '#' ? 1 : 0;
        }
      });
    });
  } else {
    const ps = key(jp, 'size'), pc = key(jp, 'cells');
    if (!has('size')) r.fail(jp, 'missing required field "size" ("cells" needs it)');
    if (!has('cells')) r.fail(jp, 'missing required field "cells" ("size" needs it)');
    if (!Array.isArray(j.size) || j.size.length !== 3) r.fail(ps, 'expected an array of 3 integers [nx, ny, nz]');
    n = j.size.map((v, a) => r.integer(v, index(ps, a), 1, MAX_GRID_CELLS));
    if (n[0] * n[1] * n[2] > MAX_GRID_CELLS) r.fail(ps, `has ${n[0]} x ${n[1]} x ${n[2]} cells; at most ${MAX_GRID_CELLS}`);
    const cells = r.array(j.cells, pc);
    if (cells.length > n[0] * n[1] * n[2]) r.fail(pc, `has ${cells.length} entries; the grid has only ${n[0]} x ${n[1]} x ${n[2]} cells`);
    solid = new Uint8Array(n[0] * n[1] * n[2]);
    cells.forEach((c, i) => {
      const p = index(pc, i);
      if (!Array.isArray(c) || c.length !== 3) r.fail(p, 'expected an array of 3 integers [i, j, k]');
      const at = c.map((v, a) => r.integer(v, index(p, a), 0, n[a] - 1));
      solid[(at[2] * n[1] + at[1]) * n[0] + at[0]] = 1;
    });
  }
  def.shape = { type: 'voxels', count_x: n[0], count_y: n[1], count_z: n[2], cell_size: cell, solid };
}

// Constant velocities, or a keyframed path (motion.mjs) from where the body's own fields placed it.
function parseKinematic(r, tread, j, jp, body) {
  const def = body.def;
  r.object(j, jp);
  r.fields(j, jp, ['linear_velocity', 'angular_velocity', 'path', 'loop']);
  def.type = 'kinematic';
  if (!('path' in j)) {
    if ('loop' in j) r.fail(key(jp, 'loop'), 'needs a "path"');
    def.linear_velocity = r.optVec3(j, jp, 'linear_velocity') ?? V.zero();
    def.angular_velocity = r.optVec3(j, jp, 'angular_velocity') ?? V.zero();
    return;
  }
  if ('linear_velocity' in j || 'angular_velocity' in j) r.fail(jp, 'give either "path" or "linear_velocity"/"angular_velocity", not both');
  const rotation = (rr, v, p) => readRotationParts(rr, tread, v, p);
  body.path = parsePath(r, tread, rotation, j.path, j.loop, key(jp, 'path'), key(jp, 'loop'), { p: def.transform.p, q: def.transform.q });
  def.transform = pathTransform(tread, body.path, 0);
}

function parseSurface(r, j, jp, def) {
  r.object(j, jp);
  const names = ['linear', 'angular', 'center'];
  r.fields(j, jp, names);
  def.surface = {};
  for (const name of names) {
    const v = r.optVec3(j, jp, name) ?? V.zero();
    ['x', 'y', 'z'].forEach((c, i) => {
      if (!(v[c] >= -MAX_COORDINATE && v[c] <= MAX_COORDINATE))
        r.fail(index(key(jp, name), i), `${v[c]} is out of range: expected >= -${MAX_COORDINATE} and <= ${MAX_COORDINATE}`);
    });
    def.surface[name] = v;
  }
}

function parseDynamic(r, j, jp, body) {
  r.object(j, jp);
  r.fields(j, jp, ['mass', 'friction', 'gravity']);
  body.dynamic = {
    mass: r.needFloat(j, jp, 'mass', 0, 1e9, OPEN_LO),
    friction: r.optFloat(j, jp, 'friction', 0, 100) ?? f(0.5),
    gravity: r.optBool(j, jp, 'gravity') ?? true,
  };
  const shape = body.def.shape, q = body.def.transform.q;
  const turned = q.x !== 0 || q.y !== 0 || q.z !== 0;
  if (!['box', 'sphere', 'capsule'].includes(shape.type)) r.fail(jp, 'the runner moves boxes, spheres and capsules; this body is a mesh, heightfield or voxel grid');
  if (turned && shape.type !== 'sphere') r.fail(jp, 'the runner moves dynamic boxes and capsules unrotated (translation only); give no "rotation"');
  body.def.type = 'dynamic';
}

const COMMON = ['type', 'name', 'layer', 'kinematic', 'surface', 'dynamic', 'one_way', 'sensor'];
const BODY_FIELDS = {
  box: [...COMMON, 'min', 'max', 'center', 'half_extents', 'rotation'],
  sphere: [...COMMON, 'center', 'radius'],
  capsule: [...COMMON, 'center', 'radius', 'half_height', 'rotation'],
  ramp: [...COMMON, 'foot', 'direction', 'degrees', 'rise', 'width', 'thickness'],
  mesh: [...COMMON, 'vertices', 'triangles', 'file', 'position', 'rotation', 'scale'],
  heightfield: [...COMMON, 'origin', 'spacing', 'heights', 'holes'],
  voxels: [...COMMON, 'origin', 'cell_size', 'rows', 'cells', 'size'],
};

function parseBody(r, tread, j, jp, scene) {
  r.object(j, jp);
  r.need(j, jp, 'type');
  const type = Object.keys(BODY_FIELDS)[r.enumeration(j.type, key(jp, 'type'), Object.keys(BODY_FIELDS))];
  r.fields(j, jp, BODY_FIELDS[type]);
  const body = { name: r.optString(j, jp, 'name', NAME_MAX) ?? '', dynamic: null, path: null };
  const def = (body.def = { type: 'static', transform: { p: V.zero(), q: V.quatIdentity() }, layer: 0, one_way: false, sensor: false });
  def.one_way = r.optBool(j, jp, 'one_way') ?? false;
  def.sensor = r.optBool(j, jp, 'sensor') ?? false;
  if (def.one_way && def.sensor) r.fail(jp, 'give "one_way" or "sensor", not both');
  if ('kinematic' in j && 'dynamic' in j) r.fail(jp, 'give "kinematic" or "dynamic", not both');
  if ('layer' in j) def.layer = layerRef(r, j.layer, key(jp, 'layer'), scene);
  if (type === 'box') parseBox(r, tread, j, jp, def);
  else if (type === 'sphere' || type === 'capsule') parseRound(r, tread, j, jp, def, type === 'capsule');
  else if (type === 'ramp') parseRamp(r, j, jp, def, scene.up);
  else if (type === 'mesh') parseMesh(r, tread, j, jp, def);
  else if (type === 'heightfield') parseHeightfield(r, j, jp, def);
  else parseVoxels(r, j, jp, def);
  // Motion last, as the C loader: it starts from where the body's own fields placed it.
  if ('kinematic' in j) parseKinematic(r, tread, j.kinematic, key(jp, 'kinematic'), body);
  if ('dynamic' in j) parseDynamic(r, j.dynamic, key(jp, 'dynamic'), body);
  if ('surface' in j) parseSurface(r, j.surface, key(jp, 'surface'), def);
  return body;
}

export function parseBodies(r, tread, root, scene) {
  r.need(root, '', 'bodies');
  const list = r.array(root.bodies, 'bodies');
  if (list.length > MAX_BODIES) r.fail('bodies', `has ${list.length} bodies; at most ${MAX_BODIES}`);
  scene.bodies = list.map((e, i) => parseBody(r, tread, e, index('bodies', i), scene));
}
