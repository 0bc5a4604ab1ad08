// SPDX-License-Identifier: MIT
// Sliding along triangle-mesh walls (the real-levels issue): a character pressed into a mesh wall slides on
// wherever the wall lets it.
// - Convex corners: seeded convex prisms of 3 to 10 sides, each a closed mesh on a mesh floor as a level's brushes
//   are, walked around by a character pressed into them; its input turns with it around the prism, so it always
//   presses into the wall and always has a way on along it. The witness scene is
//   scenes/regressions/mesh-convex-corner-10.json.
// - Valleys: a walkable sloped floor meeting a steep face (a rock formation), walked along the valley up or down
//   while pressed into the face. The witness scene is scenes/regressions/mesh-valley-steep-face.json.
// A freeze is a frame that moved the character less than 0.5 mm while the input's part tangent to every wall it
// touched is at least 20 % of the input and a 3 cm cast that way (along the floor) is free: the check the level
// walker makes, here on geometry where every such stop is a freeze.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tread/tread.h"

// Seeded trials per shape and seed (a fifth under AddressSanitizer, whose Debug build runs the moves ~30 times slower).
#ifdef __SANITIZE_ADDRESS__
#define TRIALS 40
#else
#define TRIALS 200
#endif
#define FRAMES 240
#define DT (1.0f / 60.0f)
#define SPEED 5.0f
#define MAX_SIDES 10
#define PI 3.14159265358979323846
// The walkable limit of the tests' characters (max slope 45.57 degrees: Quake's), as a normal's up part.
#define WALKABLE_UP 0.7f

typedef struct rng {
    uint64_t state;
} rng;

