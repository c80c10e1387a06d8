#!/usr/bin/env bash
# session 13 lead, round l2 (DIR = build/cubins-l2: scripts/build_cubins.sh --check DIR with the shipped block-scaled
# spec, the per-tensor 128x256 stream_k, 128x256 and 128x128 pp specs, and bench/lead13/bs_*.yaml): the suite on the
# block-scaled cluster and group variants, then two gemmc-bench processes over the cubins (each kernel interleaved
# with its cuBLASLt peer: block-scaled VEC128 x BLK128x128 or per-tensor FP8), four goal shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l2}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 120 || exit 1
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384
gpu_stage_suite 40 "$ragged" "$dir/bs_2x1.cubin" "$dir/bs_2x1_g16.cubin" "$dir/bs_g16.cubin"
for i in 1 2; do
  gpu_bench bench$i 80 --cubin-dir "$dir" --suite "$dir/fp8.yaml"
done
