// SPDX-License-Identifier: MIT
// Characters meeting each other and bodies that react, in scene files (docs/SCENES.md "Characters collide", "Crowds",
// "One-way platforms and sensors", "Dynamic bodies"). Crowds: the runner moves a scene's characters with one batch
// (characters_collide) and the shipped scenes' traces are the same either way; crowds are made the same every time,
// spawn apart inside their area and walk to targets in theirs; their errors name the JSON path; the overlap measure
// is exact for every pair of shapes; the group checks read what they say. Bodies: their fields and errors, the sensor
// events the runner's contact listener records (the same moved together or one by one), the runner's integrator for
// dynamic bodies (impulses, friction, gravity), and that each shipped scene of scenes/world fails when the feature it
// shows is taken away.
#include "scene_test_support.h"

#include <math.h>

#include "run_internal.h"
#include "tread/tread.h"

static void load_text(const char *json, scene *s) {
    scene_error err;
    if (!scene_load_buffer("crowds.json", json, strlen(json), s, &err)) fail_msg("%s", err.message);
}

static void load_file(const char *relative, scene *s) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", TREAD_SCENES, relative);
    scene_error err;
    if (!scene_load(path, s, &err)) fail_msg("%s", err.message);
}

static void run_with(const scene *s, int collide, run_trace *t) {
    run_options o = {0};
    o.characters_collide = collide;
    char message[512] = "";
    if (!run_scene(s, &o, t, message, sizeof message)) fail_msg("%s", message);
}

// The result named `name` among a run's results.
static const check_result *result_named(const check_result *r, int n, const char *name) {
    for (int i = 0; i < n; ++i)
        if (strcmp(r[i].name, name) == 0) return &r[i];
    fail_msg("no result named \"%s\"", name);
    return &r[0]; // not reached: fail_msg ends the test
}

// The shipped scenes with more than one character, before crowds: their characters never touch, so moving them
// together must give every frame of every character bit for bit as moving them one by one (the switch's default
// changed nothing for them).
static void test_shipped_scenes_are_the_same_moved_together(void **state) {
    (void)state;
    static const char *const multi[] = {"moving/seesaw.json", "moving/door-push-50ms.json", "moving/crusher-5ms.json", "moving/conveyor-belt.json",
                                        "moving/crusher-50ms.json", "more/coyote-ledge.json", "more/crouch-under-ceiling.json",
                                        "more/wall-jump-chimney.json", "more/stairs-layer-50.json", "more/jump-onto-step.json"};
    for (size_t k = 0; k < sizeof multi / sizeof multi[0]; ++k) {
        scene s;
        load_file(multi[k], &s);
        assert_true(s.character_count > 1);
        assert_true(s.characters_collide); // the default
        run_trace together, alone;
        run_with(&s, 0, &together);
        run_with(&s, -1, &alone);
        assert_true(together.batched);
        assert_false(alone.batched);
        assert_int_equal(together.frame_count, alone.frame_count);
        for (int i = 0; i < together.frame_count * together.character_count; ++i) {
            const run_frame *a = &together.frames[i], *b = &alone.frames[i];
            if (memcmp(&a->feet, &b->feet, sizeof a->feet) != 0 || memcmp(&a->velocity, &b->velocity, sizeof a->velocity) != 0 ||
                a->ground != b->ground)
                fail_msg("%s: frame %d of character %d differs moved together", multi[k], i % together.frame_count + 1, i / together.frame_count);
        }
        run_trace_free(&together);
        run_trace_free(&alone);
        scene_free(&s);
    }
}

#define ROOM_FLOOR "{\"type\": \"box\", \"min\": [-10, -1, -10], \"max\": [10, 0, 10]}"
#define CROWD(fields) "{\"name\": \"c\", \"count\": 20, \"seed\": 5, \"area\": {\"min\": [-4, 0, -3], \"max\": [4, 0, 3]}, " \
                      "\"targets\": {\"min\": [-6, 0, -6], \"max\": [6, 0, 6]}, \"speed\": 1.5" fields "}"
#define CROWD_SCENE(crowds) "{\"duration\": 10, \"bodies\": [" ROOM_FLOOR "], \"crowds\": [" crowds "]}"

