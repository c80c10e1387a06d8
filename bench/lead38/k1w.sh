#!/usr/bin/env bash
# lead round k1w (DIR = build/cubins-k1: bench/lead34/build_cubins.sh k1): issue 14's block-scaled cell alone in
# about 100 s, for an H200 only: the per-tensor and block-scaled FP8 bundles in one process each.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-k1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead38/k1w.sh k1w "$dir" 100
gpu_stage_build 30 || exit 1
for b in h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn; do gpu_bench "$b-1" 35 --bundle "$dir/$b" --suite "$dir/r2.yaml"; done
