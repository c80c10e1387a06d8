#!/usr/bin/env bash
# session 11 lead, round p2 (DIR = build/cubins-p2, built with scripts/build_cubins.sh --check DIR
# specs/h200_fp8_e4m3_128x128_pp.yaml specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml specs/h200_fp8_e4m3_128x256_coop.yaml
# specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml at main a7c5add;
# fp8.yaml and this script copied in): the suite on the two new pingpong specs, then one gemmc-bench process, each
# kernel interleaved with its cuBLASLt peer on the four shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p2}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 100 || exit 1
gpu_stage_suite 40 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384 \
  "$dir"/h200_fp8_e4m3_128x128_pp.cubin "$dir"/h200_fp8_e4m3_rowcol_128x128_pp.cubin || exit 1
timeout 100 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite "$dir/fp8.yaml" --iters 20 --warmup 2 \
  --json "$OUT/bench.json" >"$OUT/bench.txt" 2>&1
echo "bench rc=$?"
grep -E " ok |WRONG" "$OUT/bench.txt"
