#!/usr/bin/env bash
# session 21 lead, round q2 (DIR = build/cubins-q2: bench/lead21/build_cubins.sh q2): the 128x256 cooperative
# kernels with the epilogue under the next tile's first MMAs (dDwW-: bench/lead21/overlap.patch) against main's
# (old-): the suite on the new ones, then two gemmc-bench processes (the cuBLAS / cuBLASLt peer beside each row) and
# ncu of old-pt / d2w48-pt on cube8192.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-q2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead21/q2.sh q2 "$dir" 560
gpu_stage_build 150 || exit 1
shapes=1x1x16,33x100x64,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2100x4100x136
shapes+=,4096x2048x256,2048x4096x1024,4096x4096x4096
fresh=$(cd "$dir" && ls d*.cubin)
gpu_stage_suite 120 "$shapes" $(for c in $fresh; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $fresh)
gpu_bench bench1 110 --cubin-dir "$dir" --cubins "$all" --suite "$dir/q1.yaml"
gpu_bench bench2 110 --cubin-dir "$dir" --cubins "$all" --suite "$dir/q1.yaml"
gpu_bench bench3 110 --cubin-dir "$dir" --cubins "$all" --suite "$dir/q1.yaml"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
if [ -n "$ncu" ]; then
  for c in old-pt d2w48-pt; do
    tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
    stage "ncu $c cube8192" 40 "$ncu" --clock-control none --metrics "$metrics" -k regex:'^gemm_' --launch-skip 1 \
      --launch-count 1 --csv "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 --suite "$dir/q1.yaml" \
      --shapes cube8192 >"$OUT/ncu-$c-cube8192.csv" 2>&1
  done
fi
