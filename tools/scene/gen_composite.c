// SPDX-License-Identifier: MIT
// The generated matrix's composite families (issue 26; docs/STRATEGIES.md "Generated matrix"): where steps meet
// slopes. "curbs": a curb whose top or approach is sloped up, down or across the walk; "tilted_treads": stairs whose
// treads tilt back, forward or sideways; "micro_steps": staircases of 1-5 cm risers on 2-8 cm treads; "angled_stairs":
// stairs walked at 0-60 degrees to their risers. Each case is built from boxes, the same boxes as one triangle mesh,
// or (curbs) a heightfield, and is walked onto (or up) and back off (or down).
//
// Expectations come from the settings and the geometry (issue 26's rules), never from what the controller does:
// - a step is climbed when the tread it lands on, measured where the body's support rests, is within max step (1 cm
//   of margin) and the walkable ground beyond the riser's top edge is at least min_step_depth deep along the motion;
//   every curb top here runs on walkable for a metre or more;
// - a staircase whose nosing line is walkable (within the slope tolerance) and whose risers are within max step is
//   climbed by every shape whatever its tread depth (min_step_depth guards a single ledge);
// - walking off or down always gets back to the ground below, and nothing pushes a walker sideways: where it gets
//   through, it ends within 0.1 m of its line (a frame's slide along a riser at 45 degrees is 0.067 m at 30 Hz).
// Cases whose step height lies between the margin and what the controller's one rule clearly refuses check the
// invariants only (the per-frame rise, and the automatic finite state and penetration checks).
//
// Boxes cannot make a vertical riser meet a plane tilted along the walk exactly: a box under a tilted plane has end
// faces square to the plane. Rising planes put the leaning end face under the plane (an axis-aligned block gives the
// vertical riser); falling ones use a 1 cm slab over a block 5 mm deep that gives the riser: the slab's end face
// sticks out at most 7 mm below the edge, a steep lip (a nosing). Calls gen.c.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

#define R GEN_RADIUS
#define NAN_ ((double)NAN)
#define MARGIN 0.01 // m below max step for "must climb"
#define LATERAL 0.1 // m: the farthest a walker that gets through may end from its line
#define HALF_W 1.5  // m: curbs and tilted treads are 3 m wide
#define FAR 25.0    // m the ground runs on beyond the course's ends
#define THIN 0.01   // m: the slab under a plane that falls along the walk

static double rad(double degrees) { return degrees * GEN_PI / 180.0; }
static bool is_round(int shape) { return shape != 2; }

enum { BODY_BOXES, BODY_MESH, BODY_HEIGHTFIELD };
static const char *const body_names[] = {"boxes", "mesh", "heightfield"};

// Where a shape's feet rest on ground tilted `degrees` across the walk, above the ground under its axis: a round
// bottom hovers r (1 / cos - 1) above it; the upright box stands on its uphill bottom edge, r tan higher.
static double rest_across(int shape, double degrees) {
    double a = rad(degrees);
    return is_round(shape) ? R * (1.0 / cos(a) - 1.0) : R * tan(a);
}

// A slab `thick` below the plane through (x0, y0) that rises `degrees` along +X (falls when negative), over the
// horizontal run from x0 to x0 + run, |z| <= HALF_W. Its end faces are square to the plane (module comment).
static void slab_along(gen_boxes *list, double x0, double y0, double degrees, double run, double thick) {
    double a = rad(degrees);
    const double axis[3] = {0, 0, 1};
    double half[3] = {0.5 * run / cos(a), 0.5 * thick, HALF_W};
    double center[3] = {x0 + 0.5 * run + 0.5 * thick * sin(a), y0 + 0.5 * run * tan(a) - 0.5 * thick * cos(a), 0.0};
    gen_boxes_add(list, center, half, axis, degrees);
}

