// SPDX-License-Identifier: MIT
// Private to the motor: its named tolerances.
#ifndef TREAD_MOTOR_INTERNAL_H
#define TREAD_MOTOR_INTERNAL_H

#include "../core.h"

// Horizontal speeds below this (m/s) after friction are zero: exponential decay never reaches zero by itself,
// and a character told to stop should stand still, not creep at micrometres per second.
#define TR_MOTOR_REST_SPEED 1.0e-3f
// Below this many "decay rate x dt" (dimensionless), the mean of e^(-k t) over a step is taken from its series
// (1 - k dt / 2) instead of (1 - e^(-k dt)) / (k dt), which would lose all its digits to cancellation.
#define TR_MOTOR_SMALL_DECAY 1.0e-4f
// A contact normal whose component along up is above this (a cosine) is not a ceiling or overhang: Catlike Coding's
// lenient test for steep contacts that a wall jump may push off.
#define TR_MOTOR_STEEP_MIN_UP (-0.01f)
// Crouch: a taller shape fits when nothing is nearer to it than to the current shape (or than the skin),
// allowing this much rounding (metres).
#define TR_MOTOR_FIT_SLACK 1.0e-4f
// Crouch: how far around the shape the fit test looks (metres); farther surfaces never matter.
#define TR_MOTOR_FIT_PROBE 0.05f
// The character counts as crouched while its height is within this of the crouch height (metres).
#define TR_MOTOR_CROUCH_TOLERANCE 1.0e-4f
// Largest speed, acceleration or rate a setting may hold (the controller's own speed limit is 1000 m/s).
#define TR_MOTOR_MAX_RATE 1.0e4f

// Seconds standing for "never" in timers (time since grounded): finite, far beyond any coyote time.
#define TR_MOTOR_LONG_AGO 1.0e6f

#endif
