#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the native reference tool web/native/scene_dump.c against a native build's libraries (the C scene loader
# and runner the `tread` command uses, and the library itself), into BUILD/web/scene_dump.
#
#   web/native/build.sh [BUILD]        (default build; `make test-web` runs it after `make build`)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
case "$build" in /*) ;; *) build=$root/$build ;; esac
for lib in libtread_scene.a libtread.a; do
  [ -f "$build/$lib" ] || { echo "web/native/build.sh: $build/$lib is missing (run make build first)" >&2; exit 1; }
done
mkdir -p "$build/web"
# The native build's float flags, so the reference sees the same bits as the `tread` command.
cc -O2 -std=c11 -ffp-contract=off -fno-fast-math -I"$root/include" -I"$root/tools/scene" -I"$root/web/wasm" \
  "$root/web/native/scene_dump.c" "$root/web/wasm/layout.c" "$build/libtread_scene.a" "$build/libtread.a" \
  $(pkg-config --libs libcjson assimp) -lm -lpthread -o "$build/web/scene_dump"
