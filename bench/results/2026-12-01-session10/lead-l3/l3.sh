#!/usr/bin/env bash
# session 10 lead, round l3 (DIR = build/cubins-l3, built with scripts/build_cubins.sh --check DIR
# bench/results/2026-12-01-session10/lead-l3/specs/*.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml; fp8.yaml copied in):
# the suite on the variants, then one gemmc-bench process on the four shapes, each kernel interleaved with OUTER_VEC.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l3}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 100 || exit 1
new=(); for f in "$dir"/lt_*.cubin; do new+=("$f"); done
gpu_stage_suite 60 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096 "${new[@]}" || exit 1
timeout 150 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite "$dir/fp8.yaml" --iters 20 --warmup 2 \
  --json "$OUT/bench1.json" >"$OUT/bench1.txt" 2>&1
echo "bench1 rc=$?"
