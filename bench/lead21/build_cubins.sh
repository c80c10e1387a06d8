#!/usr/bin/env bash
# bench/lead21/build_cubins.sh ROUND: session 21's round ROUND (q1, q2, q4, q5) kernels into build/cubins-ROUND.
#
# The cooperative epilogue under the next tile's first MMAs (bench/lead21/overlap.patch, applied to this tree's
# compiler: GEMMC, default build/bin/gemmc) against main's (GEMMC_MAIN, old-). Variants by environment (the patch's
# experiment switches): GEMMC_OVERLAP_EPILOGUE=D (the next tile's first D K tiles), GEMMC_OV_COLS=W (their first W
# columns), GEMMC_OV_COPY=add (the stored piece's accumulators copied with add.f32 -0.0), GEMMC_OV_SEPRIGHT=1 (the
# rest of the columns of those K tiles into their own registers, waited for and joined). Only the kernels that ptxas
# builds without a spill or a C75xx warning (cubins_common.sh) are in q1 and q2: the persistent 128x256 cooperative
# ones. q4 and q5 use this tree's compiler alone (below).
set -euo pipefail
round=${1:?round (q1, q2, q4, q5)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
if [ "$round" = q5 ]; then
  # q5: the per-row/column bundle with its 8192-class rule on rc_sk_2x1 (new, this tree) and on rc_sk (old: the
  # bundle file at commit BEFORE, default 5fa8abead4a5 (main before the rule changed), copied beside this script so its relative paths hold).
  rm -rf "$out"; mkdir -p "$out"
  "$gemmc" bundle bench/bundles/h200_fp8_e4m3_rowcol_tn.yaml -o "$out/new" >/dev/null
  before=bench/lead21/.rowcol_tn_before.yaml
  git show "${BEFORE:-5fa8abead4a5}:bench/bundles/h200_fp8_e4m3_rowcol_tn.yaml" >"$before"
  "$gemmc" bundle "$before" -o "$out/old" >/dev/null
  rm -f "$before"
  mkdir -p "$out/sk"; cp build/cubins-q4/rc_sk*.cubin* "$out/sk/"
  cp bench/lead20/p4.yaml "$out/"
  exit 0
fi
if [ "$round" = q4 ]; then
  # q4: main's compiler only; rc_sk (the per-row/column bundle's 8192-cube kernel) in the 2x1 multicast cluster.
  build "$gemmc" bench/lead13/rc_sk.yaml rc_sk
  build "$gemmc" bench/lead21/rc_sk_2x1.yaml rc_sk_2x1
  build "$gemmc" specs/h200_fp8_e4m3_128x256_sk_coop.yaml pt_sk
  cp bench/lead21/q4.yaml "$out/"
  exit 0
fi
export GEMMC_OV_COPY=add GEMMC_OV_SEPRIGHT=1
for pair in pt:specs/h200_fp8_e4m3_128x256_coop.yaml bf:specs/h200_bf16_128x256_coop.yaml \
  rc:specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml; do
  build "$main" "${pair#*:}" "old-${pair%%:*}"
done
case $round in
q1) variants="d4w48:4:48 d4w32:4:32 d2w32:2:32" rcVariant=d4w32:4:32 ;;
# q2: q1's D = 4 held the whole 4-stage ring through the store (the producer could not load ahead); D = 1-3.
q2) variants="d1w48:1:48 d2w32:2:32 d2w48:2:48 d3w48:3:48" rcVariant=d2w32:2:32 ;;
*) echo "unknown round $round"; exit 1 ;;
esac
for v in $variants; do
  IFS=: read -r tag d w <<<"$v"
  for pair in pt:specs/h200_fp8_e4m3_128x256_coop.yaml bf:specs/h200_bf16_128x256_coop.yaml; do
    [ "$round" = q2 ] && [ "${pair%%:*}" = bf ] && [ "$tag" != d2w32 ] && [ "$tag" != d2w48 ] && continue
    GEMMC_OVERLAP_EPILOGUE=$d GEMMC_OV_COLS=$w build "$gemmc" "${pair#*:}" "$tag-${pair%%:*}"
  done
done
IFS=: read -r tag d w <<<"$rcVariant"
GEMMC_OVERLAP_EPILOGUE=$d GEMMC_OV_COLS=$w build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml "$tag-rc"
cp bench/lead21/q1.yaml "$out/"
