#!/usr/bin/env bash
# bench/lead44/build_cubins.sh ROUND: session 44's round ROUND kernels into build/cubins-ROUND by this tree's compiler
# (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
# t1: session 43's round s2 (the 192x128 block-scaled kernel's producer / consumer registers set in its PTX: 32 / 160
# and 40 / 152, unclustered and in 2x1 / 1x2 multicast clusters) and the 192x128 kernel with a direct-store epilogue,
# whose 48 KiB TMA-store ring gives way to a fifth stage (bench/lead44/bs192d*.yaml; 4 stages too, to part the
# stage's effect from the store's), beside the bundle's 128x256 default and the per-tensor kernels; both bundles.
# t2: the 192x128 block-scaled kernel in four other tile orders (cubins_common.sh's ordered: bs192_{n8,n4,m4,m2}.yaml
# in the output folder).
set -euo pipefail
round=${1:?round (t1, t2)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
round_out "$round" '*.yaml'

case $round in
  t1)
    bs=specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml
    build "$gemmc" $bs bs192
    nreg $bs bs192_p32 32 160
    nreg $bs bs192_p40 40 152
    for c in 2x1 1x2; do nreg bench/lead43/bs192_$c.yaml bs192_${c}_p40 40 152; done
    # The direct-store forms spill 4-44 bytes in the producer at 24 / 160 and 32 / 160: 40 / 152 only.
    for v in bs192d bs192d4 bs192d_2x1 bs192d_1x2; do nreg bench/lead44/$v.yaml ${v}_p40 40 152; done
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_ws.yaml bs256w
    build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
    build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
    bundles h200_fp8_e4m3_tn h200_fp8_e4m3_blockscale_tn
    cp bench/lead22/r2.yaml "$out/" ;;
  t2)
    # The 192x128 block-scaled kernel's tile order on the 8192-class shapes: along N, and groups of 2 and 4.
    # bs192 is the shipped spec as built: along M in groups of 8 when t2 ran, along N since session 45 (the
    # old order is bench/lead45's u4 bs192_m8).
    build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
    for o in n8:along_n:8 n4:along_n:4 m4:along_m:4 m2:along_m:2; do
      IFS=: read -r tag raster group <<<"$o"
      ordered specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192_$tag $raster $group
    done
    build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
    cp bench/lead44/t2.yaml "$out/" ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
