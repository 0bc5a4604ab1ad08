// SPDX-License-Identifier: MIT
// The plots people look at: an SVG with the side view and the top view of the feet's path over the geometry
// (the scene's "plot": {"view": ...} picks them), height over time with the camera-smoothed height and
// grounded/air shading, and a legend. Also the CSV trace (columns in docs/SCENES.md).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tread_scene.h"

#define PLOT_W 960.0
#define SIDE_H 420.0
#define TOP_H 300.0
#define TIME_H 240.0
#define MARGIN 50.0
// Geometry with more triangles or cells than this is drawn by its bounds, keeping files small.
#define PLOT_MAX_PRIMITIVES 20000

static const char *const palette[] = {"#1f6fd1", "#d1451f", "#2a9d3a", "#8e44ad", "#c28f00"};

typedef struct view {
    int h_axis, v_axis;         // world axes drawn horizontally and vertically
    double h0, h1, v0, v1;      // data range
    double px, py, pw, ph;      // panel rectangle in pixels
} view;

static double axis_of(tread_vec3 p, int axis) { return axis == 0 ? p.x : (axis == 1 ? p.y : p.z); }
static double to_px(const view *v, double h) { return v->px + (h - v->h0) / (v->h1 - v->h0) * v->pw; }
static double to_py(const view *v, double u) { return v->py + v->ph - (u - v->v0) / (v->v1 - v->v0) * v->ph; }

static int cmp_pt(const void *a, const void *b) {
    const double *p = (const double *)a, *q = (const double *)b;
    if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}
static double cross2(const double *o, const double *a, const double *b) { return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]); }

