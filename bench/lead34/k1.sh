#!/usr/bin/env bash
# session 34 lead, round k1 (DIR = build/cubins-k1: bench/lead34/build_cubins.sh k1): the goal cells of issues 12
# and 14 in one call on this tree's bundles (round h2's form): the per-row/column bundle in three processes, the
# per-tensor and block-scaled bundles in two, each sustained at the power cap; the mma.sync peak and the sm_80 goal
# kernels interleaved, in a CUDA graph and sustained, and their fractions of the peak.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-k1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead34/k1.sh k1 "$dir" 520
gpu_stage_build 150 || exit 1
for i in 1 2 3; do gpu_bench "rc$i" 40 --bundle "$dir/h200_fp8_e4m3_rowcol_tn" --suite "$dir/r2.yaml"; done
for i in 1 2; do
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn; do gpu_bench "$b-$i" 40 --bundle "$dir/$b" --suite "$dir/r2.yaml"; done
done
for b in h200_fp8_e4m3_rowcol_tn h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn; do
  gpu_sustain "$b-sus" 45 --bundle "$dir/$b" --suite "$dir/r2.yaml"
done
timeout 45 "$dir/mma-sync-peak" --sustain 2 --json "$OUT/mma_sync_peak.json" >"$OUT/mma_sync_peak.txt" 2>&1
gpu_sustain sm80 100 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --graph
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" | tee "$OUT/fraction.md"