// A crowd: its characters after the listed ones, named "<crowd>#<k>", apart at the start (no two closer than two
// radii plus the spacing), inside the area, with one target each `every` seconds inside the target area, and all of
// it the same at every load.
static void test_a_crowd_is_made_the_same_every_time(void **state) {
    (void)state;
    scene a, b;
    const char *json = "{\"duration\": 10, \"bodies\": [" ROOM_FLOOR "], \"characters\": [{\"name\": \"lone\", \"start\": [8, 0, 8], \"input\": []}],"
                       " \"crowds\": [" CROWD(", \"every\": 3") "]}";
    load_text(json, &a);
    load_text(json, &b);
    assert_int_equal(a.character_count, 21);
    assert_int_equal(a.crowd_count, 1);
    assert_int_equal(a.crowds[0].first, 1);
    assert_int_equal(a.crowds[0].count, 20);
    assert_int_equal(a.characters[0].crowd, -1);
    assert_string_equal(a.characters[1].name, "c#0");
    assert_string_equal(a.characters[20].name, "c#19");
    for (int i = 1; i < 21; ++i) {
        const scene_character *c = &a.characters[i];
        assert_int_equal(c->crowd, 0);
        assert_memory_equal(&c->start, &b.characters[i].start, sizeof c->start);
        assert_true(c->start.x > -4.0f && c->start.x < 4.0f && c->start.z > -3.0f && c->start.z < 3.0f && c->start.y == 0.0f);
        for (int j = 1; j < i; ++j) {
            float dx = c->start.x - a.characters[j].start.x, dz = c->start.z - a.characters[j].start.z;
            assert_true(sqrtf(dx * dx + dz * dz) >= 0.7f - 1e-4f);
        }
        assert_int_equal(c->input_count, 4); // t = 0, 3, 6, 9 in a 10 s run
        for (int k = 0; k < c->input_count; ++k) {
            const scene_input *in = &c->inputs[k];
            assert_true(in->kind == SCENE_INPUT_TOWARD && in->speed == 1.5f && fabsf(in->t - 3.0f * (float)k) < 1e-6f);
            assert_true(in->target.x >= -6.0f && in->target.x <= 6.0f && in->target.z >= -6.0f && in->target.z <= 6.0f);
            assert_memory_equal(&in->target, &b.characters[i].inputs[k].target, sizeof in->target);
        }
    }
    // Each character draws its own targets: not all the same.
    assert_true(a.characters[1].inputs[0].target.x != a.characters[2].inputs[0].target.x);
    scene_free(&a);
    scene_free(&b);
}

