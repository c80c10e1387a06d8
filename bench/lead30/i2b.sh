#!/usr/bin/env bash
# session 32 lead, round i2b (DIR = build/cubins-i2, round i2's kernels, already through the suite in round i2):
# the shapes round i2's 60 s processes did not reach (bench/lead30/i2b.yaml), three interleaved gemmc-bench
# processes of 75 s each.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-i2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead30/i2b.sh i2b "$dir" 360
gpu_stage_build 110 || exit 1
k=tune_1.cubin,tune_2.cubin,tune_4.cubin,bf16_coop.cubin,bf16_pp192.cubin,bf16_dec128.cubin,bf16_pp64x192.cubin,bf16_pp160.cubin
for i in 1 2 3; do gpu_bench "bf$i" 75 --cubin-dir "$dir" --cubins "$k" --suite bench/lead30/i2b.yaml; done
