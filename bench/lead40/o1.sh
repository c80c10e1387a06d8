#!/usr/bin/env bash
# session 40 lead, round o1 (DIR = build/cubins-o1: bench/lead40/build_cubins.sh o1): issue 14's block-scaled cell with
# the 128x192 one-part kernels; the suite on the three new kernels first, then three interleaved gemmc-bench
# processes on the goal shapes and one sustained at the power cap.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-o1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead40/o1.sh o1 "$dir" 560
gpu_stage_build 150 || exit 1
gpu_stage_suite 70 "$gpu_suite_shapes" "$dir"/bs128x192_*.cubin
for i in 1 2 3; do gpu_bench "fp8-$i" 70 --cubin-dir "$dir" --suite "$dir/r2.yaml"; done
gpu_sustain sus 120 --cubin-dir "$dir" --cubins bs128x192_coop.cubin,bs128x192_ws.cubin,bs192.cubin,pt_pp192.cubin \
  --suite "$dir/r2.yaml" --shapes cube8192,prefill_mlp_up
