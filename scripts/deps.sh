#!/usr/bin/env bash
# Make sure the Debian packages tread's build and tests need are present. As root, install what is
# missing; otherwise print the exact apt line and fail. Used by both `make run` and `make test`.
set -euo pipefail
packages=(build-essential cmake pkg-config libcmocka-dev libcjson-dev libassimp-dev clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "scripts/deps.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "scripts/deps.sh: missing Debian packages; run:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
