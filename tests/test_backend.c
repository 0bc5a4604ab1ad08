// SPDX-License-Identifier: MIT
// The query backend (include/tread/backend.h): the conformance checks (backend_conformance.h) on tread's own world
// through the interface and on a backend written over tread's public functions (backend_public.h); the _on functions
// and the batch update against their world-taking namesakes (the same bits); the errors that name a bad backend; and a backend that breaks
// the contract or fails to begin a move leaving the character unchanged.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backend_conformance.h"
#include "backend_public.h"
#include "course.h"

// ---- the two engines the conformance runs on ---------------------------------------------------------------------

typedef struct tread_engine {
    tread_world *world;
    public_engine counts;
    bool public_api; // the backend over the public functions; else tread_world_backend
} tread_engine;

// The scene into a tread world: dynamic bodies moved by "the game's physics", then one advance.
static bool build_tread(void *self, const bc_body *bodies, int count, float dt, tread_backend *out, tread_body_id *ids) {
    tread_engine *e = (tread_engine *)self;
    if (tread_world_create(NULL, &e->world) != TREAD_OK) return false;
    for (int i = 0; i < count; ++i) {
        tread_body_def def = bodies[i].def;
        if (def.type == TREAD_BODY_DYNAMIC) def.linear_velocity = def.angular_velocity = tread_v3(0, 0, 0);
        if (tread_world_add_body(e->world, &def, &ids[i]) != TREAD_OK) return false;
    }
    for (int i = 0; i < count; ++i)
        if (bodies[i].def.type == TREAD_BODY_DYNAMIC &&
            tread_body_move_to(e->world, ids[i], bodies[i].moved_to, bodies[i].def.linear_velocity, bodies[i].def.angular_velocity) != TREAD_OK)
            return false;
    if (tread_world_advance(e->world, dt) != TREAD_OK) return false;
    *out = e->public_api ? public_backend(&e->counts, e->world) : tread_world_backend(e->world);
    return true;
}

static void destroy_tread(void *self) {
    tread_engine *e = (tread_engine *)self;
    tread_world_destroy(e->world);
    e->world = NULL;
}

static void run_conformance(bool public_api) {
    tread_engine e;
    memset(&e, 0, sizeof e);
    e.public_api = public_api;
    bc_engine engine = {public_api ? "tread's public API" : "tread_world_backend", build_tread, destroy_tread, &e, 1.0e-5f};
    bc_report report;
    bool built = bc_run_all(&engine, &report);
    print_message("%s: %d checks, %d failed\n", engine.name, report.checks, report.failures);
    if (!built || report.failures > 0) fail_msg("%s", report.text);
    assert_true(report.checks > 80);
}

static void test_conformance_on_tread_world_backend(void **state) {
    (void)state;
    run_conformance(false);
}

static void test_conformance_on_a_backend_over_the_public_api(void **state) {
    (void)state;
    run_conformance(true);
}

// ---- the checks catch a backend that breaks the contract ---------------------------------------------------------------

static void flipped_cast(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                         const tread_query_filter *filter, tread_shape_hit *out_hit) {
    public_cast(context, move, shape, position, translation, filter, out_hit);
    out_hit->normal = tread_v3_neg(out_hit->normal); // from the shape toward the surface: wrong way round
}

static void reversed_cast_all(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                              const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count, bool *out_overflow) {
    public_cast_all(context, move, shape, position, translation, filter, hits, capacity, out_count, out_overflow);
    for (int i = 0, j = *out_count - 1; i < j; ++i, --j) {
        tread_shape_hit t = hits[i];
        hits[i] = hits[j];
        hits[j] = t;
    }
}

static void sensing_contacts(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, float margin,
                             const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count, bool *out_overflow) {
    tread_query_filter with_sensors = *filter;
    with_sensors.include_sensors = true; // ignores the filter's word on sensors
    public_contacts(context, move, shape, position, margin, &with_sensors, contacts, capacity, out_count, out_overflow);
}

