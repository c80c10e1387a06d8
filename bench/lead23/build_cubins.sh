#!/usr/bin/env bash
# bench/lead23/build_cubins.sh ROUND: session 23's round ROUND (t1) kernels into build/cubins-ROUND, all by this
# tree's compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (t1, t4)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
case $round in
t1 | t4)
  # The Python package's FP8 calls (python/tests/gpu_torch.py): every scale granularity, swap_ab, an FP8 C, mixed
  # e4m3 x e5m2, and one bf16 kernel (the unscaled path); the three FP8 bundles for bench/torch_fp8.py.
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_swab_16x128_coop.yaml rc_swab
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml bs
  build "$gemmc" specs/h200_fp8_e4m3_blockscale_64x128_pp_ss.yaml bs_64x128
  build "$gemmc" specs/h200_fp8_e4m3_out_e4m3_128x256_coop.yaml out_e4m3
  build "$gemmc" specs/h200_fp8_e4m3_e5m2_128x256_coop.yaml e4m3_e5m2
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml bf16
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn h200_fp8_e4m3_blockscale_tn; do
    "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null
  done
  # t4: a bf16 bundle too (Bundle.register_op on the unscaled path).
  [ "$round" = t4 ] && "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  ;;
*) echo "unknown round $round" >&2; exit 2 ;;
esac
ls "$out"
