#!/usr/bin/env bash
# bench/lead26/build_cubins.sh ROUND: session 26's round ROUND kernels into build/cubins-ROUND, by this tree's
# compiler (GEMMC, default build/bin/gemmc), each ptxas-checked for sm_80 and for sm_90 (the H200's JIT of the
# compute_80 PTX): no spill, no C75xx.
set -euo pipefail
round=${1:?round (f1)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.fatbin' '*.yaml'
mkdir -p "$out/ptx"
# fatbin GEMMC SPEC NAME: an sm_80 spec into $out/NAME.fatbin (sm_80 SASS + compute_80 PTX), both ptxas reports
# checked.
fatbin() {
  "$1" "$2" -o "$out/$3.fatbin" --ptxas-verbose 2>"$out/ptx/$3.ptxas.txt" || exit 1
  check "$out/ptx/$3.ptxas.txt" "$3"
  "$1" "$2" --emit=ptx -o "$out/ptx/$3.ptx" || exit 1
  /usr/local/cuda/bin/ptxas -arch=sm_90 -v "$out/ptx/$3.ptx" -o /dev/null 2>"$out/ptx/$3.sm90.txt"
  check "$out/ptx/$3.sm90.txt" "$3 (sm_90)"
}
case $round in
f1)
  # sm_80's fused epilogue: the five GPU-suite specs, the tuned bf16 kernel with and without bias + tanh GELU.
  for s in test/gpu/specs/sm80_*_{gelu,relu,silu}*.yaml; do fatbin "$gemmc" "$s" "$(name "$s")"; done
  fatbin "$gemmc" specs/a100_bf16_128x256x64.yaml plain
  fatbin "$gemmc" bench/lead26/bg.yaml bg
  ;;
f2)
  # f1's kernels after the per-column bias became one address and constant offsets a unit (EpilogueMath::colBiasRun),
  # and sm_90a's fused / plain pair of docs/status.md's issue-15 row, for gemmc-bench --epilogue now interleaved.
  for s in test/gpu/specs/sm80_*_{gelu,relu,silu}*.yaml; do fatbin "$gemmc" "$s" "$(name "$s")"; done
  fatbin "$gemmc" specs/a100_bf16_128x256x64.yaml plain
  fatbin "$gemmc" bench/lead26/bg.yaml bg
  build "$gemmc" specs/h200_bf16_128x256_coop_bias_gelu.yaml h200_bg
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml h200_plain
  ;;
f3)
  # The activations in fmas (EpilogueMath::activate: x/2 + x/2 f, the tanh GELU's inner polynomial in one fma): the
  # fused GPU-suite specs of both targets, and f2's fused kernels (built from build/cubins-f2, which this round
  # copies: f2_*) beside this tree's, for gemmc-bench --epilogue in one call.
  for s in test/gpu/specs/sm80_*_{gelu,relu,silu}*.yaml; do fatbin "$gemmc" "$s" "$(name "$s")"; done
  for s in test/gpu/specs/ep_*.yaml; do build "$gemmc" "$s" "$(name "$s")"; done
  fatbin "$gemmc" specs/a100_bf16_128x256x64.yaml plain
  fatbin "$gemmc" bench/lead26/bg.yaml bg
  build "$gemmc" specs/h200_bf16_128x256_coop_bias_gelu.yaml h200_bg
  build "$gemmc" specs/h200_bf16_128x256_coop.yaml h200_plain
  for f in bg.fatbin bg.fatbin.json h200_bg.cubin h200_bg.cubin.json; do cp build/cubins-f2/$f "$out/f2_$f"; done
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
