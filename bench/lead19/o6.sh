#!/usr/bin/env bash
# session 19 lead, round o6 (DIR = build/cubins-o4, whose bs_sk and persistent 128x256 are main's): ncu source
# counters (SASS, stall samples by instruction) of the block-scaled 128x256 kernel, stream_k and persistent, on
# cube8192: which barrier the stream_k kernel's extra waits are at (o2: barrier stalls 1.88 -> 2.52 warps an issue).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-o4}
source scripts/gpu_common.sh
gpu_round_begin bench/lead19/o6.sh o6 "$dir" 300
gpu_stage_build 150 || exit 1
printf 'cubins: ["*.cubin"]\nshapes:\n  - {name: cube8192, m: 8192, n: 8192, k: 8192}\n' >"$OUT/o6.yaml"
for c in bs_sk h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop; do
  tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
  rep=$OUT/src-$c
  stage "ncu source $c" 90 "$ncu" --clock-control none --section SourceCounters --section WarpStateStats \
    -k regex:'^gemm_' --launch-skip 1 --launch-count 1 -o "$rep" -f "$bench" --cubin-dir "$tmp" --iters 2 \
    --warmup 1 --suite "$OUT/o6.yaml" >"$rep.log" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page source --print-source sass --csv >"$rep.sass.csv" 2>&1
  "$ncu" -i "$rep.ncu-rep" --page details --print-details all >"$rep.txt" 2>&1
  rm -f "$rep.ncu-rep"
done
ls -la "$OUT"
