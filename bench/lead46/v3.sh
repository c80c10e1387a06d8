#!/usr/bin/env bash
# session 46 lead, round v3 (DIR = build/cubins-v3: bash bench/lead46/build_cubins.sh v3): the 128x128 and 128x192
# pingpong kernels and the block-scaled 192x128 and 128x256 kernels at the FP8 bundles' rules' M edges
# (bench/lead46/v3.yaml), one interleaved gemmc-bench process. Predictions in bench/lead46/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-v3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead46/v3.sh v3 "$dir" 200
gpu_stage_build 150 || exit 1
gpu_bench k-1 160 --cubin-dir "$dir" --suite "$dir/v3.yaml"