// A slab under the plane y = y0 + z tan(degrees) (tilted across the walk, rising toward +Z) from x0 to x1, |z| <=
// HALF_W; deep enough to reach below the floor at its high side. Its end faces are vertical: they make risers.
static void slab_across(gen_boxes *list, double x0, double x1, double y0, double degrees) {
    double a = rad(degrees), thick = y0 * cos(a) + 2.0 * HALF_W * sin(a) + 1.0;
    const double axis[3] = {1, 0, 0};
    double half[3] = {0.5 * (x1 - x0), 0.5 * thick, HALF_W / cos(a)};
    double center[3] = {0.5 * (x0 + x1), y0 - 0.5 * thick * cos(a), 0.5 * thick * sin(a)};
    gen_boxes_add(list, center, half, axis, -degrees);
}

static void block(gen_boxes *list, double x0, double x1, double y1) {
    const double lo[3] = {x0, 0.0, -HALF_W}, hi[3] = {x1, y1, HALF_W};
    if (y1 > 0.001) gen_boxes_add_minmax(list, lo, hi);
}

// The walk along +X (or back along -X) and what it must reach: its feet end past x_past, within y_slack of y and
// within LATERAL of its line.
static void walk(cJSON *s, int shape, const double start[3], bool back) {
    gen_input_direction(gen_character(s, gen_shape_names[shape], start), 0.0, back ? -1.0 : 1.0, 0.0, GEN_SPEED);
}

static void expect_through(cJSON *s, bool back, double x_past, double y, double y_slack) {
    if (back) gen_check_final(s, "gets back past the start", 0, NAN_, x_past);
    else gen_check_final(s, "gets past the top", 0, x_past, NAN_);
    gen_check_final(s, back ? "on the ground below" : "on the ground above", 1, y - y_slack, y + y_slack);
    gen_check_final(s, "keeps to its line", 2, -LATERAL, LATERAL);
}

// ---- curbs --------------------------------------------------------------------------------------------------

// A curb of `rise` whose riser stands at X_RISER across the walk. Its top (part TOP) or the approach to it (part
// APPROACH) is sloped: up or down along the walk for a horizontal run, then level; or across the walk (a top tilted
// about the walk's line; an approach across means the whole curb stands on a cross slope, lifted so that its low
// side stays above the floor). Walked on from x = 0 at 4 m/s, or back off it from x = 6.
#define X_RISER 2.5
#define RAMP_RUN 1.5 // m: a sloped approach's run, ending at the riser's foot
#define TOP_RUN 1.0  // m: a sloped top's run from the riser's top edge (a falling one stops at the floor)
#define HF_DX 0.05   // m: the heightfield's spacing along the walk: its riser is one cell, 63 degrees for 0.1 m
#define HF_DZ 0.5
#define HF_FROM 0.5
#define HF_CELLS 80 // to x = 4.5: the rest of the course is boxes
#define CURB_BACK_START (X_RISER + 3.5)

static const double curb_rises[] = {0.1, 0.2, 0.35};
static const double curb_degrees[] = {5, 15, 30, GEN_MAX_SLOPE};
#define N_CURB_RISES ((int)(sizeof curb_rises / sizeof curb_rises[0]))
#define N_CURB_DEGREES ((int)(sizeof curb_degrees / sizeof curb_degrees[0]))
#define CURB_SLOPES (1 + 2 * 3 * N_CURB_DEGREES) // level, then part x direction x angle
enum { PART_TOP, PART_APPROACH };
enum { DIR_UP, DIR_DOWN, DIR_ACROSS };
static const char *const part_names[] = {"top", "approach"};
static const char *const dir_names[] = {"up", "down", "across"};

typedef struct curb_case {
    int part, dir, body;
    double rise, degrees; // degrees 0: a level curb
    bool back;            // walked back off it
} curb_case;

static bool curb_decode(int index, curb_case *c) {
    if (index < 0 || index >= N_CURB_RISES * CURB_SLOPES * 3 * 2) return false;
    memset(c, 0, sizeof *c);
    c->back = index % 2;
    c->body = index / 2 % 3;
    int slope = index / 6 % CURB_SLOPES;
    c->rise = curb_rises[index / 6 / CURB_SLOPES];
    if (slope > 0) {
        c->degrees = curb_degrees[(slope - 1) % N_CURB_DEGREES];
        c->dir = (slope - 1) / N_CURB_DEGREES % 3;
        c->part = (slope - 1) / N_CURB_DEGREES / 3;
    }
    return true;
}

