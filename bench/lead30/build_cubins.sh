#!/usr/bin/env bash
# bench/lead30/build_cubins.sh ROUND: session 30's round ROUND kernels into build/cubins-ROUND, by this tree's
# compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (i1, i2, i3)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
case $round in
i1)
  # Issue 14's block-scaled and per-row/column cells: the bundles' 8192-class kernels under stream_k and (block
  # scales) in groups of 16, beside the bundles' kernels and the per-tensor references of each goal shape.
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
  build "$gemmc" bench/lead30/bs192_sk.yaml bs192_sk
  build "$gemmc" bench/lead30/bs192_g16.yaml bs192_g16
  build "$gemmc" bench/lead30/bs192_sk_g16.yaml bs192_sk_g16
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs256
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  build "$gemmc" bench/lead30/pt_pp192_sk.yaml pt_pp192_sk
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x192_pp.yaml rc_pp192
  build "$gemmc" bench/lead30/rc_pp192_sk.yaml rc_pp192_sk
  # Session 29's round h4 (bench/lead29/README.md), unrun there: bf16 at M = 192 and 256 of the 28672-wide layer.
  build "$gemmc" bench/lead29/bf16_pp64x224_g8.yaml bf16_pp64x224_g8
  build "$gemmc" test/gpu/tune3/pp_tn_64x192.yaml bf16_pp64x192
  build "$gemmc" specs/h200_bf16_128x160_pp.yaml bf16_pp160
  cp bench/lead22/r2.yaml bench/lead29/h4.yaml "$out/"
  ;;
i2)
  # bf16 at M = 144-640 of the 28672-wide layer (M = 384 and 512 of the 14336-wide one): `gemmc tune`'s picks (bench/lead30/tune_bf16_tn_*.yaml) beside the
  # kernels the bf16 bundles choose there today.
  for t in 1 2 2c 4; do build "$gemmc" bench/lead30/tune_bf16_tn_$t.yaml tune_$t; done
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml bf16_coop
  build "$gemmc" specs/h200_bf16_128x192_pp.yaml bf16_pp192
  build "$gemmc" specs/h200_bf16_decode_128x128_coop.yaml bf16_dec128
  build "$gemmc" test/gpu/tune3/pp_tn_64x192.yaml bf16_pp64x192
  build "$gemmc" specs/h200_bf16_128x160_pp.yaml bf16_pp160
  cp bench/lead30/i2.yaml "$out/"
  ;;
i3)
  # Issue 12 (bench/lead30/sm80_next_tile.patch): the persistent sm_80 bf16 kernel whose CTAs issue the next tile's first fills
  # before a tile's epilogue, built by a compiler with the patch applied (GEMMC_BUILD_DIR, default build) and, renamed _main, by
  # main's (GEMMC_MAIN_BUILD, a build folder of main: required), beside the data-parallel and stream_k goal kernels;
  # the sm_80 fatbins by scripts/build_cubins.sh --check (ptxas for sm_80 and sm_90, no spill, no C75xx).
  : "${GEMMC_MAIN_BUILD:?a build folder of main (its bin/gemmc builds the _main kernel)}"
  mkdir -p "$out/sm80" "$out/tmp"
  sed 's/^name: gemm_bf16_128x256x64_pers$/name: gemm_bf16_128x256x64_pers_main/' \
    bench/lead30/a100_bf16_128x256x64_pers.yaml >"$out/tmp/a100_bf16_128x256x64_pers_main.yaml"
  scripts/build_cubins.sh --check "$out/sm80" bench/lead30/a100_bf16_128x256x64_pers.yaml \
    specs/a100_bf16_128x256x64.yaml specs/a100_bf16_128x256x64_sk.yaml | grep -v analyzing
  GEMMC_BUILD_DIR=$GEMMC_MAIN_BUILD scripts/build_cubins.sh --check "$out/sm80" \
    "$out/tmp/a100_bf16_128x256x64_pers_main.yaml" | grep -v analyzing
  rm -rf "$out/tmp"
  cp bench/lead17/sm80.yaml "$out/sm80/"
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o "$out/mma-sync-peak"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