static void test_crowd_errors_name_their_json_path(void **state) {
    (void)state;
    expect_error(CROWD_SCENE("{\"name\": \"c\", \"count\": 200, \"area\": {\"min\": [0, 0, 0], \"max\": [4, 0, 4]}, \"targets\": {\"min\": [0, 0, 0], "
                             "\"max\": [1, 0, 1]}, \"speed\": 1}"),
                 "crowds[0].count: 200 characters 0.6 m wide with 0.1 m between them do not fit in the 4 x 4 m area: at most 25");
    expect_error(CROWD_SCENE(CROWD(", \"name\": \"a#b\"")), "crowds[0]");
    expect_error(CROWD_SCENE("{\"name\": \"a#b\", \"count\": 1, \"area\": {\"min\": [0, 0, 0], \"max\": [4, 0, 4]}, \"targets\": {\"min\": [0, 0, 0], "
                             "\"max\": [1, 0, 1]}, \"speed\": 1}"),
                 "crowds[0].name: \"a#b\": expected 1 to 56 characters, without '#'");
    expect_error(CROWD_SCENE(CROWD("") ", " CROWD("")), "crowds[1].name: \"c\" is already crowds[0]'s name");
    expect_error(CROWD_SCENE(CROWD(", \"sped\": 1")), "crowds[0]: unknown field \"sped\"");
    expect_error(CROWD_SCENE("{\"name\": \"c\", \"count\": 1, \"area\": {\"min\": [4, 0, 0], \"max\": [0, 0, 4]}, \"targets\": {\"min\": [0, 0, 0], "
                             "\"max\": [1, 0, 1]}, \"speed\": 1}"),
                 "crowds[0].area: min [4, 0, 0] must be below max [0, 0, 4]");
    expect_error(CROWD_SCENE(CROWD(", \"every\": 0")), "crowds[0].every: 0 is out of range");
    expect_error(CROWD_SCENE(CROWD(", \"settings\": {\"radius\": -1}")), "crowds[0].settings");
    expect_error(CROWD_SCENE("{\"name\": \"c\", \"count\": 0, \"area\": {\"min\": [0, 0, 0], \"max\": [4, 0, 4]}, \"targets\": {\"min\": [0, 0, 0], "
                             "\"max\": [1, 0, 1]}, \"speed\": 1}"),
                 "crowds[0].count: 0 is out of range");
    expect_error(CROWD_SCENE(CROWD(", \"speed\": 2000")), "crowds[0]: ");
    expect_error("{\"duration\": 10, \"bodies\": [], \"crowds\": []}", "crowds: is empty and no character is listed");
    expect_error("{\"duration\": 10, \"up\": [0, 0, 1], \"bodies\": [], \"crowds\": [" CROWD("") "]}", "crowds: need the scene's up to be [0, 1, 0]");
    expect_error("{\"duration\": 10, \"bodies\": [], \"characters\": [{\"name\": \"c#3\", \"start\": [9, 0, 9], \"input\": []}], \"crowds\": [" CROWD("")
                 "]}",
                 "characters[0].name: \"c#3\" is a name of crowds[0]'s characters");
    // The checks of a group name a crowd, not a character, and their windows are times.
#define GROUP_CHECK(check) "{\"duration\": 10, \"bodies\": [" ROOM_FLOOR "], \"crowds\": [" CROWD("") "], \"expectations\": [" check "]}"
    expect_error(GROUP_CHECK("{\"type\": \"max_overlap\", \"max\": 0.01, \"crowd\": \"d\"}"), "expectations[0].crowd: no crowd is named \"d\"");
    expect_error(GROUP_CHECK("{\"type\": \"max_overlap\", \"max\": 0.01, \"character\": 0}"), "expectations[0]: unknown field \"character\"");
    expect_error(GROUP_CHECK("{\"type\": \"max_overlap\"}"), "expectations[0]: missing required field \"max\"");
    expect_error(GROUP_CHECK("{\"type\": \"all_finite\", \"window\": {\"start\": {\"axis\": \"x\", \"above\": 1}}}"),
                 "expectations[0].window: a group's window starts and ends at times");
    expect_error(GROUP_CHECK("{\"type\": \"all_finite\", \"window\": {\"where\": {\"axis\": \"x\", \"min\": 1}}}"),
                 "expectations[0].window: a group's window takes no \"where\"");
    expect_error(GROUP_CHECK("{\"type\": \"reached_fraction\", \"condition\": {\"time\": 1}, \"min\": 2}"), "expectations[0].min: 2 is out of range");
    expect_error(GROUP_CHECK("{\"type\": \"crushed_fraction\", \"max\": -0.5}"), "expectations[0].max: -0.5 is out of range");
    expect_error(GROUP_CHECK("{\"type\": \"stays_in\", \"min\": [1, 0, 0], \"max\": [0, 1, 1]}"), "expectations[0]: min [1, 0, 0] is above max");
    expect_error(GROUP_CHECK("{\"type\": \"max_overlap\", \"max\": 0.01, \"crowd\": 3}"), "expectations[0].crowd: expected a crowd's name, got a number");
}

// A scene of crowds alone needs no "characters"; one with 32 layers has none left for its characters to collide on.
static void test_characters_may_be_left_out_and_need_a_layer(void **state) {
    (void)state;
    scene s;
    load_text(CROWD_SCENE(CROWD("")), &s);
    assert_int_equal(s.character_count, 20);
    scene_free(&s);
    char json[2048] = "{\"duration\": 1, \"layers\": [";
    for (int i = 0; i < 32; ++i) snprintf(json + strlen(json), sizeof json - strlen(json), "%s{\"name\": \"l%d\"}", i ? ", " : "", i);
    char alone[4096];
    snprintf(alone, sizeof alone, "%.2047s], \"characters_collide\": false, \"bodies\": [], \"crowds\": [%s]}", json, CROWD(""));
    load_text(alone, &s);
    scene_free(&s);
    snprintf(json + strlen(json), sizeof json - strlen(json), "], \"bodies\": [], \"crowds\": [%s]}", CROWD(""));
    expect_error(json, "characters_collide: needs a layer free of bodies for the characters, and the scene names all 32");
}

