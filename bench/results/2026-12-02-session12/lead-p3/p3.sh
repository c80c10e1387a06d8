#!/usr/bin/env bash
# session 12 lead, round p3 (DIR = build/cubins-p3, built with scripts/build_cubins.sh --check DIR
# bench/lead12/*.yaml specs/h200_fp8_e4m3_128x128_pp.yaml specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml at main;
# fp8.yaml copied in): the shipped FP8 128x128 pingpong kernels with a 2x1 / 1x2 cluster and multicast, the suite
# on the four cluster kernels, then one gemmc-bench process, each kernel interleaved with its cuBLASLt peer.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p3}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 100 || exit 1
gpu_stage_suite 40 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096 "$dir"/*_c??.cubin
timeout 90 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite "$dir/fp8.yaml" --iters 20 --warmup 2 \
  --json "$OUT/bench.json" >"$OUT/bench.txt" 2>&1
echo "bench rc=$?"
grep -E " ok |WRONG" "$OUT/bench.txt"
