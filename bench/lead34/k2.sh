#!/usr/bin/env bash
# session 34 lead, round k2 (DIR = build/cubins-k2: bench/lead34/build_cubins.sh k2): session 33's rules, read on an
# H100, again (rounds j3 and j4 in two processes each, and the bundles that carry the rules as bundles).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-k2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead34/k2.sh k2 "$dir" 470
gpu_stage_build 150 || exit 1
k=fp8_64x192_pp.cubin,fp8_128x224_ws.cubin,pt_pp.cubin,pt_pp192.cubin,pt_sk.cubin
for i in 1 2; do gpu_bench "fp$i" 50 --cubin-dir "$dir" --cubins "$k" --suite "$dir/j3_fp8.yaml"; done
gpu_bench fp8_bundle 30 --bundle "$dir/h200_fp8_e4m3_tn" --suite "$dir/j3_fp8.yaml"
k=rc_64x192_pp.cubin,rc_64x128_pp.cubin,rc_128x128_pp.cubin,bs_64x128_pp_ss.cubin,bs_128x128_coop.cubin,bs_128x256_g1.cubin
for i in 1 2; do gpu_bench "j4_$i" 30 --cubin-dir "$dir" --cubins "$k" --suite "$dir/j4.yaml"; done
gpu_bench rc_bundle 25 --bundle "$dir/h200_fp8_e4m3_rowcol_tn" --suite "$dir/j4.yaml"
k=bf16_pp192.cubin,bf16_coop.cubin,bf16_dec128.cubin,bf16_pp64x192.cubin
for i in 1 2; do gpu_bench "bf$i" 40 --cubin-dir "$dir" --cubins "$k" --suite "$dir/j3_bf16.yaml"; done
gpu_bench bf16_bundle 30 --bundle "$dir/h200_bf16_tn" --suite "$dir/j3_bf16.yaml"
