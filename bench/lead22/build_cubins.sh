#!/usr/bin/env bash
# bench/lead22/build_cubins.sh ROUND: session 22's round ROUND (r1-r5) kernels into build/cubins-ROUND, all by
# this tree's compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx;
# r2's sm_80 fatbins by scripts/build_cubins.sh --check, for sm_80 and sm_90).
set -euo pipefail
round=${1:?round (r1-r5)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
case $round in
r1)
  # cube4096: the three FP8 bundles' kernels there, unclustered (main's specs) and in a 2x1 multicast cluster.
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_g16_coop.yaml bs_g16
  build "$gemmc" bench/lead22/bs_2x1.yaml bs_2x1
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" bench/lead22/pt_pp_2x1.yaml pt_pp_2x1
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" bench/lead22/rc_pp_2x1.yaml rc_pp_2x1
  # cube8192: the bundles' kernels there (per-tensor pt_sk, per-row/column rc_sk_2x1, block-scaled bs192) and rc_sk.
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk
  build "$gemmc" bench/lead13/rc_sk.yaml rc_sk
  build "$gemmc" bench/lead21/rc_sk_2x1.yaml rc_sk_2x1
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
  cp bench/lead22/r1.yaml "$out/"
  ;;
r2)
  # The goal table: issue 14's FP8 bundles and TF32 kernel, issue 12's sm_80 kernels and the mma.sync peak.
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn h200_fp8_e4m3_blockscale_tn; do
    "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null
  done
  build "$gemmc" specs/h200_tf32_128x256_coop.yaml tf32
  mkdir -p "$out/sm80"
  scripts/build_cubins.sh --check "$out/sm80" specs/a100_bf16_128x256x64.yaml specs/a100_bf16_128x256x64_sk.yaml \
    specs/a100_tf32_128x256x32_tn.yaml 2>/dev/null | grep -v analyzing
  cp bench/lead17/sm80.yaml "$out/sm80/"
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o "$out/mma-sync-peak"
  cp bench/lead22/r2.yaml "$out/"
  ;;
r3)
  # prefill_mlp_up (8192x28672x8192), which the per-tensor and per-row/column bundles serve with the 128x128
  # pingpong kernels: those against the 128x256 kernels of the 8192-class rules (persistent, stream_k, 2x1).
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x256_coop.yaml pt_coop
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk
  build "$gemmc" bench/lead22/pt_sk_2x1.yaml pt_sk_2x1
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" bench/lead13/rc_sk.yaml rc_sk
  build "$gemmc" bench/lead21/rc_sk_2x1.yaml rc_sk_2x1
  cp bench/lead22/r3.yaml "$out/"
  ;;
r4)
  # The per-tensor and block-scaled bundles (and the per-row/column one) for gemmc-bench's repeated --bundle.
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn h200_fp8_e4m3_blockscale_tn; do
    "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null
  done
  cp bench/lead22/r2.yaml "$out/"
  ;;
r5)
  # cube4096 at the power cap: the bundles' 128x128 pingpong picks against the 128x256 cooperative kernels.
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x256_coop.yaml pt_coop
  build "$gemmc" specs/h200_fp8_e4m3_128x256_coop_2x1.yaml pt_coop_2x1
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml rc_coop
  build "$gemmc" bench/lead22/rc_coop_2x1.yaml rc_coop_2x1
  cp bench/lead22/r1.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
