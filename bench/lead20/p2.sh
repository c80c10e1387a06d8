#!/usr/bin/env bash
# session 20 lead, round p2 (DIR = build/cubins-p2: bench/lead20/build_cubins.sh p2): the per-row/column kernels with
# the column scales spread over the warp (a-: at the epilogue's start; b-: before the accumulator's last wait; c-: b
# with the row scales spread and early too) against main's (old-): the suite on the new ones, then two gemmc-bench
# processes (cuBLASLt's OUTER_VEC beside each row) and ncu of rc_sk old / c on cube8192.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead20/p2.sh p2 "$dir" 400
gpu_stage_build 150 || exit 1
shapes=1x1x16,33x100x64,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2100x4100x136
shapes+=,4096x2048x256,2048x4096x1024,4096x4096x4096
fresh=$(cd "$dir" && ls [abc]-*.cubin)
gpu_stage_suite 110 "$shapes" $(for c in $fresh; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $fresh)
big=$(echo "$all" | tr , '\n' | grep -E 'rc_sk|rc_coop|pt_sk' | paste -sd,)
small=$(echo "$all" | tr , '\n' | grep -E 'rc_ws64|rc_64sk2' | paste -sd,)
gpu_bench bench1 120 --cubin-dir "$dir" --cubins "$big" --suite "$dir/p1.yaml"
gpu_bench small1 40 --cubin-dir "$dir" --cubins "$small" --suite "$dir/p1small.yaml"
gpu_bench bench2 90 --cubin-dir "$dir" --cubins "$big" --shapes cube8192,cube4096 --suite "$dir/p1.yaml"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
if [ -n "$ncu" ]; then
  for c in old-rc_sk c-rc_sk pt_sk; do
    tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
    stage "ncu $c cube8192" 40 "$ncu" --clock-control none --metrics "$metrics" -k regex:'^gemm_' --launch-skip 1 \
      --launch-count 1 --csv "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 --suite "$dir/p1.yaml" \
      --shapes cube8192 >"$OUT/ncu-$c-cube8192.csv" 2>&1
  done
fi
