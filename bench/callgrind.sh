#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Instructions per character update, counted by callgrind: a figure that, unlike the clock, does not move with
# the machine's load, so two builds can be compared on a busy machine. For each run, valgrind runs
# `tread_bench_character --callgrind RUN` (the run's whole workload once, untimed) collecting only inside the
# function one update goes through (tread_character_move, or tread_batch_move for the -cvc runs), and the total
# is divided by the updates the run made. Prints CSV rows scenario,metric,value,unit.
#
#   bench/callgrind.sh [BUILD_DIR] [RUN ...]     default: build, and P1 P2 P3 P3-cvc (about a minute)
#
# BENCH_OPTIONS passes options to the bench, e.g. BENCH_OPTIONS="--frames 5" for a shorter workload of a big run
# (the warm frames are still counted). The rows also go to $BUILD_DIR/callgrind/instructions.csv, and callgrind's
# files stay there for callgrind_annotate.
set -euo pipefail

build=${1:-build}
[ $# -gt 0 ] && shift
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(P1 P2 P3 P3-cvc)
bin=$build/bench/tread_bench_character

command -v valgrind >/dev/null || { echo "bench/callgrind.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
[ -x "$bin" ] || { echo "bench/callgrind.sh: no $bin (build first: make build)" >&2; exit 1; }
out=$build/callgrind
mkdir -p "$out"

{
  echo "scenario,metric,value,unit"
  for run in "${runs[@]}"; do
    function=$("$bin" --list | awk -F'\t' -v run="$run" 'tolower($1) == tolower(run) { print $3 }')
    [ -n "$function" ] || { echo "bench/callgrind.sh: no run named $run ($bin --list shows them)" >&2; exit 2; }
    if ! valgrind --tool=callgrind --toggle-collect="$function" --callgrind-out-file="$out/$run.out" \
        "$bin" --callgrind ${BENCH_OPTIONS:-} "$run" >"$out/$run.csv" 2>"$out/$run.log"; then
      echo "bench/callgrind.sh: $run failed; see $out/$run.log" >&2
      exit 1
    fi
    instructions=$(awk '/^totals:/ { print $2 }' "$out/$run.out")
    updates=$(awk -F, '$2 == "callgrind_updates" { print $3 }' "$out/$run.csv")
    echo "$run,counted_function,$function,name"
    echo "$run,instructions,$instructions,count"
    echo "$run,updates,$updates,count"
    awk -v run="$run" -v ir="$instructions" -v n="$updates" \
      'BEGIN { printf "%s,instructions_per_update,%.0f,instructions/update\n", run, ir / n }'
  done
} | tee "$out/instructions.csv"
