#!/usr/bin/env bash
# session 33 lead, round j3 (DIR = build/cubins-j3: bench/lead33/build_cubins.sh j3): rounds j1 and j2's open rows
# for an H200 (they ran on an H100): FP8 per tensor at M = 144-512 of the 28672-wide layer (three processes) and the
# per-tensor bundle as a bundle there, then the bf16 candidates (three processes). Every kernel passed the suite in
# round j1 or earlier rounds.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-j3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead33/j3.sh j3 "$dir" 420
gpu_stage_build 110 || exit 1
k=fp8_64x192_pp.cubin,fp8_128x224_ws.cubin,pt_pp.cubin,pt_pp192.cubin,pt_sk.cubin
for i in 1 2 3; do gpu_bench "fp$i" 50 --cubin-dir "$dir" --cubins "$k" --suite "$dir/j3_fp8.yaml"; done
gpu_bench fp8_bundle 30 --bundle "$dir/h200_fp8_e4m3_tn" --suite "$dir/j3_fp8.yaml"
k=bf16_pp192.cubin,bf16_coop.cubin,bf16_dec128.cubin,bf16_pp64x192.cubin
for i in 1 2 3; do gpu_bench "bf$i" 40 --cubin-dir "$dir" --cubins "$k" --suite "$dir/j3_bf16.yaml"; done
