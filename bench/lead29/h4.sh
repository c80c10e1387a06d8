#!/usr/bin/env bash
# session 29 lead, round h4 (DIR = build/cubins-h4: bench/lead29/build_cubins.sh h4): bf16 at M = 192 and 256 of the
# 28672-wide layer, the 64x224 pingpong in groups of 8 beside the bundles' 64x192 and 128x160 pingpong picks, two
# interleaved gemmc-bench processes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-h4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead29/h4.sh h4 "$dir" 120
gpu_stage_build 100 || exit 1
for i in 1 2; do gpu_bench "bf$i" 30 --cubin-dir "$dir" --cubins bf16_pp64x224_g8.cubin,bf16_pp64x192.cubin,bf16_pp160.cubin --suite "$dir/h4.yaml"; done
