#!/usr/bin/env bash
# bench/lead29/build_cubins.sh ROUND: session 29's round ROUND kernels into build/cubins-ROUND, by this tree's
# compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx; the sm_80
# fatbins by scripts/build_cubins.sh --check, for sm_80 and sm_90).
set -euo pipefail
round=${1:?round (h2, h3, h4)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
rm -rf "$out"/h200_*tn* "$out/sm80"
mkdir -p "$out/ptx"
case $round in
h2)
  # The goal table of issues 12 and 14 on this tree's bundles (session 22's round r2, with session 29's rules):
  # the three FP8 bundles, the sm_80 goal kernels and the mma.sync peak; the bf16 bundle with the M = 256 rule.
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn h200_fp8_e4m3_blockscale_tn h200_bf16_tn_waves; do
    "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null
  done
  # The M = 256 rule's edges: the 128x160 pingpong beside the 128x256 cooperative kernel on K = 4096 and N = 14336.
  build "$gemmc" specs/h200_bf16_128x160_pp.yaml bf16_pp160
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml bf16_coop
  # M = 192 on the 28672-wide layer: a 64x192 pingpong tile (the waves bundle's pick at N 16385-20480) and the
  # 64x224 one (meant as `gemmc tune --m 192 --n 28672 --k 8192`'s first pick, 633 TFLOP/s predicted; that pick
  # walks tiles in groups of 8, this spec in groups of 1, for which the model predicts 268).
  build "$gemmc" test/gpu/tune3/pp_tn_64x192.yaml bf16_pp64x192
  build "$gemmc" test/gpu/tune3/pp_tn_64x224.yaml bf16_pp64x224
  mkdir -p "$out/sm80"
  scripts/build_cubins.sh --check "$out/sm80" specs/a100_bf16_128x256x64.yaml specs/a100_bf16_128x256x64_sk.yaml \
    specs/a100_tf32_128x256x32_tn.yaml 2>/dev/null | grep -v analyzing
  cp bench/lead17/sm80.yaml "$out/sm80/"
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o "$out/mma-sync-peak"
  cp bench/lead22/r2.yaml bench/lead29/h2_bf16.yaml bench/suites/anchors.yaml "$out/"
  ;;
h3)
  # Per tensor on prefill_mlp_up: the 128x192 pingpong (the per-tensor bundle's 8192-class pick, N <= 12288) beside
  # the 128x128 pingpong that the bundle takes there today.
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  cp bench/lead29/h3.yaml "$out/"
  ;;
h4)
  # bf16 at M = 192 and 256 of the 28672-wide layer: the 64x224 pingpong in groups of 8 (gemmc tune's first pick at
  # M = 192) beside the 64x192 and 128x160 pingpong kernels of the bundles' rules there.
  build "$gemmc" bench/lead29/bf16_pp64x224_g8.yaml bf16_pp64x224_g8
  build "$gemmc" test/gpu/tune3/pp_tn_64x192.yaml bf16_pp64x192
  build "$gemmc" specs/h200_bf16_128x160_pp.yaml bf16_pp160
  cp bench/lead29/h4.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
