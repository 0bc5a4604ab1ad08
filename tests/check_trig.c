// SPDX-License-Identifier: MIT
// `make check-trig`: the project's own sine and cosine (src/trig.c) against libm over every float, outside
// `make test` (minutes, not seconds; tests/test_trig.c samples the same claims in a second). Checks what the docs
// claim of them (include/tread/tread.h, docs/DESIGN.md "Determinism", README "Deterministic"):
//   - tread_sin and tread_cos are within 1 float ulp of the true value for every finite float (the bound: exit 1
//     beyond it), with the true value taken from libm's double sin and cos;
//   - they equal libm's double sin and cos rounded to float for every finite float (the docs say glibc's; counted,
//     and exit 1 on any difference, since the docs claim none);
//   - NaN for NaN and infinite inputs, |result| <= 1, sin odd and cos even bit for bit;
//   - the double tr_sincos that turns bodies (every float |x| <= TR_SINCOS_MAX = 2^25) within 4e-16 of libm's
//     double sin and cos (tests/test_trig.c's bound: "a few double ulps").
// Every one of the 2^32 bit patterns is tried, split over --jobs threads (default 2).
//   check_trig [--jobs N] [--stride K]     (--stride K tries every K-th pattern, for a quick look)
#define _POSIX_C_SOURCE 200809L // clock_gettime
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tread/tread.h"
#include "core.h"

#define DOUBLE_BOUND 4e-16 // tr_sincos's largest absolute error against libm (tests/test_trig.c)

typedef struct tally {
    uint32_t first, last; // bit patterns [first, last]
    uint32_t stride;
    double sin_ulps, cos_ulps; // worst, against libm's double
    float sin_at, cos_at;
    uint64_t finite, sin_differs, cos_differs; // differences from libm's double rounded to float
    float sin_differs_at, cos_differs_at;
    uint64_t bad_special, bad_range, bad_symmetry;
    float bad_at;
    double double_err; // tr_sincos, absolute
    float double_at;
    uint64_t double_count;
} tally;

static float float_of_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

