#!/usr/bin/env bash
# session 22 lead, round r2 (DIR = build/cubins-r2: bench/lead22/build_cubins.sh r2): the goal table of issues 12
# and 14 in one call. Issue 14: the three FP8 bundles (per-tensor, per-row/column, block-scaled) and the TF32 kernel
# on the goal shapes, two interleaved gemmc-bench processes each (alternating) and one sustained at the power cap.
# Issue 12: the mma.sync peak, the sm_80 goal kernels interleaved, in a CUDA graph and sustained, and the fractions.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-r2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead22/r2.sh r2 "$dir" 560
gpu_stage_build 150 || exit 1
bundles="h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn h200_fp8_e4m3_blockscale_tn"
for i in 1 2; do
  for b in $bundles; do gpu_bench "$b-$i" 45 --bundle "$dir/$b" --suite "$dir/r2.yaml"; done
  gpu_bench "tf32-$i" 45 --cubin-dir "$dir" --cubins tf32.cubin --suite "$dir/r2.yaml"
done
for b in $bundles; do gpu_sustain "$b-sus" 45 --bundle "$dir/$b" --suite "$dir/r2.yaml"; done
gpu_sustain tf32-sus 45 --cubin-dir "$dir" --cubins tf32.cubin --suite "$dir/r2.yaml"
timeout 45 "$dir/mma-sync-peak" --sustain 2 --json "$OUT/mma_sync_peak.json" >"$OUT/mma_sync_peak.txt" 2>&1
gpu_sustain sm80 100 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --graph
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" | tee "$OUT/fraction.md"
