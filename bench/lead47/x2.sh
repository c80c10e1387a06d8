#!/usr/bin/env bash
# session 47 lead, round x2 (DIR = build/cubins-x2: bash bench/lead47/build_cubins.sh x2): the per-tensor and
# per-row/column 128x128 and 128x192 pingpong kernels and the block-scaled 192x128 and 128x256 kernels on
# bench/lead47/x2.yaml (M = 512-4096 and 16384 on 8192- and 28672-wide layers), two interleaved gemmc-bench processes,
# then bs192 and bs256 at the power cap at 8192 x 8192 x 32768.
# Predictions in bench/lead47/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-x2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead47/x2.sh x2 "$dir" 330
gpu_stage_build 150 || exit 1
for i in 1 2; do gpu_bench "k-$i" 120 --cubin-dir "$dir" --suite "$dir/x2.yaml"; done
gpu_sustain sus 60 --cubin-dir "$dir" --suite "$dir/x2.yaml" --cubins 'bs*.cubin' --shapes k32768
