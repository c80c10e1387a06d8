#!/usr/bin/env bash
# session 12 lead, round p4 (DIR = build/cubins-p4, built with bench/lead12/build_variants.sh DIR GEMMC_MAIN bc_=... bcp_=... with the gemmc binaries
# of 544a517 (main), 15cb305 (bc_) and cb626aa (bcp_); fp8.yaml copied in): the suite on the changed block-scaled
# kernels (the shipped spec and test/gpu's stream_k case), then one gemmc-bench process, each kernel interleaved
# with its cuBLASLt peer on the four shapes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p4}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 120 || exit 1
gpu_stage_suite 40 1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384 \
  "$dir"/bc_*.cubin "$dir"/bcp_*.cubin "$dir"/suite_*.cubin
timeout 100 "$build/bin/gemmc-bench" --cubin-dir "$dir" --suite "$dir/fp8.yaml" --iters 20 --warmup 2 \
  --json "$OUT/bench.json" >"$OUT/bench.txt" 2>&1
echo "bench rc=$?"
grep -E " ok |WRONG" "$OUT/bench.txt"
