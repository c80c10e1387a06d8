#!/usr/bin/env bash
# session 13 lead, round l3 (DIR = build/cubins-l3: scripts/build_cubins.sh --check DIR
# specs/h200_tf32_128x256_coop.yaml, and gemmc bundle bench/bundles/h200_fp8_e4m3_{,blockscale_}tn.yaml -o
# DIR/bundle-NAME):
# TF32 beside cuBLAS TF32 on issue 14's four shapes (last measured in session 3), and the per-tensor FP8 bundle
# in two more processes (each shape's pick interleaved with cuBLASLt FP8), the block-scaled bundle in one.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l3}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 120 || exit 1
gpu_bench tf32 80 --cubin-dir "$dir" --suite "$dir/tf32.yaml"
gpu_bench bundle-pt1 80 --bundle "$dir/bundle-h200_fp8_e4m3_tn" --suite "$dir/fp8.yaml"
gpu_bench bundle-pt2 80 --bundle "$dir/bundle-h200_fp8_e4m3_tn" --suite "$dir/fp8.yaml"
gpu_bench bundle-bs 80 --bundle "$dir/bundle-h200_fp8_e4m3_blockscale_tn" --suite "$dir/fp8.yaml"
