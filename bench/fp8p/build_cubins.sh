#!/usr/bin/env bash
# Issue 14 (branch fp8p): the cubins scripts/gpu_fp8p.sh MODE runs, built on
# the CPU machine from the worktree root (scripts/build_cubins.sh --check:
# no spill, no C75xx, the target's instructions present):
#   bench/fp8p/build_cubins.sh r1|r2 [DIR]  (default build/cubins-fp8p-MODE)
# r1: the per-tensor 128x256 and 128x128 pingpong kernels (the references of
#     >= 0.9x), the shipped block-scaled 128x256 g1 spec as this branch
#     built it at c0da348 (the previous K tile's stage released after this
#     K tile's first half is issued and handed over; reverted after the
#     round, so this now builds main's code), main's build of it (old_, with
#     $GEMMC_MAIN, default /work/main/build/bin/gemmc), and test/gpu's
#     stream_k case of the changed mainloop (suite only).
# r2: the parts-in-flight kernels with turns a K tile (128x192 in parts of
#     96, 128x256 in parts of 64; the lowering at ccb3a18, reverted after the
#     round, so these now build main's code) beside main's builds of the
#     same specs (old_: no turns), the 128x192 one part at a time, the
#     shipped spec (main's PTX again: the later release was reverted) and
#     test/gpu's stream_k case of the changed loop (suite only).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=${1:-r1}
out=${2:-build/cubins-fp8p-$mode}
cubins_fresh "$out" '*.txt'
case $mode in
r1)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml \
    specs/h200_fp8_e4m3_128x128_pp.yaml \
    specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml \
    test/gpu/specs/fp8_blockscale_128x256_fold128_g1_sk_ss.yaml
  old_build specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml
  ;;
r2)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml \
    specs/h200_fp8_e4m3_128x128_pp.yaml \
    specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml \
    bench/fp8p/h200_fp8_e4m3_blockscale_128x192_fold96_ss_coop.yaml \
    bench/fp8p/h200_fp8_e4m3_blockscale_128x192_fold96_g1_ss_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold64_g0_coop.yaml \
    test/gpu/specs/fp8_blockscale_128x192_fold96_sk_ss.yaml
  old_build specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml
  old_build bench/fp8p/h200_fp8_e4m3_blockscale_128x192_fold96_ss_coop.yaml
  old_build bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold64_g0_coop.yaml
  ;;
*) echo "build_cubins.sh: unknown mode $mode" >&2; exit 2 ;;
esac
ls "$out"