static void curb_name(const curb_case *c, char *out, size_t size) {
    char slope[48] = "level";
    if (c->degrees > 0) snprintf(slope, sizeof slope, "%s-%s-a%02.0f", part_names[c->part], dir_names[c->dir], c->degrees);
    snprintf(out, size, "curb-%s-h%.2f-%s-%s", slope, c->rise, body_names[c->body], c->back ? "off" : "on");
}

static double curb_tan(const curb_case *c) { return tan(rad(c->degrees)); }

static double curb_base(const curb_case *c) {
    return c->part == PART_APPROACH && c->dir == DIR_ACROSS ? HALF_W * curb_tan(c) + 0.01 : 0.0;
}

static double approach_y(const curb_case *c, double x, double z) {
    double t = curb_tan(c), foot = X_RISER - RAMP_RUN;
    if (c->part == PART_TOP || c->degrees == 0.0) return 0.0;
    switch (c->dir) {
    case DIR_UP: return x <= foot ? 0.0 : (x - foot) * t;
    case DIR_DOWN: return x <= foot ? RAMP_RUN * t : (X_RISER - x) * t;
    default: return curb_base(c) + z * t;
    }
}

// The riser's top edge on the walk's line.
static double edge_y(const curb_case *c) { return approach_y(c, X_RISER, 0.0) + c->rise; }

static double top_y(const curb_case *c, double x, double z) {
    double t = curb_tan(c), d = fmin(x - X_RISER, TOP_RUN), edge = edge_y(c);
    if (c->degrees == 0.0) return edge;
    if (c->part == PART_APPROACH) return edge + (c->dir == DIR_ACROSS ? z * t : 0.0);
    switch (c->dir) {
    case DIR_UP: return edge + d * t;
    case DIR_DOWN: return fmax(edge - d * t, 0.0);
    default: return fmax(edge + z * t, 0.0);
    }
}

// The tread height above the ground the walker stands on at the riser, each measured where the shape's support
// rests. A round bottom in the corner of a rising approach and the riser rests on the slope r (1 - sin a) before
// the riser, r (1 - sin a) tan a below its foot (above it when the approach falls); the box stands on its front
// bottom edge at the riser on a rising approach, and on its rear one, 2 r back, on a falling one. On a top tilted
// across, the support rests uphill of the axis: r sin a for a round bottom, r for the box.
static double curb_step(const curb_case *c, int shape) {
    double a = rad(c->degrees), t = tan(a), corner = is_round(shape) ? R * (1.0 - sin(a)) * t : 0.0;
    if (c->part == PART_TOP) return c->dir == DIR_ACROSS ? c->rise + (is_round(shape) ? R * sin(a) : R) * t : c->rise;
    switch (c->dir) {
    case DIR_UP: return c->rise + corner;
    case DIR_DOWN: return c->rise - (is_round(shape) ? corner : 2.0 * R * t);
    default: return c->rise;
    }
}

static void curb_boxes(const curb_case *c, gen_boxes *list, double hf_from, double hf_to) {
    double t = curb_tan(c), edge = edge_y(c), foot = X_RISER - RAMP_RUN;
    bool across = c->dir == DIR_ACROSS && c->degrees > 0.0;
    // Before the heightfield's span (all of it for boxes): the approach.
    if (c->part == PART_APPROACH && c->degrees > 0.0 && hf_from > -FAR) {
        if (c->dir == DIR_DOWN) block(list, -FAR, hf_from, RAMP_RUN * t);
        if (across) slab_across(list, -FAR, hf_from, curb_base(c), c->degrees);
    } else if (c->part == PART_APPROACH && c->degrees > 0.0) {
        if (c->dir == DIR_UP) slab_along(list, foot, 0.0, c->degrees, RAMP_RUN, 1.0);
        if (c->dir == DIR_DOWN) {
            block(list, -FAR, foot, RAMP_RUN * t);
            slab_along(list, foot, RAMP_RUN * t, -c->degrees, RAMP_RUN, 1.0);
        }
        if (across) slab_across(list, -FAR, X_RISER, curb_base(c), c->degrees);
    }
    // After it: the top.
    double from = hf_to > X_RISER ? hf_to : X_RISER;
    if (c->part == PART_APPROACH || c->degrees == 0.0) {
        if (across) slab_across(list, from, X_RISER + FAR, edge, c->degrees);
        else block(list, from, X_RISER + FAR, edge);
        return;
    }
    if (c->dir == DIR_ACROSS) {
        slab_across(list, from, X_RISER + FAR, edge, c->degrees);
        return;
    }
    double run = c->dir == DIR_UP ? TOP_RUN : fmin(TOP_RUN, c->rise / t), end = top_y(c, X_RISER + run, 0.0);
    if (hf_to <= X_RISER) {
        if (c->dir == DIR_UP) {
            block(list, X_RISER, X_RISER + run, c->rise);
            slab_along(list, X_RISER, c->rise, c->degrees, run, 1.0);
        } else {
            slab_along(list, X_RISER, c->rise, -c->degrees, run, THIN);
            block(list, X_RISER, X_RISER + 0.005, c->rise - 0.005 * t);
            block(list, X_RISER, X_RISER + run, end);
        }
        from = X_RISER + run;
    }
    block(list, from, X_RISER + FAR, end);
}

