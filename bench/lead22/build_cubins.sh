#!/usr/bin/env bash
# bench/lead22/build_cubins.sh ROUND: session 22's round ROUND (r1) kernels into build/cubins-ROUND, all by this
# tree's compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (r1)}
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
*) echo "unknown round $round"; exit 1 ;;
esac
