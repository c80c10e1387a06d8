#!/usr/bin/env bash
# session 15 lead, round l6 (DIR = build/cubins-l6: `gemmc bundle` of bench/bundles/h200_fp8_e4m3_blockscale_tn.yaml
# and _rowcol_tn.yaml at main 137eecb into DIR/bsbundle and DIR/rcbundle; bench/lead14/bundle_fp8.yaml,
# bench/lead15/m256_fp8.yaml and bench/lead13/fp8.yaml in DIR): both bundles as shipped at the end of session 15.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l6}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
gpu_bench bs 60 --bundle "$dir/bsbundle" --suite "$dir/bundle_fp8.yaml"
gpu_bench bsmid 30 --bundle "$dir/bsbundle" --suite "$dir/m256_fp8.yaml"
gpu_bench rc1 40 --bundle "$dir/rcbundle" --suite "$dir/fp8.yaml"
gpu_bench rc2 40 --bundle "$dir/rcbundle" --suite "$dir/fp8.yaml"
