#!/usr/bin/env bash
# session 19 lead, round o1 (DIR = build/cubins-o1: bench/lead19/build_cubins.sh o1): the 128x128 pingpong kernels
# under stream_k since session 18's aligned split, per-tensor and per-row/column, beside the shipped pingpong and
# 128x256 stream_k kernels and cuBLASLt (OUTER_VEC for per-row/column) in two gemmc-bench processes; then ncu on
# cube8192 / cube4096 (one launch each, clocks left alone) for the pairs whose gap is not explained.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-o1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead19/o1.sh o1 "$dir" 540
gpu_stage_build 150 || exit 1
shapes=1x1x16,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2100x4100x136,4096x2048x256
shapes+=,2048x4096x1024,1536x4096x2048,4096x4096x4096
fresh="rc_pp_sk.cubin rc_pp_sk_g16.cubin pt_pp_sk.cubin"
gpu_stage_suite 120 "$shapes" $(for c in $fresh; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $fresh)
gpu_bench bench1 150 --cubin-dir "$dir" --cubins "$all" --suite "$dir/o1.yaml"
pp=$(echo "$all" | tr , '\n' | grep -E '^(rc|pt)_' | paste -sd,)
gpu_bench bench2 100 --cubin-dir "$dir" --cubins "$pp" --shapes cube8192,cube4096 --suite "$dir/o1.yaml"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed_op_global_ld.sum
metrics+=,smsp__inst_executed_op_global_st.sum,sm__cycles_active.avg
if [ -n "$ncu" ]; then
  for job in rc_sk:cube8192 pt_sk:cube8192 rc_pp_sk:cube8192 rc_pp:cube8192 pt_pp_sk:cube8192 \
    bs:cube8192 bs_sk:cube8192 pt_sk:cube4096 pt_coop:cube4096; do
    c=${job%%:*} shape=${job#*:}
    tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
    stage "ncu $c $shape" 40 "$ncu" --clock-control none --metrics "$metrics" -k regex:'^gemm_' --launch-skip 1 \
      --launch-count 1 --csv "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 --suite "$dir/o1.yaml" \
      --shapes "$shape" >"$OUT/ncu-$c-$shape.csv" 2>&1
  done
fi
