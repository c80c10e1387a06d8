#!/usr/bin/env bash
# lead round n12 (DIR = build/cubins-n12: bench/lead39/build_cubins.sh n12): round n10's h200_bf16_tn rules beside the
# bundle before them on bench/lead39/shapes_n12.yaml, three processes each, alternating.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n12}
source scripts/gpu_common.sh
gpu_round_begin bench/lead39/n12.sh n12 "$dir" 220
gpu_stage_build 150 || exit 1
gpu_bundle_beside_before "$dir" h200_bf16_tn bench/lead39/shapes_n12.yaml 3 30