static cJSON *curbs_build(const curb_case *c, int shape, int rate, const char *name, double max_rise) {
    double t = curb_tan(c), duration = (CURB_BACK_START + 2.0 * RAMP_RUN) / GEN_SPEED + 0.3;
    char description[256];
    snprintf(description, sizeof description, "Generated: a %.2f m curb, its %s sloped %s at %g degrees, as %s; walked %s it at %.0f m/s.",
             c->rise, part_names[c->part], dir_names[c->dir], c->degrees, body_names[c->body], c->back ? "back off" : "onto", GEN_SPEED);
    cJSON *s = gen_scene_new(name, description, 1.0 / rate, duration);
    static gen_boxes list;
    list.count = 0;
    if (c->body == BODY_HEIGHTFIELD) {
        // The riser is the cell before X_RISER: the sample at X_RISER is the top's.
        int nx = HF_CELLS + 1, nz = (int)(2.0 * HALF_W / HF_DZ + 0.5) + 1, riser = (int)((X_RISER - HF_FROM) / HF_DX + 0.5);
        double *heights = (double *)malloc(sizeof(double) * (size_t)nx * (size_t)nz);
        if (!heights) {
            cJSON_Delete(s);
            return NULL;
        }
        for (int j = 0; j < nz; ++j)
            for (int i = 0; i < nx; ++i) {
                double x = X_RISER + (i - riser) * HF_DX, z = -HALF_W + j * HF_DZ;
                heights[j * nx + i] = i < riser ? approach_y(c, x, z) : top_y(c, x, z);
            }
        const double origin[3] = {X_RISER - riser * HF_DX, 0.0, -HALF_W};
        gen_heightfield(s, "curb", origin, HF_DX, HF_DZ, heights, nx, nz);
        free(heights);
        curb_boxes(c, &list, origin[0], origin[0] + HF_CELLS * HF_DX);
        gen_boxes_emit(s, &list, "ground", false);
    } else {
        curb_boxes(c, &list, -FAR, -FAR);
        gen_boxes_emit(s, &list, "curb", c->body == BODY_MESH);
    }
    double across = c->dir == DIR_ACROSS ? c->degrees : 0.0;
    bool tilted_start = c->part == PART_APPROACH || c->back;
    double start[3] = {c->back ? CURB_BACK_START : 0.0, 0.0, 0.0};
    start[1] = (c->back ? top_y(c, start[0], 0.0) : approach_y(c, start[0], 0.0)) + (tilted_start ? rest_across(shape, across) : 0.0);
    if (start[1] > 0.0) start[1] += 0.0005; // spawned half a millimetre clear of ground above the floor
    walk(s, shape, start, c->back);
    // Walking up a rising approach, the frame it steps also climbs the approach as far as it walks before the riser
    // stops it (the invariant is max step above the surface stood on, plus the slide up a walkable slope: the soak's
    // rise check): at most a frame's walk times the slope.
    bool climbs_approach = c->part == PART_APPROACH && c->dir == DIR_UP && !c->back;
    gen_check_max_rise(s, max_rise + (climbs_approach ? GEN_SPEED / rate * t : 0.0));
    double slack = 0.02 + LATERAL * (c->dir == DIR_ACROSS ? t : 0.0);
    if (c->back) {
        bool end_tilted = c->part == PART_APPROACH;
        expect_through(s, true, X_RISER - RAMP_RUN - R - 0.1, approach_y(c, 0.0, 0.0) + (end_tilted ? rest_across(shape, across) : 0.0), slack);
        return s;
    }
    if (curb_step(c, shape) > GEN_MAX_STEP - MARGIN) return s; // the invariants only (module comment)
    expect_through(s, false, X_RISER + TOP_RUN + R + 0.1, top_y(c, X_RISER + TOP_RUN, 0.0) + rest_across(shape, across), slack);
    return s;
}

