// SPDX-License-Identifier: MIT
/// tread base: the export macro, the library's version, and the limits every part of the API shares.
#ifndef TREAD_BASE_H
#define TREAD_BASE_H

/// Marks a public function. The library is built with hidden visibility, so only what carries TREAD_API is
/// exported from the shared library. Define TREAD_DLL when using tread as a Windows DLL.
#if defined(_WIN32) && defined(TREAD_DLL)
#if defined(TREAD_BUILDING)
#define TREAD_API __declspec(dllexport)
#else
#define TREAD_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define TREAD_API __attribute__((visibility("default")))
#else
#define TREAD_API
#endif

/// Major version of these headers (semantic versioning: a MAJOR change breaks the API or the character's layout).
/// Compare with tread_version() to check the library you link against.
#define TREAD_VERSION_MAJOR 0
/// Minor version of these headers: features added without breaking the API.
#define TREAD_VERSION_MINOR 3
/// Patch version of these headers: fixes only, no API change.
#define TREAD_VERSION_PATCH 0

/// Largest magnitude of any coordinate tread accepts (body positions and extents, character positions, query
/// points), metres. Positions are floats: at distance d from the origin their spacing is d * 2^-23 (0.5 mm at 4 km,
/// 7.8 mm here). The course passes every threshold up to here and not beyond (docs/DESIGN.md, "Large worlds"); for
/// larger worlds keep play near the origin with tread_world_shift_origin(). A character's feet never leave it: a
/// move toward it succeeds and stops at it (its part beyond is clamped, as at a wall), and one near it moves back
/// inward like any other.
#define TREAD_MAX_COORDINATE 65536.0f
/// Largest speed tread accepts, m/s: a character's velocity; a body's surface velocity anywhere on the body (linear
/// plus angular times the farthest point of its bounds from the centre it turns about); a dynamic body's motion in
/// one tread_world_advance (farther than TREAD_MAX_SPEED x dt is a teleport: it pushes and carries no one).
#define TREAD_MAX_SPEED 1000.0f

/// Number of collision layers: a body's layer is in [0, TREAD_MAX_LAYERS), a mask has one bit per layer.
#define TREAD_MAX_LAYERS 32

#endif
