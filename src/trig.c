// SPDX-License-Identifier: MIT
// The project's own sine and cosine: the same bits on every compiler and libm, so a body turned by
// tread_world_advance, and every rotation built from an axis and an angle, is identical everywhere. Only +, -, *, /
// and integer arithmetic, in double (IEEE-754 binary64, no fused multiply-add: see core.h), rounded to float at the
// end for the public functions.
//
// Reduction: x = r + k * pi/2 with |r| <= pi/4 (and a little rounding). Below 2^25 rad by Cody and Waite: pi/2 in
// three parts, the first two short enough (27 and 28 significant bits) that k * part is exact for |k| < 2^25, the
// third a full double; together they hold pi/2 to 2^-114. From 2^25 rad on (floats only: such a float is an integer
// multiple of 4), by Payne and Hanek: x * 2/pi is formed exactly enough from a 256-bit table of 2/pi, keeping only
// the bits that matter modulo 4 quadrants.
//
// Approximation: the Taylor series of sin to r^15 and of cos to r^16 on |r| <= pi/4, whose truncation is below
// 7e-17 relative there; evaluated in double, the float results are within 1 ulp of the true values
// (tests/test_trig.c measures them against a double-precision libm over the whole float range; run once over all
// 4,278,190,080 finite floats, every result equalled glibc's double sin or cos rounded to float).
#include "core.h"
#include "tread/tread.h" // (its public functions: declared there, exported as declared)

#include <stdint.h>

// pi/2 = TR_PIO2_1 + TR_PIO2_2 + TR_PIO2_3 (+ 4.3e-35).
#define TR_PIO2_1 0x1.921fb54p+0
#define TR_PIO2_2 0x1.10b4612p-30
#define TR_PIO2_3 (-0x1.676733ae8fe48p-60)
#define TR_PIO2 0x1.921fb54442d18p+0
#define TR_TWO_OVER_PI 0x1.45f306dc9c883p-1

// The fractional bits of 2/pi, most significant first (2/pi = 0.a2f9836e 4e441529 ... in hexadecimal).
static const uint32_t two_over_pi_bits[8] = {0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u,
                                             0xdb629599u, 0x3c439041u, 0xfe5163abu, 0xdebbc561u};

// sin and cos of r, |r| <= pi/4 (slightly beyond is harmless): Taylor polynomials in r^2, Horner's rule.
static void sincos_kernel(double r, double *s, double *c) {
    double z = r * r;
    if (z == 0.0) { // r is 0, -0 or so small that sin r = r (keeping the sign of zero) and cos r = 1
        *s = r, *c = 1.0;
        return;
    }
    double ps = -1.0 / 6.0 + z * (1.0 / 120.0 + z * (-1.0 / 5040.0 + z * (1.0 / 362880.0 + z * (-1.0 / 39916800.0 +
                z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0))))));
    double pc = 1.0 / 24.0 + z * (-1.0 / 720.0 + z * (1.0 / 40320.0 + z * (-1.0 / 3628800.0 + z * (1.0 / 479001600.0 +
                z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0))))));
    *s = r + r * z * ps;
    *c = 1.0 - 0.5 * z + z * z * pc;
}

// sin and cos of r + quadrant * pi/2.
static void sincos_quadrant(double r, int64_t quadrant, double *s, double *c) {
    double sr, cr;
    sincos_kernel(r, &sr, &cr);
    switch ((int)(quadrant & 3)) {
    case 0: *s = sr, *c = cr; break;
    case 1: *s = cr, *c = -sr; break;
    case 2: *s = -sr, *c = -cr; break;
    default: *s = -cr, *c = sr; break;
    }
}

void tr_sincos(double x, double *s, double *c) {
    TR_ASSERT(s && c);
    if (!(x - x == 0.0)) { // NaN or infinite
        *s = *c = x - x;
        return;
    }
    TR_ASSERT(x >= -TR_SINCOS_MAX && x <= TR_SINCOS_MAX);
    // The nearest quadrant; |k| < 2^25, so k times the two short parts is exact, and x - k * TR_PIO2_1 is exact too
    // (the two are within a factor of 2 of each other when k != 0).
    double kd = x * TR_TWO_OVER_PI;
    int64_t k = (int64_t)(kd < 0.0 ? kd - 0.5 : kd + 0.5);
    double kf = (double)k;
    // k = 0 leaves x itself (also its sign when it is -0).
    double r = k == 0 ? x : ((x - kf * TR_PIO2_1) - kf * TR_PIO2_2) - kf * TR_PIO2_3;
    sincos_quadrant(r, k, s, c);
}

