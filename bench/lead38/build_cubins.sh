#!/usr/bin/env bash
# bench/lead38/build_cubins.sh ROUND: round ROUND's bundles into build/cubins-ROUND, each kernel's ptxas report
# checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (n5)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
rm -rf "$out"; mkdir -p "$out/ptx"
case $round in
n5)
  # Session 38's h200_bf16_tn rules (from rounds n3-n4) as a bundle beside the bundle before them (main at 753f032),
  # on the sweep's shapes with M = 65-1024 (n5.sh), and the four new kernels through ptxas.
  "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  git show 753f032:bench/bundles/h200_bf16_tn.yaml | sed 's/^bundle: h200_bf16_tn$/bundle: h200_bf16_tn_before/' \
    > bench/bundles/.h200_bf16_tn_before.yaml
  "$gemmc" bundle bench/bundles/.h200_bf16_tn_before.yaml -o "$out/h200_bf16_tn_before" >/dev/null
  rm bench/bundles/.h200_bf16_tn_before.yaml
  for s in 64x64_pp 128x64_ws 64x192_pp 128x192_pp_abox32_sk; do
    "$gemmc" specs/h200_bf16_$s.yaml -o /dev/null --ptxas-verbose 2>"$out/ptx/$s.ptxas.txt" || exit 1
    check "$out/ptx/$s.ptxas.txt" "$s"
  done
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
