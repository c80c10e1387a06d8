#!/usr/bin/env bash
# Issue 15 on the GPU in one command (fused epilogues and programmatic
# dependent launch): build the runtime side, run the GPU suite on the issue's
# cubins (every epilogue against an f32 reference of the same formula, with
# aux outputs, on ragged shapes; the 8-GEMM PDL chain with and without
# GEMMC_LAUNCH_PDL), compute-sanitizer memcheck and racecheck on them, then
# gemmc-bench --epilogue (fused vs plain vs cuBLASLt GELU_BIAS vs cuBLAS +
# a bias/GELU kernel) and --chain (8 decode GEMMs, direct and in a graph).
#
#   scripts/gpu_epilogue_pdl.sh [--cubins DIR]
#
# Cubins: DIR (default build/cubins), written on the CPU machine by
# scripts/build_cubins.sh (carry the folder). $OUT (default ./out) gets
# suite.txt, sanitize*, epilogue.txt and chain.txt. Time limits (seconds):
# GEMMC_SUITE_LIMIT (200) for the suite, GEMMC_SANITIZE_BUDGET (90) for
# starting sanitizer checks, so the whole command fits in about 6 minutes.
source "$(dirname "$0")/gpu_common.sh"
dir=build/cubins
[ "${1:-}" = "--cubins" ] && dir=$2
log=$OUT/logs.txt
: >"$log"
say() { echo "== $*" | tee -a "$log"; }
status=0

gpu_configure_args
"${configure[@]}" >>"$log" 2>&1 && cmake --build "$build" -j "$(nproc)" >>"$log" 2>&1 || { say "build failed"; exit 1; }
"$build/bin/gemmc-runtime-unittests" --gtest_brief=1 2>&1 | tail -n 3 | tee -a "$log"

cubins=()
for c in "$dir"/ep_*.cubin "$dir"/pdl_*.cubin; do [ -f "$c" ] && cubins+=(--cubin "$c"); done
say "suite: ${#cubins[@]} arguments"
timeout "${GEMMC_SUITE_LIMIT:-200}" "$build/bin/gemmc-gpu-tests" "${cubins[@]}" \
  --shapes 1x1x16,64x64x64,127x255x72,1000x1000x1000,4096x4096x4096,256x8192x8192,16x8192x8192 \
  >"$OUT/suite.txt" 2>&1 || status=1
grep -E "^gemmc-gpu-tests|FAIL" "$OUT/suite.txt" | tail -n 30

say "compute-sanitizer memcheck, racecheck (the pdl cubins run the chain too)"
GEMMC_SANITIZE_BUDGET=${GEMMC_SANITIZE_BUDGET:-90} scripts/gpu_sanitize.sh --tools memcheck,racecheck "$dir"/pdl_*.cubin "$dir"/ep_coop_tma_col_bf16_gelu_tanh_aux.cubin \
  >"$OUT/sanitize-run.txt" 2>&1 || status=1
tail -n 12 "$OUT/sanitize-run.txt"

say "gemmc-bench --epilogue (prefill_mlp_up, decode_mlp_up)"
"$build/bin/gemmc-bench" --epilogue "$dir/h200_bf16_128x256_coop_bias_gelu.cubin" "$dir/h200_bf16_128x256_coop.cubin" \
  --shapes 8192x28672x8192,256x28672x8192 | tee "$OUT/epilogue.txt" || status=1
"$build/bin/gemmc-bench" --epilogue "$dir/h200_bf16_decode_128x128_coop_bias_gelu.cubin" \
  "$dir/h200_bf16_decode_128x128_coop.cubin" --shapes 256x28672x8192 | tee -a "$OUT/epilogue.txt" || status=1

say "gemmc-bench --chain (decode_m16 and M = 1, 8192 x 8192 weights)"
"$build/bin/gemmc-bench" --chain "$dir/h200_bf16_decode_128x128_coop_pdl.cubin" \
  --shapes 16x8192x8192,1x8192x8192 | tee "$OUT/chain.txt" || status=1
exit $status
