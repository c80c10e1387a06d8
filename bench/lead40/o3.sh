#!/usr/bin/env bash
# session 40 lead, round o3 (DIR = build/cubins-o1, bench/lead40/o3.yaml copied there): whether the block-scaled
# 192x128 kernel's distance to the per-tensor 128x192 pingpong (0.914 per cycle on cube8192, round o2) is a tile's
# fixed cost (the cooperative epilogue, which pingpong hides) or the K loop's folds: the two kernels and bs256 at
# 8192x8192 with K = 4096, 8192 and 16384, one interleaved process. A fixed cost shrinks as K grows; the folds'
# share does not.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-o1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead40/o3.sh o3 "$dir" 200
gpu_stage_build 150 || exit 1
cp bench/lead40/o3.yaml "$dir/"
for i in 1; do gpu_bench "k-$i" 50 --cubin-dir "$dir" --cubins bs192.cubin,bs256.cubin,pt_pp192.cubin --suite "$dir/o3.yaml"; done