// splitmix64, in [0, 1).
static double unit(rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct prism_mesh {
    tread_vec3 vertices[4 + 2 * MAX_SIDES];
    uint32_t indices[3 * (2 + 2 * MAX_SIDES + MAX_SIDES)];
    int vertex_count, triangle_count;
} prism_mesh;

static void triangle(prism_mesh *m, uint32_t a, uint32_t b, uint32_t c) {
    uint32_t *t = m->indices + 3 * m->triangle_count++;
    t[0] = a;
    t[1] = b;
    t[2] = c;
}

// A 60 m floor quad and a prism from y = -1 to 3 over a convex polygon of `sides` corners on a circle of `radius`
// (sorted random angles), faces wound outward, its top a fan.
static void make_prism(rng *r, int sides, double radius, prism_mesh *m) {
    double angle[MAX_SIDES];
    for (int i = 0; i < sides; ++i) angle[i] = unit(r) * 2.0 * PI;
    for (int i = 1; i < sides; ++i)
        for (int j = i; j > 0 && angle[j] < angle[j - 1]; --j) {
            double t = angle[j];
            angle[j] = angle[j - 1];
            angle[j - 1] = t;
        }
    m->vertex_count = m->triangle_count = 0;
    m->vertices[m->vertex_count++] = tread_v3(-30, 0, -30);
    m->vertices[m->vertex_count++] = tread_v3(30, 0, -30);
    m->vertices[m->vertex_count++] = tread_v3(30, 0, 30);
    m->vertices[m->vertex_count++] = tread_v3(-30, 0, 30);
    triangle(m, 0, 2, 1);
    triangle(m, 0, 3, 2);
    uint32_t base = (uint32_t)m->vertex_count;
    for (int i = 0; i < sides; ++i) {
        float x = (float)(radius * cos(angle[i])), z = (float)(radius * sin(angle[i]));
        m->vertices[m->vertex_count++] = tread_v3(x, -1, z);
        m->vertices[m->vertex_count++] = tread_v3(x, 3, z);
    }
    for (int i = 0; i < sides; ++i) {
        uint32_t a0 = base + 2u * (uint32_t)i, b0 = base + 2u * (uint32_t)((i + 1) % sides);
        triangle(m, a0, b0 + 1, b0);
        triangle(m, a0, a0 + 1, b0 + 1);
    }
    for (int i = 1; i + 1 < sides; ++i) triangle(m, base + 1, base + 2u * (uint32_t)(i + 1) + 1, base + 2u * (uint32_t)i + 1);
}

// A world of the one mesh.
static tread_world *mesh_world(const prism_mesh *m) {
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_mesh(m->vertices, m->vertex_count, m->indices, m->triangle_count);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return w;
}

// Quake's player (the real levels' character): radius 0.46875 m, height 1.75 m, max step 0.5625 m, max slope 45.57.
static tread_character_settings quake_player(tread_query_shape_type shape) {
    tread_character_settings s = tread_character_settings_default();
    s.shape = shape;
    s.radius = 0.46875f;
    s.height = 1.75f;
    s.max_step_height = 0.5625f;
    s.max_slope_degrees = 45.57f;
    return s;
}

// A move that lists the first TREAD_MAX_MOVE_CONTACTS surfaces it meets while moving into `contacts`.
static tread_result move_meeting(const tread_world *w, tread_character *ch, tread_vec3 velocity, tread_move_result *res, tread_contact *contacts) {
    tread_move_options o = tread_move_options_default();
    o.contacts = contacts;
    o.contact_capacity = TREAD_MAX_MOVE_CONTACTS;
    o.contacts_where_it_ends = false;
    return tread_character_move_with(w, ch, velocity, DT, &o, res);
}

// The input's part tangent to every wall met (each contact's normal made horizontal; floors are not walls).
static tread_vec3 tangent_part(tread_vec3 input, const tread_move_result *res, const tread_contact *contacts) {
    int met = res->moving_contact_count < TREAD_MAX_MOVE_CONTACTS ? res->moving_contact_count : TREAD_MAX_MOVE_CONTACTS;
    for (int pass = 0; pass < 4; ++pass)
        for (int c = 0; c < met; ++c) {
            tread_vec3 n = contacts[c].normal;
            if (n.y >= WALKABLE_UP) continue;
            n.y = 0.0f;
            if (tread_v3_length_sq(n) == 0.0f) continue;
            n = tread_v3_normalize(n);
            float into = tread_v3_dot(input, n);
            if (into < 0.0f) input = tread_v3_mad(input, -into, n);
        }
    return input;
}

// The frame from `before` froze: the character moved under 0.5 mm though the input keeps 20 % along the walls it
// touched and a 3 cm cast that way, along the ground it stands on, lifted 1 cm, is free.
static bool is_frozen(const tread_world *w, const tread_character *ch, tread_vec3 before, tread_vec3 input, const tread_move_result *res,
                      const tread_contact *contacts) {
    if (tread_v3_length(tread_v3_sub(ch->position, before)) >= 5e-4f) return false;
    tread_vec3 way = tangent_part(input, res, contacts);
    if (ch->ground.state == TREAD_GROUND_ON_GROUND) way = tread_v3_mad(way, -tread_v3_dot(way, ch->ground.normal), ch->ground.normal);
    float length = tread_v3_length(way);
    if (length < 0.2f * SPEED) return false;
    tread_query_shape q = tread_character_shape(ch);
    tread_query_filter filter = tread_query_filter_default();
    tread_shape_hit hit;
    tread_vec3 centre = tread_v3_add(tread_character_center(ch), tread_v3(0, 0.01f, 0));
    assert_int_equal(tread_world_cast_shape(w, &q, centre, tread_v3_scale(way, 0.03f / length), &filter, &hit), TREAD_OK);
    return !hit.hit;
}

// Frames frozen by the check above, over every trial of one shape.
static int frozen_frames(tread_query_shape_type shape, uint64_t seed, char *first, size_t size) {
    rng r = {seed};
    int frozen = 0;
    first[0] = '\0';
    for (int trial = 0; trial < TRIALS; ++trial) {
        prism_mesh m;
        int sides = 3 + (int)(unit(&r) * (MAX_SIDES - 2));
        double radius = 1.0 + unit(&r) * 4.0;
        make_prism(&r, sides, radius, &m);
        tread_world *w = mesh_world(&m);
        tread_character_settings s = quake_player(shape);
        double start = unit(&r) * 2.0 * PI, press = 0.05 + unit(&r) * 1.2, around = unit(&r) < 0.5 ? 1.0 : -1.0;
        tread_character ch;
        assert_int_equal(tread_character_init(&ch, &s, tread_v3((float)((radius + 1.5) * cos(start)), 0, (float)((radius + 1.5) * sin(start)))),
                         TREAD_OK);
        for (int f = 0; f < FRAMES; ++f) {
            double x = ch.position.x, z = ch.position.z, l = sqrt(x * x + z * z);
            double dx = -z / l * around - press * x / l, dz = x / l * around - press * z / l, dl = sqrt(dx * dx + dz * dz);
            tread_vec3 input = tread_v3((float)(SPEED * dx / dl), 0, (float)(SPEED * dz / dl));
            tread_vec3 before = ch.position;
            tread_move_result res;
            tread_contact contacts[TREAD_MAX_MOVE_CONTACTS];
            assert_int_equal(move_meeting(w, &ch, tread_v3(input.x, -1.0f, input.z), &res, contacts), TREAD_OK);
            if (f < 10 || !is_frozen(w, &ch, before, input, &res, contacts)) continue;
            if (frozen++ == 0)
                snprintf(first, size, "trial %d (%d sides, radius %.2f m, press %.2f) frame %d at (%.4f, %.4f, %.4f)", trial, sides, radius, press, f,
                         (double)ch.position.x, (double)ch.position.y, (double)ch.position.z);
        }
        tread_world_destroy(w);
    }
    return frozen;
}

// A square of half size `half` in the plane through `centre` with unit normal `n`, wound to face n (two triangles).
static void square(prism_mesh *m, tread_vec3 centre, tread_vec3 n, float half) {
    tread_vec3 a = tread_v3_normalize(tread_v3_cross(n, fabsf(n.y) < 0.9f ? tread_v3(0, 1, 0) : tread_v3(1, 0, 0)));
    tread_vec3 b = tread_v3_cross(n, a);
    uint32_t base = (uint32_t)m->vertex_count;
    m->vertices[m->vertex_count++] = tread_v3_add(centre, tread_v3_add(tread_v3_scale(a, -half), tread_v3_scale(b, -half)));
    m->vertices[m->vertex_count++] = tread_v3_add(centre, tread_v3_add(tread_v3_scale(a, half), tread_v3_scale(b, -half)));
    m->vertices[m->vertex_count++] = tread_v3_add(centre, tread_v3_add(tread_v3_scale(a, half), tread_v3_scale(b, half)));
    m->vertices[m->vertex_count++] = tread_v3_add(centre, tread_v3_add(tread_v3_scale(a, -half), tread_v3_scale(b, half)));
    triangle(m, base, base + 1, base + 2);
    triangle(m, base, base + 2, base + 3);
}

// A unit normal tilted `degrees` from up toward the heading `heading` (radians about up).
static tread_vec3 tilted(double degrees, double heading) {
    double t = degrees * PI / 180.0;
    return tread_v3((float)(sin(t) * cos(heading)), (float)cos(t), (float)(sin(t) * sin(heading)));
}

// Frames frozen walking along valleys: a floor sloped 0-40 degrees through the origin, a steep face (50-85 degrees)
// through the origin too, both 40 m squares; the character starts on the floor 1 m from the valley and walks along
// it, down or up, pressed into the face.
static int frozen_in_valleys(tread_query_shape_type shape, uint64_t seed, char *first, size_t size) {
    rng r = {seed};
    int frozen = 0;
    first[0] = '\0';
    for (int trial = 0; trial < TRIALS; ++trial) {
        tread_vec3 floor = tilted(unit(&r) * 40.0, unit(&r) * 2.0 * PI);
        tread_vec3 face = tilted(50.0 + unit(&r) * 35.0, unit(&r) * 2.0 * PI);
        prism_mesh m;
        m.vertex_count = m.triangle_count = 0;
        square(&m, tread_v3_zero(), floor, 20.0f);
        square(&m, tread_v3_zero(), face, 20.0f);
        tread_vec3 valley = tread_v3_cross(floor, face);
        if (tread_v3_length(valley) < 0.2f) continue; // nearly parallel: no valley to walk
        valley = tread_v3_normalize(valley);
        tread_vec3 away = tread_v3_normalize(tread_v3_mad(face, -tread_v3_dot(face, floor), floor)); // on the floor, off the face
        tread_world *w = mesh_world(&m);
        tread_character_settings s = quake_player(shape);
        tread_character ch;
        assert_int_equal(tread_character_init(&ch, &s, tread_v3_add(away, tread_v3(0, 0.05f, 0))), TREAD_OK);
        float along = unit(&r) < 0.5 ? 1.0f : -1.0f, press = (float)(0.1 + unit(&r) * 1.0);
        tread_vec3 wish = tread_v3_add(tread_v3_scale(valley, along), tread_v3_scale(away, -press));
        wish.y = 0.0f;
        if (tread_v3_length(wish) < 0.1f) {
            tread_world_destroy(w);
            continue;
        }
        tread_vec3 input = tread_v3_scale(tread_v3_normalize(wish), SPEED);
        for (int f = 0; f < FRAMES / 2; ++f) {
            tread_vec3 before = ch.position;
            tread_move_result res;
            tread_contact contacts[TREAD_MAX_MOVE_CONTACTS];
            assert_int_equal(move_meeting(w, &ch, tread_v3(input.x, -1.0f, input.z), &res, contacts), TREAD_OK);
            if (tread_v3_length(ch.position) > 15.0f) break; // off the squares
            if (f < 10 || !is_frozen(w, &ch, before, input, &res, contacts)) continue;
            if (frozen++ == 0)
                snprintf(first, size, "trial %d (floor (%.3f, %.3f, %.3f), face (%.3f, %.3f, %.3f)) frame %d at (%.4f, %.4f, %.4f)", trial,
                         (double)floor.x, (double)floor.y, (double)floor.z, (double)face.x, (double)face.y, (double)face.z, f,
                         (double)ch.position.x, (double)ch.position.y, (double)ch.position.z);
        }
        tread_world_destroy(w);
    }
    return frozen;
}

static void check_valleys(tread_query_shape_type shape, const char *name) {
    const uint64_t seeds[] = {3, 11};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; ++i) {
        char first[200];
        int frozen = frozen_in_valleys(shape, seeds[i], first, sizeof first);
        if (frozen) print_error("%s in valleys, seed %llu: %d frozen frames, the first in %s\n", name, (unsigned long long)seeds[i], frozen, first);
        assert_int_equal(frozen, 0);
    }
}