// The overlap measure, exact for each pair of shapes sharing an up (rounded boxes: half extents and radii add).
static void test_overlap_is_exact_for_every_pair_of_shapes(void **state) {
    (void)state;
    tread_character_settings capsule = tread_character_settings_default(), sphere = capsule, box = capsule;
    sphere.shape = TREAD_QUERY_SPHERE;
    sphere.radius = 0.5f;
    box.shape = TREAD_QUERY_BOX;
    box.radius = 0.4f;
    struct {
        const tread_character_settings *a, *b;
        tread_vec3 pa, pb;
        float overlap;
    } cases[] = {
        {&capsule, &capsule, {0, 0, 0}, {0.5f, 0, 0}, 0.1f},          // side by side: 0.6 - 0.5
        {&capsule, &capsule, {0, 0, 0}, {0.7f, 0, 0}, 0.0f},          // apart
        {&capsule, &capsule, {0, 0, 0}, {0, 1.7f, 0}, 0.1f},          // standing on its head, 0.1 deep
        {&capsule, &sphere, {0, 0, 0}, {0.3f, 1.0f, 0.4f}, 0.3f},     // sphere centre 0.5 from the core: 0.8 - 0.5
        {&box, &box, {0, 0, 0}, {0.7f, 0, 0.3f}, 0.1f},               // boxes: the shallower axis, x: 0.8 - 0.7
        {&box, &capsule, {0, 0, 0}, {0.6f, 0, 0}, 0.1f},              // a face against a capsule: 0.4 + 0.3 - 0.6
        {&box, &capsule, {0, 0, 0}, {0.6f, 0, 0.6f}, 0.3f - 0.2f * sqrtf(2.0f)}, // a vertical edge: 0.3 - |(0.2, 0.2)|
    };
    run_overlap *o = run_overlap_create(2);
    assert_non_null(o);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        tread_character c[2];
        float out[2];
        assert_int_equal(tread_character_init(&c[0], cases[k].a, cases[k].pa), TREAD_OK);
        assert_int_equal(tread_character_init(&c[1], cases[k].b, cases[k].pb), TREAD_OK);
        run_overlap_measure(o, c, 2, out);
        float want = cases[k].overlap > 0.0f ? cases[k].overlap : 0.0f;
        if (fabsf(out[0] - want) > 1e-5f || out[0] != out[1]) fail_msg("case %zu: overlap %g and %g, expected %g", k, (double)out[0], (double)out[1], (double)want);
    }
    run_overlap_destroy(o);
}

// The grid finds every overlapping pair: 300 characters at random spots give the same depths as all 44,850 pairs
// tested one by one.
static void test_overlap_grid_misses_no_pair(void **state) {
    (void)state;
    enum { N = 300 };
    static tread_character c[N];
    static float grid[N], pairs[N];
    tread_character_settings s = tread_character_settings_default();
    uint32_t seed = 9;
    for (int i = 0; i < N; ++i) {
        seed = seed * 1664525u + 1013904223u;
        float x = (float)(seed >> 8) / 16777216.0f * 12.0f - 6.0f;
        seed = seed * 1664525u + 1013904223u;
        float z = (float)(seed >> 8) / 16777216.0f * 12.0f - 6.0f;
        seed = seed * 1664525u + 1013904223u;
        s.shape = (tread_query_shape_type)(seed % 3u);
        s.radius = s.shape == TREAD_QUERY_SPHERE ? 0.45f : 0.3f;
        assert_int_equal(tread_character_init(&c[i], &s, tread_v3(x, (float)(i % 3) * 0.9f, z)), TREAD_OK);
    }
    run_overlap *o = run_overlap_create(N), *two = run_overlap_create(2);
    run_overlap_measure(o, c, N, grid);
    for (int i = 0; i < N; ++i) pairs[i] = 0.0f;
    for (int i = 0; i < N; ++i)
        for (int j = i + 1; j < N; ++j) {
            tread_character pair[2] = {c[i], c[j]};
            float d[2];
            run_overlap_measure(two, pair, 2, d);
            pairs[i] = fmaxf(pairs[i], d[0]);
            pairs[j] = fmaxf(pairs[j], d[1]);
        }
    int overlapping = 0;
    for (int i = 0; i < N; ++i) {
        overlapping += pairs[i] > 0.0f;
        if (grid[i] != pairs[i]) fail_msg("character %d: grid %g, all pairs %g", i, (double)grid[i], (double)pairs[i]);
    }
    assert_true(overlapping > 50); // the test does test something
    run_overlap_destroy(o);
    run_overlap_destroy(two);
}

