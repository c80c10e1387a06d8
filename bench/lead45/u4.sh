#!/usr/bin/env bash
# session 45 lead, round u4 (DIR = build/cubins-u4: bash bench/lead45/build_cubins.sh u4): the shipped 192x128
# block-scaled kernel (along N, groups of 8, since session 45) beside along N in groups of 16 and 4, the old order
# (along M, 8) and the per-tensor 128x192 pingpong in both orders: suite on the new order, one interleaved gemmc-bench process, then
# each kernel alone at the power cap (--sustain 2) on cube8192 and prefill_mlp_up. Predictions in
# bench/lead45/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-u4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead45/u4.sh u4 "$dir" 300
gpu_stage_build 150 || exit 1
gpu_stage_suite 40 "$gpu_suite_shapes" "$dir"/bs192_n16.cubin "$dir"/pt_pp192_n8.cubin
gpu_bench k-1 60 --cubin-dir "$dir" --suite "$dir/t2.yaml"
gpu_sustain sus 170 --cubin-dir "$dir" --suite "$dir/t2.yaml"
