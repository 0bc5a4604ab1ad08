// SPDX-License-Identifier: MIT
// The generated scene matrix's families (docs/STRATEGIES.md "Generated matrix"): stairs, slopes,
// ledges, steps (max step +- 5 mm and ceilings 5 mm above and below the head), and lifts (gen_lifts.c). Each case is
// one scene file with expectations computed from the character's settings and the geometry, never from what the
// controller does. Calls gen_lifts.c and gen.c.
#define _POSIX_C_SOURCE 200809L // mkdir
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_internal.h"

// The course character (docs/COURSE.md) and the walk.
#define R GEN_RADIUS
#define H GEN_HEIGHT
#define MAX_STEP GEN_MAX_STEP
#define MAX_SLOPE GEN_MAX_SLOPE
#define MIN_DEPTH GEN_MIN_DEPTH
#define STEP_DOWN GEN_STEP_DOWN
#define SKIN GEN_SKIN
#define NOSING_BOUNDARY 1.0 // degrees either side of max slope where a flight's line of noses is on the boundary
#define MAX_SNAP 12.0    // max_snap_speed
#define SPEED GEN_SPEED
#define ON_SPEED 2.0     // speed of the "started on the slope" cases
#define LEAD 0.1         // s: the "started on the slope" cases stand idle this long first (landing the 0.5 mm spawn gap)
// No per-frame rise above max step: a stepped character stands `skin` above its tread, so a step from the
// floor (feet at 0) to a max-step tread lifts max step + skin; 1 mm more for float rounding.
#define RISE_LIMIT (MAX_STEP + SKIN + 0.001)
// A round shape perched on a nose rests below the tread that holds it (r (1 - cos max slope) while the contact there
// is walkable; a perch that ends past that still rests on the nose's walkable face, up to the radius), and steps are
// measured from that tread, never more than max step above it: its feet may rise that much more in a frame.
static double rise_limit(int shape) {
    return RISE_LIMIT + (shape != 2 ? R + SKIN : 0.0);
}
#define NAN_ ((double)NAN)

const char *const gen_family_names[] = {"stairs", "slopes", "ledges", "steps", "lifts", "max_slope", "curbs", "tilted_treads", "micro_steps", "angled_stairs", NULL};
enum { FAMILY_MAX_SLOPE = 5, FAMILY_COMPOSITE = 6 }; // the composite families follow in gen_composite.c's order
const char *const gen_shape_names[] = {"capsule", "sphere", "box", NULL};
const int gen_rates[] = {30, 60, 120, 240, 0};

static double deg(double radians) { return radians * 180.0 / GEN_PI; }
static double rad(double degrees) { return degrees * GEN_PI / 180.0; }
static bool is_round(int shape) { return shape != 2; }

// ---- stairs -----------------------------------------------------------------------------------------------

static const double stair_rises[] = {0.02, 0.05, 0.08, 0.12, 0.15, 0.18, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45};
static const double stair_treads[] = {0.05, 0.08, 0.12, 0.15, 0.18, 0.20, 0.25, 0.29, 0.30, 0.40, 0.55, 0.80};
static const double voxel_cells[] = {0.1, 0.2, 0.25, 0.3};
#define N_RISES ((int)(sizeof stair_rises / sizeof stair_rises[0]))
#define N_TREADS ((int)(sizeof stair_treads / sizeof stair_treads[0]))
#define N_VOXELS ((int)(sizeof voxel_cells / sizeof voxel_cells[0]))
#define STAIR_VARIANTS 16 // straight/spiral x boxes/mesh x nosing x up/down
#define NOSING 0.02
#define NOSING_THICKNESS 0.03 // the nosing slab's thickness (or the rise, when less)
#define SPIRAL_RADIUS 3.0 // the walking radius: treads are measured along this circle

typedef struct stair_case {
    bool spiral, mesh, nosing, down, voxels;
    double rise, tread;
} stair_case;

static bool stair_decode(int index, stair_case *c) {
    memset(c, 0, sizeof *c);
    int grid = N_RISES * N_TREADS * STAIR_VARIANTS;
    if (index < 0) return false;
    if (index >= grid) {
        index -= grid;
        if (index >= 2 * N_VOXELS) return false;
        c->voxels = true;
        c->down = index & 1;
        c->rise = c->tread = voxel_cells[index / 2];
        return true;
    }
    int v = index % STAIR_VARIANTS, cell = index / STAIR_VARIANTS;
    c->down = v & 1;
    c->nosing = (v >> 1) & 1;
    c->mesh = (v >> 2) & 1;
    c->spiral = (v >> 3) & 1;
    c->rise = stair_rises[cell / N_TREADS];
    c->tread = stair_treads[cell % N_TREADS];
    return true;
}

