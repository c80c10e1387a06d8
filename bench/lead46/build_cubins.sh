#!/usr/bin/env bash
# bench/lead46/build_cubins.sh ROUND: session 46's round ROUND kernels into build/cubins-ROUND by this tree's compiler
# (GEMMC, default build/bin/gemmc).
# v1: the per-tensor bundle with its 8192-class rule widened to prefill_mlp_up (the 128x192 pingpong there since
# session 46) and the block-scaled bundle, for issue 14's goal table in one process; the 128x128 pingpong (the
# per-tensor bundle's old pick there) beside them as pt_pp128.
# v2: the widened rule's neighbourhood: the 128x128 and 128x192 pingpong kernels (pt_pp128, pt_pp192) and the
# block-scaled 192x128 kernel (bs192) on 8192-row layers 12800-24576 wide and at M = 6144 / 12288 (bench/lead46/v2.yaml).
# v3: the rules' M edges: v2's three kernels and the block-scaled bundle's default (bs256, the free-running 128x256)
# at M = 4096-5120 and 16384-32768 on 8192- and 28672-wide layers (bench/lead46/v3.yaml).
# v4: the block-scaled bundle's 8192-class pick on wide layers: bs192 and bs256 (round v3: bs256 1.11x at
# 16384x28672) with pt_pp192 beside them, on 8192-row layers 16384-28672 wide (bench/lead46/v4.yaml).
# w1 (staged for the next session, for an H200): v3's four kernels on the widened per-tensor rule's shapes and
# 16384x28672 again (bench/lead46/w1.yaml).
set -euo pipefail
round=${1:?round (v1, v2, v3, v4, w1)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
round_out "$round" '*.yaml'

case $round in
  v1)
    bundles h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn
    kernels pt_pp128
    cp bench/lead22/r2.yaml "$out/" ;;
  v2|v3|v4|w1)
    case $round in
      v2) kernels pt_pp128 pt_pp192 bs192 ;;
      v3) kernels pt_pp128 pt_pp192 bs192 bs256 ;;
      v4) kernels pt_pp192 bs192 bs256 ;;
      w1) kernels pt_pp128 pt_pp192 bs192 bs256 ;;
    esac
    cp bench/lead46/$round.yaml "$out/" ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
