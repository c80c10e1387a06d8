#!/usr/bin/env bash
# lead round n13 (DIR = build/cubins-n13: bench/lead39/build_cubins.sh n13): h200_bf16_tn with session 39's rules beside
# the bundle as session 38 left it on bench/lead39/shapes_n13.yaml, three processes each, alternating.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n13}
source scripts/gpu_common.sh
gpu_round_begin bench/lead39/n13.sh n13 "$dir" 220
gpu_stage_build 150 || exit 1
gpu_bundle_beside_before "$dir" h200_bf16_tn bench/lead39/shapes_n13.yaml 3 30