// ---- tilted treads ------------------------------------------------------------------------------------------

// A straight flight along +X, nose k at x = 1 + k tread, clamp(floor(2.4 / tread), 3, 10) steps whose last is the
// level landing. Each tread tilts about its nose: back (rising toward the next riser, which is that much lower),
// forward (falling toward it: that much taller), or sideways (every tread, the landing and the approach tilted
// alike about the walk's line, lifted so that the low side stays above the floor: the risers keep their rise).
static const double tilt_rises[] = {0.1, 0.2, 0.3};
static const double tilt_treads[] = {0.15, 0.3};
static const double tilt_degrees[] = {5, 10, 20, 30};
#define N_TILT_RISES ((int)(sizeof tilt_rises / sizeof tilt_rises[0]))
#define N_TILT_TREADS ((int)(sizeof tilt_treads / sizeof tilt_treads[0]))
#define N_TILT_DEGREES ((int)(sizeof tilt_degrees / sizeof tilt_degrees[0]))
enum { TILT_BACK, TILT_FORWARD, TILT_SIDEWAYS, TILTS };
static const char *const tilt_names[] = {"back", "forward", "sideways"};

typedef struct tilt_case {
    int tilt, body;
    double rise, tread, degrees;
    bool down;
} tilt_case;

static bool tilt_decode(int index, tilt_case *c) {
    if (index < 0 || index >= N_TILT_RISES * N_TILT_TREADS * TILTS * N_TILT_DEGREES * 2 * 2) return false;
    c->down = index % 2;
    c->body = index / 2 % 2;
    c->degrees = tilt_degrees[index / 4 % N_TILT_DEGREES];
    c->tilt = index / 4 / N_TILT_DEGREES % TILTS;
    c->tread = tilt_treads[index / 4 / N_TILT_DEGREES / TILTS % N_TILT_TREADS];
    c->rise = tilt_rises[index / 4 / N_TILT_DEGREES / TILTS / N_TILT_TREADS];
    // A tread tilted back past the next nose leaves no riser (2 cm at least): a sawtooth ramp, not stairs.
    return !(c->tilt == TILT_BACK && c->tread * tan(rad(c->degrees)) > c->rise - 0.02);
}

static int flight_steps(double tread) {
    int n = (int)(2.4 / tread);
    return n < 3 ? 3 : (n > 10 ? 10 : n);
}

