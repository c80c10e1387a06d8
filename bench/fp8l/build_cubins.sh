#!/usr/bin/env bash
# Issue 14 (branch fp8l): the cubins scripts/gpu_fp8l.sh r1 profiles, built on
# the CPU machine from the worktree root (scripts/build_cubins.sh --check: no
# spill, no C75xx), all main's PTX (no kernel of this branch is new):
#   bench/fp8l/build_cubins.sh [r1] [DIR]   (default build/cubins-fp8l-r1)
# The per-row/column 128x128 pingpong kernel (fp8k, BLOCK_M = 128) in a 2x1
# cluster (B multicast), a 1x2 one (A multicast) and without a cluster; the
# cooperative 128x128 2x1 (bench/fp8f: fp8k's 7.0 GB of L2 traffic); the
# per-row/column and per-tensor 128x256 (specs/, no cluster).
set -euo pipefail
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
mode=${1:-r1}
out=${2:-build/cubins-fp8l-$mode}
[ "$mode" = r1 ] || { echo "build_cubins.sh: mode r1" >&2; exit 2; }
cubins_fresh "$out"
scripts/build_cubins.sh --check "$out" \
  bench/fp8k/h200_fp8_e4m3_rowcol_128x128_pp_c2.yaml bench/fp8k/h200_fp8_e4m3_rowcol_128x128_pp_c12.yaml \
  bench/fp8k/h200_fp8_e4m3_rowcol_128x128_pp.yaml bench/fp8f/h200_fp8_e4m3_rowcol_128x128_c2_coop.yaml \
  specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml specs/h200_fp8_e4m3_128x256_coop.yaml
