#!/usr/bin/env bash
# bench/lead19/build_cubins.sh ROUND: session 19's lead round ROUND's kernels into build/cubins-ROUND.
#
# o1: the 128x128 pingpong kernels under stream_k since session 18's aligned split (bench/lead19/README.md), beside
#     the shipped pingpong and 128x256 stream_k kernels; block-scaled 128x256 and per-tensor 128x256, persistent and
#     stream_k, for ncu. One compiler (GEMMC, default build/bin/gemmc: main).
# o2: rc_sk with groups of 16 and rc_pp_sk with groups of 4, beside rc_sk, rc_pp_sk, rc_pp and pt_sk; bs and bs_sk
#     for ncu's stall reasons.
# o3: every sm_90a stream_k / split_k kernel, for compute-sanitizer.\n# o4: the stage_scales kernels, persistent and stream_k, for synccheck.\n# o5: the stage_scales arrival in its .noinc form (ni-) beside main's (old-).\n# Every cubin is checked by cubins_common.sh (ptxas: no spill, no C75xx).
set -euo pipefail
round=${1:?round (o1, o2, o3, o4, o5)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round

case $round in
o1)
  cubins_fresh "$out" '*.yaml'
  mkdir -p "$out/ptx"
  for pair in rc_pp:specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp_sk:bench/ppsk/rc_pp_sk.yaml \
    rc_pp_sk_g16:bench/lead19/rc_pp_sk_g16.yaml rc_sk:bench/lead13/rc_sk.yaml \
    pt_pp:specs/h200_fp8_e4m3_128x128_pp.yaml pt_pp_sk:bench/ppsk/pt_pp_sk.yaml \
    pt_sk:specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_coop:specs/h200_fp8_e4m3_128x256_coop.yaml \
    bs:bench/lead15/bs.yaml bs_sk:bench/lead18/bs_sk.yaml; do
    build "$gemmc" "${pair#*:}" "${pair%%:*}"
  done
  cp bench/lead19/o1.yaml "$out/o1.yaml"
  ;;
o2)
  # The per-row/column 128x256 stream_k kernel with groups of 16 (the per-tensor twin's order, which read 24% fewer
  # DRAM bytes than rc_sk's groups of 8 in o1's ncu) and the pingpong kernels (stream_k and persistent) with groups of 4.
  cubins_fresh "$out" '*.yaml'
  mkdir -p "$out/ptx"
  for pair in rc_sk:bench/lead13/rc_sk.yaml rc_sk_g16:bench/lead13/rc_sk_g16.yaml rc_pp_sk:bench/ppsk/rc_pp_sk.yaml \
    rc_pp_sk_g4:bench/lead19/rc_pp_sk_g4.yaml pt_sk:specs/h200_fp8_e4m3_128x256_sk_coop.yaml \
    rc_pp:specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml rc_pp_g4:bench/lead19/rc_pp_g4.yaml bs:bench/lead15/bs.yaml \
    bs_sk:bench/lead18/bs_sk.yaml; do
    build "$gemmc" "${pair#*:}" "${pair%%:*}"
  done
  cp bench/lead19/o1.yaml "$out/o1.yaml"
  ;;
o3)
  # Every sm_90a stream_k / split_k kernel of specs/, test/gpu/specs and the bench specs measured since session 18
  # (the aligned split), for compute-sanitizer: session 18 ran the suite on them, not the sanitizer.
  cubins_fresh "$out" '*.yaml'
  mkdir -p "$out/ptx"
  for spec in specs/*sk*.yaml test/gpu/specs/*sk*.yaml bench/ppsk/*.yaml bench/lead13/rc_sk.yaml \
    bench/lead13/tf32_sk.yaml bench/lead18/bs_sk.yaml bench/lead16/bs192_nt_sk.yaml; do
    grep -q "^arch: sm_90a" "$spec" || continue
    build "$gemmc" "$spec" "$(name "$spec")"
  done
  ;;
o4)
  # synccheck reported "Barrier overflow" on every stream_k kernel with stage_scales in o3 (the producer warp's
  # cp.async.mbarrier.arrive): the persistent and pingpong stage_scales kernels beside two of them, to tell a
  # stream-K fault from one of stage_scales itself (or of the tool's model of that arrival).
  cubins_fresh "$out" '*.yaml'
  mkdir -p "$out/ptx"
  for spec in specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml \
    specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml specs/h200_fp8_e4m3_blockscale_64x128_pp_ss.yaml \
    test/gpu/specs/fp8_blockscale_128x128_sk_ss.yaml bench/lead18/bs_sk.yaml; do
    build "$gemmc" "$spec" "$(name "$spec")"
  done
  # ni-: four of them by GEMMC_NI, a compiler built with bench/lead19/noinc.patch applied (the .noinc arrival).
  if [ -n "${GEMMC_NI:-}" ]; then
    for spec in specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml test/gpu/specs/fp8_blockscale_128x128_sk_ss.yaml \
      bench/lead18/bs_sk.yaml specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml; do
      build "$GEMMC_NI" "$spec" "ni-$(name "$spec")"
    done
  fi
  ;;
o5)
  # The stage_scales arrival as cp.async.mbarrier.arrive.noinc with the full barrier counting the producer warp's
  # 32 lanes (ni-: GEMMC, a compiler built with bench/lead19/noinc.patch applied; o4: synccheck clean), beside
  # main's form (GEMMC_MAIN, old-), on every stage_scales spec: the suite, and the shipped kernels' time.
  cubins_fresh "$out" '*.yaml'
  mkdir -p "$out/ptx"
  for spec in $(grep -l "stage_scales: true" specs/*.yaml test/gpu/specs/*.yaml); do
    build "$gemmc" "$spec" "ni-$(name "$spec")"
  done
  for spec in specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml \
    specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml specs/h200_fp8_e4m3_blockscale_64x128_pp_ss.yaml; do
    build "$main" "$spec" "old-$(name "$spec")"
  done
  cp bench/lead19/o1.yaml "$out/o1.yaml"
  ;;
*) echo "unknown round $round"; exit 2 ;;
esac