static cJSON *tilted_build(const tilt_case *c, int shape, int rate, const char *name, double max_rise) {
    int n = flight_steps(c->tread);
    double t = tan(rad(c->degrees)), flight = (n - 1) * c->tread, x0 = 1.0;
    bool sideways = c->tilt == TILT_SIDEWAYS;
    double base = sideways ? HALF_W * t + 0.01 : 0.0, top = base + n * c->rise, across = sideways ? c->degrees : 0.0;
    char description[256];
    snprintf(description, sizeof description, "Generated: %d steps of rise %.2f m and tread %.2f m, treads tilted %s %g degrees, as %s; walked %s.", n,
             c->rise, c->tread, tilt_names[c->tilt], c->degrees, body_names[c->body], c->down ? "down" : "up");
    cJSON *s = gen_scene_new(name, description, 1.0 / rate, (1.2 + flight + 1.5) / GEN_SPEED * 1.5 + 0.5);
    static gen_boxes list;
    list.count = 0;
    if (sideways) slab_across(&list, -FAR, x0, base, c->degrees);
    for (int k = 0; k < n; ++k) {
        double x = x0 + k * c->tread, nose = base + (k + 1) * c->rise;
        if (k == n - 1) {
            if (sideways) slab_across(&list, x, x + FAR, nose, c->degrees);
            else block(&list, x, x + FAR, nose);
        } else if (sideways) slab_across(&list, x, x + c->tread, nose, c->degrees);
        else if (c->tilt == TILT_BACK) {
            block(&list, x, x + c->tread, nose);
            slab_along(&list, x, nose, c->degrees, c->tread, 0.5);
        } else {
            slab_along(&list, x, nose, -c->degrees, c->tread, THIN);
            block(&list, x, x + 0.005, nose - 0.005 * t);
            block(&list, x, x + c->tread, nose - c->tread * t);
        }
    }
    gen_boxes_emit(s, &list, "step", c->body == BODY_MESH);
    double start[3] = {c->down ? x0 + flight + 1.0 : x0 - 1.2, c->down ? top : base, 0.0};
    start[1] += rest_across(shape, across) + (start[1] > 0.0 ? 0.0005 : 0.0);
    walk(s, shape, start, c->down);
    gen_check_max_rise(s, max_rise);
    double slack = 0.02 + LATERAL * (sideways ? t : 0.0);
    if (c->down) {
        expect_through(s, true, x0 - R - 0.1, base + rest_across(shape, across), slack);
        return s;
    }
    // The tallest step, wherever the support rests: a riser plus the fall of the tread before it over its depth, or
    // over the body's radius when that is longer (a round bottom in a corner, a box on its edge).
    double step = sideways ? c->rise : c->rise + (c->tilt == TILT_FORWARD ? fmax(c->tread, R) * t : R * t);
    if (step > GEN_MAX_STEP - MARGIN) return s; // the invariants only (module comment)
    expect_through(s, false, x0 + flight + R + 0.1, top + rest_across(shape, across), slack);
    return s;
}

// ---- micro-steps --------------------------------------------------------------------------------------------

// A straight flight of round(1.2 / tread) steps (3 to 60) with a level landing, risers 1-5 cm on treads 2-8 cm,
// every pair whose nosing line is walkable. Treads below min_step_depth: a staircase all the same.
static const double micro_rises[] = {0.01, 0.02, 0.03, 0.05};
static const double micro_treads[] = {0.02, 0.03, 0.05, 0.08};
#define N_MICRO_RISES ((int)(sizeof micro_rises / sizeof micro_rises[0]))
#define N_MICRO_TREADS ((int)(sizeof micro_treads / sizeof micro_treads[0]))

typedef struct micro_case {
    double rise, tread;
    int body;
    bool down;
} micro_case;

static bool micro_decode(int index, micro_case *c) {
    if (index < 0 || index >= N_MICRO_RISES * N_MICRO_TREADS * 2 * 2) return false;
    c->down = index % 2;
    c->body = index / 2 % 2;
    c->tread = micro_treads[index / 4 % N_MICRO_TREADS];
    c->rise = micro_rises[index / 4 / N_MICRO_TREADS];
    return atan2(c->rise, c->tread) * 180.0 / GEN_PI <= GEN_WALKABLE_DEGREES;
}

static cJSON *micro_build(const micro_case *c, int shape, int rate, const char *name, double max_rise) {
    int n = (int)(1.2 / c->tread + 0.5);
    n = n < 3 ? 3 : (n > 60 ? 60 : n);
    double flight = (n - 1) * c->tread, top = n * c->rise, x0 = 1.0;
    char description[256];
    snprintf(description, sizeof description, "Generated: %d micro-steps of rise %.2f m and tread %.2f m, as %s; walked %s.", n, c->rise, c->tread,
             body_names[c->body], c->down ? "down" : "up");
    cJSON *s = gen_scene_new(name, description, 1.0 / rate, (1.2 + flight + 1.5) / GEN_SPEED * 1.5 + 0.5);
    static gen_boxes list;
    list.count = 0;
    for (int k = 0; k < n; ++k) {
        double x = x0 + k * c->tread;
        block(&list, x, k == n - 1 ? x + FAR : x + c->tread, (k + 1) * c->rise);
    }
    gen_boxes_emit(s, &list, "step", c->body == BODY_MESH);
    const double start[3] = {c->down ? x0 + flight + 1.0 : x0 - 1.2, c->down ? top : 0.0, 0.0};
    walk(s, shape, start, c->down);
    gen_check_max_rise(s, max_rise);
    if (c->down) expect_through(s, true, x0 - R - 0.1, 0.0, 0.02);
    else expect_through(s, false, x0 + flight + R + 0.1, top, 0.02);
    return s;
}

