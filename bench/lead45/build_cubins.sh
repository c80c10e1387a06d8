#!/usr/bin/env bash
# bench/lead45/build_cubins.sh ROUND: session 45's round ROUND kernels into build/cubins-ROUND by this tree's compiler
# (GEMMC, default build/bin/gemmc). Rounds t2, u1 and u2 ran on bench/lead44's t2 cubins.
# u3: the per-tensor and block-scaled bundles, the block-scaled one with its 8192-class kernel walking along N
# (specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml since session 45), for the goal table in one process.
# u4: the shipped 192x128 kernel (along N, groups of 8) beside along N in groups of 16 and 4 and the old order
# (along M in groups of 8), each its spec with the order set (cubins_common.sh's ordered: bs192_<order>.yaml in the output folder),
# and the per-tensor 128x192 pingpong in both orders, for the power-capped reading on the 8192-class shapes.
set -euo pipefail
round=${1:?round (u3, u4)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
round_out "$round" '*.yaml'

case $round in
  u3)
    bundles h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn
    cp bench/lead22/r2.yaml "$out/" ;;
  u4)
    bs=specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml
    build "$gemmc" $bs bs192
    ordered $bs bs192_n16 along_n 16
    ordered $bs bs192_n4 along_n 4
    ordered $bs bs192_m8 along_m 8
    pt=specs/h200_fp8_e4m3_128x192_pp.yaml
    build "$gemmc" $pt pt_pp192
    # The per-tensor reference walked along N too: if the order moves it as much, the cell does not move.
    ordered $pt pt_pp192_n8 along_n 8
    cp bench/lead44/t2.yaml "$out/" ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
