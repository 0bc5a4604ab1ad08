#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The soak's second sample in `make test` (docs/RELIABILITY.md, "In make test"): the same size as soak_sample, on a
# seed derived from the commit, so that every change to the code runs worlds no earlier commit ran. Fails on any
# violation not in the known list; whatever it finds is fixed, or listed there with its reason, in the same change.
# The seed comes from the git trees of the code the soak runs (src/, include/, tools/soak/) at HEAD rather than from
# the commit's own hash: listing a violation in tests/data/soak_known_violations.txt then keeps the seed it was found
# on (a commit hash would change with the list, and with it the worlds); a commit that changes none of that code runs
# the same worlds as its parent, which would find the same. Outside a git checkout: the fixed FALLBACK_SEED.
#   tests/soak_commit_sample.sh SOURCE_DIR --seed                       print the seed line and exit
#   tests/soak_commit_sample.sh SOURCE_DIR TREAD_SOAK UPDATES KNOWN     print it and run the sample
set -u
FALLBACK_SEED=27 # not soak_sample's 12: a checkout without git still runs other worlds
src=$1
seed=$FALLBACK_SEED
origin="not a git checkout: the fixed fallback seed"
if trees=$(git -C "$src" rev-parse HEAD:src HEAD:include HEAD:tools/soak 2>/dev/null) &&
   commit=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null); then
  # The first 8 hex digits of the trees' hash: a seed of 0 .. 2^32 - 1.
  hash=$(printf '%s\n' "$trees" | git hash-object --stdin)
  seed=$((16#${hash:0:8}))
  origin="from the trees of src/, include/ and tools/soak/ at commit $commit"
fi
echo "soak_sample_commit: seed $seed ($origin); replay a world with tread_soak --replay $seed:WORLD"
[ "${2:-}" = "--seed" ] && exit 0
soak=$2 updates=$3 known=$4
exec "$soak" --seed "$seed" --updates "$updates" --jobs 2 --known "$known"
