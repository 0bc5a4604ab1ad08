// SPDX-License-Identifier: MIT
// The scene loader (tools/scene/): a complete scene loads with every value where it belongs, and each
// kind of bad input fails with a message that names the file and the JSON path of the mistake.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scene_test_support.h"
#include "scene_internal.h" // (scene_nearest_name)

#define DATA TREAD_TEST_DATA
#define NEAR 1.0e-5f

static bool near(float a, float b) { return fabsf(a - b) <= NEAR * (1.0f + fabsf(b)); }
static bool near_v3(tread_vec3 a, tread_vec3 b) { return near(a.x, b.x) && near(a.y, b.y) && near(a.z, b.z); }

#define assert_near(a, b) \
    do { \
        float a_ = (a), b_ = (b); \
        if (!near(a_, b_)) fail_msg("%s = %.7g, expected %.7g", #a, (double)a_, (double)b_); \
    } while (0)
#define assert_v3(a, ex, ey, ez) \
    do { \
        tread_vec3 a_ = (a); \
        if (!near_v3(a_, tread_v3(ex, ey, ez))) \
            fail_msg("%s = (%.7g, %.7g, %.7g), expected (%.7g, %.7g, %.7g)", #a, (double)a_.x, (double)a_.y, (double)a_.z, (double)(ex), \
                     (double)(ey), (double)(ez)); \
    } while (0)


// ---- valid scenes ----------------------------------------------------------------------------------------

static void test_complete_scene_loads_every_value(void **state) {
    (void)state;
    scene s;
    scene_error err;
    if (!scene_load(DATA "/complete.json", &s, &err)) fail_msg("%s", err.message);

    assert_string_equal(s.name, "complete");
    assert_non_null(strstr(s.description, "Every body type"));
    assert_near(s.dt, 0.02f);
    assert_near(s.duration, 4.0f);
    assert_v3(s.gravity, 0.0f, -20.0f, 0.0f);
    assert_v3(s.up, 0.0f, 1.0f, 0.0f); // normalized

    assert_int_equal(s.layer_count, 3);
    assert_string_equal(s.layers[1].name, "stairs");
    assert_near(s.layers[1].walkable_degrees, 50.0f);
    assert_true(s.layers[0].walkable_degrees < 0.0f);

    assert_int_equal(s.body_count, 11);
    // Box by corners.
    const scene_body *b = &s.bodies[0];
    assert_string_equal(b->name, "floor");
    assert_int_equal(b->def.shape.type, TREAD_SHAPE_BOX);
    assert_v3(b->def.transform.p, 0.0f, -0.5f, 0.0f);
    assert_v3(b->def.shape.half_extents, 10.0f, 0.5f, 10.0f);
    assert_v3(b->silhouette.min, -10.0f, -1.0f, -10.0f);
    assert_int_equal(b->def.layer, 0);
    assert_int_equal(b->def.type, TREAD_BODY_STATIC);
    // Rotated box on a layer: 30 degrees about z.
    b = &s.bodies[1];
    assert_int_equal(b->def.layer, 2);
    assert_near(b->def.transform.q.z, sinf(15.0f * 3.14159265f / 180.0f));
    assert_near(b->def.transform.q.w, cosf(15.0f * 3.14159265f / 180.0f));
    assert_near(b->silhouette.max.x, 3.0f + 0.5f * cosf(0.5235988f) + 0.5f * sinf(0.5235988f));
    // Kinematic box with a quaternion that gets normalized.
    b = &s.bodies[2];
    assert_int_equal(b->def.type, TREAD_BODY_KINEMATIC);
    assert_v3(b->def.linear_velocity, 1.0f, 0.0f, 0.0f);
    assert_v3(b->def.angular_velocity, 0.0f, 0.5f, 0.0f);
    assert_near(b->def.transform.q.w, 1.0f);
    // Sphere and capsule.
    assert_int_equal(s.bodies[3].def.shape.type, TREAD_SHAPE_SPHERE);
    assert_near(s.bodies[3].def.shape.radius, 0.5f);
    b = &s.bodies[4];
    assert_int_equal(b->def.shape.type, TREAD_SHAPE_CAPSULE);
    assert_near(b->def.shape.half_height, 0.75f);
    assert_near(b->def.shape.radius, 0.25f);
    assert_near(b->silhouette.max.z, 1.0f); // axis turned onto z: 0.75 + 0.25
    assert_near(b->silhouette.max.y, 1.25f);

    // Ramp: the top face starts at the foot and ends rise above it, run = rise / tan(30 deg) further along x.
    b = &s.bodies[5];
    assert_int_equal(b->def.shape.type, TREAD_SHAPE_BOX);
    assert_int_equal(b->def.layer, 1);
    float length = 3.0f / 0.5f, run = 3.0f / tanf(0.5235988f);
    assert_v3(b->def.shape.half_extents, 0.5f * length, 0.5f, 2.0f);
    tread_vec3 top_start = tread_transform_point(b->def.transform, tread_v3(-0.5f * length, 0.5f, 0.0f));
    tread_vec3 top_end = tread_transform_point(b->def.transform, tread_v3(0.5f * length, 0.5f, 0.0f));
    tread_vec3 side = tread_transform_vector(b->def.transform, tread_v3(0.0f, 0.0f, 1.0f));
    assert_v3(top_start, 1.0f, 0.0f, 0.0f);
    assert_v3(top_end, 1.0f + run, 3.0f, 0.0f);
    assert_near(fabsf(side.z), 1.0f);

    // Inline mesh, scaled by 2 and moved.
    b = &s.bodies[6];
    assert_int_equal(b->def.shape.type, TREAD_SHAPE_MESH);
    assert_int_equal(b->def.shape.mesh.vertex_count, 4);
    assert_int_equal(b->def.shape.mesh.triangle_count, 2);
    assert_ptr_equal(b->def.shape.mesh.vertices, b->vertices);
    assert_v3(b->vertices[2], 2.0f, 0.0f, 2.0f);
    assert_int_equal(b->indices[1], 2);
    assert_v3(b->silhouette.max, 2.0f, 0.5f, -3.0f);

    // OBJ through assimp: the quads become 12 triangles over 8 shared vertices; turned 90 degrees about y.
    b = &s.bodies[7];
    assert_int_equal(b->def.shape.type, TREAD_SHAPE_MESH);
    assert_int_equal(b->def.shape.mesh.triangle_count, 12);
    assert_int_equal(b->def.shape.mesh.vertex_count, 8);
    for (int i = 0; i < 36; ++i) assert_true(b->indices[i] < 8u);
    assert_v3(b->silhouette.min, 4.0f, 0.0f, 2.0f);
    assert_v3(b->silhouette.max, 5.0f, 0.25f, 4.0f);

    // Heightfield: rows along z, holes per cell.
    b = &s.bodies[8];
    const tread_heightfield_def *hf = &b->def.shape.heightfield;
    assert_int_equal(b->def.shape.type, TREAD_SHAPE_HEIGHTFIELD);
    assert_int_equal(hf->count_x, 3);
    assert_int_equal(hf->count_z, 3);
    assert_near(hf->spacing_x, 1.0f);
    assert_near(hf->spacing_z, 2.0f);
    assert_near(hf->heights[1 * 3 + 2], 0.5f);
    assert_int_equal(hf->holes[1], 1);
    assert_int_equal(hf->holes[0] + hf->holes[2] + hf->holes[3], 0);
    assert_v3(b->silhouette.min, -10.0f, -0.8f, -10.0f);
    assert_v3(b->silhouette.max, -8.0f, 0.7f, -6.0f);

    // Voxels from rows: rows[j][k][i] is cell (i, j, k).
    b = &s.bodies[9];
    const tread_voxels_def *vx = &b->def.shape.voxels;
    assert_int_equal(vx->count_x, 3);
    assert_int_equal(vx->count_y, 2);
    assert_int_equal(vx->count_z, 2);
    int solid = 0;
    for (int i = 0; i < 12; ++i) solid += vx->solid[i];
    assert_int_equal(solid, 4);
#define CELL(i, j, k) vx->solid[((k) * vx->count_y + (j)) * vx->count_x + (i)]
    assert_int_equal(CELL(0, 0, 0), 1);
    assert_int_equal(CELL(1, 0, 0), 1);
    assert_int_equal(CELL(0, 1, 0), 1);
    assert_int_equal(CELL(1, 1, 1), 1);
    assert_v3(b->silhouette.max, 7.5f, 1.0f, 7.0f);
    // Voxels from cells and size.
    b = &s.bodies[10];
    vx = &b->def.shape.voxels;
    assert_int_equal(vx->count_x * vx->count_y * vx->count_z, 24);
    assert_int_equal(CELL(1, 2, 3), 1);
    assert_int_equal(CELL(0, 0, 0), 1);
    assert_int_equal(CELL(1, 0, 0), 0);
#undef CELL

    // Characters.
    assert_int_equal(s.character_count, 3);
    const scene_character *c = &s.characters[0];
    assert_string_equal(c->name, "player");
    assert_near(c->settings.radius, 0.25f);
    assert_near(c->settings.height, 1.6f);
    assert_near(c->settings.max_step_height, 0.3f);
    assert_near(c->settings.skin, 0.003f);
    assert_true(c->settings.keep_horizontal_speed);
    assert_int_equal(c->settings.max_slide_iterations, 8);
    assert_int_equal(c->settings.collide_mask, 0x3u);
    assert_int_equal(c->settings.ground_mask, 5u);
    assert_int_equal(c->settings.shape, TREAD_QUERY_CAPSULE);
    assert_int_equal(c->settings.step_strategy, TREAD_STEP_SWEEP);
    assert_near(c->settings.max_slope_degrees, tread_character_settings_default().max_slope_degrees);
    assert_int_equal(c->input_count, 6);
    assert_int_equal(c->inputs[0].kind, SCENE_INPUT_DIRECTION);
    assert_v3(c->inputs[0].direction, 1.0f, 0.0f, 0.0f);
    assert_near(c->inputs[0].speed, 4.0f);
    assert_int_equal(c->inputs[0].jump, -1);
    assert_int_equal(c->inputs[1].kind, SCENE_INPUT_TOWARD);
    assert_v3(c->inputs[1].target, 10.0f, 0.0f, 3.0f);
    assert_int_equal(c->inputs[2].kind, SCENE_INPUT_IDLE);
    // jump alone keeps the movement (idle); with a movement it carries its own.
    assert_int_equal(c->inputs[3].kind, SCENE_INPUT_IDLE);
    assert_int_equal(c->inputs[3].jump, 1);
    assert_int_equal(c->inputs[4].jump, 0);
    assert_int_equal(c->inputs[4].kind, SCENE_INPUT_DIRECTION);
    assert_int_equal(c->inputs[5].crouch, 1);
    assert_int_equal(c->inputs[5].jump, -1);
    assert_int_equal(c->inputs[5].kind, SCENE_INPUT_DIRECTION);
    assert_v3(c->inputs[5].direction, 0.0f, 0.0f, -1.0f);
    assert_near(c->inputs[5].speed, 1.0f);
    assert_near(c->inputs[5].t, 3.0f);
    // Default name, the scene's up, sphere shape; a lone first jump is idle.
    c = &s.characters[1];
    assert_string_equal(c->name, "character1");
    assert_int_equal(c->settings.shape, TREAD_QUERY_SPHERE);
    assert_v3(c->settings.up, 0.0f, 1.0f, 0.0f);
    assert_int_equal(c->inputs[0].kind, SCENE_INPUT_IDLE);
    assert_int_equal(c->inputs[0].jump, 1);
    assert_int_equal(s.characters[2].input_count, 0);

    // Expectations: every kind.
    assert_int_equal(s.check_count, 18);
    const scene_check *k = &s.checks[0];
    assert_string_equal(k->name, "ends on the ramp");
    assert_int_equal(k->kind, SCENE_CHECK_FINAL);
    assert_true(k->key);
    assert_true(k->axes[0].has_min && !k->axes[0].has_max);
    assert_near(k->axes[0].min, 3.0f);
    assert_true(k->axes[1].has_min && k->axes[1].has_max);
    assert_near(k->axes[1].max, 2.5f);
    assert_false(k->axes[2].has_min || k->axes[2].has_max);
    assert_int_equal(k->window.start.kind, SCENE_COND_NONE);
    k = &s.checks[1];
    assert_int_equal(k->kind, SCENE_CHECK_AT_TIME);
    assert_string_equal(k->name, "at_time");
    assert_near(k->time, 1.0f);
    assert_true(k->axes[2].has_max);
    assert_false(k->key);
    k = &s.checks[2];
    assert_int_equal(k->kind, SCENE_CHECK_REACHES);
    assert_int_equal(k->condition.kind, SCENE_COND_ABOVE);
    assert_int_equal(k->condition.axis, 0);
    assert_near(k->condition.value, 3.0f);
    assert_near(k->by, 2.5f);
    k = &s.checks[3];
    assert_int_equal(k->condition.kind, SCENE_COND_TIME);
    assert_near(k->by, 4.0f); // default: the whole run
    k = &s.checks[4];
    assert_int_equal(k->kind, SCENE_CHECK_MAX_RISE);
    assert_true(k->grounded_only);
    assert_true(k->range.has_max);
    assert_near(k->range.max, 0.45f);
    assert_int_equal(k->window.start.kind, SCENE_COND_TIME);
    assert_near(k->window.start.value, 0.5f);
    assert_int_equal(k->window.end.kind, SCENE_COND_BELOW);
    assert_int_equal(k->window.end.axis, 1);
    assert_near(k->window.end.value, -1.0f);
    assert_int_equal(s.checks[5].kind, SCENE_CHECK_MAX_DROP);
    assert_false(s.checks[5].grounded_only);
    k = &s.checks[6];
    assert_int_equal(k->kind, SCENE_CHECK_HEIGHT_RANGE);
    assert_int_equal(k->axis, 2);
    assert_true(k->range.has_min && !k->range.has_max);
    assert_true(k->window.has_where);
    assert_int_equal(k->window.where_axis, 0);
    assert_near(k->window.where_min, 1.0f);
    assert_near(k->window.where_max, 4.0f);
    assert_int_equal(s.checks[7].axis, 1); // default y
    k = &s.checks[8];
    assert_int_equal(k->kind, SCENE_CHECK_GROUNDED_FRACTION);
    assert_int_equal(k->character, 1);
    assert_near(k->range.min, 0.9f);
    k = &s.checks[9];
    assert_int_equal(k->kind, SCENE_CHECK_SPEED_RANGE);
    assert_int_equal(k->measure, SCENE_SPEED_HORIZONTAL);
    assert_true(k->range.has_min && k->range.has_max);
    assert_int_equal(k->window.end.kind, SCENE_COND_TIME);
    k = &s.checks[10];
    assert_int_equal(k->kind, SCENE_CHECK_MEAN_SPEED);
    assert_int_equal(k->measure, SCENE_SPEED_AXIS);
    assert_int_equal(k->axis, 1);
    k = &s.checks[11];
    assert_int_equal(k->kind, SCENE_CHECK_DRIFT);
    assert_int_equal(k->character, 2);
    assert_near(k->range.max, 0.01f);
    assert_int_equal(s.checks[12].kind, SCENE_CHECK_COMES_TO_REST);
    k = &s.checks[13];
    assert_int_equal(k->kind, SCENE_CHECK_GROUND_STATE);
    assert_int_equal(k->state, TREAD_GROUND_ON_STEEP);
    assert_near(k->time, 1.0f);
    assert_int_equal(s.checks[14].state, TREAD_GROUND_IN_AIR);
    assert_true(s.checks[14].time < 0.0f);
    k = &s.checks[15];
    assert_int_equal(k->kind, SCENE_CHECK_ADVANCE);
    assert_int_equal(k->axis, 0);
    assert_near(k->range.min, 2.0f);
    k = &s.checks[16];
    assert_int_equal(k->kind, SCENE_CHECK_NO_PENETRATION);
    assert_near(k->range.max, 0.001f);
    assert_near(k->within, 1.0f);
    assert_near(s.checks[17].range.max, 0.01f);
    assert_near(s.checks[17].within, 0.5f);

    scene_free(&s);
    assert_true(is_zero(&s, sizeof s));
    scene_free(&s); // twice is harmless
}

static void test_defaults_fill_a_minimal_scene(void **state) {
    (void)state;
    const char *json = SCENE_WITH("", "{\"start\": [0, 1, 0], \"input\": []}");
    scene s;
    scene_error err;
    if (!scene_load_buffer("some/dir/minimal.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    assert_string_equal(s.name, "minimal");
    assert_string_equal(s.path, "some/dir/minimal.json");
    assert_near(s.dt, 1.0f / 60.0f);
    assert_v3(s.gravity, 0.0f, -9.81f, 0.0f);
    assert_v3(s.up, 0.0f, 1.0f, 0.0f);
    assert_int_equal(s.layer_count, 1);
    assert_string_equal(s.layers[0].name, "default");
    assert_true(s.layers[0].walkable_degrees < 0.0f);
    assert_int_equal(s.body_count, 0);
    assert_int_equal(s.check_count, 0);
    assert_string_equal(s.characters[0].name, "character0");
    tread_character_settings d = tread_character_settings_default();
    assert_memory_equal(&s.characters[0].settings, &d, sizeof d);
    scene_free(&s);
}

static void test_scene_up_becomes_the_settings_default(void **state) {
    (void)state;
    const char *json = "{\"duration\": 1, \"up\": [0, 0, 3], \"bodies\": [], \"characters\": [{\"start\": [0, 0, 0], \"input\": []}]}";
    scene s;
    scene_error err;
    if (!scene_load_buffer("up.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    assert_v3(s.up, 0.0f, 0.0f, 1.0f);
    assert_v3(s.characters[0].settings.up, 0.0f, 0.0f, 1.0f);
    assert_string_equal(s.name, "up");
    scene_free(&s);
}

// ---- bad input: each names the file and the JSON path --------------------------------------------------

static void test_malformed_json_reports_line_and_column(void **state) {
    (void)state;
    scene s;
    scene_error err;
    assert_false(scene_load(DATA "/malformed.json", &s, &err));
    // The second comma of line 4 (column 57) is where the array element should have been.
    assert_non_null(strstr(err.message, "malformed.json:4:57: JSON syntax error near `,`"));
    assert_true(is_zero(&s, sizeof s));

    expect_error_at("x.json", "{\n  \"duration\": 1,\n  \"dt\": 0.01 0.02\n}", "x.json:3:14: JSON syntax error", (const char *)NULL);
    expect_error_at("x.json", "", "x.json:1:1: JSON syntax error", (const char *)NULL);
    expect_error_at("x.json", "{\"duration\": 1} trailing", "x.json:1:17: JSON syntax error near `trailing`", (const char *)NULL);
    expect_error_at("x.json", "{\"a\": NaN}", "x.json:1:7: JSON syntax error", (const char *)NULL);
    expect_error_at("x.json", "[1, 2]", "x.json: the top level must be an object, got an array", (const char *)NULL);
}

static void test_unknown_field_names_its_path(void **state) {
    (void)state;
    expect_error(SCENE_WITH(FLOOR ", {\"type\": \"sphere\", \"center\": [0, 1, 0], \"radius\": 1, \"hieght\": 2}", CHARACTER),
                 "bad.json: bodies[1]: unknown field \"hieght\"");
    expect_error("{\"duration\": 1, \"bodys\": [], \"characters\": [" CHARACTER "]}", "bad.json: unknown field \"bodys\"");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"input\": [{\"t\": 0, \"idle\": true, \"run\": true}]}"),
                 "characters[0].input[0]: unknown field \"run\"");
}

// A misspelt name gets the one it most likely meant (a third of its letters off at most, and no tie); a name far
// from every one gets the list alone.
static void test_misspelt_names_get_a_did_you_mean(void **state) {
    (void)state;
    expect_error(SCENE_WITH(FLOOR ", {\"type\": \"sphere\", \"center\": [0, 1, 0], \"radius\": 1, \"hieght\": 2}", CHARACTER),
                 "unknown field \"hieght\" (expected one of:"); // (a sphere has no height: nothing near enough)
    expect_error("{\"duration\": 1, \"bodys\": [], \"characters\": [" CHARACTER "]}", "unknown field \"bodys\" (did you mean \"bodies\"? expected");
    expect_error("{\"duration\": 1, \"expectatons\": [], \"characters\": [" CHARACTER "]}", "did you mean \"expectations\"?");
    expect_error(SCENE_WITH("{\"type\": \"box\", \"min\": [-5, -1, -5], \"max\": [5, 0, 5], \"layr\": 1}", CHARACTER), "did you mean \"layer\"?");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"shape\": \"capsul\"}}"), "unknown value \"capsul\": did you mean \"capsule\"?");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"shape\": \"cube\"}}"), "unknown value \"cube\": expected one of");
    tread_character_settings settings = tread_character_settings_default();
    char message[2048];
    assert_false(scene_set_setting(&settings, "max_step_hieght", "0.3", message, sizeof message));
    assert_non_null(strstr(message, "did you mean \"max_step_height\"?"));
    assert_false(scene_set_setting(&settings, "gravity", "0.3", message, sizeof message));
    assert_null(strstr(message, "did you mean"));
    assert_string_equal(scene_nearest_name("raduis", (const char *const[]){"radius", "height", NULL}), "radius");
    assert_null(scene_nearest_name("hight", (const char *const[]){"height", "right", NULL})); // (a tie: neither)
}

