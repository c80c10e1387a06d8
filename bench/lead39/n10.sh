#!/usr/bin/env bash
# lead round n10 (DIR = build/cubins-n10: bench/lead39/build_cubins.sh n10): split_k 2-4 on narrow, deep layers at
# M = 100-512; the suite on the four new kernels first, then three processes of the candidates and the bundle.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n10}
source scripts/gpu_common.sh
gpu_round_begin bench/lead39/n10.sh n10 "$dir" 260
gpu_stage_build 150 || exit 1
gpu_stage_suite 80 "$gpu_suite_shapes" "$dir"/ws_*.cubin
gpu_candidates_beside_bundle "$dir" 3 40 20
