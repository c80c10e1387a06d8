#!/usr/bin/env bash
# The main job: set up, build, then compile the default spec to a cubin and
# show what gemmc produced: the checked schedule, ptxas's report, the
# manifest the runtime reads, and the model's prediction.
#   scripts/run.sh [SPEC]      (default specs/h200_bf16_128x256_coop.yaml)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
spec=${1:-$root/specs/h200_bf16_128x256_coop.yaml}
out=$build/out
mkdir -p "$out"
name=$(basename "$spec" .yaml)
echo "== gemmc $spec --emit=mlir (the checked schedule)"
"$build/bin/gemmc" "$spec" --emit=mlir -o "$out/$name.mlir"
grep -o "#gemmc.schedule<.*>" "$out/$name.mlir" | head -1
echo "== gemmc $spec -o $out/$name.cubin"
start=$(date +%s%N)
"$build/bin/gemmc" "$spec" -o "$out/$name.cubin" --ptxas-verbose
end=$(date +%s%N)
echo "compiled in $(( (end - start) / 1000000 )) ms: $(wc -c < "$out/$name.cubin") bytes of cubin"
echo "== $out/$name.cubin.json (the manifest)"
cat "$out/$name.cubin.json"
echo "== gemmc analyze $spec --shape 8192x8192x8192"
"$build/bin/gemmc" analyze "$spec" --shape 8192x8192x8192 || true
