#!/usr/bin/env bash
# lead round n11 (DIR = build/cubins-n10: bench/lead39/build_cubins.sh n10, whose h200_bf16_tn holds session 39's
# rules after round n9): the bundle on all 77 shapes of bench/suites/sweep.yaml (gpu_bundle_sweep), for the
# sweep's geometric mean beside session 38's round n6 (0.924 on an H100).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n10}
source scripts/gpu_common.sh
gpu_round_begin bench/lead39/n11.sh n11 "$dir" 300
gpu_stage_build 150 || exit 1
gpu_bundle_sweep "$dir/h200_bf16_tn" 120 120
