#!/usr/bin/env bash
# bench/lead43/build_cubins.sh ROUND: session 43's round ROUND kernels into build/cubins-ROUND by this tree's compiler
# (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
# s1: the block-scaled bundle's new default (specs/h200_fp8_e4m3_blockscale_128x256_ws.yaml: wait_ahead, unroll 2)
# under stream_k, split_k 2 (stream_k's workspace), groups of 16 and unroll 4 (bench/lead43/*.yaml), the clustered
# free-running kernel with scales from global memory (bench/lead41/bs256_ws_2x1_ns.yaml) and unrolled 2, beside the
# cooperative 128x256 it replaced, the 192x128 and the per-tensor kernels; the per-tensor and block-scaled bundles.
set -euo pipefail
round=${1:?round (s1, s2)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
round_out "$round" '*.yaml'

case $round in
  s1)
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_ws.yaml bs256w
    for v in sk k2 g16 u4; do build "$gemmc" bench/lead43/bs256w_$v.yaml bs256w_$v; done
    build "$gemmc" bench/lead43/bs256_ws_2x1_ns_u2.yaml bs256_ws_2x1_ns_u2
    build "$gemmc" bench/lead41/bs256_ws_2x1_ns.yaml bs256_ws_2x1_ns
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs256
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
    build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
    build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
    bundles h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn
    cp bench/lead43/s1.yaml bench/lead22/r2.yaml "$out/" ;;
  s2)
    # The registers setmaxnreg gives the producer and the three consumer warpgroups of the 192x128 block-scaled
    # kernel (main: 24 / 160), set in its PTX (nreg below; the rest of the PTX is main's): 32 / 160
    # (bench/lead43/producer32.patch's kernel) and 40 / 152 (no spill in the 2x1 and 1x2 multicast clusters either,
    # where 24 / 160 spills 32-44 bytes and 32 / 160 16-24: all of it in the producer).
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
    nreg specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192_p32 32 160
    nreg specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192_p40 40 152
    for c in 2x1 1x2; do nreg bench/lead43/bs192_$c.yaml bs192_${c}_p40 40 152; done
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_ws.yaml bs256w
    build "$gemmc" bench/lead43/bs256w_sk.yaml bs256w_sk
    build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
    build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
    bundles h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn
    cp bench/lead22/r2.yaml "$out/" ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
