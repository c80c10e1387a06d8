#!/usr/bin/env bash
# session 47 lead, round x1 (DIR = build/cubins-x1: bash bench/lead47/build_cubins.sh x1): the block-scaled 192x128
# and 128x256 kernels beside the per-tensor 128x192 pingpong at 8192 x 8192 with K = 4096-32768 (bench/lead47/x1.yaml),
# two interleaved gemmc-bench processes, then bs192 and pt_pp192 at the power cap at K = 8192 and 32768. Whether
# bs192's distance to pt_pp192 is a tile's fixed cost (its three warpgroups store together with the tensor pipe idle;
# the pingpong stores under the other warpgroup's K loop) or the K loop's folds. Predictions in bench/lead47/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-x1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead47/x1.sh x1 "$dir" 240
gpu_stage_build 150 || exit 1
for i in 1 2; do gpu_bench "k-$i" 60 --cubin-dir "$dir" --suite "$dir/x1.yaml"; done
gpu_sustain sus 60 --cubin-dir "$dir" --suite "$dir/x1.yaml" --cubins 'bs192*.cubin,pt_pp192.cubin' --shapes k8192,k32768
