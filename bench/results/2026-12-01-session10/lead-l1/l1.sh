#!/usr/bin/env bash
# session 10 lead, round l1 (DIR = build/cubins-l1, built with scripts/build_cubins.sh --check DIR
# bench/results/2026-12-01-session10/lead-l1/specs/*.yaml specs/h200_fp8_e4m3_128x256_coop.yaml
# specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml bench/fp8j/h200_fp8_e4m3_128x256_b1_coop.yaml; fp8.yaml copied in):
# the suite on the six variants, then two gemmc-bench processes on the four shapes, each kernel interleaved with its cuBLASLt peer.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l1}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 100 || exit 1
new=(); for f in "$dir"/lt_*.cubin; do new+=("$f"); done
gpu_stage_suite 60 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384 "${new[@]}" || exit 1
for i in 1 2; do
  timeout 100 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite "$dir/fp8.yaml" --iters 20 --warmup 2 \
    --json "$OUT/bench$i.json" >"$OUT/bench$i.txt" 2>&1
  echo "bench$i rc=$?"
  grep " ok " "$OUT/bench$i.txt"
done
