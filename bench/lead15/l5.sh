#!/usr/bin/env bash
# session 15 lead, round l5 (DIR = build/cubins-l5: scripts/build_cubins.sh --check DIR bench/lead15/{bs_64x128_pp_ss,
# bs,bs_128x128_sk2,bs_64x128_ws_sk2}.yaml specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml;
# bench/lead15/m256_fp8.yaml in DIR): block-scaled FP8 at M = 256-512, where the bundle's 128x256 g1 kernel ran 0.57
# of cuBLASLt in round l4. Two gemmc-bench processes (the candidates passed the suite in round l3).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l5}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
gpu_bench m256a 70 --cubin-dir "$dir" --suite "$dir/m256_fp8.yaml"
gpu_bench m256b 70 --cubin-dir "$dir" --suite "$dir/m256_fp8.yaml"
