#!/usr/bin/env bash
# session 41 lead, round p2 (DIR = build/cubins-p2: bench/lead41/build_cubins.sh p2): gemmc's block-scaled 128x256
# one-part kernel built as DeepGEMM's block-scaled kernel is (free-running warpgroups, a 2-CTA cluster multicasting the
# bigger operand), beside the shipped kernels, the per-tensor kernels and DeepGEMM itself; then ncu on cube8192 of
# DeepGEMM's pick and gemmc's kernels (tensor pipe, L2 and DRAM bytes, clock). Runs on either GPU.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-p2}
source scripts/gpu_common.sh
gpu_round_begin bench/lead41/p2.sh p2 "$dir" 400
gpu_stage_build 150 || exit 1
gpu_stage_suite 60 "$gpu_suite_shapes" "$dir"/bs256_*.cubin
for i in 1 2; do
  for s in "4096 4096 4096" "8192 8192 8192" "8192 28672 8192"; do
    timeout 40 "$dir/deepgemm_bs" $s --config pick --json "$OUT/deepgemm-$i-${s// /x}.json" 2>&1 | grep RESULT | tee -a "$OUT/deepgemm-$i.txt"
  done
  gpu_bench "fp8-$i" 80 --cubin-dir "$dir" --suite "$dir/r2.yaml"
done
[ -n "$ncu" ] || { echo "p2: no ncu"; exit 0; }
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum
metrics+=,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__t_bytes.sum,dram__bytes_read.sum,smsp__inst_executed_pipe_fma.sum
gpu_ncu deepgemm-cube8192 40 sm90_fp8_gemm "$metrics" "$dir/deepgemm_bs" 8192 8192 8192 --config pick --iters 2 \
  --warmup 1
for c in bs256 bs256_ws_2x1 bs256_coop_2x1 bs192 pt_pp192; do
  gpu_ncu_cubin "$c-cube8192" "$dir" $c "$dir/r2.yaml" cube8192 40 "$metrics"
done
