#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerate the scene x strategy table in docs/STRATEGIES.md from `tread suite scenes --strategy all`.
# Everything between the table markers is replaced; the prose around it is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
tool="${1:-build/tread}"
doc=docs/STRATEGIES.md
table=$(mktemp)
trap 'rm -f "$table"' EXIT
"$tool" suite scenes --strategy all --markdown > "$table" || true  # failures are what the table shows
grep -q '^| scene |' "$table" || { echo "strategies_table.sh: $tool produced no table" >&2; exit 1; }
awk -v table="$table" '
  /<!-- strategies-table:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
  /<!-- strategies-table:end -->/ { skip = 0 }
  !skip { print }
' "$doc" > "$doc.new"
mv "$doc.new" "$doc"
echo "updated $doc"
