#!/usr/bin/env bash
# session 41 lead, round p3 (DIR = build/cubins-p3: bench/lead41/build_cubins.sh p3): the 128x192 one-part
# block-scaled kernel without turns in a 2x1 cluster (DeepGEMM's 128x192 B-multicast configuration), timed beside
# the bundle's kernels and DeepGEMM's two configurations on the 8192-class shapes; then ncu on cube8192 (tensor pipe
# busy, cycles, clock, and the consumer warps' stall reasons) of DeepGEMM's two and gemmc's clustered and
# unclustered free-running kernels. Runs on either GPU.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead41/p3.sh p3 "$dir" 420
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir"/bs128x192_ws_2x1*.cubin
for i in 1 2; do
  for s in "4096 4096 4096" "8192 8192 8192" "8192 28672 8192"; do
    read -r m n k <<<"$s"
    for c in 256x128x3xA2 128x192x4xB2; do
      timeout 30 "$dir/deepgemm_bs" $s --config "$c:n${n}k$k" 2>&1 | grep RESULT | tee -a "$OUT/deepgemm-$i.txt"
    done
  done
  gpu_bench "fp8-$i" 70 --cubin-dir "$dir" --suite "$dir/r2.yaml"
done
[ -n "$ncu" ] || { echo "p3: no ncu"; exit 0; }
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed_pipe_fma.sum
metrics+=,"regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
for c in 256x128x3xA2 128x192x4xB2; do
  gpu_ncu "deepgemm-$c-cube8192" 40 sm90_fp8_gemm "$metrics" "$dir/deepgemm_bs" 8192 8192 8192 \
    --config "$c:n8192k8192" --iters 2 --warmup 1
done
for c in bs256_ws_2x1_ns bs256_ws bs128x192_ws_2x1_ns bs192; do
  gpu_ncu_cubin "$c-cube8192" "$dir" $c "$dir/r2.yaml" cube8192 40 "$metrics"
done
