// SPDX-License-Identifier: MIT
// Voxel grid shape: validation, the copy, rays by 3D DDA (Amanatides-Woo), capsules against the solid cells
// under the swept footprint as boxes, and the seam fix that keeps only exposed faces' normals.
#include "voxels.h"

#include <limits.h>
#include <string.h>

#include "../geometry/ray_box.h"

// ---- validation ------------------------------------------------------------------------------------

tread_result tr_voxels_validate(const tread_voxels_def *def) {
    if (!def) return tr_error(TREAD_ERR_NULL_ARGUMENT, "voxels definition is NULL");
    if (def->count_x < 1) return tr_error(TREAD_ERR_INVALID_MESH, "voxels.count_x = %d must be >= 1", def->count_x);
    if (def->count_y < 1) return tr_error(TREAD_ERR_INVALID_MESH, "voxels.count_y = %d must be >= 1", def->count_y);
    if (def->count_z < 1) return tr_error(TREAD_ERR_INVALID_MESH, "voxels.count_z = %d must be >= 1", def->count_z);
    if ((int64_t)def->count_x * def->count_y * def->count_z > INT_MAX)
        return tr_error(TREAD_ERR_INVALID_MESH, "voxels.count_x * count_y * count_z = %d * %d * %d is too large",
                        def->count_x, def->count_y, def->count_z);
    if (!isfinite(def->cell_size))
        return tr_error(TREAD_ERR_NOT_FINITE, "voxels.cell_size = %g is not finite", (double)def->cell_size);
    if (!(def->cell_size > 0.0f))
        return tr_error(TREAD_ERR_INVALID_SHAPE, "voxels.cell_size = %g must be > 0", (double)def->cell_size);
    int largest = def->count_x > def->count_y ? def->count_x : def->count_y;
    largest = largest > def->count_z ? largest : def->count_z;
    if ((float)largest * def->cell_size > TR_MAX_COORDINATE)
        return tr_error(TREAD_ERR_INVALID_SHAPE, "voxels extent %d * %g m exceeds %g m", largest, (double)def->cell_size,
                        (double)TR_MAX_COORDINATE);
    if (!def->solid) return tr_error(TREAD_ERR_NULL_ARGUMENT, "voxels.solid is NULL");
    return TREAD_OK;
}

tread_result tr_voxels_create(tr_voxels *vox, const tread_voxels_def *def) {
    memset(vox, 0, sizeof *vox);
    int n = def->count_x * def->count_y * def->count_z;
    vox->solid = (uint8_t *)tr_alloc((size_t)n);
    if (!vox->solid)
        return tr_error(TREAD_ERR_OUT_OF_MEMORY, "voxels: out of memory for %d x %d x %d cells", def->count_x,
                        def->count_y, def->count_z);
    for (int c = 0; c < n; c++) vox->solid[c] = def->solid[c] ? 1u : 0u;
    vox->count_x = def->count_x;
    vox->count_y = def->count_y;
    vox->count_z = def->count_z;
    vox->cell_size = def->cell_size;
    vox->bounds.min = tread_v3_zero();
    vox->bounds.max = tread_v3((float)def->count_x * def->cell_size, (float)def->count_y * def->cell_size,
                               (float)def->count_z * def->cell_size);
    return TREAD_OK;
}

void tr_voxels_destroy(tr_voxels *vox) {
    tr_free(vox->solid);
    memset(vox, 0, sizeof *vox);
}

// ---- cells -----------------------------------------------------------------------------------------

static int cell_index(const tr_voxels *vox, int i, int j, int k) { return (k * vox->count_y + j) * vox->count_x + i; }

// Outside the grid is empty.
static bool cell_solid(const tr_voxels *vox, int i, int j, int k) {
    if (i < 0 || j < 0 || k < 0 || i >= vox->count_x || j >= vox->count_y || k >= vox->count_z) return false;
    return vox->solid[cell_index(vox, i, j, k)] != 0;
}

static tread_vec3 cell_center(const tr_voxels *vox, int i, int j, int k) {
    float s = vox->cell_size;
    return tread_v3(((float)i + 0.5f) * s, ((float)j + 0.5f) * s, ((float)k + 0.5f) * s);
}

static float axis_of(tread_vec3 v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }

