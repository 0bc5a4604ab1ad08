#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzz the scene loader for SECONDS seconds (default 20): build tools/tread/fuzz_scene_load.c with clang and
# libFuzzer + AddressSanitizer + UndefinedBehaviorSanitizer, seed it with every scene in scenes/ and
# tests/data/, and fail (non-zero exit) on any crash, leak, sanitizer report or timeout. The corpus grows in
# $FUZZ_DIR/corpus across runs; a crashing input is saved as $FUZZ_DIR/crash-* (rerun it with
# "$FUZZ_DIR/fuzz_scene_load <file>").
#   scripts/fuzz.sh [SECONDS]        environment: FUZZ_DIR (default build/fuzz), CLANG (default clang)
set -euo pipefail
seconds="${1:-20}"
case "$seconds" in ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
root="$PWD"
out="${FUZZ_DIR:-build/fuzz}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
cc="${CLANG:-clang}"
command -v "$cc" >/dev/null || { echo "scripts/fuzz.sh: $cc not found (install clang and libclang-rt-14-dev)" >&2; exit 1; }
mkdir -p "$out/corpus" "$out/seeds"
bin="$out/fuzz_scene_load"

# Rebuild when any input is newer than the binary.
# The target links the whole scene library (tools/scene/), as the tread command and the tests do.
sources=(tools/tread/fuzz_scene_load.c tools/scene/*.c $(find src -name '*.c'))
if [ ! -x "$bin" ] || [ -n "$(find "${sources[@]}" tools/scene include src scripts/fuzz.sh -newer "$bin" -print -quit)" ]; then
  echo "scripts/fuzz.sh: building $bin" >&2
  "$cc" -std=c11 -g -O1 -fno-omit-frame-pointer -ffp-contract=off \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -Iinclude -Isrc -Itools/scene \
    "${sources[@]}" $(pkg-config --cflags --libs libcjson assimp) -lm -o "$bin"
fi

# Seeds: the shipped scenes and the loader's test data (copied, so libFuzzer never writes into the tree).
rm -f "$out/seeds"/*
for dir in scenes tests/data; do
  [ -d "$dir" ] || continue
  find "$dir" -name '*.json' -print0 | while IFS= read -r -d '' f; do cp "$f" "$out/seeds/$(echo "$f" | tr '/' '_')"; done
done

log="$out/last-run.log"
status=0
"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
  -dict=tools/tread/fuzz_scene_load.dict -artifact_prefix="$out/" "$out/corpus" "$out/seeds" >"$log" 2>&1 || status=$?
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
if [ "$status" -ne 0 ]; then
  grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -20 >&2 || true
  echo "scripts/fuzz.sh: FAILED after ${runs:-?} runs (exit $status); full log: $log" >&2
  exit 1
fi
echo "scripts/fuzz.sh: ${runs:-?} runs in ${seconds} s, no crash (corpus: $(ls "$out/corpus" | wc -l) inputs)"
