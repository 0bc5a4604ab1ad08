// SPDX-License-Identifier: MIT
// The query backend contract (tests/backend_conformance.h) on the Bullet adapter: the conformance scene built into a
// btCollisionWorld through tread_bullet_add_body, one frame advanced, every check run.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "backend_conformance.h"
#include "tread_bullet.h"

// The tolerance tread's own world is held to (tests/test_backend.c): none of the contract is relaxed for Bullet. The
// adapter passes every check down to 1e-6 m (measured; docs/BACKENDS.md, "Bullet"): on the scene's flat faces one
// step of conservative advancement lands on the surface, and Bullet's GJK with margin-0 boxes and triangles (a sphere's
// margin is its radius) gives exact distances; ties in the order are exact too.
#define BULLET_CONFORMANCE_TOLERANCE 1.0e-5f

static bool build_bullet(void *self, const bc_body *bodies, int count, float dt, tread_backend *out, tread_body_id *ids) {
    tread_bullet_world **w = (tread_bullet_world **)self;
    if (tread_bullet_world_create(w) != TREAD_OK) return false;
    for (int i = 0; i < count; ++i)
        if (tread_bullet_add_body(*w, &bodies[i].def, &ids[i]) != TREAD_OK) return false;
    for (int i = 0; i < count; ++i)
        if (bodies[i].def.type == TREAD_BODY_DYNAMIC &&
            tread_bullet_body_move_to(*w, ids[i], bodies[i].moved_to, bodies[i].def.linear_velocity, bodies[i].def.angular_velocity) != TREAD_OK)
            return false;
    if (tread_bullet_advance(*w, dt) != TREAD_OK) return false;
    *out = tread_bullet_backend(*w);
    return true;
}

static void destroy_bullet(void *self) {
    tread_bullet_world **w = (tread_bullet_world **)self;
    tread_bullet_world_destroy(*w);
    *w = NULL;
}

static void test_conformance_on_bullet(void **state) {
    (void)state;
    tread_bullet_world *w = NULL;
    bc_engine engine = {"Bullet", build_bullet, destroy_bullet, &w, BULLET_CONFORMANCE_TOLERANCE};
    bc_report report;
    bool built = bc_run_all(&engine, &report);
    print_message("%s: %d checks, %d failed (tolerance %g m)\n", engine.name, report.checks, report.failures, (double)engine.tolerance);
    if (!built || report.failures > 0) fail_msg("%s", report.text);
    assert_true(report.checks > 80);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conformance_on_bullet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