static void test_valid_base_scene_loads(void **state) {
    (void)state;
    const char *json = SCENE_WITH(FLOOR, CHARACTER);
    scene s;
    scene_error err;
    if (!scene_load_buffer("base.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    scene_free(&s);
}

static void test_wrong_type_names_path_and_expected_type(void **state) {
    (void)state;
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"radius\": \"0.3\"}, \"input\": []}"),
                 "bad.json: characters[0].settings.radius: expected a number, got a string");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0], \"input\": []}"), "characters[0].start: expected an array of 3 numbers, got 2 elements");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, true, 0], \"input\": []}"), "characters[0].start[1]: expected a number, got a boolean");
    expect_error("{\"duration\": 1, \"bodies\": {}, \"characters\": [" CHARACTER "]}", "bodies: expected an array, got an object");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"keep_horizontal_speed\": 1}, \"input\": []}"),
                 "characters[0].settings.keep_horizontal_speed: expected true or false, got a number");
    expect_error(SCENE_WITH("{\"type\": \"cone\"}", CHARACTER), "bodies[0].type: unknown value \"cone\"");
}

static void test_missing_required_field_is_named(void **state) {
    (void)state;
    expect_error("{\"bodies\": [], \"characters\": [" CHARACTER "]}", "bad.json: missing required field \"duration\"");
    expect_error("{\"duration\": 1, \"characters\": [" CHARACTER "]}", "missing required field \"bodies\"");
    expect_error(SCENE_WITH(FLOOR, "{\"input\": []}"), "characters[0]: missing required field \"start\"");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0]}"), "characters[0]: missing required field \"input\"");
    expect_error(SCENE_WITH("{\"type\": \"sphere\", \"center\": [0, 0, 0]}", CHARACTER), "bodies[0]: missing required field \"radius\"");
    expect_error(SCENE_WITH(FLOOR, ""), "characters: is empty");
    expect_error("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [{\"type\": \"reaches\"}]}",
                 "expectations[0]: missing required field \"condition\"");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"input\": [{\"t\": 0, \"direction\": [1, 0, 0]}]}"),
                 "characters[0].input[0]: missing required field \"speed\"");
}

