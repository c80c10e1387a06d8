#!/usr/bin/env bash
# session 34 lead, round k3 (DIR = build/cubins-k3: bench/lead34/build_cubins.sh k3): FP8 per tensor and per
# row/column at M = 288-448 of the 28672-wide layer, the 64x192 pingpong beside the bundles' 128x128 pingpong (two
# processes), then compute-sanitizer (memcheck, racecheck, synccheck) on the per-row/column 64x192 pingpong, which
# session 33 shipped without it.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-k3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead34/k3.sh k3 "$dir" 400
gpu_stage_build 150 || exit 1
k=fp8_64x192_pp.cubin,pt_pp.cubin,pt_pp192.cubin,rc_64x192_pp.cubin,rc_128x128_pp.cubin
for i in 1 2; do gpu_bench "k3_$i" 55 --cubin-dir "$dir" --cubins "$k" --suite "$dir/k3.yaml"; done
GEMMC_GPU_BUILD=$build timeout 90 bash scripts/gpu_sanitize.sh --tools memcheck,racecheck,synccheck --jobs 3 \
  "$dir/rc_64x192_pp.cubin" >"$OUT/sanitize.txt" 2>&1
tail -n 8 "$OUT/sanitize.txt"
