#!/usr/bin/env bash
# bench/lead51/build_cubins.sh ROUND: session 51's round ROUND kernels into build/cubins-ROUND by this tree's compiler
# (GEMMC, default build/bin/gemmc).
# z1: issue 14's block-scaled cell on its goal shapes (bench/lead22/r2.yaml), for an H200 first: the per-tensor
# 128x128 and 128x192 pingpong kernels (pt_pp128, pt_pp192) and the block-scaled 192x128 and 128x256 kernels (bs192,
# bs256), the cell's numerator and denominator as the bundles pick them.
# z2: a fifth stage for the 192x128 block-scaled kernel with the TMA-store epilogue (round y1: its ring drains):
# bs192 beside bs192_b1 (epilogue.buffers: 1), bs192_ss0 (stage_scales: false), bs192_s5 (both, which frees a 40 KiB
# stage: 5 stages, 225.1 KiB), bs192_s3 (3 stages: the other way), and pt_pp192.
set -euo pipefail
round=${1:?round (z1, z2)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
round_out "$round" '*.yaml'

case $round in
  z1)
    kernels pt_pp128 pt_pp192 bs192 bs256
    cp bench/lead22/r2.yaml "$out/" ;;
  z2)
    kernels bs192 pt_pp192
    bs=specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml
    one_buffer='s/epilogue: \{store: tma,/epilogue: {store: tma, buffers: 1,/'
    unstaged='s/stage_scales: true/stage_scales: false/'
    variant $bs bs192_b1 "$one_buffer"
    variant $bs bs192_ss0 "$unstaged"
    variant $bs bs192_s5 "$one_buffer" "$unstaged" 's/stages: auto,/stages: 5,/'
    variant $bs bs192_s3 's/stages: auto,/stages: 3,/'
    for n in bs192_b1 bs192_ss0 bs192_s5 bs192_s3; do build "$gemmc" "$out/$n.yaml" $n; done
    cp bench/lead22/r2.yaml "$out/" ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
