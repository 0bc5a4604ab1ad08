// SPDX-License-Identifier: MIT
// The project's own sine and cosine (src/trig.c) against libm's double-precision sin and cos, which are accurate to
// well under a float ulp: within 1 float ulp everywhere (the whole float range, the points closest to multiples of
// pi/2, both reductions and their border), exact signs and special values, and the double versions the world turns
// bodies with to a few double ulps.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tread/tread.h"
#include "core.h"

static uint64_t rng_state = 0x5eed1234u;
static uint64_t splitmix64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float float_of_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

// Distance in float ulps: floats mapped to integers in the order of the reals.
static int64_t ordered(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (u >> 31) ? -(int64_t)(u & 0x7fffffffu) : (int64_t)u;
}

// Error of a float result in ulps of float at the true value `exact` (double; from libm).
static double ulps(float got, double exact) {
    float rounded = (float)exact;
    double gap = ldexp(1.0, (rounded == 0.0f ? -149 : ilogbf(rounded) - 23));
    if (fabs(exact) < FLT_MIN) gap = ldexp(1.0, -149);
    return fabs((double)got - exact) / gap;
}

typedef struct worst {
    double sin_ulps, cos_ulps;
    float sin_at, cos_at;
    long count;
} worst;

static void measure(worst *w, float x) {
    double es = sin((double)x), ec = cos((double)x);
    double us = ulps(tread_sin(x), es), uc = ulps(tread_cos(x), ec);
    if (us > w->sin_ulps) w->sin_ulps = us, w->sin_at = x;
    if (uc > w->cos_ulps) w->cos_ulps = uc, w->cos_at = x;
    ++w->count;
}

static void expect_within_one_ulp(const worst *w, const char *what) {
    printf("  %s: %ld floats, worst sin %.3f ulp at %a, worst cos %.3f ulp at %a\n", what, w->count, w->sin_ulps,
           (double)w->sin_at, w->cos_ulps, (double)w->cos_at);
    if (w->sin_ulps > 1.0) fail_msg("%s: tread_sin(%a) is %.3f ulp off", what, (double)w->sin_at, w->sin_ulps);
    if (w->cos_ulps > 1.0) fail_msg("%s: tread_cos(%a) is %.3f ulp off", what, (double)w->cos_at, w->cos_ulps);
}

// Angles a game meets: |x| <= 8 pi, densely.
static void test_sin_cos_small_angles(void **state) {
    (void)state;
    worst w = {0};
    for (int i = 0; i < 400000; ++i) {
        float x = (float)((double)(splitmix64() >> 11) * 0x1p-53 * 50.0 - 25.0);
        measure(&w, x);
    }
    for (int i = -2000; i <= 2000; ++i) measure(&w, (float)i * 0.01f);
    expect_within_one_ulp(&w, "|x| <= 25");
}

// Random bit patterns: every exponent, both signs, so both reductions (Cody-Waite below 2^25, Payne-Hanek above)
// and their border are met.
static void test_sin_cos_whole_float_range(void **state) {
    (void)state;
    worst w = {0};
    for (int i = 0; i < 600000; ++i) {
        float x = float_of_bits((uint32_t)splitmix64());
        if (!isfinite(x)) continue;
        measure(&w, x);
    }
    // Around the border of the two reductions, 2^25, and the largest floats.
    float border = 33554432.0f;
    for (int i = 0; i < 2000; ++i) {
        measure(&w, nextafterf(border, 0.0f) - (float)i * 2.0f);
        measure(&w, border + (float)i * 4.0f);
        measure(&w, -border - (float)i * 4.0f);
    }
    float big = FLT_MAX;
    for (int i = 0; i < 2000; ++i, big = nextafterf(big, 0.0f)) measure(&w, big);
    expect_within_one_ulp(&w, "all finite floats (random)");
}

// The floats nearest to multiples of pi/2 leave the smallest remainders, where a careless reduction loses every
// digit: sin or cos there is tiny and must still be right to the ulp.
static void test_sin_cos_near_multiples_of_half_pi(void **state) {
    (void)state;
    worst w = {0};
    for (long k = 1; k < 2000000; k = k < 1000 ? k + 1 : k + k / 97) {
        float x = (float)((double)k * 1.5707963267948966);
        for (int d = -2; d <= 2; ++d) {
            float y = x;
            for (int s = 0; s < (d < 0 ? -d : d); ++s) y = d < 0 ? nextafterf(y, 0.0f) : nextafterf(y, INFINITY);
            measure(&w, y);
            measure(&w, -y);
        }
    }
    // The floats with the smallest remainders of all, 1e-9 to 1.2e-8 of a quadrant, found by searching every
    // mantissa of every exponent.
    static const float hard[] = {0x1.f37c8ap+95f, 0x1.47d0fep+34f, 0x1.f9cbe2p+7f, 0x1.32ede2p+85f, 0x1.628d4cp+40f, 0x1.13093p+76f,
                                 0x1.b08c4ap+111f, 0x1.4665d2p+25f, 0x1.2d97c8p+2f, 0x1.9a48dep+15f, 0x1.4ac55cp+21f};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; ++i) {
        measure(&w, hard[i]);
        measure(&w, -hard[i]);
    }
    expect_within_one_ulp(&w, "near multiples of pi/2");
}