static void stair_name(const stair_case *c, char *out, size_t size) {
    if (c->voxels) snprintf(out, size, "stairs-voxels-c%.2f-%s", c->rise, c->down ? "down" : "up");
    else
        snprintf(out, size, "stairs-%s-%s%s-%s-r%.2f-t%.2f", c->spiral ? "spiral" : "straight", c->mesh ? "mesh" : "boxes",
                 c->nosing ? "-nosing" : "", c->down ? "down" : "up", c->rise, c->tread);
}

// Does a round shape ride over this staircase without stepping (the brief: rise <= r (1 - cos max slope))?
// That rule holds where the shape can rest flat on the tread in front of the next nose (tread >= r sin theta,
// theta the contact angle at the nose, cos theta = (r - rise) / r). On shorter treads it rests in the valley
// between two noses, and the steepest contact on the way up is alpha + 90 - acos(c / r) degrees (alpha the
// noses' line angle, c half the distance between noses): it rides over iff that is walkable.
static bool round_rides_over(double rise, double tread) {
    if (rise >= R) return false;
    double theta = acos((R - rise) / R);
    double tilt = theta;
    if (tread < R * sin(theta)) {
        double alpha = atan2(rise, tread), c = 0.5 * sqrt(tread * tread + rise * rise);
        tilt = alpha + 0.5 * GEN_PI - acos(c / R);
    }
    return deg(tilt) <= MAX_SLOPE;
}

// A staircase whose nosing line (rise over tread, nose to nose along the walk) is walkable is climbed by every shape
// whatever its tread depth: min_step_depth guards a single ledge (issue 26's tread rule). Otherwise min_step_depth is
// the depth of the walking surface along the motion: with a nosing that is the tread nose to nose plus the nosing
// (the surface runs on under the next step's nosing to its riser).
static bool nosing_line_walkable(const stair_case *c) { return deg(atan2(c->rise, c->tread)) <= GEN_WALKABLE_DEGREES; }
static double nosing_degrees(const stair_case *c) { return deg(atan2(c->rise, c->tread)); }

static bool stairs_climbable(const stair_case *c, int shape) {
    if (c->rise > MAX_STEP + 1e-9) return false;
    if (nosing_line_walkable(c)) return true;
    if (is_round(shape) && round_rides_over(c->rise, c->tread)) return true;
    // (Rises up to the nosing's thickness make the nosing a full-height block: the surface stops at it.)
    double surface = c->tread + (c->nosing && c->rise > NOSING_THICKNESS ? NOSING : 0.0);
    return surface >= MIN_DEPTH - 1e-9;
}

// A walking surface exactly min_step_depth deep (an 8 cm tread and its 2 cm nosing) sits on the boundary of the
// rule: whether the landing contact falls on the nose or a hair behind it decides. Like a 10 cm tread without
// nosing (left out of the grid), such flights check the invariants only.
// So does a flight whose line of noses is within NOSING_BOUNDARY of max slope: the controller measures a tread's
// run to within a millimetre, which moves the nosing line's slope by up to a degree on 5 cm treads.
static bool stairs_on_boundary(const stair_case *c) {
    return (c->nosing && c->rise > NOSING_THICKNESS && fabs(c->tread + NOSING - MIN_DEPTH) < 1e-6 && !nosing_line_walkable(c)) ||
           fabs(nosing_degrees(c) - MAX_SLOPE) < NOSING_BOUNDARY;
}

// Steps before the landing: a flight of 3..10 treads about 2.4 m long.
static int stair_steps(double tread) {
    int n = (int)(2.4 / tread);
    return n < 3 ? 3 : (n > 10 ? 10 : n);
}

// Straight flight along +X: riser k at x = 1 + k tread, step k's top at (k + 1) rise; the last step is the
// landing, 25 m long. Nosing: a 0.02 m slab in front of each riser (so the treads stay `tread` nose to nose).
static void straight_boxes(const stair_case *c, int n, gen_boxes *list) {
    const double x0 = 1.0, w = 1.5;
    for (int k = 0; k < n; ++k) {
        double lo[3] = {x0 + k * c->tread, 0.0, -w}, hi[3] = {k < n - 1 ? x0 + (k + 1) * c->tread : x0 + k * c->tread + 25.0, (k + 1) * c->rise, w};
        gen_boxes_add_minmax(list, lo, hi);
        if (c->nosing) {
            double th = c->rise < NOSING_THICKNESS ? c->rise : NOSING_THICKNESS;
            double nlo[3] = {lo[0] - NOSING, hi[1] - th, -w}, nhi[3] = {lo[0], hi[1], w};
            gen_boxes_add_minmax(list, nlo, nhi);
        }
    }
}

