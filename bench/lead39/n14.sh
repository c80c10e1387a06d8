#!/usr/bin/env bash
# lead round n14 (DIR = build/cubins-n14: bench/lead39/build_cubins.sh n14): 128x4608x3584 and 255x18944x3584, each
# with gemmc tune's top 4 and five shared candidates; the suite on every kernel first, then three processes of the
# candidates and the bundle on the two shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n14}
source scripts/gpu_common.sh
gpu_round_begin bench/lead39/n14.sh n14 "$dir" 400
gpu_stage_build 150 || exit 1
gpu_stage_suite 90 "$gpu_suite_shapes" "$dir"/*.cubin
gpu_candidates_beside_bundle "$dir" 3 40 20