static void test_sin_cos_special_values(void **state) {
    (void)state;
    assert_true(tread_sin(0.0f) == 0.0f && !signbit(tread_sin(0.0f)));
    assert_true(tread_sin(-0.0f) == 0.0f && signbit(tread_sin(-0.0f))); // sin keeps the sign of zero
    assert_true(tread_cos(0.0f) == 1.0f && tread_cos(-0.0f) == 1.0f);
    assert_true(tread_sin(FLT_TRUE_MIN) == FLT_TRUE_MIN); // sin x = x for tiny x
    assert_true(tread_sin(1e-20f) == 1e-20f && tread_cos(1e-20f) == 1.0f);
    assert_true(isnan(tread_sin(NAN)) && isnan(tread_cos(NAN)));
    assert_true(isnan(tread_sin(INFINITY)) && isnan(tread_cos(-INFINITY)));
    // Odd and even, bit for bit.
    for (int i = 0; i < 10000; ++i) {
        float x = float_of_bits((uint32_t)splitmix64() & 0x7fffffffu);
        if (!isfinite(x)) continue;
        assert_true(ordered(tread_sin(-x)) == -ordered(tread_sin(x)));
        assert_true(ordered(tread_cos(-x)) == ordered(tread_cos(x)));
    }
    // Always within [-1, 1].
    for (int i = 0; i < 10000; ++i) {
        float x = float_of_bits((uint32_t)splitmix64());
        if (!isfinite(x)) continue;
        assert_true(fabsf(tread_sin(x)) <= 1.0f && fabsf(tread_cos(x)) <= 1.0f);
    }
}

// The double version the world turns bodies with, over its whole range (|x| <= 2^25): a few double ulps at most.
static void test_double_sincos(void **state) {
    (void)state;
    double largest = 0.0, at = 0.0;
    for (int i = 0; i < 300000; ++i) {
        double x = ((double)(splitmix64() >> 11) * 0x1p-53 * 2.0 - 1.0) * (i % 3 == 0 ? 10.0 : (i % 3 == 1 ? 1e4 : TR_SINCOS_MAX));
        double s, c;
        tr_sincos(x, &s, &c);
        double e = fmax(fabs(s - sin(x)), fabs(c - cos(x)));
        if (e > largest) largest = e, at = x;
    }
    printf("  tr_sincos: worst absolute error %.3g at %.17g\n", largest, at);
    assert_true(largest < 4e-16);
}

// tread_quat_from_axis_angle rides on them: the rotation of 90 degrees about +Y turns +X to -Z.
// The arctangent the controller reports a platform's turn with: within 1e-15 rad of libm's over every direction,
// exact at the axes and the diagonals' signs.
static void test_atan2(void **state) {
    (void)state;
    double largest = 0.0;
    for (int i = 0; i <= 100000; ++i) {
        double a = -3.14159265358979 + 6.28318530717958 * i / 100000.0, r = 0.5 + (i % 7);
        double y = r * sin(a), x = r * cos(a);
        largest = fmax(largest, fabs(tr_atan2(y, x) - atan2(y, x)));
    }
    print_message("atan2: largest difference from libm %.3g rad\n", largest);
    assert_true(largest < 1e-15);
    assert_true(tr_atan2(0.0, 0.0) == 0.0);
    assert_true(tr_atan2(0.0, -1.0) == atan2(0.0, -1.0));
    assert_true(tr_atan2(1.0, 0.0) == atan2(1.0, 0.0) && tr_atan2(-1.0, 0.0) == atan2(-1.0, 0.0));
    assert_true(tr_atan2(1e-300, 1.0) == 1e-300);
    assert_true(isnan(tr_atan2(NAN, 1.0)));
}

static void test_quat_from_axis_angle(void **state) {
    (void)state;
    tread_quat q = tread_quat_from_axis_angle(tread_v3(0, 2, 0), 1.5707963267948966f);
    tread_vec3 v = tread_quat_rotate(q, tread_v3(1, 0, 0));
    assert_float_equal(v.x, 0.0f, 1e-7f);
    assert_float_equal(v.z, -1.0f, 1e-7f);
    for (int i = 0; i < 1000; ++i) {
        float a = (float)((double)(splitmix64() >> 11) * 0x1p-53 * 40.0 - 20.0);
        tread_quat r = tread_quat_from_axis_angle(tread_v3(0.6f, 0.0f, 0.8f), a);
        assert_true(fabs((double)r.w - cos(0.5 * (double)(0.5f * a) * 2.0)) <= 6e-8);
        assert_true(fabs(sqrt((double)r.x * r.x + (double)r.y * r.y + (double)r.z * r.z) - fabs(sin((double)(0.5f * a)))) <= 1.2e-7);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sin_cos_small_angles),
        cmocka_unit_test(test_atan2),
        cmocka_unit_test(test_sin_cos_whole_float_range),
        cmocka_unit_test(test_sin_cos_near_multiples_of_half_pi),
        cmocka_unit_test(test_sin_cos_special_values),
        cmocka_unit_test(test_double_sincos),
        cmocka_unit_test(test_quat_from_axis_angle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
