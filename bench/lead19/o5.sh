#!/usr/bin/env bash
# session 19 lead, round o5 (DIR = build/cubins-o5: bench/lead19/build_cubins.sh o5): the stage_scales kernels with
# the .noinc arrival (ni-): the suite on each, synccheck on each, and the shipped block-scaled kernels' time against
# main's form (old-) in one gemmc-bench process.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-o5}
source scripts/gpu_common.sh
gpu_round_begin bench/lead19/o5.sh o5 "$dir" 300
gpu_stage_build 150 || exit 1
shapes=1x1x16,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2100x4100x136,4096x4096x4096
gpu_stage_suite 90 "$shapes" $(ls "$dir"/ni-*.cubin)
GEMMC_SANITIZE_BUDGET=60 GEMMC_SANITIZE_LIMIT=50 bash scripts/gpu_sanitize.sh --tools synccheck \
  --shapes 300x520x1024,127x255x72 --jobs 8 $(ls "$dir"/ni-*.cubin) | grep -E "synccheck|runs over"
big=$(cd "$dir" && ls ni-h200_*.cubin old-*.cubin | grep -v 64x128 | paste -sd,)
gpu_bench bench1 100 --cubin-dir "$dir" --cubins "$big" --shapes cube4096,cube8192 --suite "$dir/o1.yaml"