// Spiral around the Y axis, walked counterclockwise seen from above along the circle of SPIRAL_RADIUS: riser k
// is the radial plane at angle k tread / radius; each step is a box from its riser forward (1.6 m radially).
static void spiral_point(double arc, double y, double out[3]) {
    double phi = arc / SPIRAL_RADIUS;
    out[0] = SPIRAL_RADIUS * cos(phi);
    out[1] = y;
    out[2] = -SPIRAL_RADIUS * sin(phi);
}

static void spiral_boxes(const stair_case *c, int n, gen_boxes *list) {
    const double axis[3] = {0, 1, 0}, radial_half = 0.8;
    double delta = c->tread / SPIRAL_RADIUS;
    for (int k = 0; k < n; ++k) {
        double phi = k * delta, h = (k + 1) * c->rise;
        double w = k < n - 1 ? (SPIRAL_RADIUS + radial_half) * sin(delta) + 0.05 : 2.0;
        // local x radial (cos phi, 0, -sin phi), local z tangential (-sin phi, 0, -cos phi)... turned about +Y by phi.
        double radial[3] = {cos(phi), 0, -sin(phi)}, tangent[3] = {sin(phi), 0, cos(phi)};
        // Walking direction at angle phi is d/dphi of (R cos phi, -R sin phi) = (-sin phi, -cos phi): minus tangent.
        double center[3], half[3] = {radial_half, 0.5 * h, 0.5 * w};
        for (int a = 0; a < 3; ++a) center[a] = SPIRAL_RADIUS * radial[a] - 0.5 * w * tangent[a];
        center[1] = 0.5 * h;
        gen_boxes_add(list, center, half, axis, deg(phi));
        if (c->nosing) {
            double th = c->rise < NOSING_THICKNESS ? c->rise : NOSING_THICKNESS, nc[3], nh[3] = {radial_half, 0.5 * th, 0.5 * NOSING};
            for (int a = 0; a < 3; ++a) nc[a] = SPIRAL_RADIUS * radial[a] + 0.5 * NOSING * tangent[a];
            nc[1] = h - 0.5 * th;
            gen_boxes_add(list, nc, nh, axis, deg(phi));
        }
    }
}

