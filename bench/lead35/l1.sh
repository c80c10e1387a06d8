#!/usr/bin/env bash
# lead round l1 (DIR = build/cubins-l1: bench/lead35/build_cubins.sh l1): bf16 at M = 272-480 of 28672x8192, the
# 128-row kernels with and without A in boxes of 32 rows: the suite on the three boxed kernels, two processes, and
# h200_bf16_tn as a bundle, and h200_bf16_tn_auto (gemmc tune's picks, boxed since session 35).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead35/l1.sh l1 "$dir" 400
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir/bf16_pp192_ab32.cubin" "$dir/bf16_coop_ab32.cubin" "$dir/bf16_dec128_ab32.cubin"
rc=$?
k=$(gpu_drop_failed $rc "bf16_pp192.cubin,bf16_pp192_ab32.cubin,bf16_coop.cubin,bf16_coop_ab32.cubin,bf16_dec128.cubin,bf16_dec128_ab32.cubin,bf16_pp64x192.cubin" bf16_pp192_ab32.cubin bf16_coop_ab32.cubin bf16_dec128_ab32.cubin)
for i in 1 2; do gpu_bench "bf$i" 80 --cubin-dir "$dir" --cubins "$k" --suite "$dir/shapes.yaml"; done
gpu_bench bf16_bundle 30 --bundle "$dir/h200_bf16_tn" --suite "$dir/shapes.yaml"
gpu_bench bf16_auto 30 --bundle "$dir/h200_bf16_tn_auto" --suite "$dir/shapes.yaml"
