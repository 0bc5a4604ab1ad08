// SPDX-License-Identifier: MIT
// three.js objects for a scene's bodies, shape by shape, in the body's local space as include/tread/types.h defines
// it: boxes by half extents, spheres, capsules along local Y, indexed meshes, heightfields (sample (i, j) at
// (i * spacing_x, heights[j * count_x + i], j * spacing_z)) and voxel grids (cell (i, j, k) the cube
// [i, i+1] x [j, j+1] x [k, k+1] times cell_size, index (k * count_y + j) * count_x + i).
import * as THREE from 'three';

const COLORS = { static: 0x9aa3ad, kinematic: 0xe08a3c, dynamic: 0x4f8fd6 };

function flatArray(values) {
  if (ArrayBuffer.isView(values)) return values;
  if (values.length && typeof values[0] === 'object') return values.flatMap((v) => (Array.isArray(v) ? v.flat(Infinity) : [v.x, v.y, v.z]));
  return values.flat ? values.flat(Infinity) : values;
}

function meshGeometry(shape) {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(Float32Array.from(flatArray(shape.vertices)), 3));
  g.setIndex(Array.from(flatArray(shape.indices)));
  g.computeVertexNormals();
  return g;
}

function heightfieldGeometry(shape) {
  const nx = shape.count_x, nz = shape.count_z, sx = shape.spacing_x ?? 1, sz = shape.spacing_z ?? 1;
  const heights = flatArray(shape.heights), holes = shape.holes ? flatArray(shape.holes) : null;
  const positions = new Float32Array(nx * nz * 3);
  for (let j = 0; j < nz; ++j)
    for (let i = 0; i < nx; ++i) positions.set([i * sx, heights[j * nx + i], j * sz], 3 * (j * nx + i));
  const index = [];
  for (let j = 0; j + 1 < nz; ++j)
    for (let i = 0; i + 1 < nx; ++i) {
      if (holes && holes[j * (nx - 1) + i]) continue;
      const a = j * nx + i, b = a + 1, c = a + nx, d = c + 1;
      index.push(a, c, b, b, c, d);
    }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  g.setIndex(index);
  g.computeVertexNormals();
  return g;
}

function voxelObject(shape, material) {
  const { count_x: nx, count_y: ny, count_z: nz } = shape;
  const cell = shape.cell_size ?? 1, solid = flatArray(shape.solid);
  const cells = [];
  for (let k = 0; k < nz; ++k)
    for (let j = 0; j < ny; ++j)
      for (let i = 0; i < nx; ++i) if (solid[(k * ny + j) * nx + i]) cells.push([i, j, k]);
  const mesh = new THREE.InstancedMesh(new THREE.BoxGeometry(cell, cell, cell), material, Math.max(cells.length, 1));
  mesh.count = cells.length;
  const m = new THREE.Matrix4();
  cells.forEach(([i, j, k], n) => mesh.setMatrixAt(n, m.makeTranslation((i + 0.5) * cell, (j + 0.5) * cell, (k + 0.5) * cell)));
  mesh.instanceMatrix.needsUpdate = true;
  return mesh;
}

// The material of a body: by type, a touch lighter or darker by index so neighbouring boxes (stairs) read apart;
// sensors and one-way platforms see-through.
function materialFor(def, index) {
  const color = new THREE.Color(COLORS[def.type ?? 'static'] ?? COLORS.static);
  color.offsetHSL(0, 0, ((index % 5) - 2) * 0.025);
  const seeThrough = def.sensor || def.one_way;
  return new THREE.MeshStandardMaterial({
    color: def.sensor ? 0x55c07a : color, roughness: 0.85, metalness: 0.0, side: THREE.DoubleSide,
    transparent: seeThrough, opacity: def.sensor ? 0.25 : def.one_way ? 0.6 : 1,
  });
}

// The object for scene body `index` (def: World.addBody's definition), placed at its initial transform.
export function bodyObject(def, index) {
  const shape = def.shape ?? { type: 'box' };
  const material = materialFor(def, index);
  let object;
  switch (shape.type) {
    case 'box': {
      const he = shape.half_extents ?? { x: 0.5, y: 0.5, z: 0.5 };
      const geometry = new THREE.BoxGeometry(2 * he.x, 2 * he.y, 2 * he.z);
      object = new THREE.Mesh(geometry, material);
      const edges = new THREE.LineSegments(new THREE.EdgesGeometry(geometry), new THREE.LineBasicMaterial({ color: 0x3a4048, transparent: true, opacity: 0.5 }));
      object.add(edges);
      break;
    }
    case 'sphere':
      object = new THREE.Mesh(new THREE.SphereGeometry(shape.radius ?? 0.5, 32, 16), material);
      break;
    case 'capsule':
      object = new THREE.Mesh(new THREE.CapsuleGeometry(shape.radius ?? 0.5, 2 * (shape.half_height ?? 0.5), 8, 24), material);
      break;
    case 'mesh':
      object = new THREE.Mesh(meshGeometry(shape), material);
      break;
    case 'heightfield':
      object = new THREE.Mesh(heightfieldGeometry(shape), material);
      break;
    case 'voxels':
      object = voxelObject(shape, material);
      break;
    default:
      object = new THREE.Object3D();
  }
  object.castShadow = !def.sensor;
  object.receiveShadow = true;
  if (def.sensor) object.castShadow = false;
  placeObject(object, def.transform);
  return object;
}

// Put an object at a tread transform { p, q } ({x, y, z} or arrays).
export function placeObject(object, transform) {
  if (!transform) return;
  const p = transform.p, q = transform.q;
  if (p) Array.isArray(p) ? object.position.fromArray(p) : object.position.set(p.x, p.y, p.z);
  if (q) Array.isArray(q) ? object.quaternion.fromArray(q) : object.quaternion.set(q.x, q.y, q.z, q.w);
}

// The character's own shape (capsule, sphere or box settings), feet at the origin, up along +Y.
export function characterGeometry(settings, height = settings.height) {
  const r = settings.radius;
  if (settings.shape === 'sphere') return new THREE.SphereGeometry(r, 24, 16).translate(0, r, 0);
  if (settings.shape === 'box') return new THREE.BoxGeometry(2 * r, height, 2 * r).translate(0, height / 2, 0);
  return new THREE.CapsuleGeometry(r, Math.max(height - 2 * r, 0), 8, 24).translate(0, height / 2, 0);
}
