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
# and the edges between them (with the symbols or include lines that make them) are printed.
#
# And the folders depend only downward: src/ (core, pool, trig, validate) < geometry < world < character < motor. A
# file may include the headers and call the functions of its own folder and of folders below it, never above (the
# world never calls the controller, the controller never calls the motor). The same edges, between folders: an
# include that resolves to a file of a higher folder, an undefined symbol defined by an object of a higher folder.
# Each is printed with its file, the include line or symbol, and the rule. Headers outside src/ (tread/tread.h, the
# public API) are not folders and are not checked. A folder of src/ missing from `layers` is an error too. The upward
# edges the tree still has are listed in `allowed`, each with what removes it; a listed edge that no longer occurs is
# an error, so the list only shrinks. Exit 1 on any cycle, unlisted upward edge, stale listing or unplaced folder.
set -euo pipefail
src=${1:?usage: check_cycles.sh SRC_DIR OBJECT_DIR [FOLDER...]}
objdir=${2:?usage: check_cycles.sh SRC_DIR OBJECT_DIR [FOLDER...]}
shift 2
src=$(cd "$src" && pwd)
[ -d "$objdir" ] || { echo "check_cycles: no object directory $objdir (build the library first)" >&2; exit 1; }
mapfile -t all_folders < <(cd "$src" && find . -type d | sed 's|^\./||' | sort)
if [ $# -gt 0 ]; then
  folders=("$@")
else
  folders=("${all_folders[@]}")
fi

# The folders of src/, lowest first ("." is src/ itself).
layers=(. geometry world character motor)
declare -A rank
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done
label() { local l="src/$1"; printf '%s\n' "${l%/.}"; } # folder -> src/FOLDER, "." -> src
# Upward edges not yet removed: "FILE SYMBOL" for a call, "FILE \"INCLUDE\"" for an include.
allowed=()
order=$(for f in "${layers[@]}"; do label "$f"; done | paste -sd' ' | sed 's/ / < /g')
rule() { echo "$(label "$1")/ may $2 only its own folder and those below it ($order)"; }
unplaced=0
for f in "${all_folders[@]}"; do
  if [ -z "${rank[$f]+set}" ]; then echo "folder_layers: $(label "$f")/ has no layer: place it in check_cycles.sh's layers"; unplaced=1; fi
done

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

status=$unplaced
: >"$work/upward" # upward edges between folders: "KEY<tab>message", KEY as in `allowed`
for folder in "${folders[@]}"; do
  folder=${folder%/}
  [ -z "$folder" ] && folder=.
  dir="$src/$folder"
  [ -d "$dir" ] || { echo "check_cycles: no folder $dir" >&2; exit 1; }
  dir=$(cd "$dir" && pwd)
  # Include edges: from module of the including file to the module of the included file, same folder only; an
  # include of a file in a higher folder of src/ is an upward edge.
  : >"$work/inc"
  for f in "$dir"/*.c "$dir"/*.h; do
    [ -e "$f" ] || continue
    from=$(basename "$f"); from=${from%.*}
    { grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "$f" || true; } | while IFS= read -r line; do
      target=$(printf '%s\n' "$line" | sed -E 's/[^"]*"([^"]+)".*/\1/')
      resolved=$(realpath -m "$dir/$target")
      [ -e "$resolved" ] || continue
      if [ "${resolved%/*}" != "$dir" ]; then
        case "$resolved" in "$src"/*) ;; *) continue ;; esac
        to_folder=${resolved%/*}; to_folder=${to_folder#"$src"}; to_folder=${to_folder#/}; to_folder=${to_folder:-.}
        if [ -n "${rank[$to_folder]+set}" ] && [ -n "${rank[$folder]+set}" ] && [ "${rank[$to_folder]}" -gt "${rank[$folder]}" ]; then
          printf '%s\t%s\n' "$(label "$folder")/$(basename "$f") \"$target\"" \
            "$(label "$folder")/$(basename "$f"):${line%%:*} includes \"$target\" ($(label "$to_folder")/): $(rule "$folder" include)" \
            >>"$work/upward"
        fi
        continue
      fi
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
  # Call edges between folders: an undefined symbol of this folder's objects defined by an object of a higher folder.
  [ -n "${rank[$folder]+set}" ] || continue
  awk -v f="$folder" -v ranks="${layers[*]}" '
    BEGIN { n = split(ranks, l, " "); for (i = 1; i <= n; ++i) rank[l[i]] = i }
    NR == FNR { def[$3] = $1; defmod[$3] = $2; next }
    $1 == f && ($3 in def) && (def[$3] in rank) && rank[def[$3]] > rank[f] { print $2, $3, def[$3], defmod[$3] }' \
    "$work/defined" "$work/undefined" | sort -u | while read -r module symbol to_folder to_module; do
    printf '%s\t%s\n' "$(label "$folder")/$module.c $symbol" \
      "$(label "$folder")/$module.c calls $symbol, defined in $(label "$to_folder")/$to_module.c: $(rule "$folder" call)"
  done >>"$work/upward"
done
declare -A listed seen
for key in "${allowed[@]}"; do listed[$key]=1; done
while IFS=$'\t' read -r key message; do
  if [ -n "${listed[$key]+set}" ]; then
    seen[$key]=1
    echo "folder_layers: allowed (listed in check_cycles.sh until removed): $message"
  else
    echo "folder_layers: $message"
    status=1
  fi
done <"$work/upward"
for key in "${allowed[@]}"; do
  file=${key%% *}
  file=${file#src/}
  case " ${folders[*]} " in *" $(dirname "$file") "*) ;; *) continue ;; esac # a folder not checked this run
  if [ -z "${seen[$key]+set}" ]; then
    echo "folder_layers: the allowed upward edge '$key' no longer occurs: remove it from check_cycles.sh's allowed"
    status=1
  fi
done
if [ $status -eq 0 ]; then
  labels=$(printf 'src/%s ' "${folders[@]}" | sed 's|src/\. |src |g; s| $||')
  echo "module_cycles: no include or call cycles in $labels"
  echo "folder_layers: no include or call from a folder to one above it ($order) but the ${#allowed[@]} listed in allowed"
fi
exit $status