static bool build_broken(void *self, const bc_body *bodies, int count, float dt, tread_backend *out, tread_body_id *ids) {
    if (!build_tread(self, bodies, count, dt, out, ids)) return false;
    out->cast_shape = flipped_cast;
    out->cast_shape_all = reversed_cast_all;
    out->collect_contacts = sensing_contacts;
    return true;
}

static void test_conformance_catches_a_broken_backend(void **state) {
    (void)state;
    tread_engine e;
    memset(&e, 0, sizeof e);
    e.public_api = true;
    bc_engine engine = {"broken", build_broken, destroy_tread, &e, 1.0e-5f};
    bc_report report;
    assert_true(bc_run_all(&engine, &report));
    print_message("broken backend: %d of %d checks failed\n", report.failures, report.checks);
    assert_non_null(strstr(report.text, "bc_check_start_in_contact: normal ("));
    assert_non_null(strstr(report.text, "bc_check_normals: cast into A's face"));
    assert_non_null(strstr(report.text, "bc_check_ordering: down onto A|B"));
    assert_non_null(strstr(report.text, "bc_check_filters: contacts by the sensor, include_sensors 0"));
}

// ---- the _on functions on tread's own world: the world-taking ones, bit for bit -------------------------------------

static tread_world *stairs_world(void) {
    tread_world *w = course_world();
    course_stairs(w);
    tread_body_def def = tread_body_def_default(); // a lift and a one-way platform, so carry and one-way run too
    def.shape = tread_shape_box(tread_v3(1, 0.1f, 1));
    def.transform.p = tread_v3(-4, 0.1f, 0);
    def.type = TREAD_BODY_KINEMATIC;
    def.linear_velocity = tread_v3(0, 0.5f, 0);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    def.type = TREAD_BODY_STATIC;
    def.linear_velocity = tread_v3(0, 0, 0);
    def.transform.p = tread_v3(-1.5f, 0.3f, 3);
    def.flags = TREAD_BODY_ONE_WAY;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
    return w;
}

// Walk three characters over S1, a lift and a one-way platform for `frames`, by phases (update, walk_stairs,
// stick_to_floor) or by the reference move, on the world or on `backend`; the per-frame feet go to `trail`.
static void walk(tread_world *w, const tread_backend *backend, bool phases, int frames, tread_vec3 *trail) {
    tread_character c[3];
    tread_character_settings s = tread_character_settings_default();
    const tread_vec3 starts[3] = {{0, 0, 0}, {-4, 0.2f, 0}, {-1.5f, 1.5f, 3}};
    for (int i = 0; i < 3; ++i) assert_int_equal(tread_character_init(&c[i], &s, starts[i]), TREAD_OK);
    for (int f = 0; f < frames; ++f) {
        assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
        for (int i = 0; i < 3; ++i) {
            float vy = c[i].ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : c[i].velocity.y + COURSE_G * COURSE_DT;
            tread_vec3 v = tread_v3(i == 1 ? 0.0f : 3.0f, vy, 0);
            tread_move_result res;
            if (!phases) {
                assert_int_equal(backend ? tread_character_move_on(backend, &c[i], v, COURSE_DT, &res) : tread_character_move(w, &c[i], v, COURSE_DT, &res),
                                 TREAD_OK);
            } else {
                tread_move_state st;
                assert_int_equal(backend ? tread_character_update_on(backend, &c[i], v, COURSE_DT, &st) : tread_character_update(w, &c[i], v, COURSE_DT, &st),
                                 TREAD_OK);
                assert_int_equal(backend ? tread_character_walk_stairs_on(backend, &c[i], &st) : tread_character_walk_stairs(w, &c[i], &st), TREAD_OK);
                assert_int_equal(backend ? tread_character_stick_to_floor_on(backend, &c[i], v, &st) : tread_character_stick_to_floor(w, &c[i], v, &st),
                                 TREAD_OK);
            }
            trail[f * 3 + i] = c[i].position;
        }
    }
}

