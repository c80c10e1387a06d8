#!/usr/bin/env bash
# lead round n3 (DIR = build/cubins-n3: bench/lead37/build_cubins.sh n3): the 14 sweep shapes h200_bf16_tn still runs
# under 0.8 of cuBLAS after session 37's rules; per shape gemmc tune's top 4 and six shared candidates (cand__*, the
# bundle's small-M kernels and the 128x128 / 128x192 tiles), two processes, then the bundle on the same shapes; before
# them the suite on every candidate.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead37/n3.sh n3 "$dir" 420
gpu_stage_build 150 || exit 1
gpu_stage_suite 80 "$gpu_suite_shapes" "$dir"/*.cubin
gpu_candidates_beside_bundle "$dir" 2 70 30
