#!/usr/bin/env bash
# session 13 lead, round l4 (DIR = build/cubins-l4: scripts/build_cubins.sh --check DIR
# specs/h200_tf32_128x256_coop.yaml bench/lead13/tf32_sk.yaml bench/lead13/tf32_sk_g16.yaml): TF32 under stream_k for
# the 8192 cubes' half-full last wave, the suite on the two new kernels, then two gemmc-bench processes beside cuBLAS
# TF32 on issue 14's four shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l4}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 120 || exit 1
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384
gpu_stage_suite 40 "$ragged" "$dir/tf32_sk.cubin" "$dir/tf32_sk_g16.cubin"
for i in 1 2; do
  gpu_bench bench$i 60 --cubin-dir "$dir" --suite "$dir/tf32.yaml"
done
