#!/usr/bin/env bash
# bench/lead20/build_cubins.sh ROUND: session 20's lead round ROUND's kernels into build/cubins-ROUND.
#
# p1: the per-row/column kernels whose PTX the scale prefetch changes (GemmcEpilogue.cpp, scalePrefetchPoint: an
#     L1 prefetch of the tile's scale lines before the accumulator's last wait), by this compiler (new-) and main's
#     (GEMMC_MAIN, old-), and the per-tensor twin of rc_sk (pt_sk). Every cubin is checked by cubins_common.sh
#     (ptxas: no spill, no C75xx).
set -euo pipefail
round=${1:?round (p1, p2, p3, p4)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round

case $round in
p1)
  cubins_fresh "$out" '*.yaml'
  mkdir -p "$out/ptx"
  for pair in rc_sk:bench/lead13/rc_sk.yaml rc_sk_g16:bench/lead13/rc_sk_g16.yaml \
    rc_coop:specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml rc_ws64:specs/h200_fp8_e4m3_rowcol_128x64_ws.yaml \
    rc_64sk2:specs/h200_fp8_e4m3_rowcol_64x64_sk2.yaml; do
    build "$main" "${pair#*:}" "old-${pair%%:*}"
    build "$gemmc" "${pair#*:}" "new-${pair%%:*}"
  done
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk
  cp bench/lead20/p1.yaml bench/lead20/p1small.yaml "$out/"
  ;;
p2)
  # The column scales spread over the warp (one pair a lane a chunk, shfl.sync.idx a round) at the epilogue's start
  # (a-: GEMMC_A, main after cba1ce2's successor), and before the accumulator's last wait (b-: GEMMC_B, a compiler
  # with bench/lead20/early.patch; c-: the same with GEMMC_EARLY_ROWS=1, the row scales spread and early too),
  # against main's (old-: GEMMC_MAIN).
  cubins_fresh "$out" '*.yaml'
  mkdir -p "$out/ptx"
  for pair in rc_sk:bench/lead13/rc_sk.yaml rc_coop:specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml; do
    build "$main" "${pair#*:}" "old-${pair%%:*}"
    build "${GEMMC_A:?}" "${pair#*:}" "a-${pair%%:*}"
    build "${GEMMC_B:?}" "${pair#*:}" "b-${pair%%:*}"
    GEMMC_EARLY_ROWS=1 build "$GEMMC_B" "${pair#*:}" "c-${pair%%:*}"
  done
  for pair in rc_ws64:specs/h200_fp8_e4m3_rowcol_128x64_ws.yaml rc_64sk2:specs/h200_fp8_e4m3_rowcol_64x64_sk2.yaml; do
    build "$main" "${pair#*:}" "old-${pair%%:*}"
    build "$GEMMC_A" "${pair#*:}" "a-${pair%%:*}"
  done
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk
  cp bench/lead20/p1.yaml bench/lead20/p1small.yaml "$out/"
  ;;
p3)
  # Main with the spread column scales (new-: this compiler) against main before them (old-: GEMMC_MAIN), the
  # 128x256 per-row/column kernels, and the per-tensor twin, for more processes and the sustained reading.
  cubins_fresh "$out" '*.yaml'
  mkdir -p "$out/ptx"
  for pair in rc_sk:bench/lead13/rc_sk.yaml rc_coop:specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
    rc_sk_g16:bench/lead13/rc_sk_g16.yaml; do
    build "$main" "${pair#*:}" "old-${pair%%:*}"
    build "$gemmc" "${pair#*:}" "new-${pair%%:*}"
  done
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk
  # The 128x128 pingpong per-row/column kernel (the bundle's cube4096 kernel) with the spread too (sp-: GEMMC_SPP, a
  # compiler with bench/lead20/spread_pp.patch, run with GEMMC_SPREAD_PP=1), against main's (old-).
  if [ -n "${GEMMC_SPP:-}" ]; then
    build "$main" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml old-rc_pp
    GEMMC_SPREAD_PP=1 build "$GEMMC_SPP" specs/h200_fp8_e4m3_rowcol_128x128_pp.yaml sp-rc_pp
  fi
  cp bench/lead20/p1.yaml "$out/"
  ;;
p4)
  # The per-row/column bundle (bench/bundles/h200_fp8_e4m3_rowcol_tn.yaml) as main builds it now, and as main built
  # it before the spread (GEMMC_MAIN), each into its own folder, for the goal shapes against OUTER_VEC.
  rm -rf "$out"; mkdir -p "$out"
  "$gemmc" bundle bench/bundles/h200_fp8_e4m3_rowcol_tn.yaml -o "$out/new" >/dev/null
  "$main" bundle bench/bundles/h200_fp8_e4m3_rowcol_tn.yaml -o "$out/old" >/dev/null
  cp bench/lead20/p4.yaml "$out/"
  ;;
*) echo "unknown round $round"; exit 2 ;;
esac
