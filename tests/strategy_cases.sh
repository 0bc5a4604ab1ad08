#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Generated matrix cases the strategies once failed (the sweep's where the scene suite cannot reach them: a tilted
# up), each run under the strategy (and up vector) that failed it; every expectation must pass. Usage: strategy_cases.sh TREAD_CLI
set -euo pipefail
tread=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0
# case, strategy, extra options (why it once failed: docs/STRATEGIES.md, the strategy's section)
while read -r name strategy options; do
    "$tread" gen "$dir" --case "$name" >/dev/null
    # shellcheck disable=SC2086 # options are words
    if ! "$tread" run "$dir/$name.json" --strategy "$strategy" $options >"$dir/out.txt"; then
        echo "FAIL $name --strategy $strategy $options"
        grep FAIL "$dir/out.txt" || true
        status=1
    fi
done <<'CASES'
stairs-angled-y45-r0.35-t0.15-boxes-up-capsule-60hz contact --up 0.25,1,-0.15
stairs-angled-y45-r0.25-t0.15-mesh-up-box-30hz contact
stairs-straight-boxes-up-r0.40-t0.12-box-30hz contact
stairs-straight-boxes-up-r0.40-t0.12-box-30hz cast_down
step-h0.400-box-30hz contact
step-h0.400-box-30hz cast_down
stairs-straight-boxes-nosing-up-r0.40-t0.30-sphere-60hz cast_down
stairs-spiral-mesh-nosing-up-r0.40-t0.20-sphere-30hz contact --up 0.25,1,-0.15
stairs-spiral-mesh-nosing-up-r0.40-t0.12-capsule-30hz contact
micro-steps-r0.02-t0.02-mesh-up-capsule-30hz contact
micro-steps-r0.01-t0.05-mesh-up-box-120hz sweep --up 0.25,1,-0.15
micro-steps-r0.01-t0.05-boxes-up-box-60hz sweep --up 0.25,1,-0.15
curb-top-across-a30-h0.20-heightfield-on-box-240hz sweep --up 0.25,1,-0.15
curb-top-down-a30-h0.10-heightfield-on-box-30hz contact
curb-top-down-a45-h0.10-heightfield-on-box-60hz contact
curb-top-across-a30-h0.20-heightfield-on-box-30hz contact --up 0.25,1,-0.15
curb-top-up-a45-h0.35-mesh-on-box-30hz contact --up 0.25,1,-0.15
curb-approach-up-a45-h0.10-heightfield-on-box-60hz contact
curb-level-h0.10-heightfield-on-box-120hz contact --up 0.25,1,-0.15
stairs-spiral-mesh-up-r0.40-t0.20-capsule-60hz contact
stairs-spiral-boxes-up-r0.40-t0.12-box-30hz contact
tilted-sideways-a30-r0.10-t0.15-mesh-up-box-30hz contact
curb-approach-down-a30-h0.35-boxes-on-box-60hz contact
stairs-spiral-boxes-down-r0.40-t0.12-capsule-120hz riser
stairs-spiral-mesh-nosing-down-r0.40-t0.12-sphere-120hz riser --up 0.25,1,-0.15
stairs-spiral-boxes-nosing-down-r0.35-t0.12-capsule-120hz riser
CASES
exit $status
