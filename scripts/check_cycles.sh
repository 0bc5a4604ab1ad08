#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No cycles between the modules of one folder of src/: within src/, src/geometry, src/world, src/character and
# src/motor, the modules must form a layering (a DAG), both by #include and by call. A module is a .c file and
# its same-named .h (foo.c + foo.h = module foo); a header without a .c file is a module of its own.
#
#   scripts/check_cycles.sh SRC_DIR OBJECT_DIR [FOLDER...]
#
# SRC_DIR is the tree's src/; OBJECT_DIR holds the library's object files (CMake's object library:
# build/CMakeFiles/tread_objects.dir). FOLDERs (relative to SRC_DIR, "." = src/ itself) limit the check;
# by default every folder is checked.
#   includes: `#include "x.h"` that resolves to a file of the same folder gives an edge module -> x.
#   calls:    compile-free, from the object files: `nm` gives each object's defined and undefined symbols; an
#             undefined symbol defined by another object of the same folder gives an edge user -> definer.
# Each graph goes through tsort (coreutils), which says "input contains a loop" on a cycle; the cycle's modules
# and the edges between them (with the symbols or include lines that make them) are printed. Exit 1 on any cycle.
set -euo pipefail
src=${1:?usage: check_cycles.sh SRC_DIR OBJECT_DIR [FOLDER...]}
objdir=${2:?usage: check_cycles.sh SRC_DIR OBJECT_DIR [FOLDER...]}
shift 2
src=$(cd "$src" && pwd)
[ -d "$objdir" ] || { echo "check_cycles: no object directory $objdir (build the library first)" >&2; exit 1; }
if [ $# -gt 0 ]; then
  folders=("$@")
else
  mapfile -t folders < <(cd "$src" && find . -type d | sed 's|^\./||' | sort)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Object files, keyed by their source path relative to src/ (.../tread_objects.dir/src/character/foo.c.o).
mapfile -t objects < <(find "$objdir" -name '*.o' | sort)
[ ${#objects[@]} -gt 0 ] || { echo "check_cycles: no object files under $objdir" >&2; exit 1; }
: >"$work/defined"   # folder module symbol
: >"$work/undefined" # folder module symbol
for o in "${objects[@]}"; do
  rel=$(printf '%s\n' "$o" | sed -E 's|.*/src/||; s|\.o$||')   # character/foo.c
  case "$rel" in *.c) ;; *) continue ;; esac
  folder=$(dirname "$rel")
  module=$(basename "$rel" .c)
  nm -P --defined-only "$o" | awk -v f="$folder" -v m="$module" '$2 ~ /^[A-TV-Z]$/ { print f, m, $1 }' >>"$work/defined"
  nm -P --undefined-only "$o" | awk -v f="$folder" -v m="$module" '{ print f, m, $1 }' >>"$work/undefined"
done

# check GRAPH_NAME FOLDER EDGE_FILE: edge file lines are "from to why"; prints cycles, returns 1 if any.
check() {
  local kind=$1 folder=$2 edges=$3 out
  [ -s "$edges" ] || return 0
  if out=$(awk '{ print $1, $2 }' "$edges" | sort -u | tsort 2>&1 >/dev/null) && [ -z "$out" ]; then
    return 0
  fi
  local label=src${folder:+/$folder}
  label=${label%/.}
  echo "module_cycles: $kind cycle in $label/"
  # tsort reports each loop as "tsort: -: input contains a loop:" followed by one "tsort: MODULE" line per member.
  printf '%s\n' "$out" | awk '
    /input contains a loop/ { if (n) print members; members = ""; n = 0; next }
    { sub(/^tsort: /, ""); members = members (n++ ? " " : "") $0 }
    END { if (n) print members }' | while read -r members; do
    echo "  loop: $(printf '%s' "$members" | sed 's/ / -> /g') -> ${members%% *}"
    echo "  edges between these modules:"
    awk -v set=" $members " 'index(set, " " $1 " ") && index(set, " " $2 " ") {
        why[$1 " -> " $2] = why[$1 " -> " $2] (why[$1 " -> " $2] == "" ? "" : ", ") $3 }
      END { for (e in why) print "    " e "  (" why[e] ")" }' "$edges" | sort
  done
  return 1
}

status=0
for folder in "${folders[@]}"; do
  folder=${folder%/}
  [ -z "$folder" ] && folder=.
  dir="$src/$folder"
  [ -d "$dir" ] || { echo "check_cycles: no folder $dir" >&2; exit 1; }
  dir=$(cd "$dir" && pwd)
  # Include edges: from module of the including file to the module of the included file, same folder only.
  : >"$work/inc"
  for f in "$dir"/*.c "$dir"/*.h; do
    [ -e "$f" ] || continue
    from=$(basename "$f"); from=${from%.*}
    { grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "$f" || true; } | while IFS= read -r line; do
      target=$(printf '%s\n' "$line" | sed -E 's/[^"]*"([^"]+)".*/\1/')
      resolved=$(realpath -m "$dir/$target")
      [ "$(dirname "$resolved")" = "$dir" ] && [ -e "$resolved" ] || continue
      to=$(basename "$resolved"); to=${to%.*}
      if [ "$from" != "$to" ]; then echo "$from $to $(basename "$f"):${line%%:*}"; fi
    done >>"$work/inc"
  done
  check include "$folder" "$work/inc" || status=1
  # Call edges: an undefined symbol of one object defined by another object of the same folder.
  rel=$folder
  awk -v f="$rel" 'NR == FNR { if ($1 == f) def[$3] = $2; next }
                   $1 == f && ($3 in def) && def[$3] != $2 { print $2, def[$3], $3 }' \
    "$work/defined" "$work/undefined" >"$work/calls"
  check call "$folder" "$work/calls" || status=1
done
if [ $status -eq 0 ]; then
  labels=$(printf 'src/%s ' "${folders[@]}" | sed 's|src/\. |src |g; s| $||')
  echo "module_cycles: no include or call cycles in $labels"
fi
exit $status