// Convex hull of n 2D points (Andrew's monotone chain) drawn as a polygon.
static void hull_polygon(FILE *f, const view *v, double (*pts)[2], int n, const char *style) {
    qsort(pts, (size_t)n, sizeof pts[0], cmp_pt);
    double hull[64][2];
    int k = 0;
    for (int i = 0; i < n && k < 62; ++i) {
        while (k >= 2 && cross2(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
        hull[k][0] = pts[i][0], hull[k][1] = pts[i][1], ++k;
    }
    for (int i = n - 2, lower = k + 1; i >= 0 && k < 62; --i) {
        while (k >= lower && cross2(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
        hull[k][0] = pts[i][0], hull[k][1] = pts[i][1], ++k;
    }
    fprintf(f, "<polygon points=\"");
    for (int i = 0; i < k - 1; ++i) fprintf(f, "%.1f,%.1f ", to_px(v, hull[i][0]), to_py(v, hull[i][1]));
    fprintf(f, "\" %s/>\n", style);
}

static void project_box(FILE *f, const view *v, tread_transform t, tread_vec3 half, const char *style) {
    double pts[8][2];
    for (int i = 0; i < 8; ++i) {
        tread_vec3 corner = tread_v3(i & 1 ? half.x : -half.x, i & 2 ? half.y : -half.y, i & 4 ? half.z : -half.z);
        tread_vec3 w = tread_transform_point(t, corner);
        pts[i][0] = axis_of(w, v->h_axis);
        pts[i][1] = axis_of(w, v->v_axis);
    }
    hull_polygon(f, v, pts, 8, style);
}

// Round shapes: sample the outline of each end sphere and take the hull.
static void project_round(FILE *f, const view *v, tread_transform t, float half_height, float radius, const char *style) {
    double pts[48][2];
    int n = 0;
    for (int end = -1; end <= 1; end += 2) {
        tread_vec3 c = tread_transform_point(t, tread_v3(0, (float)end * half_height, 0));
        for (int i = 0; i < 24; ++i, ++n) {
            double a = 2.0 * 3.14159265358979 * i / 24.0;
            pts[n][0] = axis_of(c, v->h_axis) + radius * cos(a);
            pts[n][1] = axis_of(c, v->v_axis) + radius * sin(a);
        }
    }
    hull_polygon(f, v, pts, n, style);
}

// Half-transparent, so what overlaps in a projection (a wall standing on the floor, seen from above) shows darker.
static const char *const body_style = "fill=\"#9c9385\" fill-opacity=\"0.45\" stroke=\"#6d665c\" stroke-width=\"0.6\"";
// A moving body where the run ended: its outline only.
static const char *const moved_style = "fill=\"none\" stroke=\"#8a5a00\" stroke-width=\"1\" stroke-dasharray=\"4,2\"";

// The body placed by t (its start, or for a moving body where it went), in `style`.
static void draw_body(FILE *f, const view *v, const scene_body *b, tread_transform t, const char *style) {
    const tread_shape_def *s = &b->def.shape;
    switch (s->type) {
    case TREAD_SHAPE_BOX: project_box(f, v, t, s->half_extents, style); return;
    case TREAD_SHAPE_SPHERE: project_round(f, v, t, 0.0f, s->radius, style); return;
    case TREAD_SHAPE_CAPSULE: project_round(f, v, t, s->half_height, s->radius, style); return;
    case TREAD_SHAPE_MESH:
        if (s->mesh.triangle_count <= PLOT_MAX_PRIMITIVES) {
            for (int i = 0; i < s->mesh.triangle_count; ++i) {
                double pts[3][2];
                for (int j = 0; j < 3; ++j) {
                    tread_vec3 w = tread_transform_point(t, s->mesh.vertices[s->mesh.indices[3 * i + j]]);
                    pts[j][0] = axis_of(w, v->h_axis), pts[j][1] = axis_of(w, v->v_axis);
                }
                hull_polygon(f, v, pts, 3, style);
            }
            return;
        }
        break;
    case TREAD_SHAPE_VOXELS: {
        const tread_voxels_def *vx = &s->voxels;
        if (vx->count_x * vx->count_y * vx->count_z > PLOT_MAX_PRIMITIVES) break;
        float hc = 0.5f * vx->cell_size;
        for (int k = 0; k < vx->count_z; ++k)
            for (int j = 0; j < vx->count_y; ++j)
                for (int i = 0; i < vx->count_x; ++i) {
                    if (!vx->solid[(k * vx->count_y + j) * vx->count_x + i]) continue;
                    tread_transform cell = t;
                    cell.p = tread_transform_point(t, tread_v3(((float)i + 0.5f) * vx->cell_size, ((float)j + 0.5f) * vx->cell_size,
                                                               ((float)k + 0.5f) * vx->cell_size));
                    project_box(f, v, cell, tread_v3(hc, hc, hc), style);
                }
        return;
    }
    default:
        break;
    }
    // Heightfields and very large meshes or grids: their world bounds at the start, moved along (not turned) with t.
    tread_vec3 moved = tread_v3_sub(t.p, b->def.transform.p);
    tread_aabb a = {tread_v3_add(b->silhouette.min, moved), tread_v3_add(b->silhouette.max, moved)};
    double x0 = to_px(v, axis_of(a.min, v->h_axis)), x1 = to_px(v, axis_of(a.max, v->h_axis));
    double y0 = to_py(v, axis_of(a.max, v->v_axis)), y1 = to_py(v, axis_of(a.min, v->v_axis));
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" %s/>\n", x0, y0, x1 - x0, y1 - y0, style);
}

static int up_axis_of(tread_vec3 up) {
    tread_vec3 a = tread_v3_abs(up);
    return a.x >= a.y && a.x >= a.z ? 0 : (a.y >= a.z ? 1 : 2);
}

static const char *axis_letter(int axis) { return axis == 0 ? "x" : (axis == 1 ? "y" : "z"); }

// A map view of the feet paths on world axes h (across) and v (up the page): the paths' extents plus room
// around them, at equal scale on both axes inside the panel.
static view map_view(const scene *s, const run_trace *t, int h_axis, int v_axis, double py, double ph, double below, double above) {
    view m;
    m.h_axis = h_axis, m.v_axis = v_axis;
    m.h0 = m.v0 = INFINITY, m.h1 = m.v1 = -INFINITY;
    for (int c = 0; c < t->character_count; ++c) {
        tread_vec3 start = s->characters[c].start;
        m.h0 = fmin(m.h0, axis_of(start, h_axis)), m.h1 = fmax(m.h1, axis_of(start, h_axis));
        m.v0 = fmin(m.v0, axis_of(start, v_axis)), m.v1 = fmax(m.v1, axis_of(start, v_axis));
        for (int i = 0; i < t->frame_count; ++i) {
            tread_vec3 p = run_frame_at(t, c, i)->feet;
            m.h0 = fmin(m.h0, axis_of(p, h_axis)), m.h1 = fmax(m.h1, axis_of(p, h_axis));
            m.v0 = fmin(m.v0, axis_of(p, v_axis)), m.v1 = fmax(m.v1, axis_of(p, v_axis));
        }
    }
    // Moving bodies are what such a scene is about: the view holds where they start and the path of their origin.
    for (int k = 0; k < t->body_count; ++k) {
        tread_aabb a = s->bodies[t->body_index[k]].silhouette;
        m.h0 = fmin(m.h0, axis_of(a.min, h_axis)), m.h1 = fmax(m.h1, axis_of(a.max, h_axis));
        m.v0 = fmin(m.v0, axis_of(a.min, v_axis)), m.v1 = fmax(m.v1, axis_of(a.max, v_axis));
        for (int i = 0; i < t->frame_count; ++i) {
            tread_vec3 p = run_body_at(t, k, i).p;
            m.h0 = fmin(m.h0, axis_of(p, h_axis)), m.h1 = fmax(m.h1, axis_of(p, h_axis));
            m.v0 = fmin(m.v0, axis_of(p, v_axis)), m.v1 = fmax(m.v1, axis_of(p, v_axis));
        }
    }
    m.h0 -= 1.5, m.h1 += 1.5, m.v0 -= below, m.v1 += above;
    m.px = MARGIN, m.py = py, m.pw = PLOT_W - 2 * MARGIN, m.ph = ph;
    double sx = m.pw / (m.h1 - m.h0), sy = m.ph / (m.v1 - m.v0);
    if (sx < sy) {
        double extra = (m.ph / sx - (m.v1 - m.v0)) / 2;
        m.v0 -= extra, m.v1 += extra;
    } else {
        double extra = (m.pw / sy - (m.h1 - m.h0)) / 2;
        m.h0 -= extra, m.h1 += extra;
    }
    return m;
}

// Bodies, each character's outline at start (dashed) and end (solid), and the feet path. `top`: looking down
// along -up, where a character is a circle (a square for a box) of its radius.
static void draw_map(FILE *f, const scene *s, const run_trace *t, const view *m, const char *id, bool top) {
    fprintf(f, "<g id=\"%s-view\">\n", id);
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" fill=\"#555\">%s view: %s across, %s up the page%s; metres</text>\n", MARGIN, m->py - 8,
            id, axis_letter(m->h_axis), axis_letter(m->v_axis),
            top ? " (looking down along -up)" : strcmp(id, "front") == 0 ? " (looking along the path)" : "");
    fprintf(f, "<clipPath id=\"clip-%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>\n", id, m->px, m->py, m->pw, m->ph);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f4f8fc\" stroke=\"#999\"/>\n<g clip-path=\"url(#clip-%s)\">\n", m->px,
            m->py, m->pw, m->ph, id);
    for (int i = 0; i < s->body_count; ++i) draw_body(f, m, &s->bodies[i], s->bodies[i].def.transform, body_style);
    // Moving bodies: where they ended (outline) and the path of their origin (dotted).
    for (int k = 0; k < t->body_count; ++k) {
        const scene_body *b = &s->bodies[t->body_index[k]];
        if (t->frame_count > 0) draw_body(f, m, b, run_body_at(t, k, t->frame_count - 1), moved_style);
        fprintf(f, "<polyline fill=\"none\" stroke=\"#8a5a00\" stroke-width=\"1\" stroke-dasharray=\"1,2\" points=\"");
        for (int i = -1; i < t->frame_count; ++i) {
            tread_vec3 p = run_body_at(t, k, i).p;
            fprintf(f, "%.1f,%.1f ", to_px(m, axis_of(p, m->h_axis)), to_py(m, axis_of(p, m->v_axis)));
        }
        fprintf(f, "\"/>\n");
    }
    double scale = m->pw / (m->h1 - m->h0); // pixels per metre, both axes
    for (int c = 0; c < t->character_count; ++c) {
        const char *color = palette[c % 5];
        const tread_character *ch = &t->final[c];
        float radius = ch->settings.radius, tall = ch->settings.shape == TREAD_QUERY_SPHERE ? 2 * radius : ch->settings.height;
        for (int e = 0; e < 2; ++e) {
            // A run stopped in its first frame (t->failure) ends where it started.
            tread_vec3 p = e == 0 || t->frame_count == 0 ? s->characters[c].start : run_frame_at(t, c, t->frame_count - 1)->feet;
            double w = radius * 2 * scale, hpx = top ? w : tall * scale;
            double x = to_px(m, axis_of(p, m->h_axis) - radius);
            double y = top ? to_py(m, axis_of(p, m->v_axis) + radius) : to_py(m, axis_of(p, m->v_axis) + tall);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%.1f\" fill=\"none\" stroke=\"%s\" stroke-dasharray=\"%s\"/>\n", x, y,
                    w, hpx, ch->settings.shape == TREAD_QUERY_BOX ? 0.0 : w / 2, color, e == 0 ? "3,3" : "none");
        }
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" points=\"", color);
        for (int i = 0; i < t->frame_count; ++i) {
            tread_vec3 p = run_frame_at(t, c, i)->feet;
            fprintf(f, "%.1f,%.1f ", to_px(m, axis_of(p, m->h_axis)), to_py(m, axis_of(p, m->v_axis)));
        }
        fprintf(f, "\"/>\n");
    }
    fprintf(f, "</g>\n");
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.1f m</text>\n", m->px - 4, m->py + 10, m->v1);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.1f m</text>\n", m->px - 4, m->py + m->ph, m->v0);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\">%.1f m</text>\n", m->px, m->py + m->ph + 16, m->h0);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.1f m</text>\n", m->px + m->pw, m->py + m->ph + 16, m->h1);
    fprintf(f, "</g>\n");
}

