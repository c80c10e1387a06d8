#!/usr/bin/env bash
# session 44 lead, round t2 (DIR = build/cubins-t2: bash bench/lead44/build_cubins.sh t2): the shipped 192x128
# block-scaled kernel beside itself in four other tile orders (along N in groups of 8 and 4, along M in groups of 4
# and 2) and the per-tensor 128x192 pingpong, two gemmc-bench processes on the 8192-class goal shapes. Runs on either
# GPU; predictions in bench/lead44/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-t2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead44/t2.sh t2 "$dir" 200
gpu_stage_build 150 || exit 1
gpu_stage_suite 40 "$gpu_suite_shapes" "$dir"/bs192_??.cubin
for i in 1 2; do gpu_bench "k-$i" 60 --cubin-dir "$dir" --suite "$dir/t2.yaml"; done
