#!/usr/bin/env bash
# lead round n1 (DIR = build/cubins-n1: bench/lead37/build_cubins.sh n1): the three bf16 bundles on issue 16's
# 77-shape sweep (bench/suites/sweep.yaml), one gemmc-bench process each: h200_bf16_tn (hand-picked rules, session
# 36's included), h200_bf16_tn_auto (gemmc tune, one kernel a range) and h200_bf16_tn_autosplit (one kernel a
# stretch of M, split_m); before them the GPU suite on all their kernels (the first GPU run of session 36's split
# gemmc_launch, and of the split bundle's kernels).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead37/n1.sh n1 "$dir" 420
gpu_stage_build 150 || exit 1
gpu_stage_suite 90 "$gpu_suite_shapes" "$dir"/h200_bf16_tn/*.cubin "$dir"/h200_bf16_tn_auto/*.cubin \
  "$dir"/h200_bf16_tn_autosplit/*.cubin
gpu_bench bf16_tn 100 --bundle "$dir/h200_bf16_tn" --suite "$dir/shapes.yaml"
gpu_bench bf16_auto 100 --bundle "$dir/h200_bf16_tn_auto" --suite "$dir/shapes.yaml"
gpu_bench bf16_autosplit 100 --bundle "$dir/h200_bf16_tn_autosplit" --suite "$dir/shapes.yaml"
