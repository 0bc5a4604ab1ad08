// SPDX-License-Identifier: MIT
// Determinism rests on no fused multiply-add in the library: built with the library's flags and its private core
// header (the clang pragma), this program must compute x * y + z with two roundings. With contraction, x * y + z is
// rounded once and the difference shows. Operands come through volatile loads so nothing is folded at compile time.
#include "core.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

// x * y = 1 + 2^-11 + 2^-24 exactly; rounded to float it is a tie that goes to the even 1 + 2^-11. Unfused, adding
// -(1 + 2^-11) gives 0; fused, the exact 2^-24.
static volatile float vx = 1.0f + 0x1p-12f, vy = 1.0f + 0x1p-12f, vz = -(1.0f + 0x1p-11f);

static float multiply_add(float x, float y, float z) { return x * y + z; }

static void test_no_fused_multiply_add(void **state) {
    (void)state;
    float x = vx, y = vy, z = vz;
    float r = multiply_add(x, y, z);
    if (r != 0.0f) fail_msg("x * y + z = %a: the multiply-add was fused (build without -ffp-contract=off?)", (double)r);
    // The public vector math, inlined here as in every library file: a dot product of the same terms.
    tread_vec3 a = tread_v3(x, 1.0f, 0.0f), b = tread_v3(y, z, 0.0f);
    float d = tread_v3_dot(a, b);
    if (d != 0.0f) fail_msg("tread_v3_dot = %a: the multiply-add was fused", (double)d);
}

// The reference result itself: with fmaf (correctly rounded by definition) the single rounding gives 2^-24, so the
// test above can tell the two apart on this machine.
static void test_fused_result_differs(void **state) {
    (void)state;
    assert_true(fmaf(vx, vy, vz) == 0x1p-24f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_fused_multiply_add),
        cmocka_unit_test(test_fused_result_differs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
