// The shared course S1-S10 (../shared/course/SPEC.md) with its pass thresholds for tread's default settings,
// plus the spec's invariants on every frame (finite state, penetration <= 1 mm). Metrics are printed so the
// closing notes and README can quote them.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "course.h"

static course_run run; // large: keep off the stack

static void check_invariants(const char *scene) {
    assert_true(course_all_finite(&run));
    float pen = course_max_penetration(&run);
    print_message("%s: max penetration %.5f m\n", scene, (double)pen);
    assert_true(pen <= 0.001f);
}

// S1 at a given update rate: returns the first time feet y >= 1.95, checks the thresholds.
static void run_s1(float dt) {
    tread_world *w = course_world();
    course_stairs(w);
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    course_walk(&run, tread_v3(4, 0, 0), 3.0f, dt);
    float first_time = -1.0f, max_rise = 0.0f;
    int contact_frame = -1, top_frame = -1;
    for (int i = 0; i < run.frames; ++i) {
        tread_vec3 p = run.f[i].feet;
        float prev_y = i > 0 ? run.f[i - 1].feet.y : 0.0f;
        max_rise = fmaxf(max_rise, p.y - prev_y);
        if (contact_frame < 0 && p.x + 0.3f >= 1.0f - 0.01f) contact_frame = i; // capsule front reaches step 0
        if (top_frame < 0 && p.y >= 1.95f) {
            top_frame = i;
            first_time = (float)(i + 1) * dt;
        }
    }
    tread_vec3 end = run.f[run.frames - 1].feet;
    float climb_speed = 0.0f;
    if (contact_frame >= 0 && top_frame > contact_frame)
        climb_speed = (run.f[top_frame].feet.x - run.f[contact_frame].feet.x) / ((float)(top_frame - contact_frame) * dt);
    print_message("S1 @%.0f Hz: final (%.3f, %.3f), first y>=1.95 at %.3f s, max rise/frame %.3f, climb speed %.3f m/s\n",
                  (double)(1.0f / dt), (double)end.x, (double)end.y, (double)first_time, (double)max_rise, (double)climb_speed);
    assert_true(fabsf(end.y - 2.0f) <= 0.02f && end.x > 4.0f);
    assert_true(first_time > 0.0f && first_time <= 1.0f);
    assert_true(max_rise <= 0.40f);
    assert_true(climb_speed >= 3.6f);
    check_invariants("S1");
    tread_world_destroy(w);
}

static void test_s1_stairs_up(void **state) {
    (void)state;
    run_s1(COURSE_DT);
}

static void test_s1_stairs_up_at_30_120_240_hz(void **state) {
    (void)state;
    run_s1(1.0f / 30.0f);
    run_s1(1.0f / 120.0f);
    run_s1(1.0f / 240.0f);
}

static void test_s2_step_too_high(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.5f, 1));
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    course_walk(&run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
    tread_vec3 end = run.f[run.frames - 1].feet;
    print_message("S2: final (%.3f, %.3f)\n", (double)end.x, (double)end.y);
    assert_true(end.y < 0.05f && end.x < 1.0f);
    check_invariants("S2");
    tread_world_destroy(w);
}

static void test_s3_stairs_down(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_stairs(w);
    course_begin(&run, w, tread_v3(6, 2, 0), NULL);
    course_walk(&run, tread_v3(-4, 0, 0), 3.0f, COURSE_DT);
    int counted = 0, grounded = 0;
    float max_drop = 0.0f;
    for (int i = 0; i < run.frames; ++i) {
        float prev_y = i > 0 ? run.f[i - 1].feet.y : 2.0f;
        if (run.f[i].ground == TREAD_GROUND_ON_GROUND) max_drop = fmaxf(max_drop, prev_y - run.f[i].feet.y);
        if ((float)(i + 1) * COURSE_DT <= 0.1f) continue;
        if (run.f[i].feet.y < 0.01f) break;
        ++counted;
        grounded += run.f[i].ground == TREAD_GROUND_ON_GROUND;
    }
    float fraction = counted ? (float)grounded / (float)counted : 0.0f;
    tread_vec3 end = run.f[run.frames - 1].feet;
    print_message("S3: grounded %.1f%% of %d descent frames, final y %.4f, max drop/frame %.3f\n", (double)(100.0f * fraction), counted,
                  (double)end.y, (double)max_drop);
    assert_true(fraction >= 0.95f);
    assert_true(fabsf(end.y) <= 0.02f);
    assert_true(max_drop <= 0.40f);
    check_invariants("S3");
    tread_world_destroy(w);
}

