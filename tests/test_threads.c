// SPDX-License-Identifier: MIT
// The threading contract of tread.h: any number of threads may query one world and move their own characters at
// once while no thread writes the world. Four threads, each moving its own characters over stairs and querying the
// world, must end exactly where one thread moving them all ends (results never depend on scheduling), and each
// thread's error message is its own. `make tsan` runs this program under ThreadSanitizer.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>

#include "tread/tread.h"

#define THREADS 4
#define PER_THREAD 16
#define FRAMES 240
#define DT (1.0f / 60.0f)

static void add_box(tread_world *w, tread_vec3 lo, tread_vec3 hi) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3_scale(tread_v3_sub(hi, lo), 0.5f));
    def.transform.p = tread_v3_scale(tread_v3_add(hi, lo), 0.5f);
    tread_body_id id;
    assert_int_equal(tread_world_add_body(w, &def, &id), TREAD_OK);
}

// A floor and, along +x, five 0.2 m steps of 0.3 m treads, 40 m wide: every character climbs them.
static tread_world *stairs_world(void) {
    tread_world *w = NULL;
    assert_int_equal(tread_world_create(NULL, &w), TREAD_OK);
    add_box(w, tread_v3(-50, -1, -50), tread_v3(50, 0, 50));
    for (int k = 0; k < 5; ++k) add_box(w, tread_v3(2.0f + 0.3f * (float)k, 0, -20), tread_v3(30, 0.2f * (float)(k + 1), 20));
    return w;
}

typedef struct job {
    const tread_world *world;
    tread_character characters[PER_THREAD];
    int first; // index of the first character: its lane and speed
    tread_result status;
    char message[256]; // this thread's error message after a call it made fail
} job;

static tread_vec3 lane_start(int i) { return tread_v3(0.0f, 0.0f, -16.0f + 0.5f * (float)i); }
static float lane_speed(int i) { return 2.0f + 0.05f * (float)i; }

static void *run_job(void *arg) {
    job *j = arg;
    j->status = TREAD_OK;
    tread_query_shape probe = tread_query_sphere(0.25f);
    for (int f = 0; f < FRAMES && j->status == TREAD_OK; ++f) {
        for (int c = 0; c < PER_THREAD && j->status == TREAD_OK; ++c) {
            tread_move_result res;
            j->status = tread_character_move(j->world, &j->characters[c], tread_v3(lane_speed(j->first + c), 0, 0), DT, &res);
        }
        // Reads of the world between moves, from every thread at once.
        tread_shape_hit hit;
        if (j->status == TREAD_OK)
            j->status = tread_world_cast_shape(j->world, &probe, tread_v3(0, 3, (float)j->first), tread_v3(6, -3, 0), NULL, &hit);
    }
    // A failing call names this thread's own bad argument.
    tread_move_result res;
    if (tread_character_move(j->world, &j->characters[0], tread_v3(NAN, 0, 0), DT, &res) == TREAD_OK) j->status = TREAD_ERR_INVALID_ARGUMENT;
    strncpy(j->message, tread_error_message(), sizeof j->message - 1);
    return NULL;
}

static void init_job(job *j, const tread_world *w, int first) {
    memset(j, 0, sizeof *j);
    j->world = w;
    j->first = first;
    tread_character_settings s = tread_character_settings_default();
    for (int c = 0; c < PER_THREAD; ++c) assert_int_equal(tread_character_init(&j->characters[c], &s, lane_start(first + c)), TREAD_OK);
}

static void test_threads_match_one_thread(void **state) {
    (void)state;
    tread_world *w = stairs_world();
    static job alone[THREADS], together[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        init_job(&alone[t], w, t * PER_THREAD);
        init_job(&together[t], w, t * PER_THREAD);
    }
    for (int t = 0; t < THREADS; ++t) run_job(&alone[t]); // one thread, one after the other
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t) assert_int_equal(pthread_create(&threads[t], NULL, run_job, &together[t]), 0);
    for (int t = 0; t < THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
    for (int t = 0; t < THREADS; ++t) {
        assert_int_equal(together[t].status, TREAD_OK);
        assert_non_null(strstr(together[t].message, "velocity"));
        for (int c = 0; c < PER_THREAD; ++c) {
            // Bit-identical, and up the stairs (1.0 m) well past the last riser.
            const tread_character *a = &together[t].characters[c], *b = &alone[t].characters[c];
            assert_memory_equal(&a->position, &b->position, sizeof a->position);
            assert_memory_equal(&a->velocity, &b->velocity, sizeof a->velocity);
            assert_int_equal(a->ground.state, b->ground.state);
            assert_true(together[t].characters[c].position.y > 0.99f);
            assert_true(together[t].characters[c].position.x > 4.0f);
        }
    }
    tread_world_destroy(w);
}

// The batch update's built-in pool: 64 characters up the stairs on 4 threads end exactly where one thread leaves
// them (under ThreadSanitizer: no data race between the moves).
static void test_batch_pool_matches_one_thread(void **state) {
    (void)state;
    enum { N = THREADS * PER_THREAD };
    tread_world *w = stairs_world();
    static tread_character c[2][N];
    static tread_move_result res[2][N];
    tread_vec3 v[N];
    tread_character_settings s = tread_character_settings_default();
    for (int i = 0; i < N; ++i) {
        assert_int_equal(tread_character_init(&c[0][i], &s, tread_v3(0.0f, 0.002f, -3.0f + 0.4f * (float)i / 4.0f)), TREAD_OK);
        c[1][i] = c[0][i];
        v[i] = tread_v3(1.5f, -1.0f, 0.0f);
    }
    tread_batch *b[2];
    for (int k = 0; k < 2; ++k) {
        tread_batch_def bd = tread_batch_def_default();
        bd.threads = k ? THREADS : 1;
        assert_int_equal(tread_batch_create(&bd, &b[k]), TREAD_OK);
    }
    for (int f = 0; f < FRAMES; ++f)
        for (int k = 0; k < 2; ++k) assert_int_equal(tread_batch_move(b[k], w, c[k], v, N, DT, res[k]), TREAD_OK);
    assert_memory_equal(c[1], c[0], sizeof c[0]);
    for (int k = 0; k < 2; ++k) tread_batch_destroy(b[k]);
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_match_one_thread),
        cmocka_unit_test(test_batch_pool_matches_one_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
