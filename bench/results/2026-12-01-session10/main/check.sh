#!/usr/bin/env bash
# session 10 lead: main after the merges (5ba5dc3). The GPU suite on every kernel, then the FP8 goal kernels against cuBLASLt.
# Built on the CPU machine and carried: scripts/build_cubins.sh --check build/cubins-main;
# scripts/build_cubins.sh --check build/cubins-extra bench/fp8j/h200_fp8_e4m3_128x256_b1_coop.yaml
#   bench/fp8k/h200_fp8_e4m3_rowcol_128x128_pp_c2.yaml; cp fp8.yaml build/cubins-extra/.
OUT=${OUT:-./out}; mkdir -p "$OUT"
bash scripts/gpu_suite_all.sh build/cubins-main 300
b=${GEMMC_GPU_BUILD:-/tmp/gemmc-gpu-build}/bin/gemmc-bench
timeout 200 $b --cubin-dir build/cubins-main --cubin-dir build/cubins-extra --suite build/cubins-extra/fp8.yaml \
  --iters 20 --warmup 2 --json "$OUT/fp8-bench.json" > "$OUT/fp8-bench.txt" 2>&1
echo "bench rc=$?"
grep -E "^ *(cube|prefill)" "$OUT/fp8-bench.txt" | grep -v "lt-" | head -40
