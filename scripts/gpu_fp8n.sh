#!/usr/bin/env bash
# Issue 14 (branch fp8n): the block-scaled 128x256 g1 kernel at >= 0.9x
# gemmc's per-tensor 128x256. One device call a round, under 150 s:
#   scripts/gpu_fp8n.sh r1 [DIR]    (default build/cubins-fp8n-r1)
# The cubins are built on the CPU machine (bench/fp8n/build_cubins.sh MODE)
# and carried in DIR.
#
# r1:
#   1. gemmc-gpu-tests and gemmc-bench built;
#   2. the suite on the new kernels (bench/fp8n: groups of 16, stream_k, for
#      both kernels; a_registers with the fragment read under the fold, and
#      on stream_k pieces, then a test/gpu case, removed after the round):
#      ragged M and N, K not a multiple of 128, padded leading dimensions,
#      alpha, graph replay, bad arguments; a kernel that fails is not timed;
#   3. ONE gemmc-bench process, 2 warm-up + 20 timed runs, each kernel
#      interleaved with its cuBLASLt peer (per-tensor, VEC128 x BLK128x128)
#      on cube4096, cube8192, prefill_attn_out, prefill_mlp_up; the ratio
#      summary (bench/fp8_summary.awk: over the peer, over the per-tensor
#      128x256 kernel, block-scaled over the shipped block-scaled kernel);
#   4. ncu, one launch each of the shipped block-scaled, the per-tensor and
#      the _arf kernel on cube4096 and cube8192: SourceCounters,
#      WarpStateStats, the tensor pipe's active cycles, shared memory's
#      wavefronts (wgmma operand reads and the rest) and pipe activity, the
#      clock (retried with the sections alone if a metric is refused).
# r2: the suite on the shipped block-scaled spec as this branch built it at
#   9d80e2c (each K tile's stage released right after its last half's wait;
#   reverted after the round), its
#   groups-of-16 variant, the fold64 variant (two parts in flight a
#   warpgroup) and test/gpu's stream_k case of the changed mainloop; the same
#   bench (old_: main's build of the shipped spec); ncu of the shipped
#   kernel, old_ and fold64 on cube4096 and cube8192 as in r1.
# $OUT gets logs.txt, suite.txt, bench.txt, prof.csv, prof-*.txt, prof-all.csv.gz.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8n-$mode}
gpu_round_begin gpu_fp8n.sh "$mode" "$dir" 145
source bench/fp8_ncu.sh
anchors=(--suite bench/suites/anchors.yaml)
tensor=h200_fp8_e4m3_128x256_coop
block=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second
metrics+=,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,sm__pipe_tensor_op_hmma_type_hmma_hgmma_qgmma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,sm__inst_executed_pipe_tensor_op_gmma.sum
metrics+=,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum
metrics+=,l1tex__throughput.avg.pct_of_peak_sustained_active
metrics+=,l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum

case $mode in
r1)
  new=(h200_fp8_e4m3_blockscale_128x256_fold128_g1_g16_coop h200_fp8_e4m3_blockscale_128x256_fold128_g1_sk_coop
       h200_fp8_e4m3_128x256_g16_coop h200_fp8_e4m3_128x256_sk_coop h200_fp8_e4m3_blockscale_128x256_fold128_g1_arf_coop)
  profiled=$block.cubin,$tensor.cubin,h200_fp8_e4m3_blockscale_128x256_fold128_g1_arf_coop.cubin
  ;;
r2)
  new=($block h200_fp8_e4m3_blockscale_128x256_fold128_g1_g16_coop h200_fp8_e4m3_blockscale_128x256_fold64_g0_coop
       fp8_blockscale_128x256_fold128_g1_sk_ss)
  profiled=$block.cubin,old_$block.cubin,h200_fp8_e4m3_blockscale_128x256_fold64_g0_coop.cubin
  ;;
*) echo "gpu_fp8n.sh: unknown mode $mode" >&2; exit 2 ;;
esac
all=$(cd "$dir" && ls h200_*.cubin old_*.cubin 2>/dev/null | paste -sd,)

gpu_stage_build 100 || exit 1
cubins=()
for n in "${new[@]}"; do cubins+=("$dir/$n.cubin"); done
gpu_stage_suite "$(lim 40)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
((rc)) && status=1
all=$(gpu_drop_failed "$rc" "$all" "${new[@]/%/.cubin}")
if fits 60 "bench on the four shapes"; then
  stage bench "$(lim 90)" "$bench" "${anchors[@]}" --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up \
    --cubin-dir "$dir" --cubins "$all" --iters 20 --warmup 2 >"$OUT/bench.txt" 2>&1 || status=1
fi
ob=$block
[ "$mode" = r2 ] && ob=old_$block
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio | over the per-tensor 128x256 kernel (block-scaled goal >= 0.9) | block-scaled over $ob"
awk -v t="$tensor" -v ob="$ob" -f bench/fp8_summary.awk "$OUT/bench.txt" 2>/dev/null | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT/bench.txt" | head | tee -a "$log"
# Profile only what passed (and was kept in the list).
profiled=$(tr , '\n' <<<"$profiled" | grep -xF -f <(tr , '\n' <<<"$all") | paste -sd,)
if [ -n "$ncu" ] && [ -n "$profiled" ] && fits 20 "ncu"; then
  ncu_profile prof 35 cube4096,cube8192 "$profiled" -k regex:^gemm_ --section SourceCounters \
    --section WarpStateStats --metrics "$metrics" || status=1
  if [ ! -f "$OUT/prof.ncu-rep" ] && fits 15 "ncu without the metrics"; then
    ncu_profile prof 25 cube4096,cube8192 "$profiled" -k regex:^gemm_ --section SourceCounters \
      --section WarpStateStats --metrics gpu__time_duration.sum,sm__cycles_elapsed.max || status=1
  fi
  ncu_sass prof
fi
say "gpu_fp8n.sh $mode: exit $status after ${SECONDS}s"
exit $status
