#!/usr/bin/env bash
# session 43 lead, round s2 (DIR = build/cubins-s2: bash bench/lead43/build_cubins.sh s2): the shipped 192x128
# block-scaled kernel beside the same PTX with the producer / consumer registers set to 32 / 160 and 40 / 152, and
# the 192x128 in 2x1 / 1x2 multicast clusters at 40 / 152 (no spill there), the bundle's 128x256 default and its
# stream_k form, and the per-tensor kernels: the suite on the new cubins, then two gemmc-bench processes on the goal
# shapes and the two bundles in one process. Runs on either GPU; predictions in bench/lead43/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-s2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead43/s2.sh s2 "$dir" 240
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir"/bs192_*p??.cubin
for i in 1 2; do gpu_bench "k-$i" 70 --cubin-dir "$dir" --suite "$dir/r2.yaml"; done
b=(--bundle "$dir/h200_fp8_e4m3_tn" --bundle "$dir/h200_fp8_e4m3_blockscale_tn")
for i in 1; do gpu_bench "bundles-$i" 60 "${b[@]}" --suite "$dir/r2.yaml"; done
