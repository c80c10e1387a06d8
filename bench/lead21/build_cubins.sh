#!/usr/bin/env bash
# bench/lead21/build_cubins.sh q1: session 21's round q1 kernels into build/cubins-q1.
#
# The cooperative epilogue under the next tile's first MMAs (bench/lead21/overlap.patch, applied to this tree's
# compiler: GEMMC, default build/bin/gemmc) against main's (GEMMC_MAIN, old-). Variants by environment (the patch's
# experiment switches): GEMMC_OVERLAP_EPILOGUE=D (the next tile's first D K tiles), GEMMC_OV_COLS=W (their first W
# columns), GEMMC_OV_COPY=add (the stored piece's accumulators copied with add.f32 -0.0), GEMMC_OV_SEPRIGHT=1 (the
# rest of the columns of those K tiles into their own registers, waited for and joined). Only the kernels that ptxas
# builds without a spill or a C75xx warning (cubins_common.sh) are here: the persistent 128x256 cooperative ones.
set -euo pipefail
round=${1:?round (q1)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
out=build/cubins-$round
cubins_fresh "$out" '*.yaml'
mkdir -p "$out/ptx"
export GEMMC_OV_COPY=add GEMMC_OV_SEPRIGHT=1
for pair in pt:specs/h200_fp8_e4m3_128x256_coop.yaml bf:specs/h200_bf16_128x256_coop.yaml \
  rc:specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml; do
  build "$main" "${pair#*:}" "old-${pair%%:*}"
done
for v in d4w48:4:48 d4w32:4:32 d2w32:2:32; do
  IFS=: read -r tag d w <<<"$v"
  for pair in pt:specs/h200_fp8_e4m3_128x256_coop.yaml bf:specs/h200_bf16_128x256_coop.yaml; do
    GEMMC_OVERLAP_EPILOGUE=$d GEMMC_OV_COLS=$w build "$gemmc" "${pair#*:}" "$tag-${pair%%:*}"
  done
done
GEMMC_OVERLAP_EPILOGUE=4 GEMMC_OV_COLS=32 build "$gemmc" specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml d4w32-rc
cp bench/lead21/q1.yaml "$out/"