// Two crowds of 8 crossing a corridor: moved together they block each other (no overlap), one by one they walk
// through each other; the group checks say so, each naming the crowd, and timing is kept.
static void test_crowds_block_each_other_only_moved_together(void **state) {
    (void)state;
    scene s;
    load_text("{\"duration\": 12, \"bodies\": [{\"type\": \"box\", \"min\": [-11, -1, -3], \"max\": [11, 0, 3]},"
              " {\"type\": \"box\", \"min\": [-10, 0, -3], \"max\": [10, 3, -2]}, {\"type\": \"box\", \"min\": [-10, 0, 2], \"max\": [10, 3, 3]}],"
              " \"crowds\": [{\"name\": \"east\", \"count\": 8, \"area\": {\"min\": [-9, 0, -1.9], \"max\": [-6, 0, 1.9]},"
              "  \"targets\": {\"min\": [7, 0, -1.5], \"max\": [9, 0, 1.5]}, \"speed\": 1.5},"
              " {\"name\": \"west\", \"count\": 8, \"seed\": 2, \"area\": {\"min\": [6, 0, -1.9], \"max\": [9, 0, 1.9]},"
              "  \"targets\": {\"min\": [-9, 0, -1.5], \"max\": [-7, 0, 1.5]}, \"speed\": 1.5}],"
              " \"expectations\": [{\"name\": \"overlap\", \"type\": \"max_overlap\", \"max\": 0.01},"
              "  {\"name\": \"east overlap\", \"type\": \"max_overlap\", \"max\": 0.01, \"crowd\": \"east\"},"
              "  {\"name\": \"walls\", \"type\": \"max_wall_penetration\", \"max\": 0.001}, {\"name\": \"finite\", \"type\": \"all_finite\"},"
              "  {\"name\": \"east arrives\", \"type\": \"reached_fraction\", \"crowd\": \"east\", \"condition\": {\"axis\": \"x\", \"above\": 6}, \"min\": 0.75},"
              "  {\"name\": \"in the corridor\", \"type\": \"stays_in\", \"min\": [-10, 0, -2], \"max\": [10, 0.01, 2]},"
              "  {\"name\": \"jumps\", \"type\": \"max_frame_motion\", \"max\": 0.1}]}",
              &s);
    check_result r[SCENE_MAX_RESULTS];
    run_trace t;
    run_with(&s, 0, &t);
    assert_true(t.batched && t.move_seconds > 0.0 && t.move_seconds_max > 0.0 && t.frame_seconds >= t.move_seconds);
    int n = run_checks(&s, &t, r, SCENE_MAX_RESULTS);
    assert_int_equal(n, 7 + 4); // the checks, then two invariants per crowd
    assert_string_equal(r[7].name, "crowd east: finite state");
    assert_string_equal(r[10].name, "crowd west: penetration");
    for (int i = 0; i < n; ++i)
        if (!r[i].passed) fail_msg("moved together: %s: %s", r[i].name, r[i].detail);
    assert_non_null(strstr(result_named(r, n, "east overlap")->detail, "crowd east: deepest"));
    assert_non_null(strstr(result_named(r, n, "east arrives")->detail, "crowd east: 7 of 8 met the condition"));
    run_trace_free(&t);
    run_with(&s, -1, &t);
    assert_false(t.batched);
    n = run_checks(&s, &t, r, SCENE_MAX_RESULTS);
    const check_result *overlap = result_named(r, n, "overlap");
    assert_false(overlap->passed);
    assert_true(overlap->value > 0.3);
    assert_true(result_named(r, n, "east arrives")->passed); // through the others
    run_trace_free(&t);
    scene_free(&s);
}

// A scene marked slow loads as any other (`tread suite` skips it unless --slow; `tread run` runs it).
static void test_slow_scenes_load(void **state) {
    (void)state;
    scene s;
    load_file("world/crowd-room-500.json", &s);
    assert_true(s.slow);
    assert_int_equal(s.character_count, 500);
    scene_free(&s);
    load_file("world/crowd-room-500-10s.json", &s);
    assert_false(s.slow);
    scene_free(&s);
}

