#!/usr/bin/env bash
# lead round n8 (DIR = build/cubins-n8: bench/lead39/build_cubins.sh n8): 255x18432x7168 and 128x4096x7168, each
# with gemmc tune's top 4 and seven shared candidates; the suite on every kernel first, then three processes of the
# candidates and the bundle on the two shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n8}
source scripts/gpu_common.sh
gpu_round_begin bench/lead39/n8.sh n8 "$dir" 400
gpu_stage_build 150 || exit 1
gpu_stage_suite 90 "$gpu_suite_shapes" "$dir"/*.cubin
gpu_candidates_beside_bundle "$dir" 3 40 20
