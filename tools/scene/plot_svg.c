// The plots people look at: an SVG with the side view of the feet's path over the geometry's silhouette,
// and height over time with the camera-smoothed height and grounded/air shading. Also the CSV trace.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tread_scene.h"

#define PLOT_W 960.0
#define SIDE_H 420.0
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

static void draw_body(FILE *f, const view *v, const scene_body *b) {
    const char *style = "fill=\"#b9b2a6\" stroke=\"#6d665c\" stroke-width=\"0.6\"";
    const tread_shape_def *s = &b->def.shape;
    tread_transform t = b->def.transform;
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
    // Heightfields and very large meshes or grids: their world bounds.
    tread_aabb a = b->silhouette;
    double x0 = to_px(v, axis_of(a.min, v->h_axis)), x1 = to_px(v, axis_of(a.max, v->h_axis));
    double y0 = to_py(v, axis_of(a.max, v->v_axis)), y1 = to_py(v, axis_of(a.min, v->v_axis));
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" %s/>\n", x0, y0, x1 - x0, y1 - y0, style);
}

static int up_axis_of(tread_vec3 up) {
    tread_vec3 a = tread_v3_abs(up);
    return a.x >= a.y && a.x >= a.z ? 0 : (a.y >= a.z ? 1 : 2);
}