// ---- bodies that react ------------------------------------------------------------------------------------------

// How many of the run's results failed; every one of them when `all_pass` is asked.
static int failures(const scene *s, const run_trace *t, bool all_pass) {
    check_result r[SCENE_MAX_RESULTS];
    int n = run_checks(s, t, r, SCENE_MAX_RESULTS), failed = 0;
    for (int i = 0; i < n; ++i) {
        failed += !r[i].passed;
        if (all_pass && !r[i].passed) fail_msg("%s: %s: %s", s->name, r[i].name, r[i].detail);
    }
    return failed;
}

static int body_named(const scene *s, const char *name) {
    for (int i = 0; i < s->body_count; ++i)
        if (strcmp(s->bodies[i].name, name) == 0) return i;
    fail_msg("no body named %s", name);
    return 0;
}

#define BOX(extra) "{\"type\": \"box\", \"name\": \"b\", \"center\": [0, 0.5, 0], \"half_extents\": [0.5, 0.5, 0.5]" extra "}"
#define CRATE_CHECK(check)                                                                                                             \
    "{\"duration\": 2, \"bodies\": [" FLOOR ", " BOX(", \"dynamic\": {\"mass\": 10}") ", " BOX(", \"sensor\": true") "], \"characters\": [" CHARACTER \
    "], \"expectations\": [" check "]}"

static void test_flag_and_dynamic_errors_name_their_json_path(void **state) {
    (void)state;
    expect_error(SCENE_WITH(BOX(", \"one_way\": true, \"sensor\": true"), CHARACTER), "bodies[0]: give \"one_way\" or \"sensor\", not both");
    expect_error(SCENE_WITH(BOX(", \"sensor\": 1"), CHARACTER), "bodies[0].sensor: expected true or false, got a number");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {\"mass\": 1}, \"kinematic\": {}"), CHARACTER), "bodies[0]: give \"kinematic\" or \"dynamic\", not both");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {}"), CHARACTER), "bodies[0].dynamic: missing required field \"mass\"");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {\"mass\": 0}"), CHARACTER), "bodies[0].dynamic.mass: 0 is out of range");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {\"mass\": 1, \"friction\": -1}"), CHARACTER), "bodies[0].dynamic.friction: -1 is out of range");
    expect_error(SCENE_WITH(BOX(", \"dynamic\": {\"mass\": 1, \"spin\": true}"), CHARACTER), "bodies[0].dynamic: unknown field \"spin\"");
    expect_error(SCENE_WITH(BOX(", \"rotation\": {\"axis\": [0, 1, 0], \"degrees\": 30}, \"dynamic\": {\"mass\": 1}"), CHARACTER),
                 "bodies[0].dynamic: the runner moves dynamic boxes and capsules unrotated");
    expect_error(SCENE_WITH("{\"type\": \"heightfield\", \"origin\": [0, 0, 0], \"spacing\": [1, 1], \"heights\": [[0, 0], [0, 0]], \"dynamic\": {\"mass\": 1}}",
                            CHARACTER),
                 "bodies[0].dynamic: the runner moves boxes, spheres and capsules");
    // The checks of sensors and dynamic bodies name bodies of that kind.
    expect_error(CRATE_CHECK("{\"type\": \"sensor_entered\", \"body\": 0, \"count\": 1}"), "expectations[0].body: bodies[0] is not a sensor");
    expect_error(CRATE_CHECK("{\"type\": \"body_moved\", \"body\": 2, \"axis\": \"x\", \"min\": 1}"), "expectations[0].body: bodies[2] is not dynamic");
    expect_error(CRATE_CHECK("{\"type\": \"rides\", \"body\": 1}"), "expectations[0].body: bodies[1] is dynamic and has no surface velocity");
    expect_error(CRATE_CHECK("{\"type\": \"sensor_entered\", \"body\": 2, \"count\": 1, \"min\": 1}"), "expectations[0]: give \"count\" or \"min\"/\"max\", not both");
    expect_error(CRATE_CHECK("{\"type\": \"sensor_entered\", \"body\": 2}"), "expectations[0]: needs \"min\", \"max\" or both");
    expect_error(CRATE_CHECK("{\"type\": \"sensor_sequence\", \"body\": 2, \"events\": [\"entered\", \"left\"]}"),
                 "expectations[0].events[1]: unknown value \"left\": expected one of \"entered\", \"exited\"");
    expect_error(CRATE_CHECK("{\"type\": \"body_ahead\", \"body\": 1, \"min\": 1}"), "expectations[0]: missing required field \"axis\"");
}

