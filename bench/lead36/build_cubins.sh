#!/usr/bin/env bash
# bench/lead36/build_cubins.sh ROUND: round ROUND's bundles into build/cubins-ROUND; m1: (session 36's rules in h200_bf16_tn and
# h200_fp8_e4m3_tn; their rows before the rules are rounds l1 and l3 of bench/lead35).
set -euo pipefail
round=${1:?round (m1, m2)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
rm -rf "$out"; mkdir -p "$out"
case $round in
m1)
  for b in h200_bf16_tn h200_fp8_e4m3_tn; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  cp bench/lead36/shapes.yaml "$out/"
  ;;
m2)
  # The hand-picked bf16 bundle with session 36's rules and gemmc tune's (h200_bf16_tn_auto) on issue 16's sweep.
  for b in h200_bf16_tn h200_bf16_tn_auto; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  cp bench/suites/sweep.yaml "$out/shapes.yaml"
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
