// SPDX-License-Identifier: MIT
// tr_material_velocity answers a body at rest without a surface velocity without computing its motion: the same bits
// as the whole computation, for every sign of zero its inputs can hold (a zero velocity set as -0, a turned body, an
// identity rotation stored with -0 components) and points anywhere in the world.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "world/motion.h"
#include "tread/tread.h"
#include "course.h"

// The computation as it stands without the shortcut.
static tread_vec3 whole(tread_vec3 linear, tread_vec3 angular, const tread_transform *t, const tread_surface_velocity *s, tread_vec3 point) {
    tread_vec3 arm = tread_v3_sub(point, t->p);
    tread_vec3 v = tread_v3_add(linear, tread_v3_cross(angular, arm));
    return tread_v3_add(v, tr_surface_point_velocity(s, t, point));
}

// A zero of either sign, or (when `any`) a value of either sign (k picks).
static float pick(int k, bool any, uint64_t *rng) {
    switch (k) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return any ? course_uniform(rng, 0.01f, 3.0f) : 0.0f;
    default: return any ? -course_uniform(rng, 0.01f, 3.0f) : -0.0f;
    }
}

static tread_quat random_rotation(uint64_t *rng, int kind) {
    if (kind == 0) return tread_quat_identity();
    if (kind == 1) return (tread_quat){-0.0f, -0.0f, -0.0f, 1.0f};
    tread_vec3 axis = tread_v3_normalize(tread_v3(course_uniform(rng, -1, 1), course_uniform(rng, -1, 1), course_uniform(rng, -1, 1)));
    return tread_quat_from_axis_angle(axis, course_uniform(rng, -3.1f, 3.1f));
}

static void test_rest_is_the_whole_computation(void **state) {
    (void)state;
    uint64_t rng = 29;
    int shortcuts = 0;
    for (int round = 0; round < 4000; ++round) {
        // Every component's sign of zero drawn independently; now and then one value not zero (the general path).
        bool moving = round % 8 == 7;
        tread_vec3 linear = tread_v3(pick((int)(course_splitmix64(&rng) & 3u), moving, &rng), pick((int)(course_splitmix64(&rng) & 1u), false, &rng),
                                     pick((int)(course_splitmix64(&rng) & 1u), false, &rng));
        tread_vec3 angular = tread_v3(pick((int)(course_splitmix64(&rng) & 1u), false, &rng), pick((int)(course_splitmix64(&rng) & 3u), round % 8 == 6, &rng),
                                      pick((int)(course_splitmix64(&rng) & 1u), false, &rng));
        tread_surface_velocity s;
        memset(&s, 0, sizeof s);
        s.linear = tread_v3(pick((int)(course_splitmix64(&rng) & 1u), false, &rng), pick((int)(course_splitmix64(&rng) & 1u), false, &rng),
                            pick((int)(course_splitmix64(&rng) & 3u), round % 8 == 5, &rng));
        s.angular = tread_v3(pick((int)(course_splitmix64(&rng) & 1u), false, &rng), pick((int)(course_splitmix64(&rng) & 1u), false, &rng),
                             pick((int)(course_splitmix64(&rng) & 1u), false, &rng));
        s.center = tread_v3(course_uniform(&rng, -2, 2), course_uniform(&rng, -2, 2), course_uniform(&rng, -2, 2));
        tread_transform t;
        t.q = random_rotation(&rng, (int)(course_splitmix64(&rng) % 3u));
        float span = round % 2 ? 5000.0f : 20.0f;
        t.p = tread_v3(course_uniform(&rng, -span, span), pick((int)(course_splitmix64(&rng) & 1u), false, &rng), course_uniform(&rng, -span, span));
        for (int k = 0; k < 8; ++k) {
            // Points on and off the body's axes, some with zero offsets from its position.
            tread_vec3 point = tread_v3_add(t.p, tread_v3(k & 1 ? 0.0f : course_uniform(&rng, -4, 4), k & 2 ? -0.0f : course_uniform(&rng, -4, 4),
                                                           k & 4 ? 0.0f : course_uniform(&rng, -4, 4)));
            tread_vec3 got = tr_material_velocity(linear, angular, &t, &s, point), want = whole(linear, angular, &t, &s, point);
            assert_memory_equal(&got, &want, sizeof got);
            shortcuts += !moving && round % 8 < 5 && !signbit(linear.x) && !signbit(linear.y) && !signbit(linear.z);
        }
    }
    assert_true(shortcuts > 1000); // (the shortcut's case was drawn, not only the general path)
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rest_is_the_whole_computation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
