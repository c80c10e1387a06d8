#!/usr/bin/env bash
# lead round n2 (DIR = build/cubins-n2: bench/lead37/build_cubins.sh n2): session 37's h200_bf16_tn rules (taken
# from round n1's one process) in two more processes: the bundle with them, the bundle before them and
# h200_bf16_tn_auto on the sweep's shapes with M <= 128 (N2_PROCESSES processes, default 2); before them the suite
# on the three new kernels.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead37/n2.sh n2 "$dir" 330
gpu_stage_build 150 || exit 1
gpu_stage_suite 40 "$gpu_suite_shapes" "$dir"/h200_bf16_tn/gemm_bf16_64x128_ws_sk2_abox32.cubin \
  "$dir"/h200_bf16_tn/gemm_bf16_swab_16x64_pp.cubin "$dir"/h200_bf16_tn/gemm_bf16_128x64_ws_abox32.cubin
for i in $(seq "${N2_PROCESSES:-2}"); do
  for b in h200_bf16_tn h200_bf16_tn_before h200_bf16_tn_auto; do
    gpu_bench "$b-$i" 30 --bundle "$dir/$b" --suite "$dir/shapes.yaml"
  done
done
