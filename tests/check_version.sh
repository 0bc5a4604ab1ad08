#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One version everywhere: include/tread/base.h is the source of truth (CMake's project version and the pkg-config
# file are generated from it); the npm package (web/package.json), the changelog's newest entry and `tread --version`
# must say the same.
#   tests/check_version.sh SOURCE_DIR CMAKE_VERSION [TREAD_COMMAND]
set -euo pipefail
src=$1 cmake_version=$2 cli=${3:-}
header=$(awk '/^#define TREAD_VERSION_(MAJOR|MINOR|PATCH) /{printf "%s%s", s, $3; s="."}' "$src/include/tread/base.h")
status=0
check() { # what value
  if [ "$2" = "$header" ]; then echo "ok    $1: $2"; else echo "FAIL  $1 says '$2', include/tread/base.h says $header"; status=1; fi
}
check "CMake project version" "$cmake_version"
check "web/package.json" "$(sed -n 's/^  "version": "\([^"]*\)".*/\1/p' "$src/web/package.json")"
check "CHANGELOG.md's newest entry" "$(sed -n 's/^## \([0-9][0-9.]*\).*/\1/p' "$src/CHANGELOG.md" | head -1)"
if [ -n "$cli" ]; then
  check "tread --version" "$("$cli" --version | sed -n 's/^tread //p' | head -1)"
fi
exit $status
