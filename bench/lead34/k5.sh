#!/usr/bin/env bash
# session 34 lead, round k5 (DIR = build/cubins-k5: bench/lead34/build_cubins.sh k5): round k4 again, with M = 256 and 512: the FP8 kernels and the
# per-row/column 128x192 pingpong at M = 272-480 of the 28672-wide layer, two processes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-k5}
source scripts/gpu_common.sh
gpu_round_begin bench/lead34/k5.sh k5 "$dir" 300
gpu_stage_build 150 || exit 1
k=fp8_64x192_pp.cubin,pt_pp.cubin,pt_pp192.cubin,rc_64x192_pp.cubin,rc_128x128_pp.cubin,rc_128x192_pp.cubin
for i in 1 2; do gpu_bench "k5_$i" 100 --cubin-dir "$dir" --cubins "$k" --suite "$dir/k5.yaml"; done
