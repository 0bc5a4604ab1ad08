// SPDX-License-Identifier: MIT
/* Debug drawing into a renderer: here, an SVG file.
 *
 * tread_move_options::debug_draw hands a move to the game's callbacks: every shape cast (with its hit),
 * every contact collected, every ground classification and every step attempt. A game draws them with its own
 * line renderer; this example collects them while a capsule walks up the course's stairs (S1: ten 0.2 m steps on
 * 0.3 m treads) and writes a side view (x across, y up) to an SVG file:
 *
 *   grey       the steps                  blue line   the feet, frame by frame
 *   thin lines shape casts (red: a hit)   dots        contacts (orange), ground points (blue)
 *   green      accepted step attempts     purple      rejected ones
 *
 *   tread_example_debug_svg [OUT.svg]     (default debug_draw.svg)
 *
 * Exits non-zero unless the file is written, the capsule climbed to the landing, and the callbacks saw casts,
 * ground checks and all ten steps. (Contacts are collected where a move starts touching or inside something: a
 * clean walk up stairs may show none.) */
#include <stdio.h>
#include <tread/tread.h>

#define DT (1.0f / 60.0f)
#define MAX_ITEMS 4096

typedef struct segment { tread_vec3 a, b; int kind; } segment; /* kind: 0 cast, 1 cast that hit, 2 step, 3 rejected */
typedef struct drawing {
    segment lines[MAX_ITEMS];
    int line_count;
    tread_vec3 dots[MAX_ITEMS];
    int dot_kind[MAX_ITEMS]; /* 0 contact, 1 ground */
    int dot_count;
    int casts, contacts, grounds, steps_accepted, steps_rejected;
} drawing;

static void add_line(drawing *d, tread_vec3 a, tread_vec3 b, int kind) {
    if (d->line_count < MAX_ITEMS) d->lines[d->line_count++] = (segment){a, b, kind};
}
static void add_dot(drawing *d, tread_vec3 p, int kind) {
    if (d->dot_count < MAX_ITEMS) d->dots[d->dot_count] = p, d->dot_kind[d->dot_count++] = kind;
}

/* The callbacks: called during tread_character_move, on the thread that set them. */
static void on_cast(const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation, const tread_shape_hit *hit,
                    void *context) {
    (void)shape;
    drawing *d = context;
    d->casts++;
    float travelled = hit->hit ? hit->fraction : 1.0f;
    add_line(d, position, tread_v3_add(position, tread_v3_scale(translation, travelled)), hit->hit);
}
static void on_contact(const tread_contact *contact, void *context) {
    drawing *d = context;
    d->contacts++;
    add_dot(d, contact->point, 0);
}
static void on_ground(const tread_ground *ground, tread_vec3 feet, void *context) {
    (void)feet;
    drawing *d = context;
    d->grounds++;
    if (ground->state != TREAD_GROUND_IN_AIR) add_dot(d, ground->point, 1);
}
static void on_step(tread_vec3 from, tread_vec3 to, bool accepted, void *context) {
    drawing *d = context;
    if (accepted) d->steps_accepted++;
    else d->steps_rejected++;
    add_line(d, from, to, accepted ? 2 : 3);
}

/* Metres to SVG pixels: 150 px a metre, x from -0.5 m, y up from -0.3 m. */
static double px(float x) { return 150.0 * ((double)x + 0.5); }
static double py(float y) { return 150.0 * (3.0 - (double)y); }

static int write_svg(const char *path, const drawing *d, const tread_vec3 *feet, int frames) {
    FILE *f = fopen(path, "w");
    if (!f) return 1;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n", px(5.5f), py(-0.3f));
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    for (int i = 0; i < 10; ++i) /* the steps, as the world has them */
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#ccc\"/>\n", px(1.0f + 0.3f * (float)i),
                py(0.2f * (float)(i + 1)), px(5.5f) - px(1.0f + 0.3f * (float)i), py(0.0f) - py(0.2f * (float)(i + 1)));
    static const char *const colour[] = {"#bbb", "#d33", "#2a2", "#a3c"};
    for (int i = 0; i < d->line_count; ++i)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%s\"/>\n",
                px(d->lines[i].a.x), py(d->lines[i].a.y), px(d->lines[i].b.x), py(d->lines[i].b.y), colour[d->lines[i].kind],
                d->lines[i].kind >= 2 ? "2" : "0.5");
    for (int i = 0; i < d->dot_count; ++i)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"/>\n", px(d->dots[i].x), py(d->dots[i].y),
                d->dot_kind[i] ? "#36c" : "#e80");
    fprintf(f, "<polyline fill=\"none\" stroke=\"#03c\" stroke-width=\"1.5\" points=\"");
    for (int i = 0; i < frames; ++i) fprintf(f, "%.1f,%.1f ", px(feet[i].x), py(feet[i].y));
    fprintf(f, "\"/>\n</svg>\n");
    return fclose(f) != 0;
}

int main(int argc, char **argv) {
    const char *out = argc > 1 ? argv[1] : "debug_draw.svg";
    tread_world *world = NULL;
    if (tread_world_create(NULL, &world) != TREAD_OK) return 1;
    tread_body_def def = tread_body_def_default();
    tread_body_id id;
    def.shape = tread_shape_box(tread_v3(50.0f, 0.5f, 50.0f));
    def.transform.p = tread_v3(0.0f, -0.5f, 0.0f);
    if (tread_world_add_body(world, &def, &id) != TREAD_OK) return 1;
    for (int i = 0; i < 10; ++i) { /* S1: step i spans x from 1 + 0.3 i to 20, top at 0.2 (i + 1) */
        float x0 = 1.0f + 0.3f * (float)i, top = 0.2f * (float)(i + 1);
        def.shape = tread_shape_box(tread_v3(0.5f * (20.0f - x0), 0.5f * top, 1.0f));
        def.transform.p = tread_v3(0.5f * (20.0f + x0), 0.5f * top, 0.0f);
        if (tread_world_add_body(world, &def, &id) != TREAD_OK) return 1;
    }

    static drawing d;
    tread_debug_draw draw = {on_cast, on_contact, on_ground, on_step, &d};
    tread_move_options options = tread_move_options_default();
    options.debug_draw = &draw; /* the moves given these options show themselves */

    tread_character_settings settings = tread_character_settings_default();
    tread_character walker;
    if (tread_character_init(&walker, &settings, tread_v3_zero()) != TREAD_OK) return 1;
    static tread_vec3 feet[90];
    for (int frame = 0; frame < 90; ++frame) { /* 1.5 s at 3 m/s */
        float vy = walker.ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : walker.velocity.y - 9.81f * DT;
        tread_move_result result;
        if (tread_character_move_with(world, &walker, tread_v3(3.0f, vy, 0.0f), DT, &options, &result) != TREAD_OK) return 1;
        feet[frame] = walker.position;
    }

    int failed = write_svg(out, &d, feet, 90);
    printf("%s: %d casts, %d contacts, %d ground checks, %d steps taken, %d step attempts refused; feet at y %.3f\n", out,
           d.casts, d.contacts, d.grounds, d.steps_accepted, d.steps_rejected, (double)walker.position.y);
    tread_world_destroy(world);
    return !failed && walker.position.y > 1.99f && d.casts > 0 && d.grounds > 0 && d.steps_accepted >= 10 ? 0 : 1;
}
