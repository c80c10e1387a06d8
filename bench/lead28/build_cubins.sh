#!/usr/bin/env bash
# bench/lead28/build_cubins.sh ROUND: session 28's round ROUND kernels into build/cubins-ROUND, by this tree's
# compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (h1)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
rm -rf "$out"/h200_*tn*
mkdir -p "$out/ptx"
case $round in
h1)
  # bf16: the 128x192 pingpong (the bf16 bundles' new 8192-class pick) and the 128x160 pingpong beside the
  # kernels the bundles pick today (128x256 cooperative for M >= 513, 128x128 cooperative for M = 65-512);
  # FP8 per row/column: the 128x192 and 128x128 pingpong kernels (prefill_mlp_up's pick today).
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml bf16_coop
  build "$gemmc" specs/h200_bf16_decode_128x128_coop.yaml bf16_dec128
  build "$gemmc" specs/h200_bf16_128x192_pp.yaml bf16_pp192
  build "$gemmc" specs/h200_bf16_128x160_pp.yaml bf16_pp160
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x192_pp.yaml rc_pp192
  # TF32 at the power cap (the model has no sustained TF32 rate: bench/model_error.py puts it 8-14% fast on the
  # long TF32 shapes).
  build "$gemmc" specs/h200_tf32_128x256_coop.yaml tf32_coop
  for b in h200_bf16_tn h200_bf16_tn_waves; do
    "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null
  done
  cp bench/lead28/h1.yaml bench/lead28/h1_rc.yaml bench/lead28/h1_tf32.yaml bench/suites/anchors.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
