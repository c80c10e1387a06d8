#!/usr/bin/env bash
# bench/lead45/build_cubins.sh ROUND: session 45's round ROUND kernels into build/cubins-ROUND by this tree's compiler
# (GEMMC, default build/bin/gemmc). Rounds t2, u1 and u2 ran on bench/lead44's t2 cubins.
# u3: the per-tensor and block-scaled bundles, the block-scaled one with its 8192-class kernel walking along N
# (specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml since session 45), for the goal table in one process.
set -euo pipefail
round=${1:?round (u3)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
round_out "$round" '*.yaml'

case $round in
  u3)
    bundles h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn
    cp bench/lead22/r2.yaml "$out/" ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
