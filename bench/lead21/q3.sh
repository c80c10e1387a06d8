#!/usr/bin/env bash
# session 21 lead, round q3 (DIR = build/cubins-q2): ncu source counters (SASS, stall samples by instruction) on
# cube8192 of the persistent per-row/column kernel with and without the overlap (old-rc, d2w32-rc: q2 measured the
# overlap 0.3-0.9% slower there) and of the per-tensor pair that gained (old-pt, d2w48-pt): where the per-row/column
# form's extra cycles are.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-q2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead21/q3.sh q3 "$dir" 400
gpu_stage_build 150 || exit 1
printf 'cubins: ["*.cubin"]\nshapes:\n  - {name: cube8192, m: 8192, n: 8192, k: 8192}\n' >"$OUT/q3.yaml"
for c in old-rc d2w32-rc old-pt d2w48-pt; do
  tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
  rep=$OUT/src-$c
  stage "ncu source $c" 80 "$ncu" --clock-control none --section SourceCounters --section WarpStateStats \
    -k regex:'^gemm_' --launch-skip 1 --launch-count 1 -o "$rep" -f "$bench" --cubin-dir "$tmp" --iters 2 \
    --warmup 1 --suite "$OUT/q3.yaml" >"$rep.log" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page source --print-source sass --csv >"$rep.sass.csv" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page details --print-details all >"$rep.txt" 2>&1
  gzip -9 -f "$rep.sass.csv"
  rm -f "$rep.ncu-rep"
done
ls -la "$OUT"