static void test_on_functions_match_the_world_functions_bit_for_bit(void **state) {
    (void)state;
    enum { FRAMES = 150 };
    static tread_vec3 native[FRAMES * 3], own[FRAMES * 3], other[FRAMES * 3];
    for (int phases = 0; phases < 2; ++phases) {
        tread_world *a = stairs_world(), *b = stairs_world(), *c = stairs_world();
        tread_backend own_backend = tread_world_backend(b);
        public_engine engine;
        tread_backend other_backend = public_backend(&engine, c);
        walk(a, NULL, phases, FRAMES, native);
        walk(b, &own_backend, phases, FRAMES, own);
        walk(c, &other_backend, phases, FRAMES, other);
        assert_memory_equal(native, own, sizeof native);
        assert_memory_equal(native, other, sizeof native);
        assert_true(native[FRAMES * 3 - 3].y > 1.9f); // climbed S1
        // Every move begun on the backend was ended; no query left its move's bounds.
        assert_true(atomic_load(&engine.begun) >= FRAMES * 3);
        assert_int_equal(atomic_load(&engine.begun), atomic_load(&engine.ended));
        assert_int_equal(atomic_load(&engine.outside), 0);
        tread_world_destroy(a);
        tread_world_destroy(b);
        tread_world_destroy(c);
    }
}

static void test_set_settings_and_height_on_a_backend(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(-2, 1.5f, -2), tread_v3(2, 2, 2)); // a ceiling 1.5 m up
    public_engine engine;
    tread_backend backend = public_backend(&engine, w);
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    s.height = 1.2f;
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
    bool changed = true;
    assert_int_equal(tread_character_set_height_on(&backend, &ch, 1.8f, &changed), TREAD_OK);
    assert_false(changed); // the ceiling is in the way, as on the world
    assert_int_equal(tread_character_set_height(w, &ch, 1.8f, &changed), TREAD_OK);
    assert_false(changed);
    assert_int_equal(tread_character_set_height_on(&backend, &ch, 1.0f, &changed), TREAD_OK);
    assert_true(changed);
    s.height = 2.0f;
    assert_int_equal(tread_character_set_settings_on(&backend, &ch, &s), TREAD_ERR_BLOCKED);
    s.height = 1.0f;
    s.max_step_height = 0.3f; // the same shape: no backend needed
    assert_int_equal(tread_character_set_settings_on(NULL, &ch, &s), TREAD_OK);
    s.height = 1.1f;
    assert_int_equal(tread_character_set_settings_on(NULL, &ch, &s), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "backend is NULL"));
    assert_int_equal(atomic_load(&engine.begun), atomic_load(&engine.ended));
    tread_world_destroy(w);
}

// ---- the batch update on backends ---------------------------------------------------------------------------------------

// 40 characters by S1's stairs, a lift and a one-way platform, walking in circles into each other; every frame's
// feet into trail, from tread_batch_move (backend NULL) or tread_batch_move_on, on `threads` threads.
static void crowd(tread_world *w, const tread_backend *backend, int threads, int frames, tread_vec3 *trail) {
    enum { N = 40 };
    tread_batch_def bd = tread_batch_def_default();
    bd.threads = threads;
    tread_batch *b = NULL;
    assert_int_equal(tread_batch_create(&bd, &b), TREAD_OK);
    tread_character c[N];
    tread_vec3 v[N];
    tread_move_result res[N];
    tread_character_settings s = tread_character_settings_default();
    for (int i = 0; i < N; ++i) assert_int_equal(tread_character_init(&c[i], &s, tread_v3(-3.0f + 0.7f * (float)(i % 10), 0, -2.0f + 1.0f * (float)(i / 10))), TREAD_OK);
    for (int f = 0; f < frames; ++f) {
        assert_int_equal(tread_world_advance(w, COURSE_DT), TREAD_OK);
        for (int i = 0; i < N; ++i) {
            float a = 0.05f * (float)f + 0.7f * (float)i, vy = c[i].ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : c[i].velocity.y + COURSE_G * COURSE_DT;
            v[i] = tread_v3(3.0f * tread_cos(a), vy, 3.0f * tread_sin(a));
        }
        assert_int_equal(backend ? tread_batch_move_on(b, backend, c, v, N, COURSE_DT, res) : tread_batch_move(b, w, c, v, N, COURSE_DT, res), TREAD_OK);
        for (int i = 0; i < N; ++i) trail[f * N + i] = c[i].position;
    }
    tread_batch_destroy(b);
}

