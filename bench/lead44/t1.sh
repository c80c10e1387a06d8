#!/usr/bin/env bash
# session 44 lead, round t1 (DIR = build/cubins-t1: bash bench/lead44/build_cubins.sh t1): session 43's round s2 (the
# shipped 192x128 block-scaled kernel beside the same PTX with the producer / consumer registers set to 32 / 160 and
# 40 / 152, and in 2x1 / 1x2 multicast clusters at 40 / 152) and the 192x128 with a direct-store epilogue (5 stages
# where the TMA store's ring left 4; 4 stages too), beside the bundle's 128x256 default and the per-tensor kernels:
# the suite on the new cubins, then two gemmc-bench processes on the goal shapes and the two bundles in one process.
# Runs on either GPU; predictions in bench/lead44/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-t1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead44/t1.sh t1 "$dir" 330
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir"/bs192_*p??.cubin "$dir"/bs192d*.cubin
for i in 1 2; do gpu_bench "k-$i" 80 --cubin-dir "$dir" --suite "$dir/r2.yaml"; done
b=(--bundle "$dir/h200_fp8_e4m3_tn" --bundle "$dir/h200_fp8_e4m3_blockscale_tn")
for i in 1; do gpu_bench "bundles-$i" 50 "${b[@]}" --suite "$dir/r2.yaml"; done
