#!/usr/bin/env bash
# session 46 lead, round w1 (staged for an H200; DIR = build/cubins-w1: bash bench/lead46/build_cubins.sh w1): the
# 128x128 and 128x192 pingpong kernels and the block-scaled 192x128 and 128x256 kernels on bench/lead46/w1.yaml, two
# interleaved gemmc-bench processes, then the block-scaled pair at the power cap on 16384x28672. Predictions in
# bench/lead46/README.md. W1_PROCESSES (default "1 2") names the interleaved processes; W1_SHORT=1 leaves out the
# capped pair (session 46 ran "W1_PROCESSES=1 W1_SHORT=1" with the device time it had left).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-w1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead46/w1.sh w1 "$dir" 300
gpu_stage_build 150 || exit 1
for i in ${W1_PROCESSES:-1 2}; do gpu_bench "k-$i" 100 --cubin-dir "$dir" --suite "$dir/w1.yaml"; done
[ -n "${W1_SHORT:-}" ] || gpu_sustain sus 60 --cubin-dir "$dir" --suite "$dir/w1.yaml" --cubins 'bs*.cubin' --shapes m16384_n28672
