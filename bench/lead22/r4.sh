#!/usr/bin/env bash
# session 22 lead, round r4 (DIR = build/cubins-r4: bench/lead22/build_cubins.sh r4): issue 14's block-scaled cell
# (>= 0.9 of the per-tensor kernel) with both bundles in one gemmc-bench process (--bundle repeated), three
# processes, then sustained at the power cap; the per-row/column bundle beside them.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-r4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead22/r4.sh r4 "$dir" 300
gpu_stage_build 150 || exit 1
b=(--bundle "$dir/h200_fp8_e4m3_tn" --bundle "$dir/h200_fp8_e4m3_blockscale_tn" --bundle "$dir/h200_fp8_e4m3_rowcol_tn")
for i in 1 2 3; do gpu_bench both$i 50 "${b[@]}" --suite "$dir/r2.yaml"; done
gpu_sustain sus 110 "${b[@]}" --suite "$dir/r2.yaml"
