#!/usr/bin/env bash
# session 19 lead, round o3 (DIR = build/cubins-o3: bench/lead19/build_cubins.sh o3): compute-sanitizer memcheck,
# racecheck and synccheck (scripts/gpu_sanitize.sh) on every sm_90a stream_k / split_k kernel since session 18's
# aligned split, on shapes that split tiles several ways (300x520x1024: 2 x 3 tiles of 128x256 over 132 CTAs) and
# a ragged one-tile shape.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-o3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead19/o3.sh o3 "$dir" 400
gpu_stage_build 150 || exit 1
GEMMC_SANITIZE_BUDGET=300 GEMMC_SANITIZE_LIMIT=120 bash scripts/gpu_sanitize.sh --cubins "$dir" \
  --tools memcheck,racecheck,synccheck --shapes 300x520x1024,127x255x72 --jobs 8
echo "sanitize rc=$?"
tail -n 30 "$OUT/sanitize.txt"
