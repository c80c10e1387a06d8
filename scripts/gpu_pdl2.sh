#!/usr/bin/env bash
# Issue 15's PDL chain, levers of this round: pdl_launch_dependents: after_prologue (the next kernel
# launched right after this one's barrier setup) and ctas_per_sm: 2 (its CTAs resident beside this
# one's), against the before_a / after_mainloop kernels of session 3, on the GPU.
#
#   scripts/build_cubins.sh --check build/cubins-pdl2 test/gpu/specs/pdl_*.yaml   # build machine
#   OUT=$PWD/out scripts/gpu_pdl2.sh                        # GPU machine, carrying build/cubins-pdl2
#
# Writes to $OUT: suite.txt (the new pdl_p* and pdl_c2_* cubins on ragged shapes and the 8-GEMM chain: PDL result
# == plain result, bitwise) and chain.txt (gemmc-bench --chain, one process: 8 dependent decode GEMMs
# with 8192 x 8192 weights at M = 16 and M = 1, direct and in a graph, with and without
# GEMMC_LAUNCH_PDL, for each kernel: cooperative 128x128 and swap_ab 32x64 pingpong, old
# (pdl_b_*: before_a, after_mainloop) and new (pdl_p_*: after_prologue; pdl_c2_*: ctas_per_sm: 2
# alone; pdl_p2_*: both), each old/new pair run twice in alternation to show the run-to-run spread).
# Limits: build 150 s, suite 40 s, chain 110 s.
source "$(dirname "$0")/gpu_common.sh"
log="$OUT/log.txt"
dir=build/cubins-pdl2 status=0
gpu_stage_build 150 || exit 1
gpu_stage_suite 40 16x8192x8192,1x1000x1032,100x2056x4104 "$dir"/pdl_p*.cubin "$dir"/pdl_c2_*.cubin || status=1
order=()
for round in 1 2; do
  for c in pdl_b_coop_decode_128x128 pdl_p_coop_decode_128x128 pdl_b_swab_tn_32x64_pp \
           pdl_p_swab_tn_32x64_pp pdl_c2_swab_tn_32x64_pp pdl_p2_swab_tn_32x64_pp; do
    order+=("$dir/$c.cubin")
  done
done
stage chain 110 "$build/bin/gemmc-bench" --chain "${order[@]}" --shapes 16x8192x8192,1x8192x8192 --iters 100 \
  >"$OUT/chain.txt" 2>&1 || status=1
grep -E "^##|speedup" "$OUT/chain.txt" | head -80
exit $status