static void test_out_of_range_numbers_are_rejected(void **state) {
    (void)state;
    expect_error("{\"duration\": 1, \"dt\": 2, \"bodies\": [], \"characters\": [" CHARACTER "]}", "bad.json: dt: 2 is out of range: expected > 0 and <= 1");
    expect_error("{\"duration\": 0, \"bodies\": [], \"characters\": [" CHARACTER "]}", "duration: 0 is out of range");
    expect_error("{\"duration\": 1, \"layers\": [{\"name\": \"a\", \"walkable_degrees\": 90}], \"bodies\": [], \"characters\": [" CHARACTER "]}",
                 "layers[0].walkable_degrees: 90 is out of range: expected >= 0 and < 90");
    expect_error("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [{\"type\": \"grounded_fraction\", \"min\": 1.5}]}",
                 "expectations[0].min: 1.5 is out of range");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"max_slide_iterations\": 2.5}, \"input\": []}"),
                 "characters[0].settings.max_slide_iterations: expected an integer, got 2.5");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [1e39, 0, 0], \"input\": []}"), "characters[0].start[0]: 1e+39 is out of range for a 32-bit float");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [2e6, 0, 0], \"input\": []}"), "characters[0].start: TREAD_ERR_INVALID_ARGUMENT: position = (2e+06, 0, 0)");
    expect_error("{\"duration\": 3600, \"dt\": 1e-5, \"bodies\": [], \"characters\": [" CHARACTER "]}", "dt: duration / dt = 36000", "frames; at most 10000000");
    expect_error("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [{\"type\": \"final\", \"character\": 3, \"x\": {\"min\": 0}}]}",
                 "expectations[0].character: 3 is out of range");
}