// Error of a float result in ulps of float at the true value `exact` (the same measure as tests/test_trig.c).
static double ulps(float got, double exact) {
    float rounded = (float)exact;
    double gap = ldexp(1.0, (rounded == 0.0f ? -149 : ilogbf(rounded) - 23));
    if (fabs(exact) < FLT_MIN) gap = ldexp(1.0, -149);
    return fabs((double)got - exact) / gap;
}

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static void *run(void *arg) {
    tally *t = arg;
    for (uint64_t u = t->first; u <= t->last; u += t->stride) {
        float x = float_of_bits((uint32_t)u);
        float s = tread_sin(x), c = tread_cos(x);
        if (!isfinite(x)) {
            if (!isnan(s) || !isnan(c)) ++t->bad_special, t->bad_at = x;
            continue;
        }
        ++t->finite;
        double es = sin((double)x), ec = cos((double)x);
        double us = ulps(s, es), uc = ulps(c, ec);
        if (us > t->sin_ulps) t->sin_ulps = us, t->sin_at = x;
        if (uc > t->cos_ulps) t->cos_ulps = uc, t->cos_at = x;
        if (!same_bits(s, (float)es)) {
            if (!t->sin_differs) t->sin_differs_at = x;
            ++t->sin_differs;
        }
        if (!same_bits(c, (float)ec)) {
            if (!t->cos_differs) t->cos_differs_at = x;
            ++t->cos_differs;
        }
        if (!(fabsf(s) <= 1.0f && fabsf(c) <= 1.0f)) ++t->bad_range, t->bad_at = x;
        // Odd and even, bit for bit: checked from the positive half against the negative one.
        if (!((uint32_t)u >> 31)) {
            float sn = tread_sin(-x), cn = tread_cos(-x);
            if (!same_bits(sn, -s) || !same_bits(cn, c)) ++t->bad_symmetry, t->bad_at = x;
        }
        if (fabsf(x) <= (float)TR_SINCOS_MAX) {
            double ds, dc;
            tr_sincos((double)x, &ds, &dc);
            double e = fmax(fabs(ds - es), fabs(dc - ec));
            if (e > t->double_err) t->double_err = e, t->double_at = x;
            ++t->double_count;
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    int jobs = 2;
    uint32_t stride = 1;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--jobs") && i + 1 < argc) jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--stride") && i + 1 < argc) stride = (uint32_t)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: check_trig [--jobs N] [--stride K]\n");
            return 2;
        }
    }
    if (jobs < 1 || jobs > 64 || stride < 1) {
        fprintf(stderr, "check_trig: --jobs 1-64, --stride >= 1\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    // Interleaved chunks would balance better, but the cost per float is nearly flat (the Payne-Hanek floats cost a
    // little more): split the 2^32 patterns into `jobs` contiguous ranges of whole strides.
    tally parts[64];
    pthread_t threads[64];
    uint64_t total = (uint64_t)1 << 32, per = (total / (uint64_t)jobs + stride - 1) / stride * stride;
    for (int j = 0; j < jobs; ++j) {
        memset(&parts[j], 0, sizeof parts[j]);
        uint64_t first = per * (uint64_t)j, last = j == jobs - 1 ? total - 1 : per * (uint64_t)(j + 1) - 1;
        parts[j].first = (uint32_t)first, parts[j].last = (uint32_t)last, parts[j].stride = stride;
        if (pthread_create(&threads[j], NULL, run, &parts[j]) != 0) {
            fprintf(stderr, "check_trig: cannot start a thread\n");
            return 2;
        }
    }
    tally all;
    memset(&all, 0, sizeof all);
    for (int j = 0; j < jobs; ++j) {
        pthread_join(threads[j], NULL);
        tally *p = &parts[j];
        if (p->sin_ulps > all.sin_ulps) all.sin_ulps = p->sin_ulps, all.sin_at = p->sin_at;
        if (p->cos_ulps > all.cos_ulps) all.cos_ulps = p->cos_ulps, all.cos_at = p->cos_at;
        if (p->sin_differs && !all.sin_differs) all.sin_differs_at = p->sin_differs_at;
        if (p->cos_differs && !all.cos_differs) all.cos_differs_at = p->cos_differs_at;
        if (p->bad_special + p->bad_range + p->bad_symmetry) all.bad_at = p->bad_at;
        if (p->double_err > all.double_err) all.double_err = p->double_err, all.double_at = p->double_at;
        all.finite += p->finite, all.sin_differs += p->sin_differs, all.cos_differs += p->cos_differs;
        all.bad_special += p->bad_special, all.bad_range += p->bad_range, all.bad_symmetry += p->bad_symmetry;
        all.double_count += p->double_count;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);

    printf("check_trig: %llu finite floats (every %u-th of the 2^32 bit patterns), %d threads, %.0f s\n",
           (unsigned long long)all.finite, stride, jobs, seconds);
    printf("  tread_sin: worst %.4f ulp at %a; %llu differ from libm's double sin rounded to float", all.sin_ulps,
           (double)all.sin_at, (unsigned long long)all.sin_differs);
    if (all.sin_differs) printf(" (one at %a)", (double)all.sin_differs_at);
    printf("\n  tread_cos: worst %.4f ulp at %a; %llu differ from libm's double cos rounded to float", all.cos_ulps,
           (double)all.cos_at, (unsigned long long)all.cos_differs);
    if (all.cos_differs) printf(" (one at %a)", (double)all.cos_differs_at);
    printf("\n");
    printf("  tr_sincos (double, %llu floats |x| <= 2^25): worst absolute error %.3g at %a (bound %.0e)\n",
           (unsigned long long)all.double_count, all.double_err, (double)all.double_at, DOUBLE_BOUND);
    printf("  special values (NaN, infinities) not NaN: %llu; |result| > 1: %llu; odd/even broken: %llu\n",
           (unsigned long long)all.bad_special, (unsigned long long)all.bad_range, (unsigned long long)all.bad_symmetry);

    int failed = 0;
    if (all.sin_ulps > 1.0 || all.cos_ulps > 1.0) {
        printf("FAIL: beyond the documented 1 ulp\n");
        failed = 1;
    }
    if (all.sin_differs || all.cos_differs) {
        printf("FAIL: the docs claim tread_sin/tread_cos equal libm's double result rounded to float for every finite float\n");
        failed = 1;
    }
    if (all.double_err > DOUBLE_BOUND) {
        printf("FAIL: tr_sincos beyond %.0e\n", DOUBLE_BOUND);
        failed = 1;
    }
    if (all.bad_special || all.bad_range || all.bad_symmetry) {
        printf("FAIL: a special value, the range [-1, 1] or the symmetry, first at %a\n", (double)all.bad_at);
        failed = 1;
    }
    if (!failed) printf("check_trig: ok\n");
    return failed;
}