// ---- angled stairs ------------------------------------------------------------------------------------------

// Straight stairs (as the stairs family's: clamp(floor(2.4 / tread), 3, 10) steps, the last the landing) turned
// about +Y so that their risers meet the walk along +X at `yaw` degrees from square. The walk crosses the first riser
// at x = 1 and each tread over tread / cos(yaw), at z' = x' tan(yaw) in the stairs' frame: each step is 3 m wide
// about that crossing and the landing 8 m deep, wide enough for the whole walk. (Steps 28 m wide, turned, made
// every step's bounds overlap every query: nine times the cost of the stairs family.)
static const double angled_rises[] = {0.05, 0.15, 0.25, 0.35, 0.45};
static const double angled_treads[] = {0.15, 0.3};
static const double angled_yaws[] = {0, 15, 30, 45, 60};
#define N_ANGLED_RISES ((int)(sizeof angled_rises / sizeof angled_rises[0]))
#define N_ANGLED_TREADS ((int)(sizeof angled_treads / sizeof angled_treads[0]))
#define N_ANGLED_YAWS ((int)(sizeof angled_yaws / sizeof angled_yaws[0]))
#define ANGLED_HALF_WIDTH 1.5 // m about the walk's crossing
#define ANGLED_LANDING 8.0    // m deep

typedef struct angled_case {
    double rise, tread, yaw;
    int body;
    bool down;
} angled_case;

static bool angled_decode(int index, angled_case *c) {
    if (index < 0 || index >= N_ANGLED_RISES * N_ANGLED_TREADS * N_ANGLED_YAWS * 2 * 2) return false;
    c->down = index % 2;
    c->body = index / 2 % 2;
    c->yaw = angled_yaws[index / 4 % N_ANGLED_YAWS];
    c->tread = angled_treads[index / 4 / N_ANGLED_YAWS % N_ANGLED_TREADS];
    c->rise = angled_rises[index / 4 / N_ANGLED_YAWS / N_ANGLED_TREADS];
    return true;
}

static cJSON *angled_build(const angled_case *c, int shape, int rate, const char *name, double max_rise) {
    int n = flight_steps(c->tread);
    double phi = rad(c->yaw), flight = (n - 1) * c->tread, top = n * c->rise, along = 1.0 / cos(phi);
    char description[256];
    snprintf(description, sizeof description, "Generated: %d steps of rise %.2f m and tread %.2f m approached at %g degrees, as %s; walked %s.", n,
             c->rise, c->tread, c->yaw, body_names[c->body], c->down ? "down" : "up");
    cJSON *s = gen_scene_new(name, description, 1.0 / rate, (1.2 + (flight + 1.5) * along) / GEN_SPEED * 1.5 + 0.5);
    static gen_boxes list;
    list.count = 0;
    const double axis[3] = {0, 1, 0};
    for (int k = 0; k < n; ++k) {
        // In the stairs' own frame the first riser is x' = 0 and they climb along +x'; turned about +Y by yaw
        // (x = x' cos + z' sin, z = z' cos - x' sin), then moved so that the walk meets the first riser at x = 1.
        double x_lo = k * c->tread, x_hi = k == n - 1 ? x_lo + ANGLED_LANDING : x_lo + c->tread, cx = 0.5 * (x_lo + x_hi);
        double cz = cx * tan(phi), hz = ANGLED_HALF_WIDTH + 0.5 * (x_hi - x_lo) * tan(phi);
        double center[3] = {1.0 + cx * cos(phi) + cz * sin(phi), 0.5 * (k + 1) * c->rise, cz * cos(phi) - cx * sin(phi)};
        double half[3] = {0.5 * (x_hi - x_lo), 0.5 * (k + 1) * c->rise, hz};
        gen_boxes_add(&list, center, half, axis, c->yaw);
    }
    gen_boxes_emit(s, &list, "step", c->body == BODY_MESH);
    const double start[3] = {c->down ? 1.0 + (flight + 1.0) * along : -0.2, c->down ? top : 0.0, 0.0};
    walk(s, shape, start, c->down);
    gen_check_max_rise(s, max_rise);
    if (c->down) expect_through(s, true, 1.0 - R * along - 0.1, 0.0, 0.02);
    else if (c->rise <= GEN_MAX_STEP + 1e-9) expect_through(s, false, 1.0 + flight * along + R * along + 0.1, top, 0.02);
    // Not climbable: the feet never get onto the first step (1 cm below its top); it may slide along the riser.
    else gen_check_height(s, "below the first step", 1, NAN_, c->rise - 0.01);
    return s;
}

