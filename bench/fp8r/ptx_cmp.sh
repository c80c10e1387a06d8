#!/usr/bin/env bash
# Issue 14 (branch fp8r): which specs' sm_90a / sm_80 / sm_100a PTX a gemmc
# binary changes against another's (main's):
#   bench/fp8r/ptx_cmp.sh GEMMC_MAIN GEMMC_NEW [OUT_DIR]
# Every spec in specs/, test/gpu/specs and bench/*/ (not bench/results);
# prints "same N, differ M" and the names that differ.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
main=$1 new=$2 out=${3:-$(mktemp -d)}
mkdir -p "$out"
same=0 differ=() failed=()
for s in specs/*.yaml test/gpu/specs/*.yaml bench/*/*.yaml; do
  case $s in bench/results/* | bench/suites/* | bench/bundles/*) continue ;; esac
  n=$(echo "$s" | tr / _)
  "$main" "$s" --emit=ptx -o "$out/$n.main.ptx" 2>/dev/null || { failed+=("$s"); continue; }
  "$new" "$s" --emit=ptx -o "$out/$n.new.ptx" 2>/dev/null || { failed+=("$s (new)"); continue; }
  if cmp -s "$out/$n.main.ptx" "$out/$n.new.ptx"; then
    same=$((same + 1)); rm -f "$out/$n.main.ptx" "$out/$n.new.ptx"
  else
    differ+=("$s")
  fi
done
echo "same $same, differ ${#differ[@]}, not compiled ${#failed[@]} (by either)"
printf 'differs: %s\n' "${differ[@]}"
printf 'not compiled: %s\n' "${failed[@]}" | head -20
