#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The named constants the docs quote against the code's #defines (docs/CLAIMS.md): the constants the prose of
# docs/DESIGN.md, docs/RELIABILITY.md and the README quote by value; and the math layer's operations. Fails when a
# doc and the code disagree, or a constant the docs name no longer exists. (docs/DESIGN.md's tolerance table is
# generated from the code and checked whole by scripts/tolerances_table.sh --check: ctest tolerance_table.)
#   tests/check_doc_constants.sh [ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
failed=0

# Every #define of src/, include/ and the soak's checker (tools/soak/), read once.
defines=$(grep -rhE '^#define [A-Z_]+[[:space:]]' "$root/src" "$root/include" "$root/tools/soak")

# The number `#define NAME number` gives (a trailing f, parentheses and comments dropped).
value_of() {
  printf '%s\n' "$defines" | grep -E "^#define $1[[:space:]]" | head -1 |
    sed -E "s/^#define $1[[:space:]]+//; s|//.*||; s/[()]//g; s/([0-9.])f\b/\1/g; s/[[:space:]]+$//"
}

# check NAME VALUE WHERE: the code's NAME equals VALUE (numerically, to 1e-6 relative).
check() {
  local name=$1 want=$2 where=$3 got
  got=$(value_of "$name")
  if [ -z "$got" ]; then
    echo "FAIL $name: no #define in src/, include/ or tools/soak/ ($where says $want)"
    failed=1
  elif ! awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= 1e-6 * m) }'; then
    echo "FAIL $name: the code says $got, $where says $want"
    failed=1
  else
    echo "ok   $name = $got ($where)"
  fi
}

# 1. Values quoted in prose (the doc and section say where).
check TR_CRUSH_DEPTH 1e-3 "docs/DESIGN.md Decisions, crushed: more than 1 mm"
check TR_ESCAPE_AROUND 8 "docs/DESIGN.md Decisions, crushed: 8 directions around the push"
check TR_ESCAPE_RUNGS 6 "docs/DESIGN.md Decisions, crushed: 6 rungs"
check TR_ESCAPE_BISECTIONS 10 "docs/DESIGN.md Decisions, crushed: 10 halvings"
check TR_UNBURY_MIN_REACH 2 "docs/DESIGN.md Decisions, crushed: max(3 reaches, 2 m) + skin"
check TR_RECOVER_WALK_TIME 0.5 "docs/DESIGN.md reference move, recover.c: more than 0.5 s of it"
check TR_CARRY_INSIDE 1e-3 "docs/DESIGN.md Moving ground: more than 1 mm inside its ground is not carried"
check TR_MAX_SKIN 0.05 "docs/RELIABILITY.md: skin range [1e-4, 0.05] m"
check TR_MAX_SNAP_SUPPRESS 3600 "docs/RELIABILITY.md Inputs: a snap timer in [0, 3600] s"
check TR_UNIT_TOLERANCE 1e-3 "docs/RELIABILITY.md Inputs: unit within 1e-3"
check TR_SINCOS_MAX 33554432 "docs/DESIGN.md Determinism: Cody-Waite below 2^25 rad"
check TREAD_MAX_LAYERS 32 "docs/DESIGN.md Layers, README Collision world: 32 layers"
check TREAD_MAX_COORDINATE 65536 "docs/DESIGN.md Large worlds, README: 65,536 m"
check TREAD_MAX_SPEED 1000 "docs/DESIGN.md Put is not moved, docs/RELIABILITY.md Inputs"
check TREAD_CHARACTER_STATE_SIZE 200 "README Save and restore: 200 bytes"
check SOAK_TOLERANCE 1e-3 "docs/RELIABILITY.md checks: penetration at most 1 mm (tools/soak/soak.h)"
check SOAK_FLOOR_SLACK 0.01 "docs/RELIABILITY.md checks: fall_through more than 1 cm below (tools/soak/check.c)"

# 2. docs/DESIGN.md "Layers": the math layer (include/tread/math.h) uses only + - * /, sqrtf and the exact fabsf and
# isfinite: every call in it, comments left out, is to one of those or to math.h's own tread_ functions.
others=$(sed -E 's|//.*||' "$root/include/tread/math.h" | grep -oE '\b[A-Za-z_][A-Za-z_0-9]*[[:space:]]*\(' | tr -d ' (' |
  grep -vE '^(tread_[a-z_0-9]+|sqrtf|fabsf|isfinite|if|for|while|return|sizeof|defined)$' | sort -u || true)
if [ -n "$others" ]; then
  echo "FAIL include/tread/math.h calls more than docs/DESIGN.md's math layer allows (+ - * /, sqrtf, fabsf, isfinite): $others"
  failed=1
else
  echo "ok   include/tread/math.h calls only sqrtf, fabsf and isfinite (docs/DESIGN.md Layers)"
fi

[ "$failed" = 0 ] && echo "check_doc_constants: the docs' constants match the code"
exit "$failed"
