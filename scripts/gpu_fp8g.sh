#!/usr/bin/env bash
# Issue 14 (branch fp8g): block-scaled FP8 with the scales staged in shared
# memory by the producer, and the per-row/column tile against cuBLASLt's
# OUTER_VEC. One device call a round, under 150 s:
#   scripts/gpu_fp8g.sh r1 [DIR]    (default build/cubins-fp8g-r1)
#   scripts/gpu_fp8g.sh r2 [DIR]    (default build/cubins-fp8g-r2)
#   scripts/gpu_fp8g.sh r3 [DIR]    (a second sample; default build/cubins-fp8g-r2)
# The cubins are built on the CPU machine (bench/fp8g/build_cubins.sh MODE)
# and carried in DIR.
#
# Both rounds:
#   1. gemmc-gpu-tests and gemmc-bench built;
#   2. the suite on every new or changed kernel (ragged M and N, K not a
#      multiple of 128, padded leading dimensions, bad arguments, graph
#      replay); a kernel that fails it, or every stage_scales kernel if the
#      suite times out, is not timed;
#   3. gemmc-bench, 20 timed runs, each kernel interleaved with its cuBLASLt
#      peer (per-tensor, OUTER_VEC, VEC128 x BLK128x128): cube8192 in one
#      process, prefill_mlp_up + cube4096 in a second; a ratio summary
#      (bench/fp8_summary.awk).
# r1 then times prefill_attn_out (cube8192's sizes) in a third process.
# r2 then runs the shipped block-scaled kernel (now stage_scales) and main's
# (old_) each alone for 2 s twice on cube8192 beside cuBLASLt (--sustain:
# sustained clock and power), and ncu SourceCounters of the shipped kernel
# and its peer on cube8192 (where the warps wait now: source-*.txt).
# r3 (no suite: round 2's cubins, all tested there): the shipped
# block-scaled kernels, old_ and the per-tensor and per-row/column 128x256
# kernels, 3 warm-up + 30 timed runs, on cube4096, cube8192 and
# prefill_mlp_up in one process; then the shipped 128x256 kernel alone at
# the power cap beside cuBLASLt on cube4096 and prefill_mlp_up (--sustain 2;
# round 2 did cube8192).
# $OUT gets logs.txt, suite.txt, bench-*.txt (r2: bench-sustain.txt,
# source*.txt).
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8g-${mode/r3/r2}}
log=$OUT/logs.txt status=0 budget=150
: >"$log"
[ -d "$dir" ] || { echo "gpu_fp8g.sh: no $dir; build it (bench/fp8g/build_cubins.sh $mode) and carry it" >&2; exit 2; }
say "gpu_fp8g.sh $mode: $(ls "$dir"/*.cubin | wc -l) cubins in $dir; $(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
anchors=(--suite bench/suites/anchors.yaml)
bench=$build/bin/gemmc-bench
source bench/fp8_ncu.sh
tensor=h200_fp8_e4m3_128x256_coop
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384
all=$(cd "$dir" && ls *.cubin | paste -sd,)

case $mode in
r1)
  block=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
  new=(h200_fp8_e4m3_rowcol_128x256_c12_coop h200_fp8_e4m3_rowcol_128x256_c21_coop
       h200_fp8_e4m3_rowcol_128x128_c12_coop h200_fp8_e4m3_blockscale_128x256_fold128_g1_s3_coop
       h200_fp8_e4m3_blockscale_128x256_fold128_g1_ss_coop h200_fp8_e4m3_blockscale_128x128_fold128_ss_coop
       h200_fp8_e4m3_blockscale_128x128_fold128_g1_ss_c12_coop)
  # Every kernel on cube8192; on the other shapes all but session 7's
  # per-row/column 128x128 2x1 and main's block-scaled 128x128.
  main=$(cd "$dir" && ls *.cubin | grep -v -e rowcol_128x128_c2_coop -e blockscale_128x128_fold128_coop | paste -sd,)
  ;;
r2)
  block=old_h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
  shipped=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
  new=("$shipped" h200_fp8_e4m3_blockscale_128x128_fold128_coop
       h200_fp8_e4m3_blockscale_128x256_fold128_g1_ss_c21_coop h200_fp8_e4m3_blockscale_128x256_fold128_g1_ss_c12_coop
       h200_fp8_e4m3_128x256_s3_coop h200_fp8_e4m3_rowcol_128x256_s3_coop
       fp8_blockscale_128x128_sk_ss fp8_blockscale_128x192_fold96_sk_ss fp8_blockscale_64x128_fold64_pp_ss)
  # The test/gpu kernels are correctness cases, not timed.
  all=$(cd "$dir" && ls h200_*.cubin old_*.cubin | paste -sd,)
  main=$all
  ;;
