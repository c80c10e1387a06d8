#!/usr/bin/env bash
# bench/lead39/build_cubins.sh ROUND: round ROUND's kernels into build/cubins-ROUND, each kernel's ptxas report
# checked (scripts/session/cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (n8, n9, n10, n12, n13, n14)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
rm -rf "$out"; mkdir -p "$out/ptx"
case $round in
n8)
  # Two of the sweep's nine shapes h200_bf16_tn still runs under 0.8 of cuBLAS (docs/tuning.md, session 38) that no
  # round has read candidates for: 255x18432x7168 (round n3 built its tune picks, n3 and n4 ran out of time before
  # them) and 128x4096x7168 (not among n3's 14). Per shape gemmc tune's top 4 beside the shared candidates (the
  # bundle's kernels at M = 65-512 and session 38's four new specs) and the bundle itself.
  mkdir -p "$out/specs"
  "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  for s in h200_bf16_64x128_ws_sk2_abox32 h200_bf16_128x64_ws_abox32 h200_bf16_128x192_pp h200_bf16_64x64_pp \
    h200_bf16_128x64_ws h200_bf16_64x192_pp h200_bf16_128x192_pp_abox32_sk; do
    build "$gemmc" specs/$s.yaml "cand__$s"
  done
  { echo "# bench/lead39 round n8: two sweep shapes under 0.8 of cuBLAS, gemmc tune's top 4 for each beside the"
    echo "# shared candidates (bench/lead39/build_cubins.sh n8)."
    echo "shapes:"; } >"$out/shapes.yaml"
  tune_sweep_shapes . dsv3_dense_up_m255 dsv3_expert_up_m128
  ;;
n9)
  # Session 39's two h200_bf16_tn rules (from round n8) as a bundle beside the bundle before them (main at 7950bd0),
  # on bench/lead39/shapes_n9.yaml (n9.sh).
  "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  bundle_before "$gemmc" 7950bd0 h200_bf16_tn
  ;;
n10)
  # split_k on narrow, deep layers at M = 100-512 (bench/lead39/shapes_n10.yaml), which gemmc tune does not enumerate
  # (split_k > 1 only where every M <= 64): the 128x64 warp_specialized kernel under stream_k with split_k 2-4 and a
  # 64x64 one with split_k 2, beside the bundle's kernels there (cand__) and the bundle itself.
  "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  for s in h200_bf16_128x64_ws h200_bf16_64x64_pp h200_bf16_64x128_ws_sk2_abox32 h200_bf16_128x64_ws_abox32; do
    build "$gemmc" specs/$s.yaml "cand__$s"
  done
  for s in ws_128x64_sk2 ws_128x64_sk3 ws_128x64_sk4 ws_64x64_sk2; do build "$gemmc" bench/lead39/$s.yaml "$s"; done
  cp bench/lead39/shapes_n10.yaml "$out/shapes.yaml"
  ;;
n12)
  # Round n10's h200_bf16_tn rules beside the bundle before them (main at 9c91241) on bench/lead39/shapes_n12.yaml:
  # the shapes n10 read, the rules' layers at M and N it did not, and neighbours the rules must not take.
  "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  bundle_before "$gemmc" 9c91241 h200_bf16_tn
  ;;
n13)
  # h200_bf16_tn with every rule of session 39 beside the bundle as session 38 left it (main at 7950bd0) on
  # bench/lead39/shapes_n13.yaml: on an H200 the first reading of these rules there, on an H100 the last edges' check.
  "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  bundle_before "$gemmc" 7950bd0 h200_bf16_tn
  ;;
n14)
  # Two sweep shapes still under 0.85 of cuBLAS after round n13 that no round read with gemmc tune's split_k
  # enumeration (session 39): 128x4608x3584 (Qwen2.5-7B's qkv, 0.73) and 255x18944x3584 (its MLP up, 0.81; K under
  # the 64x192 rule's 6145), gemmc tune's top 4 each beside five shared candidates and the bundle.
  mkdir -p "$out/specs"
  "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  for s in h200_bf16_128x64_ws h200_bf16_128x64_ws_sk2 h200_bf16_64x192_pp h200_bf16_128x192_pp h200_bf16_decode_128x128_coop; do
    build "$gemmc" specs/$s.yaml "cand__$s"
  done
  { echo "# bench/lead39 round n14: two sweep shapes under 0.85 of cuBLAS, gemmc tune's top 4 for each beside the"
    echo "# shared candidates (bench/lead39/build_cubins.sh n14)."
    echo "shapes:"; } >"$out/shapes.yaml"
  tune_sweep_shapes . qwen25_7b_qkv_m128 qwen25_7b_up_m255
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