static void test_infinite_numbers_are_rejected(void **state) {
    (void)state;
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 1e999, 0], \"input\": []}"), "bad.json: characters[0].start[1]: expected a finite number, got inf");
    expect_error("{\"duration\": -1e999, \"bodies\": [], \"characters\": [" CHARACTER "]}", "duration: expected a finite number, got -inf");
}

static void test_missing_mesh_file_names_the_file(void **state) {
    (void)state;
    scene s;
    scene_error err;
    assert_false(scene_load(DATA "/missing_mesh.json", &s, &err));
    if (!strstr(err.message, "missing_mesh.json: bodies[1].file: cannot read \"missing.obj\": ")) fail_msg("%s", err.message);
    assert_true(is_zero(&s, sizeof s));
    // A directory is not a mesh file.
    expect_error_at(DATA "/dir.json", SCENE_WITH("{\"type\": \"mesh\", \"file\": \".\"}", CHARACTER), "bodies[0].file: cannot read \".\": not a regular file",
                    (const char *)NULL);
}

static void test_bad_settings_field_name(void **state) {
    (void)state;
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"radious\": 0.3}, \"input\": []}"),
                 "bad.json: characters[0].settings: unknown field \"radious\"", "max_step_height");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"shape\": \"cube\"}, \"input\": []}"),
                 "characters[0].settings.shape: unknown value \"cube\": expected one of \"capsule\", \"sphere\"");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"collide_mask\": [\"default\", \"water\"]}, \"input\": []}"),
                 "characters[0].settings.collide_mask[1]: unknown layer \"water\"");
    // Values the library refuses: its own message, under the settings' path.
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"radius\": 0.5, \"height\": 0.6}, \"input\": []}"),
                 "characters[0].settings: ", "height");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"settings\": {\"radius\": -0.5}, \"input\": []}"), "characters[0].settings: ", "radius");
}

