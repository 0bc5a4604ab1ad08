// SPDX-License-Identifier: MIT
// The worlds the character runs walk in, built through the public API one body at a time, as a game builds them
// (so a broadphase that depends on the order bodies arrive in is measured as games meet it):
//   - the P1 box field (docs/COURSE.md), and the same field grown with the crowd so its density stays P1's;
//   - the P3 scene: a sine surface (as a mesh, a heightfield or voxels) with pyramid stairs, a wall of pillars
//     and 100 boxes.
#ifndef TREAD_BENCH_WORLDS_H
#define TREAD_BENCH_WORLDS_H

#include <stddef.h>

#include "tread/tread.h"

/// The P1 field for `characters` characters: P1's floor, box area and box count scaled by characters / 1000
/// (lengths by its square root), boxes drawn as P1 draws them. At 1000 it is the course's P1 field exactly.
/// NULL when a body could not be added.
tread_world *world_field(int characters);

/// How the P1 crowd of `characters` stands: columns of a grid 2 m apart in x (rows 2 m apart in z), centred on the
/// origin; 40 columns for P1's 1000 (x from -39 to 39, z from -24 to 24), growing with the square root of the count.
int world_field_columns(int characters);

typedef enum ground_kind { GROUND_MESH, GROUND_HEIGHTFIELD, GROUND_VOXELS } ground_kind;

/// P3's sine surface, height 2 sin(20 u / period) cos(20 w / period) at grid coordinates (u, w) (spec: "sin(x 20/100)
/// cos(z 20/100)" with x, z the vertex indices). Meshes and heightfields sample it at their vertices, u = first + i;
/// voxels at their column centres, u = i + 0.5, and fill each column up to the nearest cell boundary.
typedef struct sine_ground {
    ground_kind kind;
    int cells;    ///< cells (voxels: columns) along x and along z
    float cell;   ///< metres
    float period; ///< the "100" of the spec's sin(x 20/100): P3's is 100, a finer resampling of P3's 50 m uses cells
    int first;    ///< grid coordinate of vertex 0 (negative: the grid reaches out beyond P3's on every side)
} sine_ground;

/// P3's own mesh: 100 x 100 cells of 0.5 m (20,000 triangles).
static inline sine_ground world_p3_ground(void) { return (sine_ground){GROUND_MESH, 100, 0.5f, 100.0f, 0}; }

/// What the ground body costs the library.
typedef struct ground_stats {
    long features;          ///< triangles (mesh, heightfield: 2 a cell) or solid voxel cells
    const char *feature;    ///< "triangles" or "cells"
    size_t bytes;           ///< bytes the library holds for the ground body (bench_count_allocations needed)
} ground_stats;

/// The P3 scene on `ground`: the ground placed so that P3's vertex (0, 0) sits at (-25, 0, -25); pyramid stairs of
/// 10 boxes; a wall of 10 pillars; 100 boxes standing on the ground's surface. NULL on failure.
tread_world *world_p3(const sine_ground *ground, ground_stats *out_stats);

/// Feet height at which `shape` (centre `centre_above_feet` above its feet) rests on whatever is highest under
/// (x, z): the shape cast straight down from far above. NaN when nothing is under it.
float world_rest_height(const tread_world *w, const tread_query_shape *shape, float centre_above_feet, float x, float z);

#endif
