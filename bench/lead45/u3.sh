#!/usr/bin/env bash
# session 45 lead, round u3 (DIR = build/cubins-u3: bash bench/lead45/build_cubins.sh u3): the per-tensor and
# block-scaled bundles in one process on the goal shapes, twice interleaved, then at the power cap on cube8192
# (--sustain 2): issue 14's cell with the 8192-class block-scaled kernel walking along N.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-u3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead45/u3.sh u3 "$dir" 200
gpu_stage_build 150 || exit 1
b=(--bundle "$dir/h200_fp8_e4m3_tn" --bundle "$dir/h200_fp8_e4m3_blockscale_tn")
for i in 1 2; do gpu_bench "bundles-$i" 60 "${b[@]}" --suite "$dir/r2.yaml"; done
gpu_sustain bundles-sus 60 "${b[@]}" --suite "$dir/r2.yaml" --shapes cube8192