static void test_s4_slope_30_constant_speed(void **state) {
    (void)state;
    tread_world *w = course_world();
    float crest = course_ramp(w, 30.0f, 3.0f, 4.0f, 20.0f);
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    course_walk(&run, tread_v3(4, 0, 0), 3.0f, COURSE_DT);
    float lo = 1e9f, hi = 0.0f, sum = 0.0f;
    int n = 0;
    for (int i = 1; i < run.frames; ++i) {
        tread_vec3 a = run.f[i - 1].feet, b = run.f[i].feet;
        if (a.x < 1.5f || b.x < 1.5f || a.x > crest - 0.5f || b.x > crest - 0.5f) continue;
        float v = tread_v3_distance(a, b) / COURSE_DT;
        lo = fminf(lo, v);
        hi = fmaxf(hi, v);
        sum += v;
        ++n;
    }
    tread_vec3 end = run.f[run.frames - 1].feet;
    print_message("S4: speed along surface mean %.4f min %.4f max %.4f over %d frames; final (%.3f, %.3f)\n", (double)(sum / (float)n),
                  (double)lo, (double)hi, n, (double)end.x, (double)end.y);
    assert_true(n > 30);
    assert_true(lo >= 4.0f * 0.98f && hi <= 4.0f * 1.02f);
    assert_true(fabsf(end.y - 3.0f) <= 0.02f);
    check_invariants("S4");
    tread_world_destroy(w);
}

static void test_s5_slope_60_gains_no_height(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_ramp(w, 60.0f, 3.0f, 4.0f, 20.0f);
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    course_walk(&run, tread_v3(4, 0, 0), 3.0f, COURSE_DT);
    float max_y = 0.0f;
    for (int i = 0; i < run.frames; ++i) max_y = fmaxf(max_y, run.f[i].feet.y);
    print_message("S5: max feet y %.4f, final x %.3f\n", (double)max_y, (double)run.f[run.frames - 1].feet.x);
    assert_true(max_y <= 0.01f);
    check_invariants("S5");
    tread_world_destroy(w);
}

static void test_s6_idle_on_slope_does_not_drift(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_ramp(w, 30.0f, 3.0f, 4.0f, 20.0f);
    course_begin(&run, w, tread_v3(3.598f, 1.5464f, 0), NULL);
    course_walk(&run, tread_v3(0, 0, 0), 5.0f, COURSE_DT);
    float drift = tread_v3_distance(run.f[0].feet, run.f[run.frames - 1].feet);
    print_message("S6: drift %.6f m, ground state %d\n", (double)drift, (int)run.f[run.frames - 1].ground);
    assert_true(drift < 0.001f);
    check_invariants("S6");
    tread_world_destroy(w);
}

static void test_s7_ramp_crest_stays_grounded(void **state) {
    (void)state;
    tread_world *w = course_world();
    float crest = course_ramp(w, 20.0f, 2.0f, 4.0f, 30.0f);
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    course_walk(&run, tread_v3(6, 0, 0), 3.0f, COURSE_DT);
    float gap = 0.0f;
    int n = 0, grounded = 0;
    for (int i = 0; i < run.frames; ++i) {
        if (run.f[i].feet.x <= crest + 0.3f) continue;
        gap = fmaxf(gap, run.f[i].feet.y - 2.0f);
        ++n;
        grounded += run.f[i].ground == TREAD_GROUND_ON_GROUND;
    }
    float fraction = n ? (float)grounded / (float)n : 0.0f;
    print_message("S7: max gap after crest %.4f m, grounded %.1f%% of %d frames\n", (double)gap, (double)(100.0f * fraction), n);
    assert_true(n > 30);
    assert_true(gap < 0.02f);
    assert_true(fraction >= 0.95f);
    assert_true(tread_character_settings_default().max_snap_speed > 6.0f);
    check_invariants("S7");
    tread_world_destroy(w);
}

