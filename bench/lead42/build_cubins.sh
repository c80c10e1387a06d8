#!/usr/bin/env bash
# bench/lead42/build_cubins.sh ROUND: session 42's round ROUND kernels into build/cubins-ROUND by this tree's compiler
# (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx). q1 gathers session
# 41's cubins (the bytes it timed); q2 and q3 build kernels with and without mainloop.wait_ahead
# (bench/lead42/*_ah.yaml: bench/lead41's specs with the field; off by default, so the kernels without it are main's);
# q3 adds mainloop.unroll (the *_u2 / *_u4 specs).
set -euo pipefail
round=${1:?round (q1, q2, q3)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
cp bench/lead22/r2.yaml "$out/"
case $round in
  q1)
    [ -f build/cubins-p3/bs256_ws_2x1_ns.cubin ] || bash bench/lead41/build_cubins.sh p3
    for c in bs128x192_ws_2x1_ns bs256_ws_2x1_ns; do cp build/cubins-p3/$c.cubin* "$out/"; done
    cp build/lead41/deepgemm_bs "$out/" ;;
  q2)
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
    build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
    for b in bs256_ws bs128x192_ws_2x1; do
      build "$gemmc" bench/lead41/$b.yaml $b
      build "$gemmc" bench/lead42/${b}_ah.yaml ${b}_ah
    done
    # bs192_ah: the shipped 192x128 spec with wait_ahead: true
    sed -e 's/stage_scales: true}/stage_scales: true, wait_ahead: true}/' \
      specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml >"$out/bs192_ah.spec"
    build "$gemmc" "$out/bs192_ah.spec" bs192_ah
    rm "$out/bs192_ah.spec" ;;
  q3)
    build "$gemmc" bench/lead41/bs256_ws_2x1.yaml bs256_ws_2x1
    build "$gemmc" bench/lead42/bs256_ws_2x1_ah.yaml bs256_ws_2x1_ah
    build "$gemmc" bench/lead42/bs256_ws_ah.yaml bs256_ws_ah
    for u in 2 4; do
      build "$gemmc" bench/lead42/bs256_ws_2x1_ah_u$u.yaml bs256_ws_2x1_ah_u$u
      build "$gemmc" bench/lead42/bs256_ws_ah_u$u.yaml bs256_ws_ah_u$u
    done
    build "$gemmc" bench/lead42/bs192_u2.yaml bs192_u2
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs256
    build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
    build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
    cp build/lead41/deepgemm_bs "$out/" ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