static void test_set_setting_parses_command_line_text(void **state) {
    (void)state;
    tread_character_settings s = tread_character_settings_default();
    char msg[256];
    assert_true(scene_set_setting(&s, "radius", "0.35", msg, sizeof msg));
    assert_near(s.radius, 0.35f);
    assert_true(scene_set_setting(&s, "up", "0,0,1", msg, sizeof msg));
    assert_v3(s.up, 0.0f, 0.0f, 1.0f);
    assert_true(scene_set_setting(&s, "shape", "sphere", msg, sizeof msg));
    assert_int_equal(s.shape, TREAD_QUERY_SPHERE);
    assert_true(scene_set_setting(&s, "shape", "capsule", msg, sizeof msg));
    assert_int_equal(s.shape, TREAD_QUERY_CAPSULE);
    assert_true(scene_set_setting(&s, "step_strategy", "sweep", msg, sizeof msg));
    assert_true(scene_set_setting(&s, "keep_horizontal_speed", "true", msg, sizeof msg));
    assert_true(s.keep_horizontal_speed);
    assert_true(scene_set_setting(&s, "keep_horizontal_speed", "false", msg, sizeof msg));
    assert_false(s.keep_horizontal_speed);
    assert_true(scene_set_setting(&s, "max_slide_iterations", "7", msg, sizeof msg));
    assert_int_equal(s.max_slide_iterations, 7);
    assert_true(scene_set_setting(&s, "collide_mask", "0x5", msg, sizeof msg));
    assert_int_equal(s.collide_mask, 5u);
    assert_true(scene_set_setting(&s, "ground_mask", "4294967295", msg, sizeof msg));
    assert_int_equal(s.ground_mask, 0xFFFFFFFFu);
    assert_true(scene_set_setting(&s, "shape", "box", msg, sizeof msg));
    assert_int_equal(s.shape, TREAD_QUERY_BOX);
    assert_true(scene_set_setting(&s, "shape", "capsule", msg, sizeof msg));
    assert_int_equal(s.shape, TREAD_QUERY_CAPSULE);

    // Every name in the list is accepted by name.
    int n = 0;
    for (const char *const *name = scene_setting_names(); *name; ++name, ++n) {
        tread_character_settings t = tread_character_settings_default();
        assert_false(scene_set_setting(&t, *name, "???", msg, sizeof msg));
        assert_non_null(strstr(msg, *name));
        assert_null(strstr(msg, "unknown setting"));
    }
    assert_true(n > 0); // that the list covers every field: test_every_setting_is_settable_by_name

    tread_character_settings before = s;
    struct {
        const char *name, *value, *want;
    } bad[] = {
        {"radius", "abc", "radius: expected a number, got \"abc\""},
        {"radius", "inf", "radius: expected a number"},
        {"radius", "", "radius: expected a number"},
        {"radius", "0.3m", "radius: expected a number"},
        {"up", "1,2", "up: expected three comma-separated numbers"},
        {"up", "1,2,3,4", "up: expected three comma-separated numbers"},
        {"up", "1,,3", "up: expected three comma-separated numbers"},
        {"shape", "cube", "shape: expected one of capsule, sphere, box, got \"cube\""},
        {"step_strategy", "teleport", "step_strategy: expected one of sweep"},
        {"keep_horizontal_speed", "yes", "keep_horizontal_speed: expected true or false, got \"yes\""},
        {"max_slide_iterations", "2.5", "max_slide_iterations: expected an integer"},
        {"collide_mask", "-1", "collide_mask: expected a layer mask"},
        {"collide_mask", "4294967296", "collide_mask: expected a layer mask"},
        {"radiuss", "0.3", "unknown setting \"radiuss\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        msg[0] = '\0';
        if (scene_set_setting(&s, bad[i].name, bad[i].value, msg, sizeof msg)) fail_msg("%s=%s was accepted", bad[i].name, bad[i].value);
        if (!strstr(msg, bad[i].want)) fail_msg("%s=%s: message \"%s\" lacks \"%s\"", bad[i].name, bad[i].value, msg, bad[i].want);
    }
    assert_memory_equal(&s, &before, sizeof s); // failures change nothing
    assert_false(scene_set_setting(&s, "radius", "x", NULL, 0));
}

static void test_unsorted_input_is_rejected(void **state) {
    (void)state;
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"input\": [{\"t\": 1.5, \"idle\": true}, {\"t\": 1, \"jump\": true}]}"),
                 "bad.json: characters[0].input[1].t: 1 s comes before the previous entry's 1.5 s (entries must be sorted by t)");
}

