#!/usr/bin/env bash
# Issue 12: where the sm_80 kernels lose time on the H200 (through the JIT).
# ncu's warp-state, scheduler, compute and occupancy sections for one launch
# of each given fatbin on cube4096, written to $OUT/ncu-NAME.txt.
#   scripts/gpu_sm80_profile.sh build/cubins-sm80/a100_bf16_128x128x32.fatbin ...
source "$(dirname "$0")/gpu_common.sh"
gpu_build_bench >"$OUT/profile-build.txt" 2>&1 || { tail -20 "$OUT/profile-build.txt"; exit 1; }
bench="$build/bin/gemmc-bench"
for f in "$@"; do
  n=$(basename "${f%.*}")
  dir=$(mktemp -d); cp "$f" "$f.json" "$dir/"
  timeout 120 ncu --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
    --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    -k regex:'^gemm_' --launch-skip 2 --launch-count 1 \
    "$bench" --cubin-dir "$dir" --shapes cube4096 --iters 3 --warmup 1 >"$OUT/ncu-$n.txt" 2>&1
  grep -E "Stall|Issued|Eligible|Active Warps|Registers|Achieved Occupancy|Theoretical Occupancy|Block Limit|Duration|Executed Ipc|Pipe|Bank" "$OUT/ncu-$n.txt" | head -60
done
