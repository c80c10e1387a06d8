#!/usr/bin/env bash
# session 42 lead, round q2 (DIR = build/cubins-q2: bench/lead42/build_cubins.sh q2): the block-scaled free-running
# (warp_specialized) K loop waits for the next K tile's stage and reads its scales under the K tile's wgmmas (`ahead`,
# as the cooperative loop with turns did since session 9), so only the release lies between a fold and the next first
# wgmma. Suite on the three new kernels, then each beside the kernel it replaces (main's) in three interleaved
# gemmc-bench processes, then ncu's per-instruction samples of bs192 and bs192_ah on cube8192. Runs on either GPU.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-q2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead42/q2.sh q2 "$dir" 420
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir"/*_ah.cubin
for i in 1 2 3; do gpu_bench "fp8-$i" 100 --cubin-dir "$dir" --suite "$dir/r2.yaml"; done
[ -n "$ncu" ] || { echo "q2: no ncu"; exit 0; }
secs=(--section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats)
for c in bs192 bs192_ah; do
  tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
  stage "ncu $c" 40 "$ncu" --clock-control none "${secs[@]}" --launch-skip 1 --launch-count 1 \
    -k 'regex:^(gemm_|bs)' -o "$OUT/$c" "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 \
    --suite "$dir/r2.yaml" --shapes cube8192 >"$OUT/$c.log" 2>&1
  "$ncu" -i "$OUT/$c.ncu-rep" --page source --csv --print-source sass >"$OUT/$c-source.csv" 2>&1
  "$ncu" -i "$OUT/$c.ncu-rep" --page details --csv >"$OUT/$c-details.csv" 2>&1
  rm -f "$OUT/$c.ncu-rep"
done
