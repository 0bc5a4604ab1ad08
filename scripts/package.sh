#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Release archives (`make package`, docs/INSTALL.md):
#
#   scripts/package.sh source OUT_DIR   OUT_DIR/tread-X.Y.Z.tar.gz: git archive of HEAD (committed files only, under
#                                       tread-X.Y.Z/), what examples/cmake/fetchcontent fetches
#
# X.Y.Z is include/tread/base.h's version, the one source of it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(awk '/^#define TREAD_VERSION_(MAJOR|MINOR|PATCH) /{printf "%s%s", s, $3; s="."}' "$root/include/tread/base.h")
usage() { echo "usage: scripts/package.sh source OUT_DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
what=$1 out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)

case "$what" in
  source)
    git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || { echo "scripts/package.sh: $root is not a git checkout" >&2; exit 1; }
    if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
      echo "scripts/package.sh: note: uncommitted changes are not in the archive (it is HEAD, $(git -C "$root" rev-parse --short HEAD))" >&2
    fi
    git -C "$root" archive --format=tar.gz --prefix="tread-$version/" -o "$out/tread-$version.tar.gz" HEAD
    echo "$out/tread-$version.tar.gz"
    ;;
  *) usage ;;
esac
