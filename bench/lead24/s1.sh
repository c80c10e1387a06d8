#!/usr/bin/env bash
# session 24 lead, round s1 (DIR = build/cubins-s1: bench/lead24/build_cubins.sh s1): why gemmc's 2x1 multicast
# clusters lose on cube4096 (session 22, r1: the 128x128 pingpong kernels -3..-4%, block-scaled 128x256 -11%) where
# cuBLASLt's OUTER_VEC kernel is a 128x128 pingpong kernel in a 2x1 cluster. One interleaved gemmc-bench process
# (the gap in this call), then ncu on each kernel, clocks free: the full set (stall reasons, pipes, L2 and shared
# memory) with the source counters (stall samples by SASS instruction), exported as text and as SASS csv.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-s1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead24/s1.sh s1 "$dir" 420
gpu_stage_build 150 || exit 1
gpu_bench c4k 45 --cubin-dir "$dir" --suite "$dir/r1.yaml" --shapes cube4096
printf 'cubins: ["*.cubin"]\nshapes:\n  - {name: cube4096, m: 4096, n: 4096, k: 4096}\n' >"$OUT/s1.yaml"
for c in pt_pp pt_pp_2x1 bs bs_2x1 rc_pp rc_pp_2x1; do
  tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
  rep=$OUT/full-$c
  stage "ncu full $c" 90 "$ncu" --clock-control none --set full --import-source no \
    -k regex:'^gemm_' --launch-skip 1 --launch-count 1 -o "$rep" -f "$bench" --cubin-dir "$tmp" --iters 2 \
    --warmup 1 --suite "$OUT/s1.yaml" >"$rep.log" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page source --print-source sass --csv >"$rep.sass.csv" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page details --print-details all >"$rep.txt" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page raw --csv >"$rep.raw.csv" 2>&1
  gzip -9 -f "$rep.sass.csv" "$rep.raw.csv"
  rm -f "$rep.ncu-rep"
done
ls -la "$OUT"
