#!/usr/bin/env bash
# session 24 lead, round s3 (DIR = build/cubins-s3: bench/lead24/build_cubins.sh s3): the per-tensor 128x128 pingpong
# kernel and its 2x1 multicast twin with 6 (auto), 5 and 4 stages. Suite on the four new kernels, two interleaved
# gemmc-bench processes on cube4096 and one on cube8192.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-s3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead24/s3.sh s3 "$dir" 300
gpu_stage_build 150 || exit 1
new="pt_pp_s5.cubin pt_pp_s4.cubin pt_pp_2x1_s5.cubin pt_pp_2x1_s4.cubin"
gpu_stage_suite 80 "$gpu_suite_shapes" $(for c in $new; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $new)
for i in 1 2; do
  gpu_bench c4k$i 45 --cubin-dir "$dir" --cubins "$all" --suite "$dir/r1.yaml" --shapes cube4096
done
gpu_bench c8k 60 --cubin-dir "$dir" --cubins "$all" --suite "$dir/r1.yaml" --shapes cube8192
