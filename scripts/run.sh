#!/usr/bin/env bash
# The main job: set up, build, then compile the default spec and show what
# gemmc produced.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
spec=${1:-$root/specs/h200_bf16_tn.yaml}
out=$build/out
mkdir -p "$out"
echo "== gemmc $spec --emit=mlir"
"$build/bin/gemmc" "$spec" --emit=mlir -o "$out/kernel.mlir"
cat "$out/kernel.mlir"
echo "== wrote $out/kernel.mlir"
