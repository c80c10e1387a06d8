#!/usr/bin/env bash
# The cubins a gemmc-bench suite names, for a GPU round (scripts/gpu_tune3.sh, gpu_tune4.sh):
#   scripts/build_suite_cubins.sh SUITE OUT_DIR SPEC_DIR...
# Each NAME.cubin the suite lists is compiled from the first SPEC_DIR that holds NAME.yaml, through
# scripts/build_cubins.sh --check (no spill, no C75xx warning) into OUT_DIR (emptied first).
set -uo pipefail
suite=$1 out=$2
shift 2
specs=()
for name in $(grep -o '[A-Za-z0-9_]*\.cubin' "$suite" | sort -u); do
  name=${name%.cubin}
  for d in "$@"; do
    if [ -f "$d/$name.yaml" ]; then specs+=("$d/$name.yaml"); continue 2; fi
  done
  echo "build_suite_cubins.sh: no spec for $name.cubin in $*" >&2
  exit 1
done
rm -rf "$out" && mkdir -p "$out" && "$(dirname "$0")/build_cubins.sh" --check "$out" "${specs[@]}"
