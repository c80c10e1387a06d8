#!/usr/bin/env bash
# Issue 14 (branch fp8h): the cubins scripts/gpu_fp8h.sh MODE runs, built on
# the CPU machine from the worktree root (scripts/build_cubins.sh --check:
# no spill, no C75xx, the target's instructions present):
#   bench/fp8h/build_cubins.sh r1|r2 [DIR]  (default build/cubins-fp8h-MODE)
# r1: the per-tensor 128x256 kernel (the reference of >= 0.9x); the shipped
#     block-scaled 128x256 g1 kernel as this branch builds it and as main
#     does (old_, from main's spec with main's gemmc, $GEMMC_MAIN); the
#     same kernel with A in registers (a_registers: true: one ldmatrix
#     read of the warpgroup's A slice a K tile, both halves' wgmmas in the
#     register form).
# r2: the same four after round 1, where the shipped kernel (stage_scales,
#     turns) now waits for the next K tile's stage and reads its scales under
#     the K tile's last half (its PTX changes; a_registers gets it too); the
#     GPU suite's new cases of that mainloop: stream_k pieces and pingpong
#     (which keeps the old order).
# r3: the shipped kernel now also waits for its second half's turn while its
#     first half runs (not after the first half's fold); r2_NAME is round 2's
#     build of it (gemmc at 6984500, $GEMMC_R2), old_ main's; the per-tensor
#     kernel; the stream_k GPU case (its PTX changes too).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=${1:-r1}
out=${2:-build/cubins-fp8h-$mode}
main_rev=${GEMMC_MAIN_REV:-805f3e2}
cubins_fresh "$out"
shipped=specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml
# old_NAME: main's build of a shipped spec (old_build).
case $mode in
r1)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml "$shipped" \
    bench/fp8h/h200_fp8_e4m3_blockscale_128x256_fold128_g1_ar_coop.yaml
  old_build "$shipped" "$main_rev"
  ;;
r2)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml "$shipped" \
    bench/fp8h/h200_fp8_e4m3_blockscale_128x256_fold128_g1_ar_coop.yaml \
    test/gpu/specs/fp8_blockscale_128x256_fold128_g1_sk_ss.yaml \
    test/gpu/specs/fp8_blockscale_64x256_fold128_g1_pp_ss.yaml
  old_build "$shipped" "$main_rev"
  ;;
r3)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml "$shipped" \
    test/gpu/specs/fp8_blockscale_128x256_fold128_g1_sk_ss.yaml
  old_build "$shipped" "$main_rev"
  r2=r2_$(basename "$shipped" .yaml)
  cp "$shipped" "$out/$r2.yaml"
  "${GEMMC_R2:-/tmp/fp8h/gemmc-r2}" "$out/$r2.yaml" -o "$out/$r2.cubin"
  rm -f "$out/$r2.yaml"
  ;;
*) echo "build_cubins.sh: unknown mode $mode" >&2; exit 2 ;;
esac
