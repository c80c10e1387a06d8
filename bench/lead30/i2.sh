#!/usr/bin/env bash
# session 30 lead, round i2 (DIR = build/cubins-i2: bench/lead30/build_cubins.sh i2): bf16 at M = 129-640 of the
# 28672-wide layer and M = 384-512 of the 14336-wide one: `gemmc tune`'s picks beside the bundles' kernels, the tune
# kernels through the correctness suite first, then three interleaved gemmc-bench processes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-i2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead30/i2.sh i2 "$dir" 400
gpu_stage_build 110 || exit 1
gpu_stage_suite 90 "$gpu_suite_shapes" "$dir/tune_1.cubin" "$dir/tune_2.cubin" "$dir/tune_2c.cubin" "$dir/tune_4.cubin"
k=tune_1.cubin,tune_2.cubin,tune_2c.cubin,tune_4.cubin,bf16_coop.cubin,bf16_pp192.cubin,bf16_dec128.cubin,bf16_pp64x192.cubin,bf16_pp160.cubin
for i in 1 2 3; do gpu_bench "bf$i" 60 --cubin-dir "$dir" --cubins "$k" --suite "$dir/i2.yaml"; done
