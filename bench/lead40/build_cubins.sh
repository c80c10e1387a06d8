#!/usr/bin/env bash
# bench/lead40/build_cubins.sh ROUND: session 40's round ROUND kernels into build/cubins-ROUND, by this tree's
# compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (o1)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
case $round in
o1)
  # Issue 14's block-scaled cell: block scales on a 128x192 tile with one part a K tile (bench/lead40/bs128x192_*.yaml:
  # cooperative with turns, warp_specialized without, cooperative under stream_k for cube4096's 5.33 waves) beside the
  # block-scaled bundle's kernels (bs256, bs192) and the per-tensor bundle's (pt_pp, pt_pp192).
  for s in bs128x192_coop bs128x192_ws bs128x192_coop_sk; do build "$gemmc" bench/lead40/$s.yaml $s; done
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs256
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  cp bench/lead22/r2.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
