#!/usr/bin/env bash
# session 51 lead, round z2 (DIR = build/cubins-z2: bash bench/lead51/build_cubins.sh z2): a fifth stage for the
# 192x128 block-scaled kernel (bs192_s5: one epilogue chunk buffer and unstaged scales free it) beside its two
# one-change controls (bs192_b1, bs192_ss0), bs192_s3 (3 stages), the shipped bs192 and pt_pp192: the suite on the
# four new cubins, two interleaved gemmc-bench processes on the goal shapes, then bs192, bs192_s5 and pt_pp192 at the
# power cap on cube8192, then ncu of bs192 and bs192_s5 on cube8192 (Z2_NCU names the kernels; Z2_SHORT=1 leaves
# the capped stage and ncu out). Runs on either GPU; predictions in bench/lead51/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-z2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead51/z2.sh z2 "$dir" 330
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir"/bs192_*.cubin
for i in 1 2; do gpu_bench "k-$i" 80 --cubin-dir "$dir" --suite "$dir/r2.yaml"; done
[ -n "${Z2_SHORT:-}" ] ||
  gpu_sustain sus 60 --cubin-dir "$dir" --suite "$dir/r2.yaml" --cubins 'bs192.cubin,bs192_s5.cubin,pt_pp192.cubin' --shapes cube8192
[ -n "${Z2_SHORT:-}" ] || [ -z "$ncu" ] || for c in ${Z2_NCU:-bs192 bs192_s5}; do
  gpu_ncu_report "$c" "$dir" "$c" "$dir/r2.yaml" cube8192 45 "$gpu_loop_metrics" "${gpu_loop_sections[@]}"
done
