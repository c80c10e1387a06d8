#!/usr/bin/env bash
# session 46 lead, round v4 (DIR = build/cubins-v4: bash bench/lead46/build_cubins.sh v4): the block-scaled 192x128
# and 128x256 kernels with the per-tensor 128x192 pingpong beside them on wide 8192-row layers (bench/lead46/v4.yaml),
# one interleaved gemmc-bench process, then each at the power cap on prefill_mlp_up. Predictions in
# bench/lead46/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-v4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead46/v4.sh v4 "$dir" 200
gpu_stage_build 150 || exit 1
gpu_bench k-1 80 --cubin-dir "$dir" --suite "$dir/v4.yaml"
gpu_sustain sus 80 --cubin-dir "$dir" --suite "$dir/v4.yaml" --shapes prefill_mlp_up
