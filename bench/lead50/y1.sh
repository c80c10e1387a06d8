#!/usr/bin/env bash
# session 50 lead, round y1 (DIR = build/cubins-y1: bash bench/lead50/build_cubins.sh y1): the 192x128 block-scaled
# kernel unclustered and in a 1x2 A-multicast cluster under ncu on cube8192 (issue 14's block-scaled cell): one
# gemmc-bench process over the four kernels on the goal shapes, then each kernel's second launch on cube8192 with
# the tensor pipe, L2 bytes, FMA instructions, stall ratios, warp states and per-instruction samples.
# Runs on either GPU; predictions in bench/lead50/README.md. With little device time: Y1_SHORT=1 leaves out the
# gemmc-bench process, Y1_KERNELS names the kernels ncu reads (default: the four, most telling first).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-y1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead50/y1.sh y1 "$dir" 420
gpu_stage_build 150 || exit 1
[ -n "${Y1_SHORT:-}" ] || gpu_bench "k-1" 60 --cubin-dir "$dir" --suite "$dir/r2.yaml"
[ -n "$ncu" ] || { echo "y1: no ncu"; exit 0; }
for c in ${Y1_KERNELS:-bs192_p40 bs192_1x2n_p40 bs192 bs192_1x2_p40}; do
  gpu_ncu_report "$c" "$dir" "$c" "$dir/r2.yaml" cube8192 45 "$gpu_loop_metrics" "${gpu_loop_sections[@]}"
done
