#!/usr/bin/env bash
# bench/lead37/build_cubins.sh ROUND: round ROUND's bundles into build/cubins-ROUND, each kernel's ptxas report
# checked (cubins_common.sh: no spill, no C75xx).
set -euo pipefail
round=${1:?round (n1, n2, n3)}
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
    check_specs "$out/$b"/*.yaml
  done
  cp bench/suites/sweep.yaml "$out/shapes.yaml"
  ;;
n2)
  # Session 37's new h200_bf16_tn rules (from round n1) as a bundle, beside the bundle before them (main at ccddb90)
  # and h200_bf16_tn_auto, on the sweep's 34 shapes with M <= 128: a second process for each rule's margin.
  for b in h200_bf16_tn h200_bf16_tn_auto; do "$gemmc" bundle bench/bundles/$b.yaml -o "$out/$b" >/dev/null; done
  bundle_before "$gemmc" ccddb90 h200_bf16_tn
  check_specs "$out"/h200_bf16_tn/gemm_bf16_{64x128_ws_sk2_abox32,swab_16x64_pp,128x64_ws_abox32}.yaml
  cp bench/lead37/shapes_n2.yaml "$out/shapes.yaml"
  ;;
n3)
  # The 14 sweep shapes h200_bf16_tn still runs under 0.8 of cuBLAS after session 37's rules (docs/tuning.md, "The
  # sweep with three bf16 bundles"): per shape gemmc tune's top 4 (tune__SHAPE_R) beside the bundle's kernels of
  # session 37 and the bundle itself, each shape limited to its own candidates and the shared ones (cand__*).
  mkdir -p "$out/specs"
  "$gemmc" bundle bench/bundles/h200_bf16_tn.yaml -o "$out/h200_bf16_tn" >/dev/null
  for s in h200_bf16_64x128_ws_sk2_abox32 h200_bf16_swab_16x64_pp h200_bf16_128x64_ws_abox32 h200_bf16_64x64_pp_abox32 \
    h200_bf16_decode_128x128_coop h200_bf16_128x192_pp; do
    build "$gemmc" specs/$s.yaml "cand__$s"
  done
  { echo "# bench/lead37 round n3: the sweep's shapes under 0.8 of cuBLAS after session 37's rules, each with gemmc"
    echo "# tune's top 4 for it and the shared candidates (bench/lead37/build_cubins.sh n3)."
    echo "shapes:"; } >"$out/shapes.yaml"
  tune_sweep_shapes . llama3_8b_o_m3 llama3_70b_qkv_m256 llama3_70b_qkv_m512 mistral_7b_qkv_m777 qwen25_7b_qkv_m3 \
    qwen25_7b_qkv_m128 qwen25_7b_qkv_m1024 qwen25_7b_down_m777 dsv3_q_a_m100 dsv3_q_a_m255 dsv3_q_a_m512 \
    dsv3_o_m777 dsv3_expert_down_m3 dsv3_dense_up_m255
  ;;
*) echo "unknown round $round"; exit 1 ;;
esac
