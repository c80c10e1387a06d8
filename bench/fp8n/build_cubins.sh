#!/usr/bin/env bash
# Issue 14 (branch fp8n): the cubins scripts/gpu_fp8n.sh MODE runs, built on
# the CPU machine from the worktree root (scripts/build_cubins.sh --check:
# no spill, no C75xx, the target's instructions present):
#   bench/fp8n/build_cubins.sh r1|r2 [DIR]  (default build/cubins-fp8n-MODE)
# r1: the per-tensor 128x256 kernel (the reference of >= 0.9x) and the
#     shipped block-scaled 128x256 g1 kernel (both main's PTX); spec
#     variants: the block-scaled kernel with raster groups of 16 (_g16) and
#     under stream_k (_sk), and the per-tensor kernel's same two (the
#     controls: the ratio is to the shipped per-tensor kernel, but a change
#     that helps it as much is reported both ways); the lowering change:
#     a_registers with the next K tile's A fragment read under the last
#     half's fold (_arf; that lowering, at f7c74ba, was reverted after the
#     round), and the same mainloop on stream_k pieces (a test/gpu case
#     then, suite only; removed with the lowering).
# r2: see the case below (main's build of the shipped spec as old_ with
#     $GEMMC_MAIN, default /work/main/build/bin/gemmc, at $GEMMC_MAIN_REV).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=${1:-r1}
out=${2:-build/cubins-fp8n-$mode}
cubins_fresh "$out" '*.txt'
case $mode in
r1)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold128_g1_g16_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold128_g1_sk_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_128x256_g16_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_128x256_sk_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold128_g1_arf_coop.yaml
  ;;
r2)
  # The shipped spec as this branch built it at 9d80e2c (each K tile's stage
  # released right after its last half's wait; reverted after the round, so
  # this now builds main's code), main's build of it (old_), the same
  # with groups of 16, the per-tensor kernel and its groups of 16 (second
  # sample of round 1's per-shape question), the 128x256 kernel in parts of
  # 64 columns with two in flight a warpgroup (spec only: does a queue of
  # parts shorten the tensor pipe's idle?), and test/gpu's stream_k case of
  # the changed mainloop (suite only).
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold128_g1_g16_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_128x256_g16_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold64_g0_coop.yaml \
    test/gpu/specs/fp8_blockscale_128x256_fold128_g1_sk_ss.yaml
  old_build specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml "${GEMMC_MAIN_REV:-d1ac101}"
  ;;
*) echo "build_cubins.sh: unknown mode $mode" >&2; exit 2 ;;
esac
