#!/usr/bin/env bash
# session 45 lead, round u1 (DIR = build/cubins-t2, round t2's cubins: bash bench/lead44/build_cubins.sh t2): the
# 192x128 block-scaled kernel (bs192, shipped order; bs192_n8, along N in groups of 8) beside the per-tensor 128x192
# pingpong at the power cap on cube8192: each kernel alone 2 s then its cuBLASLt peer, twice (gemmc-bench --sustain 2),
# so the cell's ratio is also read where the board's clock has settled. Predictions in bench/lead45/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-t2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead45/u1.sh u1 "$dir" 200
gpu_stage_build 150 || exit 1
gpu_sustain sus 120 --cubin-dir "$dir" --cubins bs192.cubin,bs192_n8.cubin,pt_pp192.cubin \
  --suite "$dir/t2.yaml" --shapes cube8192
