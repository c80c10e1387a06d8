#!/usr/bin/env bash
# session 16 lead, round l2 (DIR = build/cubins-l2: bench/lead16/build_cubins.sh l2): block-scaled FP8 without turns
# (round l1's best, bs192_nt) again beside bs192_t, with groups of 16 and under stream_k; the two-warpgroup form on
# 128x128 (bs128ws_nt) and the shipped 128x256 without its turns (bs_nt), for cube4096; the shipped bs and the
# per-tensor denominators. The suite on every kernel new in this round, then two gemmc-bench processes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l2}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
ragged=1x1x16,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2048x2048x16384
new="bs192_nt_g16.cubin bs192_nt_sk.cubin bs128ws_nt.cubin bs_nt.cubin"
gpu_stage_suite 90 "$ragged" $(for c in $new; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $new)
gpu_bench bench1 150 --cubin-dir "$dir" --cubins "$all" --suite "$dir/fp8.yaml"
key=$(echo "$all" | tr , '\n' | grep -E '^(bs|bs192_nt|bs192_nt_sk|bs128ws_nt|pt_sk|pt_pp)\.cubin$' | paste -sd,)
gpu_bench bench2 100 --cubin-dir "$dir" --cubins "$key" --suite "$dir/fp8.yaml"