// ---- seams: only exposed faces give normals --------------------------------------------------------------

// `point` (in the frame of the centre of solid cell (i, j, k)) lies on the cell's surface with contact normal
// `normal`. A box contact's normal has components only along the axes on whose boundary the point lies; a
// component pointing into a solid neighbour cell is a seam between cells, not a real edge, so it is dropped
// (a flat voxel floor's seams give the floor's normal; a stair nose, exposed on both of its faces, keeps its
// rounded edge normal even where it crosses a cell boundary along the edge). The surface normal is the face of
// this cell at the point that is exposed (empty neighbour across it), most opposed to `motion`, or without
// motion most aligned with the contact normal.
// Returns SEAM_KEEP (nothing changed), SEAM_REPLACED (*out and *surface written) or SEAM_BURIED: every normal
// component points into solid cells, so a shape can only reach the point by passing through another cell.
enum { SEAM_KEEP, SEAM_REPLACED, SEAM_BURIED };
// Normal components smaller than this are rounding, not a direction (dimensionless).
#define TR_SEAM_COMPONENT 1.0e-6f
static int seam_normal(const tr_voxels *vox, int i, int j, int k, tread_vec3 point, tread_vec3 normal, tread_vec3 motion,
                       tread_vec3 *out, tread_vec3 *surface) {
    float half = 0.5f * vox->cell_size;
    int cell[3] = {i, j, k};
    float n[3] = {normal.x, normal.y, normal.z};
    bool dropped = false;
    int side[3];
    for (int a = 0; a < 3; a++) {
        float p = axis_of(point, a);
        side[a] = p >= half - TR_FEATURE_TOLERANCE ? 1 : (p <= -half + TR_FEATURE_TOLERANCE ? -1 : 0);
        if (fabsf(n[a]) <= TR_SEAM_COMPONENT) continue;
        int dir = n[a] > 0.0f ? 1 : -1;
        if (side[a] != dir) continue;
        int nb[3] = {cell[0], cell[1], cell[2]};
        nb[a] += dir;
        if (cell_solid(vox, nb[0], nb[1], nb[2])) {
            n[a] = 0.0f;
            dropped = true;
        }
    }
    // The exposed face at the point for the surface normal.
    bool found = false;
    float best_against = -FLT_MAX, best_align = -FLT_MAX;
    tread_vec3 face = tread_v3_zero();
    bool moving = tread_v3_length_sq(motion) > 0.0f;
    for (int a = 0; a < 3; a++) {
        if (side[a] == 0) continue;
        int nb[3] = {cell[0], cell[1], cell[2]};
        nb[a] += side[a];
        if (cell_solid(vox, nb[0], nb[1], nb[2])) continue;
        tread_vec3 f = tread_v3(a == 0 ? (float)side[a] : 0.0f, a == 1 ? (float)side[a] : 0.0f, a == 2 ? (float)side[a] : 0.0f);
        float against = moving ? -tread_v3_dot(f, motion) : 0.0f, align = tread_v3_dot(f, normal);
        if (!found || against > best_against || (against == best_against && align > best_align)) {
            face = f, best_against = against, best_align = align;
            found = true;
        }
    }
    tread_vec3 kept = tread_v3(n[0], n[1], n[2]);
    *surface = face; // zero when no face at the point is exposed
    if (tread_v3_length_sq(kept) == 0.0f || !found) return SEAM_BURIED;
    if (!dropped) {
        *out = normal;
        *surface = face;
        return SEAM_REPLACED; // the contact normal stands; the surface normal must be an exposed face
    }
    *out = tread_v3_normalize(kept);
    *surface = face;
    return SEAM_REPLACED;
}

// A ray running along a cell border (the DDA visits the cells on both sides) lies, after subtracting a cell's
// centre, a rounding error inside or outside each of them, or crosses the border at a grazing angle far away: it
// could miss both. A ray whose whole length stays within the feature tolerance of a face's plane is put on it,
// so it touches the cells on both sides (this moves its hit point by at most that tolerance).
static void snap_ray_to_faces(tr_cast *local, float half) {
    float *o[3] = {&local->p0.x, &local->p0.y, &local->p0.z}, *d[3] = {&local->d.x, &local->d.y, &local->d.z};
    for (int a = 0; a < 3; a++) {
        float plane = *o[a] < 0.0f ? -half : half;
        if (fabsf(*o[a] - plane) <= TR_FEATURE_TOLERANCE && fabsf(*o[a] + *d[a] - plane) <= TR_FEATURE_TOLERANCE) {
            *o[a] = plane;
            *d[a] = 0.0f;
        }
    }
    local->p1 = local->p0;
}

