#!/usr/bin/env bash
# bench/lead35/build_cubins.sh ROUND: the next session's round ROUND kernels into build/cubins-ROUND, by this
# tree's compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (l1, l2, l3)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
case $round in
l1)
  # bf16 at M = 272-480 of 28672x8192: the bf16 bundles' 128-row kernels beside their twins with A in boxes of 32
  # rows (mainloop.a_box_rows), and the 64x192 pingpong.
  build "$gemmc" specs/h200_bf16_128x192_pp.yaml bf16_pp192
  build "$gemmc" bench/lead35/bf16_128x192_pp_abox32.yaml bf16_pp192_ab32
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml bf16_coop
  build "$gemmc" bench/lead35/bf16_128x256_coop_abox32.yaml bf16_coop_ab32
  build "$gemmc" specs/h200_bf16_decode_128x128_coop.yaml bf16_dec128
  build "$gemmc" bench/lead35/bf16_128x128_coop_abox32.yaml bf16_dec128_ab32
  build "$gemmc" test/gpu/tune3/pp_tn_64x192.yaml bf16_pp64x192
  # The hand-picked bundle and the one gemmc tune picks (session 35: its three kernels take 32-row boxes).
  for b in h200_bf16_tn h200_bf16_tn_auto; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  cp bench/lead35/shapes.yaml "$out/"
  ;;
l2)
  # FP8 at M = 272-480 of 28672x8192 on an H200 (session 34's rounds k3-k6 ran on an H100): the per-tensor and
  # per-row/column kernels with and without A in boxes, the block-scaled bundle's 128x256 with and without, and
  # the two bundles with session 34's rules.
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" bench/lead35/fp8_128x128_pp_abox32.yaml pt_pp_ab32
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp_abox32.yaml pt_pp192_ab32
  build "$gemmc" specs/h200_fp8_e4m3_64x192_pp.yaml pt_64x192
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp_abox32.yaml rc_pp_ab32
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x192_pp.yaml rc_pp192
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_64x192_pp.yaml rc_64x192
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs_g1
  build "$gemmc" bench/lead35/bs_128x256_g1_abox32.yaml bs_g1_ab32
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  cp bench/lead35/shapes.yaml "$out/"
  ;;
l3)
  # Decode and small batches: the bundles' 64-row and 128x64 kernels beside their twins with A in boxes of 32 (and
  # one of 16) rows, at M = 1-128 (bench/lead35/shapes_l3.yaml).
  build "$gemmc" test/gpu/small/pp_tn_64x64.yaml bf16_pp64
  build "$gemmc" bench/lead35/bf16_64x64_pp_abox32.yaml bf16_pp64_ab32
  build "$gemmc" bench/lead35/bf16_64x64_pp_abox16.yaml bf16_pp64_ab16
  build "$gemmc" specs/h200_bf16_decode_m64_64x128.yaml bf16_dec64
  build "$gemmc" bench/lead35/bf16_decode_64x128_abox32.yaml bf16_dec64_ab32
  build "$gemmc" specs/h200_fp8_e4m3_64x128_pp.yaml fp8_pp64
  build "$gemmc" bench/lead35/fp8_64x128_pp_abox32.yaml fp8_pp64_ab32
  build "$gemmc" specs/h200_fp8_e4m3_128x64_ws.yaml fp8_ws128x64
  build "$gemmc" bench/lead35/fp8_128x64_ws_abox32.yaml fp8_ws128x64_ab32
  for b in h200_bf16_tn h200_bf16_tn_auto; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  cp bench/lead35/shapes_l3.yaml "$out/shapes.yaml"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
