#!/usr/bin/env bash
# session 41 lead, round p6 (DIR = build/cubins-p6: bench/lead41/build_cubins.sh p6): gemmc's FP8 goal-cell kernels
# assembled as gemmc does (ptxas -O3) and with DeepGEMM's `--register-usage-level=10`, pairwise in three interleaved
# gemmc-bench processes, after the suite on the _r10 cubins; and bs192_er, bs192 with each stage released before
# its fold (bench/lead41/ptx_early_release.py). Runs on either GPU; the H200 is the goal's.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p6}
source scripts/gpu_common.sh
gpu_round_begin bench/lead41/p6.sh p6 "$dir" 420
gpu_stage_build 150 || exit 1
gpu_stage_suite 80 "$gpu_suite_shapes" "$dir"/*_r10.cubin "$dir"/bs192_er.cubin
for i in 1 2 3; do gpu_bench "fp8-$i" 100 --cubin-dir "$dir" --suite "$dir/r2.yaml"; done