// One legend entry: a swatch drawn by `shape` (an SVG element at x, y) and its label. Returns the next x.
static double legend_item(FILE *f, double x, double y, const char *shape, const char *label) {
    fprintf(f, shape, x, y);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x + 26, y + 4, label);
    return x + 34 + 7.0 * (double)strlen(label);
}

static void draw_legend(FILE *f, const scene *s, const run_trace *t, double y) {
    fprintf(f, "<g id=\"legend\">\n<text x=\"%.0f\" y=\"%.1f\" font-weight=\"bold\">legend</text>\n", MARGIN, y + 4);
    double x = MARGIN + 60;
    char line[160], label[SCENE_NAME_MAX + 16];
    for (int c = 0; c < t->character_count && c < 5; ++c) {
        snprintf(line, sizeof line, "<path d=\"M %%.1f %%.1f h 20\" stroke=\"%s\" stroke-width=\"2\"/>\n", palette[c]);
        snprintf(label, sizeof label, "feet path: %s", s->characters[c].name);
        x = legend_item(f, x, y, line, label);
    }
    x = legend_item(f, x, y, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" transform=\"translate(0,-5)\" fill=\"none\" stroke=\"#333\" stroke-dasharray=\"3,3\"/>\n",
                    "start");
    x = legend_item(f, x, y, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" transform=\"translate(0,-5)\" fill=\"none\" stroke=\"#333\"/>\n", "end");
    x = legend_item(f, x, y, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" transform=\"translate(0,-5)\" fill=\"#b9b2a6\" stroke=\"#6d665c\"/>\n",
                    "bodies");
    y += 20, x = MARGIN + 60;
    x = legend_item(f, x, y, "<path d=\"M %.1f %.1f h 20\" stroke=\"#333\" stroke-width=\"1.2\" stroke-dasharray=\"5,3\"/>\n", "camera height (step smoothing)");
    x = legend_item(f, x, y, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" transform=\"translate(0,-5)\" fill=\"#f7c9c0\"/>\n", "in the air (or not supported)");
    legend_item(f, x, y, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" transform=\"translate(0,-5)\" fill=\"#f6dfa0\"/>\n", "on steep ground");
    if (t->body_count > 0) { // a row of their own
        y += 20, x = MARGIN + 60;
        x = legend_item(f, x, y, "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"10\" transform=\"translate(0,-5)\" fill=\"none\" stroke=\"#8a5a00\" stroke-dasharray=\"4,2\"/>\n",
                        "moving body at the end");
        legend_item(f, x, y, "<path d=\"M %.1f %.1f h 20\" stroke=\"#8a5a00\" stroke-dasharray=\"1,2\"/>\n", "its path");
    }
    fprintf(f, "</g>\n");
}

