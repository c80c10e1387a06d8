#!/usr/bin/env bash
# session 13 lead, round l1 (DIR = build/cubins-l1: scripts/build_cubins.sh --check DIR with the five shipped
# H200 FP8 per-tensor and per-row/column specs named in bench/RESULTS.md and bench/lead13/*.yaml; the two
# bundles of bench/bundles/h200_fp8_e4m3{,_rowcol}_tn.yaml built into DIR/bundle-NAME by gemmc bundle):
# the suite on the new stream_k kernels, then one gemmc-bench process over the cubins (each kernel
# interleaved with its cuBLASLt peer, four goal shapes), one per bundle (the bundle's pick per shape beside
# the peer), and a second cubin process on the 8192 cubes only.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l1}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 120 || exit 1
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384
gpu_stage_suite 40 "$ragged" "$dir/rc_sk.cubin" "$dir/rc_sk_g16.cubin" "$dir/pt_sk_g16.cubin"
gpu_bench bench1 100 --cubin-dir "$dir" --suite "$dir/fp8.yaml"
gpu_bench bundle-pt 100 --bundle "$dir/bundle-h200_fp8_e4m3_tn" --suite "$dir/fp8.yaml"
gpu_bench bundle-rc 100 --bundle "$dir/bundle-h200_fp8_e4m3_rowcol_tn" --suite "$dir/fp8.yaml"
gpu_bench bench2 100 --cubin-dir "$dir" --shapes cube8192,prefill_attn_out --suite "$dir/fp8.yaml"
