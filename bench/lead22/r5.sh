#!/usr/bin/env bash
# session 22 lead, round r5 (DIR = build/cubins-r5: bench/lead22/build_cubins.sh r5): cube4096 under the
# per-tensor and per-row/column bundles' 128x128 pingpong kernels against the 128x256 cooperative kernels
# (persistent, and in the 2x1 multicast cluster): the suite on rc_coop_2x1, three interleaved processes, then
# each sustained at the power cap.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-r5}
source scripts/gpu_common.sh
gpu_round_begin bench/lead22/r5.sh r5 "$dir" 250
gpu_stage_build 150 || exit 1
gpu_stage_suite 40 "$gpu_suite_shapes" "$dir/rc_coop_2x1.cubin"
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" rc_coop_2x1.cubin)
for i in 1 2 3; do gpu_bench c4k$i 30 --cubin-dir "$dir" --cubins "$all" --suite "$dir/r1.yaml" --shapes cube4096; done
gpu_sustain sus 80 --cubin-dir "$dir" --cubins "$all" --suite "$dir/r1.yaml" --shapes cube4096
