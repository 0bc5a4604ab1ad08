#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Determinism: the library calls no libm transcendental function (their results differ between libms and versions);
# sin and cos are its own (src/trig.c), exp too (tread_exp). Of libm it may use only what IEEE 754 rounds correctly
# (sqrt, sqrtf) and what is exact (fabs, floor, ...). Reads the static library's undefined symbols.
#   tests/check_libm.sh path/to/libtread.a
set -euo pipefail
lib=${1:?usage: check_libm.sh path/to/libtread.a}
[ -f "$lib" ] || { echo "check_libm: no such library: $lib" >&2; exit 1; }
names='sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|exp|exp2|expm1|log|log2|log10|log1p|pow|cbrt|hypot|erf|erfc|tgamma|lgamma|sincos'
used=$(nm -u "$lib" | awk '$1 == "U" { print $2 }' | sort -u | grep -E "^($names)[fl]?$" || true)
if [ -n "$used" ]; then
  echo "check_libm: $lib calls libm transcendental functions (not deterministic across platforms):" >&2
  printf '  %s\n' $used >&2
  exit 1
fi
echo "check_libm: no libm transcendental function in $lib"
