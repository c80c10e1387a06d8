#!/usr/bin/env bash
# session 19 lead, round o4 (DIR = build/cubins-o4: bench/lead19/build_cubins.sh o4): compute-sanitizer synccheck on
# the stage_scales kernels, persistent and stream_k, at a shape that splits tiles (300x520x1024), a one-tile one
# (127x255x72) and a many-tile one (1000x1000x1024); memcheck beside it.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-o4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead19/o4.sh o4 "$dir" 300
gpu_stage_build 150 || exit 1
for shapes in 127x255x72 300x520x1024 1000x1000x1024; do
  mkdir -p "$OUT/$shapes"
  OUT=$OUT/$shapes GEMMC_SANITIZE_BUDGET=80 GEMMC_SANITIZE_LIMIT=60 bash scripts/gpu_sanitize.sh --cubins "$dir" \
    --tools synccheck --shapes "$shapes" --jobs 8 | grep -E "synccheck|runs over"
done
