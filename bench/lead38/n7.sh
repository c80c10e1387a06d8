#!/usr/bin/env bash
# lead round n7 (DIR = build/cubins-n7: bench/lead38/build_cubins.sh n7): after the swap_ab stride fix (1c852b7)
# gemmc tune ranks swap_ab at M = 1-7. The suite on the new kernels, then h200_bf16_tn_auto rebuilt beside the same
# bundle built before the fix on the sweep's 23 shapes with M <= 64, and gemmc tune's new top 4 for the three M = 3
# shapes beside the bundle's swap_ab 16x64 pingpong.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n7}
source scripts/gpu_common.sh
gpu_round_begin bench/lead38/n7.sh n7 "$dir" 200
gpu_stage_build 60 || exit 1
gpu_stage_suite 40 1x1x16,3x4608x3584,7x300x200,33x100x64,129x130x1000,385x300x384,300x520x4096 \
  "$dir"/h200_bf16_tn_auto/h200_bf16_tn_auto_auto0.cubin "$dir"/m3/tune__*.cubin
shapes=$(suite_shape_names bench/suites/sweep.yaml '$2 <= 64')
for b in h200_bf16_tn_auto h200_bf16_tn_auto_before; do
  gpu_bench "$b-1" 40 --bundle "$dir/$b" --suite bench/suites/sweep.yaml --shapes "$shapes"
done
gpu_bench m3 40 --cubin-dir "$dir/m3" --suite "$dir/m3/shapes.yaml"