static void test_batch_on_backends_is_bit_identical(void **state) {
    (void)state;
    enum { FRAMES = 120, N = 40 };
    static tread_vec3 native[FRAMES * N], own[FRAMES * N], other[FRAMES * N];
    tread_world *a = stairs_world(), *b = stairs_world(), *c = stairs_world();
    tread_backend own_backend = tread_world_backend(b);
    public_engine engine;
    tread_backend other_backend = public_backend(&engine, c);
    crowd(a, NULL, 1, FRAMES, native);
    crowd(b, &own_backend, 2, FRAMES, own);
    crowd(c, &other_backend, 2, FRAMES, other);
    assert_memory_equal(native, own, sizeof native);
    assert_memory_equal(native, other, sizeof native);
    assert_int_equal(atomic_load(&engine.begun), atomic_load(&engine.ended));
    assert_int_equal(atomic_load(&engine.outside), 0);
    print_message("batch of %d on backends: %d frames bit-identical; %d backend moves (moves and the batch's nudges)\n", N, FRAMES,
                  atomic_load(&engine.begun));
    tread_world_destroy(a);
    tread_world_destroy(b);
    tread_world_destroy(c);
}

// An engine builds its copy of a query box with tread_query_shape_rotation: side by side along the box's own X, the
// copy and the query are exactly the gap apart, for any up.
static void test_query_shape_rotation_stands_a_box_as_the_queries_do(void **state) {
    (void)state;
    const tread_vec3 ups[3] = {{0, 1, 0}, {0.3f, 0.9f, 0.2f}, {0, 0, 1}};
    tread_query_shape box = tread_query_box(tread_v3(0.3f, 0.9f, 0.2f), ups[0]);
    tread_quat q = tread_query_shape_rotation(&box);
    assert_true(q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 1.0f); // up = +Y: world X, Y, Z
    for (int k = 0; k < 3; ++k) {
        box.up = ups[k];
        q = tread_query_shape_rotation(&box);
        tread_vec3 y = tread_quat_rotate(q, tread_v3(0, 1, 0)), up = tread_v3_normalize(ups[k]);
        assert_true(tread_v3_distance(y, up) < 1e-6f);
        tread_world *w = NULL;
        assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
        tread_body_def def = tread_body_def_default();
        def.shape = tread_shape_box(box.half_extents);
        def.transform.q = q;
        tread_body_id id;
        assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
        const tread_vec3 axes[2] = {{1, 0, 0}, {0, 0, 1}};
        const float sizes[2] = {0.3f, 0.2f};
        for (int a = 0; a < 2; ++a) {
            tread_vec3 beside = tread_v3_scale(tread_quat_rotate(q, axes[a]), 2.0f * sizes[a] + 0.05f);
            tread_distance_result d;
            assert_int_equal(tread_world_closest(w, &box, beside, 1.0f, NULL, &d), TREAD_OK);
            assert_true(d.found && fabsf(d.distance - 0.05f) < 1e-5f);
        }
        tread_world_destroy(w);
    }
    assert_true(tread_query_shape_rotation(NULL).w == 1.0f);
}

// ---- errors ------------------------------------------------------------------------------------------------------------

