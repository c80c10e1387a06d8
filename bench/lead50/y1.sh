#!/usr/bin/env bash
# session 50 lead, round y1 (DIR = build/cubins-y1: bash bench/lead50/build_cubins.sh y1): the 192x128 block-scaled
# kernel unclustered and in a 1x2 A-multicast cluster under ncu on cube8192 (issue 14's block-scaled cell): one
# gemmc-bench process over the four kernels on the goal shapes, then each kernel's second launch on cube8192 with
# the tensor pipe, L2 bytes, FMA instructions, stall ratios, warp states and per-instruction samples.
# Runs on either GPU; predictions in bench/lead50/README.md. With little device time: Y1_SHORT=1 leaves out the
# gemmc-bench process, Y1_KERNELS names the kernels ncu reads (default: the four, most telling first).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-y1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead50/y1.sh y1 "$dir" 420
gpu_stage_build 150 || exit 1
[ -n "${Y1_SHORT:-}" ] || gpu_bench "k-1" 60 --cubin-dir "$dir" --suite "$dir/r2.yaml"
[ -n "$ncu" ] || { echo "y1: no ncu"; exit 0; }
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum
metrics+=,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__t_bytes.sum,dram__bytes_read.sum,smsp__inst_executed_pipe_fma.sum
metrics+=,"regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
secs=(--section SourceCounters --section WarpStateStats --section LaunchStats)
for c in ${Y1_KERNELS:-bs192_p40 bs192_1x2n_p40 bs192 bs192_1x2_p40}; do
  tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
  stage "ncu $c" 45 "$ncu" --clock-control none --metrics "$metrics" "${secs[@]}" --launch-skip 1 --launch-count 1 \
    -k 'regex:^(gemm_|bs)' -o "$OUT/$c" "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 \
    --suite "$dir/r2.yaml" --shapes cube8192 >"$OUT/$c.log" 2>&1
  "$ncu" -i "$OUT/$c.ncu-rep" --page source --csv --print-source sass 2>&1 | gzip >"$OUT/$c-source.csv.gz"
  "$ncu" -i "$OUT/$c.ncu-rep" --page details --csv >"$OUT/$c-details.csv" 2>&1
  "$ncu" -i "$OUT/$c.ncu-rep" --page raw --csv >"$OUT/$c-raw.csv" 2>&1
  rm -f "$OUT/$c.ncu-rep"
done
