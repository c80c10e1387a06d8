#!/usr/bin/env bash
# bench/lead34/build_cubins.sh ROUND: session 34's round ROUND kernels into build/cubins-ROUND, by this tree's
# compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (k1, k2, k3, k4, k5, k6)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
case $round in
k1)
  # The goal table of issues 12 and 14 on this tree's bundles (session 29's round h2 without its bf16 part): the
  # three FP8 bundles on the goal shapes (each load runs gemmc_bundle_load's manifest pre-pass of a13f7ab, never
  # run on a GPU before), the sm_80 goal kernels and the mma.sync peak.
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn h200_fp8_e4m3_blockscale_tn; do
    "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null
  done
  mkdir -p "$out/sm80"
  scripts/build_cubins.sh --check "$out/sm80" specs/a100_bf16_128x256x64.yaml specs/a100_bf16_128x256x64_sk.yaml \
    specs/a100_tf32_128x256x32_tn.yaml 2>/dev/null | grep -v analyzing
  cp bench/lead17/sm80.yaml "$out/sm80/"
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o "$out/mma-sync-peak"
  cp bench/lead22/r2.yaml "$out/"
  ;;
k2)
  # Session 33's rules (read on an H100) again: FP8 per tensor at M = 144-512 of the 28672-wide layer (round j3's
  # kernels), the per-row/column and block-scaled picks at M = 144-256 (round j4's), bf16 at M = 512-640 and on
  # the 14336-wide layer (round j3's), and the per-tensor, per-row/column and bf16 bundles as bundles there.
  bash bench/lead33/build_cubins.sh j3 >/dev/null
  bash bench/lead33/build_cubins.sh j4 >/dev/null
  cp build/cubins-j3/*.cubin build/cubins-j3/*.json build/cubins-j3/*.yaml "$out/"
  cp build/cubins-j4/*.cubin build/cubins-j4/*.json build/cubins-j4/*.yaml "$out/"
  cp -r build/cubins-j3/h200_fp8_e4m3_tn "$out/"
  for b in h200_fp8_e4m3_rowcol_tn h200_bf16_tn; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  ;;
k3)
  # FP8 per tensor and per row/column at M = 288-448 of the 28672-wide layer: the 64x192 pingpong kernels of
  # session 33's M = 129-192 rules beside the bundles' 128x128 pingpong kernels (and the 128x192 pingpong).
  build "$gemmc" specs/h200_fp8_e4m3_64x192_pp.yaml fp8_64x192_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_64x192_pp.yaml rc_64x192_pp
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_128x128_pp
  cp bench/lead34/k3.yaml "$out/"
  ;;
k4)
  # Round k3 (which got an H100) on more M, with the per-row/column 128x192 pingpong (the bundle's 8192-class pick).
  bash bench/lead34/build_cubins.sh k3 >/dev/null
  cp build/cubins-k3/*.cubin build/cubins-k3/*.json "$out/"
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x192_pp.yaml rc_128x192_pp
  cp bench/lead34/k4.yaml "$out/"
  ;;
k5)
  # Round k4 again (it got an H100), with M = 256 and 512 at the range's ends.
  bash bench/lead34/build_cubins.sh k4 >/dev/null
  cp build/cubins-k4/*.cubin build/cubins-k4/*.json "$out/"
  cp bench/lead34/k5.yaml "$out/"
  ;;
k6)
  # The per-tensor and per-row/column bundles with session 34's rules as bundles; the 128x128 and 128x192 pingpong
  # kernels with A in boxes of 16 or 32 rows (mainloop.a_box_rows, new this session) beside the shipped ones.
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" bench/lead34/fp8_128x128_pp_ab16.yaml pt_pp_ab16
  build "$gemmc" bench/lead34/fp8_128x128_pp_ab32.yaml pt_pp_ab32
  build "$gemmc" bench/lead34/fp8_128x192_pp_ab32.yaml pt_pp192_ab32
  build "$gemmc" bench/lead34/fp8_rc_128x128_pp_ab32.yaml rc_pp_ab32
  cp bench/lead34/k6.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
