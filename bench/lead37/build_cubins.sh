#!/usr/bin/env bash
# bench/lead37/build_cubins.sh ROUND: round ROUND's bundles into build/cubins-ROUND, each kernel's ptxas report
# checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (n1)}
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
*) echo "unknown round $round"; exit 1 ;;
esac
