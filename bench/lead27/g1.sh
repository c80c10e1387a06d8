#!/usr/bin/env bash
# session 27 lead, round g1 (DIR = build/cubins-g1: bench/lead27/build_cubins.sh g1): the FP8 pingpong kernels on
# 128x192 tiles. The suite on them and on the specs whose register-store edge path changed (sfx_*), three interleaved
# gemmc-bench processes on cube8192 (each row beside the peer that fits its scaling: cuBLASLt FP8 per tensor,
# OUTER_VEC per row/column), two on prefill_mlp_up, one on cube4096, then the 8192 pairs sustained at the power cap.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-g1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead27/g1.sh g1 "$dir" 580
gpu_stage_build 150 || exit 1
new="pt_pp192.cubin pt_pp192_sk.cubin rc_pp192.cubin"
gpu_stage_suite 240 "$gpu_suite_shapes" $(for c in $new $(cd "$dir" && ls sfx_*.cubin); do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | grep -v '^sfx_' | paste -sd,)" $new)
for i in 1 2 3; do gpu_bench c8k$i 45 --cubin-dir "$dir" --cubins "$all" --suite "$dir/g1.yaml" --shapes cube8192; done
for i in 1; do gpu_bench mlp$i 60 --cubin-dir "$dir" --cubins "$all" --suite "$dir/g1.yaml" --shapes prefill_mlp_up; done
gpu_bench c4k 30 --cubin-dir "$dir" --cubins "$all" --suite "$dir/g1.yaml" --shapes cube4096
sus=$(echo "$all" | tr , '\n' | grep -E '^(rc_pp192|rc_sk_2x1)\.cubin$' | paste -sd,)
gpu_sustain sus8k 80 --cubin-dir "$dir" --cubins "$sus" --suite "$dir/g1.yaml" --shapes cube8192
