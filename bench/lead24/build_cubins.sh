#!/usr/bin/env bash
# bench/lead24/build_cubins.sh ROUND: session 24's round ROUND (s1-s4) kernels into build/cubins-ROUND, by this tree's
# compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (s1)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
case $round in
s1)
  # cube4096: the FP8 bundles' 128x128 pingpong kernels and the block-scaled 128x256 kernel, each beside its 2x1
  # multicast twin (session 22's round r1: the twins lost 3-4% and 11%).
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" bench/lead22/pt_pp_2x1.yaml pt_pp_2x1
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" bench/lead22/rc_pp_2x1.yaml rc_pp_2x1
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs
  build "$gemmc" bench/lead22/bs_2x1.yaml bs_2x1
  cp bench/lead22/r1.yaml "$out/"
  ;;
s2)
  # The 2x1 twins with groups of 4 and 2 cluster rows (8 and 4 tile rows) beside main's kernels and the g8 twin.
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" bench/lead22/pt_pp_2x1.yaml pt_pp_2x1
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs
  for k in pt_pp rc_pp bs; do
    for g in 4 2; do build "$gemmc" bench/lead24/${k}_2x1_g$g.yaml ${k}_2x1_g$g; done
  done
  cp bench/lead22/r1.yaml "$out/"
  ;;
s3)
  # The per-tensor 128x128 pingpong kernel and its 2x1 twin with 6 (auto), 5 and 4 stages: does the twin's loss grow
  # as the ring's slack shrinks?
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" bench/lead22/pt_pp_2x1.yaml pt_pp_2x1
  for st in 5 4; do
    build "$gemmc" bench/lead24/pt_pp_s$st.yaml pt_pp_s$st
    build "$gemmc" bench/lead24/pt_pp_2x1_s$st.yaml pt_pp_2x1_s$st
  done
  cp bench/lead22/r1.yaml "$out/"
  ;;
s4)
  # The block-scaled 128x256 kernel (cube4096's) in other tile orders, beside the per-tensor pingpong kernel.
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs
  for t in g4 g2 g1 n8 n4; do build "$gemmc" bench/lead24/bs_$t.yaml bs_$t; done
  cp bench/lead22/r1.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
