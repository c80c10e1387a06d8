#!/usr/bin/env bash
# lead round n9 (DIR = build/cubins-n9: bench/lead39/build_cubins.sh n9): session 39's two h200_bf16_tn rules beside
# the bundle before them on bench/lead39/shapes_n9.yaml (the rules' layers at M and N round n8 did not read, and
# their neighbours), three processes each, alternating.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n9}
source scripts/gpu_common.sh
gpu_round_begin bench/lead39/n9.sh n9 "$dir" 200
gpu_stage_build 150 || exit 1
gpu_bundle_beside_before "$dir" h200_bf16_tn bench/lead39/shapes_n9.yaml 3 30
