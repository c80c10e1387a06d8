#!/usr/bin/env bash
# Issue 14 (branch fp8j): the block-scaled 128x256 g1 kernel at 4 stages
# (epilogue.buffers: 1). One device call a round, under 150 s:
#   scripts/gpu_fp8j.sh r1 [DIR]    (default build/cubins-fp8j-r1)
# The cubins are built on the CPU machine (bench/fp8j/build_cubins.sh MODE)
# and carried in DIR.
#
# r1:
#   1. gemmc-gpu-tests and gemmc-bench built;
#   2. the suite on the four new kernels (the 4-stage block-scaled _b1, the
#      3-stage _s3b1 control, the per-tensor _b1 control, _b1 in a 2x1
#      cluster, _b1_c21: ragged M and N, K
#      not a multiple of 128, padded leading dimensions, alpha, graph
#      replay, bad arguments); a kernel that fails it is not timed;
#   3. ONE gemmc-bench process, 2 warm-up + 20 timed runs, each kernel
#      interleaved with its cuBLASLt peer (per-tensor, VEC128 x BLK128x128)
#      on cube4096, cube8192, prefill_attn_out, prefill_mlp_up; a ratio
#      summary (bench/fp8_summary.awk: over the peer, over the per-tensor
#      128x256 kernel, block-scaled over old_, main's build of the shipped
#      kernel);
#   4. ncu SourceCounters of the 4-stage kernel on cube8192, if time allows.
# r2: after round 1 (the 4th stage 1.7-4.1% slower than 3 at the same ring,
#   its first part's waits longer): the suite on the 2-stage kernel (_s2);
#   one gemmc-bench process, 3 warm-up + 30 timed runs, of old_, _s2,
#   _s3b1, _b1 and the per-tensor kernel with their peers on the four
#   shapes; then ncu of old_, _s2 and _b1 on prefill_mlp_up (where the 4th
#   stage lost most): SourceCounters, the tensor pipe's active cycles, L2
#   and DRAM throughput, the clock.
# $OUT gets logs.txt, suite.txt, bench.txt, source*.txt (r2: mlp*.txt, mlp.csv).
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8j-$mode}
log=$OUT/logs.txt status=0 budget=150
: >"$log"
[ -d "$dir" ] || { echo "gpu_fp8j.sh: no $dir; build it (bench/fp8j/build_cubins.sh $mode) and carry it" >&2; exit 2; }
say "gpu_fp8j.sh $mode: $(ls "$dir"/*.cubin | wc -l) cubins in $dir; $(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
anchors=(--suite bench/suites/anchors.yaml)
bench=$build/bin/gemmc-bench
source bench/fp8_ncu.sh
tensor=h200_fp8_e4m3_128x256_coop
block=old_h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384

case $mode in
r1)
  new=(h200_fp8_e4m3_blockscale_128x256_fold128_g1_b1_coop h200_fp8_e4m3_blockscale_128x256_fold128_g1_s3b1_coop
       h200_fp8_e4m3_128x256_b1_coop h200_fp8_e4m3_blockscale_128x256_fold128_g1_b1_c21_coop)
  profiled=h200_fp8_e4m3_blockscale_128x256_fold128_g1_b1_coop
  ;;
r2)
  new=(h200_fp8_e4m3_blockscale_128x256_fold128_g1_s2_coop)
  profiled=
  ;;
*) echo "gpu_fp8j.sh: unknown mode $mode" >&2; exit 2 ;;
esac
all=$(cd "$dir" && ls h200_*.cubin old_*.cubin 2>/dev/null | paste -sd,)

gpu_stage_build 100 || exit 1
cubins=()
for n in "${new[@]}"; do cubins+=("$dir/$n.cubin"); done
gpu_stage_suite "$(lim 40)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
if ((rc)); then
  # No timing of a wrong kernel, nor of one that may hang: drop the failing
  # cubins, and on a time-out every new kernel, from the bench list.
  status=1
  bad=$(awk '$1 ~ /\.cubin$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
  ((rc == 124 || rc == 137)) && bad+=" ${new[*]/%/.cubin}"
  for x in $bad; do
    all=$(tr , '\n' <<<"$all" | grep -vx "$(basename "$x")" | paste -sd,)
  done
  say "suite exit $rc: not timed: $(echo $bad)"
fi
iters=(--iters 20 --warmup 2)
[ "$mode" = r2 ] && iters=(--iters 30 --warmup 3)
if fits 45 "bench on the four shapes"; then
  stage bench "$(lim 75)" "$bench" "${anchors[@]}" --shapes cube4096,cube8192,prefill_attn_out,prefill_mlp_up \
    --cubin-dir "$dir" --cubins "$all" "${iters[@]}" >"$OUT/bench.txt" 2>&1 || status=1
fi
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio (goal >= 1.0) | over the per-tensor 128x256 kernel (block-scaled goal >= 0.9) | block-scaled over $block"
awk -v t="$tensor" -v ob="$block" -f bench/fp8_summary.awk "$OUT/bench.txt" 2>/dev/null | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT/bench.txt" | head | tee -a "$log"
if [ -n "$ncu" ] && [ -n "$profiled" ] && tr , '\n' <<<"$all" | grep -qx "$profiled.cubin" && fits 15 "ncu SourceCounters"; then
  ncu_profile source 25 cube8192 "$profiled.cubin" --section SourceCounters --section WarpStateStats \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second || status=1
  ncu_sass source
fi
# r2: the three depths side by side where the 4th stage lost most.
if [ "$mode" = r2 ] && [ -n "$ncu" ] && fits 20 "ncu of three depths on prefill_mlp_up"; then
  depths=$(tr , '\n' <<<"$all" | grep -E "^old_|_g1_s2_|_g1_b1_coop" | paste -sd,)
  ncu_profile mlp 35 prefill_mlp_up "$depths" -k regex:^gemm_ --section SourceCounters --section WarpStateStats \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed || status=1
  ncu_sass mlp
fi
say "gpu_fp8j.sh $mode: exit $status after ${SECONDS}s"
exit $status
