#!/usr/bin/env bash
# session 18 lead, round n3 (DIR = build/cubins-n3): issue 12's sm_80 kernels and the mma.sync peak under ncu with
# the clocks left alone: each launch's SM clock (sm__cycles_elapsed.avg.per_second) and the tensor pipe's active
# cycles over the elapsed ones, on both sides: the fraction of the peak at the clock each ran at. Then gemmc-bench
# as usual (interleaved with cuBLAS) against the peak of the same call.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead18/n3.sh n3 "$dir" 300
gpu_stage_build 150 || exit 1
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__inst_executed_pipe_tensor_op_hmma.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
if [ -n "$ncu" ]; then
  stage "ncu peak" 90 "$ncu" --clock-control none --metrics "$metrics" -k regex:peakKernel --launch-skip 3 \
    --launch-count 12 --csv "$dir/mma-sync-peak" >"$OUT/ncu-peak.csv" 2>&1
  for c in a100_bf16_128x256x64 a100_bf16_128x256x64_sk a100_tf32_128x256x32_tn; do
    tmp=$(mktemp -d); cp "$dir/$c.fatbin" "$dir/$c.fatbin.json" "$tmp/"
    stage "ncu $c" 60 "$ncu" --clock-control none --metrics "$metrics" -k regex:'^gemm_' --launch-skip 1 \
      --launch-count 8 --csv "$bench" --cubin-dir "$tmp" --iters 3 --warmup 1 --suite "$dir/sm80.yaml" \
      >"$OUT/ncu-$c.csv" 2>&1
  done
  grep -hE "per_second|hmma_cycles|duration" "$OUT"/ncu-*.csv | cut -d, -f5,13- | cut -c1-160
fi
timeout 60 "$dir/mma-sync-peak" --json "$OUT/mma_sync_peak.json" | tee "$OUT/mma_sync_peak.txt"
gpu_bench sm80 90 --cubin-dir "$dir" --suite "$dir/sm80.yaml" --clocks
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/sm80.json" --cubins '*a100_*' | tee "$OUT/fraction.md"