bool plot_svg(const scene *s, const run_trace *t, const char *path, char *message, size_t size) {
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(message, size, "cannot write %s", path);
        return false;
    }
    view side;
    side.v_axis = up_axis_of(s->up);
    // Horizontal: the other world axis along which the paths travel farthest.
    double best = -1.0;
    side.h_axis = 0;
    for (int ax = 0; ax < 3; ++ax) {
        if (ax == side.v_axis) continue;
        double lo = INFINITY, hi = -INFINITY;
        for (int c = 0; c < t->character_count; ++c)
            for (int i = 0; i < t->frame_count; ++i) {
                double p = axis_of(run_frame_at(t, c, i)->feet, ax);
                lo = fmin(lo, p), hi = fmax(hi, p);
            }
        if (hi - lo > best) best = hi - lo, side.h_axis = ax;
    }
    side.h0 = side.v0 = INFINITY, side.h1 = side.v1 = -INFINITY;
    for (int c = 0; c < t->character_count; ++c) {
        double heights[2] = {axis_of(s->characters[c].start, side.v_axis), 0};
        side.h0 = fmin(side.h0, axis_of(s->characters[c].start, side.h_axis));
        side.h1 = fmax(side.h1, axis_of(s->characters[c].start, side.h_axis));
        side.v0 = fmin(side.v0, heights[0]);
        side.v1 = fmax(side.v1, heights[0]);
        for (int i = 0; i < t->frame_count; ++i) {
            tread_vec3 p = run_frame_at(t, c, i)->feet;
            side.h0 = fmin(side.h0, axis_of(p, side.h_axis)), side.h1 = fmax(side.h1, axis_of(p, side.h_axis));
            side.v0 = fmin(side.v0, axis_of(p, side.v_axis)), side.v1 = fmax(side.v1, axis_of(p, side.v_axis));
        }
    }
    // Room for the character's body above its feet and some ground below; equal scale on both axes.
    side.h0 -= 1.5, side.h1 += 1.5, side.v0 -= 1.0, side.v1 += 2.5;
    side.px = MARGIN, side.py = 40, side.pw = PLOT_W - 2 * MARGIN, side.ph = SIDE_H;
    double sx = side.pw / (side.h1 - side.h0), sy = side.ph / (side.v1 - side.v0);
    if (sx < sy) {
        double extra = (side.ph / sx - (side.v1 - side.v0)) / 2;
        side.v0 -= extra, side.v1 += extra;
    } else {
        double extra = (side.pw / sy - (side.h1 - side.h0)) / 2;
        side.h0 -= extra, side.h1 += extra;
    }

    double height = 40 + SIDE_H + 60 + TIME_H + 50;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n", PLOT_W, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s</text>\n", MARGIN, s->name);
    fprintf(f, "<text x=\"%.0f\" y=\"24\" text-anchor=\"end\" fill=\"#555\">side view (%s horizontal, %s up), feet path</text>\n",
            PLOT_W - MARGIN, side.h_axis == 0 ? "x" : (side.h_axis == 1 ? "y" : "z"), side.v_axis == 0 ? "x" : (side.v_axis == 1 ? "y" : "z"));
    fprintf(f, "<clipPath id=\"side\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/></clipPath>\n", side.px, side.py, side.pw, side.ph);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f4f8fc\" stroke=\"#999\"/>\n<g clip-path=\"url(#side)\">\n", side.px,
            side.py, side.pw, side.ph);
    for (int i = 0; i < s->body_count; ++i) draw_body(f, &side, &s->bodies[i]);
    for (int c = 0; c < t->character_count; ++c) {
        const char *color = palette[c % 5];
        const tread_character *ch = &t->final[c];
        float radius = ch->settings.radius, tall = ch->settings.shape == TREAD_QUERY_SPHERE ? 2 * radius : ch->settings.height;
        // The body outline at the start and at the end.
        for (int e = 0; e < 2; ++e) {
            tread_vec3 p = e == 0 ? s->characters[c].start : run_frame_at(t, c, t->frame_count - 1)->feet;
            double x = to_px(&side, axis_of(p, side.h_axis) - radius), y = to_py(&side, axis_of(p, side.v_axis) + tall);
            double w = radius * 2 * side.pw / (side.h1 - side.h0), hpx = tall * side.ph / (side.v1 - side.v0);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%.1f\" fill=\"none\" stroke=\"%s\" stroke-dasharray=\"%s\"/>\n", x, y, w,
                    hpx, ch->settings.shape == TREAD_QUERY_BOX ? 0.0 : w / 2, color, e == 0 ? "3,3" : "none");
        }
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" points=\"", color);
        for (int i = 0; i < t->frame_count; ++i) {
            tread_vec3 p = run_frame_at(t, c, i)->feet;
            fprintf(f, "%.1f,%.1f ", to_px(&side, axis_of(p, side.h_axis)), to_py(&side, axis_of(p, side.v_axis)));
        }
        fprintf(f, "\"/>\n");
    }
    fprintf(f, "</g>\n");

    // Height over time: feet (solid), camera with step smoothing (dashed), shading where not on ground.
    view time;
    time.px = MARGIN, time.py = 40 + SIDE_H + 60, time.pw = PLOT_W - 2 * MARGIN, time.ph = TIME_H;
    time.h0 = 0, time.h1 = (double)t->frame_count * t->dt;
    time.v0 = INFINITY, time.v1 = -INFINITY;
    for (int c = 0; c < t->character_count; ++c)
        for (int i = 0; i < t->frame_count; ++i) {
            const run_frame *fr = run_frame_at(t, c, i);
            double h = tread_v3_dot(fr->feet, t->final[c].settings.up);
            time.v0 = fmin(time.v0, fmin(h, fr->camera)), time.v1 = fmax(time.v1, fmax(h, fr->camera));
        }
    double pad = fmax(0.1, 0.08 * (time.v1 - time.v0));
    time.v0 -= pad, time.v1 += pad;
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">height over time: feet (solid), camera with step smoothing (dashed); shaded: in the air (red) or on steep ground (amber)</text>\n",
            MARGIN, time.py - 10);
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
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.2f m</text>\n", time.px - 4, time.py + time.ph, time.v0);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.1f</text>\n", side.px - 4, side.py + 10, side.v1);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.1f</text>\n", side.px - 4, side.py + side.ph, side.v0);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\">%.1f</text>\n", side.px, side.py + side.ph + 16, side.h0);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%.1f m</text>\n", side.px + side.pw, side.py + side.ph + 16, side.h1);
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
    fprintf(f, "frame,t,character,x,y,z,vx,vy,vz,ground,stepped,camera,penetration\n");
    for (int i = 0; i < t->frame_count; ++i)
        for (int c = 0; c < t->character_count; ++c) {
            const run_frame *fr = run_frame_at(t, c, i);
            fprintf(f, "%d,%.6f,%s,%.6f,%.6f,%.6f,%.5f,%.5f,%.5f,%s,%.6f,%.6f,%.6f\n", i + 1, (double)((float)(i + 1) * t->dt), s->characters[c].name,
                    (double)fr->feet.x, (double)fr->feet.y, (double)fr->feet.z, (double)fr->velocity.x, (double)fr->velocity.y, (double)fr->velocity.z,
                    scene_ground_state_name(fr->ground), (double)fr->stepped, (double)fr->camera, (double)fr->penetration);
        }
    bool ok = fclose(f) == 0;
    if (!ok) snprintf(message, size, "writing %s failed", path);
    return ok;
}
