#!/usr/bin/env bash
# lead round n6 (DIR = build/cubins-n5: bench/lead38/build_cubins.sh n5): h200_bf16_tn with session 38's rules on all
# 77 shapes of bench/suites/sweep.yaml (gpu_bundle_sweep: M <= 1024 and M > 1024 in two processes), for the sweep's
# geometric mean beside session 37's round n1 (hand-picked 0.854, auto 0.879, split 0.887 on an H100).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n5}
source scripts/gpu_common.sh
gpu_round_begin bench/lead38/n6.sh n6 "$dir" 300
gpu_stage_build 150 || exit 1
gpu_bundle_sweep "$dir/h200_bf16_tn" 120 120
