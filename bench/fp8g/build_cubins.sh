#!/usr/bin/env bash
# Issue 14 (branch fp8g): the cubins scripts/gpu_fp8g.sh MODE runs, built on
# the CPU machine from the worktree root (scripts/build_cubins.sh --check:
# no spill, no C75xx, the target's instructions present):
#   bench/fp8g/build_cubins.sh r1|r2 [DIR]  (default build/cubins-fp8g-MODE)
# (r2: see below)
# r1: per-row/column on the 128x256 tile alone (the shipped spec) and in a
#     1x2 and a 2x1 cluster with multicast, and on 128x128 in a 1x2 cluster
#     (cuBLASLt's OUTER_VEC kernel, 128x128 2x1 in its C^T form); the
#     per-tensor 128x256 kernel; the shipped block-scaled kernel at its 4
#     stages and at 3 (the control for the scales in shared memory, which
#     leave room for 3), and with its scales staged in shared memory by the
#     producer (stage_scales: true); main's 128x128 fold128 kernel with
#     staged scales; cuBLASLt's block-scaled structure (128x128, one K tile
#     at a time, turns, staged scales) in a 1x2 cluster.
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=${1:-r1}
out=${2:-build/cubins-fp8g-$mode}
cubins_fresh "$out"
case $mode in
r1)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
    bench/fp8g/h200_fp8_e4m3_rowcol_128x256_c12_coop.yaml bench/fp8g/h200_fp8_e4m3_rowcol_128x256_c21_coop.yaml \
    bench/fp8g/h200_fp8_e4m3_rowcol_128x128_c12_coop.yaml bench/fp8f/h200_fp8_e4m3_rowcol_128x128_c2_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml \
    bench/fp8g/h200_fp8_e4m3_blockscale_128x256_fold128_g1_s3_coop.yaml \
    bench/fp8g/h200_fp8_e4m3_blockscale_128x256_fold128_g1_ss_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml \
    bench/fp8g/h200_fp8_e4m3_blockscale_128x128_fold128_ss_coop.yaml \
    bench/fp8g/h200_fp8_e4m3_blockscale_128x128_fold128_g1_ss_c12_coop.yaml
  ;;
r2)
  # The shipped block-scaled specs now carry stage_scales: true; old_NAME is
  # the 128x256 g1 kernel as main builds it (4 stages, the scales loaded by
  # the consumers), from main's spec with main's gemmc ($GEMMC_MAIN). The
  # stage_scales test/gpu specs (stream_k, pingpong, 3 B slots, 64-row
  # tiles); the 128x256 stage_scales kernel in a 2x1 and a 1x2 cluster; the
  # per-tensor and per-row/column 128x256 kernels at 3 stages (the epilogue
  # then takes 4 chunk buffers).
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x128_fold128_coop.yaml \
    bench/fp8g/h200_fp8_e4m3_blockscale_128x256_fold128_g1_ss_c21_coop.yaml \
    bench/fp8g/h200_fp8_e4m3_blockscale_128x256_fold128_g1_ss_c12_coop.yaml \
    bench/fp8g/h200_fp8_e4m3_128x256_s3_coop.yaml bench/fp8g/h200_fp8_e4m3_rowcol_128x256_s3_coop.yaml \
    test/gpu/specs/fp8_blockscale_128x128_sk_ss.yaml test/gpu/specs/fp8_blockscale_128x192_fold96_sk_ss.yaml \
    test/gpu/specs/fp8_blockscale_64x128_fold64_pp_ss.yaml
  old_build specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml "${GEMMC_MAIN_REV:-d8bdcee}"
  ;;
*) echo "build_cubins.sh: unknown mode $mode" >&2; exit 2 ;;
esac