static void test_structural_problems_are_caught_with_a_path(void **state) {
    (void)state;
    expect_error(SCENE_WITH("{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": -1}", CHARACTER), "bodies[0].radius: -1 is out of range: expected > 0");
    expect_error(SCENE_WITH("{\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [1, 0, 1]}", CHARACTER), "bodies[0]: min [0, 0, 0] must be below max [1, 0, 1]");
    expect_error(SCENE_WITH("{\"type\": \"box\", \"center\": [0, 0, 0], \"half_extents\": [1, 0, 1]}", CHARACTER),
                 "bodies[0].half_extents: every component must be > 0");
    expect_error(SCENE_WITH("{\"type\": \"box\", \"min\": [0, 0, 0], \"max\": [1, 1, 1], \"center\": [0, 0, 0]}", CHARACTER), "bodies[0]: give either");
    expect_error(SCENE_WITH("{\"type\": \"heightfield\", \"origin\": [0, 0, 0], \"spacing\": [1, 1], \"heights\": [[0, 0, 0], [0, 0]]}", CHARACTER),
                 "bodies[0].heights[1]: has 2 heights; row 0 has 3");
    expect_error(SCENE_WITH("{\"type\": \"heightfield\", \"origin\": [0, 0, 0], \"spacing\": [1, 1], \"heights\": [[0, 0], [0, 0]], \"holes\": [[2]]}", CHARACTER),
                 "bodies[0].holes[0][0]: 2 is out of range");
    expect_error(SCENE_WITH("{\"type\": \"heightfield\", \"origin\": [0, 0, 0], \"spacing\": [1, 0], \"heights\": [[0, 0], [0, 0]]}", CHARACTER),
                 "bodies[0].spacing[1]: 0 is out of range");
    expect_error(SCENE_WITH("{\"type\": \"voxels\", \"origin\": [0, 0, 0], \"cell_size\": 1, \"rows\": [[\"##\", \"#\"]]}", CHARACTER),
                 "bodies[0].rows[0][1]: has 1 cells; rows[0][0] has 2");
    expect_error(SCENE_WITH("{\"type\": \"voxels\", \"origin\": [0, 0, 0], \"cell_size\": 1, \"rows\": [[\"##\"], [\"##\", \"..\"]]}", CHARACTER),
                 "bodies[0].rows[1]: has 2 rows; layer 0 has 1");
    expect_error(SCENE_WITH("{\"type\": \"voxels\", \"origin\": [0, 0, 0], \"cell_size\": 1, \"rows\": [[\"#x\"]]}", CHARACTER),
                 "bodies[0].rows[0][0]: character 1 is 'x'");
    expect_error(SCENE_WITH("{\"type\": \"voxels\", \"origin\": [0, 0, 0], \"cell_size\": 1, \"size\": [2, 2, 2], \"cells\": [[0, 2, 0]]}", CHARACTER),
                 "bodies[0].cells[0][1]: 2 is out of range: expected >= 0 and <= 1");
    expect_error(SCENE_WITH("{\"type\": \"mesh\", \"vertices\": [[0, 0, 0], [1, 0, 0], [0, 0, 1]], \"triangles\": [[0, 1, 3]]}", CHARACTER),
                 "bodies[0].triangles[0][2]: vertex index 3 is out of range (the mesh has 3 vertices)");
    expect_error(SCENE_WITH("{\"type\": \"ramp\", \"foot\": [0, 0, 0], \"direction\": [0, 1, 0], \"degrees\": 30, \"rise\": 1, \"width\": 1, \"thickness\": 1}",
                            CHARACTER),
                 "bodies[0].direction: has no horizontal part");
    expect_error(SCENE_WITH("{\"type\": \"capsule\", \"center\": [0, 0, 0], \"radius\": 1, \"half_height\": 1, \"rotation\": {\"axis\": [0, 0, 0], \"degrees\": 3}}",
                            CHARACTER),
                 "bodies[0].rotation.axis: is the zero vector");
    expect_error(SCENE_WITH("{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1, \"layer\": \"water\"}", CHARACTER), "bodies[0].layer: unknown layer \"water\"");
    expect_error("{\"duration\": 1, \"layers\": [{\"name\": \"a\"}, {\"name\": \"a\"}], \"bodies\": [], \"characters\": [" CHARACTER "]}",
                 "layers[1]: layer \"a\" is named twice");
    expect_error("{\"duration\": 1, \"duration\": 2, \"bodies\": [], \"characters\": [" CHARACTER "]}", "bad.json: duplicate field \"duration\"");
    expect_error(SCENE_WITH(FLOOR, CHARACTER ", {\"name\": \"character0\", \"start\": [0, 0, 0], \"input\": []}"),
                 "characters[1].name: \"character0\" is already characters[0]'s name");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"input\": [{\"t\": 0}]}"), "characters[0].input[0]: needs \"direction\"");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"input\": [{\"t\": 0, \"idle\": true, \"direction\": [1, 0, 0], \"speed\": 1}]}"),
                 "characters[0].input[0]: give at most one of");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"input\": [{\"t\": 0, \"direction\": [0, 1, 0], \"speed\": 1}]}"),
                 "characters[0].input[0].direction: has no horizontal part");
    expect_error("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [{\"type\": \"final\"}]}",
                 "expectations[0]: needs at least one of \"x\", \"y\", \"z\"");
    expect_error("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [{\"type\": \"advance\", \"axis\": \"x\", \"min\": 2, \"max\": 1}]}",
                 "expectations[0]: min 2 is above max 1");
    expect_error("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [{\"type\": \"drift\", \"max\": 1, \"window\": {\"start\": {\"axis\": \"x\"}}}]}",
                 "expectations[0].window.start: needs \"time\", or \"axis\" with \"above\" or \"below\"");
    expect_error("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [{\"type\": \"drift\", \"max\": 1, \"character\": \"bob\"}]}",
                 "expectations[0].character: no character is named \"bob\"");
    expect_error("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [{\"type\": \"ground_state\", \"state\": \"flying\"}]}",
                 "expectations[0].state: unknown value \"flying\"");
    expect_error("{\"duration\": 1, \"bodies\": [], \"characters\": [" CHARACTER "], \"expectations\": [{\"type\": \"drift\", \"max\": 1, \"axis\": \"x\"}]}",
                 "expectations[0]: unknown field \"axis\"");
}

static void test_unreadable_scene_file(void **state) {
    (void)state;
    scene s;
    scene_error err;
    assert_false(scene_load(DATA "/no_such_scene.json", &s, &err));
    assert_non_null(strstr(err.message, "no_such_scene.json: cannot open"));
    assert_true(is_zero(&s, sizeof s));
}

// ---- the movement model ("motor") --------------------------------------------------------------------------

static void test_motor_field_loads_over_defaults(void **state) {
    (void)state;
    const char *json = "{\"duration\": 1, \"gravity\": [0, -20, 0], \"bodies\": [], \"characters\": ["
                       "{\"start\": [0, 0, 0], \"motor\": {\"jump_height\": 2, \"max_air_jumps\": 1, \"wall_jump\": false, "
                       "\"jump_mode\": \"strength_drag\"}, \"input\": []}, " CHARACTER "]}";
    scene s;
    scene_error err;
    if (!scene_load_buffer("motor.json", json, strlen(json), &s, &err)) fail_msg("%s", err.message);
    assert_true(s.characters[0].has_motor);
    assert_near(s.characters[0].motor.jump_height, 2.0f);
    assert_int_equal(s.characters[0].motor.max_air_jumps, 1);
    assert_false(s.characters[0].motor.wall_jump);
    assert_int_equal(s.characters[0].motor.jump_mode, TREAD_JUMP_STRENGTH_DRAG);
    assert_near(s.characters[0].motor.gravity, 20.0f); // the scene's gravity along -up
    assert_near(s.characters[0].motor.max_speed, tread_motor_settings_default().max_speed);
    assert_false(s.characters[1].has_motor);
    scene_free(&s);
}

static void test_bad_motor_values_are_rejected_with_a_path(void **state) {
    (void)state;
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"motor\": {\"jump_height\": -1}, \"input\": []}"),
                 "characters[0].motor", "jump_height");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"motor\": {\"friction\": -2}, \"input\": []}"),
                 "characters[0].motor", "friction");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"motor\": {\"jump_hieght\": 1}, \"input\": []}"),
                 "characters[0].motor", "jump_hieght");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"motor\": {\"jump_mode\": \"rocket\"}, \"input\": []}"),
                 "characters[0].motor.jump_mode");
    expect_error(SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"motor\": {\"max_air_jumps\": 1.5}, \"input\": []}"),
                 "characters[0].motor.max_air_jumps");
}


