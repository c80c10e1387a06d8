#!/usr/bin/env bash
# lead round l2 (DIR = build/cubins-l2: bench/lead35/build_cubins.sh l2): FP8 at M = 272-480 of 28672x8192 (session
# 34's rounds k3-k6 on an H200): the suite on the boxed block-scaled kernel, per tensor and per row/column / block
# scales in two processes each, the per-tensor and per-row/column bundles as bundles.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead35/l2.sh l2 "$dir" 420
gpu_stage_build 150 || exit 1
gpu_stage_suite 30 "$gpu_suite_shapes" "$dir/bs_g1_ab32.cubin"
rc=$?
k=$(gpu_drop_failed $rc "rc_pp.cubin,rc_pp_ab32.cubin,rc_pp192.cubin,rc_64x192.cubin,bs_g1.cubin,bs_g1_ab32.cubin" bs_g1_ab32.cubin)
for i in 1 2; do
  gpu_bench "pt$i" 60 --cubin-dir "$dir" --cubins pt_pp.cubin,pt_pp_ab32.cubin,pt_pp192.cubin,pt_pp192_ab32.cubin,pt_64x192.cubin --suite "$dir/shapes.yaml"
  gpu_bench "rcbs$i" 70 --cubin-dir "$dir" --cubins "$k" --suite "$dir/shapes.yaml"
done
for b in h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn; do gpu_bench "$b" 25 --bundle "$dir/$b" --suite "$dir/shapes.yaml"; done
