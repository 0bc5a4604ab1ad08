#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build tread as a WebAssembly ES module with Debian's emscripten: web/dist/tread_wasm.mjs (the .wasm inlined, so
# node and browsers load one file without fetching a path), then the JavaScript wrapper and its types next to it.
#
#   web/wasm/build.sh [OUT_DIR]       (default web/dist; `make wasm` runs it)
#
# The library's sources are the ones cmake/sources.cmake lists (the same reviewed list the native build uses),
# compiled with the native build's floating-point flags (-ffp-contract=off -fno-fast-math: no fused multiply-add, so
# every float operation rounds as on x86-64 and the traces match bit for bit) and TREAD_NO_THREADS (no pthreads in
# this build: a batch runs on the caller's thread).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/web/dist}
mkdir -p "$out"
command -v emcc >/dev/null || { echo "web/wasm/build.sh: emcc is missing (scripts/deps.sh web installs emscripten)" >&2; exit 1; }
# emcc's JavaScript optimizer needs acorn, which Debian ships as node-acorn in its shared module folder.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

mapfile -t sources < <(grep -oE 'src/[A-Za-z0-9_/]+\.c' "$root/cmake/sources.cmake" | sed "s|^|$root/|")
[ ${#sources[@]} -gt 0 ] || { echo "web/wasm/build.sh: no sources found in cmake/sources.cmake" >&2; exit 1; }
exports=$(grep -v '^#' "$root/web/wasm/exports.txt" | sed 's/^/_/' | paste -sd, -)

emcc -O3 -std=c11 -ffp-contract=off -fno-fast-math -DTREAD_NO_THREADS -DTREAD_BUILDING \
  -I"$root/include" -I"$root/src" -I"$root/web/wasm" \
  "${sources[@]}" "$root/web/wasm/layout.c" "$root/web/wasm/glue.c" \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createTreadModule -sSINGLE_FILE=1 \
  -sENVIRONMENT=web,node -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 -sTOTAL_STACK=1048576 \
  -sEXPORTED_FUNCTIONS="$exports" -sEXPORTED_RUNTIME_METHODS=UTF8ToString,HEAPU8,HEAP32,HEAPU32,HEAPF32 \
  -o "$out/tread_wasm.mjs"

# emscripten 3.1.6 writes its node branch for CommonJS: `scriptDirectory=__dirname+"/"` throws in an ES module
# (later emscripten uses import.meta.url). With the .wasm inlined nothing is ever read from that directory, so the
# directory may stay empty where __dirname does not exist.
sed -i 's|scriptDirectory=__dirname+"/"|scriptDirectory=typeof __dirname!="undefined"?__dirname+"/":""|' "$out/tread_wasm.mjs"
grep -q 'typeof __dirname!="undefined"' "$out/tread_wasm.mjs" || { echo "web/wasm/build.sh: emcc's node branch changed; see the __dirname patch" >&2; exit 1; }

# The wrapper and its types, next to the module they import.
cp "$root"/web/lib/*.mjs "$root"/web/lib/*.d.ts "$out"/
echo "web/wasm/build.sh: $out/tread_wasm.mjs ($(wc -c <"$out/tread_wasm.mjs") bytes) and the wrapper"
