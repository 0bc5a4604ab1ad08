#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Release archives (`make package`, docs/INSTALL.md):
#
#   scripts/package.sh npm OUT_DIR      OUT_DIR/tread-X.Y.Z.tgz: the npm package of the WebAssembly build (web/dist,
#                                       which `make wasm` builds): the module, the typed wrapper, the scene files' wrapper,
#                                       web/README.md and LICENSE; web/package.json without its scripts and
#                                       devDependencies (none at run time). Installs offline: npm install ./tread-X.Y.Z.tgz
#   scripts/package.sh source OUT_DIR   OUT_DIR/tread-X.Y.Z.tar.gz: git archive of HEAD (committed files only, under
#                                       tread-X.Y.Z/), what examples/cmake/fetchcontent fetches
#
# X.Y.Z is include/tread/base.h's version, the one source of it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(awk '/^#define TREAD_VERSION_(MAJOR|MINOR|PATCH) /{printf "%s%s", s, $3; s="."}' "$root/include/tread/base.h")
usage() { echo "usage: scripts/package.sh npm|source OUT_DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
what=$1 out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)

case "$what" in
  npm)
    dist=$root/web/dist
    for f in tread.mjs tread.d.ts tread.d.mts lib/tread_wasm.mjs; do
      [ -f "$dist/$f" ] || { echo "scripts/package.sh: web/dist/$f is missing: run make wasm" >&2; exit 1; }
    done
    stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
    mkdir -p "$stage/dist"
    cp -R "$dist/tread.mjs" "$dist/tread.d.ts" "$dist/tread.d.mts" "$dist/lib" "$dist/scene" "$stage/dist/"
    cp "$root/web/README.md" "$root/LICENSE" "$stage/"
    # The published manifest: no scripts (they run this repository's tests) and no devDependencies (the viewer's
    # and the tests' tools); the version must be the headers'.
    node -e '
      const fs = require("fs"), [from, to, version] = process.argv.slice(1);
      const pkg = JSON.parse(fs.readFileSync(from, "utf8"));
      if (pkg.version !== version) { console.error(`web/package.json says ${pkg.version}, include/tread/base.h ${version}`); process.exit(1); }
      if (pkg.private || pkg.dependencies) { console.error("web/package.json must not be private nor have dependencies"); process.exit(1); }
      delete pkg.scripts; delete pkg.devDependencies;
      fs.writeFileSync(to, JSON.stringify(pkg, null, 2) + "\n");
    ' "$root/web/package.json" "$stage/package.json" "$version"
    rm -f "$out/tread-$version.tgz"
    (cd "$stage" && npm pack --pack-destination "$out" --loglevel=error >/dev/null)
    [ -f "$out/tread-$version.tgz" ] || { echo "scripts/package.sh: npm pack wrote no $out/tread-$version.tgz" >&2; exit 1; }
    echo "$out/tread-$version.tgz"
    ;;
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
