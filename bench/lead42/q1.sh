#!/usr/bin/env bash
# session 42 lead, round q1 (DIR = build/cubins-q1: bench/lead42/build_cubins.sh q1): where in the K loop gemmc's
# free-running block-scaled kernel loses the 13 points of tensor-pipe busy to DeepGEMM's kernel of the same structure
# (bench/lead41/README.md, round p4). SASS of both (cuobjdump, which this CPU machine lacks), then ncu's per-instruction
# stall samples (SourceCounters) of one cube8192 launch each: DeepGEMM's 128x192 (4 stages, B multicast) beside
# gemmc's bs128x192_ws_2x1_ns, and DeepGEMM's pick (256x128, A multicast) beside gemmc's bs256_ws_2x1_ns.
# Runs on either GPU.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-q1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead42/q1.sh q1 "$dir" 300
dis=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null)
mkdir -p "$OUT/sass"
ls /usr/local/cuda/bin >"$OUT/sass/cuda_bin.txt" 2>&1
if [ -n "$dis" ]; then
  for f in "$dir"/*.cubin "$dir/deepgemm_bs"; do
    "$dis" -sass "$f" >"$OUT/sass/$(basename "$f").sass" 2>&1
  done
else say "q1: no cuobjdump"; fi
gpu_stage_build 150 || exit 1
[ -n "$ncu" ] || { echo "q1: no ncu"; exit 0; }
secs=(--section SourceCounters --section WarpStateStats --section SchedulerStats --section LaunchStats
      --section ComputeWorkloadAnalysis --section SpeedOfLight)
src() {  # NAME: the report's per-SASS-instruction page and its details page, as CSV
  "$ncu" -i "$OUT/$1.ncu-rep" --page source --csv --print-source sass >"$OUT/$1-source.csv" 2>&1
  "$ncu" -i "$OUT/$1.ncu-rep" --page details --csv >"$OUT/$1-details.csv" 2>&1
}
for c in 128x192x4xB2 256x128x3xA2; do
  stage "ncu dg-$c" 60 "$ncu" --clock-control none "${secs[@]}" --launch-skip 1 --launch-count 1 \
    -k regex:sm90_fp8_gemm -o "$OUT/dg-$c" "$dir/deepgemm_bs" 8192 8192 8192 --config "$c:n8192k8192" \
    --iters 2 --warmup 1 >"$OUT/dg-$c.log" 2>&1
  src "dg-$c"
done
for c in bs128x192_ws_2x1_ns bs256_ws_2x1_ns; do
  tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
  stage "ncu $c" 60 "$ncu" --clock-control none "${secs[@]}" --launch-skip 1 --launch-count 1 \
    -k 'regex:^(gemm_|bs)' -o "$OUT/$c" "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 \
    --suite "$dir/r2.yaml" --shapes cube8192 >"$OUT/$c.log" 2>&1
  src "$c"
done
