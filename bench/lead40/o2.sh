#!/usr/bin/env bash
# session 40 lead, round o2 (DIR = build/cubins-o1): why round o1's 128x192 one-part block-scaled kernel ran 0.96x
# the 192x128 kernel of three warpgroups on cube8192 (the model put it 6% ahead): ncu on cube8192 of bs128x192_coop,
# bs192, bs256 and the per-tensor pt_pp192 (tensor pipe busy, cycles, instructions, shared-memory wavefronts), then
# the warps' stall reasons of the two block-scaled 128x192 / 192x128 kernels.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-o1}
source scripts/gpu_common.sh
gpu_round_begin bench/lead40/o2.sh o2 "$dir" 330
gpu_stage_build 150 || exit 1
[ -n "$ncu" ] || { echo "o2: no ncu"; exit 1; }
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum
metrics+=,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_pipe_fma.sum
stalls="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__cycles_active.avg"
for c in bs128x192_coop bs192 bs256 pt_pp192; do
  gpu_ncu_cubin "$c-cube8192" "$dir" $c "$dir/r2.yaml" cube8192 40 "$metrics"
done
for c in bs128x192_coop bs192; do
  gpu_ncu_cubin "stalls-$c-cube8192" "$dir" $c "$dir/r2.yaml" cube8192 40 "$stalls"
done
