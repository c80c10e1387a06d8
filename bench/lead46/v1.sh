#!/usr/bin/env bash
# session 46 lead, round v1 (DIR = build/cubins-v1: bash bench/lead46/build_cubins.sh v1): the per-tensor bundle
# (its 128x192 pingpong now on prefill_mlp_up too) and the block-scaled bundle in one process on issue 14's goal
# shapes, twice interleaved with the 128x128 pingpong (the old prefill_mlp_up pick; r2.yaml's *.cubin) beside them, then at the power
# cap (--sustain 2) on cube8192 and prefill_mlp_up. Predictions in bench/lead46/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-v1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead46/v1.sh v1 "$dir" 200
gpu_stage_build 150 || exit 1
b=(--bundle "$dir/h200_fp8_e4m3_tn" --bundle "$dir/h200_fp8_e4m3_blockscale_tn")
for i in 1 2; do gpu_bench "bundles-$i" 60 "${b[@]}" --suite "$dir/r2.yaml"; done
gpu_sustain bundles-sus 90 "${b[@]}" --suite "$dir/r2.yaml" --shapes cube8192,prefill_mlp_up
