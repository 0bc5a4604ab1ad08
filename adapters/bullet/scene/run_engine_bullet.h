// SPDX-License-Identifier: MIT
// The scene runner's Bullet engine (tools/scene's run_engine): `tread run --backend bullet` builds a scene's level into
// a btCollisionWorld through the adapter and moves the characters on it.
#ifndef TREAD_RUN_ENGINE_BULLET_H
#define TREAD_RUN_ENGINE_BULLET_H

#include "tread_scene.h"

extern const run_engine run_engine_bullet;

#endif
