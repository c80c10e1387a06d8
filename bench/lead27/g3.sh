#!/usr/bin/env bash
# session 27 lead, round g3 (DIR = build/cubins-g3: bench/lead27/build_cubins.sh g3): the per-row/column 128x192
# pingpong kernel in groups of 4 and 16, rastered along N and in a 2x1 multicast cluster, beside the shipped one and
# its per-tensor twin: the suite on the cluster form, three interleaved gemmc-bench processes on cube8192, the
# shipped one and the best variant sustained.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-g3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead27/g3.sh g3 "$dir" 400
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir/rc_pp192_c21.cubin"
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" rc_pp192_c21.cubin)
for i in 1 2 3; do gpu_bench c8k$i 45 --cubin-dir "$dir" --cubins "$all" --suite "$dir/g1.yaml" --shapes cube8192; done
gpu_sustain sus 120 --cubin-dir "$dir" --cubins "$all" --suite "$dir/g1.yaml" --shapes cube8192
