#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tolerance table of docs/DESIGN.md, generated from the code: every named floating-point constant of src/ and
# include/ (a `#define TR_...` or `#define TREAD_...` whose value is a float literal, or a multiple of or alias for
# another such constant): the tolerances, and the limits and thresholds beside them. Integer constants (counts,
# capacities, iterations) are not in it, nor src/trig.c's (pi's parts and series coefficients: mathematics, not
# choices) nor TR_PI_D. For each: its value, its unit and meaning as its comment states them, and its file.
#   scripts/tolerances_table.sh [--write | --check] [ROOT]
#     (no option) print the table; --write replace it in docs/DESIGN.md (between the tolerances-table markers);
#     --check fail, showing the difference, when docs/DESIGN.md's table is not the generated one (ctest tolerance_table).
set -euo pipefail
mode=print
case "${1:-}" in --write | --check) mode=${1#--}; shift ;; esac
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
doc="$root/docs/DESIGN.md"

table() {
  cd "$root"
  # One record per constant: file, name, value as written, comment (the comment lines above it, shared by a run of
  # #defines, and its own trailing comment), and whether the file says "metres unless stated".
  find src include -name '*.[ch]' ! -path src/trig.c | LC_ALL=C sort | while IFS= read -r file; do
    awk -v file="$file" '
      /metres unless stated/ { metres = 1 }
      # A caption ("// ---- named tolerances ----") heads a section: it is the comment of no constant. A comment line wholly
      # in parentheses is an aside about something else.
      /^[[:space:]]*\/\/ ----/ || /^[[:space:]]*\/\/\/? ?\(.*\)$/ { comment = ""; held = 0; next }
      /^[[:space:]]*\/\/\/?/ { line = $0; sub(/^[[:space:]]*\/\/\/?[[:space:]]?/, "", line)
                              comment = (comment == "" || held ? "" : comment " ") line; held = 0; next }
      /^#define (TR|TREAD)_[A-Z0-9_]+[[:space:]]/ {
        name = $2; value = $0; sub(/^#define [A-Z0-9_]+[[:space:]]+/, "", value)
        own = ""; if (match(value, /\/\/\/?<?/)) { own = substr(value, RSTART + RLENGTH); value = substr(value, 1, RSTART - 1) }
        gsub(/^[[:space:]]+|[[:space:]]+$/, "", value); gsub(/^[[:space:]]+/, "", own)
        text = comment; if (own != "") text = (text == "" ? own : text " " own)
        printf "%s\t%s\t%s\t%s\t%d\n", file, name, value, text, metres
        held = 1; next }
      { comment = ""; held = 0 }
    ' "$file"
  done | awk -F'\t' '
    # A float literal (1.0e-4f, 0.99985f, 3600.0, -0.01f), parentheses and sign allowed.
    function literal(v) { gsub(/[()]/, "", v); return v ~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?f?$/ && v ~ /[.eE]/ }
    function number(v) { gsub(/[()f]/, "", v); return v + 0 }
    function shown(x) { return sprintf("%.10g", x) }
    # The unit its comment states: the first word of the comment, a parenthesis or a comma clause that opens with one
    # ("(metres)", ", m/s", "(the sine of 6 degrees)", "(dimensionless |length - 1|)"), or "this share", "this many
    # times", "this cosine", "many ulps"; else its name (_COS, _DEGREES); else the file default, "metres unless stated".
    function unit(name, text, metres,   u) {
      if (match(text, /^(metres|Metres|seconds|Seconds|radians|dimensionless)/)) return tolower(substr(text, 1, RLENGTH))
      if (match(text, /\((metres|m\/s|m\^2|seconds|radians|dimensionless|relative|a cosine|cosine|the sine|sine|ulps|degrees)[^)]*\)/)) {
        u = substr(text, RSTART + 1, RLENGTH - 2); sub(/[,;:].*/, "", u); return u
      }
      if (match(text, /, (metres|m\/s|seconds|radians|dimensionless)/)) return substr(text, RSTART + 2, RLENGTH - 2)
      if (text ~ /this share|share of/) return "share"
      if (text ~ /this many times/) return "ratio"
      if (text ~ /this cosine/) return "cosine"
      if (text ~ /many ulps|^Ulps of/) return "ulps"
      if (name ~ /_COS$/) return "cosine"
      if (name ~ /_DEGREES$/) return "degrees"
      return metres ? "metres (file default)" : "not stated"
    }
    { file[NR] = $1; name[NR] = $2; value[NR] = $3; text[NR] = $4; metres[NR] = $5; index_of[$2] = NR; n = NR }
    END {
      # Resolve values: literals, then aliases (NAME) and multiples (k * NAME) of constants already resolved.
      for (pass = 0; pass < 4; pass++)
        for (i = 1; i <= n; i++) {
          if (i in val) continue
          v = value[i]; gsub(/[()]/, "", v)
          if (literal(v)) { val[i] = number(v); written[i] = v; sub(/f$/, "", written[i]); continue }
          if (v in index_of && index_of[v] in val) { val[i] = val[index_of[v]]; written[i] = shown(val[i]) " (`" v "`)"; continue }
          if (split(v, part, /[[:space:]]*\*[[:space:]]*/) == 2 && literal(part[1]) && part[2] in index_of && index_of[part[2]] in val) {
            val[i] = number(part[1]) * val[index_of[part[2]]]
            written[i] = shown(val[i]) " (" number(part[1]) " x `" part[2] "`)"
          }
        }
      print "| name | value | unit | meaning (its comment) | file |"
      print "| --- | --- | --- | --- | --- |"
      for (i = 1; i <= n; i++) {
        if (!(i in val) || name[i] == "TR_PI_D") continue
        meaning = text[i]
        # The first sentence: up to a full stop ending a word, before a capital ("d . n" and "e.g. a" go on).
        if (match(meaning, /[^ ]\. [A-Z(]/)) meaning = substr(meaning, 1, RSTART)
        sub(/\.$/, "", meaning); gsub(/\|/, "\\|", meaning)
        u = unit(name[i], text[i], metres[i]); gsub(/\|/, "\\|", u)
        printf "| `%s` | %s | %s | %s | `%s` |\n", name[i], written[i], u, meaning, file[i]
        count++
      }
      if (count == 0) { print "tolerances_table.sh: no constants found" > "/dev/stderr"; exit 1 }
    }'
}

generated=$(table)
case "$mode" in
  print) printf '%s\n' "$generated" ;;
  write | check)
    grep -q '<!-- tolerances-table:begin -->' "$doc" || { echo "tolerances_table.sh: $doc has no tolerances-table markers" >&2; exit 1; }
    new=$(mktemp)
    trap 'rm -f "$new"' EXIT
    printf '%s\n' "$generated" | awk -v table=/dev/stdin '
      /<!-- tolerances-table:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
      /<!-- tolerances-table:end -->/ { skip = 0 }
      !skip { print }
    ' "$doc" > "$new"
    if [ "$mode" = write ]; then
      cp "$new" "$doc"
      echo "updated $doc ($(printf '%s\n' "$generated" | tail -n +3 | wc -l) constants)"
    elif ! diff -u "$doc" "$new"; then
      echo "FAIL docs/DESIGN.md's tolerance table is not the code's: run scripts/tolerances_table.sh --write" >&2
      exit 1
    else
      echo "ok   docs/DESIGN.md's tolerance table is the code's ($(printf '%s\n' "$generated" | tail -n +3 | wc -l) constants)"
    fi ;;
esac
