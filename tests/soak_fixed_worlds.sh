#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Soak worlds whose violations were fixed, replayed (docs/RELIABILITY.md, "In make test"): each line of LIST is
# SEED:WORLD, a reason after '#'. Fails when any of them violates again: a fix stays fixed on the very world that
# found the bug, whatever seed the samples run. A world leaves tests/data/soak_known_violations.txt for this list in
# the change that fixes it. Each replay takes well under a second.
#   tests/soak_fixed_worlds.sh TREAD_SOAK LIST
set -u
soak=$1 list=$2
failed=0 count=0
while IFS= read -r line; do
  world=${line%%#*}
  world=${world//[[:space:]]/}
  [ -z "$world" ] && continue
  count=$((count + 1))
  if ! out=$("$soak" --replay "$world" 2>&1); then
    failed=$((failed + 1))
    echo "violated again: $world"
    printf '%s\n' "$out" | grep -E 'VIOLATION|^replay' | head -5
  fi
done < "$list"
echo "soak_fixed_worlds: $count worlds replayed, $failed violated again"
[ "$failed" -eq 0 ]
