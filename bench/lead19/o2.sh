#!/usr/bin/env bash
# session 19 lead, round o2 (DIR = build/cubins-o2: bench/lead19/build_cubins.sh o2): the per-row/column stream_k
# kernels' tile order (groups of 16 for the 128x256, 4 for the 128x128 pingpong) beside round o1's best, two
# gemmc-bench processes against cuBLASLt's OUTER_VEC, then ncu (DRAM bytes) of rc_sk_g16 on cube8192.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-o2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead19/o2.sh o2 "$dir" 400
gpu_stage_build 150 || exit 1
shapes=1x1x16,129x130x1000,385x300x384,300x520x4096,2100x4100x136,4096x4096x4096
fresh="rc_sk_g16.cubin rc_pp_sk_g4.cubin rc_pp_g4.cubin"
gpu_stage_suite 90 "$shapes" $(for c in $fresh; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | grep -v "^bs" | paste -sd,)" $fresh)
gpu_bench bench1 120 --cubin-dir "$dir" --cubins "$all" --suite "$dir/o1.yaml"
gpu_bench bench2 80 --cubin-dir "$dir" --cubins "$all" --shapes cube8192 --suite "$dir/o1.yaml"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,lts__t_bytes.sum
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum
if [ -n "$ncu" ]; then
  for c in rc_sk_g16 rc_pp_sk_g4; do
    tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
    stage "ncu $c cube8192" 40 "$ncu" --clock-control none --metrics "$metrics" -k regex:'^gemm_' --launch-skip 1 \
      --launch-count 1 --csv "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 --suite "$dir/o1.yaml" \
      --shapes cube8192 >"$OUT/ncu-$c-cube8192.csv" 2>&1
  done
fi
# The block-scaled 128x256 kernel, persistent and stream_k (o1: the same instructions in 11% more active cycles
# under stream_k): where its warps wait, by ncu's stall reasons (warps a issue, per reason).
if [ -n "$ncu" ]; then
  stalls="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__cycles_active.avg,gpu__time_duration.sum"
  for c in bs bs_sk; do
    tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
    stage "ncu stalls $c cube8192" 40 "$ncu" --clock-control none --metrics "$stalls" -k regex:'^gemm_' \
      --launch-skip 1 --launch-count 1 --csv "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 \
      --suite "$dir/o1.yaml" --shapes cube8192 >"$OUT/ncu-stalls-$c-cube8192.csv" 2>&1
  done
fi
