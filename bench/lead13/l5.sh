#!/usr/bin/env bash
# session 13 lead, round l5 (DIR = build/cubins-l5: scripts/build_cubins.sh --check DIR with the two per-row/column
# specs, bench/lead13/rc_sk.yaml and specs/h200_fp8_e4m3_128x256_sk_coop.yaml at main after merging fp8q (its
# 8-byte column-scale loads; the 128-row pingpong's one epilogue), and gemmc bundle
# bench/bundles/h200_fp8_e4m3_rowcol_tn.yaml -o DIR/bundle-h200_fp8_e4m3_rowcol_tn): the suite on rc_sk (its PTX
# changed with the merge), one gemmc-bench process over the cubins and one over the per-row/column bundle.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l5}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384
gpu_stage_suite 40 "$ragged" "$dir/rc_sk.cubin" "$dir/h200_fp8_e4m3_rowcol_128x256_coop.cubin"
gpu_bench bench1 80 --cubin-dir "$dir" --suite "$dir/fp8.yaml"
gpu_bench bundle-rc 80 --bundle "$dir/bundle-h200_fp8_e4m3_rowcol_tn" --suite "$dir/fp8.yaml"