// Cast the capsule/ray against solid cell (i, j, k) as a box; reports through fn and returns the new t_max.
static float cast_cell(const tr_voxels *vox, int i, int j, int k, const tr_cast *c, float t_max, tr_hit_fn *fn,
                       void *ctx) {
    tread_vec3 center = cell_center(vox, i, j, k);
    float half = 0.5f * vox->cell_size;
    tr_cast local = *c;
    local.p0 = tread_v3_sub(c->p0, center);
    local.p1 = tread_v3_sub(c->p1, center);
    if (c->is_ray) snap_ray_to_faces(&local, half);
    tr_feature_hit hit;
    if (!tr_cast_box(&local, tread_v3(half, half, half), t_max, &hit)) return t_max;
    tread_vec3 fixed, surface;
    int seam = seam_normal(vox, i, j, k, hit.point, hit.normal, c->d, &fixed, &surface);
    // A sweep reaching a buried face has already entered a neighbouring cell: that cell reports the real hit.
    // Starting overlaps stay (a shape deep inside the solid still needs its push-out direction).
    // Except a ray's: its hit point is where it is, so a ray that slipped along a seam (running within a rounding
    // error of a cell border) and reaches an exposed face at the seam's end hits that face.
    if (seam == SEAM_BURIED && c->is_ray && tr_presses_into(c, surface)) {
        fixed = surface;
        seam = SEAM_REPLACED;
    }
    if (seam == SEAM_BURIED && !hit.started_in_contact) return t_max;
    if (seam == SEAM_REPLACED) {
        if (hit.started_in_contact && hit.penetration > 0.0f) {
            // Depth along the exposed normal: the deepest core point sits r - penetration out along the old normal.
            tread_vec3 q = tread_v3_mad(hit.point, c->r - hit.penetration, hit.normal);
            hit.penetration = tr_maxf(0.0f, c->r - tread_v3_dot(tread_v3_sub(q, hit.point), fixed));
        }
        hit.normal = fixed;
        hit.surface_normal = surface;
        // The box decided with its edge's normal; on a seam the exposed face decides. Moving along it (a
        // character sliding over a voxel floor) neither starts in contact nor grazes a seam: no hit.
        bool overlap_at_rest = tread_v3_length_sq(c->d) == 0.0f && hit.penetration > 0.0f;
        if (!overlap_at_rest && !tr_presses_into(c, fixed)) return t_max;
    }
    hit.point = tread_v3_add(hit.point, center);
    hit.feature = (uint32_t)cell_index(vox, i, j, k);
    return fn(ctx, &hit);
}

static int clamp_index(float v, int last) {
    if (!(v >= 0.0f)) return 0;
    if (v >= (float)last) return last;
    return (int)v;
}

// ---- rays: Amanatides-Woo 3D DDA -------------------------------------------------------------------------

