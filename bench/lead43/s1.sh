#!/usr/bin/env bash
# session 43 lead, round s1 (DIR = build/cubins-s1: bench/lead43/build_cubins.sh s1): the block-scaled bundle's new
# default (bs256w: the free-running 128x256 kernel with wait_ahead and unroll 2) under stream_k and split_k 2 (the
# unrolled loop's first run there: suite first), with groups of 16 and unroll 4, beside the cooperative 128x256 it
# replaced, the clustered kernel with scales from global memory with and without unroll 2, the 192x128 kernel and the per-tensor kernels, two gemmc-bench processes on the goal shapes and at
# M = 256 / 512; then the per-tensor and block-scaled bundles in one process, twice (issue 14's cell, read as a
# ratio in one process). Runs on either GPU; predictions in bench/lead43/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-s1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead43/s1.sh s1 "$dir" 400
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir"/bs256w*.cubin "$dir"/bs256_ws_2x1_ns_u2.cubin
for i in 1 2; do gpu_bench "k-$i" 110 --cubin-dir "$dir" --suite "$dir/s1.yaml"; done
b=(--bundle "$dir/h200_fp8_e4m3_tn" --bundle "$dir/h200_fp8_e4m3_blockscale_tn")
for i in 1 2; do gpu_bench "bundles-$i" 60 "${b[@]}" --suite "$dir/r2.yaml"; done