bool plot_svg(const scene *s, const run_trace *t, const char *path, char *message, size_t size) {
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(message, size, "cannot write %s", path);
        return false;
    }
    int up = up_axis_of(s->up);
    // Across: the other world axis along which the paths travel farthest; the top view's second axis is the third.
    double best = -1.0;
    int across = up == 0 ? 1 : 0;
    for (int ax = 0; ax < 3; ++ax) {
        if (ax == up) continue;
        double lo = INFINITY, hi = -INFINITY;
        for (int c = 0; c < t->character_count; ++c)
            for (int i = 0; i < t->frame_count; ++i) {
                double p = axis_of(run_frame_at(t, c, i)->feet, ax);
                lo = fmin(lo, p), hi = fmax(hi, p);
            }
        if (hi - lo > best) best = hi - lo, across = ax;
    }
    int third = 3 - up - across;
    bool show_side = (s->plot_view & SCENE_PLOT_SIDE) != 0, show_top = (s->plot_view & SCENE_PLOT_TOP) != 0;
    bool show_front = (s->plot_view & SCENE_PLOT_FRONT) != 0;
    double y = 40;
    view side = {0}, top = {0}, front = {0};
    if (show_side) {
        // Room for the character's body above its feet and some ground below.
        side = map_view(s, t, across, up, y + 16, SIDE_H, 1.0, 2.5);
        y += 16 + SIDE_H + 40;
    }
    if (show_front) {
        // The path's cross-section: the third axis across, up vertical (a trench's two walls, a corridor).
        front = map_view(s, t, third, up, y + 16, SIDE_H, 1.0, 2.5);
        y += 16 + SIDE_H + 40;
    }
    if (show_top) {
        top = map_view(s, t, across, third, y + 16, TOP_H, 1.5, 1.5);
        y += 16 + TOP_H + 40;
    }
    double time_y = y + 16, legend_y = time_y + TIME_H + 44;
    double height = legend_y + 40 + (t->body_count > 0 ? 20 : 0);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n", PLOT_W, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s</text>\n", MARGIN, s->name);
    if (show_side) draw_map(f, s, t, &side, "side", false);
    if (show_front) draw_map(f, s, t, &front, "front", false);
    if (show_top) draw_map(f, s, t, &top, "top", true);

    // Height over time: feet (solid), camera with step smoothing (dashed), shading where not on ground.
    view time;
    time.px = MARGIN, time.py = time_y, time.pw = PLOT_W - 2 * MARGIN, time.ph = TIME_H;
    time.h0 = 0, time.h1 = (double)(t->frame_count > 0 ? t->frame_count : 1) * t->dt; // a stopped run may have no frame
    time.v0 = INFINITY, time.v1 = -INFINITY;
    for (int c = 0; c < t->character_count; ++c) {
        double spawn = tread_v3_dot(s->characters[c].start, t->final[c].settings.up);
        time.v0 = fmin(time.v0, spawn), time.v1 = fmax(time.v1, spawn);
        for (int i = 0; i < t->frame_count; ++i) {
            const run_frame *fr = run_frame_at(t, c, i);
            double h = tread_v3_dot(fr->feet, t->final[c].settings.up);
            time.v0 = fmin(time.v0, fmin(h, fr->camera)), time.v1 = fmax(time.v1, fmax(h, fr->camera));
        }
    }
    double pad = fmax(0.1, 0.08 * (time.v1 - time.v0));
    time.v0 -= pad, time.v1 += pad;
    fprintf(f, "<g id=\"time-view\">\n<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">height along up over time: feet (solid), camera with step smoothing (dashed); shaded: %s in the air (red) or on steep ground (amber)</text>\n",
            MARGIN, time.py - 8, s->characters[0].name);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fbfbfb\" stroke=\"#999\"/>\n", time.px, time.py, time.pw, time.ph);
    for (int i = 0; i < t->frame_count; ++i) {
        tread_ground_state g = run_frame_at(t, 0, i)->ground;
        if (g == TREAD_GROUND_ON_GROUND) continue;
        double x0 = to_px(&time, (double)i * t->dt), x1 = to_px(&time, (double)(i + 1) * t->dt);
        fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>\n", x0, time.py, x1 - x0 + 0.3, time.ph,
                g == TREAD_GROUND_ON_STEEP ? "#f6dfa0" : "#f7c9c0");
    }
    for (int c = 0; c < t->character_count; ++c) {
        for (int pass = 0; pass < 2; ++pass) {
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" %s points=\"", palette[c % 5], pass ? "1.2" : "1.8",
                    pass ? "stroke-dasharray=\"5,3\"" : "");
            for (int i = 0; i < t->frame_count; ++i) {
                const run_frame *fr = run_frame_at(t, c, i);
                double h = pass ? fr->camera : tread_v3_dot(fr->feet, t->final[c].settings.up);
                fprintf(f, "%.1f,%.1f ", to_px(&time, (double)(i + 1) * t->dt), to_py(&time, h));
            }
            fprintf(f, "\"/>\n");
        }
    }
    // Axes labels: time ticks each second, height at the panel's ends.
    for (int sec = 0; sec <= (int)time.h1; ++sec)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555\">%d s</text>\n", to_px(&time, sec), time.py + time.ph + 16, sec);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.2f m</text>\n", time.px - 4, time.py + 10, time.v1);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.2f m</text>\n</g>\n", time.px - 4, time.py + time.ph, time.v0);
    draw_legend(f, s, t, legend_y);
    fprintf(f, "</svg>\n");
    bool ok = fclose(f) == 0;
    if (!ok) snprintf(message, size, "writing %s failed", path);
    return ok;
}