static void cast_ray(const tr_voxels *vox, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    tread_vec3 o = c->p0, d = c->d, inv_d = tr_inverse_direction(d);
    // Clip to the bounds, faces included (a ray straight down the grid's last column face touches its top's edge).
    float t_in, t_out;
    if (!tr_ray_aabb_clip(o, d, vox->bounds, t_max, &t_in, &t_out)) return;
    float s = vox->cell_size;
    int last[3] = {vox->count_x - 1, vox->count_y - 1, vox->count_z - 1};
    tread_vec3 start = tread_v3_mad(o, t_in, d);
    int cell[3], step[3];
    float next[3], delta[3];
    for (int a = 0; a < 3; a++) {
        float da = axis_of(d, a), inv = axis_of(inv_d, a);
        // On a border, start in the cell being left (the ray touches it at t_in), within the feature tolerance.
        float bias = da > 0.0f ? -TR_FEATURE_TOLERANCE : (da < 0.0f ? TR_FEATURE_TOLERANCE : 0.0f);
        cell[a] = clamp_index((axis_of(start, a) + bias) / s, last[a]);
        step[a] = da > 0.0f ? 1 : (da < 0.0f ? -1 : 0);
        next[a] = step[a] ? ((float)(cell[a] + (step[a] > 0)) * s - axis_of(o, a)) * inv : FLT_MAX;
        delta[a] = step[a] ? s * fabsf(inv) : FLT_MAX;
    }
    // A ray running along a cell border (zero direction component, on a grid plane) touches the cells on both
    // sides; the DDA holds one, so the one across is visited too.
    int spread[3];
    for (int a = 0; a < 3; a++) {
        spread[a] = 0;
        if (step[a] != 0) continue;
        float border = (float)(int)(axis_of(o, a) / s + 0.5f) * s;
        if (fabsf(axis_of(o, a) - border) <= TR_FEATURE_TOLERANCE) spread[a] = axis_of(o, a) < (float)cell[a] * s + 0.5f * s ? -1 : 1;
    }
    for (;;) {
        for (int m = 0; m < 8; m++) {
            if (((m & 1) && !spread[0]) || ((m & 2) && !spread[1]) || ((m & 4) && !spread[2])) continue;
            int ci = cell[0] + ((m & 1) ? spread[0] : 0), cj = cell[1] + ((m & 2) ? spread[1] : 0),
                ck = cell[2] + ((m & 4) ? spread[2] : 0);
            if (cell_solid(vox, ci, cj, ck)) t_max = cast_cell(vox, ci, cj, ck, c, t_max, fn, ctx);
        }
        int a = next[0] <= next[1] ? (next[0] <= next[2] ? 0 : 2) : (next[1] <= next[2] ? 1 : 2);
        if (next[a] > tr_minf(t_out, t_max)) break;
        cell[a] += step[a];
        if (cell[a] < 0 || cell[a] > last[a]) break;
        next[a] += delta[a];
    }
}

// ---- capsules: solid cells under the swept footprint ------------------------------------------------------

static void cast_capsule(const tr_voxels *vox, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    tread_vec3 o = tread_v3_scale(tread_v3_add(c->p0, c->p1), 0.5f);
    // Half extent of the capsule, plus the touch tolerance so casts starting within it see the surface.
    float grow = c->r + TR_TOUCH_TOLERANCE;
    tread_vec3 ext = tread_v3_add(tread_v3_scale(tread_v3_abs(tread_v3_sub(c->p1, c->p0)), 0.5f), tread_v3(grow, grow, grow));
    if (c->is_box) {
        tr_obb box = tr_cast_obb(c);
        ext = tread_v3_add(tr_obb_extent(&box), tread_v3(grow, grow, grow));
    }
    tread_vec3 inv_d = tr_inverse_direction(c->d);
    if (tr_ray_aabb_entry(o, inv_d, vox->bounds, ext, t_max) > t_max) return;
    tread_aabb sweep = tread_aabb_expand(tr_cast_bounds(c, t_max), TR_TOUCH_TOLERANCE);
    float s = vox->cell_size;
    int i0 = clamp_index(sweep.min.x / s, vox->count_x - 1), i1 = clamp_index(sweep.max.x / s, vox->count_x - 1);
    int j0 = clamp_index(sweep.min.y / s, vox->count_y - 1), j1 = clamp_index(sweep.max.y / s, vox->count_y - 1);
    int k0 = clamp_index(sweep.min.z / s, vox->count_z - 1), k1 = clamp_index(sweep.max.z / s, vox->count_z - 1);
    // Visit in the direction of motion so closest-hit queries shrink t_max early.
    bool i_down = c->d.x < 0.0f, j_down = c->d.y < 0.0f, k_down = c->d.z < 0.0f;
    for (int kn = 0; kn <= k1 - k0; kn++) {
        int k = k_down ? k1 - kn : k0 + kn;
        for (int jn = 0; jn <= j1 - j0; jn++) {
            int j = j_down ? j1 - jn : j0 + jn;
            // Fractions during which the grown box overlaps this (j, k) row narrow its x range.
            float ta = 0.0f, tb = t_max;
            float lo[2] = {(float)j * s - ext.y, (float)k * s - ext.z}, hi[2] = {(float)(j + 1) * s + ext.y, (float)(k + 1) * s + ext.z};
            float oc[2] = {o.y, o.z}, dc[2] = {c->d.y, c->d.z}, ic[2] = {inv_d.y, inv_d.z};
            for (int a = 0; a < 2; a++) {
                if (dc[a] != 0.0f) {
                    float t0 = (lo[a] - oc[a]) * ic[a], t1 = (hi[a] - oc[a]) * ic[a];
                    ta = tr_maxf(ta, tr_minf(t0, t1));
                    tb = tr_minf(tb, tr_maxf(t0, t1));
                } else if (oc[a] < lo[a] || oc[a] > hi[a]) {
                    tb = -1.0f;
                }
            }
            if (ta > tb) continue;
            float xa = o.x + ta * c->d.x, xb = o.x + tb * c->d.x;
            int ra = clamp_index((tr_minf(xa, xb) - ext.x - TR_TOUCH_TOLERANCE) / s, vox->count_x - 1);
            int rb = clamp_index((tr_maxf(xa, xb) + ext.x + TR_TOUCH_TOLERANCE) / s, vox->count_x - 1);
            ra = ra < i0 ? i0 : ra;
            rb = rb > i1 ? i1 : rb;
            for (int in = 0; in <= rb - ra; in++) {
                int i = i_down ? rb - in : ra + in;
                if (!cell_solid(vox, i, j, k)) continue;
                tread_aabb box;
                box.min = tread_v3((float)i * s, (float)j * s, (float)k * s);
                box.max = tread_v3((float)(i + 1) * s, (float)(j + 1) * s, (float)(k + 1) * s);
                if (tr_ray_aabb_entry(o, inv_d, box, ext, t_max) > t_max) continue;
                t_max = cast_cell(vox, i, j, k, c, t_max, fn, ctx);
            }
        }
    }
}

