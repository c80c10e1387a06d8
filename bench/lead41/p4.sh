#!/usr/bin/env bash
# session 41 lead, round p4 (build/cubins-p1 and build/cubins-p3): the short form of rounds p1 and p3 for a call with
# little device time left: issue 12's tf32 cell beside CUTLASS's tf32 Ampere GEMMs (cube4096 / cube8192, with the
# mma.sync peak), then ncu's stall reasons on cube8192 of DeepGEMM's pick and gemmc's free-running 128x256 kernel
# with and without its 2x1 cluster. Runs on either GPU.
OUT=${OUT:-./out}; mkdir -p "$OUT"
d1=build/cubins-p1 d3=build/cubins-p3
source scripts/gpu_common.sh
gpu_round_begin bench/lead41/p4.sh p4 "$d1" 300
gpu_stage_build 150 || exit 1
timeout 45 "$d1/mma-sync-peak" --json "$OUT/mma_sync_peak.json" >"$OUT/mma_sync_peak.txt" 2>&1
tail -2 "$OUT/mma_sync_peak.txt"
mkdir -p /tmp/tf32 && cp "$d1"/sm80/a100_tf32_128x256x32_tn.fatbin* "$d1/sm80/sm80.yaml" /tmp/tf32/
gpu_bench tf32 40 --cubin-dir /tmp/tf32 --suite /tmp/tf32/sm80.yaml
for s in 4096 8192; do
  timeout 50 "$d1/cutlass_sm80_tf32" $s $s $s --json "$OUT/cutlass-tf32-$s.json" 2>&1 | tee "$OUT/cutlass-tf32-$s.txt"
done
python3 bench/mma_sync_fraction.py "$OUT/mma_sync_peak.json" "$OUT/tf32.json" | tee "$OUT/fraction.md"
[ -n "$ncu" ] || { echo "p4: no ncu"; exit 0; }
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
metrics+=,"regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
gpu_ncu deepgemm-cube8192 40 sm90_fp8_gemm "$metrics" "$d3/deepgemm_bs" 8192 8192 8192 \
  --config 256x128x3xA2:n8192k8192 --iters 2 --warmup 1
for c in bs256_ws_2x1_ns bs256_ws; do gpu_ncu_cubin "$c-cube8192" "$d3" $c "$d3/r2.yaml" cube8192 40 "$metrics"; done
