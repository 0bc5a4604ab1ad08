// SPDX-License-Identifier: MIT
// Private core: error reporting, assertions, allocation, named tolerances.
#ifndef TREAD_CORE_H
#define TREAD_CORE_H

// Determinism: no multiply-add is ever fused, whatever the build flags (clang's default contracts them, as gcc
// does with -std=gnu11 or -march=native unless -ffp-contract=off). Clang honours the standard pragma; gcc ignores it
// with a warning, so there the build's -ffp-contract=off does it, and tests/test_determinism.c checks the result.
// Before any include: the public headers' inline vector math is compiled under it too.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include "tread/types.h"

#include <float.h>

// ---- named tolerances (metres unless stated) --------------------------------------------------
// Two surfaces closer than this count as touching: a cast that starts this close (and moves toward the
// surface) hits at fraction 0. Well above float rounding at 1 km from the origin (~6e-5 m), below any
// gap a game cares about.
#define TR_TOUCH_TOLERANCE 1.0e-4f
// A cast starting in contact presses into the surface when d . n < -TR_APPROACH_TOLERANCE * |d| (the sine
// of the shallowest angle, dimensionless): sliding along a resting surface is not stopped by rounding.
#define TR_APPROACH_TOLERANCE 1.0e-4f
// A point within this distance of a box face (or triangle edge) lies on it, for picking surface normals.
#define TR_FEATURE_TOLERANCE 1.0e-4f
// Triangles with twice-area below this (m^2) are degenerate and never hit.
#define TR_DEGENERATE_AREA 1.0e-12f
// Internal edges flatter than this (cosine of the dihedral angle between the two face normals) are
// inactive: contacts there take the face normal, so flat floors have no ghost collisions (about 1 degree).
#define TR_INACTIVE_EDGE_COS 0.99985f
// Largest coordinate magnitude accepted from callers (metres): the public limit (its reason is in base.h).
#define TR_MAX_COORDINATE TREAD_MAX_COORDINATE
// A vector or quaternion is unit to within this (dimensionless |length - 1|): a caller's normals from its own math,
// and every normal and rotation a load reads (what tread wrote is unit to float rounding, about 1e-7).
#define TR_UNIT_TOLERANCE 1.0e-3f
// Fastest speed accepted (m/s): a move's velocity, a surface's at its rim, a dynamic body's motion over an advance
// (faster is a teleport). Far beyond any game's characters; bounds casts.
#define TR_MAX_SPEED TREAD_MAX_SPEED

// ---- errors ----------------------------------------------------------------------------------
// Record an error for tread_error_message() and return it. printf-style message naming the argument.
tread_result tr_error(tread_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

// Longest error message kept (bytes, with its terminator).
#define TR_MESSAGE_SIZE 512
// The last error's detail on this thread: its message without the "TREAD_ERR_...: " prefix.
const char *tr_error_detail(void);

// The value every tread_xxx_default() writes into the internal_cookie of what it returns (as Box2D's defs carry
// B2_SECRET_COOKIE): a struct that is zero-filled, or was declared and filled field by field, lacks it and is refused
// by name (TREAD_ERR_UNINITIALIZED) instead of meaning something (a zero layer mask switched collision off). Not 0,
// not 0xFFFFFFFF, not a small integer or a common float's bits, so neither memset nor garbage forges it by chance.
#define TR_COOKIE 0x7E4D5A17u
// TREAD_OK when `cookie` is TR_COOKIE; else TREAD_ERR_UNINITIALIZED: "<argument> is not initialised (a zero-filled
// or never-defaulted <type>): start from <start>".
tread_result tr_check_cookie(uint32_t cookie, const char *argument, const char *type, const char *start);

// ---- assertions (internal invariants; public functions validate instead) -----------------------
void tr_assert_failed(const char *expr, const char *file, int line);
#ifdef NDEBUG
#define TR_ASSERT(c) ((void)0)
#else
#define TR_ASSERT(c) ((c) ? (void)0 : tr_assert_failed(#c, __FILE__, __LINE__))
#endif

// ---- allocation --------------------------------------------------------------------------------
void *tr_alloc(size_t size);
void tr_free(void *memory);

// ---- deterministic sine and cosine (trig.c) --------------------------------------------------------
// Largest |x| tr_sincos takes, radians (2^25): its reduction by pi/2 is exact up to here.
#define TR_SINCOS_MAX 33554432.0
// sin x and cos x in double, the same bits everywhere (no libm); |x| <= TR_SINCOS_MAX (asserted); NaN or infinite
// x gives NaN.
void tr_sincos(double x, double *out_sin, double *out_cos);
// The same for any float x (beyond TR_SINCOS_MAX by an exact reduction), in double; tread_sin and tread_cos round it.
void tr_sincosf(float x, double *out_sin, double *out_cos);
// pi in double (the trigonometry's and the turns' constant).
#define TR_PI_D 3.14159265358979323846
// The angle of (x, y) in (-pi, pi], radians, in double, the same bits everywhere (no libm); 0 for (0, 0).
double tr_atan2(double y, double x);

static inline float tr_minf(float a, float b) { return a < b ? a : b; }
static inline float tr_maxf(float a, float b) { return a > b ? a : b; }
static inline float tr_clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

#endif