r3)
  block=old_h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
  shipped=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
  gpu_stage_build 100 || exit 1
  timed=$(printf '%s.cubin,' "$tensor" h200_fp8_e4m3_rowcol_128x256_coop "$block" "$shipped" \
    h200_fp8_e4m3_blockscale_128x128_fold128_coop)
  if fits 60 "bench, three shapes"; then
    stage bench-three "$(lim 75)" "$bench" "${anchors[@]}" --shapes cube4096,cube8192,prefill_mlp_up \
      --cubin-dir "$dir" --cubins "${timed%,}" --iters 30 --warmup 3 >"$OUT/bench-three.txt" 2>&1 || status=1
  fi
  say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio | over the per-tensor 128x256 kernel | block-scaled over $block"
  awk -v t="$tensor" -v ob="$block" -f bench/fp8_summary.awk "$OUT/bench-three.txt" | sort | tee -a "$log"
  grep -h "WRONG\|ERROR" "$OUT/bench-three.txt" | head | tee -a "$log"
  if fits 25 "sustained"; then
    stage sustain "$(lim 40)" "$bench" "${anchors[@]}" --shapes cube4096,prefill_mlp_up --cubin-dir "$dir" \
      --cubins "$shipped.cubin" --iters 20 --warmup 2 --sustain 2 >"$OUT/bench-sustain.txt" 2>&1 || status=1
    sed -n '/^sustained (--sustain)/,$p' "$OUT/bench-sustain.txt" | tee -a "$log"
  fi
  say "gpu_fp8g.sh $mode: exit $status after ${SECONDS}s"
  exit $status
  ;;
*) echo "gpu_fp8g.sh: unknown mode $mode" >&2; exit 2 ;;
esac

gpu_stage_build 100 || exit 1
cubins=()
for n in "${new[@]}"; do cubins+=("$dir/$n.cubin"); done
gpu_stage_suite "$(lim 40)" "$ragged" "${cubins[@]}"
rc=$?
grep -E "FAIL" "$OUT/suite.txt" | head -40 | tee -a "$log"
if ((rc)); then
  # No timing of a wrong kernel, nor of one that may hang (stage_scales
  # is new synchronization): drop the failing cubins, and on a time-out
  # every block-scaled kernel of this branch, from the bench lists.
  status=1
  bad=$(awk '$1 ~ /\.cubin$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
  ((rc == 124 || rc == 137)) && bad+=" $(cd "$dir" && ls *blockscale*.cubin | grep -v '^old_')"
  for x in $bad; do
    all=$(tr , '\n' <<<"$all" | grep -vx "$x" | paste -sd,)
    main=$(tr , '\n' <<<"$main" | grep -vx "$x" | paste -sd,)
  done
  say "suite exit $rc: not timed: $(echo $bad)"
fi
if fits 25 "bench on cube8192"; then
  stage bench-cube8192 "$(lim 40)" "$bench" "${anchors[@]}" --shapes cube8192 --cubin-dir "$dir" \
    --cubins "$all" --iters 20 --warmup 2 >"$OUT/bench-cube8192.txt" 2>&1 || status=1
fi
if fits 45 "bench on prefill_mlp_up and cube4096"; then
  stage bench-more "$(lim 60)" "$bench" "${anchors[@]}" --shapes prefill_mlp_up,cube4096 --cubin-dir "$dir" \
    --cubins "$main" --iters 20 --warmup 2 >"$OUT/bench-more.txt" 2>&1 || status=1
fi
if [ "$mode" = r1 ] && fits 20 "bench on prefill_attn_out"; then
  stage bench-attn "$(lim 30)" "$bench" "${anchors[@]}" --shapes prefill_attn_out --cubin-dir "$dir" \
    --cubins "$main" --iters 20 --warmup 2 >"$OUT/bench-attn.txt" 2>&1 || status=1
fi
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio (goal >= 1.0) | over the per-tensor 128x256 kernel (block-scaled goal >= 0.9) | block-scaled over $block"
cat "$OUT"/bench-*.txt 2>/dev/null | awk -v t="$tensor" -v ob="$block" -f bench/fp8_summary.awk | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT"/bench-*.txt | head | tee -a "$log"
if [ "$mode" = r2 ]; then
  if tr , '\n' <<<"$all" | grep -qx "$shipped.cubin" && fits 25 "sustained"; then
    stage sustain "$(lim 35)" "$bench" "${anchors[@]}" --shapes cube8192 --cubin-dir "$dir" \
      --cubins "$block.cubin,$shipped.cubin" --iters 20 --warmup 2 --sustain 2 >"$OUT/bench-sustain.txt" 2>&1 || status=1
    sed -n '/^sustained (--sustain)/,$p' "$OUT/bench-sustain.txt" | tee -a "$log"
  fi
  if [ -n "$ncu" ] && tr , '\n' <<<"$all" | grep -qx "$shipped.cubin" && fits 15 "ncu SourceCounters"; then
    ncu_profile source 25 cube8192 "$shipped.cubin" --section SourceCounters --section WarpStateStats \
      --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second || status=1
    ncu_sass source
  fi
fi
say "gpu_fp8g.sh $mode: exit $status after ${SECONDS}s"
exit $status
