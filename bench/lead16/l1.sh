#!/usr/bin/env bash
# session 16 lead, round l1 (DIR = build/cubins-l1: bench/lead16/build_cubins.sh l1): block-scaled FP8 on a 192x128
# tile of three consumer warpgroups (warp_specialized, one a 64-row block; the producer keeps 24 registers so that
# each consumer may grow to 160), with and without turns in warpgroup order (bs192_t / bs192_nt), groups of 16,
# stream_k, parts of 64 columns; the per-tensor twin pt192; the shipped block-scaled kernels (bs, bs_g16) and the
# per-tensor denominators (pt_sk on the 8192 cubes, pt_pp on cube4096). The suite on every new kernel, then two
# gemmc-bench processes (each kernel interleaved with its cuBLASLt peer).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l1}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
ragged=1x1x16,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2048x2048x16384
new=$(cd "$dir" && ls bs192*.cubin pt192.cubin)
gpu_stage_suite 90 "$ragged" $(for c in $new; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $new)
gpu_bench bench1 150 --cubin-dir "$dir" --cubins "$all" --suite "$dir/fp8.yaml"
key=$(echo "$all" | tr , '\n' | grep -E '^(bs|bs192_t|bs192_t_g16|bs192_t_sk|pt_sk|pt_pp|pt192)\.cubin$' | paste -sd,)
gpu_bench bench2 100 --cubin-dir "$dir" --cubins "$key" --suite "$dir/fp8.yaml"
