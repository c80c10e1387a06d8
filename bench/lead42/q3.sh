#!/usr/bin/env bash
# session 42 lead, round q3 (DIR = build/cubins-q3: bench/lead42/build_cubins.sh q3; staged, not run: no device time
# was left): DeepGEMM's block-scaled structure in gemmc with mainloop.wait_ahead: the free-running 128x256 kernel in a
# 2x1 cluster with B multicast and staged scales (bench/lead41/bs256_ws_2x1.yaml) without and with the field
# (bench/lead42/bs256_ws_2x1_ah.yaml), and those and the shipped 192x128 with the loop unrolled (mainloop.unroll 2 / 4:
# *_u2, *_u4), beside the shipped kernels and DeepGEMM's pick between gemmc-bench processes.
# Runs on either GPU; predictions in bench/lead42/README.md.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-q3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead42/q3.sh q3 "$dir" 300
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir"/*_ah.cubin "$dir"/*_u?.cubin
for i in 1 2; do
  gpu_bench "fp8-$i" 100 --cubin-dir "$dir" --suite "$dir/r2.yaml"
  for s in "4096 4096 4096" "8192 8192 8192" "8192 28672 8192"; do
    read -r m n k <<<"$s"
    timeout 30 "$dir/deepgemm_bs" $s --config "256x128x3xA2:n${n}k$k" 2>&1 | grep RESULT | tee -a "$OUT/deepgemm.txt"
  done
done