// Bits [first, first + 96) of 2/pi's fractional part (bit 1 is the first after the point) as three 32-bit words.
static void two_over_pi_window(int first, uint32_t out[3]) {
    int word = (first - 1) / 32, shift = (first - 1) % 32;
    for (int i = 0; i < 3; ++i) {
        uint64_t pair = ((uint64_t)two_over_pi_bits[word + i] << 32) | two_over_pi_bits[word + i + 1];
        out[i] = (uint32_t)(pair >> (32 - shift));
    }
}

// |x| >= 2^25, finite: x = m * 2^e with m a 24-bit integer and e >= 2. Bits of 2/pi of weight >= 4 / (m 2^e)
// contribute whole multiples of 4 quadrants and are skipped; the next 96 bits, times m, give the quadrant and a
// 64-bit fraction of it (the bits further on change it by less than 2^-70).
static void sincos_huge(float x, double *s, double *c) {
    union { float f; uint32_t u; } bits = {x};
    int e = (int)((bits.u >> 23) & 0xffu) - 150;
    uint64_t m = (bits.u & 0x7fffffu) | 0x800000u;
    TR_ASSERT(e >= 2 && e <= 104);
    uint32_t w[3];
    two_over_pi_window(e - 1, w);
    // m * W, W = w[0] w[1] w[2] (96 bits): x * 2/pi = m * W * 2^-94 modulo 4.
    uint64_t p2 = m * w[2];
    uint64_t p1 = m * w[1] + (p2 >> 32);
    uint64_t p0 = m * w[0] + (p1 >> 32);
    int64_t quadrant = (int64_t)((p0 >> 30) & 3u);
    uint64_t fraction = ((p0 & 0x3fffffffu) << 34) | ((p1 & 0xffffffffu) << 2) | ((p2 & 0xffffffffu) >> 30);
    // To the nearest quadrant: a fraction of one half or more is the next quadrant minus (1 - fraction), which is
    // what the same 64 bits read as a signed number.
    if (fraction >> 63) ++quadrant;
    int64_t signed_fraction = (int64_t)fraction;
    double r = (double)signed_fraction * 0x1p-64 * TR_PIO2;
    if (bits.u >> 31) { // x < 0: sin is odd, cos even
        sincos_quadrant(r, quadrant, s, c);
        *s = -*s;
        return;
    }
    sincos_quadrant(r, quadrant, s, c);
}

void tr_sincosf(float x, double *s, double *c) {
    TR_ASSERT(s && c);
    if (x >= -TR_SINCOS_MAX && x <= TR_SINCOS_MAX) tr_sincos((double)x, s, c);
    else if (x != x || x - x != 0.0f) *s = *c = (double)(x - x); // NaN or infinite
    else sincos_huge(x, s, c);
}

float tread_sin(float x) {
    double s, c;
    tr_sincosf(x, &s, &c);
    return (float)s;
}

float tread_cos(float x) {
    double s, c;
    tr_sincosf(x, &s, &c);
    return (float)c;
}

// ---- arctangent ---------------------------------------------------------------------------------------------

// tan(pi/12) and sqrt(3): atan(z) = pi/6 + atan((sqrt3 z - 1) / (sqrt3 + z)) brings z in [tan(pi/12), 1] below
// tan(pi/12), where the odd series converges to double precision within 16 terms (|z|^2 <= 0.0718).
#define TR_TAN_PI_12 0.26794919243112270
#define TR_SQRT3 1.7320508075688772
#define TR_ATAN_TERMS 16

// atan z for z in [0, 1].
static double atan_unit(double z) {
    double base = 0.0;
    if (z > TR_TAN_PI_12) {
        base = TR_PI_D / 6.0;
        z = (TR_SQRT3 * z - 1.0) / (TR_SQRT3 + z);
    }
    double z2 = z * z, sum = 0.0;
    for (int k = TR_ATAN_TERMS - 1; k >= 0; --k) sum = 1.0 / (double)(2 * k + 1) - z2 * sum; // Horner, last term first
    return base + z * sum;
}

double tr_atan2(double y, double x) {
    if (y != y || x != x) return y + x; // NaN in, NaN out
    double ax = x < 0.0 ? -x : x, ay = y < 0.0 ? -y : y;
    if (ax == 0.0 && ay == 0.0) return 0.0;
    double a = ay <= ax ? atan_unit(ay / ax) : 0.5 * TR_PI_D - atan_unit(ax / ay);
    if (x < 0.0) a = TR_PI_D - a;
    return y < 0.0 ? -a : a;
}