// ---- every setting by name ---------------------------------------------------------------------------------

// A non-default value for every field, as `--set field=value` text (strategy settings by their dotted path).
static const struct {
    const char *name, *value;
} setting_values[] = {
    {"shape", "box"}, {"radius", "0.25"}, {"height", "1.5"}, {"up", "0,0,1"}, {"max_slope_degrees", "50"},
    {"max_step_height", "0.3"}, {"min_step_depth", "0.05"}, {"step_down_distance", "0.4"}, {"max_snap_speed", "10"},
    {"ground_probe_distance", "0.03"}, {"skin", "0.003"}, {"max_slide_iterations", "6"}, {"collide_mask", "3"},
    {"ground_mask", "1"}, {"mass", "80"}, {"max_strength", "250"}, {"recovery_speed", "3"}, {"keep_horizontal_speed", "true"}, {"step_strategy", "riser"},
    {"stairs_layer_mask", "6"}, {"stairs_max_slope_degrees", "50"}, {"contact_step.search_overshoot", "0.02"},
    {"riser.depth", "0.2"}, {"riser.radius_scale", "0.8"}, {"riser.speed_scale", "1.25"}, {"riser.fall_scale", "0.5"},
};
static const struct {
    const char *name, *value;
} motor_values[] = {
    {"max_speed", "5"}, {"ground_acceleration", "50"}, {"air_acceleration", "10"}, {"friction", "8"}, {"gravity", "12"},
    {"terminal_speed", "40"}, {"jump_mode", "strength_drag"}, {"jump_height", "1.5"}, {"jump_strength", "8"},
    {"jump_drag", "10"}, {"jump_cut", "0.25"}, {"coyote_time", "0.2"}, {"jump_buffer_time", "0.15"},
    {"max_air_jumps", "2"}, {"wall_jump", "false"}, {"jump_up_bias", "0.5"}, {"jump_snap_suppress_time", "0.2"},
    {"crouch_height", "0.9"}, {"crouch_speed_scale", "0.4"}, {"leave_ground", "do_nothing"},
};
#define COUNT(a) (sizeof(a) / sizeof(a)[0])

// Padding of the settings structs: the bytes that still differ between a struct filled with 0x00 and one filled
// with 0xFF after every named field is set in both. With a complete table those are exactly the padding bytes
// (test_the_settings_tables_cover_every_field checks that they are few and short).
static unsigned char setting_padding[sizeof(tread_character_settings)], motor_padding[sizeof(tread_motor_settings)];

static void find_padding(void) {
    char msg[1024];
    tread_character_settings zeros, ones;
    memset(&zeros, 0x00, sizeof zeros);
    memset(&ones, 0xFF, sizeof ones);
    // The cookie is no setting: the loader starts from tread_character_settings_default(), which sets it.
    zeros.internal_cookie = ones.internal_cookie = tread_character_settings_default().internal_cookie;
    for (size_t i = 0; i < COUNT(setting_values); ++i) {
        if (!scene_set_setting(&zeros, setting_values[i].name, setting_values[i].value, msg, sizeof msg)) fail_msg("%s", msg);
        if (!scene_set_setting(&ones, setting_values[i].name, setting_values[i].value, msg, sizeof msg)) fail_msg("%s", msg);
    }
    for (size_t i = 0; i < sizeof zeros; ++i) setting_padding[i] = ((unsigned char *)&zeros)[i] != ((unsigned char *)&ones)[i];
    tread_motor_settings mz, mo;
    memset(&mz, 0x00, sizeof mz);
    memset(&mo, 0xFF, sizeof mo);
    mz.internal_cookie = mo.internal_cookie = tread_motor_settings_default().internal_cookie; // (likewise)
    for (size_t i = 0; i < COUNT(motor_values); ++i) {
        if (!scene_set_motor_setting(&mz, motor_values[i].name, motor_values[i].value, msg, sizeof msg)) fail_msg("%s", msg);
        if (!scene_set_motor_setting(&mo, motor_values[i].name, motor_values[i].value, msg, sizeof msg)) fail_msg("%s", msg);
    }
    for (size_t i = 0; i < sizeof mz; ++i) motor_padding[i] = ((unsigned char *)&mz)[i] != ((unsigned char *)&mo)[i];
}

// Bytes that differ between two structs outside `padding`.
static int differing_bytes(const void *a, const void *b, size_t size, const unsigned char *padding) {
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    int total = 0;
    for (size_t i = 0; i < size; ++i) total += !padding[i] && x[i] != y[i];
    return total;
}
#define SETTINGS_DIFFER(a, b) differing_bytes(a, b, sizeof(tread_character_settings), setting_padding)
#define MOTORS_DIFFER(a, b) differing_bytes(a, b, sizeof(tread_motor_settings), motor_padding)

// The value as JSON: lists become arrays, names strings.
static void json_value(char *out, size_t size, const char *value) {
    if (strchr(value, ',')) snprintf(out, size, "[%s]", value);
    else if (((value[0] >= 'a' && value[0] <= 'z') || value[0] == '_') && strcmp(value, "true") && strcmp(value, "false")) snprintf(out, size, "\"%s\"", value);
    else snprintf(out, size, "%s", value);
}

// The names lists and the value tables above list the same fields; each value differs from the default.
static void test_every_setting_name_has_a_non_default_value(void **state) {
    (void)state;
    char msg[1024];
    int n = 0;
    for (const char *const *name = scene_setting_names(); *name; ++name, ++n) {
        size_t i = 0;
        while (i < COUNT(setting_values) && strcmp(setting_values[i].name, *name)) ++i;
        if (i == COUNT(setting_values)) fail_msg("setting \"%s\" has no test value", *name);
        tread_character_settings d = tread_character_settings_default(), s = d;
        if (!scene_set_setting(&s, *name, setting_values[i].value, msg, sizeof msg)) fail_msg("%s", msg);
        if (memcmp(&s, &d, sizeof s) == 0) // s is a byte copy of d but the field
            fail_msg("%s=%s left the settings at their defaults", *name, setting_values[i].value);
    }
    assert_int_equal(n, COUNT(setting_values));
    n = 0;
    for (const char *const *name = scene_motor_setting_names(); *name; ++name, ++n) {
        size_t i = 0;
        while (i < COUNT(motor_values) && strcmp(motor_values[i].name, *name)) ++i;
        if (i == COUNT(motor_values)) fail_msg("motor setting \"%s\" has no test value", *name);
        tread_motor_settings d = tread_motor_settings_default(), m = d;
        if (!scene_set_motor_setting(&m, *name, motor_values[i].value, msg, sizeof msg)) fail_msg("%s", msg);
        if (memcmp(&m, &d, sizeof m) == 0)
            fail_msg("motor %s=%s left the settings at their defaults", *name, motor_values[i].value);
    }
    assert_int_equal(n, COUNT(motor_values));
}