static void test_a_bad_backend_is_named(void **state) {
    (void)state;
    tread_world *w = course_world();
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0, 0, 0)), TREAD_OK);
    tread_move_result res;
    assert_int_equal(tread_character_move_on(NULL, &ch, tread_v3(1, 0, 0), COURSE_DT, &res), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "backend is NULL"));
    public_engine engine;
    tread_backend b = public_backend(&engine, w);
    b.collect_contacts = NULL;
    tread_move_state st;
    assert_int_equal(tread_character_update_on(&b, &ch, tread_v3(1, 0, 0), COURSE_DT, &st), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "backend->collect_contacts is NULL"));
    tread_backend own = tread_world_backend(NULL);
    assert_int_equal(tread_character_move_on(&own, &ch, tread_v3(1, 0, 0), COURSE_DT, &res), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "backend->context is NULL"));
    tread_batch *batch = NULL;
    tread_batch_def def = tread_batch_def_default(); // (a def built by hand lacks the default's cookie: refused)
    def.capacity = 1, def.separation_passes = 1, def.threads = 1;
    assert_int_equal(tread_batch_create(&def, &batch), TREAD_OK);
    tread_vec3 v = tread_v3(1, 0, 0);
    assert_int_equal(tread_batch_move_on(batch, NULL, &ch, &v, 1, COURSE_DT, &res), TREAD_ERR_NULL_ARGUMENT);
    assert_int_equal(tread_batch_move_on(NULL, &own, &ch, &v, 1, COURSE_DT, &res), TREAD_ERR_NULL_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "batch is NULL"));
    tread_batch_destroy(batch);
    tread_world_destroy(w);
}

// A backend whose answers name the null body, or whose begin_move fails: the move fails, the character is unchanged.
static void bad_cast(void *context, void *move, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                     const tread_query_filter *filter, tread_shape_hit *out_hit) {
    public_cast(context, move, shape, position, translation, filter, out_hit);
    if (out_hit->hit) out_hit->body.generation = 0u;
}

static tread_result failing_begin(void *context, const tread_aabb *bounds, void **out_move) {
    (void)context, (void)bounds, (void)out_move;
    return TREAD_ERR_OUT_OF_MEMORY;
}

static void test_a_backend_breaking_the_contract_changes_nothing(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_stairs(w);
    tread_character ch;
    tread_character_settings s = tread_character_settings_default();
    assert_int_equal(tread_character_init(&ch, &s, tread_v3(0.65f, 0, 0)), TREAD_OK); // walking into S1's first riser
    tread_character before = ch;
    public_engine engine;
    tread_backend b = public_backend(&engine, w);
    b.cast_shape = bad_cast;
    tread_move_result res;
    assert_int_equal(tread_character_move_on(&b, &ch, tread_v3(4, 0, 0), COURSE_DT, &res), TREAD_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(tread_error_message(), "backend->cast_shape named body"));
    assert_memory_equal(&ch, &before, sizeof ch);
    assert_int_equal(atomic_load(&engine.begun), atomic_load(&engine.ended)); // ended on the error too
    b = public_backend(&engine, w);
    b.begin_move = failing_begin;
    assert_int_equal(tread_character_move_on(&b, &ch, tread_v3(4, 0, 0), COURSE_DT, &res), TREAD_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(tread_error_message(), "backend->begin_move failed"));
    assert_memory_equal(&ch, &before, sizeof ch);
    assert_int_equal(atomic_load(&engine.ended), 0); // nothing begun, nothing ended
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conformance_on_tread_world_backend),
        cmocka_unit_test(test_conformance_on_a_backend_over_the_public_api),
        cmocka_unit_test(test_conformance_catches_a_broken_backend),
        cmocka_unit_test(test_on_functions_match_the_world_functions_bit_for_bit),
        cmocka_unit_test(test_set_settings_and_height_on_a_backend),
        cmocka_unit_test(test_batch_on_backends_is_bit_identical),
        cmocka_unit_test(test_query_shape_rotation_stands_a_box_as_the_queries_do),
        cmocka_unit_test(test_a_bad_backend_is_named),
        cmocka_unit_test(test_a_backend_breaking_the_contract_changes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
