#!/usr/bin/env bash
# bench/lead16/build_cubins.sh ROUND: the cubins of session 16's lead round ROUND into build/cubins-ROUND, each
# ptxas report checked (no spill, no C75xx), with the round's suite file. Built by this checkout's gemmc.
# Rounds l1-l2 need GEMMC_L1_NO_TURNS, which only 8997ca1 and ff7e435 know (README.md).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
round=${1:?round (l1, l2, l3, l5)}
out=build/cubins-$round
cubins_fresh "$out"; mkdir -p "$out/ptx"
case $round in
l1)
  for s in bs bs_g16 pt_sk pt_pp; do build "$gemmc" bench/lead15/$s.yaml $s; done
  for s in bs192_t bs192_t_g16 bs192_t_sk bs192_t_f64 pt192; do build "$gemmc" bench/lead16/$s.yaml $s; done
  # Without the turns: the round's switch (GEMMC_L1_NO_TURNS, lib/Transforms/GemmcWarpSpecialize.cpp).
  GEMMC_L1_NO_TURNS=1 build "$gemmc" bench/lead16/bs192_nt.yaml bs192_nt
  cp bench/lead16/fp8.yaml "$out/"
  ;;
l2)
  for s in bs pt_sk pt_pp; do build "$gemmc" bench/lead15/$s.yaml $s; done
  build "$gemmc" bench/lead16/bs192_t.yaml bs192_t
  # Without turns: the round switch (GEMMC_L1_NO_TURNS, lib/Transforms/GemmcWarpSpecialize.cpp); bs_nt is the
  # shipped block-scaled spec (cooperative 128x256 in halves) without its turns.
  for s in bs192_nt bs192_nt_g16 bs192_nt_sk bs128ws_nt; do GEMMC_L1_NO_TURNS=1 build "$gemmc" bench/lead16/$s.yaml $s; done
  GEMMC_L1_NO_TURNS=1 build "$gemmc" bench/lead15/bs.yaml bs_nt
  cp bench/lead16/fp8.yaml "$out/"
  ;;
l3)
  # main's lowering after the merge: the shipped 192x128 spec (its PTX is bs192_nt's of rounds l1-l2), the block-scaled
  # bundle as shipped, the per-tensor denominators, and test/gpu's two four-warpgroup specs (their producer now
  # keeps 24 registers and the consumers 112).
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192
  for s in bs pt_sk pt_pp; do build "$gemmc" bench/lead15/$s.yaml $s; done
  mkdir -p "$out/ws4"
  for s in ws4_tn_256x128_persist ws4_tn_256x128_sk; do
    "$gemmc" test/gpu/specs/$s.yaml -o "$out/ws4/$s.cubin" --ptxas-verbose 2>"$out/ptx/$s.ptxas.txt"
    check "$out/ptx/$s.ptxas.txt" "$s"
  done
  "$gemmc" bundle bench/bundles/h200_fp8_e4m3_blockscale_tn.yaml -o "$out/bsbundle" >/dev/null
  cp bench/lead16/fp8.yaml "$out/"
  ;;
l5)
  # The shipped per-row/column kernels (copies under short names in bench/lead15) for a sustained run.
  for s in rc_sk rc_pp; do build "$gemmc" bench/lead15/$s.yaml $s; done
  cp bench/lead16/fp8.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 2 ;;
esac