static void check_shape(tread_query_shape_type shape, const char *name) {
    const uint64_t seeds[] = {1, 7};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; ++i) {
        char first[160];
        int frozen = frozen_frames(shape, seeds[i], first, sizeof first);
        if (frozen) print_error("%s, seed %llu: %d frozen frames, the first in %s\n", name, (unsigned long long)seeds[i], frozen, first);
        assert_int_equal(frozen, 0);
    }
}

static void test_capsule_slides_past_convex_mesh_corners(void **state) {
    (void)state;
    check_shape(TREAD_QUERY_CAPSULE, "capsule");
}

static void test_sphere_slides_past_convex_mesh_corners(void **state) {
    (void)state;
    check_shape(TREAD_QUERY_SPHERE, "sphere");
}

static void test_capsule_walks_valleys_between_floor_and_steep_face(void **state) {
    (void)state;
    check_valleys(TREAD_QUERY_CAPSULE, "capsule");
}

static void test_box_walks_valleys_between_floor_and_steep_face(void **state) {
    (void)state;
    check_valleys(TREAD_QUERY_BOX, "box");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capsule_walks_valleys_between_floor_and_steep_face),
        cmocka_unit_test(test_box_walks_valleys_between_floor_and_steep_face),
        cmocka_unit_test(test_capsule_slides_past_convex_mesh_corners),
        cmocka_unit_test(test_sphere_slides_past_convex_mesh_corners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
