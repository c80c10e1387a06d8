#!/usr/bin/env bash
# session 33 lead, round j1 (DIR = build/cubins-j1: bench/lead33/build_cubins.sh j1): FP8 per tensor at M = 144-512
# of the 28672-wide layer: the four new kernels through the correctness suite, then three interleaved gemmc-bench
# processes against cuBLASLt's per-tensor FP8.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-j1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead33/j1.sh j1 "$dir" 360
gpu_stage_build 110 || exit 1
new=fp8_64x224_pp.cubin,fp8_64x192_pp.cubin,fp8_64x256_pp_sk.cubin,fp8_128x224_ws.cubin
gpu_stage_suite 80 "$gpu_suite_shapes" $(tr , '\n' <<<"$new" | sed "s|^|$dir/|")
rc=$?
k=$(gpu_drop_failed $rc "$new,pt_pp.cubin,pt_pp192.cubin,pt_sk.cubin" $(tr , ' ' <<<"$new"))
for i in 1 2 3; do gpu_bench "fp$i" 50 --cubin-dir "$dir" --cubins "$k" --suite "$dir/j1.yaml"; done
