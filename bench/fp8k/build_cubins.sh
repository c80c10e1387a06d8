#!/usr/bin/env bash
# Issue 14 (branch fp8k): the cubins scripts/gpu_fp8k.sh MODE runs, built on
# the CPU machine from the worktree root (scripts/build_cubins.sh --check:
# no spill, no C75xx):
#   bench/fp8k/build_cubins.sh r1|r2 [DIR]  (default build/cubins-fp8k-MODE)
# r1: the per-tensor and per-row/column 128x256 kernels (specs/), the
# per-row/column 128x128 tile in a 2x1 cluster (bench/fp8f: cuBLASLt
# OUTER_VEC's configuration) and a 1x2 one (bench/fp8g), and the variants of
# the 2x1 kernel that specs alone give (bench/fp8k/*.yaml: no cluster,
# 4 stages, raster along N, register stores, a data-parallel grid,
# per-tensor scales, pingpong 64x256), and pingpong with BLOCK_M = 128 (this
# branch: each consumer warpgroup a whole 128x128 tile, the epilogue of one
# under the other's mainloop) in the 2x1 cluster and without, with its
# test/gpu correctness cases (pp128_*, fp8_rowcol_128x128_pp_c2_relu).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=${1:-r1}
out=${2:-build/cubins-fp8k-$mode}
cubins_fresh "$out"
case $mode in
r1)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_rowcol_128x128_c2_coop.yaml bench/fp8g/h200_fp8_e4m3_rowcol_128x128_c12_coop.yaml \
    bench/fp8k/h200_fp8_e4m3_*.yaml test/gpu/specs/pp128_*.yaml test/gpu/specs/fp8_rowcol_128x128_pp_c2_relu.yaml
  ;;
r2)
  # Round 1 found the 128x128 pingpong kernel's K loop 5% slower per K tile
  # than the cooperative one's: its load numbers, stage indices and wgmma
  # descriptors lived in vector registers (tid / 128), moved into uniform
  # ones before every wgmma. Now the warpgroup id is a shuffle of lane 0's
  # (uniform). That changes every pingpong kernel's PTX, so main's builds
  # of some (old_*, by /tmp's main gemmc, GEMMC_MAIN) are timed beside them,
  # and round 1's build of the 128x128 pingpong kernel (old_*, from
  # build/cubins-fp8k-r1). Round 2 ran this mode at fa51f3b, where the
  # 128x128 pingpong K loop also took cuBLASLt OUTER_VEC's order (row block
  # 0, the wait for the K tile before, the release, row block 1 and the
  # commit): 10-13% slower, reverted (4eb9387). u_* (the uniform id alone) is
  # what the branch keeps; this mode now builds that kernel under its own
  # name too.
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_rowcol_128x128_c2_coop.yaml \
    bench/fp8k/h200_fp8_e4m3_rowcol_128x128_pp_c2.yaml bench/fp8k/h200_fp8_e4m3_rowcol_128x128_pp_c12.yaml \
    bench/fp8k/h200_fp8_e4m3_128x128_pp_c2.yaml bench/fp8k/h200_fp8_e4m3_rowcol_64x256_pp_c2.yaml \
    bench/fp8k/h200_fp8_e4m3_rowcol_128x128_pp_c2_g*.yaml \
    test/gpu/tune3/pp_tn_64x224.yaml test/gpu/tune2/swab_tn_16x64_pp.yaml \
    test/gpu/specs/pp128_*.yaml test/gpu/specs/fp8_rowcol_128x128_pp_c2_relu.yaml \
    test/gpu/specs/pp_*.yaml test/gpu/specs/cluster_1x2_pp_tn.yaml test/gpu/specs/fp8_blockscale_64x*_pp*.yaml \
    test/gpu/specs/fp8_e5m2_e4m3_64x256_pp.yaml test/gpu/specs/pdl_swab_tn_32x64_pp.yaml \
    test/gpu/specs/tf32_64x128_pp_bf16out.yaml
  main=${GEMMC_MAIN:-/tmp/fp8k/gemmc-main}
  for spec in bench/fp8k/h200_fp8_e4m3_rowcol_64x256_pp_c2.yaml test/gpu/tune3/pp_tn_64x224.yaml \
              test/gpu/tune2/swab_tn_16x64_pp.yaml; do
    n=$(basename "$spec" .yaml)
    "$main" "$spec" -o "$out/old_$n.cubin"
  done
  r1=h200_fp8_e4m3_rowcol_128x128_pp_c2
  cp build/cubins-fp8k-r1/$r1.cubin "$out/old_$r1.cubin"
  cp build/cubins-fp8k-r1/$r1.cubin.json "$out/old_$r1.cubin.json"
  # u_*: the same kernel with the uniform warpgroup id alone (commit 82a5a72,
  # before the K loop took OUTER_VEC's order), built into
  # build/cubins-fp8k-r2u at that commit.
  cp build/cubins-fp8k-r2u/u_$r1.cubin build/cubins-fp8k-r2u/u_$r1.cubin.json "$out/"
  ;;
*) echo "build_cubins.sh: mode r1 or r2" >&2; exit 2 ;;
esac
