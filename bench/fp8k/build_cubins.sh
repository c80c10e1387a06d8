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
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mode=${1:-r1}
out=${2:-build/cubins-fp8k-$mode}
mkdir -p "$out"
rm -f "$out"/*.cubin "$out"/*.json
case $mode in
r1)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml \
    bench/fp8f/h200_fp8_e4m3_rowcol_128x128_c2_coop.yaml bench/fp8g/h200_fp8_e4m3_rowcol_128x128_c12_coop.yaml \
    bench/fp8k/h200_fp8_e4m3_*.yaml test/gpu/specs/pp128_*.yaml test/gpu/specs/fp8_rowcol_128x128_pp_c2_relu.yaml
  ;;
*) echo "build_cubins.sh: mode r1" >&2; exit 2 ;;
esac
