#!/usr/bin/env bash
# lead round m1 (DIR = build/cubins-m1: bench/lead36/build_cubins.sh m1): session 36's bundle rules read as bundles,
# two processes each, on the shapes they were taken from (bench/lead36/shapes.yaml).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-m1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead36/m1.sh m1 "$dir" 200
gpu_stage_build 150 || exit 1
for i in 1 2; do
  gpu_bench "bf16_$i" 35 --bundle "$dir/h200_bf16_tn" --suite "$dir/shapes.yaml"
  gpu_bench "fp8_$i" 30 --bundle "$dir/h200_fp8_e4m3_tn" --suite "$dir/shapes.yaml"
done