// Setting every named field reaches every byte of the structs but padding: a field missing from the table
// (a new field of tread_character_settings or tread_motor_settings) fails here.
static void test_the_settings_tables_cover_every_field(void **state) {
    (void)state;
    find_padding();
    // Padding is at most 3 bytes in a row (after a bool before a 4-byte field); a field left out would be a run
    // of its whole size (4 bytes or more).
    const unsigned char *masks[2] = {setting_padding, motor_padding};
    size_t sizes[2] = {sizeof setting_padding, sizeof motor_padding};
    for (int m = 0; m < 2; ++m) {
        size_t run = 0;
        for (size_t i = 0; i < sizes[m]; ++i) {
            run = masks[m][i] ? run + 1 : 0;
            if (run >= 4) fail_msg("%s byte %zu is set by no named field: a field is missing from the table", m ? "motor settings" : "settings", i);
        }
    }
}

// Every field set from a scene file reads back as the same field set by `--set` text; and `--set` through a
// run (run_options.sets, what `tread run --set` fills) reaches the character the run creates.
static void test_every_setting_is_settable_by_name(void **state) {
    (void)state;
    char msg[1024], json[8192], v[128];
    find_padding();
    tread_character_settings want = tread_character_settings_default();
    tread_motor_settings want_motor = tread_motor_settings_default();
    for (size_t i = 0; i < COUNT(setting_values); ++i)
        if (!scene_set_setting(&want, setting_values[i].name, setting_values[i].value, msg, sizeof msg)) fail_msg("%s", msg);
    for (size_t i = 0; i < COUNT(motor_values); ++i)
        if (!scene_set_motor_setting(&want_motor, motor_values[i].name, motor_values[i].value, msg, sizeof msg)) fail_msg("%s", msg);

    snprintf(json, sizeof json, "{\"duration\": 0.1, \"bodies\": [" FLOOR "], \"characters\": [{\"start\": [0, 0, 0], \"settings\": {");
    for (size_t i = 0; i < COUNT(setting_values); ++i) {
        json_value(v, sizeof v, setting_values[i].value);
        size_t used = strlen(json);
        snprintf(json + used, sizeof json - used, "%s\"%s\": %s", i ? ", " : "", setting_values[i].name, v);
    }
    strncat(json, "}, \"motor\": {", sizeof json - strlen(json) - 1);
    for (size_t i = 0; i < COUNT(motor_values); ++i) {
        json_value(v, sizeof v, motor_values[i].value);
        size_t used = strlen(json);
        snprintf(json + used, sizeof json - used, "%s\"%s\": %s", i ? ", " : "", motor_values[i].name, v);
    }
    strncat(json, "}, \"input\": []}]}", sizeof json - strlen(json) - 1);
    scene s;
    scene_error err;
    if (!scene_load_buffer("every-setting.json", json, strlen(json), &s, &err)) fail_msg("%s\n%s", err.message, json);
    assert_int_equal(SETTINGS_DIFFER(&s.characters[0].settings, &want), 0);
    assert_int_equal(MOTORS_DIFFER(&s.characters[0].motor, &want_motor), 0);
    scene_free(&s);

    // --set on a scene that sets nothing itself.
    const char *plain = SCENE_WITH(FLOOR, "{\"start\": [0, 0, 0], \"motor\": {}, \"input\": []}");
    if (!scene_load_buffer("plain.json", plain, strlen(plain), &s, &err)) fail_msg("%s", err.message);
    char sets_text[COUNT(setting_values) + COUNT(motor_values)][160];
    const char *sets[COUNT(setting_values) + COUNT(motor_values)];
    int n = 0;
    for (size_t i = 0; i < COUNT(setting_values); ++i, ++n) {
        snprintf(sets_text[n], sizeof sets_text[n], "%s=%s", setting_values[i].name, setting_values[i].value);
        sets[n] = sets_text[n];
    }
    for (size_t i = 0; i < COUNT(motor_values); ++i, ++n) {
        snprintf(sets_text[n], sizeof sets_text[n], "motor.%s=%s", motor_values[i].name, motor_values[i].value);
        sets[n] = sets_text[n];
    }
    run_options o = {0};
    o.sets = sets;
    o.set_count = n;
    run_trace t;
    if (!run_scene(&s, &o, &t, msg, sizeof msg)) fail_msg("%s", msg);
    assert_int_equal(SETTINGS_DIFFER(&t.final[0].settings, &want), 0);
    run_trace_free(&t);
    // A bad motor value is refused by name.
    const char *bad[] = {"motor.jump_hieght=1"};
    o.sets = bad;
    o.set_count = 1;
    assert_false(run_scene(&s, &o, &t, msg, sizeof msg));
    if (!strstr(msg, "unknown motor setting \"jump_hieght\"")) fail_msg("%s", msg);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_setting_name_has_a_non_default_value),
        cmocka_unit_test(test_the_settings_tables_cover_every_field),
        cmocka_unit_test(test_every_setting_is_settable_by_name),
        cmocka_unit_test(test_complete_scene_loads_every_value),
        cmocka_unit_test(test_motor_field_loads_over_defaults),
        cmocka_unit_test(test_bad_motor_values_are_rejected_with_a_path),
        cmocka_unit_test(test_defaults_fill_a_minimal_scene),
        cmocka_unit_test(test_scene_up_becomes_the_settings_default),
        cmocka_unit_test(test_valid_base_scene_loads),
        cmocka_unit_test(test_malformed_json_reports_line_and_column),
        cmocka_unit_test(test_unknown_field_names_its_path),
        cmocka_unit_test(test_misspelt_names_get_a_did_you_mean),
        cmocka_unit_test(test_wrong_type_names_path_and_expected_type),
        cmocka_unit_test(test_missing_required_field_is_named),
        cmocka_unit_test(test_out_of_range_numbers_are_rejected),
        cmocka_unit_test(test_infinite_numbers_are_rejected),
        cmocka_unit_test(test_missing_mesh_file_names_the_file),
        cmocka_unit_test(test_bad_settings_field_name),
        cmocka_unit_test(test_set_setting_parses_command_line_text),
        cmocka_unit_test(test_unsorted_input_is_rejected),
        cmocka_unit_test(test_structural_problems_are_caught_with_a_path),
        cmocka_unit_test(test_unreadable_scene_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
