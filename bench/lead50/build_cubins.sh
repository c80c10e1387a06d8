#!/usr/bin/env bash
# bench/lead50/build_cubins.sh ROUND: session 50's round ROUND kernels into build/cubins-ROUND by this tree's compiler
# (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
# y1: the 192x128 block-scaled kernel (bs192, shipped) beside the same PTX at producer / consumer registers 40 / 152
# (bs192_p40, the control) and its two 1x2 A-multicast forms at 40 / 152 (bench/lead43/bs192_1x2.yaml along M as
# session 44's t1, and reordered along N as the shipped kernel walks), for ncu on cube8192: why the cluster costs gemmc 10% where it gains DeepGEMM 9%.
set -euo pipefail
round=${1:?round (y1)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
round_out "$round" '*.yaml'

case $round in
  y1)
    bs=specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml
    build "$gemmc" $bs bs192
    nreg $bs bs192_p40 40 152
    nreg bench/lead43/bs192_1x2.yaml bs192_1x2_p40 40 152
    # The 1x2 form along N, as bs192 walks since session 45 (at 24 / 160 it spills: nreg's split only).
    reorder bench/lead43/bs192_1x2.yaml bs192_1x2n along_n 8
    nreg "$out/bs192_1x2n.yaml" bs192_1x2n_p40 40 152
    cp bench/lead22/r2.yaml "$out/" ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
