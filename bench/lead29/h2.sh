#!/usr/bin/env bash
# session 29 lead, round h2 (DIR = build/cubins-h2: bench/lead29/build_cubins.sh h2): the goal table of issues 12
# and 14 in one call on this tree's bundles. Issue 14: the three FP8 bundles on the goal shapes, interleaved
# (per-row/column three processes, per-tensor and block-scaled two) and sustained at the power cap. The bf16 bundle
# with the M = 256 rule on the anchors, and its kernel beside the 128x256 cooperative one at the rule's edges (and
# 64x192 / 64x224 pingpong kernels at M = 192). Issue
# 12: the mma.sync peak and the sm_80 goal kernels interleaved, in a CUDA graph and sustained, and the fractions.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-h2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead29/h2.sh h2 "$dir" 540
gpu_stage_build 150 || exit 1
for i in 1 2 3; do gpu_bench "rc$i" 40 --bundle "$dir/h200_fp8_e4m3_rowcol_tn" --suite "$dir/r2.yaml"; done
for i in 1 2; do
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn; do gpu_bench "$b-$i" 40 --bundle "$dir/$b" --suite "$dir/r2.yaml"; done
done
for b in h200_fp8_e4m3_rowcol_tn h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn; do
  gpu_sustain "$b-sus" 45 --bundle "$dir/$b" --suite "$dir/r2.yaml"
done
gpu_bench bf16_waves 60 --bundle "$dir/h200_bf16_tn_waves" --suite "$dir/anchors.yaml"
gpu_bench bf16 45 --cubin-dir "$dir" --cubins bf16_pp160.cubin,bf16_coop.cubin,bf16_pp64x192.cubin,bf16_pp64x224.cubin --suite "$dir/h2_bf16.yaml"
timeout 45 "$dir/mma-sync-peak" --sustain 2 --json "$OUT/mma_sync_peak.json" >"$OUT/mma_sync_peak.txt" 2>&1
gpu_sustain sm80 100 --cubin-dir "$dir/sm80" --suite "$dir/sm80/sm80.yaml" --graph
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" | tee "$OUT/fraction.md"