static cJSON *stairs_build(const stair_case *c, int shape, int rate, const char *name) {
    int n = c->voxels ? (int)(1.2 / c->rise + 0.5) : stair_steps(c->tread);
    double top = n * c->rise, flight = (n - 1) * c->tread, dt = 1.0 / rate;
    double duration = (1.2 + flight + 1.5) / SPEED * 1.5 + 0.5;
    char description[256];
    snprintf(description, sizeof description, "Generated: %d steps of rise %.2f m and tread %.2f m, walked %s at %.0f m/s.", n,
             c->rise, c->tread, c->down ? "down" : "up", SPEED);
    cJSON *s = gen_scene_new(name, description, dt, duration);
    if (c->voxels) {
        int cells_landing = (int)ceil(8.0 / c->rise), nx = n + cells_landing, ny = n, nz = (int)ceil(3.0 / c->rise);
        unsigned char *solid = (unsigned char *)calloc((size_t)nx * (size_t)ny * (size_t)nz, 1);
        if (!solid) {
            cJSON_Delete(s);
            return NULL;
        }
        for (int j = 0; j < ny; ++j)
            for (int k = 0; k < nz; ++k)
                for (int i = j; i < nx; ++i) solid[((size_t)j * (size_t)nz + (size_t)k) * (size_t)nx + (size_t)i] = 1;
        const double origin[3] = {1.0, 0.0, -0.5 * nz * c->rise};
        gen_voxels(s, "stairs", origin, c->rise, nx, ny, nz, solid);
        free(solid);
    } else {
        static gen_boxes list;
        list.count = 0;
        if (c->spiral) spiral_boxes(c, n, &list);
        else straight_boxes(c, n, &list);
        gen_boxes_emit(s, &list, "step", c->mesh);
    }
    // The path: straight along X from x = -0.2 (1.2 m before the first riser), or the spiral's circle from 1.2 m
    // of arc before it; the top landing's stop point is 1 m past the last riser.
    double start[3], end_arc = flight + 1.0, start_arc = -1.2;
    const char *shape_name = gen_shape_names[shape];
    cJSON *ch;
    if (!c->spiral) {
        start[0] = c->down ? 1.0 + end_arc : 1.0 + start_arc;
        start[1] = c->down ? top : 0.0;
        start[2] = 0.0;
        ch = gen_character(s, shape_name, start);
        gen_input_direction(ch, 0.0, c->down ? -1.0 : 1.0, 0.0, SPEED);
    } else {
        double from = c->down ? end_arc : start_arc, to = c->down ? start_arc : end_arc, sign = to > from ? 1.0 : -1.0;
        spiral_point(from, c->down ? top : 0.0, start);
        ch = gen_character(s, shape_name, start);
        // Targets 0.3 m ahead of where a walker at full speed would be, every 0.2 m of arc; the last one is the stop.
        // A flight it must not climb gets one target, the middle of the first tread: targets running on ahead of a
        // walker held at the first riser would turn it across the radial risers, where treads are deeper along
        // its motion than at the walking radius.
        if (!c->down && !stairs_climbable(c, shape)) to = 0.5 * c->tread;
        for (double a = from + 0.3 * sign, t = 0.0;; a += 0.2 * sign, t += 0.2 / SPEED) {
            bool last = sign > 0 ? a >= to : a <= to;
            double target[3];
            spiral_point(last ? to : a, 0.0, target);
            gen_input_toward(ch, t, target, SPEED);
            if (last) break;
        }
    }
    gen_check_max_rise(s, rise_limit(shape));
    if (!c->down) {
        if (stairs_on_boundary(c)) return s;
        if (stairs_climbable(c, shape)) gen_check_final(s, "on the top landing", 1, top - 0.02, top + 0.02);
        // Not climbable: the feet never get onto the first step (1 cm below its top).
        else gen_check_height(s, "below the first step", 1, NAN_, c->rise - 0.01);
        return s;
    }
    gen_check_final(s, "at the bottom", 1, -0.02, 0.02);
    // Per frame the walker passes at most floor(d / tread) + 1 noses (d = speed dt), at least floor(d / tread).
    double d = SPEED * dt, most = (floor(d / c->tread) + 1.0) * c->rise, least = floor(d / c->tread) * c->rise;
    // Grounded only on treads it may stand on (>= min_step_depth): shorter ones make a nose line it slides down.
    if (most <= STEP_DOWN && c->tread >= MIN_DEPTH - 1e-9)
        cJSON_AddNumberToObject(gen_check(s, "grounded_fraction", "grounded every frame"), "min", 1.0);
    else if (least > STEP_DOWN) cJSON_AddNumberToObject(gen_check(s, "airborne_frames", "airborne: drop beyond step down"), "min", 1);
    return s;
}

// ---- slopes -------------------------------------------------------------------------------------------------

#define SLOPE_ANGLES 89 // 0..89 degrees without 45 (|angle - max slope| < 0.5)
#define SLOPE_LENGTH 3.0
#define SLOPE_FOOT 1.0
enum { SLOPE_RAMP, SLOPE_BOX, SLOPE_HEIGHTFIELD, SLOPE_MESH };
#define SLOPE_BODIES 3     // the slopes family's: ramp, box, heightfield
#define MAX_SLOPE_BODIES 4 // max_slope's: those and the box as a triangle mesh
enum { SLOPE_INTO, SLOPE_UP, SLOPE_ACROSS, SLOPE_DOWN, SLOPE_IDLE, SLOPE_SCENARIOS };
static const char *const slope_body_names[] = {"ramp", "box", "heightfield", "mesh"};
static const char *const slope_scenario_names[] = {"into", "up", "across", "down", "idle"};

typedef struct slope_case {
    double degrees;
    int body, scenario;
} slope_case;

static bool slope_decode(int index, slope_case *c) {
    if (index < 0 || index >= SLOPE_ANGLES * SLOPE_BODIES * SLOPE_SCENARIOS) return false;
    c->scenario = index % SLOPE_SCENARIOS;
    c->body = (index / SLOPE_SCENARIOS) % SLOPE_BODIES;
    int a = index / (SLOPE_SCENARIOS * SLOPE_BODIES);
    c->degrees = a < (int)MAX_SLOPE ? a : a + 1.0;
    // The ramp body needs an angle in (0, 90): at 0 degrees it is a flat box like the "box" body's.
    return !(c->body == SLOPE_RAMP && c->degrees == 0);
}

