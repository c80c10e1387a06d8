#!/usr/bin/env bash
# session 24 lead, round s4 (DIR = build/cubins-s4: bench/lead24/build_cubins.sh s4): the block-scaled 128x256 kernel
# (the block-scaled bundle's cube4096 pick) in five other tile orders beside main's (along M, groups of 8) and the
# per-tensor pingpong kernel, the cell's denominator. Suite on the five, three interleaved gemmc-bench processes on
# cube4096.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-s4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead24/s4.sh s4 "$dir" 300
gpu_stage_build 150 || exit 1
new="bs_g4.cubin bs_g2.cubin bs_g1.cubin bs_n8.cubin bs_n4.cubin"
gpu_stage_suite 80 "$gpu_suite_shapes" $(for c in $new; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $new)
for i in 1 2 3; do
  gpu_bench c4k$i 50 --cubin-dir "$dir" --cubins "$all" --suite "$dir/r1.yaml" --shapes cube4096
done
