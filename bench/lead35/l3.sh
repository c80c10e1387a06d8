#!/usr/bin/env bash
# lead round l3 (DIR = build/cubins-l3: bench/lead35/build_cubins.sh l3): decode and small batches with A in boxes
# (mainloop.a_box_rows) at M = 1-128: the suite on the boxed kernels, then bf16 and FP8 in two processes each.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead35/l3.sh l3 "$dir" 360
gpu_stage_build 150 || exit 1
boxed="bf16_pp64_ab32.cubin bf16_pp64_ab16.cubin bf16_dec64_ab32.cubin fp8_pp64_ab32.cubin fp8_ws128x64_ab32.cubin"
gpu_stage_suite 60 "$gpu_suite_shapes" $(for c in $boxed; do echo "$dir/$c"; done)
rc=$?
bf=$(gpu_drop_failed $rc "bf16_pp64.cubin,bf16_pp64_ab32.cubin,bf16_pp64_ab16.cubin,bf16_dec64.cubin,bf16_dec64_ab32.cubin" $boxed)
fp=$(gpu_drop_failed $rc "fp8_pp64.cubin,fp8_pp64_ab32.cubin,fp8_ws128x64.cubin,fp8_ws128x64_ab32.cubin" $boxed)
for i in 1 2; do
  gpu_bench "bf$i" 50 --cubin-dir "$dir" --cubins "$bf" --suite "$dir/shapes.yaml"
  gpu_bench "fp$i" 40 --cubin-dir "$dir" --cubins "$fp" --suite "$dir/shapes.yaml"
done
# The hand-picked bf16 bundle beside gemmc tune's (whose M = 1-64 and 65-512 kernels take 32-row boxes since
# session 35), on the same shapes.
for b in h200_bf16_tn h200_bf16_tn_auto; do gpu_bench "$b" 25 --bundle "$dir/$b" --suite "$dir/shapes.yaml"; done
