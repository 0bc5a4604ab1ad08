// SPDX-License-Identifier: MIT
// Determinism across builds and threads: a hash of every character's state (feet, velocity, ground state, ground
// body) after the course's P1 and P3 runs (the benchmark's own worlds and steering, shortened) is pinned here. Every
// build `make test` makes (gcc -O2 Release, gcc -O0 with sanitizers, clang -O2: `make determinism`) must give the
// same bits, on 1, 2 and 8 threads of a batch's pool. A change that moves any character by one ulp changes the
// hash: pin the new value only for a change meant to move characters, and say so in its commit.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "course.h"
#include "runs.h"

// The frames run: enough for every character to fall, land, walk and meet others.
#define P1_FRAMES 90
#define P3_FRAMES 240

// The pinned hashes (FNV-1a over the state bytes listed above).
#define P1_HASH 0xec95bddd0b35a9b8ull
#define P3_HASH 0xeb93ee0a52ffb0c8ull

static void mix(uint64_t *h, const void *data, size_t size) {
    const unsigned char *b = (const unsigned char *)data;
    for (size_t i = 0; i < size; ++i) *h = (*h ^ b[i]) * 0x100000001b3ull;
}

static uint64_t state_hash(const crowd *c) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < c->count; ++i) {
        const tread_character *ch = &c->ch[i];
        mix(&h, &ch->position, sizeof ch->position);
        mix(&h, &ch->velocity, sizeof ch->velocity);
        int32_t state = (int32_t)ch->ground.state;
        mix(&h, &state, sizeof state);
        mix(&h, &ch->ground.body.index, sizeof ch->ground.body.index);
    }
    return h;
}

static const run_def *run_named(const char *name) {
    for (int i = 0; i < bench_run_count; ++i)
        if (strcmp(bench_runs[i].name, name) == 0) return &bench_runs[i];
    fail_msg("no bench run named %s", name);
    return NULL;
}

// Run `name` for `frames` frames; with a batch, on a pool of `threads` threads.
static uint64_t run(const char *name, int frames, int threads) {
    crowd c;
    assert_true(crowd_setup(run_named(name), &c));
    if (c.batch) {
        tread_batch_destroy(c.batch);
        tread_batch_def bd = tread_batch_def_default();
        bd.threads = threads;
        assert_int_equal(tread_batch_create(&bd, &c.batch), TREAD_OK);
    }
    for (int f = 0; f < frames; ++f) {
        c.steer(&c, f);
        if (c.batch) {
            assert_int_equal(tread_batch_move(c.batch, c.world, c.ch, c.velocity, c.count, COURSE_DT, c.results), TREAD_OK);
            continue;
        }
        tread_move_result res;
        for (int i = 0; i < c.count; ++i) assert_int_equal(tread_character_move(c.world, &c.ch[i], c.velocity[i], COURSE_DT, &res), TREAD_OK);
    }
    uint64_t h = state_hash(&c);
    crowd_free(&c);
    return h;
}

static void check(const char *what, uint64_t got, uint64_t pinned) {
    print_message("%s: state hash 0x%016llx\n", what, (unsigned long long)got);
    if (got != pinned) fail_msg("%s: state hash 0x%016llx, pinned 0x%016llx", what, (unsigned long long)got, (unsigned long long)pinned);
}

static void test_p1_hash(void **state) {
    (void)state;
    check("P1", run("P1", P1_FRAMES, 1), P1_HASH);
}

static void test_p3_hash_on_any_number_of_threads(void **state) {
    (void)state;
    const int threads[] = {1, 2, 8};
    for (size_t k = 0; k < sizeof threads / sizeof threads[0]; ++k) {
        char what[64];
        snprintf(what, sizeof what, "P3 with character-vs-character, %d threads", threads[k]);
        check(what, run("P3-cvc", P3_FRAMES, threads[k]), P3_HASH);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p1_hash),
        cmocka_unit_test(test_p3_hash_on_any_number_of_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
