#!/usr/bin/env bash
# Issue 14 (branch fp8h): block-scaled FP8 with A in registers. One device
# call a round, under 150 s:
#   scripts/gpu_fp8h.sh r1 [DIR]    (default build/cubins-fp8h-r1)
#   scripts/gpu_fp8h.sh r2 [DIR]    (default build/cubins-fp8h-r2)
#   scripts/gpu_fp8h.sh r3 [DIR]    (default build/cubins-fp8h-r3)
# The cubins are built on the CPU machine (bench/fp8h/build_cubins.sh MODE)
# and carried in DIR.
#
# r1:
#   1. gemmc-gpu-tests and gemmc-bench built;
#   2. the suite on the new a_registers kernel and on the shipped block-scaled
#      kernel as this branch builds it (ragged M and N, K not a multiple of
#      128, padded leading dimensions, bad arguments, graph replay); a kernel
#      that fails it (every a_registers kernel if the suite times out) is
#      not timed;
#   3. gemmc-bench, 20 timed runs, each kernel interleaved with its cuBLASLt
#      peer (per-tensor, VEC128 x BLK128x128): cube8192 in one process,
#      prefill_mlp_up + cube4096 in a second; a ratio summary
#      (bench/fp8_summary.awk: over the peer, over the per-tensor 128x256
#      kernel, over old_, main's build of the shipped block-scaled kernel);
#   4. ncu SourceCounters of the a_registers kernel on cube8192 (where its
#      warps wait: source-*.txt), if the time allows.
# r2: the same, after round 1 (a_registers measured 4-6% slower: the
#   ldmatrix lies on the path from a warpgroup's last half to its next K
#   tile's first); the shipped kernel, which now waits for the next K tile's
#   stage and reads its scales under the last half, is the profiled one; the
#   suite adds the new test/gpu cases (stream_k pieces, pingpong); then a
#   second sample of the shipped kernel and old_ (30 timed runs) on cube8192
#   and prefill_mlp_up, and both alone at the power cap beside cuBLASLt on
#   cube8192 (--sustain 2), as the time allows.
# r3: the shipped kernel now also waits for its second half's turn while the
#   first half runs; timed against r2_ (round 2's build of it) and old_ as in
#   r2 (the suite on it and on the stream_k case first), then ncu of it, a
#   second sample of it against r2_, and the power-cap run, as the time allows.
# $OUT gets logs.txt, suite.txt, bench-*.txt, source*.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8h-$mode}
log=$OUT/logs.txt status=0 budget=150
: >"$log"
[ -d "$dir" ] || { echo "gpu_fp8h.sh: no $dir; build it (bench/fp8h/build_cubins.sh $mode) and carry it" >&2; exit 2; }
say "gpu_fp8h.sh $mode: $(ls "$dir"/*.cubin | wc -l) cubins in $dir; $(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
anchors=(--suite bench/suites/anchors.yaml)
bench=$build/bin/gemmc-bench
source bench/fp8_ncu.sh
tensor=h200_fp8_e4m3_128x256_coop
block=old_h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384

case $mode in
r1)
  new=(h200_fp8_e4m3_blockscale_128x256_fold128_g1_ar_coop h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop)
  profiled=h200_fp8_e4m3_blockscale_128x256_fold128_g1_ar_coop
  ;;
r2)
  shipped=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
  new=(h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop h200_fp8_e4m3_blockscale_128x256_fold128_g1_ar_coop
       fp8_blockscale_128x256_fold128_g1_sk_ss fp8_blockscale_64x256_fold128_g1_pp_ss)
  profiled=$shipped
  ;;
r3)
  shipped=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
  new=(h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop fp8_blockscale_128x256_fold128_g1_sk_ss)
  profiled=$shipped
  ;;
*) echo "gpu_fp8h.sh: unknown mode $mode" >&2; exit 2 ;;
esac
# The test/gpu kernels are correctness cases, not timed.
all=$(cd "$dir" && ls h200_*.cubin old_*.cubin r2_*.cubin 2>/dev/null | paste -sd,)

gpu_stage_build 100 || exit 1
cubins=()
for n in "${new[@]}"; do cubins+=("$dir/$n.cubin"); done
gpu_stage_suite "$(lim 40)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
if ((rc)); then
  # No timing of a wrong kernel, nor of one that may hang: drop the failing
  # cubins, and on a time-out every a_registers kernel, from the bench list.
  status=1
  bad=$(awk '$1 ~ /\.cubin$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
  ((rc == 124 || rc == 137)) && bad+=" $(cd "$dir" && ls *_ar*.cubin)"
  for x in $bad; do
    all=$(tr , '\n' <<<"$all" | grep -vx "$x" | paste -sd,)
  done
  say "suite exit $rc: not timed: $(echo $bad)"
fi
if fits 25 "bench on cube8192"; then
  stage bench-cube8192 "$(lim 35)" "$bench" "${anchors[@]}" --shapes cube8192 --cubin-dir "$dir" \
    --cubins "$all" --iters 20 --warmup 2 >"$OUT/bench-cube8192.txt" 2>&1 || status=1
fi
if fits 40 "bench on prefill_mlp_up and cube4096"; then
  stage bench-more "$(lim 55)" "$bench" "${anchors[@]}" --shapes prefill_mlp_up,cube4096 --cubin-dir "$dir" \
    --cubins "$all" --iters 20 --warmup 2 >"$OUT/bench-more.txt" 2>&1 || status=1
fi
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio (goal >= 1.0) | over the per-tensor 128x256 kernel (block-scaled goal >= 0.9) | block-scaled over $block"
cat "$OUT"/bench-*.txt 2>/dev/null | awk -v t="$tensor" -v ob="$block" -f bench/fp8_summary.awk | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT"/bench-*.txt | head | tee -a "$log"
if [ -n "$ncu" ] && tr , '\n' <<<"$all" | grep -qx "$profiled.cubin" && fits 15 "ncu SourceCounters"; then
  ncu_profile source 25 cube8192 "$profiled.cubin" --section SourceCounters --section WarpStateStats \
    --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second || status=1
  ncu_sass source
fi
# r3: the second sample is against round 2's build.
again=$block
[ "$mode" = r3 ] && again=r2_$shipped
if [ "$mode" != r1 ] && tr , '\n' <<<"$all" | grep -qx "$shipped.cubin"; then
  if fits 20 "second sample"; then
    stage again "$(lim 30)" "$bench" "${anchors[@]}" --shapes cube8192,prefill_mlp_up --cubin-dir "$dir" \
      --cubins "$again.cubin,$shipped.cubin" --iters 30 --warmup 3 >"$OUT/again.txt" 2>&1 || status=1
    say "second sample (30 timed runs; block-scaled over $again)"
    awk -v t="$tensor" -v ob="$again" -f bench/fp8_summary.awk "$OUT/again.txt" | sort | tee -a "$log"
  fi
  if fits 25 "sustained"; then
    stage sustain "$(lim 35)" "$bench" "${anchors[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$block.cubin,$shipped.cubin" --iters 20 --warmup 2 --sustain 2 >"$OUT/bench-sustain.txt" 2>&1 || status=1
    sed -n '/^sustained (--sustain)/,$p' "$OUT/bench-sustain.txt" | tee -a "$log"
  fi
fi
say "gpu_fp8h.sh $mode: exit $status after ${SECONDS}s"
exit $status
