// SPDX-License-Identifier: MIT
// The world's queries take a body turned by exactly the identity rotation (+0 +0 +0 1) to its frame and back by
// adding +0 instead of rotating (query.c, unturned): the same bits as the rotation, both ways, for points and
// vectors of every sign, zeros of both signs among them, and positions anywhere (a -0 comes out +0 either way).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "tread/tread.h"
#include "course.h"

// A component: +0, -0, or a value of either sign and any magnitude the world holds.
static float component(uint64_t *rng) {
    uint64_t k = course_splitmix64(rng) % 6u;
    if (k == 0) return 0.0f;
    if (k == 1) return -0.0f;
    float magnitude = ldexpf(course_uniform(rng, 0.5f, 1.0f), (int)(course_splitmix64(rng) % 40u) - 20);
    return k % 2 ? magnitude : -magnitude;
}

static tread_vec3 vector(uint64_t *rng) { return tread_v3(component(rng), component(rng), component(rng)); }

static void test_identity_rotation_is_adding_zero(void **state) {
    (void)state;
    uint64_t rng = 7;
    const tread_vec3 zero = tread_v3_zero();
    int negative_zeros = 0;
    for (int i = 0; i < 400000; ++i) {
        tread_transform t = {vector(&rng), tread_quat_identity()};
        tread_vec3 v = vector(&rng);
        negative_zeros += (v.x == 0.0f && signbit(v.x)) + (v.y == 0.0f && signbit(v.y)) + (v.z == 0.0f && signbit(v.z));
        tread_vec3 local_point = tread_transform_inv_point(t, v), plain_local_point = tread_v3_add(tread_v3_sub(v, t.p), zero);
        tread_vec3 local_vector = tread_transform_inv_vector(t, v), plain_vector = tread_v3_add(v, zero);
        tread_vec3 world_point = tread_transform_point(t, v), plain_world_point = tread_v3_add(tread_v3_add(v, zero), t.p);
        tread_vec3 world_vector = tread_transform_vector(t, v);
        assert_memory_equal(&local_point, &plain_local_point, sizeof local_point);
        assert_memory_equal(&local_vector, &plain_vector, sizeof local_vector);
        assert_memory_equal(&world_point, &plain_world_point, sizeof world_point);
        assert_memory_equal(&world_vector, &plain_vector, sizeof world_vector);
    }
    assert_true(negative_zeros > 100000); // (the case that needs the +0 was drawn)
    // Without the +0 a -0 would stay -0 where the rotation gives +0:
    tread_transform t = {zero, tread_quat_identity()};
    tread_vec3 v = tread_v3(-0.0f, 1.0f, -0.0f), turned = tread_transform_vector(t, v);
    assert_false(signbit(turned.x));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identity_rotation_is_adding_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