void tr_voxels_cast(const tr_voxels *vox, const tr_cast *c, float t_max, tr_hit_fn *fn, void *ctx) {
    if (c->is_ray)
        cast_ray(vox, c, t_max, fn, ctx);
    else
        cast_capsule(vox, c, t_max, fn, ctx);
}

void tr_voxels_query_contacts(const tr_voxels *vox, const tr_cast *qc, float margin, tr_contact_fn *fn, void *ctx) {
    tread_aabb query = tr_query_bounds(qc, tr_maxf(margin, 0.0f));
    float r = qc->r; // 0 for a box: its surface is the query itself
    if (!tread_aabb_overlaps(query, vox->bounds)) return;
    float s = vox->cell_size, half = 0.5f * s;
    int i0 = clamp_index(query.min.x / s, vox->count_x - 1), i1 = clamp_index(query.max.x / s, vox->count_x - 1);
    int j0 = clamp_index(query.min.y / s, vox->count_y - 1), j1 = clamp_index(query.max.y / s, vox->count_y - 1);
    int k0 = clamp_index(query.min.z / s, vox->count_z - 1), k1 = clamp_index(query.max.z / s, vox->count_z - 1);
    for (int k = k0; k <= k1; k++) {
        for (int j = j0; j <= j1; j++) {
            for (int i = i0; i <= i1; i++) {
                if (!cell_solid(vox, i, j, k)) continue;
                tread_vec3 center = cell_center(vox, i, j, k);
                tr_feature_contact contact;
                tr_cast local = *qc;
                local.p0 = tread_v3_sub(qc->p0, center);
                local.p1 = tread_v3_sub(qc->p1, center);
                if (!tr_query_contact_box(&local, tread_v3(half, half, half), margin, &contact)) continue;
                tread_vec3 fixed, surface;
                if (seam_normal(vox, i, j, k, contact.point, contact.normal, tread_v3_zero(), &fixed, &surface) == SEAM_REPLACED) {
                    // Separation along the exposed normal: the closest core point sits separation + r out along
                    // the old normal.
                    tread_vec3 q = tread_v3_mad(contact.point, contact.separation + r, contact.normal);
                    contact.separation = tread_v3_dot(tread_v3_sub(q, contact.point), fixed) - r;
                    contact.normal = fixed;
                    contact.surface_normal = surface;
                }
                contact.point = tread_v3_add(contact.point, center);
                contact.feature = (uint32_t)cell_index(vox, i, j, k);
                fn(ctx, &contact);
            }
        }
    }
}
