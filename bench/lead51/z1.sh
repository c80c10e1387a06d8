#!/usr/bin/env bash
# session 51 lead, round z1 (DIR = build/cubins-z1: bash bench/lead51/build_cubins.sh z1): issue 14's block-scaled
# cell on the goal shapes (cube4096, cube8192 = prefill_attn_out, prefill_mlp_up): pt_pp128, pt_pp192, bs192 and bs256
# in Z1_PROCESSES (default "1 2") interleaved gemmc-bench processes, then the two 192 kernels at the power cap on
# cube8192 and prefill_mlp_up (Z1_SHORT=1 leaves the capped pair out). Predictions in bench/lead51/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-z1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead51/z1.sh z1 "$dir" 300
gpu_stage_build 150 || exit 1
for i in ${Z1_PROCESSES:-1 2}; do gpu_bench "k-$i" 80 --cubin-dir "$dir" --suite "$dir/r2.yaml"; done
[ -n "${Z1_SHORT:-}" ] ||
  gpu_sustain sus 90 --cubin-dir "$dir" --suite "$dir/r2.yaml" --cubins '*192.cubin' --shapes cube8192,prefill_mlp_up
