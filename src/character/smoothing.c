// SPDX-License-Identifier: MIT
// Camera smoothing of steps (as in Godot's stair stepping) on the project's own deterministic exp: the same bits on every
// compiler and libm, so replays that drive cameras from it agree.
#include "../core.h"
#include "tread/tread.h" // (its public functions: declared there, exported as declared)

// exp(x) for x in [-87, 88]: x = k ln2 + r with |r| <= ln2 / 2, a degree-7 Taylor polynomial for e^r
// (relative error < 2e-7 there), times 2^k built exactly. Only +, -, * and exact scaling by powers of two.
float tread_exp(float x) {
    if (x != x) return x;
    if (x > 88.0f) return INFINITY;
    if (x < -87.0f) return 0.0f;
    const float ln2_hi = 0.693145751953125f, ln2_lo = 1.42860682030941723212e-6f, inv_ln2 = 1.44269504088896341f;
    float kf = x * inv_ln2;
    int k = (int)(kf < 0.0f ? kf - 0.5f : kf + 0.5f);
    float r = (x - (float)k * ln2_hi) - (float)k * ln2_lo;
    float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6.0f + r * (1.0f / 24.0f + r * (1.0f / 120.0f + r * (1.0f / 720.0f + r * (1.0f / 5040.0f)))))));
    // Scale by 2^k in two exact halves so neither factor overflows or goes subnormal early.
    int k1 = k / 2, k2 = k - k1;
    union { float f; uint32_t u; } s1, s2;
    s1.u = (uint32_t)(k1 + 127) << 23;
    s2.u = (uint32_t)(k2 + 127) << 23;
    return p * s1.f * s2.f;
}

float tread_exp_decay(float a, float b, float decay, float dt) { return b + (a - b) * tread_exp(-decay * dt); }

tread_step_smoothing tread_step_smoothing_default(void) {
    tread_step_smoothing s;
    s.offset = 0.0f;
    s.decay = 15.0f;
    s.internal_cookie = TR_COOKIE;
    return s;
}

tread_result tread_step_smoothing_update(tread_step_smoothing *s, float offset, float dt) {
    if (!s) return tr_error(TREAD_ERR_NULL_ARGUMENT, "smoothing is NULL");
    // (Zero-filled, its decay of 0 held a step's offset in the view for good.)
    tread_result r = tr_check_cookie(s->internal_cookie, "smoothing", "tread_step_smoothing", "tread_step_smoothing_default()");
    if (r != TREAD_OK) return r;
    if (!isfinite(offset) || !isfinite(dt) || !isfinite(s->decay))
        return tr_error(TREAD_ERR_NOT_FINITE, "offset = %g, dt = %g, decay = %g; expected finite numbers", (double)offset,
                        (double)dt, (double)s->decay);
    if (dt < 0.0f || s->decay < 0.0f)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "dt = %g s, decay = %g /s; expected both >= 0", (double)dt, (double)s->decay);
    // The body jumped by `offset`; hold the view where it was, then let it catch up.
    s->offset = tread_exp_decay(s->offset - offset, 0.0f, s->decay, dt);
    return TREAD_OK;
}
