#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Make sure the Debian packages a job needs are present. As root, install what is missing; otherwise print the
# exact apt-get line and fail.
#
#   scripts/deps.sh [GROUP ...]     GROUP: core (default), docs, web, engine, levels, bench
#
#   core    what `make run` and `make test` need (they call this through `make deps`, with engine); git: the
#           commit-seeded soak sample reads HEAD's trees, and `make package` and example_fetchcontent archive HEAD
#   docs    `make docs` (the Doxygen API reference)
#   web     WebAssembly builds (emscripten; node-acorn for emcc's JS optimizer), node and npm for the web/ tests and
#           `make bench-peers`, tsc (node-typescript) to check the wrapper's types, chromium for browser runs
#   engine  Bullet (libbullet-dev): the Bullet adapter, adapters/bullet/, and its tests; `make deps` installs it with core
#   levels  OpenArena's maps (openarena-081-maps): the Quake III levels `tread walk`, `make levels` and the levels_sample
#           test walk (docs/LEVELS.md); `make deps` installs it with core and engine
#   bench   valgrind, for instruction counts (`make bench-callgrind`, bench/levels.sh --callgrind)
#
# Packages are installed without their Recommends (--no-install-recommends: `make test` on a fresh Debian 12 pulled
# 121 packages with them, most of a desktop for chromium). What the jobs need of those recommends is named here
# instead. Checked package by package (apt-cache show / apt-cache depends, Debian 12, every package the groups pull):
#   - ca-certificates (recommended by nodejs, git): npm ci downloads over HTTPS, and Debian's node reads the
#     system's certificate store; named in web.
#   - chromium-common recommends libgl1-mesa-dri, fonts-liberation, upower, udev, notification-daemon,
#     system-config-printer; chromium chromium-sandbox. Not needed: the browser test runs headless with
#     --no-sandbox and --use-angle=swiftshader (chromium's own ANGLE and SwiftShader, no Mesa driver), and fonts come
#     from fontconfig-config's dependency (fonts-dejavu-core). Checked by running the browser test with Mesa's driver
#     and GBM paths pointed at nothing and fontconfig limited to DejaVu: it passes.
#   - clang-14 recommends llvm-14-dev and python3: not needed to compile, link or fuzz (libclang-rt-14-dev, the
#     sanitizer and libFuzzer runtimes, is named in core); gcc's sanitizer runtimes are dependencies of libgcc-12-dev.
#   - cmake recommends gcc and make (build-essential has them); emscripten libjs-d3 and python3-numpy; libcmocka-dev
#     cmocka-doc; npm git and node-tap; valgrind gdb and valgrind-dbg; doxygen none (HAVE_DOT = NO: no graphviz):
#     none is used.
# Another apt or dpkg process (unattended-upgrades, a second build) may hold the package locks. Rather than
# failing with apt's "Could not get lock", wait for it: poll every 2 s, say who holds the lock, and give up
# after DEPS_LOCK_TIMEOUT seconds (default 300) with a message saying so.
set -euo pipefail

usage() {
  echo "usage: scripts/deps.sh [core|docs|web|engine|levels|bench ...]   (default: core)" >&2
  exit 2
}

group_packages() {
  case "$1" in
    core)   echo build-essential cmake pkg-config libcmocka-dev libcjson-dev libassimp-dev libzip-dev clang libclang-rt-14-dev git ;;
    docs)   echo doxygen ;;
    # npm: NodeSource's nodejs package carries npm itself and conflicts with Debian's npm package, so ask for
    # Debian's only where no npm command is there.
    web)    echo emscripten node-acorn node-typescript nodejs chromium ca-certificates "$(command -v npm >/dev/null 2>&1 || echo npm)" ;;
    engine) echo libbullet-dev ;;
    levels) echo openarena-081-maps ;;
    bench)  echo valgrind ;;
    -h|--help) usage ;;
    *) echo "scripts/deps.sh: unknown group '$1'" >&2; usage ;;
  esac
}

[ $# -eq 0 ] && set -- core
packages=()
for group in "$@"; do
  group_packages "$group" >/dev/null # exits here on an unknown group (a $(...) below would only exit its subshell)
  read -r -a list <<<"$(group_packages "$group")"
  packages+=("${list[@]}")
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "scripts/deps.sh: missing Debian packages ($*); run:" >&2
  echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

locks=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock)
timeout=${DEPS_LOCK_TIMEOUT:-300}

# Who holds `lock`, as "pid (command)" words; empty when it is free. lslocks (util-linux, always on Debian)
# lists fcntl locks, which apt and dpkg take, and flock locks alike; fuser (psmisc) lists processes that have
# the file open; as a last resort flock tries to take the lock for an instant.
lock_holders() {
  local lock=$1 pids="" pid out=""
  [ -e "$lock" ] || return 0
  if command -v lslocks >/dev/null 2>&1; then
    pids=$(lslocks -n -r -o PID,PATH 2>/dev/null | awk -v f="$lock" '$2 == f { print $1 }' | sort -un)
  elif command -v fuser >/dev/null 2>&1; then
    pids=$(fuser "$lock" 2>/dev/null || true)
  elif command -v flock >/dev/null 2>&1; then
    flock -n -E 99 "$lock" true 2>/dev/null || [ $? -ne 99 ] || pids="?"
  fi
  for pid in $pids; do
    if [ "$pid" = "?" ]; then out="another process"; break; fi
    out+="${out:+, }pid $pid ($(ps -o args= -p "$pid" 2>/dev/null | cut -c1-60 || true))"
  done
  echo "$out"
}

wait_for_locks() {
  local start=$SECONDS lock holders announced=""
  while :; do
    holders=""
    for lock in "${locks[@]}"; do
      holders=$(lock_holders "$lock")
      [ -n "$holders" ] && break
    done
    [ -z "$holders" ] && return 0
    if [ $((SECONDS - start)) -ge "$timeout" ]; then
      echo "scripts/deps.sh: gave up after ${timeout} s: $lock is still held by $holders." >&2
      echo "  Let that apt/dpkg run finish (or stop it), then run scripts/deps.sh $* again;" >&2
      echo "  DEPS_LOCK_TIMEOUT=SECONDS waits longer." >&2
      exit 1
    fi
    if [ "$announced" != "$lock $holders" ]; then
      echo "scripts/deps.sh: $lock is held by $holders; waiting up to ${timeout} s for it..." >&2
      announced="$lock $holders"
    fi
    sleep 2
  done
}

echo "scripts/deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
wait_for_locks "$@"
# The lock can be taken again between our check and apt's; apt then waits on its own for what is left.
left=$((timeout - SECONDS)); [ "$left" -lt 10 ] && left=10
apt-get -o DPkg::Lock::Timeout="$left" update -qq
apt-get -o DPkg::Lock::Timeout="$left" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
