#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs/RELIABILITY.md, "What a world is": the soak's results do not depend on --jobs (worlds are split across threads
# by index and merged in order). Runs the same seeds and updates on one thread and on two and requires the same
# report, every line of it (docs/CLAIMS.md); the progress lines on stderr, with their timings, are left out.
#   tests/soak_jobs_agree.sh path/to/tread_soak UPDATES
set -euo pipefail
soak=${1:?usage: soak_jobs_agree.sh path/to/tread_soak UPDATES}
updates=${2:?usage: soak_jobs_agree.sh path/to/tread_soak UPDATES}
one=$(mktemp) two=$(mktemp)
trap 'rm -f "$one" "$two"' EXIT
# Exit codes are compared too (a violation not known exits 1 on both or neither).
s1=0 s2=0
"$soak" --seeds 12,27 --updates "$updates" --jobs 1 > "$one" 2> /dev/null || s1=$?
"$soak" --seeds 12,27 --updates "$updates" --jobs 2 > "$two" 2> /dev/null || s2=$?
if ! diff "$one" "$two" > /dev/null || [ "$s1" != "$s2" ]; then
  echo "soak_jobs_agree: --jobs 1 and --jobs 2 disagree (exit $s1 and $s2):"
  diff "$one" "$two" || true
  exit 1
fi
grep -E '^soak: ' "$one"
echo "soak_jobs_agree: the same report on one thread and on two"