// The max_slope family: the slopes family's cases at exactly max slope (walkable: the boundary is inclusive) and at
// max slope plus twice the slope tolerance (steep), built every way: ramp, rotated box, that box as a mesh, heightfield.
#define MAX_SLOPE_ANGLES 2

static bool max_slope_decode(int index, slope_case *c) {
    if (index < 0 || index >= MAX_SLOPE_ANGLES * MAX_SLOPE_BODIES * SLOPE_SCENARIOS) return false;
    c->scenario = index % SLOPE_SCENARIOS;
    c->body = (index / SLOPE_SCENARIOS) % MAX_SLOPE_BODIES;
    c->degrees = index / (SLOPE_SCENARIOS * MAX_SLOPE_BODIES) == 0 ? MAX_SLOPE : GEN_STEEP_DEGREES;
    return true;
}

static cJSON *slopes_build(const slope_case *c, int shape, int rate, const char *name) {
    double th = rad(c->degrees), rise = SLOPE_LENGTH * sin(th), run = SLOPE_LENGTH * cos(th), top_x = SLOPE_FOOT + run;
    // Between the walkable and the steep bound (none of the cases) only the invariants would be checked.
    bool walkable = c->degrees <= GEN_WALKABLE_DEGREES, steep = c->degrees >= GEN_STEEP_DEGREES, on = c->scenario != SLOPE_INTO;
    static const double durations[] = {(1.2 + SLOPE_LENGTH + 1.0) / SPEED + 0.5, LEAD + 1.5, LEAD + 1.0, LEAD + 1.5, LEAD + 1.0};
    char description[256];
    snprintf(description, sizeof description, "Generated: a %g degree %s slope %.2f m high; %s.", c->degrees, slope_body_names[c->body], rise,
             c->scenario == SLOPE_INTO ? "walked into from the floor" : (c->scenario == SLOPE_IDLE ? "started on it, idle" : "started on it, walking"));
    cJSON *s = gen_scene_new(name, description, 1.0 / rate, durations[c->scenario]);
    const double foot[3] = {SLOPE_FOOT, 0, 0}, width = 6.0;
    if (c->body == SLOPE_RAMP) gen_ramp(s, "slope", foot, c->degrees, rise, width, 1.0);
    else if (c->body == SLOPE_BOX || c->body == SLOPE_MESH) {
        gen_boxes list;
        list.count = 0;
        const double axis[3] = {0, 0, 1}, half[3] = {0.5 * SLOPE_LENGTH, 0.5, 0.5 * width};
        double center[3] = {SLOPE_FOOT + 0.5 * run + 0.5 * sin(th), 0.5 * rise - 0.5 * cos(th), 0.0};
        gen_boxes_add(&list, center, half, axis, c->degrees);
        gen_boxes_emit(s, &list, "slope", c->body == SLOPE_MESH);
    } else {
        // Samples on the foot and the crest; spacing at most a quarter of the slope's run (and 0.25 m).
        int across = (int)ceil(run / 0.25), before = 0;
        if (across < 4) across = 4;
        double sx = run / across;
        before = (int)ceil(1.5 / sx);
        int nx = before + across + 1, nz = 7;
        double *heights = (double *)malloc(sizeof(double) * (size_t)nx * (size_t)nz);
        if (!heights) {
            cJSON_Delete(s);
            return NULL;
        }
        for (int j = 0; j < nz; ++j)
            for (int i = 0; i < nx; ++i) heights[j * nx + i] = i <= before ? 0.0 : (i - before) * sx * tan(th);
        for (int j = 0; j < nz; ++j) heights[j * nx + nx - 1] = rise;
        const double origin[3] = {SLOPE_FOOT - before * sx, 0.0, -0.5 * width};
        gen_heightfield(s, "slope", origin, sx, width / (nz - 1), heights, nx, nz);
        free(heights);
    }
    if (rise > 0.001) {
        double lo[3] = {top_x, rise - 1.0, -0.5 * width}, hi[3] = {20.0, rise, 0.5 * width};
        gen_box_minmax(s, "plateau", lo, hi);
    }
    // Started on the slope: touching its middle P. A round shape's lowest point hovers r (1 / cos - 1) above
    // the surface under it; an upright box rests on its uphill bottom edge at P.
    double px = SLOPE_FOOT + 0.5 * run, py = 0.5 * rise, start[3] = {SLOPE_FOOT - 1.2, 0.0, 0.0};
    if (on) {
        if (is_round(shape)) {
            start[0] = px - R * sin(th);
            start[1] = py + R * cos(th) - R;
        } else {
            start[0] = px - R;
            start[1] = py;
        }
        start[1] += 0.0005; // spawned half a millimetre clear of the surface
    }
    cJSON *ch = gen_character(s, gen_shape_names[shape], start);
    if (!on) gen_input_direction(ch, 0.0, 1.0, 0.0, SPEED);
    else {
        gen_input_idle(ch, 0.0);
        if (c->scenario == SLOPE_UP) gen_input_direction(ch, LEAD, 1.0, 0.0, ON_SPEED);
        if (c->scenario == SLOPE_ACROSS) gen_input_direction(ch, LEAD, 0.0, 1.0, ON_SPEED);
        if (c->scenario == SLOPE_DOWN) gen_input_direction(ch, LEAD, -1.0, 0.0, ON_SPEED);
    }
    gen_check_max_rise(s, rise_limit(shape));
    double speed = c->scenario == SLOPE_INTO ? SPEED : ON_SPEED;
    // Frames fully on the slope: the feet at least r + 0.1 m past the foot and short of the crest.
    double on_lo = SLOPE_FOOT + R + 0.1, on_hi = top_x - R - 0.1;
    cJSON *k;
    if (walkable) {
        switch (c->scenario) {
        case SLOPE_INTO:
        case SLOPE_UP:
            gen_check_final(s, "on the plateau", 1, rise - 0.02, rise + 0.02);
            if (c->scenario == SLOPE_UP) on_lo = start[0];
            k = gen_check(s, "speed_range", "keeps surface speed");
            cJSON_AddStringToObject(k, "measure", "surface");
            gen_check_min_max(k, 0.98 * speed, 1.02 * speed);
            if (c->scenario == SLOPE_UP) gen_window_start_time(k, LEAD + 1.5 / rate);
            gen_window_where(k, 0, on_lo, on_hi);
            break;
        case SLOPE_ACROSS:
            gen_check_height(s, "keeps its height", 1, start[1] - 0.01, start[1] + 0.01);
            k = gen_check(s, "speed_range", "keeps surface speed");
            cJSON_AddStringToObject(k, "measure", "surface");
            gen_check_min_max(k, 0.98 * speed, 1.02 * speed);
            gen_window_start_time(k, LEAD + 1.5 / rate);
            break;
        case SLOPE_DOWN:
            gen_check_final(s, "at the bottom", 1, -0.02, 0.02);
            k = gen_check(s, "grounded_fraction", "grounded every frame");
            cJSON_AddNumberToObject(k, "min", 1.0);
            gen_window_start_time(k, LEAD);
            break;
        default:
            k = gen_check(s, "drift", "stays still");
            cJSON_AddNumberToObject(k, "max", 0.001);
            gen_window_start_time(k, LEAD);
            break;
        }
        return s;
    }
    if (!steep) return s;
    switch (c->scenario) {
    case SLOPE_INTO: gen_check_height(s, "no height gained", 1, NAN_, MAX_STEP + SKIN); break;
    case SLOPE_UP:
    case SLOPE_ACROSS: gen_check_height(s, "no height gained", 1, NAN_, start[1] + 0.01); break;
    case SLOPE_DOWN: gen_check_final(s, "at the bottom", 1, -0.02, 0.02); break;
    // Lower than it started by 2 cm in 1 s: at 240 Hz with the plain loop (which keeps only the vertical velocity)
    // a 46-degree slide covers less than 5 cm.
    default: gen_check_final(s, "slides down", 1, NAN_, start[1] - 0.02); break;
    }
    return s;
}

