#!/usr/bin/env bash
# Issue 14 (branch fp8g): block-scaled FP8 with the scales staged in shared
# memory by the producer, and the per-row/column tile against cuBLASLt's
# OUTER_VEC. One device call a round, under 150 s:
#   scripts/gpu_fp8g.sh r1 [DIR]    (default build/cubins-fp8g-r1)
#   scripts/gpu_fp8g.sh r2 [DIR]    (default build/cubins-fp8g-r2)
# The cubins are built on the CPU machine (bench/fp8g/build_cubins.sh MODE)
# and carried in DIR.
#
# r1:
#   1. gemmc-gpu-tests and gemmc-bench built;
#   2. the suite on every new kernel (ragged M and N, K not a multiple of
#      128, padded leading dimensions, bad arguments, graph replay);
#   3. gemmc-bench, 20 timed runs, each kernel interleaved with its cuBLASLt
#      peer (per-tensor, OUTER_VEC, VEC128 x BLK128x128): cube8192 in one
#      process, prefill_mlp_up + cube4096 in a second, prefill_attn_out
#      (cube8192's sizes) in a third if there is time; a ratio summary
#      (bench/fp8_summary.awk).
# $OUT gets logs.txt, suite.txt, bench-*.txt.
source "$(dirname "$0")/gpu_common.sh"
mode=${1:-r1}
dir=${2:-build/cubins-fp8g-$mode}
log=$OUT/logs.txt status=0 budget=150
: >"$log"
[ -d "$dir" ] || { echo "gpu_fp8g.sh: no $dir; build it (bench/fp8g/build_cubins.sh $mode) and carry it" >&2; exit 2; }
say "gpu_fp8g.sh $mode: $(ls "$dir"/*.cubin | wc -l) cubins in $dir; $(nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader 2>/dev/null)"
anchors=(--suite bench/suites/anchors.yaml)
bench=$build/bin/gemmc-bench
tensor=h200_fp8_e4m3_128x256_coop
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,4096x4096x4096,2048x2048x16384

case $mode in
r1)
  block=h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop
  new=(h200_fp8_e4m3_rowcol_128x256_c12_coop h200_fp8_e4m3_rowcol_128x256_c21_coop
       h200_fp8_e4m3_rowcol_128x128_c12_coop h200_fp8_e4m3_blockscale_128x256_fold128_g1_s3_coop
       h200_fp8_e4m3_blockscale_128x256_fold128_g1_ss_coop h200_fp8_e4m3_blockscale_128x128_fold128_ss_coop
       h200_fp8_e4m3_blockscale_128x128_fold128_g1_ss_c12_coop)
  # Every kernel on cube8192; on the other shapes all but session 7's
  # per-row/column 128x128 2x1 and main's block-scaled 128x128.
  all=$(cd "$dir" && ls *.cubin | paste -sd,)
  main=$(cd "$dir" && ls *.cubin | grep -v -e rowcol_128x128_c2_coop -e blockscale_128x128_fold128_coop | paste -sd,)
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
  # every stage_scales kernel, from the bench lists.
  status=1
  bad=$(awk '$1 ~ /\.cubin$/ && $NF != "pass" {print $1}' "$OUT/suite.txt" | sort -u)
  ((rc == 124 || rc == 137)) && bad+=" $(cd "$dir" && ls *_ss_*.cubin)"
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
if fits 20 "bench on prefill_attn_out"; then
  stage bench-attn "$(lim 30)" "$bench" "${anchors[@]}" --shapes prefill_attn_out --cubin-dir "$dir" \
    --cubins "$main" --iters 20 --warmup 2 >"$OUT/bench-attn.txt" 2>&1 || status=1
fi
say "summary: each kernel's TFLOP/s | its cuBLASLt peer and the ratio (goal >= 1.0) | over the per-tensor 128x256 kernel (block-scaled goal >= 0.9) | block-scaled over the shipped block-scaled kernel"
cat "$OUT"/bench-*.txt 2>/dev/null | awk -v t="$tensor" -v ob="$block" -f bench/fp8_summary.awk | sort | tee -a "$log"
grep -h "WRONG\|ERROR" "$OUT"/bench-*.txt | head | tee -a "$log"
say "gpu_fp8g.sh $mode: exit $status after ${SECONDS}s"
exit $status
