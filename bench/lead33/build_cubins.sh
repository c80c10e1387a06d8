#!/usr/bin/env bash
# bench/lead33/build_cubins.sh ROUND: session 33's round ROUND kernels into build/cubins-ROUND, by this tree's
# compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (j1, j2, j3, j4)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
case $round in
j1)
  # FP8 per tensor at M = 144-512 of the 28672-wide layer (K = 8192), where the per-tensor bundle takes the
  # 128x128 pingpong: `gemmc tune`'s picks and the 64-row pingpong tiles of the bf16 bundles' rules, in e4m3.
  for s in fp8_64x224_pp fp8_64x192_pp fp8_64x256_pp_sk fp8_128x224_ws; do build "$gemmc" bench/lead33/$s.yaml $s; done
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk
  cp bench/lead33/j1.yaml "$out/"
  ;;
j2)
  # Session 32's round i2b (bench/lead30/i2b.sh: round i2's bf16 kernels on M = 512, 640 of the 28672-wide layer
  # and the 14336-wide one) and the two bf16 bundles with session 32's rules, run as bundles on round i2's shapes.
  bash bench/lead30/build_cubins.sh i2 >/dev/null
  cp build/cubins-i2/*.cubin build/cubins-i2/*.json "$out/"
  for b in h200_bf16_tn h200_bf16_tn_waves; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  cp bench/lead30/i2.yaml bench/lead30/i2b.yaml "$out/"
  ;;
j3)
  # Rounds j1 and j2 again, for an H200 (they ran on an H100): FP8 per tensor at M = 144-512 of the 28672-wide layer
  # (the new M = 129-192 rule's kernel, the M = 256 candidate and the bundle's other kernels; the per-tensor bundle
  # as a bundle) and the bf16 candidates at M = 512-640 and on the 14336-wide layer.
  build "$gemmc" specs/h200_fp8_e4m3_64x192_pp.yaml fp8_64x192_pp
  build "$gemmc" bench/lead33/fp8_128x224_ws.yaml fp8_128x224_ws
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk
  build "$gemmc" specs/h200_bf16_128x192_pp.yaml bf16_pp192
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml bf16_coop
  build "$gemmc" specs/h200_bf16_decode_128x128_coop.yaml bf16_dec128
  build "$gemmc" test/gpu/tune3/pp_tn_64x192.yaml bf16_pp64x192
  "$gemmc" bundle bench/bundles/h200_fp8_e4m3_tn.yaml -o "$out/h200_fp8_e4m3_tn" >/dev/null
  cp bench/lead33/j3_fp8.yaml bench/lead33/j3_bf16.yaml "$out/"
  ;;
j4)
  # The per-row/column and block-scaled FP8 bundles at M = 144-256 of the 28672-wide layer, where the per-tensor
  # bundle had its 128x128 hole (round j1): their picks there beside 64-row pingpong tiles.
  build "$gemmc" bench/lead33/fp8_rc_64x192_pp.yaml rc_64x192_pp
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_64x128_pp.yaml rc_64x128_pp
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_128x128_pp
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_64x128_pp_ss.yaml bs_64x128_pp_ss
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml bs_128x128_coop
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs_128x256_g1
  cp bench/lead33/j4.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
