#!/usr/bin/env bash
# session 21 lead, rounds q1 and q2 (bench/lead21/q1.sh DIR ROUND; DIR = build/cubins-ROUND from
# bench/lead21/build_cubins.sh ROUND): the 128x256 cooperative kernels with the epilogue under the next tile's first
# MMAs (dDwW-: bench/lead21/overlap.patch) against main's (old-): the suite on the new ones, then gemmc-bench
# processes (the cuBLAS / cuBLASLt peer beside each row; two in q1, three in q2) and ncu on cube8192 of old-pt and
# the round's lead variant (q1 d4w48-pt, q2 d2w48-pt).
OUT=${OUT:-./out}; mkdir -p "$OUT"
round=${2:-q1}
dir=${1:-build/cubins-$round}
case $round in q1) lead=d4w48-pt processes="1 2" ;; q2) lead=d2w48-pt processes="1 2 3" ;; esac
source scripts/gpu_common.sh
gpu_round_begin "bench/lead21/$round.sh" "$round" "$dir" 560
gpu_stage_build 150 || exit 1
shapes=1x1x16,33x100x64,129x130x1000,127x255x200,385x300x384,1000x1000x1000,300x520x4096,2100x4100x136
shapes+=,4096x2048x256,2048x4096x1024,4096x4096x4096
fresh=$(cd "$dir" && ls d*.cubin)
gpu_stage_suite 120 "$shapes" $(for c in $fresh; do echo "$dir/$c"; done)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $fresh)
for p in $processes; do
  gpu_bench "bench$p" 110 --cubin-dir "$dir" --cubins "$all" --suite "$dir/q1.yaml"
done
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
if [ -n "$ncu" ]; then
  for c in old-pt $lead; do
    tmp=$(mktemp -d); cp "$dir/$c.cubin" "$dir/$c.cubin.json" "$tmp/"
    stage "ncu $c cube8192" 40 "$ncu" --clock-control none --metrics "$metrics" -k regex:'^gemm_' --launch-skip 1 \
      --launch-count 1 --csv "$bench" --cubin-dir "$tmp" --iters 2 --warmup 1 --suite "$dir/q1.yaml" \
      --shapes cube8192 >"$OUT/ncu-$c-cube8192.csv" 2>&1
  done
fi