bool write_trace_csv(const scene *s, const run_trace *t, const char *path, char *message, size_t size) {
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(message, size, "cannot write %s", path);
        return false;
    }
    fprintf(f, "frame,t,character,x,y,z,vx,vy,vz,ground,stepped,camera,penetration,crushed");
    // Moving bodies, by their index in the file: where each is at the end of the frame (the same on every row of it).
    for (int k = 0; k < t->body_count; ++k) {
        int b = t->body_index[k];
        fprintf(f, ",bodies[%d].x,bodies[%d].y,bodies[%d].z,bodies[%d].qx,bodies[%d].qy,bodies[%d].qz,bodies[%d].qw", b, b, b, b, b, b, b);
    }
    fprintf(f, "\n");
    for (int i = 0; i < t->frame_count; ++i)
        for (int c = 0; c < t->character_count; ++c) {
            const run_frame *fr = run_frame_at(t, c, i);
            fprintf(f, "%d,%.6f,%s,%.6f,%.6f,%.6f,%.5f,%.5f,%.5f,%s,%.6f,%.6f,%.6f,%d", i + 1, (double)((float)(i + 1) * t->dt), s->characters[c].name,
                    (double)fr->feet.x, (double)fr->feet.y, (double)fr->feet.z, (double)fr->velocity.x, (double)fr->velocity.y, (double)fr->velocity.z,
                    scene_ground_state_name(fr->ground), (double)fr->stepped, (double)fr->camera, (double)fr->penetration, fr->crushed ? 1 : 0);
            for (int k = 0; k < t->body_count; ++k) {
                tread_transform b = run_body_at(t, k, i);
                fprintf(f, ",%.6f,%.6f,%.6f,%.7f,%.7f,%.7f,%.7f", (double)b.p.x, (double)b.p.y, (double)b.p.z, (double)b.q.x, (double)b.q.y, (double)b.q.z,
                        (double)b.q.w);
            }
            fprintf(f, "\n");
        }
    bool ok = fclose(f) == 0;
    if (!ok) snprintf(message, size, "writing %s failed", path);
    return ok;
}
