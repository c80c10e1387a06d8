#!/usr/bin/env bash
# Issue 16, session 6: the round-2 miss report's three REACHABLE picks beside the bundle's kernels, one
# gemmc-bench process (bench/suites/tune4-s6.yaml). Built here, carried as build/cubins-s6picks:
#   scripts/build_cubins.sh --check build/cubins-s6picks test/gpu/tune4/{swab_tn_8x64_pp,pp_tn_64x160,pp_tn_64x128_g8}.yaml
#   plus the bundle's swab_tn_16x64_ws, swab_tn_16x128_sk and h200_bf16_decode_128x128_coop cubins.
set -u
OUT=${OUT:-./out}; mkdir -p "$OUT"
source scripts/gpu_common.sh
gpu_build_bench_within 80 || exit 1
timeout 60 "$build/bin/gemmc-bench" --cubin-dir build/cubins-s6picks --suite bench/suites/tune4-s6.yaml \
  --iters 30 --warmup 3 --json "$OUT/picks-s6.json" >"$OUT/picks-s6.txt" 2>&1
echo "== picks: exit $?"; cat "$OUT/picks-s6.txt"
