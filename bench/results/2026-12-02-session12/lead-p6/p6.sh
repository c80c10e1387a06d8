#!/usr/bin/env bash
# session 12 lead, round p6 (DIR = build/cubins-p6, built with scripts/build_cubins.sh --check DIR and the six
# shipped H200 FP8 specs named in bench/RESULTS.md at main d3725fb (lib/ as eeca874); fp8.yaml copied in):
# main's FP8 kernels after the session's merges, two gemmc-bench processes, each kernel interleaved with its
# cuBLASLt peer on the four goal shapes (the block-scaled kernel's PTX is round p4-p5's bc_, whose suite passed).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p6}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 120 || exit 1
for i in 1 2; do
  timeout 100 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite "$dir/fp8.yaml" --iters 20 --warmup 2 \
    --json "$OUT/bench$i.json" >"$OUT/bench$i.txt" 2>&1
  echo "bench $i rc=$?"
  grep -E " ok |WRONG" "$OUT/bench$i.txt"
done
