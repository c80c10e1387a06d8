#!/usr/bin/env bash
# lead round n5 (DIR = build/cubins-n5: bench/lead38/build_cubins.sh n5): session 38's h200_bf16_tn rules (taken from
# rounds n3-n4) beside the bundle before them on the 38 sweep shapes with M = 65-1024 (the 8 the rules move and their
# neighbours), two processes each; before them the suite on the four new kernels.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n5}
source scripts/gpu_common.sh
gpu_round_begin bench/lead38/n5.sh n5 "$dir" 420
gpu_stage_build 150 || exit 1
gpu_stage_suite 50 "$gpu_suite_shapes" "$dir"/h200_bf16_tn/gemm_bf16_{64x64_pp,128x64_ws,64x192_pp,128x192_pp_abox32_sk}.cubin
shapes=$(suite_shape_names bench/suites/sweep.yaml '$2 >= 65 && $2 <= 1024')
for i in 1 2; do
  for b in h200_bf16_tn h200_bf16_tn_before; do
    gpu_bench "$b-$i" 70 --bundle "$dir/$b" --suite bench/suites/sweep.yaml --shapes "$shapes"
  done
done
