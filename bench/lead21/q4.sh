#!/usr/bin/env bash
# session 21 lead, round q4 (DIR = build/cubins-q4: bench/lead21/build_cubins.sh q4): rc_sk in the cooperative 2x1
# cluster with B multicast against rc_sk (both main's compiler) and the per-tensor twin pt_sk: the suite on the
# clustered kernel, two interleaved gemmc-bench processes (cuBLASLt's OUTER_VEC beside each per-row/column row) and
# the sustained reading at the power cap on cube8192.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-q4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead21/q4.sh q4 "$dir" 400
gpu_stage_build 150 || exit 1
shapes=1x1x16,33x100x64,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2100x4100x136
shapes+=,4096x2048x256,2048x4096x1024,4096x4096x4096
gpu_stage_suite 60 "$shapes" "$dir/rc_sk_2x1.cubin"
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" rc_sk_2x1.cubin)
gpu_bench bench1 80 --cubin-dir "$dir" --cubins "$all" --suite "$dir/q4.yaml"
gpu_bench bench2 80 --cubin-dir "$dir" --cubins "$all" --suite "$dir/q4.yaml"
sus=$(echo "$all" | tr , '\n' | grep rc_sk | paste -sd,)
gpu_sustain sustain 90 --cubin-dir "$dir" --cubins "$sus" --suite "$dir/q4.yaml" --shapes cube8192