// The sensor scene's events, moved together (one batch keeps the memories) and one by one (a memory per character):
// the same events in the same frames.
static void test_sensor_events_are_the_same_moved_together_or_alone(void **state) {
    (void)state;
    scene s;
    load_file("world/sensors-water-and-pickup.json", &s);
    run_trace together, alone;
    run_with(&s, 0, &together);
    run_with(&s, -1, &alone);
    assert_true(together.batched);
    failures(&s, &together, true);
    failures(&s, &alone, true);
    assert_int_equal(together.events_dropped, 0);
    assert_int_equal(together.event_count, alone.event_count);
    // Events come by frame; within a frame the batch and the single moves may order two characters differently.
    int entered = 0, exited = 0;
    for (int i = 0; i < together.event_count; ++i) {
        const run_event *e = &together.events[i];
        bool found = false;
        for (int j = 0; j < alone.event_count && !found; ++j)
            found = memcmp(e, &alone.events[j], sizeof *e) == 0;
        if (!found) fail_msg("event %d (frame %d, character %d, body %d, kind %d) not seen one by one", i, e->frame, e->character, e->body, (int)e->kind);
        entered += e->kind == SCENE_EVENT_ENTERED;
        exited += e->kind == SCENE_EVENT_EXITED;
    }
    assert_int_equal(entered, 3); // the water twice, the pickup once
    assert_int_equal(exited, 3);
    run_trace_free(&together);
    run_trace_free(&alone);
    scene_free(&s);
}

// Every scene of scenes/world about bodies passes, and fails once the body's flag or type is taken away: a solid
// platform, a solid sensor, a crate nobody moves.
static void test_world_scenes_fail_without_their_feature(void **state) {
    (void)state;
    static const struct {
        const char *file;
        const char *bodies[2];
    } scenes[] = {
        {"world/one-way-platforms.json", {"platform", "ledge"}},
        {"world/one-way-lifts.json", {"rising lift", "sliding lift"}},
        {"world/sensors-water-and-pickup.json", {"water", "pickup"}},
        {"world/crate-push.json", {"crate", NULL}},
    };
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; ++k) {
        scene s;
        load_file(scenes[k].file, &s);
        run_trace t;
        run_with(&s, 0, &t);
        failures(&s, &t, true);
        run_trace_free(&t);
        for (int b = 0; b < 2 && scenes[k].bodies[b]; ++b) {
            tread_body_def *def = &s.bodies[body_named(&s, scenes[k].bodies[b])].def;
            def->flags = 0u;
            if (def->type == TREAD_BODY_DYNAMIC) def->type = TREAD_BODY_STATIC;
        }
        run_with(&s, 0, &t);
        int failed = failures(&s, &t, false);
        print_message("%s without its feature: %d results fail\n", s.name, failed);
        assert_true(failed >= 2);
        run_trace_free(&t);
        scene_free(&s);
    }
}

#define PUSH_SCENE(crate, pusher_input) \
    "{\"duration\": 5, \"bodies\": [{\"type\": \"box\", \"min\": [-3, -1, -3], \"max\": [30, 0, 3]}, " crate "], \"characters\": [" \
    "{\"name\": \"pusher\", \"start\": [0, 0, 0], \"input\": " pusher_input "}]}"
#define CRATE(y, dynamic) "{\"type\": \"box\", \"name\": \"crate\", \"center\": [2, " y ", 0], \"half_extents\": [0.5, 0.5, 0.5], \"dynamic\": " dynamic "}"

// Load `json`, run it moved together, and require every result to pass.
static void run_passing_text(const char *json, scene *s, run_trace *t) {
    load_text(json, s);
    run_with(s, 0, t);
    failures(s, t, true);
}

// The crate's x at the end of each frame.
static float crate_x(const run_trace *t, int frame) { return run_body_at(t, 0, frame).p.x; }

