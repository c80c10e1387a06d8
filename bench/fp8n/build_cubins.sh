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
#     half's fold (_arf), and the same mainloop on stream_k pieces
#     (test/gpu/specs/fp8_blockscale_128x256_fold128_g1_sk_ss_ar.yaml, suite
#     only).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mode=${1:-r1}
out=${2:-build/cubins-fp8n-$mode}
mkdir -p "$out"
rm -f "$out"/*.cubin "$out"/*.json "$out"/*.txt
case $mode in
r1)
  scripts/build_cubins.sh --check "$out" \
    specs/h200_fp8_e4m3_128x256_coop.yaml \
    specs/h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold128_g1_g16_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold128_g1_sk_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_128x256_g16_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_128x256_sk_coop.yaml \
    bench/fp8n/h200_fp8_e4m3_blockscale_128x256_fold128_g1_arf_coop.yaml \
    test/gpu/specs/fp8_blockscale_128x256_fold128_g1_sk_ss_ar.yaml
  ;;
*) echo "build_cubins.sh: unknown mode $mode" >&2; exit 2 ;;
esac
