#!/usr/bin/env bash
# session 46 lead, round v2 (DIR = build/cubins-v2: bash bench/lead46/build_cubins.sh v2): the 128x128 and 128x192
# pingpong kernels and the block-scaled 192x128 kernel on the widened per-tensor rule's neighbourhood
# (bench/lead46/v2.yaml), one interleaved gemmc-bench process. Predictions in bench/lead46/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-v2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead46/v2.sh v2 "$dir" 150
gpu_stage_build 150 || exit 1
gpu_bench k-1 100 --cubin-dir "$dir" --suite "$dir/v2.yaml"
