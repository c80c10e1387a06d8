#!/usr/bin/env bash
# lead round k1v (DIR = build/cubins-k1: bench/lead34/build_cubins.sh k1): the goal cells in about 200 s, for an
# H200 only: the per-tensor and block-scaled FP8 bundles in one process each (issue 14's block-scaled cell), the
# mma.sync peak and the sm_80 goal kernels in a CUDA graph (issue 12), no sustained readings.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-k1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead38/k1v.sh k1v "$dir" 200
gpu_stage_build 60 || exit 1
for b in h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn; do gpu_bench "$b-1" 40 --bundle "$dir/$b" --suite "$dir/r2.yaml"; done
timeout 30 "$dir/mma-sync-peak" --json "$OUT/mma_sync_peak.json" >"$OUT/mma_sync_peak.txt" 2>&1
gpu_bench sm80 50 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --graph
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" | tee "$OUT/fraction.md"
