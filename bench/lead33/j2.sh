#!/usr/bin/env bash
# session 33 lead, round j2 (DIR = build/cubins-j2: bench/lead33/build_cubins.sh j2): session 32's round i2b (round
# i2's bf16 kernels on M = 512, 640 of the 28672-wide layer and M = 384, 512 of the 14336-wide one, two processes: one device call holds rounds j1 and j2)
# and both bf16 bundles, as bundles, on round i2's nine shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-j2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead33/j2.sh j2 "$dir" 300
gpu_stage_build 110 || exit 1
k=tune_1.cubin,tune_2.cubin,tune_4.cubin,bf16_coop.cubin,bf16_pp192.cubin,bf16_dec128.cubin,bf16_pp64x192.cubin,bf16_pp160.cubin
for i in 1 2; do gpu_bench "bf$i" 45 --cubin-dir "$dir" --cubins "$k" --suite "$dir/i2b.yaml"; done
for b in h200_bf16_tn h200_bf16_tn_waves; do gpu_bench "$b" 35 --bundle "$dir/$b" --suite "$dir/i2.yaml"; done
