#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The shared library exports the public API and nothing else: every defined dynamic symbol must be tread_*.
# Internal functions (tr_*) are hidden by -fvisibility=hidden; a public function exports only when its header
# declaration carries TREAD_API. Run by ctest as `exported_symbols`.
# And the other way round: every function the public headers declare (not static inline) is exported.
#   scripts/check_exports.sh LIBRARY [INCLUDE_DIR] [--skip]   (--skip: exit 77, ctest's "skipped", e.g. under
#   sanitizers; INCLUDE_DIR defaults to include/tread next to this script)
set -euo pipefail
lib=${1:?usage: check_exports.sh path/to/libtread.so [--skip]}
include=$(cd "$(dirname "$0")/.." && pwd)/include/tread
if [ -n "${2:-}" ] && [ "$2" != "--skip" ]; then include=$2; shift; fi
if [ "${2:-}" = "--skip" ]; then
  echo "exported_symbols: skipped (sanitizer build: the instrumented library defines runtime symbols)"
  exit 77
fi
[ -f "$lib" ] || { echo "exported_symbols: no such library: $lib" >&2; exit 1; }
# Symbols every ELF shared object may define; they are not part of any API.
standard='^(_init|_fini|_edata|_end|__bss_start|_DYNAMIC|_GLOBAL_OFFSET_TABLE_|__data_start|__dso_handle)$'
symbols=$(nm -D --defined-only "$lib" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' | sort -u)
count=$(printf '%s\n' "$symbols" | grep -c '^tread_' || true)
stray=$(printf '%s\n' "$symbols" | grep -v '^tread_' | grep -Ev "$standard" | grep -v '^$' || true)
if [ -n "$stray" ]; then
  echo "exported_symbols: $lib exports symbols outside the public API (not tread_*):" >&2
  printf '  %s\n' $stray >&2
  echo "Internal functions must not be visible; is the library built with C_VISIBILITY_PRESET hidden?" >&2
  exit 1
fi
if [ "$count" -eq 0 ]; then
  echo "exported_symbols: $lib exports no tread_* symbol at all (TREAD_API missing from the headers?)" >&2
  exit 1
fi
# Declarations at file scope: a line that starts a function declaration (return type, name, open parenthesis),
# outside typedefs and static inline definitions.
declared=$(grep -hE '^(TREAD_API )?[a-z_][a-z0-9_ ]*[ *]tread_[a-z0-9_]+\(' "$include"/*.h | grep -Ev '^(static|typedef)' |
  sed -E 's/^.*[ *](tread_[a-z0-9_]+)\(.*$/\1/' | sort -u)
missing=$(comm -23 <(printf '%s\n' "$declared") <(printf '%s\n' "$symbols") || true)
if [ -n "$missing" ]; then
  echo "exported_symbols: declared in $include but not exported by $lib (TREAD_API missing?):" >&2
  printf '  %s\n' $missing >&2
  exit 1
fi
echo "exported_symbols: $count tread_* symbols, nothing else; all $(printf '%s\n' "$declared" | wc -l) declared functions exported"