// ---- the composite families ---------------------------------------------------------------------------------

int gen_composite_size(int composite) {
    switch (composite) {
    case GEN_COMPOSITE_CURBS: return N_CURB_RISES * CURB_SLOPES * 3 * 2;
    case GEN_COMPOSITE_TILTED_TREADS: return N_TILT_RISES * N_TILT_TREADS * TILTS * N_TILT_DEGREES * 2 * 2;
    case GEN_COMPOSITE_MICRO_STEPS: return N_MICRO_RISES * N_MICRO_TREADS * 2 * 2;
    case GEN_COMPOSITE_ANGLED_STAIRS: return N_ANGLED_RISES * N_ANGLED_TREADS * N_ANGLED_YAWS * 2 * 2;
    default: return 0;
    }
}

bool gen_composite_name(int composite, int index, char *out, size_t size) {
    curb_case cc;
    tilt_case tc;
    micro_case mc;
    angled_case ac;
    switch (composite) {
    case GEN_COMPOSITE_CURBS:
        if (!curb_decode(index, &cc)) return false;
        curb_name(&cc, out, size);
        return true;
    case GEN_COMPOSITE_TILTED_TREADS:
        if (!tilt_decode(index, &tc)) return false;
        snprintf(out, size, "tilted-%s-a%02.0f-r%.2f-t%.2f-%s-%s", tilt_names[tc.tilt], tc.degrees, tc.rise, tc.tread, body_names[tc.body],
                 tc.down ? "down" : "up");
        return true;
    case GEN_COMPOSITE_MICRO_STEPS:
        if (!micro_decode(index, &mc)) return false;
        snprintf(out, size, "micro-steps-r%.2f-t%.2f-%s-%s", mc.rise, mc.tread, body_names[mc.body], mc.down ? "down" : "up");
        return true;
    case GEN_COMPOSITE_ANGLED_STAIRS:
        if (!angled_decode(index, &ac)) return false;
        snprintf(out, size, "stairs-angled-y%02.0f-r%.2f-t%.2f-%s-%s", ac.yaw, ac.rise, ac.tread, body_names[ac.body], ac.down ? "down" : "up");
        return true;
    default: return false;
    }
}

cJSON *gen_composite_build(int composite, int index, int shape, int rate_hz, const char *name, double max_rise) {
    curb_case cc;
    tilt_case tc;
    micro_case mc;
    angled_case ac;
    switch (composite) {
    case GEN_COMPOSITE_CURBS: return curb_decode(index, &cc) ? curbs_build(&cc, shape, rate_hz, name, max_rise) : NULL;
    case GEN_COMPOSITE_TILTED_TREADS: return tilt_decode(index, &tc) ? tilted_build(&tc, shape, rate_hz, name, max_rise) : NULL;
    case GEN_COMPOSITE_MICRO_STEPS: return micro_decode(index, &mc) ? micro_build(&mc, shape, rate_hz, name, max_rise) : NULL;
    case GEN_COMPOSITE_ANGLED_STAIRS: return angled_decode(index, &ac) ? angled_build(&ac, shape, rate_hz, name, max_rise) : NULL;
    default: return NULL;
    }
}
