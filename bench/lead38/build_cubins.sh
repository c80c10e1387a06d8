#!/usr/bin/env bash
# bench/lead38/build_cubins.sh ROUND: round ROUND's bundles into build/cubins-ROUND, each kernel's ptxas report
# checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (n5, n7)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
rm -rf "$out"; mkdir -p "$out/ptx"
case $round in
n5)
  # Session 38's h200_bf16_tn rules (from rounds n3-n4) as a bundle beside the bundle before them (main at 753f032),
  # on the sweep's shapes with M = 65-1024 (n5.sh), and the four new kernels through ptxas.
  "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  bundle_before "$gemmc" 753f032 h200_bf16_tn
  check_specs specs/h200_bf16_{64x64_pp,128x64_ws,64x192_pp,128x192_pp_abox32_sk}.yaml
  ;;
n7)
  # gemmc tune after the swap_ab stride fix (1c852b7), which let it rank swap_ab at M = 1-7: h200_bf16_tn_auto
  # rebuilt (its M = 1-64 kernel is now a swap_ab 32x64 under stream_k) beside the auto bundle before the fix
  # (GEMMC_BEFORE, a gemmc built at af451f9), and gemmc tune's top 4 for the sweep's three M = 3 shapes still
  # under 0.7 of cuBLAS beside the bundle's swap_ab 16x64 pingpong (cand__).
  before=${GEMMC_BEFORE:?a gemmc built before 1c852b7}
  "$gemmc" bundle bench/bundles/h200_bf16_tn_auto.yaml -o "$out/h200_bf16_tn_auto" >/dev/null
  bundle_before "$before" "" h200_bf16_tn_auto
  check_specs "$out"/h200_bf16_tn_auto/*.yaml
  mkdir -p "$out/m3" "$out/ptx/m3"
  build "$gemmc" specs/h200_bf16_swab_16x64_pp.yaml m3/cand__h200_bf16_swab_16x64_pp
  { echo "# bench/lead38 round n7: the sweep's M = 3 shapes, gemmc tune's top 4 after the swap_ab stride fix"
    echo "shapes:"; } >"$out/m3/shapes.yaml"
  tune_sweep_shapes m3 qwen25_7b_qkv_m3 dsv3_expert_down_m3 llama3_8b_o_m3
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
