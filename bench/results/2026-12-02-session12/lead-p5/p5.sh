#!/usr/bin/env bash
# session 12 lead, round p5 (DIR = build/cubins-p5, built with bench/lead12/build_variants.sh DIR GEMMC_MAIN
# bc_=GEMMC_15cb305 bcl_=GEMMC_8294830; fp8.yaml copied in): the suite on bcl_ (bc_ passed it in p4), then two
# gemmc-bench processes (two samples), each kernel interleaved with its cuBLASLt peer on the four shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p5}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 120 || exit 1
gpu_stage_suite 40 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384 \
  "$dir"/bcl_*.cubin "$dir"/suite_bcl_*.cubin
for i in 1 2; do
  timeout 80 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite "$dir/fp8.yaml" --iters 20 --warmup 2 \
    --json "$OUT/bench$i.json" >"$OUT/bench$i.txt" 2>&1
  echo "bench $i rc=$?"
  grep -E " ok |WRONG" "$OUT/bench$i.txt"
done
