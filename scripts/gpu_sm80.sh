#!/usr/bin/env bash
# Issue 12's GPU check in one device call: the sm_80 fatbinaries (built on the
# CPU machine with
#   scripts/build_cubins.sh --check build/cubins-sm80 specs/a100_*.yaml test/gpu/specs/sm80_*.yaml
# and carried) run on this GPU through the driver's JIT:
#   1. scripts/gpu_run.sh on that folder: the runtime's unit tests, the
#      mma.sync peak (bench/mma_sync_peak.cu), the correctness suite on every
#      shape class (M = 1, ragged M/N, K not a multiple of BLOCK_K, padded
#      leading dimensions, graphs), gemmc-bench on cube4096 and cube8192
#      against cuBLAS, and $OUT/mma_sync.md: each kernel as a fraction of the
#      mma.sync peak of its type;
#   2. compute-sanitizer memcheck and racecheck on small shapes.
#   scripts/gpu_sm80.sh [DIR]       (default build/cubins-sm80)
source "$(dirname "$0")/gpu_common.sh"
dir=${1:-build/cubins-sm80}
if ! ls "$dir"/*.fatbin >/dev/null 2>&1; then
  echo "gpu_sm80.sh: no .fatbin in $dir; build it with scripts/build_cubins.sh and carry it" >&2
  exit 2
fi
status=0
# The seed's three kernels are pinned to 4096^3: the suite runs them at that
# size, and the run-time-sized sm80_* kernels on every shape class.
"$root/scripts/gpu_run.sh" --cubins "$dir" --no-triton --bench-shapes cube4096,cube8192 \
  --suite-shapes 1x1x16,1x300x40,64x64x64,127x255x72,129x130x100,1000x1000x1000,4096x4096x4096 || status=1
OUT=$OUT GEMMC_GPU_BUILD=$build "$root/scripts/gpu_sanitize.sh" "$dir"/sm80_*.fatbin "$dir"/a100_bf16_*.fatbin \
  | tee -a "$OUT/logs.txt" || status=1
echo "== gpu_sm80.sh: exit $status" | tee -a "$OUT/logs.txt"
exit $status