// ---- ledges -------------------------------------------------------------------------------------------------

static const double ledge_drops[] = {0.05, 0.1, 0.2, 0.3, 0.4, 0.45, 0.55, 0.6, 0.8, 1.0, 1.5, 2.0, 3.0};
#define N_DROPS ((int)(sizeof ledge_drops / sizeof ledge_drops[0]))
#define N_LEDGE_SPEEDS 10 // 1..10 m/s

static cJSON *ledges_build(int index, int shape, int rate, const char *name) {
    double drop = ledge_drops[index / N_LEDGE_SPEEDS], speed = 1.0 + index % N_LEDGE_SPEEDS;
    char description[256];
    snprintf(description, sizeof description, "Generated: walking off a %.2f m ledge at %.0f m/s.", drop, speed);
    cJSON *s = gen_scene_new(name, description, 1.0 / rate, 0.6 / speed + 1.5);
    const double lo[3] = {-10, 0, -3}, hi[3] = {1, drop, 3}, start[3] = {0.4, drop, 0};
    gen_box_minmax(s, "ledge", lo, hi);
    gen_input_direction(gen_character(s, gen_shape_names[shape], start), 0.0, 1.0, 0.0, speed);
    gen_check_max_rise(s, rise_limit(shape));
    gen_check_final(s, "lands on the floor", 1, -0.02, 0.02);
    if (drop > STEP_DOWN) cJSON_AddNumberToObject(gen_check(s, "airborne_frames", "airborne: drop beyond step down"), "min", 1);
    else if (speed <= MAX_SNAP) cJSON_AddNumberToObject(gen_check(s, "grounded_fraction", "grounded every frame"), "min", 1.0);
    return s;
}

