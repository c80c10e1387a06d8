#!/usr/bin/env bash
# bench/lead37/build_cubins.sh ROUND: round ROUND's bundles into build/cubins-ROUND, each kernel's ptxas report
# checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (n1, n2)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
rm -rf "$out"; mkdir -p "$out/ptx"
case $round in
n1)
  # bench/lead36 round m2 (the hand-picked bf16 bundle with session 36's rules beside gemmc tune's
  # h200_bf16_tn_auto on the 77-shape sweep) with h200_bf16_tn_autosplit, the auto bundle's ranges split by M
  # where the model's best changes (split_m, session 37).
  for b in h200_bf16_tn h200_bf16_tn_auto h200_bf16_tn_autosplit; do
    "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null
    for y in "$out/$b"/*.yaml; do
      "$gemmc" "$y" -o /dev/null --ptxas-verbose 2>"$out/ptx/$(name "$y").ptxas.txt" || exit 1
      check "$out/ptx/$(name "$y").ptxas.txt" "$(name "$y")"
    done
  done
  cp bench/suites/sweep.yaml "$out/shapes.yaml"
  ;;
n2)
  # Session 37's new h200_bf16_tn rules (from round n1) as a bundle, beside the bundle before them (main at ccddb90)
  # and h200_bf16_tn_auto, on the sweep's 34 shapes with M <= 128: a second process for each rule's margin.
  for b in h200_bf16_tn h200_bf16_tn_auto; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  git show ccddb90:bench/bundles/h200_bf16_tn.yaml | sed 's/^bundle: h200_bf16_tn$/bundle: h200_bf16_tn_before/' \
    > bench/bundles/.h200_bf16_tn_before.yaml
  "$gemmc" bundle bench/bundles/.h200_bf16_tn_before.yaml -o "$out/h200_bf16_tn_before" >/dev/null
  rm bench/bundles/.h200_bf16_tn_before.yaml
  for y in "$out"/h200_bf16_tn/gemm_bf16_64x128_ws_sk2_abox32.yaml "$out"/h200_bf16_tn/gemm_bf16_swab_16x64_pp.yaml \
    "$out"/h200_bf16_tn/gemm_bf16_128x64_ws_abox32.yaml; do
    "$gemmc" "$y" -o /dev/null --ptxas-verbose 2>"$out/ptx/$(name "$y").ptxas.txt" || exit 1
    check "$out/ptx/$(name "$y").ptxas.txt" "$(name "$y")"
  done
  cp bench/lead37/shapes_n2.yaml "$out/shapes.yaml"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
