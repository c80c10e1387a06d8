#!/usr/bin/env bash
# lead round m2 (DIR = build/cubins-m2: bench/lead36/build_cubins.sh m2): the bf16 bundles on issue 16's 77-shape
# sweep (bench/suites/sweep.yaml): h200_bf16_tn with session 36's rules beside gemmc tune's h200_bf16_tn_auto, one
# process each, to map where the hand-picked bundle still runs under cuBLAS; before them the suite on their kernels.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-m2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead36/m2.sh m2 "$dir" 300
gpu_stage_build 150 || exit 1
# The suite on the bundles' kernels first: session 36 split gemmc_launch (LaunchParams, launchConfig), and this is
# its first GPU run (TMA, stream_k's workspace, the boxed kernels).
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir"/h200_bf16_tn/*.cubin "$dir"/h200_bf16_tn_auto/*.cubin
gpu_bench bf16_tn 120 --bundle "$dir/h200_bf16_tn" --suite "$dir/shapes.yaml"
gpu_bench bf16_auto 120 --bundle "$dir/h200_bf16_tn_auto" --suite "$dir/shapes.yaml"
