#!/usr/bin/env bash
# bench/lead27/build_cubins.sh ROUND: session 27's round ROUND kernels into build/cubins-ROUND, by this tree's
# compiler (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (g1, g2, g3)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml' 'suite.txt'
rm -rf "$out"/h200_fp8_e4m3_*tn
mkdir -p "$out/ptx"
case $round in
g1)
  # The FP8 pingpong kernels on 128x192 tiles (per-tensor, per-row/column; per-tensor under stream_k) beside the
  # bundles' 8192-class kernels and the 128x128 pingpong kernels they would replace there.
  for k in pt_pp192 pt_pp192_sk rc_pp192; do build "$gemmc" bench/lead27/$k.yaml $k; done
  build "$gemmc" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp
  build "$gemmc" bench/lead21/rc_sk_2x1.yaml rc_sk_2x1
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml bf16
  # The same four kernels by the session's starting compiler (GEMMC_BASE, 70900c3 built in a worktree): old and new
  # side by side, the change being the register-store edge path (tiles over N's edge only).
  base=${GEMMC_BASE:-/tmp/base/build/bin/gemmc}
  build "$base" specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp_base
  build "$base" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk_base
  build "$base" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp_base
  build "$base" specs/h200_bf16_128x256_coop.yaml bf16_base
  # The suite also runs the specs whose register-store edge path changed (ColumnsLeft), listed in
  # bench/lead27/g1_suite.txt (spec paths), as sfx_NAME.
  while read -r s; do
    case $s in ''|'#'*) continue ;; esac
    build "$gemmc" "$s" "sfx_$(name "$s")"
  done <bench/lead27/g1_suite.txt
  cp bench/lead27/g1.yaml "$out/"
  ;;
g2)
  # After the edge path's column pairs moved outside its rows (every spec's edge path again: the suite runs them all,
  # sfx_*): the per-tensor and per-row/column bundles with the 128x192 pingpong kernels as their 8192-class picks,
  # the bf16 pingpong 128x192 (the model's new first pick on cube8192) and 128x160 (its third on decode_mlp_up) beside
  # the measured best 128x256 cooperative kernel, and rc_pp192 under stream_k (clean now) beside rc_pp192.
  for b in h200_fp8_e4m3_tn h200_fp8_e4m3_rowcol_tn; do
    "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null
  done
  for k in bf16_pp192 bf16_pp160 rc_pp192 rc_pp192_sk; do build "$gemmc" bench/lead27/$k.yaml $k; done
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml bf16
  while read -r s; do
    case $s in ''|'#'*) continue ;; esac
    build "$gemmc" "$s" "sfx_$(name "$s")"
  done <bench/lead27/g1_suite.txt
  for s in specs/h200_fp8_e4m3_128x192_pp.yaml specs/h200_fp8_e4m3_rowcol_128x192_pp.yaml; do
    build "$gemmc" "$s" "sfx_$(name "$s")"
  done
  cp bench/lead27/g2.yaml bench/lead22/r2.yaml "$out/"
  ;;
g3)
  # The shipped per-row/column 128x192 pingpong kernel in four tile orders / a cluster, beside itself and the
  # per-tensor twin, on cube8192 (issue 14's per-row/column cell there).
  build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x192_pp.yaml rc_pp192
  build "$gemmc" specs/h200_fp8_e4m3_128x192_pp.yaml pt_pp192
  for k in g4 g16 n8 c21; do build "$gemmc" bench/lead27/rc_pp192_$k.yaml rc_pp192_$k; done
  cp bench/lead27/g1.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