// ---- steps and ceilings -----------------------------------------------------------------------------------

#define STEP_CASES 5 // max step - 5 mm, max step, + 5 mm; ceiling 5 mm above, below the standing head

static cJSON *steps_build(int index, int shape, int rate, const char *name) {
    cJSON *s;
    char description[256];
    const double start[3] = {0, 0, 0};
    if (index < 3) {
        double h = MAX_STEP + 0.005 * (index - 1);
        snprintf(description, sizeof description, "Generated: one %.3f m step (max step %.2f m).", h, MAX_STEP);
        s = gen_scene_new(name, description, 1.0 / rate, 2.0);
        const double lo[3] = {1, 0, -3}, hi[3] = {20, h, 3};
        gen_box_minmax(s, "step", lo, hi);
        gen_input_direction(gen_character(s, gen_shape_names[shape], start), 0.0, 1.0, 0.0, SPEED);
        gen_check_max_rise(s, rise_limit(shape));
        if (h <= MAX_STEP + 1e-9) gen_check_final(s, "on the step", 1, h - 0.02, h + 0.02);
        else gen_check_height(s, "below the step", 1, NAN_, h - 0.01);
        return s;
    }
    // The standing body reaches `skin` above the floor plus its height, and keeps `skin` from the ceiling.
    bool above = index == 3;
    double head = (shape == 1 ? 2.0 * R : H) + 2.0 * SKIN, y = head + (above ? 0.005 : -0.005);
    snprintf(description, sizeof description, "Generated: a ceiling from x = 2 to 4, %.3f m up, 5 mm %s the standing head with skin.", y,
             above ? "above" : "below");
    s = gen_scene_new(name, description, 1.0 / rate, 2.0);
    const double lo[3] = {2, y, -3}, hi[3] = {4, y + 1.0, 3};
    gen_box_minmax(s, "ceiling", lo, hi);
    gen_input_direction(gen_character(s, gen_shape_names[shape], start), 0.0, 1.0, 0.0, SPEED);
    gen_check_max_rise(s, rise_limit(shape));
    if (above) gen_check_final(s, "walks under", 0, 4.0 + R + 0.5, NAN_);
    // Does not fit: its axis never gets under the ceiling (a round top may reach a few centimetres past the edge).
    else gen_check_height(s, "stops at the ceiling", 0, NAN_, 2.0);
    return s;
}

// ---- the families -------------------------------------------------------------------------------------------

int gen_family_size(int family) {
    switch (family) {
    case 0: return N_RISES * N_TREADS * STAIR_VARIANTS + 2 * N_VOXELS;
    case 1: return SLOPE_ANGLES * SLOPE_BODIES * SLOPE_SCENARIOS;
    case 2: return N_DROPS * N_LEDGE_SPEEDS;
    case 3: return STEP_CASES;
    case 4: return gen_lift_count();
    case FAMILY_MAX_SLOPE: return MAX_SLOPE_ANGLES * MAX_SLOPE_BODIES * SLOPE_SCENARIOS;
    default: return family >= FAMILY_COMPOSITE ? gen_composite_size(family - FAMILY_COMPOSITE) : 0;
    }
}

