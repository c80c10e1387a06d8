#!/usr/bin/env bash
# Issue 14 (branch fp8j): the cubins scripts/gpu_fp8j.sh MODE runs, built on
# the CPU machine from the worktree root (scripts/build_cubins.sh --check:
# no spill, no C75xx, the target's instructions present):
#   bench/fp8j/build_cubins.sh r1|r2 [DIR]  (default build/cubins-fp8j-MODE)
# r1: the per-tensor 128x256 kernel (the reference of >= 0.9x); old_, main's
#     build of the shipped block-scaled 128x256 g1 kernel (3 stages, a
#     whole-row epilogue ring of 4 chunk buffers; main's spec with main's
#     gemmc, $GEMMC_MAIN); the same kernel with epilogue.buffers: 1, which
#     lets the stage planner take 4 stages (_b1, the new kernel); two
#     controls: that ring at the shipped 3 stages (_s3b1: the ring's price
#     alone) and the per-tensor kernel with a ring of one (_b1, 4 stages);
#     the 4-stage kernel in a 2x1 cluster with B multicast (_b1_c21: at 3
#     stages the cluster cost 5-7%, session 8).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=${1:-r1}
out=${2:-build/cubins-fp8j-$mode}
main_rev=${GEMMC_MAIN_REV:-2d0638e}
cubins_fresh "$out"
shipped=specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml
# old_NAME: main's build of a shipped spec (old_build).
case $mode in
r1)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml \
    bench/fp8j/h200_fp8_e4m3_blockscale_128x256_fold128_g1_b1_coop.yaml \
    bench/fp8j/h200_fp8_e4m3_blockscale_128x256_fold128_g1_s3b1_coop.yaml \
    bench/fp8j/h200_fp8_e4m3_128x256_b1_coop.yaml \
    bench/fp8j/h200_fp8_e4m3_blockscale_128x256_fold128_g1_b1_c21_coop.yaml
  old_build "$shipped" "$main_rev"
  ;;
r2)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml \
    bench/fp8j/h200_fp8_e4m3_blockscale_128x256_fold128_g1_b1_coop.yaml \
    bench/fp8j/h200_fp8_e4m3_blockscale_128x256_fold128_g1_s3b1_coop.yaml \
    bench/fp8j/h200_fp8_e4m3_blockscale_128x256_fold128_g1_s2_coop.yaml
  old_build "$shipped" "$main_rev"
  ;;
*) echo "build_cubins.sh: unknown mode $mode" >&2; exit 2 ;;
esac
