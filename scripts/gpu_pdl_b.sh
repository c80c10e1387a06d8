#!/usr/bin/env bash
# Issue 15's PDL with the weights first (pdl_wait: before_a) against before_loads, on the GPU.
#
#   scripts/build_cubins.sh --check build/cubins-pdl test/gpu/specs/pdl_*.yaml \
#       specs/h200_bf16_decode_128x128_coop_pdl.yaml        # build machine
#   OUT=$PWD/out scripts/gpu_pdl_b.sh                        # GPU machine, carrying build/cubins-pdl
#
# Writes to $OUT: suite.txt (every pdl_* cubin on ragged shapes and the 8-GEMM chain, PDL against
# plain launches) and chain.txt (gemmc-bench --chain: 8 dependent decode GEMMs with 8192 x 8192
# weights at M = 16 and M = 1, direct and in a graph, with and without GEMMC_LAUNCH_PDL) for the
# cooperative 128x128 decode kernel and the swap_ab 32x64 pingpong kernel, each with
# pdl_wait: before_loads and before_a. Limits: build 150 s, suite 60 s, chain 4 x 40 s.
source "$(dirname "$0")/gpu_common.sh"
log="$OUT/log.txt"
dir=build/cubins-pdl
status=0
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 16x8192x8192,1x1000x1032,100x2056x4104 "$dir"/pdl_*.cubin || status=1
: >"$OUT/chain.txt"
for c in h200_bf16_decode_128x128_coop_pdl pdl_b_coop_decode_128x128 pdl_swab_tn_32x64_pp pdl_b_swab_tn_32x64_pp; do
  echo "## $c" >>"$OUT/chain.txt"
  stage "chain $c" 40 "$build/bin/gemmc-bench" --chain "$dir/$c.cubin" --shapes 16x8192x8192,1x8192x8192 \
    >>"$OUT/chain.txt" 2>&1 || status=1
done
grep -E "^##|speedup|PDL" "$OUT/chain.txt" | head -40
exit $status