static bool params_name(int family, int index, char *out, size_t size) {
    stair_case sc;
    slope_case lc;
    switch (family) {
    case 0:
        if (!stair_decode(index, &sc)) return false;
        stair_name(&sc, out, size);
        return true;
    case 1:
        if (!slope_decode(index, &lc)) return false;
        snprintf(out, size, "slope-%s-%s-a%02.0f", slope_body_names[lc.body], slope_scenario_names[lc.scenario], lc.degrees);
        return true;
    case FAMILY_MAX_SLOPE:
        if (!max_slope_decode(index, &lc)) return false;
        snprintf(out, size, "max-slope-%s-%s-a%.2f", slope_body_names[lc.body], slope_scenario_names[lc.scenario], lc.degrees);
        return true;
    case 2:
        if (index < 0 || index >= gen_family_size(2)) return false;
        snprintf(out, size, "ledge-d%.2f-v%d", ledge_drops[index / N_LEDGE_SPEEDS], 1 + index % N_LEDGE_SPEEDS);
        return true;
    case 3:
        if (index < 0 || index >= STEP_CASES) return false;
        if (index < 3) snprintf(out, size, "step-h%.3f", MAX_STEP + 0.005 * (index - 1));
        else snprintf(out, size, "ceiling-%s", index == 3 ? "above" : "below");
        return true;
    case 4: return gen_lift_name(index, out, size);
    default: return family >= FAMILY_COMPOSITE && gen_composite_name(family - FAMILY_COMPOSITE, index, out, size);
    }
}

bool gen_case_name(int family, int index, int shape, int rate_hz, char *out, size_t size) {
    char base[96];
    if (shape < 0 || shape > 2 || !params_name(family, index, base, sizeof base)) return false;
    snprintf(out, size, "%s-%s-%dhz", base, gen_shape_names[shape], rate_hz);
    return true;
}

cJSON *gen_case_build(int family, int index, int shape, int rate_hz) {
    char name[SCENE_NAME_MAX];
    if (rate_hz <= 0 || !gen_case_name(family, index, shape, rate_hz, name, sizeof name)) return NULL;
    stair_case sc;
    slope_case lc;
    switch (family) {
    case 0: return stair_decode(index, &sc) ? stairs_build(&sc, shape, rate_hz, name) : NULL;
    case 1: return slope_decode(index, &lc) ? slopes_build(&lc, shape, rate_hz, name) : NULL;
    case 2: return ledges_build(index, shape, rate_hz, name);
    case 3: return steps_build(index, shape, rate_hz, name);
    case 4: return gen_lift_build(index, gen_shape_names[shape], rate_hz, name, rise_limit(shape));
    case FAMILY_MAX_SLOPE: return max_slope_decode(index, &lc) ? slopes_build(&lc, shape, rate_hz, name) : NULL;
    default: return family >= FAMILY_COMPOSITE ? gen_composite_build(family - FAMILY_COMPOSITE, index, shape, rate_hz, name, rise_limit(shape)) : NULL;
    }
}

bool gen_case_text(int family, int index, int shape, int rate_hz, char *name, size_t name_size, char **json) {
    *json = NULL;
    if (!gen_case_name(family, index, shape, rate_hz, name, name_size)) return false;
    cJSON *s = gen_case_build(family, index, shape, rate_hz);
    if (!s) return false;
    *json = cJSON_PrintUnformatted(s);
    cJSON_Delete(s);
    return *json != NULL;
}

int gen_family_from_name(const char *name) {
    for (int f = 0; gen_family_names[f]; ++f)
        if (!strcmp(gen_family_names[f], name)) return f;
    return -1;
}

int gen_shape_from_name(const char *name) {
    for (int s = 0; gen_shape_names[s]; ++s)
        if (!strcmp(gen_shape_names[s], name)) return s;
    return -1;
}

int gen_write(const char *dir, unsigned family_mask, unsigned shape_mask, int rate_hz, const char *only, char *message, size_t size) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(message, size, "%s: cannot create: %s", dir, strerror(errno));
        return -1;
    }
    int written = 0;
    for (int f = 0; gen_family_names[f]; ++f) {
        if (!(family_mask >> f & 1u)) continue;
        for (int i = 0; i < gen_family_size(f); ++i)
            for (int sh = 0; sh < 3; ++sh) {
                char name[SCENE_NAME_MAX], path[1024];
                if (!(shape_mask >> sh & 1u) || !gen_case_name(f, i, sh, rate_hz, name, sizeof name)) continue;
                if (only && strcmp(only, name) != 0) continue;
                char *json = NULL;
                if (!gen_case_text(f, i, sh, rate_hz, name, sizeof name, &json)) continue;
                snprintf(path, sizeof path, "%s/%s.json", dir, name);
                FILE *out = fopen(path, "w");
                bool ok = out && fputs(json, out) >= 0 && fputc('\n', out) != EOF;
                if (out) ok &= fclose(out) == 0;
                free(json);
                if (!ok) {
                    snprintf(message, size, "%s: cannot write: %s", path, strerror(errno));
                    return -1;
                }
                ++written;
            }
    }
    return written;
}
