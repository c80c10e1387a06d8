#!/usr/bin/env bash
# session 20 lead, round p4 (DIR = build/cubins-p4: bench/lead20/build_cubins.sh p4): the per-row/column bundle,
# new (with the spread column scales) and old (main before them), on issue 14's goal shapes against cuBLASLt's
# OUTER_VEC, two gemmc-bench processes each, alternating.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead20/p4.sh p4 "$dir" 250
gpu_stage_build 150 || exit 1
for i in 1 2; do
  gpu_bench new$i 50 --bundle "$dir/new" --suite "$dir/p4.yaml"
  gpu_bench old$i 50 --bundle "$dir/old" --suite "$dir/p4.yaml"
done
