#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The levels group: what a character update costs on real Quake III levels (docs/LEVELS.md), for three maps
# (oa_dm1: rooms and stairs; czest1dm: rock formations; islandctf: a terrain island), box and capsule, alone (one
# character at a time from each spawn, tread_character_move_with) and batched (every spawn's character together,
# tread_batch_move_with with character-vs-character), the default strategy, `tread walk`'s seeded wandering input.
#
# - us_per_update: the wall time inside the library's move calls (tread walk's "us a move": a frame's moves, the
#   walker's own per-frame checks excluded) divided by the updates, median of ROUNDS rounds run interleaved
#   (every configuration once per round), one thread.
# - instructions_per_update (--callgrind): callgrind counting only inside tread_character_move_with or
#   tread_batch_move_with (what tread walk calls; counting tread_character_move counted nothing),
#   divided by the updates: repeatable whatever the machine's load.
# - mesh_bytes_per_triangle (first, rows levels-MAP): what the map's world geometry takes as one mesh body
#   (bench/levels_bytes.c: the bytes the library asks for while it is added, over its triangles).
#
#   bench/levels.sh [BUILD_DIR] [--rounds N] [--seconds S] [--callgrind]
#
# Needs Debian's openarena-081-maps (scripts/deps.sh levels). Prints CSV rows scenario,metric,value,unit, also kept
# in BUILD_DIR/levels-bench.csv. Never part of the tests.
set -euo pipefail

build=build
rounds=5
seconds=20
callgrind=0
[ $# -gt 0 ] && [ "${1#-}" = "$1" ] && { build=$1; shift; }
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --callgrind) callgrind=1; shift ;;
    *) echo "bench/levels.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
tread=$build/tread
[ -x "$tread" ] || { echo "bench/levels.sh: no $tread (build first: make build)" >&2; exit 1; }
maps=(oa_dm1 czest1dm islandctf)
shapes=(capsule box)
modes=(alone batch)

# One run's updates and its microseconds per update, from tread walk's last line.
walk() { # map shape mode seconds [prefix command...]
  local map=$1 shape=$2 mode=$3 secs=$4
  shift 4
  local flags=()
  [ "$mode" = batch ] && flags=(--batch-only)
  # (A failure the walker finds is its report's business, not the bench's.)
  { "$@" "$tread" walk "$map" --shape "$shape" --strategy sweep --seconds "$secs" --seed 1 --keep 0 "${flags[@]}" || true; } |
    awk '/^moves:/ { gsub(",", "", $2); print $2, $3 }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((r = 0; r < rounds; r++)); do
  for map in "${maps[@]}"; do
    for shape in "${shapes[@]}"; do
      for mode in "${modes[@]}"; do
        walk "$map" "$shape" "$mode" "$seconds" >>"$tmp/$map-$shape-$mode"
      done
    done
  done
done

{
  echo "scenario,metric,value,unit"
  if [ -x "$build/bench/tread_bench_levels_bytes" ]; then
    "$build/bench/tread_bench_levels_bytes" "${maps[@]}"
  else
    echo "bench/levels.sh: no $build/bench/tread_bench_levels_bytes: no memory rows" >&2
  fi
  for map in "${maps[@]}"; do
    for shape in "${shapes[@]}"; do
      for mode in "${modes[@]}"; do
        name="levels-$map-$shape-$mode"
        echo "$name,updates,$(head -1 "$tmp/$map-$shape-$mode" | cut -d' ' -f1),count"
        echo "$name,us_per_update,$(cut -d' ' -f2 "$tmp/$map-$shape-$mode" | median),us/update"
        if [ "$callgrind" = 1 ]; then
          # (the functions tread walk calls)
          function=tread_character_move_with
          [ "$mode" = batch ] && function=tread_batch_move_with
          out=$tmp/$name.out
          updates=$(walk "$map" "$shape" "$mode" 5 valgrind --tool=callgrind --toggle-collect="$function" --callgrind-out-file="$out" -q |
            cut -d' ' -f1)
          instructions=$(awk '/^totals:/ { print $2 }' "$out")
          awk -v name="$name" -v ir="$instructions" -v n="$updates" \
            'BEGIN { printf "%s,instructions_per_update,%.0f,instructions/update\n", name, ir / n }'
        fi
      done
    done
  done
} | tee "$build/levels-bench.csv"