static void test_s8_wall_slide(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(-50, 0, 1), tread_v3(50, 3, 2));
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    float c = 4.0f / sqrtf(2.0f);
    course_walk(&run, tread_v3(c, 0, c), 2.0f, COURSE_DT);
    int first = -1;
    float max_z = 0.0f;
    for (int i = 0; i < run.frames; ++i) {
        if (first < 0 && run.f[i].feet.z + 0.3f >= 1.0f - 0.003f) first = i;
        max_z = fmaxf(max_z, run.f[i].feet.z + 0.3f);
    }
    assert_true(first >= 0);
    float speed = (run.f[run.frames - 1].feet.x - run.f[first].feet.x) / ((float)(run.frames - 1 - first) * COURSE_DT);
    print_message("S8: mean speed along X after contact %.4f m/s, capsule max z %.5f\n", (double)speed, (double)max_z);
    assert_true(speed >= 2.75f);
    assert_true(max_z <= 1.001f);
    check_invariants("S8");
    tread_world_destroy(w);
}

static void test_s9_crevasse(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_crevasse(w);
    course_begin(&run, w, tread_v3(0, 2.5f, 0), NULL);
    course_walk(&run, tread_v3(0, 0, 0), 2.0f, COURSE_DT);
    int rest_end = run.frames;
    float max_move = 0.0f;
    for (int i = rest_end - 30; i < rest_end; ++i) max_move = fmaxf(max_move, tread_v3_distance(run.f[i].feet, run.f[i - 1].feet));
    tread_vec3 rest = run.f[rest_end - 1].feet;
    tread_ground_state ground = run.f[rest_end - 1].ground;
    course_walk(&run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
    float advance = run.f[run.frames - 1].feet.x - rest.x;
    print_message("S9: rest feet y %.4f, max move last 0.5 s %.6f, ground %d, x advance %.3f\n", (double)rest.y, (double)max_move,
                  (int)ground, (double)advance);
    assert_true(fabsf(rest.y - 0.80f) <= 0.01f);
    assert_true(max_move <= 0.001f);
    assert_int_equal(ground, TREAD_GROUND_ON_GROUND);
    assert_true(advance >= 6.0f);
    check_invariants("S9");
    tread_world_destroy(w);
}

static void test_s10_low_ceiling_blocks_step(void **state) {
    (void)state;
    tread_world *w = course_world();
    course_box(w, tread_v3(1, 0, -1), tread_v3(8, 0.3f, 1));
    course_box(w, tread_v3(0.5f, 1.95f, -1), tread_v3(8, 2.5f, 1));
    course_begin(&run, w, tread_v3(0, 0, 0), NULL);
    course_walk(&run, tread_v3(4, 0, 0), 2.0f, COURSE_DT);
    tread_vec3 end = run.f[run.frames - 1].feet;
    print_message("S10: final (%.3f, %.3f)\n", (double)end.x, (double)end.y);
    assert_true(end.y < 0.05f);
    check_invariants("S10");
    tread_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s1_stairs_up),
        cmocka_unit_test(test_s1_stairs_up_at_30_120_240_hz),
        cmocka_unit_test(test_s2_step_too_high),
        cmocka_unit_test(test_s3_stairs_down),
        cmocka_unit_test(test_s4_slope_30_constant_speed),
        cmocka_unit_test(test_s5_slope_60_gains_no_height),
        cmocka_unit_test(test_s6_idle_on_slope_does_not_drift),
        cmocka_unit_test(test_s7_ramp_crest_stays_grounded),
        cmocka_unit_test(test_s8_wall_slide),
        cmocka_unit_test(test_s9_crevasse),
        cmocka_unit_test(test_s10_low_ceiling_blocks_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