// Pushed for 2.5 s, then left: friction (0.3 x 9.81 m/s^2) stops the crate within v^2 / (2 mu g) of where the push
// ended, and it stays there.
static void test_friction_stops_a_pushed_crate(void **state) {
    (void)state;
    scene s;
    run_trace t;
    run_passing_text(PUSH_SCENE(CRATE("0.5", "{\"mass\": 20, \"friction\": 0.3}"), "[{\"t\": 0, \"direction\": [1, 0, 0], \"speed\": 1.5}, {\"t\": 2.5, \"idle\": true}]"), &s,
                     &t);
    int released = 150; // the last pushing frame
    float speed = (crate_x(&t, released) - crate_x(&t, released - 1)) / t.dt, slid = crate_x(&t, t.frame_count - 1) - crate_x(&t, released);
    float expected = speed * speed / (2.0f * 0.3f * 9.81f);
    print_message("crate: %.3f m/s when let go, slid %.4f m (v^2 / 2 mu g = %.4f m)\n", (double)speed, (double)slid, (double)expected);
    assert_true(speed > 1.0f);
    assert_true(fabsf(slid - expected) < 0.05f);
    assert_true(crate_x(&t, t.frame_count - 1) == crate_x(&t, t.frame_count - 30)); // at rest
    run_trace_free(&t);
    scene_free(&s);
}

// With gravity, a crate let go 1 m up falls and rests on the floor (its skin of 1 mm above it); without, it stays
// where it was put. Neither moves sideways untouched.
static void test_gravity_brings_a_crate_down(void **state) {
    (void)state;
    scene s;
    run_trace t;
    load_text(PUSH_SCENE(CRATE("1.5", "{\"mass\": 20}"), "[]"), &s);
    run_with(&s, 0, &t);
    tread_vec3 end = run_body_at(&t, 0, t.frame_count - 1).p;
    assert_true(fabsf(end.y - 0.501f) < 0.001f);
    assert_true(end.x == 2.0f && end.z == 0.0f);
    run_trace_free(&t);
    scene_free(&s);
    load_text(PUSH_SCENE(CRATE("1.5", "{\"mass\": 20, \"gravity\": false}"), "[]"), &s);
    run_with(&s, 0, &t);
    end = run_body_at(&t, 0, t.frame_count - 1).p;
    assert_true(end.y == 1.5f && end.x == 2.0f);
    run_trace_free(&t);
    scene_free(&s);
}

// A push weaker than static friction does not start the crate: a 1,000 kg crate against the default strength (100 N,
// less than 0.5 x 1,000 kg x 9.81 m/s^2) stays put, and the pusher stays behind it.
static void test_a_heavy_crate_does_not_move(void **state) {
    (void)state;
    scene s;
    run_trace t;
    run_passing_text(PUSH_SCENE(CRATE("0.5", "{\"mass\": 1000}"), "[{\"t\": 0, \"direction\": [1, 0, 0], \"speed\": 1.5}]"), &s, &t);
    assert_true(crate_x(&t, t.frame_count - 1) == 2.0f);
    assert_true(fabsf(t.final[0].position.x - (2.0f - 0.5f - 0.3f - 0.002f)) < 1e-3f);
    run_trace_free(&t);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_scenes_are_the_same_moved_together),
        cmocka_unit_test(test_a_crowd_is_made_the_same_every_time),
        cmocka_unit_test(test_crowd_errors_name_their_json_path),
        cmocka_unit_test(test_characters_may_be_left_out_and_need_a_layer),
        cmocka_unit_test(test_overlap_is_exact_for_every_pair_of_shapes),
        cmocka_unit_test(test_overlap_grid_misses_no_pair),
        cmocka_unit_test(test_crowds_block_each_other_only_moved_together),
        cmocka_unit_test(test_slow_scenes_load),
        cmocka_unit_test(test_flag_and_dynamic_errors_name_their_json_path),
        cmocka_unit_test(test_sensor_events_are_the_same_moved_together_or_alone),
        cmocka_unit_test(test_world_scenes_fail_without_their_feature),
        cmocka_unit_test(test_friction_stops_a_pushed_crate),
        cmocka_unit_test(test_gravity_brings_a_crate_down),
        cmocka_unit_test(test_a_heavy_crate_does_not_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
